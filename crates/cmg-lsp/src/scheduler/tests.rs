//! The scheduler against a model of the client and of the pool: random interleavings
//! of edits, requests, closes and the ends of analyses, solves, builds and timers.
//! The oracles are independent of the scheduler: the text the client had when it
//! asked, and `cmg_core` run afresh on the client's current text.

use super::*;
use cmg_core::analysis::{Analysis, MemorySetting, SolveLimits, SolvePlan};
use cmg_solve::peak_memory_bytes;
use proptest::prelude::*;

/// Texts whose games and outcomes differ in the ways that matter: the same game
/// under another `expect` or comment (the solution is reused), another game with
/// the same node count and another outcome, no game, a syntax error.
/// The last declares its graph as a group product, which the text does not bound:
/// its analysis is sized after the parse and started again for what it needs.
const TEXTS: [&str; 8] = [
    "0 -- 1 -- 2\nexpect mouse\n",
    "0 -- 1 -- 2\nexpect cat\n",
    "# c\n0 -- 1 -- 2\nexpect cat\n",
    "0 -- 3 -- 1 -- 2\n2 -- 3\nexpect mouse\n",
    "0 -- 3 -- 1 -- 2\nexpect mouse\n",
    "0 -- 1\n",
    "0 -- 1 -- 2 --\nexpect draw\n",
    "0 -- 1 -- 2\n{1 2 3 4} -- {5 6 7 8 9}\nexpect mouse\n",
];
const URIS: [&str; 3] = ["file:///a.cmg", "file:///b.cmg", "file:///c.cmg"];

fn uri(index: usize) -> Uri {
    URIS[index % URIS.len()].parse().unwrap()
}

#[derive(Clone, Debug)]
enum Op {
    Open(usize, usize),
    Change(usize, usize),
    Close(usize),
    Request(usize, bool),
    Settings,
    FinishAnalysis(usize),
    FinishSolve(usize, bool),
    FinishBuild(usize),
    Timer(usize),
    /// The longest wait of a request for its solve is over.
    WaitOver(usize),
}

fn op() -> impl Strategy<Value = Op> {
    // Weighted towards the ends of work, so that results land in every order.
    prop_oneof![
        1 => (0..2usize, 0..TEXTS.len()).prop_map(|(d, t)| Op::Open(d, t)),
        3 => (0..2usize, 0..TEXTS.len()).prop_map(|(d, t)| Op::Change(d, t)),
        1 => (0..2usize).prop_map(Op::Close),
        3 => (0..2usize, any::<bool>()).prop_map(|(d, s)| Op::Request(d, s)),
        1 => Just(Op::Settings),
        3 => (0..8usize).prop_map(Op::FinishAnalysis),
        3 => (0..8usize, any::<bool>()).prop_map(|(k, c)| Op::FinishSolve(k, c)),
        3 => (0..8usize).prop_map(Op::FinishBuild),
        3 => (0..8usize).prop_map(Op::Timer),
        1 => (0..8usize).prop_map(Op::WaitOver),
    ]
}

/// What the client knows of a document.
#[derive(Clone, PartialEq, Debug)]
struct ClientDoc {
    text: String,
    version: i32,
    /// Bumped by every open, so that a reopened document is another one.
    opening: u32,
}

struct Asked {
    uri: Uri,
    doc: Option<ClientDoc>,
}

#[derive(Default)]
struct Harness {
    client: HashMap<Uri, ClientDoc>,
    openings: u32,
    asked: HashMap<Ticket, Asked>,
    answered: Vec<Ticket>,
    next_ticket: Ticket,
    /// The work handed out and not yet ended.
    work: harness::Work,
    /// Per document: the opening and version whose analysis was refused for want
    /// of memory, as published.
    refused: HashMap<Uri, (u32, i32)>,
    /// After shutdown, requests still waiting are answered with nothing.
    shut_down: bool,
    /// The budget is tight: solutions are evicted while settings are applied.
    tight: bool,
    publications: u32,
    /// Configuration answers sent: each `Op::Settings` sends the next of a cycle of
    /// four (the same settings again, then a change of the live-solve limit, of the
    /// diagnostics cap, of the node hints), each a change undone by leaving the key
    /// out of a later answer.
    settings: u32,
    /// The settings the client has, as set by that cycle.
    max_nodes_set: bool,
    cap_set: bool,
    hints_off: bool,
    /// Per document: the opening and version last published, and whether that
    /// publication had the solve's outcome in it.
    shown: HashMap<Uri, (u32, i32, bool)>,
    /// Per document: the opening and version of the last publication, whatever it was.
    latest: HashMap<Uri, (u32, i32)>,
}

