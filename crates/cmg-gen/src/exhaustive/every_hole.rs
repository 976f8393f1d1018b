//! Every hole of a small graph in one solve: the exhaustive search's evaluator.
//!
//! The positions of the games with the hole on each node are solved side by side, one
//! bit per hole: a `u16` per (mouse, cat, turn) holds, for every hole at once, whether
//! the position is won by the mouse (or by the cat) within the moves solved so far. A
//! level adds the positions decided in one more move: the mover wins if one move reaches
//! a position it has won, and loses if every move reaches one it has lost (a player with
//! no move at all decides nothing: a draw, as in [`crate::eval`]). So level `d` decides
//! exactly the positions whose optimal game lasts `d` moves, the winner making it short
//! and the loser long, which is what the evaluator's queue computes one hole at a time.
//! The solve goes on while a level decides something; the last level that decides a
//! start is the graph's longest game, and its starts are the only ones kept.

use super::{Best, Longest};
use crate::canon::MAX;
use crate::eval::Winner;
use crate::graph::{Constraints, Graph};

/// One hole set per (mouse, cat): bit `h` for the game with the hole on node `h`.
type Table = [[u16; MAX]; MAX];

const EMPTY: Table = [[0; MAX]; MAX];

/// The starts decided at one level: by the mouse and by the cat.
struct Decided {
    mouse: Table,
    cat: Table,
}

