//! The life of the real `cmg lsp` process: it ends soon after its input closes, after
//! `exit`, or after the client's process dies, even while a request it sent to the
//! client is still unanswered.

use crate::common::lsp_process;

use std::time::Duration;

use serde_json::{json, Value};
use tokio::process::Child;

/// A bound for "the process ended", far above the second the server aims for, so that
/// a loaded machine does not fail the test; a server that does not exit at all does.
const ENDS_WITHIN: Duration = Duration::from_secs(10);

use lsp_process::{start, ProcessClient as Client};

/// Initializes as a client that offers `workspace/configuration`, and reads until the
/// server asks for it; the request is left unanswered.
async fn initialized_with_a_pending_request(client: &mut Client, process_id: Value) {
    client
        .send(
            json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "processId": process_id, "rootUri": null,
            "capabilities": {"workspace": {"configuration": true}}}}),
        )
        .await;
    let response = client.receive().await.expect("an initialize response");
    assert_eq!(response["id"], 1, "{response}");
    client
        .send(json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}))
        .await;
    loop {
        let message = client
            .receive()
            .await
            .expect("the server asks for settings");
        if message["method"] == "workspace/configuration" {
            return;
        }
    }
}

async fn ends(child: &mut Child, what: &str) {
    let status = tokio::time::timeout(ENDS_WITHIN, child.wait())
        .await
        .unwrap_or_else(|_| panic!("the server still runs after {what}"))
        .unwrap();
    assert!(status.code().is_some(), "{status}");
}

#[tokio::test]
async fn stdin_closing_ends_the_server_while_a_request_to_the_client_is_pending() {
    let (mut child, mut client) = start();
    initialized_with_a_pending_request(&mut client, Value::Null).await;
    drop(client);
    ends(&mut child, "stdin closed").await;
}

#[tokio::test]
async fn exit_ends_the_server_while_a_request_to_the_client_is_pending() {
    let (mut child, mut client) = start();
    initialized_with_a_pending_request(&mut client, Value::Null).await;
    client
        .send(json!({"jsonrpc": "2.0", "id": 2, "method": "shutdown", "params": null}))
        .await;
    let response = client.receive().await.expect("a shutdown response");
    assert_eq!(response["id"], 2, "{response}");
    client
        .send(json!({"jsonrpc": "2.0", "method": "exit", "params": null}))
        .await;
    // stdin stays open: `exit` alone must end the process.
    ends(&mut child, "shutdown and exit").await;
    drop(client);
}

#[tokio::test]
async fn the_server_ends_when_the_client_process_dies() {
    let mut editor = std::process::Command::new("sleep")
        .arg("60")
        .spawn()
        .expect("sleep starts");
    let (mut child, mut client) = start();
    initialized_with_a_pending_request(&mut client, json!(editor.id())).await;
    client
        .send(json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
            "textDocument": {"uri": "file:///p.cmg", "languageId": "cmg", "version": 1, "text": "0 -- 1 -- 2\n"}}}))
        .await;
    editor.kill().unwrap();
    editor.wait().unwrap();
    // stdin stays open, as it does when an editor crashes and leaves its pipes behind.
    ends(&mut child, "the client process died").await;
    drop(client);
}
