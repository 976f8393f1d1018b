//! The documentation's references hold: every relative link and anchor in the project's
//! Markdown resolves, and `docs/cli.md` names every command and every long option that
//! `cmg --help` and each command's `--help` print, and the README's table every command.

use std::collections::HashSet;
use std::path::PathBuf;
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The Markdown files git tracks, outside installed packages.
fn markdown_files() -> Vec<PathBuf> {
    let output = Command::new("git")
        .args(["ls-files", "*.md"])
        .current_dir(root())
        .output()
        .expect("git runs");
    assert!(output.status.success(), "git ls-files failed");
    String::from_utf8(output.stdout)
        .expect("paths are UTF-8")
        .lines()
        .filter(|path| !path.contains("node_modules"))
        .map(|path| root().join(path))
        .collect()
}

/// The text of a Markdown file without its fenced blocks and inline code, where a
/// bracket is not a link.
fn prose(text: &str) -> String {
    let mut out = String::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        let mut in_code = false;
        for c in line.chars() {
            if c == '`' {
                in_code = !in_code;
            } else if !in_code {
                out.push(c);
            }
        }
        out.push('\n');
    }
    out
}

/// The targets of the inline links `[text](target)` of `text`.
fn link_targets(text: &str) -> Vec<String> {
    let prose = prose(text);
    let mut targets = Vec::new();
    let mut rest = prose.as_str();
    while let Some(at) = rest.find("](") {
        rest = &rest[at + 2..];
        if let Some(end) = rest.find(')') {
            let target = rest[..end].split_whitespace().next().unwrap_or("");
            targets.push(target.to_owned());
        }
    }
    targets
}

/// The anchors of a Markdown file's headings, as GitHub makes them: lower case, the
/// code marks and punctuation dropped but for `-` and `_`, spaces as `-`, and `-1`,
/// `-2`… after a repeated one.
fn anchors(text: &str) -> HashSet<String> {
    let mut seen = HashSet::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        }
        if fenced || !line.starts_with('#') {
            continue;
        }
        let title = line.trim_start_matches('#').trim();
        let slug: String = title
            .to_lowercase()
            .chars()
            .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
            .map(|c| if c == ' ' { '-' } else { c })
            .collect();
        let mut anchor = slug.clone();
        let mut n = 0;
        while seen.contains(&anchor) {
            n += 1;
            anchor = format!("{slug}-{n}");
        }
        seen.insert(anchor);
    }
    seen
}

fn is_external(target: &str) -> bool {
    target.contains("://") || target.starts_with("mailto:")
}

#[test]
fn every_relative_link_and_anchor_in_the_documentation_resolves() {
    let mut broken = Vec::new();
    let mut checked = 0;
    for file in markdown_files() {
        let text = std::fs::read_to_string(&file).expect("a readable file");
        let name = file.strip_prefix(root()).unwrap().display().to_string();
        for target in link_targets(&text) {
            if target.is_empty() || is_external(&target) {
                continue;
            }
            checked += 1;
            let (path, anchor) = match target.split_once('#') {
                Some((path, anchor)) => (path, Some(anchor)),
                None => (target.as_str(), None),
            };
            let linked: PathBuf = if path.is_empty() {
                file.clone()
            } else {
                file.parent().unwrap().join(path)
            };
            if !linked.exists() {
                broken.push(format!("{name}: {target}: no such file"));
                continue;
            }
            if let Some(anchor) = anchor {
                if linked.extension().is_some_and(|ext| ext == "md") {
                    let linked_text = std::fs::read_to_string(&linked).expect("readable");
                    if !anchors(&linked_text).contains(anchor) {
                        broken.push(format!("{name}: {target}: no such heading"));
                    }
                }
            }
        }
    }
    assert!(
        checked > 50,
        "only {checked} relative links found: is the parser broken?"
    );
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn the_anchors_are_githubs() {
    let text =
        "# The game view\n## `cmg solve --json`\n## Notes\n## Notes\n## The scene (version 2)\n";
    let mut anchors: Vec<String> = anchors(text).into_iter().collect();
    anchors.sort();
    assert_eq!(
        anchors,
        [
            "cmg-solve---json",
            "notes",
            "notes-1",
            "the-game-view",
            "the-scene-version-2"
        ]
    );
}

fn help(args: &[&str]) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_cmg"))
        .args(args)
        .arg("--help")
        .output()
        .expect("cmg runs");
    assert!(output.status.success(), "cmg {args:?} --help failed");
    String::from_utf8(output.stdout).expect("help is UTF-8")
}

/// The commands `cmg --help` lists, without `help`.
fn commands() -> Vec<String> {
    let text = help(&[]);
    let list = text
        .split("Commands:")
        .nth(1)
        .and_then(|rest| rest.split("\n\n").next())
        .expect("cmg --help lists its commands");
    list.lines()
        .filter_map(|line| line.split_whitespace().next())
        .filter(|command| *command != "help")
        .map(str::to_owned)
        .collect()
}

