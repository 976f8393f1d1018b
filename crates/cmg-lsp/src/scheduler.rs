//! The server's one owner of state, as a plain state machine: every document, its
//! generations and solve state, the requests parked on them, and the one solve queue.
//! Everything that happens is an [`Event`]; handling one changes the state and returns
//! [`Action`]s (start an analysis, a solve or a build of diagnostics on the pool, send a
//! publication, answer a request) that the server's loop carries out, and whose results
//! come back as events. Nothing here waits, reads a clock or touches a runtime, so the
//! model-based test drives it with events in any order.
//!
//! The rules it keeps:
//! - A request is answered from the analysis of exactly the text the client had when it
//!   sent it: it is parked until that generation is analysed and its diagnostics are
//!   handed out (event order puts diagnostics before answers), and answered
//!   `ContentModified` as soon as a newer edit supersedes it.
//! - A publication is sent only for the current generation, and never after a newer
//!   publication of the same document; a version the client shows with its outcome is
//!   not published again without it.
//! - A solution is kept only for the game it solved; solves share one queue, newest
//!   first, one at a time. A solution is published as soon as it lands; its what-if,
//!   a solve per edge, is a job of its own in the same queue, and lenses and hints are
//!   refreshed again when it ends.
//! - One memory budget for the process: the retained analyses (each counted with its
//!   graph and its game, at [`Analysed::analysis_bytes`]) and solutions (at their
//!   solve's peak, with their game: [`documents::solution_bytes`]), the analyses under
//!   way (at what the text and the graph it declares take: [`documents::analysis_need`])
//!   and the running solve (at its peak) stay within it; `documents` makes every
//!   estimate. An analysis is granted the text's estimate, or what an analysis of the
//!   document measured; one whose text declares a larger graph stops after the parse
//!   and says what it needs, and is started again for that. Before an analysis or a
//!   solve starts, what it
//!   needs is made room for by evicting what the least recently used documents retain
//!   (never what the most recently edited or requested one's analysis); an evicted
//!   document keeps its text, version and published diagnostics, and is analysed again
//!   when a request about it comes. Work that does not fit waits for the work under way
//!   to end, and is refused with a `too-large` diagnostic when nothing is under way.
//! - Work outside the open documents (the closed files of the workspace diagnostics)
//!   leases its room from the same budget, in the order it asks: a lease takes only
//!   the room left, never evicting what a document holds, waits while a document's
//!   analysis or the running solve will free room (not for other leases: the work
//!   holding one may be the work that asks), and is refused when none will. The room
//!   is the work's until it returns it.

use std::collections::HashMap;
use std::sync::Arc;

use tower_lsp_server::ls_types::{TextDocumentContentChangeEvent, Uri};

use super::config::Config;
use super::convert::{self, Encoding};
use super::documents::{
    self, Analysed, AnalysisJob, Document, Finished, Leftover, Needs, OverBudget, SolveJob,
    SolveState,
};
use super::snapshot::Snapshot;
use cmg_core::analysis::{MemorySetting, TooLarge};

/// Which request an answer is for; handed out by the server's loop.
pub type Ticket = u64;

/// Everything that happens to the server's state.
pub enum Event {
    Opened {
        uri: Uri,
        text: String,
        version: i32,
    },
    Changed {
        uri: Uri,
        version: i32,
        changes: Vec<TextDocumentContentChangeEvent>,
    },
    Closed {
        uri: Uri,
    },
    /// `initialize`: the position encoding and the initialization options.
    Initialize {
        encoding: Encoding,
        settings: Option<serde_json::Value>,
    },
    /// A configuration answer (a `cmg` section), the whole truth: what it does not set
    /// is the default. Equal settings change nothing; see [`Scheduler::apply_settings`].
    Settings(serde_json::Value),
    /// The client asked to shut down: solves stop.
    Shutdown,
    /// An analysis ended; `None` if it panicked.
    Analysed {
        uri: Uri,
        generation: u64,
        analysed: Option<Analysed>,
    },
    /// A solve or a what-if job ended (`Stopped` when cancelled or dropped).
    Solved {
        uri: Uri,
        job: SolveJob,
        outcome: SolveOutcome,
    },
    /// The time a publication waits for a quick solve is over.
    SolveWaitOver {
        uri: Uri,
        generation: u64,
    },
    /// A publication of `generation` is built and converted; `None` if building it
    /// panicked (logged by the loop): its requests are let go all the same.
    Built {
        uri: Uri,
        generation: u64,
        build: u64,
        version: i32,
        /// Whether it has the solve's outcome in it.
        solved: bool,
        diagnostics: Option<Vec<tower_lsp_server::ls_types::Diagnostic>>,
    },
    /// The publication of `generation` is handed to the client: its requests may be
    /// answered now, after it.
    Published {
        uri: Uri,
        generation: u64,
    },
    /// A request about `uri` wants its snapshot.
    Request {
        ticket: Ticket,
        uri: Uri,
        needs: Needs,
    },
    /// The longest a request waits for its solve is over: it is answered without it.
    WaitOver {
        ticket: Ticket,
    },
    /// Work outside the open documents (a closed file's analysis or solve for the
    /// workspace diagnostics) asks for `bytes` of the budget; see [`Scheduler`]'s
    /// leases.
    Lease {
        ticket: Ticket,
        bytes: u64,
    },
    /// That work ended, or stopped waiting: its room goes back.
    Return {
        ticket: Ticket,
    },
}

