//! Selection ranges, range formatting and formatting as the user types, and the lists
//! cut at their cap that say so, through the real `cmg lsp`.

use serde_json::{json, Value};

use crate::common::lsp_process::{start, ProcessClient as Client};

const URI: &str = "file:///requests/graph.cmg";

async fn opened(text: &str) -> (tokio::process::Child, Client) {
    let (child, mut client) = start();
    let result = client.initialize(json!({}), json!(null)).await;
    let capabilities = &result["capabilities"];
    assert_eq!(capabilities["selectionRangeProvider"], true);
    assert_eq!(capabilities["documentRangeFormattingProvider"], true);
    assert_eq!(
        capabilities["documentOnTypeFormattingProvider"],
        json!({"firstTriggerCharacter": "]", "moreTriggerCharacter": ["\n"]})
    );
    client.open(URI, 1, text).await;
    (child, client)
}

fn range(start: (u32, u32), end: (u32, u32)) -> Value {
    json!({"start": {"line": start.0, "character": start.1}, "end": {"line": end.0, "character": end.1}})
}

#[tokio::test]
async fn selection_ranges_grow_from_the_member_to_the_file() {
    let (_child, mut client) = opened("0 -- 1\n1 -- {2 5} -- 3\n").await;
    let answer = client
        .call(
            "textDocument/selectionRange",
            json!({"textDocument": {"uri": URI}, "positions": [{"line": 1, "character": 8}]}),
        )
        .await;
    let mut chain = Vec::new();
    let mut at = &answer[0];
    while !at.is_null() {
        chain.push(at["range"].clone());
        at = &at["parent"];
    }
    assert_eq!(
        chain,
        [
            range((1, 8), (1, 9)),
            range((1, 5), (1, 10)),
            range((1, 0), (1, 10)),
            range((1, 0), (1, 15)),
            range((0, 0), (2, 0)),
        ]
    );
}

#[tokio::test]
async fn range_formatting_touches_only_the_statements_in_the_range() {
    let (_child, mut client) = opened("0--1\n1--{2,5}\n3--4\n").await;
    let edits = client
        .call(
            "textDocument/rangeFormatting",
            json!({"textDocument": {"uri": URI}, "range": range((1, 2), (1, 3)),
                   "options": {"tabSize": 2, "insertSpaces": true}}),
        )
        .await;
    assert_eq!(
        edits,
        json!([{"range": range((1, 0), (1, 8)), "newText": "1 -- {2 5}"}])
    );
}

#[tokio::test]
async fn typing_a_closing_bracket_or_a_line_break_formats_the_statement() {
    let (_child, mut client) = opened("[[1,2],[0]]\n0--1\n\n").await;
    let typed = |line, character, ch: &str| {
        json!({"textDocument": {"uri": URI}, "position": {"line": line, "character": character},
               "ch": ch, "options": {"tabSize": 2, "insertSpaces": true}})
    };
    let bracket = client
        .call("textDocument/onTypeFormatting", typed(0, 11, "]"))
        .await;
    assert_eq!(
        bracket,
        json!([{"range": range((0, 0), (0, 11)), "newText": "[[1, 2], [0]]"}])
    );
    let newline = client
        .call("textDocument/onTypeFormatting", typed(2, 0, "\n"))
        .await;
    assert_eq!(
        newline,
        json!([{"range": range((1, 0), (1, 4)), "newText": "0 -- 1"}])
    );
}

#[tokio::test]
async fn cut_references_say_so_in_a_message_and_cut_highlights_in_the_log() {
    // Node 1 is written out 10 001 times.
    let text = "1 -- 2\n".repeat(10_001);
    let (_child, mut client) = opened(&text).await;
    let at = json!({"textDocument": {"uri": URI}, "position": {"line": 0, "character": 0}});
    let mut with_context = at.clone();
    with_context["context"] = json!({"includeDeclaration": true});
    let references = client.call("textDocument/references", with_context).await;
    assert_eq!(references.as_array().unwrap().len(), 10_000);
    client.call_at("textDocument/hover", URI, 0, 0).await;
    let shown: Vec<&Value> = client
        .notifications
        .iter()
        .filter(|n| n["method"] == "window/showMessage")
        .collect();
    assert_eq!(shown.len(), 1, "{shown:?}");
    let message = shown[0]["params"]["message"].as_str().unwrap();
    assert!(message.contains("10001 references"), "{message}");
    assert!(message.contains("10000 nearest"), "{message}");

    let highlights = client.call("textDocument/documentHighlight", at).await;
    assert_eq!(highlights.as_array().unwrap().len(), 10_000);
    // Notifications and responses go out on separate paths: one round trip more
    // has everything sent before it read.
    client.call("shutdown", json!(null)).await;
    let logged = client
        .notifications
        .iter()
        .filter(|n| {
            n["method"] == "window/logMessage"
                && n["params"]["message"]
                    .as_str()
                    .is_some_and(|m| m.contains("10001 mentions"))
        })
        .count();
    assert_eq!(logged, 1);
    // No second window for the highlights.
    let windows = client
        .notifications
        .iter()
        .filter(|n| n["method"] == "window/showMessage")
        .count();
    assert_eq!(windows, 1);
}

#[tokio::test]
async fn lists_under_the_cap_say_nothing() {
    let (_child, mut client) = opened("0 -- 1\n1 -- 2\n").await;
    let references = client
        .call(
            "textDocument/references",
            json!({"textDocument": {"uri": URI}, "position": {"line": 0, "character": 5},
                   "context": {"includeDeclaration": true}}),
        )
        .await;
    assert_eq!(references.as_array().unwrap().len(), 2);
    client.call("shutdown", json!(null)).await;
    assert!(client
        .notifications
        .iter()
        .all(|n| n["method"] != "window/showMessage"));
}
