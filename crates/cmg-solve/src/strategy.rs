//! Strategies read off a solved table: a player's move at every position the game can reach when that player follows it, and the same as a tree to print.
//!
//! A strategy for player `P` plays [`Solution::best_move`] at every position where `P` is to
//! move (the fastest win, the draw-keeping move, or the slowest loss, smallest node first), and
//! lets the opponent play every legal move. For a won game the winner's strategy is the
//! certificate of the win: every line it allows ends in the winner's terminal within the
//! stated moves. For a draw each player's strategy keeps that player from losing.
//!
//! Under a turn limit a position's value depends on the moves left, so the walks and the
//! tree go through positions with their moves left (at most `2·n²` times the limit of
//! them), and the best move is the best with those moves left ([`Solution::best_move_within`]).
//! Without a limit the moves left are `None` throughout.
//!
//! Nothing here is unbounded: the walks stop after a given number of positions (at most
//! `2·n²` exist, times the limit under one) and say so, and the tree stops after a given
//! number of lines.

use std::collections::{HashMap, HashSet, VecDeque};

use crate::{Outcome, Player, Position, Solution};

/// One player's strategy from a start position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Strategy {
    pub player: Player,
    /// The player's move at each position where it is that player's turn, reachable from the
    /// start when the player follows the strategy, whatever the opponent plays; sorted by
    /// `(mouse, cat)`, then by moves left, most first.
    pub moves: Vec<StrategyMove>,
    /// False when the walk stopped at its position limit: `moves` is then a part of the strategy.
    pub complete: bool,
}

/// One move of a [`Strategy`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StrategyMove {
    pub position: Position,
    /// The moves left before the turn limit at `position`; `None` without a limit.
    pub moves_left: Option<u32>,
    /// The node the player moves to.
    pub to: u32,
}

/// How the tree goes on below one of its lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Continuation {
    /// The lines below it, at one more depth, follow.
    Expanded,
    /// The game is over.
    Terminal,
    /// The player to move has no legal move: a draw.
    Stuck,
    /// The turn limit is reached: a draw.
    Limit,
    /// The position was reached before: at the line with this index, or at the start (`None`).
    Repeat(Option<usize>),
    /// Not shown: the depth limit was reached.
    Folded,
}

/// One move of a strategy tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TreeLine {
    /// 0 for the moves out of the start.
    pub depth: u32,
    pub mover: Player,
    pub from: u32,
    pub to: u32,
    /// The position after the move.
    pub position: Position,
    /// The moves left before the turn limit at `position`; `None` without a limit.
    pub moves_left: Option<u32>,
    pub next: Continuation,
}

/// A strategy as a tree, in reading order: each line is followed by the lines below it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StrategyTree {
    pub player: Player,
    pub start: Position,
    pub lines: Vec<TreeLine>,
    /// True when the line limit cut the tree short (the depth limit is shown by [`Continuation::Folded`]).
    pub truncated: bool,
}

impl Solution {
    /// The strategies that explain the start's outcome: the winner's alone for a win, the
    /// mouse's and then the cat's for a draw. Each walk stops after `max_positions` positions.
    pub fn strategies(&self, start: Position, max_positions: usize) -> Vec<Strategy> {
        strategy_players(self.outcome(start))
            .iter()
            .map(|&player| self.strategy(player, start, max_positions))
            .collect()
    }

    /// `player`'s strategy from `start`: see the module comment.
    pub fn strategy(&self, player: Player, start: Position, max_positions: usize) -> Strategy {
        let mut moves = Vec::new();
        let complete = self.walk_strategy(player, start, max_positions, |pos, left, next| {
            if pos.turn == player {
                moves.push(StrategyMove {
                    position: pos,
                    moves_left: left,
                    to: next,
                });
            }
        });
        moves.sort_unstable_by_key(|step| {
            (
                step.position.mouse,
                step.position.cat,
                std::cmp::Reverse(step.moves_left),
            )
        });
        Strategy {
            player,
            moves,
            complete,
        }
    }

    /// Walks every position reachable from `start` when `player` plays its best move and the
    /// opponent any legal move, calling `visit` with each move taken (position, moves left
    /// there, node moved to). Returns false if it stopped after `max_positions` positions.
    pub(crate) fn walk_strategy(
        &self,
        player: Player,
        start: Position,
        max_positions: usize,
        mut visit: impl FnMut(Position, Option<u32>, u32),
    ) -> bool {
        let first = (start, self.game.limit());
        let mut seen = HashSet::from([first]);
        let mut queue = VecDeque::from([first]);
        while let Some((pos, left)) = queue.pop_front() {
            if self.is_terminal(pos) || left == Some(0) {
                continue;
            }
            let best;
            let all: Vec<u32>;
            let nexts: &[u32] = if pos.turn == player {
                best = self.best_move_within(pos, left);
                best.as_slice()
            } else {
                all = self.legal_moves(pos).collect();
                &all
            };
            let child_left = left.map(|left| left - 1);
            for &next in nexts {
                visit(pos, left, next);
                let child = (self.after(pos, next), child_left);
                if seen.insert(child) {
                    if seen.len() > max_positions {
                        return false;
                    }
                    queue.push_back(child);
                }
            }
        }
        true
    }

