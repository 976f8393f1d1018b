//! Every editor feature through the protocol, on one document, with UTF-16 positions
//! on lines holding `é` and an emoji; and random edit sequences against a local copy.

use cmg_lsp::test_client::{
    char_boundary, codes, find_item, in_memory, utf16_position, InMemoryClient,
};
use proptest::prelude::*;
use serde_json::{json, Value};

const URI: &str = "file:///features/graph.cmg";

/// Line 1 has `é😀` in a comment before node 3, so UTF-16 columns differ from bytes.
const TEXT: &str = "0 -- {2 5}\n# é😀\n4 -- 3 -- 1 # é😀 3\n2 -- {4 5}\n3 -- 5\nnode 0 \"hole\"\n2 -- 2\nexpect cat\n";

/// A client with `TEXT` open and solved.
async fn ready() -> InMemoryClient {
    ready_with(json!(null)).await
}

/// A client started with `settings`, with `TEXT` open and solved.
async fn ready_with(settings: Value) -> InMemoryClient {
    let mut client = in_memory();
    client.initialize(json!({}), settings).await;
    client.open(URI, 1, TEXT).await;
    client
        .diagnostics_where(URI, |p| codes(p).contains(&"expect-mismatch".to_owned()))
        .await;
    client
}

/// The `key` of each item of the list `items`, as strings.
fn strings(items: &Value, key: &str) -> Vec<String> {
    items
        .as_array()
        .unwrap()
        .iter()
        .map(|item| item[key].as_str().unwrap().to_owned())
        .collect()
}

/// The labels of the inlay hints from line 0 to line `end`.
async fn hint_labels(client: &mut InMemoryClient, end: u32) -> Vec<String> {
    let hints = client
        .call("textDocument/inlayHint", json!({"textDocument": {"uri": URI}, "range": {"start": {"line": 0, "character": 0}, "end": {"line": end, "character": 0}}}))
        .await;
    strings(&hints, "label")
}

fn at(line: u32, character: u32) -> Value {
    json!({"textDocument": {"uri": URI}, "position": {"line": line, "character": character}})
}

#[tokio::test]
async fn hover_inlay_hints_and_code_lens() {
    let mut client = ready().await;
    let hover = client.call("textDocument/hover", at(2, 5)).await;
    let markdown = hover["contents"]["value"].as_str().unwrap();
    assert!(markdown.contains("**node 3**"), "{markdown}");
    assert_eq!(
        hover["range"],
        json!({"start": {"line": 2, "character": 5}, "end": {"line": 2, "character": 6}})
    );

    let labels = hint_labels(&mut client, 99).await;
    assert!(labels.iter().any(|l| l == "⟹ outcome: draw"), "{labels:?}");
    assert!(
        labels.iter().any(|l| l.starts_with(": ")),
        "per-node hints: {labels:?}"
    );

    let lenses = client.call_on("textDocument/codeLens", URI).await;
    let lens = &lenses[0];
    assert_eq!(lens["command"]["command"], "cmg.showLine");
    assert_eq!(lens["command"]["arguments"][0]["line"][0], json!([1, 2]));
}

#[tokio::test]
async fn per_node_hints_follow_the_setting() {
    let mut client = ready_with(json!({"inlayHints": {"nodes": false}})).await;
    let labels = hint_labels(&mut client, 99).await;
    // The outcome's hint, and no node's (the critical edges keep theirs).
    let kept: Vec<&String> = labels.iter().filter(|l| *l != "critical").collect();
    assert_eq!(kept.len(), 1, "{labels:?}");
}

#[tokio::test]
async fn navigation_and_rename() {
    let mut client = ready().await;
    // Node 3 on line 2: its first mention is itself; references span the file.
    let definition = client.call("textDocument/definition", at(4, 0)).await;
    assert_eq!(
        definition["range"]["start"],
        json!({"line": 2, "character": 5})
    );
    let references = client
        .call("textDocument/references", json!({"textDocument": {"uri": URI}, "position": {"line": 2, "character": 5}, "context": {"includeDeclaration": true}}))
        .await;
    assert_eq!(references.as_array().unwrap().len(), 2);
    let highlights = client
        .call("textDocument/documentHighlight", at(2, 5))
        .await;
    assert_eq!(highlights.as_array().unwrap().len(), 2);

    let prepared = client.call("textDocument/prepareRename", at(2, 5)).await;
    assert_eq!(prepared["start"], json!({"line": 2, "character": 5}));
    let edit = client
        .call("textDocument/rename", json!({"textDocument": {"uri": URI}, "position": {"line": 2, "character": 5}, "newName": "9"}))
        .await;
    assert_eq!(edit["changes"][URI].as_array().unwrap().len(), 2);
    let refused = client
        .request("textDocument/rename", json!({"textDocument": {"uri": URI}, "position": {"line": 2, "character": 5}, "newName": "5"}))
        .await;
    assert!(
        refused["error"]["message"].as_str().unwrap().contains("5"),
        "{refused}"
    );
}

