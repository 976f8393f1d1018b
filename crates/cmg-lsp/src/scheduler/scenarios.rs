//! Scenarios: each drives the scheduler through one exact sequence of events, with a
//! small pool that runs the work it hands out when the test says so, and pins one rule
//! (which document is evicted first, which timer publishes, what a failed analysis
//! answers). Several were written for mutants of the scheduler that its property tests
//! let live (`docs/dev/testing.md`).

use cmg_core::analysis::Analysis;
use cmg_core::explain::WhatIfState;
use cmg_solve::peak_memory_bytes;
use tower_lsp_server::ls_types::{Diagnostic, DiagnosticSeverity};

use super::*;
use crate::scheduler::harness;

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
        let mut handed = Vec::new();
        for action in scheduler.handle(event) {
            let Some(action) = self.work.keep(action) else {
                continue;
            };
            match action {
                Action::Publish {
                    uri,
                    generation,
                    version,
                    diagnostics,
                } => {
                    if let Some(generation) = generation {
                        handed.push((uri.clone(), generation));
                    }
                    self.published.push((uri, version, diagnostics));
                }
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
        for (uri, generation) in handed {
            self.feed(scheduler, Event::Published { uri, generation });
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

/// Closing a document drops its own queued solve, not the solves queued for the
/// others: a request that needs the other document's solution is still answered.
#[test]
fn closing_a_document_keeps_the_solves_queued_for_the_others() {
    let mut scheduler = Scheduler::new(Config::default(), Encoding::Utf16);
    let mut pool = Pool::default();
    let [a, b] = [uri("a"), uri("b")];
    pool.open(&mut scheduler, &a, &graph_text(40, 0));
    pool.open(&mut scheduler, &b, &graph_text(40, 1));
    pool.finish_analysis(&mut scheduler);
    pool.finish_analysis(&mut scheduler);
    // One solve at a time: a's runs, b's waits in the queue.
    assert_eq!(pool.solves.len(), 1);
    let waiting_for_b = pool.request(&mut scheduler, &b, Needs::Solve);
    pool.feed(&mut scheduler, Event::Closed { uri: a.clone() });
    pool.drain(&mut scheduler);
    assert_eq!(pool.answered, [waiting_for_b]);
    assert!(scheduler.documents[&b].document.solution().is_some());
}

/// The budget evicts the least recently used solution: the document a request
/// touched last keeps its solution, whichever of the two it is, and a document with
/// no solution is passed over however old.
#[test]
fn the_least_recently_used_solution_is_the_one_evicted() {
    // A graph size whose solves fit two at a time in 1 MiB, not three.
    let budget = 1u64 << 20;
    let nodes = (50..400u32)
        .find(|&n| {
            let peak = peak_memory_bytes(n as usize);
            2 * peak <= budget && 3 * peak > budget
        })
        .expect("some size fits two solves, not three");
    let mut config = Config::default();
    config.update(&serde_json::json!({"solver": {"maxMemoryMiB": 1}}));
    let mut scheduler = Scheduler::new(config, Encoding::Utf16);
    let mut pool = Pool::default();
    let [a, b, c, d] = [uri("a"), uri("b"), uri("c"), uri("d")];
    // The least recently used document of all has no game: nothing of it to evict.
    pool.open(&mut scheduler, &d, "0 -- 1\n");
    pool.open(&mut scheduler, &a, &graph_text(nodes, 0));
    pool.open(&mut scheduler, &b, &graph_text(nodes, 1));
    pool.drain(&mut scheduler);
    assert!(retained(&scheduler, &a) && retained(&scheduler, &b));
    // Either of the two is the older one in turn: a, then b.
    for (touched, evicted) in [(&a, &b), (&b, &a)] {
        pool.request(&mut scheduler, touched, Needs::Analysis);
        pool.open(&mut scheduler, &c, &graph_text(nodes, 2));
        pool.drain(&mut scheduler);
        assert!(retained(&scheduler, &c));
        assert!(
            retained(&scheduler, touched),
            "the recently used one was evicted"
        );
        assert!(!retained(&scheduler, evicted));
        // c goes, and the evicted one is solved again when asked about.
        pool.feed(&mut scheduler, Event::Closed { uri: c.clone() });
        pool.request(&mut scheduler, evicted, Needs::Solve);
        pool.drain(&mut scheduler);
        assert!(retained(&scheduler, &a) && retained(&scheduler, &b));
    }
    assert!(pool.modified.is_empty());
    assert_eq!(scheduler.parked(), 0);
}

/// The wait for a quick solve ends the first publication's wait only for the
/// generation it was started for: the timer of an older text publishes nothing, and
/// the current text's timer publishes without the solve, which still runs.
#[test]
fn only_the_current_generations_timer_publishes() {
    let mut scheduler = Scheduler::new(Config::default(), Encoding::Utf16);
    let mut pool = Pool::default();
    let a = uri("a");
    pool.open(&mut scheduler, &a, &graph_text(40, 0));
    pool.finish_analysis(&mut scheduler);
    assert_eq!((pool.timers.len(), pool.solves.len()), (1, 1));
    // Version 2 comes before version 1's timer ends.
    pool.change(&mut scheduler, &a, 2, &graph_text(40, 1));
    pool.finish_analysis(&mut scheduler);
    assert_eq!(pool.timers.len(), 2);
    pool.finish_timer(&mut scheduler);
    assert!(
        pool.builds.is_empty(),
        "the old text's timer built a publication"
    );
    pool.finish_timer(&mut scheduler);
    pool.finish_build(&mut scheduler);
    let versions: Vec<_> = pool
        .published
        .iter()
        .map(|(_, version, _)| *version)
        .collect();
    assert_eq!(versions, [Some(2)], "no publication before the solve ends");
    assert!(!pool.solves.is_empty(), "the solve still runs");
}

/// The diagnostics past `cmg.diagnostics.max` are summed up in one more diagnostic
/// with the most severe of their severities, so that a hidden error still counts as
/// an error. The oracle is `cmg_core` on the text, not the server's conversion.
#[test]
fn the_summary_of_hidden_diagnostics_has_their_worst_severity() {
    use cmg_core::model::Severity;
    // Duplicate edges (warnings) first, a syntax error (an error) last.
    let text = "0 -- 1 -- 2\n1 -- 2\n1 -- 2\n1 -- 2\n3 -- --\n";
    let max = 2;
    let mut all = Analysis::new(text.to_owned()).diagnostics_with(None, None);
    all.sort_by_key(|d| (d.range.start, d.range.end));
    let severities: Vec<Severity> = all.iter().map(|d| d.severity()).collect();
    assert!(severities.len() > max + 1);
    assert!(severities[..max].iter().all(|&s| s == Severity::Warning));
    assert!(severities[max..].contains(&Severity::Error));
    let mut config = Config::default();
    config.update(&serde_json::json!({"diagnostics": {"max": max}}));
    let mut scheduler = Scheduler::new(config, Encoding::Utf16);
    let mut pool = Pool::default();
    let a = uri("a");
    pool.open(&mut scheduler, &a, text);
    pool.drain(&mut scheduler);
    let (_, _, published) = pool.published.last().expect("published");
    let severities: Vec<_> = published.iter().map(|d| d.severity).collect();
    let (warning, error) = (DiagnosticSeverity::WARNING, DiagnosticSeverity::ERROR);
    assert_eq!(severities, [Some(warning), Some(warning), Some(error)]);
    assert!(published[max]
        .message
        .starts_with(&format!("{} more", all.len() - max)));
}

/// An edit that keeps the game (a comment) keeps its solve running. A text that comes
/// while that solve's wait before publishing still runs waits for what is left of it,
/// with no wait of its own: when the first text's timer ends, the newer text is
/// published, without the outcome, and the outcome follows when the solve lands.
#[test]
fn a_publication_waits_for_a_solve_that_goes_on_from_an_earlier_text() {
    let mut scheduler = Scheduler::new(Config::default(), Encoding::Utf16);
    let mut pool = Pool::default();
    let a = uri("a");
    let text = graph_text(40, 0);
    pool.open(&mut scheduler, &a, &format!("{text}expect cat\n"));
    pool.finish_analysis(&mut scheduler);
    assert_eq!(pool.timers.len(), 1);
    pool.change(
        &mut scheduler,
        &a,
        2,
        &format!("# a comment\n{text}expect cat\n"),
    );
    pool.finish_analysis(&mut scheduler);
    assert_eq!(pool.solves.len(), 1, "the same game's solve goes on");
    assert!(
        pool.builds.is_empty(),
        "published before the wait for the solve"
    );
    assert_eq!(pool.timers.len(), 1, "a second wait for the same solve");
    pool.finish_timer(&mut scheduler);
    assert_eq!(
        pool.builds.len(),
        1,
        "the solve's wait ended, nothing published"
    );
    pool.finish_build(&mut scheduler);
    let versions: Vec<_> = pool.published.iter().map(|(_, v, _)| *v).collect();
    assert_eq!(versions, [Some(2)]);
    assert!(!has_mismatch(&pool.published[0].2));
    pool.finish_solve(&mut scheduler);
    pool.drain(&mut scheduler);
    let (_, version, diagnostics) = pool.published.last().unwrap();
    assert_eq!(*version, Some(2));
    assert!(has_mismatch(diagnostics), "the outcome never came");
}

/// Once a solve's wait is over, every later text of the same game (keystrokes in a
/// comment during a long solve) is published at once, without waiting again; the
/// outcome comes with a publication when the solve lands.
#[test]
fn the_second_keystroke_during_the_same_long_solve_publishes_without_waiting() {
    let mut scheduler = Scheduler::new(Config::default(), Encoding::Utf16);
    let mut pool = Pool::default();
    let a = uri("a");
    let text = format!("{}expect cat\n", graph_text(40, 0));
    pool.open(&mut scheduler, &a, &text);
    pool.finish_analysis(&mut scheduler);
    pool.finish_timer(&mut scheduler);
    pool.finish_build(&mut scheduler);
    assert_eq!(pool.published.len(), 1);
    for version in 2..5 {
        pool.change(&mut scheduler, &a, version, &format!("# {version}\n{text}"));
        pool.finish_analysis(&mut scheduler);
        assert_eq!(pool.solves.len(), 1, "the same game's solve goes on");
        assert!(pool.timers.is_empty(), "waited again for the same solve");
        pool.finish_build(&mut scheduler);
        let (_, published, diagnostics) = pool.published.last().unwrap();
        assert_eq!(*published, Some(version), "not published at once");
        assert!(!has_mismatch(diagnostics));
    }
    pool.finish_solve(&mut scheduler);
    pool.drain(&mut scheduler);
    let (_, version, diagnostics) = pool.published.last().unwrap();
    assert_eq!(*version, Some(4));
    assert!(has_mismatch(diagnostics), "the outcome never came");
    // A new game is a new solve, which waits once again.
    pool.change(
        &mut scheduler,
        &a,
        5,
        &format!("{}expect cat\n", graph_text(40, 1)),
    );
    pool.finish_analysis(&mut scheduler);
    assert_eq!((pool.timers.len(), pool.builds.len()), (1, 0));
}

/// Whether a publication has the solve's `expect-mismatch` (the game's outcome is not
/// the one expected).
fn has_mismatch(diagnostics: &[Diagnostic]) -> bool {
    diagnostics.iter().any(|d| {
        d.code
            == Some(tower_lsp_server::ls_types::NumberOrString::String(
                "expect-mismatch".into(),
            ))
    })
}

/// A request parked on a text that an edit then replaces is answered
/// `ContentModified` at once, never later from the analysis of the new text.
#[test]
fn a_request_about_a_replaced_text_is_answered_content_modified() {
    let mut scheduler = Scheduler::new(Config::default(), Encoding::Utf16);
    let mut pool = Pool::default();
    let a = uri("a");
    pool.open(&mut scheduler, &a, "0 -- 1 -- 2\n");
    let ticket = pool.request(&mut scheduler, &a, Needs::Analysis);
    pool.change(&mut scheduler, &a, 2, "0 -- 1 -- 2 -- 3\n");
    assert_eq!(pool.modified, [ticket]);
    pool.drain(&mut scheduler);
    assert!(pool.answered.is_empty(), "answered from another text");
    assert_eq!(scheduler.parked(), 0);
}

/// A request about a text whose analysis panicked is answered `Failed` at once: not
/// `ContentModified`, as if an edit had replaced the text (a pull client asked to pull
/// again would be answered the same way, in a loop), and not from the analysis before.
/// The next edit's text is answered as usual.
#[test]
fn a_request_about_a_text_whose_analysis_failed_is_answered_failed() {
    let mut scheduler = Scheduler::new(Config::default(), Encoding::Utf16);
    let mut pool = Pool::default();
    let a = uri("a");
    pool.open(&mut scheduler, &a, "0 -- 1 -- 2\n");
    pool.drain(&mut scheduler);
    pool.change(&mut scheduler, &a, 2, "0 -- 1 -- 2 -- 3\n");
    let ticket = pool.request(&mut scheduler, &a, Needs::Diagnostics);
    let answered = pool.answered.len();
    let panicked = pool.work.fail_analysis(0).expect("an analysis runs");
    pool.feed(&mut scheduler, panicked);
    assert_eq!(pool.failed, [ticket]);
    assert!(pool.modified.is_empty(), "answered as superseded");
    assert_eq!(
        pool.answered.len(),
        answered,
        "answered from the text before"
    );
    assert_eq!(scheduler.parked(), 0);
    let later = pool.request(&mut scheduler, &a, Needs::Analysis);
    assert_eq!(pool.failed, [ticket, later]);

    pool.change(&mut scheduler, &a, 3, "0 -- 1 -- 2 -- 4\n");
    let after = pool.request(&mut scheduler, &a, Needs::Analysis);
    pool.drain(&mut scheduler);
    assert!(pool.answered.contains(&after));
    assert_eq!(pool.failed, [ticket, later]);
}

/// A queued solve that its document stopped waiting for (the text went back to the
/// game solved before) never starts: it would hold the one solve slot for a result
/// that is dropped.
#[test]
fn a_superseded_queued_solve_never_starts() {
    let mut scheduler = Scheduler::new(Config::default(), Encoding::Utf16);
    let mut pool = Pool::default();
    let [a, b] = [uri("a"), uri("b")];
    let (first, second) = (graph_text(40, 1), graph_text(40, 2));
    pool.open(&mut scheduler, &b, &first);
    pool.drain(&mut scheduler);
    assert!(retained(&scheduler, &b));
    // a's solve takes the slot; b's new game waits in the queue behind it.
    pool.open(&mut scheduler, &a, &graph_text(40, 0));
    pool.finish_analysis(&mut scheduler);
    assert_eq!(pool.solves.len(), 1);
    pool.change(&mut scheduler, &b, 2, &second);
    pool.finish_analysis(&mut scheduler);
    // Back to the first game: its solution is reused, the queued solve is not wanted.
    pool.change(&mut scheduler, &b, 3, &first);
    pool.finish_analysis(&mut scheduler);
    assert!(scheduler.documents[&b].document.solution().is_some());
    pool.finish_solve(&mut scheduler);
    // What starts next is a's what-if, and nothing of b.
    assert!(
        pool.solves
            .iter()
            .all(|(solving, job)| *solving == a && job.explain.is_some()),
        "a solve nobody waits for started"
    );
}

/// The outcome does not wait for the what-if: the solve's landing asks the client for
/// fresh lenses and hints, and the what-if follows as a job of its own in the queue,
/// which asks again when it ends. A request that needs the solve (from a client that
/// cannot be asked to refresh) waits for the what-if too: its answer is the one the
/// client keeps.
#[test]
fn the_outcome_lands_before_the_what_if() {
    let mut scheduler = Scheduler::new(Config::default(), Encoding::Utf16);
    let mut pool = Pool::default();
    let a = uri("a");
    pool.open(&mut scheduler, &a, &graph_text(12, 0));
    pool.finish_analysis(&mut scheduler);
    let hints = pool.request(&mut scheduler, &a, Needs::Solve);
    pool.finish_solve(&mut scheduler);
    assert_eq!(pool.refreshes, 1, "the outcome waited for the what-if");
    let solved = scheduler.documents[&a].document.solution().expect("solved");
    assert_eq!(solved.what_if, WhatIfState::Pending);
    assert!(
        matches!(&pool.solves[..], [(running, job)] if *running == a && job.explain.is_some()),
        "the what-if is not the job under way"
    );
    let lenses = pool.request(&mut scheduler, &a, Needs::Analysis);
    assert!(pool.answered.contains(&lenses));
    assert!(!pool.answered.contains(&hints));
    pool.finish_solve(&mut scheduler);
    assert_eq!(pool.refreshes, 2);
    assert!(pool.answered.contains(&hints));
    let solved = scheduler.documents[&a].document.solution().expect("solved");
    assert!(solved.what_if.computed().is_some());
    assert!(pool.solves.is_empty());
}

/// An edit that leaves the game alone (a comment) lets the what-if go on; one that
/// changes the game stops it once its analysis says so, and its end changes nothing.
#[test]
fn only_a_new_game_stops_the_what_if() {
    use std::sync::atomic::Ordering;
    let mut scheduler = Scheduler::new(Config::default(), Encoding::Utf16);
    let mut pool = Pool::default();
    let a = uri("a");
    let text = graph_text(12, 0);
    pool.open(&mut scheduler, &a, &text);
    pool.finish_analysis(&mut scheduler);
    pool.finish_solve(&mut scheduler);
    let what_if = pool.solves[0].1.cancel.clone();
    pool.change(&mut scheduler, &a, 2, &format!("{text}# a note\n"));
    pool.finish_analysis(&mut scheduler);
    assert!(
        !what_if.load(Ordering::Relaxed),
        "a comment stopped the what-if"
    );
    assert_eq!(pool.solves.len(), 1, "a comment started another what-if");
    pool.change(&mut scheduler, &a, 3, &graph_text(12, 1));
    pool.finish_analysis(&mut scheduler);
    assert!(
        what_if.load(Ordering::Relaxed),
        "a new game's what-if went on"
    );
    let refreshes = pool.refreshes;
    pool.finish_solve(&mut scheduler);
    assert_eq!(pool.refreshes, refreshes, "a stale what-if was shown");
    // The new game's solve, then its what-if.
    pool.drain(&mut scheduler);
    let solved = scheduler.documents[&a].document.solution().expect("solved");
    assert!(solved.what_if.computed().is_some());
}

/// Closed files lease their room from the budget: a lease takes only the room left and
/// never evicts what an open document holds; it waits while work under way will free
/// room, in the order the leases came, and is refused when nothing will. What is lent
/// counts until it is returned, and the budget is never exceeded.
#[test]
fn leases_take_only_the_room_left() {
    let budget = 1u64 << 20;
    let mut config = Config::default();
    config.update(&serde_json::json!({"solver": {"maxMemoryMiB": 1}}));
    let mut scheduler = Scheduler::new(config, Encoding::Utf16);
    let mut pool = Pool::default();
    let a = uri("a");
    pool.open(&mut scheduler, &a, &graph_text(100, 0));
    pool.drain(&mut scheduler);
    let held = scheduler.used();
    assert!(held > 0 && retained(&scheduler, &a));
    let lease = |pool: &mut Pool, scheduler: &mut Scheduler, ticket: Ticket, bytes: u64| {
        pool.feed(scheduler, Event::Lease { ticket, bytes });
        assert!(scheduler.used() <= budget, "the budget is exceeded");
    };
    // Half of what is left, twice: both lent. A third does not fit, and no document's
    // work will free room: refused at once, not left waiting for the other leases (the
    // work holding one may be the very work that asks).
    let half = (budget - held) / 2;
    lease(&mut pool, &mut scheduler, 101, half);
    lease(&mut pool, &mut scheduler, 102, half);
    lease(&mut pool, &mut scheduler, 103, half);
    assert_eq!(pool.lent, [(101, true), (102, true), (103, false)]);
    // Nothing was evicted for them.
    assert!(retained(&scheduler, &a));
    assert_eq!(scheduler.evictions, 0);
    pool.feed(&mut scheduler, Event::Return { ticket: 101 });
    pool.feed(&mut scheduler, Event::Return { ticket: 102 });
    assert_eq!(scheduler.used(), held);
    // While a document's analysis is under way, a lease that does not fit waits for
    // it, and the leases after it wait in turn; one that stops waiting is forgotten.
    pool.change(&mut scheduler, &a, 2, &graph_text(100, 1));
    assert!(!pool.analyses.is_empty());
    let too_much = budget - scheduler.used() + 1;
    lease(&mut pool, &mut scheduler, 104, too_much);
    lease(&mut pool, &mut scheduler, 105, 1);
    assert_eq!(
        pool.lent.len(),
        3,
        "a lease was answered while work was under way"
    );
    pool.feed(&mut scheduler, Event::Return { ticket: 104 });
    assert_eq!(pool.lent[3..], [(105, true)]);
    pool.feed(&mut scheduler, Event::Return { ticket: 105 });
    pool.drain(&mut scheduler);
    assert_eq!(pool.lent.len(), 4, "a lease that stopped waiting was lent");
    assert!(scheduler.used() <= budget);
}

/// A settings change redoes only what depends on it: the live-solve limit analyses
/// every document again (here into a `too-large` note), the diagnostics cap only builds
/// the publications again, the node hints only ask the client to refresh them, and
/// equal settings do nothing at all. The lines that apply each were left alone by every
/// other test of the crate (`docs/dev/testing.md`).
#[test]
fn a_settings_change_redoes_only_what_depends_on_it() {
    let mut scheduler = Scheduler::new(Config::default(), Encoding::Utf16);
    let mut pool = Pool::default();
    let a = uri("a");
    // Three repeated edges: three warnings.
    pool.open(&mut scheduler, &a, "0 -- 1 -- 2\n1 -- 0\n2 -- 1\n1 -- 2\n");
    pool.drain(&mut scheduler);
    let codes = |pool: &Pool| -> Vec<String> {
        let (_, _, diagnostics) = pool.published.last().expect("published");
        diagnostics
            .iter()
            .map(|d| match &d.code {
                Some(tower_lsp_server::ls_types::NumberOrString::String(code)) => code.clone(),
                _ => String::new(),
            })
            .collect()
    };
    assert_eq!(codes(&pool), ["duplicate-edge"; 3]);
    let (published, refreshes) = (pool.published.len(), pool.refreshes);
    let settings = |pool: &mut Pool, scheduler: &mut Scheduler, value: serde_json::Value| {
        pool.feed(scheduler, Event::Settings(value));
        let asked = (pool.analyses.len(), pool.builds.len());
        pool.drain(scheduler);
        asked
    };

    // The cap: built again, not analysed again; one warning and the count of the rest.
    let asked = settings(
        &mut pool,
        &mut scheduler,
        serde_json::json!({"diagnostics": {"max": 1}}),
    );
    assert_eq!(asked, (0, 1));
    assert_eq!(pool.published.len(), published + 1);
    assert_eq!(codes(&pool).len(), 2, "{:?}", codes(&pool));
    assert_eq!(pool.refreshes, refreshes, "hints refreshed for the cap");

    // The same settings again: nothing at all.
    let asked = settings(
        &mut pool,
        &mut scheduler,
        serde_json::json!({"diagnostics": {"max": 1}}),
    );
    assert_eq!(asked, (0, 0));
    assert_eq!(pool.published.len(), published + 1);
    assert_eq!(pool.refreshes, refreshes);

    // The node hints: only a refresh.
    let asked = settings(
        &mut pool,
        &mut scheduler,
        serde_json::json!({"diagnostics": {"max": 1}, "inlayHints": {"nodes": false}}),
    );
    assert_eq!(asked, (0, 0));
    assert_eq!(pool.refreshes, refreshes + 1);

    // The live-solve limit: analysed again, and too large to solve now.
    let asked = settings(
        &mut pool,
        &mut scheduler,
        serde_json::json!({"diagnostics": {"max": 1}, "inlayHints": {"nodes": false}, "solver": {"maxNodes": 2}}),
    );
    assert_eq!(asked.0, 1, "not analysed again");
    assert!(
        codes(&pool).contains(&"too-large".to_owned()),
        "{:?}",
        codes(&pool)
    );
}

/// A solve that does not fit while another document's analysis holds its room waits
/// for that analysis to end, and is solved then; it is refused only when nothing under
/// way will free room.
#[test]
fn a_solve_waits_for_an_analysis_under_way_rather_than_being_refused() {
    let budget = 1u64 << 20;
    let mut config = Config::default();
    config.update(&serde_json::json!({"solver": {"maxMemoryMiB": 1}}));
    let mut scheduler = Scheduler::new(config, Encoding::Utf16);
    let mut pool = Pool::default();
    let [b, c] = [uri("b"), uri("c")];
    // c: a long comment, whose analysis is reserved at its text's estimate.
    let comment = format!("# {}\n", "x".repeat(3500));
    pool.open(&mut scheduler, &c, &comment);
    let reserved = scheduler.used();
    // b: a game whose solve fits in the budget, but not beside c's analysis.
    let nodes = (50..2000u32)
        .find(|&n| peak_memory_bytes(n as usize) + reserved > budget)
        .expect("a size");
    pool.open(&mut scheduler, &b, &graph_text(nodes, 0));
    let event = pool.work.finish_analysis(1).expect("b's analysis");
    pool.feed(&mut scheduler, event);
    assert!(
        pool.solves.is_empty(),
        "the solve started beside the analysis"
    );
    assert!(
        matches!(
            scheduler.documents[&b].document.solve,
            SolveState::Pending { .. }
        ),
        "refused while an analysis was under way"
    );
    pool.drain(&mut scheduler);
    assert!(scheduler.documents[&b].document.solution().is_some());
}

/// The documents the client has open, as the workspace report asks for them (it answers
/// those from their live text, not from the disk).
#[test]
fn the_open_documents_are_those_opened_and_not_closed() {
    let mut scheduler = Scheduler::new(Config::default(), Encoding::Utf16);
    let mut pool = Pool::default();
    let [a, b] = [uri("a"), uri("b")];
    let open = |scheduler: &Scheduler| {
        let mut open = scheduler.open_documents();
        open.sort_by(|x, y| x.as_str().cmp(y.as_str()));
        open
    };
    assert!(open(&scheduler).is_empty());
    pool.open(&mut scheduler, &a, "0 -- 1 -- 2\n");
    pool.open(&mut scheduler, &b, "0 -- 1 -- 2\n");
    assert_eq!(open(&scheduler), [a.clone(), b.clone()]);
    pool.feed(&mut scheduler, Event::Closed { uri: a });
    assert_eq!(open(&scheduler), [b]);
}

/// An analysis that does not fit beside the running solve waits for that solve to end
/// (it will free its room), and is analysed then, rather than refused.
#[test]
fn an_analysis_waits_for_the_running_solve_rather_than_being_refused() {
    let budget = 1u64 << 20;
    let mut config = Config::default();
    config.update(&serde_json::json!({"solver": {"maxMemoryMiB": 1}}));
    let mut scheduler = Scheduler::new(config.clone(), Encoding::Utf16);
    let mut pool = Pool::default();
    let [a, b] = [uri("a"), uri("b")];
    // a: a game whose solve takes most of the budget; its publication is handed out
    // while the solve runs, so only the solve is under way.
    let nodes = (50..2000u32)
        .find(|&n| peak_memory_bytes(n as usize) > budget * 6 / 10)
        .expect("a size");
    pool.open(&mut scheduler, &a, &graph_text(nodes, 0));
    pool.finish_analysis(&mut scheduler);
    pool.finish_timer(&mut scheduler);
    pool.finish_build(&mut scheduler);
    assert_eq!(pool.solves.len(), 1, "a's solve runs");
    // b: a long comment whose analysis does not fit beside it.
    let left = budget - scheduler.used();
    let bytes = (left / 128 + 1) as usize;
    let comment = format!("# {}\n", "x".repeat(bytes));
    assert!(documents::analysis_estimate(comment.len(), &scheduler.config) > left);
    pool.open(&mut scheduler, &b, &comment);
    assert!(
        pool.analyses.is_empty(),
        "analysed beside the solve, over the budget"
    );
    pool.drain(&mut scheduler);
    let analysed = &scheduler.documents[&b].document.analysed;
    assert!(
        analysed.over_budget.is_none(),
        "refused while the solve would free room"
    );
    assert!(analysed.analysis.is_some());
}

/// A text that declared a dense graph is measured, and its next text is reserved at
/// that measure; when the measure does not fit beside what the document still holds,
/// the new text is measured again from its own size rather than refused (it may need
/// far less: here the product is gone).
#[test]
fn a_text_that_no_longer_needs_the_old_measure_is_measured_again() {
    let mut config = Config::default();
    config.update(&serde_json::json!({"solver": {"maxMemoryMiB": 1}}));
    let mut scheduler = Scheduler::new(config, Encoding::Utf16);
    let mut pool = Pool::default();
    let a = uri("a");
    let left: Vec<String> = (3..200).map(|id| id.to_string()).collect();
    let right: Vec<String> = (200..400).map(|id| id.to_string()).collect();
    let dense = format!("{{{}}} -- {{{}}}\n", left.join(" "), right.join(" "));
    pool.open(&mut scheduler, &a, &dense);
    pool.drain(&mut scheduler);
    let document = &scheduler.documents[&a].document;
    assert!(document.measured.is_some(), "the product was not measured");
    assert!(
        document.analysed.over_budget.is_none(),
        "the dense text was refused"
    );
    pool.change(&mut scheduler, &a, 2, "0 -- 1 -- 2\n");
    pool.drain(&mut scheduler);
    let analysed = &scheduler.documents[&a].document.analysed;
    assert!(
        analysed.over_budget.is_none(),
        "refused at the old text's measure"
    );
    assert_eq!(analysed.version, 2);
}

/// Making room, the budget evicts a document whose solve is settled before one whose
/// solve still waits in the queue, however recently each was used (evicting the second
/// would cancel a solve that is wanted), and the solves queued for the documents it
/// does not evict stay queued.
#[test]
fn a_settled_document_is_evicted_before_one_whose_solve_waits() {
    let mut scheduler = Scheduler::new(Config::default(), Encoding::Utf16);
    let mut pool = Pool::default();
    let [settled, running, queued, newcomer] = [uri("s"), uri("r"), uri("q"), uri("n")];
    pool.open(&mut scheduler, &settled, &graph_text(40, 0));
    pool.drain(&mut scheduler);
    // One solve runs, the next waits in the queue behind it.
    pool.open(&mut scheduler, &running, &graph_text(40, 1));
    pool.finish_analysis(&mut scheduler);
    pool.open(&mut scheduler, &queued, &graph_text(40, 2));
    pool.finish_analysis(&mut scheduler);
    while !pool.timers.is_empty() {
        pool.finish_timer(&mut scheduler);
    }
    while !pool.builds.is_empty() {
        pool.finish_build(&mut scheduler);
    }
    assert_eq!(pool.solves.len(), 1);
    assert!(scheduler.queue.iter().any(|(uri, _)| *uri == queued));
    // The settled document is touched last: only the state of its solve puts it first.
    pool.request(&mut scheduler, &settled, Needs::Analysis);
    let text = graph_text(40, 3);
    let estimate = documents::analysis_estimate(text.len(), &scheduler.config);
    scheduler.config.memory_cap = Some(scheduler.used() + estimate - 1);
    pool.open(&mut scheduler, &newcomer, &text);
    let analysis_bytes = |uri: &Uri| scheduler.documents[uri].document.analysis_bytes();
    assert_eq!(analysis_bytes(&settled), 0, "the settled document was kept");
    assert!(
        analysis_bytes(&queued) > 0,
        "the queued solve's document was evicted"
    );
    assert!(
        scheduler.queue.iter().any(|(uri, _)| *uri == queued),
        "the queued solve was dropped"
    );
}

/// A document whose diagnostics are built again when its solve lands (the generation
/// was handed over already) holds its analysis until that build is sent: another
/// document's analysis that needs the room waits for it rather than being refused,
/// though nothing else is under way.
#[test]
fn an_analysis_waits_for_a_rebuild_with_the_outcome_rather_than_being_refused() {
    let mut scheduler = Scheduler::new(Config::default(), Encoding::Utf16);
    let mut pool = Pool::default();
    let [a, b] = [uri("a"), uri("b")];
    pool.open(&mut scheduler, &a, &graph_text(40, 0));
    pool.finish_analysis(&mut scheduler);
    // The wait for a quick solve ends first: published without the outcome.
    pool.finish_timer(&mut scheduler);
    pool.finish_build(&mut scheduler);
    assert_eq!(pool.published.len(), 1);
    // The solve lands: a build with the outcome is handed out; the what-if ends too.
    pool.finish_solve(&mut scheduler);
    pool.finish_solve(&mut scheduler);
    assert_eq!((pool.builds.len(), pool.solves.len()), (1, 0));
    assert!(!scheduler.under_way());
    // Room for b only with a's analysis gone: evicting a's solution is not enough.
    let text = graph_text(400, 1);
    let estimate = documents::analysis_estimate(text.len(), &scheduler.config);
    let solution = scheduler.documents[&a].solution_bytes();
    assert!(estimate > solution + 1);
    scheduler.config.memory_cap = Some(scheduler.used() + estimate - solution - 1);
    open_to_wait(&mut pool, &mut scheduler, &b, &text);
    pool.drain(&mut scheduler);
    assert_analysed(&scheduler, &b);
}

/// A publication handed to the client and not yet confirmed holds the analysis it was
/// built from: another document's analysis that needs the room waits for the
/// confirmation rather than being refused, though nothing else is under way. (The
/// pools confirm each publication at once; here the confirmation is held back.)
#[test]
fn an_analysis_waits_for_a_publication_not_yet_confirmed() {
    let mut scheduler = Scheduler::new(Config::default(), Encoding::Utf16);
    let mut pool = Pool::default();
    let [a, b] = [uri("a"), uri("b")];
    // No game: no solve, no wait for one.
    pool.open(&mut scheduler, &a, "0 -- 1 -- 3\n");
    pool.finish_analysis(&mut scheduler);
    let built = pool.work.finish_build(0).expect("a build runs");
    let mut handed = None;
    for action in scheduler.handle(built) {
        match action {
            Action::Publish {
                uri,
                generation: Some(generation),
                ..
            } => handed = Some((uri, generation)),
            other => assert!(pool
                .work
                .keep(other)
                .is_none_or(|other| matches!(other, Action::Free(_)))),
        }
    }
    let (published, generation) = handed.expect("a publication");
    assert!(!scheduler.under_way());
    let text = graph_text(40, 1);
    let estimate = documents::analysis_estimate(text.len(), &scheduler.config);
    scheduler.config.memory_cap = Some(scheduler.used() + estimate - 1);
    open_to_wait(&mut pool, &mut scheduler, &b, &text);
    pool.feed(
        &mut scheduler,
        Event::Published {
            uri: published,
            generation,
        },
    );
    pool.drain(&mut scheduler);
    assert_analysed(&scheduler, &b);
}

/// A document whose analysis was refused holds nothing, so making room never picks it
/// (it would free nothing, and mark the document evicted); once room is made, a
/// request tries it again and the client is shown the result instead of the refusal.
#[test]
fn a_refused_document_is_not_evicted_and_its_next_analysis_is_published() {
    let mut scheduler = Scheduler::new(Config::default(), Encoding::Utf16);
    let mut pool = Pool::default();
    let [a, b] = [uri("a"), uri("b")];
    let text = graph_text(40, 0);
    let estimate = documents::analysis_estimate(text.len(), &scheduler.config);
    scheduler.config.memory_cap = Some(estimate - 1);
    pool.open(&mut scheduler, &a, &text);
    pool.drain(&mut scheduler);
    let refused = |pool: &Pool| {
        let (_, _, diagnostics) = pool
            .published
            .iter()
            .rev()
            .find(|(uri, ..)| *uri == a)
            .unwrap();
        diagnostics
            .iter()
            .any(|d| d.message.contains("memory budget"))
    };
    assert!(refused(&pool));
    // Another document needs room: a has none to give.
    let other = graph_text(30, 1);
    let needed = documents::analysis_estimate(other.len(), &scheduler.config);
    scheduler.config.memory_cap = Some(scheduler.used() + needed - 1);
    pool.open(&mut scheduler, &b, &other);
    pool.drain(&mut scheduler);
    assert!(
        !scheduler.documents[&a].document.evicted,
        "a refused document was evicted"
    );
    // With room enough, a request tries a again, and the client is shown the result.
    scheduler.config.memory_cap = None;
    pool.request(&mut scheduler, &a, Needs::Analysis);
    pool.drain(&mut scheduler);
    assert!(!refused(&pool), "the client still shows the refusal");
}

/// With three documents, making room meets a stale analysis (of an older text, kept
/// while the next waits for room) beside another document's analysis: the stale one
/// goes first, since nothing needs it, and the other is kept for its requests. (With
/// two documents the choice never arises: the one that needs room is never a
/// candidate, so the properties, which use two, cannot pin it.)
#[test]
fn a_stale_analysis_goes_before_another_documents() {
    let mut scheduler = Scheduler::new(Config::default(), Encoding::Utf16);
    let mut pool = Pool::default();
    let [a, b, c] = [uri("a"), uri("b"), uri("c")];
    let estimate = |text: &str, scheduler: &Scheduler| {
        documents::analysis_estimate(text.len(), &scheduler.config)
    };
    // a: a large game whose solve runs; its publication is handed out.
    pool.open(&mut scheduler, &a, &graph_text(400, 0));
    pool.finish_analysis(&mut scheduler);
    pool.finish_timer(&mut scheduler);
    pool.finish_build(&mut scheduler);
    assert_eq!(pool.solves.len(), 1, "a's solve runs");
    let stale = scheduler.documents[&a].document.analysis_bytes();
    // a's next text does not fit beside its older analysis: it waits for the solve.
    let next = graph_text(40, 1);
    let room = estimate(&next, &scheduler) - 1;
    scheduler.config.memory_cap = Some(scheduler.used() + room);
    pool.change(&mut scheduler, &a, 2, &next);
    assert_waiting(&pool, &scheduler, &a);
    // b, small and without a game, fits beside it and settles; it is the newest.
    pool.open(&mut scheduler, &b, "0 -- 1\n");
    while !pool.analyses.is_empty() || !pool.builds.is_empty() {
        if pool.analyses.is_empty() {
            pool.finish_build(&mut scheduler);
        } else {
            pool.finish_analysis(&mut scheduler);
        }
    }
    assert!(scheduler.waiting.contains(&a), "a's next text was started");
    let held = scheduler.documents[&b].retained_bytes();
    // c (a's next text without its last newline) needs more than is left, and less
    // than either analysis frees; with the stale one gone, a's next text fits too.
    let third = next.trim_end();
    let need = estimate(third, &scheduler);
    assert!(room - held < need && need <= room, "{room} {held} {need}");
    assert!(stale > held + need + 1, "{stale} {held} {need}");
    pool.open(&mut scheduler, &c, third);
    assert!(
        scheduler.documents[&b].document.analysis_bytes() > 0,
        "b's analysis was evicted"
    );
    assert!(
        !scheduler.waiting.contains(&a),
        "the stale analysis was kept"
    );
}

/// Opens `uri` with `text` when it does not fit: its analysis waits for room.
fn open_to_wait(pool: &mut Pool, scheduler: &mut Scheduler, uri: &Uri, text: &str) {
    pool.open(scheduler, uri, text);
    assert_waiting(pool, scheduler, uri);
}

/// `uri`'s analysis was neither started above the budget nor refused: it waits for room.
fn assert_waiting(pool: &Pool, scheduler: &Scheduler, uri: &Uri) {
    assert!(pool.analyses.is_empty(), "started above the budget");
    assert!(scheduler.waiting.contains(uri), "refused, not waiting");
}

/// `uri`'s analysis is done and was not refused.
fn assert_analysed(scheduler: &Scheduler, uri: &Uri) {
    let analysed = &scheduler.documents[uri].document.analysed;
    assert!(analysed.over_budget.is_none(), "refused");
    assert!(analysed.analysis.is_some());
}
