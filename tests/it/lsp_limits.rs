//! The server on large and hostile input: publications and answers stay bounded and
//! say what they left out, documents above the size limit are not analysed, and a
//! slow analysis never holds up requests about other documents.

use cmg_lsp::test_client::{codes, in_memory, InMemoryClient};
use serde_json::{json, Value};

const URI: &str = "file:///limits/graph.cmg";

async fn started(options: Value) -> InMemoryClient {
    let mut client = in_memory();
    client.initialize(json!({}), options).await;
    client
}

/// `count` edge statements `0 -- 1`, `1 -- 2`, ... with ids taken modulo `modulo`:
/// every statement after the first round repeats an edge, so the file has
/// `count - modulo` `duplicate-edge` warnings.
fn repeated_edges(count: usize, modulo: usize) -> String {
    (0..count)
        .map(|i| format!("{} -- {}\n", i % modulo, (i + 1) % modulo))
        .collect()
}

#[tokio::test]
async fn a_file_with_thousands_of_diagnostics_publishes_the_first_ones_and_a_count() {
    let mut client = started(json!({"diagnostics": {"max": 100}})).await;
    let text = repeated_edges(3000, 50);
    client.open(URI, 1, &text).await;
    let params = client.diagnostics_where(URI, |p| p["version"] == 1).await;
    let diagnostics = params["diagnostics"].as_array().unwrap();
    assert_eq!(diagnostics.len(), 101, "100 and the count");
    assert!(codes(&json!({"diagnostics": diagnostics[..100]}))
        .iter()
        .all(|code| code == "duplicate-edge"));
    let summary = diagnostics[100]["message"].as_str().unwrap();
    assert!(
        summary.starts_with("2850 more diagnostics are not shown (2850 duplicate-edge)"),
        "{summary}"
    );
    // The summary sits at the first diagnostic left out, after the last one shown.
    let start = |d: &Value| {
        let start = &d["range"]["start"];
        (start["line"].as_u64(), start["character"].as_u64())
    };
    assert!(start(&diagnostics[100]) >= start(&diagnostics[99]));
    // The whole publication stays small: well under 2 MB.
    assert!(params.to_string().len() < 100_000);
}

#[tokio::test]
async fn every_diagnostic_is_published_when_the_limit_is_zero() {
    let mut client = started(json!({"diagnostics": {"max": 0}})).await;
    client.open(URI, 1, &repeated_edges(1500, 50)).await;
    let params = client.diagnostics_where(URI, |p| p["version"] == 1).await;
    assert_eq!(params["diagnostics"].as_array().unwrap().len(), 1450);
}

/// The message of the one diagnostic of version 1, which must be `too-large`.
async fn only_too_large(client: &mut InMemoryClient) -> String {
    let params = client.diagnostics_where(URI, |p| p["version"] == 1).await;
    assert_eq!(codes(&params), ["too-large"]);
    params["diagnostics"][0]["message"]
        .as_str()
        .unwrap()
        .to_owned()
}

#[tokio::test]
async fn a_document_above_the_size_limit_gets_one_diagnostic_and_nothing_else() {
    let mut client = started(json!({"analysis": {"maxDocumentBytes": 1000}})).await;
    let text = repeated_edges(500, 50);
    assert!(text.len() > 1000);
    client.open(URI, 1, &text).await;
    let message = only_too_large(&mut client).await;
    assert!(
        message.contains("above the analysis limit of 1000 bytes"),
        "{message}"
    );
    let hover = client.call_at("textDocument/hover", URI, 0, 0).await;
    assert_eq!(hover, Value::Null);
    let symbols = client.call_on("textDocument/documentSymbol", URI).await;
    assert_eq!(symbols, Value::Null);
}

#[tokio::test]
async fn a_graph_above_the_memory_budget_is_not_solved_and_the_message_says_why() {
    // The analysis of this chain fits in 1 MiB; its solve (about 2 MiB) does not.
    let mut client = started(json!({"solver": {"maxMemoryMiB": 1}})).await;
    let chain: Vec<String> = (0..500).map(|id| id.to_string()).collect();
    client
        .open(URI, 1, &format!("{}\nexpect cat\n", chain.join(" -- ")))
        .await;
    let message = only_too_large(&mut client).await;
    // The budget is the server's setting, so the message names it (not `--max-memory`).
    assert!(
        message.ends_with("above the memory budget of 1 MiB, so the outcome is not computed: raise the setting `cmg.solver.maxMemoryMiB`, or run `cmg solve`"),
        "{message}"
    );
}

