//! The language server in process, over an in-memory pipe with real framing: document
//! sync, diagnostics with versions, scheduling of solves, settings, bad requests.

use cmg_lsp::test_client::{
    codes, diagnostics_view, expected_diagnostics, in_memory, InMemoryClient,
};
use serde_json::{json, Value};

const URI: &str = "file:///test/graph.cmg";

async fn started(options: Value) -> InMemoryClient {
    let mut client = in_memory();
    client
        .initialize(
            json!({"workspace": {"inlayHint": {"refreshSupport": true}, "codeLens": {"refreshSupport": true}}}),
            options,
        )
        .await;
    client
}

fn version_is(version: i64) -> impl Fn(&Value) -> bool {
    move |params| params["version"] == json!(version)
}

#[tokio::test]
async fn open_publishes_diagnostics_with_the_version() {
    let mut client = started(json!(null)).await;
    client.open(URI, 7, "0 -- 1 -- 2\n2 -- 2\nfoo\n").await;
    let params = client.diagnostics_where(URI, version_is(7)).await;
    assert_eq!(codes(&params), ["self-loop", "syntax"]);
    let self_loop = &params["diagnostics"][0];
    assert_eq!(
        self_loop["range"],
        json!({"start": {"line": 1, "character": 0}, "end": {"line": 1, "character": 6}})
    );
    assert_eq!(self_loop["severity"], 1);
    assert_eq!(self_loop["source"], "cmg");
}

