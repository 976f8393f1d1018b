//! End-to-end tests of the `cmg` command line: every command run as a process, plus the sample files under `examples/`.

// Shared with the robustness tests and benchmarks; this file uses only some of it.
use crate::common::examples;
use crate::common::hostile;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::common::slow_tests;
use assert_cmd::Command;
use examples::{all_examples, example};
use serde_json::Value;

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

/// What a run of `cmg` left behind.
struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

impl Run {
    /// stdout and stderr together, for assertions that do not care which stream is used.
    fn all(&self) -> String {
        format!("{}{}", self.stdout, self.stderr)
    }

    fn json(&self) -> Value {
        serde_json::from_str(&self.stdout).unwrap_or_else(|error| {
            panic!(
                "stdout is not one JSON value ({error}):\n{}\nstderr:\n{}",
                self.stdout, self.stderr
            )
        })
    }

    /// The run, once it is checked to have ended with exit status `code`.
    fn exits(self, code: i32) -> Run {
        assert_eq!(self.code, code, "{self:?}");
        self
    }
}

impl std::fmt::Debug for Run {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "exit {}\n--- stdout ---\n{}\n--- stderr ---\n{}",
            self.code, self.stdout, self.stderr
        )
    }
}

fn cmg() -> Command {
    Command::new(env!("CARGO_BIN_EXE_cmg"))
}

fn run_with(args: &[&str], stdin: Option<&str>) -> Run {
    let mut command = cmg();
    command.args(args);
    // Always give the child a stdin, so that nothing waits on the terminal.
    command.write_stdin(stdin.unwrap_or(""));
    let output = command.output().expect("cmg runs");
    Run {
        code: output
            .status
            .code()
            .expect("cmg exits normally, not by a signal"),
        stdout: String::from_utf8(output.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(output.stderr).expect("stderr is UTF-8"),
    }
}

fn run(args: &[&str]) -> Run {
    run_with(args, None)
}

fn run_stdin(args: &[&str], stdin: &str) -> Run {
    run_with(args, Some(stdin))
}

/// A fresh directory under the system temp dir, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let unique = format!(
            "cmg-cli-test-{name}-{}-{}-{}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::SeqCst),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos())
        );
        let path = std::env::temp_dir().join(unique);
        std::fs::create_dir_all(&path).expect("create temp dir");
        TempDir(path)
    }

    /// Writes `text` to `name` in the directory and returns the path as a string.
    fn file(&self, name: &str, text: &str) -> String {
        let path = self.0.join(name);
        std::fs::write(&path, text).expect("write temp file");
        path.to_str().expect("temp path is UTF-8").to_owned()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The examples that only exist to show diagnostics.
const DIAGNOSTIC_EXAMPLES: [&str; 4] = [
    "every-diagnostic.cmg",
    "no-game.cmg",
    "syntax-error.cmg",
    "rule-diagnostics.cmg",
];

/// Every diagnostic code, from the model's own list: a code added there is checked here
/// without another copy to keep in step.
fn all_codes() -> impl Iterator<Item = &'static str> {
    cmg_core::model::Code::ALL.iter().map(|code| code.as_str())
}

fn codes(diagnostics: &Value) -> Vec<String> {
    diagnostics
        .as_array()
        .expect("an array of diagnostics")
        .iter()
        .map(|d| d["code"].as_str().expect("code is a string").to_owned())
        .collect()
}

/// The diagnostic with `code` in a `check --json` array; panics if there is none.
fn find<'a>(diagnostics: &'a Value, code: &str) -> &'a Value {
    diagnostics
        .as_array()
        .expect("an array of diagnostics")
        .iter()
        .find(|d| d["code"] == code)
        .unwrap_or_else(|| panic!("no {code} diagnostic in {diagnostics:#}"))
}

fn position(value: &Value) -> (u64, u64) {
    (
        value["line"].as_u64().expect("line is a number"),
        value["column"].as_u64().expect("column is a number"),
    )
}

/// The adjacency JSON `cmg export` prints for a file.
fn export_lists(path: &str) -> Vec<Vec<u64>> {
    let out = run(&["export", path]).exits(0);
    serde_json::from_str(out.stdout.trim())
        .unwrap_or_else(|e| panic!("export is not JSON ({e}): {out:?}"))
}

const DRAW_LISTS: &str = "[[2,5],[3],[0,4,5],[1,4,5],[2,3],[0,2,3]]";
const MOUSE_LISTS: &str = "[[1,3],[0],[3],[0,2]]";
const LONG_LISTS: &str = "[[5,7,9],[3,4,5,6],[3,4,5,8],[1,2,6,7],[1,2,5,7,9],[0,1,2,4,8],[1,3,7,8],[0,3,4,6,8],[2,5,6,7,9],[0,4,8]]";

// ---------------------------------------------------------------------------
// cmg check
// ---------------------------------------------------------------------------

#[test]
fn check_human_output_shows_code_location_source_line_and_caret() {
    let dir = TempDir::new("check-human");
    let path = dir.file("broken.cmg", "0 -- 1\n2 -- -- 1\n1 -- 2\n");
    let out = run(&["check", &path]).exits(1);
    let text = out.all();
    assert!(text.contains("[syntax]"), "no code in {out:?}");
    assert!(
        text.contains(&format!("{path}:2:6")),
        "no file:line:col in {out:?}"
    );
    assert!(text.contains("2 -- -- 1"), "no source line in {out:?}");
    let caret_line = text
        .lines()
        .find(|line| line.contains('^'))
        .unwrap_or_else(|| panic!("no caret line in {out:?}"));
    // The caret sits under the second `--`, column 6 of the source line.
    let source_line = text
        .lines()
        .find(|line| line.contains("2 -- -- 1"))
        .unwrap();
    let source_start = source_line.find("2 -- -- 1").unwrap();
    assert_eq!(caret_line.find('^'), Some(source_start + 5), "{out:?}");
}

#[test]
fn check_human_output_names_each_problem_and_related_location() {
    let dir = TempDir::new("check-related");
    let path = dir.file("dup.cmg", "0 -- 1 -- 3\n2 -- 3\n3 -- 1\n");
    let out = run(&["check", &path]);
    assert_eq!(out.code, 0, "a duplicate edge is only a warning: {out:?}");
    let text = out.all();
    assert!(text.contains("warning[duplicate-edge]"), "{out:?}");
    assert!(text.contains(&format!("{path}:3:1")), "{out:?}");
    // The first declaration is shown too, as related information.
    assert!(text.contains("0 -- 1 -- 3"), "{out:?}");
}

#[test]
fn check_json_has_the_fields_of_the_spec() {
    let dir = TempDir::new("check-json");
    let path = dir.file("dup.cmg", "0 -- 1 -- 3\n2 -- 3\n3 -- 1\n3 -- 3\n");
    let out = run(&["check", "--json", &path]).exits(1);
    let json = out.json();
    let array = json.as_array().expect("check --json prints an array");
    assert!(!array.is_empty(), "{out:?}");
    for diagnostic in array {
        assert_eq!(diagnostic["file"], path.as_str(), "{diagnostic}");
        assert!(diagnostic["code"].is_string(), "{diagnostic}");
        assert!(
            diagnostic["message"]
                .as_str()
                .is_some_and(|m| !m.is_empty()),
            "{diagnostic}"
        );
        let severity = diagnostic["severity"]
            .as_str()
            .expect("severity is a string");
        assert!(
            ["error", "warning", "information", "hint"].contains(&severity),
            "{diagnostic}"
        );
        let start = position(&diagnostic["start"]);
        let end = position(&diagnostic["end"]);
        assert!(start.0 >= 1 && start.1 >= 1, "1-based: {diagnostic}");
        assert!(start <= end, "{diagnostic}");
    }
    let duplicate = find(&json, "duplicate-edge");
    assert_eq!(duplicate["severity"], "warning");
    assert_eq!(position(&duplicate["start"]), (3, 1));
    assert_eq!(position(&duplicate["end"]), (3, 7));
    let self_loop = find(&json, "self-loop");
    assert_eq!(self_loop["severity"], "error");
    assert_eq!(position(&self_loop["start"]), (4, 1));
    assert_eq!(position(&self_loop["end"]), (4, 7));
}

