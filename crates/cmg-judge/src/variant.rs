//! The games next to LeetCode 913 that wrong solutions solve instead, each solved
//! exactly by layers of moves left: a position's value with `k` moves left is its end,
//! if it is one, else the best, for the player to move, of its successors' values with
//! `k - 1` left (a draw with none left). Win sets only grow with `k`, so the layers reach
//! a fixed point, which is the game without a limit; the layer `D` is the game where
//! "the game is a draw once D moves have been made without an end".
//!
//! Simple on purpose, and slow next to `cmg-solve`; it is held to `cmg-solve` on the
//! standard rules in the tests.

/// A rule set: the standard game has all four `false`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rules {
    /// The cat moves first.
    pub cat_first: bool,
    /// The mouse starts on node 2 and the cat on node 1.
    pub start_swapped: bool,
    /// The cat may move into the hole. As the solutions that forget to keep it out
    /// compute it, the mouse and the cat both in the hole is no end: the game goes on.
    pub cat_enters_hole: bool,
    /// The hole counts among the cat's moves: a cat beside the hole is never forced, as
    /// if moving there were a draw.
    pub hole_counted: bool,
}

/// The answer (0 a draw, 1 the mouse wins, 2 the cat wins) from the start under `rules`,
/// for every turn limit from 0 moves up: `by_limit[d]` is the answer when the game is a
/// draw once `d` moves have been made, and the last entry is the answer without a limit
/// (every longer limit gives it too).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answers {
    pub by_limit: Vec<u8>,
}

impl Answers {
    /// The answer without a turn limit.
    pub fn unlimited(&self) -> u8 {
        *self
            .by_limit
            .last()
            .expect("at least the layer of no moves")
    }

    /// The answer with a limit of `limit` moves.
    pub fn with_limit(&self, limit: usize) -> u8 {
        self.by_limit
            .get(limit)
            .copied()
            .unwrap_or_else(|| self.unlimited())
    }
}

const DRAW: u8 = 0;
const MOUSE: u8 = 1;
const CAT: u8 = 2;

/// Solves `lists` under `rules`, layer by layer, to the fixed point.
pub fn solve(lists: &[Vec<u32>], rules: Rules) -> Answers {
    let n = lists.len();
    let index =
        |mouse: usize, cat: usize, cat_turn: bool| (mouse * n + cat) * 2 + cat_turn as usize;
    let moves: Vec<Vec<usize>> = lists
        .iter()
        .enumerate()
        .map(|(node, list)| {
            let mut out: Vec<usize> = list
                .iter()
                .map(|&v| v as usize)
                .filter(|&v| v < n && v != node)
                .collect();
            out.sort_unstable();
            out.dedup();
            out
        })
        .collect();
    let end = |mouse: usize, cat: usize| {
        if rules.cat_enters_hole && mouse == 0 && cat == 0 {
            None
        } else if mouse == cat {
            Some(CAT)
        } else if mouse == 0 {
            Some(MOUSE)
        } else {
            None
        }
    };
    let (mouse, cat) = if rules.start_swapped { (2, 1) } else { (1, 2) };
    let start = index(mouse, cat, rules.cat_first);
    let mut values: Vec<u8> = (0..n * n * 2)
        .map(|i| end(i / 2 / n, i / 2 % n).unwrap_or(DRAW))
        .collect();
    let mut by_limit = vec![values[start]];
    // Two layers, swapped after each: the ends hold the same value in both, and every
    // other position is written anew.
    let mut next = values.clone();
    loop {
        for m in 0..n {
            for c in 0..n {
                if end(m, c).is_some() {
                    continue;
                }
                // The mouse's turn.
                let options = moves[m].iter().map(|&to| values[index(to, c, true)]);
                next[index(m, c, false)] = best(options, MOUSE);
                // The cat's turn.
                let mut options: Vec<u8> = moves[c]
                    .iter()
                    .filter(|&&to| to != 0 || rules.cat_enters_hole)
                    .map(|&to| values[index(m, to, false)])
                    .collect();
                if rules.hole_counted && !rules.cat_enters_hole && moves[c].contains(&0) {
                    options.push(DRAW);
                }
                next[index(m, c, true)] = best(options.into_iter(), CAT);
            }
        }
        let settled = next == values;
        std::mem::swap(&mut values, &mut next);
        by_limit.push(values[start]);
        if settled {
            return Answers { by_limit };
        }
    }
}

