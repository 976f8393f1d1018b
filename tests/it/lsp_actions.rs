//! Code actions through the protocol: listed without edits for a client that resolves
//! them, resolved and checked on the version they were listed for, and eager for a
//! client that cannot resolve.

use cmg_lsp::test_client::{codes, in_memory, InMemoryClient};
use serde_json::{json, Value};

const URI: &str = "file:///actions/graph.cmg";
/// Line 1 is a self-loop on a line of its own; its fix deletes the line.
const TEXT: &str = "1 -- 2 -- 0\n3 -- 3\n2 -- 3\nexpect cat\n";

fn resolving() -> Value {
    json!({"textDocument": {"codeAction": {
        "dataSupport": true,
        "resolveSupport": {"properties": ["edit"]},
        "codeActionLiteralSupport": {"codeActionKind": {"valueSet": ["quickfix", "refactor"]}}
    }}})
}

async fn ready(capabilities: Value) -> InMemoryClient {
    let mut client = in_memory();
    let init = client.initialize(capabilities, json!(null)).await;
    assert_eq!(
        init["capabilities"]["codeActionProvider"]["resolveProvider"],
        true
    );
    client.open(URI, 1, TEXT).await;
    client
        .diagnostics_where(URI, |p| codes(p).contains(&"self-loop".to_owned()))
        .await;
    client
}

async fn self_loop_fix(client: &mut InMemoryClient) -> Value {
    let actions = client
        .call("textDocument/codeAction", json!({"textDocument": {"uri": URI}, "range": {"start": {"line": 1, "character": 2}, "end": {"line": 1, "character": 2}}, "context": {"diagnostics": []}}))
        .await;
    actions
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["diagnostics"][0]["code"] == "self-loop")
        .unwrap_or_else(|| panic!("no self-loop fix in {actions}"))
        .clone()
}

/// The edit that deletes line 1 (`3 -- 3` and its line break).
fn deletes_line_one() -> Value {
    json!({"changes": {URI: [{"range": {"start": {"line": 1, "character": 0}, "end": {"line": 2, "character": 0}}, "newText": ""}]}})
}

#[tokio::test]
async fn a_resolving_client_gets_actions_without_edits_and_resolves_the_checked_one() {
    let mut client = ready(resolving()).await;
    let fix = self_loop_fix(&mut client).await;
    assert!(fix.get("edit").is_none(), "{fix}");
    assert_eq!(fix["data"]["version"], 1, "{fix}");
    assert_eq!(fix["title"], "Remove the self-loop 3 -- 3");

    let resolved = client.call("codeAction/resolve", fix.clone()).await;
    assert_eq!(resolved["edit"], deletes_line_one(), "{resolved}");
    assert_eq!(resolved["title"], fix["title"]);
    assert_eq!(resolved["diagnostics"], fix["diagnostics"]);
}

#[tokio::test]
async fn an_action_listed_for_an_older_version_is_refused() {
    let mut client = ready(resolving()).await;
    let fix = self_loop_fix(&mut client).await;
    // Version 2 only edits the first line's end, so the self-loop keeps its place: an
    // edit computed on it would look plausible, and must still not be given out.
    client
        .change(URI, 2, json!([{"range": {"start": {"line": 0, "character": 11}, "end": {"line": 0, "character": 11}}, "text": " # a"}]))
        .await;
    client.diagnostics_where(URI, |p| p["version"] == 2).await;
    let response = client.request("codeAction/resolve", fix).await;
    assert_eq!(response["error"]["code"], -32801, "{response}");
    assert!(response.get("result").is_none(), "{response}");

    // Listed again on version 2, it resolves.
    let fix = self_loop_fix(&mut client).await;
    assert_eq!(fix["data"]["version"], 2, "{fix}");
    let resolved = client.call("codeAction/resolve", fix).await;
    assert_eq!(resolved["edit"], deletes_line_one(), "{resolved}");
}

#[tokio::test]
async fn an_action_that_no_longer_checks_out_is_refused() {
    let mut client = ready(resolving()).await;
    let mut fix = self_loop_fix(&mut client).await;
    // Pointed at a range where the text has no such diagnostic.
    fix["data"]["start"] = json!(0);
    let response = client.request("codeAction/resolve", fix.clone()).await;
    assert_eq!(response["error"]["code"], -32803, "{response}");
    fix["data"] = json!({"nonsense": true});
    let response = client.request("codeAction/resolve", fix).await;
    assert_eq!(response["error"]["code"], -32602, "{response}");
}

#[tokio::test]
async fn a_client_without_resolve_gets_checked_edits_at_once() {
    // No capabilities at all, and resolve without `data` support (which it needs).
    let without_data =
        json!({"textDocument": {"codeAction": {"resolveSupport": {"properties": ["edit"]}}}});
    for capabilities in [json!({}), without_data] {
        let mut client = ready(capabilities).await;
        let fix = self_loop_fix(&mut client).await;
        assert_eq!(fix["edit"], deletes_line_one(), "{fix}");
        assert!(fix.get("data").is_none(), "{fix}");
    }
}
