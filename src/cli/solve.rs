//! `cmg solve`: the outcome, moves to the end and the optimal line.

use std::io::Write;

use serde_json::json;

use super::input::read_source;
use super::render::{self, SourceView};
use super::{exit_code, CliResult};
use crate::analysis::{describe, start_position, Analysis, SolveLimits, SolvePlan};
use crate::model::Severity;
use crate::solve::{solve, Player};

pub fn run(path: &str, json: bool) -> CliResult {
    let source = read_source(path)?;
    let analysis = Analysis::new(&source.text);
    // Solved once, for the outcome and for checking `expect`.
    let plan = analysis.solve_plan(SolveLimits::default());
    let solution = match &plan {
        SolvePlan::Solve(game) => Some(solve(game)),
        SolvePlan::NoGame | SolvePlan::TooLarge(_) => None,
    };
    let diagnostics: Vec<_> = analysis
        .diagnostics(solution.as_ref())
        .into_iter()
        .filter(|d| d.severity() <= Severity::Warning)
        .collect();
    let has_errors = crate::model::has_errors(&diagnostics);
    render::emit(
        &mut render::stream(true),
        &SourceView::new(&source, &analysis),
        &diagnostics,
    );

    let graph = &analysis.model.graph;
    let (Some(solution), Some(start)) = (solution, start_position(graph)) else {
        if let SolvePlan::TooLarge(too_large) = plan {
            eprintln!("cmg: {}: no outcome: {}", source.name, too_large.message());
        } else {
            eprintln!(
                "cmg: {}: no outcome: the graph needs node 1 (the mouse) and node 2 (the cat)",
                source.name
            );
        }
        return Ok(exit_code(true));
    };
    let outcome = solution.outcome(start);
    let moves = solution.moves_to_end(start);
    let line = solution.line(start);
    let mut out = std::io::stdout().lock();
    if json {
        let line_json: Vec<[u32; 2]> = line
            .iter()
            .map(|p| [graph.id(p.mouse), graph.id(p.cat)])
            .collect();
        let value = json!({
            "outcome": crate::analysis::outcome_keyword(outcome),
            "result": outcome.code(),
            "moves": moves,
            "nodes": graph.node_count(),
            "edges": graph.edge_count(),
            "line": line_json,
        });
        let _ = writeln!(out, "{value}");
    } else {
        let _ = writeln!(
            out,
            "{} (result {}); {}, {}",
            describe(outcome, moves),
            outcome.code(),
            render::plural(graph.node_count(), "node"),
            render::plural(graph.edge_count(), "edge")
        );
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
        } else if line.len() > 1 && line[..line.len() - 1].contains(&last) {
            "the position repeats: draw".to_owned()
        } else {
            "the player to move has no legal move: draw".to_owned()
        };
        let _ = writeln!(out, "      {ending}");
    }
    Ok(exit_code(has_errors))
}
