//! The client's side: what it said it can do (`ClientSupport`, from `initialize`), and
//! the requests the server sends it, each with a time limit so that a client that does
//! not answer holds nothing up.

use std::future::Future;
use std::time::Duration;

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::ClientCapabilities;
use tower_lsp_server::Client;

/// Every request the server sends to the client gets an answer within this time, or is
/// given up: a client that never answers must not hold anything up.
const CLIENT_REQUEST_TIMEOUT: Duration = Duration::from_secs(20);

/// What the client said it can do, as far as the server cares.
#[derive(Clone, Copy, Default)]
pub struct ClientSupport {
    pub(super) configuration: bool,
    pub(super) inlay_hint_refresh: bool,
    pub(super) code_lens_refresh: bool,
    /// Whether code actions may be listed without their edit, which the client asks
    /// for with `codeAction/resolve` (it keeps `data` and resolves `edit`).
    pub(super) code_action_resolve: bool,
    /// Whether the client shows progress the server starts (`window.workDoneProgress`).
    pub(super) work_done_progress: bool,
    /// Whether the client pulls diagnostics (`textDocument.diagnostic`): it is then
    /// sent no publications.
    pub pull_diagnostics: bool,
    /// Whether it can be asked to pull again (`workspace/diagnostic/refresh`).
    pub diagnostic_refresh: bool,
}

impl ClientSupport {
    /// What `capabilities` (of `initialize`) say the client can do.
    pub fn of(capabilities: &ClientCapabilities) -> ClientSupport {
        let workspace = capabilities.workspace.as_ref();
        let code_action = capabilities
            .text_document
            .as_ref()
            .and_then(|t| t.code_action.as_ref());
        ClientSupport {
            code_action_resolve: code_action.is_some_and(|c| {
                c.data_support == Some(true)
                    && c.resolve_support
                        .as_ref()
                        .is_some_and(|r| r.properties.iter().any(|p| p == "edit"))
            }),
            configuration: workspace.and_then(|w| w.configuration).unwrap_or(false),
            work_done_progress: capabilities
                .window
                .as_ref()
                .and_then(|w| w.work_done_progress)
                .unwrap_or(false),
            inlay_hint_refresh: workspace
                .and_then(|w| w.inlay_hint.as_ref())
                .and_then(|c| c.refresh_support)
                .unwrap_or(false),
            code_lens_refresh: workspace
                .and_then(|w| w.code_lens.as_ref())
                .and_then(|c| c.refresh_support)
                .unwrap_or(false),
            pull_diagnostics: capabilities
                .text_document
                .as_ref()
                .is_some_and(|t| t.diagnostic.is_some()),
            diagnostic_refresh: workspace
                .and_then(|w| w.diagnostics.as_ref())
                .and_then(|c| c.refresh_support)
                .unwrap_or(false),
        }
    }
}

/// Sends a request to the client with a time limit; `None` when it fails or the client
/// does not answer in time.
pub(super) async fn ask_client<T>(request: impl Future<Output = Result<T>>) -> Option<T> {
    tokio::time::timeout(CLIENT_REQUEST_TIMEOUT, request)
        .await
        .ok()?
        .ok()
}

/// Asks a pull client to pull diagnostics again, where it can.
pub(super) async fn refresh_diagnostics(client: &Client, support: ClientSupport) {
    if support.diagnostic_refresh {
        ask_client(client.workspace_diagnostic_refresh()).await;
    }
}

/// Asks the client to refresh lenses and hints, where it can (a solution landed).
pub(super) async fn refresh_views(client: &Client, support: ClientSupport) {
    if support.inlay_hint_refresh {
        ask_client(client.inlay_hint_refresh()).await;
    }
    if support.code_lens_refresh {
        ask_client(client.code_lens_refresh()).await;
    }
}
