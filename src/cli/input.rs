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
/// [`max_document_bytes`]. Anything else is refused before it is opened: a FIFO would
/// block the open itself, and a device such as `/dev/zero` never ends.
fn read_regular_file(path: &str) -> Result<Vec<u8>, CliError> {
    let cannot = |error: std::io::Error| CliError(format!("cannot read {path}: {error}"));
    let metadata = std::fs::metadata(path).map_err(cannot)?;
    if !metadata.is_file() {
        return Err(not_regular(path, &metadata));
    }
    let file = std::fs::File::open(path).map_err(cannot)?;
    // The file may have been swapped since: ask the open file again.
    let metadata = file.metadata().map_err(cannot)?;
    if !metadata.is_file() {
        return Err(not_regular(path, &metadata));
    }
    read_bounded(path, file, Some(metadata.len()))
}

fn not_regular(path: &str, metadata: &std::fs::Metadata) -> CliError {
    let kind = if metadata.is_dir() {
        "a directory"
    } else {
        "not a regular file (a pipe, a socket or a device)"
    };
    CliError(format!(
        "cannot read {path}: it is {kind}; cmg reads regular files, or standard input for `-`"
    ))
}

/// Reads at most the document limit, and refuses a text above it with its size.
fn read_bounded(name: &str, reader: impl Read, size: Option<u64>) -> Result<Vec<u8>, CliError> {
    let limit = max_document_bytes();
    let too_large = || {
        CliError(format!(
            "{name} is larger than {} (the most cmg reads, as the editor's `analysis.maxDocumentBytes`)",
            super::solve::human_bytes(limit)
        ))
    };
    if size.is_some_and(|size| size > limit) {
        return Err(too_large());
    }
    let mut bytes = Vec::with_capacity(size.unwrap_or(0).min(limit) as usize);
    reader
        .take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|error| CliError(format!("cannot read {name}: {error}")))?;
    if bytes.len() as u64 > limit {
        return Err(too_large());
    }
    Ok(bytes)
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
    let bytes = read_bounded("standard input", std::io::stdin().lock(), None)?;
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
        if found.is_empty() {
            // Not an error (an empty folder is fine to check), but silence would read
            // as "all is well" about files that were never looked at.
            eprintln!(
                "cmg: no .cmg file found under {}",
                super::render::visible(argument)
            );
        }
        found.sort();
        files.extend(found.into_iter().map(Ok));
    }
    files
}
