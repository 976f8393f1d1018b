//! The judge's report, as text and as JSON (`cmg judge --json`, docs/json.md): the same
//! words wherever the judge runs, the command line or a browser.

use cmg_solve::Game;

use crate::cause::Cause;
use crate::run::{Finding, Kind, Report as Outcome, START};

/// What a run found, and how it ran.
pub struct Report<'a> {
    pub outcome: &'a Outcome,
    /// The solution's language, as the report names it ("Python").
    pub language: &'a str,
    pub seconds: f64,
    /// What the run's confinement of the solution is called in the JSON (`sandbox`).
    pub sandbox: &'a str,
    /// A note on the first line, when the confinement is less than full.
    pub note: Option<String>,
    /// What stopped the run before its end, as the report names it ("SIGINT").
    pub interrupted: Option<&'a str>,
}

/// The most bytes of a crash's standard error kept in the JSON.
pub const ERROR_TAIL: usize = 4000;

/// The report as text.
pub fn text(report: &Report) -> String {
    let outcome = report.outcome;
    let checked = &outcome.checked;
    let seconds = report.seconds;
    let mut text = String::new();
    if let Some(note) = &report.note {
        text.push_str(&format!("note: {note}\n"));
    }
    let covered = checked.complete_to.map_or(String::new(), |n| {
        format!("; every game of 3 to {n} nodes tried")
    });
    let Some(finding) = &outcome.finding else {
        match report.interrupted {
            Some(signal) => text.push_str(&format!(
                "no counterexample in {} ({}{covered}; {seconds:.1} s; interrupted by {})\n",
                plural(checked.total() as usize, "graph"),
                checked_words(outcome),
                signal
            )),
            None => text.push_str(&format!(
                "no counterexample: the {} solution answered all {} graphs right ({}{covered}) in {seconds:.1} s.\nThis is no proof: a graph it gets wrong may still exist.\n",
                report.language,
                checked.total(),
                checked_words(outcome)
            )),
        }
        return text;
    };
    let edges: usize = finding.graph.iter().map(Vec::len).sum::<usize>() / 2;
    text.push_str(&format!(
        "{} on a graph of {} nodes and {} (after {}: {}{covered}; {seconds:.1} s{})\n",
        finding.verdict.words(),
        finding.graph.len(),
        plural(edges, "edge"),
        plural(checked.total() as usize, "graph"),
        checked_words(outcome),
        report.interrupted.map_or(String::new(), |signal| format!(
            "; interrupted by {signal} after the failure"
        ))
    ));
    text.push_str(&format!(
        "  expected: {} ({})\n",
        finding.expected,
        answer_words(finding.expected, finding.moves)
    ));
    match finding.got {
        Some(got) => text.push_str(&format!("  got:      {got}\n")),
        None => text.push_str(&format!(
            "  got:      no answer: {}\n",
            solution_lines(&finding.detail).join("\n            ")
        )),
    }
    if let Some(sequence) = &outcome.sequence {
        let before = sequence.len() - 1;
        text.push_str(&format!(
            "  from a fresh start it answers this graph right; after {} it answers wrong: the answer depends on what ran before (global or static state, not reset between calls). LeetCode runs every test in one process, so this fails there too. Run in order, from a fresh start:\n",
            plural(before, "earlier graph")
        ));
        for (i, graph) in sequence.iter().enumerate() {
            text.push_str(&format!(
                "    {}. {}{}\n",
                i + 1,
                serde_json::to_string(graph).unwrap_or_default(),
                if i == before {
                    "  (answered wrong)"
                } else {
                    ""
                }
            ));
        }
    }
    if outcome.reproduced == Some(false) {
        text.push_str(
            "  run again from a fresh start, it answered otherwise: the solution is not deterministic\n",
        );
    }
    if let Some(line) = line_text(&finding.graph) {
        text.push_str(&format!("  optimal line (mouse,cat): {line}\n"));
    }
    if let Some(cause) = &outcome.cause {
        text.push_str(&format!(
            "  cause, checked on every graph it answered: {cause}\n"
        ));
        if let Cause::TurnLimit {
            decides: (lo, hi), ..
        } = cause
        {
            if lo == hi {
                text.push_str(&format!(
                    "    the game it solves: this graph with a draw once {lo} moves are made, where the real game lasts {}\n",
                    finding.moves.map_or("for ever".to_owned(), |m| plural(m as usize, "move"))
                ));
            }
        }
    } else if finding.got.is_some()
        && outcome.sequence.is_none()
        && outcome.reproduced == Some(true)
    {
        text.push_str("  cause: none of the simple ones fits every answer it gave (a turn limit, the cat moving first, the start swapped, the cat allowed into the hole, the hole counted among the cat's moves)\n");
    }
    if let Some(wrong) = &outcome.wrong_at {
        text.push_str(&format!(
            "  the last position on the optimal line it gets wrong: after {}, the mouse on {} and the cat on {}, the mouse to move ({}); asked about it as a new start, it answers {}. LeetCode's input for that start: {}\n",
            plural(wrong.ply, "move"),
            wrong.mouse,
            wrong.cat,
            answer_words(wrong.expected, None),
            wrong.got,
            serde_json::to_string(&wrong.graph).unwrap_or_default()
        ));
    }
    text.push_str(&format!(
        "LeetCode's input: {}\nThe graph as a .cmg file (`cmg check` verifies its expect line):\n{}",
        serde_json::to_string(&finding.graph).unwrap_or_default(),
        cmg_text(finding)
    ));
    if let Some(variant) = outcome
        .cause
        .as_ref()
        .and_then(|c| variant_text(finding, c))
    {
        text.push_str(&format!(
            "The game it solves, the same graph with the rule its answers fit, as a .cmg file (`cmg solve` gives the answer it gave, and `cmg check` verifies the expect line):\n{variant}"
        ));
    }
    text
}

