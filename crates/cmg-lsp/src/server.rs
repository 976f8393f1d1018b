//! The `LanguageServer` implementation: document sync, scheduling of analyses and
//! solves off the request path, publication, and each request turned into a call of an
//! `ide` function on a snapshot.

use std::collections::HashMap;
use std::future::Future;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use serde_json::Value;
use tokio::sync::{watch, Notify};
use tower_lsp_server::jsonrpc::{Error, Result};
use tower_lsp_server::ls_types::*;
use tower_lsp_server::{Client, LanguageServer};

use cmg_solve::solve_cancellable;

use super::capabilities;
use super::config::Config;
use super::convert::{self, Encoding};
use super::documents::{
    self, AnalysisJob, Document, Finished, Leftover, Needs, Progress, SolveJob, SolveState,
};
use super::handlers::{self, Snapshot, SHOW_LINE_COMMAND};

/// How long a request waits for the analysis of the text its positions refer to before
/// it answers `ContentModified`; short, so that a hover never waits on a slow analysis.
const ANALYSIS_WAIT: Duration = Duration::from_millis(300);
/// How long diagnostics wait for a pending solve, so that a quick solve is published
/// together with the rest instead of in a second publication (no flicker in the count).
const SOLVE_WAIT_BEFORE_PUBLISH: Duration = Duration::from_millis(250);
/// How long `codeLens` and `inlayHint` wait for the solve when the client cannot be
/// asked to refresh them later.
const SOLVE_WAIT_WITHOUT_REFRESH: Duration = Duration::from_secs(3);
/// Every request the server sends to the client gets an answer within this time, or is
/// given up: a client that never answers must not hold anything up.
const CLIENT_REQUEST_TIMEOUT: Duration = Duration::from_secs(20);
/// How often the client's process is checked for life.
const PARENT_POLL: Duration = Duration::from_millis(250);

#[derive(Clone)]
pub struct Server {
    client: Client,
    state: Arc<Mutex<State>>,
    /// Held while diagnostics are computed and sent, so that they reach the client in
    /// the order they were computed and an older set never lands after a newer one.
    publish: Arc<tokio::sync::Mutex<()>>,
    /// Woken when the process should end: the client's process is gone.
    exit: Arc<Notify>,
}

#[derive(Default)]
struct State {
    documents: HashMap<Uri, Document>,
    config: Config,
    encoding: Encoding,
    client: ClientSupport,
    /// The last `resultId` given out for semantic tokens.
    token_results: u64,
    config_pulls: ConfigPulls,
}

/// The `workspace/configuration` requests asked and the newest one applied.
#[derive(Clone, Copy, Default)]
struct ConfigPulls {
    asked: u64,
    applied: u64,
}

/// What the client said it can do, as far as the server cares.
#[derive(Clone, Copy, Default)]
struct ClientSupport {
    configuration: bool,
    inlay_hint_refresh: bool,
    code_lens_refresh: bool,
    /// Whether code actions may be listed without their edit, which the client asks
    /// for with `codeAction/resolve` (it keeps `data` and resolves `edit`).
    code_action_resolve: bool,
}

/// Runs a feature, turning a panic into an error response so the server keeps serving.
fn guarded<T>(feature: &str, f: impl FnOnce() -> T) -> Result<T> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|_| {
        let mut error = Error::internal_error();
        error.message = format!("cmg: internal error in {feature}; the server goes on").into();
        error
    })
}

/// Runs a feature on the blocking pool, guarded: rename and resolving an action take as
/// long as an analysis on a large file, and on the transport's task they held up every
/// other message.
async fn on_pool<T: Send + 'static>(
    feature: &'static str,
    f: impl FnOnce() -> T + Send + 'static,
) -> Result<T> {
    tokio::task::spawn_blocking(move || guarded(feature, f))
        .await
        .unwrap_or_else(|_| Err(Error::internal_error()))
}

/// How work on the blocking pool ended ([`Server::run_blocking`]).
enum Blocking<T> {
    Done(T),
    /// It panicked; the panic is logged.
    Panicked,
    /// The runtime dropped it unfinished (it is shutting down).
    Dropped,
}

/// The text of a panic's payload, for the log.
fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "no message".to_owned())
}

/// Frees what nobody needs any more (an analysis left over, a closed document) on the
/// blocking pool, where its cost delays neither the lock, nor the async workers, nor a
/// publication: freeing the analysis of a 1 MB file takes 10–20 ms.
fn free_off_path<T: Send + 'static>(value: T) {
    tokio::task::spawn_blocking(move || drop(value));
}

