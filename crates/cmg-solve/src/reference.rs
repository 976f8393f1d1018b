//! A deliberately simple reference solver, straight from the definitions, and the checks
//! that hold a [`Solution`] to it on every position: the outcome and moves, the best move
//! the contract names, and the optimal line. The crate's own tests and the integration
//! tests both use it (feature `test-support`), so `cargo test -p cmg-solve` fails on a
//! wrong answer.

use std::collections::{BTreeSet, HashMap};
use std::sync::atomic::AtomicBool;

use crate::variant_reference::VariantReference;
use crate::{solve, solve_with, Config, Engine, Game, Outcome, Player, Position, Solution};

/// The result of one decided position in the reference solver: who wins and in how many moves.
pub type Decided = HashMap<Position, (Outcome, u32)>;

/// A game as the reference solver sees it, straight from the definitions of the spec: the
/// moves of the general game's reference (`variant_reference.rs`) with one hole, where the
/// cat may not go.
pub struct ReferenceGame {
    game: VariantReference,
    hole: Option<u32>,
}

impl ReferenceGame {
    /// Reads adjacency lists the way the spec says the solver must: self-loops, duplicates and
    /// out-of-range neighbours are not moves, and each list is taken as given.
    pub fn new(adjacency: &[Vec<u32>], hole: Option<u32>) -> ReferenceGame {
        let n = adjacency.len() as u32;
        let hole = hole.filter(|&hole| hole < n);
        ReferenceGame {
            game: VariantReference::new(adjacency, hole.as_slice(), false),
            hole,
        }
    }

    pub fn positions(&self) -> Vec<Position> {
        self.game.positions()
    }

    pub fn children(&self, pos: Position) -> Vec<Position> {
        self.game.children(pos)
    }

    /// Decides positions level by level: level `k` holds the positions that end in exactly `k`
    /// moves under optimal play, computed only from the levels before it.
    pub fn solve(&self) -> Decided {
        let mut decided = Decided::new();
        for pos in self.positions() {
            if Some(pos.cat) == self.hole {
                continue;
            }
            if Some(pos.mouse) == self.hole {
                decided.insert(pos, (Outcome::MouseWins, 0));
            } else if pos.mouse == pos.cat {
                decided.insert(pos, (Outcome::CatWins, 0));
            }
        }
        for level in 1.. {
            let mut found = Vec::new();
            for pos in self.positions() {
                if Some(pos.cat) == self.hole || decided.contains_key(&pos) {
                    continue;
                }
                let (mover_wins, opponent_wins) = match pos.turn {
                    Player::Mouse => (Outcome::MouseWins, Outcome::CatWins),
                    Player::Cat => (Outcome::CatWins, Outcome::MouseWins),
                };
                let children: Vec<Option<(Outcome, u32)>> = self
                    .children(pos)
                    .into_iter()
                    .map(|child| decided.get(&child).copied())
                    .collect();
                if children.contains(&Some((mover_wins, level - 1))) {
                    found.push((pos, (mover_wins, level)));
                } else if !children.is_empty()
                    && children.iter().all(
                        |child| matches!(child, Some((outcome, _)) if *outcome == opponent_wins),
                    )
                {
                    let longest = children.iter().flatten().map(|&(_, moves)| moves).max();
                    assert_eq!(
                        longest,
                        Some(level - 1),
                        "a loss is found one level after its slowest move"
                    );
                    found.push((pos, (opponent_wins, level)));
                }
            }
            if found.is_empty() {
                break;
            }
            decided.extend(found);
        }
        decided
    }
}

/// Solves with both solvers and checks that they agree on every position, then checks the optimal lines.
pub fn check_against_reference(adjacency: &[Vec<u32>], hole: Option<u32>) {
    let game = Game::new(adjacency, hole);
    let reference = ReferenceGame::new(adjacency, hole);
    let decided = reference.solve();
    let solution = solve(&game);
    for pos in reference.positions() {
        check_position(&decided, &solution, pos, "solve");
        check_best_move(&reference, &decided, &solution, pos);
        check_line(&reference, &solution, pos);
    }
    for config in engines(&decided) {
        let solution = solve_with(&game, config, &AtomicBool::new(false)).expect("not cancelled");
        for pos in reference.positions() {
            check_position(&decided, &solution, pos, &format!("{config:?}"));
            // The hints read only the table, so the forced switch points, whose tables were
            // just checked, would repeat the same check; the other engines show the tie-breaks hold.
            if !matches!(config.engine, Engine::SwitchAfter(_)) {
                check_best_move(&reference, &decided, &solution, pos);
            }
        }
    }
}

