//! The command line against hostile files: terminal escapes, carets after
//! tabs and wide characters, quoted text, unbounded reads, and the slips a newcomer
//! makes. Output is read as bytes, since what a terminal would receive is the point.

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::hostile;
use crate::common::temp_dir::TempDir;

/// Runs `cmg` with `stdin`, without colour; exit code, stdout and stderr as bytes.
fn run(args: &[&str], stdin: &[u8]) -> (i32, Vec<u8>, Vec<u8>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cmg"))
        .args(args)
        .env_remove("CLICOLOR_FORCE")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cmg runs");
    let mut input = child.stdin.take().unwrap();
    let stdin = stdin.to_vec();
    // A command that refuses its input early closes the pipe: that is not a failure.
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&stdin);
    });
    let output = child.wait_with_output().unwrap();
    let _ = writer.join();
    (
        output.status.code().expect("cmg exits by itself"),
        output.stdout,
        output.stderr,
    )
}

/// The first character a terminal would act on: C0 controls other than tab and line
/// feed, DEL, C1 controls.
fn first_control(output: &[u8]) -> Option<(usize, char)> {
    String::from_utf8_lossy(output)
        .char_indices()
        .find(|&(_, c)| c.is_control() && c != '\n' && c != '\t')
}

/// ESC sequences (clear screen, OSC 52 clipboard write, OSC 0 window title), BEL, NUL,
/// DEL and a C1 CSI, in a broken statement, a label and a comment.
const ESCAPES: &str =
    "\u{1b}[2J\u{1b}]52;c;ZWNobyBoaQ==\u{7}\u{1b}]0;pwned\u{7}\u{0}\u{7f}\u{9b}31m";

#[test]
fn no_control_character_from_a_file_reaches_the_terminal() {
    let dir = TempDir::new("hostile-escapes");
    let broken = format!("0 -- 1 -- 2\n3 -- {ESCAPES}\nnode 1 \"{ESCAPES}\"\nnode 1 \"again\"\n");
    let path = dir.write("broken.cmg", broken.as_bytes());
    // A clean file that needs formatting: `fmt --check` prints its diff.
    let unformatted = format!("0--1--2 # {ESCAPES}\n");
    let unformatted = dir.write("unformatted.cmg", unformatted.as_bytes());
    // A file name from a walked folder is the file's author's choice too.
    let named = TempDir::new("hostile-escape-names");
    named.write(
        &format!("a{ESCAPES}.cmg").replace(['\0', '/'], ""),
        b"3 -- 3\n",
    );
    let named_dir = named.path().to_str().unwrap();
    for args in [
        vec!["check", path.as_str()],
        vec!["check", "--quiet", "-"],
        vec!["solve", path.as_str()],
        vec!["fmt", "--check", unformatted.as_str()],
        vec!["fmt", "--check", path.as_str()],
        vec!["dot", path.as_str()],
        vec!["export", path.as_str()],
        vec!["check", named_dir],
        vec!["check", &format!("missing{ESCAPES}.cmg").replace('\0', "")],
    ] {
        let (_, stdout, stderr) = run(&args, broken.as_bytes());
        for (stream, bytes) in [("stdout", &stdout), ("stderr", &stderr)] {
            assert_eq!(
                first_control(bytes),
                None,
                "{args:?} {stream}: {}",
                String::from_utf8_lossy(bytes)
            );
        }
    }
    // They are shown, not dropped: ESC as its symbol.
    let (_, stdout, _) = run(&["check", path.as_str()], b"");
    let stdout = String::from_utf8(stdout).unwrap();
    assert!(stdout.contains("␛[2J"), "{stdout}");
    assert!(
        stdout.contains("\\u{9b}") || stdout.contains("\\u{1b}"),
        "{stdout}"
    );
}

/// Display columns as a terminal counts them: CJK characters take two.
fn width(text: &str) -> usize {
    text.chars()
        .map(|c| {
            if ('\u{4e00}'..='\u{9fff}').contains(&c) {
                2
            } else {
                1
            }
        })
        .sum()
}