/// How a solve on the pool ended.
pub enum SolveOutcome {
    Solved(Box<cmg_core::explain::Solved>),
    /// Cancelled, or dropped by a runtime shutting down.
    Stopped,
    /// It panicked (logged by the loop).
    Panicked,
}

/// What the server's loop is to do.
pub enum Action {
    /// Run this analysis on the pool; its end is [`Event::Analysed`].
    Analyse { uri: Uri, job: AnalysisJob },
    /// Run this solve (or what-if) on the pool; its end is [`Event::Solved`].
    Solve { uri: Uri, job: SolveJob },
    /// Send [`Event::SolveWaitOver`] after the short wait for a quick solve.
    WaitForSolve { uri: Uri, generation: u64 },
    /// Send [`Event::WaitOver`] once this request has waited the longest a request
    /// waits for a solve.
    BoundWait { ticket: Ticket },
    /// Build and convert these diagnostics on the pool; the result is [`Event::Built`].
    Build(BuildJob),
    /// Send this publication to the client, after every one sent before; then, for a
    /// `generation`, send [`Event::Published`].
    Publish {
        uri: Uri,
        generation: Option<u64>,
        version: Option<i32>,
        diagnostics: Vec<tower_lsp_server::ls_types::Diagnostic>,
    },
    /// Answer the request: `None` for a document that is not open.
    Answer {
        ticket: Ticket,
        snapshot: Option<Box<Snapshot>>,
    },
    /// Answer the request `ContentModified`: its text is gone.
    Modified { ticket: Ticket },
    /// Answer the request: the analysis of its text failed (panicked), and there is
    /// nothing to answer from until the next edit.
    Failed { ticket: Ticket },
    /// The answer to [`Event::Lease`]: the room is the work's until it returns it, or
    /// it does not fit and nothing under way will free it (what is left, and of what).
    Lend {
        ticket: Ticket,
        granted: Result<(), OverBudget>,
    },
    /// Ask the client to refresh lenses and hints: a solution or its what-if landed.
    RefreshViews,
    /// Free this on the pool, off the loop.
    Free(Garbage),
}

/// What the loop frees off its own path: each is held only to be dropped there.
#[allow(dead_code)]
pub enum Garbage {
    Leftover(Leftover),
    /// What an eviction let go.
    Evicted(Leftover),
    /// A closed document, or one opened again.
    Document(Box<Document>),
    Analysed(Box<Analysed>),
}

impl Garbage {
    /// Whether freeing it gives memory back to the system too
    /// ([`documents::give_back_memory`]): what closes and evictions free, which the
    /// process may not need again; not the analysis each edit replaces, whose room the
    /// next edit's analysis takes.
    pub fn gives_back(&self) -> bool {
        matches!(self, Garbage::Evicted(_) | Garbage::Document(_))
    }
}

/// A request waiting for its generation.
struct Parked {
    ticket: Ticket,
    uri: Uri,
    generation: u64,
    needs: Needs,
}

