//! One file's analysis from text to outcome: what the CLI and the server both start from.

use crate::model::{
    describe_outcome, sort_by_position, Code, Diagnostic, DiagnosticKind, Graph, Model, Rendered,
    Severity, MAX_EDGE_PAIRS,
};
pub use crate::model::{MemorySetting, TooLarge};
use cmg_solve::{peak_memory_bytes_for, EngineKind, Game, Outcome, Position, Solution, MAX_NODES};
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
        Analysis::from_parse(text, parse)
    }

    /// [`Analysis::new`] from the parse of `text`, for a caller that looked at the parse
    /// first (the server sizes the graph a file declares before building it).
    pub fn from_parse(text: String, parse: Parse) -> Analysis {
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
        let extra = self.extra_diagnostics(solution, too_large);
        self.merged(&extra).copied().collect()
    }

    /// The first `max` diagnostics of [`Analysis::diagnostics_with`] (all of them for
    /// 0), in the same order and in words, and a summary of the rest. Only the ones
    /// shown are rendered: the model keeps its diagnostics sorted, so the first `max`
    /// are taken from a merge of them with the analysis's own few (`expect-mismatch`,
    /// `too-large`), and the rest are only counted by code.
    pub fn diagnostics_capped(
        &self,
        solution: Option<&Solution>,
        too_large: Option<&TooLarge>,
        max: usize,
    ) -> Capped {
        let extra = self.extra_diagnostics(solution, too_large);
        let mut all = self.merged(&extra);
        let max = if max == 0 { usize::MAX } else { max };
        let shown: Vec<Rendered> = all.by_ref().take(max).map(|d| self.render(d)).collect();
        let hidden = all.next().map(|first| {
            let mut counts = [0usize; Code::ALL.len()];
            let mut worst = first.severity();
            for d in std::iter::once(first).chain(all) {
                counts[d.code as usize] += 1;
                worst = worst.min(d.severity());
            }
            let mut codes: Vec<(Code, usize)> = Code::ALL
                .iter()
                .map(|&code| (code, counts[code as usize]))
                .filter(|&(_, count)| count > 0)
                .collect();
            codes.sort_by_key(|(code, _)| code.as_str());
            Hidden {
                count: codes.iter().map(|(_, count)| count).sum(),
                first: first.range,
                worst,
                codes,
            }
        });
        Capped { shown, hidden }
    }

    /// The diagnostics the analysis adds to the model's: `expect-mismatch` given the
    /// solution (or `expect-unchecked` while the file does not parse), `too-large`
    /// given the reason the graph is not solved; sorted.
    fn extra_diagnostics(
        &self,
        solution: Option<&Solution>,
        too_large: Option<&TooLarge>,
    ) -> Vec<Diagnostic> {
        let solution = solution_for(&self.model.graph, solution);
        let mut extra = check_expectations(self, solution);
        // Over the edge limit the model already has its error at the statement; a
        // second word on the first line would only repeat it.
        if let Some(too_large) = too_large.filter(|t| **t != TooLarge::EdgeLimit) {
            extra.push(too_large.diagnostic(self));
        }
        sort_by_position(&mut extra);
        extra
    }

    /// The model's diagnostics but the knock-on errors, merged with `extra` (sorted) in
    /// order of position, the model's first at one place: what a stable sort of the two
    /// lists one after the other gives.
    fn merged<'a>(&'a self, extra: &'a [Diagnostic]) -> impl Iterator<Item = &'a Diagnostic> {
        // Every syntax error is a diagnostic of the model.
        let syntax = !self.parse.errors.is_empty();
        let mut model = self
            .model
            .diagnostics
            .iter()
            .filter(move |d| !knocked_on(syntax, d))
            .peekable();
        let mut extra = extra.iter().peekable();
        let key = |d: &Diagnostic| (d.range.start, d.range.end);
        std::iter::from_fn(move || match (model.peek(), extra.peek()) {
            (Some(m), Some(e)) if key(e) < key(m) => extra.next(),
            (Some(_), _) => model.next(),
            (None, _) => extra.next(),
        })
    }

    /// Whether an `expect` of this file is compared with the solved outcome: only when
    /// the whole file parses. A statement with a syntax error is left out of the graph,
    /// so the outcome of the rest says nothing about the file the author means (`0 - 1`
    /// may be the edge that lets the mouse win): no mismatch is reported, no fix to the
    /// partial outcome offered, and each `expect` gets `expect-unchecked` instead.
    pub fn checks_expects(&self) -> bool {
        self.parse.errors.is_empty()
    }

    /// `diagnostic` in words, from this analysis's text and parse.
    pub fn render(&self, diagnostic: &Diagnostic) -> Rendered {
        diagnostic.render(&self.text, &self.parse)
    }

    /// The message of `diagnostic`, from this analysis's text and parse.
    pub fn message(&self, diagnostic: &Diagnostic) -> String {
        diagnostic.message(&self.text, &self.parse)
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
        let estimate = peak_memory_bytes_for(nodes, engine_for(graph));
        if let Some(budget) = limits.max_memory.filter(|&budget| estimate > budget) {
            return SolvePlan::TooLarge(TooLarge::MemoryBudget {
                nodes,
                estimate,
                budget,
                setting: limits.memory_setting,
            });
        }
        SolvePlan::Solve(game_of(graph))
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

/// The editor's defaults: the server's settings start from them, and the WebAssembly
/// build, which has no settings, solves under them as they are.
pub mod editor_defaults {
    /// Graphs with more nodes are not solved while typing (`too-large`).
    pub const MAX_NODES: usize = 5000;
    /// The budget for the solver's estimated peak memory, in MiB.
    pub const MAX_SOLVER_MEMORY_MIB: u64 = 768;
    /// Longer documents are not analysed at all.
    pub const MAX_DOCUMENT_BYTES: usize = 8 << 20;
    /// At most this many diagnostics are shown, followed by a count of the rest.
    pub const MAX_DIAGNOSTICS: usize = 1000;
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

/// What [`Analysis::solve_plan`] decides.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolvePlan {
    /// Node 1 or node 2 is missing: there is no game and no outcome.
    NoGame,
    TooLarge(TooLarge),
    Solve(Game),
}

/// A memory size in words: whole MiB from 1 MiB up, else whole KiB, else bytes, so that
/// a small graph's estimate is not "about 1 MiB" nor a small budget "0 MiB". An
/// estimate rounds up, a budget down.
fn memory_size(bytes: u64, round_up: bool) -> String {
    const KIB: u64 = 1 << 10;
    const MIB: u64 = 1 << 20;
    let whole = |unit: u64| {
        if round_up {
            bytes.div_ceil(unit)
        } else {
            bytes / unit
        }
    };
    if bytes >= MIB {
        format!("{} MiB", whole(MIB))
    } else if bytes >= KIB {
        format!("{} KiB", whole(KIB))
    } else {
        format!("{bytes} byte{}", if bytes == 1 { "" } else { "s" })
    }
}

impl TooLarge {
    /// Why the outcome is not computed, and what (if anything) the user can do.
    pub fn message(self) -> String {
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
                    MemorySetting::CheckBudget => "raise the budget with `cmg check --max-memory SIZE` to check it",
                    _ => "raise the setting `cmg.solver.maxNodes`, or run `cmg solve`",
                }
            ),
            TooLarge::MemoryBudget {
                nodes,
                estimate,
                budget,
                setting,
            } => format!(
                "solving this graph of {nodes} nodes would take about {}, above the memory budget of {}, so the outcome is not computed: {}",
                memory_size(estimate, true),
                memory_size(budget, false),
                match setting {
                    MemorySetting::CliFlag => "raise the budget with `cmg solve --max-memory SIZE` to solve it",
                    MemorySetting::ServerSetting => "raise the setting `cmg.solver.maxMemoryMiB`, or run `cmg solve`",
                    MemorySetting::CheckBudget => "raise the budget with `cmg check --max-memory SIZE` to check it",
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
        Diagnostic::new(range, DiagnosticKind::TooLarge(self))
    }
}

/// What [`Analysis::diagnostics_capped`] gives: the diagnostics to show, and what the
/// rest are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Capped {
    pub shown: Vec<Rendered>,
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

/// Whether `d` is a knock-on error of a syntax error (a missing node that the broken
/// statement likely declared), in a file that has one (`syntax`). With syntax errors
/// in the file, the whole-file checks could be answered by the text that was not read
/// (`0 => 1` mentions nodes 0 and 1), so they are left out until the syntax is fixed,
/// as a compiler leaves out errors caused by an earlier one.
fn knocked_on(syntax: bool, d: &Diagnostic) -> bool {
    syntax
        && matches!(
            d.code,
            Code::MissingMouse | Code::MissingCat | Code::MissingHole
        )
}

/// `solution` if it was solved for this graph. A solution for another version of a
/// document could name nodes the graph no longer has, and its queries panic on those;
/// the editor features call this before reading one.
pub fn solution_for<'a>(graph: &Graph, solution: Option<&'a Solution>) -> Option<&'a Solution> {
    solution.filter(|solution| solution.game().node_count() == graph.node_count())
}

