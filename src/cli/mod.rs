//! The `cmg` command line: argument parsing and the shared plumbing of its commands.

mod check;
mod convert;
mod dot;
mod fmt;
mod input;
mod render;
mod solve;
mod view;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Language tools for `.cmg` Cat and Mouse game graphs.
#[derive(Debug, Parser)]
#[command(name = "cmg", version, about, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Report every problem in the files, compiler style; exit 1 if any is an error.
    Check {
        /// Files to check; `-` reads standard input.
        #[arg(required = true)]
        files: Vec<String>,
        /// Print one JSON array of diagnostics instead.
        #[arg(long)]
        json: bool,
    },
    /// Solve the game: outcome, moves to the end and the optimal line.
    Solve {
        /// The file to solve; `-` reads standard input.
        file: String,
        /// Print one JSON object instead.
        #[arg(long)]
        json: bool,
    },
    /// Rewrite files in the canonical layout, keeping every comment.
    Fmt {
        /// Files to format; `-` formats standard input to standard output.
        #[arg(required = true)]
        files: Vec<String>,
        /// Change nothing; exit 1 if any file is not formatted.
        #[arg(long)]
        check: bool,
    },
    /// Turn adjacency-list JSON (the argument, or standard input) into `.cmg` text.
    Import {
        /// The JSON, such as `[[1,3],[0],[3],[0,2]]`; read from standard input when absent.
        json: Option<String>,
    },
    /// Turn a `.cmg` file into adjacency-list JSON (node ids must be 0 to n-1).
    Export {
        /// The file to export; `-` reads standard input.
        file: String,
    },
    /// Print the graph as Graphviz DOT, nodes coloured by who wins if the mouse starts there.
    Dot {
        /// The file to draw; `-` reads standard input.
        file: String,
    },
    /// Run the language server on standard input and output.
    Lsp,
    /// Show the game view: a local page that follows the file, or an SVG picture.
    View(view::Args),
}

/// Exit code for a usage or I/O error, as clap uses for usage errors.
const EXIT_USAGE: u8 = 2;

/// Runs the command line and returns the process's exit code.
pub fn run() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Check { files, json } => check::run(&files, json),
        Command::Solve { file, json } => solve::run(&file, json),
        Command::Fmt { files, check } => fmt::run(&files, check),
        Command::Import { json } => convert::import(json.as_deref()),
        Command::Export { file } => convert::export(&file),
        Command::Dot { file } => dot::run(&file),
        Command::Lsp => return crate::lsp::run(),
        Command::View(args) => view::run(&args),
    };
    match result {
        Ok(code) => code,
        Err(error) => {
            eprintln!("cmg: {error}");
            ExitCode::from(EXIT_USAGE)
        }
    }
}

/// A failure that stops a command: bad usage or I/O. Problems in a file are not
/// errors of this kind; they are diagnostics.
#[derive(Debug)]
pub struct CliError(String);

impl std::fmt::Display for CliError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

type CliResult = Result<ExitCode, CliError>;

fn exit_code(failed: bool) -> ExitCode {
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
