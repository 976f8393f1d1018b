//! Running a pasted LeetCode solution: a harness per language around the user's code,
//! built with the toolchain on `PATH`, run as one process that answers graph after graph.
//!
//! The answers travel on a channel of their own, where the solution's prints cannot
//! reach them: the harness reads graphs from descriptor 3 and writes answers to
//! descriptor 4, and the solution's standard input is empty. What it prints on
//! standard output or error, with or without a newline, is drained and counted (up to
//! a bound) and never read as an answer. The protocol is plain numbers, so that no
//! harness needs a JSON library: one line per graph, `n`, then for each node its
//! neighbour count and neighbours; one line per answer.
//!
//! The build and every run are watched by `process.rs` (time, memory, files,
//! processes) and confined by `sandbox.rs` where the system allows. A graph gets
//! `TIME_LIMIT` of CPU time to be answered, and `WALL_LIMIT` in all for a solution that
//! waits rather than computes; then the process tree is killed, and the next graph
//! starts a new one.

use std::io::Write;
use std::path::PathBuf;
use std::process::Command;
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

use super::super::CliError;
use super::lang::Lang;
use super::process::{Event, Limits, Watched, MAX_LINE, SAMPLE};
use super::sandbox::Sandbox;
use sources::*;

mod sources;
pub use cmg_judge::Answer;

/// The CPU time one graph may take.
pub const TIME_LIMIT: Duration = Duration::from_secs(3);
/// The time one graph may take in all, for a solution that waits instead of computing.
const WALL_LIMIT: Duration = Duration::from_secs(10);
/// More for the first graph of a process: a JVM or a Python interpreter starting up.
const FIRST_GRAPH_GRACE: Duration = Duration::from_secs(5);
/// The memory of a solution's processes (and its address space, where the runtime lets
/// it be bounded).
pub const MEMORY_LIMIT: u64 = 1 << 30;
/// The memory of a build's processes.
const BUILD_MEMORY: u64 = 2 << 30;
/// What a solution may print besides its answers, per graph.
const MAX_OTHER_OUTPUT: usize = 1 << 20;
/// Files a solution writes, in its folder.
const MAX_FILE: u64 = 64 << 20;
/// The most written to a solution at once: less than a pipe holds.
const MAX_WRITE: usize = 32 * 1024;

/// The CPU seconds one process of a solution may use in all: a backstop should `cmg`
/// itself be killed.
const CPU_LIMIT_SECONDS: u64 = 600;

/// How a run is set up: the sandbox, how long the build may take, and what says stop.
pub struct Setup {
    pub sandbox: Sandbox,
    pub build_seconds: u64,
    pub stop: Box<dyn Fn() -> bool>,
}

/// A built solution, and the process that answers (started on demand).
pub struct Runner {
    dir: PathBuf,
    lang: Lang,
    program: Vec<String>,
    setup: Setup,
    process: Option<Watched>,
}

/// How long the judge waits for an answer between two looks at the process.
const TICK: Duration = Duration::from_millis(20);

/// What happened while waiting for an answer.
enum Waited {
    Answer(Answer),
    Ended,
}

