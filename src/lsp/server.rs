//! The `LanguageServer` implementation: document sync, scheduling of solves, and each
//! request turned into a call of an `ide` function.

use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Mutex, MutexGuard};

use serde_json::Value;
use tower_lsp_server::jsonrpc::{Error, Result};
use tower_lsp_server::ls_types::*;
use tower_lsp_server::{Client, LanguageServer};

use crate::solve::solve_cancellable;

use super::capabilities;
use super::config::Config;
use super::convert::{self, Encoding};
use super::documents::{Document, SolveJob, SolveState};
use super::handlers::{self, Snapshot, SHOW_LINE_COMMAND};

#[derive(Clone)]
pub struct Server {
    client: Client,
    state: Arc<Mutex<State>>,
    /// Held while diagnostics are computed and sent, so that they reach the client in
    /// the order they were computed and an older set never lands after a newer one.
    publish: Arc<tokio::sync::Mutex<()>>,
}

#[derive(Default)]
struct State {
    documents: HashMap<Uri, Document>,
    config: Config,
    encoding: Encoding,
    client: ClientSupport,
}

/// What the client said it can do, as far as the server cares.
#[derive(Clone, Copy, Default)]
struct ClientSupport {
    configuration: bool,
    inlay_hint_refresh: bool,
    code_lens_refresh: bool,
}

/// Runs a feature, turning a panic into an error response so the server keeps serving.
fn guarded<T>(feature: &str, f: impl FnOnce() -> T) -> Result<T> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|_| {
        let mut error = Error::internal_error();
        error.message = format!("cmg: internal error in {feature}; the server goes on").into();
        error
    })
}

impl Server {
    pub fn new(client: Client) -> Server {
        Server {
            client,
            state: Arc::default(),
            publish: Arc::default(),
        }
    }

    fn state(&self) -> MutexGuard<'_, State> {
        // A panic while the lock was held leaves plain data behind, still usable.
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn snapshot(&self, uri: &Uri) -> Option<Snapshot> {
        self.versioned_snapshot(uri)
            .map(|versioned| versioned.snapshot)
    }

    /// A snapshot with the document's version and solve state, read under one lock.
    pub(super) fn versioned_snapshot(&self, uri: &Uri) -> Option<super::scene::Versioned> {
        let state = self.state();
        let document = state.documents.get(uri)?;
        Some(super::scene::Versioned {
            version: document.version,
            solving: matches!(document.solve, SolveState::Pending { .. }),
            snapshot: Snapshot {
                uri: uri.clone(),
                rope: document.rope.clone(),
                analysis: document.analysis.clone(),
                solution: document.solution(),
                encoding: state.encoding,
                config: state.config.clone(),
            },
        })
    }

    /// Answers a request from a snapshot of `uri`: nothing for an unknown document, an
    /// error response if the feature panics.
    fn answer<T>(
        &self,
        uri: &Uri,
        feature: &str,
        f: impl FnOnce(&Snapshot) -> Option<T>,
    ) -> Result<Option<T>> {
        match self.snapshot(uri) {
            Some(snapshot) => guarded(feature, || f(&snapshot)),
            None => Ok(None),
        }
    }

    /// Sends the full diagnostic set of the document's current version.
    async fn publish_diagnostics(&self, uri: &Uri) {
        let _order = self.publish.lock().await;
        let payload = {
            let state = self.state();
            state.documents.get(uri).and_then(|document| {
                guarded("diagnostics", || {
                    let diagnostics = document
                        .diagnostics()
                        .iter()
                        .map(|d| convert::diagnostic(uri, &document.rope, state.encoding, d))
                        .collect::<Vec<_>>();
                    (diagnostics, document.version)
                })
                .ok()
            })
        };
        if let Some((diagnostics, version)) = payload {
            self.client
                .publish_diagnostics(uri.clone(), diagnostics, Some(version))
                .await;
        }
    }

    /// Runs a solve on the blocking pool; when it finishes and its version is still
    /// current, stores it, publishes the diagnostics that depend on it, and asks the
    /// client to refresh hints and lenses.
    fn spawn_solve(&self, uri: Uri, job: SolveJob) {
        let server = self.clone();
        tokio::spawn(async move {
            let game = job.game.clone();
            let cancel = job.cancel.clone();
            let solved = tokio::task::spawn_blocking(move || {
                catch_unwind(AssertUnwindSafe(|| solve_cancellable(&game, &cancel)))
            })
            .await;
            let Ok(Ok(Some(solution))) = solved else {
                return;
            };
            let (accepted, support) = {
                let mut state = server.state();
                let support = state.client;
                let accepted = state
                    .documents
                    .get_mut(&uri)
                    .is_some_and(|document| document.accept_solution(&job, solution));
                (accepted, support)
            };
            if accepted {
                server.publish_diagnostics(&uri).await;
                server.refresh_views(support).await;
            }
        });
    }

