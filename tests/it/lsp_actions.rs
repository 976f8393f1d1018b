//! Code actions through the protocol: listed without edits for a client that resolves
//! them, resolved and checked on the version they were listed for, and eager for a
//! client that cannot resolve.

use cmg_lsp::test_client::{codes, find_item, in_memory, InMemoryClient};
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
    find_item(&actions, "self-loop fix", |a| {
        a["diagnostics"][0]["code"] == "self-loop"
    })
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

const SHORT_URI: &str = "file:///actions/short.cmg";
/// Seven nodes whose game is short: the mouse steps next to the hole at once.
const SHORT: &str = "0 -- 3 -- 1\n3 -- 4 -- 2\n4 -- 5 -- 6 -- 2\n1 -- 5\n";

/// A client that shows server-started progress, with `text` open and published; the
/// command of its "Find a longer game" action.
async fn longer_game_command(text: &str) -> (InMemoryClient, Value) {
    let mut client = in_memory();
    client
        .initialize(json!({"window": {"workDoneProgress": true}}), json!(null))
        .await;
    client.open(SHORT_URI, 1, text).await;
    client
        .diagnostics_where(SHORT_URI, |p| p["version"] == 1)
        .await;
    let actions = client
        .call("textDocument/codeAction", json!({"textDocument": {"uri": SHORT_URI}, "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "context": {"diagnostics": []}}))
        .await;
    let action = find_item(&actions, "longer-game action", |a| {
        a["title"] == "Find a longer game from this graph"
    })
    .clone();
    assert_eq!(action["command"]["command"], "cmg.findLongerGame");
    // A client that resolves every action it runs gets this one back as it is.
    let resolved = client.call("codeAction/resolve", action.clone()).await;
    assert_eq!(resolved, action);
    (client, action["command"].clone())
}

/// The moves of the game a `.cmg` text declares, by the solver.
fn moves_of(text: &str) -> u32 {
    let analysis = cmg_core::analysis::Analysis::new(text);
    let game = analysis.game().expect("a game");
    let solution = cmg_solve::solve(&game);
    let start = cmg_core::analysis::start_position(&analysis.model.graph).unwrap();
    solution.moves_to_end(start).expect("a decided game")
}

/// The action runs the generator from the document's graph with progress, and offers
/// the longer game it finds as one edit of the whole document, for the version it
/// searched from; the new text checks clean and its game is longer.
#[tokio::test]
async fn find_a_longer_game_offers_one_edit_of_the_whole_document() {
    let (mut client, command) = longer_game_command(SHORT).await;
    let (moves, edit) = longer_game_edit(&mut client, &command, SHORT).await;
    assert_eq!(edit["textDocument"]["version"], 1, "{edit}");
    assert_eq!(
        edit["edits"][0]["range"]["start"],
        json!({"line": 0, "character": 0})
    );
    assert_eq!(
        edit["edits"][0]["range"]["end"],
        json!({"line": 4, "character": 0})
    );
    let text = edit["edits"][0]["newText"].as_str().unwrap();
    assert_eq!(moves_of(text), moves, "{text}");
    let diagnostics = cmg_core::analysis::Analysis::new(text);
    let game = diagnostics.game().unwrap();
    let solution = cmg_solve::solve(&game);
    assert!(
        !cmg_core::model::has_errors(&diagnostics.diagnostics(Some(&solution))),
        "{text}"
    );
    // Progress: created, begun with a cancel button, ended.
    client
        .notification_where("$/progress", |p| p["value"]["kind"] == "end")
        .await;
    assert!(client
        .server_requests
        .iter()
        .any(|r| r["method"] == "window/workDoneProgress/create"));
    let kinds: Vec<String> = client
        .notifications
        .iter()
        .filter(|n| n["method"] == "$/progress")
        .map(|n| {
            n["params"]["value"]["kind"]
                .as_str()
                .unwrap_or("")
                .to_owned()
        })
        .collect();
    assert_eq!(
        kinds.first().map(String::as_str),
        Some("begin"),
        "{kinds:?}"
    );
    assert_eq!(kinds.last().map(String::as_str), Some("end"), "{kinds:?}");
}

/// Runs the action's `command` on `text`'s document: the longer game's moves (longer
/// than `text`'s, which the answer names) and the edit offered.
async fn longer_game_edit(
    client: &mut InMemoryClient,
    command: &Value,
    text: &str,
) -> (u32, Value) {
    let before = moves_of(text);
    let answer = client
        .call(
            "workspace/executeCommand",
            json!({"command": command["command"], "arguments": command["arguments"]}),
        )
        .await;
    assert_eq!(answer["before"], before, "{answer}");
    let moves = answer["moves"].as_u64().expect("a longer game") as u32;
    assert!(moves > before, "{answer}");
    let edit = client
        .server_requests
        .iter()
        .find(|r| r["method"] == "workspace/applyEdit")
        .expect("the edit was offered")["params"]["edit"]["documentChanges"][0]
        .clone();
    (moves, edit)
}

/// In a file with rules and a one-way edge the search stays in the file's game: the text
/// offered states the same rules, checks clean, and its game there is the longer one.
#[tokio::test]
async fn find_a_longer_game_keeps_the_files_game() {
    const VARIANT: &str =
        "rule first cat\nrule holes 0 6\n0 -- 3 -- 1\n3 -- 4 -- 2\n4 -- 5 -- 6\n1 -- 5\n2 -> 1\n";
    let (mut client, command) = longer_game_command(VARIANT).await;
    let (moves, edit) = longer_game_edit(&mut client, &command, VARIANT).await;
    let text = edit["edits"][0]["newText"].as_str().unwrap();
    assert!(
        text.contains("\nrule first cat\nrule holes 0 6\n"),
        "{text}"
    );
    assert_eq!(moves_of(text), moves, "{text}");
    let analysis = cmg_core::analysis::Analysis::new(text);
    let solution = cmg_solve::solve(&analysis.game().unwrap());
    assert!(
        !cmg_core::model::has_errors(&analysis.diagnostics(Some(&solution))),
        "{text}"
    );
}

/// The progress's cancel stops the search: no edit is offered, the answer is null.
/// The cancel is sent before the client answers the progress's creation, which the
/// search waits for, so it cannot finish first.
#[tokio::test]
async fn a_cancelled_search_offers_nothing() {
    let (mut client, command) = longer_game_command(SHORT).await;
    let id = client
        .send_request(
            "workspace/executeCommand",
            json!({"command": command["command"], "arguments": command["arguments"]}),
        )
        .await;
    let create = loop {
        let message = client
            .receive()
            .await
            .expect("the server closed the stream");
        if message["method"] == "window/workDoneProgress/create" {
            break message;
        }
    };
    client
        .notify(
            "window/workDoneProgress/cancel",
            json!({"token": create["params"]["token"]}),
        )
        .await;
    client
        .send(json!({"jsonrpc": "2.0", "id": create["id"], "result": null}))
        .await;
    let answer = client.response_to(id).await;
    assert_eq!(answer["result"], Value::Null, "{answer}");
    assert!(!client
        .server_requests
        .iter()
        .any(|r| r["method"] == "workspace/applyEdit"));
}
