//! Runs every example in README.md and docs/ against the built `cmg`, as rustdoc and
//! mdBook test the code in their books, so that the documentation cannot drift.
//!
//! Fenced blocks are annotated by their info string:
//!
//! - ` ```cmg ` is a whole `.cmg` file that `cmg check` must find clean;
//!   ` ```cmg check=code,code ` one that reports exactly those codes (in any order).
//! - ` ```console ` holds `$ command` lines, each followed by the output it must print
//!   (standard output, then standard error). A line `...` stands for any number of lines.
//!   Commands run from the repository root through `sh`, with the built `cmg` first on `PATH`.
//! - ` ```sh `, ` ```text `, ` ```json `, ` ```lua `, ` ```toml `, ` ```yaml ` are shown, not run.
//!
//! A block without an info string is refused, so that no example escapes the test.

use std::path::{Path, PathBuf};
use std::process::Command;

struct Block {
    file: String,
    line: usize,
    info: String,
    body: String,
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn documents() -> Vec<PathBuf> {
    let mut files = vec![root().join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .expect("docs/ exists")
        .map(|entry| entry.expect("docs/ is readable").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    files
}

/// The fenced blocks of a Markdown text; fences may be indented (inside list items).
fn blocks(file: &Path) -> Vec<Block> {
    let text = std::fs::read_to_string(file).expect("document is readable");
    let name = file
        .strip_prefix(root())
        .unwrap_or(file)
        .display()
        .to_string();
    let mut blocks = Vec::new();
    let mut open: Option<(usize, usize, String, Vec<&str>)> = None;
    for (number, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        match &mut open {
            None => {
                if let Some(info) = trimmed.strip_prefix("```") {
                    open = Some((number + 1, indent, info.trim().to_owned(), Vec::new()));
                }
            }
            Some((start, fence_indent, info, lines)) => {
                if trimmed == "```" {
                    blocks.push(Block {
                        file: name.clone(),
                        line: *start,
                        info: std::mem::take(info),
                        body: lines.join("\n"),
                    });
                    open = None;
                } else {
                    let cut = (*fence_indent).min(indent);
                    lines.push(&line[cut..]);
                }
            }
        }
    }
    assert!(open.is_none(), "{name}: a code block is never closed");
    blocks
}

fn all_blocks() -> Vec<Block> {
    documents().iter().flat_map(|file| blocks(file)).collect()
}

fn cmg_path() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_cmg"))
}

/// Runs one shell command line from the repository root, `cmg` being the built binary.
fn shell(command: &str, stdin_file: Option<&Path>) -> (String, i32) {
    let bin_dir = cmg_path()
        .parent()
        .expect("binary has a directory")
        .to_owned();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut child = Command::new("sh");
    child
        .arg("-c")
        .arg(command)
        .current_dir(root())
        .env("PATH", path)
        .env("NO_COLOR", "1")
        .env_remove("CLICOLOR_FORCE");
    match stdin_file {
        Some(file) => child.stdin(std::fs::File::open(file).expect("stdin file opens")),
        None => child.stdin(std::process::Stdio::null()),
    };
    let output = child.output().expect("sh runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    (text, output.status.code().unwrap_or(-1))
}

/// Whether `actual` matches `expected`, where a `...` line (indented or not) in `expected` stands for
/// any number of lines.
fn matches(expected: &[&str], actual: &[&str]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((line, rest)) if line.trim() == "..." => {
            (0..=actual.len()).any(|skip| matches(rest, &actual[skip..]))
        }
        Some((line, rest)) => actual
            .split_first()
            .is_some_and(|(first, others)| first.trim_end() == *line && matches(rest, others)),
    }
}

fn trim_trailing_blank(mut lines: Vec<&str>) -> Vec<&str> {
    while lines.last().is_some_and(|line| line.trim().is_empty()) {
        lines.pop();
    }
    lines
}

fn check_console(block: &Block) -> Result<usize, String> {
    let mut commands: Vec<(String, Vec<&str>)> = Vec::new();
    for line in block.body.lines() {
        if let Some(command) = line.strip_prefix("$ ") {
            commands.push((command.to_owned(), Vec::new()));
        } else if let Some((_, output)) = commands.last_mut() {
            output.push(line);
        } else {
            return Err(format!("output before the first `$ ` line: {line:?}"));
        }
    }
    if commands.is_empty() {
        return Err("a console block without a `$ ` command".to_owned());
    }
    for (command, expected) in &commands {
        let (actual, _) = shell(command, None);
        let expected = trim_trailing_blank(expected.clone());
        let actual_lines = trim_trailing_blank(actual.lines().collect());
        if !matches(&expected, &actual_lines) {
            return Err(format!(
                "`{command}` printed\n{actual}\n--- but the documentation shows ---\n{}",
                expected.join("\n")
            ));
        }
    }
    Ok(commands.len())
}

fn check_cmg(block: &Block, attributes: &[&str]) -> Result<(), String> {
    let mut expected: Vec<String> = Vec::new();
    for attribute in attributes {
        match attribute.strip_prefix("check=") {
            Some(codes) => expected.extend(codes.split(',').map(str::to_owned)),
            None => return Err(format!("unknown attribute {attribute:?}")),
        }
    }
    expected.sort();
    expected.dedup();
    let file = std::env::temp_dir().join(format!(
        "cmg-doc-{}-{}-{}.cmg",
        std::process::id(),
        block.file.replace('/', "_"),
        block.line
    ));
    std::fs::write(&file, format!("{}\n", block.body)).expect("temp file is writable");
    let (output, _) = shell("cmg check --json -", Some(&file));
    let _ = std::fs::remove_file(&file);
    let diagnostics: serde_json::Value = serde_json::from_str(&output)
        .map_err(|error| format!("`cmg check --json` printed no JSON ({error}):\n{output}"))?;
    let mut codes: Vec<String> = diagnostics
        .as_array()
        .ok_or("the JSON is not an array")?
        .iter()
        .map(|d| d["code"].as_str().unwrap_or("?").to_owned())
        .collect();
    codes.sort();
    codes.dedup();
    if codes != expected {
        return Err(format!(
            "`cmg check` reports {codes:?}, the block is annotated with {expected:?}:\n{output}"
        ));
    }
    Ok(())
}

#[test]
fn every_example_in_the_documentation_runs_as_shown() {
    let mut failures = Vec::new();
    let mut commands = 0;
    let mut files = 0;
    for block in all_blocks() {
        let mut words = block.info.split_whitespace();
        let language = words.next().unwrap_or("");
        let attributes: Vec<&str> = words.collect();
        let result = match language {
            "cmg" => {
                files += 1;
                check_cmg(&block, &attributes)
            }
            "console" => check_console(&block).map(|n| commands += n),
            "sh" | "text" | "json" | "lua" | "toml" | "yaml" => Ok(()),
            "" => Err("a code block needs an info string (cmg, console, sh, text, ...)".into()),
            other => Err(format!("unknown info string {other:?}")),
        };
        if let Err(message) = result {
            failures.push(format!("{}:{}: {message}", block.file, block.line));
        }
    }
    assert!(
        failures.is_empty(),
        "{} documentation example(s) fail:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    // The documentation does show files and commands; a parser that finds none is broken.
    assert!(
        files >= 10 && commands >= 10,
        "{files} files, {commands} commands"
    );
}

#[test]
fn the_matcher_takes_ellipsis_for_any_lines() {
    assert!(matches(&["a", "...", "d"], &["a", "b", "c", "d"]));
    assert!(matches(&["a", "...", "d"], &["a", "d"]));
    assert!(!matches(&["a", "...", "d"], &["a", "b"]));
    assert!(!matches(&["a"], &["a", "b"]));
}
