//! The two slips of the rules that wrong solutions make and the language cannot state
//! (docs/judge.md), each solved exactly: the cat let into the hole, as a retrograde
//! analysis that only forgets to keep it out computes it (the mouse that reaches the hole
//! wins there even on the cat, where the language's `rule cat-enters-holes` has the cat
//! win; that game is a cause of its own, solved by `cmg-solve`), and the hole counted
//! among the cat's moves. Every cause the language states is checked with `cmg-solve`
//! instead (`cause.rs`); this solver never solves the standard game.
//!
//! A position's value is found by rounds: its end, if it is one, else the best, for the
//! player to move, of its successors' values in the round before (a draw in the first).
//! Win sets only grow from round to round, so the rounds reach a fixed point, which is
//! the game's value. Simple on purpose, and slow next to `cmg-solve`.

/// A slip of the rules, and the game it makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slip {
    /// The cat may move into the hole. As a retrograde analysis that only forgets to keep
    /// it out computes it, the mouse and the cat both in the hole is no end: the game goes
    /// on (and the cat, which must leave, leaves the mouse on the hole).
    CatInHole,
    /// The hole counts among the cat's moves: a cat beside the hole is never forced, as
    /// if moving there were a draw.
    HoleCounted,
}

const DRAW: u8 = 0;
const MOUSE: u8 = 1;
const CAT: u8 = 2;

/// The answer (0 a draw, 1 the mouse wins, 2 the cat wins) of the game on `lists` (node
/// 0 the hole, the mouse on 1 to move, the cat on 2) with `slip`.
pub fn answer(lists: &[Vec<u32>], slip: Slip) -> u8 {
    let n = lists.len();
    if n < 3 {
        return DRAW;
    }
    let cat_enters_hole = slip == Slip::CatInHole;
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
        if cat_enters_hole && mouse == 0 && cat == 0 {
            None
        } else if mouse == cat {
            Some(CAT)
        } else if mouse == 0 {
            Some(MOUSE)
        } else {
            None
        }
    };
    let start = index(1, 2, false);
    let mut values: Vec<u8> = (0..n * n * 2)
        .map(|i| end(i / 2 / n, i / 2 % n).unwrap_or(DRAW))
        .collect();
    // Two rounds, swapped after each: the ends hold the same value in both, and every
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
                    .filter(|&&to| to != 0 || cat_enters_hole)
                    .map(|&to| values[index(m, to, false)])
                    .collect();
                if slip == Slip::HoleCounted && moves[c].contains(&0) {
                    options.push(DRAW);
                }
                next[index(m, c, true)] = best(options.into_iter(), CAT);
            }
        }
        if next == values {
            return values[start];
        }
        std::mem::swap(&mut values, &mut next);
    }
}

/// The value the player `me` picks among `options`: a win, else a draw, else a loss. A
/// player with no move is a draw (no graph the judge sends leaves one).
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
    use cmg_solve::{Game, Position};

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

    /// Each slip, as a solution makes it, is the game of its slip, on every game of 3 to
    /// 5 nodes; and each changes some answer. The retrograde analysis without a slip is
    /// `cmg-solve`'s game.
    #[test]
    fn the_cat_in_the_hole_and_the_hole_counted_are_the_slips_people_make() {
        let mut differ = [false; 2];
        for nodes in 3..=5 {
            for lists in small_graphs(nodes) {
                let standard = retrograde(&lists, false, false);
                let solved = cmg_solve::solve(&Game::new(&lists, Some(0)));
                assert_eq!(solved.outcome(Position::START).code(), standard);
                let into = retrograde(&lists, true, false);
                assert_eq!(answer(&lists, Slip::CatInHole), into, "{lists:?}");
                let counted = retrograde(&lists, false, true);
                assert_eq!(answer(&lists, Slip::HoleCounted), counted, "{lists:?}");
                differ[0] |= into != standard;
                differ[1] |= counted != standard;
            }
        }
        assert_eq!(differ, [true, true]);
    }

    /// Why the cat in the hole keeps a solver of its own: the language's `rule
    /// cat-enters-holes` is another game. On 0 -- {2 3}, 1 -- {2 3}, the mouse goes to 3,
    /// the cat into the hole, and the mouse onto the hole: the slip lets the mouse win
    /// there, the language has the cat win, so the mouse does better to stay out (a draw).
    #[test]
    fn the_cat_in_the_hole_is_not_the_languages_rule() {
        let lists = vec![vec![2, 3], vec![2, 3], vec![0, 1], vec![0, 1]];
        assert_eq!(answer(&lists, Slip::CatInHole), MOUSE);
        let rules = cmg_solve::Rules {
            holes: vec![0],
            cat_enters_holes: true,
            ..cmg_solve::Rules::default()
        };
        let language = cmg_solve::solve(&Game::with_rules(&lists, rules));
        assert_eq!(language.outcome(Position::START).code(), DRAW);
    }
}