#[test]
fn check_json_columns_count_unicode_characters_with_crlf_endings() {
    let dir = TempDir::new("check-unicode");
    // `é` is 2 bytes, the mouse emoji 4 bytes and 2 UTF-16 units; the self-loop starts
    // at character 14 of line 3 (byte 19, UTF-16 unit 15).
    let path = dir.file(
        "unicode.cmg",
        "0 -- 1\r\n2 -- 3 -- 1\r\nnode 3 \"é🐭\"; 5 -- 5\r\n",
    );
    let out = run(&["check", "--json", &path]).exits(1);
    let json = out.json();
    let self_loop = find(&json, "self-loop");
    assert_eq!(position(&self_loop["start"]), (3, 14), "{self_loop}");
    assert_eq!(position(&self_loop["end"]), (3, 20), "{self_loop}");
}

#[test]
fn check_json_counts_lone_carriage_returns_as_line_breaks() {
    let out = run_stdin(&["check", "--json", "-"], "0 -- 1\r2 -- 1\r# é\r4 -- 4\r").exits(1);
    let json = out.json();
    assert_eq!(
        position(&find(&json, "self-loop")["start"]),
        (4, 1),
        "{json:#}"
    );
}

#[test]
fn check_exits_0_on_warnings_and_information_only() {
    // The hole is missing: a warning, and no error.
    let out = run_stdin(&["check", "--json", "-"], "1 -- 2 -- 3 -- 1\n").exits(0);
    let json = out.json();
    assert_eq!(find(&json, "missing-hole")["severity"], "warning");
    assert!(
        json.as_array()
            .unwrap()
            .iter()
            .all(|d| d["severity"] != "error"),
        "{json:#}"
    );

    // The hole cannot be reached from node 1: information only.
    let out = run_stdin(&["check", "--json", "-"], "0 -- 3 -- 4\n1 -- 2 -- 5 -- 1\n").exits(0);
    assert_eq!(
        find(&out.json(), "hole-unreachable")["severity"],
        "information"
    );

    // Human output too.
    let out = run_stdin(&["check", "-"], "1 -- 2 -- 3 -- 1\n").exits(0);
    assert!(out.all().contains("missing-hole"), "{out:?}");
}

#[test]
fn check_clean_file_exits_0_with_empty_json_array() {
    let out = run(&["check", "--json", &example("leetcode-draw.cmg")]).exits(0);
    assert_eq!(out.json(), Value::Array(Vec::new()));
    let out = run(&["check", &example("leetcode-draw.cmg")]).exits(0);
    assert!(!out.stdout.contains("error"), "{out:?}");
}

#[test]
fn check_several_files_reports_each_with_its_name() {
    let dir = TempDir::new("check-many");
    let good = dir.file("good.cmg", "0 -- 1 -- 2 -- 0\n");
    let bad = dir.file("bad.cmg", "0 -- 1 -- 2 -- 0\n}\n");
    let out = run(&["check", "--json", &good, &bad]);
    assert_eq!(out.code, 1, "one file has an error: {out:?}");
    let json = out.json();
    let syntax = find(&json, "syntax");
    assert_eq!(syntax["file"], bad.as_str());
    assert_eq!(position(&syntax["start"]), (2, 1));
    assert!(
        json.as_array()
            .unwrap()
            .iter()
            .all(|d| d["file"] == bad.as_str()),
        "{json:#}"
    );

    run(&["check", &good, &good]).exits(0);
}

#[test]
fn check_reads_stdin_for_dash() {
    let out = run_stdin(&["check", "--json", "-"], "0 -- 1 -- 2\n1 -- }\n").exits(1);
    let json = out.json();
    let syntax = find(&json, "syntax");
    assert_eq!(position(&syntax["start"]).0, 2);
    assert!(
        syntax["file"].as_str().is_some_and(|f| !f.is_empty()),
        "{syntax}"
    );

    let out = run_stdin(&["check", "-"], "0 -- 1 -- 2\n1 -- }\n").exits(1);
    assert!(out.all().contains("syntax"), "{out:?}");
}

#[test]
fn check_keeps_going_after_a_broken_statement() {
    // Three broken statements give three syntax errors, and the rest still counts (the
    // repeated edge); the expectation is not held against the graph of the good lines.
    let text = "0 -- 1\n1 -- -- 2\n2 -- {3\n1 -- 3 -- 2\n]\n3 -- 1\nexpect cat\n";
    let out = run_stdin(&["check", "--json", "-"], text).exits(1);
    let json = out.json();
    let found = codes(&json);
    assert_eq!(
        found.iter().filter(|c| *c == "syntax").count(),
        3,
        "{json:#}"
    );
    assert!(found.iter().any(|c| c == "duplicate-edge"), "{json:#}");
    assert!(!found.iter().any(|c| c == "expect-mismatch"), "{json:#}");
    assert_eq!(
        find(&json, "expect-unchecked")["start"]["line"],
        7,
        "{json:#}"
    );
}

/// A correct `expect` in a file with a typo: the outcome of the lines that parsed (cat
/// wins in 2) is not the file's, so neither a mismatch nor a change to `expect cat`.
#[test]
fn check_does_not_hold_expect_to_a_file_that_does_not_parse() {
    let out = run_stdin(&["check", "-"], "1 -- 3 -- 2\n0 - 1\nexpect mouse\n").exits(1);
    assert!(out.stdout.contains("error[syntax]"), "{out:?}");
    assert!(
        out.stdout.contains("information[expect-unchecked]"),
        "{out:?}"
    );
    assert!(!out.all().contains("expect-mismatch"), "{out:?}");
    assert!(!out.all().contains("expect cat"), "{out:?}");
}

// ---------------------------------------------------------------------------
// cmg solve
// ---------------------------------------------------------------------------

fn solve_json(path: &str) -> Value {
    let out = run(&["solve", "--json", path]).exits(0);
    out.json()
}

/// Checks that a line starts at [1, 2] and that each entry is one move of the player
/// to move (mouse first) along an edge of `lists`, the cat never onto the hole.
fn assert_line_is_playable(line: &Value, lists: &[Vec<u64>]) -> Vec<(u64, u64)> {
    let line: Vec<(u64, u64)> = line
        .as_array()
        .expect("line is an array")
        .iter()
        .map(|pair| {
            let pair = pair.as_array().expect("a [mouse, cat] pair");
            assert_eq!(pair.len(), 2);
            (pair[0].as_u64().unwrap(), pair[1].as_u64().unwrap())
        })
        .collect();
    assert_eq!(line.first(), Some(&(1, 2)), "{line:?}");
    for (step, pair) in line.windows(2).enumerate() {
        let ((m0, c0), (m1, c1)) = (pair[0], pair[1]);
        if step % 2 == 0 {
            assert_eq!(c0, c1, "the cat moved on the mouse's turn: {line:?}");
            assert!(
                lists[m0 as usize].contains(&m1),
                "no edge {m0}-{m1}: {line:?}"
            );
        } else {
            assert_eq!(m0, m1, "the mouse moved on the cat's turn: {line:?}");
            assert!(
                lists[c0 as usize].contains(&c1),
                "no edge {c0}-{c1}: {line:?}"
            );
            assert_ne!(c1, 0, "the cat moved onto the hole: {line:?}");
        }
    }
    line
}

#[test]
fn solve_json_draw() {
    let json = solve_json(&example("leetcode-draw.cmg"));
    assert_eq!(json["outcome"], "draw");
    assert_eq!(json["result"], 0);
    assert!(json["moves"].is_null(), "{json}");
    assert_eq!(json["nodes"], 6);
    assert_eq!(json["edges"], 7);
    let lists: Vec<Vec<u64>> = serde_json::from_str(DRAW_LISTS).unwrap();
    let line = assert_line_is_playable(&json["line"], &lists);
    // A draw ends at the first repeated position: same places, same player to move.
    let last = line.len() - 1;
    assert!(
        line[..last]
            .iter()
            .enumerate()
            .any(|(i, p)| *p == line[last] && i % 2 == last % 2),
        "the line does not end in a repetition: {line:?}"
    );
    assert!(line.iter().all(|&(m, c)| m != 0 && m != c), "{line:?}");
}

