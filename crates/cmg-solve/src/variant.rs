//! The general engine: retrograde analysis of the game under any [`Rules`], one position at a
//! time, for the games the standard engines cannot serve (several holes, the cat in the
//! holes, the cat starting on a hole).
//!
//! The game, stated once: before each move, the mouse on the cat's node is a cat win, else
//! the mouse on a hole is a mouse win. The player to move must move along an edge, in its
//! direction; the cat may not move into a hole unless the rules let it. A player with no
//! move, and play that never ends, are draws.
//!
//! A turn limit needs no table of its own: a position decided in `d` moves without a limit
//! is decided the same way, in `d` moves, under any limit of at least `d`, and is a draw
//! under any smaller one (by induction on the moves left: the winner's fastest move and the
//! loser's slowest one lead to positions decided in `d - 1`). So every engine solves the
//! game without its limit, and the queries apply the limit ([`crate::Solution`]). The
//! reference in `variant_reference.rs` computes the limit layer by layer instead, and the
//! tests hold the two to each other.

use std::collections::VecDeque;

use crate::{Game, Player};

/// The value of every position: who wins (0 undecided, 1 the mouse, 2 the cat) and in how
/// many moves, indexed by [`Table::index`].
#[derive(Clone, Debug)]
pub(crate) struct Table {
    node_count: usize,
    winner: Vec<u8>,
    moves: Vec<u32>,
}

const UNDECIDED: u8 = 0;
pub(crate) const MOUSE_WINS: u8 = 1;
pub(crate) const CAT_WINS: u8 = 2;

impl Table {
    fn index(&self, mouse: u32, cat: u32, turn: Player) -> usize {
        let turn = usize::from(turn == Player::Cat);
        (turn * self.node_count + mouse as usize) * self.node_count + cat as usize
    }

    /// The winner (`MOUSE_WINS` or `CAT_WINS`) and moves to the end of a decided position.
    pub(crate) fn decided(&self, mouse: u32, cat: u32, turn: Player) -> Option<(u8, u32)> {
        let index = self.index(mouse, cat, turn);
        match self.winner[index] {
            UNDECIDED => None,
            winner => Some((winner, self.moves[index])),
        }
    }
}

/// The memory the general engine takes at its peak for `node_count` nodes, in bytes: per
/// position a winner byte, a move count, a counter and a queue entry.
pub fn peak_memory_bytes(node_count: usize) -> u64 {
    let positions = 2 * node_count as u64 * node_count as u64;
    positions * (1 + 4 + 4 + 4)
}

/// Whether the game is over at the position: the mouse on the cat, or on a hole.
pub(crate) fn terminal(game: &Game, mouse: u32, cat: u32) -> Option<u8> {
    if mouse == cat {
        Some(CAT_WINS)
    } else if game.is_hole(mouse) {
        Some(MOUSE_WINS)
    } else {
        None
    }
}

/// Solves every position of `game` without its turn limit; `None` if `should_stop` said so.
pub(crate) fn solve(game: &Game, should_stop: &dyn Fn() -> bool) -> Option<Table> {
    let n = game.node_count();
    let positions = 2 * n * n;
    let mut table = Table {
        node_count: n,
        winner: vec![UNDECIDED; positions],
        moves: vec![0; positions],
    };
    let reversed = game.transposed();
    let mut counters = vec![0u32; positions];
    let mut queue: VecDeque<u32> = VecDeque::new();
    for mouse in 0..n as u32 {
        for cat in 0..n as u32 {
            for turn in [Player::Mouse, Player::Cat] {
                let index = table.index(mouse, cat, turn);
                match terminal(game, mouse, cat) {
                    Some(winner) => {
                        table.winner[index] = winner;
                        queue.push_back(index as u32);
                    }
                    None => {
                        let position = crate::Position { mouse, cat, turn };
                        counters[index] = game.legal_moves(position).count() as u32;
                    }
                }
            }
        }
    }
    let mut steps = 0u32;
    while let Some(index) = queue.pop_front() {
        steps = steps.wrapping_add(1);
        if steps.is_multiple_of(4096) && should_stop() {
            return None;
        }
        let index = index as usize;
        let (winner, moves) = (table.winner[index], table.moves[index]);
        let turn = if index / (n * n) == 0 {
            Player::Mouse
        } else {
            Player::Cat
        };
        let (mouse, cat) = (((index / n) % n) as u32, (index % n) as u32);
        // The player who moved into this position is the one not to move now.
        let mover = turn.opponent();
        let mover_wins = match mover {
            Player::Mouse => winner == MOUSE_WINS,
            Player::Cat => winner == CAT_WINS,
        };
        // Where the mover stands now: the end of its move.
        let to_node = match mover {
            Player::Mouse => mouse,
            Player::Cat => cat,
        };
        if mover == Player::Cat && !game.cat_may_enter(to_node) {
            continue;
        }
        for &from in reversed.neighbours(to_node) {
            let (m, c) = match mover {
                Player::Mouse => (from, cat),
                Player::Cat => (mouse, from),
            };
            if terminal(game, m, c).is_some() {
                continue;
            }
            let before = table.index(m, c, mover);
            if table.winner[before] != UNDECIDED {
                continue;
            }
            if !mover_wins {
                counters[before] -= 1;
                if counters[before] > 0 {
                    continue;
                }
            }
            table.winner[before] = winner;
            table.moves[before] = moves + 1;
            queue.push_back(before as u32);
        }
    }
    Some(table)
}