    async fn refresh_views(&self, support: ClientSupport) {
        if support.inlay_hint_refresh {
            let _ = self.client.inlay_hint_refresh().await;
        }
        if support.code_lens_refresh {
            let _ = self.client.code_lens_refresh().await;
        }
    }

    /// After the text of a document changed: publish, then solve off the request path.
    async fn after_edit(&self, uri: Uri, job: Option<SolveJob>) {
        self.publish_diagnostics(&uri).await;
        if let Some(job) = job {
            self.spawn_solve(uri, job);
        }
    }

    /// Reads the `cmg` settings from the client, where it can answer.
    async fn pull_configuration(&self) {
        if !self.state().client.configuration {
            return;
        }
        let items = vec![ConfigurationItem {
            scope_uri: None,
            section: Some("cmg".to_owned()),
        }];
        if let Ok(values) = self.client.configuration(items).await {
            if let Some(settings) = values.first() {
                self.state().config.update(settings);
            }
        }
    }

    /// Re-analyses every document (settings changed) and refreshes what the client shows.
    async fn refresh_all(&self) {
        let jobs: Vec<(Uri, Option<SolveJob>)> = {
            let mut state = self.state();
            let config = state.config.clone();
            state
                .documents
                .iter_mut()
                .map(|(uri, document)| (uri.clone(), document.refresh(&config)))
                .collect()
        };
        for (uri, job) in jobs {
            self.after_edit(uri, job).await;
        }
        let support = self.state().client;
        self.refresh_views(support).await;
    }
}

impl LanguageServer for Server {
    async fn initialize(&self, params: InitializeParams) -> Result<InitializeResult> {
        let encoding = Encoding::negotiate(
            params
                .capabilities
                .general
                .as_ref()
                .and_then(|general| general.position_encodings.as_deref()),
        );
        let workspace = params.capabilities.workspace.as_ref();
        let support = ClientSupport {
            configuration: workspace.and_then(|w| w.configuration).unwrap_or(false),
            inlay_hint_refresh: workspace
                .and_then(|w| w.inlay_hint.as_ref())
                .and_then(|c| c.refresh_support)
                .unwrap_or(false),
            code_lens_refresh: workspace
                .and_then(|w| w.code_lens.as_ref())
                .and_then(|c| c.refresh_support)
                .unwrap_or(false),
        };
        {
            let mut state = self.state();
            state.encoding = encoding;
            state.client = support;
            if let Some(options) = &params.initialization_options {
                state.config.update(options);
            }
        }
        Ok(InitializeResult {
            capabilities: capabilities::capabilities(encoding),
            server_info: Some(ServerInfo {
                name: "cmg".to_owned(),
                version: Some(env!("CARGO_PKG_VERSION").to_owned()),
            }),
            ..InitializeResult::default()
        })
    }

    async fn initialized(&self, _: InitializedParams) {
        self.pull_configuration().await;
        self.refresh_all().await;
    }

