//! The real `cmg lsp` binary over stdio: a whole session from initialize to exit.

use crate::common::lsp_process;

use std::process::Stdio;
use std::time::Duration;

use cmg_lsp::test_client::codes;
use serde_json::json;

const URI: &str = "file:///e2e/long-game.cmg";

#[tokio::test]
async fn a_session_from_initialize_to_exit() {
    let (mut child, mut client) = lsp_process::start();

    let init = client
        .initialize(
            json!({"workspace": {"inlayHint": {"refreshSupport": true}}}),
            json!(null),
        )
        .await;
    assert_eq!(init["serverInfo"]["name"], "cmg");
    assert_eq!(init["capabilities"]["positionEncoding"], "utf-16");

    let text = include_str!("../../examples/long-game.cmg").replace("expect mouse", "expect cat");
    client.open(URI, 1, &text).await;
    let params = client
        .diagnostics_where(URI, |p| codes(p).contains(&"expect-mismatch".to_owned()))
        .await;
    assert_eq!(params["version"], 1);
    let message = params["diagnostics"][0]["message"].as_str().unwrap();
    assert!(message.contains("mouse wins in 21"), "{message}");

    // Hover on node 5, the first neighbour in the list of node 0 (`[5, 7, 9],`).
    let hover_line = text
        .lines()
        .position(|line| line.trim_start().starts_with("[5"))
        .unwrap() as u32;
    let column = text
        .lines()
        .nth(hover_line as usize)
        .unwrap()
        .find('5')
        .unwrap() as u32;
    let hover = client
        .call_at("textDocument/hover", URI, hover_line, column)
        .await;
    let markdown = hover["contents"]["value"].as_str().unwrap();
    assert!(markdown.contains("**node 5**"), "{markdown}");

    let hints = client
        .call("textDocument/inlayHint", json!({"textDocument": {"uri": URI}, "range": {"start": {"line": 0, "character": 0}, "end": {"line": 999, "character": 0}}}))
        .await;
    let first = &hints[0];
    assert_eq!(first["label"], "⟹ outcome: mouse wins in 21", "{hints}");
    assert_eq!(first["position"]["line"], 0);

    let edits = client
        .call(
            "textDocument/formatting",
            json!({"textDocument": {"uri": URI}, "options": {"tabSize": 2, "insertSpaces": true}}),
        )
        .await;
    assert_eq!(edits, json!([]), "the example is already formatted");

    assert_eq!(
        client.call("shutdown", json!(null)).await,
        serde_json::Value::Null
    );
    client.notify("exit", json!(null)).await;
    let status = tokio::time::timeout(Duration::from_secs(1), child.wait())
        .await
        .expect("the server exits within a second")
        .unwrap();
    assert!(status.success(), "exit status {status}");
}

#[tokio::test]
async fn closing_stdin_ends_the_server() {
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_cmg"))
        .arg("lsp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("cmg lsp starts");
    drop(child.stdin.take());
    let status = tokio::time::timeout(Duration::from_secs(1), child.wait())
        .await
        .expect("the server exits within a second of stdin closing")
        .unwrap();
    assert!(status.code().is_some());
}
