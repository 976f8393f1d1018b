//! A seeded random editing session against the server, through real framing: edits of
//! every kind (ASCII, non-ASCII, astral characters, CRLF and lone CR, pasted hostile
//! blocks) mixed with every request. After each batch the published diagnostics must be
//! those of a fresh analysis of the client's copy of the text, and the semantic-token
//! delta must rebuild the full set. A few thousand steps run in `cargo test`; with
//! `CMG_SOAK=1`, at least 100 000 (CI runs that).

use cmg_lsp::test_client::{
    char_boundary, diagnostics_view, expected_diagnostics, in_memory, utf16_position,
};
use serde_json::{json, Value};

const URI: &str = "file:///soak/graph.cmg";

/// The steps of one run: a short session normally, a soak under `CMG_SOAK`.
fn steps() -> usize {
    if std::env::var_os("CMG_SOAK").is_some() {
        100_000
    } else {
        2_000
    }
}

/// The tests' seeded generator, so a failure replays exactly; indices as `usize`.
struct Rng(cmg_solve::test_rng::XorShift);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0.below(n) as usize
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

/// Short things a person types.
const TYPED: &[&str] = &[
    "",
    "0",
    "1",
    "2",
    "7",
    " -- ",
    "--",
    "1 -- 2",
    "0 -- 1 -- 2\n",
    "\n",
    "{",
    "}",
    "[",
    "]",
    ",",
    "# c",
    "node 3 \"x\"",
    "expect mouse\n",
    "expect cat\n",
    "expect draw\n",
    "é",
    "日本",
    "😀",
    "𝄞",
    "\r\n",
    "\r",
    "\t",
    ";",
    "\"",
    "99999999999999999999",
];

/// What a person pastes by mistake, or on purpose.
fn hostile(rng: &mut Rng) -> String {
    match rng.below(6) {
        0 => {
            // A group product that repeats its own pairs.
            let members: Vec<String> = (3..3 + rng.below(60)).map(|n| n.to_string()).collect();
            let group = members.join(" ");
            format!("{{{group}}} -- {{{group}}}\n")
        }
        1 => {
            // One long line of repeated edges.
            let ids: Vec<String> = (0..300).map(|i| (i % 40).to_string()).collect();
            format!("{}\n", ids.join(" -- "))
        }
        2 => {
            // An adjacency literal, CRLF between rows.
            let rows: Vec<String> = (0..30)
                .map(|i| format!("[{},{}]", (i + 1) % 30, (i + 29) % 30))
                .collect();
            format!("[{}]\r\n", rows.join(",\r\n"))
        }
        3 => "[[[[{{{{ -- -- }}}}]]]]\n".repeat(5),
        4 => {
            // Comment lines inside brackets.
            let mut block = String::from("{\n");
            for i in 0..50 {
                block.push_str(&format!("# é😀 {i}\n{i}\n"));
            }
            block.push_str("} -- 1\n");
            block
        }
        _ => "node 0 \"hole 😀\"\r\nnode 1 \"mouse\"\rnode 2 \"cat é\"\n0 -- 1 -- 2\n".to_owned(),
    }
}

fn position(text: &str, offset: usize) -> Value {
    let (line, character) = utf16_position(text, offset);
    json!({"line": line, "character": character})
}

