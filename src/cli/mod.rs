//! The `cmg` command line: argument parsing and the shared plumbing of its commands.

/// `eprintln!` for the commands, without its panic when standard error cannot be
/// written (`2>/dev/full`): a message that cannot be shown is lost, but the command
/// still ends with its exit code instead of 101. Declared before the modules, so that
/// it replaces the standard one in all of them.
macro_rules! eprintln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

mod check;
mod convert;
mod dot;
mod exhaustive;
mod explain;
mod fmt;
mod gen;
mod input;
mod interrupt;
mod judge;
mod output;
mod picture;
mod render;
mod solve;
mod solve_explain;
mod text;
mod view;

use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand, ValueEnum};

/// Examples, exit status and where the documentation is, below every `--help`.
const AFTER_HELP: &str = "\
Examples:
  cmg check games/               check every .cmg file under a directory
  cmg solve game.cmg             who wins, in how many moves, along which line
  cmg solve --json game.cmg      the same as one JSON object
  cmg fmt --check .              show what formatting would change
  cmg explain self-loop          what a diagnostic code means and how to fix it

Exit status: 0 when all is well; 1 when a file has errors (for `solve`, also when
there is no outcome; for `fmt --check`, when a file would change); 2 on usage or
I/O errors.

Documentation: the docs/ folder of the source repository; `cmg explain CODE`
prints a diagnostic's page offline.";

/// Language tools for `.cmg` Cat and Mouse game graphs.
///
/// A `.cmg` file declares an undirected graph: the mouse starts on node 1 and moves
/// first, the cat starts on node 2, and node 0 is the hole, which the cat may not
/// enter. `cmg` reports what is wrong with a file and who wins under perfect play.
#[derive(Debug, Parser)]
#[command(name = "cmg", version, after_help = AFTER_HELP)]
pub struct Cli {
    /// When to colour the output: `auto` colours a terminal unless NO_COLOR is set
    /// (CLICOLOR_FORCE forces it).
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorWhen::Auto, global = true)]
    color: ColorWhen,
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum ColorWhen {
    Auto,
    Always,
    Never,
}

// Options of the commands that print diagnostics for people. (A plain comment: a doc
// comment would become the `about` of every command that flattens these options, in
// place of its own, as the commands' arguments are built late: `defer` below.)
#[derive(Debug, clap::Args)]
pub(crate) struct ReportOptions {
    /// Show at most N diagnostics per file, then count the rest (0 shows all).
    /// JSON output is always complete.
    #[arg(long, value_name = "N", default_value_t = render::DEFAULT_MAX_DIAGNOSTICS)]
    pub(crate) max_diagnostics: usize,
}

