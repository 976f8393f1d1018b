//! The server's loop: one task owns the [`Scheduler`] and takes its events from one
//! channel, in order: the handlers' messages (edits, settings, requests for a
//! snapshot) and the ends of the work it started on the pool. It carries out the
//! scheduler's actions: heavy work (analyses, solves, building and converting
//! diagnostics) goes to the blocking pool and comes back as an event; publications go
//! to one publisher task, in order; answers go back to the waiting handler.

use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use tokio::sync::{mpsc, oneshot};
use tower_lsp_server::jsonrpc::{Error, Result};
use tower_lsp_server::ls_types::{Diagnostic, MessageType, Uri};
use tower_lsp_server::Client;

use super::client::ClientSupport;
use super::config::Config;
use super::convert::Encoding;
use super::documents::{Needs, OverBudget};
use super::pull::Pulled;
use super::scheduler::{Action, Event, Scheduler, SolveOutcome, Ticket};
use super::snapshot::Snapshot;

/// How long the first publication of an analysis waits for a pending solve, so that a
/// quick solve's `expect-mismatch` comes in the same publication as the rest (no
/// flicker in the count); a slower solve publishes a second time when it lands.
const SOLVE_WAIT_BEFORE_PUBLISH: Duration = Duration::from_millis(250);
/// The longest a lens or hint request of a client without refresh waits for its solve;
/// then it is answered without the outcome.
const LONGEST_SOLVE_WAIT: Duration = Duration::from_secs(3);

/// The way into the loop.
#[derive(Clone)]
pub struct Loop {
    messages: mpsc::UnboundedSender<Message>,
}

enum Message {
    Event(Event),
    Request {
        uri: Uri,
        needs: Needs,
        reply: Reply,
    },
    /// What a workspace report needs from the loop.
    Workspace {
        reply: oneshot::Sender<WorkspaceState>,
    },
    /// Room in the budget for work outside the open documents.
    Lease {
        ticket: Ticket,
        bytes: u64,
        reply: std::sync::mpsc::Sender<std::result::Result<(), OverBudget>>,
    },
}

/// Room lent by the memory budget to work outside the open documents; dropped, it goes
/// back.
pub struct Lease {
    messages: mpsc::UnboundedSender<Message>,
    ticket: Ticket,
}

impl Drop for Lease {
    fn drop(&mut self) {
        let ticket = self.ticket;
        let _ = self.messages.send(Message::Event(Event::Return { ticket }));
    }
}

/// Why there is no lease.
#[derive(Debug)]
pub enum NoRoom {
    /// It does not fit, and nothing under way will free room.
    Refused(OverBudget),
    /// The room did not come by the deadline (or the loop stopped).
    Late,
}

/// Lease tickets: a space of their own, apart from the requests'.
static NEXT_LEASE: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1 << 62);

/// Where the loop answers a request for a snapshot.
type Reply = oneshot::Sender<std::result::Result<Option<Snapshot>, Unanswerable>>;

/// Why a request has no snapshot to work on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unanswerable {
    /// An edit replaced the text it was asked about.
    Superseded,
    /// The analysis of its text failed (panicked, and the log says so): there is
    /// nothing to answer from until the next edit.
    Failed,
    /// The loop has stopped (the server is going down).
    Stopped,
}

impl From<Unanswerable> for Error {
    /// What a request that has no better answer of its own replies.
    fn from(why: Unanswerable) -> Error {
        match why {
            Unanswerable::Superseded | Unanswerable::Failed => Error::content_modified(),
            Unanswerable::Stopped => Error::internal_error(),
        }
    }
}

/// The settings, the position encoding and the open documents, as the loop has them.
pub struct WorkspaceState {
    pub config: Config,
    pub encoding: Encoding,
    pub open: Vec<Uri>,
}

/// A publication for the publisher: the generation it publishes, if any, is reported
/// back once it is handed to the client.
type Publication = (Uri, Option<u64>, Vec<Diagnostic>, Option<i32>);

impl Loop {
    /// Starts the loop and its publisher; needs a running tokio runtime.
    pub fn start(
        client: Client,
        support: Arc<OnceLock<ClientSupport>>,
        pulled: Arc<Mutex<Pulled>>,
    ) -> Loop {
        let (messages, inbox) = mpsc::unbounded_channel();
        let (publications, publisher_inbox) = mpsc::unbounded_channel();
        let delivery = Delivery {
            client: client.clone(),
            support: support.clone(),
            pulled,
        };
        tokio::spawn(publisher(delivery, publisher_inbox, messages.clone()));
        let runner = Runner {
            scheduler: Scheduler::new(
                Config {
                    memory_cap: super::config::address_space_cap(),
                    ..Config::default()
                },
                Encoding::default(),
            ),
            messages: messages.clone(),
            client,
            support,
            publications,
            replies: HashMap::new(),
            lends: HashMap::new(),
            next_ticket: 0,
            solver: solver_config(),
        };
        tokio::spawn(runner.run(inbox));
        Loop { messages }
    }

    pub fn send(&self, event: Event) {
        let _ = self.messages.send(Message::Event(event));
    }