#[test]
fn solve_json_mouse_wins_in_one() {
    let json = solve_json(&example("leetcode-mouse.cmg"));
    assert_eq!(json["outcome"], "mouse");
    assert_eq!(json["result"], 1);
    assert_eq!(json["moves"], 1);
    assert_eq!(json["nodes"], 4);
    assert_eq!(json["edges"], 3);
    assert_eq!(json["line"], serde_json::json!([[1, 2], [0, 2]]));
}

#[test]
fn solve_json_cat_wins() {
    let json = solve_json(&example("cat-wins.cmg"));
    assert_eq!(json["outcome"], "cat");
    assert_eq!(json["result"], 2);
    assert_eq!(json["moves"], 2);
    assert_eq!(json["line"], serde_json::json!([[1, 2], [3, 2], [3, 3]]));
}

#[test]
fn solve_json_long_game_takes_21_moves() {
    let json = solve_json(&example("long-game.cmg"));
    assert_eq!(json["outcome"], "mouse");
    assert_eq!(json["result"], 1);
    assert_eq!(json["moves"], 21);
    assert_eq!(json["nodes"], 10);
    assert_eq!(json["edges"], 21);
    let lists: Vec<Vec<u64>> = serde_json::from_str(LONG_LISTS).unwrap();
    let line = assert_line_is_playable(&json["line"], &lists);
    assert_eq!(
        line.len(),
        22,
        "one entry per move plus the start: {line:?}"
    );
    assert_eq!(
        line.last().unwrap().0,
        0,
        "the mouse ends in the hole: {line:?}"
    );
    assert!(
        line[..21].iter().all(|&(m, c)| m != 0 && m != c),
        "{line:?}"
    );
}

#[test]
fn solve_human_output_has_outcome_and_line() {
    let out = run(&["solve", &example("long-game.cmg")]).exits(0);
    assert!(out.stdout.contains("mouse wins in 21"), "{out:?}");
    assert!(out.stdout.contains("line"), "{out:?}");
    let out = run(&["solve", &example("leetcode-draw.cmg")]).exits(0);
    assert!(out.stdout.contains("draw"), "{out:?}");
}

#[test]
fn a_line_that_ends_with_a_player_who_cannot_move_names_that_player() {
    // The cat's only neighbour is the hole: after the mouse's move it is stuck.
    let out = run_stdin(&["solve", "-"], "0 -- 2\n1 -- 3\n");
    assert!(
        out.stdout
            .ends_with("   1. mouse 1 -> 3\n      the cat has no legal move: draw\n"),
        "{out:?}"
    );
}

#[test]
fn solve_reads_stdin_for_dash() {
    let out = run_stdin(&["solve", "--json", "-"], "[[1,3],[0],[3],[0,2]]\n").exits(0);
    let json = out.json();
    assert_eq!(json["outcome"], "mouse");
    assert_eq!(json["moves"], 1);
}

#[test]
fn solve_exits_1_without_node_1_or_node_2() {
    for (text, missing) in [
        ("0 -- 2 -- 3\n", "missing-mouse"),
        ("0 -- 1 -- 3\n", "missing-cat"),
        ("3 -- 4\n", "missing-mouse"),
    ] {
        for json in [true, false] {
            let args: &[&str] = if json {
                &["solve", "--json", "-"]
            } else {
                &["solve", "-"]
            };
            let out = run_stdin(args, text);
            assert_eq!(out.code, 1, "{text:?}: {out:?}");
            if json {
                // `--json` still prints one object, so that `| jq` works.
                let value = out.json();
                assert_eq!(value["outcome"], Value::Null, "{out:?}");
                assert_eq!(value["moves"], Value::Null, "{out:?}");
                assert!(value["reason"].as_str().is_some(), "{out:?}");
                assert!(
                    codes(&value["errors"]).contains(&missing.to_owned()),
                    "{out:?}"
                );
            } else {
                assert!(
                    out.stdout.trim().is_empty(),
                    "no outcome to print for {text:?}: {out:?}"
                );
            }
            assert!(!out.stderr.is_empty(), "say why for {text:?}: {out:?}");
            assert!(out.stderr.contains(missing), "{text:?}: {out:?}");
        }
    }
}

#[test]
fn solve_exits_1_on_errors_but_still_solves() {
    // A self-loop is an error, but the game is still solved without it.
    let text = "0 -- 3 -- 1\n2 -- 3\n3 -- 3\n";
    let out = run_stdin(&["solve", "--json", "-"], text).exits(1);
    let json = out.json();
    assert_eq!(json["outcome"], "cat", "{json}");
    assert!(
        out.stderr.contains("self-loop"),
        "diagnostics go to stderr: {out:?}"
    );
    assert!(
        !out.stdout.contains("self-loop"),
        "no diagnostics in the JSON: {out:?}"
    );

    // So does a syntax error.
    let out = run_stdin(&["solve", "-"], "0 -- 1 -- 2 -- 0\n1 -- --\n").exits(1);
    assert!(out.stderr.contains("syntax"), "{out:?}");

    // And an `expect` that does not match.
    run(&["solve", &example("every-diagnostic.cmg")]).exits(1);
}

#[test]
fn solve_json_stdout_is_pure_json_when_there_are_warnings() {
    // Duplicate edge: a warning, so exit 0, and stdout holds only the JSON.
    let out = run_stdin(&["solve", "--json", "-"], "0 -- 3 -- 1\n2 -- 3\n3 -- 1\n").exits(0);
    assert_eq!(out.json()["outcome"], "cat");
    assert!(
        out.stderr.contains("duplicate-edge"),
        "warnings go to stderr: {out:?}"
    );
}

// ---------------------------------------------------------------------------
// cmg fmt
// ---------------------------------------------------------------------------

const UNFORMATTED: &str = "# the hole\r\n0--{2,5}   # first\r\n\r\n\r\n\r\n1--3;3--{4,5}\r\n  2 -- {4 5}   \r\n# last words\r\nexpect   draw";

#[test]
fn fmt_rewrites_a_crlf_file_keeps_comments_and_is_idempotent() {
    let dir = TempDir::new("fmt-rewrite");
    let path = dir.file("messy.cmg", UNFORMATTED);
    let before = run(&["solve", "--json", &path]).json();

    run(&["fmt", &path]).exits(0);
    let formatted = std::fs::read_to_string(&path).unwrap();
    assert_ne!(formatted, UNFORMATTED, "the file was not rewritten");
    for comment in ["# the hole", "# first", "# last words"] {
        assert!(
            formatted.contains(comment),
            "lost {comment:?}:\n{formatted}"
        );
    }
    // A CRLF file stays CRLF, and runs of blank lines shrink to one.
    assert!(formatted.ends_with("\r\n"), "{formatted:?}");
    assert!(
        !formatted.replace("\r\n", "").contains(['\r', '\n']),
        "{formatted:?}"
    );
    assert!(!formatted.contains("\r\n\r\n\r\n"), "{formatted:?}");
    assert!(formatted.contains("expect draw"), "{formatted:?}");
    // `;` becomes a line break.
    assert!(!formatted.contains(';'), "{formatted:?}");

    // The meaning is unchanged.
    assert_eq!(run(&["solve", "--json", &path]).json(), before);
    assert_eq!(run(&["check", &path]).code, 0);

    // Formatting again changes nothing.
    run(&["fmt", &path]).exits(0);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), formatted);
    run(&["fmt", "--check", &path]).exits(0);
}

#[test]
fn fmt_check_reports_without_modifying() {
    let dir = TempDir::new("fmt-check");
    let messy = dir.file("messy.cmg", UNFORMATTED);
    let out = run(&["fmt", "--check", &messy]).exits(1);
    assert!(out.all().contains("messy.cmg"), "name the file: {out:?}");
    assert_eq!(
        std::fs::read_to_string(&messy).unwrap(),
        UNFORMATTED,
        "--check modified the file"
    );

    let tidy = dir.file("tidy.cmg", "# tidy\n0 -- {2 5}\n1 -- 3\nexpect draw\n");
    run(&["fmt", "--check", &tidy]).exits(0);

    // One unformatted file among several is enough to fail.
    run(&["fmt", "--check", &tidy, &messy]).exits(1);
    assert_eq!(std::fs::read_to_string(&messy).unwrap(), UNFORMATTED);
}

