//! The Cat and Mouse solver: a [`Game`] goes in, a [`Solution`] with every position's outcome, moves to the end and optimal line comes out.
//!
//! Everything here works on dense node indices; the solver knows nothing about `.cmg` text.
//! Two engines fill one table (`table.rs`): bit-parallel rounds (`rounds.rs`, their threads in
//! `workers.rs`) while many positions are decided per unit of work, and the counter queue
//! (`queue.rs`) for the long thin tail of a game; `hybrid.rs` decides the handover from what
//! the rounds measure. Internally nodes are numbered breadth first from the hole (`order.rs`).
//! This module holds the public types, runs the engines, and answers the queries from the table.

// So that `benches/common/graphs.rs`, included in `hybrid.rs`'s tests, names the
// generator as everywhere else.
#[cfg(test)]
extern crate self as cmg_solve;
#[cfg(test)]
mod cancel_tests;
mod game;
mod hybrid;
mod order;
mod queue;
#[cfg(any(test, feature = "test-support"))]
#[doc(hidden)]
pub mod reference;
#[cfg(test)]
mod reference_tests;
mod rounds;
mod strategy;
mod table;
#[cfg(any(test, feature = "test-support"))]
#[doc(hidden)]
pub mod test_env;
/// The tests' generator, also used by the benchmarks' graph families (the `families`
/// example requires the feature).
#[cfg(any(test, feature = "test-support"))]
#[doc(hidden)]
pub mod test_rng;
pub mod variant;
#[cfg(any(test, feature = "test-support"))]
#[doc(hidden)]
pub mod variant_reference;
#[cfg(test)]
mod variant_tests;
mod what_if;
mod workers;

use std::borrow::Cow;
use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};

pub use game::{EngineKind, Game, Rules};
pub use strategy::{
    strategy_players, Continuation, Strategy, StrategyMove, StrategyTree, TreeLine,
};
pub use what_if::{edges, is_critical, what_if, what_if_with, without_edge, EdgeOutcome, WhatIf};

use table::{Layout, Table, CAT, MOUSE};

/// The largest node count the solver accepts.
///
/// The table would allow up to 32 767 nodes (queue entries hold a row in 16 bits and a column
/// in 15), but at 2.6 bytes per position 23 170 nodes already take 2.8 GB, so the limit stays
/// where it was and the memory budget (`peak_memory_bytes`) decides below it.
pub const MAX_NODES: usize = 23_170;

/// Which engine solves a game. Every engine gives the same [`Solution`]; [`Engine::Hybrid`] is
/// the fastest and is what [`solve`] uses, the others are there to be compared and tested.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// The counter queue alone: retrograde analysis one position at a time.
    Queue,
    /// Bit-parallel rounds to the end of the longest game.
    Rounds,
    /// Rounds while they decide positions more cheaply than the queue would, then the queue.
    Hybrid,
    /// Rounds up to and including round `r` (none for 0), then the queue: a forced switch point.
    SwitchAfter(u32),
}

/// How to solve: the engine and how many threads the rounds may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    pub engine: Engine,
    /// `None`: every core on games large enough to gain from them; `Some(t)`: `t` threads on any game.
    pub threads: Option<usize>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            engine: Engine::Hybrid,
            threads: None,
        }
    }
}

/// Whether this platform can start threads. WebAssembly (`wasm32-unknown-unknown`) has
/// none to start, and `std::thread::spawn` panics there: every engine and the what-if
/// then run on the calling thread whatever their configuration says, and the spawning
/// code is left out of the build (`.ci/wasm.sh` checks that the `.wasm` has none).
pub const CAN_SPAWN_THREADS: bool = !cfg!(target_family = "wasm");

/// The threads a solve uses when its configuration leaves it open: the cores, or one
/// where no thread can be started.
pub fn available_threads() -> usize {
    if CAN_SPAWN_THREADS {
        std::thread::available_parallelism().map_or(1, |cores| cores.get())
    } else {
        1
    }
}

/// Games with fewer nodes solve on one thread: a round's rows are then too cheap to pay for
/// starting a second thread (about 20 µs) twice per round.
const PARALLEL_MIN_NODES: usize = 400;

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

impl Position {
    /// LeetCode 913's start: the mouse on node 1 to move, the cat on node 2.
    pub const START: Position = Position {
        mouse: 1,
        cat: 2,
        turn: Player::Mouse,
    };
}