pub struct Scheduler {
    documents: HashMap<Uri, Tracked>,
    pub config: Config,
    /// What a setting that a configuration answer does not give is: the defaults, with
    /// the initialization options.
    defaults: Config,
    pub encoding: Encoding,
    parked: Vec<Parked>,
    /// Solves waiting for the one solve slot; the newest is last and goes first.
    queue: Vec<(Uri, SolveJob)>,
    /// The solve running on the pool, and its peak memory.
    running: Option<(Uri, SolveJob, u64)>,
    /// The analyses running on the pool, by generation, and their estimates.
    reserved: HashMap<u64, u64>,
    /// Documents whose analysis waits for room in the budget, in the order they came.
    waiting: Vec<Uri>,
    /// The room lent to work outside the open documents, by ticket, and the leases that
    /// wait for room, in the order they came.
    leases: HashMap<Ticket, u64>,
    lease_queue: Vec<(Ticket, u64)>,
    /// A clock of events, for "least recently used".
    tick: u64,
    /// Analyses evicted so far (for the tests and the log).
    pub evictions: u64,
}

struct Tracked {
    /// The first generation of this opening: an analysis of an older one (the document
    /// was closed or opened again meanwhile) is not this one's.
    opened: u64,
    document: Document,
    publication: Publication,
    last_used: u64,
}

impl Scheduler {
    pub fn new(config: Config, encoding: Encoding) -> Scheduler {
        Scheduler {
            documents: HashMap::new(),
            defaults: config.clone(),
            config,
            encoding,
            parked: Vec::new(),
            queue: Vec::new(),
            running: None,
            reserved: HashMap::new(),
            waiting: Vec::new(),
            leases: HashMap::new(),
            lease_queue: Vec::new(),
            tick: 0,
            evictions: 0,
        }
    }

    /// The documents the client has open.
    pub fn open_documents(&self) -> Vec<Uri> {
        self.documents.keys().cloned().collect()
    }

    /// Handles one event; the actions are to be carried out in order.
    pub fn handle(&mut self, event: Event) -> Vec<Action> {
        self.tick += 1;
        let mut actions = Vec::new();
        self.dispatch(event, &mut actions);
        if !self.waiting.is_empty() {
            self.start_waiting(&mut actions);
        }
        if self.running.is_none() && !self.queue.is_empty() {
            self.pump(&mut actions);
        }
        if !self.lease_queue.is_empty() {
            self.lend_waiting(&mut actions);
        }
        actions
    }

