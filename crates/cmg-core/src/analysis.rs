//! One file's analysis from text to outcome: what the CLI and the server both start from.

use crate::model::{Code, Diagnostic, Graph, Model, Severity, MAX_EDGE_PAIRS};
use cmg_solve::{peak_memory_bytes, Game, Outcome, Player, Position, Solution, MAX_NODES};
use cmg_syntax::{parse, ExpectedOutcome, LineIndex, Parse};

/// The cheap part of an analysis: parse and model, done on every keystroke.
#[derive(Clone, Debug)]
pub struct Analysis {
    pub text: String,
    pub parse: Parse,
    pub model: Model,
    pub line_index: LineIndex,
}

impl Analysis {
    /// Takes the text by value when the caller has a `String` to give, so that it is
    /// not copied on every keystroke.
    pub fn new(text: impl Into<String>) -> Analysis {
        let text = text.into();
        let parse = parse(&text);
        let model = Model::new(&text, &parse);
        Analysis {
            line_index: LineIndex::new(&text),
            text,
            parse,
            model,
        }
    }

    /// The heap bytes this analysis holds on to, approximately: the text, the parse,
    /// the model and the line index, each buffer by its capacity. What a server keeping
    /// many documents counts against its memory budget; `tests/memory.rs` checks it
    /// against a counting allocator.
    pub fn heap_bytes(&self) -> usize {
        self.text.capacity()
            + self.parse.heap_bytes()
            + self.model.heap_bytes()
            + self.line_index.heap_bytes()
    }

    /// [`Analysis::new`] whose model has only the diagnostics of reading the file (see
    /// [`Model::without_checks`]), for commands that need the graph and not the checks.
    pub fn without_checks(text: impl Into<String>) -> Analysis {
        let text = text.into();
        let parse = parse(&text);
        let model = Model::without_checks(&parse);
        Analysis {
            line_index: LineIndex::new(&text),
            text,
            parse,
            model,
        }
    }

    /// Every diagnostic of the file but `too-large`, sorted by position: see
    /// [`Analysis::diagnostics_with`].
    pub fn diagnostics(&self, solution: Option<&Solution>) -> Vec<Diagnostic> {
        self.diagnostics_with(solution, None)
    }

    /// Every diagnostic of the file, sorted by position: the model's; given the solution
    /// of this graph, the check of each `expect` against it; and given the reason the
    /// graph is not solved, `too-large`. The one place diagnostics are put together: the
    /// CLI, the server and the code actions all take theirs from here.
    pub fn diagnostics_with(
        &self,
        solution: Option<&Solution>,
        too_large: Option<&TooLarge>,
    ) -> Vec<Diagnostic> {
        let mut diagnostics = self.model.diagnostics.clone();
        suppress_knock_on_errors(&mut diagnostics);
        if let Some(solution) = solution_for(&self.model.graph, solution) {
            diagnostics.extend(check_expectations(&self.model, solution));
        }
        // Over the edge limit the model already has its error at the statement; a
        // second word on the first line would only repeat it.
        if let Some(too_large) = too_large.filter(|t| **t != TooLarge::EdgeLimit) {
            diagnostics.push(too_large.diagnostic(self));
        }
        sort_by_position(&mut diagnostics);
        diagnostics
    }

    /// The first `max` diagnostics of [`Analysis::diagnostics_with`] (all of them for
    /// 0), in the same order, and a summary of the rest, without cloning or sorting the
    /// rest: a file with 200 000 warnings cloned and sorted them all for every
    /// publication of 1000, on every keystroke. The first `max` are picked by
    /// selection (linear) on references, then only they are sorted and cloned.
    pub fn diagnostics_capped(
        &self,
        solution: Option<&Solution>,
        too_large: Option<&TooLarge>,
        max: usize,
    ) -> Capped {
        let syntax = self
            .model
            .diagnostics
            .iter()
            .any(|d| d.code == Code::Syntax);
        let mut extra = Vec::new();
        if let Some(solution) = solution_for(&self.model.graph, solution) {
            extra.extend(check_expectations(&self.model, solution));
        }
        if let Some(too_large) = too_large.filter(|t| **t != TooLarge::EdgeLimit) {
            extra.push(too_large.diagnostic(self));
        }
        // The same set and order as `diagnostics_with`: the knock-on errors dropped,
        // and a stable sort by position (the index breaks ties as stability does).
        let mut all: Vec<(u32, u32, usize, &Diagnostic)> = self
            .model
            .diagnostics
            .iter()
            .filter(|d| !knocked_on(syntax, d))
            .chain(&extra)
            .enumerate()
            .map(|(index, d)| (d.range.start, d.range.end, index, d))
            .collect();
        let key = |entry: &(u32, u32, usize, &Diagnostic)| (entry.0, entry.1, entry.2);
        let shown = if max == 0 {
            all.len()
        } else {
            max.min(all.len())
        };
        if shown < all.len() {
            all.select_nth_unstable_by_key(shown, key);
        }
        let (first, rest) = all.split_at_mut(shown);
        first.sort_unstable_by_key(key);
        let hidden = rest
            .iter()
            .min_by_key(|entry| key(entry))
            .map(|&(.., first)| {
                let mut codes: Vec<(Code, usize)> = Vec::new();
                for (.., d) in rest.iter() {
                    match codes.iter_mut().find(|(code, _)| *code == d.code) {
                        Some((_, count)) => *count += 1,
                        None => codes.push((d.code, 1)),
                    }
                }
                codes.sort_by_key(|(code, _)| code.as_str());
                Hidden {
                    count: rest.len(),
                    first: first.range,
                    worst: rest
                        .iter()
                        .map(|(.., d)| d.severity())
                        .min()
                        .unwrap_or(Severity::Hint),
                    codes,
                }
            });
        Capped {
            shown: first.iter().map(|&(.., d)| d.clone()).collect(),
            hidden,
        }
    }

