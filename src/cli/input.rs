//! Reading files and standard input for the commands.

use std::io::Read;

use super::CliError;

/// A named source text: a path, or `<stdin>` for `-`.
pub struct Source {
    pub name: String,
    pub text: String,
}

pub fn read_source(path: &str) -> Result<Source, CliError> {
    if path == "-" {
        return Ok(Source {
            name: "<stdin>".to_owned(),
            text: read_stdin()?,
        });
    }
    let bytes =
        std::fs::read(path).map_err(|error| CliError(format!("cannot read {path}: {error}")))?;
    let text = decode(path, bytes)?;
    Ok(Source {
        name: path.to_owned(),
        text,
    })
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