    /// The legal moves at `pos`, best for the mover first: wins (fastest first), then draws,
    /// then losses (slowest first), smallest node first among equals. The first is
    /// [`Solution::best_move`] whenever that is defined.
    pub fn ranked_moves(&self, pos: Position) -> Vec<u32> {
        self.ranked_moves_within(pos, self.game.limit())
    }

    /// [`Solution::ranked_moves`] with `moves_left` moves to go (`None`: no limit); the first
    /// is [`Solution::best_move_within`] whenever that is defined.
    pub fn ranked_moves_within(&self, pos: Position, moves_left: Option<u32>) -> Vec<u32> {
        if self.is_terminal(pos) || self.cat_on_hole(pos) || moves_left == Some(0) {
            return Vec::new();
        }
        let after = moves_left.map(|left| left - 1);
        let mover_wins = match pos.turn {
            Player::Mouse => Outcome::MouseWins,
            Player::Cat => Outcome::CatWins,
        };
        let mut moves: Vec<u32> = self.legal_moves(pos).collect();
        // A sort by key is stable, so equals keep the ascending order of the adjacency list.
        moves.sort_by_key(|&next| {
            let child = self.after(pos, next);
            let left = self.moves_within(child, after).unwrap_or(0);
            match self.outcome_within(child, after) {
                outcome if outcome == mover_wins => (0, i64::from(left)),
                Outcome::Draw => (1, 0),
                _ => (2, -i64::from(left)),
            }
        });
        moves
    }

    /// `player`'s strategy from `start` as a tree: `player`'s move at its positions, every
    /// reply of the opponent beneath (best reply first). Lines deeper than `max_depth` are
    /// folded, a position reached again is a reference to where it was first expanded, and the
    /// tree stops after `max_lines` lines.
    pub fn strategy_tree(
        &self,
        player: Player,
        start: Position,
        max_depth: u32,
        max_lines: usize,
    ) -> StrategyTree {
        let mut lines: Vec<TreeLine> = Vec::new();
        // Where each expanded position appears; a folded appearance is not one, so that a
        // later, shallower appearance can still be expanded.
        let limit = self.game.limit();
        let mut first: HashMap<(Position, Option<u32>), Option<usize>> =
            HashMap::from([((start, limit), None)]);
        let mut truncated = false;
        // Depth-first with an explicit stack (a line can be thousands of moves deep): the
        // moves of a position are pushed in reverse so that they come off in order.
        let mut stack: Vec<(Position, u32, u32)> = Vec::new();
        self.push_moves(player, start, limit, 0, &mut stack);
        while let Some((pos, next, depth)) = stack.pop() {
            if lines.len() == max_lines {
                truncated = true;
                break;
            }
            let child = self.after(pos, next);
            // A line at depth d is move d + 1 of the game.
            let left = limit.map(|limit| limit - (depth + 1));
            let (from, mover) = match pos.turn {
                Player::Mouse => (pos.mouse, Player::Mouse),
                Player::Cat => (pos.cat, Player::Cat),
            };
            let index = lines.len();
            let continuation = if self.is_terminal(child) {
                Continuation::Terminal
            } else if left == Some(0) {
                Continuation::Limit
            } else if let Some(&at) = first.get(&(child, left)) {
                Continuation::Repeat(at)
            } else if self.moves_for(player, child, left).is_empty() {
                Continuation::Stuck
            } else if depth + 1 >= max_depth {
                Continuation::Folded
            } else {
                first.insert((child, left), Some(index));
                self.push_moves(player, child, left, depth + 1, &mut stack);
                Continuation::Expanded
            };
            lines.push(TreeLine {
                depth,
                mover,
                from,
                to: next,
                position: child,
                moves_left: left,
                next: continuation,
            });
        }
        StrategyTree {
            player,
            start,
            lines,
            truncated,
        }
    }

    /// The moves the tree shows at `pos` with `left` moves to go: the strategist's best
    /// move, or every reply.
    fn moves_for(&self, player: Player, pos: Position, left: Option<u32>) -> Vec<u32> {
        if pos.turn == player {
            self.best_move_within(pos, left).into_iter().collect()
        } else {
            self.ranked_moves_within(pos, left)
        }
    }

    fn push_moves(
        &self,
        player: Player,
        pos: Position,
        left: Option<u32>,
        depth: u32,
        stack: &mut Vec<(Position, u32, u32)>,
    ) {
        let moves = self.moves_for(player, pos, left);
        stack.extend(moves.into_iter().rev().map(|next| (pos, next, depth)));
    }
}

/// Whose strategies explain an outcome: the winner's, or both players' for a draw.
pub fn strategy_players(outcome: Outcome) -> &'static [Player] {
    match outcome {
        Outcome::MouseWins => &[Player::Mouse],
        Outcome::CatWins => &[Player::Cat],
        Outcome::Draw => &[Player::Mouse, Player::Cat],
    }
}

#[cfg(test)]
mod tests;
