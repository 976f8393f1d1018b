//! `cmg check`: every diagnostic of every file, for people or as JSON.

use std::io::Write;

use super::input::{expand_paths, read_source};
use super::render::{self, SourceView};
use super::{CliResult, Outcome};
use crate::analysis::{Analysis, SolveLimits, SolvePlan};
use crate::model::{Diagnostic, Severity};
use crate::solve::solve;

/// Checks every file it can read; an unreadable one is reported and the others still
/// run, and only then does the exit code say 2.
pub fn run(paths: &[String], json: bool, quiet: bool, max_diagnostics: usize) -> CliResult {
    let mut outcome = Outcome::default();
    let mut json_diagnostics = Vec::new();
    let mut out = render::stream(false);
    let mut checked = 0usize;
    let mut severities: Vec<Severity> = Vec::new();
    let paths = expand_paths(paths);
    // One file needs no line of its own besides the closing one.
    let per_file_summary = !quiet && paths.len() > 1;
    for path in paths {
        let source = match path.and_then(|path| read_source(&path)) {
            Ok(source) => source,
            Err(error) => {
                eprintln!("cmg: {error}");
                outcome.unreadable = true;
                continue;
            }
        };
        checked += 1;
        let analysis = Analysis::new(source.text.as_str());
        let diagnostics = all_diagnostics(&analysis);
        outcome.failed |= crate::model::has_errors(&diagnostics);
        let view = SourceView::new(&source, &analysis);
        if json {
            json_diagnostics.extend(diagnostics.iter().map(|d| render::to_json(&view, d)));
        } else if !diagnostics.is_empty() {
            render::emit(&mut out, false, &view, &diagnostics, max_diagnostics);
            if per_file_summary {
                let _ = writeln!(
                    out,
                    "{}: {}",
                    source.name,
                    render::counts(diagnostics.iter().map(Diagnostic::severity))
                );
            }
        }
        severities.extend(diagnostics.iter().map(Diagnostic::severity));
    }
    if json {
        let _ = writeln!(out, "{}", serde_json::Value::Array(json_diagnostics));
    } else if !quiet && checked > 0 {
        let problems = render::counts(severities);
        let _ = writeln!(
            out,
            "{} checked, {problems}",
            render::plural(checked, "file")
        );
    }
    Ok(outcome.exit_code())
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