#[tokio::test]
async fn symbols_and_tokens_of_a_huge_file_are_bounded() {
    let mut client = started(json!({"diagnostics": {"max": 10}})).await;
    // 12 000 statements, 24 000 numbers and 12 000 operators.
    let text: String = (0..12_000)
        .map(|i| format!("{} -- {}\n", i, i + 1))
        .collect();
    client.open(URI, 1, &text).await;
    client.diagnostics_where(URI, |p| p["version"] == 1).await;
    let symbols = client.call_on("textDocument/documentSymbol", URI).await;
    assert_eq!(symbols.as_array().unwrap().len(), 10_000);
    let tokens = client
        .call_on("textDocument/semanticTokens/full", URI)
        .await;
    assert_eq!(tokens["data"].as_array().unwrap().len(), 5 * 36_000);
    // A range asks for what is visible, and gets only that.
    let visible = client
        .call("textDocument/semanticTokens/range", json!({"textDocument": {"uri": URI}, "range": {"start": {"line": 100, "character": 0}, "end": {"line": 110, "character": 0}}}))
        .await;
    let data = visible["data"].as_array().unwrap();
    assert_eq!(data.len(), 5 * 30, "three tokens on each of ten lines");
    assert_eq!(data[0], 100, "relative to the start of the file");
}

/// A request about a file whose analysis is slow waits for that analysis (it is
/// answered from exactly the text it refers to), and
/// requests about other files are answered meanwhile. Which one the client sees first
/// depends on the machine; the order within the slow file does not. The scheduler's
/// tests check the same rules deterministically, event by event.
#[tokio::test]
async fn a_slow_analysis_does_not_hold_up_requests() {
    let mut client = started(json!(null)).await;
    let small = "file:///limits/small.cmg";
    client.open(small, 1, "0 -- 1 -- 2\n").await;
    client.diagnostics_where(small, |p| p["version"] == 1).await;
    // A large file (3 MB) whose analysis takes about a second in a test build.
    let large: String = (0..200_000)
        .map(|i| format!("{} -- {}\n", i % 3000, (i * 7) % 3000))
        .collect();
    client.open(URI, 1, &large).await;
    let outline = client
        .send_request(
            "textDocument/documentSymbol",
            json!({"textDocument": {"uri": URI}}),
        )
        .await;
    // A request about another file is answered meanwhile.
    let hover = client.call_at("textDocument/hover", small, 0, 5).await;
    assert!(hover["contents"]["value"]
        .as_str()
        .unwrap()
        .contains("node 1"));
    // Its graph is solved, so its first publication waits a moment for the solve and
    // the requests don't wait with it.
    let symbols = client.response_to(outline).await;
    assert_eq!(
        symbols["result"].as_array().unwrap().len(),
        3000,
        "{symbols}"
    );
    client.diagnostics_where(URI, |p| p["version"] == 1).await;
}

/// a 2 MB line of `\x01`, or a file tail of NUL bytes, was one 12 MB
/// publication, since the syntax error quoted the whole token. The message now quotes
/// at most 40 characters, escaped.
#[tokio::test]
async fn a_huge_unknown_token_is_quoted_short_and_escaped_in_the_publication() {
    let mut client = started(json!({})).await;
    for (version, fill) in [(1, "\u{1}"), (2, "\u{0}")] {
        let text = format!("0 -- 1 -- 2\n{}", fill.repeat(200_000));
        if version == 1 {
            client.open(URI, version, &text).await;
        } else {
            client.change(URI, version, json!([{"text": text}])).await;
        }
        let params = client
            .diagnostics_where(URI, |p| p["version"] == version)
            .await;
        assert!(
            params.to_string().len() < 2000,
            "{} bytes",
            params.to_string().len()
        );
        let message = params["diagnostics"][0]["message"].as_str().unwrap();
        assert!(
            message.contains("\\u{") && message.contains('…'),
            "{message}"
        );
        assert!(!message.chars().any(char::is_control), "{message:?}");
    }
}
