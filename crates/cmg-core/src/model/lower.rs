//! Lowering: the syntax tree to declarations (mentions, edges, labels, expectations) and the graph.

use cmg_syntax::{Label, NodeRef, Parse, StatementKind, TextRange, MAX_NODE_ID};

use super::{Diagnostic, DiagnosticKind, Graph, Model};

/// One place a node id appears.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mention {
    pub id: u32,
    pub range: TextRange,
    pub kind: MentionKind,
    /// The index of the statement in the syntax tree.
    pub statement: u32,
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
    /// The index of the statement in the syntax tree.
    pub statement: u32,
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
    /// A link of a one-way chain, `a -> b`: a move from a to b only.
    Arc,
}

impl EdgeOrigin {
    /// The range of the pair of ends at `a` and `b`: from `a` to `b` in a chain, the
    /// neighbour `b` in a list.
    pub(super) fn pair_range(self, a: TextRange, b: TextRange) -> TextRange {
        match self {
            EdgeOrigin::Chain | EdgeOrigin::Arc => a.cover(b),
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
    pub statement: u32,
    pub origin: EdgeOrigin,
}

impl EdgePair {
    pub fn is_self_loop(&self) -> bool {
        self.a == self.b
    }

    /// The edge as an unordered pair.
    pub fn key(&self) -> (u32, u32) {
        (self.a.min(self.b), self.a.max(self.b))
    }
}

/// The most edge pairs a file may declare, counted as written before products are
/// expanded (`{a b c} -- {d e}` is six, repeats and self-loops included). Beyond it the
/// graph is not built: a 2 MB file can write a product of 10^10 pairs, and at about 30
/// bytes of work memory per pair (the adjacency lists, the duplicate check) four
/// million keep any file's check near 100 MB. `docs/dev/decisions.md` explains the figure.
pub const MAX_EDGE_PAIRS: u64 = 4_000_000;

pub(super) fn lower(parse: &Parse, max_edge_pairs: u64) -> Model {
    let mut model = Model::default();
    // Most statements of a large file are `a -- b`: two mentions and one declaration.
    let statements = parse.file.statements.len();
    model.mentions.reserve(2 * statements);
    model.edges.reserve(statements);
    // The pairs declared so far, and whether a statement has crossed `max_edge_pairs`:
    // from then on mentions are still recorded, but no edge declaration is.
    let mut declared_pairs = 0u64;
    let mut labels: Vec<(u32, Label)> = Vec::new();
    let mut rule_decls: Vec<cmg_syntax::RuleDecl> = Vec::new();
    model
        .diagnostics
        .extend(parse.errors.iter().enumerate().map(|(index, error)| {
            Diagnostic::new(
                error.range,
                DiagnosticKind::Syntax {
                    error: index as u32,
                },
            )
        }));

    for (statement, stmt) in parse.file.statements.iter().enumerate() {
        // Statements are fewer than bytes, and a document is far below 4 GiB.
        let statement = statement as u32;
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
        if let StatementKind::Edges(groups) = &stmt.kind {
            // `a -- b`, what most lines of a large file are: the steps below for one
            // link of two single ids, without walking groups and products.
            if let Some((a, b)) = single_link(groups) {
                let first = model.mentions.len() as u32;
                for (id, range) in [a, b] {
                    model.mentions.push(Mention {
                        id,
                        range,
                        kind: MentionKind::Edge,
                        statement,
                    });
                }
                if admit_pairs(
                    &mut model,
                    &mut declared_pairs,
                    1,
                    max_edge_pairs,
                    stmt.range,
                ) {
                    model.edges.push(EdgeDecl {
                        range: groups[0].range.cover(groups[1].range),
                        statement,
                        origin: EdgeOrigin::Chain,
                        left: first..first + 1,
                        right: first + 1..first + 2,
                    });
                }
                continue;
            }
        }
        match &stmt.kind {
            StatementKind::Rule(decl) => rule_decls.push(decl.clone()),
            StatementKind::Edges(groups) | StatementKind::Arcs(groups) => {
                let origin = match stmt.kind {
                    StatementKind::Arcs(_) => EdgeOrigin::Arc,
                    _ => EdgeOrigin::Chain,
                };
                // Each group's mentions are consecutive; a product refers to them.
                let mut previous: Option<(std::ops::Range<u32>, TextRange)> = None;
                for group in groups {
                    let first = model.mentions.len() as u32;
                    for &node in &group.members {
                        mention(node, MentionKind::Edge, &mut model);
                    }
                    let ends = first..model.mentions.len() as u32;
                    if let Some((left, left_range)) = previous.take() {
                        let pairs =
                            u64::from(left.end - left.start) * u64::from(ends.end - ends.start);
                        if !admit_pairs(
                            &mut model,
                            &mut declared_pairs,
                            pairs,
                            max_edge_pairs,
                            stmt.range,
                        ) {
                            previous = Some((ends, group.range));
                            continue;
                        }
                        model.edges.push(EdgeDecl {
                            range: left_range.cover(group.range),
                            statement,
                            origin,
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
                        if mention(node, MentionKind::Edge, &mut model).is_some()
                            && admit_pairs(
                                &mut model,
                                &mut declared_pairs,
                                1,
                                max_edge_pairs,
                                stmt.range,
                            )
                        {
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

    // The reservations above are guesses; what the model keeps is what it holds.
    model.mentions.shrink_to_fit();
    model.edges.shrink_to_fit();
    // Dense indices once per mention, so that the graph takes each product as slices.
    let (ids, mention_nodes) = dense_indices(&model.mentions);
    model.mention_nodes = mention_nodes;
    let nodes = |range: &std::ops::Range<u32>| {
        &model.mention_nodes[range.start as usize..range.end as usize]
    };
    (model.graph, model.has_repeats) = Graph::from_products(
        ids,
        model
            .edges
            .iter()
            .filter(|edge| edge.origin != EdgeOrigin::Arc)
            .map(|edge| (nodes(&edge.left), nodes(&edge.right))),
        labels.iter().map(|(id, label)| (*id, label.value.clone())),
    );
    let rules = super::rules::read(&rule_decls, &mut model.diagnostics);
    let arcs: Vec<(u32, u32)> = model
        .edges
        .iter()
        .filter(|edge| edge.origin == EdgeOrigin::Arc)
        .flat_map(|edge| {
            let (left, right) = (nodes(&edge.left), nodes(&edge.right));
            left.iter()
                .flat_map(move |&a| right.iter().map(move |&b| (a, b)))
        })
        .collect();
    model.graph.set_rules(rules, arcs);
    model.labels = labels;
    model
}

/// The node ids mentioned, ascending and without repeats, and the index of each
/// mention's id among them. Ids are usually about as many as the mentions and close to
/// `0..n`; then a table indexed by id finds them in one pass, with no sort and no
/// binary search per mention (on a file of 150 000 mentions that is most of lowering).
/// Sparse ids (`0 -- 4000000000`) are sorted instead, so memory stays linear in the file.
fn dense_indices(mentions: &[Mention]) -> (Vec<u32>, Vec<u32>) {
    let Some(max_id) = mentions.iter().map(|mention| mention.id).max() else {
        return (Vec::new(), Vec::new());
    };
    if (max_id as usize) < 4 * mentions.len() + 1024 {
        const ABSENT: u32 = u32::MAX;
        let mut index_of_id = vec![ABSENT; max_id as usize + 1];
        for mention in mentions {
            index_of_id[mention.id as usize] = 0;
        }
        let mut ids = Vec::new();
        for (id, index) in index_of_id.iter_mut().enumerate() {
            if *index != ABSENT {
                *index = ids.len() as u32;
                ids.push(id as u32);
            }
        }
        let nodes = mentions
            .iter()
            .map(|mention| index_of_id[mention.id as usize])
            .collect();
        return (ids, nodes);
    }
    let mut ids: Vec<u32> = mentions.iter().map(|mention| mention.id).collect();
    ids.sort_unstable();
    ids.dedup();
    let nodes = mentions
        .iter()
        .map(|mention| ids.partition_point(|&id| id < mention.id) as u32)
        .collect();
    (ids, nodes)
}

/// The two ids and ranges of a chain that is one link of two single ids (`a -- b`), both
/// within the language's range; `None` for any other chain.
fn single_link(groups: &[cmg_syntax::Group]) -> Option<((u32, TextRange), (u32, TextRange))> {
    let [left, right] = groups else {
        return None;
    };
    let ([a], [b]) = (&left.members[..], &right.members[..]) else {
        return None;
    };
    Some(((a.id?, a.range), (b.id?, b.range)))
}

/// Whether a declaration of `pairs` more edge pairs fits under `max_edge_pairs`. The
/// first one that does not gets `too-many-edges` at its statement and closes the file
/// to edges: nothing after it is declared either, so the graph is the file's up to the
/// declaration (a link of a chain, an entry of a list) that crosses.
fn admit_pairs(
    model: &mut Model,
    declared: &mut u64,
    pairs: u64,
    max_edge_pairs: u64,
    statement: TextRange,
) -> bool {
    if model.edges_truncated {
        return false;
    }
    match declared
        .checked_add(pairs)
        .filter(|&total| total <= max_edge_pairs)
    {
        Some(total) => {
            *declared = total;
            true
        }
        None => {
            model.edges_truncated = true;
            model.diagnostics.push(Diagnostic::new(
                statement,
                DiagnosticKind::TooManyEdges {
                    limit: max_edge_pairs,
                },
            ));
            false
        }
    }
}

fn too_large(range: TextRange) -> Diagnostic {
    Diagnostic::new(range, DiagnosticKind::NumberTooLarge)
}

#[cfg(test)]
mod tests {
    use crate::model::{Code, Model};
    use cmg_syntax::{parse, TextRange};

    use super::{dense_indices, Mention, MentionKind};

    /// Dense ids by table (ids close to `0..n`) and by sorting (sparse ids) against a
    /// plain sort and search, on id sets from compact to very sparse.
    #[test]
    fn dense_indices_number_ids_in_ascending_order() {
        let mut rng = cmg_solve::test_rng::XorShift(0x9E37_79B9_7F4A_7C15);
        let mut next = |bound: u64| rng.next_u64() % bound;
        for spread in [1u64, 3, 50, 10_000, u64::from(u32::MAX)] {
            for count in [0u64, 1, 7, 300, 3000] {
                let mentions: Vec<Mention> = (0..count)
                    .map(|_| Mention {
                        id: next(spread * count.max(1)).min(u64::from(u32::MAX)) as u32,
                        range: TextRange::default(),
                        kind: MentionKind::Edge,
                        statement: 0,
                    })
                    .collect();
                let mut expected_ids: Vec<u32> = mentions.iter().map(|m| m.id).collect();
                expected_ids.sort_unstable();
                expected_ids.dedup();
                let expected_nodes: Vec<u32> = mentions
                    .iter()
                    .map(|m| expected_ids.binary_search(&m.id).unwrap() as u32)
                    .collect();
                let (ids, nodes) = dense_indices(&mentions);
                assert_eq!(ids, expected_ids, "spread {spread}, {count} mentions");
                assert_eq!(nodes, expected_nodes, "spread {spread}, {count} mentions");
            }
        }
    }

    fn model(text: &str, max_edge_pairs: u64) -> Model {
        Model::with_edge_limit(text, &parse(text), max_edge_pairs)
    }

    fn codes(model: &Model) -> Vec<Code> {
        model.diagnostics.iter().map(|d| d.code).collect()
    }

    /// The limit counts pairs as written: a product at the limit is built whole, and the
    /// statement that crosses it gets the error, at its own range; the graph keeps the
    /// declarations before the one that crosses. Nothing after it is declared, and the checks that read the whole
    /// graph (here `mouse-stuck` for node 1) stay quiet about a graph that is not the
    /// file's.
    #[test]
    fn the_statement_that_crosses_the_edge_limit_gets_the_error_and_the_graph_stops_there() {
        let text = "{1 2 3 4} -- {5 6 7}\n0 -- 8 -- 2\n[[1], [0]]\n";
        let at_limit = model(text, 12 + 2 + 2);
        assert_eq!(codes(&at_limit), []);
        assert!(!at_limit.edges_truncated);

        let crossing = model(text, 13);
        assert_eq!(codes(&crossing), [Code::TooManyEdges]);
        let error = &crossing.diagnostics[0];
        assert_eq!(&text[error.range.to_usize()], "0 -- 8 -- 2");
        assert_eq!(
            error.message(text, &parse(text)),
            "this statement takes the file past 13 declared edges (a group product counts each of its pairs), so the graph stops there and its outcome is unknown: split the file, or use fewer or smaller products"
        );
        // The product and the link 0 -- 8 fit; 8 -- 2 is the 14th pair.
        assert_eq!(crossing.graph.edge_count(), 13);
        assert_eq!(crossing.edges.len(), 2);
        assert!(crossing.edges_truncated);
        // Every node is still known, so hover and navigation work on all of them.
        assert_eq!(crossing.graph.node_count(), 9);
    }

    /// An adjacency literal counts one pair per entry and stops at the entry that
    /// crosses, with the error on the whole literal; a product far beyond the limit
    /// (10^10 pairs here in words, 4 · 10^6 in the test) is refused before any pair is
    /// made.
    #[test]
    fn adjacency_entries_and_huge_products_count_against_the_limit() {
        let text = "[[1, 2], [0], [0]]\n";
        let crossing = model(text, 3);
        assert_eq!(codes(&crossing), [Code::TooManyEdges]);
        assert_eq!(
            &text[crossing.diagnostics[0].range.to_usize()],
            text.trim_end()
        );
        assert_eq!(crossing.graph.edge_count(), 2);

        let members = (0..2000)
            .map(|id| id.to_string())
            .collect::<Vec<_>>()
            .join(" ");
        let text = format!("{{{members}}} -- {{{members}}}\n");
        let product = model(&text, 3_999_999);
        assert_eq!(codes(&product), [Code::TooManyEdges]);
        assert_eq!(product.graph.edge_count(), 0);
        assert_eq!(product.graph.node_count(), 2000);
        assert!(product.edges.is_empty());
    }
}
