//! The solved table every engine writes and [`super::Solution`] reads: a 16-bit word per position and two winner bitsets.

use std::collections::HashMap;

/// The two players as table indices: turns are "whose move it is", winners "who wins".
pub(super) const MOUSE: usize = 0;
pub(super) const CAT: usize = 1;

/// The depth word of a position that no engine has touched yet.
///
/// Undecided positions keep the queue's move counter in their depth word (see `queue`), above
/// every decided depth word ([`Table::spilled`] and below), so the queue tells a decided
/// predecessor from an undecided one and counts its moves with one 16-bit read, as the old
/// single state word did. This value says the counter has not been set up.
pub(super) const UNSET: u16 = u16::MAX;

/// The depth word of the positions with the cat on the hole and the cat to move, which cannot
/// arise: a decided word without a winner bit, so the queue skips them as predecessors
/// without testing for the hole, as the old queue's state word did.
pub(super) const BLOCKED: u16 = 0;

/// Where each position lives.
///
/// Positions are grouped by turn (mouse to move first), then by the node of the player who is
/// *not* to move (the row), then by the mover's node (the column): `turn·n² + row·n + column`.
/// The predecessors of a position differ only in the node of the player who moved last, who is
/// the mover of the predecessor, so they all sit in one row: the queue's inner loop reads a few
/// cache lines. The bitsets use the same rows, one bit per column.
#[derive(Clone, Copy, Debug)]
pub(super) struct Layout {
    pub(super) node_count: usize,
    /// 64-bit words per bitset row.
    pub(super) words: usize,
}

impl Layout {
    pub(super) fn new(node_count: usize) -> Layout {
        Layout {
            node_count,
            words: node_count.div_ceil(64),
        }
    }

    pub(super) fn position_count(self) -> usize {
        2 * self.node_count * self.node_count
    }

    /// The table row of a turn's positions whose non-mover stands on `other`.
    pub(super) fn row(self, turn: usize, other: usize) -> usize {
        turn * self.node_count + other
    }

    /// The index of the position where `turn`'s player stands on `mover` and the other on `other`.
    pub(super) fn index(self, turn: usize, other: usize, mover: usize) -> usize {
        self.row(turn, other) * self.node_count + mover
    }

    /// The index of a position given by where each player stands and who is to move.
    pub(super) fn position(self, turn: usize, mouse: usize, cat: usize) -> usize {
        match turn {
            MOUSE => self.index(MOUSE, cat, mouse),
            _ => self.index(CAT, mouse, cat),
        }
    }
}

/// Every position's result: bit `b` of `wins[i][w]` is set when player `w` wins the position of
/// column `64·(i mod words) + b` in row `i / words`, and `depth` holds its moves to the end (or,
/// while undecided, the queue's counter). The two players' words sit side by side, so telling
/// whether a position is decided reads one cache line, and a round reads both in one pass.
#[derive(Clone, Debug)]
pub(super) struct Table {
    pub(super) layout: Layout,
    pub(super) depth: Vec<u16>,
    /// `2n` rows of `layout.words` word pairs, indexed by winner.
    pub(super) wins: Vec<[u64; 2]>,
    /// The moves to the end of positions whose game lasts [`Table::spilled`] moves or more
    /// (at least 42 364). No known graph comes near, but nothing in the rules bounds a game below
    /// the position count.
    pub(super) spill: HashMap<u32, u32>,
    /// The largest decided depth word, which says the moves are in `spill`. The words above it
    /// are the counters of undecided positions, `spilled + 1 + moves left`, up to the most
    /// moves any position has, and [`UNSET`]: `0xfffd` minus that many, which leaves the
    /// depths the whole 16 bits on sparse graphs and at least 42 364 moves under
    /// [`super::MAX_NODES`].
    pub(super) spilled: u16,
}

