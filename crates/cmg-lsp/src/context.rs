//! What a request's handler may use, and nothing more: the snapshot of its text (from
//! the server's loop), the client, what the client can do, and the few services that
//! outlive a request (the tokens last sent, the pulls answered, the searches under way).
//! The handlers in `requests/` and the diagnostics pulls depend on this, not on the
//! `Server` that calls them, so that the server can list them without a circle.

use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::*;
use tower_lsp_server::Client;

use crate::client::{refresh_diagnostics, ClientSupport};
use crate::documents::Needs;
use crate::event_loop::{Loop, Unanswerable};
use crate::longer_game::Searches;
use crate::pool::on_pool;
use crate::pull::Pulled;
use crate::snapshot::Snapshot;
use crate::tokens::TokenCache;

#[derive(Clone)]
pub struct Context {
    pub(crate) client: Client,
    pub(crate) events: Loop,
    /// What the client can do, known from `initialize` on.
    pub(crate) support: Arc<OnceLock<ClientSupport>>,
    tokens: Arc<Mutex<TokenCache>>,
    /// What pull clients were answered, shared with the loop's publisher.
    pulled: Arc<Mutex<Pulled>>,
    /// The searches for a longer game under way, for their cancel.
    pub(crate) searches: Arc<Searches>,
}

impl Context {
    /// The context of a new server; starts the server's loop: needs a running runtime.
    pub(crate) fn start(client: Client) -> Context {
        let support = Arc::new(OnceLock::new());
        let pulled = Arc::<Mutex<Pulled>>::default();
        Context {
            events: Loop::start(client.clone(), support.clone(), pulled.clone()),
            client,
            support,
            tokens: Arc::default(),
            pulled,
            searches: Arc::default(),
        }
    }

    pub(crate) fn pulled(&self) -> MutexGuard<'_, Pulled> {
        self.pulled
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
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
    pub(crate) async fn current(
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
}
