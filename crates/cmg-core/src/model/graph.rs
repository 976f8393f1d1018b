//! The graph a file declares, on dense indices `0..n` ordered by node id, and the roles
//! the rules give node ids.

use cmg_solve::Player;
use cmg_syntax::vec_bytes;

use super::Rules;

/// The role the rules give a node id: by default 0 is the hole, 1 the mouse's start, 2
/// the cat's; a file's `rule` statements may give them to other ids
/// ([`Graph::roles_of`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NodeRole {
    Hole,
    MouseStart,
    CatStart,
}

impl NodeRole {
    pub const ALL: [NodeRole; 3] = [NodeRole::Hole, NodeRole::MouseStart, NodeRole::CatStart];

    /// The role of node `id` in LeetCode 913's game, if it has one; [`Graph::roles_of`]
    /// gives the roles of a file's game.
    pub fn of(id: u32) -> Option<NodeRole> {
        NodeRole::ALL.into_iter().find(|role| role.id() == id)
    }

    pub fn id(self) -> u32 {
        match self {
            NodeRole::Hole => 0,
            NodeRole::MouseStart => 1,
            NodeRole::CatStart => 2,
        }
    }

    /// "hole", "mouse start", "cat start".
    pub fn name(self) -> &'static str {
        match self {
            NodeRole::Hole => "hole",
            NodeRole::MouseStart => "mouse start",
            NodeRole::CatStart => "cat start",
        }
    }
}

/// An undirected graph without self-loops or duplicate edges, the one-way edges beside
/// it, and the rules of the game played on it. Node ids (as written) map to dense
/// indices in ascending order, so "smallest id" and "smallest index" agree.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Graph {
    ids: Vec<u32>,
    adjacency: Vec<Vec<u32>>,
    labels: Vec<Option<String>>,
    /// The one-way edges out of each node (dense, ascending, none that is also an edge);
    /// empty when the file has none.
    arcs: Vec<Vec<u32>>,
    rules: Rules,
    /// The holes that are nodes, dense, ascending.
    holes: Vec<u32>,
}

impl Graph {
    /// The heap bytes this graph holds on to.
    pub fn heap_bytes(&self) -> usize {
        vec_bytes(&self.ids)
            + vec_bytes(&self.adjacency)
            + self.adjacency.iter().map(vec_bytes).sum::<usize>()
            + vec_bytes(&self.labels)
            + vec_bytes(&self.arcs)
            + self.arcs.iter().map(vec_bytes).sum::<usize>()
            + vec_bytes(&self.holes)
            + self
                .labels
                .iter()
                .flatten()
                .map(String::capacity)
                .sum::<usize>()
    }