impl Table {
    /// An empty table for a game whose positions have at most `most_moves` moves (below `n`).
    pub(super) fn new(layout: Layout, most_moves: usize) -> Table {
        let bits = 2 * layout.node_count * layout.words;
        let most_moves = u16::try_from(most_moves).unwrap_or(u16::MAX).min(0x7fff);
        Table {
            layout,
            depth: vec![UNSET; layout.position_count()],
            wins: vec![[0; 2]; bits],
            spill: HashMap::new(),
            spilled: 0xfffd - most_moves,
        }
    }

    /// Gives the positions with the cat on `hole` and the cat to move the [`BLOCKED`] word.
    pub(super) fn block_cat_on_hole(&mut self, hole: Option<usize>) {
        if let Some(hole) = hole {
            let n = self.layout.node_count;
            for mouse in 0..n {
                self.depth[self.layout.index(CAT, mouse, hole)] = BLOCKED;
            }
        }
    }

    /// The depth word of an undecided position with `left` moves not yet known to lose.
    pub(super) fn counter_word(&self, left: u16) -> u16 {
        self.spilled + 1 + left
    }

    /// Whether a depth word belongs to a decided position.
    pub(super) fn is_decided_word(&self, word: u16) -> bool {
        word <= self.spilled
    }

    /// Bytes a table for `layout` holds.
    pub(super) fn bytes(layout: Layout) -> u64 {
        let positions = layout.position_count() as u64;
        let bit_words = 2 * 2 * layout.node_count as u64 * layout.words as u64;
        positions * 2 + bit_words * 8
    }

    /// The winner of `index`, if it is decided.
    pub(super) fn winner(&self, index: usize) -> Option<usize> {
        let n = self.layout.node_count;
        self.winner_at(index / n, index % n)
    }

    /// The winner of the position in `row` and `column`, if it is decided.
    pub(super) fn winner_at(&self, row: usize, column: usize) -> Option<usize> {
        let [mouse, cat] = self.wins[row * self.layout.words + column / 64];
        let bit = 1u64 << (column % 64);
        if cat & bit != 0 {
            Some(CAT)
        } else if mouse & bit != 0 {
            Some(MOUSE)
        } else {
            None
        }
    }

    /// The moves to the end of a decided position.
    pub(super) fn moves(&self, index: usize) -> u32 {
        match self.depth[index] {
            word if word == self.spilled => self.spill.get(&(index as u32)).copied().unwrap_or(0),
            moves => u32::from(moves),
        }
    }

    /// Decides the undecided position `index` for `winner` in `moves` moves.
    pub(super) fn decide(&mut self, index: usize, winner: usize, moves: u32) {
        let n = self.layout.node_count;
        self.decide_at(index / n, index % n, winner, moves);
    }

    /// [`Table::decide`] for the position in `row` and `column`.
    pub(super) fn decide_at(&mut self, row: usize, column: usize, winner: usize, moves: u32) {
        self.wins[row * self.layout.words + column / 64][winner] |= 1u64 << (column % 64);
        self.set_moves(row * self.layout.node_count + column, moves);
    }

    /// The depth word for `moves`: the moves themselves, or [`Table::spilled`] when they do not fit below it.
    pub(super) fn depth_word(&self, moves: u32) -> u16 {
        u16::try_from(moves).map_or(self.spilled, |word| word.min(self.spilled))
    }

    pub(super) fn set_moves(&mut self, index: usize, moves: u32) {
        self.depth[index] = self.depth_word(moves);
        if moves >= u32::from(self.spilled) {
            self.spill.insert(index as u32, moves);
        }
    }
}

/// The terminal positions as `(index, winner)`: the mouse on the hole (with the cat anywhere
/// else), and the cat on the mouse away from the hole, each with either player to move.
pub(super) fn terminals(
    layout: Layout,
    hole: Option<usize>,
) -> impl Iterator<Item = (usize, usize)> {
    let n = layout.node_count;
    (0..n).flat_map(move |node| {
        let (winner, cats) = if Some(node) == hole {
            (MOUSE, 0..n)
        } else {
            (CAT, node..node + 1)
        };
        cats.filter(move |&cat| Some(cat) != hole)
            .flat_map(move |cat| {
                [MOUSE, CAT].map(|turn| (layout.position(turn, node, cat), winner))
            })
    })
}