fn oracle_game(text: &str) -> Option<cmg_solve::Game> {
    let limits = SolveLimits {
        max_nodes: None,
        max_memory: None,
        memory_setting: MemorySetting::ServerSetting,
    };
    match Analysis::new(text.to_owned()).solve_plan(limits) {
        SolvePlan::Solve(game) => Some(game),
        _ => None,
    }
}

/// The messages `cmg_core` gives the text, before and after its solve.
fn oracle_messages(text: &str) -> [Vec<String>; 2] {
    let analysis = Analysis::new(text.to_owned());
    let solution = oracle_game(text).map(|game| cmg_solve::solve(&game));
    [None, solution.as_ref()].map(|solution| {
        let mut messages: Vec<String> = analysis
            .diagnostics_with(solution, None)
            .iter()
            .map(|d| analysis.message(d))
            .collect();
        messages.sort();
        messages
    })
}

impl Harness {
    fn feed(&mut self, scheduler: &mut Scheduler, event: Event) {
        for action in scheduler.handle(event) {
            self.check(action);
        }
        assert!(
            scheduler.used() <= scheduler.config.solver_memory_budget(),
            "{} bytes held, above the budget",
            scheduler.used()
        );
        // The publisher hands each publication over in order, and says so.
        for confirmation in self.work.confirmations() {
            self.feed(scheduler, confirmation);
        }
    }

    fn check(&mut self, action: Action) {
        let Some(action) = self.work.keep(action) else {
            return;
        };
        match action {
            Action::Publish {
                uri,
                version,
                diagnostics,
                ..
            } => {
                let Some(version) = version else {
                    assert!(!self.client.contains_key(&uri), "cleared an open document");
                    assert!(diagnostics.is_empty());
                    return;
                };
                let doc = self.client.get(&uri).expect("published a closed document");
                assert_eq!(version, doc.version, "published a stale version");
                self.latest.insert(uri.clone(), (doc.opening, version));
                let mut messages: Vec<String> =
                    diagnostics.into_iter().map(|d| d.message).collect();
                messages.sort();
                let key = (doc.opening, doc.version);
                // Refused for want of memory: the analysis (one note and nothing
                // else) or the solve (the note and the diagnostics without it).
                let over_budget = |m: &String| m.contains("memory budget");
                if let [note] = &messages[..] {
                    if over_budget(note) && note.contains("not analysed") {
                        // The diagnostics are gone from the client: the next
                        // publication may come without the outcome.
                        self.shown.insert(uri.clone(), (key.0, key.1, false));
                        self.refused.insert(uri.clone(), key);
                        self.publications += 1;
                        return;
                    }
                }
                let [unsolved, solved] = oracle_messages(&doc.text);
                if messages.iter().any(over_budget) && !unsolved.iter().any(over_budget) {
                    messages.retain(|m| !over_budget(m));
                    assert_eq!(messages, unsolved, "for {:?}", doc.text);
                    self.shown.insert(uri, (key.0, key.1, false));
                    self.publications += 1;
                    return;
                }
                assert!(
                    messages == unsolved || messages == solved,
                    "published {messages:?} for {:?}",
                    doc.text
                );
                let with_outcome = messages == solved && unsolved != solved;
                if let Some((opening, version, true)) = self.shown.get(&uri) {
                    assert!(
                        (*opening, *version) != key || with_outcome,
                        "a publication without the outcome came after one with it"
                    );
                }
                self.shown.insert(uri, (key.0, key.1, with_outcome));
                self.publications += 1;
            }
            Action::Answer { ticket, snapshot } => {
                let asked = self
                    .asked
                    .remove(&ticket)
                    .expect("answered twice or never asked");
                self.answered.push(ticket);
                match (snapshot, &asked.doc) {
                    (None, None) => {}
                    (None, Some(doc)) => assert!(
                        self.client.get(&asked.uri).map(|d| d.opening) != Some(doc.opening)
                            || self.refused.get(&asked.uri) == Some(&(doc.opening, doc.version))
                            || self.shut_down,
                        "an open document answered as unknown"
                    ),
                    (Some(_), None) => panic!("a closed document answered"),
                    (Some(snapshot), Some(doc)) => {
                        assert_eq!(
                            snapshot.rope.to_string(),
                            doc.text,
                            "answered from another text"
                        );
                        assert_eq!(snapshot.version, doc.version);
                        if let Some(solution) = &snapshot.solution {
                            assert_eq!(
                                Some(solution.solution.game()),
                                oracle_game(&doc.text).as_ref(),
                                "a solution of another game"
                            );
                        }
                    }
                }
            }
            Action::Modified { ticket } => {
                let asked = self
                    .asked
                    .remove(&ticket)
                    .expect("answered twice or never asked");
                self.answered.push(ticket);
                assert!(
                    self.client.get(&asked.uri) != asked.doc.as_ref(),
                    "ContentModified for text that did not change"
                );
            }
            Action::Failed { .. } => unreachable!("no analysis panics in these sequences"),
            Action::RefreshViews | Action::Free(_) => {}
            work => unreachable!("kept by the pool: {}", std::any::type_name_of_val(&work)),
        }
    }

