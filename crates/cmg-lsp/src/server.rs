//! The `LanguageServer` implementation, as dispatch only: each notification becomes an
//! event of the server's loop ([`super::event_loop`]), and each request asks the loop
//! for the snapshot of its text, then runs its `ide` function on the blocking pool. No
//! handler holds state, and none waits for the client.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::Duration;

use serde_json::Value;
use tokio::sync::Notify;
use tower_lsp_server::jsonrpc::{Error, Result};
use tower_lsp_server::ls_types::*;
use tower_lsp_server::{Client, LanguageServer};

use super::capabilities;
use super::client::{ask_client, refresh_diagnostics, ClientSupport};
use super::convert::Encoding;
use super::documents::Needs;
use super::event_loop::{Loop, Unanswerable};
use super::longer_game;
use super::pull::{self, Channel, Pulled};
use super::requests::{self, Snapshot};
use super::scene::Layouts;
use super::scheduler::Event;
use super::tokens::TokenCache;
use super::workspace;

/// How often the client's process is checked for life.
const PARENT_POLL: Duration = Duration::from_millis(250);

#[derive(Clone)]
pub struct Server {
    pub(crate) client: Client,
    pub(crate) events: Loop,
    /// What the client can do, known from `initialize` on.
    support: Arc<OnceLock<ClientSupport>>,
    tokens: Arc<Mutex<TokenCache>>,
    config_pulls: Arc<Mutex<ConfigPulls>>,
    /// Woken when the process should end: the client's process is gone.
    exit: Arc<Notify>,
    /// What pull clients were answered, shared with the loop's publisher.
    pulled: Arc<Mutex<Pulled>>,
    /// The workspace folders, for `workspace/diagnostic`.
    folders: Arc<Mutex<Vec<PathBuf>>>,
    /// What `workspace/diagnostic` last read of each closed file.
    pub(crate) stamps: Arc<Mutex<workspace::Stamps>>,
    /// The game view's layouts, one at a time per document.
    layouts: Arc<Layouts>,
    /// The searches for a longer game under way, for their cancel.
    searches: Arc<longer_game::Searches>,
}

/// The `workspace/configuration` requests asked and the newest one applied.
#[derive(Clone, Copy, Default)]
struct ConfigPulls {
    asked: u64,
    applied: u64,
}

/// Runs a feature, turning a panic into an error response so the server keeps serving.
pub(super) fn guarded<T>(feature: &str, f: impl FnOnce() -> T) -> Result<T> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|_| {
        let mut error = Error::internal_error();
        error.message = format!("cmg: internal error in {feature}; the server goes on").into();
        error
    })
}

