//! The meaning of a file: the graph it declares, and every diagnostic that needs no solving.

mod diagnostic;
mod graph;
mod lower;
mod rules;
mod validate;

pub use diagnostic::has_errors;
pub use diagnostic::{
    describe_outcome, Code, Diagnostic, DiagnosticKind, MemorySetting, Related, Rendered, Severity,
    TooLarge, Within,
};
pub use graph::{Graph, NodeRole};
pub use lower::{EdgeDecl, EdgeOrigin, EdgePair, Mention, MentionKind, MAX_EDGE_PAIRS};
pub use rules::{RuleArgument, Rules};

use cmg_syntax::{vec_bytes, Expect, Label, Parse};

/// What a parsed file declares, with the places it declares it.
#[derive(Clone, Debug, Default)]
pub struct Model {
    pub graph: Graph,
    /// Every mention of a node id, in source order.
    pub mentions: Vec<Mention>,
    /// Every edge declaration, self-loops and duplicates included, in source order; a
    /// group product is one declaration (its pairs come from [`Model::pairs`]).
    pub edges: Vec<EdgeDecl>,
    pub expects: Vec<Expect>,
    /// Every label given by a `node` statement, in source order.
    pub labels: Vec<(u32, Label)>,
    /// Whether a statement crossed [`MAX_EDGE_PAIRS`] (`too-many-edges`): the graph then
    /// holds only the edges declared before it, and it is not solved.
    pub edges_truncated: bool,
    /// Syntax errors and every check of the model, sorted by position (those at one
    /// place in the order of their checks).
    pub diagnostics: Vec<Diagnostic>,
    /// Indices into `mentions` grouped by node (dense index order), each group in
    /// source order: node `i`'s are `by_node[node_starts[i]..node_starts[i + 1]]`.
    by_node: Vec<u32>,
    node_starts: Vec<u32>,
    /// The dense node index of each mention.
    mention_nodes: Vec<u32>,
    /// For each node (dense index), whether the declarations join it to itself or to
    /// some node more than once; see [`Graph::from_products`].
    has_repeats: Vec<bool>,
}

/// Orders diagnostics as a reader meets them; those at one place keep their order (a
/// stable sort).
pub(crate) fn sort_by_position(diagnostics: &mut [Diagnostic]) {
    let key = |d: &Diagnostic| (d.range.start, d.range.end);
    // The checks mostly find their diagnostics in source order: a file of 250 000
    // duplicate edges has them sorted but for a few checks of the whole graph at the
    // end (unreachable nodes, at their first mentions). Those few are put in place
    // with a binary search each and one move of the rest, where a merge would compare
    // every diagnostic again.
    let sorted = diagnostics
        .windows(2)
        .take_while(|w| key(&w[0]) <= key(&w[1]))
        .count()
        + 1;
    if sorted >= diagnostics.len() {
        return;
    }
    let tail_len = diagnostics.len() - sorted;
    if tail_len > FEW_TO_INSERT {
        diagnostics.sort_by_key(key);
        return;
    }
    let mut tail = diagnostics[sorted..].to_vec();
    tail.sort_by_key(key);
    // From the back: each of the tail goes after the sorted ones at its place (they
    // came first), and the sorted ones after it move up by the count still to insert.
    let mut end = sorted;
    for (left, diagnostic) in tail.iter().enumerate().rev() {
        let place = diagnostics[..end].partition_point(|d| key(d) <= key(diagnostic));
        diagnostics.copy_within(place..end, place + left + 1);
        diagnostics[place + left] = *diagnostic;
        end = place;
    }
}

/// The most diagnostics out of order that [`sort_by_position`] inserts one by one.
const FEW_TO_INSERT: usize = 256;

impl Model {
    pub fn new(text: &str, parse: &Parse) -> Model {
        Model::with_edge_limit(text, parse, MAX_EDGE_PAIRS)
    }

