//! Reading files, directories and standard input for the commands.

use std::path::Path;

use cmg_lsp::files::{self, ReadError};

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
    let bytes = read_regular_file(path)?;
    Ok(Source::new(path.to_owned(), decode(path, bytes)?))
}

/// The most a command reads from one file or standard input: the server's
/// `analysis.maxDocumentBytes` default, so that what the editor would analyse, the
/// command line reads, and `/dev/zero` or a runaway pipe cannot fill the memory.
pub fn max_document_bytes() -> u64 {
    cmg_lsp::Config::default().max_document_bytes as u64
}

/// Reads a regular file (a symbolic link is followed) of at most
/// [`max_document_bytes`]; see [`files::read_regular_file`].
fn read_regular_file(path: &str) -> Result<Vec<u8>, CliError> {
    files::read_regular_file(Path::new(path), max_document_bytes())
        .map_err(|error| read_error(path, error))
}

fn read_error(name: &str, error: ReadError) -> CliError {
    let kind = match error {
        ReadError::Io(error) => return CliError(format!("cannot read {name}: {error}")),
        ReadError::TooLarge { .. } => {
            return CliError(format!(
                "{name} is larger than {} (the most cmg reads, as the editor's `analysis.maxDocumentBytes`)",
                super::text::human_bytes(max_document_bytes())
            ))
        }
        ReadError::Directory => "a directory",
        ReadError::NotRegular => "not a regular file (a pipe, a socket or a device)",
    };
    CliError(format!(
        "cannot read {name}: it is {kind}; cmg reads regular files, or standard input for `-`"
    ))
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
    let bytes = files::read_bounded(std::io::stdin().lock(), None, max_document_bytes())
        .map_err(|error| read_error("standard input", error))?;
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
/// under it, as [`files::cmg_files`] finds them. A path that cannot be walked becomes
/// an error in the list, so that the other files still run.
pub fn expand_paths(arguments: &[String]) -> Vec<Result<String, CliError>> {
    let mut found = Vec::new();
    for argument in arguments {
        if argument == "-" || !Path::new(argument).is_dir() {
            found.push(Ok(argument.clone()));
            continue;
        }
        let walk = files::cmg_files(Path::new(argument));
        found.extend(
            walk.errors
                .into_iter()
                .map(|error| Err(CliError(format!("cannot walk {argument}: {error}")))),
        );
        if walk.files.is_empty() {
            // Not an error (an empty folder is fine to check), but silence would read
            // as "all is well" about files that were never looked at.
            eprintln!(
                "cmg: no .cmg file found under {}",
                super::text::visible(argument)
            );
        }
        found.extend(walk.files.iter().map(|path| Ok(path.display().to_string())));
    }
    found
}