#[tokio::test]
async fn actions_symbols_tokens_folding_completion() {
    let mut client = ready().await;
    let actions = client
        .call("textDocument/codeAction", json!({"textDocument": {"uri": URI}, "range": {"start": {"line": 6, "character": 0}, "end": {"line": 6, "character": 0}}, "context": {"diagnostics": []}}))
        .await;
    let titles = strings(&actions, "title");
    let fix = find_item(&actions, "quick fix for the self-loop", |a| {
        a["kind"] == "quickfix"
    });
    assert_eq!(fix["diagnostics"][0]["code"], "self-loop", "{titles:?}");

    let mismatch = client
        .call("textDocument/codeAction", json!({"textDocument": {"uri": URI}, "range": {"start": {"line": 7, "character": 8}, "end": {"line": 7, "character": 8}}, "context": {"diagnostics": []}}))
        .await;
    let set_expect = find_item(&mismatch, "fix for expect", |a| {
        a["diagnostics"][0]["code"] == "expect-mismatch"
    });
    assert_eq!(set_expect["edit"]["changes"][URI][0]["newText"], "draw");

    let symbols = client.call_on("textDocument/documentSymbol", URI).await;
    assert_eq!(symbols.as_array().unwrap().len(), 6);
    assert_eq!(symbols[0]["name"], "node 0");

    let tokens = client
        .call_on("textDocument/semanticTokens/full", URI)
        .await;
    let data = tokens["data"].as_array().unwrap();
    assert_eq!(data.len() % 5, 0);
    // The first token is the hole, node 0: enumMember with the `hole` modifier.
    assert_eq!(
        &data[..5],
        &[json!(0), json!(0), json!(1), json!(1), json!(1)]
    );

    let folds = client.call_on("textDocument/foldingRange", URI).await;
    assert!(folds.as_array().unwrap().is_empty());

    let completion = client.call("textDocument/completion", at(3, 6)).await;
    // A list, so that a cut one can say so; this one is whole.
    assert_eq!(completion["isIncomplete"], false);
    let labels = strings(&completion["items"], "label");
    assert!(
        labels.iter().any(|l| l == "0") && labels.iter().any(|l| l == "5"),
        "{labels:?}"
    );
}

/// The `line` argument of each code lens.
fn lens_lines(lenses: &Value) -> Vec<Value> {
    lenses
        .as_array()
        .unwrap()
        .iter()
        .filter(|lens| lens["command"]["command"] == "cmg.showLine")
        .map(|lens| lens["command"]["arguments"][0]["line"].clone())
        .collect()
}

