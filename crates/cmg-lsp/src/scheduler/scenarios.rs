//! Scenarios: each drives the scheduler through one exact sequence of events, with a
//! small pool that runs the work it hands out when the test says so, and pins one rule
//! (which document is evicted first, which timer publishes, what a failed analysis
//! answers). Several were written for mutants of the scheduler that its property tests
//! let live (`docs/dev/testing.md`).
//!
//! Here the pool and the helpers; the scenarios sit in one file for each part of the
//! scheduler they pin: `budget` (evictions, leases, waiting for room), `parking` (the
//! answers to parked requests), `publication` (timers and the summary of hidden
//! diagnostics), `queue` (solves and what-ifs) and `settings`.

use cmg_core::analysis::Analysis;
use cmg_core::explain::WhatIfState;
use cmg_solve::peak_memory_bytes;
use tower_lsp_server::ls_types::{Diagnostic, DiagnosticSeverity};

use super::*;
use crate::scheduler::harness;

mod budget;
mod parking;
mod publication;
mod queue;
mod settings;

/// A scheduler with the default settings, and a pool with nothing under way.
fn start() -> (Scheduler, Pool) {
    (
        Scheduler::new(Config::default(), Encoding::Utf16),
        Pool::default(),
    )
}

/// [`start`], with the default settings updated by `settings` (as a client sends them).
fn start_with(settings: serde_json::Value) -> (Scheduler, Pool) {
    let mut config = Config::default();
    config.update(&settings);
    (Scheduler::new(config, Encoding::Utf16), Pool::default())
}

fn uri(name: &str) -> Uri {
    format!("file:///{name}.cmg").parse().unwrap()
}

/// The work the scheduler handed out and not yet finished, and what it sent.
#[derive(Default)]
struct Pool {
    work: harness::Work,
    answered: Vec<Ticket>,
    modified: Vec<Ticket>,
    failed: Vec<Ticket>,
    /// Every publication, in order: the document, its version (`None`: cleared) and
    /// its diagnostics.
    published: Vec<(Uri, Option<i32>, Vec<Diagnostic>)>,
    refreshes: usize,
    /// The answers to leases, in order.
    lent: Vec<(Ticket, bool)>,
    next_ticket: Ticket,
}

impl std::ops::Deref for Pool {
    type Target = harness::Work;

    fn deref(&self) -> &harness::Work {
        &self.work
    }
}

impl Pool {
    fn feed(&mut self, scheduler: &mut Scheduler, event: Event) {
        let actions = scheduler.handle(event);
        for action in actions
            .into_iter()
            .filter_map(|action| self.work.keep(action))
        {
            match action {
                Action::Publish {
                    uri,
                    version,
                    diagnostics,
                    ..
                } => self.published.push((uri, version, diagnostics)),
                Action::Answer { ticket, .. } => self.answered.push(ticket),
                Action::Modified { ticket } => self.modified.push(ticket),
                Action::Failed { ticket } => self.failed.push(ticket),
                Action::RefreshViews => self.refreshes += 1,
                Action::Lend { ticket, granted } => self.lent.push((ticket, granted.is_ok())),
                // The longest wait for a solve never ends in these sequences.
                Action::Free(_) => {}
                work => unreachable!("kept by the pool: {}", std::any::type_name_of_val(&work)),
            }
        }
        for confirmation in self.work.confirmations() {
            self.feed(scheduler, confirmation);
        }
    }

    fn open(&mut self, scheduler: &mut Scheduler, uri: &Uri, text: &str) {
        let opened = Event::Opened {
            uri: uri.clone(),
            text: text.to_owned(),
            version: 1,
        };
        self.feed(scheduler, opened);
    }

    fn change(&mut self, scheduler: &mut Scheduler, uri: &Uri, version: i32, text: &str) {
        let changes = vec![TextDocumentContentChangeEvent {
            range: None,
            range_length: None,
            text: text.to_owned(),
        }];
        let changed = Event::Changed {
            uri: uri.clone(),
            version,
            changes,
        };
        self.feed(scheduler, changed);
    }

    fn request(&mut self, scheduler: &mut Scheduler, uri: &Uri, needs: Needs) -> Ticket {
        self.next_ticket += 1;
        let ticket = self.next_ticket;
        let request = Event::Request {
            ticket,
            uri: uri.clone(),
            needs,
        };
        self.feed(scheduler, request);
        ticket
    }

    /// Ends the oldest analysis still running.
    fn finish_analysis(&mut self, scheduler: &mut Scheduler) {
        let event = self.work.finish_analysis(0).expect("an analysis runs");
        self.feed(scheduler, event);
    }

    /// Ends the oldest solve still running, solved whatever its cancel flag says.
    fn finish_solve(&mut self, scheduler: &mut Scheduler) {
        let event = self.work.finish_solve(0, true).expect("a solve runs");
        self.feed(scheduler, event);
    }

    /// Ends the oldest build of diagnostics still running.
    fn finish_build(&mut self, scheduler: &mut Scheduler) {
        let event = self.work.finish_build(0).expect("a build runs");
        self.feed(scheduler, event);
    }

    /// Ends the oldest wait for a quick solve.
    fn finish_timer(&mut self, scheduler: &mut Scheduler) {
        let event = self.work.finish_timer(0).expect("a wait runs");
        self.feed(scheduler, event);
    }

    /// Lets every piece of work end, analyses first, until nothing is left.
    fn drain(&mut self, scheduler: &mut Scheduler) {
        for _ in 0..1000 {
            if !self.analyses.is_empty() {
                self.finish_analysis(scheduler);
            } else if !self.solves.is_empty() {
                self.finish_solve(scheduler);
            } else if !self.timers.is_empty() {
                self.finish_timer(scheduler);
            } else if !self.builds.is_empty() {
                self.finish_build(scheduler);
            } else {
                return;
            }
        }
        panic!("the work never ends");
    }
}

/// A connected graph of `nodes` nodes (0, 1 and 2 on a path, the rest hung on
/// earlier nodes), different for each `salt`.
fn graph_text(nodes: u32, salt: u32) -> String {
    let mut text = String::from("0 -- 1 -- 2\n");
    for i in 3..nodes {
        text.push_str(&format!("{} -- {}\n", i, (i * 7 + salt) % i));
    }
    text
}

fn retained(scheduler: &Scheduler, uri: &Uri) -> bool {
    scheduler.documents[uri].document.last_solved.is_some()
}