    fn dispatch(&mut self, event: Event, actions: &mut Vec<Action>) {
        match event {
            Event::Opened { uri, text, version } => {
                let mut document = Document::new(&text, version);
                let job = document.changed(&self.config);
                let tracked = Tracked {
                    opened: document.generation,
                    document,
                    publication: Publication::default(),
                    last_used: self.tick,
                };
                self.waiting.retain(|waiting| *waiting != uri);
                if let Some(old) = self.documents.insert(uri.clone(), tracked) {
                    old.document.cancel_solve();
                    actions.push(Action::Free(Garbage::Document(Box::new(old.document))));
                }
                if let Some(job) = job {
                    self.start_analysis(uri.clone(), job, actions);
                }
                self.settle_parked(&uri, actions);
            }
            Event::Changed {
                uri,
                version,
                changes,
            } => {
                let (config, encoding, tick) = (&self.config, self.encoding, self.tick);
                let mut job = None;
                if let Some(tracked) = self.documents.get_mut(&uri) {
                    let document = &mut tracked.document;
                    for change in &changes {
                        convert::apply_change(
                            &mut document.rope,
                            encoding,
                            change.range,
                            &change.text,
                        );
                    }
                    document.version = version;
                    tracked.last_used = tick;
                    job = document.changed(config);
                }
                if let Some(job) = job {
                    self.start_analysis(uri.clone(), job, actions);
                }
                self.settle_parked(&uri, actions);
            }
            Event::Closed { uri } => {
                if let Some(old) = self.documents.remove(&uri) {
                    old.document.cancel_solve();
                    actions.push(Action::Free(Garbage::Document(Box::new(old.document))));
                }
                self.queue.retain(|(queued, _)| *queued != uri);
                self.waiting.retain(|waiting| *waiting != uri);
                self.settle_parked(&uri, actions);
                actions.push(Action::Publish {
                    uri,
                    generation: None,
                    version: None,
                    diagnostics: Vec::new(),
                });
            }
            Event::Initialize { encoding, settings } => {
                self.encoding = encoding;
                // No document is open yet, and no request may go to the client before
                // `initialize` is answered: the settings are only taken.
                if let Some(settings) = settings {
                    self.defaults.update(&settings);
                }
                self.config = self.defaults.clone();
            }
            Event::Settings(settings) => {
                let config = self.defaults.answered(&settings);
                self.apply_settings(config, actions);
            }
            Event::Shutdown => {
                for tracked in self.documents.values() {
                    tracked.document.cancel_solve();
                }
                self.queue.clear();
                // Nothing is solved any more: every waiting request is answered now,
                // from what there is (or with nothing).
                for parked in &mut self.parked {
                    parked.needs = Needs::Analysis;
                }
                let uris: Vec<Uri> = self.parked.iter().map(|p| p.uri.clone()).collect();
                for uri in uris {
                    self.settle_parked(&uri, actions);
                }
                for parked in self.parked.drain(..) {
                    actions.push(Action::Answer {
                        ticket: parked.ticket,
                        snapshot: None,
                    });
                }
            }
            Event::Analysed {
                uri,
                generation,
                analysed,
            } => {
                self.reserved.remove(&generation);
                self.analysed(uri, generation, analysed, actions);
            }
            Event::Solved { uri, job, outcome } => self.solved(uri, job, outcome, actions),
            Event::SolveWaitOver { uri, generation } => {
                let Some(tracked) = self.documents.get_mut(&uri) else {
                    return;
                };
                let publication = &mut tracked.publication;
                // Only the timer of the solve's own wait: one of a solve since
                // superseded ends nothing.
                let Some(wait) = publication
                    .solve_wait
                    .as_mut()
                    .filter(|wait| wait.started == generation)
                else {
                    return;
                };
                wait.over = true;
                // Whichever text of the same game waits now is published.
                if publication.waiting.take().is_some() {
                    self.build(&uri, actions);
                }
            }
            Event::Built {
                uri,
                generation,
                build,
                version,
                solved,
                diagnostics,
            } => {
                let Some(tracked) = self.documents.get_mut(&uri) else {
                    return;
                };
                let document = &mut tracked.document;
                let current = document.generation == generation && document.is_current();
                if build <= tracked.publication.sent {
                    return;
                }
                if !current {
                    // Not sent, but no longer under way: what waits for this
                    // document's publication (`publishing`) need not wait for it. Every
                    // older build is of an older generation, stale too. (A build of an
                    // earlier opening counts its builds apart.)
                    if generation >= tracked.opened {
                        tracked.publication.sent = build;
                    }
                    return;
                }
                tracked.publication.sent = build;
                match diagnostics {
                    Some(diagnostics) => {
                        tracked.publication.outcome_shown = solved.then_some(version);
                        actions.push(Action::Publish {
                            uri: uri.clone(),
                            generation: Some(generation),
                            version: Some(version),
                            diagnostics,
                        });
                    }
                    None => {
                        document.released = document.released.max(generation);
                        self.settle_parked(&uri, actions);
                    }
                }
            }
            Event::Published { uri, generation } => {
                if let Some(tracked) = self.documents.get_mut(&uri) {
                    let document = &mut tracked.document;
                    document.released = document.released.max(generation);
                }
                self.settle_parked(&uri, actions);
            }
            Event::Request { ticket, uri, needs } => {
                let tick = self.tick;
                let Some(tracked) = self.documents.get_mut(&uri) else {
                    actions.push(Action::Answer {
                        ticket,
                        snapshot: None,
                    });
                    return;
                };
                tracked.last_used = tick;
                let before = tracked.document.generation;
                let rebuilt = tracked.document.rebuild(&self.config);
                let generation = tracked.document.generation;
                if generation != before {
                    // The same text analysed again: what waits for it waits for this.
                    for parked in &mut self.parked {
                        if parked.uri == uri && parked.generation == before {
                            parked.generation = generation;
                        }
                    }
                }
                if let Some(job) = rebuilt {
                    self.start_analysis(uri.clone(), job, actions);
                }
                let tracked = self.documents.get_mut(&uri).expect("open");
                if let Some(job) = tracked.document.resolve_evicted() {
                    self.enqueue(uri.clone(), job);
                }
                self.parked.push(Parked {
                    ticket,
                    uri: uri.clone(),
                    generation,
                    needs,
                });
                if needs == Needs::Solve {
                    actions.push(Action::BoundWait { ticket });
                }
                self.settle_parked(&uri, actions);
                self.pump(actions);
            }
            Event::Lease { ticket, bytes } => {
                self.lease_queue.push((ticket, bytes));
                self.lend_waiting(actions);
            }
            Event::Return { ticket } => {
                self.leases.remove(&ticket);
                self.lease_queue.retain(|(waiting, _)| *waiting != ticket);
            }
            Event::WaitOver { ticket } => {
                let Some(parked) = self.parked.iter_mut().find(|p| p.ticket == ticket) else {
                    return;
                };
                parked.needs = Needs::Analysis;
                let uri = parked.uri.clone();
                self.settle_parked(&uri, actions);
            }
        }
    }