/// The value the player `me` picks among `options`: a win, else a draw, else a loss. A
/// player with no move is a draw (no game here leaves one; the rules' diagnostics will
/// decide it for the language).
fn best(options: impl Iterator<Item = u8>, me: u8) -> u8 {
    let mut any = false;
    let mut draw = false;
    for value in options {
        if value == me {
            return me;
        }
        any = true;
        draw |= value == DRAW;
    }
    if !any || draw {
        DRAW
    } else if me == MOUSE {
        CAT
    } else {
        MOUSE
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graphs::small_graphs;
    use cmg_solve::{Game, Player, Position};

    /// On the standard rules, every game on 3 to 5 nodes, the start and the cat-first
    /// start and the swapped start agree with the solver, for the outcome; the limit at
    /// the game's length decides it, one less does not.
    #[test]
    fn the_standard_rules_agree_with_the_solver() {
        for nodes in 3..=5 {
            for lists in small_graphs(nodes) {
                let solution = cmg_solve::solve(&Game::new(&lists, Some(0)));
                for (rules, position) in [
                    (
                        Rules::default(),
                        Position {
                            mouse: 1,
                            cat: 2,
                            turn: Player::Mouse,
                        },
                    ),
                    (
                        Rules {
                            cat_first: true,
                            ..Rules::default()
                        },
                        Position {
                            mouse: 1,
                            cat: 2,
                            turn: Player::Cat,
                        },
                    ),
                    (
                        Rules {
                            start_swapped: true,
                            ..Rules::default()
                        },
                        Position {
                            mouse: 2,
                            cat: 1,
                            turn: Player::Mouse,
                        },
                    ),
                ] {
                    let answers = solve(&lists, rules);
                    assert_eq!(
                        answers.unlimited(),
                        solution.outcome(position).code(),
                        "{lists:?} {rules:?}"
                    );
                    if let Some(moves) = solution.moves_to_end(position) {
                        let moves = moves as usize;
                        assert_eq!(answers.with_limit(moves), answers.unlimited());
                        assert_eq!(answers.with_limit(moves - 1), DRAW, "{lists:?}");
                    }
                }
            }
        }
    }

    /// The usual retrograde analysis (as in `tests/judge/right.py`), with its two
    /// common slips as switches: the cat's moves into the hole not skipped, and the hole
    /// counted in the cat's moves left.
    fn retrograde(lists: &[Vec<u32>], cat_enters_hole: bool, hole_counted: bool) -> u8 {
        let n = lists.len();
        let at = |m: usize, c: usize, t: usize| (m * n + c) * 2 + t;
        let mut color = vec![DRAW; n * n * 2];
        let mut left = vec![0usize; n * n * 2];
        for m in 0..n {
            for c in 0..n {
                left[at(m, c, 0)] = lists[m].len();
                left[at(m, c, 1)] = lists[c]
                    .iter()
                    .filter(|&&x| x != 0 || cat_enters_hole || hole_counted)
                    .count();
            }
        }
        let mut queue = std::collections::VecDeque::new();
        for c in 1..n {
            for t in 0..2 {
                color[at(0, c, t)] = MOUSE;
                queue.push_back((0, c, t));
                color[at(c, c, t)] = CAT;
                queue.push_back((c, c, t));
            }
        }
        while let Some((m, c, t)) = queue.pop_front() {
            let result = color[at(m, c, t)];
            if t == 1 {
                for &pm in &lists[m] {
                    let p = at(pm as usize, c, 0);
                    if color[p] != DRAW {
                        continue;
                    }
                    left[p] = left[p].saturating_sub(1);
                    if result == MOUSE || left[p] == 0 {
                        color[p] = if result == MOUSE { MOUSE } else { CAT };
                        queue.push_back((pm as usize, c, 0));
                    }
                }
            } else {
                for &pc in &lists[c] {
                    if pc == 0 && !cat_enters_hole {
                        continue;
                    }
                    let p = at(m, pc as usize, 1);
                    if color[p] != DRAW {
                        continue;
                    }
                    left[p] = left[p].saturating_sub(1);
                    if result == CAT || left[p] == 0 {
                        color[p] = if result == CAT { CAT } else { MOUSE };
                        queue.push_back((m, pc as usize, 1));
                    }
                }
            }
        }
        color[at(1, 2, 0)]
    }

    /// Each slip, as a solution makes it, is the game of its rule, on every game of 3
    /// to 5 nodes; and each changes some answer.
    #[test]
    fn the_cat_in_the_hole_and_the_hole_counted_are_the_slips_people_make() {
        let mut differ = [false; 2];
        for nodes in 3..=5 {
            for lists in small_graphs(nodes) {
                let standard = retrograde(&lists, false, false);
                assert_eq!(solve(&lists, Rules::default()).unlimited(), standard);
                let into = retrograde(&lists, true, false);
                let rules = Rules {
                    cat_enters_hole: true,
                    ..Rules::default()
                };
                assert_eq!(solve(&lists, rules).unlimited(), into, "{lists:?}");
                let counted = retrograde(&lists, false, true);
                let rules = Rules {
                    hole_counted: true,
                    ..Rules::default()
                };
                assert_eq!(solve(&lists, rules).unlimited(), counted, "{lists:?}");
                differ[0] |= into != standard;
                differ[1] |= counted != standard;
            }
        }
        assert_eq!(differ, [true, true]);
    }
}