/// Waits on a document's progress until `ready` holds, the document is closed, or
/// `limit` passes; says whether `ready` held.
async fn wait_until(
    progress: &mut watch::Receiver<Progress>,
    limit: Option<Duration>,
    ready: impl FnMut(&Progress) -> bool,
) -> bool {
    let wait = progress.wait_for(ready);
    let result = match limit {
        Some(limit) => tokio::time::timeout(limit, wait).await.ok(),
        None => Some(wait.await),
    };
    matches!(result, Some(Ok(_)))
}

impl Server {
    pub fn new(client: Client) -> Server {
        Server::with_exit(client, Arc::default())
    }

    /// A server that wakes `exit` when the process should end without waiting for the
    /// client (its process died).
    pub fn with_exit(client: Client, exit: Arc<Notify>) -> Server {
        Server {
            client,
            state: Arc::default(),
            publish: Arc::default(),
            exit,
        }
    }

    fn state(&self) -> MutexGuard<'_, State> {
        // A panic while the lock was held leaves plain data behind, still usable.
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Sends a request to the client with a time limit; `None` when it fails or the
    /// client does not answer in time.
    async fn ask_client<T>(&self, request: impl Future<Output = Result<T>>) -> Option<T> {
        tokio::time::timeout(CLIENT_REQUEST_TIMEOUT, request)
            .await
            .ok()?
            .ok()
    }

    async fn log(&self, message: String) {
        self.client.log_message(MessageType::ERROR, message).await;
    }

