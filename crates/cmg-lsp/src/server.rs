//! The `LanguageServer` implementation, as dispatch only: each notification becomes an
//! event of the server's loop ([`super::event_loop`]), and each request goes to its
//! handler in `requests/` (or `scene`, `workspace`) with the [`Context`], which asks the
//! loop for the snapshot of its text and runs the `ide` function on the blocking pool.
//! No handler holds state, and none waits for the client.

use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use serde_json::Value;
use tokio::sync::Notify;
use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::*;
use tower_lsp_server::{Client, LanguageServer};

use super::client::{ask_client, ClientSupport};
use super::context::Context;
use super::convert::Encoding;
use super::requests;
use super::scene::{self, Layouts, SceneParams, SceneResponse, SliceParams, SliceResponse};
use super::scheduler::Event;
use super::workspace;

/// How often the client's process is checked for life.
const PARENT_POLL: Duration = Duration::from_millis(250);

#[derive(Clone)]
pub struct Server {
    /// What the requests' handlers use.
    pub(crate) context: Context,
    config_pulls: Arc<Mutex<ConfigPulls>>,
    /// Woken when the process should end: the client's process is gone.
    exit: Arc<Notify>,
    /// The workspace folders, for `workspace/diagnostic`.
    folders: Arc<Mutex<Vec<PathBuf>>>,
    /// What `workspace/diagnostic` last read of each closed file.
    stamps: Arc<Mutex<workspace::Stamps>>,
    /// The game view's layouts, one at a time per document.
    layouts: Arc<Layouts>,
}

/// The `workspace/configuration` requests asked and the newest one applied.
#[derive(Clone, Copy, Default)]
struct ConfigPulls {
    asked: u64,
    applied: u64,
}

/// Whether process `pid` runs; a zombie (dead, not yet reaped) counts as gone.
fn process_alive(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        // The state follows the command name, which is in parentheses and may hold any
        // character, so it is read after the last `)`.
        Ok(stat) => stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().next())
            .is_none_or(|state| state != "Z" && state != "X"),
        Err(_) => false,
    }
}

impl Server {
    pub fn new(client: Client) -> Server {
        Server::with_exit(client, Arc::default())
    }

    /// A server that wakes `exit` when the process should end without waiting for the
    /// client (its process died). Starts the server's loop: needs a running runtime.
    pub fn with_exit(client: Client, exit: Arc<Notify>) -> Server {
        Server {
            context: Context::start(client),
            config_pulls: Arc::default(),
            exit,
            folders: Arc::default(),
            stamps: Arc::default(),
            layouts: Arc::default(),
        }
    }

    /// `cmg/scene` ([`scene::handle_scene`]).
    pub(super) async fn scene(&self, params: SceneParams) -> Result<Option<SceneResponse>> {
        scene::handle_scene(&self.context, &self.layouts, params).await
    }

    /// `cmg/slice` ([`scene::handle_slice`]).
    pub(super) async fn slice(&self, params: SliceParams) -> Result<Option<SliceResponse>> {
        scene::handle_slice(&self.context, params).await
    }

    /// `window/workDoneProgress/cancel`: the user stopped a search.
    pub(super) async fn cancel_progress(&self, params: WorkDoneProgressCancelParams) {
        self.context.searches.cancel(&params);
    }

    pub(crate) fn folders(&self) -> MutexGuard<'_, Vec<PathBuf>> {
        self.folders
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Pulls run on tasks of their own and may be answered out of order: an answer
    /// older than one already applied is dropped.
    async fn pull_configuration(&self) {
        if !self.context.support().configuration {
            return;
        }
        let asked = {
            let mut pulls = self.config_pulls.lock().unwrap_or_else(|p| p.into_inner());
            pulls.asked += 1;
            pulls.asked
        };
        let items = vec![ConfigurationItem {
            scope_uri: None,
            section: Some("cmg".to_owned()),
        }];
        if let Some(values) = ask_client(self.context.client.configuration(items)).await {
            let mut pulls = self.config_pulls.lock().unwrap_or_else(|p| p.into_inner());
            if let (Some(settings), true) = (values.first(), asked > pulls.applied) {
                pulls.applied = asked;
                // Sent under the lock, so that settings reach the loop in the order
                // they were applied.
                self.context.events.send(Event::Settings(settings.clone()));
            }
        }
    }

