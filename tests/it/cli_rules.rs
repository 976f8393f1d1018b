//! The rules through the command line: `cmg solve` plays the file's game and says which,
//! `cmg dot` draws one-way edges and the file's holes and starts, `cmg fmt` puts the
//! rules first, and a file without rules prints what it always printed.

use serde_json::Value;

/// `cmg ARGS` with `stdin`: exit code, standard output and standard error.
fn cmg(args: &[&str], stdin: &str) -> (i32, String, String) {
    let output = assert_cmd::Command::new(env!("CARGO_BIN_EXE_cmg"))
        .args(args)
        .write_stdin(stdin)
        .output()
        .expect("cmg runs");
    let text = |bytes: Vec<u8>| String::from_utf8(bytes).expect("UTF-8");
    (
        output.status.code().expect("an exit code"),
        text(output.stdout),
        text(output.stderr),
    )
}

fn solve_json(text: &str) -> Value {
    let (_, stdout, _) = cmg(&["solve", "--json", "-"], text);
    serde_json::from_str(&stdout).expect("one JSON object")
}

/// The limit turns the mouse's win in 3 into a draw, and the line stops at the limit; the
/// JSON names the game and the engine; the same graph without rules has neither field.
#[test]
fn solve_plays_the_files_game_and_says_which() {
    let graph = "0 -- 3 -- 1 -- 2\n";
    let plain = solve_json(graph);
    assert_eq!(plain["outcome"], "mouse");
    assert_eq!(plain["moves"], 3);
    assert!(
        plain.get("engine").is_none() && plain.get("game").is_none(),
        "{plain}"
    );

    let limited = solve_json(&format!("{graph}rule limit 2\nexpect draw\n"));
    assert_eq!(limited["outcome"], "draw", "{limited}");
    assert_eq!(limited["game"], "limit 2");
    assert_eq!(limited["engine"], "standard");
    assert_eq!(limited["line"].as_array().unwrap().len(), 3, "{limited}");
    let (code, stdout, _) = cmg(&["solve", "-"], &format!("{graph}rule limit 2\n"));
    assert_eq!(code, 0);
    assert!(
        stdout.contains("the game: limit 2\n")
            && stdout.contains("the turn limit is reached: draw"),
        "{stdout}"
    );

    let holes = solve_json(&format!("{graph}rule holes 0 2\nrule cat-enters-holes\n"));
    assert_eq!(holes["engine"], "variant", "{holes}");
    assert_eq!(holes["outcome"], "mouse", "{holes}");
}

/// `expect` is checked against the file's game, and a broken rule fails `cmg check`.
#[test]
fn check_holds_expect_to_the_files_game() {
    let (code, _, _) = cmg(
        &["check", "-"],
        "0 -- 3 -- 1 -- 2\nrule first cat\nexpect cat\n",
    );
    assert_eq!(code, 0);
    let (code, stdout, _) = cmg(&["check", "--json", "-"], "0 -- 1 -- 2\nrule limt 3\n");
    assert_eq!(code, 1);
    assert!(stdout.contains("\"unknown-rule\""), "{stdout}");
}

/// One-way edges carry an arrow; the file's holes and starts get their shapes.
#[test]
fn dot_draws_one_way_edges_and_the_files_roles() {
    let (code, dot, _) = cmg(&["dot", "-"], "0 -- 1 -- 2 -- 3\n3 -> 4\nrule holes 0 4\n");
    assert_eq!(code, 0, "{dot}");
    assert!(dot.contains("  3 -- 4 [dir=forward];"), "{dot}");
    assert!(dot.contains("  4 [label=\"4\""), "{dot}");
    let four = dot.lines().find(|line| line.starts_with("  4 [")).unwrap();
    assert!(four.contains("shape=doublecircle"), "{dot}");
    assert!(
        dot.contains("// The game: the holes are 0, 4, one-way edges."),
        "{dot}"
    );
    let (_, plain, _) = cmg(&["dot", "-"], "0 -- 1 -- 2 -- 3\n");
    assert!(
        !plain.contains("dir=forward") && !plain.contains("The game"),
        "{plain}"
    );
}

/// `cmg fmt` puts the rules first, in a fixed order, each with its comments.
#[test]
fn fmt_puts_the_rules_first() {
    let text = "# a game\n0 -- 1 -- 2\n# the cat is quick\nrule first cat\nrule limit 8 # short\n";
    let (code, formatted, _) = cmg(&["fmt", "-"], text);
    assert_eq!(code, 0);
    assert_eq!(
        formatted,
        "# a game\nrule limit 8  # short\n# the cat is quick\nrule first cat\n\n0 -- 1 -- 2\n"
    );
    let (code, again, _) = cmg(&["fmt", "-"], &formatted);
    assert_eq!((code, again.as_str()), (0, formatted.as_str()));
}