    fn apply(&mut self, scheduler: &mut Scheduler, op: Op) {
        match op {
            Op::Open(d, t) => {
                self.openings += 1;
                let doc = ClientDoc {
                    text: TEXTS[t].to_owned(),
                    version: 1,
                    opening: self.openings,
                };
                self.client.insert(uri(d), doc);
                self.feed(
                    scheduler,
                    Event::Opened {
                        uri: uri(d),
                        text: TEXTS[t].to_owned(),
                        version: 1,
                    },
                );
            }
            Op::Change(d, t) => {
                let Some(doc) = self.client.get_mut(&uri(d)) else {
                    return;
                };
                doc.text = TEXTS[t].to_owned();
                doc.version += 1;
                let version = doc.version;
                self.feed(
                    scheduler,
                    Event::Changed {
                        uri: uri(d),
                        version,
                        changes: vec![TextDocumentContentChangeEvent {
                            range: None,
                            range_length: None,
                            text: TEXTS[t].to_owned(),
                        }],
                    },
                );
            }
            Op::Close(d) => {
                if self.client.remove(&uri(d)).is_some() {
                    self.feed(scheduler, Event::Closed { uri: uri(d) });
                }
            }
            Op::Request(d, solve) => {
                self.next_ticket += 1;
                let ticket = self.next_ticket;
                let doc = self.client.get(&uri(d)).cloned();
                self.asked.insert(ticket, Asked { uri: uri(d), doc });
                let needs = if solve { Needs::Solve } else { Needs::Analysis };
                self.feed(
                    scheduler,
                    Event::Request {
                        ticket,
                        uri: uri(d),
                        needs,
                    },
                );
            }
            Op::Settings => {
                match self.settings % 4 {
                    0 => {}
                    1 => {
                        // A change of the live-solve limit re-analyses every document;
                        // the text stays. Under a tight budget, one whose solution is
                        // evicted meanwhile is solved again, and may be published
                        // without the outcome until then.
                        if self.tight {
                            self.shown.clear();
                        }
                        self.max_nodes_set = !self.max_nodes_set;
                    }
                    2 => self.cap_set = !self.cap_set,
                    _ => self.hints_off = !self.hints_off,
                }
                self.settings += 1;
                let mut settings = serde_json::json!({});
                if self.max_nodes_set {
                    settings["solver"] = serde_json::json!({"maxNodes": 4999});
                }
                if self.cap_set {
                    settings["diagnostics.max"] = serde_json::json!(999);
                }
                if self.hints_off {
                    settings["inlayHints"] = serde_json::json!({"nodes": false});
                }
                self.feed(scheduler, Event::Settings(settings));
            }
            Op::FinishAnalysis(k) => self.finish(scheduler, |work| work.finish_analysis(k)),
            Op::FinishSolve(k, finish_cancelled) => {
                self.finish(scheduler, |work| work.finish_solve(k, finish_cancelled))
            }
            Op::FinishBuild(k) => self.finish(scheduler, |work| work.finish_build(k)),
            Op::Timer(k) => self.finish(scheduler, |work| work.finish_timer(k)),
            Op::WaitOver(k) => self.finish(scheduler, |work| work.finish_bound(k)),
        }
    }

    /// Ends a piece of work, if there is one, and feeds its end to the scheduler.
    fn finish(
        &mut self,
        scheduler: &mut Scheduler,
        end: impl FnOnce(&mut harness::Work) -> Option<Event>,
    ) {
        if let Some(event) = end(&mut self.work) {
            self.feed(scheduler, event);
        }
    }

    /// Lets every piece of work end, in order, until nothing is left.
    fn drain(&mut self, scheduler: &mut Scheduler) {
        for _ in 0..1000 {
            let op = if !self.work.analyses.is_empty() {
                Op::FinishAnalysis(0)
            } else if !self.work.solves.is_empty() {
                Op::FinishSolve(0, false)
            } else if !self.work.timers.is_empty() {
                Op::Timer(0)
            } else if !self.work.builds.is_empty() {
                Op::FinishBuild(0)
            } else if !self.work.bounds.is_empty() {
                Op::WaitOver(0)
            } else {
                return;
            };
            self.apply(scheduler, op);
        }
        panic!("the work never ends");
    }
}

use super::super::documents;

fn run(ops: Vec<Op>) -> Harness {
    run_with(Config::default(), ops)
}