    /// The snapshot a request works on, once the scheduler has it (see
    /// [`Scheduler`]): `Ok(None)` for a document that is not open or too large to
    /// analyse, else why there is none.
    pub async fn snapshot(
        &self,
        uri: Uri,
        needs: Needs,
    ) -> std::result::Result<Option<Snapshot>, Unanswerable> {
        let (reply, answer) = oneshot::channel();
        if self
            .messages
            .send(Message::Request { uri, needs, reply })
            .is_err()
        {
            return Err(Unanswerable::Stopped);
        }
        answer.await.unwrap_or(Err(Unanswerable::Stopped))
    }

    /// Room for `bytes` in the server's memory budget, waited for until `deadline`;
    /// blocks, so it runs on the blocking pool. See [`Scheduler`]'s leases.
    pub fn lease_blocking(
        &self,
        bytes: u64,
        deadline: Instant,
    ) -> std::result::Result<Lease, NoRoom> {
        let ticket = NEXT_LEASE.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let (reply, answer) = std::sync::mpsc::channel();
        let lease = Lease {
            messages: self.messages.clone(),
            ticket,
        };
        let asked = Message::Lease {
            ticket,
            bytes,
            reply,
        };
        if self.messages.send(asked).is_err() {
            return Err(NoRoom::Late);
        }
        // Late or refused, the lease is dropped: it stops waiting, or gives back room
        // lent just now.
        match answer.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            Ok(Ok(())) => Ok(lease),
            Ok(Err(refused)) => Err(NoRoom::Refused(refused)),
            Err(_) => Err(NoRoom::Late),
        }
    }

    /// The settings, encoding and open documents, once the events before are handled.
    pub async fn workspace(&self) -> Result<WorkspaceState> {
        let (reply, answer) = oneshot::channel();
        if self.messages.send(Message::Workspace { reply }).is_err() {
            return Err(Error::internal_error());
        }
        answer.await.map_err(|_| Error::internal_error())
    }
}

/// The live solve leaves a core to the keystroke path: the analysis of the next edit
/// must not wait for the solver's second thread.
fn solver_config() -> cmg_solve::Config {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    cmg_solve::Config {
        threads: Some(cores.saturating_sub(1).max(1)),
        ..cmg_solve::Config::default()
    }
}

/// Sends publications one after another, in the order the loop made them, and tells
/// the loop when each is handed to the client: the answers of that generation go out
/// after it.
async fn publisher(
    delivery: Delivery,
    mut inbox: mpsc::UnboundedReceiver<Publication>,
    loop_inbox: mpsc::UnboundedSender<Message>,
) {
    while let Some((uri, generation, diagnostics, version)) = inbox.recv().await {
        delivery.deliver(&uri, diagnostics, version).await;
        if let Some(generation) = generation {
            let _ = loop_inbox.send(Message::Event(Event::Published { uri, generation }));
        }
    }
}

/// Where publications go: to the client, for one that cannot pull diagnostics (it
/// said nothing of `textDocument.diagnostic`); for one that pulls, nowhere, but a
/// client holding other diagnostics for the same version is asked to pull again (see
/// [`super::pull`]).
struct Delivery {
    client: Client,
    support: Arc<OnceLock<ClientSupport>>,
    pulled: Arc<Mutex<Pulled>>,
}

impl Delivery {
    async fn deliver(&self, uri: &Uri, diagnostics: Vec<Diagnostic>, version: Option<i32>) {
        let support = self.support.get().copied().unwrap_or_default();
        if !support.pull_diagnostics {
            self.client
                .publish_diagnostics(uri.clone(), diagnostics, version)
                .await;
            return;
        }
        let stale = self
            .pulled
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .built(uri, version, &diagnostics);
        if stale {
            let client = self.client.clone();
            tokio::spawn(async move { super::client::refresh_diagnostics(&client, support).await });
        }
    }
}

struct Runner {
    scheduler: Scheduler,
    /// For the ends of pool work, which come back as events.
    messages: mpsc::UnboundedSender<Message>,
    client: Client,
    support: Arc<OnceLock<ClientSupport>>,
    publications: mpsc::UnboundedSender<Publication>,
    replies: HashMap<Ticket, Reply>,
    /// Where the answers to leases go.
    lends: HashMap<Ticket, std::sync::mpsc::Sender<std::result::Result<(), OverBudget>>>,
    next_ticket: Ticket,
    solver: cmg_solve::Config,
}

/// The text of a panic's payload, for the log.
fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "no message".to_owned())
}

impl Runner {
    async fn run(mut self, mut inbox: mpsc::UnboundedReceiver<Message>) {
        while let Some(message) = inbox.recv().await {
            let event = match message {
                Message::Event(event) => event,
                Message::Workspace { reply } => {
                    let _ = reply.send(WorkspaceState {
                        config: self.scheduler.config.clone(),
                        encoding: self.scheduler.encoding,
                        open: self.scheduler.open_documents(),
                    });
                    continue;
                }
                Message::Lease {
                    ticket,
                    bytes,
                    reply,
                } => {
                    self.lends.insert(ticket, reply);
                    Event::Lease { ticket, bytes }
                }
                Message::Request { uri, needs, reply } => {
                    self.next_ticket += 1;
                    self.replies.insert(self.next_ticket, reply);
                    Event::Request {
                        ticket: self.next_ticket,
                        uri,
                        needs,
                    }
                }
            };
            for action in self.scheduler.handle(event) {
                self.execute(action);
            }
        }
    }