/// The long options a help text prints, without `--help` and `--version`.
fn long_options(text: &str) -> Vec<String> {
    let mut options: Vec<String> = text
        .lines()
        .filter(|line| line.trim_start().starts_with('-'))
        .flat_map(|line| {
            line.split(|c: char| c.is_whitespace() || c == ',' || c == '=' || c == '[')
                .filter(|word| word.starts_with("--") && word.len() > 2)
                .map(|word| word.trim_end_matches([']', '.', ':']).to_owned())
                .collect::<Vec<_>>()
        })
        .filter(|option| option != "--help" && option != "--version")
        .collect();
    options.dedup();
    options
}

/// The synopsis at the top of `docs/cli.md`: for each command, the text of its lines
/// (a line `cmg NAME …` and the indented lines that continue it).
fn synopsis(cli: &str) -> Vec<(String, String)> {
    let block = cli
        .split("```text\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("docs/cli.md opens with its synopsis");
    let mut commands: Vec<(String, String)> = Vec::new();
    for line in block.lines() {
        if let Some(rest) = line.strip_prefix("cmg ") {
            let name = rest.split_whitespace().next().unwrap_or("").to_owned();
            commands.push((name, line.to_owned()));
        } else if let Some((_, text)) = commands.last_mut() {
            text.push_str(line);
        }
    }
    commands
}

#[test]
fn the_documentation_names_every_command_and_long_option() {
    let cli = std::fs::read_to_string(root().join("docs/cli.md")).expect("docs/cli.md");
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    let synopsis = synopsis(&cli);
    let mut missing = Vec::new();
    let commands = commands();
    assert!(commands.len() >= 10, "commands found: {commands:?}");
    let global = long_options(&help(&[]));
    for option in &global {
        if !cli.contains(option) {
            missing.push(format!("cmg {option}, anywhere"));
        }
    }
    for command in &commands {
        if !readme.contains(&format!("| `cmg {command}"))
            && !readme.contains(&format!(", `cmg {command}"))
        {
            missing.push(format!("cmg {command} in the README's table of commands"));
        }
        // Below the synopsis: a section, or a command line in an example.
        let below = cli.split_once("\n## ").map_or("", |(_, rest)| rest);
        if !below.contains(&format!("cmg {command}")) {
            missing.push(format!("cmg {command} below the synopsis"));
        }
        let lines: Vec<&str> = synopsis
            .iter()
            .filter(|(name, _)| name == command)
            .map(|(_, text)| text.as_str())
            .collect();
        if lines.is_empty() {
            missing.push(format!("cmg {command} in the synopsis"));
        }
        for option in long_options(&help(&[command])) {
            if !global.contains(&option) && !lines.iter().any(|line| line.contains(&option)) {
                missing.push(format!("cmg {command} {option} in the synopsis"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "the documentation lacks:\n{}",
        missing.join("\n")
    );
}

/// No file of the repository sends its reader to a tracker it does not have: no "issue N"
/// (other projects' issues, such as LeetCode-Feedback's, are sources and may be named)
/// and no "spec §N". Say what was meant, or link a document in the repository.
#[test]
fn no_reference_to_an_issue_number_or_a_spec_section() {
    let reference = |line: &str| {
        let lower = line.to_lowercase();
        if lower.contains("leetcode-feedback") {
            return false;
        }
        lower.contains("spec §")
            || lower.match_indices("issue").any(|(at, _)| {
                let rest = lower[at + "issue".len()..].trim_start_matches([' ', '#']);
                let before_ok = at == 0 || !lower.as_bytes()[at - 1].is_ascii_alphanumeric();
                before_ok && rest.starts_with(|c: char| c.is_ascii_digit())
            })
    };
    let mut found = Vec::new();
    let mut stack = vec![root()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if path.is_dir() {
                if ![
                    ".git",
                    "target",
                    "node_modules",
                    "dist",
                    "out",
                    ".vscode-test",
                ]
                .contains(&name.as_str())
                {
                    stack.push(path);
                }
                continue;
            }
            let text_file = [
                "rs", "md", "ts", "mjs", "js", "sh", "toml", "json", "yml", "css", "html", "lua",
                "el", "py", "cmg",
            ]
            .iter()
            .any(|ext| name.ends_with(&format!(".{ext}")))
                || name == "run";
            if !text_file || name == "package-lock.json" || name == "Cargo.lock" {
                continue;
            }
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            for (number, line) in text.lines().enumerate() {
                if reference(line) {
                    found.push(format!(
                        "{}:{}: {}",
                        path.strip_prefix(root()).unwrap().display(),
                        number + 1,
                        line.trim()
                    ));
                }
            }
        }
    }
    // The check itself names the patterns; it is the one exception.
    found.retain(|line| !line.starts_with("tests/it/doc_links.rs"));
    assert!(
        found.is_empty(),
        "references to a tracker:\n{}",
        found.join("\n")
    );
}