    /// Whether and what to solve, under `limits`: the one place this is decided, for
    /// `cmg check`, `cmg solve`, `cmg dot` and the server.
    pub fn solve_plan(&self, limits: SolveLimits) -> SolvePlan {
        let graph = &self.model.graph;
        if start_position(graph).is_none() {
            return SolvePlan::NoGame;
        }
        if self.model.edges_truncated {
            return SolvePlan::TooLarge(TooLarge::EdgeLimit);
        }
        let nodes = graph.node_count();
        // The hard limit first: no setting can lift it, so its message must win.
        if nodes > MAX_NODES {
            return SolvePlan::TooLarge(TooLarge::SolverLimit { nodes });
        }
        if let Some(limit) = limits.max_nodes.filter(|&limit| nodes > limit) {
            return SolvePlan::TooLarge(TooLarge::LiveSolveLimit {
                nodes,
                limit,
                setting: limits.memory_setting,
            });
        }
        let estimate = peak_memory_bytes(nodes);
        if let Some(budget) = limits.max_memory.filter(|&budget| estimate > budget) {
            return SolvePlan::TooLarge(TooLarge::MemoryBudget {
                nodes,
                estimate,
                budget,
                setting: limits.memory_setting,
            });
        }
        SolvePlan::Solve(Game::new(graph.adjacency(), graph.hole()))
    }

    /// The game to solve with no limit but the solver's own, or `None` when node 1 or
    /// node 2 is missing or the graph is beyond what the solver can hold ([`MAX_NODES`]).
    pub fn game(&self) -> Option<Game> {
        match self.solve_plan(SolveLimits::default()) {
            SolvePlan::Solve(game) => Some(game),
            SolvePlan::NoGame | SolvePlan::TooLarge(_) => None,
        }
    }
}

/// The limits a front end solves under; `None` is no limit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SolveLimits {
    /// The live-solve limit in nodes (the server's setting).
    pub max_nodes: Option<usize>,
    /// The budget for the solver's estimated peak memory, in bytes.
    pub max_memory: Option<u64>,
    /// What sets the limits, as the message over them names it: the CLI's
    /// `--max-memory` or `--no-limits`, or the server's settings.
    pub memory_setting: MemorySetting,
}

/// Where a front end's limits come from, so that the message over them names the one
/// thing that lifts them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MemorySetting {
    /// `cmg solve --max-memory SIZE` (and the same default in `cmg check` and `cmg dot`).
    #[default]
    CliFlag,
    /// The server's settings `cmg.solver.maxNodes` and `cmg.solver.maxMemoryMiB`.
    ServerSetting,
    /// `cmg check` checking an `expect`: the server's default limits, lifted by
    /// `cmg check --no-limits`.
    CheckDefaults,
}

/// What [`Analysis::solve_plan`] decides.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolvePlan {
    /// Node 1 or node 2 is missing: there is no game and no outcome.
    NoGame,
    TooLarge(TooLarge),
    Solve(Game),
}