    /// Runs `work` on the blocking pool and sends the event `done` makes of its end
    /// (`None`: it panicked, and `describe` says so in the log).
    fn on_pool<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
        describe: impl FnOnce(&str) -> String + Send + 'static,
        done: impl FnOnce(Option<T>) -> Event + Send + 'static,
    ) {
        let messages = self.messages.clone();
        let client = self.client.clone();
        tokio::spawn(async move {
            let ran =
                tokio::task::spawn_blocking(move || catch_unwind(AssertUnwindSafe(work))).await;
            let value = match ran {
                Ok(Ok(value)) => Some(value),
                Ok(Err(payload)) => {
                    let message = describe(&panic_text(payload.as_ref()));
                    client.log_message(MessageType::ERROR, message).await;
                    None
                }
                // The runtime is shutting down.
                Err(_) => None,
            };
            let _ = messages.send(Message::Event(done(value)));
        });
    }

    fn execute(&mut self, action: Action) {
        match action {
            Action::Analyse { uri, job } => {
                let generation = job.generation;
                let name = uri.as_str().to_owned();
                self.on_pool(
                    move || job.run(),
                    move |panic| format!("cmg: the analysis of {name} failed ({panic}); its features answer nothing until the next edit"),
                    move |analysed| Event::Analysed { uri, generation, analysed },
                );
            }
            Action::Solve { uri, job } => {
                let (work, config) = (job.clone(), self.solver);
                let name = uri.as_str().to_owned();
                let (what, lost) = match job.explain {
                    None => ("the solver", "the outcome is not shown"),
                    Some(_) => ("the what-if", "it is not shown"),
                };
                self.on_pool(
                    move || {
                        let solved = work.run(config);
                        if solved.is_none() {
                            // Stopped (its document closed, evicted or edited): its
                            // tables, freed by now, go back to the system too.
                            super::documents::give_back_memory();
                        }
                        solved
                    },
                    move |panic| format!("cmg: {what} failed on {name} ({panic}); {lost}"),
                    move |solved| Event::Solved {
                        uri,
                        job,
                        outcome: match solved {
                            Some(Some(solution)) => SolveOutcome::Solved(Box::new(solution)),
                            Some(None) => SolveOutcome::Stopped,
                            None => SolveOutcome::Panicked,
                        },
                    },
                );
            }
            Action::WaitForSolve { uri, generation } => {
                let messages = self.messages.clone();
                tokio::spawn(async move {
                    tokio::time::sleep(SOLVE_WAIT_BEFORE_PUBLISH).await;
                    let _ = messages.send(Message::Event(Event::SolveWaitOver { uri, generation }));
                });
            }
            Action::BoundWait { ticket } => {
                let messages = self.messages.clone();
                tokio::spawn(async move {
                    tokio::time::sleep(LONGEST_SOLVE_WAIT).await;
                    let _ = messages.send(Message::Event(Event::WaitOver { ticket }));
                });
            }
            Action::Build(job) => {
                let name = job.uri().as_str().to_owned();
                // Shared by the work and its end, which names the build even when the
                // work panicked.
                let job = Arc::new(job);
                let on_pool = job.clone();
                self.on_pool(
                    move || on_pool.run(),
                    move |panic| {
                        format!("cmg: the diagnostics of {name} could not be built ({panic})")
                    },
                    move |diagnostics| job.built(diagnostics),
                );
            }
            Action::Publish {
                uri,
                generation,
                version,
                diagnostics,
            } => {
                let _ = self
                    .publications
                    .send((uri, generation, diagnostics, version));
            }
            Action::Answer { ticket, snapshot } => {
                if let Some(reply) = self.replies.remove(&ticket) {
                    let _ = reply.send(Ok(snapshot.map(|snapshot| *snapshot)));
                }
            }
            Action::Modified { ticket } => {
                if let Some(reply) = self.replies.remove(&ticket) {
                    let _ = reply.send(Err(Unanswerable::Superseded));
                }
            }
            Action::Failed { ticket } => {
                if let Some(reply) = self.replies.remove(&ticket) {
                    let _ = reply.send(Err(Unanswerable::Failed));
                }
            }
            Action::Lend { ticket, granted } => {
                if let Some(reply) = self.lends.remove(&ticket) {
                    let _ = reply.send(granted);
                }
            }
            Action::RefreshViews => {
                let support = self.support.get().copied().unwrap_or_default();
                let client = self.client.clone();
                tokio::spawn(async move { super::client::refresh_views(&client, support).await });
            }
            Action::Free(garbage) => {
                tokio::task::spawn_blocking(move || {
                    let gives_back = garbage.gives_back();
                    drop(garbage);
                    if gives_back {
                        super::documents::give_back_memory();
                    }
                });
            }
        }
    }
}