// `defer`: a subcommand's arguments are built only when it is the one run (or its help,
// completions or man page are made), not on every start: building all of them took
// about half of a small `cmg solve`'s instructions outside the solver.
#[derive(Debug, Subcommand)]
#[command(defer = true)]
enum Command {
    /// Report every problem in the files, compiler style; exit 1 if any is an error, or
    /// if an `expect` could not be checked.
    Check(check::Args),
    /// Solve the game: outcome, moves to the end and the optimal line.
    Solve {
        /// The file to solve; `-` reads standard input.
        file: String,
        /// Print one JSON object instead (also when there is no outcome).
        #[arg(long)]
        json: bool,
        /// Refuse, before allocating, a solve estimated to need more memory than SIZE
        /// (such as `512M` or `8G`; the default is half of the machine's memory).
        #[arg(long, value_name = "SIZE", value_parser = parse_size)]
        max_memory: Option<u64>,
        #[command(flatten)]
        report: ReportOptions,
        #[command(flatten)]
        explain: solve::ExplainOptions,
    },
    /// Rewrite files in the canonical layout, keeping every comment.
    ///
    /// Files with syntax errors are left alone and reported.
    Fmt {
        /// Files or directories (walked for `*.cmg`); `-` formats standard input to standard output.
        #[arg(required = true, value_name = "PATH")]
        files: Vec<String>,
        /// Change nothing; show what would change as a diff and exit 1 if any file is not formatted.
        #[arg(long)]
        check: bool,
    },
    /// Turn an adjacency list (JSON, or the puzzle's `graph = [[...]]`), or cmg's JSON object, into `.cmg` text.
    Import {
        /// The file to read; `-` reads standard input.
        #[arg(required_unless_present = "text", conflicts_with = "text")]
        file: Option<String>,
        /// The adjacency list itself, such as `[[1,3],[0],[3],[0,2]]`.
        #[arg(long, value_name = "JSON")]
        text: Option<String>,
    },
    /// Turn a `.cmg` file into adjacency-list JSON (node ids must be 0 to n-1).
    Export {
        /// The file to export; `-` reads standard input.
        file: String,
        /// Print cmg's JSON, `{"graph": [...], "rules": {...}}`, which carries the file's rules and one-way edges.
        #[arg(long)]
        json: bool,
    },
    /// Print the graph as Graphviz DOT, nodes coloured by who wins if the mouse starts there.
    Dot {
        /// The file to draw; `-` reads standard input.
        file: String,
    },
    /// Print the documentation of a diagnostic code, such as `self-loop`.
    Explain {
        /// The code; `cmg explain --list` names them all.
        code: Option<String>,
        /// List every code with its severity.
        #[arg(long)]
        list: bool,
    },
    /// Run the language server on standard input and output.
    Lsp {
        /// Accepted for clients that pass it; standard input and output is the only transport.
        #[arg(long)]
        stdio: bool,
    },
    /// Print a completion script for a shell.
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff) on standard output, or write every page to a directory.
    Man {
        /// Write `cmg.1` and one page per command (`cmg-check.1`, ...) into DIR instead.
        #[arg(long, value_name = "DIR")]
        dir: Option<std::path::PathBuf>,
    },
    /// Show the game view: a local page that follows the file, or an SVG picture.
    View(view::Args),
    /// Search for a graph whose optimal game from the start is as long as possible.
    Gen(gen::Args),
    /// Run a LeetCode 913 solution on graph after graph, and show the smallest one it gets wrong.
    Judge(judge::Args),
}

/// Exit code for a usage or I/O error, as clap uses for usage errors.
const EXIT_USAGE: u8 = 2;

/// Runs the command line and returns the process's exit code.
pub fn run() -> ExitCode {
    // The judge runs solutions through `cmg` itself, which confines them first.
    #[cfg(target_os = "linux")]
    {
        let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
        if args.get(1).is_some_and(|arg| arg == judge::sandbox::EXEC) {
            return ExitCode::from(judge::sandbox::exec(&args[2..]));
        }
    }
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => {
            let hint = (error.kind() == clap::error::ErrorKind::InvalidSubcommand)
                .then(|| std::env::args().nth(1))
                .flatten()
                .and_then(|typed| command_hint(&typed));
            let printed = error.print();
            if let Some(hint) = hint {
                eprintln!("\n{hint}");
            }
            if error.use_stderr() {
                return ExitCode::from(EXIT_USAGE);
            }
            // `--help` and `--version` go to standard output, which may fail as well.
            if let Err(failure) = printed {
                output::note_stdout_error(failure);
            }
            return end(Ok(ExitCode::SUCCESS));
        }
    };
    render::set_color(cli.color);
    let result = match cli.command {
        Command::Check(args) => check::run(&args),
        Command::Solve {
            file,
            json,
            max_memory,
            report,
            explain,
        } => solve::run(
            &file,
            json,
            max_memory.unwrap_or_else(solve::default_max_memory),
            report.max_diagnostics,
            &explain,
        ),
        Command::Fmt { files, check } => fmt::run(&files, check),
        Command::Import { file, text } => convert::import(file.as_deref(), text.as_deref()),
        Command::Export { file, json } => convert::export(&file, json),
        Command::Dot { file } => dot::run(&file),
        Command::Explain { code, list } => explain::run(code.as_deref(), list),
        Command::Lsp { stdio: _ } => return cmg_lsp::run(),
        Command::Completions { shell } => {
            // Made in memory: clap_complete panics when its writer fails.
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "cmg", &mut script);
            output::print_bytes(&script);
            Ok(ExitCode::SUCCESS)
        }
        Command::Man { dir: Some(dir) } => man_pages(Cli::command())
            .into_iter()
            .try_for_each(|(name, page)| {
                let path = dir.join(name);
                output::replace_file(&path, &page)
                    .map_err(|error| CliError(format!("cannot write {}: {error}", path.display())))
            })
            .map(|()| ExitCode::SUCCESS),
        Command::Man { dir: None } => {
            // A failed write is kept by `output` and reported by `end`.
            let _ = clap_mangen::Man::new(Cli::command()).render(&mut output::stdout());
            Ok(ExitCode::SUCCESS)
        }
        Command::View(args) => view::run(&args),
        Command::Gen(args) => gen::run(&args),
        Command::Judge(args) => judge::run(&args),
    };
    end(result)
}