/// A solved game: every position's outcome and moves to the end.
///
/// The queries take positions on the game's nodes and panic on nodes outside `0..n`.
#[derive(Clone, Debug)]
pub struct Solution {
    game: Game,
    table: Tables,
}

/// What an engine filled in.
#[derive(Clone, Debug)]
enum Tables {
    Standard {
        table: Table,
        /// The solver's number of every node of `game` (`order.rs`); the table is indexed by it.
        rank: Vec<u32>,
    },
    Variant(variant::Table),
}

/// Solves every position of `game`.
///
/// # Panics
///
/// Panics if the game has more than [`MAX_NODES`] nodes.
pub fn solve(game: &Game) -> Solution {
    solve_with(game, Config::default(), &AtomicBool::new(false))
        .expect("a solve that is never cancelled always finishes")
}

/// Solves `game` like [`solve`], but gives up and returns `None` soon after `cancel` becomes true.
///
/// # Panics
///
/// Panics if the game has more than [`MAX_NODES`] nodes.
pub fn solve_cancellable(game: &Game, cancel: &AtomicBool) -> Option<Solution> {
    solve_with(game, Config::default(), cancel)
}

/// Solves `game` with the engine and threads of `config`, giving up soon after `cancel` becomes true.
///
/// # Panics
///
/// Panics if the game has more than [`MAX_NODES`] nodes.
pub fn solve_with(game: &Game, config: Config, cancel: &AtomicBool) -> Option<Solution> {
    // Relaxed is enough: the flag carries no data, and it is read again every round and every few thousand positions.
    solve_until(game, config, &|| cancel.load(Ordering::Relaxed))
}

fn solve_until(
    original: &Game,
    config: Config,
    should_stop: &dyn Fn() -> bool,
) -> Option<Solution> {
    let node_count = original.node_count();
    assert!(
        node_count <= MAX_NODES,
        "the solver handles at most {MAX_NODES} nodes, got {node_count}"
    );
    if should_stop() {
        return None;
    }
    if original.engine() == EngineKind::Variant {
        return variant::solve(original, should_stop).map(|table| Solution {
            game: original.clone(),
            table: Tables::Variant(table),
        });
    }
    let rank = order::breadth_first(original);
    let game = &order::renumbered(original, &rank);
    let layout = Layout::new(node_count);
    // Predecessors undo a move, so they are read from the reversed lists; for the usual symmetric
    // graph those are the lists themselves and nothing is copied.
    let predecessors = if game.is_symmetric() {
        Cow::Borrowed(game)
    } else {
        Cow::Owned(game.transposed())
    };
    let moves = queue::Moves {
        game,
        predecessors: &predecessors,
        hole: game.hole().map(|hole| hole as usize),
    };
    let most_moves = (0..node_count)
        .flat_map(|node| [MOUSE, CAT].map(|turn| moves.moves(turn, node).count()))
        .max()
        .unwrap_or(0);
    let mut table = Table::new(layout, most_moves);
    table.block_cat_on_hole(moves.hole);
    let terminals: Vec<queue::Entry> = table::terminals(layout, moves.hole)
        .map(|(index, winner)| {
            table.decide(index, winner, 0);
            queue::Entry::new(index / node_count, index % node_count, winner)
        })
        .collect();
    let policy = match config.engine {
        Engine::Queue => hybrid::Policy::After(0),
        Engine::Rounds => hybrid::Policy::Never,
        Engine::Hybrid => hybrid::Policy::Auto,
        Engine::SwitchAfter(round) => hybrid::Policy::After(round),
    };
    let workers = config.threads.unwrap_or_else(|| {
        if node_count < PARALLEL_MIN_NODES {
            1
        } else {
            available_threads()
        }
    });
    let finished = node_count == 0
        || match rounds::run(&mut table, &moves, policy, workers, terminals, should_stop) {
            rounds::Ending::Finished => true,
            rounds::Ending::Cancelled => false,
            rounds::Ending::Handover { level, frontier } => {
                queue::run(&mut table, &moves, level, frontier, should_stop)
            }
        };
    finished.then(|| Solution {
        game: original.clone(),
        table: Tables::Standard { table, rank },
    })
}

