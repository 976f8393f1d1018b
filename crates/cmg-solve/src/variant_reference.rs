//! A plain reference for the game under any rules, straight from its statement and slow on
//! purpose: the value of every position with `k` moves left, layer after layer, each from
//! the one before (backward induction with a turn limit). It shares nothing with the engines
//! but the [`Position`] type: its own moves, its own ends, its own layers. The checks hold a
//! [`Solution`] to it on every position, under every limit up to the fixed point.

use std::collections::{BTreeSet, HashMap};

use crate::{solve, Game, Outcome, Player, Position, Rules, Solution};

/// A position's value with some moves left: `None` a draw, else the winner and the moves.
pub type Value = Option<(Outcome, u32)>;

/// The game as the reference reads it.
pub struct VariantReference {
    moves: Vec<BTreeSet<u32>>,
    holes: BTreeSet<u32>,
    cat_enters_holes: bool,
}

impl VariantReference {
    /// Lists as given (list `i`: the moves out of node `i`), self-loops and out-of-range
    /// entries dropped; holes out of range dropped.
    pub fn new(adjacency: &[Vec<u32>], holes: &[u32], cat_enters_holes: bool) -> VariantReference {
        let n = adjacency.len() as u32;
        VariantReference {
            moves: adjacency
                .iter()
                .enumerate()
                .map(|(node, list)| {
                    list.iter()
                        .copied()
                        .filter(|&next| next < n && next != node as u32)
                        .collect()
                })
                .collect(),
            holes: holes.iter().copied().filter(|&hole| hole < n).collect(),
            cat_enters_holes,
        }
    }

    pub fn positions(&self) -> Vec<Position> {
        let n = self.moves.len() as u32;
        let mut all = Vec::new();
        for mouse in 0..n {
            for cat in 0..n {
                for turn in [Player::Mouse, Player::Cat] {
                    all.push(Position { mouse, cat, turn });
                }
            }
        }
        all
    }

    /// The end at `pos`, checked before each move: the mouse on the cat, else on a hole.
    pub fn end(&self, pos: Position) -> Option<Outcome> {
        if pos.mouse == pos.cat {
            Some(Outcome::CatWins)
        } else if self.holes.contains(&pos.mouse) {
            Some(Outcome::MouseWins)
        } else {
            None
        }
    }

    pub fn children(&self, pos: Position) -> Vec<Position> {
        match pos.turn {
            Player::Mouse => self.moves[pos.mouse as usize]
                .iter()
                .map(|&mouse| Position {
                    mouse,
                    turn: Player::Cat,
                    ..pos
                })
                .collect(),
            Player::Cat => self.moves[pos.cat as usize]
                .iter()
                .filter(|&&cat| self.cat_enters_holes || !self.holes.contains(&cat))
                .map(|&cat| Position {
                    cat,
                    turn: Player::Mouse,
                    ..pos
                })
                .collect(),
        }
    }

    /// The layers: `layers[k]` holds every position's value with `k` moves left, from 0 up to
    /// the first layer equal to the one before (the game without a limit), or to `max`.
    pub fn layers(&self, max: u32) -> Vec<HashMap<Position, Value>> {
        let positions = self.positions();
        let first: HashMap<Position, Value> = positions
            .iter()
            .map(|&pos| (pos, self.end(pos).map(|outcome| (outcome, 0))))
            .collect();
        let mut layers = vec![first];
        for _ in 0..max {
            let before = layers.last().expect("the first layer");
            let next: HashMap<Position, Value> = positions
                .iter()
                .map(|&pos| (pos, self.value(pos, before)))
                .collect();
            let settled = &next == before;
            layers.push(next);
            if settled {
                break;
            }
        }
        layers
    }

    /// The value of `pos` one move further from the end than the layer `before`.
    fn value(&self, pos: Position, before: &HashMap<Position, Value>) -> Value {
        if let Some(outcome) = self.end(pos) {
            return Some((outcome, 0));
        }
        let (mine, theirs) = match pos.turn {
            Player::Mouse => (Outcome::MouseWins, Outcome::CatWins),
            Player::Cat => (Outcome::CatWins, Outcome::MouseWins),
        };
        let children: Vec<Value> = self.children(pos).iter().map(|c| before[c]).collect();
        let fastest_win = children
            .iter()
            .flatten()
            .filter(|(outcome, _)| *outcome == mine)
            .map(|&(_, moves)| moves)
            .min();
        if let Some(moves) = fastest_win {
            return Some((mine, moves + 1));
        }
        let all_lose = !children.is_empty()
            && children
                .iter()
                .all(|child| matches!(child, Some((outcome, _)) if *outcome == theirs));
        if all_lose {
            let slowest = children.iter().flatten().map(|&(_, moves)| moves).max();
            return slowest.map(|moves| (theirs, moves + 1));
        }
        None
    }
}

