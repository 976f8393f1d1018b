//! A small LSP client for the tests and benchmarks: real `Content-Length` framing over
//! any byte stream, answers to the server's own requests, and waits with time limits so
//! a broken server fails a test instead of hanging it. It panics on protocol errors,
//! which is what a test wants.

use std::time::Duration;

use serde_json::{json, Value};
use tokio::io::{
    AsyncBufReadExt, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader, DuplexStream, ReadHalf,
    WriteHalf,
};

pub const TIMEOUT: Duration = Duration::from_secs(20);

/// A client talking to a server over an in-memory pipe, as a test or benchmark uses it.
pub type InMemoryClient = LspClient<ReadHalf<DuplexStream>, WriteHalf<DuplexStream>>;

/// Starts a server on a tokio task, behind one end of an in-memory pipe with real
/// framing (through the same frame checks as `cmg lsp`), and returns a client on the other end. Needs a running tokio runtime.
pub fn in_memory() -> InMemoryClient {
    let (client_end, server_end) = tokio::io::duplex(1 << 22);
    let (server_read, server_write) = tokio::io::split(server_end);
    tokio::spawn(super::lifecycle::serve(server_read, server_write));
    let (client_read, client_write) = tokio::io::split(client_end);
    LspClient::new(client_read, client_write)
}

pub struct LspClient<R, W> {
    reader: BufReader<R>,
    writer: W,
    next_id: i64,
    /// Notifications from the server, in order of arrival.
    pub notifications: Vec<Value>,
    /// Responses to requests sent with [`LspClient::send_request`] that arrived while
    /// the client waited for something else.
    responses: Vec<Value>,
    /// What `workspace/configuration` answers for the `cmg` section.
    pub settings: Value,
    /// The server's own requests (`workspace/diagnostic/refresh`, ...), in order of
    /// arrival; each was answered.
    pub server_requests: Vec<Value>,
}

impl<R: tokio::io::AsyncRead + Unpin, W: AsyncWrite + Unpin> LspClient<R, W> {
    pub fn new(reader: R, writer: W) -> Self {
        LspClient {
            reader: BufReader::new(reader),
            writer,
            next_id: 1,
            notifications: Vec::new(),
            responses: Vec::new(),
            settings: json!({}),
            server_requests: Vec::new(),
        }
    }

    pub async fn send(&mut self, message: Value) {
        let body = serde_json::to_string(&message).unwrap();
        let frame = format!("Content-Length: {}\r\n\r\n{body}", body.len());
        self.writer.write_all(frame.as_bytes()).await.unwrap();
        self.writer.flush().await.unwrap();
    }

    /// Writes `bytes` as they are, framing and all: for tests of broken frames.
    pub async fn send_raw(&mut self, bytes: &[u8]) {
        self.writer.write_all(bytes).await.unwrap();
        self.writer.flush().await.unwrap();
    }

    /// The next message, or `None` at end of stream.
    pub async fn receive(&mut self) -> Option<Value> {
        tokio::time::timeout(TIMEOUT, self.receive_inner())
            .await
            .expect("the server did not answer in time")
    }

    async fn receive_inner(&mut self) -> Option<Value> {
        let mut length = None;
        loop {
            let mut line = String::new();
            if self.reader.read_line(&mut line).await.ok()? == 0 {
                return None;
            }
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some(value) = line.strip_prefix("Content-Length: ") {
                length = Some(value.parse::<usize>().unwrap());
            }
        }
        let mut body = vec![0; length.expect("a frame without Content-Length")];
        self.reader.read_exact(&mut body).await.ok()?;
        Some(serde_json::from_slice(&body).unwrap())
    }

    /// Handles one incoming message: answers server requests, keeps notifications.
    /// Returns responses to our own requests.
    async fn dispatch(&mut self, message: Value) -> Option<Value> {
        match (message.get("id"), message.get("method")) {
            (Some(id), Some(method)) => {
                let result = match method.as_str() {
                    Some("workspace/configuration") => json!([self.settings.clone()]),
                    // An editor applies the edits it is sent.
                    Some("workspace/applyEdit") => json!({"applied": true}),
                    _ => Value::Null,
                };
                let id = id.clone();
                self.server_requests.push(message.clone());
                self.send(json!({"jsonrpc": "2.0", "id": id, "result": result}))
                    .await;
                None
            }
            (None, Some(_)) => {
                self.notifications.push(message);
                None
            }
            _ => Some(message),
        }
    }

