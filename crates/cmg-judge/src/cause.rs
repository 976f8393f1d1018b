//! Causes, checked: a cause is a neighbouring game, and it is named only when that
//! game's answer matches every answer the solution gave, on every graph it ran. The games
//! the language states (a turn limit, the cat first, the start swapped, the cat in the
//! hole as `rule cat-enters-holes` has it) are solved by `cmg-solve`; the two slips it
//! cannot state, in `slips`.

use std::collections::BTreeMap;
use std::fmt;

use cmg_solve::{Game, Player, Position};

use crate::graphs::Lists;
use crate::slips::{self, Slip};

/// What `cmg-solve`'s solution of a graph says for the causes the language states: the
/// answer (0, 1 or 2) and its moves from the standard start, and the answers from the
/// starts of `rule first cat` and `rule start 2 1` (those rules only pick the position
/// to start from, so one solve serves all three).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Answers {
    pub start: u8,
    /// The moves to the end from the start; `None` for a draw.
    pub moves: Option<u32>,
    pub cat_first: u8,
    pub start_swapped: u8,
}

impl Answers {
    /// Solves `lists` (node 0 the hole) with `cmg-solve`.
    pub fn of(lists: &[Vec<u32>]) -> Answers {
        let solution = cmg_solve::solve(&Game::new(lists, Some(0)));
        let at = |mouse, cat, turn| solution.outcome(Position { mouse, cat, turn }).code();
        Answers {
            start: at(1, 2, Player::Mouse),
            moves: solution.moves_to_end(Position::START),
            cat_first: at(1, 2, Player::Cat),
            start_swapped: at(2, 1, Player::Mouse),
        }
    }

    /// The answer under `rule limit LIMIT`, as `cmg-solve` applies a limit
    /// (`Solution::outcome_within`): a game decided in `d` moves is decided the same way
    /// under any limit of at least `d`, and a draw under a smaller one.
    pub fn with_limit(&self, limit: u32) -> u8 {
        match self.moves {
            Some(moves) if moves <= limit => self.start,
            _ => 0,
        }
    }

    /// The number of limits `0..len` past which every limit gives the answer without one.
    fn limits(&self) -> usize {
        self.moves.map_or(1, |moves| moves as usize + 1)
    }
}

/// A graph the solution answered, with its answer (0, 1 or 2) and `cmg-solve`'s.
#[derive(Clone, Debug)]
pub struct Answered {
    pub lists: Lists,
    pub answer: u8,
    pub answers: Answers,
}

/// A game the solution's answers all fit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cause {
    /// Games of up to `decides` moves decided, longer ones called a draw, on graphs of
    /// `nodes` nodes (the counterexample's); `decides` is a range where the graphs run do
    /// not tell the exact limit apart.
    TurnLimit {
        nodes: usize,
        decides: (u32, u32),
        formula: Option<Formula>,
    },
    TurnsSwapped,
    StartSwapped,
    /// The cat let into the hole, as a retrograde analysis that only forgets to keep it
    /// out computes it: the mouse that reaches the hole wins there even on the cat (no
    /// rule states it).
    CatEntersHole,
    /// The language's `rule cat-enters-holes`: the cat may enter the hole, and the
    /// mouse on the cat's node loses there too.
    CatEntersHoles,
    HoleCounted,
}