/// Solves `graph` (at most [`MAX`] nodes) for every hole at once and offers its longest
/// starts (won by `winner`, if given) to `found`. Counts one solve per hole.
pub(super) fn examine(
    graph: &Graph,
    winner: Option<Winner>,
    constraints: Constraints,
    found: &mut Longest,
) {
    let n = graph.node_count();
    debug_assert!(n <= MAX);
    found.graphs += 1;
    found.solves += n as u64;
    let mut rows = [0u16; MAX];
    for (slot, &row) in rows.iter_mut().zip(graph.rows()) {
        *slot = row as u16;
    }
    let all: u16 = if n == MAX { u16::MAX } else { (1 << n) - 1 };
    // The holes for which the cat on `c` has a move: any but the hole.
    let cat_can_move = rows.map(|row| match row.count_ones() {
        0 => 0,
        1 => all & !row,
        _ => all,
    });
    // Won by the mouse, by the cat, and decided (by either, or not a position: the cat
    // on the hole), for the mouse to move and for the cat to move.
    let (mut mouse_turn_mouse, mut mouse_turn_cat) = (EMPTY, EMPTY);
    let (mut cat_turn_mouse, mut cat_turn_cat) = (EMPTY, EMPTY);
    let mut decided_mouse_turn = [[u16::MAX; MAX]; MAX];
    for (m, row) in decided_mouse_turn.iter_mut().enumerate().take(n) {
        for (c, slot) in row.iter_mut().enumerate().take(n) {
            let hole_m = 1u16 << m;
            let hole_c = 1u16 << c;
            if m == c {
                // The cat on the mouse: the cat's, whichever the hole (but its own node).
                mouse_turn_cat[m][c] = all & !hole_c;
                cat_turn_cat[m][c] = all & !hole_c;
                *slot = all;
            } else {
                // The mouse on the hole: the mouse's.
                mouse_turn_mouse[m][c] = hole_m;
                cat_turn_mouse[m][c] = hole_m;
                *slot = hole_m | hole_c | !all;
            }
            // The cat on the hole is no position, and no move of the cat's: counted
            // won by the mouse for the mouse to move, every move of the cat is one that
            // reaches a position the mouse has won, or one that is not there. Nothing
            // else reads it; the cat's wins for the mouse to move never have that bit.
            mouse_turn_mouse[m][c] |= hole_c;
        }
    }
    let mut decided_cat_turn = decided_mouse_turn;
    // The starts that count: mouse and cat on two nodes but the hole, the cat with a
    // move besides the hole under LeetCode's constraints. The winners wanted.
    let start_cats = match constraints {
        Constraints::LeetCode => cat_can_move,
        Constraints::None => [all; MAX],
    };
    let (want_mouse, want_cat) = match winner {
        None => (u16::MAX, u16::MAX),
        Some(Winner::Mouse) => (u16::MAX, 0),
        Some(Winner::Cat) => (0, u16::MAX),
    };
    let mut current = Decided {
        mouse: EMPTY,
        cat: EMPTY,
    };
    let mut last = Decided {
        mouse: EMPTY,
        cat: EMPTY,
    };
    let mut last_level = 0u32;
    let mut level = 0u32;
    loop {
        level += 1;
        let mut changed = 0u16;
        let mut starts = 0u16;
        // The mouse moves: from (m, c) to (m', c) for m' a neighbour of m.
        let mut new_mouse_turn_mouse = EMPTY;
        let mut new_mouse_turn_cat = EMPTY;
        for m in 0..n {
            let mut wins = [0u16; MAX];
            let mut loses = [u16::MAX; MAX];
            let mut bits = rows[m];
            if bits == 0 {
                loses = [0; MAX];
            }
            while bits != 0 {
                let to = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                for c in 0..MAX {
                    wins[c] |= cat_turn_mouse[to][c];
                    loses[c] &= cat_turn_cat[to][c];
                }
            }
            for c in 0..MAX {
                let open = !decided_mouse_turn[m][c];
                let won = wins[c] & open;
                let lost = loses[c] & open;
                current.mouse[m][c] = won & start_cats[c] & want_mouse;
                current.cat[m][c] = lost & start_cats[c] & want_cat;
                starts |= current.mouse[m][c] | current.cat[m][c];
                changed |= won | lost;
                // Kept apart until the cat's side of this level is done.
                new_mouse_turn_mouse[m][c] = won;
                new_mouse_turn_cat[m][c] = lost;
            }
        }
        // The cat moves: from (m, c) to (m, c') for c' a neighbour of c but the hole.
        for m in 0..n {
            for c in 0..n {
                let open = !decided_cat_turn[m][c];
                if open == 0 {
                    continue;
                }
                let mut wins = 0u16;
                let mut loses = cat_can_move[c];
                let mut bits = rows[c];
                while bits != 0 {
                    let to = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    wins |= mouse_turn_cat[m][to];
                    loses &= mouse_turn_mouse[m][to];
                }
                let won = wins & open;
                let lost = loses & open;
                changed |= won | lost;
                cat_turn_cat[m][c] |= won;
                cat_turn_mouse[m][c] |= lost;
                decided_cat_turn[m][c] |= won | lost;
            }
        }
        for m in 0..n {
            for c in 0..n {
                let won = new_mouse_turn_mouse[m][c];
                let lost = new_mouse_turn_cat[m][c];
                mouse_turn_mouse[m][c] |= won;
                mouse_turn_cat[m][c] |= lost;
                decided_mouse_turn[m][c] |= won | lost;
            }
        }
        if starts != 0 {
            std::mem::swap(&mut current, &mut last);
            last_level = level;
        }
        if changed == 0 {
            break;
        }
    }
    if last_level == 0
        || found
            .best
            .as_ref()
            .is_some_and(|best| best.moves > last_level)
    {
        return;
    }
    for m in 0..n {
        for c in 0..n {
            for (holes, won_by) in [
                (last.mouse[m][c], Winner::Mouse),
                (last.cat[m][c], Winner::Cat),
            ] {
                let mut bits = holes;
                while bits != 0 {
                    let hole = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    let mut order = vec![hole, m, c];
                    order.extend((0..n).filter(|node| ![hole, m, c].contains(node)));
                    found.offer(Best {
                        moves: last_level,
                        winner: won_by,
                        graph: graph.relabelled(&order),
                    });
                }
            }
        }
    }
}