#[tokio::test]
async fn incremental_changes_apply_in_order() {
    let mut client = started(json!(null)).await;
    client.open(URI, 1, "0 -- 1 -- 2\n").await;
    client.diagnostics_where(URI, version_is(1)).await;
    // Two changes in one notification: break line 0, then add a self-loop at the end.
    client
        .change(
            URI,
            2,
            json!([
                {"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 1}}, "text": "x"},
                {"range": {"start": {"line": 1, "character": 0}, "end": {"line": 1, "character": 0}}, "text": "3 -- 3\n"},
            ]),
        )
        .await;
    let params = client.diagnostics_where(URI, version_is(2)).await;
    assert!(codes(&params).contains(&"syntax".to_owned()), "{params}");
    assert!(codes(&params).contains(&"self-loop".to_owned()), "{params}");
    // Delete everything.
    client
        .change(
            URI,
            3,
            json!([{"range": {"start": {"line": 0, "character": 0}, "end": {"line": 99, "character": 0}}, "text": ""}]),
        )
        .await;
    let params = client.diagnostics_where(URI, version_is(3)).await;
    assert_eq!(
        codes(&params),
        ["missing-mouse", "missing-cat", "missing-hole"]
    );
    // A full-text change replaces it all.
    client
        .change(
            URI,
            4,
            json!([{"text": "[[1,3],[0],[3],[0,2]]\nexpect cat\n"}]),
        )
        .await;
    let params = client
        .diagnostics_where(URI, |p| {
            p["version"] == 4 && codes(p).contains(&"expect-mismatch".to_owned())
        })
        .await;
    assert!(params["diagnostics"][0]["message"]
        .as_str()
        .unwrap()
        .contains("mouse wins in 1"));
}

/// A random-looking graph of `n` nodes with a mouse and a cat, big enough that
/// solving it takes a while.
fn big_graph(n: u32, salt: u32) -> String {
    let mut text = String::new();
    let mut state = 0x9e37_79b9u32 ^ salt;
    for a in 0..n {
        for _ in 0..3 {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            let b = state % n;
            if a != b {
                text.push_str(&format!("{a} -- {b}\n"));
            }
        }
    }
    text
}

/// Waits for the publication of `version` that includes its solve, and checks that every
/// publication of that version so far is `expected` (from [`expected_diagnostics`]):
/// the fresh analysis of its text, before or after its own solve, never one carrying
/// another version's outcome. The expectation is computed before the edit is sent,
/// because solving here would hold up the server, which shares this thread.
async fn check_publications(client: &mut InMemoryClient, version: i64, expected: [Value; 2]) {
    let [unsolved, solved] = expected;
    assert_ne!(
        unsolved, solved,
        "the test needs an expectation the solve decides"
    );
    client
        .diagnostics_where(URI, |p| {
            p["version"] == version && diagnostics_view(&p["diagnostics"]) == solved
        })
        .await;
    for params in client.published(URI) {
        eprintln!(
            "pub v{} {}",
            params["version"],
            params["diagnostics"]
                .to_string()
                .chars()
                .take(300)
                .collect::<String>()
        );
        if params["version"] == version {
            let diagnostics = &diagnostics_view(&params["diagnostics"]);
            assert!(
                *diagnostics == unsolved || *diagnostics == solved,
                "version {version} published {diagnostics}, expected {solved}"
            );
        }
    }
}

/// The outcome hint of a whole-file `inlayHint` answer, if there is one.
async fn outcome_hint(client: &mut InMemoryClient) -> Option<String> {
    let hints = client
        .call("textDocument/inlayHint", json!({"textDocument": {"uri": URI}, "range": {"start": {"line": 0, "character": 0}, "end": {"line": 99999, "character": 0}}}))
        .await;
    hints
        .as_array()
        .unwrap()
        .iter()
        .map(|hint| hint["label"].as_str().unwrap().to_owned())
        .find(|label| label.starts_with(OUTCOME_HINT))
}

/// How the outcome hint starts; the per-node hints do not.
const OUTCOME_HINT: &str = "⟹ outcome:";

/// The outcome hint of `text` once solved, computed here without the server.
fn outcome_of(text: &str) -> String {
    let analysis = cmg_core::analysis::Analysis::new(text);
    let solution = cmg_solve::solve(&analysis.game().unwrap());
    cmg_ide::inlay_hints::inlay_hints(&analysis, Some(&solution), &Default::default())
        .into_iter()
        .map(|hint| hint.label)
        .find(|label| label.starts_with(OUTCOME_HINT))
        .unwrap()
}

#[tokio::test]
async fn a_solution_for_another_graph_with_the_same_node_count_is_never_shown() {
    let settings = json!({"solver": {"maxNodes": 5000}});
    let mut client = started(settings.clone()).await;
    let v1 = format!(
        "{}expect draw\nexpect mouse\nexpect cat\n",
        big_graph(300, 3)
    );
    client.open(URI, 1, &v1).await;
    check_publications(&mut client, 1, expected_diagnostics(URI, &v1, &settings)).await;
    // Version 2 adds an edge and keeps every node: the solution of version 1 fits its
    // node count but not its graph. Asked at once, while version 2 is solved, the
    // hints show no outcome or version 2's, never version 1's.
    let v2 = format!("0 -- 1\n{v1}");
    let (old, new) = (outcome_of(&v1), outcome_of(&v2));
    assert_ne!(old, new, "the test needs two outcomes");
    let expected = expected_diagnostics(URI, &v2, &settings);
    client.change(URI, 2, json!([{"text": v2}])).await;
    let shown = outcome_hint(&mut client).await;
    assert_ne!(
        shown.as_deref(),
        Some(old.as_str()),
        "the old outcome was shown"
    );
    check_publications(&mut client, 2, expected).await;
    assert_eq!(outcome_hint(&mut client).await, Some(new));
}

#[tokio::test]
async fn too_large_follows_the_setting() {
    let mut client = started(json!({"solver": {"maxNodes": 3}})).await;
    client.open(URI, 1, "0 -- 1 -- 2 -- 3\n").await;
    let params = client.diagnostics_where(URI, version_is(1)).await;
    assert_eq!(codes(&params), ["too-large"]);
    // Raising the limit through didChangeConfiguration solves it.
    client
        .notify(
            "workspace/didChangeConfiguration",
            json!({"settings": {"cmg": {"solver": {"maxNodes": 10}}}}),
        )
        .await;
    let params = client
        .diagnostics_where(URI, |p| p["version"] == 1 && codes(p).is_empty())
        .await;
    assert_eq!(params["diagnostics"], json!([]));
}

#[tokio::test]
async fn settings_are_pulled_when_the_client_offers_configuration() {
    let mut client = in_memory();
    client.settings = json!({"solver": {"maxNodes": 2}});
    client
        .initialize(json!({"workspace": {"configuration": true}}), json!(null))
        .await;
    client.open(URI, 1, "0 -- 1 -- 2\n").await;
    let params = client
        .diagnostics_where(URI, |p| codes(p).contains(&"too-large".to_owned()))
        .await;
    assert_eq!(params["version"], 1);
}

/// A text of `lines` edges, about 10 bytes each, without node 1 or node 2: nothing to
/// solve, so it is published once.
fn unsolved(lines: usize) -> String {
    (10..10 + lines)
        .map(|i| format!("{i} -- {}\n", i + 1))
        .collect()
}

/// VS Code sends `didChangeConfiguration` whenever any setting of any extension
/// changes, and answers `workspace/configuration` after the requests sent meanwhile.
/// The same settings again change nothing: no request fails, nothing is published again.
#[tokio::test]
async fn the_same_settings_again_change_nothing() {
    let mut client = in_memory();
    // The initialization options and every configuration answer agree.
    client.settings = json!({"diagnostics": {"max": 50}});
    let options = client.settings.clone();
    client
        .initialize(json!({"workspace": {"configuration": true}}), options)
        .await;
    let text = unsolved(20_000);
    client.open(URI, 1, &text).await;
    client.diagnostics_where(URI, |p| p["version"] == 1).await;
    let mut failed = 0;
    // Twenty changes, each followed by a request; then one more request: the last
    // configuration answer was sent before it, so anything that answer caused is handed
    // over before it is answered.
    for round in 0..=20 {
        if round < 20 {
            client
                .notify(
                    "workspace/didChangeConfiguration",
                    json!({"settings": null}),
                )
                .await;
        }
        let response = client
            .request(
                "textDocument/hover",
                json!({"textDocument": {"uri": URI}, "position": {"line": 0, "character": 0}}),
            )
            .await;
        failed += usize::from(response.get("error").is_some());
    }
    assert_eq!(failed, 0, "requests failed");
    assert_eq!(
        client.published(URI).len(),
        1,
        "the same settings published again"
    );
}

/// At start-up the first configuration answer comes after the client's first requests
/// (a format-on-save right after opening): new settings keep the text, so the request is
/// answered from the analysis under them, not `ContentModified`.
#[tokio::test]
async fn a_request_waiting_when_the_settings_change_is_answered() {
    for settings in [json!(null), json!({"solver": {"maxNodes": 10}})] {
        let mut client = in_memory();
        client.settings = settings.clone();
        client
            .initialize(json!({"workspace": {"configuration": true}}), json!(null))
            .await;
        client.open(URI, 1, &unsolved(20_000)).await;
        let response = client
            .request(
                "textDocument/formatting",
                json!({"textDocument": {"uri": URI}, "options": {"tabSize": 2, "insertSpaces": true}}),
            )
            .await;
        assert!(response.get("error").is_none(), "{settings}: {response}");
    }
}

/// Each configuration answer is the whole truth: a setting no longer sent (`null`, an
/// empty section, no `cmg` section) is back to its default.
#[tokio::test]
async fn a_setting_no_longer_sent_is_back_to_its_default() {
    let mut client = started(json!(null)).await;
    let text = "0 -- 1 -- 2\n";
    client.open(URI, 1, text).await;
    client.diagnostics_where(URI, version_is(1)).await;
    let mut version = 1;
    for unset in [
        json!({"cmg": {"analysis": {"maxDocumentBytes": null}}}),
        json!({"cmg": {"analysis": {}}}),
        json!({"cmg": {}}),
        json!({"cmg": null}),
        json!({}),
        json!({"editor": {"tabSize": 4}}),
    ] {
        for (settings, too_large) in [
            (json!({"cmg": {"analysis": {"maxDocumentBytes": 10}}}), true),
            (unset.clone(), false),
        ] {
            client
                .notify(
                    "workspace/didChangeConfiguration",
                    json!({ "settings": settings }),
                )
                .await;
            version += 1;
            client.change(URI, version, json!([{"text": text}])).await;
            let params = client
                .diagnostics_where(URI, version_is(version.into()))
                .await;
            assert_eq!(
                codes(&params).contains(&"too-large".to_owned()),
                too_large,
                "after {settings}: {params}"
            );
        }
    }
}

#[tokio::test]
async fn close_clears_diagnostics() {
    let mut client = started(json!(null)).await;
    client.open(URI, 1, "foo\n").await;
    client.diagnostics_where(URI, version_is(1)).await;
    client
        .notify(
            "textDocument/didClose",
            json!({"textDocument": {"uri": URI}}),
        )
        .await;
    let params = client
        .diagnostics_where(URI, |p| {
            p["diagnostics"] == json!([]) && p.get("version").is_none_or(Value::is_null)
        })
        .await;
    assert_eq!(params["diagnostics"], json!([]));
}

#[tokio::test]
async fn unknown_documents_and_bad_positions_get_empty_answers() {
    let mut client = started(json!(null)).await;
    let result = client
        .call("textDocument/formatting", json!({"textDocument": {"uri": "file:///nowhere.cmg"}, "options": {"tabSize": 2, "insertSpaces": true}}))
        .await;
    assert_eq!(result, Value::Null);
    // Edits to an unknown document are ignored, and the server goes on.
    client
        .change("file:///nowhere.cmg", 2, json!([{"text": "1 -- 2"}]))
        .await;
    client.open(URI, 1, "1  --  2\n").await;
    client.diagnostics_where(URI, version_is(1)).await;
    // A change far past the end of the text clamps to the end.
    client
        .change(URI, 2, json!([{"range": {"start": {"line": 50, "character": 9}, "end": {"line": 60, "character": 0}}, "text": "0 -- 1\n"}]))
        .await;
    let params = client.diagnostics_where(URI, version_is(2)).await;
    assert!(
        !codes(&params).contains(&"missing-hole".to_owned()),
        "{params}"
    );
}

#[tokio::test]
async fn formatting_returns_a_minimal_edit() {
    let mut client = started(json!(null)).await;
    client.open(URI, 1, "# é😀\n0 -- 1\n1--2\n").await;
    let edits = client
        .call(
            "textDocument/formatting",
            json!({"textDocument": {"uri": URI}, "options": {"tabSize": 2, "insertSpaces": true}}),
        )
        .await;
    assert_eq!(
        edits,
        json!([{"range": {"start": {"line": 2, "character": 1}, "end": {"line": 2, "character": 3}}, "newText": " -- "}])
    );
    assert_eq!(edits.as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn utf8_is_negotiated_when_offered() {
    let mut client = in_memory();
    let result = client
        .initialize(
            json!({"general": {"positionEncodings": ["utf-8", "utf-16"]}}),
            json!(null),
        )
        .await;
    assert_eq!(result["capabilities"]["positionEncoding"], "utf-8");
    client
        .open(URI, 1, "# é😀\n0 -- 1 -- 2\n2 -- 2 # é\n")
        .await;
    let params = client.diagnostics_where(URI, version_is(1)).await;
    let self_loop = &params["diagnostics"][0];
    assert_eq!(
        self_loop["range"]["end"],
        json!({"line": 2, "character": 6})
    );
}

#[tokio::test]
async fn a_burst_of_edits_is_applied_in_order() {
    let mut client = started(json!(null)).await;
    client.open(URI, 0, "").await;
    // Fifty incremental edits sent back to back, each inserting an unformatted line at
    // a place that depends on the edits before it; a lost or reordered edit changes the
    // final text.
    let mut expected = String::new();
    for version in 1..=50u32 {
        let line = format!("{version}--{}\n", version + 1);
        let row = version / 2;
        let at = json!({"line": row, "character": 0});
        client
            .change(
                URI,
                version as i32,
                json!([{"range": {"start": at, "end": at}, "text": line}]),
            )
            .await;
        let offset: usize = expected
            .split_inclusive('\n')
            .take(row as usize)
            .map(str::len)
            .sum();
        expected.insert_str(offset, &line);
    }
    client.diagnostics_where(URI, version_is(50)).await;
    // The formatting edit is computed from the server's text; applied to ours, it must
    // give our text formatted.
    let edits = client
        .call(
            "textDocument/formatting",
            json!({"textDocument": {"uri": URI}, "options": {"tabSize": 2, "insertSpaces": true}}),
        )
        .await;
    let edit = &edits[0];
    let offset_of = |position: &Value| -> usize {
        let line = position["line"].as_u64().unwrap() as usize;
        let character = position["character"].as_u64().unwrap() as usize;
        expected
            .split_inclusive('\n')
            .take(line)
            .map(str::len)
            .sum::<usize>()
            + character
    };
    let (start, end) = (
        offset_of(&edit["range"]["start"]),
        offset_of(&edit["range"]["end"]),
    );
    let mut formatted = expected.clone();
    formatted.replace_range(start..end, edit["newText"].as_str().unwrap());
    assert_eq!(
        formatted,
        cmg_ide::format(&expected, &cmg_syntax::parse(&expected))
    );
}