#[test]
fn carets_sit_under_the_span_after_tabs_and_wide_characters() {
    for line in ["2 --\t@", "node 1 \"中文\" @", "\tnode 1 \"中\t文\"\t@"] {
        let text = format!("0 -- 1 -- 2\n{line}\n");
        let (_, stdout, _) = run(&["check", "-"], text.as_bytes());
        let stdout = String::from_utf8(stdout).unwrap();
        let lines: Vec<&str> = stdout.lines().collect();
        let source = lines
            .iter()
            .position(|l| l.starts_with("2 |"))
            .unwrap_or_else(|| panic!("no source line in {stdout}"));
        let shown = lines[source];
        let caret = lines[source + 1];
        // The error is at the `@`.
        let at = shown.rfind('@').unwrap();
        assert!(!shown.contains('\t'), "tabs are laid out: {shown:?}");
        assert_eq!(
            caret.find('^').map(|i| width(&caret[..i])),
            Some(width(&shown[..at])),
            "{line:?}:\n{stdout}"
        );
    }
}

#[test]
fn quoted_text_is_cut_and_escaped_in_every_message() {
    for text in [
        hostile::junk_tail('\u{1}', 200_000),
        hostile::junk_tail('\0', 200_000),
        format!("0 -- 1 -- 2\n3 -- {}\n", "é\u{7}".repeat(100_000)),
    ] {
        let (_, stdout, _) = run(&["check", "--json", "-"], text.as_bytes());
        let diagnostics: serde_json::Value = serde_json::from_slice(&stdout).unwrap();
        for diagnostic in diagnostics.as_array().unwrap() {
            let message = diagnostic["message"].as_str().unwrap();
            assert!(message.chars().count() < 400, "{message}");
            assert!(!message.chars().any(char::is_control), "{message:?}");
        }
        assert!(stdout.len() < 4096, "{} bytes of JSON", stdout.len());
    }
}

#[test]
fn only_regular_files_and_standard_input_are_read_and_at_most_the_limit() {
    let (code, _, stderr) = run(&["check", "/dev/zero"], b"");
    assert_eq!(code, 2);
    assert!(String::from_utf8_lossy(&stderr).contains("not a regular file"));

    let dir = TempDir::new("hostile-fifo");
    let fifo = dir.join("pipe.cmg");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let start = Instant::now();
    let (code, _, stderr) = run(&["check", fifo.to_str().unwrap()], b"");
    assert_eq!(code, 2, "{}", String::from_utf8_lossy(&stderr));
    assert!(
        start.elapsed() < Duration::from_secs(10),
        "blocked on the FIFO"
    );

    // One byte over the limit, from a file and from standard input.
    let limit = 8 << 20;
    let over = vec![b'\n'; limit + 1];
    let big = dir.write("big.cmg", &over);
    for (args, input) in [
        (vec!["check", big.as_str()], &b""[..]),
        (vec!["check", "-"], &over[..]),
    ] {
        let (code, _, stderr) = run(&args, input);
        let stderr = String::from_utf8_lossy(&stderr);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(stderr.contains("larger than 8.0 MiB"), "{stderr}");
    }
    let (code, _, _) = run(&["check", "-"], &over[..limit]);
    assert_eq!(code, 1, "at the limit the file is read (and has no game)");
}