/// The report as JSON.
pub fn json(report: &Report) -> serde_json::Value {
    let outcome = report.outcome;
    let checked: serde_json::Map<String, serde_json::Value> = Kind::ALL
        .iter()
        .map(|kind| (kind.word().to_owned(), outcome.checked.count(*kind).into()))
        .collect();
    let mut value = match &outcome.finding {
        None => serde_json::json!({
            "verdict": "no-counterexample",
            "error": null,
        }),
        Some(finding) => serde_json::json!({
            "verdict": finding.verdict.word(),
            "graph": finding.graph,
            "expected": finding.expected,
            "got": finding.got,
            "moves": finding.moves,
            "reproduced": outcome.reproduced,
            "error": finding.error.as_deref().map(|error| tail(error, ERROR_TAIL)),
            "sequence": outcome.sequence,
            "cause": outcome.cause.as_ref().map(|cause| cause_json(cause, finding)),
            "wrong_at": outcome.wrong_at.as_ref().map(|wrong| serde_json::json!({
                "ply": wrong.ply,
                "mouse": wrong.mouse,
                "cat": wrong.cat,
                "expected": wrong.expected,
                "got": wrong.got,
                "graph": wrong.graph,
            })),
        }),
    };
    value["checked"] = checked.into();
    value["complete_to"] = outcome.checked.complete_to.into();
    value["seconds"] = report.seconds.into();
    value["sandbox"] = report.sandbox.into();
    value["interrupted"] = report.interrupted.is_some().into();
    value
}

/// The last `max` bytes of `text`, at a character boundary.
pub fn tail(text: &str, max: usize) -> String {
    let text = text.trim_end();
    let mut start = text.len().saturating_sub(max);
    while !text.is_char_boundary(start) {
        start += 1;
    }
    text[start..].to_owned()
}

/// "1 edge", "2 edges".
fn plural(n: usize, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}

fn cause_json(cause: &Cause, finding: &Finding) -> serde_json::Value {
    let mut value = match cause {
        Cause::TurnLimit {
            decides: (lo, hi),
            formula,
            ..
        } => serde_json::json!({
            "kind": cause.kind(),
            "decides": [lo, hi],
            "formula": formula.map(|f| f.to_string()),
        }),
        _ => serde_json::json!({ "kind": cause.kind() }),
    };
    value["cmg"] = variant_text(finding, cause).into();
    value
}

/// The graph as a `.cmg` file whose `expect` line says the right answer.
pub fn cmg_text(finding: &Finding) -> String {
    let mut text = format!(
        "# a graph the solution answers {} for; the right answer is {} ({})\n",
        finding
            .got
            .map_or_else(|| finding.verdict.word().to_owned(), |got| got.to_string()),
        finding.expected,
        answer_words(finding.expected, finding.moves)
    );
    for line in cmg_ide::edge_statements((0u32..).zip(&finding.graph)) {
        text.push_str(&line);
        text.push('\n');
    }
    text.push_str(expect_line(finding.expected));
    text
}

