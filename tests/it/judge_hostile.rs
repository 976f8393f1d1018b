//! `cmg judge` against careless and hostile solutions: ones that print without a
//! newline, close or redirect their standard output, close every descriptor, leave
//! processes behind, fork by the hundred, take memory outside the heap, hang their own
//! build, write outside their folder or open connections; and `cmg judge` itself
//! signalled, on a busy machine, given bad numbers and solutions of the wrong shape.
//!
//! Each hostile solution is built here from a right one in `tests/judge/` by inserting
//! the few lines that differ ([`variant`]). Every run gives `cmg` a `TMPDIR` of its own,
//! checked afterwards for `cmg-judge-*` folders, and looks for processes the solution
//! left by a marker of its own in their command line (or the `TMPDIR` path in their
//! command line or environment). Every run has a wall-clock bound: a run that passes it
//! is killed with all it started, and the test fails instead of hanging.

use std::cell::RefCell;
use std::io::Read;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::PathBuf;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde_json::Value;

const CMG: &str = env!("CARGO_BIN_EXE_cmg");

/// A name no other test or run uses: `prefix-PID-N-NANOS`.
fn unique(prefix: &str) -> String {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    format!(
        "{prefix}-{}-{}-{nanos}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}

/// A folder of the test's own: the solutions it writes, and `tmp/`, the `TMPDIR` of
/// every `cmg` it runs. Dropped, it kills what the solutions left and is removed.
struct Scratch {
    root: PathBuf,
    tmp: PathBuf,
    /// The markers handed to the solutions, to find their processes by.
    markers: RefCell<Vec<String>>,
}

impl Scratch {
    fn new(test: &str) -> Scratch {
        let root = std::env::temp_dir().join(unique(&format!("cmgjh-{test}")));
        let tmp = root.join("tmp");
        std::fs::create_dir_all(&tmp).unwrap();
        Scratch {
            root,
            tmp,
            markers: RefCell::default(),
        }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.root.join(name)
    }

    /// Writes `name` in the folder and returns its path.
    fn write(&self, name: &str, text: &str) -> String {
        let path = self.path(name);
        if let Some(parent) = std::path::Path::new(&path).parent() {
            std::fs::create_dir_all(parent).unwrap();
        }
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_owned()
    }

    /// A word for a solution to put in the command line of what it starts.
    fn marker(&self) -> String {
        let marker = unique("cmgmark");
        self.markers.borrow_mut().push(marker.clone());
        marker
    }

    /// What marks a process of this test's solutions: a marker, or the `TMPDIR` path
    /// (with its slash: `cmg` itself has only `TMPDIR=…/tmp` in its environment).
    fn needles(&self) -> Vec<String> {
        let mut needles = self.markers.borrow().clone();
        needles.push(format!("{}/", self.tmp.display()));
        needles
    }

    fn leftovers(&self) -> Vec<(u32, String)> {
        processes_matching(&self.needles())
    }

    fn kill_leftovers(&self) {
        for _ in 0..20 {
            let left = self.leftovers();
            if left.is_empty() {
                return;
            }
            let pids: Vec<String> = left.iter().map(|(pid, _)| pid.to_string()).collect();
            kill("KILL", &pids);
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The `cmg-judge-*` entries of the `TMPDIR`.
    fn judge_dirs(&self) -> Vec<String> {
        std::fs::read_dir(&self.tmp)
            .map(|entries| {
                entries
                    .flatten()
                    .map(|entry| entry.file_name().to_string_lossy().into_owned())
                    .filter(|name| name.starts_with("cmg-judge-"))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// After `cmg` ended: no process of the solution left (after a short grace, for one
    /// killed a moment ago), and no `cmg-judge-*` folder in the `TMPDIR`.
    fn assert_nothing_left(&self, run: &Run) {
        let grace = Instant::now() + Duration::from_secs(3);
        let mut left = self.leftovers();
        while !left.is_empty() && Instant::now() < grace {
            std::thread::sleep(Duration::from_millis(100));
            left = self.leftovers();
        }
        let dirs = self.judge_dirs();
        self.kill_leftovers();
        assert!(
            left.is_empty() && dirs.is_empty(),
            "left behind after cmg ended: {} processes {:?}; folders in TMPDIR {dirs:?}\n{run}",
            left.len(),
            left.iter().take(5).collect::<Vec<_>>(),
        );
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        self.kill_leftovers();
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

/// The processes other than this one whose command line or environment holds one of
/// `needles`: their pids and command lines.
fn processes_matching(needles: &[String]) -> Vec<(u32, String)> {
    let me = std::process::id();
    let holds = |haystack: &[u8], needle: &str| {
        !needle.is_empty()
            && haystack
                .windows(needle.len())
                .any(|window| window == needle.as_bytes())
    };
    let mut found = Vec::new();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return found;
    };
    for entry in entries.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|s| s.parse::<u32>().ok())
        else {
            continue;
        };
        if pid == me {
            continue;
        }
        let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
        let environ = std::fs::read(entry.path().join("environ")).unwrap_or_default();
        if needles
            .iter()
            .any(|needle| holds(&cmdline, needle) || holds(&environ, needle))
        {
            found.push((pid, String::from_utf8_lossy(&cmdline).replace('\0', " ")));
        }
    }
    found
}

/// `kill -s SIGNAL -- TARGETS` (a target `-PGID` is a process group).
fn kill(signal: &str, targets: &[String]) {
    if targets.is_empty() {
        return;
    }
    let _ = Command::new("kill")
        .args(["-s", signal, "--"])
        .args(targets)
        .stderr(Stdio::null())
        .status();
}

/// A stream of the child read to its end on a thread of its own.
struct Capture {
    bytes: Arc<Mutex<Vec<u8>>>,
    thread: JoinHandle<()>,
}

impl Capture {
    fn new(mut source: impl Read + Send + 'static) -> Capture {
        let bytes = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&bytes);
        let thread = std::thread::spawn(move || {
            let mut chunk = [0u8; 8192];
            while let Ok(read @ 1..) = source.read(&mut chunk) {
                sink.lock().unwrap().extend_from_slice(&chunk[..read]);
            }
        });
        Capture { bytes, thread }
    }

    /// What was read, after waiting up to `grace` for the stream's end (a process left
    /// behind may hold it open; that is found and reported elsewhere).
    fn text(self, grace: Duration) -> String {
        let end = Instant::now() + grace;
        while !self.thread.is_finished() && Instant::now() < end {
            std::thread::sleep(Duration::from_millis(10));
        }
        let bytes = self.bytes.lock().unwrap();
        String::from_utf8_lossy(&bytes).into_owned()
    }
}

/// A `cmg judge` under way.
struct Running {
    args: String,
    child: Child,
    stdout: Capture,
    stderr: Capture,
    started: Instant,
}

/// `cmg judge ARGS` with the scratch folder's `TMPDIR`, in a process group of its own
/// (so that a hung run can be killed with what it started), behind `wrapper` (a
/// command that execs what follows it, such as `prlimit`) when it is not empty.
fn start(scratch: &Scratch, wrapper: &[&str], args: &[&str]) -> Running {
    let mut argv: Vec<&str> = wrapper.to_vec();
    argv.extend([CMG, "judge"]);
    argv.extend(args);
    let mut child = Command::new(argv[0])
        .args(&argv[1..])
        .env("TMPDIR", &scratch.tmp)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .expect("cmg starts");
    let stdout = Capture::new(child.stdout.take().unwrap());
    let stderr = Capture::new(child.stderr.take().unwrap());
    Running {
        args: args.join(" "),
        child,
        stdout,
        stderr,
        started: Instant::now(),
    }
}

impl Running {
    /// `kill -s SIGNAL` to `cmg` alone.
    fn signal(&self, signal: &str) {
        kill(signal, &[self.child.id().to_string()]);
    }

    /// Waits for the end, at most `limit` from the start: past it, kills `cmg`, its
    /// process group and every process of the solution, and fails the test.
    fn finish(mut self, scratch: &Scratch, limit: Duration) -> Run {
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            if self.started.elapsed() > limit {
                kill("KILL", &[format!("-{}", self.child.id())]);
                let _ = self.child.kill();
                let _ = self.child.wait();
                scratch.kill_leftovers();
                let stdout = self.stdout.text(Duration::from_secs(2));
                let stderr = self.stderr.text(Duration::from_secs(2));
                panic!(
                    "hung: `cmg judge {}` had not ended after {limit:?}; killed it and what it started\n--- stdout\n{}\n--- stderr\n{}",
                    self.args,
                    tail(&stdout),
                    tail(&stderr)
                );
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        let elapsed = self.started.elapsed();
        Run {
            args: self.args,
            status,
            stdout: self.stdout.text(Duration::from_secs(5)),
            stderr: self.stderr.text(Duration::from_secs(5)),
            elapsed,
        }
    }
}

/// `cmg judge ARGS`, bounded by `limit`.
fn judge(scratch: &Scratch, args: &[&str], limit: Duration) -> Run {
    start(scratch, &[], args).finish(scratch, limit)
}

/// A finished `cmg judge`.
struct Run {
    args: String,
    status: ExitStatus,
    stdout: String,
    stderr: String,
    elapsed: Duration,
}

impl Run {
    fn code(&self) -> Option<i32> {
        self.status.code()
    }

    /// Standard output as one JSON object (`Null` when it is not one).
    fn json(&self) -> Value {
        serde_json::from_str(self.stdout.trim()).unwrap_or(Value::Null)
    }
}

impl std::fmt::Display for Run {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let how = match (self.status.code(), self.status.signal()) {
            (Some(101), _) => "exit 101 (a panic)".to_owned(),
            (Some(code), _) => format!("exit {code}"),
            (None, Some(signal)) => format!("killed by signal {signal}"),
            (None, None) => "ended".to_owned(),
        };
        write!(
            f,
            "`cmg judge {}`: {how} after {:.1} s\n--- stdout\n{}\n--- stderr\n{}",
            self.args,
            self.elapsed.as_secs_f64(),
            tail(&self.stdout),
            tail(&self.stderr)
        )
    }
}

/// The last 3000 bytes of `text`, at a character boundary.
fn tail(text: &str) -> &str {
    let mut start = text.len().saturating_sub(3000);
    while !text.is_char_boundary(start) {
        start += 1;
    }
    &text[start..]
}

fn secs(seconds: u64) -> Duration {
    Duration::from_secs(seconds)
}

/// A solution of `tests/judge/`.
fn fixture(name: &str) -> String {
    format!("{}/tests/judge/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// The line that opens the method in each right solution, and the indentation of the
/// method's body.
fn method_opening(base: &str) -> (&'static str, usize) {
    match base {
        "right.py" => (
            "    def catMouseGame(self, graph: List[List[int]]) -> int:\n",
            8,
        ),
        "right.js" => ("var catMouseGame = function (graph) {\n", 2),
        "right.cpp" => ("    int catMouseGame(vector<vector<int>>& graph) {\n", 8),
        "Right.java" => ("    public int catMouseGame(int[][] graph) {\n", 8),
        "right.rs" => (
            "    pub fn cat_mouse_game(graph: Vec<Vec<i32>>) -> i32 {\n",
            8,
        ),
        _ => panic!("no right solution {base}"),
    }
}

/// The right solution `base` of `tests/judge/` with `top` before it and `body` first in
/// its method (indented here), written into the scratch folder as `name`.
fn variant(scratch: &Scratch, base: &str, name: &str, top: &str, body: &str) -> String {
    let source = std::fs::read_to_string(fixture(base)).unwrap();
    let (opening, indent) = method_opening(base);
    assert!(
        source.contains(opening),
        "{base} no longer opens its method with {opening:?}"
    );
    let source = source.replacen(opening, &format!("{opening}{}", indented(body, indent)), 1);
    scratch.write(name, &format!("{}{source}", top.trim_start_matches('\n')))
}

/// `text` (less a leading newline) with every line indented by `by` spaces.
fn indented(text: &str, by: usize) -> String {
    text.trim_start_matches('\n')
        .lines()
        .map(|line| {
            if line.is_empty() {
                "\n".to_owned()
            } else {
                format!("{}{line}\n", " ".repeat(by))
            }
        })
        .collect()
}

/// What the Python attacks import; `STARTED` makes an attack run once per process.
const PY_TOP: &str = "import os, socket, subprocess, time\nSTARTED = []\n";

/// Python lines run on the first call of each process only.
fn py_once(lines: &str) -> String {
    format!(
        "if not STARTED:\n    STARTED.append(1)\n{}",
        indented(lines, 4)
    )
}

/// A right solution in `base` that prints `body` on every call passes 300 graphs.
fn assert_passes_printing(base: &str, name: &str, body: &str) {
    let scratch = Scratch::new(name);
    let path = variant(&scratch, base, name, "", body);
    let run = judge(
        &scratch,
        &[&path, "--json", "--seconds", "60", "--graphs", "300"],
        secs(60),
    );
    assert_eq!(run.code(), Some(0), "{run}");
    assert_eq!(run.json()["verdict"], "no-counterexample", "{run}");
    scratch.assert_nothing_left(&run);
}

/// Attack: Python `print(x, end="")` on stdout and stderr on every call, so that a
/// line protocol on stdout finds its answer glued to the solution's text.
#[test]
fn python_printing_without_a_newline_passes() {
    assert_passes_printing(
        "right.py",
        "print_py.py",
        "print(len(graph), end='')\nsys.stdout.write('x')\nprint('debug', end='', file=sys.stderr)\n",
    );
}

/// Attack: `process.stdout.write` without a newline on every call.
#[test]
fn javascript_printing_without_a_newline_passes() {
    assert_passes_printing(
        "right.js",
        "print_js.js",
        "process.stdout.write(String(graph.length));\nprocess.stderr.write(\"debug\");\n",
    );
}

/// Attack: `cout << x` with no `endl` on every call (left in the stream's buffer).
#[test]
fn cpp_printing_without_a_newline_passes() {
    assert_passes_printing(
        "right.cpp",
        "print_cpp.cpp",
        "cout << graph.size();\ncerr << \"debug\";\n",
    );
}

/// Attack: `System.out.print` without a newline on every call.
#[test]
fn java_printing_without_a_newline_passes() {
    assert_passes_printing(
        "Right.java",
        "PrintJava.java",
        "System.out.print(graph.length);\nSystem.err.print(\"debug\");\n",
    );
}

/// Attack: Rust `print!` without a newline on every call.
#[test]
fn rust_printing_without_a_newline_passes() {
    assert_passes_printing(
        "right.rs",
        "print_rs.rs",
        "print!(\"{}\", graph.len());\neprint!(\"debug\");\n",
    );
}

/// A right Python solution that runs `attack` on its first call passes, in time.
fn assert_python_passes_after(scratch: &Scratch, name: &str, attack: &str) -> Option<String> {
    let path = variant(scratch, "right.py", name, PY_TOP, &py_once(attack));
    let run = judge(
        scratch,
        &[&path, "--json", "--seconds", "60", "--graphs", "300"],
        secs(45),
    );
    let failure = (run.code() != Some(0) || run.json()["verdict"] != "no-counterexample")
        .then(|| format!("{attack}: expected a pass\n{run}"));
    scratch.assert_nothing_left(&run);
    failure
}

/// Attack: the solution closes its standard output, as a descriptor (`os.close(1)`) or
/// as Python's object (`sys.stdout.close()`), and answers right.
#[test]
fn closing_standard_output_passes() {
    let scratch = Scratch::new("close-stdout");
    let failures: Vec<String> = [
        ("close_fd.py", "os.close(1)"),
        ("close_object.py", "sys.stdout.close()"),
    ]
    .iter()
    .filter_map(|(name, attack)| assert_python_passes_after(&scratch, name, attack))
    .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Attack: the solution points its standard output at `/dev/null`, as Python's object
/// or as descriptor 1 (`dup2`), and answers right.
#[test]
fn redirecting_standard_output_passes() {
    let scratch = Scratch::new("redirect-stdout");
    let failures: Vec<String> = [
        ("devnull_object.py", "sys.stdout = open(os.devnull, 'w')"),
        (
            "devnull_fd.py",
            "os.dup2(os.open(os.devnull, os.O_WRONLY), 1)",
        ),
    ]
    .iter()
    .filter_map(|(name, attack)| assert_python_passes_after(&scratch, name, attack))
    .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// A Python solution that runs `body` on every call is a `runtime-error`, found in
/// well under 20 s, and nothing of it is left.
fn assert_quick_runtime_error(test: &str, body: &str) {
    let scratch = Scratch::new(test);
    let path = variant(&scratch, "right.py", &format!("{test}.py"), PY_TOP, body);
    let run = judge(&scratch, &[&path, "--json", "--seconds", "60"], secs(40));
    assert_eq!(run.code(), Some(1), "{run}");
    assert_eq!(run.json()["verdict"], "runtime-error", "{run}");
    assert!(run.elapsed < secs(20), "not quick: {run}");
    scratch.assert_nothing_left(&run);
}

/// Attack: the solution closes every descriptor it has (`os.closerange`), then sleeps:
/// no answer will come, and no CPU time is spent waiting for it.
#[test]
fn closing_every_descriptor_then_sleeping_is_a_quick_runtime_error() {
    assert_quick_runtime_error(
        "closerange-sleep",
        "os.closerange(0, 1 << 16)\ntime.sleep(1000)\n",
    );
}

/// Attack: the solution closes every descriptor it has, then spins.
#[test]
fn closing_every_descriptor_then_spinning_is_a_quick_runtime_error() {
    assert_quick_runtime_error(
        "closerange-spin",
        "os.closerange(0, 1 << 16)\nwhile True:\n    pass\n",
    );
}

/// Attack: the solution starts a child that inherits all its descriptors (the pipes to
/// the judge among them), then crashes: the pipes held open must not turn the crash
/// into a time limit, and the child must not outlive the run.
#[test]
fn a_crash_whose_child_holds_the_pipes_is_a_runtime_error() {
    let scratch = Scratch::new("crash-child");
    let marker = scratch.marker();
    let body = r#"
subprocess.Popen(["MARKER", "1000"], executable="sleep", close_fds=False)
raise RuntimeError("crashed, leaving a child with the pipes")
"#
    .replace("MARKER", &marker);
    let path = variant(&scratch, "right.py", "crash_child.py", PY_TOP, &body);
    let run = judge(&scratch, &[&path, "--json", "--seconds", "60"], secs(45));
    assert_eq!(run.code(), Some(1), "{run}");
    assert_eq!(run.json()["verdict"], "runtime-error", "{run}");
    scratch.assert_nothing_left(&run);
}

/// The build of `source` fails with exit 2 and "does not build" within `bound`.
/// `cmg` runs under a 4 GiB address-space limit, so that a compiler reading without
/// end cannot take the machine's memory when the judge does not bound it.
fn assert_bounded_build_failure(scratch: &Scratch, path: &str, bound: Duration) {
    let run = start(
        scratch,
        &["prlimit", "--as=4294967296", "--"],
        &[path, "--seconds", "1"],
    )
    .finish(scratch, bound + secs(10));
    assert_eq!(run.code(), Some(2), "{run}");
    assert!(run.stderr.contains("does not build"), "{run}");
    assert!(run.elapsed < bound, "the build took too long: {run}");
    scratch.assert_nothing_left(&run);
}

/// Attack on the build: C++ that includes `/dev/zero`, which the preprocessor reads
/// without end.
#[test]
fn a_cpp_include_of_dev_zero_is_a_bounded_build_failure() {
    let scratch = Scratch::new("include-zero");
    let path = variant(
        &scratch,
        "right.cpp",
        "zero.cpp",
        "#include \"/dev/zero\"\n",
        "",
    );
    assert_bounded_build_failure(&scratch, &path, secs(35));
}

/// Attack on the build: Rust `include_bytes!("/dev/zero")`.
#[test]
fn a_rust_include_bytes_of_dev_zero_is_a_bounded_build_failure() {
    let scratch = Scratch::new("include-bytes-zero");
    let path = variant(
        &scratch,
        "right.rs",
        "zero.rs",
        "static ZEROS: &[u8] = include_bytes!(\"/dev/zero\");\n",
        "",
    );
    assert_bounded_build_failure(&scratch, &path, secs(35));
}

/// Attack on the build: C++ that includes a FIFO nobody writes to, so that the
/// compiler blocks opening it, using no CPU. The build's wall-clock bound (`--seconds 1`
/// clamped to 20 s) ends it.
#[test]
fn a_cpp_include_of_a_fifo_is_a_bounded_build_failure() {
    let scratch = Scratch::new("include-fifo");
    let fifo = scratch.path("never.h");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let path = variant(
        &scratch,
        "right.cpp",
        "fifo.cpp",
        &format!("#include \"{}\"\n", fifo.display()),
        "",
    );
    assert_bounded_build_failure(&scratch, &path, secs(70));
}

/// A right Python solution that runs `attack` on its first call: `cmg` ends (either
/// verdict), and nothing of the solution is left.
fn assert_nothing_outlives(scratch: &Scratch, name: &str, attack: &str) -> Run {
    let path = variant(scratch, "right.py", name, PY_TOP, &py_once(attack));
    let run = judge(
        scratch,
        &[&path, "--json", "--seconds", "60", "--graphs", "100"],
        secs(45),
    );
    assert!(matches!(run.code(), Some(0 | 1)), "{run}");
    scratch.assert_nothing_left(&run);
    run
}

/// Attack: a daemon, `Popen(..., start_new_session=True)` with its standard streams
/// on `/dev/null`: a new session and process group, and no pipe to the judge.
#[test]
fn a_detached_session_does_not_outlive_the_run() {
    let scratch = Scratch::new("detached");
    let attack = r#"
subprocess.Popen(["MARKER", "1000"], executable="sleep", start_new_session=True,
                 stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                 stderr=subprocess.DEVNULL)
"#
    .replace("MARKER", &scratch.marker());
    assert_nothing_outlives(&scratch, "detached.py", &attack);
}

/// Attack: the classic double fork: a child calls `setsid`, forks a grandchild that
/// sleeps, and exits, so that the grandchild belongs to init.
#[test]
fn a_setsid_grandchild_does_not_outlive_the_run() {
    let scratch = Scratch::new("setsid");
    let attack = r#"
pid = os.fork()
if pid == 0:
    try:
        os.setsid()
        if os.fork() == 0:
            os.execvp("sleep", ["MARKER", "1000"])
    finally:
        os._exit(0)
os.waitpid(pid, 0)
"#
    .replace("MARKER", &scratch.marker());
    assert_nothing_outlives(&scratch, "setsid.py", &attack);
}

/// Attack: a child that spins on the CPU for ever, holding the inherited pipes.
#[test]
fn a_spinning_child_does_not_outlive_the_run() {
    let scratch = Scratch::new("spinner");
    let attack = r#"
subprocess.Popen(["sh", "-c", "while :; do :; done", "MARKER"])
"#
    .replace("MARKER", &scratch.marker());
    assert_nothing_outlives(&scratch, "spinner.py", &attack);
}

/// Attack: 300 forks in a loop, each child sleeping (fork errors are caught). Not all
/// of them succeed (the number of processes is bounded; counted from outside while it
/// runs), the run ends, and none is left.
#[test]
fn three_hundred_forks_are_bounded_and_do_not_outlive_the_run() {
    let scratch = Scratch::new("forks");
    let marker = scratch.marker();
    let attack = r#"
forked = 0
for _ in range(300):
    try:
        pid = os.fork()
    except OSError:
        break
    if pid == 0:
        try:
            os.execvp("sleep", ["MARKER", "1000"])
        finally:
            os._exit(1)
    forked += 1
print("forked", forked, file=sys.stderr)
time.sleep(1)
"#
    .replace("MARKER", &marker);
    let stop = Arc::new(AtomicBool::new(false));
    let most = Arc::new(AtomicUsize::new(0));
    let watcher = {
        let (stop, most) = (Arc::clone(&stop), Arc::clone(&most));
        let needles = vec![marker];
        std::thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                most.fetch_max(processes_matching(&needles).len(), Ordering::Relaxed);
                std::thread::sleep(Duration::from_millis(50));
            }
        })
    };
    let run = assert_nothing_outlives(&scratch, "forks.py", &attack);
    stop.store(true, Ordering::Relaxed);
    watcher.join().unwrap();
    let most = most.load(Ordering::Relaxed);
    assert!(
        most < 300,
        "all 300 forks succeeded ({most} sleeping children at once)\n{run}"
    );
}

/// A Python solution that spins on every graph, after starting a marked child that
/// spins too.
fn spinner(scratch: &Scratch) -> String {
    let attack = r#"
subprocess.Popen(["sh", "-c", "while :; do :; done", "MARKER"])
"#
    .replace("MARKER", &scratch.marker());
    let body = format!("{}while True:\n    pass\n", py_once(&attack));
    variant(scratch, "right.py", "spin.py", PY_TOP, &body)
}

/// `cmg judge ARGS`, sent `signal` after 3 s: ends with `code` within about 10 s more,
/// leaving nothing behind.
fn assert_signal_ends_the_run(scratch: &Scratch, args: &[&str], signal: &str, code: i32) -> Run {
    let running = start(scratch, &[], args);
    std::thread::sleep(secs(3));
    running.signal(signal);
    let run = running.finish(scratch, secs(3 + 13));
    assert_eq!(run.code(), Some(code), "SIG{signal}: {run}");
    scratch.assert_nothing_left(&run);
    run
}

/// Attack from the user's side: SIGTERM to `cmg` alone while a spinning solution (and
/// its spinning child) runs: exit 143, the report printed with `"interrupted": true`.
#[test]
fn sigterm_during_a_spinning_solution_ends_the_run() {
    let scratch = Scratch::new("sigterm-spin");
    let path = spinner(&scratch);
    let run =
        assert_signal_ends_the_run(&scratch, &[&path, "--json", "--seconds", "60"], "TERM", 143);
    assert_eq!(run.json()["interrupted"], true, "{run}");
}

/// SIGINT (Ctrl-C) to `cmg` alone while a spinning solution runs: exit 130, with the
/// report so far printed.
#[test]
fn sigint_during_a_spinning_solution_ends_the_run() {
    let scratch = Scratch::new("sigint-spin");
    let path = spinner(&scratch);
    let run = assert_signal_ends_the_run(&scratch, &[&path, "--seconds", "60"], "INT", 130);
    assert!(!run.stdout.trim().is_empty(), "no report: {run}");
}

/// SIGHUP (the terminal closed) to `cmg` alone while a spinning solution runs: exit
/// 129, with `"interrupted": true`.
#[test]
fn sighup_during_a_spinning_solution_ends_the_run() {
    let scratch = Scratch::new("sighup-spin");
    let path = spinner(&scratch);
    let run =
        assert_signal_ends_the_run(&scratch, &[&path, "--json", "--seconds", "60"], "HUP", 129);
    assert_eq!(run.json()["interrupted"], true, "{run}");
}

/// SIGTERM during a long run of a right solution: exit 143, and the report so far:
/// no counterexample among the graphs tried, interrupted.
#[test]
fn sigterm_during_a_right_solution_reports_what_was_checked() {
    let scratch = Scratch::new("sigterm-right");
    let right = fixture("right.py");
    let run = assert_signal_ends_the_run(
        &scratch,
        &[&right, "--json", "--seconds", "60"],
        "TERM",
        143,
    );
    let json = run.json();
    assert_eq!(json["verdict"], "no-counterexample", "{run}");
    assert_eq!(json["interrupted"], true, "{run}");
    let tried: u64 = ["small", "record", "long", "random"]
        .iter()
        .filter_map(|kind| json["checked"][kind].as_u64())
        .sum();
    assert!(tried > 0, "{run}");
}

/// Processes that spin beside the test, killed when dropped.
struct Busy(Vec<Child>);

impl Drop for Busy {
    fn drop(&mut self) {
        for child in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// Attack from outside: two processes spinning beside the judge on a machine of two
/// cores. Right answers stay right: no time limit out of a slow wall clock.
#[test]
fn a_busy_machine_does_not_fail_a_right_solution() {
    let scratch = Scratch::new("busy");
    let busy = Busy(
        (0..2)
            .map(|_| {
                Command::new("sh")
                    .args(["-c", "while :; do :; done", "cmg-hostile-busy"])
                    .spawn()
                    .unwrap()
            })
            .collect(),
    );
    let right = fixture("right.py");
    let run = judge(
        &scratch,
        &[&right, "--json", "--seconds", "120", "--graphs", "400"],
        secs(90),
    );
    drop(busy);
    assert_eq!(run.code(), Some(0), "{run}");
    assert_eq!(run.json()["verdict"], "no-counterexample", "{run}");
    scratch.assert_nothing_left(&run);
}

/// `path` is a `memory-limit` within `bound`.
fn assert_memory_limit(scratch: &Scratch, path: &str, bound: Duration) -> Option<String> {
    let run = judge(
        scratch,
        &[path, "--json", "--seconds", "60", "--graphs", "50"],
        bound + secs(20),
    );
    let failure =
        (run.code() != Some(1) || run.json()["verdict"] != "memory-limit" || run.elapsed >= bound)
            .then(|| format!("expected a memory-limit within {bound:?}\n{run}"));
    scratch.assert_nothing_left(&run);
    failure
}

/// Attack: Node.js memory outside the V8 heap (which `--max-old-space-size` bounds):
/// `Buffer.alloc` of 64 MiB chunks, kept, up to 3 GiB.
#[test]
fn node_buffers_outside_the_heap_are_a_memory_limit() {
    let scratch = Scratch::new("node-buffers");
    let path = variant(
        &scratch,
        "right.js",
        "buffers.js",
        "const HOARD = [];\n",
        "if (HOARD.length === 0) {\n  for (let i = 0; i < 48; i += 1) HOARD.push(Buffer.alloc(64 << 20, 1));\n}\n",
    );
    let failure = assert_memory_limit(&scratch, &path, secs(30));
    assert!(failure.is_none(), "{}", failure.unwrap_or_default());
}

/// Attack: Java memory outside the heap (direct `ByteBuffer`s of 64 MiB, kept, up to
/// 3 GiB), and inside it (arrays of 64 MiB, kept, up to 3 GiB).
#[test]
fn java_direct_buffers_and_big_arrays_are_a_memory_limit() {
    let scratch = Scratch::new("java-memory");
    let fill = |kind: &str, new: &str| {
        (
            format!("class Hoard {{ static final java.util.List<{kind}> KEEP = new java.util.ArrayList<>(); }}\n"),
            format!("if (Hoard.KEEP.isEmpty()) {{\n    for (int i = 0; i < 48; i++) Hoard.KEEP.add({new});\n}}\n"),
        )
    };
    let direct = fill(
        "java.nio.ByteBuffer",
        "java.nio.ByteBuffer.allocateDirect(64 << 20)",
    );
    let arrays = fill("long[]", "new long[8 << 20]");
    let mut failures = Vec::new();
    for (name, (top, body)) in [("Direct.java", direct), ("Arrays.java", arrays)] {
        let path = variant(&scratch, "Right.java", name, &top, &body);
        failures.extend(assert_memory_limit(&scratch, &path, secs(30)));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Attack: a Python list of 2^29 items (4 GiB of pointers) on every call.
#[test]
fn a_huge_python_list_is_a_memory_limit() {
    let scratch = Scratch::new("python-list");
    let path = variant(
        &scratch,
        "right.py",
        "list.py",
        "",
        "hoard = [0] * (1 << 29)\n",
    );
    let failure = assert_memory_limit(&scratch, &path, secs(30));
    assert!(failure.is_none(), "{}", failure.unwrap_or_default());
}

/// Bad numbers are usage errors (exit 2), never a panic (101) nor a run without end:
/// `--seconds` 1e19 (a deadline past what an `Instant` holds), 0, -1 and NaN,
/// `--shrink-seconds -1` and `--graphs 0`; with `--json`, the error is an object `{"error": ...}` on stdout.
#[test]
fn bad_numbers_are_usage_errors() {
    let scratch = Scratch::new("bad-numbers");
    let right = fixture("right.py");
    let mut failures = Vec::new();
    let bad = [
        ("--seconds", "1e19"),
        ("--seconds", "0"),
        ("--seconds", "-1"),
        ("--seconds", "nan"),
        ("--shrink-seconds", "-1"),
        ("--graphs", "0"),
    ];
    for (flag, value) in bad {
        let run = judge(&scratch, &[&right, flag, value], secs(30));
        if run.code() != Some(2) || run.stderr.trim().is_empty() {
            failures.push(format!("expected exit 2 with a message\n{run}"));
        }
        // `--flag=value`: clap takes `-1` as the value, so the judge sees it.
        let joined = format!("{flag}={value}");
        let run = judge(&scratch, &[&right, "--json", &joined], secs(30));
        if run.code() != Some(2) || !run.json()["error"].is_string() {
            failures.push(format!("expected exit 2 and {{\"error\": ...}}\n{run}"));
        }
        scratch.assert_nothing_left(&run);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Solutions of the wrong shape: an empty file, a misspelled method (`catmouseGame`),
/// a bare function without the class, JavaScript without `catMouseGame`. Each is exit 2
/// before any graph, naming `catMouseGame`; with `--json`, in `{"error": ...}`.
#[test]
fn solutions_of_the_wrong_shape_are_usage_errors_naming_the_method() {
    let scratch = Scratch::new("shape");
    let right_py = std::fs::read_to_string(fixture("right.py")).unwrap();
    let right_js = std::fs::read_to_string(fixture("right.js")).unwrap();
    let shapes = [
        ("empty.py", String::new()),
        (
            "misspelled.py",
            right_py.replacen("def catMouseGame", "def catmouseGame", 1),
        ),
        (
            "bare.py",
            "def catMouseGame(graph):\n    return 0\n".to_owned(),
        ),
        (
            "no_function.js",
            right_js.replacen("var catMouseGame", "var solve", 1),
        ),
    ];
    let mut failures = Vec::new();
    for (name, text) in &shapes {
        let path = scratch.write(name, text);
        let run = judge(&scratch, &[&path, "--seconds", "60"], secs(30));
        if run.code() != Some(2) || !run.stderr.contains("catMouseGame") || run.elapsed > secs(10) {
            failures.push(format!(
                "{name}: expected a quick exit 2 naming catMouseGame\n{run}"
            ));
        }
        let run = judge(&scratch, &[&path, "--json", "--seconds", "60"], secs(30));
        let error = run.json()["error"].as_str().unwrap_or_default().to_owned();
        if run.code() != Some(2) || !error.contains("catMouseGame") {
            failures.push(format!(
                "{name}: expected exit 2 and {{\"error\": ...}} naming catMouseGame\n{run}"
            ));
        }
        scratch.assert_nothing_left(&run);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Attack: the solution writes a file outside its folder (a path in this test's own
/// folder), swallows any error, and answers right. Under Landlock the file is not
/// there afterwards; with `--no-sandbox` it is (the test can see the write).
#[test]
fn the_sandbox_stops_a_write_outside_the_folder() {
    let scratch = Scratch::new("sandbox-write");
    let target = scratch.path("escaped.txt");
    let attack = r#"
try:
    with open("TARGET", "w") as file:
        file.write("escaped")
except Exception:
    pass
"#
    .replace("TARGET", target.to_str().unwrap());
    let path = variant(&scratch, "right.py", "write.py", PY_TOP, &py_once(&attack));
    let args = [path.as_str(), "--json", "--seconds", "60", "--graphs", "20"];
    let run = judge(&scratch, &args, secs(45));
    assert!(
        !target.exists(),
        "the solution wrote {}\n{run}",
        target.display()
    );
    assert_eq!(run.code(), Some(0), "{run}");
    assert_eq!(run.json()["sandbox"], "landlock", "{run}");
    scratch.assert_nothing_left(&run);

    let run = judge(
        &scratch,
        &[&args[..], &["--no-sandbox"][..]].concat(),
        secs(45),
    );
    assert_eq!(run.code(), Some(0), "{run}");
    assert_eq!(run.json()["sandbox"], "none", "{run}");
    assert!(
        target.exists(),
        "without the sandbox, the write should have happened\n{run}"
    );
    scratch.assert_nothing_left(&run);
}

/// Attack: the solution opens a TCP connection to a port this test listens on,
/// swallows any error, and answers right. Under Landlock no connection arrives; with
/// `--no-sandbox` one does.
#[test]
fn the_sandbox_stops_a_tcp_connection() {
    let scratch = Scratch::new("sandbox-tcp");
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    let attack = r#"
try:
    socket.create_connection(("127.0.0.1", PORT), timeout=2).close()
except Exception:
    pass
"#
    .replace("PORT", &port.to_string());
    let path = variant(
        &scratch,
        "right.py",
        "connect.py",
        PY_TOP,
        &py_once(&attack),
    );
    let args = [path.as_str(), "--json", "--seconds", "60", "--graphs", "20"];
    let run = judge(&scratch, &args, secs(45));
    let accepted = listener.accept();
    assert!(
        matches!(&accepted, Err(error) if error.kind() == std::io::ErrorKind::WouldBlock),
        "the solution connected: {accepted:?}\n{run}"
    );
    assert_eq!(run.code(), Some(0), "{run}");
    assert_eq!(run.json()["sandbox"], "landlock", "{run}");
    scratch.assert_nothing_left(&run);

    let run = judge(
        &scratch,
        &[&args[..], &["--no-sandbox"][..]].concat(),
        secs(45),
    );
    assert_eq!(run.code(), Some(0), "{run}");
    assert_eq!(run.json()["sandbox"], "none", "{run}");
    assert!(
        listener.accept().is_ok(),
        "without the sandbox, the connection should have arrived\n{run}"
    );
    scratch.assert_nothing_left(&run);
}

/// `--keep DIR` into a folder that already holds `failing-001-…` and `failing-002-…`:
/// the new files are numbered from 003 on, and the two are left as they were.
#[test]
fn keep_numbers_on_after_the_files_already_there() {
    let scratch = Scratch::new("keep");
    let keep = scratch.path("kept");
    std::fs::create_dir_all(&keep).unwrap();
    // The names the judge gave its first two files so far: crash.py fails on 5 nodes.
    let mine = [
        (
            "failing-001-5-nodes.cmg",
            "# mine, the first\n0 -- 1 -- 2\n",
        ),
        (
            "failing-002-5-nodes.cmg",
            "# mine, the second\n0 -- 1 -- 2 -- 3\n",
        ),
    ];
    for (name, text) in mine {
        std::fs::write(keep.join(name), text).unwrap();
    }
    let crash = variant(
        &scratch,
        "right.py",
        "crash.py",
        "",
        "if len(graph) == 5:\n    raise ValueError('five nodes')\n",
    );
    let run = judge(
        &scratch,
        &[
            &crash,
            "--json",
            "--seconds",
            "60",
            "--keep",
            keep.to_str().unwrap(),
        ],
        secs(60),
    );
    assert_eq!(run.code(), Some(1), "{run}");
    for (name, text) in mine {
        let now = std::fs::read_to_string(keep.join(name)).unwrap_or_default();
        assert_eq!(now, text, "{name} was overwritten\n{run}");
    }
    let mut names: Vec<String> = std::fs::read_dir(&keep)
        .unwrap()
        .flatten()
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert!(
        names
            .iter()
            .any(|name| name.starts_with("failing-003-") && name.ends_with(".cmg")),
        "no failing-003-…: {names:?}\n{run}"
    );
    scratch.assert_nothing_left(&run);
}

/// A slow wrong solution: wrong on every graph of 30 nodes or more, and 0.3 s per call
/// there. A 30-node record graph, kept in `--keep`'s folder as an earlier run's failure,
/// is tried first and fails; its shrinking would take about 25 s on its own (80 steps);
/// `--shrink-seconds 3` bounds it, and the counterexample (as far as it got) is
/// reported.
#[test]
fn shrinking_is_bounded_by_shrink_seconds() {
    let scratch = Scratch::new("shrink");
    let source = std::fs::read_to_string(fixture("right.py")).unwrap();
    let answer = "        return color[1][2][0]\n";
    assert!(source.contains(answer));
    let wrong = source.replacen(
        answer,
        "        return (color[1][2][0] + (len(graph) >= 30)) % 3\n",
        1,
    );
    let (opening, _) = method_opening("right.py");
    let slow = wrong.replacen(
        opening,
        &format!("{opening}        if len(graph) >= 30:\n            time.sleep(0.3)\n"),
        1,
    );
    let path = scratch.write("slow_wrong.py", &format!("import time\n{slow}"));
    let record = std::fs::read_to_string(format!(
        "{}/examples/records/n30-140.cmg",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let kept = scratch.write("kept/failing-001-30-nodes.cmg", &record);
    let kept = std::path::Path::new(&kept)
        .parent()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    let run = judge(
        &scratch,
        &[
            &path,
            "--json",
            "--seconds",
            "10",
            "--shrink-seconds",
            "3",
            "--keep",
            &kept,
        ],
        secs(60),
    );
    assert_eq!(run.code(), Some(1), "{run}");
    let json = run.json();
    assert_eq!(json["verdict"], "wrong-answer", "{run}");
    assert!(json["graph"].as_array().map_or(0, Vec::len) >= 30, "{run}");
    assert!(
        run.elapsed < secs(10 + 3 + 8),
        "shrinking went on past --shrink-seconds: {run}"
    );
    scratch.assert_nothing_left(&run);
}

/// The new fields of `--json`: `error`, the end (at most 4000 characters) of the
/// failing graph's standard error, here after a flood of 120 000 characters; `sandbox`;
/// `interrupted`, false when nothing interrupted the run; `error` null on a pass.
#[test]
fn the_json_report_has_error_sandbox_and_interrupted() {
    let scratch = Scratch::new("fields");
    let path = variant(
        &scratch,
        "right.py",
        "flood.py",
        "",
        "if len(graph) == 5:\n    sys.stderr.write('noise ' * 20000)\n    raise ValueError('the last words')\n",
    );
    let run = judge(&scratch, &[&path, "--json", "--seconds", "60"], secs(60));
    assert_eq!(run.code(), Some(1), "{run}");
    let json = run.json();
    assert_eq!(json["verdict"], "runtime-error", "{run}");
    let error = json["error"].as_str().unwrap_or_default();
    assert!(error.contains("the last words"), "{run}");
    assert!(error.chars().count() <= 4000, "{run}");
    assert_eq!(json["sandbox"], "landlock", "{run}");
    assert_eq!(json["interrupted"], false, "{run}");
    scratch.assert_nothing_left(&run);

    let right = fixture("right.py");
    let run = judge(
        &scratch,
        &[&right, "--json", "--seconds", "60", "--graphs", "50"],
        secs(45),
    );
    assert_eq!(run.code(), Some(0), "{run}");
    let json = run.json();
    assert_eq!(json.get("error"), Some(&Value::Null), "{run}");
    assert_eq!(json["interrupted"], false, "{run}");
    assert_eq!(json["sandbox"], "landlock", "{run}");
    scratch.assert_nothing_left(&run);
}
