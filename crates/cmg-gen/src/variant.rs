//! A variant of the game to search in (`cmg gen --rules`): other holes, the cat first or in
//! the holes, a turn limit, one-way edges.
//!
//! The search keeps the holes on the nodes `0..h` (a graph grows and shrinks above them, as
//! it does above the standard game's hole 0) and renames once at the end, so that the holes
//! are where the variant puts them and the longest start is the variant's start.

/// The rules as the solve reads them, in the search's labels: the holes are the nodes
/// `0..holes`, and the cat may stand on the nodes from `first_cat` on (0, or `holes`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Masks {
    pub(crate) holes: usize,
    pub(crate) first_cat: usize,
    /// Rows are the moves out of each node, not edges: the solve walks the moves into a
    /// node from their transpose.
    pub(crate) directed: bool,
}

impl Masks {
    /// LeetCode 913's game: the hole is node 0, where the cat may not go.
    pub(crate) const STANDARD: Masks = Masks {
        holes: 1,
        first_cat: 1,
        directed: false,
    };
}

/// The rules of a variant, and the nodes the graph found puts its holes and starts on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Variant {
    /// The holes of the graph found, as a bitset of its nodes (at least one).
    pub holes: u64,
    /// Where the mouse and the cat start in the graph found (not holes, not the same node).
    pub mouse: usize,
    pub cat: usize,
    /// The cat moves first.
    pub cat_first: bool,
    /// The cat may enter the holes.
    pub cat_enters_holes: bool,
    /// A draw once this many moves are made without an end: a game longer than that does
    /// not count.
    pub limit: Option<u32>,
    /// The graph's edges are one-way: the search adds and removes arcs `u -> v`, not edges.
    pub directed: bool,
}

impl Variant {
    /// LeetCode 913's other rules with these holes and starts, for a graph of `nodes`
    /// nodes (set the other fields after); why not, in words, when a hole or a start is
    /// not one of its nodes, or the variant does not fit it ([`Variant::unfit`]).
    pub fn new(holes: &[u32], mouse: u32, cat: u32, nodes: usize) -> Result<Variant, String> {
        let ids = holes.iter().chain([&mouse, &cat]);
        if let Some(&beyond) = ids.clone().find(|&&id| id as usize >= nodes.min(64)) {
            return Err(format!(
                "the rules name node {beyond}, and a graph of {nodes} nodes has 0 to {}",
                nodes.saturating_sub(1)
            ));
        }
        let variant = Variant {
            holes: holes.iter().fold(0, |mask, &hole| mask | 1 << hole),
            mouse: mouse as usize,
            cat: cat as usize,
            cat_first: false,
            cat_enters_holes: false,
            limit: None,
            directed: false,
        };
        match variant.unfit(nodes) {
            Some(why) => Err(why),
            None => Ok(variant),
        }
    }

    /// The `rule` statements of the rules that differ from LeetCode 913's game, in the
    /// order `cmg fmt` puts them: what a graph found in this variant states.
    pub fn rule_statements(&self) -> Vec<String> {
        let holes: Vec<u32> = (0..64u32)
            .filter(|&node| self.holes >> node & 1 == 1)
            .collect();
        let start = (self.mouse as u32, self.cat as u32);
        cmg_syntax::RuleLines {
            limit: self.limit,
            cat_first: self.cat_first,
            start: (start != (1, 2)).then_some(start),
            holes: (self.holes != 1).then_some(holes.as_slice()),
            cat_enters_holes: self.cat_enters_holes,
        }
        .lines()
    }

    /// The number of holes.
    pub fn hole_count(&self) -> usize {
        self.holes.count_ones() as usize
    }

    /// What the evaluator reads, in the search's labels (the holes on `0..h`).
    pub(crate) fn masks(&self) -> Masks {
        let holes = self.hole_count();
        Masks {
            holes,
            first_cat: if self.cat_enters_holes { 0 } else { holes },
            directed: self.directed,
        }
    }

