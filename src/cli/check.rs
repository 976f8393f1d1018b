//! `cmg check`: every diagnostic of every file, for people or as JSON.

use std::io::Write;

use super::input::{expand_paths, read_source};
use super::render::{self, SourceView};
use super::{CliResult, Outcome};
use cmg_core::analysis::{Analysis, MemorySetting, SolveLimits, SolvePlan};
use cmg_core::model::{Diagnostic, Severity};
use cmg_solve::solve;

/// Checks every file it can read; an unreadable one is reported and the others still
/// run, and only then does the exit code say 2.
pub fn run(
    paths: &[String],
    json: bool,
    quiet: bool,
    max_diagnostics: usize,
    no_limits: bool,
) -> CliResult {
    let mut outcome = Outcome::default();
    // The JSON array is written as it goes, one diagnostic at a time, so that memory
    // stays that of one file's diagnostics however many there are.
    let mut json = json.then(|| render::JsonArray::new(super::output::stdout()));
    let mut out = render::stdout();
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
        let diagnostics = all_diagnostics(&analysis, no_limits);
        outcome.failed |= cmg_core::model::has_errors(&diagnostics);
        let view = SourceView::new(&source, &analysis);
        if let Some(array) = &mut json {
            for diagnostic in &diagnostics {
                array.push(&render::to_json(&view, diagnostic));
            }
        } else if !diagnostics.is_empty() {
            render::emit(&mut out, false, &view, &diagnostics, max_diagnostics);
            if per_file_summary {
                let _ = writeln!(
                    out,
                    "{}: {}",
                    render::visible(&source.name),
                    render::counts(diagnostics.iter().map(Diagnostic::severity))
                );
            }
        }
        severities.extend(diagnostics.iter().map(Diagnostic::severity));
    }
    if let Some(array) = json {
        array.finish();
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

/// Every diagnostic of the file. The game is solved only when an `expect` needs checking,
/// under the server's default live-solve limit and memory budget (a file that the editor
/// would not solve while typing does not take minutes and gigabytes here either) unless
/// `no_limits`, and then under the memory budget of `cmg solve`. If it is not solved,
/// `too-large` says why and how to lift the limit.
fn all_diagnostics(analysis: &Analysis, no_limits: bool) -> Vec<Diagnostic> {
    if analysis.model.expects.is_empty() {
        return analysis.diagnostics(None);
    }
    let server = cmg_lsp::Config::default();
    let limits = if no_limits {
        SolveLimits {
            max_nodes: None,
            max_memory: Some(super::solve::default_max_memory()),
            memory_setting: MemorySetting::CliFlag,
        }
    } else {
        SolveLimits {
            max_nodes: Some(server.max_nodes),
            max_memory: Some(server.max_solver_memory_mib << 20),
            memory_setting: MemorySetting::CheckDefaults,
        }
    };
    match analysis.solve_plan(limits) {
        SolvePlan::Solve(game) => analysis.diagnostics(Some(&solve(&game))),
        SolvePlan::TooLarge(too_large) => analysis.diagnostics_with(None, Some(&too_large)),
        SolvePlan::NoGame => analysis.diagnostics(None),
    }
}