/// How every command ends: its own error, then a failed write to standard output (a
/// full disk, `/dev/full`; not a closed pipe), are said on standard error and make the
/// exit code 2.
fn end(result: CliResult) -> ExitCode {
    let written = output::finish();
    let mut code = match result {
        Ok(code) => code,
        Err(error) => {
            eprintln!("cmg: {error}");
            ExitCode::from(EXIT_USAGE)
        }
    };
    if let Err(error) = written {
        eprintln!("cmg: {error}");
        code = ExitCode::from(EXIT_USAGE);
    }
    code
}

/// `cmg.1` and a page per command (`cmg-check.1`, ...), as `clap_mangen::generate_to`
/// names them, made in memory so that each is written whole by `output::replace_file`.
fn man_pages(command: clap::Command) -> Vec<(String, Vec<u8>)> {
    fn add(command: clap::Command, pages: &mut Vec<(String, Vec<u8>)>) {
        for sub in command.get_subcommands().filter(|sub| !sub.is_hide_set()) {
            add(sub.clone(), pages);
        }
        let man = clap_mangen::Man::new(command);
        let mut page = Vec::new();
        man.render(&mut page)
            .expect("a page rendered into memory cannot fail");
        pages.push((man.get_filename(), page));
    }
    let mut command = command.disable_help_subcommand(true);
    command.build();
    let mut pages = Vec::new();
    add(command, &mut pages);
    pages
}

/// Where to go for a command that `cmg` does not have but a newcomer looks for.
fn command_hint(typed: &str) -> Option<&'static str> {
    match typed {
        "play" | "game" => Some(
            "tip: to play against the solver, open the game view with `cmg view FILE` and pick \"play as the mouse\" or \"play as the cat\"",
        ),
        "format" => Some("tip: formatting is `cmg fmt`"),
        "lint" | "validate" => Some("tip: checking is `cmg check`"),
        _ => None,
    }
}

/// `512M`, `8G`, `1.5GB`, `1000000`: a number of bytes with an optional binary unit.
pub(crate) fn parse_size(text: &str) -> Result<u64, String> {
    let text = text.trim();
    let digits_end = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(digits_end);
    let number: f64 = number
        .parse()
        .map_err(|_| format!("{text:?} is not a size such as 512M or 8G"))?;
    let scale: u64 = match unit
        .trim()
        .to_ascii_uppercase()
        .trim_end_matches(['B', 'I'])
    {
        "" => 1,
        "K" => 1 << 10,
        "M" => 1 << 20,
        "G" => 1 << 30,
        "T" => 1 << 40,
        _ => return Err(format!("unknown unit {unit:?}: use K, M, G or T")),
    };
    Ok((number * scale as f64) as u64)
}

/// A failure that stops a command: bad usage or I/O. Problems in a file are not
/// errors of this kind; they are diagnostics.
#[derive(Debug)]
pub struct CliError(String);

impl std::fmt::Display for CliError {
    /// Shown on a terminal: a path from a walked folder is text an attacker may choose.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&render::visible(&self.0))
    }
}

type CliResult = Result<ExitCode, CliError>;

/// How a command over several files ends: I/O errors outrank problems in files, and
/// both are only decided once every file has been handled.
#[derive(Clone, Copy, Debug, Default)]
struct Outcome {
    failed: bool,
    unreadable: bool,
}

impl Outcome {
    fn exit_code(self) -> ExitCode {
        if self.unreadable {
            ExitCode::from(EXIT_USAGE)
        } else {
            exit_code(self.failed)
        }
    }
}

fn exit_code(failed: bool) -> ExitCode {
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_take_binary_units() {
        assert_eq!(parse_size("512M"), Ok(512 << 20));
        assert_eq!(parse_size("8G"), Ok(8 << 30));
        assert_eq!(parse_size("1.5GiB"), Ok(3 << 29));
        assert_eq!(parse_size("1000"), Ok(1000));
        assert!(parse_size("lots").is_err());
        assert!(parse_size("3X").is_err());
    }

    #[test]
    fn the_command_line_is_well_formed() {
        Cli::command().debug_assert();
    }
}
