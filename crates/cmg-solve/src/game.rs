//! The graph a game is played on, stored as compressed adjacency lists (CSR) over dense node indices.

/// A Cat and Mouse board: nodes `0..n`, sorted adjacency lists and the index of the hole.
///
/// The lists are stored back to back in one array (`targets`), with `offsets[v]..offsets[v + 1]`
/// selecting the neighbours of `v`, so the solver's inner loop walks plain slices of `u32`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    offsets: Vec<u32>,
    targets: Vec<u32>,
    hole: Option<u32>,
    /// The rules other than LeetCode 913's, if any ([`Game::with_rules`]).
    rules: Option<Box<Rules>>,
}

/// The rules of a game beyond its moves, on dense indices: what a `.cmg` file's `rule`
/// statements say once its starts and first player are set aside (those only pick the
/// position to start from). [`Rules::default`] with `holes: vec![h]` is LeetCode 913's.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rules {
    /// Every hole: the mouse wins on any, the cat may not enter them (unless
    /// `cat_enters_holes`). Out-of-range entries and repeats are dropped.
    pub holes: Vec<u32>,
    /// The cat may move into a hole; the mouse on the cat's node is a cat win there too.
    pub cat_enters_holes: bool,
    /// The game is a draw once this many moves are made without an end.
    pub limit: Option<u32>,
    /// Positions with the cat on a hole are played (the cat may leave it), as when the cat
    /// starts on one; the standard engines leave them out as positions that cannot arise.
    pub cat_on_holes: bool,
}

/// Which engine serves a game: what `cmg solve --json` and the hover name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineKind {
    /// The fast engines (rounds and queue), for LeetCode 913's game and the rules they
    /// can serve: a turn limit, other starts, the cat first, one-way edges, no hole.
    Standard,
    /// The general engine of `variant.rs`: several holes, the cat in the holes.
    Variant,
}

impl EngineKind {
    pub fn name(self) -> &'static str {
        match self {
            EngineKind::Standard => "standard",
            EngineKind::Variant => "variant",
        }
    }
}

impl Game {
    /// Builds a game from adjacency lists, where list `i` holds the neighbours of node `i`.
    ///
    /// Each list is sorted ascending, with duplicates merged and self-loops and out-of-range
    /// neighbours (`>= n`) dropped, because none of them is a move. The input is meant to be
    /// symmetric; if it is not, each list is used as given, as the moves out of that node.
    /// A hole outside `0..n` is dropped as well, so the game simply has no hole.
    pub fn new(adjacency: &[Vec<u32>], hole: Option<u32>) -> Game {
        let node_count = adjacency.len();
        let mut offsets = Vec::with_capacity(node_count + 1);
        let mut targets = Vec::with_capacity(adjacency.iter().map(Vec::len).sum());
        offsets.push(0);
        // One scratch buffer is reused for every list so that building stays linear and allocation-free per node.
        let mut scratch = Vec::new();
        for (node, list) in adjacency.iter().enumerate() {
            scratch.clear();
            scratch.extend(
                list.iter()
                    .copied()
                    .filter(|&next| (next as usize) < node_count && next as usize != node),
            );
            scratch.sort_unstable();
            scratch.dedup();
            targets.extend_from_slice(&scratch);
            offsets.push(to_u32(targets.len()));
        }
        Game {
            offsets,
            targets,
            hole: hole.filter(|&hole| (hole as usize) < node_count),
            rules: None,
        }
    }

    /// A game under `rules`: list `i` holds the moves out of node `i` (a one-way edge is
    /// in one list only). [`Game::hole`] is then the first hole.
    pub fn with_rules(adjacency: &[Vec<u32>], mut rules: Rules) -> Game {
        let node_count = adjacency.len();
        rules.holes.retain(|&hole| (hole as usize) < node_count);
        rules.holes.sort_unstable();
        rules.holes.dedup();
        let mut game = Game::new(adjacency, rules.holes.first().copied());
        game.rules = Some(Box::new(rules));
        game
    }

    /// The rules beyond the moves, if the game was made [`Game::with_rules`].
    pub fn rules(&self) -> Option<&Rules> {
        self.rules.as_deref()
    }

    /// The turn limit, if any.
    pub fn limit(&self) -> Option<u32> {
        self.rules().and_then(|rules| rules.limit)
    }

    /// Which engine solves this game: the standard ones unless a rule needs the general one.
    pub fn engine(&self) -> EngineKind {
        match self.rules() {
            Some(rules)
                if rules.holes.len() > 1 || rules.cat_enters_holes || rules.cat_on_holes =>
            {
                EngineKind::Variant
            }
            _ => EngineKind::Standard,
        }
    }

    /// Whether `node` is a hole.
    pub fn is_hole(&self, node: u32) -> bool {
        match self.rules() {
            Some(rules) => rules.holes.binary_search(&node).is_ok(),
            None => self.hole == Some(node),
        }
    }

    /// Whether the cat may move onto `node`.
    pub fn cat_may_enter(&self, node: u32) -> bool {
        self.rules().is_some_and(|rules| rules.cat_enters_holes) || !self.is_hole(node)
    }