impl Cause {
    /// The word `--json` gives as `kind`.
    pub fn kind(&self) -> &'static str {
        match self {
            Cause::TurnLimit { .. } => "turn-limit",
            Cause::TurnsSwapped => "turns-swapped",
            Cause::StartSwapped => "start-swapped",
            Cause::CatEntersHole => "cat-enters-hole",
            Cause::CatEntersHoles => "cat-enters-holes",
            Cause::HoleCounted => "hole-counted",
        }
    }

    /// The `rule` statements of the game the solution solves on the counterexample, in
    /// the order `cmg fmt` writes them; empty for the slips the language cannot state. A
    /// turn limit not told apart is stated by its least (`rule limit 0` is no rule: then
    /// 1, if the range has it).
    pub fn rules(&self) -> Vec<String> {
        let mut rules = cmg_core::model::Rules::default();
        match self {
            Cause::TurnLimit {
                decides: (lo, hi), ..
            } => {
                let limit = (*lo).max(1);
                if limit > *hi {
                    return Vec::new();
                }
                rules.limit = Some(limit);
            }
            Cause::TurnsSwapped => rules.first = cmg_solve::Player::Cat,
            Cause::StartSwapped => (rules.mouse_start, rules.cat_start) = (2, 1),
            Cause::CatEntersHoles => rules.cat_enters_holes = true,
            Cause::CatEntersHole | Cause::HoleCounted => return Vec::new(),
        }
        rules.statements()
    }

    /// The answer of this rule's game on `lists`, whose `cmg-solve` answers are
    /// `answers`; `None` for a turn limit, which is checked by size ([`Allowed`]).
    pub fn answer(&self, lists: &[Vec<u32>], answers: &Answers) -> Option<u8> {
        match self {
            Cause::TurnLimit { .. } => None,
            Cause::TurnsSwapped => Some(answers.cat_first),
            Cause::StartSwapped => Some(answers.start_swapped),
            Cause::CatEntersHole => Some(slips::answer(lists, Slip::CatInHole)),
            Cause::CatEntersHoles => {
                let rules = cmg_solve::Rules {
                    holes: vec![0],
                    cat_enters_holes: true,
                    ..cmg_solve::Rules::default()
                };
                let solution = cmg_solve::solve(&Game::with_rules(lists, rules));
                Some(solution.outcome(Position::START).code())
            }
            Cause::HoleCounted => Some(slips::answer(lists, Slip::HoleCounted)),
        }
    }
}

impl fmt::Display for Cause {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Cause::TurnLimit {
                nodes,
                decides: (lo, hi),
                formula,
            } => {
                if lo == hi {
                    write!(f, "on {nodes} nodes it decides games of up to {lo} moves and calls longer ones a draw")?;
                } else {
                    write!(f, "on {nodes} nodes it decides games of up to {lo} to {hi} moves (the graphs run do not tell which) and calls longer ones a draw")?;
                }
                if let Some(formula) = formula {
                    write!(f, ": up to {formula} moves on every size where it was pinned, as a search cut off after a fixed number of turns does")?;
                } else {
                    write!(f, ", as a search cut off after a fixed number of turns does")?;
                }
                Ok(())
            }
            Cause::TurnsSwapped => write!(f, "every answer it gave is right for the game where the cat moves first"),
            Cause::StartSwapped => write!(f, "every answer it gave is right for the game where the mouse starts on node 2 and the cat on node 1"),
            Cause::CatEntersHole => write!(f, "every answer it gave is right for the game where the cat may enter the hole and the mouse that reaches the hole wins, even on the cat"),
            Cause::CatEntersHoles => write!(f, "every answer it gave is right for the game where the cat may enter the hole and the mouse that steps onto the cat loses, in the hole too"),
            Cause::HoleCounted => write!(f, "every answer it gave is right for the game where the hole counts among the cat's moves (a cat beside the hole is never forced out)"),
        }
    }
}

/// A turn limit as a function of the node count: `a·n + b` moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Formula {
    pub a: i64,
    pub b: i64,
}

impl Formula {
    pub fn at(self, n: usize) -> i64 {
        self.a * n as i64 + self.b
    }
}

impl fmt::Display for Formula {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match (self.a, self.b) {
            (0, b) => write!(f, "{b}"),
            (a, 0) => write!(f, "{}n", coefficient(a)),
            (a, b) if b < 0 => write!(f, "{}n-{}", coefficient(a), -b),
            (a, b) => write!(f, "{}n+{b}", coefficient(a)),
        }
    }
}

fn coefficient(a: i64) -> String {
    if a == 1 {
        String::new()
    } else {
        a.to_string()
    }
}

/// The rule variants, in the order they are tried.
const RULES: [Cause; 5] = [
    Cause::TurnsSwapped,
    Cause::StartSwapped,
    Cause::CatEntersHole,
    Cause::CatEntersHoles,
    Cause::HoleCounted,
];

/// The limits each size allows: `allowed[d]` for a limit of `d` moves, and whether every
/// longer limit (no limit at all) fits too.
#[derive(Clone, Debug)]
pub struct Allowed {
    pub allowed: Vec<bool>,
    pub beyond: bool,
}

impl Default for Allowed {
    fn default() -> Allowed {
        Allowed::new()
    }
}

