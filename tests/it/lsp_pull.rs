//! Pull diagnostics through the real `cmg lsp`: result ids and `unchanged`, the refresh
//! after a solve adds `expect-mismatch`, a pull superseded by an edit, one waiting
//! while the settings change, and publications only for clients that cannot pull.

use std::time::Duration;

use serde_json::{json, Value};
use tokio::process::Child;

use crate::common::lsp_process::{start, ProcessClient as Client};
use crate::common::temp_dir::TempDir;

const URI: &str = "file:///pull/graph.cmg";

/// A pull client (with `workspace/diagnostic/refresh` if `refresh`) or a push client.
async fn started(pull: bool, refresh: bool) -> (Child, Client) {
    let (child, mut client) = start();
    let capabilities = if pull {
        json!({"textDocument": {"diagnostic": {"dynamicRegistration": false}},
               "workspace": {"diagnostics": {"refreshSupport": refresh}}})
    } else {
        json!({})
    };
    client.initialize(capabilities, json!(null)).await;
    (child, client)
}

async fn pull(client: &mut Client, previous: Option<&str>) -> Value {
    client
        .request(
            "textDocument/diagnostic",
            json!({"textDocument": {"uri": URI}, "previousResultId": previous}),
        )
        .await
}

fn codes(report: &Value) -> Vec<String> {
    report["result"]["items"]
        .as_array()
        .expect("a full report")
        .iter()
        .map(|d| d["code"].as_str().unwrap_or("").to_owned())
        .collect()
}

/// Lets the server finish what an edit started (analysis, solve, publication), then
/// makes one round trip so that whatever it sent meanwhile has been read.
async fn settle(client: &mut Client) {
    tokio::time::sleep(Duration::from_millis(600)).await;
    client.call("shutdown", json!(null)).await;
}

#[tokio::test]
async fn a_pull_is_full_then_unchanged_until_the_text_changes() {
    let (_child, mut client) = started(true, false).await;
    client.open(URI, 1, "0 -- 1 -- 2\n0 -- 1\n").await;
    let first = pull(&mut client, None).await;
    assert_eq!(first["result"]["kind"], "full", "{first}");
    assert_eq!(codes(&first), ["duplicate-edge"]);
    let id = first["result"]["resultId"].as_str().unwrap().to_owned();

    let again = pull(&mut client, Some(&id)).await;
    assert_eq!(
        again["result"],
        json!({"kind": "unchanged", "resultId": id}),
        "{again}"
    );
    // Another client's id, or none, gets the full report.
    let other = pull(&mut client, Some("0n")).await;
    assert_eq!(other["result"]["kind"], "full");

    client
        .change(URI, 2, json!([{"text": "0 -- 1 -- 2\n"}]))
        .await;
    let changed = pull(&mut client, Some(&id)).await;
    assert_eq!(changed["result"]["kind"], "full", "{changed}");
    assert_eq!(codes(&changed), Vec::<String>::new());
    assert_ne!(changed["result"]["resultId"], json!(id));

    // A document that is not open has nothing to report.
    let closed = client
        .call(
            "textDocument/diagnostic",
            json!({"textDocument": {"uri": "file:///pull/other.cmg"}}),
        )
        .await;
    assert_eq!(closed, json!({"kind": "full", "items": []}));
    settle(&mut client).await;
    assert!(
        client.published(URI).is_empty(),
        "a pull client gets no publications"
    );
}

#[tokio::test]
async fn a_solve_that_adds_expect_mismatch_asks_the_client_to_pull_again() {
    let (_child, mut client) = started(true, true).await;
    // Node 1 steps onto the hole at once: the mouse wins, not the cat.
    client.open(URI, 1, "0 -- 1 -- 2\nexpect cat\n").await;
    let first = pull(&mut client, None).await;
    let first_codes = codes(&first);
    let id = first["result"]["resultId"].as_str().unwrap().to_owned();
    if first_codes.is_empty() {
        eprintln!("answered before the solve: waiting for the refresh");
        // Answered before the solve landed: the server asks for a new pull, which
        // gets the mismatch under a new result id.
        client.server_request("workspace/diagnostic/refresh").await;
        let second = pull(&mut client, Some(&id)).await;
        assert_eq!(second["result"]["kind"], "full", "{second}");
        assert_eq!(codes(&second), ["expect-mismatch"]);
        assert_ne!(second["result"]["resultId"], json!(id));
    } else {
        // The solve was in before the pull was answered.
        assert_eq!(first_codes, ["expect-mismatch"]);
    }
    settle(&mut client).await;
    assert!(client.published(URI).is_empty());
}

#[tokio::test]
async fn a_pull_client_without_refresh_is_not_asked_to_refresh() {
    let (_child, mut client) = started(true, false).await;
    client.open(URI, 1, "0 -- 1 -- 2\nexpect cat\n").await;
    pull(&mut client, None).await;
    settle(&mut client).await;
    assert!(client
        .server_requests
        .iter()
        .all(|r| r["method"] != "workspace/diagnostic/refresh"));
}

