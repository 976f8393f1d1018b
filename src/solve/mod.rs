//! The Cat and Mouse solver: a [`Game`] goes in, a [`Solution`] with every position's outcome, moves to the end and optimal line comes out.
//!
//! Everything here works on dense node indices; the solver knows nothing about `.cmg` text.
//! The solving itself is the retrograde analysis of the spec (see [`retrograde`]); this module
//! holds the public types and the queries that read a solved state array.

#[cfg(test)]
mod cancel_tests;
mod game;
mod retrograde;

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};

pub use game::Game;
pub use retrograde::MAX_NODES;

use retrograde::{Layout, CAT_WINS, DECIDED, MOVES};

/// One of the two players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    Mouse,
    Cat,
}

impl Player {
    /// The other player, who moves next.
    pub fn opponent(self) -> Player {
        match self {
            Player::Mouse => Player::Cat,
            Player::Cat => Player::Mouse,
        }
    }
}

/// The result of a position under optimal play, with the puzzle's result codes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    Draw,
    MouseWins,
    CatWins,
}

impl Outcome {
    /// The puzzle's code: 0 for a draw, 1 when the mouse wins, 2 when the cat wins.
    pub fn code(self) -> u8 {
        match self {
            Outcome::Draw => 0,
            Outcome::MouseWins => 1,
            Outcome::CatWins => 2,
        }
    }
}

/// A game state: where the mouse and the cat stand (dense indices) and who moves next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub mouse: u32,
    pub cat: u32,
    pub turn: Player,
}

/// A solved game: every position's outcome and moves to the end.
///
/// Each position has one `u32` state word: a decided flag, the winner and the moves to the end.
/// Undecided words (draws) still hold the leftover move counter from solving, which is ignored.
///
/// The queries take positions on the game's nodes and panic on nodes outside `0..n`.
#[derive(Clone, Debug)]
pub struct Solution {
    game: Game,
    layout: Layout,
    state: Vec<u32>,
}

/// Solves every position of `game`.
///
/// # Panics
///
/// Panics if the game has more than [`MAX_NODES`] nodes.
pub fn solve(game: &Game) -> Solution {
    let state = retrograde::retrograde(game, || false)
        .expect("a solve that is never cancelled always finishes");
    Solution::new(game, state)
}

/// Solves `game` like [`solve`], but gives up and returns `None` soon after `cancel` becomes true.
///
/// # Panics
///
/// Panics if the game has more than [`MAX_NODES`] nodes.
pub fn solve_cancellable(game: &Game, cancel: &AtomicBool) -> Option<Solution> {
    // Relaxed is enough: the flag carries no data, and it is read again every few thousand positions.
    let state = retrograde::retrograde(game, || cancel.load(Ordering::Relaxed))?;
    Some(Solution::new(game, state))
}

/// The most memory, in bytes, that solving a game of `node_count` nodes takes at its peak,
/// estimated before anything is allocated: callers compare it with a budget and refuse
/// a solve that would not fit. The graph's own adjacency lists are not counted.
pub fn peak_memory_bytes(node_count: usize) -> u64 {
    retrograde::peak_memory_bytes(node_count)
}

impl Solution {
    fn new(game: &Game, state: Vec<u32>) -> Solution {
        Solution {
            game: game.clone(),
            layout: Layout {
                node_count: game.node_count(),
            },
            state,
        }
    }

    /// The game this is the solution of.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The outcome of `pos` under optimal play; a draw when play goes on forever, and for the
    /// positions with the cat on the hole, which cannot arise.
    pub fn outcome(&self, pos: Position) -> Outcome {
        match self.decided(pos) {
            None => Outcome::Draw,
            Some(word) if word & CAT_WINS != 0 => Outcome::CatWins,
            Some(_) => Outcome::MouseWins,
        }
    }

    /// The number of single moves (plies) left under optimal play: `Some(0)` for terminal
    /// positions, `None` for draws.
    pub fn moves_to_end(&self, pos: Position) -> Option<u32> {
        self.decided(pos).map(|word| word & MOVES)
    }

    /// Whether the game is over at `pos`: the mouse is on the hole, or the cat stands on the mouse.
    ///
    /// Positions with the cat on the hole cannot arise and are not terminal.
    pub fn is_terminal(&self, pos: Position) -> bool {
        !self.cat_on_hole(pos) && (Some(pos.mouse) == self.game.hole() || pos.mouse == pos.cat)
    }

