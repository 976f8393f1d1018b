//! Lowering: the syntax tree to declarations (mentions, edges, labels, expectations) and the graph.

use crate::syntax::{Label, NodeRef, Parse, StatementKind, TextRange, MAX_NODE_ID};

use super::{Code, Diagnostic, Graph, Model};

/// One place a node id appears.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mention {
    pub id: u32,
    pub range: TextRange,
    pub kind: MentionKind,
    /// The index of the statement in the syntax tree.
    pub statement: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MentionKind {
    /// An id in an edge chain or in an adjacency list.
    Edge,
    /// The id of a `node` statement.
    Declaration,
    /// List `i` of an adjacency literal declares node `i`; the range is the whole list.
    ListIndex,
}

/// One edge as written: `a -- b` in a chain, or `b` in list `a` of an adjacency literal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EdgeDecl {
    pub a: u32,
    pub b: u32,
    /// For a chain, from `a` to `b`; for a listed edge, the neighbour `b`.
    pub range: TextRange,
    pub statement: usize,
    pub origin: EdgeOrigin,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EdgeOrigin {
    Chain,
    Listed,
}

impl EdgeDecl {
    pub fn is_self_loop(&self) -> bool {
        self.a == self.b
    }

    /// The edge as an unordered pair.
    pub fn key(&self) -> (u32, u32) {
        (self.a.min(self.b), self.a.max(self.b))
    }
}

pub(super) fn lower(parse: &Parse) -> Model {
    let mut model = Model::default();
    let mut labels: Vec<(u32, Label)> = Vec::new();
    model.diagnostics.extend(
        parse
            .errors
            .iter()
            .map(|error| Diagnostic::new(Code::Syntax, error.range, error.message.clone())),
    );

    for (statement, stmt) in parse.file.statements.iter().enumerate() {
        let mention = |node: NodeRef, kind: MentionKind, model: &mut Model| {
            let Some(id) = node.id else {
                model.diagnostics.push(too_large(node.range));
                return None;
            };
            model.mentions.push(Mention {
                id,
                range: node.range,
                kind,
                statement,
            });
            Some(id)
        };
        match &stmt.kind {
            StatementKind::Edges(groups) => {
                let ids: Vec<Vec<(u32, TextRange)>> = groups
                    .iter()
                    .map(|group| {
                        group
                            .members
                            .iter()
                            .filter_map(|&node| {
                                mention(node, MentionKind::Edge, &mut model)
                                    .map(|id| (id, node.range))
                            })
                            .collect()
                    })
                    .collect();
                for pair in ids.windows(2) {
                    for &(a, a_range) in &pair[0] {
                        for &(b, b_range) in &pair[1] {
                            model.edges.push(EdgeDecl {
                                a,
                                b,
                                range: a_range.cover(b_range),
                                statement,
                                origin: EdgeOrigin::Chain,
                            });
                        }
                    }
                }
            }
            StatementKind::Node(decl) => {
                if let Some(id) = mention(decl.node, MentionKind::Declaration, &mut model) {
                    if let Some(label) = &decl.label {
                        labels.push((id, label.clone()));
                    }
                }
            }
            StatementKind::Expect(expect) => model.expects.push(*expect),
            StatementKind::Adjacency(lists) => {
                for (index, list) in lists.iter().enumerate() {
                    let Some(a) = u32::try_from(index).ok().filter(|&a| a <= MAX_NODE_ID) else {
                        model.diagnostics.push(too_large(list.range));
                        continue;
                    };
                    let list_ref = NodeRef {
                        id: Some(a),
                        range: list.range,
                    };
                    mention(list_ref, MentionKind::ListIndex, &mut model);
                    for &node in &list.neighbours {
                        if let Some(b) = mention(node, MentionKind::Edge, &mut model) {
                            model.edges.push(EdgeDecl {
                                a,
                                b,
                                range: node.range,
                                statement,
                                origin: EdgeOrigin::Listed,
                            });
                        }
                    }
                }
            }
        }
    }

    model.graph = Graph::new(
        model.mentions.iter().map(|mention| mention.id).collect(),
        model.edges.iter().map(|edge| (edge.a, edge.b)),
        labels.iter().map(|(id, label)| (*id, label.value.clone())),
    );
    model.labels = labels;
    model
}

fn too_large(range: TextRange) -> Diagnostic {
    Diagnostic::new(
        Code::NumberTooLarge,
        range,
        format!("this node id is too large: ids go from 0 to {MAX_NODE_ID}"),
    )
}