    /// The heap bytes this game holds on to: its two arrays, by capacity. What a server
    /// keeping games of many documents counts against its memory budget.
    pub fn heap_bytes(&self) -> usize {
        (self.offsets.capacity() + self.targets.capacity()) * std::mem::size_of::<u32>()
    }

    /// The number of nodes, `n`; nodes are the indices `0..n`.
    pub fn node_count(&self) -> usize {
        self.offsets.len() - 1
    }

    /// The number of undirected edges: each unordered pair of distinct nodes joined in either direction counts once.
    pub fn edge_count(&self) -> usize {
        let mut count = 0;
        for node in 0..self.node_count() as u32 {
            for &next in self.neighbours(node) {
                // A pair listed both ways is counted from its smaller end only; a pair listed one way is counted once.
                if node < next || self.neighbours(next).binary_search(&node).is_err() {
                    count += 1;
                }
            }
        }
        count
    }

    /// The nodes one move away from `node`, sorted ascending.
    ///
    /// # Panics
    ///
    /// Panics if `node` is not below [`Game::node_count`].
    pub fn neighbours(&self, node: u32) -> &[u32] {
        self.lists().neighbours(node)
    }

    /// The lists as two borrowed slices, which a hot loop keeps for its whole run (their
    /// bounds then stay in registers instead of being read through `&Game` every time).
    pub(super) fn lists(&self) -> Lists<'_> {
        Lists {
            offsets: &self.offsets,
            targets: &self.targets,
        }
    }

    /// The dense index of the hole (node 0 of the puzzle), if the graph has one.
    pub fn hole(&self) -> Option<u32> {
        self.hole
    }

    /// The legal moves of the player to move at `pos`, ascending: the rule's one home
    /// outside the engines' tables. The cat never steps onto a hole, unless the rules let it.
    pub fn legal_moves(&self, pos: crate::Position) -> impl Iterator<Item = u32> + '_ {
        let (from, is_cat) = match pos.turn {
            crate::Player::Mouse => (pos.mouse, false),
            crate::Player::Cat => (pos.cat, true),
        };
        self.neighbours(from)
            .iter()
            .copied()
            .filter(move |&next| !is_cat || self.cat_may_enter(next))
    }

    /// Whether every listed move can be played backwards, which is what the solver needs to walk
    /// predecessors with the same lists it walks moves with.
    pub(super) fn is_symmetric(&self) -> bool {
        (0..self.node_count() as u32).all(|node| {
            self.neighbours(node)
                .iter()
                .all(|&next| self.neighbours(next).binary_search(&node).is_ok())
        })
    }

    /// The game with every move reversed, used as the predecessor lists of a one-sided graph.
    pub(super) fn transposed(&self) -> Game {
        let node_count = self.node_count();
        let mut offsets = vec![0u32; node_count + 1];
        for &next in &self.targets {
            offsets[next as usize + 1] += 1;
        }
        for node in 0..node_count {
            offsets[node + 1] += offsets[node];
        }
        let mut fill = offsets.clone();
        let mut targets = vec![0u32; self.targets.len()];
        // Sources are visited in ascending order, so every reversed list comes out sorted.
        for node in 0..node_count as u32 {
            for &next in self.neighbours(node) {
                let slot = &mut fill[next as usize];
                targets[*slot as usize] = node;
                *slot += 1;
            }
        }
        Game {
            offsets,
            targets,
            hole: self.hole,
            rules: self.rules.clone(),
        }
    }
}

/// A game's adjacency lists, borrowed ([`Game::lists`]).
#[derive(Clone, Copy)]
pub(super) struct Lists<'a> {
    offsets: &'a [u32],
    targets: &'a [u32],
}

impl<'a> Lists<'a> {
    /// The nodes one move away from `node` ([`Game::neighbours`]).
    #[inline]
    pub(super) fn neighbours(self, node: u32) -> &'a [u32] {
        let node = node as usize;
        &self.targets[self.offsets[node] as usize..self.offsets[node + 1] as usize]
    }
}

fn to_u32(value: usize) -> u32 {
    u32::try_from(value).expect("a game has fewer than 2^32 adjacency entries")
}

#[cfg(test)]
mod tests {
    use super::Game;

    #[test]
    fn new_normalises_lists() {
        let game = Game::new(&[vec![2, 1, 1, 0, 7], vec![0], vec![0, 2]], Some(0));
        assert_eq!(game.neighbours(0), &[1, 2]);
        assert_eq!(game.neighbours(1), &[0]);
        assert_eq!(game.neighbours(2), &[0]);
        assert_eq!(game.edge_count(), 2);
        assert!(game.is_symmetric());
    }

    #[test]
    fn one_sided_lists_are_kept_and_transposed() {
        let game = Game::new(&[vec![1, 2], vec![], vec![1]], Some(5));
        assert_eq!(game.hole(), None);
        assert_eq!(game.edge_count(), 3);
        assert!(!game.is_symmetric());
        let reversed = game.transposed();
        assert_eq!(reversed.neighbours(0), &[] as &[u32]);
        assert_eq!(reversed.neighbours(1), &[0, 2]);
        assert_eq!(reversed.neighbours(2), &[0]);
    }
}