/// Why a game is not solved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TooLarge {
    /// Above the solver's hard limit, [`MAX_NODES`]: no setting can help.
    SolverLimit { nodes: usize },
    /// Above the live-solve limit, a setting.
    LiveSolveLimit {
        nodes: usize,
        limit: usize,
        setting: MemorySetting,
    },
    /// The solver's peak memory, estimated before anything is allocated, is above the
    /// budget.
    MemoryBudget {
        nodes: usize,
        estimate: u64,
        budget: u64,
        setting: MemorySetting,
    },
    /// The file declares more edge pairs than [`MAX_EDGE_PAIRS`], so the graph was cut
    /// short (`too-many-edges`, an error at the statement, says so) and the outcome is
    /// unknown.
    EdgeLimit,
}

impl TooLarge {
    /// Why the outcome is not computed, and what (if anything) the user can do.
    pub fn message(self) -> String {
        const MIB: u64 = 1 << 20;
        match self {
            TooLarge::SolverLimit { nodes } => format!(
                "the graph has {nodes} nodes, more than the {MAX_NODES} the solver can hold, so its outcome cannot be computed"
            ),
            TooLarge::LiveSolveLimit {
                nodes,
                limit,
                setting,
            } => format!(
                "the graph has {nodes} nodes, above the live-solve limit of {limit}, so the outcome is not computed here: {}",
                match setting {
                    MemorySetting::CheckDefaults => "`cmg check --no-limits` solves it anyway",
                    _ => "raise the setting `cmg.solver.maxNodes`, or run `cmg solve`",
                }
            ),
            TooLarge::MemoryBudget {
                nodes,
                estimate,
                budget,
                setting,
            } => format!(
                "solving this graph of {nodes} nodes would take about {} MiB, above the memory budget of {}, so the outcome is not computed: {}",
                estimate.div_ceil(MIB),
                // A budget under a MiB (`--max-memory 1`) is not "0 MiB".
                if budget < MIB {
                    format!("{budget} byte{}", if budget == 1 { "" } else { "s" })
                } else {
                    format!("{} MiB", budget / MIB)
                },
                match setting {
                    MemorySetting::CliFlag => "raise the budget with `cmg solve --max-memory SIZE` to solve it",
                    MemorySetting::ServerSetting => "raise the setting `cmg.solver.maxMemoryMiB`, or run `cmg solve`",
                    MemorySetting::CheckDefaults => "`cmg check --no-limits` solves it anyway",
                }
            ),
            TooLarge::EdgeLimit => format!(
                "the file declares more than {MAX_EDGE_PAIRS} edges, so its graph is cut short and its outcome is unknown"
            ),
        }
    }

    /// `too-large`, on the first line of the file.
    pub fn diagnostic(self, analysis: &Analysis) -> Diagnostic {
        let range = analysis.line_index.line_content(0).unwrap_or_default();
        Diagnostic::new(Code::TooLarge, range, self.message())
    }
}

/// What [`Analysis::diagnostics_capped`] gives: the diagnostics to show, and what the
/// rest are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Capped {
    pub shown: Vec<Diagnostic>,
    pub hidden: Option<Hidden>,
}

/// The diagnostics left out by a cap: how many, where the first is, how many of each
/// code (by code name), and the most severe of their severities.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hidden {
    pub count: usize,
    pub first: cmg_syntax::TextRange,
    pub codes: Vec<(Code, usize)>,
    pub worst: Severity,
}

/// With syntax errors in the file, the whole-file checks could be answered by the
/// text that was not read (`0 -> 1` mentions nodes 0 and 1), so they are left out
/// until the syntax is fixed, as a compiler leaves out errors caused by an earlier one.
fn suppress_knock_on_errors(diagnostics: &mut Vec<Diagnostic>) {
    let syntax = diagnostics.iter().any(|d| d.code == Code::Syntax);
    diagnostics.retain(|d| !knocked_on(syntax, d));
}

/// Whether `d` is a knock-on error of a syntax error (a missing node that the broken
/// statement likely declared), in a file that has one (`syntax`).
fn knocked_on(syntax: bool, d: &Diagnostic) -> bool {
    syntax
        && matches!(
            d.code,
            Code::MissingMouse | Code::MissingCat | Code::MissingHole
        )
}

/// Orders diagnostics as a reader meets them; those at one place keep their order.
pub(crate) fn sort_by_position(diagnostics: &mut [Diagnostic]) {
    diagnostics.sort_by_key(|d| (d.range.start, d.range.end));
}

/// `solution` if it was solved for this graph. A solution for another version of a
/// document could name nodes the graph no longer has, and its queries panic on those;
/// the editor features call this before reading one.
pub fn solution_for<'a>(graph: &Graph, solution: Option<&'a Solution>) -> Option<&'a Solution> {
    solution.filter(|solution| solution.game().node_count() == graph.node_count())
}