/// The game the file states, for the solver: LeetCode 913's exactly as it always was for a
/// file without rules, else the moves (one-way edges included) under the file's rules.
pub fn game_of(graph: &Graph) -> Game {
    if graph.is_standard() {
        return Game::new(graph.adjacency(), graph.hole());
    }
    let rules = graph.rules();
    let cat_on_holes = graph.cat_start().is_some_and(|cat| graph.is_hole(cat));
    Game::with_rules(
        &graph.move_lists(),
        cmg_solve::Rules {
            holes: graph.holes().to_vec(),
            cat_enters_holes: rules.cat_enters_holes,
            limit: rules.limit,
            cat_on_holes,
        },
    )
}

/// The file's game in words when it is not LeetCode 913's: "the cat moves first, limit
/// 16", "one-way edges"; `None` for a file without rules or one-way edges. `cmg solve`
/// and the hover print it as "the game: …".
pub fn game_description(graph: &Graph) -> Option<String> {
    if graph.is_standard() {
        return None;
    }
    let mut words = graph.rules().describe();
    if graph.has_arcs() {
        if !words.is_empty() {
            words.push_str(", ");
        }
        words.push_str("one-way edges");
    }
    Some(words)
}

/// "the game: the cat moves first, limit 16": the file's game ([`game_description`]) as
/// `cmg solve`, the hover and the view state it.
pub fn game_line(game: &str) -> String {
    format!("the game: {game}")
}