impl Allowed {
    /// Every limit, before any answer.
    pub fn new() -> Allowed {
        Allowed {
            allowed: Vec::new(),
            beyond: true,
        }
    }

    pub fn add(&mut self, answers: &Answers, answer: u8) {
        let len = answers.limits().max(self.allowed.len());
        let beyond = self.beyond;
        self.allowed.resize(len, beyond);
        for (limit, allowed) in (0u32..).zip(self.allowed.iter_mut()) {
            *allowed &= answers.with_limit(limit) == answer;
        }
        self.beyond &= answers.start == answer;
    }

    /// The least and the greatest limit allowed (`None`: none is, or the greatest is no
    /// limit at all).
    pub fn range(&self) -> Option<(u32, Option<u32>)> {
        let lo = self.allowed.iter().position(|&a| a)?;
        let hi = if self.beyond {
            None
        } else {
            self.allowed.iter().rposition(|&a| a).map(|hi| hi as u32)
        };
        Some((lo as u32, hi))
    }
}

/// The limits that fit every answer, by node count.
pub fn limits_by_size(log: &[Answered]) -> BTreeMap<usize, Allowed> {
    let mut by_size: BTreeMap<usize, Allowed> = BTreeMap::new();
    for answered in log {
        by_size
            .entry(answered.lists.len())
            .or_default()
            .add(&answered.answers, answered.answer);
    }
    by_size
}

/// The cause that every answer in `log` fits, if one does; `nodes` is the
/// counterexample's size, where a turn limit is pinned. `None` also when the standard
/// game fits (there is nothing to explain).
pub fn check(log: &[Answered], nodes: usize) -> Option<Cause> {
    if log.iter().all(|a| a.answers.start == a.answer) {
        return None;
    }
    let rule = fitting_rules(log).into_iter().next();
    rule.or_else(|| turn_limit(&limits_by_size(log), nodes))
}

/// Every rule that all the answers in `log` fit. The last graphs first: the
/// counterexample is last, and most wrong causes fail on it.
pub fn fitting_rules(log: &[Answered]) -> Vec<Cause> {
    let mut fitting = RULES.to_vec();
    for answered in log.iter().rev() {
        if fitting.is_empty() {
            break;
        }
        fitting.retain(|cause| {
            cause.answer(&answered.lists, &answered.answers) == Some(answered.answer)
        });
    }
    fitting
}

/// What a turn limit predicts for a graph of `nodes` nodes whose answers are `answers`:
/// the answer, when every limit still allowed at its size gives the same one.
pub fn limit_predicts(
    by_size: &BTreeMap<usize, Allowed>,
    nodes: usize,
    answers: &Answers,
) -> Option<u8> {
    let allowed = by_size.get(&nodes);
    let mut predicted = std::collections::BTreeSet::new();
    let len = answers.limits();
    for limit in 0..len {
        if allowed.is_none_or(|a| a.allowed.get(limit).copied().unwrap_or(a.beyond)) {
            predicted.insert(answers.with_limit(limit as u32));
        }
    }
    if allowed.is_none_or(|a| a.beyond || a.allowed.len() > len) {
        predicted.insert(answers.start);
    }
    (predicted.len() == 1).then(|| *predicted.first().expect("one"))
}

/// A turn limit, when every size allows one and the counterexample's size allows only
/// limits (not the game without one).
pub fn turn_limit(by_size: &BTreeMap<usize, Allowed>, nodes: usize) -> Option<Cause> {
    let mut ranges = BTreeMap::new();
    for (&n, allowed) in by_size {
        ranges.insert(n, allowed.range()?);
    }
    let (lo, hi) = ranges.get(&nodes)?;
    let hi = (*hi)?;
    Some(Cause::TurnLimit {
        nodes,
        decides: (*lo, hi),
        formula: formula(&ranges),
    })
}