    /// The model with only the diagnostics of reading it (`syntax`, `number-too-large`,
    /// `too-many-edges`), none of the checks: for the commands that print no others
    /// (`export`, `dot`, `fmt`), so that a file of a million repeats costs them no
    /// million diagnostics.
    pub fn without_checks(parse: &Parse) -> Model {
        let mut model = lower::lower(parse, MAX_EDGE_PAIRS);
        model.index_mentions();
        sort_by_position(&mut model.diagnostics);
        model
    }

    /// [`Model::new`] with another limit on declared edge pairs, so that tests can cross
    /// it with a small file.
    pub(crate) fn with_edge_limit(text: &str, parse: &Parse, max_edge_pairs: u64) -> Model {
        let mut model = lower::lower(parse, max_edge_pairs);
        model.index_mentions();
        // The checks append to the model's own list (syntax errors and what lowering
        // found), so that the diagnostics are written once.
        let mut diagnostics = std::mem::take(&mut model.diagnostics);
        validate::validate(text, parse, &model, &mut diagnostics);
        model.diagnostics = diagnostics;
        sort_by_position(&mut model.diagnostics);
        model.diagnostics.shrink_to_fit();
        model
    }

    /// The heap bytes this model holds on to, approximately (buffers by capacity).
    pub fn heap_bytes(&self) -> usize {
        self.graph.heap_bytes()
            + vec_bytes(&self.mentions)
            + vec_bytes(&self.edges)
            + vec_bytes(&self.expects)
            + vec_bytes(&self.labels)
            + self
                .labels
                .iter()
                .map(|(_, label)| label.value.capacity())
                .sum::<usize>()
            + vec_bytes(&self.diagnostics)
            + vec_bytes(&self.by_node)
            + vec_bytes(&self.node_starts)
            + vec_bytes(&self.mention_nodes)
            + vec_bytes(&self.has_repeats)
    }