/// A random request about the text the client holds; the answer is checked to be a
/// well-formed response and not an internal error.
fn random_request(rng: &mut Rng, text: &str) -> (&'static str, Value) {
    let at = position(text, char_boundary(text, rng.below(text.len() + 1)));
    let end = position(text, char_boundary(text, rng.below(text.len() + 1)));
    let document = json!({"uri": URI});
    let whole =
        json!({"start": {"line": 0, "character": 0}, "end": {"line": 100000, "character": 0}});
    let methods = [
        "textDocument/hover",
        "textDocument/completion",
        "textDocument/definition",
        "textDocument/references",
        "textDocument/documentHighlight",
        "textDocument/prepareRename",
        "textDocument/rename",
        "textDocument/inlayHint",
        "textDocument/codeLens",
        "textDocument/codeAction",
        "textDocument/semanticTokens/full",
        "textDocument/semanticTokens/range",
        "textDocument/documentSymbol",
        "textDocument/foldingRange",
        "textDocument/formatting",
    ];
    let method = methods[rng.below(methods.len())];
    let params = match method {
        "textDocument/references" => {
            json!({"textDocument": document, "position": at, "context": {"includeDeclaration": true}})
        }
        "textDocument/rename" => {
            json!({"textDocument": document, "position": at, "newName": "42"})
        }
        "textDocument/inlayHint" => json!({"textDocument": document, "range": whole}),
        "textDocument/codeAction" => {
            json!({"textDocument": document, "range": {"start": at, "end": end}, "context": {"diagnostics": []}})
        }
        "textDocument/semanticTokens/range" => {
            json!({"textDocument": document, "range": whole})
        }
        "textDocument/codeLens"
        | "textDocument/semanticTokens/full"
        | "textDocument/documentSymbol"
        | "textDocument/foldingRange" => json!({"textDocument": document}),
        "textDocument/formatting" => {
            json!({"textDocument": document, "options": {"tabSize": 2, "insertSpaces": true}})
        }
        _ => json!({"textDocument": document, "position": at}),
    };
    (method, params)
}

/// `ContentModified` (the text changed under the request) and a refused rename are
/// answers; anything else that is an error is a bug.
fn check_response(method: &str, response: &Value) {
    if let Some(error) = response.get("error") {
        let code = error["code"].as_i64().unwrap_or_default();
        let refused =
            code == -32803 && (method.contains("ename") || method == "codeAction/resolve");
        assert!(code == -32801 || refused, "{method} failed: {response}");
    }
}

/// Resolves the first few actions listed (the client supports resolve, so they come
/// without edits): each gets its edit, or is refused as no longer applying; one that
/// runs a command comes back as it was. Returns how many got their edit.
async fn resolve_actions(
    client: &mut cmg_lsp::test_client::InMemoryClient,
    listed: &Value,
) -> usize {
    let mut resolved = 0;
    let actions = listed["result"].as_array().cloned().unwrap_or_default();
    for action in actions.into_iter().take(3) {
        assert!(action.get("edit").is_none(), "{action}");
        let runs_a_command = action.get("command").is_some();
        let response = client.request("codeAction/resolve", action.clone()).await;
        check_response("codeAction/resolve", &response);
        if runs_a_command {
            // "Find a longer game" runs a command: it comes back as it was.
            assert_eq!(response["result"], action, "{response}");
        } else if response.get("error").is_none() {
            assert!(
                response["result"]["edit"]["changes"].is_object(),
                "{response}"
            );
            resolved += 1;
        }
    }
    resolved
}

/// Applies a semantic-tokens delta to the integers last received.
fn apply_token_edits(data: &mut Vec<Value>, edits: &[Value]) {
    for edit in edits.iter().rev() {
        let start = edit["start"].as_u64().unwrap() as usize;
        let deleted = edit["deleteCount"].as_u64().unwrap() as usize;
        let inserted = edit["data"].as_array().cloned().unwrap_or_default();
        data.splice(start..start + deleted, inserted);
    }
}

#[test]
fn a_random_editing_session_keeps_the_server_in_step() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(session(0x5eed_cafe_f00d_0001, steps()));
}

