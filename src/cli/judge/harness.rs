//! Running a pasted LeetCode solution: a harness per language around the user's code,
//! built with the toolchain on `PATH`, run as one process that answers graph after graph
//! over a pipe.
//!
//! The protocol is plain numbers, so that no harness needs a JSON library: one line per
//! graph, `n`, then for each node its neighbour count and neighbours; the harness prints
//! `@@cmg-answer A` for each, and anything else the solution prints is passed over (up
//! to a bound). The process runs in a folder of its own under the temporary directory,
//! with an empty environment but `PATH`, `HOME` (that folder), `LANG` and where the
//! toolchains live (`RUSTUP_HOME`, `CARGO_HOME`, `JAVA_HOME`, pyenv's), and under
//! `prlimit`: address space (where the runtime allows it), file size, CPU time in all
//! (a backstop) and core dumps.
//! A graph gets `TIME_LIMIT` to be answered; then the process is killed, and the next
//! graph starts a new one.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::Duration;

use super::super::CliError;

/// The time one graph may take.
pub const TIME_LIMIT: Duration = Duration::from_secs(3);
/// More for the first graph: a JVM or a Python interpreter starting up.
const FIRST_GRAPH_GRACE: Duration = Duration::from_secs(10);
/// The address space of a solution's process, where the runtime lets it be bounded.
pub const MEMORY_LIMIT: u64 = 1 << 30;
/// What a solution may print besides its answers, per graph.
const MAX_OTHER_OUTPUT: usize = 1 << 20;
/// The longest line read from a solution.
const MAX_LINE: u64 = 64 * 1024;
/// Files a solution writes, in its folder.
const MAX_FILE: u64 = 64 << 20;

const ANSWER: &str = "@@cmg-answer ";

/// The CPU seconds one process of a solution may use in all.
const CPU_LIMIT_SECONDS: u64 = 600;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Lang {
    Py,
    Js,
    Cpp,
    Java,
    Rust,
}

impl Lang {
    /// The language of a file name's extension.
    pub fn of_path(path: &str) -> Option<Lang> {
        match Path::new(path).extension()?.to_str()? {
            "py" => Some(Lang::Py),
            "js" | "mjs" | "cjs" => Some(Lang::Js),
            "cpp" | "cc" | "cxx" | "c++" => Some(Lang::Cpp),
            "java" => Some(Lang::Java),
            "rs" => Some(Lang::Rust),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Lang::Py => "Python 3",
            Lang::Js => "JavaScript",
            Lang::Cpp => "C++",
            Lang::Java => "Java",
            Lang::Rust => "Rust",
        }
    }
}

/// What the solution did with one graph.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// It printed this answer (as printed: not always a number).
    Value(String),
    /// It ended or crashed; the end of what it wrote to standard error.
    Crashed(String),
    /// It ran out of memory (as its runtime says).
    OutOfMemory(String),
    /// It took longer than the time limit.
    TimedOut,
}

/// A built solution, and the process that answers (started on demand).
pub struct Runner {
    dir: PathBuf,
    lang: Lang,
    program: Vec<String>,
    process: Option<Process>,
    started_once: bool,
}

struct Process {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Line>,
}

enum Line {
    Text(String),
    TooLong,
}