/// Opens a document large enough that its analysis is still running when the next
/// message comes, and pulls its diagnostics; the pull's request id.
async fn open_large_and_pull(client: &mut Client) -> i64 {
    let text: String = (0..20_000)
        .map(|i| format!("{} -- {}\n", i, i + 1))
        .collect();
    client.open(URI, 1, &text).await;
    client
        .send_request(
            "textDocument/diagnostic",
            json!({"textDocument": {"uri": URI}}),
        )
        .await
}

/// The answer to a superseded pull: `ServerCancelled`, asking the client to pull again.
fn assert_retrigger(response: &Value) {
    assert_eq!(response["error"]["code"], -32802, "{response}");
    assert_eq!(
        response["error"]["data"],
        json!({"retriggerRequest": true}),
        "{response}"
    );
}

#[tokio::test]
async fn a_pull_superseded_by_an_edit_is_server_cancelled() {
    let (_child, mut client) = started(true, false).await;
    let id = open_large_and_pull(&mut client).await;
    client
        .change(URI, 2, json!([{"text": "0 -- 1 -- 2\n"}]))
        .await;
    assert_retrigger(&client.response_to(id).await);
    let fresh = pull(&mut client, None).await;
    assert_eq!(codes(&fresh), Vec::<String>::new());
}

/// New settings come while a pull waits for its analysis (VS Code's answer to
/// `workspace/configuration` comes after its first pull): the text is the same, so the
/// pull is answered under the new settings, not cancelled. VS Code's client never pulls
/// a document again after a `ServerCancelled` it did not cause that asks for none.
#[tokio::test]
async fn a_pull_waiting_when_the_settings_change_is_answered_under_them() {
    let (_child, mut client) = started(true, false).await;
    let id = open_large_and_pull(&mut client).await;
    client
        .notify(
            "workspace/didChangeConfiguration",
            json!({"settings": {"cmg": {"diagnostics": {"max": 7}, "solver": {"maxNodes": 4}}}}),
        )
        .await;
    let answer = client.response_to(id).await;
    assert_eq!(answer["result"]["kind"], "full", "{answer}");
    let again = pull(&mut client, None).await;
    assert_eq!(again["result"]["kind"], "full", "{again}");
    assert_eq!(codes(&again), ["too-large"], "{again}");
}

#[tokio::test]
async fn a_client_that_cannot_pull_gets_publications() {
    let (_child, mut client) = started(false, false).await;
    client.open(URI, 1, "0 -- 1 -- 2\n0 -- 1\n").await;
    let published = client.diagnostics_where(URI, |p| p["version"] == 1).await;
    assert_eq!(cmg_lsp::test_client::codes(&published), ["duplicate-edge"]);
}

#[tokio::test]
async fn a_document_too_large_to_analyse_says_so_in_a_pull_too() {
    let (_child, mut client) = start();
    client
        .initialize(
            json!({"textDocument": {"diagnostic": {}}}),
            json!({"analysis": {"maxDocumentBytes": 100}}),
        )
        .await;
    let text: String = (0..50).map(|i| format!("{} -- {}\n", i, i + 1)).collect();
    client.open(URI, 1, &text).await;
    let report = pull(&mut client, None).await;
    assert_eq!(codes(&report), ["too-large"], "{report}");
}

/// A server whose one workspace folder is `folder`, for a client that pulls
/// diagnostics, initialized with `options`; with the answer to `initialize`.
async fn start_in_workspace(folder: &TempDir, options: Value) -> (Child, Client, Value) {
    let (child, mut client) = start();
    let initialize = client
        .call(
            "initialize",
            json!({"processId": null,
                   "rootUri": null,
                   "workspaceFolders": [{"uri": folder.uri(""), "name": "w"}],
                   "capabilities": {"textDocument": {"diagnostic": {}}},
                   "initializationOptions": options}),
        )
        .await;
    client.notify("initialized", json!({})).await;
    (child, client, initialize)
}

/// The workspace report by URI: its kind, result id and codes.
fn by_uri(report: &Value) -> std::collections::BTreeMap<String, (String, String, Vec<String>)> {
    report["result"]["items"]
        .as_array()
        .unwrap_or_else(|| panic!("a workspace report: {report}"))
        .iter()
        .map(|item| {
            let codes = item["items"]
                .as_array()
                .map(|items| {
                    items
                        .iter()
                        .map(|d| d["code"].as_str().unwrap_or("").to_owned())
                        .collect()
                })
                .unwrap_or_default();
            (
                item["uri"].as_str().unwrap().to_owned(),
                (
                    item["kind"].as_str().unwrap().to_owned(),
                    item["resultId"].as_str().unwrap().to_owned(),
                    codes,
                ),
            )
        })
        .collect()
}