fn run_with(config: Config, ops: Vec<Op>) -> Harness {
    let mut harness = Harness {
        tight: config.memory_cap.is_some(),
        ..Harness::default()
    };
    let mut scheduler = Scheduler::new(config, Encoding::Utf16);
    for op in ops {
        harness.apply(&mut scheduler, op);
    }
    harness.drain(&mut scheduler);
    assert!(harness.asked.is_empty(), "requests never answered");
    assert_eq!(scheduler.parked(), 0);
    for (uri, doc) in &harness.client {
        assert_eq!(scheduler.text(uri).as_deref(), Some(doc.text.as_str()));
        // Once the work is done, the client shows each open text's own diagnostics.
        assert_eq!(
            harness.latest.get(uri).copied(),
            Some((doc.opening, doc.version)),
            "the last publication is not of the text open now"
        );
    }
    harness
}

/// Document 0 opened with `TEXTS[first]` and settled (analysed, solved, its what-if
/// computed, published), then document 1 with `TEXTS[second]`: under a tight budget the
/// second's analysis evicts what the first holds.
fn settled(first: usize, second: usize) -> Vec<Op> {
    let settle = [
        Op::FinishAnalysis(0),
        Op::FinishSolve(0, false),
        Op::FinishSolve(0, false),
        Op::Timer(0),
        Op::FinishBuild(0),
    ];
    let mut ops = vec![Op::Open(0, first)];
    ops.extend(settle.clone());
    ops.push(Op::Open(1, second));
    ops.extend(settle);
    ops
}

/// The cases of each property: 1000, or `PROPTEST_CASES` when it is set (run them at
/// 20 000 once after changing the scheduler: a property that fails one run in fifty
/// passes 1000 cases most of the time).
fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|cases| cases.parse().ok())
        .unwrap_or(1000)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]
    #[test]
    fn nothing_stale_is_published_or_answered_and_every_request_is_answered(
        first in 0..TEXTS.len(),
        second in 0..TEXTS.len(),
        ops in proptest::collection::vec(op(), 1..60)
    ) {
        // Both documents start open, so that most steps act on something.
        let mut all = vec![Op::Open(0, first), Op::Open(1, second)];
        all.extend(ops);
        run(all);
    }

    /// The same with a budget that holds about one document: analyses and
    /// solutions are evicted and made again all the time, and some are refused.
    #[test]
    fn with_evictions_nothing_stale_is_published_or_answered_and_every_request_is_answered(
        first in 0..TEXTS.len(),
        second in 0..TEXTS.len(),
        ops in proptest::collection::vec(op(), 1..60)
    ) {
        let mut all = settled(first, second);
        all.extend(ops);
        run_with(tight(), all);
    }
}

/// The shrunk case of a seed that failed: an evicted document is analysed again for
/// a request and refused for want of memory, and analysed again for the next request
/// before the refusal is sent. The client still shows its diagnostics with the
/// outcome, so the new analysis is not published without it.
#[test]
fn a_refusal_never_sent_leaves_the_next_analysis_quiet() {
    use Op::*;
    let mut ops = settled(0, 3);
    ops.extend([
        Change(0, 2),
        FinishAnalysis(0),
        FinishSolve(0, false),
        Request(1, false),
        FinishAnalysis(0),
        Open(0, 0),
        Request(1, false),
        Close(0),
        FinishAnalysis(0),
        FinishAnalysis(0),
        Timer(1),
    ]);
    let harness = run_with(tight(), ops);
    // Each document's first, and document 1's again when its solve lands (with the
    // outcome, as before); none without it in between.
    assert_eq!(harness.publications, 3);
}

/// A shrunk case of the tight-budget property: a changed text's analysis is refused
/// for want of memory, and a request tries it again before the refusal is sent. The
/// new try is of a new text the client has not seen: it is published, not kept quiet
/// as the re-analysis of an evicted document is (the last check of `run_with`).
#[test]
fn a_new_text_analysed_again_before_its_refusal_is_sent_is_published() {
    use Op::*;
    let mut ops = settled(0, 7);
    ops.extend([
        FinishAnalysis(0),
        Change(0, 7),
        Close(1),
        FinishSolve(0, false),
        FinishAnalysis(0),
        FinishAnalysis(0),
        Change(0, 6),
        FinishSolve(0, false),
        FinishAnalysis(0),
        Request(0, false),
    ]);
    run_with(tight(), ops);
}

/// The initialization options are the defaults of every configuration answer, and
/// an answer equal to the settings in force does nothing at all.
#[test]
fn the_same_settings_again_do_nothing() {
    let mut scheduler = Scheduler::new(Config::default(), Encoding::Utf16);
    let options = serde_json::json!({"inlayHints": {"nodes": false}, "diagnostics.max": 9});
    let initialized = scheduler.handle(Event::Initialize {
        encoding: Encoding::Utf16,
        settings: Some(options.clone()),
    });
    assert!(
        initialized.is_empty(),
        "a request before `initialize` is answered"
    );
    let mut harness = Harness::default();
    harness.apply(&mut scheduler, open(0, 3));
    harness.drain(&mut scheduler);
    for same in [serde_json::json!(null), serde_json::json!({}), options] {
        assert!(scheduler.handle(Event::Settings(same)).is_empty());
    }
    assert_eq!(
        (
            scheduler.config.max_diagnostics,
            scheduler.config.node_hints
        ),
        (9, false)
    );
}

