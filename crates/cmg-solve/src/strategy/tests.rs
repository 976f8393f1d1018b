//! Unit tests of the strategy walks and trees on small games (the checker of every line is in `tests/it/strategy.rs`).

use crate::{solve, Continuation, Game, Player, Position};

fn start() -> Position {
    Position {
        mouse: 1,
        cat: 2,
        turn: Player::Mouse,
    }
}

/// 0 -- 3, 1 -- 3, 2 -- 3, 1 -- 4: the mouse's best try is 4 (it loses in 4), 3 loses at once.
fn cat_wins() -> Game {
    Game::new(
        &[vec![3], vec![3, 4], vec![3], vec![0, 1, 2], vec![1]],
        Some(0),
    )
}

#[test]
fn ranked_moves_start_with_the_best_move() {
    let solution = solve(&cat_wins());
    for mouse in 0..5 {
        for cat in 0..5 {
            for turn in [Player::Mouse, Player::Cat] {
                let pos = Position { mouse, cat, turn };
                if let Some(best) = solution.best_move(pos) {
                    assert_eq!(solution.ranked_moves(pos).first(), Some(&best), "{pos:?}");
                }
            }
        }
    }
}

#[test]
fn tree_shows_the_replies_best_first_and_folds() {
    let solution = solve(&cat_wins());
    let tree = solution.strategy_tree(Player::Cat, start(), 2, 100);
    let shown: Vec<(u32, Player, u32, u32, Continuation)> = tree
        .lines
        .iter()
        .map(|line| (line.depth, line.mover, line.from, line.to, line.next))
        .collect();
    assert_eq!(
        shown,
        [
            (0, Player::Mouse, 1, 4, Continuation::Expanded),
            (1, Player::Cat, 2, 3, Continuation::Folded),
            (0, Player::Mouse, 1, 3, Continuation::Expanded),
            (1, Player::Cat, 2, 3, Continuation::Terminal),
        ]
    );
    assert!(!tree.truncated);
    let cut = solution.strategy_tree(Player::Cat, start(), 2, 1);
    assert_eq!(cut.lines.len(), 1);
    assert!(cut.truncated);
}