/// Solves `adjacency` under `rules` with the engine the game picks (and with the general
/// engine forced, `rules.cat_on_holes`), and checks every position under every limit from 0
/// to the fixed point, and the lines from a few starts under the game's own limit.
pub fn check_variant(adjacency: &[Vec<u32>], rules: &Rules) {
    let reference = VariantReference::new(adjacency, &rules.holes, rules.cat_enters_holes);
    let layers = reference.layers(2 * reference.positions().len() as u32 + 2);
    let unlimited = layers.last().expect("one layer at least");
    let mut forced = rules.clone();
    forced.cat_on_holes = true;
    for rules in [rules.clone(), forced] {
        let game = Game::with_rules(adjacency, rules.clone());
        let solution = solve(&game);
        let what = format!("{rules:?} on {adjacency:?} ({:?})", solution.engine());
        for pos in reference.positions() {
            // The standard engines leave out the positions with the cat on the hole.
            if solution.engine() == crate::EngineKind::Standard && Some(pos.cat) == game.hole() {
                continue;
            }
            let as_pair = |value: Value| match value {
                Some((outcome, moves)) => (outcome, Some(moves)),
                None => (Outcome::Draw, None),
            };
            for (k, layer) in layers.iter().enumerate() {
                let left = Some(k as u32);
                let got = (
                    solution.outcome_within(pos, left),
                    solution.moves_within(pos, left),
                );
                assert_eq!(got, as_pair(layer[&pos]), "{pos:?}, {k} moves left, {what}");
            }
            let got = (
                solution.outcome_within(pos, None),
                solution.moves_within(pos, None),
            );
            assert_eq!(
                got,
                as_pair(unlimited[&pos]),
                "{pos:?} without a limit, {what}"
            );
            let own = rules.limit.map_or(unlimited, |limit| {
                &layers[(limit as usize).min(layers.len() - 1)]
            });
            let got = (solution.outcome(pos), solution.moves_to_end(pos));
            assert_eq!(got, as_pair(own[&pos]), "{pos:?} under the limit, {what}");
            check_line(&reference, &layers, &solution, pos, rules.limit, &what);
        }
    }
}

/// The line from `start` under `limit`: legal moves, the outcome kept at each step with the
/// moves left, as long as the moves to the end when decided, and no longer than the limit.
fn check_line(
    reference: &VariantReference,
    layers: &[HashMap<Position, Value>],
    solution: &Solution,
    start: Position,
    limit: Option<u32>,
    what: &str,
) {
    let layer = |left: Option<u32>| match left {
        Some(left) => &layers[(left as usize).min(layers.len() - 1)],
        None => layers.last().expect("one layer at least"),
    };
    let value = |pos: Position, left: Option<u32>| layer(left)[&pos];
    let line = solution.line(start);
    assert_eq!(line[0], start);
    let mut left = limit;
    for pair in line.windows(2) {
        assert!(
            reference.children(pair[0]).contains(&pair[1]),
            "{:?} -> {:?} is not a move, {what}",
            pair[0],
            pair[1]
        );
        let now = value(pair[0], left).map(|(outcome, _)| outcome);
        left = left.map(|left| left - 1);
        let then = value(pair[1], left).map(|(outcome, _)| outcome);
        assert_eq!(
            now, then,
            "the line keeps the outcome at {:?}, {what}",
            pair[0]
        );
    }
    if let Some((_, moves)) = value(start, limit) {
        assert_eq!(line.len() as u32 - 1, moves, "line from {start:?}, {what}");
        assert!(reference.end(*line.last().unwrap()).is_some(), "{what}");
    } else if let Some(limit) = limit {
        assert!(
            line.len() as u32 - 1 <= limit,
            "line from {start:?}, {what}"
        );
    }
}