/// A budget for about one of [`TEXTS`] at a time: any one analysis under way, or
/// one analysis and one solve.
fn tight() -> Config {
    let longest = TEXTS.iter().map(|t| t.len()).max().unwrap();
    let config = Config::default();
    let cap = documents::analysis_estimate(longest, &config) + peak_memory_bytes(4);
    Config {
        memory_cap: Some(cap),
        ..config
    }
}

/// Under a tight budget, documents are evicted, and each is analysed again when a
/// request comes: the answer is of its text, and nothing is published again.
#[test]
fn an_evicted_document_is_analysed_again_for_a_request_and_not_published_again() {
    // One analysis of "0 -- 1" retained, and one under way.
    let config = Config {
        memory_cap: Some(
            Analysis::new(TEXTS[5]).heap_bytes() as u64
                + documents::analysis_estimate(TEXTS[5].len(), &Config::default()),
        ),
        ..Config::default()
    };
    let mut scheduler = Scheduler::new(config, Encoding::Utf16);
    let mut harness = Harness::default();
    // "0 -- 1": no game, so nothing waits for a solve.
    for d in 0..3 {
        harness.apply(&mut scheduler, open(d, 5));
        harness.drain(&mut scheduler);
    }
    assert_eq!(harness.publications, 3);
    assert!(scheduler.evictions >= 1, "nothing evicted");
    let evicted = (0..3)
        .filter(|d| scheduler.documents[&uri(*d)].document.evicted)
        .count();
    assert!(evicted >= 1);
    for d in 0..3 {
        harness.apply(&mut scheduler, Op::Request(d, false));
        harness.drain(&mut scheduler);
    }
    assert_eq!(harness.answered, [1, 2, 3], "{:?}", harness.asked.len());
    assert_eq!(harness.publications, 3, "published again");
    // An edit of an evicted document is analysed and published as any edit.
    let d = (0..3)
        .find(|d| scheduler.documents[&uri(*d)].document.evicted)
        .expect("one is evicted");
    harness.apply(&mut scheduler, Op::Change(d, 0));
    harness.drain(&mut scheduler);
    assert_eq!(harness.publications, 4);
}

/// The analysis of an older text, kept while the next waits for room, is the first
/// thing evicted when another document needs room: nothing needs it any more. Here the
/// reopened document is analysed at once.
#[test]
fn a_stale_analysis_is_evicted_to_make_room() {
    use Op::*;
    let mut scheduler = Scheduler::new(tight(), Encoding::Utf16);
    let mut harness = Harness {
        tight: true,
        ..Harness::default()
    };
    for op in settled(7, 0) {
        harness.apply(&mut scheduler, op);
    }
    harness.apply(&mut scheduler, Change(0, 0));
    assert_eq!(
        scheduler.waiting,
        [uri(0)],
        "the new text fits next to the old"
    );
    harness.apply(&mut scheduler, Open(1, 0));
    assert_eq!(
        scheduler.documents[&uri(0)].document.analysis_bytes(),
        0,
        "the stale analysis is kept"
    );
    assert!(harness
        .work
        .analyses
        .iter()
        .any(|(under_way, _)| *under_way == uri(1)));
    assert!(!scheduler.waiting.contains(&uri(1)));
    harness.drain(&mut scheduler);
    assert!(harness.refused.is_empty());
}

/// Documents opened at once: while the others' publications are under way their
/// analyses cannot be evicted, and the next analysis that needs their room waits
/// for a publication to be handed over instead of being refused.
#[test]
fn an_analysis_waits_for_the_publications_under_way_instead_of_being_refused() {
    let retained = Analysis::new(TEXTS[5]).heap_bytes() as u64;
    let estimate = documents::analysis_estimate(TEXTS[5].len(), &Config::default());
    // Two analyses retained and a third under way do not fit.
    let config = Config {
        memory_cap: Some(2 * retained + estimate - 1),
        ..Config::default()
    };
    let mut scheduler = Scheduler::new(config, Encoding::Utf16);
    let mut harness = Harness::default();
    for d in 0..2 {
        harness.apply(&mut scheduler, open(d, 5));
        harness.apply(&mut scheduler, Op::FinishAnalysis(0));
    }
    assert_eq!(harness.work.builds.len(), 2);
    harness.apply(&mut scheduler, open(2, 5));
    assert!(harness.refused.is_empty(), "refused while others publish");
    assert!(harness.work.analyses.is_empty(), "started above the budget");
    // One publication handed over: its analysis makes room.
    harness.apply(&mut scheduler, Op::FinishBuild(0));
    assert_eq!(harness.work.analyses.len(), 1, "still waiting");
    harness.drain(&mut scheduler);
    assert!(harness.refused.is_empty());
    assert_eq!(harness.publications, 3);
    assert!(harness.asked.is_empty());
}