/// An adjacency list states LeetCode 913's game: a file with rules or one-way edges is not
/// exported as one, and says why; the same graph without them is.
#[test]
fn export_refuses_a_file_whose_game_is_another() {
    let (code, stdout, stderr) = cmg(&["export", "-"], "0 -- 1 -- 2\nrule first cat\n");
    assert_eq!((code, stdout.as_str()), (1, ""), "{stderr}");
    assert!(stderr.contains("(the cat moves first)"), "{stderr}");
    assert!(
        stderr.contains("`cmg export --json` carries it"),
        "{stderr}"
    );
    let (code, _, stderr) = cmg(&["export", "-"], "0 -- 1 -- 2\n1 -> 0\n2 -> 0\n");
    assert!(stderr.contains("(one-way edges)"), "{stderr}");
    assert_eq!(code, 1, "{stderr}");
    let (code, stdout, _) = cmg(&["export", "-"], "0 -- 1 -- 2\n");
    assert_eq!((code, stdout.as_str()), (0, "[[1],[0,2],[1]]\n"));
}

/// `cmg export --json` carries every rule and one-way edge, and `cmg import` reads it back
/// as the same game: the same JSON again, and the same answer from `cmg solve`.
#[test]
fn export_json_and_import_round_trip_every_rule() {
    for text in [
        "0 -- 1 -- 2\n",
        "0 -- 3 -- 1 -- 2\nrule limit 2\n",
        "rule first cat\nrule start 3 1\n0 -- 1 -- 2 -- 3 -- 0\n",
        "rule holes 0 4\nrule cat-enters-holes\n0 -- 1 -- 2 -- 3 -- 4\n1 -- 4\nnode 5\n",
        "0 -- 1 -- 2 -- 3\n3 -> 0\n2 -> {0 4}\n4 -> 1\n",
        "rule limit 5\nrule first cat\nrule start 2 3\nrule holes 1\nrule cat-enters-holes\n0 -> 1 -> 2 -> 3 -> 0\n2 -- 0\n",
    ] {
        let (code, json, stderr) = cmg(&["export", "--json", "-"], text);
        assert_eq!(code, 0, "{text}{stderr}");
        let (code, imported, stderr) = cmg(&["import", "-"], &json);
        assert_eq!((code, stderr.as_str()), (0, ""), "{text}{json}");
        let (_, again, _) = cmg(&["export", "--json", "-"], &imported);
        assert_eq!(again, json, "{text}imported as\n{imported}");
        let solved = |text: &str| {
            let mut answer = solve_json(text);
            for field in ["complete", "syntax_errors"] {
                answer.as_object_mut().expect("an object").remove(field);
            }
            answer
        };
        assert_eq!(solved(&imported), solved(text), "{text}imported as\n{imported}");
    }
    // The rules are written in `cmg fmt`'s order, only where they differ from LeetCode 913's.
    let (_, imported, _) = cmg(
        &["import", "-"],
        r#"{"graph":[[1,2],[0],[0,3],[]],"rules":{"cat_enters_holes":true,"first":"mouse","holes":[0,3],"limit":6,"start":[1,2]}}"#,
    );
    assert_eq!(
        imported,
        "# imported from cmg's JSON\nrule limit 6\nrule holes 0 3\nrule cat-enters-holes\n0 -- {1 2}\n2 -> 3\n"
    );
    let (_, json, _) = cmg(&["export", "--json", "-"], "0 -- 1 -- 2\n");
    assert_eq!(
        json,
        "{\"graph\":[[1],[0,2],[1]],\"rules\":{\"cat_enters_holes\":false,\"first\":\"mouse\",\"holes\":[0],\"limit\":null,\"start\":[1,2]}}\n"
    );
}

/// cmg's JSON that does not state a game is refused with what is wrong, and nothing is
/// printed on standard output.
#[test]
fn import_refuses_json_that_states_no_game() {
    for (json, says) in [
        (r#"{"graph":[[1],[0]],"rule":{}}"#, "unknown field `rule`"),
        (
            r#"{"graph":[[1],[0]],"rules":{"first":"dog"}}"#,
            "unknown variant `dog`",
        ),
        (
            r#"{"graph":[[1],[0]],"rules":{"holes":[5]}}"#,
            "rules.holes names node 5, but the graph has 2 nodes",
        ),
        (
            r#"{"graph":[[1],[0]],"rules":{"start":[0,9]}}"#,
            "rules.start names node 9",
        ),
        (
            r#"{"graph":[[1],[0]],"rules":{"holes":[]}}"#,
            "rules.holes is empty",
        ),
        (
            r#"{"graph":[[1],[0]],"rules":{"limit":0}}"#,
            "rules.limit is 0",
        ),
        (r#"{"graph":[[3],[0]]}"#, "graph list 0 names node 3"),
        (r#"{"rules":{}}"#, "missing field `graph`"),
    ] {
        let (code, stdout, stderr) = cmg(&["import", "-"], json);
        assert_eq!((code, stdout.as_str()), (2, ""), "{json}: {stderr}");
        assert!(stderr.contains(says), "{json}: {stderr}");
    }
}