/// Why a file has no game, in words: its starts, and which of them is not a node.
pub fn no_game_reason(graph: &Graph) -> String {
    let rules = graph.rules();
    format!(
        "the graph needs node {} (the mouse) and node {} (the cat)",
        rules.mouse_start, rules.cat_start
    )
}

/// The engine that will solve the file's game, known before the game is built.
fn engine_for(graph: &Graph) -> EngineKind {
    let cat_on_holes = graph.cat_start().is_some_and(|cat| graph.is_hole(cat));
    if graph.holes().len() > 1 || graph.rules().cat_enters_holes || cat_on_holes {
        EngineKind::Variant
    } else {
        EngineKind::Standard
    }
}

/// The position every game starts from: by default the mouse on node 1, the cat on node 2,
/// the mouse to move; the file's rules may say otherwise.
pub fn start_position(graph: &Graph) -> Option<Position> {
    Some(Position {
        mouse: graph.mouse_start()?,
        cat: graph.cat_start()?,
        turn: graph.first(),
    })
}

/// The position where the mouse starts on the node at `index` instead of its start.
pub fn mouse_starts_at(graph: &Graph, index: u32) -> Option<Position> {
    Some(Position {
        mouse: index,
        cat: graph.cat_start()?,
        turn: graph.first(),
    })
}