    /// Runs `work` on the blocking pool. A panic there is logged, in the words
    /// `describe` gives the panic's text, and settles nothing else: the caller decides
    /// what a failed analysis or solve leaves behind.
    async fn run_blocking<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
        describe: impl FnOnce(&str) -> String,
    ) -> Blocking<T> {
        match tokio::task::spawn_blocking(move || catch_unwind(AssertUnwindSafe(work))).await {
            Ok(Ok(value)) => Blocking::Done(value),
            Ok(Err(payload)) => {
                self.log(describe(&panic_text(payload.as_ref()))).await;
                Blocking::Panicked
            }
            Err(_) => Blocking::Dropped,
        }
    }

    /// The snapshot a request about `uri` works on: the analysis of exactly the text the
    /// request's positions refer to. If that analysis is still running, it is awaited
    /// for a short time (and, with `Needs::Solve`, the solve of it for longer); if the
    /// text changes meanwhile or the analysis is not ready in time, the answer is
    /// `ContentModified`, never an answer computed from another text. `Ok(None)` is an
    /// unknown document, or one too large to analyse.
    pub(super) async fn current(&self, uri: &Uri, needs: Needs) -> Result<Option<Snapshot>> {
        let (mut progress, generation, wait_for_solve) = {
            let state = self.state();
            let Some(document) = state.documents.get(uri) else {
                return Ok(None);
            };
            let refresh = state.client.code_lens_refresh && state.client.inlay_hint_refresh;
            (
                document.progress(),
                document.generation,
                needs == Needs::Solve && !refresh,
            )
        };
        let changed = move |p: &Progress| p.generation != generation;
        wait_until(&mut progress, Some(ANALYSIS_WAIT), |p| {
            changed(p) || p.done(Needs::Analysis)
        })
        .await;
        if wait_for_solve {
            wait_until(&mut progress, Some(SOLVE_WAIT_WITHOUT_REFRESH), |p| {
                changed(p) || p.done(Needs::Solve)
            })
            .await;
        }
        let state = self.state();
        let Some(document) = state.documents.get(uri) else {
            return Ok(None);
        };
        if document.generation != generation || !document.is_current() {
            return Err(Error::content_modified());
        }
        let analysed = &document.analysed;
        let Some(analysis) = &analysed.analysis else {
            return Ok(None);
        };
        Ok(Some(Snapshot {
            uri: uri.clone(),
            version: analysed.version,
            solving: matches!(document.solve, SolveState::Pending { .. }),
            rope: analysed.rope.clone(),
            analysis: analysis.clone(),
            solution: document.solution(),
            encoding: state.encoding,
            config: analysed.config.clone(),
        }))
    }

    /// Answers a request from the current snapshot of `uri`: nothing for an unknown
    /// document, an error response if the feature panics.
    async fn answer<T: Send + 'static>(
        &self,
        uri: &Uri,
        feature: &'static str,
        f: impl FnOnce(&Snapshot) -> Option<T> + Send + 'static,
    ) -> Result<Option<T>> {
        self.answer_when(uri, feature, Needs::Analysis, f).await
    }

    /// Answers a request from the current snapshot of `uri`, once what it `needs` is
    /// in. The feature runs on the blocking pool: on a large file it can take as long
    /// as the analysis, and on an async worker it would hold up the transport, which
    /// writes every message (diagnostics included) from one task.
    async fn answer_when<T: Send + 'static>(
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

    /// Sends the full diagnostic set of `generation`, if that is still the document's
    /// current analysis. The set is built and converted on the blocking pool, outside
    /// the lock.
    async fn publish_diagnostics(&self, uri: &Uri, generation: u64) {
        let _order = self.publish.lock().await;
        let snapshot = {
            let state = self.state();
            state.documents.get(uri).and_then(|document| {
                (document.generation == generation && document.is_current()).then(|| {
                    let solve = match &document.solve {
                        SolveState::Pending { .. } => SolveState::NoGame,
                        other => other.clone(),
                    };
                    (document.analysed.clone(), solve, state.encoding)
                })
            })
        };
        let Some((analysed, solve, encoding)) = snapshot else {
            return;
        };
        let target = uri.clone();
        let converted = tokio::task::spawn_blocking(move || {
            guarded("diagnostics", || {
                let diagnostics = documents::diagnostics(&analysed, &solve);
                let published = convert::publishable(
                    &target,
                    &analysed.rope,
                    encoding,
                    &diagnostics,
                    analysed.config.max_diagnostics,
                );
                (published, analysed.version)
            })
        })
        .await;
        let Ok(Ok((diagnostics, version))) = converted else {
            self.log(format!(
                "cmg: the diagnostics of {} could not be built",
                uri.as_str()
            ))
            .await;
            return;
        };
        let current = self
            .state()
            .documents
            .get(uri)
            .is_some_and(|document| document.generation == generation);
        if current {
            self.client
                .publish_diagnostics(uri.clone(), diagnostics, Some(version))
                .await;
        }
    }

    /// Starts the analysis of a document on the blocking pool. When it ends, a result
    /// for text that changed meanwhile is dropped and the next analysis starts on the
    /// current text; a current one is stored, solved if needed, and published.
    fn spawn_analysis(&self, uri: Uri, job: AnalysisJob) {
        let server = self.clone();
        tokio::spawn(async move {
            let mut job = job;
            loop {
                let generation = job.generation;
                let ran = server
                    .run_blocking(
                        move || job.run(),
                        |panic| format!(
                            "cmg: the analysis of {} failed ({panic}); its features answer nothing until the next edit",
                            uri.as_str()
                        ),
                    )
                    .await;
                let analysed = match ran {
                    Blocking::Done(analysed) => Some(analysed),
                    Blocking::Panicked | Blocking::Dropped => None,
                };
                let finished = {
                    let mut state = server.state();
                    let config = state.config.clone();
                    let Some(document) = state.documents.get_mut(&uri) else {
                        return;
                    };
                    document.finish_analysis(generation, analysed, &config)
                };
                match finished {
                    Finished::Stale(next, leftover) => {
                        free_off_path(leftover);
                        match next {
                            Some(next) => job = next,
                            None => return,
                        }
                    }
                    Finished::Accepted(solve, leftover) => {
                        server
                            .after_analysis(uri, generation, solve, leftover)
                            .await;
                        return;
                    }
                }
            }
        });
    }

    /// Publishes a fresh analysis. A solve it needs starts first, and the publication
    /// waits a little for it, so that a quick solve's `expect-mismatch` arrives in the
    /// same publication as the rest; a slower solve publishes again when it lands.
    /// Requests about this generation are let through after the first publication, or
    /// at once when it waits for a solve. The analysis this one replaced is freed after
    /// the first publication.
    async fn after_analysis(
        &self,
        uri: Uri,
        generation: u64,
        solve: Option<SolveJob>,
        replaced: Leftover,
    ) {
        let progress = self.state().documents.get(&uri).map(Document::progress);
        let Some(mut progress) = progress else {
            free_off_path(replaced);
            return;
        };
        let solving = solve.is_some() || !progress.borrow().solve_settled;
        if let Some(job) = solve {
            self.spawn_solve(uri.clone(), job);
        }
        if solving {
            self.release(&uri, generation);
        }
        let settled = move |p: &Progress| p.generation != generation || p.solve_settled;
        let in_time = wait_until(&mut progress, Some(SOLVE_WAIT_BEFORE_PUBLISH), settled).await;
        self.publish_diagnostics(&uri, generation).await;
        self.release(&uri, generation);
        free_off_path(replaced);
        if !solving {
            return;
        }
        if !in_time && wait_until(&mut progress, None, settled).await {
            self.publish_diagnostics(&uri, generation).await;
        }
        let solved = self.state().documents.get(&uri).is_some_and(|document| {
            document.generation == generation && document.solution().is_some()
        });
        if solved {
            self.refresh_views().await;
        }
    }

    fn release(&self, uri: &Uri, generation: u64) {
        if let Some(document) = self.state().documents.get(uri) {
            document.release(generation);
        }
    }

    /// Runs a solve on the blocking pool and stores its result if the document still
    /// waits for it. A panicking solve is logged and settles the document's solve as
    /// failed, so nothing waits for it forever.
    fn spawn_solve(&self, uri: Uri, job: SolveJob) {
        let server = self.clone();
        tokio::spawn(async move {
            let game = job.game.clone();
            let cancel = job.cancel.clone();
            let solved = server
                .run_blocking(
                    move || solve_cancellable(&game, &cancel),
                    |panic| {
                        format!(
                            "cmg: the solver failed on {} ({panic}); the outcome is not shown",
                            uri.as_str()
                        )
                    },
                )
                .await;
            let solution = match solved {
                Blocking::Done(Some(solution)) => Some(solution),
                Blocking::Done(None) | Blocking::Dropped => return,
                Blocking::Panicked => None,
            };
            if let Some(document) = server.state().documents.get_mut(&uri) {
                document.accept_solution(&job, solution);
            }
        });
    }

    async fn refresh_views(&self) {
        let support = self.state().client;
        if support.inlay_hint_refresh {
            self.ask_client(self.client.inlay_hint_refresh()).await;
        }
        if support.code_lens_refresh {
            self.ask_client(self.client.code_lens_refresh()).await;
        }
    }

    /// Reads the `cmg` settings from the client, where it can answer in time.
    /// Pulls run on tasks of their own and may be answered out of order: an answer
    /// older than one already applied is dropped.
    async fn pull_configuration(&self) {
        let asked = {
            let mut state = self.state();
            if !state.client.configuration {
                return;
            }
            state.config_pulls.asked += 1;
            state.config_pulls.asked
        };
        let items = vec![ConfigurationItem {
            scope_uri: None,
            section: Some("cmg".to_owned()),
        }];
        if let Some(values) = self.ask_client(self.client.configuration(items)).await {
            let mut state = self.state();
            if let (Some(settings), true) = (values.first(), asked > state.config_pulls.applied) {
                state.config_pulls.applied = asked;
                state.config.update(settings);
            }
        }
    }

    /// Pulls the settings and re-analyses every document with them, on a task of its
    /// own.
    fn pull_configuration_then_refresh(&self) {
        let server = self.clone();
        tokio::spawn(async move {
            server.pull_configuration().await;
            server.refresh_all();
        });
    }

    /// Re-analyses every document (settings changed).
    fn refresh_all(&self) {
        let jobs: Vec<(Uri, AnalysisJob)> = {
            let mut state = self.state();
            let config = state.config.clone();
            state
                .documents
                .iter_mut()
                .filter_map(|(uri, document)| Some((uri.clone(), document.changed(&config)?)))
                .collect()
        };
        for (uri, job) in jobs {
            self.spawn_analysis(uri, job);
        }
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
        let code_action = params
            .capabilities
            .text_document
            .as_ref()
            .and_then(|t| t.code_action.as_ref());
        let support = ClientSupport {
            code_action_resolve: code_action.is_some_and(|c| {
                c.data_support == Some(true)
                    && c.resolve_support
                        .as_ref()
                        .is_some_and(|r| r.properties.iter().any(|p| p == "edit"))
            }),
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
        if self.state().client.configuration {
            self.pull_configuration_then_refresh();
        }
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
            let job = document.changed(&config);
            if let Some(old) = state.documents.insert(uri.clone(), document) {
                old.cancel_solve();
                free_off_path(old);
            }
            job
        };
        if let Some(job) = job {
            self.spawn_analysis(uri, job);
        }
    }

    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        let uri = params.text_document.uri;
        // Every change is applied under the lock before anything awaits, so edits are
        // never reordered or lost; the analysis runs later, on a snapshot.
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
            document.changed(&config)
        };
        if let Some(job) = job {
            self.spawn_analysis(uri, job);
        }
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        let uri = params.text_document.uri;
        // Removed before anything awaits: a `didOpen` of the same file right after must
        // find its new document in place, not have it removed by this late close.
        let closed = self.state().documents.remove(&uri);
        if let Some(document) = closed {
            document.cancel_solve();
            free_off_path(document);
        }
        let _order = self.publish.lock().await;
        self.client.publish_diagnostics(uri, Vec::new(), None).await;
    }

    async fn did_change_configuration(&self, params: DidChangeConfigurationParams) {
        if self.state().client.configuration {
            self.pull_configuration_then_refresh();
            return;
        }
        let settings = params
            .settings
            .get("cmg")
            .unwrap_or(&params.settings)
            .clone();
        self.state().config.update(&settings);
        self.refresh_all();
    }

    async fn formatting(&self, params: DocumentFormattingParams) -> Result<Option<Vec<TextEdit>>> {
        self.answer(&params.text_document.uri, "formatting", move |s| {
            Some(handlers::formatting(s))
        })
        .await
    }

    async fn hover(&self, params: HoverParams) -> Result<Option<Hover>> {
        let at = params.text_document_position_params;
        self.answer(&at.text_document.uri, "hover", move |s| {
            handlers::hover(s, at.position)
        })
        .await
    }

    async fn inlay_hint(&self, params: InlayHintParams) -> Result<Option<Vec<InlayHint>>> {
        self.answer_when(
            &params.text_document.uri,
            "inlay hints",
            Needs::Solve,
            move |s| Some(handlers::inlay_hints(s, params.range)),
        )
        .await
    }

    async fn code_lens(&self, params: CodeLensParams) -> Result<Option<Vec<CodeLens>>> {
        self.answer_when(
            &params.text_document.uri,
            "code lens",
            Needs::Solve,
            move |s| Some(handlers::code_lenses(s)),
        )
        .await
    }

    async fn semantic_tokens_full(
        &self,
        params: SemanticTokensParams,
    ) -> Result<Option<SemanticTokensResult>> {
        let uri = params.text_document.uri;
        let tokens = self
            .answer(&uri, "semantic tokens", move |s| {
                Some(handlers::semantic_tokens(s))
            })
            .await?;
        Ok(tokens.map(|data| SemanticTokensResult::Tokens(self.remember_tokens(&uri, data))))
    }

    async fn semantic_tokens_full_delta(
        &self,
        params: SemanticTokensDeltaParams,
    ) -> Result<Option<SemanticTokensFullDeltaResult>> {
        let uri = params.text_document.uri;
        let Some(data) = self
            .answer(&uri, "semantic tokens", move |s| {
                Some(handlers::semantic_tokens(s))
            })
            .await?
        else {
            return Ok(None);
        };
        let previous = {
            let state = self.state();
            state
                .documents
                .get(&uri)
                .and_then(|document| document.tokens.as_ref())
                .filter(|sent| sent.result_id == params.previous_result_id)
                .map(|sent| handlers::token_delta(&sent.data, &data))
        };
        let tokens = self.remember_tokens(&uri, data);
        Ok(Some(match previous {
            Some(edits) => SemanticTokensFullDeltaResult::TokensDelta(SemanticTokensDelta {
                result_id: tokens.result_id,
                edits,
            }),
            None => SemanticTokensFullDeltaResult::Tokens(tokens),
        }))
    }

    async fn semantic_tokens_range(
        &self,
        params: SemanticTokensRangeParams,
    ) -> Result<Option<SemanticTokensRangeResult>> {
        self.answer(&params.text_document.uri, "semantic tokens", move |s| {
            Some(SemanticTokensRangeResult::Tokens(SemanticTokens {
                result_id: None,
                data: handlers::semantic_tokens_in(s, Some(params.range)),
            }))
        })
        .await
    }

    async fn document_symbol(
        &self,
        params: DocumentSymbolParams,
    ) -> Result<Option<DocumentSymbolResponse>> {
        self.answer(&params.text_document.uri, "document symbols", move |s| {
            Some(DocumentSymbolResponse::Nested(handlers::document_symbols(
                s,
            )))
        })
        .await
    }

    async fn folding_range(&self, params: FoldingRangeParams) -> Result<Option<Vec<FoldingRange>>> {
        self.answer(&params.text_document.uri, "folding", move |s| {
            Some(handlers::folding_ranges(s))
        })
        .await
    }

    async fn code_action(&self, params: CodeActionParams) -> Result<Option<CodeActionResponse>> {
        let lazy = self.state().client.code_action_resolve;
        self.answer(&params.text_document.uri, "code actions", move |s| {
            Some(handlers::code_actions(s, params.range, lazy))
        })
        .await
    }

    /// Builds and checks the edit of the action picked, on the snapshot of exactly the
    /// version it was listed for: a document changed since gets `ContentModified`, an
    /// action that no longer checks out `RequestFailed`, never an edit for other text.
    async fn code_action_resolve(&self, params: CodeAction) -> Result<CodeAction> {
        let data = params
            .data
            .clone()
            .and_then(|data| serde_json::from_value::<handlers::ActionData>(data).ok())
            .ok_or_else(|| Error::invalid_params("cmg: a code action without its data"))?;
        let stale = || {
            let mut error = Error::content_modified();
            error.message = "cmg: the document changed since the action was listed".into();
            error
        };
        let snapshot = self
            .current(&data.uri, Needs::Analysis)
            .await?
            .ok_or_else(stale)?;
        if snapshot.version != data.version {
            return Err(stale());
        }
        on_pool("code action resolve", move || {
            handlers::resolve_code_action(&snapshot, &data.id)
        })
        .await?
    }

    async fn goto_definition(
        &self,
        params: GotoDefinitionParams,
    ) -> Result<Option<GotoDefinitionResponse>> {
        let at = params.text_document_position_params;
        self.answer(&at.text_document.uri, "definition", move |s| {
            handlers::definition(s, at.position)
        })
        .await
    }

    async fn references(&self, params: ReferenceParams) -> Result<Option<Vec<Location>>> {
        let at = params.text_document_position;
        let include = params.context.include_declaration;
        self.answer(&at.text_document.uri, "references", move |s| {
            Some(handlers::references(s, at.position, include))
        })
        .await
    }

    async fn document_highlight(
        &self,
        params: DocumentHighlightParams,
    ) -> Result<Option<Vec<DocumentHighlight>>> {
        let at = params.text_document_position_params;
        self.answer(&at.text_document.uri, "highlights", move |s| {
            Some(handlers::highlights(s, at.position))
        })
        .await
    }

    async fn prepare_rename(
        &self,
        params: TextDocumentPositionParams,
    ) -> Result<Option<PrepareRenameResponse>> {
        let Some(snapshot) = self
            .current(&params.text_document.uri, Needs::Analysis)
            .await?
        else {
            return Ok(None);
        };
        on_pool("rename", move || {
            handlers::prepare_rename(&snapshot, params.position)
        })
        .await?
        .map(Some)
    }

    async fn rename(&self, params: RenameParams) -> Result<Option<WorkspaceEdit>> {
        let at = params.text_document_position;
        let Some(snapshot) = self.current(&at.text_document.uri, Needs::Analysis).await? else {
            return Ok(None);
        };
        on_pool("rename", move || {
            handlers::rename(&snapshot, at.position, &params.new_name)
        })
        .await?
        .map(Some)
    }

    async fn completion(&self, params: CompletionParams) -> Result<Option<CompletionResponse>> {
        let at = params.text_document_position;
        self.answer(&at.text_document.uri, "completion", move |s| {
            Some(CompletionResponse::Array(handlers::completions(
                s,
                at.position,
            )))
        })
        .await
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

impl Server {
    /// Gives a full set of semantic tokens a `resultId` and keeps it for the next delta.
    fn remember_tokens(&self, uri: &Uri, data: Vec<SemanticToken>) -> SemanticTokens {
        let mut state = self.state();
        state.token_results += 1;
        let result_id = state.token_results.to_string();
        if let Some(document) = state.documents.get_mut(uri) {
            document.tokens = Some(documents::SentTokens {
                result_id: result_id.clone(),
                data: data.clone(),
            });
        }
        SemanticTokens {
            result_id: Some(result_id),
            data,
        }
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

    #[test]
    fn this_process_is_alive_and_a_made_up_one_is_not() {
        if std::path::Path::new("/proc/self").exists() {
            assert!(process_alive(std::process::id()));
            assert!(!process_alive(u32::MAX - 1));
        }
    }
}