    /// The node the player to move goes to on the optimal line from `pos`.
    ///
    /// The winner takes a fastest winning move, the loser a slowest losing move, and in a draw the
    /// mover keeps the draw; ties go to the smallest index. `None` when `pos` is terminal, has the
    /// cat on the hole, or leaves the mover no legal move.
    pub fn best_move(&self, pos: Position) -> Option<u32> {
        if self.is_terminal(pos) || self.cat_on_hole(pos) {
            return None;
        }
        let mover_wins = match (self.outcome(pos), pos.turn) {
            (Outcome::Draw, _) => {
                return self
                    .legal_moves(pos)
                    .find(|&next| self.outcome(self.after(pos, next)) == Outcome::Draw);
            }
            (Outcome::MouseWins, Player::Mouse) | (Outcome::CatWins, Player::Cat) => true,
            (Outcome::MouseWins, Player::Cat) | (Outcome::CatWins, Player::Mouse) => false,
        };
        let outcome = self.outcome(pos);
        let mut best: Option<(u32, u32)> = None;
        for next in self.legal_moves(pos) {
            let child = self.after(pos, next);
            if self.outcome(child) != outcome {
                continue;
            }
            let Some(moves) = self.moves_to_end(child) else {
                continue;
            };
            // Strict comparisons keep the first, that is the smallest, node among equally good moves.
            let better = match best {
                None => true,
                Some((_, best_moves)) if mover_wins => moves < best_moves,
                Some((_, best_moves)) => moves > best_moves,
            };
            if better {
                best = Some((next, moves));
            }
        }
        best.map(|(next, _)| next)
    }

    /// The optimal line from `start`, `start` included.
    ///
    /// It ends at a terminal position, at a position whose mover has no legal move, or, in a draw,
    /// at the first position that repeats (included once more as the last entry).
    pub fn line(&self, start: Position) -> Vec<Position> {
        let mut line = vec![start];
        // Decided lines strictly shorten the moves to the end, so only draws can come back to a position.
        let mut seen = HashSet::new();
        let mut pos = start;
        while let Some(next) = self.best_move(pos) {
            if self.outcome(pos) == Outcome::Draw {
                seen.insert(pos);
            }
            pos = self.after(pos, next);
            line.push(pos);
            if seen.contains(&pos) {
                break;
            }
        }
        line
    }

    /// The legal moves of the player to move at `pos`, ascending; the cat never steps onto the hole.
    fn legal_moves(&self, pos: Position) -> impl Iterator<Item = u32> + '_ {
        let (from, is_cat) = match pos.turn {
            Player::Mouse => (pos.mouse, false),
            Player::Cat => (pos.cat, true),
        };
        let hole = self.game.hole();
        self.game
            .neighbours(from)
            .iter()
            .copied()
            .filter(move |&next| !(is_cat && Some(next) == hole))
    }

    /// The position after the player to move at `pos` goes to `next`.
    fn after(&self, pos: Position, next: u32) -> Position {
        match pos.turn {
            Player::Mouse => Position {
                mouse: next,
                cat: pos.cat,
                turn: Player::Cat,
            },
            Player::Cat => Position {
                mouse: pos.mouse,
                cat: next,
                turn: Player::Mouse,
            },
        }
    }

    fn cat_on_hole(&self, pos: Position) -> bool {
        Some(pos.cat) == self.game.hole()
    }

    /// The state word of `pos` if it is decided; positions with the cat on the hole never are.
    fn decided(&self, pos: Position) -> Option<u32> {
        let node_count = self.layout.node_count;
        assert!(
            (pos.mouse as usize) < node_count && (pos.cat as usize) < node_count,
            "position {pos:?} is outside a game of {node_count} nodes"
        );
        if self.cat_on_hole(pos) {
            return None;
        }
        let index = match pos.turn {
            Player::Mouse => self
                .layout
                .mouse_to_move(pos.mouse as usize, pos.cat as usize),
            Player::Cat => self
                .layout
                .cat_to_move(pos.mouse as usize, pos.cat as usize),
        };
        let word = self.state[index];
        (word & DECIDED != 0).then_some(word)
    }
}
