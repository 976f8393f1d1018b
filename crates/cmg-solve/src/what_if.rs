//! What-if per edge: the start's outcome with one edge removed, for every edge, and which edges are critical.
//!
//! One fresh solve per edge, except for the edges no strategy walk uses, which keep the
//! outcome exactly (see [`what_if`]); the solves run side by side on the cores and share
//! the caller's cancel flag.

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use crate::{solve_with, Config, Game, Outcome, Player, Position, Solution};

/// The start's outcome without one edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EdgeOutcome {
    /// The edge's two ends, smaller index first.
    pub edge: (u32, u32),
    pub outcome: Outcome,
    /// Moves to the end under optimal play; `None` for a draw.
    pub moves: Option<u32>,
    /// Whether removing the edge changes the result ([`is_critical`]).
    pub critical: bool,
}

/// The what-if of every edge of a solved game, in the order of the edges `(a, b)`, `a < b`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WhatIf {
    pub start: Position,
    pub edges: Vec<EdgeOutcome>,
    /// How many edges needed a solve of their own (the others keep the outcome, provably).
    pub solved: usize,
}

/// Whether removing an edge that turns `now` into `then` is critical: the result changes, in
/// any direction (a win changes hands, a win becomes a draw, or a draw becomes a win). The one
/// rule for the CLI, the JSON, the view, the hints and the hovers.
pub fn is_critical(now: Outcome, then: Outcome) -> bool {
    then != now
}

/// Whether the player to move at `pos` has exactly one legal move (the cat never enters the hole).
fn only_move(game: &Game, pos: Position) -> bool {
    game.legal_moves(pos).count() == 1
}

/// The undirected edges of `game`, `(a, b)` with `a < b`, ascending; a pair listed one way counts.
pub fn edges(game: &Game) -> Vec<(u32, u32)> {
    let mut edges = Vec::new();
    for node in 0..game.node_count() as u32 {
        for &next in game.neighbours(node) {
            if node < next {
                edges.push((node, next));
            } else if game.neighbours(next).binary_search(&node).is_err() {
                edges.push((next, node));
            }
        }
    }
    edges.sort_unstable();
    edges
}

/// The game without the edge `a`–`b` (in both directions), under the same rules.
pub fn without_edge(game: &Game, (a, b): (u32, u32)) -> Game {
    let adjacency: Vec<Vec<u32>> = (0..game.node_count() as u32)
        .map(|node| {
            let gone = match node {
                n if n == a => Some(b),
                n if n == b => Some(a),
                _ => None,
            };
            game.neighbours(node)
                .iter()
                .copied()
                .filter(|&next| Some(next) != gone)
                .collect()
        })
        .collect();
    match game.rules() {
        Some(rules) => Game::with_rules(&adjacency, rules.clone()),
        None => Game::new(&adjacency, game.hole()),
    }
}

/// The what-if of every edge of `solution`'s game from `start`, or `None` if `cancel` was set.
///
/// Work is reused where that is exact. Walk both players' strategies from `start` (each
/// plays its best move, the other every legal move), and call an edge *used* when a
/// strategist's move goes along it, or when it is the only legal move of the other player
/// at a position of a walk. Removing an unused edge keeps the outcome and the moves:
///
/// - for a win in `m`, the winner's strategy is still there and still wins within `m`:
///   its lines are a subset of the old ones, and no opponent on them is left without a
///   move (a stuck player is a draw); the loser's strategy is still there too, and the
///   winner only lost moves, so it cannot win faster than `m`;
/// - for a draw, each player's strategy is still there and still never loses (a stuck
///   opponent is a draw, not a loss).
///
/// Only the used edges get a solve of their own. A walk that reaches `max_positions`
/// positions marks every edge as used, which is slower but still exact. The solves run on
/// every core (see [`what_if_with`]).
pub fn what_if(
    solution: &Solution,
    start: Position,
    max_positions: usize,
    cancel: &AtomicBool,
) -> Option<WhatIf> {
    what_if_with(solution, start, max_positions, None, cancel)
}