#[test]
fn fmt_formats_several_files() {
    let dir = TempDir::new("fmt-many");
    let a = dir.file("a.cmg", "0--1;1--2\n");
    let b = dir.file("b.cmg", "[[1,3],[0],[3],[0,2]]\r\n");
    run(&["fmt", &a, &b]).exits(0);
    assert_eq!(run(&["fmt", "--check", &a, &b]).code, 0);
    assert_eq!(std::fs::read_to_string(&a).unwrap(), "0 -- 1\n1 -- 2\n");
}

#[test]
fn fmt_dash_reads_stdin_and_writes_stdout() {
    let out = run_stdin(&["fmt", "-"], UNFORMATTED).exits(0);
    assert!(out.stdout.contains("# first"), "{out:?}");
    assert!(out.stdout.contains("expect draw"), "{out:?}");
    // The same text as formatting a file.
    let dir = TempDir::new("fmt-stdin");
    let path = dir.file("messy.cmg", UNFORMATTED);
    assert_eq!(run(&["fmt", &path]).code, 0);
    assert_eq!(out.stdout, std::fs::read_to_string(&path).unwrap());
    // Formatted input comes back unchanged.
    let again = run_stdin(&["fmt", "-"], &out.stdout);
    assert_eq!(again.code, 0, "{again:?}");
    assert_eq!(again.stdout, out.stdout);
    // --check on stdin: exit code only.
    assert_eq!(run_stdin(&["fmt", "--check", "-"], UNFORMATTED).code, 1);
    assert_eq!(run_stdin(&["fmt", "--check", "-"], &out.stdout).code, 0);
}

#[test]
fn fmt_and_dot_refuse_a_file_with_syntax_errors() {
    let text = "0 -- 1\n2 --  -- 1   # broken\n1 -- 2\n";
    // fmt cannot format it: exit 2, as ruff, so that 1 keeps meaning "would reformat".
    for (args, code) in [
        (&["fmt", "-"][..], 2),
        (&["fmt", "--check", "-"], 2),
        (&["dot", "-"], 1),
    ] {
        let out = run_stdin(args, text);
        assert_eq!(out.code, code, "{args:?}: {out:?}");
        assert!(out.stdout.is_empty(), "{args:?}: {out:?}");
        assert!(out.stderr.contains("error[syntax]"), "{args:?}: {out:?}");
        assert!(
            out.stderr.contains("syntax errors first"),
            "{args:?}: {out:?}"
        );
    }
    // A file on disk is left as it was, and the next file is still formatted.
    let dir = TempDir::new("fmt-broken");
    let broken = dir.file("broken.cmg", text);
    let good = dir.file("good.cmg", "0--1--2\n");
    let formatted = dir.file("formatted.cmg", "0 -- 1\n");
    let out = run(&["fmt", &broken, &good, &formatted]).exits(2);
    assert_eq!(std::fs::read_to_string(&broken).unwrap(), text);
    assert_eq!(std::fs::read_to_string(&good).unwrap(), "0 -- 1 -- 2\n");
    assert!(
        out.stderr
            .ends_with("1 file reformatted, 1 left unchanged\n"),
        "{out:?}"
    );
}

/// A file over the edge limit (a product of 2001 × 2001 members is 4 004 001 pairs) has
/// a graph cut short: `dot` and `export` refuse it rather than pass that graph off as
/// the file's, `solve` says the outcome is unknown, and `fmt` still formats it.
#[test]
fn a_file_over_the_edge_limit_is_not_drawn_exported_or_solved() {
    let members: Vec<String> = (3..2004).map(|id| id.to_string()).collect();
    let members = members.join(" ");
    let text = format!("0 -- 1 -- 2\n{{{members}}} -- {{ {members} }}\n");
    for (args, done) in [(&["dot", "-"][..], "drawn"), (&["export", "-"], "exported")] {
        let out = run_stdin(args, &text);
        assert_eq!(out.code, 1, "{args:?}: {out:?}");
        assert!(out.stdout.is_empty(), "{args:?}: {out:?}");
        assert!(out.stderr.contains("error[too-many-edges]"), "{args:?}");
        assert!(
            out.stderr.contains(&format!(
                "not {done}, since the file declares more edges than cmg takes"
            )),
            "{args:?}: {}",
            out.stderr
        );
    }
    let out = run_stdin(&["solve", "-"], &text).exits(1);
    assert!(
        out.all().contains("the file declares more than 4000000 edges, so its graph is cut short and its outcome is unknown"),
        "{out:?}"
    );
    let out = run_stdin(&["fmt", "-"], &text).exits(0);
    assert_eq!(
        out.stdout,
        format!("0 -- 1 -- 2\n{{{members}}} -- {{{members}}}\n")
    );
}

// ---------------------------------------------------------------------------
// cmg import / export
// ---------------------------------------------------------------------------

#[test]
fn import_from_argument_gives_cmg_text_that_solves() {
    let out = run(&["import", "--text", MOUSE_LISTS]).exits(0);
    let text = out.stdout;
    assert!(text.contains("--"), "{text}");
    let solved = run_stdin(&["solve", "--json", "-"], &text);
    assert_eq!(solved.code, 0, "{solved:?}");
    assert_eq!(solved.json()["outcome"], "mouse");
    // The imported text is already formatted and checks clean.
    assert_eq!(run_stdin(&["fmt", "--check", "-"], &text).code, 0, "{text}");
    assert_eq!(run_stdin(&["check", "-"], &text).code, 0, "{text}");
}

#[test]
fn check_solve_and_fmt_read_leetcodes_paste_as_the_list() {
    // As LeetCode shows it, with `graph =`, and with line breaks and spaces added.
    for paste in [
        format!("graph = {DRAW_LISTS}\nexpect draw\n"),
        "graph=[[2,5],[3],\n  [0, 4, 5], [1,4,5],\n[2,3],[0,2,3]]\nexpect draw\n".to_owned(),
    ] {
        let checked = run_stdin(&["check", "-"], &paste);
        assert_eq!(checked.code, 0, "{paste}: {checked:?}");
        assert!(checked.stdout.contains("no problems"), "{checked:?}");
        let solved = run_stdin(&["solve", "--json", "-"], &paste);
        assert_eq!(solved.json()["outcome"], "draw", "{paste}");
        // The canonical form is the list alone.
        let formatted = run_stdin(&["fmt", "-"], &paste);
        assert_eq!(formatted.code, 0, "{formatted:?}");
        assert!(
            formatted.stdout.starts_with("[[2, 5], [3]"),
            "{}",
            formatted.stdout
        );
    }
}

#[test]
fn import_from_stdin() {
    let out = run_stdin(&["import", "-"], &format!("{DRAW_LISTS}\n")).exits(0);
    let solved = run_stdin(&["solve", "--json", "-"], &out.stdout);
    assert_eq!(solved.json()["outcome"], "draw");
    assert_eq!(out.stdout, run(&["import", "--text", DRAW_LISTS]).stdout);
}

#[test]
fn import_rejects_bad_json_with_a_clear_message() {
    for bad in ["[[1,", "{\"a\": 1}", "[[1,-3]]", "[1, 2]", "not json", ""] {
        let out = run(&["import", "--text", bad]);
        assert_ne!(out.code, 0, "{bad:?}: {out:?}");
        assert!(out.stdout.is_empty(), "{bad:?}: {out:?}");
        assert!(out.stderr.contains("adjacency"), "{bad:?}: {out:?}");
    }
    let out = run_stdin(&["import", "-"], "[[0,1],");
    assert_ne!(out.code, 0, "{out:?}");
    assert!(out.stderr.contains("adjacency"), "{out:?}");
}

#[test]
fn import_rejects_a_neighbour_outside_the_list() {
    let out = run(&["import", "--text", "[[1],[0,7]]"]);
    assert_ne!(out.code, 0, "{out:?}");
    assert!(out.stderr.contains('7'), "name the bad id: {out:?}");
}

