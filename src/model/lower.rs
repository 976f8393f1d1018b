//! Lowering: the syntax tree to declarations (mentions, edges, labels, expectations) and the graph.

use crate::syntax::{Label, NodeRef, Parse, StatementKind, TextRange, MAX_NODE_ID};

use super::{Code, Diagnostic, Graph, Model, NO_DECLARATION};

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

/// One edge declaration as written: a group product `A -- B` (one link of a chain,
/// standing for every pair of a member of `A` and a member of `B`), or one entry `b`
/// of list `a` in an adjacency literal. A product of two groups of a thousand members
/// is one declaration, not a million: its pairs are produced on demand by
/// [`Model::pairs`](super::Model::pairs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EdgeDecl {
    /// For a chain, from the first group to the second; for a listed edge, the neighbour.
    pub range: TextRange,
    pub statement: usize,
    pub origin: EdgeOrigin,
    /// The ends on each side, as ranges of indices into `Model::mentions`. For a listed
    /// edge the left end is the list (a `ListIndex` mention), the right one the neighbour.
    pub(super) left: std::ops::Range<u32>,
    pub(super) right: std::ops::Range<u32>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EdgeOrigin {
    Chain,
    Listed,
}

impl EdgeOrigin {
    /// The range of the pair of ends at `a` and `b`: from `a` to `b` in a chain, the
    /// neighbour `b` in a list.
    pub(super) fn pair_range(self, a: TextRange, b: TextRange) -> TextRange {
        match self {
            EdgeOrigin::Chain => a.cover(b),
            EdgeOrigin::Listed => b,
        }
    }
}

/// One pair of an edge declaration: `a -- b` in a chain, or `b` in list `a` of an
/// adjacency literal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EdgePair {
    pub a: u32,
    pub b: u32,
    /// For a chain, from `a` to `b`; for a listed edge, the neighbour `b`.
    pub range: TextRange,
    pub statement: usize,
    pub origin: EdgeOrigin,
}

impl EdgePair {
    pub(crate) fn is_self_loop(&self) -> bool {
        self.a == self.b
    }

    /// The edge as an unordered pair.
    pub(crate) fn key(&self) -> (u32, u32) {
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
                // Each group's mentions are consecutive; a product refers to them.
                let mut previous: Option<(std::ops::Range<u32>, TextRange)> = None;
                for group in groups {
                    let first = model.mentions.len() as u32;
                    for &node in &group.members {
                        mention(node, MentionKind::Edge, &mut model);
                    }
                    let ends = first..model.mentions.len() as u32;
                    if let Some((left, left_range)) = previous.take() {
                        note_declaration(&mut model, &left);
                        note_declaration(&mut model, &ends);
                        model.edges.push(EdgeDecl {
                            range: left_range.cover(group.range),
                            statement,
                            origin: EdgeOrigin::Chain,
                            left,
                            right: ends.clone(),
                        });
                    }
                    previous = Some((ends, group.range));
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
                    let list_mention = model.mentions.len() as u32;
                    mention(list_ref, MentionKind::ListIndex, &mut model);
                    for &node in &list.neighbours {
                        let neighbour = model.mentions.len() as u32;
                        if mention(node, MentionKind::Edge, &mut model).is_some() {
                            note_declaration(&mut model, &(list_mention..list_mention + 1));
                            note_declaration(&mut model, &(neighbour..neighbour + 1));
                            model.edges.push(EdgeDecl {
                                range: node.range,
                                statement,
                                origin: EdgeOrigin::Listed,
                                left: list_mention..list_mention + 1,
                                right: neighbour..neighbour + 1,
                            });
                        }
                    }
                }
            }
        }
    }

    model
        .first_declaration
        .resize(model.mentions.len(), NO_DECLARATION);
    // Dense indices once per mention, so that the graph takes each product as slices.
    let mut ids: Vec<u32> = model.mentions.iter().map(|mention| mention.id).collect();
    ids.sort_unstable();
    ids.dedup();
    model.mention_nodes = model
        .mentions
        .iter()
        .map(|mention| ids.partition_point(|&id| id < mention.id) as u32)
        .collect();
    let nodes = |range: &std::ops::Range<u32>| {
        &model.mention_nodes[range.start as usize..range.end as usize]
    };
    model.graph = Graph::from_products(
        ids,
        model
            .edges
            .iter()
            .map(|edge| (nodes(&edge.left), nodes(&edge.right))),
        labels.iter().map(|(id, label)| (*id, label.value.clone())),
    );
    model.labels = labels;
    model
}

/// Records, for each mention in `mentions` that has none yet, the declaration about to
/// be pushed as the first that includes it.
fn note_declaration(model: &mut Model, mentions: &std::ops::Range<u32>) {
    let declaration = model.edges.len() as u32;
    let first = &mut model.first_declaration;
    first.resize(model.mentions.len(), NO_DECLARATION);
    for index in mentions.clone() {
        let slot = &mut first[index as usize];
        if *slot == NO_DECLARATION {
            *slot = declaration;
        }
    }
}

fn too_large(range: TextRange) -> Diagnostic {
    Diagnostic::new(
        Code::NumberTooLarge,
        range,
        format!("this node id is too large: ids go from 0 to {MAX_NODE_ID}"),
    )
}