    /// Sends a request and waits for its response (the whole response object).
    pub async fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.send_request(method, params).await;
        self.response_to(id).await
    }

    /// Sends a request without waiting for its response; returns its id, for
    /// [`LspClient::response_to`].
    pub async fn send_request(&mut self, method: &str, params: Value) -> i64 {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .await;
        id
    }

    /// Waits for the response to request `id` (the whole response object).
    pub async fn response_to(&mut self, id: i64) -> Value {
        if let Some(at) = self.responses.iter().position(|r| r["id"] == json!(id)) {
            return self.responses.remove(at);
        }
        loop {
            let message = self.receive().await.expect("the server closed the stream");
            if let Some(response) = self.dispatch(message).await {
                if response["id"] == json!(id) {
                    return response;
                }
                self.responses.push(response);
            }
        }
    }

    /// Sends a request and returns its `result`, failing on an error response.
    pub async fn call(&mut self, method: &str, params: Value) -> Value {
        let response = self.request(method, params).await;
        assert!(
            response.get("error").is_none(),
            "{method} failed: {response}"
        );
        response["result"].clone()
    }

    /// [`call`](Self::call) for a request whose only parameter is the document `uri`.
    pub async fn call_on(&mut self, method: &str, uri: &str) -> Value {
        self.call(method, json!({"textDocument": {"uri": uri}}))
            .await
    }

    /// [`call`](Self::call) for a request at a position of the document `uri`, such as
    /// a hover.
    pub async fn call_at(&mut self, method: &str, uri: &str, line: u32, character: u32) -> Value {
        self.call(
            method,
            json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": character}}),
        )
        .await
    }

    pub async fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}))
            .await;
    }

    pub async fn initialize(&mut self, capabilities: Value, options: Value) -> Value {
        let result = self
            .call(
                "initialize",
                json!({"processId": null, "rootUri": null, "capabilities": capabilities, "initializationOptions": options}),
            )
            .await;
        self.notify("initialized", json!({})).await;
        result
    }

    pub async fn open(&mut self, uri: &str, version: i32, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "cmg", "version": version, "text": text}}),
        )
        .await;
    }

    pub async fn change(&mut self, uri: &str, version: i32, changes: Value) {
        self.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": changes}),
        )
        .await;
    }

    /// Waits for a `publishDiagnostics` for `uri` that satisfies `accept`, and returns
    /// its params. Earlier ones stay in `notifications`.
    pub async fn diagnostics_where(&mut self, uri: &str, accept: impl Fn(&Value) -> bool) -> Value {
        self.notification_where("textDocument/publishDiagnostics", |params| {
            params["uri"] == uri && accept(params)
        })
        .await
    }

    /// Waits for a notification `method` whose params satisfy `accept` (one already
    /// received counts), and returns its params.
    pub async fn notification_where(
        &mut self,
        method: &str,
        accept: impl Fn(&Value) -> bool,
    ) -> Value {
        let matches = |n: &Value| n["method"] == method && accept(&n["params"]);
        if let Some(found) = self.notifications.iter().find(|n| matches(n)) {
            return found["params"].clone();
        }
        loop {
            let message = self.receive().await.expect("the server closed the stream");
            if let Some(response) = self.dispatch(message).await {
                self.responses.push(response);
            }
            if let Some(last) = self.notifications.last() {
                if matches(last) {
                    return last["params"].clone();
                }
            }
        }
    }

    /// Reads messages until the server has sent a request `method`, and returns how
    /// many it has sent so far.
    pub async fn server_request(&mut self, method: &str) -> usize {
        let count = |client: &Self| {
            client
                .server_requests
                .iter()
                .filter(|r| r["method"] == method)
                .count()
        };
        while count(self) == 0 {
            let message = self.receive().await.expect("the server closed the stream");
            if let Some(response) = self.dispatch(message).await {
                self.responses.push(response);
            }
        }
        count(self)
    }

    /// Every `publishDiagnostics` for `uri` received so far.
    pub fn published(&self, uri: &str) -> Vec<Value> {
        self.notifications
            .iter()
            .filter(|n| {
                n["method"] == "textDocument/publishDiagnostics" && n["params"]["uri"] == uri
            })
            .map(|n| n["params"].clone())
            .collect()
    }
}

/// The codes of a `publishDiagnostics` params object.
/// The first item of the list `items` that `wanted` accepts; without one, a panic that
/// names `what` and shows the list.
pub fn find_item<'a>(items: &'a Value, what: &str, wanted: impl Fn(&Value) -> bool) -> &'a Value {
    items
        .as_array()
        .unwrap_or_else(|| panic!("not a list: {items}"))
        .iter()
        .find(|item| wanted(item))
        .unwrap_or_else(|| panic!("no {what} in {items}"))
}