#[test]
fn common_slips_get_a_suggestion() {
    for (text, hint) in [
        ("0 => 1 -- 2\n", "did you mean `--`?"),
        ("0 — 1 -- 2\n", "did you mean `--`?"),
        ("0 -- 1 -- 2\nmice\n", "did you mean `mouse`?"),
        ("0 -- 1 -- 2\nExpect mouse\n", "did you mean `expect`?"),
        ("0 -- 1 -- 2\nexepct mouse\n", "did you mean `expect`?"),
        ("0 -- 1 -- 2\nnod 1 \"a\"\n", "did you mean `node`?"),
        ("0 -- 1 -- 2\nnode 1 'a'\n", "double quotes"),
        ("0 -- 1 -- 2\n// a comment\n", "Comments start with `#`"),
        // `graph = [[...]]` is read as the list; another sign after `graph` is a slip.
        (
            "graph: [[1,2],[0]]\n",
            "write it as `graph = [[...]]` or as the list alone",
        ),
        (
            "0 -- -1\n1 -- 2\n",
            "node ids are whole numbers from 0, never negative",
        ),
        // A minus where `--` goes is an arrow's slip, whatever follows.
        ("0 -1\n1 -- 2\n", "did you mean `--`?"),
    ] {
        let (_, stdout, _) = run(&["check", "--json", "-"], text.as_bytes());
        let stdout = String::from_utf8(stdout).unwrap();
        assert!(stdout.contains(hint), "{text:?}: {stdout}");
    }
}

#[test]
fn a_folder_without_cmg_files_is_said() {
    let dir = TempDir::new("hostile-empty");
    let (code, _, stderr) = run(&["check", dir.path().to_str().unwrap()], b"");
    assert_eq!(code, 0);
    assert!(String::from_utf8_lossy(&stderr).contains("no .cmg file found"));
}

/// A chain 0 - 1 - 3 - ... - 2 of `nodes` nodes, with `expect cat` (the mouse wins).
fn chain_expecting_the_cat(nodes: u32) -> String {
    hostile::chain_with_expect(nodes, "cat")
}

/// On the command line the limit is the solve's memory budget, not the editor's node
/// count: a chain above the live-solve limit is solved and its wrong `expect` caught; a
/// budget too small to check an `expect` fails the run, right or wrong, and says how to
/// raise it.
#[test]
fn check_checks_every_expect_or_fails() {
    for args in [
        vec!["check", "--json", "-"],
        vec!["check", "--no-limits", "--json", "-"],
    ] {
        let (code, stdout, _) = run(&args, chain_expecting_the_cat(5003).as_bytes());
        let stdout = String::from_utf8(stdout).unwrap();
        assert_eq!(code, 1, "{args:?}: {stdout}");
        assert!(stdout.contains("expect-mismatch"), "{stdout}");
        assert!(!stdout.contains("too-large"), "{stdout}");
    }
    for expected in ["cat", "mouse"] {
        let text = hostile::chain_with_expect(50, expected);
        let (code, stdout, stderr) = run(&["check", "--max-memory", "1K", "-"], text.as_bytes());
        let (stdout, stderr) = (
            String::from_utf8(stdout).unwrap(),
            String::from_utf8(stderr).unwrap(),
        );
        assert_eq!(code, 1, "expect {expected}: {stdout}");
        assert!(stdout.contains("information[too-large]"), "{stdout}");
        assert!(
            stdout
                .ends_with("1 file checked, 1 information, 1 file with an `expect` not checked\n"),
            "{stdout}"
        );
        assert!(
            stderr.contains("its `expect` is not checked")
                && stderr.contains("`cmg check --max-memory SIZE`"),
            "{stderr}"
        );
    }
    // Without an `expect` nothing is solved, and nothing is left unchecked.
    let (code, _, _) = run(&["check", "--max-memory", "1K", "-"], b"0 -- 1 -- 2\n");
    assert_eq!(code, 0);
}

#[test]
fn a_memory_budget_under_a_mebibyte_is_named_in_bytes() {
    let (_, _, stderr) = run(&["solve", "--max-memory", "1", "-"], b"0 -- 1 -- 2\n");
    let stderr = String::from_utf8(stderr).unwrap();
    assert!(stderr.contains("memory budget of 1 byte,"), "{stderr}");
    // A small graph's estimate is in KiB, not "about 1 MiB"; a budget rounds down.
    let six = b"0 -- 1 -- 2\n2 -- 3 -- 4 -- 5\n";
    let (_, _, stderr) = run(&["solve", "--max-memory", "1100", "-"], six);
    let stderr = String::from_utf8(stderr).unwrap();
    assert!(
        stderr.contains("would take about 2 KiB, above the memory budget of 1 KiB,"),
        "{stderr}"
    );
}

