//! Reading files, directories and standard input for the commands.

use std::io::Read;

use super::CliError;

/// A named source text: a path, or `<stdin>` for `-`.
pub struct Source {
    pub name: String,
    /// The text without its byte order mark, so that columns do not count it.
    pub text: String,
    /// Whether the file started with a byte order mark, which `fmt` writes back.
    pub bom: bool,
}

const BOM: &str = "\u{feff}";

pub fn read_source(path: &str) -> Result<Source, CliError> {
    if path == "-" {
        return Ok(Source::new("<stdin>".to_owned(), read_stdin()?));
    }
    let bytes =
        std::fs::read(path).map_err(|error| CliError(format!("cannot read {path}: {error}")))?;
    Ok(Source::new(path.to_owned(), decode(path, bytes)?))
}

impl Source {
    fn new(name: String, text: String) -> Source {
        match text.strip_prefix(BOM) {
            Some(rest) => Source {
                name,
                text: rest.to_owned(),
                bom: true,
            },
            None => Source {
                name,
                text,
                bom: false,
            },
        }
    }

    /// `text` as the file should hold it, with its byte order mark if it had one.
    pub fn with_bom(&self, text: &str) -> String {
        if self.bom {
            format!("{BOM}{text}")
        } else {
            text.to_owned()
        }
    }
}

pub fn read_stdin() -> Result<String, CliError> {
    let mut bytes = Vec::new();
    std::io::stdin()
        .read_to_end(&mut bytes)
        .map_err(|error| CliError(format!("cannot read standard input: {error}")))?;
    decode("<stdin>", bytes)
}

fn decode(name: &str, bytes: Vec<u8>) -> Result<String, CliError> {
    String::from_utf8(bytes).map_err(|error| {
        CliError(format!(
            "{name} is not UTF-8 text (invalid byte at offset {})",
            error.utf8_error().valid_up_to()
        ))
    })
}

/// The files the arguments name, in order: a directory stands for the `*.cmg` files
/// under it (skipping what `.gitignore` and hidden-file rules skip, as ruff and taplo
/// do), sorted by path. A path that cannot be walked becomes an error in the list, so
/// that the other files still run.
pub fn expand_paths(arguments: &[String]) -> Vec<Result<String, CliError>> {
    let mut files = Vec::new();
    for argument in arguments {
        if argument == "-" || !std::path::Path::new(argument).is_dir() {
            files.push(Ok(argument.clone()));
            continue;
        }
        let mut found = Vec::new();
        for entry in ignore::WalkBuilder::new(argument)
            .require_git(false)
            .build()
        {
            match entry {
                Ok(entry) => {
                    let path = entry.path();
                    let is_file = entry.file_type().is_some_and(|kind| kind.is_file());
                    if is_file && path.extension().is_some_and(|ext| ext == "cmg") {
                        found.push(path.display().to_string());
                    }
                }
                Err(error) => files.push(Err(CliError(format!("cannot walk {argument}: {error}")))),
            }
        }
        found.sort();
        files.extend(found.into_iter().map(Ok));
    }
    files
}
