//! `cmg judge SOLUTION`: runs a pasted LeetCode 913 solution on graph after graph and
//! reports the first one it gets wrong, verified from a fresh start and shrunk, with the
//! right answer, the optimal line and a cause checked on every graph it ran.
//!
//! The logic (the graphs, their order, shrinking, the sequence of earlier graphs a
//! stateful solution needs, the causes) is the `cmg-judge` crate's. Here: the languages
//! and the shape each solution must have (`lang.rs`), the process harness (`harness.rs`,
//! its per-language sources in `harness/sources.rs`), the watch over its processes
//! (`process.rs`), the sandbox (`sandbox.rs`), the run with the budgets, signals,
//! progress line and `--keep` as the judge's host (`session.rs`), and the report
//! (`report.rs`).
//!
//! Every step is bounded: the build (`harness.rs`), each graph, the search
//! (`--seconds`, `--graphs`) and what follows a failure (`--shrink-seconds`). SIGINT,
//! SIGTERM and SIGHUP end the run with the report so far, every process of the solution
//! gone and its folder removed.

// Running code under watch and in a sandbox uses Linux's process controls (process
// groups, the subreaper, `/proc`, cgroups) and Landlock; elsewhere the judge says so.
#[cfg(target_os = "linux")]
mod harness;
mod lang;
#[cfg(target_os = "linux")]
mod process;
#[cfg(target_os = "linux")]
mod report;
#[cfg(target_os = "linux")]
pub mod sandbox;
#[cfg(target_os = "linux")]
mod session;

use std::sync::Arc;

use super::interrupt::Interrupts;
use super::CliResult;
use lang::Lang;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The solution, as pasted on LeetCode: a `.py`, `.js`, `.cpp`, `.java`, `.rs`, `.go`
    /// or `.c` file.
    solution: String,
    /// The language, when the file's extension does not say it.
    #[arg(long, value_enum)]
    lang: Option<Lang>,
    /// How long to look for a counterexample, shrinking aside.
    #[arg(long, value_name = "S", default_value_t = 60.0)]
    seconds: f64,
    /// How long shrinking a counterexample may take [default: half of --seconds, at
    /// least 5].
    #[arg(long, value_name = "S")]
    shrink_seconds: Option<f64>,
    /// Stop after N graphs, even with time left: a run of the same seed and N tries the
    /// same graphs on any machine.
    #[arg(long, value_name = "N")]
    graphs: Option<u64>,
    /// The seed of the random graphs and the generator's searches.
    #[arg(long, value_name = "K", default_value_t = 1)]
    seed: u64,
    /// One JSON object instead of the report.
    #[arg(long)]
    json: bool,
    /// Write every graph the solution failed on into DIR, as `.cmg` files, numbered
    /// after those already there.
    #[arg(long, value_name = "DIR")]
    keep: Option<String>,
    /// Run the solution without the sandbox (Landlock on Linux), for a toolchain that
    /// needs more than it allows.
    #[arg(long)]
    no_sandbox: bool,
}

pub fn run(args: &Args) -> CliResult {
    let interrupts = Arc::new(Interrupts::install());
    match judge(args, &interrupts) {
        Err(error) if args.json => {
            // The error is said on standard error too, by the caller.
            super::output::print(&format!(
                "{}\n",
                serde_json::json!({ "error": error.to_string() })
            ));
            Err(error)
        }
        result => result,
    }
}

#[cfg(target_os = "linux")]
fn judge(args: &Args, interrupts: &Arc<Interrupts>) -> CliResult {
    session::judge(args, interrupts)
}

#[cfg(not(target_os = "linux"))]
fn judge(args: &Args, _interrupts: &Arc<Interrupts>) -> CliResult {
    let _ = (&args.solution, lang::check_shape);
    Err(super::CliError(
        "cmg judge runs solutions on Linux only: its watch over their processes and its sandbox use Linux's process controls and Landlock".to_owned(),
    ))
}
