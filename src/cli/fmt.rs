//! `cmg fmt`: rewrite files in the canonical layout, or report which are not.

use super::dot::refuse_syntax_errors;
use super::input::{expand_paths, read_source};
use super::{CliResult, Outcome};
use cmg_core::analysis::Analysis;
use cmg_ide::format;

/// Formats every file it can; a file with syntax errors is reported and left alone, an
/// unreadable or unwritable one is reported, and the others are still formatted. Each
/// of those is an error (exit 2, as in ruff), not a file that would change (exit 1).
/// Rewriting files ends with how many were rewritten and left alone.
pub fn run(paths: &[String], check: bool) -> CliResult {
    let mut outcome = Outcome::default();
    let (mut rewritten, mut unchanged) = (0usize, 0usize);
    for path in expand_paths(paths) {
        let (path, source) = match path.and_then(|path| Ok((read_source(&path)?, path))) {
            Ok((source, path)) => (path, source),
            Err(error) => {
                eprintln!("cmg: {error}");
                outcome.unreadable = true;
                continue;
            }
        };
        // Formatting stops only at syntax errors: the checks are not built.
        let analysis = Analysis::without_checks(source.text.as_str());
        if refuse_syntax_errors(&source, &analysis, "formatted") {
            outcome.unreadable = true;
            continue;
        }
        let formatted = format(&source.text, &analysis.parse);
        let changed = formatted != source.text;
        if check {
            if changed {
                outcome.failed = true;
                eprintln!("would reformat {}", super::render::visible(&source.name));
                print_diff(&source.name, &source.text, &formatted);
            }
        } else if path == "-" {
            super::output::print(&source.with_bom(&formatted));
        } else if changed {
            // Replaced whole or not at all: a full disk cannot leave half a file.
            let bytes = source.with_bom(&formatted);
            if let Err(error) =
                super::output::replace_file(std::path::Path::new(&path), bytes.as_bytes())
            {
                eprintln!("cmg: cannot write {path}: {error}");
                outcome.unreadable = true;
            } else {
                rewritten += 1;
            }
        } else if path != "-" {
            unchanged += 1;
        }
    }
    if rewritten > 0 {
        eprintln!(
            "{} reformatted, {} left unchanged",
            super::render::plural(rewritten, "file"),
            unchanged
        );
    }
    Ok(outcome.exit_code())
}

/// What `fmt` would change, as a unified diff on standard output (like `rustfmt --check`).
fn print_diff(name: &str, old: &str, new: &str) {
    let diff = similar::TextDiff::from_lines(old, new);
    let text = diff
        .unified_diff()
        .context_radius(2)
        .header(name, &format!("{name} (formatted)"))
        .to_string();
    // The diff quotes the file: its control characters must not reach the terminal.
    super::output::print(&super::render::visible(&text));
}