    /// Pulls the settings and re-analyses every document with them, on a task of its
    /// own: a client slow to answer must not hold a handler (and the messages behind
    /// it) for as long.
    fn pull_configuration_in_background(&self) {
        let server = self.clone();
        tokio::spawn(async move { server.pull_configuration().await });
    }

    /// Ends the process when the client's process is gone, as the specification asks,
    /// if that process can be seen from here at `initialize`. An editor on the host
    /// running the server in a container (`docker exec -i`) sends a pid of another PID
    /// namespace, and some clients send 0: watching those would end the server at once,
    /// so it is logged and the server ends with its input instead.
    fn watch_parent(&self, pid: u32) {
        if !std::path::Path::new("/proc/self").exists() {
            // No procfs to look at: the server ends with its stdin instead.
            return;
        }
        let watched = pid != 0 && process_alive(pid);
        let client = self.context.client.clone();
        let message = if watched {
            format!("cmg: watching the client's process {pid}; the server ends when it does")
        } else {
            format!("cmg: the client's process {pid} is not visible from here (another PID namespace?); the server ends with its input instead")
        };
        tokio::spawn(async move { client.log_message(MessageType::INFO, message).await });
        if !watched {
            return;
        }
        let exit = self.exit.clone();
        tokio::spawn(async move {
            while process_alive(pid) {
                tokio::time::sleep(PARENT_POLL).await;
            }
            exit.notify_one();
        });
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
        let support = ClientSupport::of(&params.capabilities);
        // Set once: a second `initialize` is refused by the transport before it gets here.
        let _ = self.context.support.set(support);
        *self.folders() = workspace::folders(&params);
        self.context.events.send(Event::Initialize {
            encoding,
            settings: params.initialization_options.clone(),
        });
        if let Some(pid) = params.process_id {
            self.watch_parent(pid);
        }
        Ok(InitializeResult {
            capabilities: requests::capabilities(encoding),
            server_info: Some(ServerInfo {
                name: "cmg".to_owned(),
                version: Some(env!("CARGO_PKG_VERSION").to_owned()),
            }),
            ..InitializeResult::default()
        })
    }

    /// The settings are pulled on a task of their own: a client slow to answer must
    /// not hold a handler (and the messages behind it) for as long.
    async fn initialized(&self, _: InitializedParams) {
        self.pull_configuration_in_background();
    }

