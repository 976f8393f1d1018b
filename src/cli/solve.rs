//! `cmg solve`: the outcome, moves to the end and the optimal line; with `--strategy` and `--what-if`, why (see `solve_explain.rs`).

use std::io::IsTerminal;
use std::time::Duration;

use serde_json::{json, Value};

use super::input::read_source;
use super::render::{self, SourceView};
pub use super::solve_explain::ExplainOptions;
pub use super::text::human_bytes;
use super::{exit_code, CliResult, EXIT_USAGE};
use cmg_core::analysis::{
    describe, game_description, no_game_reason, start_position, Analysis, MemorySetting,
    SolveLimits, SolvePlan,
};
use cmg_core::ending::Ending;
use cmg_core::model::Severity;
use cmg_ide::code_lens::{line_ids, repeats};
use cmg_solve::{peak_memory_bytes_for, solve, Player, Solution};

pub fn run(
    path: &str,
    json: bool,
    max_memory: u64,
    max_diagnostics: usize,
    explain: &ExplainOptions,
) -> CliResult {
    let source = match read_source(path) {
        Ok(source) => source,
        Err(error) if json => {
            // `--json` prints one object whatever happens, so that `| jq` works.
            print_json(&json!({"outcome": null, "reason": error.to_string(), "errors": []}));
            eprintln!("cmg: {error}");
            return Ok(std::process::ExitCode::from(EXIT_USAGE));
        }
        Err(error) => return Err(error),
    };
    let analysis = Analysis::new(source.text.as_str());
    // Solved once, for the outcome and for checking `expect`.
    let solved = solve_within(&analysis, max_memory);
    let solution = solved.as_ref().ok();
    let diagnostics: Vec<_> = analysis
        .diagnostics(solution)
        .into_iter()
        .filter(|d| d.severity() <= Severity::Warning)
        .collect();
    let has_errors = cmg_core::model::has_errors(&diagnostics);
    let view = SourceView::new(&source, &analysis);
    render::emit(
        &mut render::stderr(),
        true,
        &view,
        &diagnostics,
        max_diagnostics,
    );

    let graph = &analysis.model.graph;
    // A file with syntax errors is solved for the statements that parsed; every form of
    // the answer says so, rather than a confident outcome for half a file.
    let syntax_errors = analysis.parse.errors.len();
    let (Ok(solution), Some(start)) = (solved.as_ref(), start_position(graph)) else {
        let reason = solved.err().unwrap_or_default();
        eprintln!(
            "cmg: {}: no outcome: {reason}",
            super::render::visible(&source.name)
        );
        if json {
            let errors: Vec<_> = diagnostics
                .iter()
                .filter(|d| d.severity() == Severity::Error)
                .map(|d| render::to_json(&view, d))
                .collect();
            print_json(&json!({
                "outcome": null,
                "result": null,
                "moves": null,
                "nodes": graph.node_count(),
                "edges": graph.edge_count(),
                "line": [],
                "reason": reason,
                "errors": errors,
                "complete": syntax_errors == 0,
                "syntax_errors": syntax_errors,
            }));
        }
        return Ok(exit_code(true));
    };
    let outcome = solution.outcome(start);
    let moves = solution.moves_to_end(start);
    let line = solution.line(start);
    if json {
        let mut object = json!({
            "outcome": cmg_core::analysis::outcome_keyword(outcome),
            "result": outcome.code(),
            "moves": moves,
            "nodes": graph.node_count(),
            "edges": graph.edge_count(),
            "line": line_ids(graph, &line),
            "complete": syntax_errors == 0,
            "syntax_errors": syntax_errors,
        });
        // A file with rules says its game and the engine that solved it; a file without
        // keeps the object it always had.
        if let Some(game) = game_description(graph) {
            object["game"] = json!(game);
            object["engine"] = json!(solution.engine().name());
        }
        explain.add_json(&mut object, graph, solution, start);
        print_json(&object);
    } else {
        let mut out = String::new();
        use std::fmt::Write as _;
        let _ = writeln!(
            out,
            "{} (result {}); {}, {}",
            describe(outcome, moves),
            outcome.code(),
            render::plural(graph.node_count(), "node"),
            render::plural(graph.edge_count(), "edge")
        );
        if syntax_errors > 0 {
            let _ = writeln!(
                out,
                "incomplete: {} in the file; this is the outcome of the statements that parsed",
                render::plural(syntax_errors, "syntax error")
            );
        }
        if let Some(game) = game_description(graph) {
            let _ = writeln!(out, "{}", cmg_core::analysis::game_line(&game));
        }
        let _ = writeln!(out, "optimal line:");
        for (step, pair) in line.windows(2).enumerate() {
            let (player, from, to) = match pair[0].turn {
                Player::Mouse => ("mouse", pair[0].mouse, pair[1].mouse),
                Player::Cat => ("cat", pair[0].cat, pair[1].cat),
            };
            let _ = writeln!(
                out,
                "{:>4}. {player} {} -> {}",
                step + 1,
                graph.id(from),
                graph.id(to)
            );
        }
        let last = line.last().copied().unwrap_or(start);
        let ending = if solution.is_terminal(last) {
            describe(outcome, moves)
        } else if repeats(&line) {
            Ending::Repeats.phrase()
        } else if graph.rules().limit == Some(line.len() as u32 - 1) {
            Ending::Limit.phrase()
        } else {
            Ending::NoMove(last.turn).phrase()
        };
        let _ = writeln!(out, "      {ending}");
        let limited = graph.rules().limit.is_some();
        if let Some(note) = moves.filter(|_| !limited).and_then(turn_limit_note) {
            let _ = writeln!(out, "{note}");
        }
        explain.add_text(&mut out, graph, solution, start);
        super::output::print(&out);
    }
    Ok(exit_code(has_errors))
}