    async fn shutdown(&self) -> Result<()> {
        for document in self.state().documents.values() {
            document.cancel_solve();
        }
        Ok(())
    }

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        let uri = params.text_document.uri;
        let job = {
            let mut state = self.state();
            let config = state.config.clone();
            let mut document =
                Document::new(&params.text_document.text, params.text_document.version);
            let job = guarded("analysis", || document.refresh(&config))
                .ok()
                .flatten();
            if let Some(old) = state.documents.insert(uri.clone(), document) {
                old.cancel_solve();
            }
            job
        };
        self.after_edit(uri, job).await;
    }

    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        let uri = params.text_document.uri;
        // Every change is applied under the lock before anything awaits, so edits
        // are never reordered or lost.
        let job = {
            let mut state = self.state();
            let (config, encoding) = (state.config.clone(), state.encoding);
            let Some(document) = state.documents.get_mut(&uri) else {
                return;
            };
            for change in &params.content_changes {
                convert::apply_change(&mut document.rope, encoding, change.range, &change.text);
            }
            document.version = params.text_document.version;
            guarded("analysis", || document.refresh(&config))
                .ok()
                .flatten()
        };
        self.after_edit(uri, job).await;
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        let uri = params.text_document.uri;
        let _order = self.publish.lock().await;
        if let Some(document) = self.state().documents.remove(&uri) {
            document.cancel_solve();
        }
        self.client.publish_diagnostics(uri, Vec::new(), None).await;
    }

    async fn did_change_configuration(&self, params: DidChangeConfigurationParams) {
        if self.state().client.configuration {
            self.pull_configuration().await;
        } else {
            let settings = params
                .settings
                .get("cmg")
                .unwrap_or(&params.settings)
                .clone();
            self.state().config.update(&settings);
        }
        self.refresh_all().await;
    }

    async fn formatting(&self, params: DocumentFormattingParams) -> Result<Option<Vec<TextEdit>>> {
        self.answer(&params.text_document.uri, "formatting", |s| {
            Some(handlers::formatting(s))
        })
    }

    async fn hover(&self, params: HoverParams) -> Result<Option<Hover>> {
        let at = params.text_document_position_params;
        self.answer(&at.text_document.uri, "hover", |s| {
            handlers::hover(s, at.position)
        })
    }

    async fn inlay_hint(&self, params: InlayHintParams) -> Result<Option<Vec<InlayHint>>> {
        self.answer(&params.text_document.uri, "inlay hints", |s| {
            Some(handlers::inlay_hints(s, params.range))
        })
    }

    async fn code_lens(&self, params: CodeLensParams) -> Result<Option<Vec<CodeLens>>> {
        self.answer(&params.text_document.uri, "code lens", |s| {
            Some(handlers::code_lenses(s))
        })
    }

    async fn semantic_tokens_full(
        &self,
        params: SemanticTokensParams,
    ) -> Result<Option<SemanticTokensResult>> {
        self.answer(&params.text_document.uri, "semantic tokens", |s| {
            Some(SemanticTokensResult::Tokens(handlers::semantic_tokens(s)))
        })
    }

    async fn document_symbol(
        &self,
        params: DocumentSymbolParams,
    ) -> Result<Option<DocumentSymbolResponse>> {
        self.answer(&params.text_document.uri, "document symbols", |s| {
            Some(DocumentSymbolResponse::Nested(handlers::document_symbols(
                s,
            )))
        })
    }

    async fn folding_range(&self, params: FoldingRangeParams) -> Result<Option<Vec<FoldingRange>>> {
        self.answer(&params.text_document.uri, "folding", |s| {
            Some(handlers::folding_ranges(s))
        })
    }

    async fn code_action(&self, params: CodeActionParams) -> Result<Option<CodeActionResponse>> {
        self.answer(&params.text_document.uri, "code actions", |s| {
            Some(handlers::code_actions(s, params.range))
        })
    }

    async fn goto_definition(
        &self,
        params: GotoDefinitionParams,
    ) -> Result<Option<GotoDefinitionResponse>> {
        let at = params.text_document_position_params;
        self.answer(&at.text_document.uri, "definition", |s| {
            handlers::definition(s, at.position)
        })
    }

    async fn references(&self, params: ReferenceParams) -> Result<Option<Vec<Location>>> {
        let at = params.text_document_position;
        let include = params.context.include_declaration;
        self.answer(&at.text_document.uri, "references", |s| {
            Some(handlers::references(s, at.position, include))
        })
    }

    async fn document_highlight(
        &self,
        params: DocumentHighlightParams,
    ) -> Result<Option<Vec<DocumentHighlight>>> {
        let at = params.text_document_position_params;
        self.answer(&at.text_document.uri, "highlights", |s| {
            Some(handlers::highlights(s, at.position))
        })
    }

    async fn prepare_rename(
        &self,
        params: TextDocumentPositionParams,
    ) -> Result<Option<PrepareRenameResponse>> {
        let Some(snapshot) = self.snapshot(&params.text_document.uri) else {
            return Ok(None);
        };
        guarded("rename", || {
            handlers::prepare_rename(&snapshot, params.position)
        })?
        .map(Some)
    }

    async fn rename(&self, params: RenameParams) -> Result<Option<WorkspaceEdit>> {
        let at = params.text_document_position;
        let Some(snapshot) = self.snapshot(&at.text_document.uri) else {
            return Ok(None);
        };
        guarded("rename", || {
            handlers::rename(&snapshot, at.position, &params.new_name)
        })?
        .map(Some)
    }

    async fn completion(&self, params: CompletionParams) -> Result<Option<CompletionResponse>> {
        let at = params.text_document_position;
        self.answer(&at.text_document.uri, "completion", |s| {
            Some(CompletionResponse::Array(handlers::completions(
                s,
                at.position,
            )))
        })
    }

    async fn execute_command(&self, params: ExecuteCommandParams) -> Result<Option<Value>> {
        if params.command != SHOW_LINE_COMMAND {
            return Err(Error::invalid_params(format!(
                "unknown command {}",
                params.command
            )));
        }
        let text = params
            .arguments
            .first()
            .and_then(|argument| argument.get("text"))
            .and_then(Value::as_str)
            .unwrap_or("no optimal line")
            .to_owned();
        self.client.show_message(MessageType::INFO, text).await;
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panicking_feature_becomes_an_error_response() {
        let result: Result<()> = guarded("hover", || panic!("boom"));
        let error = result.unwrap_err();
        assert_eq!(
            error.code,
            tower_lsp_server::jsonrpc::ErrorCode::InternalError
        );
        assert!(error.message.contains("hover"));
        assert_eq!(guarded("hover", || 7).unwrap(), 7);
    }
}
