//! What-if per edge: the start's outcome with one edge removed, for every edge, and which edges are critical.
//!
//! One fresh solve per edge, except for the edges no strategy walk uses, which keep the
//! outcome exactly (see [`what_if`]); the solves share the caller's cancel flag.

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::{solve_cancellable, Game, Outcome, Player, Position, Solution};

/// The start's outcome without one edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EdgeOutcome {
    /// The edge's two ends, smaller index first.
    pub edge: (u32, u32),
    pub outcome: Outcome,
    /// Moves to the end under optimal play; `None` for a draw.
    pub moves: Option<u32>,
    /// Whether removing the edge changes who wins or turns a win into a draw.
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

/// Whether removing an edge that turns `now` into `then` is critical: the winner changes, or a
/// win becomes a draw. A draw that becomes a win is not (nobody who won loses it).
pub fn is_critical(now: Outcome, then: Outcome) -> bool {
    now != Outcome::Draw && then != now
}

/// Whether the player to move at `pos` has exactly one legal move (the cat never enters the hole).
fn only_move(game: &Game, pos: Position) -> bool {
    let (from, is_cat) = match pos.turn {
        Player::Mouse => (pos.mouse, false),
        Player::Cat => (pos.cat, true),
    };
    let legal = game
        .neighbours(from)
        .iter()
        .filter(|&&next| !(is_cat && Some(next) == game.hole()))
        .count();
    legal == 1
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

/// The game without the edge `a`–`b` (in both directions).
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
    Game::new(&adjacency, game.hole())
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
/// positions marks every edge as used, which is slower but still exact.
pub fn what_if(
    solution: &Solution,
    start: Position,
    max_positions: usize,
    cancel: &AtomicBool,
) -> Option<WhatIf> {
    let game = solution.game();
    let now = solution.outcome(start);
    let now_moves = solution.moves_to_end(start);
    let mut used: HashSet<(u32, u32)> = HashSet::new();
    let mut complete = true;
    for player in [Player::Mouse, Player::Cat] {
        complete &= solution.walk_strategy(player, start, max_positions, |pos, next| {
            let from = match pos.turn {
                Player::Mouse => pos.mouse,
                Player::Cat => pos.cat,
            };
            if pos.turn == player || only_move(game, pos) {
                used.insert((from.min(next), from.max(next)));
            }
        });
    }
    let mut solved = 0;
    let mut outcomes = Vec::new();
    for edge in edges(game) {
        if cancel.load(Ordering::Relaxed) {
            return None;
        }
        let (outcome, moves) = if complete && !used.contains(&edge) {
            (now, now_moves)
        } else {
            solved += 1;
            let fresh = solve_cancellable(&without_edge(game, edge), cancel)?;
            (fresh.outcome(start), fresh.moves_to_end(start))
        };
        outcomes.push(EdgeOutcome {
            edge,
            outcome,
            moves,
            critical: is_critical(now, outcome),
        });
    }
    Some(WhatIf {
        start,
        edges: outcomes,
        solved,
    })
}