    /// Why a graph of `nodes` nodes cannot hold this variant, in words; `None` if it can.
    pub fn unfit(&self, nodes: usize) -> Option<String> {
        let in_range = |node: usize| node < nodes.min(64);
        if self.holes == 0 {
            return Some("the variant has no hole".to_owned());
        }
        let last_hole = 63 - self.holes.leading_zeros() as usize;
        if !in_range(last_hole) || !in_range(self.mouse) || !in_range(self.cat) {
            return Some(format!(
                "its holes and starts need nodes up to {}, and the graph has {nodes} (0 to {})",
                last_hole.max(self.mouse).max(self.cat),
                nodes.saturating_sub(1)
            ));
        }
        if self.mouse == self.cat {
            return Some("the mouse and the cat start on the same node".to_owned());
        }
        if self.holes >> self.mouse & 1 == 1 || self.holes >> self.cat & 1 == 1 {
            return Some(
                "a start is on a hole; the search starts both players off the holes".to_owned(),
            );
        }
        None
    }

    /// The order of nodes that takes a graph of `nodes` nodes in the variant's labels to the
    /// search's: its holes first, then the other nodes, each in their order.
    pub(crate) fn search_order(&self, nodes: usize) -> Vec<usize> {
        let is_hole = |node: usize| self.holes >> node & 1 == 1;
        let mut order: Vec<usize> = (0..nodes).filter(|&node| is_hole(node)).collect();
        order.extend((0..nodes).filter(|&node| !is_hole(node)));
        order
    }

    /// The order of nodes (node `order[i]` becomes node `i`, for [`Graph::relabelled`]) that
    /// takes a graph in the search's labels, whose longest start is `(mouse, cat)`, to the
    /// variant's labels: the `k`-th hole of the search (node `k`) to the variant's `k`-th
    /// hole, the start to the variant's start, the other nodes in their order.
    ///
    /// [`Graph::relabelled`]: crate::Graph::relabelled
    pub fn order(&self, nodes: usize, (mouse, cat): (usize, usize)) -> Vec<usize> {
        const FREE: usize = usize::MAX;
        let mut order = vec![FREE; nodes];
        let mut holes = self.holes;
        let mut search_hole = 0;
        while holes != 0 {
            order[holes.trailing_zeros() as usize] = search_hole;
            search_hole += 1;
            holes &= holes - 1;
        }
        order[self.mouse] = mouse;
        order[self.cat] = cat;
        let mut others = (search_hole..nodes).filter(|&node| node != mouse && node != cat);
        for slot in order.iter_mut().filter(|slot| **slot == FREE) {
            *slot = others.next().expect("as many other nodes as free labels");
        }
        order
    }
}

#[cfg(test)]
mod tests {
    use super::Variant;

    /// Holes 0 and 3, the mouse on 1 and the cat on 4, in a graph of `nodes` nodes.
    fn two_holes(nodes: usize) -> Variant {
        Variant {
            holes: 0b1001,
            mouse: 1,
            cat: 4,
            cat_first: false,
            cat_enters_holes: false,
            limit: None,
            directed: false,
        }
        .fitted(nodes)
    }

    impl Variant {
        fn fitted(self, nodes: usize) -> Variant {
            assert_eq!(self.unfit(nodes), None);
            self
        }
    }

    #[test]
    fn the_rules_that_differ_are_stated_in_fmts_order() {
        let variant = Variant {
            limit: Some(9),
            ..two_holes(5)
        };
        assert_eq!(
            variant.rule_statements(),
            ["rule limit 9", "rule start 1 4", "rule holes 0 3"]
        );
    }

    /// A variant needs its holes and starts among the graph's nodes, apart.
    #[test]
    fn a_variant_that_does_not_fit_says_why() {
        let variant = two_holes(5);
        assert!(variant.unfit(4).is_some(), "the cat on node 4 of 0 to 3");
        assert!(Variant {
            holes: 1 << 5,
            ..variant
        }
        .unfit(5)
        .is_some());
        assert!(Variant { cat: 1, ..variant }.unfit(5).is_some());
        assert!(Variant { cat: 3, ..variant }.unfit(5).is_some());
        assert!(Variant {
            holes: 0,
            ..variant
        }
        .unfit(5)
        .is_some());
    }

    /// The search's labels: the holes first, then the other nodes, each in order.
    #[test]
    fn the_search_order_puts_the_holes_first() {
        assert_eq!(two_holes(6).search_order(6), [0, 3, 1, 2, 4, 5]);
    }
}
