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

/// The exit status of a server that ended.
async fn status(child: &mut Child, what: &str) -> i32 {
    let status = tokio::time::timeout(ENDS_WITHIN, child.wait())
        .await
        .unwrap_or_else(|_| panic!("the server still runs after {what}"))
        .unwrap();
    status.code().expect("an exit status, not a signal")
}

/// Shuts the server down as a client should, `shutdown` then `exit`: it ends with
/// status 0.
async fn shut_down(child: &mut Child, client: &mut Client) {
    client.request("shutdown", Value::Null).await;
    client.notify("exit", Value::Null).await;
    assert_eq!(status(child, "shutdown and exit").await, 0);
}

async fn initialize(client: &mut Client, process_id: Value) -> Value {
    client
        .request(
            "initialize",
            json!({"processId": process_id, "rootUri": null, "capabilities": {}}),
        )
        .await
}

#[tokio::test]
async fn shutdown_then_exit_is_status_0_and_exit_alone_is_status_1() {
    let (mut child, mut client) = start();
    initialize(&mut client, Value::Null).await;
    shut_down(&mut child, &mut client).await;

    let (mut child, mut client) = start();
    initialize(&mut client, Value::Null).await;
    client.notify("exit", Value::Null).await;
    assert_eq!(status(&mut child, "exit without shutdown").await, 1);
    drop(client);
}

/// Each body here arrives in an intact frame: it gets an error response with the code
/// JSON-RPC gives it, and the server goes on serving the same session.
#[tokio::test]
async fn a_bad_body_in_an_intact_frame_is_answered_and_the_server_goes_on() {
    let (mut child, mut client) = start();
    initialize(&mut client, Value::Null).await;
    let deep = "[".repeat(100_000);
    let cases: [(&[u8], i64); 5] = [
        (b"{\"jsonrpc\": \"2.0\", \"id\": 5, \"method\"", -32700),
        (b"{\"jsonrpc\": \"2.0\", \"method\": \"\xff\xfe\"}", -32700),
        (deep.as_bytes(), -32700),
        (
            b"[{\"jsonrpc\": \"2.0\", \"id\": 6, \"method\": \"shutdown\"}]",
            -32600,
        ),
        (b"{\"jsonrpc\": \"2.0\", \"id\": 7, \"params\": 3}", -32600),
    ];
    for (body, code) in cases {
        let mut frame = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
        frame.extend_from_slice(body);
        client.send_raw(&frame).await;
        let answer = client.receive().await.expect("an error response");
        assert_eq!(
            answer["error"]["code"],
            code,
            "{}: {answer}",
            String::from_utf8_lossy(&body[..body.len().min(40)])
        );
    }
    // The session is intact: documents open, requests are answered.
    client.open("file:///a.cmg", 1, "0 -- 1 -- 2\n").await;
    let symbols = client
        .call(
            "textDocument/documentSymbol",
            json!({"textDocument": {"uri": "file:///a.cmg"}}),
        )
        .await;
    assert!(
        symbols.as_array().is_some_and(|s| !s.is_empty()),
        "{symbols}"
    );
    shut_down(&mut child, &mut client).await;
}

/// A Content-Length counted in characters instead of bytes (a classic client bug with
/// "é") cuts the body short and leaves the rest of it where the next header should
/// be: the framing is lost, and the server says so and ends with a failure status
/// instead of reading garbage as messages.
#[tokio::test]
async fn lost_framing_ends_the_server_with_a_failure_status() {
    let (mut child, mut client) = start();
    initialize(&mut client, Value::Null).await;
    let body = r#"{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": "file:///é.cmg", "languageId": "cmg", "version": 1, "text": "0 -- 1\n"}}}"#;
    let frame = format!("Content-Length: {}\r\n\r\n{body}", body.chars().count());
    client.send_raw(frame.as_bytes()).await;
    // What follows the cut, `}` and the next message, is where a header should be.
    client
        .send(json!({"jsonrpc": "2.0", "id": 9, "method": "shutdown", "params": null}))
        .await;
    assert_eq!(status(&mut child, "lost framing").await, 1);

    let (mut child, mut client) = start();
    initialize(&mut client, Value::Null).await;
    client.send_raw(b"Content-Length: 40\r\n\r\n{}").await;
    drop(client);
    assert_eq!(
        status(&mut child, "a body cut by the end of input").await,
        1
    );
}

/// A `processId` that does not exist here (the editor runs the server in a container,
/// or sends 0) is not watched: the server goes on, and says why in the log.
#[tokio::test]
async fn a_process_id_that_does_not_exist_here_is_not_watched() {
    for pid in [json!(0), json!(i32::MAX)] {
        let (mut child, mut client) = start();
        initialize(&mut client, pid.clone()).await;
        client.notify("initialized", json!({})).await;
        tokio::time::sleep(Duration::from_millis(800)).await;
        assert!(
            child.try_wait().unwrap().is_none(),
            "the server ended with processId {pid}"
        );
        client.open("file:///a.cmg", 1, "0 -- 1 -- 2\n").await;
        client
            .call(
                "textDocument/documentSymbol",
                json!({"textDocument": {"uri": "file:///a.cmg"}}),
            )
            .await;
        let logged = client.notifications.iter().any(|n| {
            n["method"] == "window/logMessage"
                && n["params"]["message"]
                    .as_str()
                    .is_some_and(|m| m.contains("not visible"))
        });
        assert!(logged, "{:?}", client.notifications);
        shut_down(&mut child, &mut client).await;
    }
}

/// A client that never answers `workspace/configuration`: the pulls of `initialized`
/// and of three settings changes wait for it, and none of them may hold up the next
/// document's publication or a request (they took 19.8 s when each pull held one of
/// the transport's four handler slots).
#[tokio::test]
async fn a_client_slow_to_answer_settings_holds_nothing_up() {
    let (mut child, mut client) = start();
    initialized_with_a_pending_request(&mut client, Value::Null).await;
    for _ in 0..3 {
        client
            .notify("workspace/didChangeConfiguration", json!({"settings": {}}))
            .await;
    }
    client
        .open("file:///slow.cmg", 1, "0 -- 1 -- 2 -- 2\n")
        .await;
    let started = std::time::Instant::now();
    let published = tokio::time::timeout(Duration::from_secs(8), async {
        loop {
            let message = client.receive().await.expect("the server goes on");
            if message["method"] == "textDocument/publishDiagnostics" {
                return message;
            }
        }
    })
    .await
    .expect("no publication while the settings requests are unanswered");
    assert_eq!(published["params"]["uri"], "file:///slow.cmg");
    let id = client
        .send_request(
            "textDocument/documentSymbol",
            json!({"textDocument": {"uri": "file:///slow.cmg"}}),
        )
        .await;
    let answer = tokio::time::timeout(Duration::from_secs(8), async {
        loop {
            let message = client.receive().await.expect("the server goes on");
            if message["id"] == id && message.get("method").is_none() {
                return message;
            }
        }
    })
    .await
    .expect("no answer while the settings requests are unanswered");
    assert!(answer.get("result").is_some(), "{answer}");
    assert!(started.elapsed() < Duration::from_secs(15));
    drop(client);
    ends(&mut child, "stdin closed").await;
}
