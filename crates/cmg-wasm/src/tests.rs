//! The interface on the native build: summaries, each request, and the exports' buffers.

use serde_json::{json, Value};

use super::Document;

const CAT_WINS: &str = "node 0 \"hole\"\n0 -- 3 -- 1\n2 -- 3\nexpect cat\n";

fn open(text: &str) -> (Document, Value) {
    Document::open(text.to_owned())
}

#[test]
fn the_summary_has_the_outcome_moves_line_and_diagnostics() {
    let (_, summary) = open(CAT_WINS);
    assert_eq!(summary["outcome"], "cat");
    assert_eq!(summary["result"], 2);
    assert_eq!(summary["moves"], 2);
    assert_eq!(summary["line"], json!([[1, 2], [3, 2], [3, 3]]));
    assert_eq!(summary["diagnostics"], json!([]));

    let (_, summary) = open("1 -- 2\nexpect mouse\n1 -- 1\n");
    let codes: Vec<&str> = summary["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect();
    assert!(codes.contains(&"self-loop"), "{codes:?}");
    assert!(codes.contains(&"expect-mismatch"), "{codes:?}");
}

/// The playground's view of a correct `expect` in a file with a typo: a note, not a
/// mismatch, and no action that would change it to the outcome of the lines that parsed.
#[test]
fn a_file_that_does_not_parse_has_its_expect_unchecked() {
    let (mut document, summary) = open("1 -- 3 -- 2\n0 - 1\nexpect mouse\n");
    let codes: Vec<&str> = summary["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect();
    assert_eq!(codes, ["syntax", "expect-unchecked"]);
    let actions = document.request(
        r#"{"method":"codeActions","range":{"start":{"line":2,"character":8},"end":{"line":2,"character":8}}}"#,
    );
    assert_eq!(actions, json!([]));
}

#[test]
fn no_game_and_too_large_say_why() {
    let (_, summary) = open("3 -- 4\n");
    assert_eq!(summary["outcome"], Value::Null);
    assert!(summary["reason"].as_str().unwrap().contains("node 1"));

    // A path of 5001 nodes: above the editor's live-solve limit.
    let text: String = (1..=5000).map(|i| format!("{i} -- {}\n", i + 1)).collect();
    let (_, summary) = open(&text);
    assert_eq!(summary["outcome"], Value::Null);
    let codes = summary["diagnostics"].as_array().unwrap();
    assert!(codes.iter().any(|d| d["code"] == "too-large"), "{codes:?}");

    let huge = "#".repeat(cmg_core::analysis::editor_defaults::MAX_DOCUMENT_BYTES + 1);
    let (mut document, summary) = open(&huge);
    assert_eq!(summary["diagnostics"][0]["code"], "too-large");
    assert_eq!(document.request(r#"{"method":"format"}"#), Value::Null);
}

#[test]
fn positions_count_utf16_code_units() {
    // The label's "𝄞" is two UTF-16 units and four bytes: the diagnostic after it on
    // the same line starts at character 13, not 15 (its byte offset).
    let (_, summary) = open("node 5 \"𝄞\"; 1 -- 1\n1 -- 2\n");
    let self_loop = summary["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "self-loop")
        .unwrap()
        .clone();
    assert_eq!(
        self_loop["range"]["start"],
        json!({"line": 0, "character": 13})
    );
}

#[test]
fn hover_computes_the_what_if_unless_declined() {
    let (mut document, _) = open(CAT_WINS);
    let quick = document
        .request(r#"{"method":"hover","position":{"line":1,"character":2},"explain":false}"#);
    assert!(
        quick["markdown"].as_str().unwrap().contains("not computed"),
        "{quick}"
    );
    let hover = document.request(r#"{"method":"hover","position":{"line":1,"character":5}}"#);
    assert_eq!(hover["range"]["start"], json!({"line": 1, "character": 5}));
    assert!(
        hover["markdown"].as_str().unwrap().contains("mouse"),
        "{hover}"
    );
}

#[test]
fn inlay_hints_answer_with_their_kind() {
    let (mut document, _) = open(CAT_WINS);
    let hints = document.request(r#"{"method":"inlayHints"}"#);
    assert!(hints
        .as_array()
        .unwrap()
        .iter()
        .any(|h| h["kind"] == "outcome"));
}

#[test]
fn format_answers_the_formatted_text() {
    let (mut messy, _) = open("1--2\n2 --   3\n");
    let formatted = messy.request(r#"{"method":"format"}"#);
    assert_eq!(formatted["text"], "1 -- 2\n2 -- 3\n");
}

#[test]
fn code_actions_answer_the_fix_and_its_edits() {
    let (mut fixable, _) = open("1 -- 2\n1 -- 1\n");
    let actions = fixable.request(
        r#"{"method":"codeActions","range":{"start":{"line":1,"character":0},"end":{"line":1,"character":0}}}"#,
    );
    let fix = &actions[0];
    assert_eq!(fix["fixes"], "self-loop", "{actions}");
    assert_eq!(fix["kind"], "quickfix", "{actions}");
    assert_eq!(fix["edits"][0]["range"]["start"]["line"], 1);
    assert!(fix["edits"][0]["newText"].is_string(), "{actions}");
}

#[test]
fn scene_adds_the_strategies_unless_declined() {
    let (mut document, _) = open(CAT_WINS);
    let quick = document.request(r#"{"method":"scene","explain":false}"#);
    assert_eq!(quick["outcome"], "cat");
    assert!(quick["strategies"].as_array().unwrap().is_empty());
    let scene =
        document.request(r#"{"method":"scene","positions":{"3":[10.0,20.0],"x":[0.0,0.0]}}"#);
    assert_eq!(scene["nodes"].as_array().unwrap().len(), 4);
    assert!(!scene["strategies"].as_array().unwrap().is_empty());
}

/// The slice with the cat on node 3 and `turn` to move: where the player to move goes
/// from the position with the mouse on node 1.
fn best_move_from_node_1(turn: &str) -> Value {
    let (mut document, _) = open(CAT_WINS);
    let slice = document.request(&format!(r#"{{"method":"slice","cat":3,"turn":"{turn}"}}"#));
    assert_eq!(slice["cat"], 3, "{slice}");
    assert_eq!(slice["turn"], turn, "{slice}");
    let at = slice["ids"]
        .as_array()
        .unwrap()
        .iter()
        .position(|id| id == 1)
        .unwrap();
    slice["best"][at].clone()
}

#[test]
fn slice_for_the_mouse_moves_the_mouse() {
    // The mouse on 1 has one move: onto the cat on 3.
    assert_eq!(best_move_from_node_1("mouse"), 3);
}

#[test]
fn slice_for_the_cat_moves_the_cat() {
    // The cat on 3 catches the mouse on 1.
    assert_eq!(best_move_from_node_1("cat"), 1);
}

#[test]
fn slice_refuses_another_turn_and_an_unknown_node() {
    let (mut document, _) = open(CAT_WINS);
    let bad = document.request(r#"{"method":"slice","cat":3,"turn":"hole"}"#);
    assert!(
        bad["error"].as_str().unwrap().contains("bad request"),
        "{bad}"
    );
    let unknown = document.request(r#"{"method":"slice","cat":9,"turn":"cat"}"#);
    assert!(
        unknown["error"].as_str().unwrap().contains("no node 9"),
        "{unknown}"
    );
}

#[test]
fn semantic_tokens_are_four_numbers_each() {
    let (mut document, _) = open(CAT_WINS);
    // `node 0 "hole"`: keyword, hole, string; four numbers a token.
    let tokens = document.request(r#"{"method":"semanticTokens"}"#);
    assert_eq!(tokens["kinds"][0], "hole");
    assert_eq!(
        tokens["data"].as_array().unwrap()[..12],
        json!([0, 0, 4, 4, 0, 5, 1, 0, 0, 7, 6, 6])
            .as_array()
            .unwrap()[..]
    );
}

#[test]
fn highlights_are_the_mentions_of_the_node() {
    let (mut document, _) = open(CAT_WINS);
    // Node 3 in `0 -- 3 -- 1` and `2 -- 3`; nothing on the `--`.
    let highlights =
        document.request(r#"{"method":"highlights","position":{"line":2,"character":5}}"#);
    let starts: Vec<&Value> = highlights
        .as_array()
        .unwrap()
        .iter()
        .map(|h| &h["range"]["start"])
        .collect();
    assert_eq!(
        starts,
        [
            &json!({"line": 1, "character": 5}),
            &json!({"line": 2, "character": 5})
        ],
        "{highlights}"
    );
    assert_eq!(highlights[0]["kind"], "write", "{highlights}");
    let none = document.request(r#"{"method":"highlights","position":{"line":2,"character":2}}"#);
    assert_eq!(none, json!([]));
}

#[test]
fn an_unknown_method_is_a_bad_request() {
    let (mut document, _) = open(CAT_WINS);
    let bad = document.request(r#"{"method":"nothing"}"#);
    assert!(bad["error"].as_str().unwrap().contains("bad request"));
}

/// What a page does: text in through `cmg_alloc`, JSON back from `cmg_output`.
#[test]
fn the_exports_pass_text_in_and_json_out() {
    use super::abi::{cmg_alloc, cmg_open, cmg_output, cmg_request};
    fn call(f: unsafe extern "C" fn(*mut u8, usize) -> usize, input: &str) -> Value {
        let pointer = cmg_alloc(input.len());
        // SAFETY: `pointer` has room for `input.len()` bytes, which are then handed over.
        let len = unsafe {
            std::ptr::copy_nonoverlapping(input.as_ptr(), pointer, input.len());
            f(pointer, input.len())
        };
        // SAFETY: the output holds `len` bytes until the next call.
        let bytes = unsafe { std::slice::from_raw_parts(cmg_output(), len) };
        serde_json::from_slice(bytes).unwrap()
    }
    assert_eq!(call(cmg_open, CAT_WINS)["outcome"], "cat");
    assert_eq!(call(cmg_request, r#"{"method":"summary"}"#)["moves"], 2);
    assert_eq!(call(cmg_open, "")["outcome"], Value::Null);
}

/// The summary's counts: nodes, edges, and whether the text parsed whole.
#[test]
fn the_summary_counts_nodes_edges_and_syntax_errors() {
    let (_, summary) = open(CAT_WINS);
    assert_eq!(
        (&summary["nodes"], &summary["edges"]),
        (&json!(4), &json!(3))
    );
    assert_eq!(
        (&summary["complete"], &summary["syntaxErrors"]),
        (&json!(true), &json!(0))
    );
    let (_, summary) = open("0 -- 1 -- 2\n1 -- -- 2\n");
    assert_eq!(
        (&summary["complete"], &summary["syntaxErrors"]),
        (&json!(false), &json!(1))
    );
}

/// A text of exactly the largest size is analysed; one byte more is refused (above).
#[test]
fn a_text_of_the_largest_size_is_analysed() {
    let edges = "0 -- 1 -- 2\n";
    let limit = cmg_core::analysis::editor_defaults::MAX_DOCUMENT_BYTES;
    let text = format!("{edges}#{}", "x".repeat(limit - edges.len() - 1));
    assert_eq!(text.len(), limit);
    let (_, summary) = open(&text);
    assert_eq!(summary["outcome"], "mouse", "{}", summary["diagnostics"]);
}

/// The what-if, computed for the hover that asked for it, is in the answers after it,
/// those that decline to compute it included.
#[test]
fn the_what_if_once_computed_is_kept() {
    let (mut document, _) = open(CAT_WINS);
    let on_edge = |explain: bool| {
        format!(r#"{{"method":"hover","position":{{"line":1,"character":2}},"explain":{explain}}}"#)
    };
    let markdown = |answer: &Value| answer["markdown"].as_str().unwrap().to_owned();
    let computed = markdown(&document.request(&on_edge(true)));
    assert!(computed.contains("without"), "{computed}");
    assert!(!computed.contains("not computed"), "{computed}");
    assert_eq!(markdown(&document.request(&on_edge(false))), computed);
}