pub fn codes(params: &Value) -> Vec<String> {
    params["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap().to_owned())
        .collect()
}

/// The UTF-16 position of byte `offset` of `text`, as a client computes it (`\r`,
/// `\r\n` and `\n` all end lines).
pub fn utf16_position(text: &str, offset: usize) -> (u32, u32) {
    let index = cmg_syntax::LineIndex::new(text);
    let line = index.line_col(offset as u32).line;
    let line_start = index.line_range(line).unwrap().start as usize;
    (line, text[line_start..offset].encode_utf16().count() as u32)
}

/// A byte offset a client can address, at or before `offset`: on a character boundary,
/// and not between the `\r` and `\n` of one line break (no position names that place).
pub fn char_boundary(text: &str, offset: usize) -> usize {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    if offset > 0 && text[..offset].ends_with('\r') && text[offset..].starts_with('\n') {
        offset -= 1;
    }
    offset
}

/// What the server must publish for `text` under `settings`, as [`diagnostics_view`]
/// shows a publication: before its solve lands, and once it has. This is an oracle
/// independent of the server: the analysis and the solve are done afresh with
/// `cmg_core` and `cmg_solve`, as `cmg check --json` does them, with the server's
/// limits; positions come from `cmg_syntax`'s line index in UTF-16; the cap and its
/// "N more" diagnostic follow the documented rule (the first `cmg.diagnostics.max`,
/// then one at the first left out, with the most severe of their severities), written
/// here again on purpose rather than taken from the server.
pub fn expected_diagnostics(_uri: &str, text: &str, settings: &Value) -> [Value; 2] {
    use cmg_core::analysis::{Analysis, MemorySetting, SolveLimits, SolvePlan};
    use cmg_core::model::{Diagnostic, Severity};
    use cmg_syntax::{ColumnUnit, LineIndex};

    // The settings' names and defaults have one home, the server's `Config`.
    let mut config = super::config::Config::default();
    config.update(settings);
    assert!(
        text.len() <= config.max_document_bytes,
        "the oracle covers analysed documents"
    );
    let analysis = Analysis::new(text.to_owned());
    let limits = SolveLimits {
        max_nodes: Some(config.max_nodes),
        max_memory: Some(config.solver_memory_budget()),
        memory_setting: MemorySetting::ServerSetting,
    };
    let (too_large, solution) = match analysis.solve_plan(limits) {
        SolvePlan::TooLarge(too_large) => (Some(too_large), None),
        SolvePlan::Solve(game) => (None, Some(cmg_solve::solve(&game))),
        SolvePlan::NoGame => (None, None),
    };
    let index = LineIndex::new(text);
    let range = |range: cmg_syntax::TextRange| {
        let start = index.column(range.start, ColumnUnit::Utf16);
        let end = index.column(range.end, ColumnUnit::Utf16);
        json!([start.line, start.col, end.line, end.col])
    };
    let severity = |severity: Severity| match severity {
        Severity::Error => 1,
        Severity::Warning => 2,
        Severity::Information => 3,
        Severity::Hint => 4,
    };
    let max = config.max_diagnostics;
    let view = |set: Vec<Diagnostic>| {
        let shown = if max == 0 {
            set.len()
        } else {
            max.min(set.len())
        };
        let mut view: Vec<Value> = set[..shown]
            .iter()
            .map(|d| {
                json!({"range": range(d.range), "severity": severity(d.severity()),
                    "code": d.code.as_str(), "message": analysis.message(d)})
            })
            .collect();
        let hidden = &set[shown..];
        if let Some(first) = hidden.first() {
            let worst = hidden.iter().map(|d| severity(d.severity())).min();
            view.push(
                json!({"range": range(first.range), "severity": worst, "code": null,
                "message": format!("{} more diagnostics are not shown", hidden.len())}),
            );
        }
        Value::Array(view)
    };
    [
        view(analysis.diagnostics_with(None, too_large.as_ref())),
        view(analysis.diagnostics_with(solution.as_ref(), too_large.as_ref())),
    ]
}

/// A publication's `diagnostics` as [`expected_diagnostics`] describes them: range,
/// severity, code and message of each (the "N more" one's message up to its list of
/// codes).
pub fn diagnostics_view(diagnostics: &Value) -> Value {
    let Some(list) = diagnostics.as_array() else {
        return Value::Null;
    };
    let view = list
        .iter()
        .map(|d| {
            let at = |end: &str, what: &str| d["range"][end][what].clone();
            let message = d["message"].as_str().unwrap_or_default();
            let message = if d["code"].is_null() {
                message.split(" (").next().unwrap_or_default()
            } else {
                message
            };
            json!({
                "range": [at("start", "line"), at("start", "character"), at("end", "line"), at("end", "character")],
                "severity": d["severity"], "code": d["code"], "message": message,
            })
        })
        .collect();
    Value::Array(view)
}