impl Runner {
    /// Writes the harness around `source` in a new folder and builds it.
    pub fn build(lang: Lang, source: &str, setup: Setup) -> Result<Runner, CliError> {
        let dir = std::env::temp_dir().join(format!(
            "cmg-judge-{}-{}",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos())
        ));
        // Its temporary files in a folder of their own: Go will not build a module at
        // the root of the temporary directory.
        std::fs::create_dir_all(dir.join("tmp")).map_err(|error| {
            CliError(format!("cannot create a folder for the solution: {error}"))
        })?;
        let mut runner = Runner {
            dir,
            lang,
            program: Vec::new(),
            setup,
            process: None,
        };
        runner.program = runner.write_and_build(source)?;
        Ok(runner)
    }

    pub fn sandbox(&self) -> Sandbox {
        self.setup.sandbox
    }

    fn write_and_build(&self, source: &str) -> Result<Vec<String>, CliError> {
        let dir = &self.dir;
        let path = |name: &str| dir.join(name).to_string_lossy().into_owned();
        let (file, text) = match self.lang {
            Lang::Py => ("solution.py", format!("{PY_PRELUDE}\n{source}\n{PY_MAIN}")),
            Lang::Js => ("solution.js", format!("{JS_PRELUDE}\n{source}\n{JS_MAIN}")),
            Lang::Cpp => (
                "solution.cpp",
                format!("{CPP_PRELUDE}\n{source}\n{CPP_MAIN}"),
            ),
            Lang::Java => (
                "Main.java",
                format!(
                    "{JAVA_PRELUDE}\n{}\n{JAVA_MAIN}",
                    source.replace("public class Solution", "class Solution")
                ),
            ),
            Lang::Rust => (
                "solution.rs",
                format!("{RUST_PRELUDE}\n{source}\n{RUST_MAIN}"),
            ),
            // LeetCode's Go has no package clause; the harness is a file of its own,
            // so that its imports and the solution's never clash.
            Lang::Go => {
                let write = |name: &str, text: &str| {
                    std::fs::write(dir.join(name), text)
                        .map_err(|error| CliError(format!("cannot write the harness: {error}")))
                };
                write("go.mod", "module solution\n\ngo 1.19\n")?;
                write("main.go", GO_MAIN)?;
                let body = if source.trim_start().starts_with("package ") {
                    source.to_owned()
                } else {
                    format!("package main\n\n{source}")
                };
                ("solution.go", body)
            }
            Lang::C => ("solution.c", format!("{C_PRELUDE}\n{source}\n{C_MAIN}")),
        };
        std::fs::write(dir.join(file), text)
            .map_err(|error| CliError(format!("cannot write the harness: {error}")))?;
        let build: Vec<String> = match self.lang {
            Lang::Py => vec![
                "python3".into(),
                "-m".into(),
                "py_compile".into(),
                path(file),
            ],
            Lang::Js => vec!["node".into(), "--check".into(), path(file)],
            Lang::Cpp => vec![
                "g++".into(),
                "-O2".into(),
                "-std=c++17".into(),
                "-o".into(),
                path("solution"),
                path(file),
            ],
            Lang::Java => vec![
                "javac".into(),
                "-J-XX:-UsePerfData".into(),
                "-J-Xmx512m".into(),
                "-d".into(),
                path(""),
                path(file),
            ],
            Lang::Rust => vec![
                "rustc".into(),
                "-O".into(),
                "--edition".into(),
                "2021".into(),
                "-o".into(),
                path("solution"),
                path(file),
            ],
            Lang::Go => vec![
                "go".into(),
                "build".into(),
                "-o".into(),
                path("solution"),
                ".".into(),
            ],
            Lang::C => vec![
                "gcc".into(),
                "-O2".into(),
                "-std=gnu11".into(),
                "-o".into(),
                path("solution"),
                path(file),
                "-lm".into(),
            ],
        };
        self.build_step(&build)?;
        Ok(match self.lang {
            Lang::Py => vec!["python3".into(), "-u".into(), path(file)],
            Lang::Js => vec![
                "node".into(),
                "--max-old-space-size=1024".into(),
                "--stack-size=16000".into(),
                path(file),
            ],
            Lang::Cpp | Lang::Rust | Lang::Go | Lang::C => vec![path("solution")],
            Lang::Java => vec![
                "java".into(),
                "-Xmx1g".into(),
                "-Xss256m".into(),
                "-XX:+UseSerialGC".into(),
                "-XX:-UsePerfData".into(),
                "-cp".into(),
                path(""),
                "Main".into(),
            ],
        })
    }

    /// Runs the build under the same watch as a run: bounded time, memory, files and
    /// processes, its output read from pipes with a cap.
    fn build_step(&self, build: &[String]) -> Result<(), CliError> {
        let tool = &build[0];
        let cannot_run = |why: String| {
            CliError(format!(
                "cannot run {tool} to build the {} solution: {why} (is it installed and on PATH?)",
                self.lang.name()
            ))
        };
        if find_on_path(tool).is_none() {
            return Err(cannot_run("not found".into()));
        }
        let limits = Limits {
            address_space: None,
            resident: BUILD_MEMORY,
            file_size: MAX_FILE,
            cpu_backstop: self.setup.build_seconds + 5,
        };
        let mut process = Watched::start(self.command(build), limits, false)
            .map_err(|error| cannot_run(error.to_string()))?;
        let started = Instant::now();
        let wall = Duration::from_secs(self.setup.build_seconds);
        let mut next_sample = started;
        let failure = loop {
            if (self.setup.stop)() {
                break Some("it was interrupted".to_owned());
            }
            if process.exited().is_some() {
                break None;
            }
            let now = Instant::now();
            if now >= next_sample {
                next_sample = now + SAMPLE;
                let usage = process.usage();
                if usage.resident > BUILD_MEMORY {
                    break Some(format!(
                        "it used more than {} MiB of memory: does the code include a device or a huge file?",
                        BUILD_MEMORY >> 20
                    ));
                }
                if now - started > wall || usage.cpu_seconds > wall.as_secs_f64() {
                    break Some(format!(
                        "it took longer than {} s: does the code include a FIFO or a device that never ends?",
                        wall.as_secs()
                    ));
                }
            }
            std::thread::sleep(TICK);
        };
        let status = process.status_words();
        let ok = failure.is_none() && process.exited().is_some_and(|s| s == 0);
        process.kill_all();
        process.stdout.wait_closed();
        process.stderr.wait_closed();
        if ok {
            return Ok(());
        }
        let mut message = process.stderr.text();
        message.push_str(&process.stdout.text());
        if message.contains("cmg: cannot run ") {
            return Err(cannot_run(cmg_judge::report::tail(&message, 400)));
        }
        let why = failure.or(status).unwrap_or_default();
        Err(CliError(format!(
            "the {} solution does not build ({tool}; {why}):\n{}",
            self.lang.name(),
            cmg_judge::report::tail(&message, 4000)
        )))
    }

    /// `program` in the solution's folder, confined where the sandbox is on, with the
    /// environment cut down to what a toolchain needs.
    fn command(&self, program: &[String]) -> Command {
        let program = self.setup.sandbox.wrap(&self.dir, program);
        let mut command = Command::new(&program[0]);
        command
            .args(&program[1..])
            .current_dir(&self.dir)
            .env_clear()
            .env("HOME", &self.dir)
            .env("LANG", "C.UTF-8")
            .env("TMPDIR", self.dir.join("tmp"));
        if let Some(path) = std::env::var_os("PATH") {
            command.env("PATH", path);
        }
        // Where the toolchains themselves live (rustup's proxies find rustc there), and
        // nothing else of the user's environment.
        let home = std::env::var_os("HOME").map(PathBuf::from);
        for (name, default) in [("RUSTUP_HOME", ".rustup"), ("CARGO_HOME", ".cargo")] {
            let value = std::env::var_os(name)
                .map(PathBuf::from)
                .or_else(|| home.as_ref().map(|home| home.join(default)));
            if let Some(value) = value.filter(|value| value.is_dir()) {
                command.env(name, value);
            }
        }
        for name in [
            "RUSTUP_TOOLCHAIN",
            "JAVA_HOME",
            "PYENV_ROOT",
            "PYENV_VERSION",
            "GOROOT",
        ] {
            if let Some(value) = std::env::var_os(name) {
                command.env(name, value);
            }
        }
        if self.lang == Lang::Go {
            // Go's caches in the folder; no cgo (a C compiler run from the code's
            // directives), no module downloads, no other toolchain fetched.
            command
                .env("GOCACHE", self.dir.join(".gocache"))
                .env("GOPATH", self.dir.join(".gopath"))
                .env("CGO_ENABLED", "0")
                .env("GOPROXY", "off")
                .env("GOTOOLCHAIN", "local")
                .env("GOFLAGS", "-mod=mod");
        }
        command
    }

    /// The solution's answer to `graph`.
    pub fn answer(&mut self, graph: &[Vec<u32>]) -> Answer {
        self.answers(std::slice::from_ref(&graph.to_vec()))
            .pop()
            .unwrap_or(Answer::Interrupted)
    }

    /// The solution's answers to `graphs`, sent together so that a fast solution does
    /// not wait for a round trip per graph; each graph still gets its own time and
    /// output limits, counted from the answer before. Stops at the first answer that is
    /// not a value (the process is gone then).
    pub fn answers(&mut self, graphs: &[Vec<Vec<u32>>]) -> Vec<Answer> {
        let mut answers = Vec::with_capacity(graphs.len());
        let mut rest = graphs;
        while !rest.is_empty() {
            // What is written at once fits in a pipe's buffer, so that writing never
            // waits for a solution that is stuck on an earlier graph.
            let mut text = String::new();
            let mut count = 0;
            for graph in rest {
                let line = graph_line(graph);
                if count > 0 && text.len() + line.len() > MAX_WRITE {
                    break;
                }
                text.push_str(&line);
                count += 1;
            }
            let (batch, after) = rest.split_at(count);
            rest = after;
            let fresh = self.process.is_none();
            if fresh {
                match self.start() {
                    Ok(process) => self.process = Some(process),
                    Err(message) => {
                        answers.push(Answer::Crashed(message));
                        return answers;
                    }
                }
            }
            if !self.send(&text) {
                answers.push(self.ended());
                return answers;
            }
            for i in 0..batch.len() {
                let (mut cpu_limit, mut wall_limit) = (TIME_LIMIT.as_secs_f64(), WALL_LIMIT);
                if fresh && i == 0 {
                    // A JVM or an interpreter starting up.
                    cpu_limit += FIRST_GRAPH_GRACE.as_secs_f64();
                    wall_limit += FIRST_GRAPH_GRACE * 2;
                }
                let answer = match self.wait_for_answer(cpu_limit, wall_limit) {
                    Waited::Answer(answer) => answer,
                    Waited::Ended => self.ended(),
                };
                let value = matches!(answer, Answer::Value(_));
                answers.push(answer);
                if !value {
                    self.kill();
                    return answers;
                }
            }
        }
        answers
    }

    fn send(&mut self, text: &str) -> bool {
        let Some(channels) = self.process.as_mut().and_then(|p| p.channels.as_mut()) else {
            return false;
        };
        channels.graphs.write_all(text.as_bytes()).is_ok() && channels.graphs.flush().is_ok()
    }

    fn wait_for_answer(&mut self, cpu_limit: f64, wall_limit: Duration) -> Waited {
        let stop = &self.setup.stop;
        let Some(process) = self.process.as_mut() else {
            return Waited::Ended;
        };
        let started = Instant::now();
        let cpu_at_start = process.usage().cpu_seconds;
        let output_at_start = process.stdout.total() + process.stderr.total();
        let mut next_sample = started + SAMPLE;
        loop {
            if stop() {
                return Waited::Answer(Answer::Interrupted);
            }
            let Some(channels) = process.channels.as_mut() else {
                return Waited::Ended;
            };
            match channels.answers.recv_timeout(TICK) {
                Ok(Event::Line(text)) => return Waited::Answer(Answer::Value(text)),
                Ok(Event::TooLong) => {
                    return Waited::Answer(Answer::Crashed(format!(
                        "it wrote an answer longer than {} KiB",
                        MAX_LINE >> 10
                    )))
                }
                Ok(Event::Closed) | Err(RecvTimeoutError::Disconnected) => return Waited::Ended,
                Err(RecvTimeoutError::Timeout) => {}
            }
            if process.exited().is_some() {
                // An answer written just before the end is still on its way.
                if let Some(Ok(Event::Line(text))) = process
                    .channels
                    .as_mut()
                    .map(|c| c.answers.recv_timeout(TICK))
                {
                    return Waited::Answer(Answer::Value(text));
                }
                return Waited::Ended;
            }
            let now = Instant::now();
            if now < next_sample {
                continue;
            }
            next_sample = now + SAMPLE;
            let usage = process.usage();
            if usage.resident > process.limits().resident {
                return Waited::Answer(Answer::OutOfMemory(format!(
                    "it used more than {} MiB of memory",
                    process.limits().resident >> 20
                )));
            }
            if usage.cpu_seconds - cpu_at_start > cpu_limit || now - started > wall_limit {
                return Waited::Answer(Answer::TimedOut);
            }
            if process.stdout.total() + process.stderr.total() - output_at_start > MAX_OTHER_OUTPUT
            {
                return Waited::Answer(Answer::Crashed(format!(
                    "it printed more than {} MiB besides its answer",
                    MAX_OTHER_OUTPUT >> 20
                )));
            }
        }
    }

    fn start(&self) -> Result<Watched, String> {
        let limits = Limits {
            // The JVM, V8 and Go reserve far more address space than they use; the watch
            // on resident memory bounds them.
            address_space: (!matches!(self.lang, Lang::Java | Lang::Js | Lang::Go))
                .then_some(MEMORY_LIMIT),
            resident: MEMORY_LIMIT,
            file_size: MAX_FILE,
            cpu_backstop: CPU_LIMIT_SECONDS,
        };
        Watched::start(self.command(&self.program), limits, true)
            .map_err(|error| format!("cannot start {}: {error}", self.program[0]))
    }

    /// The process ended, or closed its answer channel, without answering: how, from
    /// its standard error and its exit status.
    fn ended(&mut self) -> Answer {
        let Some(mut process) = self.process.take() else {
            return Answer::Crashed("it ended".into());
        };
        // A moment to end by itself, so that its exit status and last words are known.
        let deadline = Instant::now() + Duration::from_millis(500);
        while process.exited().is_none() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
        let ended = process.exited().is_some();
        let status = process.status_words();
        process.kill_all();
        process.stderr.wait_closed();
        let mut stderr =
            cmg_judge::report::tail(&process.stderr.text(), cmg_judge::report::ERROR_TAIL);
        let how = match (ended, status) {
            (true, Some(status)) => status,
            _ => "it closed the judge's answer channel and went on running".to_owned(),
        };
        if stderr.is_empty() {
            stderr = how;
        } else {
            stderr = format!("{stderr}\n({how})");
        }
        let memory = [
            "MemoryError",
            "bad_alloc",
            "OutOfMemoryError",
            "heap out of memory",
            "memory allocation of",
        ];
        if memory.iter().any(|word| stderr.contains(word)) {
            Answer::OutOfMemory(stderr)
        } else {
            Answer::Crashed(stderr)
        }
    }

    /// Ends the process and everything it started.
    pub fn kill(&mut self) {
        if let Some(mut process) = self.process.take() {
            process.kill_all();
        }
    }
}

impl Drop for Runner {
    fn drop(&mut self) {
        self.kill();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// One graph as the harness reads it: `n`, then each node's neighbour count and
/// neighbours.
fn graph_line(graph: &[Vec<u32>]) -> String {
    let mut line = graph.len().to_string();
    for list in graph {
        line.push_str(&format!(" {}", list.len()));
        for v in list {
            line.push_str(&format!(" {v}"));
        }
    }
    line.push('\n');
    line
}

/// Where `program` is found on `PATH`, if it is (a path with a slash as it is).
fn find_on_path(program: &str) -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    if program.contains('/') {
        return Some(PathBuf::from(program));
    }
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join(program))
        .find(|path| {
            path.metadata()
                .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        })
}
