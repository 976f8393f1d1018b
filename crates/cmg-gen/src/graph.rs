//! The graph the search changes: at most 64 nodes, one neighbour bitset per node, without
//! self-loops, undirected (or, in a variant with one-way edges, one bitset of the moves out
//! of each node); and the rules an edge change must keep (LeetCode 913's constraints, or none).

use serde::{Deserialize, Serialize};

/// The largest node count a graph (and so the evaluator and the search) holds: one `u64`
/// of neighbours per node.
pub const MAX_NODES: usize = 64;

/// An undirected graph on nodes `0..n` (`n <= 64`); node 0 is the hole, 1 the mouse's start, 2 the cat's.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Graph {
    rows: Vec<u64>,
}

/// Which graphs the search may produce; `leetcode` or `none` in words and in records.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Constraints {
    /// LeetCode 913: at least 3 nodes, every node has a neighbour, and node 2 has one
    /// other than the hole (no self-loops and no repeated neighbours hold for every graph
    /// here).
    LeetCode,
    /// Any graph on the nodes.
    None,
}

impl Constraints {
    /// `leetcode` or `none`, as `--constraints` takes it.
    pub fn word(self) -> &'static str {
        match self {
            Constraints::LeetCode => "leetcode",
            Constraints::None => "none",
        }
    }
}

impl Graph {
    /// `n` nodes and no edges.
    ///
    /// # Panics
    ///
    /// Panics if `n` is above [`MAX_NODES`].
    pub fn empty(n: usize) -> Graph {
        assert!(n <= MAX_NODES, "at most {MAX_NODES} nodes, got {n}");
        Graph { rows: vec![0; n] }
    }

    /// The graph of adjacency lists, each edge counting both ways; self-loops, repeats and
    /// neighbours outside `0..n` are dropped. `None` above [`MAX_NODES`] nodes.
    pub fn from_adjacency(lists: &[Vec<u32>]) -> Option<Graph> {
        Graph::from_lists(lists, true)
    }

    /// The graph of move lists (list `u`: the moves out of `u`), each entry one arc `u -> v`,
    /// for a search on directed graphs; self-loops, repeats and moves outside `0..n` are
    /// dropped. `None` above [`MAX_NODES`] nodes.
    pub fn from_moves(lists: &[Vec<u32>]) -> Option<Graph> {
        Graph::from_lists(lists, false)
    }

    /// The graph of `lists`, each entry also the other way when `both_ways`.
    fn from_lists(lists: &[Vec<u32>], both_ways: bool) -> Option<Graph> {
        if lists.len() > MAX_NODES {
            return None;
        }
        let mut graph = Graph::empty(lists.len());
        for (u, list) in lists.iter().enumerate() {
            for &v in list {
                let v = v as usize;
                if v < lists.len() && v != u {
                    graph.rows[u] |= 1 << v;
                    if both_ways {
                        graph.rows[v] |= 1 << u;
                    }
                }
            }
        }
        Some(graph)
    }

    pub fn node_count(&self) -> usize {
        self.rows.len()
    }

    /// One bitset of neighbours per node.
    pub fn rows(&self) -> &[u64] {
        &self.rows
    }

    pub fn has_edge(&self, u: usize, v: usize) -> bool {
        self.rows[u] >> v & 1 == 1
    }

    /// Adds the edge `u -- v` if it is missing, removes it if it is there (`u != v`).
    pub fn toggle(&mut self, u: usize, v: usize) {
        debug_assert_ne!(u, v);
        self.rows[u] ^= 1 << v;
        self.rows[v] ^= 1 << u;
    }

    /// Adds the arc `u -> v` if it is missing, removes it if it is there (`u != v`): a
    /// change of a directed graph, whose rows are the moves out of each node.
    pub fn toggle_arc(&mut self, u: usize, v: usize) {
        debug_assert_ne!(u, v);
        self.rows[u] ^= 1 << v;
    }

    /// The order of `n` nodes that makes `(mouse, cat)` the standard start: the hole stays
    /// 0, the mouse becomes 1 and the cat 2, the others keep their order (for
    /// [`Graph::relabelled`]).
    pub fn standard_order(n: usize, mouse: usize, cat: usize) -> Vec<usize> {
        let mut order = vec![0, mouse, cat];
        order.extend((1..n).filter(|&node| node != mouse && node != cat));
        order
    }

    /// The same graph with its nodes renamed: node `order[i]` becomes node `i` (`order` is a
    /// permutation of `0..n`).
    pub fn relabelled(&self, order: &[usize]) -> Graph {
        Graph::renamed(order, |node| self.rows[node])
    }

    /// The graph whose node `i` is node `order[i]` of a graph given by its rows (`row(node)`,
    /// a neighbour bitset), so that other holders of rows rename without a copy first.
    pub(crate) fn renamed(order: &[usize], row: impl Fn(usize) -> u64) -> Graph {
        let mut label = [0usize; MAX_NODES];
        for (new, &old) in order.iter().enumerate() {
            label[old] = new;
        }
        let rows = order
            .iter()
            .map(|&old| {
                let mut renamed = 0u64;
                let mut bits = row(old);
                while bits != 0 {
                    renamed |= 1 << label[bits.trailing_zeros() as usize];
                    bits &= bits - 1;
                }
                renamed
            })
            .collect();
        Graph { rows }
    }