/// For a game decided in `moves` plies, the turn limits it breaks: a solution that calls
/// every game still going after T turns a draw gets this one wrong for every T below `moves`.
/// Nothing for games of one move, which only a limit of 0 would break.
fn turn_limit_note(moves: u32) -> Option<String> {
    (moves >= 2).then(|| {
        format!("a solution that stops after T turns calls this a draw for every T < {moves}")
    })
}

fn print_json(value: &Value) {
    super::output::print(&format!("{value}\n"));
}

/// The solution, or why there is none: no game, a graph beyond the solver, or one
/// whose estimated memory is over `max_memory` (checked before anything is allocated).
/// `cmg dot` shares it, so both say the same when a graph is too big.
pub(super) fn solve_within(analysis: &Analysis, max_memory: u64) -> Result<Solution, String> {
    let limits = SolveLimits {
        max_nodes: None,
        max_memory: Some(max_memory),
        memory_setting: MemorySetting::CliFlag,
    };
    match analysis.solve_plan(limits) {
        SolvePlan::NoGame => Err(no_game_reason(&analysis.model.graph)),
        SolvePlan::TooLarge(too_large) => Err(too_large.message()),
        SolvePlan::Solve(game) => {
            let graph = &analysis.model.graph;
            let nodes = graph.node_count();
            let memory = peak_memory_bytes_for(nodes, game.engine());
            let spinner = long_solve_spinner(nodes, graph.edge_count(), memory);
            let solution = solve(&game);
            if let Some(spinner) = spinner {
                spinner.finish_and_clear();
            }
            Ok(solution)
        }
    }
}

/// A spinner on stderr for a solve that takes more than about a second, shown only
/// when stderr is a terminal. The work is about n · (n + 2E) steps; a release build
/// does some 2.5 · 10^7 of them a second (a 20 000-node chain, 1.2 · 10^9, takes 49 s).
fn long_solve_spinner(nodes: usize, edges: usize, memory: u64) -> Option<indicatif::ProgressBar> {
    const LONG_WORK: u64 = 25_000_000;
    let work = nodes as u64 * (nodes + 2 * edges) as u64;
    if work < LONG_WORK || !std::io::stderr().is_terminal() {
        return None;
    }
    let spinner = indicatif::ProgressBar::new_spinner().with_message(format!(
        "solving {nodes} nodes, {edges} edges (about {} of memory)",
        human_bytes(memory)
    ));
    spinner.enable_steady_tick(Duration::from_millis(120));
    Some(spinner)
}

/// The default `--max-memory`: half of the machine's memory, so that a solve leaves
/// room for everything else; 4 GiB when the machine does not say.
pub fn default_max_memory() -> u64 {
    total_memory().map_or(4 << 30, |total| total / 2)
}

fn total_memory() -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = meminfo.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}
