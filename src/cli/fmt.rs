//! `cmg fmt`: rewrite files in the canonical layout, or report which are not.

use std::io::Write;

use super::input::read_source;
use super::{exit_code, CliError, CliResult};
use crate::ide::format;
use crate::syntax::parse;

pub fn run(paths: &[String], check: bool) -> CliResult {
    let mut unformatted = 0;
    for path in paths {
        let source = read_source(path)?;
        let formatted = format(&source.text, &parse(&source.text));
        let changed = formatted != source.text;
        if path == "-" {
            if !check {
                let _ = std::io::stdout().write_all(formatted.as_bytes());
            }
        } else if changed && !check {
            std::fs::write(path, &formatted)
                .map_err(|error| CliError(format!("cannot write {path}: {error}")))?;
        }
        if changed {
            unformatted += 1;
            if check {
                eprintln!("would reformat {}", source.name);
            }
        }
    }
    Ok(exit_code(check && unformatted > 0))
}