/// The position every game starts from: mouse on node 1, cat on node 2, mouse to move.
pub fn start_position(graph: &Graph) -> Option<Position> {
    Some(Position {
        mouse: graph.mouse_start()?,
        cat: graph.cat_start()?,
        turn: Player::Mouse,
    })
}

/// The position where the mouse starts on the node at `index` instead of node 1.
pub fn mouse_starts_at(graph: &Graph, index: u32) -> Option<Position> {
    Some(Position {
        mouse: index,
        cat: graph.cat_start()?,
        turn: Player::Mouse,
    })
}

/// The position where the cat starts on the node at `index` instead of node 2.
pub fn cat_starts_at(graph: &Graph, index: u32) -> Option<Position> {
    Some(Position {
        mouse: graph.mouse_start()?,
        cat: index,
        turn: Player::Mouse,
    })
}

/// "mouse wins in 3", "cat wins in 1", "draw".
pub fn describe(outcome: Outcome, moves: Option<u32>) -> String {
    match (outcome, moves) {
        (Outcome::Draw, _) | (_, None) => "draw".to_owned(),
        (Outcome::MouseWins, Some(moves)) => format!("mouse wins in {moves}"),
        (Outcome::CatWins, Some(moves)) => format!("cat wins in {moves}"),
    }
}

/// The outcome a solution gives a position, in words.
pub fn describe_position(solution: &Solution, position: Position) -> String {
    describe(solution.outcome(position), solution.moves_to_end(position))
}

pub fn outcome_keyword(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::MouseWins => "mouse",
        Outcome::CatWins => "cat",
        Outcome::Draw => "draw",
    }
}

pub fn expected_outcome(expected: ExpectedOutcome) -> Outcome {
    match expected {
        ExpectedOutcome::Mouse => Outcome::MouseWins,
        ExpectedOutcome::Cat => Outcome::CatWins,
        ExpectedOutcome::Draw => Outcome::Draw,
    }
}

/// `expect-mismatch` for every `expect` the solved outcome disagrees with.
pub fn check_expectations(model: &Model, solution: &Solution) -> Vec<Diagnostic> {
    let Some(start) = start_position(&model.graph) else {
        return Vec::new();
    };
    let outcome = solution.outcome(start);
    let solved = describe(outcome, solution.moves_to_end(start));
    model
        .expects
        .iter()
        .filter(|expect| expected_outcome(expect.outcome) != outcome)
        .map(|expect| {
            Diagnostic::new(
                Code::ExpectMismatch,
                expect.range(),
                format!(
                    "`expect {}` disagrees with the solved outcome, {solved}: change it to `expect {}`",
                    expect.outcome.keyword(),
                    outcome_keyword(outcome),
                ),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The capped set is the head of the full one, and the summary is of its tail.
    #[test]
    fn the_capped_diagnostics_are_the_head_of_the_full_set() {
        let mut text = String::from("0 -- 1 -- 2\nexpect cat\nexpect draw\n3 -- 3\n");
        for i in 0..300 {
            // Duplicates, self-loops, a syntax error now and then, all interleaved.
            text.push_str(&format!("{} -- {}\n", i % 7, (i * 3) % 7));
            if i % 50 == 0 {
                text.push_str("4 -- \n");
            }
        }
        text.push_str("expect mouse\n");
        let analysis = Analysis::new(text);
        let game = match analysis.solve_plan(SolveLimits::default()) {
            SolvePlan::Solve(game) => game,
            _ => panic!("a game to solve"),
        };
        let solution = cmg_solve::solve(&game);
        let full = analysis.diagnostics_with(Some(&solution), None);
        assert!(full.len() > 100, "{}", full.len());
        for max in [0, 1, 2, 7, 50, full.len() - 1, full.len(), full.len() + 5] {
            let capped = analysis.diagnostics_capped(Some(&solution), None, max);
            let shown = if max == 0 {
                full.len()
            } else {
                max.min(full.len())
            };
            assert_eq!(capped.shown, full[..shown], "max {max}");
            let rest = &full[shown..];
            let Some(hidden) = capped.hidden else {
                assert!(rest.is_empty(), "max {max}");
                continue;
            };
            assert_eq!(hidden.count, rest.len());
            assert_eq!(hidden.first, rest[0].range);
            assert_eq!(
                hidden.worst,
                rest.iter().map(|d| d.severity()).min().unwrap()
            );
            let mut codes: Vec<(Code, usize)> = Vec::new();
            for code in Code::ALL {
                let count = rest.iter().filter(|d| d.code == *code).count();
                if count > 0 {
                    codes.push((*code, count));
                }
            }
            codes.sort_by_key(|(code, _)| code.as_str());
            assert_eq!(hidden.codes, codes);
        }
    }
}
