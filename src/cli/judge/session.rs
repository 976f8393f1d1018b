//! A judge's run on this machine: the solution built and run as a process under watch
//! and in the sandbox (`harness.rs`, `process.rs`, `sandbox.rs`), with the budgets, the
//! signals, the progress line and `--keep` as `cmg-judge`'s host.

use std::io::IsTerminal;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use cmg_judge::{Finding, Lists, Phase};

use super::super::interrupt::Interrupts;
use super::super::{CliError, CliResult};
use super::harness::{Runner, Setup};
use super::lang::{check_shape, Lang};
use super::sandbox::Sandbox;
use super::{process, report, Args};

pub fn judge(args: &Args, interrupts: &Arc<Interrupts>) -> CliResult {
    let lang = match args.lang.or_else(|| Lang::of_path(&args.solution)) {
        Some(lang) => lang,
        None => {
            return Err(CliError(format!(
            "cannot tell the language of {} from its extension: pass --lang py|js|cpp|java|rust|go|c",
            args.solution
        )))
        }
    };
    let seconds = |name: &str, value: f64, zero_ok: bool| {
        cmg_judge::budget_seconds(name, value, zero_ok)
            .map(Duration::from_secs_f64)
            .map_err(CliError)
    };
    let search_time = seconds("--seconds", args.seconds, false)?;
    let after_time = match args.shrink_seconds {
        Some(value) => seconds("--shrink-seconds", value, true)?,
        None => Duration::from_secs_f64(cmg_judge::default_shrink_seconds(args.seconds)),
    };
    if args.graphs == Some(0) {
        return Err(CliError(
            "--graphs must be at least 1: with no graph there is nothing to judge".into(),
        ));
    }
    let source = super::super::input::read_source(&args.solution)?;
    check_shape(lang, &source.text)?;
    let mut keep = Keep::new(args.keep.as_deref())?;
    process::become_subreaper();
    let stop = {
        let interrupts = Arc::clone(interrupts);
        Box::new(move || interrupts.received().is_some())
    };
    let setup = Setup {
        sandbox: Sandbox::probe(!args.no_sandbox),
        build_seconds: args.seconds.clamp(30.0, 120.0) as u64,
        stop,
    };
    let mut progress = Progress::new();
    progress.show(&format!("building the {} solution", lang.name()));
    let built = Runner::build(lang, &source.text, setup);
    progress.clear();
    if let Some(signal) = interrupts.received() {
        return Ok(ExitCode::from(signal.exit_code()));
    }
    let mut runner = built?;
    let sandbox = runner.sandbox();
    let started = Instant::now();
    let first = keep.earlier();
    let mut budget = Budget {
        search_deadline: started + search_time,
        after_time,
        after_deadline: None,
        graphs: args.graphs,
        interrupts,
        progress,
        keep: &mut keep,
    };
    let outcome = cmg_judge::judge(&mut runner, &mut budget, args.seed, first);
    budget.progress.clear();
    // Every process of the solution ends, and its folder goes, before the report.
    drop(runner);
    let signal = interrupts.received();
    let report = report::Report {
        outcome: &outcome,
        seconds: started.elapsed().as_secs_f64(),
        sandbox,
        no_sandbox: args.no_sandbox,
        interrupted: signal,
    };
    if args.json {
        report::print_json(&report, lang);
    } else {
        report::print_text(&report, lang);
    }
    Ok(match (signal, &outcome.finding) {
        (Some(signal), _) => ExitCode::from(signal.exit_code()),
        (None, Some(_)) => ExitCode::FAILURE,
        (None, None) => ExitCode::SUCCESS,
    })
}

impl cmg_judge::Solution for Runner {
    fn answer(&mut self, graph: &[Vec<u32>]) -> cmg_judge::Answer {
        Runner::answer(self, graph)
    }

    fn answers(&mut self, graphs: &[Lists]) -> Vec<cmg_judge::Answer> {
        Runner::answers(self, graphs)
    }

    fn restart(&mut self) {
        self.kill();
    }
}

/// The budgets of a run, the signals that end it, its progress line and `--keep`.
struct Budget<'a> {
    search_deadline: Instant,
    /// What follows a failure gets this long from the failure on.
    after_time: Duration,
    after_deadline: Option<Instant>,
    graphs: Option<u64>,
    interrupts: &'a Interrupts,
    progress: Progress,
    keep: &'a mut Keep,
}