/// [`peak_memory_bytes`] for the engine that serves a game of `node_count` nodes under `engine`.
pub fn peak_memory_bytes_for(node_count: usize, engine: EngineKind) -> u64 {
    match engine {
        EngineKind::Standard => peak_memory_bytes(node_count),
        EngineKind::Variant => variant::peak_memory_bytes(node_count),
    }
}

/// The most memory, in bytes, that solving a game of `node_count` nodes takes at its peak,
/// estimated before anything is allocated: callers compare it with a budget and refuse
/// a solve that would not fit. The graph's own adjacency lists are not counted, nor the moves
/// of positions whose game lasts 65 535 moves or more (12 bytes each; no known graph has one).
pub fn peak_memory_bytes(node_count: usize) -> u64 {
    let layout = Layout::new(node_count);
    let engines = rounds::extra_bytes(layout).max(queue::extra_bytes(layout));
    // The terminal positions, listed once as queue entries: four per node at most.
    let terminals = 4 * node_count as u64 * std::mem::size_of::<queue::Entry>() as u64;
    Table::bytes(layout) + engines + terminals
}

impl Solution {
    /// The game this is the solution of.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Which engine solved the game.
    pub fn engine(&self) -> EngineKind {
        match self.table {
            Tables::Standard { .. } => EngineKind::Standard,
            Tables::Variant(_) => EngineKind::Variant,
        }
    }

    /// The outcome of `pos` under optimal play, as a start (with the game's whole turn limit
    /// ahead); a draw when play goes on forever, and for the positions with the cat on the
    /// hole, which cannot arise in the standard game.
    pub fn outcome(&self, pos: Position) -> Outcome {
        self.outcome_within(pos, self.game.limit())
    }

    /// The number of single moves (plies) left under optimal play: `Some(0)` for terminal
    /// positions, `None` for draws.
    pub fn moves_to_end(&self, pos: Position) -> Option<u32> {
        self.decided_within(pos, self.game.limit())
            .map(|(_, moves)| moves)
    }

    /// The outcome of `pos` when at most `moves_left` more moves may be made (`None`: no limit).
    pub fn outcome_within(&self, pos: Position, moves_left: Option<u32>) -> Outcome {
        match self.decided_within(pos, moves_left) {
            None => Outcome::Draw,
            Some((CAT, _)) => Outcome::CatWins,
            Some(_) => Outcome::MouseWins,
        }
    }

    /// [`Solution::moves_to_end`] with at most `moves_left` moves to go (`None`: no limit).
    pub fn moves_within(&self, pos: Position, moves_left: Option<u32>) -> Option<u32> {
        self.decided_within(pos, moves_left).map(|(_, moves)| moves)
    }

    /// The winner and moves of `pos` with at most `moves_left` moves to go: a position decided
    /// in more moves than that is a draw (see `variant.rs` for why the unlimited table says it all).
    fn decided_within(&self, pos: Position, moves_left: Option<u32>) -> Option<(usize, u32)> {
        self.decided(pos)
            .filter(|&(_, moves)| moves_left.is_none_or(|left| moves <= left))
    }

    /// Whether the game is over at `pos`: the mouse is on a hole, or the cat stands on the mouse.
    ///
    /// In the standard game, positions with the cat on the hole cannot arise and are not terminal.
    pub fn is_terminal(&self, pos: Position) -> bool {
        !self.cat_on_hole(pos) && variant::terminal(&self.game, pos.mouse, pos.cat).is_some()
    }

    /// The node the player to move goes to on the optimal line from `pos`.
    ///
    /// The winner takes a fastest winning move, the loser a slowest losing move, and in a draw the
    /// mover keeps the draw; ties go to the smallest index. `None` when `pos` is terminal, has the
    /// cat on the hole, or leaves the mover no legal move.
    pub fn best_move(&self, pos: Position) -> Option<u32> {
        self.best_move_within(pos, self.game.limit())
    }

