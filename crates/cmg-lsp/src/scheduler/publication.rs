//! Publication: what each document has sent the client, the builds of its diagnostics
//! on the pool, and the short wait of a first publication for a quick solve.

use super::*;

/// A publication to build and convert on the pool, for build `build` of `generation`.
pub struct BuildJob {
    uri: Uri,
    generation: u64,
    build: u64,
    analysed: Arc<Analysed>,
    solve: SolveState,
    encoding: Encoding,
}

impl BuildJob {
    /// The diagnostics in protocol form: the heavy part, run on the pool.
    pub fn run(&self) -> Vec<tower_lsp_server::ls_types::Diagnostic> {
        documents::publication(&self.uri, &self.analysed, &self.solve, self.encoding)
    }

    /// The end of the build: `None` if building panicked.
    pub fn built(&self, diagnostics: Option<Vec<tower_lsp_server::ls_types::Diagnostic>>) -> Event {
        Event::Built {
            version: self.analysed.version,
            solved: matches!(self.solve, SolveState::Solved(_)),
            uri: self.uri.clone(),
            generation: self.generation,
            build: self.build,
            diagnostics,
        }
    }

    /// The document it is for.
    pub fn uri(&self) -> &Uri {
        &self.uri
    }
}

/// The publication state of one document.
#[derive(Default)]
pub(super) struct Publication {
    /// Builds handed out, and the latest one sent (or ended stale): an older build that
    /// ends after a newer one is not sent.
    pub(super) builds: u64,
    pub(super) sent: u64,
    /// The generation whose first publication waits for a quick solve.
    pub(super) waiting: Option<u64>,
    /// The wait for the pending solve. It belongs to the solve, not to a text: a solve
    /// makes publications wait once, so a later text of the same game (typing in a
    /// comment while a long solve runs) waits only for what is left of that wait, and
    /// once it is over publishes at once, without the outcome until the solve lands.
    pub(super) solve_wait: Option<SolveWait>,
    /// The version whose outcome the client shows, if the latest publication sent had
    /// the outcome in it: that version is not published again without it.
    pub(super) outcome_shown: Option<i32>,
}

/// One solve's wait before publishing: the solve (its cancel flag names the job), the
/// generation whose analysis began the wait (its timer event names it), and whether
/// the wait is over.
pub(super) struct SolveWait {
    pub(super) solve: Arc<std::sync::atomic::AtomicBool>,
    pub(super) started: u64,
    pub(super) over: bool,
}

impl Scheduler {
    /// Hands out a build of the current publication of `uri`.
    pub(super) fn build(&mut self, uri: &Uri, actions: &mut Vec<Action>) {
        let Some(tracked) = self.documents.get_mut(uri) else {
            return;
        };
        let document = &tracked.document;
        if !document.is_current() {
            return;
        }
        tracked.publication.builds += 1;
        let solve = match &document.solve {
            // Before the solve lands, no `expect-mismatch` rather than a stale one.
            SolveState::Pending { .. } | SolveState::Evicted => SolveState::NoGame,
            other => other.clone(),
        };
        actions.push(Action::Build(BuildJob {
            uri: uri.clone(),
            generation: document.generation,
            build: tracked.publication.builds,
            analysed: document.analysed.clone(),
            solve,
            encoding: self.encoding,
        }));
    }
}