#[test]
fn import_then_export_round_trips_symmetric_lists() {
    let dir = TempDir::new("round-trip");
    for (i, lists) in [
        DRAW_LISTS,
        MOUSE_LISTS,
        LONG_LISTS,
        "[[1],[0,2],[1]]",
        "[[1,2],[0,2],[0,1],[]]",
    ]
    .into_iter()
    .enumerate()
    {
        let imported = run(&["import", "--text", lists]);
        assert_eq!(imported.code, 0, "{imported:?}");
        let path = dir.file(&format!("g{i}.cmg"), &imported.stdout);
        let expected: Vec<Vec<u64>> = serde_json::from_str(lists).unwrap();
        assert_eq!(
            export_lists(&path),
            expected,
            "{lists}\n{}",
            imported.stdout
        );
        // Through stdin as well.
        let out = run_stdin(&["export", "-"], &imported.stdout).exits(0);
        let exported: Vec<Vec<u64>> = serde_json::from_str(out.stdout.trim()).unwrap();
        assert_eq!(exported, expected);
    }
}

#[test]
fn export_examples() {
    let draw: Vec<Vec<u64>> = serde_json::from_str(DRAW_LISTS).unwrap();
    let long: Vec<Vec<u64>> = serde_json::from_str(LONG_LISTS).unwrap();
    let mouse: Vec<Vec<u64>> = serde_json::from_str(MOUSE_LISTS).unwrap();
    assert_eq!(export_lists(&example("leetcode-draw.cmg")), draw);
    assert_eq!(export_lists(&example("long-game.cmg")), long);
    assert_eq!(export_lists(&example("leetcode-mouse.cmg")), mouse);
}

#[test]
fn export_makes_one_sided_edges_symmetric() {
    let out = run_stdin(&["export", "-"], "[[1],[2],[]]\n").exits(0);
    let lists: Vec<Vec<u64>> = serde_json::from_str(out.stdout.trim()).unwrap();
    assert_eq!(lists, vec![vec![1], vec![0, 2], vec![1]]);
}

#[test]
fn export_refuses_a_gap_in_the_ids_and_names_it() {
    let dir = TempDir::new("export-gap");
    let path = dir.file("gap.cmg", "0 -- 1 -- 4\r\n2 -- 4\r\n3 -- 4\r\n1 -- 6\r\n");
    let out = run(&["export", &path]).exits(1);
    assert!(out.stdout.is_empty(), "{out:?}");
    assert!(
        out.stderr.contains("node 5"),
        "name the missing id 5: {out:?}"
    );
    assert!(!out.stderr.contains("node 7"), "{out:?}");

    let out = run_stdin(&["export", "-"], "0 -- 1 -- 3\n").exits(1);
    assert!(
        out.stderr.contains("node 2"),
        "name the missing id 2: {out:?}"
    );
}

#[test]
fn export_refuses_a_file_with_syntax_errors() {
    let out = run_stdin(&["export", "-"], "0 -- 1 -- 2\n1 -- -- 2\n").exits(1);
    assert!(out.stdout.is_empty(), "{out:?}");
    assert!(out.stderr.contains("syntax"), "{out:?}");
}

// ---------------------------------------------------------------------------
// cmg dot
// ---------------------------------------------------------------------------

#[test]
fn dot_declares_every_node_and_edge() {
    let out = run(&["dot", &example("long-game.cmg")]).exits(0);
    let dot = out.stdout.trim();
    assert!(dot.starts_with("graph"), "an undirected graph: {dot}");
    assert!(dot.ends_with('}'), "{dot}");
    assert_eq!(dot.matches('{').count(), dot.matches('}').count(), "{dot}");
    assert!(!dot.contains("->"), "undirected edges only: {dot}");
    let lists: Vec<Vec<u64>> = serde_json::from_str(LONG_LISTS).unwrap();
    let lines: Vec<&str> = dot.lines().map(str::trim).collect();
    for (a, neighbours) in lists.iter().enumerate() {
        assert!(
            lines.iter().any(|line| line.starts_with(&format!("{a} ["))),
            "node {a} is not declared: {dot}"
        );
        for &b in neighbours {
            let edge = |x: u64, y: u64| format!("{x} -- {y}");
            assert!(
                lines.iter().any(|line| line.starts_with(&edge(a as u64, b))
                    || line.starts_with(&edge(b, a as u64))),
                "edge {a}-{b} is missing: {dot}"
            );
        }
    }
    let edge_lines = lines.iter().filter(|line| line.contains(" -- ")).count();
    assert_eq!(edge_lines, 21, "each edge once: {dot}");
}