    /// Builds the graph from its node ids (sorted, without repeats), its edges as
    /// products of dense indices (`(left, right)` joins every node of `left` to every
    /// node of `right`; self-loops and duplicates are dropped) and the labels of some
    /// nodes. A product is added a slice at a time, with no lookup per pair.
    ///
    /// Also says, for each node, whether the products join it to itself or to some
    /// node more than once: a node without repeats takes part in no self-loop and no
    /// duplicate edge, which lets the check for those skip the declarations of such
    /// nodes.
    pub(crate) fn from_products<'a>(
        ids: Vec<u32>,
        products: impl IntoIterator<Item = (&'a [u32], &'a [u32])> + Clone,
        labels: impl IntoIterator<Item = (u32, String)>,
    ) -> (Graph, Vec<bool>) {
        debug_assert!(ids.windows(2).all(|pair| pair[0] < pair[1]));
        let nodes = ids.len();
        // Every node's neighbours, repeats included, in one flat array: one pass counts
        // them and a second writes them, so no list grows by copies, and each final list
        // is allocated once at its exact size, in node order (close together in memory,
        // which the solver and the checks that walk the graph feel).
        let mut starts = vec![0usize; nodes + 1];
        for (left, right) in products.clone() {
            for &a in left {
                starts[a as usize + 1] += right.len();
            }
            for &b in right {
                starts[b as usize + 1] += left.len();
            }
        }
        for i in 1..starts.len() {
            starts[i] += starts[i - 1];
        }
        let mut next = starts.clone();
        let mut flat = vec![0u32; starts[nodes]];
        // Most products are one id by one (`a -- b`): a store, not a call to copy a slice.
        let mut put = |node: u32, ends: &[u32]| {
            let at = next[node as usize];
            match ends {
                [one] => flat[at] = *one,
                _ => flat[at..at + ends.len()].copy_from_slice(ends),
            }
            next[node as usize] += ends.len();
        };
        for (left, right) in products {
            for &a in left {
                put(a, right);
            }
            for &b in right {
                put(b, left);
            }
        }
        // Sorting is most of the work on a dense product (each of 2000 nodes lists
        // 4000 neighbours, with repeats). A list at least an eighth as long as the graph
        // is cheaper to sort by marking its entries and reading the marks in order; the
        // marks cost a pass over all nodes, which such a list pays for eight times.
        let mut marked = vec![false; nodes];
        let mut adjacency = Vec::with_capacity(nodes);
        let mut has_repeats = Vec::with_capacity(nodes);
        for index in 0..nodes {
            let listed = &mut flat[starts[index]..starts[index + 1]];
            let neighbours = if listed.len() * 8 >= nodes {
                for &next in listed.iter() {
                    marked[next as usize] = true;
                }
                marked[index] = false;
                let count = marked.iter().filter(|&&mark| mark).count();
                let mut neighbours = Vec::with_capacity(count);
                for (next, mark) in marked.iter_mut().enumerate() {
                    if std::mem::take(mark) {
                        neighbours.push(next as u32);
                    }
                }
                neighbours
            } else {
                listed.sort_unstable();
                let distinct = |&(k, &next): &(usize, &u32)| {
                    next as usize != index && (k == 0 || listed[k - 1] != next)
                };
                let count = listed.iter().enumerate().filter(distinct).count();
                let mut neighbours = Vec::with_capacity(count);
                neighbours.extend(
                    listed
                        .iter()
                        .enumerate()
                        .filter(distinct)
                        .map(|(_, &next)| next),
                );
                neighbours
            };
            has_repeats.push(neighbours.len() != listed.len());
            adjacency.push(neighbours);
        }
        let mut graph = Graph {
            adjacency,
            labels: vec![None; nodes],
            ids,
            arcs: Vec::new(),
            rules: Rules::default(),
            holes: Vec::new(),
        };
        for (id, label) in labels {
            if let Some(index) = graph.index_of(id) {
                graph.labels[index as usize].get_or_insert(label);
            }
        }
        (graph, has_repeats)
    }

    pub fn node_count(&self) -> usize {
        self.ids.len()
    }

    pub fn edge_count(&self) -> usize {
        self.adjacency.iter().map(Vec::len).sum::<usize>() / 2
    }

    /// The node ids in ascending order; position `i` holds the id of index `i`.
    pub fn ids(&self) -> &[u32] {
        &self.ids
    }

    pub fn id(&self, index: u32) -> u32 {
        self.ids[index as usize]
    }

    pub fn index_of(&self, id: u32) -> Option<u32> {
        self.ids.binary_search(&id).ok().map(|i| i as u32)
    }

    pub fn contains(&self, id: u32) -> bool {
        self.index_of(id).is_some()
    }

    /// The neighbours of the node at `index`, as indices in ascending order.
    pub fn neighbours(&self, index: u32) -> &[u32] {
        &self.adjacency[index as usize]
    }

    /// Adjacency lists on dense indices, as the solver takes them.
    pub fn adjacency(&self) -> &[Vec<u32>] {
        &self.adjacency
    }

    pub fn label(&self, index: u32) -> Option<&str> {
        self.labels[index as usize].as_deref()
    }

    /// Sets the game's rules and one-way edges (`arcs`: pairs of dense indices, a to b).
    pub(crate) fn set_rules(&mut self, rules: Rules, arcs: impl IntoIterator<Item = (u32, u32)>) {
        let mut holes: Vec<u32> = rules
            .holes
            .iter()
            .filter_map(|&id| self.index_of(id))
            .collect();
        holes.sort_unstable();
        holes.dedup();
        self.holes = holes;
        self.rules = rules;
        let mut lists: Vec<Vec<u32>> = Vec::new();
        for (a, b) in arcs {
            if a == b || self.adjacency[a as usize].binary_search(&b).is_ok() {
                continue;
            }
            if lists.is_empty() {
                lists = vec![Vec::new(); self.node_count()];
            }
            lists[a as usize].push(b);
        }
        for list in &mut lists {
            list.sort_unstable();
            list.dedup();
        }
        self.arcs = lists;
    }

    /// The graph as a picture joins its nodes: every one-way edge as an edge too, so that a
    /// layout keeps the ends of a one-way edge as close as those of an edge. The graph
    /// itself (borrowed) when it has no one-way edge.
    pub fn with_arcs_as_edges(&self) -> std::borrow::Cow<'_, Graph> {
        if self.arcs.is_empty() {
            return std::borrow::Cow::Borrowed(self);
        }
        let mut drawn = self.clone();
        for (a, list) in self.arcs.iter().enumerate() {
            for &b in list {
                drawn.adjacency[a].push(b);
                drawn.adjacency[b as usize].push(a as u32);
            }
        }
        for list in &mut drawn.adjacency {
            list.sort_unstable();
            list.dedup();
        }
        drawn.arcs = Vec::new();
        std::borrow::Cow::Owned(drawn)
    }

    /// The rules of the game played on this graph.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Whether `other` has the same nodes, labels, edges and one-way edges, whatever its
    /// rules: what a fix of a rule keeps.
    pub fn same_moves(&self, other: &Graph) -> bool {
        self.ids == other.ids
            && self.adjacency == other.adjacency
            && self.labels == other.labels
            && self.arcs == other.arcs
    }

    /// Whether `other` states the same game: [`Graph::same_moves`] and the same rules, by
    /// what they say rather than where they are written (an edit before a rule moves it).
    pub fn same_game(&self, other: &Graph) -> bool {
        let (a, b) = (&self.rules, &other.rules);
        self.same_moves(other)
            && self.holes == other.holes
            && (
                a.limit,
                a.first,
                a.mouse_start,
                a.cat_start,
                a.cat_enters_holes,
            ) == (
                b.limit,
                b.first,
                b.mouse_start,
                b.cat_start,
                b.cat_enters_holes,
            )
            && a.holes == b.holes
    }

    /// Whether the game is LeetCode 913's: no rule and no one-way edge.
    pub fn is_standard(&self) -> bool {
        self.rules.is_standard() && self.arcs.is_empty()
    }

    /// The one-way edges out of the node at `index` (not counting edges).
    pub fn arcs_out(&self, index: u32) -> &[u32] {
        self.arcs.get(index as usize).map_or(&[], Vec::as_slice)
    }

    pub fn has_arcs(&self) -> bool {
        !self.arcs.is_empty()
    }

    /// Every node one move away from `index`: its neighbours and its one-way edges out.
    pub fn moves(&self, index: u32) -> impl Iterator<Item = u32> + '_ {
        self.neighbours(index)
            .iter()
            .chain(self.arcs_out(index))
            .copied()
    }

    /// The moves out of each node, as the solver takes them: the adjacency lists, with
    /// the one-way edges added when there are any.
    pub fn move_lists(&self) -> std::borrow::Cow<'_, [Vec<u32>]> {
        if self.arcs.is_empty() {
            return std::borrow::Cow::Borrowed(&self.adjacency);
        }
        let lists = (0..self.node_count() as u32)
            .map(|index| {
                let mut list: Vec<u32> = self.moves(index).collect();
                list.sort_unstable();
                list
            })
            .collect();
        std::borrow::Cow::Owned(lists)
    }

    /// The first hole, by index: the hole, in a file with one.
    pub fn hole(&self) -> Option<u32> {
        self.holes.first().copied()
    }

    /// The holes that are nodes, by index, ascending.
    pub fn holes(&self) -> &[u32] {
        &self.holes
    }

    pub fn is_hole(&self, index: u32) -> bool {
        self.holes.binary_search(&index).is_ok()
    }

    /// Whether the cat may move onto the node at `index`.
    pub fn cat_may_enter(&self, index: u32) -> bool {
        self.rules.cat_enters_holes || !self.is_hole(index)
    }

    pub fn mouse_start(&self) -> Option<u32> {
        self.index_of(self.rules.mouse_start)
    }

    pub fn cat_start(&self) -> Option<u32> {
        self.index_of(self.rules.cat_start)
    }

    /// Who moves first.
    pub fn first(&self) -> Player {
        self.rules.first
    }

    /// The roles the file's game gives node `id`: a hole, where the mouse starts, where
    /// the cat starts (a node may have several).
    pub fn roles_of(&self, id: u32) -> impl Iterator<Item = NodeRole> + '_ {
        NodeRole::ALL.into_iter().filter(move |role| match role {
            NodeRole::Hole => self.rules.holes.contains(&id),
            NodeRole::MouseStart => self.rules.mouse_start == id,
            NodeRole::CatStart => self.rules.cat_start == id,
        })
    }

    /// The first role of node `id` in the file's game ([`Graph::roles_of`]).
    pub fn role_of(&self, id: u32) -> Option<NodeRole> {
        self.roles_of(id).next()
    }

    /// Whether ids are exactly `0..n`, as an adjacency list needs.
    pub fn is_contiguous(&self) -> bool {
        self.ids
            .last()
            .is_none_or(|&last| last as usize + 1 == self.ids.len())
    }

    /// Each node's neighbours by id, in node order: the puzzle's adjacency list when the
    /// ids are contiguous ([`Graph::is_contiguous`]).
    pub fn adjacency_lists(&self) -> Vec<Vec<u32>> {
        (0..self.node_count() as u32)
            .map(|index| self.neighbours(index).iter().map(|&n| self.id(n)).collect())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    /// Both ways of sorting a node's neighbours (marks for long lists, a sort for short
    /// ones) against sets, on products from one pair to dense squares.
    #[test]
    fn products_give_each_edge_once_without_self_loops() {
        let mut rng = cmg_solve::test_rng::XorShift(0x2545_f491_4f6c_dd1d);
        let mut next = |bound: u32| rng.below(bound);
        for nodes in [2u32, 5, 40, 300] {
            let mut products: Vec<(Vec<u32>, Vec<u32>)> = Vec::new();
            for _ in 0..20 {
                let width = 1 + next(nodes.min(12));
                let left = (0..width).map(|_| next(nodes)).collect();
                let right = (0..1 + next(3)).map(|_| next(nodes)).collect();
                products.push((left, right));
            }
            // A self-loop on a node with few neighbours and one on a node with many.
            products.push((vec![nodes - 1, 0], vec![nodes - 1]));
            let (graph, has_repeats) = Graph::from_products(
                (0..nodes).map(|id| id * 10).collect(),
                products.iter().map(|(l, r)| (&l[..], &r[..])),
                [],
            );
            let mut expected = vec![BTreeSet::new(); nodes as usize];
            let mut expected_repeats = vec![false; nodes as usize];
            for (left, right) in &products {
                for &a in left {
                    for &b in right {
                        let new = a != b && expected[a as usize].insert(b);
                        if a != b {
                            expected[b as usize].insert(a);
                        }
                        if !new {
                            expected_repeats[a as usize] = true;
                            expected_repeats[b as usize] = true;
                        }
                    }
                }
            }
            for (index, set) in expected.iter().enumerate() {
                let expected: Vec<u32> = set.iter().copied().collect();
                assert_eq!(graph.neighbours(index as u32), expected, "{nodes} nodes");
            }
            assert_eq!(has_repeats, expected_repeats, "{nodes} nodes");
        }
    }
}
