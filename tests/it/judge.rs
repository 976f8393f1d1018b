//! `cmg judge`: solutions written for these tests, right and wrong in the ways people
//! submit them, in each language the judge supports. Every right one passes; every wrong
//! one is caught on a graph as small as any it fails on, which the reference solver
//! confirms; crashes, endless loops, memory hogs and floods of output are findings.

use assert_cmd::Command;
use cmg_solve::reference::ReferenceGame;
use cmg_solve::{Outcome, Player, Position};
use serde_json::Value;

/// A solution of tests/judge/ by its name, or one written elsewhere by its full path.
fn solution(name: &str) -> String {
    if std::path::Path::new(name).is_absolute() {
        return name.to_owned();
    }
    format!("{}/tests/judge/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// `cmg judge SOLUTION --json --seconds S`: the exit code and the JSON (or stderr).
fn judge(name: &str, seconds: &str) -> (i32, Value, String) {
    let output = Command::cargo_bin("cmg")
        .unwrap()
        .args(["judge", &solution(name), "--json", "--seconds", seconds])
        .output()
        .unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    (
        output.status.code().unwrap_or(-1),
        serde_json::from_str(&stdout).unwrap_or(Value::Null),
        stderr,
    )
}

/// The reference solver's answer for the start (0 draw, 1 mouse, 2 cat) and its moves.
fn reference(graph: &Value) -> (u64, Option<u64>) {
    let lists: Vec<Vec<u32>> = serde_json::from_value(graph.clone()).unwrap();
    let decided = ReferenceGame::new(&lists, Some(0)).solve();
    let start = Position {
        mouse: 1,
        cat: 2,
        turn: Player::Mouse,
    };
    match decided.get(&start) {
        Some((Outcome::MouseWins, moves)) => (1, Some(u64::from(*moves))),
        Some((Outcome::CatWins, moves)) => (2, Some(u64::from(*moves))),
        _ => (0, None),
    }
}

/// A finding: the verdict, on a graph of `nodes` nodes, whose expected answer is the
/// reference solver's.
fn assert_caught(name: &str, verdict: &str, nodes: usize) -> Value {
    // A bound only: the run ends at the first failure. A Python solution takes 15 to 25
    // s to answer every game of 7 nodes on an idle machine.
    let (code, json, stderr) = judge(name, "180");
    assert_eq!(code, 1, "{name}: {json} {stderr}");
    assert_eq!(json["verdict"], verdict, "{name}: {json}");
    let graph = &json["graph"];
    assert_eq!(graph.as_array().unwrap().len(), nodes, "{name}: {json}");
    let (expected, moves) = reference(graph);
    assert_eq!(json["expected"], expected, "{name}: {json}");
    assert_eq!(json["moves"].as_u64(), moves, "{name}: {json}");
    if verdict == "wrong-answer" {
        assert_ne!(json["got"], json["expected"], "{name}: {json}");
    }
    // Run again on the graph from a fresh start, the solution failed the same way.
    assert_eq!(json["reproduced"], true, "{name}: {json}");
    json
}

/// The game the cause names, printed as a `.cmg` file with its rule (`cause.cmg`), is
/// the game the solution solves: `cmg solve` gives it the answer the solution gave, and
/// `cmg check` verifies its expect line. It is also the report's last part.
fn assert_the_cause_is_the_game_it_solves(json: &Value, rule: &str) {
    let file = json["cause"]["cmg"].as_str().expect("the cause's game");
    assert!(file.contains(&format!("\n{rule}\n")), "{file}");
    let report = json["report"].as_str().unwrap();
    assert!(report.ends_with(file), "{report}");
    let output = Command::cargo_bin("cmg")
        .unwrap()
        .args(["solve", "--json", "-"])
        .write_stdin(file)
        .output()
        .unwrap();
    let solved: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(solved["result"], json["got"], "{file}\n{solved}");
    assert_ne!(solved["result"], json["expected"], "{file}");
    assert_checks_clean(file);
}

/// `cmg check` finds `file` clean: its `expect` line is its game's answer.
fn assert_checks_clean(file: &str) {
    Command::cargo_bin("cmg")
        .unwrap()
        .args(["check", "-"])
        .write_stdin(file.to_owned())
        .assert()
        .success();
}

/// Every small game of 3 to 6 nodes, in both orders of the lists (`--graphs` stops the
/// run there, whatever the machine's speed), in every language.
#[test]
fn right_solutions_in_every_language_pass() {
    for name in [
        "right.py",
        "right.js",
        "right.cpp",
        "Right.java",
        "right.rs",
        "right.go",
        "right.c",
    ] {
        let output = Command::cargo_bin("cmg")
            .unwrap()
            .args([
                "judge",
                &solution(name),
                "--json",
                "--seconds",
                "300",
                "--graphs",
                "11283",
            ])
            .output()
            .unwrap();
        let json: Value = serde_json::from_slice(&output.stdout).unwrap_or(Value::Null);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(0), "{name}: {json} {stderr}");
        assert_eq!(json["verdict"], "no-counterexample", "{name}: {json}");
        // 5 644 games, 5 639 of them with a list whose order can be reversed.
        assert_eq!(json["checked"]["small"], 11_283, "{name}: {json}");
        assert_eq!(json["complete_to"], 6, "{name}: {json}");
    }
}

/// A 2n turn limit holds on every graph up to 7 nodes (none has a game longer than 12
/// moves); on 8 nodes a game of 16 moves (the one submitted to LeetCode for this) or 17
/// breaks it, and the judge finds an 8-node graph. The search stops at turn 2n before
/// it looks at the position, so it decides games of up to 2n - 1 moves: the cause says
/// so, checked on every graph it ran and pinned on the sizes it could.
#[test]
fn a_turn_limit_of_2n_is_caught_on_eight_nodes() {
    let json = assert_caught("limit_2n.py", "wrong-answer", 8);
    assert_eq!(json["got"], 0);
    assert!(json["moves"].as_u64().unwrap() >= 16, "{json}");
    let cause = &json["cause"];
    assert_eq!(cause["kind"], "turn-limit", "{json}");
    let (lo, hi) = (
        cause["decides"][0].as_u64().unwrap(),
        cause["decides"][1].as_u64().unwrap(),
    );
    assert!(lo <= 15 && hi == 15, "{json}");
    assert_eq!(cause["formula"], "2n-1", "{json}");
    assert_the_cause_is_the_game_it_solves(&json, &format!("rule limit {lo}"));
}

/// A 3n limit holds up to 9 nodes (at most 25 moves there); 10 nodes have a game of 36.
#[test]
fn a_turn_limit_of_3n_is_caught_on_ten_nodes() {
    let json = assert_caught("limit_3n.cpp", "wrong-answer", 10);
    assert!(json["moves"].as_u64().unwrap() >= 30, "{json}");
    assert_eq!(json["cause"]["kind"], "turn-limit", "{json}");
    assert_eq!(json["cause"]["formula"], "3n-1", "{json}");
    // Found on the 10-node record, then shrunk: edges went while it stayed wrong.
    let record = std::fs::read_to_string(format!(
        "{}/examples/records/n10-36.cmg",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let analysis = cmg_core::analysis::Analysis::new(record.as_str());
    let record_edges: usize = analysis
        .model
        .graph
        .adjacency_lists()
        .iter()
        .map(Vec::len)
        .sum();
    let edges: usize = json["graph"]
        .as_array()
        .unwrap()
        .iter()
        .map(|list| list.as_array().unwrap().len())
        .sum();
    assert!(edges < record_edges, "{json}");
}

/// The small graphs come in order of size, so the first wrong one is among the smallest.
#[test]
fn rule_slips_are_caught_on_small_graphs() {
    // Every graph on 3 and 4 nodes (2 and 7 classes, each with every hole, mouse and
    // cat) came first and was answered right.
    let hole = assert_caught("cat_into_hole.js", "wrong-answer", 5);
    assert!(
        hole["checked"]["small"].as_u64().unwrap() > 2 * 6 + 7 * 24 / 2,
        "{hole}"
    );
    assert_eq!(hole["cause"]["kind"], "cat-enters-hole", "{hole}");
    // The language's `rule cat-enters-holes` is another game: no rule is printed.
    assert!(hole["cause"]["cmg"].is_null(), "{hole}");
    // The JSON carries the printed report and the counterexample as a .cmg file whose
    // expect line `cmg check` verifies (what the VS Code command shows and opens).
    let report = hole["report"].as_str().unwrap();
    assert!(
        report.starts_with("wrong answer on a graph of 5 nodes"),
        "{report}"
    );
    assert!(report.contains("the cat may enter the hole"), "{report}");
    let file = hole["cmg"].as_str().unwrap();
    assert!(report.ends_with(file), "{report}");
    assert_checks_clean(file);
    // Right, but it answers for the start with the cat to move.
    let swapped = variant(
        "Right.java",
        "Swapped.java",
        &[(
            "return color[(1 * n + 2) * 2];",
            "return color[(1 * n + 2) * 2 + 1];",
        )],
    );
    let swapped = assert_caught(&swapped, "wrong-answer", 3);
    assert_eq!(swapped["cause"]["kind"], "turns-swapped", "{swapped}");
    assert_the_cause_is_the_game_it_solves(&swapped, "rule first cat");
    let start = assert_caught("wrong_start.rs", "wrong-answer", 3);
    assert_eq!(start["cause"]["kind"], "start-swapped", "{start}");
    assert_the_cause_is_the_game_it_solves(&start, "rule start 2 1");
    // Wrong on its first call only, from a fresh start too; no simple cause fits the
    // answers it gives afterwards.
    let first = assert_caught("first_call.py", "wrong-answer", 3);
    assert!(first["cause"].is_null(), "{first}");
    // A search that takes a position on its own path for a draw and caches it: right
    // on every graph of 3 and 4 nodes, and no simple cause.
    let provisional = assert_caught("provisional_draw.py", "wrong-answer", 5);
    assert!(provisional["cause"].is_null(), "{provisional}");
}

/// `right.py`, but it crashes on every graph of five nodes.
fn crash_py(name: &str) -> String {
    right_py_but(
        name,
        "        if len(graph) == 5:\n            raise ValueError('five nodes')\n",
    )
}

/// `right.py` with `lines` run first on every graph (indented as the method's body).
fn right_py_but(name: &str, lines: &str) -> String {
    let opening = "        n = len(graph)\n";
    variant("right.py", name, &[(opening, &format!("{lines}{opening}"))])
}

#[test]
fn crashes_loops_hogs_and_floods_are_findings() {
    assert_caught(&crash_py("crash.py"), "runtime-error", 5);
    // Right, but it never answers on a graph of four nodes with an edge 1 -- 2.
    let forever = right_py_but(
        "forever.py",
        "        while len(graph) == 4 and 2 in graph[1]:\n            pass\n",
    );
    assert_caught(&forever, "time-limit", 4);
    // Right, but it asks for 2 GiB on a graph of five nodes.
    let hog = right_py_but(
        "hog.py",
        "        hoard = []\n        while len(graph) == 5:\n            hoard.append(bytearray(2 << 30))\n",
    );
    assert_caught(&hog, "memory-limit", 5);
    // Right, and it prints a little on every graph, but without end on four nodes.
    let chatty = right_py_but(
        "chatty.py",
        "        print('debug: a graph of', len(graph), 'nodes')\n        while len(graph) == 4:\n            print('thinking ' * 100)\n",
    );
    let json = assert_caught(&chatty, "runtime-error", 4);
    assert!(json["got"].is_null(), "{json}");
}

#[test]
fn a_solution_that_does_not_build_is_exit_2_with_the_compilers_words() {
    let output = Command::cargo_bin("cmg")
        .unwrap()
        .args(["judge", &solution("broken.py")])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("does not build"), "{stderr}");
    assert!(stderr.contains("SyntaxError"), "{stderr}");
    let output = Command::cargo_bin("cmg")
        .unwrap()
        .args(["judge", &solution("right.py")])
        .env("PATH", "/nonexistent")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("cannot run python3"), "{stderr}");
}

/// The report names the verdict, both answers, the line and the likely cause, and its
/// `.cmg` part checks clean with its `expect`.
#[test]
fn the_report_explains_a_turn_limit() {
    let output = Command::cargo_bin("cmg")
        .unwrap()
        .args(["judge", &solution("limit_2n.py"), "--seconds", "180"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let report = String::from_utf8(output.stdout).unwrap();
    assert!(
        report.starts_with("wrong answer on a graph of 8 nodes"),
        "{report}"
    );
    assert!(
        report.contains(
            "cause, checked on every graph it answered: on 8 nodes it decides games of up to"
        ),
        "{report}"
    );
    assert!(
        report.contains("up to 2n-1 moves on every size where it was pinned"),
        "{report}"
    );
    // The graph as the game, then as the game it solves, each checked clean.
    let (game, solves) = report
        .split_once("verifies its expect line):\n")
        .unwrap()
        .1
        .split_once("The game it solves")
        .unwrap();
    let solves = solves.split_once("the expect line):\n").unwrap().1;
    assert!(solves.contains("\nrule limit 1"), "{report}");
    assert!(solves.ends_with("expect draw\n"), "{report}");
    assert_checks_clean(game);
    assert_checks_clean(solves);
}

/// A draw where a short game is won is no turn limit: the report does not say it is.
#[test]
fn a_rule_slip_is_not_called_a_turn_limit() {
    let output = Command::cargo_bin("cmg")
        .unwrap()
        .args(["judge", &solution("cat_into_hole.js")])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let report = String::from_utf8(output.stdout).unwrap();
    assert!(report.contains("got:      0"), "{report}");
    assert!(!report.contains("fixed number of turns"), "{report}");
}

/// A solution made from a right one by replacing `from` with `to` (each must be there),
/// written into a folder of its own.
fn variant(base: &str, name: &str, edits: &[(&str, &str)]) -> String {
    let mut source = std::fs::read_to_string(solution(base)).unwrap();
    for (from, to) in edits {
        assert!(source.contains(from), "{base} has no {from:?}");
        source = source.replacen(from, to, 1);
    }
    let dir = std::env::temp_dir().join(format!(
        "cmg-judge-variant-{}-{}",
        std::process::id(),
        name.replace('.', "-")
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, source).unwrap();
    path.to_string_lossy().into_owned()
}

fn judge_path(path: &str, args: &[&str]) -> (i32, Value) {
    let output = Command::cargo_bin("cmg")
        .unwrap()
        .args(["judge", path, "--json"])
        .args(args)
        .output()
        .unwrap();
    let json = serde_json::from_slice(&output.stdout).unwrap_or(Value::Null);
    (output.status.code().unwrap_or(-1), json)
}

/// LeetCode promises no order within a list: a solution that takes `graph[c][0] == 0`
/// for "the cat is beside the hole" is right on sorted lists only, and the small games
/// sent with their lists reversed catch it.
#[test]
fn a_solution_that_reads_the_order_of_the_lists_is_caught() {
    let path = variant(
        "right.py",
        "hole_first.py",
        &[(
            "left[m][c][1] = len([x for x in graph[c] if x != 0])",
            "left[m][c][1] = len(graph[c]) - (graph[c][0] == 0)",
        )],
    );
    let (code, json) = judge_path(&path, &["--seconds", "180"]);
    assert_eq!(code, 1, "{json}");
    assert_eq!(json["verdict"], "wrong-answer", "{json}");
    // Among the small games, sent in both orders, before any larger graph.
    assert_eq!(json["checked"]["record"], 0, "{json}");
    assert_eq!(json["checked"]["long"], 0, "{json}");
    let graph: Vec<Vec<u32>> = serde_json::from_value(json["graph"].clone()).unwrap();
    assert!(graph.len() <= 7, "{json}");
    assert!(
        graph.iter().any(|list| list.contains(&0) && list[0] != 0),
        "the hole is not first in some list: {json}"
    );
    let (expected, _) = reference(&json["graph"]);
    assert_eq!(json["expected"], expected);
}

/// `right.py` made to count the hole among the cat's moves.
const HOLE_COUNTED: (&str, &str) = (
    "left[m][c][1] = len([x for x in graph[c] if x != 0])",
    "left[m][c][1] = len(graph[c])",
);

/// `right.cpp` made to keep its colours in an array `table` declared elsewhere.
const COLOUR_IN_TABLE: (&str, &str) = (
    "vector<int> color(n * n * 2, 0), left(n * n * 2, 0);",
    "vector<int> left(n * n * 2, 0);\n        int* color = table;",
);

/// The hole counted among the cat's moves (it is never forced out beside it): the cause
/// is named, checked on every graph it ran.
#[test]
fn the_hole_counted_among_the_cats_moves_is_named() {
    let path = variant("right.py", "hole_counted.py", &[HOLE_COUNTED]);
    let (code, json) = judge_path(&path, &["--seconds", "180"]);
    assert_eq!(code, 1, "{json}");
    assert_eq!(json["cause"]["kind"], "hole-counted", "{json}");
    assert_eq!(json["reproduced"], true, "{json}");
}

/// The cat let into the hole, with the mouse on the cat's node a cat win there too: the
/// game of the language's `rule cat-enters-holes`, named and printed with the rule.
#[test]
fn the_cat_in_the_hole_as_the_language_states_it_is_named_with_its_rule() {
    let path = variant(
        "right.py",
        "cat_enters_holes.py",
        &[
            HOLE_COUNTED,
            ("for c in range(1, n):", "for c in range(n):"),
            (
                "                color[0][c][t] = MOUSE\n                queue.append((0, c, t))\n",
                "                if c:\n                    color[0][c][t] = MOUSE\n                    queue.append((0, c, t))\n",
            ),
            (
                "if pc == 0 or color[m][pc][1] != DRAW:",
                "if color[m][pc][1] != DRAW:",
            ),
        ],
    );
    let (code, json) = judge_path(&path, &["--seconds", "180"]);
    assert_eq!(code, 1, "{json}");
    assert_eq!(json["cause"]["kind"], "cat-enters-holes", "{json}");
    assert_the_cause_is_the_game_it_solves(&json, "rule cat-enters-holes");
}

/// A table kept in the object with no initialiser relies on `Solution()` zeroing it, as
/// LeetCode's call does: the judge calls it so, with a new object per graph.
#[test]
fn a_member_table_without_an_initialiser_passes() {
    let path = variant(
        "right.cpp",
        "member_table.cpp",
        &[
            ("public:\n", "public:\n    int table[50 * 50 * 2];\n"),
            COLOUR_IN_TABLE,
        ],
    );
    let (code, json) = judge_path(&path, &["--seconds", "180", "--graphs", "3000"]);
    assert_eq!(code, 0, "{json}");
    assert_eq!(json["verdict"], "no-counterexample", "{json}");
}

/// A table in a global that is never cleared: right on the first graph, wrong after
/// some. From a fresh start the failing graph is answered right, so the judge reports
/// the sequence of earlier graphs after which it fails, shortened, and checked again
/// from a fresh start.
#[test]
fn state_kept_between_graphs_is_reported_as_a_sequence() {
    let path = variant(
        "right.cpp",
        "global_table.cpp",
        &[
            (
                "class Solution {",
                "int table[50 * 50 * 2];\nclass Solution {",
            ),
            COLOUR_IN_TABLE,
        ],
    );
    let (code, json) = judge_path(&path, &["--seconds", "180"]);
    assert_eq!(code, 1, "{json}");
    assert_eq!(json["verdict"], "wrong-answer", "{json}");
    let sequence = json["sequence"].as_array().expect("a sequence");
    assert!(sequence.len() >= 2, "{json}");
    assert!(sequence.len() <= 4, "shortened: {json}");
    assert_eq!(sequence.last(), Some(&json["graph"]), "{json}");
    assert_eq!(json["reproduced"], true, "{json}");
    assert!(json["cause"].is_null(), "{json}");
}

/// `--keep DIR` writes each failure; the next run with the same folder tries them
/// first, before every other graph.
#[test]
fn kept_failures_are_tried_first_next_time() {
    let dir = std::env::temp_dir().join(format!("cmg-judge-replay-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let keep = dir.to_string_lossy().into_owned();
    let path = crash_py("crash_kept.py");
    let (code, first) = judge_path(&path, &["--seconds", "180", "--keep", &keep]);
    assert_eq!(code, 1, "{first}");
    assert_eq!(first["checked"]["kept"], 0, "{first}");
    let (code, again) = judge_path(&path, &["--seconds", "180", "--keep", &keep]);
    assert_eq!(code, 1, "{again}");
    assert_eq!(again["checked"]["kept"], 1, "{again}");
    assert_eq!(
        again["checked"]["small"], 0,
        "the kept graph failed first: {again}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A crash shows the exception's type and message and the solution's own line, not the
/// harness's frames.
#[test]
fn a_crash_shows_its_message() {
    let path = variant(
        "right.js",
        "throws.js",
        &[(
            "var catMouseGame = function (graph) {\n",
            "var catMouseGame = function (graph) {\n  if (graph.length === 4) throw new RangeError(\"four is too many\");\n",
        )],
    );
    let output = Command::cargo_bin("cmg")
        .unwrap()
        .args(["judge", &path, "--seconds", "180"])
        .output()
        .unwrap();
    let report = String::from_utf8(output.stdout).unwrap();
    assert!(
        report.starts_with("runtime error on a graph of 4 nodes"),
        "{report}"
    );
    let got = report
        .lines()
        .find(|l| l.contains("got:"))
        .unwrap_or_default();
    assert!(
        got.contains("RangeError: four is too many")
            || report.contains("RangeError: four is too many"),
        "{report}"
    );
    assert!(!report.contains("node:internal"), "{report}");
}

/// Go and C, as LeetCode calls them (`func catMouseGame(graph [][]int) int`, and
/// `int catMouseGame(int** graph, int graphSize, int* graphColSize)`): a slip in each
/// is caught on a graph of 3 nodes, with its cause.
#[test]
fn go_and_c_slips_are_caught_with_their_causes() {
    let go = variant(
        "right.go",
        "swapped.go",
        &[("return color[at(1, 2, 0)]", "return color[at(2, 1, 0)]")],
    );
    let (code, json) = judge_path(&go, &["--seconds", "180"]);
    assert_eq!(code, 1, "{json}");
    assert_eq!(json["graph"].as_array().unwrap().len(), 3, "{json}");
    assert_eq!(json["cause"]["kind"], "start-swapped", "{json}");
    let c = variant(
        "right.c",
        "cat_first.c",
        &[(
            "int answer = color[AT(1, 2, 0)];",
            "int answer = color[AT(1, 2, 1)];",
        )],
    );
    let (code, json) = judge_path(&c, &["--seconds", "180"]);
    assert_eq!(code, 1, "{json}");
    assert_eq!(json["graph"].as_array().unwrap().len(), 3, "{json}");
    assert_eq!(json["cause"]["kind"], "turns-swapped", "{json}");
}

/// On a terminal, a progress line on standard error says what is being tried; the
/// report says once that the sandbox was off.
#[test]
fn a_terminal_shows_progress_and_the_report_says_the_sandbox_is_off() {
    let cmg = assert_cmd::cargo::cargo_bin("cmg");
    let line = format!(
        "{} judge {} --graphs 6000 --no-sandbox",
        cmg.display(),
        solution("right.py")
    );
    // `script` gives the command a terminal of its own and copies what it shows.
    let output = std::process::Command::new("script")
        .args(["-qec", &line, "/dev/null"])
        .output()
        .expect("script (util-linux) runs");
    let screen = String::from_utf8_lossy(&output.stdout);
    assert!(screen.contains("cmg judge: "), "{screen}");
    assert!(screen.contains("graphs tried; now 6 nodes"), "{screen}");
    assert!(screen.contains("s left"), "{screen}");
    assert_eq!(
        screen.matches("note: no sandbox (--no-sandbox)").count(),
        1,
        "{screen}"
    );
    // Not on a pipe.
    let output = Command::cargo_bin("cmg")
        .unwrap()
        .args(["judge", &solution("right.py"), "--graphs", "300"])
        .output()
        .unwrap();
    assert!(
        output.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// The sandbox keeps the solution out of other processes' entries in `/proc`: the
/// environment of `cmg` (and of the shell that started it) holds the user's secrets.
/// Without the sandbox, the same solution finds the secret.
#[test]
fn the_sandbox_keeps_other_processes_environments_unread() {
    let probe = "\nimport os as _os\n_answer = Solution.catMouseGame\ndef _probe(self, graph):\n    pid = _os.getppid()\n    while pid > 1:\n        try:\n            if b'CMG_TEST_SECRET' in open('/proc/%d/environ' % pid, 'rb').read():\n                raise RuntimeError('read the secret of process %d' % pid)\n        except OSError:\n            pass\n        try:\n            status = open('/proc/%d/status' % pid).read()\n        except OSError:\n            break\n        pid = int(status.split('PPid:')[1].split()[0])\n    return _answer(self, graph)\nSolution.catMouseGame = _probe\n";
    let source = std::fs::read_to_string(solution("right.py")).unwrap() + probe;
    let dir = std::env::temp_dir().join(format!("cmg-judge-environ-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("probe.py");
    std::fs::write(&path, source).unwrap();
    let path = path.to_string_lossy().into_owned();
    let run = |extra: &[&str]| {
        let output = Command::cargo_bin("cmg")
            .unwrap()
            .args(["judge", &path, "--json", "--graphs", "20"])
            .args(extra)
            .env("CMG_TEST_SECRET", "hunter2")
            .output()
            .unwrap();
        let json: Value = serde_json::from_slice(&output.stdout).unwrap_or(Value::Null);
        (output.status.code(), json)
    };
    let (code, json) = run(&[]);
    assert_eq!(code, Some(0), "{json}");
    assert_eq!(json["sandbox"], "landlock", "{json}");
    let (code, json) = run(&["--no-sandbox"]);
    assert_eq!(code, Some(1), "{json}");
    assert!(
        json["error"]
            .as_str()
            .unwrap_or_default()
            .contains("read the secret"),
        "{json}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