#[test]
fn dot_colours_nodes_and_keeps_labels() {
    let out = run(&["dot", &example("leetcode-draw.cmg")]).exits(0);
    assert!(out.stdout.contains("hole"), "the label of node 0: {out:?}");
    assert!(out.stdout.contains("fillcolor"), "{out:?}");
    // Quotes in labels are escaped.
    let out = run_stdin(
        &["dot", "-"],
        "0 -- 1 -- 2 -- 0\nnode 1 \"say \\\"hi\\\"\"\n",
    )
    .exits(0);
    assert!(out.stdout.contains(r#"say \"hi\""#), "{out:?}");
    // The starts are named inside their shapes, as in the view, never in a label
    // that a layout floats away; the file's label follows the role.
    let mouse = r#"1 [label="1\nmouse\nsay \"hi\"""#;
    assert!(
        out.stdout.contains(mouse) && out.stdout.contains("shape=box"),
        "{out:?}"
    );
    assert!(
        out.stdout.contains(r#"2 [label="2\ncat""#) && out.stdout.contains("shape=diamond"),
        "{out:?}"
    );
    assert!(!out.stdout.contains("xlabel"), "{out:?}");
}

// ---------------------------------------------------------------------------
// Usage and I/O errors
// ---------------------------------------------------------------------------

#[test]
fn missing_file_exits_2_naming_the_file() {
    let dir = TempDir::new("missing");
    let missing = dir.0.join("no-such-file.cmg");
    let missing = missing.to_str().unwrap();
    for args in [
        vec!["check", missing],
        vec!["check", "--json", missing],
        vec!["solve", missing],
        vec!["solve", "--json", missing],
        vec!["fmt", missing],
        vec!["fmt", "--check", missing],
        vec!["export", missing],
        vec!["dot", missing],
    ] {
        let out = run(&args);
        assert_eq!(out.code, 2, "{args:?}: {out:?}");
        assert!(
            out.stderr.contains(missing),
            "{args:?} must name the file: {out:?}"
        );
    }
}

#[test]
fn unreadable_file_exits_2_naming_the_file() {
    // A directory cannot be read as a file, even by root.
    let dir = TempDir::new("unreadable");
    let path = dir.0.to_str().unwrap();
    // `check` and `fmt` walk a directory instead.
    for command in ["solve", "export", "dot"] {
        let out = run(&[command, path]);
        assert_eq!(out.code, 2, "{command}: {out:?}");
        assert!(
            out.stderr.contains(path),
            "{command} must name the file: {out:?}"
        );
    }
    // Nor is a file that is not UTF-8 text.
    let binary = dir.0.join("binary.cmg");
    std::fs::write(&binary, b"0 -- 1\n\xff\xfe -- 2\n").unwrap();
    let binary = binary.to_str().unwrap();
    let out = run(&["check", binary]).exits(2);
    assert!(out.stderr.contains(binary), "{out:?}");
}

#[test]
fn a_good_file_after_a_missing_one_still_fails_with_2() {
    let dir = TempDir::new("missing-then-good");
    let good = dir.file("good.cmg", "0 -- 1 -- 2 -- 0\n");
    let missing = dir.0.join("gone.cmg");
    run(&["check", &good, missing.to_str().unwrap()]).exits(2);
}

#[test]
fn unknown_subcommands_and_flags_exit_2() {
    let good = example("leetcode-draw.cmg");
    for args in [
        vec!["frobnicate"],
        vec!["frobnicate", good.as_str()],
        vec!["check", "--frob", good.as_str()],
        vec!["solve", "--jsn", good.as_str()],
        vec!["fmt", "--chek", good.as_str()],
        vec!["export", "--jsn", good.as_str()],
        vec!["dot", "-x", good.as_str()],
        vec!["import", "--frob"],
        vec!["--frob"],
        vec!["check"],
        vec!["solve"],
        vec!["fmt"],
        vec!["solve", good.as_str(), good.as_str()],
        vec![],
    ] {
        let out = run(&args);
        assert_eq!(out.code, 2, "{args:?}: {out:?}");
        assert!(
            !out.stderr.is_empty(),
            "{args:?}: say what is wrong: {out:?}"
        );
        assert!(out.stdout.is_empty(), "{args:?}: {out:?}");
    }
}

#[test]
fn help_and_version_exit_0() {
    let out = run(&["--help"]).exits(0);
    for command in ["check", "solve", "fmt", "import", "export", "dot"] {
        assert!(
            out.stdout.contains(command),
            "help lists {command}: {out:?}"
        );
    }
    let out = run(&["--version"]).exits(0);
    assert!(out.stdout.contains(env!("CARGO_PKG_VERSION")), "{out:?}");
    cmg().args(["check", "--help"]).assert().success();
}

// ---------------------------------------------------------------------------
// examples/
// ---------------------------------------------------------------------------

#[test]
fn every_example_starts_with_a_comment_and_is_formatted() {
    let paths = all_examples();
    for path in &paths {
        let text = std::fs::read_to_string(path).unwrap();
        assert!(
            text.starts_with('#'),
            "{} must start with a comment",
            path.display()
        );
    }
    let mut args = vec!["fmt", "--check"];
    // syntax-error.cmg has a syntax error and every-diagnostic.cmg a node id too large
    // on purpose, which fmt refuses.
    args.extend(
        paths
            .iter()
            .map(|p| p.to_str().unwrap())
            .filter(|p| !p.ends_with("syntax-error.cmg") && !p.ends_with("every-diagnostic.cmg")),
    );
    run(&args).exits(0);
}

#[test]
fn non_diagnostic_examples_check_clean() {
    for path in all_examples() {
        let name = path.file_name().unwrap().to_str().unwrap();
        if DIAGNOSTIC_EXAMPLES.contains(&name) {
            continue;
        }
        let path = path.to_str().unwrap();
        let out = run(&["check", "--json", path]);
        assert_eq!(out.code, 0, "{name}: {out:?}");
        assert_eq!(out.json(), Value::Array(Vec::new()), "{name} is not clean");
        let text = std::fs::read_to_string(path).unwrap();
        assert!(text.contains("expect "), "{name} should state its outcome");
        let solved = run(&["solve", "--json", path]);
        assert_eq!(solved.code, 0, "{name}: {solved:?}");
    }
}

#[test]
fn diagnostic_examples_produce_every_code_but_the_size_limits() {
    let out = run(&[
        "check",
        "--json",
        &example("every-diagnostic.cmg"),
        &example("no-game.cmg"),
        &example("syntax-error.cmg"),
        &example("rule-diagnostics.cmg"),
    ])
    .exits(1);
    let json = out.json();
    let found = codes(&json);
    // `too-many-edges` needs millions of edges; `tests/it/robustness.rs` produces it.
    for code in all_codes().filter(|code| *code != "too-many-edges") {
        if code == "too-large" {
            assert!(
                !found.iter().any(|c| c == code),
                "too-large is editor-only: {json:#}"
            );
        } else {
            assert!(
                found.iter().any(|c| c == code),
                "no {code} from the examples: {found:?}"
            );
        }
    }
    for code in &found {
        assert!(
            all_codes().any(|known| known == code),
            "unknown code {code}"
        );
    }

    // The severities of the contract's table of codes.
    let severity = |code: &str| find(&json, code)["severity"].as_str().unwrap().to_owned();
    for code in [
        "syntax",
        "number-too-large",
        "self-loop",
        "missing-mouse",
        "missing-cat",
        "mouse-stuck",
        "cat-stuck",
        "expect-mismatch",
    ] {
        assert_eq!(severity(code), "error", "{code}");
    }
    for code in [
        "missing-hole",
        "duplicate-edge",
        "one-sided-edge",
        "duplicate-label",
        "duplicate-expect",
    ] {
        assert_eq!(severity(code), "warning", "{code}");
    }
    assert_eq!(severity("hole-unreachable"), "information");
    assert_eq!(severity("expect-unchecked"), "information");
    assert_eq!(severity("unreachable-node"), "hint");

    // Duplicates point back at the first declaration.
    for code in ["duplicate-edge", "duplicate-label", "duplicate-expect"] {
        let related = find(&json, code)["related"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        assert!(
            !related.is_empty(),
            "{code} carries related information: {json:#}"
        );
    }

    // The mismatch names both outcomes.
    let mismatch = find(&json, "expect-mismatch")["message"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(
        mismatch.contains("draw") && mismatch.contains("mouse"),
        "{mismatch}"
    );
}

// ---------------------------------------------------------------------------
// Behaviour that matches the command's peers
// ---------------------------------------------------------------------------

#[test]
fn check_reads_every_readable_file_and_json_stays_one_array() {
    let dir = TempDir::new("several");
    let first = dir.file("a.cmg", "0 -- 1 -- 2 -- 2\n");
    let missing = dir.0.join("missing.cmg");
    let missing = missing.to_str().unwrap();
    let last = dir.file("c.cmg", "0 -- 1 -- 2\n5 -- 5\n");
    let out = run(&["check", "--json", &first, missing, &last]).exits(2);
    let files: Vec<String> = out
        .json()
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["file"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(files, [first.as_str(), &last, &last], "{out:?}");
    assert!(out.stderr.contains(missing), "{out:?}");
    // In text too, the file after the missing one is checked.
    let out = run(&["check", &first, missing, &last]).exits(2);
    assert!(out.stdout.contains("c.cmg:2:1"), "{out:?}");
    assert!(
        out.stdout.contains("2 files checked, 2 errors, 1 hint"),
        "{out:?}"
    );
}

#[test]
fn fmt_goes_on_after_an_unreadable_file() {
    let dir = TempDir::new("fmt-several");
    let missing = dir.0.join("missing.cmg");
    let untidy = dir.file("untidy.cmg", "0--1--2\n");
    run(&["fmt", missing.to_str().unwrap(), &untidy]).exits(2);
    assert_eq!(std::fs::read_to_string(&untidy).unwrap(), "0 -- 1 -- 2\n");
}

#[test]
fn directories_are_walked_for_cmg_files_honouring_gitignore() {
    let dir = TempDir::new("walk");
    std::fs::create_dir_all(dir.0.join("sub/skipped")).unwrap();
    dir.file(".gitignore", "skipped/\n");
    dir.file("top.cmg", "0 -- 1 -- 2 -- 2\n");
    dir.file("sub/inner.cmg", "0 -- 1 -- 2\n3 -- 3\n");
    dir.file("sub/notes.txt", "1 -- 1\n");
    dir.file("sub/skipped/ignored.cmg", "1 -- 1\n");
    let out = run(&["check", "--json", dir.0.to_str().unwrap()]);
    let mut files: Vec<String> = out
        .json()
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["file"].as_str().unwrap().replace('\\', "/"))
        .collect();
    files.dedup();
    assert_eq!(files.len(), 2, "{out:?}");
    assert!(files[0].ends_with("sub/inner.cmg"), "{out:?}");
    assert!(files[1].ends_with("top.cmg"), "{out:?}");
    let out = run(&["check", dir.0.to_str().unwrap()]);
    assert!(
        out.stdout.ends_with("2 files checked, 2 errors, 1 hint\n"),
        "{out:?}"
    );
}

#[test]
fn import_reads_a_file_or_stdin_and_the_puzzles_assignment() {
    let dir = TempDir::new("import");
    let path = dir.file("graph.json", &format!("graph = {MOUSE_LISTS}\n"));
    let from_file = run(&["import", &path]);
    assert_eq!(from_file.code, 0, "{from_file:?}");
    let from_stdin = run_stdin(&["import", "-"], &format!("graph = {MOUSE_LISTS}"));
    let from_text = run(&["import", "--text", MOUSE_LISTS]);
    assert_eq!(from_file.stdout, from_text.stdout);
    assert_eq!(from_stdin.stdout, from_text.stdout);
    // A list is not a file name.
    let out = run(&["import", MOUSE_LISTS]).exits(2);
    assert!(out.stderr.contains("cannot read"), "{out:?}");
}

#[test]
fn edges_written_with_arrows_get_a_syntax_error_that_suggests_the_edge() {
    for text in ["0 => 1 -- 2\n", "0 - 1 -- 2\n"] {
        let diagnostics = run_stdin(&["check", "--json", "-"], text).json();
        assert_eq!(codes(&diagnostics), ["syntax"], "{text:?}");
        assert!(diagnostics[0]["message"]
            .as_str()
            .unwrap()
            .contains("expected `--`"));
    }
}

#[test]
fn syntax_errors_come_first_without_their_knock_on_errors() {
    // Nodes 1 and 2 are in the unread text: saying they are missing would mislead.
    let out = run_stdin(&["check", "--json", "-"], "0 => 1 => 2\n");
    assert_eq!(codes(&out.json()), ["syntax"], "{out:?}");
    // Without a syntax error they are reported as before.
    let out = run_stdin(&["check", "--json", "-"], "3 -- 4\n");
    assert_eq!(
        codes(&out.json()),
        ["missing-mouse", "missing-cat", "missing-hole"]
    );
}

#[test]
fn messages_that_state_an_outcome_agree_with_the_solver() {
    let outcome = |text: &str| run_stdin(&["solve", "--json", "-"], text).json()["outcome"].clone();
    // cat-stuck must not predict a draw: here the mouse wins at once.
    let stuck_cat = "[[1,2],[0],[0]]\n";
    let message = find(
        &run_stdin(&["check", "--json", "-"], stuck_cat).json(),
        "cat-stuck",
    )["message"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(!message.contains("draw"), "{message}");
    assert_eq!(outcome(stuck_cat), "mouse");
    // mouse-stuck says "draw", and it is one.
    let stuck_mouse = "0 -- 3 -- 2\nnode 1\n";
    let message = find(
        &run_stdin(&["check", "--json", "-"], stuck_mouse).json(),
        "mouse-stuck",
    )["message"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(message.contains("draw"), "{message}");
    assert_eq!(outcome(stuck_mouse), "draw");
    // missing-hole and hole-unreachable say the mouse can never win.
    for text in ["1 -- 2 -- 3 -- 1\n", "0 -- 4 -- 3 -- 2\n1 -- 5 -- 6 -- 1\n"] {
        assert_ne!(outcome(text), "mouse", "{text:?}");
        assert_ne!(outcome(text), Value::Null, "{text:?}");
    }
}

#[test]
fn severities_use_one_vocabulary_in_text_summary_and_json() {
    let text = "0 -- 4 -- 3 -- 2\n1 -- 5\n7 -- 8\n";
    let out = run_stdin(&["check", "-"], text);
    assert!(
        out.stdout.contains("information[hole-unreachable]"),
        "{out:?}"
    );
    assert!(out.stdout.contains("hint[unreachable-node]"), "{out:?}");
    assert!(
        out.stdout
            .ends_with("1 file checked, 1 information, 2 hints\n"),
        "{out:?}"
    );
    let json = run_stdin(&["check", "--json", "-"], text).json();
    let severities: Vec<&str> = json
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["severity"].as_str().unwrap())
        .collect();
    assert_eq!(severities, ["information", "hint", "hint"]);
}

#[test]
fn a_clean_check_says_so_in_one_line_and_quiet_silences_it() {
    let out = run(&[
        "check",
        &example("cat-wins.cmg"),
        &example("leetcode-draw.cmg"),
    ]);
    assert_eq!(
        (out.code, out.stdout.as_str()),
        (0, "2 files checked, no problems\n"),
        "{out:?}"
    );
    let out = run(&["check", "--quiet", &example("cat-wins.cmg")]);
    assert_eq!((out.code, out.all().as_str()), (0, ""), "{out:?}");
}

#[test]
fn color_follows_the_flag_and_the_environment() {
    let text = "0 -- 1 -- 2 -- 2\n";
    let coloured = |out: &Run| out.stdout.contains('\u{1b}');
    let with = |args: &[&str], vars: &[(&str, &str)]| {
        let mut command = cmg();
        command
            .args(args)
            .write_stdin(text)
            .env_remove("NO_COLOR")
            .env_remove("CLICOLOR_FORCE");
        for (name, value) in vars {
            command.env(name, value);
        }
        let output = command.output().unwrap();
        Run {
            code: output.status.code().unwrap(),
            stdout: String::from_utf8(output.stdout).unwrap(),
            stderr: String::from_utf8(output.stderr).unwrap(),
        }
    };
    assert!(coloured(&with(&["check", "--color", "always", "-"], &[])));
    assert!(!coloured(&with(
        &["check", "--color", "never", "-"],
        &[("CLICOLOR_FORCE", "1")]
    )));
    // Not a terminal: no colour unless forced.
    assert!(!coloured(&with(&["check", "-"], &[])));
    assert!(coloured(&with(&["check", "-"], &[("CLICOLOR_FORCE", "1")])));
    assert!(!coloured(&with(
        &["check", "-"],
        &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]
    )));
}

#[test]
fn completions_and_man_page() {
    for shell in ["bash", "zsh", "fish"] {
        let out = run(&["completions", shell]).exits(0);
        assert!(
            out.stdout.contains("explain") && out.stdout.contains("max-diagnostics"),
            "{shell}: {out:?}"
        );
    }
    let out = run(&["man"]).exits(0);
    assert!(
        out.stdout.starts_with(".ie") || out.stdout.contains(".TH cmg"),
        "{out:?}"
    );
    assert!(out.stdout.contains("completions"), "{out:?}");
    // Every page the main page refers to, written to a directory.
    let dir = TempDir::new("man");
    run(&["man", "--dir", dir.0.to_str().unwrap()]).exits(0);
    for page in ["cmg.1", "cmg-check.1", "cmg-solve.1", "cmg-explain.1"] {
        let text = std::fs::read_to_string(dir.0.join(page)).unwrap();
        assert!(text.contains(".TH"), "{page}");
    }
}

/// Each command's own help, and its man page, open with the summary `cmg --help` lists for
/// it. The commands' arguments are built only when needed (`defer`), and a flattened
/// group of options with a doc comment then put that comment in place of the summary of
/// `cmg check` and `cmg solve`.
#[test]
fn each_commands_help_and_man_page_give_its_own_summary() {
    let main = run(&["--help"]);
    let listed: Vec<(String, String)> = main
        .stdout
        .lines()
        .skip_while(|line| *line != "Commands:")
        .skip(1)
        .take_while(|line| !line.is_empty())
        .filter_map(|line| {
            let (name, summary) = line.trim().split_once(' ')?;
            Some((name.to_string(), summary.trim().to_string()))
        })
        .filter(|(name, _)| name != "help")
        .collect();
    assert!(listed.len() >= 10, "{main:?}");
    let dir = TempDir::new("man-summaries");
    assert_eq!(run(&["man", "--dir", dir.0.to_str().unwrap()]).code, 0);
    for (name, summary) in &listed {
        let help = run(&[name, "--help"]);
        let first = help.stdout.lines().next().unwrap_or_default();
        assert_eq!(
            first.trim_end_matches('.'),
            summary.trim_end_matches('.'),
            "{name}"
        );
        let page = std::fs::read_to_string(dir.0.join(format!("cmg-{name}.1"))).unwrap();
        // Its words up to the first character roff may escape.
        let words: String = summary
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == ' ')
            .collect();
        assert!(words.len() >= 6, "{summary:?}");
        assert!(page.contains(&words), "cmg-{name}.1 lacks {words:?}");
    }
}

#[test]
fn version_is_an_option_of_the_main_command_only() {
    assert_eq!(run(&["--version"]).code, 0);
    run(&["check", "--version"]).exits(2);
}

#[test]
fn lsp_accepts_stdio() {
    // Standard input is empty, so the server sees EOF and ends.
    run(&["lsp", "--stdio"]).exits(0);
}

#[test]
fn fmt_check_shows_a_diff() {
    let out = run_stdin(&["fmt", "--check", "-"], "0 -- 1\n1--2\n").exits(1);
    assert!(out.stdout.contains("-1--2\n+1 -- 2\n"), "{out:?}");
}

#[test]
fn fmt_drops_leading_zeros_and_keeps_a_byte_order_mark() {
    let dir = TempDir::new("fmt-bom");
    let path = dir.file("bom.cmg", "\u{feff}00 -- 01 -- 2 -- 000\n");
    run(&["fmt", &path]).exits(0);
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "\u{feff}0 -- 1 -- 2 -- 0\n"
    );
}

#[test]
fn json_columns_do_not_count_a_byte_order_mark() {
    let diagnostics = run_stdin(&["check", "--json", "-"], "\u{feff}0 -- 1 -- 2 -- 2\n").json();
    assert_eq!(position(&find(&diagnostics, "self-loop")["start"]), (1, 11));
}

#[test]
fn solve_refuses_over_the_memory_budget_before_allocating() {
    let out = run(&["solve", "--max-memory", "1K", &example("long-game.cmg")]).exits(1);
    assert!(out.stderr.contains("--max-memory"), "{out:?}");
    let out = run(&[
        "solve",
        "--json",
        "--max-memory",
        "1K",
        &example("long-game.cmg"),
    ]);
    assert_eq!(out.json()["outcome"], Value::Null, "{out:?}");
    assert_eq!(
        run(&["solve", "--max-memory", "4K", &example("long-game.cmg")]).code,
        0
    );
    assert_eq!(
        run(&["solve", "--max-memory", "lots", &example("long-game.cmg")]).code,
        2
    );
}

#[test]
fn dot_on_a_graph_too_big_to_solve_says_so() {
    // A chain of 23 200 nodes: above the solver's 23 170.
    let mut text = String::from("0 -- 1 -- 2");
    for id in 3..23_200 {
        text.push_str(&format!(" -- {id}"));
    }
    let out = run_stdin(&["dot", "-"], &text).exits(0);
    assert!(
        out.stderr.contains("not coloured") && out.stderr.contains("23200 nodes"),
        "{}",
        out.stderr
    );
    assert!(!out.stdout.contains("fillcolor=\"#"), "no colours");
}

#[test]
fn explain_prints_the_section_of_the_documentation() {
    let page =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/diagnostics.md"))
            .unwrap();
    for code in all_codes() {
        let out = run(&["explain", code]).exits(0);
        assert!(out.stdout.starts_with(&format!("## {code}\n")), "{out:?}");
        // The same prose as the page: every line of the output is a line of the page
        // (the examples' test annotations aside).
        for line in out.stdout.lines().filter(|l| !l.starts_with("```")) {
            assert!(
                page.lines().any(|p| p == line),
                "{code}: {line:?} is not in the page"
            );
        }
    }
    // No code at all: how to find one.
    let out = run(&["explain"]).exits(2);
    assert!(
        out.stderr.contains("`cmg explain --list` names them all"),
        "{out:?}"
    );
    let out = run(&["explain", "no-such-code"]).exits(2);
    assert!(out.stderr.contains("--list"), "{out:?}");
    assert!(!out.stderr.contains("did you mean"), "{out:?}");
    // A slip of one letter, or of two letters swapped, names the code meant.
    for slip in ["slef-loop", "self-lop", "SELF_LOOPS"] {
        let out = run(&["explain", slip]).exits(2);
        assert!(
            out.stderr.contains("did you mean `self-loop`?"),
            "{slip}: {out:?}"
        );
    }
}

// ---------------------------------------------------------------------------
// Bounded output on hostile input
// ---------------------------------------------------------------------------

/// The diagnostic headers of human output, such as `warning[duplicate-edge]`.
fn headers(stdout: &str) -> usize {
    stdout
        .lines()
        .filter(|line| {
            ["error[", "warning[", "information[", "hint["]
                .iter()
                .any(|word| line.starts_with(word))
        })
        .count()
}

#[test]
fn a_long_line_of_duplicates_gives_bounded_output_and_complete_json() {
    let count = if slow_tests() { 200_000 } else { 20_000 };
    let text = hostile::long_line_of_statements(count, 5000);
    let duplicates = count - 1 - 5000;
    let out = run_stdin(&["check", "-"], &text);
    assert_eq!(out.code, 1, "a self-loop is an error");
    assert_eq!(headers(&out.stdout), 200, "the default --max-diagnostics");
    let not_shown = 1 + duplicates - 200;
    assert!(
        out.stdout.contains(&format!(
            "<stdin>: {not_shown} more not shown ({not_shown} warnings); `--max-diagnostics 0` shows all\n"
        )),
        "{}",
        &out.stdout[out.stdout.len().saturating_sub(500)..]
    );
    assert!(
        out.stdout
            .ends_with(&format!("1 file checked, 1 error, {duplicates} warnings\n")),
        "{}",
        &out.stdout[out.stdout.len().saturating_sub(500)..]
    );
    // Source lines are cut around the span: no output line is wider than 140 columns
    // and a few more for the gutter, and the whole stays small whatever the input.
    let widest = out.stdout.lines().map(|l| l.chars().count()).max().unwrap();
    assert!(widest <= 150, "a line of {widest} characters");
    assert!(out.stdout.len() < 200 * 700, "{} bytes", out.stdout.len());
    assert!(out.stdout.contains("..."), "cut lines are marked");

    // `--max-diagnostics` moves the bound; 0 shows all.
    let out = run_stdin(&["check", "--max-diagnostics", "3", "-"], &text);
    assert_eq!(headers(&out.stdout), 3);
    let shorter = hostile::long_line_of_statements(6000, 5000);
    let out = run_stdin(&["check", "--max-diagnostics", "0", "-"], &shorter);
    assert_eq!(headers(&out.stdout), 1 + (6000 - 1 - 5000));
    assert!(!out.stdout.contains("more not shown"), "nothing left out");

    // JSON is never cut.
    let json = run_stdin(&["check", "--json", "-"], &shorter).json();
    assert_eq!(json.as_array().unwrap().len(), 1 + (6000 - 1 - 5000));
}

#[test]
fn a_pasted_adjacency_line_gives_bounded_output() {
    // 1500 lists on one line (about 28 KB), each naming the next four nodes, none
    // naming back: 6000 one-sided edges.
    let lists: Vec<String> = (0..1500)
        .map(|i| {
            let next: Vec<String> = (1..5).map(|k| ((i + k) % 1500).to_string()).collect();
            format!("[{}]", next.join(","))
        })
        .collect();
    let text = format!("[{}]\n", lists.join(","));
    let out = run_stdin(&["check", "-"], &text);
    assert_eq!(out.code, 0, "warnings only");
    assert_eq!(headers(&out.stdout), 200);
    assert!(
        out.stdout
            .contains("<stdin>: 5800 more not shown (5800 warnings)"),
        "{}",
        &out.stdout[out.stdout.len().saturating_sub(300)..]
    );
    assert!(out.stdout.ends_with("1 file checked, 6000 warnings\n"));
    assert!(
        out.stdout.len() < 3 * text.len(),
        "{} bytes",
        out.stdout.len()
    );
    let widest = out.stdout.lines().map(|l| l.chars().count()).max().unwrap();
    assert!(widest <= 150, "a line of {widest} characters");
    let json = run_stdin(&["check", "--json", "-"], &text).json();
    assert_eq!(json.as_array().unwrap().len(), 6000);
}

#[test]
fn solve_bounds_the_diagnostics_it_prints_too() {
    // A cycle of 50 nodes, so that the solve itself is quick.
    let text = hostile::long_line_of_statements(1050, 50);
    let out = run_stdin(&["solve", "--max-diagnostics", "5", "-"], &text);
    assert_eq!(headers(&out.stderr), 5, "{}", out.stderr);
    assert!(
        out.stderr.contains("995 more not shown (995 warnings)"),
        "{}",
        out.stderr
    );
    assert!(out.stdout.starts_with("mouse wins in"), "{out:?}");
}

#[test]
fn solve_json_prints_one_object_even_for_an_unreadable_file() {
    let dir = TempDir::new("solve-unreadable");
    let missing = dir.0.join("missing.cmg");
    let out = run(&["solve", "--json", missing.to_str().unwrap()]).exits(2);
    let value = out.json();
    assert_eq!(value["outcome"], Value::Null, "{out:?}");
    assert!(
        value["reason"].as_str().unwrap().contains("cannot read"),
        "{out:?}"
    );
}