impl Runner {
    /// Writes the harness around `source` in a new folder and builds it.
    pub fn build(lang: Lang, source: &str) -> Result<Runner, CliError> {
        let dir = std::env::temp_dir().join(format!(
            "cmg-judge-{}-{}",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos())
        ));
        std::fs::create_dir_all(&dir).map_err(|error| {
            CliError(format!("cannot create a folder for the solution: {error}"))
        })?;
        let mut runner = Runner {
            dir,
            lang,
            program: Vec::new(),
            process: None,
            started_once: false,
        };
        runner.program = runner.write_and_build(source)?;
        Ok(runner)
    }

    fn write_and_build(&self, source: &str) -> Result<Vec<String>, CliError> {
        let dir = &self.dir;
        let path = |name: &str| dir.join(name).to_string_lossy().into_owned();
        let (file, text) = match self.lang {
            Lang::Py => ("solution.py", format!("{PY_PRELUDE}\n{source}\n{PY_MAIN}")),
            Lang::Js => ("solution.js", format!("{source}\n{JS_MAIN}")),
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
        };
        std::fs::write(dir.join(file), text)
            .map_err(|error| CliError(format!("cannot write the harness: {error}")))?;
        let build: Option<Vec<String>> = match self.lang {
            Lang::Py => Some(vec![
                "python3".into(),
                "-m".into(),
                "py_compile".into(),
                path(file),
            ]),
            Lang::Js => Some(vec!["node".into(), "--check".into(), path(file)]),
            Lang::Cpp => Some(vec![
                "g++".into(),
                "-O2".into(),
                "-std=c++17".into(),
                "-o".into(),
                path("solution"),
                path(file),
            ]),
            Lang::Java => Some(vec!["javac".into(), "-d".into(), path(""), path(file)]),
            Lang::Rust => Some(vec![
                "rustc".into(),
                "-O".into(),
                "--edition".into(),
                "2021".into(),
                "-o".into(),
                path("solution"),
                path(file),
            ]),
        };
        if let Some(build) = build {
            let output = self
                .command(&build)
                .stdin(Stdio::null())
                .output()
                .map_err(|error| {
                    CliError(format!(
                        "cannot run {} to build the {} solution: {error} (is it installed and on PATH?)",
                        build[0],
                        self.lang.name()
                    ))
                })?;
            if !output.status.success() {
                let mut message = String::from_utf8_lossy(&output.stderr).into_owned();
                message.push_str(&String::from_utf8_lossy(&output.stdout));
                return Err(CliError(format!(
                    "the {} solution does not build ({}):\n{}",
                    self.lang.name(),
                    build[0],
                    tail(&message, 4000)
                )));
            }
        }
        Ok(match self.lang {
            Lang::Py => vec!["python3".into(), "-u".into(), path(file)],
            Lang::Js => vec![
                "node".into(),
                "--max-old-space-size=1024".into(),
                "--stack-size=16000".into(),
                path(file),
            ],
            Lang::Cpp | Lang::Rust => vec![path("solution")],
            Lang::Java => vec![
                "java".into(),
                "-Xmx1g".into(),
                "-Xss256m".into(),
                "-XX:+UseSerialGC".into(),
                "-cp".into(),
                path(""),
                "Main".into(),
            ],
        })
    }

    /// `program` in the solution's folder, with the environment cut down to what a
    /// toolchain needs.
    fn command(&self, program: &[String]) -> Command {
        let mut command = Command::new(&program[0]);
        command
            .args(&program[1..])
            .current_dir(&self.dir)
            .env_clear()
            .env("HOME", &self.dir)
            .env("LANG", "C.UTF-8")
            .env("TMPDIR", &self.dir);
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
        ] {
            if let Some(value) = std::env::var_os(name) {
                command.env(name, value);
            }
        }
        command
    }

    /// The solution's answer to `graph`.
    pub fn answer(&mut self, graph: &[Vec<u32>]) -> Answer {
        let mut line = graph.len().to_string();
        for list in graph {
            line.push_str(&format!(" {}", list.len()));
            for v in list {
                line.push_str(&format!(" {v}"));
            }
        }
        line.push('\n');
        let mut limit = TIME_LIMIT;
        if self.process.is_none() {
            match self.start() {
                Ok(process) => self.process = Some(process),
                Err(message) => return Answer::Crashed(message),
            }
            if !self.started_once {
                limit += FIRST_GRAPH_GRACE;
                self.started_once = true;
            }
        }
        let process = self.process.as_mut().expect("started");
        if process.stdin.write_all(line.as_bytes()).is_err() || process.stdin.flush().is_err() {
            return self.ended();
        }
        let deadline = std::time::Instant::now() + limit;
        let mut other = 0usize;
        loop {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            match process.lines.recv_timeout(left) {
                Ok(Line::Text(text)) => {
                    if let Some(answer) = text.strip_prefix(ANSWER) {
                        return Answer::Value(answer.trim().to_owned());
                    }
                    other += text.len() + 1;
                    if other > MAX_OTHER_OUTPUT {
                        self.kill();
                        return Answer::Crashed(format!(
                            "it printed more than {} MiB besides its answer",
                            MAX_OTHER_OUTPUT >> 20
                        ));
                    }
                }
                Ok(Line::TooLong) => {
                    self.kill();
                    return Answer::Crashed(format!(
                        "it printed a line longer than {} KiB",
                        MAX_LINE >> 10
                    ));
                }
                Err(RecvTimeoutError::Timeout) => {
                    self.kill();
                    return Answer::TimedOut;
                }
                Err(RecvTimeoutError::Disconnected) => return self.ended(),
            }
        }
    }

    fn start(&self) -> Result<Process, String> {
        let mut program = vec![
            "prlimit".to_owned(),
            format!("--fsize={MAX_FILE}"),
            "--core=0".to_owned(),
            // A backstop: should cmg itself be killed, a solution that never answers
            // does not spin on for ever.
            format!("--cpu={CPU_LIMIT_SECONDS}"),
        ];
        // The JVM and V8 reserve far more address space than they use; they get heap
        // limits of their own instead (-Xmx, --max-old-space-size).
        if !matches!(self.lang, Lang::Java | Lang::Js) {
            program.push(format!("--as={MEMORY_LIMIT}"));
        }
        program.push("--".to_owned());
        program.extend(self.program.iter().cloned());
        let stderr = std::fs::File::create(self.dir.join("stderr.txt"))
            .map_err(|error| format!("cannot create its standard error file: {error}"))?;
        let mut child = {
            self.command(&program)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(stderr)
                .spawn()
                .map_err(|error| format!("cannot start {}: {error}", program[0]))?
        };
        let stdin = child.stdin.take().expect("piped");
        let stdout = child.stdout.take().expect("piped");
        let (send, lines) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut line = Vec::new();
                match (&mut reader).take(MAX_LINE).read_until(b'\n', &mut line) {
                    Ok(0) | Err(_) => return,
                    Ok(_) if line.last() != Some(&b'\n') && line.len() as u64 >= MAX_LINE => {
                        let _ = send.send(Line::TooLong);
                        return;
                    }
                    Ok(_) => {
                        let text = String::from_utf8_lossy(&line).trim_end().to_owned();
                        if send.send(Line::Text(text)).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        Ok(Process {
            child,
            stdin,
            lines,
        })
    }

    /// The process ended without answering: how, from its standard error.
    fn ended(&mut self) -> Answer {
        if let Some(mut process) = self.process.take() {
            let _ = process.child.wait();
        }
        let stderr = std::fs::read(self.dir.join("stderr.txt")).unwrap_or_default();
        let stderr = tail(&String::from_utf8_lossy(&stderr), 2000);
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

    fn kill(&mut self) {
        if let Some(mut process) = self.process.take() {
            // `prlimit` runs the solution in its own place (exec), so this is the
            // solution's process.
            let _ = process.child.kill();
            let _ = process.child.wait();
        }
    }
}

impl Drop for Runner {
    fn drop(&mut self) {
        self.kill();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The last `max` bytes of `text`, at a character boundary.
fn tail(text: &str, max: usize) -> String {
    let text = text.trim_end();
    let mut start = text.len().saturating_sub(max);
    while !text.is_char_boundary(start) {
        start += 1;
    }
    text[start..].to_owned()
}

const PY_PRELUDE: &str = "import sys, collections, functools, itertools, heapq, math, bisect
from typing import *
from collections import *
from functools import *
from itertools import *
from heapq import *
sys.setrecursionlimit(100000)
";

const PY_MAIN: &str = "
def __cmg_main():
    for line in sys.stdin:
        nums = list(map(int, line.split()))
        n, i, graph = nums[0], 1, []
        for _ in range(n):
            k = nums[i]
            graph.append(nums[i + 1:i + 1 + k])
            i += 1 + k
        answer = Solution().catMouseGame(graph)
        sys.stdout.write('@@cmg-answer %s\\n' % (answer,))
        sys.stdout.flush()

__cmg_main()
";

const JS_MAIN: &str = r#"
;(function () {
  const lines = require("readline").createInterface({ input: process.stdin });
  lines.on("line", (line) => {
    const nums = line.trim().split(/\s+/).map(Number);
    const n = nums[0];
    const graph = [];
    let i = 1;
    for (let node = 0; node < n; node += 1) {
      const k = nums[i];
      graph.push(nums.slice(i + 1, i + 1 + k));
      i += 1 + k;
    }
    const answer = catMouseGame(graph);
    process.stdout.write("@@cmg-answer " + answer + "\n");
  });
})();
"#;

const CPP_PRELUDE: &str = "#include <bits/stdc++.h>
using namespace std;
";

const CPP_MAIN: &str = r#"
int main() {
  int n;
  while (std::cin >> n) {
    vector<vector<int>> graph(n);
    for (int i = 0; i < n; i++) {
      int k;
      std::cin >> k;
      graph[i].resize(k);
      for (int j = 0; j < k; j++) std::cin >> graph[i][j];
    }
    Solution solution;
    int answer = solution.catMouseGame(graph);
    std::cout << "@@cmg-answer " << answer << std::endl;
  }
  return 0;
}
"#;

const JAVA_PRELUDE: &str = "import java.util.*;
import java.io.*;
";

const JAVA_MAIN: &str = r#"
public class Main {
  public static void main(String[] args) throws IOException {
    BufferedReader reader = new BufferedReader(new InputStreamReader(System.in));
    String line;
    while ((line = reader.readLine()) != null) {
      StringTokenizer tokens = new StringTokenizer(line);
      int n = Integer.parseInt(tokens.nextToken());
      int[][] graph = new int[n][];
      for (int i = 0; i < n; i++) {
        int k = Integer.parseInt(tokens.nextToken());
        graph[i] = new int[k];
        for (int j = 0; j < k; j++) graph[i][j] = Integer.parseInt(tokens.nextToken());
      }
      int answer = new Solution().catMouseGame(graph);
      System.out.println("@@cmg-answer " + answer);
      System.out.flush();
    }
  }
}
"#;

const RUST_PRELUDE: &str = "#![allow(unused, dead_code, non_snake_case)]
use std::collections::*;
use std::cmp::*;
struct Solution;
";

const RUST_MAIN: &str = r#"
fn main() {
    use std::io::{BufRead, Write};
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { return };
        let nums: Vec<i32> = line.split_whitespace().map(|x| x.parse().unwrap()).collect();
        let n = nums[0] as usize;
        let mut graph = Vec::with_capacity(n);
        let mut i = 1;
        for _ in 0..n {
            let k = nums[i] as usize;
            graph.push(nums[i + 1..i + 1 + k].to_vec());
            i += 1 + k;
        }
        let answer = Solution::cat_mouse_game(graph);
        writeln!(out, "@@cmg-answer {}", answer).unwrap();
        out.flush().unwrap();
    }
}
"#;