#[tokio::test]
async fn no_outcome_is_shown_for_text_that_changed() {
    let mut client = ready().await;
    let lens_request = json!({"textDocument": {"uri": URI}});
    let before = lens_lines(
        &client
            .call("textDocument/codeLens", lens_request.clone())
            .await,
    );
    assert_eq!(before.len(), 1);
    // Another graph on the same six nodes, with another outcome: the old solution
    // still fits its node count, and must not be shown for it. This client cannot be
    // asked to refresh, so hints and lenses wait for the new solve.
    let text = "0 -- 1 -- 2 -- 3 -- 4 -- 5\n";
    client.change(URI, 2, json!([{"text": text}])).await;
    let labels = hint_labels(&mut client, 9).await;
    assert!(
        labels.iter().any(|l| l.contains("mouse wins in 1")),
        "{labels:?}"
    );
    assert!(
        !labels.iter().any(|l| l.contains("draw")),
        "the old outcome was shown: {labels:?}"
    );
    let after = lens_lines(&client.call("textDocument/codeLens", lens_request).await);
    let analysis = cmg_core::analysis::Analysis::new(text);
    let solution = cmg_solve::solve(&analysis.game().unwrap());
    let expected: Vec<Value> = cmg_ide::code_lens::code_lenses(&analysis, Some(&solution))
        .iter()
        .map(|lens| json!(lens.line))
        .collect();
    assert_ne!(after, before, "the old line was shown");
    assert_eq!(after, expected);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(if crate::common::slow_tests() { 96 } else { 24 }))]

    /// Random incremental edits, several per notification: after each notification the
    /// server's diagnostics are those of the text the client holds.
    #[test]
    fn random_edit_sequences_keep_server_and_client_in_step(
        steps in proptest::collection::vec(
            proptest::collection::vec((0usize..400, 0usize..6, prop_oneof![
                Just(""), Just("0"), Just("1 -- 2"), Just("\n"), Just(" -- "), Just("é"), Just("😀"),
                Just("{"), Just("}"), Just("# c"), Just("[[1],[0]]"), Just("\r\n"), Just("\r"), Just("3"),
            ]), 1..4),
            1..8,
        )
    ) {
        let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
        runtime.block_on(async {
            let mut client = in_memory();
            client.initialize(json!({}), json!(null)).await;
            let mut text = String::from("0 -- 1 -- 2\n# é😀\n");
            client.open(URI, 0, &text).await;
            for (version, changes) in steps.iter().enumerate() {
                let mut events = Vec::new();
                for &(at, len, insert) in changes {
                    let start = char_boundary(&text, at);
                    let end = char_boundary(&text, start + len);
                    let (start_line, start_char) = utf16_position(&text, start);
                    let (end_line, end_char) = utf16_position(&text, end);
                    events.push(json!({"range": {"start": {"line": start_line, "character": start_char}, "end": {"line": end_line, "character": end_char}}, "text": insert}));
                    text.replace_range(start..end, insert);
                }
                let version = version as i64 + 1;
                client.change(URI, version as i32, json!(events)).await;
                let params = client.diagnostics_where(URI, |p| p["version"] == version).await;
                // The diagnostics builder's set, knock-on errors of syntax errors left out.
                let expected: Vec<String> = cmg_core::analysis::Analysis::new(text.as_str())
                    .diagnostics(None)
                    .iter()
                    .map(|d| d.code.as_str().to_owned())
                    .collect();
                let mut actual = codes(&params);
                actual.retain(|code| code != "expect-mismatch");
                let mut expected_sorted = expected.clone();
                expected_sorted.sort();
                actual.sort();
                assert_eq!(actual, expected_sorted, "text {text:?}");
            }
            let formatted = client
                .call("textDocument/formatting", json!({"textDocument": {"uri": URI}, "options": {"tabSize": 2, "insertSpaces": true}}))
                .await;
            let expected = cmg_ide::format(&text, &cmg_syntax::parse(&text));
            prop_assert_eq!(formatted.as_array().map_or(0, |edits| edits.len()) == 0, expected == text);
            Ok(())
        })?;
    }
}

/// Hover, a quick fix and a rename on a line where a label with `é😀` comes before
/// the ids: byte columns (UTF-8 mode) and UTF-16 columns differ there.
#[tokio::test]
async fn positions_after_non_ascii_in_both_encodings() {
    const LINE: &str = "0 -- 1 -- 2\nnode 9 \"é😀\"; 9 -- 3; 3 -- 3\n3 -- 1\n";
    // Columns of the second `9` and of the self-loop on line 1, per encoding.
    for (encoding, nine, self_loop) in [("utf-8", 17, 25), ("utf-16", 14, 22)] {
        let mut client = in_memory();
        let init = client
            .initialize(
                json!({"general": {"positionEncodings": [encoding]}}),
                json!(null),
            )
            .await;
        assert_eq!(init["capabilities"]["positionEncoding"], encoding);
        client.open(URI, 1, LINE).await;
        let params = client.diagnostics_where(URI, version_is_one).await;
        let diagnostic = params["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .find(|d| d["code"] == "self-loop")
            .unwrap();
        assert_eq!(
            diagnostic["range"]["start"],
            json!({"line": 1, "character": self_loop}),
            "{encoding}"
        );

        let hover = client.call("textDocument/hover", at(1, nine)).await;
        assert!(
            hover["contents"]["value"]
                .as_str()
                .unwrap()
                .contains("**node 9**"),
            "{encoding}: {hover}"
        );
        assert_eq!(hover["range"]["start"]["character"], nine);

        let actions = client
            .call("textDocument/codeAction", json!({"textDocument": {"uri": URI}, "range": {"start": {"line": 1, "character": self_loop}, "end": {"line": 1, "character": self_loop}}, "context": {"diagnostics": []}}))
            .await;
        let fix = find_item(&actions, "self-loop fix", |a| a["kind"] == "quickfix");
        for edit in fix["edit"]["changes"][URI].as_array().unwrap() {
            assert_eq!(edit["range"]["start"]["line"], 1, "{encoding}: {edit}");
            assert!(
                edit["range"]["start"]["character"].as_i64().unwrap() >= nine as i64,
                "{encoding}: {edit}"
            );
        }

        let renamed = client
            .call("textDocument/rename", json!({"textDocument": {"uri": URI}, "position": {"line": 1, "character": nine}, "newName": "8"}))
            .await;
        let mut starts: Vec<i64> = renamed["changes"][URI]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["range"]["start"]["character"].as_i64().unwrap())
            .collect();
        starts.sort();
        assert_eq!(starts, [5, nine as i64], "{encoding}");
    }
}

fn version_is_one(params: &Value) -> bool {
    params["version"] == 1
}