impl cmg_judge::Host for Budget<'_> {
    fn go_on(&mut self, phase: Phase) -> bool {
        if self.stopped() {
            return false;
        }
        match phase {
            Phase::Search { tried } => {
                let left = self
                    .search_deadline
                    .saturating_duration_since(Instant::now());
                self.progress.set_left(left);
                !left.is_zero() && self.graphs.is_none_or(|most| tried < most)
            }
            Phase::After => {
                let deadline = *self
                    .after_deadline
                    .get_or_insert_with(|| Instant::now() + self.after_time);
                let left = deadline.saturating_duration_since(Instant::now());
                self.progress.set_left(left);
                !left.is_zero()
            }
        }
    }

    fn stopped(&self) -> bool {
        self.interrupts.received().is_some()
    }

    fn graph_limit(&self) -> Option<u64> {
        self.graphs
    }

    fn progress(&mut self, text: &str) {
        self.progress.show(text);
    }

    fn failed(&mut self, finding: &Finding) {
        self.keep.write(finding);
    }
}

/// `--keep DIR`: every failing graph, as a `.cmg` file, numbered after the files
/// already there, so that no earlier run's graph is overwritten.
struct Keep {
    dir: Option<std::path::PathBuf>,
    written: usize,
}

impl Keep {
    fn new(dir: Option<&str>) -> Result<Keep, CliError> {
        let mut written = 0;
        if let Some(dir) = dir {
            std::fs::create_dir_all(dir)
                .map_err(|error| CliError(format!("cannot create {dir}: {error}")))?;
            let entries = std::fs::read_dir(dir)
                .map_err(|error| CliError(format!("cannot read {dir}: {error}")))?;
            written = entries
                .flatten()
                .filter_map(|entry| keep_number(&entry.file_name().to_string_lossy()))
                .max()
                .unwrap_or(0);
        }
        Ok(Keep {
            dir: dir.map(Into::into),
            written,
        })
    }

    /// The graphs kept in the folder by earlier runs, to try first, as proptest's
    /// regression files are.
    fn earlier(&self) -> Vec<Lists> {
        let Some(dir) = &self.dir else {
            return Vec::new();
        };
        let Ok(entries) = std::fs::read_dir(dir) else {
            return Vec::new();
        };
        let mut files: Vec<(usize, std::path::PathBuf)> = entries
            .flatten()
            .filter_map(|entry| {
                let number = keep_number(&entry.file_name().to_string_lossy())?;
                Some((number, entry.path()))
            })
            .collect();
        files.sort();
        files
            .into_iter()
            .filter_map(|(_, path)| {
                let text = std::fs::read_to_string(path).ok()?;
                let analysis = cmg_core::analysis::Analysis::new(text.as_str());
                let lists = analysis.model.graph.adjacency_lists();
                cmg_judge::graphs::meets_constraints(&lists).then_some(lists)
            })
            .collect()
    }

    fn write(&mut self, finding: &Finding) {
        let Some(dir) = &self.dir else { return };
        self.written += 1;
        let path = dir.join(format!(
            "failing-{:03}-{}-nodes.cmg",
            self.written,
            finding.graph.len()
        ));
        if let Err(error) =
            super::super::output::replace_file(&path, report::cmg_text(finding).as_bytes())
        {
            eprintln!("cmg: cannot write {}: {error}", path.display());
        }
    }
}

/// The number of a kept file's name, `failing-NNN-...`.
fn keep_number(name: &str) -> Option<usize> {
    let rest = name.strip_prefix("failing-")?;
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

/// The progress line on standard error, on a terminal only: the phase, the graphs tried,
/// the size and the time left, at most ten times a second.
struct Progress {
    on: bool,
    last: Option<Instant>,
    shown: bool,
    left: Duration,
}

impl Progress {
    fn new() -> Progress {
        Progress {
            on: std::io::stderr().is_terminal(),
            last: None,
            shown: false,
            left: Duration::ZERO,
        }
    }

    fn set_left(&mut self, left: Duration) {
        self.left = left;
    }

    fn show(&mut self, text: &str) {
        if !self.on
            || self
                .last
                .is_some_and(|last| last.elapsed() < Duration::from_millis(100))
        {
            return;
        }
        self.last = Some(Instant::now());
        self.shown = true;
        eprint!("\r\x1b[2Kcmg judge: {text}; {} s left", self.left.as_secs());
    }

    fn clear(&mut self) {
        if self.shown {
            eprint!("\r\x1b[2K");
            self.shown = false;
        }
    }
}