/// The game the solution solves, where the language states `cause`: the graph with the
/// cause's `rule` lines and an `expect` line of the answer the solution gave. The text is
/// read back as `cmg solve` reads a file, and given only if its game's answer is the
/// solution's (so never for a slip the language cannot state, nor for an answer that is
/// not 0, 1 or 2).
pub fn variant_text(finding: &Finding, cause: &Cause) -> Option<String> {
    let rules = cause.rules();
    let got = u8::try_from(finding.got?).ok().filter(|&got| got <= 2)?;
    if rules.is_empty() {
        return None;
    }
    let mut body = String::new();
    for line in rules
        .iter()
        .cloned()
        .chain(cmg_ide::edge_statements((0u32..).zip(&finding.graph)))
    {
        body.push_str(&line);
        body.push('\n');
    }
    body.push_str(expect_line(got));
    let analysis = cmg_core::analysis::Analysis::new(body.as_str());
    let graph = &analysis.model.graph;
    let start = cmg_core::analysis::start_position(graph)?;
    let solution = cmg_solve::solve(&analysis.game()?);
    let outcome = solution.outcome(start);
    if outcome.code() != got {
        return None;
    }
    Some(format!(
        "# the graph above under `{}`: the game the solution solves, where its answer {got} is right ({})\n{body}",
        rules.join("`, `"),
        answer_words(got, solution.moves_to_end(start))
    ))
}

fn expect_line(answer: u8) -> &'static str {
    match answer {
        1 => "expect mouse\n",
        2 => "expect cat\n",
        _ => "expect draw\n",
    }
}

fn answer_words(answer: u8, moves: Option<u32>) -> String {
    let plies = |moves: Option<u32>| {
        moves.map_or_else(String::new, |m| {
            format!(" in {}", plural(m as usize, "move"))
        })
    };
    match answer {
        1 => format!("the mouse wins{}", plies(moves)),
        2 => format!("the cat wins{}", plies(moves)),
        _ => "a draw".to_owned(),
    }
}

fn line_text(graph: &[Vec<u32>]) -> Option<String> {
    let solution = cmg_solve::solve(&Game::new(graph, Some(0)));
    solution.moves_to_end(START)?;
    let line = solution.line(START);
    Some(
        line.iter()
            .map(|pos| format!("{},{}", pos.mouse, pos.cat))
            .collect::<Vec<_>>()
            .join(" → "),
    )
}

fn checked_words(outcome: &Outcome) -> String {
    Kind::ALL
        .iter()
        .map(|kind| (kind, outcome.checked.count(*kind)))
        .filter(|(_, count)| *count > 0)
        .map(|(kind, count)| format!("{count} {}", kind.word()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The end of a crash's standard error without the harness's and the runtime's own
/// frames: the exception's type and message and the solution's frames.
fn solution_lines(text: &str) -> Vec<&str> {
    let harness = [
        "node:internal",
        "at node:",
        "__cmg_",
        "in <module>",
        "at Main.main(",
        "at Object.<anonymous>",
        "at Module.",
        "at Function.executeUserEntryPoint",
    ];
    let mut kept = Vec::new();
    let mut skip_code = false;
    for line in text.lines() {
        if harness.iter().any(|word| line.contains(word)) {
            // A Python frame's next line is its code.
            skip_code = line.trim_start().starts_with("File ");
            continue;
        }
        if skip_code && line.starts_with("    ") {
            continue;
        }
        skip_code = false;
        kept.push(line);
    }
    let start = kept.len().saturating_sub(8);
    kept.split_off(start)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The end of a text, trailing space dropped, cut at a character boundary.
    #[test]
    fn a_tail_keeps_the_last_bytes_whole_characters_only() {
        assert_eq!(tail("first\nlast  \n", 4), "last");
        assert_eq!(tail("short", 100), "short");
        assert_eq!(tail("abc\u{e9}", 2), "\u{e9}");
        assert_eq!(tail("abc\u{e9}", 1), "");
    }

    #[test]
    fn a_crash_keeps_its_message_and_the_solutions_frames() {
        let python = "Traceback (most recent call last):\n  File \"/tmp/x/solution.py\", line 81, in <module>\n    __cmg_main()\n  File \"/tmp/x/solution.py\", line 77, in __cmg_main\n    answer = Solution().catMouseGame(graph)\n  File \"/tmp/x/solution.py\", line 12, in catMouseGame\n    return 1 / 0\nZeroDivisionError: division by zero";
        assert_eq!(
            solution_lines(python),
            [
                "Traceback (most recent call last):",
                "  File \"/tmp/x/solution.py\", line 12, in catMouseGame",
                "    return 1 / 0",
                "ZeroDivisionError: division by zero"
            ]
        );
        let node = "/tmp/x/solution.js:5\n    throw new Error(\"no\");\n    ^\n\nError: no\n    at catMouseGame (/tmp/x/solution.js:5:11)\n    at Object.<anonymous> (/tmp/x/solution.js:40:22)\n    at Module._compile (node:internal/modules/cjs/loader:1358:14)\n    at node:internal/main/run_main_module:28:49";
        let kept = solution_lines(node);
        assert!(kept.contains(&"Error: no"), "{kept:?}");
        assert!(
            kept.iter().all(|line| !line.contains("node:internal")),
            "{kept:?}"
        );
    }
}
