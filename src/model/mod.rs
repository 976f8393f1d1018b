//! The meaning of a file: the graph it declares, and every diagnostic that needs no solving.

mod diagnostic;
mod graph;
mod lower;
mod validate;

pub use diagnostic::{has_errors, Code, Diagnostic, Related, Severity};
pub use graph::{Graph, NodeRole};
pub use lower::{EdgeDecl, EdgeOrigin, EdgePair, Mention, MentionKind};

use crate::syntax::{Expect, Label, Parse};

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
    /// Syntax errors and every check of the model, in source order of their checks.
    pub diagnostics: Vec<Diagnostic>,
    /// Indices into `mentions` grouped by node (dense index order), each group in
    /// source order: node `i`'s are `by_node[node_starts[i]..node_starts[i + 1]]`.
    by_node: Vec<u32>,
    node_starts: Vec<u32>,
}

impl Model {
    pub fn new(text: &str, parse: &Parse) -> Model {
        let mut model = lower::lower(parse);
        model.index_mentions();
        model
            .diagnostics
            .extend(validate::validate(text, parse, &model));
        model
    }

    /// Groups the mentions by node, so that per-node lookups cost no scan of the file.
    fn index_mentions(&mut self) {
        let node_of = |mention: &Mention| self.graph.index_of(mention.id).map(|i| i as usize);
        let mut starts = vec![0u32; self.graph.node_count() + 1];
        for node in self.mentions.iter().filter_map(node_of) {
            starts[node + 1] += 1;
        }
        for i in 1..starts.len() {
            starts[i] += starts[i - 1];
        }
        let mut next = starts.clone();
        let mut by_node = vec![0u32; self.mentions.len()];
        for (index, mention) in self.mentions.iter().enumerate() {
            if let Some(node) = node_of(mention) {
                by_node[next[node] as usize] = index as u32;
                next[node] += 1;
            }
        }
        self.by_node = by_node;
        self.node_starts = starts;
    }

    /// Every mention of node `id`, in source order.
    pub fn mentions_of(&self, id: u32) -> impl Iterator<Item = &Mention> + Clone {
        let group = match self.graph.index_of(id) {
            Some(node) if (node as usize) + 1 < self.node_starts.len() => {
                let node = node as usize;
                &self.by_node[self.node_starts[node] as usize..self.node_starts[node + 1] as usize]
            }
            _ => &[],
        };
        group.iter().map(|&index| &self.mentions[index as usize])
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
                range: match edge.origin {
                    EdgeOrigin::Chain => a.range.cover(b.range),
                    EdgeOrigin::Listed => b.range,
                },
                statement: edge.statement,
                origin: edge.origin,
            })
        })
    }

    /// Every pair of every declaration, in source order.
    pub fn edge_pairs(&self) -> impl Iterator<Item = EdgePair> + '_ {
        self.edges.iter().flat_map(|edge| self.pairs(edge))
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
