//! `cmg check`: every diagnostic of every file, for people or as JSON.

use std::io::Write;

use super::input::{expand_paths, read_source};
use super::render::{self, SourceView};
use super::{CliResult, Outcome};
use cmg_core::analysis::{Analysis, MemorySetting, SolveLimits, SolvePlan};
use cmg_core::model::TooLarge;
use cmg_core::model::{Diagnostic, Severity};
use cmg_solve::solve;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Files or directories (walked for `*.cmg`, honouring `.gitignore`); `-` reads standard input.
    #[arg(required = true, value_name = "PATH")]
    files: Vec<String>,
    /// Print one JSON array of every diagnostic of every file instead.
    #[arg(long)]
    json: bool,
    /// Print the diagnostics only: no summary lines.
    #[arg(long, short)]
    quiet: bool,
    /// Refuse, before allocating, to solve a game estimated to need more memory than
    /// SIZE to check its `expect` (such as `512M` or `8G`; the default is half of the
    /// machine's memory, as for `cmg solve`). An `expect` left unchecked fails the run.
    #[arg(long, value_name = "SIZE", value_parser = super::parse_size)]
    max_memory: Option<u64>,
    /// Accepted for scripts written when `check` solved under the editor's limits; the
    /// command line now always solves under the memory budget alone.
    #[arg(long, hide = true)]
    no_limits: bool,
    #[command(flatten)]
    report: super::ReportOptions,
}

/// Checks every file it can read; an unreadable one is reported and the others still
/// run, and only then does the exit code say 2. A file whose `expect` could not be
/// checked fails the run, as an error does.
pub fn run(args: &Args) -> CliResult {
    let max_memory = args
        .max_memory
        .unwrap_or_else(super::solve::default_max_memory);
    let (json, quiet, max_diagnostics) = (args.json, args.quiet, args.report.max_diagnostics);
    let mut outcome = Outcome::default();
    // The JSON array is written as it goes, one diagnostic at a time, so that memory
    // stays that of one file's diagnostics however many there are.
    let mut json = json.then(|| render::JsonArray::new(super::output::stdout()));
    let mut out = render::stdout();
    let mut checked = 0usize;
    let mut unchecked_files = 0usize;
    let mut severities: Vec<Severity> = Vec::new();
    let paths = expand_paths(&args.files);
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
        let (diagnostics, unchecked) = all_diagnostics(&analysis, max_memory);
        outcome.failed |= cmg_core::model::has_errors(&diagnostics) || unchecked.is_some();
        if let Some(too_large) = unchecked {
            unchecked_files += 1;
            eprintln!(
                "cmg: {}: its `expect` is not checked: {}",
                render::visible(&source.name),
                too_large.message()
            );
        }
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
        let unchecked = if unchecked_files > 0 {
            format!(
                ", {} with an `expect` not checked",
                render::plural(unchecked_files, "file")
            )
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            "{} checked, {problems}{unchecked}",
            render::plural(checked, "file")
        );
    }
    Ok(outcome.exit_code())
}

/// Every diagnostic of the file, and why its `expect` is not checked if it is not. The
/// game is solved only when an `expect` needs checking, under `cmg solve`'s memory
/// budget (on the command line the limit is what the solve costs, not the editor's
/// live-solve node count); what does not fit gets `too-large`, which says how to lift
/// the budget. A file with syntax errors is not solved: its `expect`s are not checked
/// (`expect-unchecked`).
fn all_diagnostics(analysis: &Analysis, max_memory: u64) -> (Vec<Diagnostic>, Option<TooLarge>) {
    if analysis.model.expects.is_empty() || !analysis.checks_expects() {
        return (analysis.diagnostics(None), None);
    }
    let limits = SolveLimits {
        max_nodes: None,
        max_memory: Some(max_memory),
        memory_setting: MemorySetting::CheckBudget,
    };
    match analysis.solve_plan(limits) {
        SolvePlan::Solve(game) => (analysis.diagnostics(Some(&solve(&game))), None),
        SolvePlan::TooLarge(too_large) => (
            analysis.diagnostics_with(None, Some(&too_large)),
            Some(too_large),
        ),
        SolvePlan::NoGame => (analysis.diagnostics(None), None),
    }
}