    /// [`Model::heap_bytes`] by part, for the memory tests: graph, mentions, edges,
    /// diagnostics, the per-mention and per-node indexes.
    #[doc(hidden)]
    pub fn heap_parts(&self) -> [(&'static str, usize); 5] {
        [
            ("graph", self.graph.heap_bytes()),
            ("mentions", vec_bytes(&self.mentions)),
            ("edges", vec_bytes(&self.edges)),
            ("diagnostics", vec_bytes(&self.diagnostics)),
            (
                "indexes",
                vec_bytes(&self.by_node)
                    + vec_bytes(&self.node_starts)
                    + vec_bytes(&self.mention_nodes)
                    + vec_bytes(&self.has_repeats),
            ),
        ]
    }

    /// Groups the mentions by node, so that per-node lookups cost no scan of the file.
    fn index_mentions(&mut self) {
        let mut starts = vec![0u32; self.graph.node_count() + 1];
        for &node in &self.mention_nodes {
            starts[node as usize + 1] += 1;
        }
        for i in 1..starts.len() {
            starts[i] += starts[i - 1];
        }
        let mut next = starts.clone();
        let mut by_node = vec![0u32; self.mentions.len()];
        for (index, &node) in self.mention_nodes.iter().enumerate() {
            by_node[next[node as usize] as usize] = index as u32;
            next[node as usize] += 1;
        }
        self.by_node = by_node;
        self.node_starts = starts;
    }

    /// Every mention of node `id`, in source order.
    pub fn mentions_of(&self, id: u32) -> impl Iterator<Item = &Mention> + Clone {
        let group = match self.graph.index_of(id) {
            Some(node) => self.mention_indices(node),
            None => &[],
        };
        group.iter().map(|&index| &self.mentions[index as usize])
    }

    /// The indices into `mentions` of the node at dense index `node`, in source order.
    fn mention_indices(&self, node: u32) -> &[u32] {
        let node = node as usize;
        match (self.node_starts.get(node), self.node_starts.get(node + 1)) {
            (Some(&start), Some(&end)) => &self.by_node[start as usize..end as usize],
            _ => &[],
        }
    }

    /// The pairs a declaration stands for, in source order: for `{a b} -- {c d}`,
    /// a–c, a–d, b–c, b–d.
    pub fn pairs<'a>(&'a self, edge: &'a EdgeDecl) -> impl Iterator<Item = EdgePair> + 'a {
        let ends =
            |range: &std::ops::Range<u32>| &self.mentions[range.start as usize..range.end as usize];
        let (left, right) = (ends(&edge.left), ends(&edge.right));
        left.iter().flat_map(move |a| {
            right.iter().map(move |b| EdgePair {
                a: a.id,
                b: b.id,
                range: edge.origin.pair_range(a.range, b.range),
                statement: edge.statement,
                origin: edge.origin,
            })
        })
    }

    /// The dense node indices of a range of mentions (one end of a declaration).
    pub(super) fn mention_nodes(&self, mentions: &std::ops::Range<u32>) -> &[u32] {
        &self.mention_nodes[mentions.start as usize..mentions.end as usize]
    }

    /// The one pair of a declaration of one end on each side (`a -- b`): the first of
    /// [`Model::pairs`], made without walking a product.
    pub(super) fn single_pair(&self, edge: &EdgeDecl) -> EdgePair {
        let (a, b) = (
            &self.mentions[edge.left.start as usize],
            &self.mentions[edge.right.start as usize],
        );
        EdgePair {
            a: a.id,
            b: b.id,
            range: edge.origin.pair_range(a.range, b.range),
            statement: edge.statement,
            origin: edge.origin,
        }
    }

    /// The pairs of a declaration with the dense indices of their ends.
    pub(super) fn indexed_pairs<'a>(
        &'a self,
        edge: &'a EdgeDecl,
    ) -> impl Iterator<Item = (EdgePair, u32, u32)> + 'a {
        let (left, right) = (
            self.mention_nodes(&edge.left),
            self.mention_nodes(&edge.right),
        );
        let right_len = right.len();
        self.pairs(edge)
            .enumerate()
            .map(move |(k, pair)| (pair, left[k / right_len], right[k % right_len]))
    }

    /// The mention that defines node `id`: its `node` declaration, else its first mention.
    pub fn definition(&self, id: u32) -> Option<&Mention> {
        self.mentions_of(id)
            .find(|mention| mention.kind == MentionKind::Declaration)
            .or_else(|| self.first_mention(id))
    }

    /// The first place node `id` is mentioned.
    pub fn first_mention(&self, id: u32) -> Option<&Mention> {
        self.mentions_of(id).next()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cmg_syntax::TextRange;

    /// The insertion of a few out-of-order diagnostics and the fallback to a full sort
    /// both give what a stable sort by position gives, ties in their first order.
    #[test]
    fn sorting_by_position_is_a_stable_sort() {
        let mut rng = cmg_solve::test_rng::XorShift(0x2545_F491_4F6C_DD1D);
        for case in 0..400u32 {
            let sorted_len = (rng.next_u64() % 300) as u32;
            let tail_len = match case % 3 {
                0 => 0,
                1 => (rng.next_u64() % 20) as u32,
                _ => (rng.next_u64() % 600) as u32,
            };
            // Few distinct places, so that many diagnostics tie; the node tells them apart.
            let at = |rng: &mut cmg_solve::test_rng::XorShift, node: u32| {
                let start = (rng.next_u64() % 40) as u32;
                let range = TextRange::new(start, start + (rng.next_u64() % 3) as u32);
                Diagnostic::new(range, DiagnosticKind::UnreachableNode { id: node })
            };
            let mut diagnostics: Vec<Diagnostic> = (0..sorted_len + tail_len)
                .map(|node| at(&mut rng, node))
                .collect();
            diagnostics[..sorted_len as usize].sort_by_key(|d| (d.range.start, d.range.end));
            let mut expected = diagnostics.clone();
            expected.sort_by_key(|d| (d.range.start, d.range.end));
            sort_by_position(&mut diagnostics);
            assert_eq!(diagnostics, expected, "case {case}");
        }
    }
}