/// A group product declares a graph its text does not bound: the analysis granted
/// the text's estimate stops after the parse and says what it needs, and is started
/// again for that when it fits, or refused with the figure when it cannot. What the
/// analysis then holds counts its game.
#[test]
fn a_dense_graph_is_sized_before_it_is_built_and_counted_with_its_game() {
    let mut text = String::from("0 -- 1 -- 2\n{");
    text.extend((3..100).map(|id| format!("{id} ")));
    text.push_str("} -- {");
    text.extend((100..300).map(|id| format!("{id} ")));
    text.push_str("}\n");
    let config = Config::default();
    let parse = cmg_syntax::parse(&text);
    let need = documents::analysis_need(text.len(), &parse, &config);
    let estimate = documents::analysis_estimate(text.len(), &config);
    assert!(need > 3 * estimate, "{need} {estimate}");
    let open = |cap: u64| {
        let config = Config {
            memory_cap: Some(cap),
            ..Config::default()
        };
        let mut scheduler = Scheduler::new(config, Encoding::Utf16);
        let mut harness = Harness::default();
        harness.client.insert(
            uri(0),
            ClientDoc {
                text: text.clone(),
                version: 1,
                opening: 0,
            },
        );
        let opened = Event::Opened {
            uri: uri(0),
            text: text.clone(),
            version: 1,
        };
        harness.feed(&mut scheduler, opened);
        assert_eq!(harness.work.analyses[0].1.granted, estimate);
        harness.apply(&mut scheduler, Op::FinishAnalysis(0));
        (scheduler, harness)
    };
    // Room for it: started again with what it needs.
    let (mut scheduler, mut harness) = open(2 * need);
    assert_eq!(harness.work.analyses.len(), 1, "not started again");
    assert_eq!(harness.work.analyses[0].1.granted, need);
    assert_eq!(scheduler.reserved.values().sum::<u64>(), need);
    harness.apply(&mut scheduler, Op::FinishAnalysis(0));
    let analysed = &scheduler.documents[&uri(0)].document.analysed;
    let analysis = analysed.analysis.as_ref().expect("analysed");
    let game = &analysed.plan.game.as_ref().expect("a game").0;
    assert_eq!(
        analysed.analysis_bytes,
        (analysis.heap_bytes() + game.heap_bytes()) as u64
    );
    // The game is about as large as the graph: it was not counted before.
    assert!(2 * game.heap_bytes() > analysis.heap_bytes());
    harness.drain(&mut scheduler);
    // No room: refused, with what it needs.
    let (mut scheduler, mut harness) = open(need - 1);
    harness.drain(&mut scheduler);
    assert_eq!(harness.refused.len(), 1);
    let analysed = &scheduler.documents[&uri(0)].document.analysed;
    assert_eq!(analysed.over_budget.map(|over| over.estimate), Some(need));
}

/// A document whose analysis cannot fit however much is evicted gets the
/// `too-large` note that names the setting, and its requests answer nothing.
#[test]
fn a_document_too_large_for_the_budget_is_refused_with_the_setting() {
    let mut config = tight();
    config.memory_cap = Some(documents::analysis_estimate(TEXTS[1].len(), &config) + 1);
    let mut scheduler = Scheduler::new(config, Encoding::Utf16);
    let mut harness = Harness::default();
    harness.apply(&mut scheduler, open(0, 1));
    harness.drain(&mut scheduler);
    // Bigger than the whole budget: refused.
    harness.apply(&mut scheduler, open(1, 3));
    harness.apply(&mut scheduler, Op::Request(1, false));
    harness.drain(&mut scheduler);
    assert_eq!(harness.refused.len(), 1);
    assert!(harness.asked.is_empty());
    let analysed = &scheduler.documents[&uri(1)].document.analysed;
    let message = &documents::diagnostics(analysed, &SolveState::NoGame).shown[0];
    assert!(
        message.message.contains("`cmg.solver.maxMemoryMiB`"),
        "{message:?}"
    );
    assert_eq!(
        message.code.severity(),
        cmg_core::model::Severity::Information
    );
}