#[test]
fn import_says_on_stderr_what_it_repaired() {
    let (code, stdout, stderr) = run(&["import", "--text", "[[1,1,0,2],[2],[0]]"], b"");
    assert_eq!(code, 0);
    let stderr = String::from_utf8(stderr).unwrap();
    for said in ["1 self-loop", "2 one-sided entries", "1 repeated entry"] {
        assert!(stderr.contains(said), "{said}: {stderr}");
    }
    assert!(String::from_utf8(stdout).unwrap().contains("0 -- {1 2}"));
    // A list that needs nothing repaired is imported silently.
    let (_, _, stderr) = run(&["import", "--text", "[[1],[0]]"], b"");
    assert!(stderr.is_empty(), "{}", String::from_utf8_lossy(&stderr));
}

#[test]
fn man_into_a_closed_pipe_is_not_an_error() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cmg"))
        .arg("man")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Close the pipe before the page is written, as `head` does once it has enough (the
    // page is smaller than a pipe's buffer, so reading first would never close it early).
    drop(child.stdout.take());
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert!(
        output.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn view_exports_to_standard_output_for_a_dash() {
    let dir = TempDir::new("hostile-export-dash");
    let path = dir.write("game.cmg", b"0 -- 1 -- 2\n");
    let (code, stdout, _) = run(&["view", "--export", "-", path.as_str()], b"");
    assert_eq!(code, 0);
    assert!(String::from_utf8(stdout).unwrap().starts_with("<svg"));
    assert!(!std::path::Path::new("-").exists());
}

#[test]
fn explain_takes_a_code_however_it_is_written_and_play_points_to_the_view() {
    for typed in ["self-loop", "SELF-LOOP", "selfloop", "Self_Loop"] {
        let (code, stdout, _) = run(&["explain", typed], b"");
        assert_eq!(code, 0, "{typed}");
        assert!(String::from_utf8(stdout)
            .unwrap()
            .starts_with("## self-loop\n"));
    }
    let (code, _, _) = run(&["explain", "no-such-code"], b"");
    assert_eq!(code, 2);
    let (code, _, stderr) = run(&["play", "game.cmg"], b"");
    assert_eq!(code, 2);
    assert!(String::from_utf8(stderr).unwrap().contains("cmg view FILE"));
    let (code, _, _) = run(&["--version"], b"");
    assert_eq!(code, 0, "help and version still exit 0");
}

#[test]
fn the_location_line_names_the_place_in_the_file_even_on_a_cut_line() {
    // The error is at character 10 001, after 10 000 characters of one line: the line is cut
    // around it, and the location still counts from the start of the line.
    let text = format!("0 -- 1 -- 2\n{}@\n", "3 -- ".repeat(2000));
    let (_, stdout, _) = run(&["check", "-"], text.as_bytes());
    let stdout = String::from_utf8(stdout).unwrap();
    assert!(stdout.contains(" --> <stdin>:2:10001\n"), "{stdout:.600}");
    assert!(stdout.contains("..."), "the line is cut");
    // The diagnostic's own place comes first, the related one after it.
    let text = "0 -- 1 -- 3\n2 -- 3\n\n\n\n\n\n\n3 -- 1\n";
    let (_, stdout, _) = run(&["check", "-"], text.as_bytes());
    let stdout = String::from_utf8(stdout).unwrap();
    let own = stdout.find(" --> <stdin>:9:1\n").expect(&stdout);
    let related = stdout.find(" ::: <stdin>:1:6\n").expect(&stdout);
    assert!(own < related, "{stdout}");
}