/// Every engine, the rounds and the hybrid on two threads, and the hybrid forced to switch to the queue after
/// each round from the first to one past the longest game of the reference results.
pub fn engines(decided: &Decided) -> Vec<Config> {
    let longest = decided.values().map(|&(_, moves)| moves).max().unwrap_or(0);
    let mut configs: Vec<Config> = [Engine::Queue, Engine::Rounds, Engine::Hybrid]
        .into_iter()
        .chain((0..=longest + 1).map(Engine::SwitchAfter))
        .map(|engine| Config {
            engine,
            threads: Some(1),
        })
        .collect();
    configs.extend([Engine::Rounds, Engine::Hybrid].map(|engine| Config {
        engine,
        threads: Some(2),
    }));
    configs
}

/// Checks the outcome and moves to the end of `pos` against the reference results.
pub fn check_position(decided: &Decided, solution: &Solution, pos: Position, engine: &str) {
    let expected = decided.get(&pos).copied();
    assert_eq!(
        (solution.outcome(pos), solution.moves_to_end(pos)),
        match expected {
            Some((outcome, moves)) => (outcome, Some(moves)),
            None => (Outcome::Draw, None),
        },
        "position {pos:?} with {engine}"
    );
}

/// Checks `best_move` against the spec's choice, made here from the reference results.
pub fn check_best_move(
    reference: &ReferenceGame,
    decided: &Decided,
    solution: &Solution,
    pos: Position,
) {
    let terminal = Some(pos.cat) != reference.hole
        && (Some(pos.mouse) == reference.hole || pos.mouse == pos.cat);
    assert_eq!(solution.is_terminal(pos), terminal, "{pos:?}");
    let children = reference.children(pos);
    let expected = if terminal || Some(pos.cat) == reference.hole {
        None
    } else {
        let result = |child: &Position| decided.get(child).copied();
        // Children come in ascending node order, so the first match is the smallest node.
        match decided.get(&pos) {
            None => children.iter().find(|child| result(child).is_none()),
            Some(&(outcome, moves)) => children
                .iter()
                .find(|child| result(child) == Some((outcome, moves - 1))),
        }
        .map(|child| match pos.turn {
            Player::Mouse => child.mouse,
            Player::Cat => child.cat,
        })
    };
    assert_eq!(solution.best_move(pos), expected, "best move from {pos:?}");
}

/// Checks that the line from `start` is made of legal moves and ends the way the spec says.
pub fn check_line(reference: &ReferenceGame, solution: &Solution, start: Position) {
    let line = solution.line(start);
    assert_eq!(line[0], start);
    for pair in line.windows(2) {
        assert!(
            reference.children(pair[0]).contains(&pair[1]),
            "{:?} -> {:?} is not a legal move",
            pair[0],
            pair[1]
        );
        assert_eq!(
            solution.outcome(pair[0]),
            solution.outcome(pair[1]),
            "the line keeps the outcome"
        );
    }
    let last = *line.last().unwrap();
    match solution.moves_to_end(start) {
        Some(moves) => {
            assert_eq!(line.len() as u32 - 1, moves, "line from {start:?}");
            assert!(solution.is_terminal(last));
        }
        None => {
            let body = &line[..line.len() - 1];
            let distinct: BTreeSet<_> = body
                .iter()
                .map(|pos| (pos.mouse, pos.cat, pos.turn == Player::Cat))
                .collect();
            assert_eq!(
                distinct.len(),
                body.len(),
                "a draw line stops at its first repeat"
            );
            let repeats = body.contains(&last);
            let stuck = reference.children(last).is_empty();
            assert!(
                repeats != stuck || Some(start.cat) == reference.hole,
                "draw line from {start:?}: {line:?}"
            );
        }
    }
}