/// A lens request of a client without refresh waits for its solve at most until
/// the bound, and every request still parked at shutdown is answered.
#[test]
fn waits_for_a_solve_are_bounded_and_shutdown_answers_them_all() {
    let mut scheduler = Scheduler::new(Config::default(), Encoding::Utf16);
    let mut harness = Harness::default();
    harness.apply(&mut scheduler, open(0, 3));
    harness.apply(&mut scheduler, Op::FinishAnalysis(0));
    harness.apply(&mut scheduler, Op::Timer(0));
    harness.apply(&mut scheduler, Op::FinishBuild(0));
    assert_eq!(harness.work.solves.len(), 1);
    harness.apply(&mut scheduler, Op::Request(0, true));
    assert_eq!(scheduler.parked(), 1, "answered before its solve");
    harness.apply(&mut scheduler, Op::WaitOver(0));
    assert_eq!(harness.answered, [1], "the wait has no bound");
    // Another waits, and the client shuts down before the solve ends.
    harness.apply(&mut scheduler, Op::Request(0, true));
    harness.apply(&mut scheduler, open(1, 0));
    harness.apply(&mut scheduler, Op::Request(1, false));
    assert_eq!(scheduler.parked(), 2);
    harness.shut_down = true;
    harness.feed(&mut scheduler, Event::Shutdown);
    assert_eq!(scheduler.parked(), 0, "left unanswered at shutdown");
    assert!(harness.asked.is_empty());
}

fn open(d: usize, t: usize) -> Op {
    Op::Open(d, t)
}

/// A request about a text under analysis is parked (no answer from the older
/// analysis, none on a timer) and answered after that text's publication.
#[test]
fn a_request_waits_for_its_analysis_and_its_publication() {
    let mut scheduler = Scheduler::new(Config::default(), Encoding::Utf16);
    let mut harness = Harness::default();
    harness.apply(&mut scheduler, open(0, 5));
    harness.apply(&mut scheduler, Op::Request(0, false));
    assert_eq!(scheduler.parked(), 1);
    harness.apply(&mut scheduler, Op::FinishAnalysis(0));
    assert_eq!(scheduler.parked(), 1, "answered before the publication");
    harness.apply(&mut scheduler, Op::FinishBuild(0));
    assert_eq!(harness.publications, 1);
    assert_eq!(harness.answered, [1]);
    // A request about another document is answered whatever this one does.
    harness.apply(&mut scheduler, open(1, 5));
    harness.apply(&mut scheduler, Op::Change(0, 0));
    harness.apply(&mut scheduler, Op::Request(0, false));
    harness.apply(&mut scheduler, Op::FinishAnalysis(1));
    harness.apply(&mut scheduler, Op::FinishBuild(0));
    assert_eq!(harness.answered, [1, 2]);
    // Document 1 is not analysed yet: its request waits, whatever document 0 does.
    harness.apply(&mut scheduler, Op::Request(1, false));
    harness.apply(&mut scheduler, Op::Request(0, false));
    assert_eq!(harness.answered, [1, 2, 4]);
    assert_eq!(scheduler.parked(), 1);
    harness.drain(&mut scheduler);
    assert!(harness.asked.is_empty());
}

/// Version 1's solve ends after version 2 replaced it (a stale solve): it is not
/// taken for version 2's, which is published once its own solve ends.
#[test]
fn a_stale_solve_is_never_published() {
    let mut scheduler = Scheduler::new(Config::default(), Encoding::Utf16);
    let mut harness = Harness::default();
    harness.apply(&mut scheduler, open(0, 3));
    harness.apply(&mut scheduler, Op::FinishAnalysis(0));
    assert_eq!(harness.work.solves.len(), 1);
    harness.apply(&mut scheduler, Op::Change(0, 4));
    harness.apply(&mut scheduler, Op::FinishAnalysis(0));
    // Version 1's solve ends, finished despite the cancel: it must be dropped.
    harness.apply(&mut scheduler, Op::FinishSolve(0, true));
    harness.apply(&mut scheduler, Op::Request(0, true));
    harness.drain(&mut scheduler);
    assert!(harness.asked.is_empty());
    assert!(harness.publications >= 1);
}