async fn session(seed: u64, steps: usize) {
    let mut rng = Rng(cmg_solve::test_rng::XorShift(seed));
    let settings = json!({"diagnostics": {"max": 50}});
    let mut client = in_memory();
    client
        .initialize(
            json!({
                "workspace": {"inlayHint": {"refreshSupport": true}, "codeLens": {"refreshSupport": true}},
                "textDocument": {"codeAction": {"dataSupport": true, "resolveSupport": {"properties": ["edit"]}}}
            }),
            settings.clone(),
        )
        .await;
    let mut text = String::from("# é😀\r\n0 -- 1 -- 2\nexpect cat\n");
    let mut version = 1i64;
    client.open(URI, version as i32, &text).await;
    let mut step = 0;
    let mut tokens: Option<(String, Vec<Value>)> = None;
    let mut checked = 0;
    let mut resolved = 0;
    while step < steps {
        // One batch: a few notifications of edits, with requests in between.
        let batch = 1 + rng.below(24);
        for _ in 0..batch {
            step += 1;
            if rng.below(3) == 0 {
                let (method, params) = random_request(&mut rng, &text);
                let response = client.request(method, params).await;
                check_response(method, &response);
                if method == "textDocument/codeAction" {
                    resolved += resolve_actions(&mut client, &response).await;
                }
                continue;
            }
            let mut changes = Vec::new();
            for _ in 0..1 + rng.below(3) {
                if text.len() > 20_000 || rng.below(400) == 0 {
                    // Start again from a small file, as after "select all, paste".
                    text = String::from("0 -- 1 -- 2 -- 3\r\nexpect mouse\n");
                    changes.push(json!({"text": text}));
                    continue;
                }
                let start = char_boundary(&text, rng.below(text.len() + 1));
                let end = char_boundary(&text, start + rng.below(8));
                let insert = if rng.below(25) == 0 {
                    hostile(&mut rng)
                } else {
                    rng.pick(TYPED).to_owned()
                };
                changes.push(json!({"range": {"start": position(&text, start), "end": position(&text, end)}, "text": insert}));
                text.replace_range(start..end, &insert);
            }
            version += 1;
            client.change(URI, version as i32, json!(changes)).await;
        }
        // A batch of requests alone leaves the version, already checked, alone.
        if version != checked {
            check_batch(&mut client, version, &text, &settings).await;
            checked = version;
        }
        tokens = Some(check_token_delta(&mut client, tokens.take()).await);
    }
    assert!(resolved > 0, "no code action was resolved in {steps} steps");
}

/// The publications for the last version are a fresh analysis of the client's text,
/// before or after its solve, and the one after the solve arrives; none is larger than
/// the bound on one publication.
async fn check_batch(
    client: &mut cmg_lsp::test_client::InMemoryClient,
    version: i64,
    text: &str,
    settings: &Value,
) {
    let [unsolved, solved] = expected_diagnostics(URI, text, settings);
    let wait = client.diagnostics_where(URI, |p| {
        p["version"] == version && diagnostics_view(&p["diagnostics"]) == solved
    });
    if tokio::time::timeout(std::time::Duration::from_secs(10), wait)
        .await
        .is_err()
    {
        let last = client.published(URI).pop();
        let logs: Vec<&Value> = client
            .notifications
            .iter()
            .filter(|n| n["method"] == "window/logMessage")
            .collect();
        panic!("no publication of version {version} matches\ntext {text:?}\nlast {last:?}\nlogs {logs:?}\nexpected {solved}");
    }
    for params in client.published(URI) {
        let published = params["version"].as_i64().unwrap();
        assert!(published <= version, "a version from the future: {params}");
        assert!(
            params.to_string().len() < 2 << 20,
            "a publication over 2 MB"
        );
        if published == version {
            let diagnostics = &diagnostics_view(&params["diagnostics"]);
            assert!(
                *diagnostics == unsolved || *diagnostics == solved,
                "text {text:?}\npublished {diagnostics}\nexpected {solved}"
            );
        }
    }
    client.notifications.clear();
}

/// Asks for a delta against the tokens last received and checks that, applied to them,
/// it gives what a full request gives now. Returns the tokens and id to go on from.
async fn check_token_delta(
    client: &mut cmg_lsp::test_client::InMemoryClient,
    previous: Option<(String, Vec<Value>)>,
) -> (String, Vec<Value>) {
    let document = json!({"textDocument": {"uri": URI}});
    let full = |result: &Value| -> (String, Vec<Value>) {
        (
            result["resultId"].as_str().unwrap().to_owned(),
            result["data"].as_array().unwrap().clone(),
        )
    };
    let Some((id, mut data)) = previous else {
        return full(
            &client
                .call("textDocument/semanticTokens/full", document)
                .await,
        );
    };
    let delta = client
        .call(
            "textDocument/semanticTokens/full/delta",
            json!({"textDocument": {"uri": URI}, "previousResultId": id}),
        )
        .await;
    let fresh = client
        .call("textDocument/semanticTokens/full", document)
        .await;
    match delta.get("edits") {
        Some(edits) => apply_token_edits(&mut data, edits.as_array().unwrap()),
        None => data = delta["data"].as_array().unwrap().clone(),
    }
    assert_eq!(
        data,
        *fresh["data"].as_array().unwrap(),
        "the delta does not rebuild the tokens"
    );
    full(&fresh)
}