    fn analysed(
        &mut self,
        uri: Uri,
        generation: u64,
        mut analysed: Option<Analysed>,
        actions: &mut Vec<Action>,
    ) {
        // Settings that do not change an analysis may have changed while it ran.
        if let Some(analysed) = analysed.as_mut() {
            if analysed.config.same_analysis(&self.config) {
                analysed.config = self.config.clone();
            }
        }
        let Some(tracked) = self
            .documents
            .get_mut(&uri)
            .filter(|tracked| generation >= tracked.opened)
        else {
            // Not this opening's: its own analysis is under way, or waits for room.
            if let Some(analysed) = analysed {
                actions.push(Action::Free(Garbage::Analysed(Box::new(analysed))));
            }
            return;
        };
        let needs = analysed.as_ref().and_then(|analysed| analysed.needs);
        if let Some(need) = needs.filter(|_| tracked.document.generation == generation) {
            // The text declares a larger graph than the analysis was granted room for:
            // nothing was built. It starts again once there is room for what it needs,
            // or is refused for it.
            let job = tracked.document.measured(generation, need, &self.config);
            self.start_analysis(uri, job, actions);
            return;
        }
        match tracked
            .document
            .finish_analysis(generation, analysed, &self.config)
        {
            Finished::Stale(next, leftover) => {
                actions.push(Action::Free(Garbage::Leftover(leftover)));
                if let Some(job) = next {
                    self.start_analysis(uri.clone(), job, actions);
                }
            }
            Finished::Accepted(solve, leftover) => {
                actions.push(Action::Free(Garbage::Leftover(leftover)));
                let document = &mut tracked.document;
                let quiet = document.quiet == generation && document.analysed.over_budget.is_none();
                if document.failed == generation || quiet {
                    // Nothing to publish for a failed analysis, nor for an evicted one
                    // analysed again (its diagnostics are on the client; refused now, it
                    // is published to say so); its requests are let go.
                    tracked.publication.waiting = None;
                    document.released = document.released.max(generation);
                } else if document.pending_solve().is_some()
                    && tracked.publication.outcome_shown == Some(document.version)
                {
                    // The same version analysed again (settings changed, its analysis
                    // was evicted) while the client shows its outcome: no publication
                    // takes the outcome away until the solve lands; the solve's landing
                    // (or its refusal) publishes. The requests don't wait.
                    tracked.publication.waiting = None;
                    document.released = document.released.max(generation);
                } else if let Some(pending) = document.pending_solve() {
                    // The first publication waits a moment for the solve, so that a quick
                    // solve's `expect-mismatch` comes with the rest; the requests don't
                    // wait with it. A solve makes publications wait once: a solve that
                    // goes on from an earlier text has begun its wait already.
                    let publication = &mut tracked.publication;
                    let wait = publication
                        .solve_wait
                        .as_ref()
                        .filter(|wait| Arc::ptr_eq(&wait.solve, pending));
                    match wait {
                        Some(wait) if wait.over => {
                            publication.waiting = None;
                            self.build(&uri, actions);
                        }
                        Some(_) => {
                            publication.waiting = Some(generation);
                            document.released = document.released.max(generation);
                        }
                        None => {
                            publication.solve_wait = Some(SolveWait {
                                solve: pending.clone(),
                                started: generation,
                                over: false,
                            });
                            publication.waiting = Some(generation);
                            document.released = document.released.max(generation);
                            actions.push(Action::WaitForSolve {
                                uri: uri.clone(),
                                generation,
                            });
                        }
                    }
                } else {
                    tracked.publication.waiting = None;
                    self.build(&uri, actions);
                }
                if let Some(job) = solve {
                    self.enqueue(uri.clone(), job);
                }
                self.pump(actions);
            }
        }
        self.settle_parked(&uri, actions);
    }

    /// The current text of an open document (for the tests).
    #[cfg(test)]
    pub fn text(&self, uri: &Uri) -> Option<String> {
        self.documents
            .get(uri)
            .map(|tracked| tracked.document.rope.to_string())
    }
}

mod budget;
mod parking;
mod publication;
mod queue;
mod settings;

pub use publication::BuildJob;
use publication::{Publication, SolveWait};

#[cfg(test)]
mod harness;

#[cfg(test)]
mod scenarios;

#[cfg(test)]
mod tests;