/// Solves run one at a time, the newest first, and retained solutions share one
/// budget: a solve evicts the least recently used, which is solved again when a
/// request asks for it.
#[test]
fn solves_share_one_queue_and_one_budget() {
    // 350 nodes: one solve's peak fits in 1 MiB, two do not.
    let text = |salt: u32| {
        let mut text = String::from("0 -- 1 -- 2\n");
        for i in 3..350u32 {
            text.push_str(&format!("{} -- {}\n", i, (i * 7 + salt) % i));
        }
        text
    };
    // The three analyses and one solve's peak fit (so do the analyses under way);
    // two peaks do not.
    let peak = peak_memory_bytes(350);
    let analyses: u64 = (0..3)
        .map(|salt| Analysis::new(text(salt)).heap_bytes() as u64)
        .sum();
    let config = Config {
        memory_cap: Some(analyses + peak * 19 / 10),
        ..Config::default()
    };
    let mut scheduler = Scheduler::new(config, Encoding::Utf16);
    let mut harness = Harness::default();
    let [a, b, c] = [0, 1, 2].map(uri);
    for (salt, uri) in [&a, &b, &c].into_iter().enumerate() {
        let doc = ClientDoc {
            text: text(salt as u32),
            version: 1,
            opening: salt as u32,
        };
        harness.client.insert(uri.clone(), doc.clone());
        let opened = Event::Opened {
            uri: uri.clone(),
            text: doc.text,
            version: 1,
        };
        harness.feed(&mut scheduler, opened);
    }
    for _ in 0..3 {
        harness.apply(&mut scheduler, Op::FinishAnalysis(0));
    }
    let solving = |harness: &Harness| -> Vec<Uri> {
        harness
            .work
            .solves
            .iter()
            .map(|(uri, _)| uri.clone())
            .collect()
    };
    let retained = |scheduler: &Scheduler| -> Vec<bool> {
        [&a, &b, &c]
            .map(|uri| scheduler.documents[uri].document.last_solved.is_some())
            .to_vec()
    };
    assert_eq!(
        solving(&harness),
        std::slice::from_ref(&a),
        "one solve at a time"
    );
    harness.apply(&mut scheduler, Op::FinishSolve(0, false));
    assert_eq!(
        solving(&harness),
        std::slice::from_ref(&c),
        "the newest goes next"
    );
    assert_eq!(
        retained(&scheduler),
        [false, false, false],
        "a is evicted for c"
    );
    harness.apply(&mut scheduler, Op::FinishSolve(0, false));
    assert_eq!(solving(&harness), std::slice::from_ref(&b));
    harness.apply(&mut scheduler, Op::FinishSolve(0, false));
    assert_eq!(retained(&scheduler), [false, true, false]);
    // Asking about a solves it again, and evicts b.
    harness.apply(&mut scheduler, Op::Request(0, true));
    assert_eq!(solving(&harness), std::slice::from_ref(&a));
    harness.drain(&mut scheduler);
    assert!(harness.asked.is_empty());
    assert_eq!(retained(&scheduler), [true, false, false]);
    assert!(scheduler.documents[&a].document.solution().is_some());
}

/// A case of the property above at 20 000 cases (unshrunk): a change of the
/// diagnostics cap analyses an evicted document again, of the same version, whose
/// solution the budget let go; its first publication waited for the new solve only for
/// the short wait, and went out without the outcome the client was showing. Now the
/// solve's landing publishes it. (The documents' order here is the one that failed;
/// settings now visit documents in a fixed order.)
#[test]
fn a_version_shown_with_its_outcome_is_not_published_again_without_it() {
    use Op::*;
    let settle = [
        FinishAnalysis(0),
        FinishSolve(0, false),
        FinishSolve(0, false),
        Timer(0),
        FinishBuild(0),
    ];
    let mut all = vec![Open(1, 1)];
    all.extend(settle.clone());
    all.push(Open(0, 0));
    all.extend(settle);
    all.extend([
        FinishAnalysis(2),
        Request(1, true),
        FinishBuild(6),
        FinishBuild(6),
        FinishSolve(7, true),
        Request(0, false),
        FinishAnalysis(1),
        FinishSolve(5, true),
        Request(1, true),
        Timer(5),
        Settings,
        Timer(6),
        FinishSolve(7, true),
        Settings,
        FinishAnalysis(7),
        FinishAnalysis(1),
        Timer(5),
        Request(0, true),
        FinishBuild(2),
        FinishBuild(2),
        FinishSolve(0, true),
        Change(0, 3),
        FinishAnalysis(0),
        FinishBuild(0),
        Settings,
        Timer(2),
        FinishSolve(6, false),
        FinishAnalysis(2),
        Change(0, 2),
        FinishBuild(7),
        Request(1, true),
        FinishSolve(3, true),
        Timer(5),
        FinishBuild(6),
        Open(1, 0),
        Timer(4),
        FinishBuild(3),
        WaitOver(7),
        Close(0),
        FinishSolve(5, false),
        FinishSolve(5, true),
        Request(1, true),
    ]);
    run_with(tight(), all);
}

/// The shrunk case of a seed that failed at 20 000 cases: a document whose version is
/// shown with its outcome, analysed again after a settings change, waits for its solve
/// without publishing; a build of its older generation that ended stale still counted
/// as under way, so the other document's analysis waited for that publication, and the
/// solve waited for the analysis (analyses waiting for room go first): nothing moved.
#[test]
fn a_stale_build_that_ends_holds_nothing_up() {
    use Op::*;
    let mut all = settled(0, 7);
    all.extend([
        Request(0, false),
        FinishAnalysis(0),
        Request(1, true),
        Settings,
        FinishAnalysis(0),
        FinishSolve(0, false),
        Settings,
    ]);
    run_with(tight(), all);
}