    async fn shutdown(&self) -> Result<()> {
        self.context.events.send(Event::Shutdown);
        Ok(())
    }

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        let document = params.text_document;
        self.context.events.send(Event::Opened {
            uri: document.uri,
            text: document.text,
            version: document.version,
        });
    }

    /// Sent to the loop before anything awaits, so edits are never reordered or lost;
    /// the loop applies them to the rope in the order they came.
    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        self.context.events.send(Event::Changed {
            uri: params.text_document.uri,
            version: params.text_document.version,
            changes: params.content_changes,
        });
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        let uri = params.text_document.uri;
        self.context.tokens().forget(&uri);
        self.context.events.send(Event::Closed { uri });
    }

    async fn did_change_configuration(&self, params: DidChangeConfigurationParams) {
        if self.context.support().configuration {
            self.pull_configuration_in_background();
            return;
        }
        let settings = params
            .settings
            .get("cmg")
            .unwrap_or(&params.settings)
            .clone();
        self.context.events.send(Event::Settings(settings));
    }

    async fn formatting(&self, params: DocumentFormattingParams) -> Result<Option<Vec<TextEdit>>> {
        requests::formatting::handle(&self.context, params).await
    }

    async fn hover(&self, params: HoverParams) -> Result<Option<Hover>> {
        requests::hover::handle(&self.context, params).await
    }

    async fn inlay_hint(&self, params: InlayHintParams) -> Result<Option<Vec<InlayHint>>> {
        requests::inlay_hints::handle(&self.context, params).await
    }

    async fn code_lens(&self, params: CodeLensParams) -> Result<Option<Vec<CodeLens>>> {
        requests::code_lens::handle(&self.context, params).await
    }

    async fn semantic_tokens_full(
        &self,
        params: SemanticTokensParams,
    ) -> Result<Option<SemanticTokensResult>> {
        requests::semantic_tokens::handle_full(&self.context, params).await
    }

    async fn semantic_tokens_full_delta(
        &self,
        params: SemanticTokensDeltaParams,
    ) -> Result<Option<SemanticTokensFullDeltaResult>> {
        requests::semantic_tokens::handle_full_delta(&self.context, params).await
    }

    async fn semantic_tokens_range(
        &self,
        params: SemanticTokensRangeParams,
    ) -> Result<Option<SemanticTokensRangeResult>> {
        requests::semantic_tokens::handle_range(&self.context, params).await
    }

    async fn document_symbol(
        &self,
        params: DocumentSymbolParams,
    ) -> Result<Option<DocumentSymbolResponse>> {
        requests::document_symbols::handle(&self.context, params).await
    }

    async fn folding_range(&self, params: FoldingRangeParams) -> Result<Option<Vec<FoldingRange>>> {
        requests::folding::handle(&self.context, params).await
    }

    async fn code_action(&self, params: CodeActionParams) -> Result<Option<CodeActionResponse>> {
        requests::code_actions::handle(&self.context, params).await
    }

    async fn code_action_resolve(&self, params: CodeAction) -> Result<CodeAction> {
        requests::code_actions::handle_resolve(&self.context, params).await
    }

    async fn goto_definition(
        &self,
        params: GotoDefinitionParams,
    ) -> Result<Option<GotoDefinitionResponse>> {
        requests::definition::handle(&self.context, params).await
    }

    async fn references(&self, params: ReferenceParams) -> Result<Option<Vec<Location>>> {
        requests::references::handle(&self.context, params).await
    }

    async fn document_highlight(
        &self,
        params: DocumentHighlightParams,
    ) -> Result<Option<Vec<DocumentHighlight>>> {
        requests::highlights::handle(&self.context, params).await
    }

    async fn selection_range(
        &self,
        params: SelectionRangeParams,
    ) -> Result<Option<Vec<SelectionRange>>> {
        requests::selection_range::handle(&self.context, params).await
    }

    async fn range_formatting(
        &self,
        params: DocumentRangeFormattingParams,
    ) -> Result<Option<Vec<TextEdit>>> {
        requests::formatting::handle_range(&self.context, params).await
    }

    async fn on_type_formatting(
        &self,
        params: DocumentOnTypeFormattingParams,
    ) -> Result<Option<Vec<TextEdit>>> {
        requests::formatting::handle_on_type(&self.context, params).await
    }

    async fn workspace_diagnostic(
        &self,
        params: WorkspaceDiagnosticParams,
    ) -> Result<WorkspaceDiagnosticReportResult> {
        let folders = self.folders().clone();
        workspace::handle(&self.context, folders, self.stamps.clone(), params).await
    }

    async fn did_change_workspace_folders(&self, params: DidChangeWorkspaceFoldersParams) {
        workspace::change_folders(&mut self.folders(), &params.event);
    }

    async fn diagnostic(
        &self,
        params: DocumentDiagnosticParams,
    ) -> Result<DocumentDiagnosticReportResult> {
        requests::diagnostic::handle(&self.context, params).await
    }

    async fn prepare_rename(
        &self,
        params: TextDocumentPositionParams,
    ) -> Result<Option<PrepareRenameResponse>> {
        requests::rename::handle_prepare(&self.context, params).await
    }

    async fn rename(&self, params: RenameParams) -> Result<Option<WorkspaceEdit>> {
        requests::rename::handle(&self.context, params).await
    }

    async fn completion(&self, params: CompletionParams) -> Result<Option<CompletionResponse>> {
        requests::completion::handle(&self.context, params).await
    }

    async fn execute_command(&self, params: ExecuteCommandParams) -> Result<Option<Value>> {
        requests::commands::handle(&self.context, params).await
    }
}

#[cfg(test)]
mod tests;