#[tokio::test]
async fn a_workspace_pull_covers_closed_files_and_open_edits_then_answers_unchanged() {
    let folder = TempDir::new("workspace-pull");
    folder.write("ok.cmg", "0 -- 1 -- 2\n");
    folder.write("bad.cmg", "0 -- 1 -- 2\n0 -- 1\n");
    folder.write("edited.cmg", "0 -- 1 -- 2\n");
    // Above the limit set below: reported as too large, not read.
    let big: String = (0..50).map(|i| format!("{} -- {}\n", i, i + 1)).collect();
    folder.write("big.cmg", &big);
    // A pipe named like a graph is not a file to read (opening it would block).
    let fifo = folder.path().join("pipe.cmg");
    assert!(std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());

    let (_child, mut client, initialize) =
        start_in_workspace(&folder, json!({"analysis": {"maxDocumentBytes": 200}})).await;
    assert_eq!(
        initialize["capabilities"]["diagnosticProvider"]["workspaceDiagnostics"],
        true
    );
    // Open with unsaved edits: a duplicate edge that the file on disk does not have.
    let edited = folder.uri("edited.cmg");
    client.open(&edited, 3, "0 -- 1 -- 2\n1 -- 0\n").await;

    let request = |previous: Value| json!({"previousResultIds": previous});
    let first = client
        .request("workspace/diagnostic", request(json!([])))
        .await;
    let reports = by_uri(&first);
    let kinds_and_codes: Vec<(&str, &str, Vec<&str>)> = reports
        .iter()
        .map(|(uri, (kind, _, codes))| {
            let name = uri.rsplit('/').next().unwrap();
            (
                name,
                kind.as_str(),
                codes.iter().map(String::as_str).collect(),
            )
        })
        .collect();
    assert_eq!(
        kinds_and_codes,
        [
            ("bad.cmg", "full", vec!["duplicate-edge"]),
            ("big.cmg", "full", vec!["too-large"]),
            ("edited.cmg", "full", vec!["duplicate-edge"]),
            ("ok.cmg", "full", vec![]),
        ],
        "{first}"
    );
    let open_report = first["result"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|item| item["uri"] == edited.as_str())
        .unwrap();
    assert_eq!(open_report["version"], 3);
    // The open document's id is the one a pull of it answers.
    let pulled = client
        .request(
            "textDocument/diagnostic",
            json!({"textDocument": {"uri": edited}}),
        )
        .await;
    assert_eq!(pulled["result"]["resultId"], open_report["resultId"]);

    let previous: Vec<Value> = reports
        .iter()
        .map(|(uri, (_, id, _))| json!({"uri": uri, "value": id}))
        .collect();
    let second = client
        .request("workspace/diagnostic", request(json!(previous)))
        .await;
    let again = by_uri(&second);
    assert_eq!(again.len(), 4, "{second}");
    for (uri, (kind, id, _)) in &again {
        assert_eq!(
            (kind.as_str(), id),
            ("unchanged", &reports[uri].1),
            "{second}"
        );
    }

    // A file changed on disk is reported again.
    folder.write("ok.cmg", "0 -- 1 -- 2\n2 -- 1\n");
    let third = client
        .request("workspace/diagnostic", request(json!(previous)))
        .await;
    let ok = &by_uri(&third)[&folder.uri("ok.cmg")];
    assert_eq!(
        (ok.0.as_str(), ok.2.clone()),
        ("full", vec!["duplicate-edge".to_owned()])
    );
}

/// A closed file analysed and solved inside the server's memory budget of 1 MiB: its
/// analysis is granted about half of it (128 bytes a byte of its 4 KB), and the solve of
/// its 400 nodes (under 1 MiB, so the plan allows it) does not fit in the rest. Nothing
/// else will free room, so its report says so at once (`too-large`, naming the memory)
/// rather than waiting, until the report's time is up, for room its own analysis
/// holds. (If the estimates ever let both fit, the `expect` is checked and the report
/// has `expect-mismatch` instead: the test fails rather than passing by another way.)
#[tokio::test]
async fn a_closed_file_whose_solve_does_not_fit_the_budget_says_so() {
    let folder = TempDir::new("workspace-budget");
    let path: String = (0..400).map(|i| format!("{} -- {}\n", i, i + 1)).collect();
    folder.write("long.cmg", format!("{path}expect cat\n"));
    let (_child, mut client, _) =
        start_in_workspace(&folder, json!({"solver": {"maxMemoryMiB": 1}})).await;
    let report = client
        .request("workspace/diagnostic", json!({"previousResultIds": []}))
        .await;
    let reports = by_uri(&report);
    let (_, (kind, _, codes)) = reports.iter().next().expect("the closed file's report");
    assert_eq!(
        (kind.as_str(), codes.as_slice()),
        ("full", &["too-large".to_owned()][..]),
        "{report}"
    );
    let message = report["result"]["items"][0]["items"][0]["message"]
        .as_str()
        .unwrap_or("");
    assert!(message.contains("memory"), "{message}");
}
