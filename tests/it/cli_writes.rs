//! How `cmg` writes: a user's file is replaced whole or not at all (a full disk, a
//! symbolic link, permissions, a file already formatted), and a failed write to
//! standard output is an error (every command on `/dev/full`), unlike a closed pipe.

use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};
use std::time::{Duration, Instant};

use crate::common::slow_tests;
use crate::common::temp_dir::TempDir;

fn cmg(args: &[&str]) -> Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_cmg"))
        .args(args)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("cmg runs")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// About 12 KB of edges written `3--4`, which formatting widens to `3 -- 4`: the
/// formatted file is larger than the original, so it cannot fit where the original did.
fn unformatted_graph() -> String {
    let mut text = String::from("0--1\n1--2\n");
    let mut node = 3;
    while text.len() < 12_000 {
        text.push_str(&format!("{node}--{}\n", node + 1));
        node += 1;
    }
    text
}

/// The names in a folder, sorted: a temporary file left behind shows here.
fn names(folder: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(folder)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// A 64 KiB tmpfs, unmounted when dropped.
struct SmallDisk(PathBuf);

impl SmallDisk {
    /// `None` where it cannot be mounted (not root, no mount command, in a container
    /// without the right): under `CMG_SLOW_TESTS`, as in CI, which runs as root, that
    /// is a failure, not a skip.
    fn mount(folder: &Path) -> Option<SmallDisk> {
        let point = folder.join("disk");
        std::fs::create_dir_all(&point).unwrap();
        let mounted = std::process::Command::new("mount")
            .args(["-t", "tmpfs", "-o", "size=64k", "tmpfs"])
            .arg(&point)
            .output();
        let why = match mounted {
            Ok(output) if output.status.success() => return Some(SmallDisk(point)),
            Ok(output) => stderr(&output),
            Err(error) => error.to_string(),
        };
        assert!(
            !slow_tests(),
            "cannot mount a 64 KiB tmpfs for the full-disk test (it needs root): {why}"
        );
        eprintln!("full-disk test not run: cannot mount a tmpfs ({why}); CMG_SLOW_TESTS=1 as root runs it");
        None
    }

    /// Writes 4 KiB blocks to `fill` until the disk refuses one.
    fn fill(&self) {
        use std::io::Write;
        let mut filler = std::fs::File::create(self.0.join("fill")).unwrap();
        let block = [0u8; 4096];
        while filler
            .write_all(&block)
            .and_then(|()| filler.flush())
            .is_ok()
        {}
        let _ = filler.sync_all();
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = std::process::Command::new("umount").arg(&self.0).output();
    }
}

#[test]
fn fmt_on_a_full_disk_leaves_the_file_as_it_was() {
    let folder = TempDir::new("full-disk");
    let Some(disk) = SmallDisk::mount(folder.path()) else {
        return;
    };
    let original = unformatted_graph();
    let graph = disk.0.join("g.cmg");
    std::fs::write(&graph, &original).unwrap();
    let picture = disk.0.join("g.svg");
    std::fs::write(&picture, "<svg>an older picture</svg>\n").unwrap();
    disk.fill();

    let run = cmg(&["fmt", graph.to_str().unwrap()]);
    assert_eq!(run.status.code(), Some(2), "{}", stderr(&run));
    assert!(
        stderr(&run).contains("cannot write") && stderr(&run).contains("No space left on device"),
        "{}",
        stderr(&run)
    );
    assert!(
        std::fs::read_to_string(&graph).unwrap() == original,
        "the file changed"
    );

    // The same for the picture of `view --export`.
    let run = cmg(&[
        "view",
        "--export",
        picture.to_str().unwrap(),
        graph.to_str().unwrap(),
    ]);
    assert_eq!(run.status.code(), Some(2), "{}", stderr(&run));
    assert_eq!(
        std::fs::read_to_string(&picture).unwrap(),
        "<svg>an older picture</svg>\n"
    );
    assert_eq!(
        names(&disk.0),
        ["fill", "g.cmg", "g.svg"],
        "nothing left behind"
    );

    // With room again, the same command formats the file.
    std::fs::remove_file(disk.0.join("fill")).unwrap();
    let run = cmg(&["fmt", graph.to_str().unwrap()]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    assert!(std::fs::read_to_string(&graph)
        .unwrap()
        .starts_with("0 -- 1\n"));
}

#[test]
fn fmt_writes_through_a_symlink_and_keeps_the_permissions() {
    let folder = TempDir::new("fmt-symlink");
    let games = folder.path().join("games");
    std::fs::create_dir(&games).unwrap();
    let real = games.join("real.cmg");
    std::fs::write(&real, "0--1--2\n").unwrap();
    std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o640)).unwrap();
    // A link in another folder, as a dotfiles checkout makes.
    let link = folder.path().join("link.cmg");
    std::os::unix::fs::symlink("games/real.cmg", &link).unwrap();

    let run = cmg(&["fmt", link.to_str().unwrap()]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(
        std::fs::read_link(&link).unwrap(),
        Path::new("games/real.cmg")
    );
    assert_eq!(std::fs::read_to_string(&real).unwrap(), "0 -- 1 -- 2\n");
    assert_eq!(
        std::fs::metadata(&real).unwrap().permissions().mode() & 0o7777,
        0o640
    );
    assert_eq!(names(folder.path()), ["games", "link.cmg"]);
    assert_eq!(names(&games), ["real.cmg"]);
}

#[test]
fn fmt_does_not_rewrite_a_formatted_file() {
    let folder = TempDir::new("fmt-unchanged");
    let path = folder.path().join("done.cmg");
    std::fs::write(&path, "0 -- 1 -- 2\n").unwrap();
    let past = std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_000_000_000);
    std::fs::File::options()
        .write(true)
        .open(&path)
        .unwrap()
        .set_modified(past)
        .unwrap();
    let before = std::fs::metadata(&path).unwrap();

    let run = cmg(&["fmt", path.to_str().unwrap()]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let after = std::fs::metadata(&path).unwrap();
    assert_eq!(after.modified().unwrap(), past, "the file was rewritten");
    assert_eq!(after.ino(), before.ino(), "the file was replaced");
}

#[test]
fn view_export_makes_a_new_file_as_a_plain_create_would() {
    let folder = TempDir::new("export-new");
    folder.write("g.cmg", "0 -- 1 -- 2\n");
    let picture = folder.path().join("g.svg");
    let run = cmg(&[
        "view",
        "--export",
        picture.to_str().unwrap(),
        folder.path().join("g.cmg").to_str().unwrap(),
    ]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    assert!(std::fs::read_to_string(&picture)
        .unwrap()
        .starts_with("<svg"));
    // 0666 less the umask, as `File::create` gives, not the 0600 of a temporary file.
    let mode = |path: &Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o7777;
    let plain = folder.path().join("plain");
    std::fs::File::create(&plain).unwrap();
    assert_eq!(mode(&picture), mode(&plain));
    assert_eq!(names(folder.path()), ["g.cmg", "g.svg", "plain"]);
}

/// One way to run a command that writes to standard output.
struct Case {
    args: Vec<String>,
    /// What standard input holds.
    stdin: &'static str,
    /// The exit code when the output is read (or thrown away by the reader).
    code: i32,
    /// It serves until stopped once its output is written (`cmg view`).
    serves: bool,
}

/// A small game, and a file that `fmt --check` would change, in `folder`; and the
/// command lines that write to standard output, covering every command `cmg --help`
/// lists (checked here, so that a new command needs a case).
fn cases(folder: &TempDir) -> Vec<Case> {
    folder.write("g.cmg", "0 -- 1 -- 2 -- 3\n");
    folder.write("wide.cmg", "0--1--2\n");
    let g = folder.path().join("g.cmg").to_str().unwrap().to_owned();
    let wide = folder.path().join("wide.cmg").to_str().unwrap().to_owned();
    let initialize = concat!(
        "Content-Length: 58\r\n\r\n",
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#
    );
    let case = |args: &[&str], stdin, code, serves| Case {
        args: args
            .iter()
            .map(|arg| arg.replace("G", &g).replace("W", &wide))
            .collect(),
        stdin,
        code,
        serves,
    };
    let cases = vec![
        case(&["check", "G"], "", 0, false),
        case(&["check", "--json", "G"], "", 0, false),
        case(&["solve", "G"], "", 0, false),
        case(&["solve", "--strategy", "--what-if", "G"], "", 0, false),
        case(&["fmt", "-"], "0--1--2\n", 0, false),
        case(&["fmt", "--check", "W"], "", 1, false),
        case(&["import", "--text", "[[1,2],[0],[0]]"], "", 0, false),
        case(&["export", "G"], "", 0, false),
        case(&["dot", "G"], "", 0, false),
        case(&["explain", "self-loop"], "", 0, false),
        case(&["explain", "--list"], "", 0, false),
        case(&["lsp"], initialize, 0, false),
        case(&["completions", "bash"], "", 0, false),
        case(&["man"], "", 0, false),
        case(&["view", "--export", "-", "G"], "", 0, false),
        case(&["view", "--no-open", "G"], "", 0, true),
        case(
            &[
                "gen",
                "--nodes",
                "6",
                "--seconds",
                "1",
                "--steps",
                "2",
                "--threads",
                "1",
            ],
            "",
            0,
            false,
        ),
        case(
            &[
                "judge",
                concat!(
                    env!("CARGO_MANIFEST_DIR"),
                    "/tests/judge/provisional_draw.py"
                ),
                "--seconds",
                "60",
            ],
            "",
            1,
            false,
        ),
        case(&["help"], "", 0, false),
        case(&["--help"], "", 0, false),
        case(&["--version"], "", 0, false),
    ];
    let help = cmg(&["--help"]);
    let help = String::from_utf8(help.stdout).unwrap();
    let commands = help
        .lines()
        .skip_while(|line| *line != "Commands:")
        .skip(1)
        .take_while(|line| !line.is_empty())
        .filter_map(|line| line.split_whitespace().next());
    for command in commands {
        assert!(
            cases.iter().any(|case| case.args[0] == command),
            "`cmg {command}` has no case here"
        );
    }
    cases
}

/// Runs `case` with `stdout` as its standard output, stopping it after 60 s (a command
/// that serves instead of failing).
fn run_case(case: &Case, folder: &TempDir, stdout: Stdio) -> (Option<i32>, String) {
    folder.write("stdin", case.stdin);
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_cmg"))
        .args(&case.args)
        .stdin(std::fs::File::open(folder.path().join("stdin")).unwrap())
        .stdout(stdout)
        .stderr(Stdio::piped())
        .spawn()
        .expect("cmg runs");
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() && started.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.kill();
    let output = child.wait_with_output().unwrap();
    (output.status.code(), stderr(&output))
}

#[test]
fn every_command_reports_a_full_standard_output() {
    let folder = TempDir::new("dev-full");
    let mut wrong = Vec::new();
    for case in cases(&folder) {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let (code, said) = run_case(&case, &folder, full.into());
        let command = case.args.join(" ");
        assert!(!said.contains("panicked"), "cmg {command}: {said}");
        // The language server's standard output is its transport: a write that fails
        // means the client is gone, and the server ends as it does when it goes.
        let expected = if case.args[0] == "lsp" { 0 } else { 2 };
        let reported = case.args[0] == "lsp"
            || said.contains("cannot write to standard output: No space left");
        if code != Some(expected) || !reported {
            wrong.push(format!("cmg {command}: exit {code:?}, stderr {said:?}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn a_closed_pipe_is_not_an_error() {
    let folder = TempDir::new("closed-pipe");
    let mut wrong = Vec::new();
    for case in cases(&folder).into_iter().filter(|case| !case.serves) {
        // The reader is gone before the command writes, as `| head` is once it has
        // enough (most outputs fit a pipe's buffer, so reading first would not close it).
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let (code, said) = run_case(&case, &folder, writer.into());
        let command = case.args.join(" ");
        let quiet = !said.contains("cannot write") && !said.contains("panicked");
        if code != Some(case.code) || !quiet {
            wrong.push(format!("cmg {command}: exit {code:?}, stderr {said:?}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn a_full_standard_error_does_not_panic() {
    let folder = TempDir::new("stderr-full");
    folder.write("loop.cmg", "0 -- 1 -- 2\n1 -- 1\n");
    folder.write("wide.cmg", "0--1--2\n");
    let path = |name: &str| folder.path().join(name).to_str().unwrap().to_owned();
    let cases: [(&[&str], i32); 5] = [
        (&["check", &path("loop.cmg")], 1),
        (&["fmt", "--check", &path("wide.cmg")], 1),
        (&["solve", &path("missing.cmg")], 2),
        (&["export", &path("loop.cmg")], 0),
        (&["nosuch"], 2),
    ];
    for (args, expected) in cases {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let status = std::process::Command::new(env!("CARGO_BIN_EXE_cmg"))
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(full)
            .status()
            .unwrap();
        assert_eq!(status.code(), Some(expected), "cmg {}", args.join(" "));
    }
}