    /// [`Solution::best_move`] with at most `moves_left` moves to go (`None`: no limit).
    pub fn best_move_within(&self, pos: Position, moves_left: Option<u32>) -> Option<u32> {
        if self.is_terminal(pos) || self.cat_on_hole(pos) || moves_left == Some(0) {
            return None;
        }
        let after = moves_left.map(|left| left - 1);
        let outcome = self.outcome_within(pos, moves_left);
        let mover_wins = match (outcome, pos.turn) {
            (Outcome::Draw, _) => {
                return self.legal_moves(pos).find(|&next| {
                    self.outcome_within(self.after(pos, next), after) == Outcome::Draw
                });
            }
            (Outcome::MouseWins, Player::Mouse) | (Outcome::CatWins, Player::Cat) => true,
            (Outcome::MouseWins, Player::Cat) | (Outcome::CatWins, Player::Mouse) => false,
        };
        let mut best: Option<(u32, u32)> = None;
        for next in self.legal_moves(pos) {
            let child = self.after(pos, next);
            if self.outcome_within(child, after) != outcome {
                continue;
            }
            let Some((_, moves)) = self.decided_within(child, after) else {
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

    /// The optimal line from `start`, `start` included, with the game's whole turn limit ahead.
    ///
    /// It ends at a terminal position, at a position whose mover has no legal move, when the
    /// turn limit is reached, or, in a draw, at the first position that repeats (included once
    /// more as the last entry).
    pub fn line(&self, start: Position) -> Vec<Position> {
        let mut line = vec![start];
        // Decided lines strictly shorten the moves to the end, so only draws can come back to a position.
        let mut seen = HashSet::new();
        let mut pos = start;
        let mut left = self.game.limit();
        // No line visits more positions than there are: a wrong table gives a wrong line,
        // never an endless one.
        let positions = 2 * self.game.node_count() * self.game.node_count();
        while let Some(next) = self.best_move_within(pos, left) {
            if line.len() > positions {
                break;
            }
            if self.outcome_within(pos, left) == Outcome::Draw {
                seen.insert(pos);
            }
            pos = self.after(pos, next);
            left = left.map(|left| left - 1);
            line.push(pos);
            if seen.contains(&pos) {
                break;
            }
        }
        line
    }

    /// The legal moves of the player to move at `pos`, ascending ([`Game::legal_moves`]).
    fn legal_moves(&self, pos: Position) -> impl Iterator<Item = u32> + '_ {
        self.game.legal_moves(pos)
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

    /// Whether `pos` has the cat on the hole in a game solved by the standard engines, which
    /// leave such positions out (they cannot arise).
    fn cat_on_hole(&self, pos: Position) -> bool {
        matches!(self.table, Tables::Standard { .. }) && Some(pos.cat) == self.game.hole()
    }

    /// The winner and moves to the end of `pos` without a turn limit, if it is decided;
    /// positions with the cat on the hole never are in the standard game.
    fn decided(&self, pos: Position) -> Option<(usize, u32)> {
        let node_count = self.game.node_count();
        assert!(
            (pos.mouse as usize) < node_count && (pos.cat as usize) < node_count,
            "position {pos:?} is outside a game of {node_count} nodes"
        );
        match &self.table {
            Tables::Standard { table, rank } => {
                let turn = match pos.turn {
                    Player::Mouse => MOUSE,
                    Player::Cat => CAT,
                };
                let (mouse, cat) = (rank[pos.mouse as usize], rank[pos.cat as usize]);
                let index = table.layout.position(turn, mouse as usize, cat as usize);
                let winner = table.winner(index)?;
                Some((winner, table.moves(index)))
            }
            Tables::Variant(table) => {
                let (winner, moves) = table.decided(pos.mouse, pos.cat, pos.turn)?;
                let winner = if winner == variant::CAT_WINS {
                    CAT
                } else {
                    MOUSE
                };
                Some((winner, moves))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use super::{solve_until, Config, Engine, Game};

    /// A stop request made after the solve started reaches the round loop and the queue.
    #[test]
    fn every_engine_stops_when_asked_mid_solve() {
        let adjacency: Vec<Vec<u32>> = (0..40u32)
            .map(|node| vec![(node + 1) % 40, (node + 39) % 40, (node * 7 + 3) % 40])
            .collect();
        let game = Game::new(&adjacency, Some(0));
        for engine in [Engine::Queue, Engine::Rounds, Engine::Hybrid] {
            let config = Config {
                engine,
                threads: Some(1),
            };
            // The first look is before any work; every later one says stop.
            let looks = Cell::new(0);
            let stop_after_first = || {
                looks.set(looks.get() + 1);
                looks.get() > 1
            };
            assert!(
                solve_until(&game, config, &stop_after_first).is_none(),
                "{engine:?}"
            );
            assert!(looks.get() > 1, "{engine:?}");
            assert!(
                solve_until(&game, config, &|| false).is_some(),
                "{engine:?}"
            );
        }
    }
}