/// [`what_if`] with its solves spread over `threads` threads (`None`: one per core). The
/// solves of different edges are independent, so each thread takes the next edge still to
/// solve and solves it on one thread: on the small games a what-if is computed for, that
/// is faster than each solve on every core, whose rounds are too short to split. The
/// result is the same for any number of threads.
pub fn what_if_with(
    solution: &Solution,
    start: Position,
    max_positions: usize,
    threads: Option<usize>,
    cancel: &AtomicBool,
) -> Option<WhatIf> {
    let game = solution.game();
    let now = solution.outcome(start);
    let now_moves = solution.moves_to_end(start);
    let mut used: HashSet<(u32, u32)> = HashSet::new();
    let mut complete = true;
    for player in [Player::Mouse, Player::Cat] {
        complete &= solution.walk_strategy(player, start, max_positions, |pos, _, next| {
            let from = match pos.turn {
                Player::Mouse => pos.mouse,
                Player::Cat => pos.cat,
            };
            if pos.turn == player || only_move(game, pos) {
                used.insert((from.min(next), from.max(next)));
            }
        });
    }
    let edges = edges(game);
    let to_solve: Vec<(u32, u32)> = edges
        .iter()
        .copied()
        .filter(|edge| !complete || used.contains(edge))
        .collect();
    let threads = threads
        .unwrap_or_else(crate::available_threads)
        .clamp(1, to_solve.len().max(1));
    let mut solved_outcomes = solve_without_each(game, start, &to_solve, threads, cancel)?;
    let outcomes = edges
        .into_iter()
        .map(|edge| {
            let (outcome, moves) = match to_solve.binary_search(&edge) {
                Ok(index) => solved_outcomes[index]
                    .take()
                    .expect("every edge to solve is solved"),
                Err(_) => (now, now_moves),
            };
            EdgeOutcome {
                edge,
                outcome,
                moves,
                critical: is_critical(now, outcome),
            }
        })
        .collect();
    Some(WhatIf {
        start,
        edges: outcomes,
        solved: to_solve.len(),
    })
}

/// The start's outcome and its moves to the end (`None` for a draw).
type Ending = (Outcome, Option<u32>);

/// The start's outcome and moves without each of `edges`, in their order, solved on
/// `threads` threads; `None` if `cancel` was set.
fn solve_without_each(
    game: &Game,
    start: Position,
    edges: &[(u32, u32)],
    threads: usize,
    cancel: &AtomicBool,
) -> Option<Vec<Option<Ending>>> {
    let one_thread = Config {
        threads: Some(1),
        ..Config::default()
    };
    let solve_one = |edge| {
        if cancel.load(Ordering::Relaxed) {
            return None;
        }
        let fresh = solve_with(&without_edge(game, edge), one_thread, cancel)?;
        Some((fresh.outcome(start), fresh.moves_to_end(start)))
    };
    if threads == 1 || !crate::CAN_SPAWN_THREADS {
        return edges
            .iter()
            .map(|&edge| solve_one(edge).map(Some))
            .collect();
    }
    let next = AtomicUsize::new(0);
    let found: Vec<Vec<(usize, Ending)>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut found = Vec::new();
                    loop {
                        let index = next.fetch_add(1, Ordering::Relaxed);
                        let Some(&edge) = edges.get(index) else {
                            return found;
                        };
                        match solve_one(edge) {
                            Some(outcome) => found.push((index, outcome)),
                            // Cancelled: the other threads see the flag too.
                            None => return found,
                        }
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|worker| {
                worker
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect()
    });
    if cancel.load(Ordering::Relaxed) {
        return None;
    }
    let mut outcomes = vec![None; edges.len()];
    for (index, outcome) in found.into_iter().flatten() {
        outcomes[index] = Some(outcome);
    }
    Some(outcomes)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The what-if's own tests compare it with fresh solves of `without_edge`, so this
    /// function is checked on its own: both directions go, nothing else does.
    #[test]
    fn without_edge_removes_both_directions_and_nothing_else() {
        let game = Game::new(&[vec![1, 2], vec![0, 2, 3], vec![0, 1], vec![1]], Some(0));
        let cut = without_edge(&game, (0, 1));
        let lists: Vec<&[u32]> = (0..4).map(|n| cut.neighbours(n)).collect();
        assert_eq!(lists, [&[2][..], &[2, 3], &[0, 1], &[1]]);
        let cut = without_edge(&game, (1, 3));
        let lists: Vec<&[u32]> = (0..4).map(|n| cut.neighbours(n)).collect();
        assert_eq!(lists, [&[1, 2][..], &[0, 2], &[0, 1], &[]]);
        assert_eq!(cut.hole(), Some(0));
        assert_eq!(cut.rules(), None);
        // A game under rules keeps them without the edge.
        let rules = crate::Rules {
            holes: vec![0, 3],
            limit: Some(4),
            ..crate::Rules::default()
        };
        let game = Game::with_rules(&[vec![1, 2], vec![0, 2, 3], vec![0, 1], vec![1]], rules);
        let cut = without_edge(&game, (0, 1));
        assert_eq!(cut.rules(), game.rules());
    }
}