/// `a·n + b` through the sizes where the limit is exact, when at least two are and it
/// fits the range of every other size.
fn formula(ranges: &BTreeMap<usize, (u32, Option<u32>)>) -> Option<Formula> {
    let pinned: Vec<(i64, i64)> = ranges
        .iter()
        .filter(|(_, (lo, hi))| Some(*lo) == *hi)
        .map(|(&n, &(lo, _))| (n as i64, i64::from(lo)))
        .collect();
    let (&(n1, d1), &(n2, d2)) = (pinned.first()?, pinned.last()?);
    if n1 == n2 || (d2 - d1) % (n2 - n1) != 0 {
        return None;
    }
    let a = (d2 - d1) / (n2 - n1);
    let formula = Formula { a, b: d1 - a * n1 };
    ranges
        .iter()
        .all(|(&n, &(lo, hi))| {
            let d = formula.at(n);
            d >= i64::from(lo) && hi.is_none_or(|hi| d <= i64::from(hi))
        })
        .then_some(formula)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graphs::small_graphs;

    /// Answers made by a cause's game: every cause is found from its own answers, and
    /// the standard game's answers name none.
    fn answered_by(
        game: impl Fn(&Lists, &Answers) -> u8,
        sizes: std::ops::RangeInclusive<usize>,
    ) -> Vec<Answered> {
        sizes
            .flat_map(small_graphs)
            .map(|lists| {
                let answers = Answers::of(&lists);
                let answer = game(&lists, &answers);
                Answered {
                    lists,
                    answer,
                    answers,
                }
            })
            .collect()
    }

    #[test]
    fn each_rule_is_found_from_its_own_answers() {
        assert_eq!(check(&answered_by(|_, a| a.start, 3..=5), 5), None);
        for cause in RULES {
            let log = answered_by(|lists, a| cause.answer(lists, a).unwrap(), 3..=5);
            assert_eq!(check(&log, 5), Some(cause.clone()), "{cause:?}");
        }
    }

    /// The answers read off one solve are those of the games the rules state, solved
    /// as `cmg solve` solves a file with them: `rule limit D` for every D, `rule first
    /// cat`, `rule start 2 1`.
    #[test]
    fn the_answers_are_the_languages_games() {
        for lists in (3..=5).flat_map(small_graphs) {
            let answers = Answers::of(&lists);
            let rules = |limit| cmg_solve::Rules {
                holes: vec![0],
                limit,
                ..cmg_solve::Rules::default()
            };
            let solved = cmg_solve::solve(&Game::with_rules(&lists, rules(None)));
            let at = |mouse, cat, turn| solved.outcome(Position { mouse, cat, turn }).code();
            assert_eq!(answers.start, at(1, 2, Player::Mouse), "{lists:?}");
            assert_eq!(answers.cat_first, at(1, 2, Player::Cat), "{lists:?}");
            assert_eq!(answers.start_swapped, at(2, 1, Player::Mouse), "{lists:?}");
            for limit in 1..=answers.limits() as u32 + 1 {
                let limited = cmg_solve::solve(&Game::with_rules(&lists, rules(Some(limit))));
                let expected = limited.outcome(Position::START).code();
                assert_eq!(answers.with_limit(limit), expected, "{lists:?} {limit}");
            }
        }
    }

    #[test]
    fn a_turn_limit_is_pinned_and_its_formula_found() {
        // A limit of n + 1 moves: every size from 3 to 6 nodes has longer games.
        let log: Vec<Answered> = (3..=6)
            .flat_map(|n| answered_by(move |_, a| a.with_limit(n as u32 + 1), n..=n))
            .collect();
        let by_size = limits_by_size(&log);
        for (n, allowed) in &by_size {
            let (lo, hi) = allowed.range().unwrap();
            assert!(
                lo as usize <= n + 1 && hi.is_none_or(|hi| *n < hi as usize),
                "{n}: {lo} {hi:?}"
            );
        }
        let Some(
            cause @ Cause::TurnLimit {
                nodes,
                decides,
                formula,
            },
        ) = check(&log, 6)
        else {
            panic!("{:?}", check(&log, 6));
        };
        assert_eq!(nodes, 6);
        assert!(decides.0 <= 7 && 7 <= decides.1, "{decides:?}");
        assert_eq!(decides, (7, 7), "pinned: {by_size:?}");
        assert_eq!(cause.rules(), ["rule limit 7"]);
        // Pinned on one size only (the smaller have no game longer than n + 1): no
        // formula can be read off one point.
        assert_eq!(formula, None);
        // One answer off the limit's game is no turn limit at all.
        let mut broken = log.clone();
        let last = broken.len() - 1;
        broken[last].answer = (broken[last].answer + 1) % 3;
        assert!(!matches!(check(&broken, 6), Some(Cause::TurnLimit { .. })));
    }

    /// The rule statements of each cause: the language's for the rules it states, none
    /// for the slips, and no `rule limit 0`.
    #[test]
    fn causes_are_stated_as_rules_where_the_language_can() {
        let limit = |lo, hi| Cause::TurnLimit {
            nodes: 8,
            decides: (lo, hi),
            formula: None,
        };
        assert_eq!(limit(14, 15).rules(), ["rule limit 14"]);
        assert_eq!(limit(0, 3).rules(), ["rule limit 1"]);
        assert!(limit(0, 0).rules().is_empty());
        assert_eq!(Cause::TurnsSwapped.rules(), ["rule first cat"]);
        assert_eq!(Cause::StartSwapped.rules(), ["rule start 2 1"]);
        assert_eq!(Cause::CatEntersHoles.rules(), ["rule cat-enters-holes"]);
        assert!(Cause::CatEntersHole.rules().is_empty());
        assert!(Cause::HoleCounted.rules().is_empty());
    }

    #[test]
    fn a_formula_goes_through_the_pinned_sizes_and_fits_the_others() {
        let ranges = |list: &[(usize, u32, Option<u32>)]| {
            list.iter()
                .map(|&(n, lo, hi)| (n, (lo, hi)))
                .collect::<BTreeMap<_, _>>()
        };
        // 2n - 3 pinned at 8 and 10, within the ranges at 9 and 5.
        let fits = ranges(&[
            (5, 4, None),
            (8, 13, Some(13)),
            (9, 14, Some(16)),
            (10, 17, Some(17)),
        ]);
        assert_eq!(formula(&fits), Some(Formula { a: 2, b: -3 }));
        // The range at 9 rules it out.
        let broken = ranges(&[(8, 13, Some(13)), (9, 16, Some(18)), (10, 17, Some(17))]);
        assert_eq!(formula(&broken), None);
        // One pinned size is not enough.
        assert_eq!(formula(&ranges(&[(8, 13, Some(13)), (9, 14, None)])), None);
        // A fixed limit.
        let fixed = ranges(&[(40, 200, Some(200)), (45, 200, Some(200))]);
        assert_eq!(formula(&fixed), Some(Formula { a: 0, b: 200 }));
    }

    /// What a turn limit predicts: the one answer every limit still allowed gives, the
    /// game without a limit counting when the limits allowed reach past the game's length.
    #[test]
    fn a_turn_limit_predicts_only_what_every_allowed_limit_agrees_on() {
        // The mouse wins in 4: limits 0 to 3 call it a draw, 4 and up a mouse win.
        let answers = Answers {
            start: 1,
            moves: Some(4),
            cat_first: 2,
            start_swapped: 2,
        };
        let sizes =
            |allowed: Vec<bool>, beyond: bool| BTreeMap::from([(5, Allowed { allowed, beyond })]);
        // Nothing known of 5 nodes: every limit, so draw and mouse both, no prediction.
        assert_eq!(limit_predicts(&BTreeMap::new(), 5, &answers), None);
        // Only limits 0 to 2 left: a draw.
        let short = sizes(vec![true, true, true, false, false], false);
        assert_eq!(limit_predicts(&short, 5, &answers), Some(0));
        // Only 4 and beyond: the mouse's win, the same as without a limit.
        let long = sizes(vec![false, false, false, false, true], true);
        assert_eq!(limit_predicts(&long, 5, &answers), Some(1));
        // Limits past the game's length that were recorded count as the game without one.
        let recorded_past = sizes(vec![false; 6].into_iter().chain([true]).collect(), false);
        assert_eq!(limit_predicts(&recorded_past, 5, &answers), Some(1));
        // Limits allowed on both sides of the length: no prediction.
        let both = sizes(vec![false, false, true, false, true], false);
        assert_eq!(limit_predicts(&both, 5, &answers), None);
        // Another size's limits say nothing of 5 nodes.
        assert_eq!(limit_predicts(&short, 6, &answers), None);
    }

    #[test]
    fn formulas_are_written_as_people_write_them() {
        let words = |a, b| Formula { a, b }.to_string();
        assert_eq!(words(2, -3), "2n-3");
        assert_eq!(words(1, 1), "n+1");
        assert_eq!(words(4, 0), "4n");
        assert_eq!(words(0, 200), "200");
    }
}