    /// Adds a node without edges.
    pub fn push_node(&mut self) {
        assert!(self.rows.len() < MAX_NODES);
        self.rows.push(0);
    }

    pub fn edge_count(&self) -> usize {
        self.rows
            .iter()
            .map(|row| row.count_ones() as usize)
            .sum::<usize>()
            / 2
    }

    /// The sorted adjacency lists, LeetCode's input format.
    pub fn adjacency(&self) -> Vec<Vec<u32>> {
        self.rows
            .iter()
            .map(|&row| {
                let mut list = Vec::with_capacity(row.count_ones() as usize);
                let mut bits = row;
                while bits != 0 {
                    list.push(bits.trailing_zeros());
                    bits &= bits - 1;
                }
                list
            })
            .collect()
    }

    /// Whether the graph meets `constraints`.
    pub fn meets(&self, constraints: Constraints) -> bool {
        match constraints {
            Constraints::None => true,
            Constraints::LeetCode => {
                self.rows.len() >= 3
                    && self.rows.iter().all(|&row| row != 0)
                    && self.rows[2] & !1 != 0
            }
        }
    }

    /// Every start with the hole on node 0 that `constraints` allow, as `(mouse, cat)`:
    /// the mouse on any node but the hole, the cat on any other (under `LeetCode`, one with
    /// a move besides the hole). Mouse first, then cat, in increasing order.
    pub fn starts(&self, constraints: Constraints) -> impl Iterator<Item = (usize, usize)> + '_ {
        let n = self.rows.len();
        (1..n).flat_map(move |mouse| {
            (1..n).filter_map(move |cat| {
                let stuck = constraints == Constraints::LeetCode && self.rows[cat] & !1 == 0;
                (mouse != cat && !stuck).then_some((mouse, cat))
            })
        })
    }

    /// Whether toggling `u -- v` keeps `constraints` on a graph that meets them: only a
    /// removal can break them, by leaving a node alone or node 2 with the hole only.
    pub fn toggle_keeps(&self, u: usize, v: usize, constraints: Constraints) -> bool {
        if constraints == Constraints::None || !self.has_edge(u, v) {
            return true;
        }
        let keeps = |a: usize, b: usize| {
            let left = self.rows[a] & !(1 << b);
            left != 0 && (a != 2 || left & !1 != 0)
        };
        keeps(u, v) && keeps(v, u)
    }
}

#[cfg(test)]
mod tests {
    use super::{Constraints, Graph};

    /// Edges both ways from adjacency lists, one way from move lists; self-loops, repeats
    /// and neighbours outside the graph dropped.
    #[test]
    fn lists_make_edges_and_arcs_and_drop_what_is_not_one() {
        let lists = vec![vec![0, 1, 1, 7], vec![2], vec![]];
        let graph = Graph::from_adjacency(&lists).unwrap();
        assert_eq!(graph.adjacency(), vec![vec![1], vec![0, 2], vec![1]]);
        assert_eq!(graph.edge_count(), 2);
        let moves = Graph::from_moves(&lists).unwrap();
        assert_eq!(moves.adjacency(), vec![vec![1], vec![2], vec![]]);
        assert!(Graph::from_adjacency(&vec![vec![]; super::MAX_NODES + 1]).is_none());
    }

    #[test]
    fn an_arc_toggles_one_way_and_an_edge_both() {
        let mut graph = Graph::empty(3);
        graph.toggle_arc(0, 1);
        assert!(graph.has_edge(0, 1) && !graph.has_edge(1, 0));
        graph.toggle_arc(0, 1);
        assert_eq!(graph.adjacency(), vec![Vec::<u32>::new(); 3]);
        for (u, v) in [(0, 1), (1, 2), (0, 2)] {
            graph.toggle(u, v);
        }
        assert_eq!(graph.edge_count(), 3);
    }

    /// LeetCode's constraints: three nodes or more, none alone, and the cat (node 2) with
    /// a move besides the hole; a change keeps them unless it leaves a node alone or the
    /// cat with the hole only.
    #[test]
    fn the_constraints_and_the_changes_that_keep_them() {
        // 0 -- 2, 2 -- 3, 1 -- 3, 0 -- 1
        let graph =
            Graph::from_adjacency(&[vec![1, 2], vec![0, 3], vec![0, 3], vec![1, 2]]).unwrap();
        assert!(graph.meets(Constraints::LeetCode));
        assert!(
            !Graph::from_adjacency(&[vec![1], vec![0], vec![3], vec![2], vec![]])
                .unwrap()
                .meets(Constraints::LeetCode)
        );
        assert!(Graph::empty(2).meets(Constraints::None));
        // Removing 2 -- 3 leaves the cat with the hole only; removing 1 -- 3 leaves the
        // mouse with the hole, which is allowed; adding an edge always keeps them.
        assert!(!graph.toggle_keeps(2, 3, Constraints::LeetCode));
        assert!(graph.toggle_keeps(1, 3, Constraints::LeetCode));
        assert!(graph.toggle_keeps(0, 3, Constraints::LeetCode));
        assert!(graph.toggle_keeps(2, 3, Constraints::None));
        assert_eq!(
            [Constraints::LeetCode.word(), Constraints::None.word()],
            ["leetcode", "none"]
        );
    }
}
