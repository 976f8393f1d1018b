//! `cmg check`: every diagnostic of every file, for people or as JSON.

use std::io::Write;

use super::input::read_source;
use super::render::{self, SourceView};
use super::{exit_code, CliResult};
use crate::analysis::{Analysis, SolveLimits, SolvePlan};
use crate::model::Diagnostic;
use crate::solve::solve;

pub fn run(paths: &[String], json: bool) -> CliResult {
    let mut failed = false;
    let mut json_diagnostics = Vec::new();
    let mut out = render::stream(false);
    for path in paths {
        let source = read_source(path)?;
        let analysis = Analysis::new(&source.text);
        let diagnostics = all_diagnostics(&analysis);
        failed |= crate::model::has_errors(&diagnostics);
        let view = SourceView::new(&source, &analysis);
        if json {
            json_diagnostics.extend(diagnostics.iter().map(|d| render::to_json(&view, d)));
        } else {
            render::emit(&mut out, &view, &diagnostics);
            if !diagnostics.is_empty() {
                let _ = writeln!(out, "{}: {}", source.name, render::summary(&diagnostics));
            }
        }
    }
    if json {
        let _ = writeln!(out, "{}", serde_json::Value::Array(json_diagnostics));
    }
    Ok(exit_code(failed))
}

/// Every diagnostic of the file. The game is solved only when an `expect` needs checking;
/// if it cannot be, `too-large` says why.
fn all_diagnostics(analysis: &Analysis) -> Vec<Diagnostic> {
    if analysis.model.expects.is_empty() {
        return analysis.diagnostics(None);
    }
    match analysis.solve_plan(SolveLimits::default()) {
        SolvePlan::Solve(game) => analysis.diagnostics(Some(&solve(&game))),
        SolvePlan::TooLarge(too_large) => analysis.diagnostics_with(None, Some(&too_large)),
        SolvePlan::NoGame => analysis.diagnostics(None),
    }
}