/// Runs a feature on the blocking pool, guarded: on a large file a feature (an outline,
/// a rename, resolving an action) takes as long as an analysis, and on an async worker
/// it held up the transport, which writes every message from one task.
pub(crate) async fn on_pool<T: Send + 'static>(
    feature: &'static str,
    f: impl FnOnce() -> T + Send + 'static,
) -> Result<T> {
    tokio::task::spawn_blocking(move || guarded(feature, f))
        .await
        .unwrap_or_else(|_| Err(Error::internal_error()))
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
        let support = Arc::new(OnceLock::new());
        let pulled = Arc::<Mutex<Pulled>>::default();
        Server {
            events: Loop::start(client.clone(), support.clone(), pulled.clone()),
            client,
            support,
            tokens: Arc::default(),
            config_pulls: Arc::default(),
            exit,
            pulled,
            folders: Arc::default(),
            stamps: Arc::default(),
            layouts: Arc::default(),
            searches: Arc::default(),
        }
    }

    pub(super) fn layouts(&self) -> &Layouts {
        &self.layouts
    }

    /// `cmg.findLongerGame` on the version the action was listed for
    /// ([`longer_game::run`]).
    pub(crate) async fn find_longer_game(&self, arguments: Vec<Value>) -> Result<Option<Value>> {
        let target: longer_game::Target = arguments
            .into_iter()
            .next()
            .and_then(|argument| serde_json::from_value(argument).ok())
            .ok_or_else(|| Error::invalid_params("cmg.findLongerGame needs {uri, version}"))?;
        let Some(snapshot) = self.current(&target.uri, Needs::Analysis).await? else {
            return Ok(None);
        };
        if snapshot.version != target.version {
            let mut error = Error::content_modified();
            error.message = "cmg: the document changed since the action was listed".into();
            return Err(error);
        }
        longer_game::run(
            &self.client,
            &self.searches,
            &snapshot,
            target,
            self.support().work_done_progress,
        )
        .await
    }

    /// `window/workDoneProgress/cancel`: the user stopped a search.
    pub(super) async fn cancel_progress(&self, params: WorkDoneProgressCancelParams) {
        self.searches.cancel(&params);
    }

    pub(crate) fn pulled(&self) -> MutexGuard<'_, Pulled> {
        self.pulled
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Tells the user that a list was cut, once per request: in a message window for
    /// what they asked for (`references`), in the log for what the editor asks on its
    /// own whenever the cursor rests (`highlights`), where a window would pop up at
    /// every pause.
    pub(crate) async fn tell_cut<T>(
        &self,
        cut: Option<requests::references::Cut<T>>,
        shown: MessageType,
    ) -> Option<Vec<T>> {
        let cut = cut?;
        if let Some(note) = cut.note {
            if shown == MessageType::LOG {
                self.client.log_message(MessageType::WARNING, note).await;
            } else {
                self.client.show_message(shown, note).await;
            }
        }
        Some(cut.items)
    }

    pub(crate) fn folders(&self) -> MutexGuard<'_, Vec<PathBuf>> {
        self.folders
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The workspace report of an open document: from its live analysis, as a pull of
    /// it would answer; `None` if it changed or closed meanwhile (the client pulls it
    /// by itself after an edit).
    pub(crate) async fn open_report(
        &self,
        uri: &Uri,
        previous: Option<&String>,
    ) -> Option<WorkspaceDocumentDiagnosticReport> {
        let snapshot = self.current(uri, Needs::Diagnostics).await.ok()??;
        let result_id = pull::result_id(&snapshot);
        let version = snapshot.version;
        if previous == Some(&result_id) {
            return Some(workspace::unchanged(uri.clone(), Some(version), result_id));
        }
        let items = on_pool("diagnostics", move || pull::items(&snapshot))
            .await
            .ok()?;
        if self
            .pulled()
            .answered(uri, Channel::Workspace, version, &items)
        {
            self.refresh_diagnostics();
        }
        Some(workspace::full(
            uri.clone(),
            Some(version),
            result_id,
            items,
        ))
    }

    pub(crate) async fn log_warnings(&self, notes: Vec<String>) {
        for note in notes {
            self.client.log_message(MessageType::WARNING, note).await;
        }
    }

    pub(crate) fn support(&self) -> ClientSupport {
        self.support.get().copied().unwrap_or_default()
    }

    pub(crate) fn tokens(&self) -> MutexGuard<'_, TokenCache> {
        // A panic while the lock was held leaves plain data behind, still usable.
        self.tokens
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The snapshot a request about `uri` works on: the analysis of exactly the text the
    /// request's positions refer to, once it is in (and, with `Needs::Solve`, its
    /// solve). If the text changes first, the answer is [`Unanswerable::Superseded`]
    /// (`ContentModified` to the client), never an answer computed from another text.
    /// `Ok(None)` is an unknown document, or one too large to analyse.
    pub(super) async fn current(
        &self,
        uri: &Uri,
        needs: Needs,
    ) -> std::result::Result<Option<Snapshot>, Unanswerable> {
        self.events.snapshot(uri.clone(), needs).await
    }

    /// Answers a request from the current snapshot of `uri`: nothing for an unknown
    /// document, an error response if the feature panics.
    pub(crate) async fn answer<T: Send + 'static>(
        &self,
        uri: &Uri,
        feature: &'static str,
        f: impl FnOnce(&Snapshot) -> Option<T> + Send + 'static,
    ) -> Result<Option<T>> {
        self.answer_when(uri, feature, Needs::Analysis, f).await
    }

    /// Answers a request from the current snapshot of `uri`, once what it `needs` is
    /// in; the feature runs on the blocking pool.
    pub(crate) async fn answer_when<T: Send + 'static>(
        &self,
        uri: &Uri,
        feature: &'static str,
        needs: Needs,
        f: impl FnOnce(&Snapshot) -> Option<T> + Send + 'static,
    ) -> Result<Option<T>> {
        let Some(snapshot) = self.current(uri, needs).await? else {
            return Ok(None);
        };
        on_pool(feature, move || f(&snapshot)).await
    }

    /// Asks a pull client to pull again, where it can, on a task of its own.
    pub(crate) fn refresh_diagnostics(&self) {
        let (client, support) = (self.client.clone(), self.support());
        tokio::spawn(async move { refresh_diagnostics(&client, support).await });
    }

    /// What lenses and hints wait for: their solve, for a client that cannot be asked
    /// to refresh them once it lands.
    pub(crate) fn outcome_needs(&self) -> Needs {
        let support = self.support();
        if support.code_lens_refresh && support.inlay_hint_refresh {
            Needs::Analysis
        } else {
            Needs::Solve
        }
    }

    /// Pulls run on tasks of their own and may be answered out of order: an answer
    /// older than one already applied is dropped.
    async fn pull_configuration(&self) {
        if !self.support().configuration {
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
        if let Some(values) = ask_client(self.client.configuration(items)).await {
            let mut pulls = self.config_pulls.lock().unwrap_or_else(|p| p.into_inner());
            if let (Some(settings), true) = (values.first(), asked > pulls.applied) {
                pulls.applied = asked;
                // Sent under the lock, so that settings reach the loop in the order
                // they were applied.
                self.events.send(Event::Settings(settings.clone()));
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
        let client = self.client.clone();
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
        let _ = self.support.set(support);
        *self.folders() = workspace::folders(&params);
        self.events.send(Event::Initialize {
            encoding,
            settings: params.initialization_options.clone(),
        });
        if let Some(pid) = params.process_id {
            self.watch_parent(pid);
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

    /// The settings are pulled on a task of their own: a client slow to answer must
    /// not hold a handler (and the messages behind it) for as long.
    async fn initialized(&self, _: InitializedParams) {
        self.pull_configuration_in_background();
    }

    async fn shutdown(&self) -> Result<()> {
        self.events.send(Event::Shutdown);
        Ok(())
    }

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        let document = params.text_document;
        self.events.send(Event::Opened {
            uri: document.uri,
            text: document.text,
            version: document.version,
        });
    }

    /// Sent to the loop before anything awaits, so edits are never reordered or lost;
    /// the loop applies them to the rope in the order they came.
    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        self.events.send(Event::Changed {
            uri: params.text_document.uri,
            version: params.text_document.version,
            changes: params.content_changes,
        });
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        let uri = params.text_document.uri;
        self.tokens().forget(&uri);
        self.events.send(Event::Closed { uri });
    }

    async fn did_change_configuration(&self, params: DidChangeConfigurationParams) {
        if self.support().configuration {
            self.pull_configuration_in_background();
            return;
        }
        let settings = params
            .settings
            .get("cmg")
            .unwrap_or(&params.settings)
            .clone();
        self.events.send(Event::Settings(settings));
    }

    async fn formatting(&self, params: DocumentFormattingParams) -> Result<Option<Vec<TextEdit>>> {
        requests::formatting::handle(self, params).await
    }

    async fn hover(&self, params: HoverParams) -> Result<Option<Hover>> {
        requests::hover::handle(self, params).await
    }

    async fn inlay_hint(&self, params: InlayHintParams) -> Result<Option<Vec<InlayHint>>> {
        requests::inlay_hints::handle(self, params).await
    }

    async fn code_lens(&self, params: CodeLensParams) -> Result<Option<Vec<CodeLens>>> {
        requests::code_lens::handle(self, params).await
    }

    async fn semantic_tokens_full(
        &self,
        params: SemanticTokensParams,
    ) -> Result<Option<SemanticTokensResult>> {
        requests::semantic_tokens::handle_full(self, params).await
    }

    async fn semantic_tokens_full_delta(
        &self,
        params: SemanticTokensDeltaParams,
    ) -> Result<Option<SemanticTokensFullDeltaResult>> {
        requests::semantic_tokens::handle_full_delta(self, params).await
    }

    async fn semantic_tokens_range(
        &self,
        params: SemanticTokensRangeParams,
    ) -> Result<Option<SemanticTokensRangeResult>> {
        requests::semantic_tokens::handle_range(self, params).await
    }

    async fn document_symbol(
        &self,
        params: DocumentSymbolParams,
    ) -> Result<Option<DocumentSymbolResponse>> {
        requests::document_symbols::handle(self, params).await
    }

    async fn folding_range(&self, params: FoldingRangeParams) -> Result<Option<Vec<FoldingRange>>> {
        requests::folding::handle(self, params).await
    }

    async fn code_action(&self, params: CodeActionParams) -> Result<Option<CodeActionResponse>> {
        requests::code_actions::handle(self, params).await
    }

    async fn code_action_resolve(&self, params: CodeAction) -> Result<CodeAction> {
        requests::code_actions::handle_resolve(self, params).await
    }

    async fn goto_definition(
        &self,
        params: GotoDefinitionParams,
    ) -> Result<Option<GotoDefinitionResponse>> {
        requests::definition::handle(self, params).await
    }

    async fn references(&self, params: ReferenceParams) -> Result<Option<Vec<Location>>> {
        requests::references::handle(self, params).await
    }

    async fn document_highlight(
        &self,
        params: DocumentHighlightParams,
    ) -> Result<Option<Vec<DocumentHighlight>>> {
        requests::highlights::handle(self, params).await
    }

    async fn selection_range(
        &self,
        params: SelectionRangeParams,
    ) -> Result<Option<Vec<SelectionRange>>> {
        requests::selection_range::handle(self, params).await
    }

    async fn range_formatting(
        &self,
        params: DocumentRangeFormattingParams,
    ) -> Result<Option<Vec<TextEdit>>> {
        requests::formatting::handle_range(self, params).await
    }

    async fn on_type_formatting(
        &self,
        params: DocumentOnTypeFormattingParams,
    ) -> Result<Option<Vec<TextEdit>>> {
        requests::formatting::handle_on_type(self, params).await
    }

    async fn workspace_diagnostic(
        &self,
        params: WorkspaceDiagnosticParams,
    ) -> Result<WorkspaceDiagnosticReportResult> {
        workspace::handle(self, params).await
    }

    async fn did_change_workspace_folders(&self, params: DidChangeWorkspaceFoldersParams) {
        workspace::change_folders(&mut self.folders(), &params.event);
    }

    async fn diagnostic(
        &self,
        params: DocumentDiagnosticParams,
    ) -> Result<DocumentDiagnosticReportResult> {
        pull::handle(self, params).await
    }

    async fn prepare_rename(
        &self,
        params: TextDocumentPositionParams,
    ) -> Result<Option<PrepareRenameResponse>> {
        requests::rename::handle_prepare(self, params).await
    }

    async fn rename(&self, params: RenameParams) -> Result<Option<WorkspaceEdit>> {
        requests::rename::handle(self, params).await
    }

    async fn completion(&self, params: CompletionParams) -> Result<Option<CompletionResponse>> {
        requests::completion::handle(self, params).await
    }

    async fn execute_command(&self, params: ExecuteCommandParams) -> Result<Option<Value>> {
        requests::commands::handle(self, params).await
    }
}

#[cfg(test)]
mod tests;