/// The position where the cat starts on the node at `index` instead of its start.
pub fn cat_starts_at(graph: &Graph, index: u32) -> Option<Position> {
    Some(Position {
        mouse: graph.mouse_start()?,
        cat: index,
        turn: graph.first(),
    })
}

/// "mouse wins in 3", "cat wins in 1", "draw".
pub fn describe(outcome: Outcome, moves: Option<u32>) -> String {
    describe_outcome(outcome_as_expected(outcome), moves)
}

/// The `expect` keyword's value for an outcome.
fn outcome_as_expected(outcome: Outcome) -> ExpectedOutcome {
    match outcome {
        Outcome::MouseWins => ExpectedOutcome::Mouse,
        Outcome::CatWins => ExpectedOutcome::Cat,
        Outcome::Draw => ExpectedOutcome::Draw,
    }
}

/// The outcome a solution gives a position, in words.
pub fn describe_position(solution: &Solution, position: Position) -> String {
    describe(solution.outcome(position), solution.moves_to_end(position))
}

pub fn outcome_keyword(outcome: Outcome) -> &'static str {
    outcome_as_expected(outcome).keyword()
}

pub fn expected_outcome(expected: ExpectedOutcome) -> Outcome {
    match expected {
        ExpectedOutcome::Mouse => Outcome::MouseWins,
        ExpectedOutcome::Cat => Outcome::CatWins,
        ExpectedOutcome::Draw => Outcome::Draw,
    }
}

/// The check of every `expect`: `expect-unchecked` for each one while the file has
/// syntax errors (see [`Analysis::checks_expects`]); else, given the solution of the
/// file's graph, `expect-mismatch` for each one the solved outcome disagrees with.
pub fn check_expectations(analysis: &Analysis, solution: Option<&Solution>) -> Vec<Diagnostic> {
    let model = &analysis.model;
    if !analysis.checks_expects() {
        return model
            .expects
            .iter()
            .map(|expect| {
                Diagnostic::new(
                    expect.range(),
                    DiagnosticKind::ExpectUnchecked {
                        expected: expect.outcome,
                    },
                )
            })
            .collect();
    }
    let (Some(solution), Some(start)) = (solution, start_position(&model.graph)) else {
        return Vec::new();
    };
    let outcome = solution.outcome(start);
    let moves = solution.moves_to_end(start);
    let solved = outcome_as_expected(outcome);
    model
        .expects
        .iter()
        .filter(|expect| expect.outcome != solved)
        .map(|expect| {
            Diagnostic::new(
                expect.range(),
                DiagnosticKind::ExpectMismatch {
                    expected: expect.outcome,
                    solved,
                    moves,
                },
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
        // The full set is the model's (but the knock-on errors of the syntax errors)
        // and the `expect` checks, in a stable sort by position: the model's first at
        // one place (a `duplicate-expect` and an `expect-mismatch` share theirs here).
        let mut reference: Vec<Diagnostic> = analysis
            .model
            .diagnostics
            .iter()
            .filter(|d| !knocked_on(true, d))
            .copied()
            .chain(check_expectations(&analysis, Some(&solution)))
            .collect();
        reference.sort_by_key(|d| (d.range.start, d.range.end));
        assert_eq!(full, reference);
        for max in [0, 1, 2, 7, 50, full.len() - 1, full.len(), full.len() + 5] {
            let capped = analysis.diagnostics_capped(Some(&solution), None, max);
            let shown = if max == 0 {
                full.len()
            } else {
                max.min(full.len())
            };
            let rendered: Vec<Rendered> =
                full[..shown].iter().map(|d| analysis.render(d)).collect();
            assert_eq!(capped.shown, rendered, "max {max}");
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
