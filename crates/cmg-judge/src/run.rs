//! A judge's run: the graphs in order, until one fails or the host says stop; then the
//! failure verified in a fresh start, shrunk (or, when it needs earlier graphs, the
//! shortest sequence of them found), explained by a cause checked on every graph run,
//! and located on the optimal line.

use cmg_gen::{Constraints, Rng, Winner};
use cmg_solve::{Game, Player, Position};

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use crate::cause::{self, Allowed, Answered, Cause};
use crate::graphs::{self, Lists, Order};
use crate::variant::{self, Answers, Rules};

/// What a solution did with one graph.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// It answered this (as written: not always a number).
    Value(String),
    /// It ended or crashed; the end of what it wrote to standard error, and how it ended.
    Crashed(String),
    /// It ran out of memory.
    OutOfMemory(String),
    /// It took longer than the time limit.
    TimedOut,
    /// The host was asked to stop while the solution ran.
    Interrupted,
}

/// The solution under judgement.
pub trait Solution {
    /// Its answer to `graph`, in the run that answered the graphs before it. After any
    /// answer but a `Value`, the next answer comes from a fresh start.
    fn answer(&mut self, graph: &[Vec<u32>]) -> Answer;
    /// Its answers to `graphs` in turn, stopping after the first that is not a `Value`.
    /// A solution that can take several graphs at once (a process reading a pipe) saves
    /// a round trip per graph.
    fn answers(&mut self, graphs: &[Lists]) -> Vec<Answer> {
        let mut answers = Vec::with_capacity(graphs.len());
        for graph in graphs {
            let answer = self.answer(graph);
            let value = matches!(answer, Answer::Value(_));
            answers.push(answer);
            if !value {
                break;
            }
        }
        answers
    }
    /// Forgets every graph before: the next answer comes from a fresh start (a new
    /// process, a new interpreter).
    fn restart(&mut self);
}

/// Which budget a step draws on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// The search for a failure, with this many graphs tried.
    Search { tried: u64 },
    /// Everything after a failure: verifying, shrinking, the cause.
    After,
}

/// What the judge asks of the program that runs it: whether to go on, and where to say
/// how it goes.
pub trait Host {
    /// Whether the step may go on (time, graph counts, signals).
    fn go_on(&mut self, phase: Phase) -> bool;
    /// Whether a signal asked the run to stop.
    fn stopped(&self) -> bool;
    /// The most graphs the search may try, if it is bounded by a count.
    fn graph_limit(&self) -> Option<u64> {
        None
    }
    /// A line of progress.
    fn progress(&mut self, _text: &str) {}
    /// A graph the solution failed on (the first and each step of the shrinking).
    fn failed(&mut self, _finding: &Finding) {}
}

impl<H: Host + ?Sized> Host for &mut H {
    fn go_on(&mut self, phase: Phase) -> bool {
        (**self).go_on(phase)
    }
    fn stopped(&self) -> bool {
        (**self).stopped()
    }
    fn graph_limit(&self) -> Option<u64> {
        (**self).graph_limit()
    }
    fn progress(&mut self, text: &str) {
        (**self).progress(text);
    }
    fn failed(&mut self, finding: &Finding) {
        (**self).failed(finding);
    }
}

/// What was wrong with an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    WrongAnswer,
    RuntimeError,
    TimeLimit,
    MemoryLimit,
}

impl Verdict {
    /// The word `--json` gives.
    pub fn word(self) -> &'static str {
        match self {
            Verdict::WrongAnswer => "wrong-answer",
            Verdict::RuntimeError => "runtime-error",
            Verdict::TimeLimit => "time-limit",
            Verdict::MemoryLimit => "memory-limit",
        }
    }

    /// The words of the report.
    pub fn words(self) -> &'static str {
        match self {
            Verdict::WrongAnswer => "wrong answer",
            Verdict::RuntimeError => "runtime error",
            Verdict::TimeLimit => "time limit exceeded",
            Verdict::MemoryLimit => "memory limit exceeded",
        }
    }
}

/// A graph the solution failed on.
#[derive(Clone, Debug)]
pub struct Finding {
    pub verdict: Verdict,
    pub graph: Lists,
    /// The right answer: 0 a draw, 1 the mouse wins, 2 the cat wins.
    pub expected: u8,
    pub moves: Option<u32>,
    pub got: Option<i64>,
    /// What it answered, or the end of its standard error.
    pub detail: String,
    /// The end of its standard error, when it gave no answer.
    pub error: Option<String>,
}

impl Finding {
    fn same_failure(&self, other: &Finding) -> bool {
        (self.verdict, self.got) == (other.verdict, other.got)
    }
}

/// What kind of graph a test was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Graphs a run before failed on, kept with `--keep`.
    Kept,
    Small,
    Record,
    Long,
    Random,
}

impl Kind {
    pub const ALL: [Kind; 5] = [
        Kind::Kept,
        Kind::Small,
        Kind::Record,
        Kind::Long,
        Kind::Random,
    ];

    pub fn word(self) -> &'static str {
        match self {
            Kind::Kept => "kept",
            Kind::Small => "small",
            Kind::Record => "record",
            Kind::Long => "long",
            Kind::Random => "random",
        }
    }
}

/// The graphs tried in the search, by kind, and the sizes whose small graphs were all
/// tried.
#[derive(Clone, Debug, Default)]
pub struct Checked {
    pub counts: [u64; 5],
    /// Every small game of 3 to this many nodes was tried (in both orders).
    pub complete_to: Option<usize>,
}

impl Checked {
    pub fn total(&self) -> u64 {
        self.counts.iter().sum()
    }

    pub fn count(&self, kind: Kind) -> u64 {
        self.counts[kind as usize]
    }
}

/// The first position on the optimal line that the solution gets wrong when asked
/// about it as a new start, with the next one it gets right.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WrongAt {
    /// Moves made before it on the optimal line.
    pub ply: usize,
    pub mouse: u32,
    pub cat: u32,
    pub expected: u8,
    pub got: i64,
    /// The graph renumbered so that the position is the start.
    pub graph: Lists,
}

/// What a run found.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub finding: Option<Finding>,
    pub checked: Checked,
    /// Whether the failure, run again from a fresh start, failed the same way (`None`:
    /// not run again, as after a signal).
    pub reproduced: Option<bool>,
    /// When the failure needs earlier graphs: the graphs to run in order from a fresh
    /// start, the last one answered wrong.
    pub sequence: Option<Vec<Lists>>,
    pub cause: Option<Cause>,
    pub wrong_at: Option<WrongAt>,
}

/// The standard start.
pub const START: Position = Position::START;

/// The right answer and the moves to the end.
pub fn expected(lists: &[Vec<u32>]) -> (u8, Option<u32>) {
    let solution = cmg_solve::solve(&Game::new(lists, Some(0)));
    (solution.outcome(START).code(), solution.moves_to_end(START))
}

/// The most graphs kept for the cause checks: they take a solve each.
const MAX_LOG: usize = 200_000;
/// The most graphs kept as the history of one run, for the sequence a stateful solution
/// needs: past it, the older half is forgotten.
const MAX_HISTORY: usize = 50_000;
/// How far (in edges) the pinning of a turn limit looks from its seeds, and how many
/// graphs it keeps at each step.
const PIN_RINGS: usize = 10;
const PIN_FRONTIER: usize = 100;
/// How many more games a cause must predict the solution's answer on, where the cause
/// and the real game differ.
const CONFIRMATIONS: usize = 3;
/// How many small graphs are sent at once.
const BATCH: usize = 64;
/// The largest node count of the small graphs.
pub const SMALL_NODES: usize = 7;

/// Judges `solution`, trying graphs in order until one fails or `host` says stop: the
/// graphs in `first` (those earlier runs failed on), then every small game, the
/// published graphs and the records, then long games and random graphs from `seed`.
/// The solution answers at once here; a host whose solution answers later (a browser's
/// worker) drives a [`Judging`] instead.
pub fn judge(
    solution: &mut dyn Solution,
    host: &mut dyn Host,
    seed: u64,
    first: Vec<Lists>,
) -> Report {
    let mut judging = Judging::new(host, seed, first);
    let mut answers = Vec::new();
    loop {
        match judging.resume(std::mem::take(&mut answers)) {
            Step::Done(report) => return *report,
            Step::Ask(Request::Answers(graphs)) => answers = solution.answers(&graphs),
            Step::Ask(Request::Restart) => solution.restart(),
        }
    }
}

/// What the judge needs of the solution before it can go on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    /// Its answers to these graphs in turn, in the run that answered the graphs before,
    /// stopping after the first that is not a `Value`. After any answer but a `Value`,
    /// the next answer comes from a fresh start.
    Answers(Vec<Lists>),
    /// Forget every graph before: the next answer comes from a fresh start.
    Restart,
}

/// Where a [`Judging`] stands.
#[derive(Debug)]
pub enum Step {
    /// It waits for the solution: resume it with the answers (none after a restart).
    Ask(Request),
    /// It is over.
    Done(Box<Report>),
}

/// A judge's run that stops whenever it needs the solution, so that the solution can
/// answer later (a worker in a browser, which may have to be ended and started again)
/// while nothing waits: [`Judging::resume`] runs it up to its next request. The run is
/// `judge`'s, step for step; only who calls the solution differs.
pub struct Judging<'a> {
    run: std::pin::Pin<Box<dyn std::future::Future<Output = Report> + 'a>>,
    exchange: Rc<RefCell<Exchange>>,
    done: bool,
}

/// The request the run waits on, and the answers to it once they come.
#[derive(Default)]
struct Exchange {
    request: Option<Request>,
    answers: Option<Vec<Answer>>,
}

impl<'a> Judging<'a> {
    /// A run as `judge` makes it; nothing runs before the first `resume`.
    pub fn new(host: impl Host + 'a, seed: u64, first: Vec<Lists>) -> Judging<'a> {
        let exchange = Rc::new(RefCell::new(Exchange::default()));
        let shared = Rc::clone(&exchange);
        let run = Box::pin(async move {
            let mut host = host;
            let mut run = Run {
                exchange: shared,
                host: &mut host,
                history: Vec::new(),
                before_failure: Vec::new(),
                log: Vec::new(),
            };
            let mut report = Report::default();
            let Some((finding, prior)) = run.search(&mut report.checked, seed, first).await else {
                return report;
            };
            run.host.failed(&finding);
            run.after(finding, prior, &mut report, seed).await;
            report
        });
        Judging {
            run,
            exchange,
            done: false,
        }
    }

    /// Runs up to the next request, with `answers` to the last one (ignored on the
    /// first call and after a restart). After `Done`, every call is `Done` with an
    /// empty report.
    pub fn resume(&mut self, answers: Vec<Answer>) -> Step {
        if self.done {
            return Step::Done(Box::default());
        }
        {
            let mut exchange = self.exchange.borrow_mut();
            if exchange.request.take().is_some() {
                exchange.answers = Some(answers);
            }
        }
        let mut context = std::task::Context::from_waker(std::task::Waker::noop());
        match self.run.as_mut().poll(&mut context) {
            std::task::Poll::Ready(report) => {
                self.done = true;
                Step::Done(Box::new(report))
            }
            std::task::Poll::Pending => match self.exchange.borrow().request.clone() {
                Some(request) => Step::Ask(request),
                // The run waits on nothing else.
                None => unreachable!("a judge's run waits only on the solution"),
            },
        }
    }
}

/// The wait for the answers to the request in the exchange.
struct Reply<'e>(&'e RefCell<Exchange>);

impl std::future::Future for Reply<'_> {
    type Output = Vec<Answer>;

    fn poll(
        self: std::pin::Pin<&mut Self>,
        _: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Vec<Answer>> {
        match self.0.borrow_mut().answers.take() {
            Some(answers) => std::task::Poll::Ready(answers),
            None => std::task::Poll::Pending,
        }
    }
}

struct Run<'a> {
    /// Where requests to the solution go and its answers come back.
    exchange: Rc<RefCell<Exchange>>,
    host: &'a mut dyn Host,
    /// The graphs answered since the last fresh start (the last `MAX_HISTORY`).
    history: Vec<Lists>,
    /// The history before the last answer that was not a value (after which the
    /// solution starts afresh).
    before_failure: Vec<Lists>,
    /// Every answer 0, 1 or 2, for the cause checks.
    log: Vec<Answered>,
}

impl Run<'_> {
    /// Asks the solution and waits for its answers (none after a restart).
    async fn call(&mut self, request: Request) -> Vec<Answer> {
        self.exchange.borrow_mut().request = Some(request);
        Reply(&self.exchange).await
    }

    /// The solution's answer; a time limit is tried once more from a fresh start before
    /// it counts, so that a busy moment never makes a right solution wrong.
    async fn ask(&mut self, graph: &[Vec<u32>]) -> Answer {
        self.ask_many(std::slice::from_ref(&graph.to_vec()))
            .await
            .pop()
            .unwrap_or(Answer::Interrupted)
    }

    /// The answers to `graphs` in turn, up to the first that is not a value.
    async fn ask_many(&mut self, graphs: &[Lists]) -> Vec<Answer> {
        if self.history.len() + graphs.len() > MAX_HISTORY {
            self.history.drain(..MAX_HISTORY / 2);
        }
        let mut answers = self.call(Request::Answers(graphs.to_vec())).await;
        if answers.last() == Some(&Answer::TimedOut) {
            let graph = &graphs[answers.len() - 1];
            self.history
                .extend(graphs[..answers.len() - 1].iter().cloned());
            self.before_failure = std::mem::take(&mut self.history);
            let again = self
                .call(Request::Answers(vec![graph.clone()]))
                .await
                .pop()
                .unwrap_or(Answer::Interrupted);
            answers.pop();
            if let Answer::Value(_) = &again {
                self.history.push(graph.clone());
            }
            answers.push(again);
            return answers;
        }
        for (graph, answer) in graphs.iter().zip(&answers) {
            match answer {
                Answer::Value(_) => self.history.push(graph.clone()),
                _ => self.before_failure = std::mem::take(&mut self.history),
            }
        }
        answers
    }

    async fn restart(&mut self) {
        self.call(Request::Restart).await;
        self.history.clear();
    }

    /// Runs the solution on `graph`: what was wrong, if anything (`None` also when a
    /// signal came).
    async fn try_graph(&mut self, graph: &[Vec<u32>]) -> Option<Finding> {
        let answer = self.ask(graph).await;
        self.judged(graph, answer)
    }

    /// What was wrong with `answer` to `graph`, if anything; logs it for the causes.
    fn judged(&mut self, graph: &[Vec<u32>], answer: Answer) -> Option<Finding> {
        let (expected, moves) = expected(graph);
        let finding = |verdict, got, detail: String, error: Option<String>| Finding {
            verdict,
            graph: graph.to_vec(),
            expected,
            moves,
            got,
            detail,
            error,
        };
        match answer {
            Answer::Value(text) => {
                let got = text.parse::<i64>().ok();
                if let Some(answer) = got
                    .and_then(|got| u8::try_from(got).ok())
                    .filter(|&a| a <= 2)
                {
                    if self.log.len() < MAX_LOG {
                        self.log.push(Answered {
                            lists: graph.to_vec(),
                            answer,
                        });
                    }
                }
                (got != Some(i64::from(expected)))
                    .then(|| finding(Verdict::WrongAnswer, got, text, None))
            }
            Answer::Crashed(stderr) => Some(finding(
                Verdict::RuntimeError,
                None,
                stderr.clone(),
                Some(stderr),
            )),
            Answer::OutOfMemory(stderr) => Some(finding(
                Verdict::MemoryLimit,
                None,
                stderr.clone(),
                Some(stderr),
            )),
            Answer::TimedOut => Some(finding(
                Verdict::TimeLimit,
                None,
                "no answer within the time limit, twice".into(),
                None,
            )),
            Answer::Interrupted => None,
        }
    }

    /// Tries `batch` (sent together), counting each graph tried as `kind`: `Err` when
    /// the search must stop, else the first failure with the graphs answered before it.
    async fn test_batch(
        &mut self,
        mut batch: Vec<Lists>,
        kind: Kind,
        checked: &mut Checked,
    ) -> Result<Option<(Finding, Vec<Lists>)>, ()> {
        if !self.host.go_on(Phase::Search {
            tried: checked.total(),
        }) {
            return Err(());
        }
        if let Some(limit) = self.host.graph_limit() {
            batch.truncate(limit.saturating_sub(checked.total()) as usize);
        }
        let before = self.history.len();
        let answers = self.ask_many(&batch).await;
        if self.host.stopped() {
            return Err(());
        }
        for (i, (graph, answer)) in batch.iter().zip(answers).enumerate() {
            let value = matches!(answer, Answer::Value(_));
            let finding = self.judged(graph, answer);
            if self.host.stopped() {
                return Err(());
            }
            checked.counts[kind as usize] += 1;
            if let Some(finding) = finding {
                // The graphs answered before it since the last fresh start.
                let prior = if value {
                    let end = (before + i).min(self.history.len());
                    self.history[..end].to_vec()
                } else {
                    self.before_failure.clone()
                };
                return Ok(Some((finding, prior)));
            }
        }
        self.host.progress(&format!(
            "{} graphs tried; now {} nodes",
            checked.total(),
            batch.last().map_or(0, Vec::len)
        ));
        Ok(None)
    }

    /// The graphs in order; a failure, with the graphs answered before it since the last
    /// fresh start.
    async fn search(
        &mut self,
        checked: &mut Checked,
        seed: u64,
        first: Vec<Lists>,
    ) -> Option<(Finding, Vec<Lists>)> {
        for graph in first {
            match self.test_batch(vec![graph], Kind::Kept, checked).await {
                Err(()) => return None,
                Ok(Some(found)) => return Some(found),
                Ok(None) => {}
            }
        }
        // Every small game, sorted, then with every list reversed where that is another
        // order: a solution that reads the lists' order is caught here.
        for nodes in 3..=SMALL_NODES {
            let all: Vec<Lists> = graphs::small_graphs(nodes)
                .into_iter()
                .flat_map(|lists| {
                    let reversed = graphs::order_matters(&lists)
                        .then(|| graphs::ordered(&lists, Order::Reversed));
                    std::iter::once(lists).chain(reversed)
                })
                .collect();
            let count = all.len() as u64;
            let tried_before = checked.count(Kind::Small);
            for batch in all.chunks(BATCH) {
                match self.test_batch(batch.to_vec(), Kind::Small, checked).await {
                    Err(()) => return None,
                    Ok(Some(found)) => return Some(found),
                    Ok(None) => {}
                }
            }
            if checked.count(Kind::Small) - tried_before < count {
                return None;
            }
            checked.complete_to = Some(nodes);
        }
        // The published graphs and the records, smallest first, every other one
        // shuffled.
        let mut records: Vec<Lists> = RECORDS
            .iter()
            .map(|text| {
                cmg_core::analysis::Analysis::new(*text)
                    .model
                    .graph
                    .adjacency_lists()
            })
            .collect();
        records.sort_by_key(Vec::len);
        for (i, graph) in records.into_iter().enumerate() {
            let order = if i % 2 == 0 {
                Order::Sorted
            } else {
                Order::Shuffled(seed ^ i as u64)
            };
            match self
                .test_batch(vec![graphs::ordered(&graph, order)], Kind::Record, checked)
                .await
            {
                Err(()) => return None,
                Ok(Some(found)) => return Some(found),
                Ok(None) => {}
            }
        }
        // Long games at growing sizes, then a random graph of a size near them, in turn,
        // every other one shuffled.
        let mut rng = Rng::new(seed ^ 0x6a75_6467_6520_2020);
        let mut round = 0u64;
        loop {
            let nodes = 8 + (round % 23) as usize;
            let host = &mut *self.host;
            let tried = checked.total();
            let found = cmg_gen::search(
                &cmg_gen::Request {
                    nodes,
                    winner: None,
                    steps: 2,
                    seed: seed.wrapping_add(round),
                    threads: 1,
                    from: None,
                    longer_than: None,
                    constraints: Constraints::LeetCode,
                },
                |_| host.go_on(Phase::Search { tried }),
            );
            let order = |k: u64| {
                if k.is_multiple_of(2) {
                    Order::Sorted
                } else {
                    Order::Shuffled(seed ^ round.rotate_left(17) ^ k)
                }
            };
            if found.result.is_some() {
                let graph = graphs::ordered(&found.graph.adjacency(), order(round));
                match self.test_batch(vec![graph], Kind::Long, checked).await {
                    Err(()) => return None,
                    Ok(Some(found)) => return Some(found),
                    Ok(None) => {}
                }
            }
            let graph = graphs::random_graph(&mut rng, nodes + (round % 20) as usize);
            let graph = graphs::ordered(&graph, order(round + 1));
            match self.test_batch(vec![graph], Kind::Random, checked).await {
                Err(()) => return None,
                Ok(Some(found)) => return Some(found),
                Ok(None) => {}
            }
            round += 1;
        }
    }

    /// Verifies `finding` from a fresh start, shrinks it or finds the earlier graphs it
    /// needs, then checks a cause and locates the first wrong position.
    async fn after(&mut self, finding: Finding, prior: Vec<Lists>, report: &mut Report, seed: u64) {
        report.finding = Some(finding.clone());
        if finding.verdict == Verdict::TimeLimit {
            // Tried twice already, the second time from a fresh start; every shrinking
            // try would wait for the limit.
            report.reproduced = Some(true);
            return;
        }
        if !self.host.go_on(Phase::After) {
            return;
        }
        let fresh = self.fresh(&[], &finding.graph).await;
        if self.host.stopped() {
            return;
        }
        let alone = fresh
            .as_ref()
            .is_some_and(|again| again.same_failure(&finding));
        if alone {
            let shrunk = self.shrink(finding.clone()).await;
            // The shrunk graph once more from a fresh start: it is the report only if it
            // fails there too.
            let again = self.fresh(&[], &shrunk.graph).await;
            if self.host.stopped() {
                report.finding = Some(shrunk);
                return;
            }
            if again.is_some_and(|again| again.same_failure(&shrunk)) {
                report.reproduced = Some(true);
                report.finding = Some(shrunk);
            } else {
                let again = self.fresh(&[], &finding.graph).await;
                report.reproduced = Some(again.is_some_and(|again| again.same_failure(&finding)));
            }
        } else {
            self.sequence(&finding, prior, report).await;
        }
        let Some(finding) = report.finding.clone() else {
            return;
        };
        if finding.verdict != Verdict::WrongAnswer
            || report.sequence.is_some()
            || report.reproduced != Some(true)
        {
            return;
        }
        report.cause = self.cause(&finding, seed).await;
        if !self.host.stopped() && self.host.go_on(Phase::After) {
            report.wrong_at = self.wrong_at(&finding.graph).await;
        }
    }

    /// The failure on `graph` after `before`, all from a fresh start; `None` after a
    /// signal, or when it passes.
    async fn fresh(&mut self, before: &[Lists], graph: &[Vec<u32>]) -> Option<Finding> {
        self.restart().await;
        for earlier in before {
            if self.host.stopped() {
                return None;
            }
            // What it answers before does not matter; that it goes on answering does.
            if !matches!(self.ask(earlier).await, Answer::Value(_)) {
                self.restart().await;
                return None;
            }
        }
        self.try_graph(graph).await
    }

    /// Removes edges and nodes while the solution still fails the same way and the graph
    /// meets the constraints; stops where no single removal keeps it failing, or when
    /// the budget is spent, with the smallest graph so far.
    async fn shrink(&mut self, mut finding: Finding) -> Finding {
        loop {
            let candidates = graphs::removals(&finding.graph);
            let count = candidates.len();
            let mut smaller = None;
            for (tried, candidate) in candidates.into_iter().enumerate() {
                if self.host.stopped() || !self.host.go_on(Phase::After) {
                    return finding;
                }
                self.host.progress(&format!(
                    "shrinking a {}-node counterexample: removal {} of {count}",
                    finding.graph.len(),
                    tried + 1
                ));
                if let Some(found) = self.try_graph(&candidate).await {
                    if found.verdict == finding.verdict {
                        self.host.failed(&found);
                        smaller = Some(found);
                        break;
                    }
                }
            }
            match smaller {
                Some(found) => finding = found,
                None => return finding,
            }
        }
    }

    /// Whether `finding` fails the same way after `before`, from a fresh start (`None`
    /// when the budget is spent or a signal came).
    async fn fails_after(&mut self, finding: &Finding, before: &[Lists]) -> Option<bool> {
        if self.host.stopped() || !self.host.go_on(Phase::After) {
            return None;
        }
        self.host.progress(&format!(
            "the failure needs earlier graphs: trying {} of them",
            before.len()
        ));
        Some(
            self.fresh(before, &finding.graph)
                .await
                .is_some_and(|again| again.same_failure(finding)),
        )
    }

    /// The failure passes from a fresh start: the shortest sequence of the graphs before
    /// it after which it fails (a 1-minimal one, by delta debugging), checked once more.
    async fn sequence(&mut self, finding: &Finding, prior: Vec<Lists>, report: &mut Report) {
        // The whole history first: without it reproducing, the solution is not
        // deterministic.
        if self.fails_after(finding, &prior).await != Some(true) {
            report.reproduced = Some(false).filter(|_| !self.host.stopped());
            return;
        }
        let mut items = prior;
        let mut parts = 2usize;
        'outer: while items.len() >= 2 {
            let chunk = items.len().div_ceil(parts);
            let chunks: Vec<Vec<Lists>> = items.chunks(chunk).map(<[Lists]>::to_vec).collect();
            for (i, part) in chunks.iter().enumerate() {
                match self.fails_after(finding, part).await {
                    None => break 'outer,
                    Some(true) => {
                        items = part.clone();
                        parts = 2;
                        continue 'outer;
                    }
                    Some(false) => {}
                }
                if chunks.len() > 2 {
                    let rest: Vec<Lists> = chunks
                        .iter()
                        .enumerate()
                        .filter(|(j, _)| *j != i)
                        .flat_map(|(_, c)| c.iter().cloned())
                        .collect();
                    match self.fails_after(finding, &rest).await {
                        None => break 'outer,
                        Some(true) => {
                            items = rest;
                            parts = (parts - 1).max(2);
                            continue 'outer;
                        }
                        Some(false) => {}
                    }
                }
            }
            if parts >= items.len() {
                break;
            }
            parts = (parts * 2).min(items.len());
        }
        if items.len() == 1 && self.fails_after(finding, &[]).await == Some(true) {
            items.clear();
        }
        let again = self.fails_after(finding, &items).await;
        report.reproduced = again;
        let mut sequence = items;
        sequence.push(finding.graph.clone());
        report.sequence = Some(sequence);
    }

    /// The cause every answer fits, with a turn limit pinned where the budget allows.
    /// When several fit, the solution is asked about small games on which they differ,
    /// until one is left; if more than one is left, none is named.
    async fn cause(&mut self, finding: &Finding, seed: u64) -> Option<Cause> {
        let nodes = finding.graph.len();
        // The limits each size allows, kept up to date as more is asked.
        let mut limits = cause::limits_by_size(&self.log);
        let mut rules = cause::fitting_rules(&self.log);
        let mut limit = cause::turn_limit(&limits, nodes).is_some();
        let mut small = (3..=6).flat_map(graphs::small_graphs);
        while rules.len() + usize::from(limit) > 1 {
            if self.host.stopped() || !self.host.go_on(Phase::After) {
                return None;
            }
            // A small game on which two of them answer differently.
            let (lists, predictions) = small.by_ref().find_map(|lists| {
                let mut predictions: Vec<Option<u8>> = rules
                    .iter()
                    .map(|rule| {
                        let rules = rule.rules().expect("a rule");
                        Some(variant::solve(&lists, rules).unlimited())
                    })
                    .collect();
                if limit {
                    predictions.push(cause::limit_predicts(&limits, &lists));
                }
                let known: std::collections::BTreeSet<u8> =
                    predictions.iter().flatten().copied().collect();
                (known.len() > 1).then_some((lists, predictions))
            })?;
            let value = self.ask_for_cause(&mut limits, &lists, None).await?;
            let mut kept = predictions.iter();
            rules.retain(|_| kept.next().is_some_and(|p| *p == value));
            limit = limit && cause::turn_limit(&limits, nodes).is_some();
        }
        // The one left must also predict the solution's answer on games where it and
        // the real game differ, beyond those it was found on.
        let mut confirmed = 0;
        for lists in small.by_ref() {
            if confirmed == CONFIRMATIONS || self.host.stopped() || !self.host.go_on(Phase::After) {
                break;
            }
            let predicted = match rules.first() {
                Some(rule) => {
                    Some(variant::solve(&lists, rule.rules().expect("a rule")).unlimited())
                }
                None if limit => cause::limit_predicts(&limits, &lists),
                None => return None,
            };
            let Some(predicted) = predicted.filter(|&p| p != expected(&lists).0) else {
                continue;
            };
            let value = self.ask_for_cause(&mut limits, &lists, None).await?;
            if value != Some(predicted) {
                return None;
            }
            confirmed += 1;
        }
        if let Some(rule) = rules.pop() {
            return Some(rule);
        }
        if !limit || cause::turn_limit(&limits, nodes).is_none() {
            return None;
        }
        // Pin the limit at the counterexample's size, then at more sizes, so that a
        // formula can be read off; from the counterexample and the generator's long
        // games of either winner (a limit between two lengths is told apart by a game
        // of the odd one, which the mouse wins, or of the even one, which the cat wins).
        for other in [nodes, nodes + 1, nodes + 2, nodes.saturating_sub(1)] {
            if !(8..=50).contains(&other) || self.host.stopped() || !self.host.go_on(Phase::After) {
                continue;
            }
            let mut seeds = Vec::new();
            if other == nodes {
                seeds.push(finding.graph.clone());
            }
            for winner in [Winner::Mouse, Winner::Cat] {
                let host = &mut *self.host;
                let found = cmg_gen::search(
                    &cmg_gen::Request {
                        nodes: other,
                        winner: Some(winner),
                        steps: 2,
                        seed,
                        threads: 1,
                        from: None,
                        longer_than: None,
                        constraints: Constraints::LeetCode,
                    },
                    |_| host.go_on(Phase::After),
                );
                if found.result.is_some() {
                    seeds.push(found.graph.adjacency());
                }
            }
            self.pin(&mut limits, other, seeds).await;
        }
        // Every answer since is in `limits`; a rule may fit them all now instead.
        cause::turn_limit(&limits, nodes)
    }

    /// Asks about `lists` for a cause: the answer, if a value (`Some(None)` when it is not
    /// 0, 1 or 2), and the limits it allows noted in `limits` (`answers`: the standard
    /// game's by limit, when already solved). `None` when the solution gave no value.
    async fn ask_for_cause(
        &mut self,
        limits: &mut BTreeMap<usize, Allowed>,
        lists: &[Vec<u32>],
        answers: Option<&Answers>,
    ) -> Option<Option<u8>> {
        let answer = self.ask(lists).await;
        let Answer::Value(text) = &answer else {
            return None;
        };
        let value = text.parse::<u8>().ok().filter(|&v| v <= 2);
        if let Some(value) = value {
            let solved;
            let answers = match answers {
                Some(answers) => answers,
                None => {
                    solved = variant::solve(lists, Rules::default());
                    &solved
                }
            };
            limits.entry(lists.len()).or_default().add(answers, value);
        }
        self.judged(lists, answer);
        Some(value)
    }

    /// Asks the solution about graphs of `nodes` nodes whose answer differs between the
    /// limits still possible there, until one limit is left, none is found near `seeds`
    /// (up to a few edges away, walking towards games of the lengths in question), or
    /// the budget is spent.
    async fn pin(
        &mut self,
        limits: &mut BTreeMap<usize, Allowed>,
        nodes: usize,
        seeds: Vec<Lists>,
    ) {
        let solved = |lists: Lists| {
            let answers = variant::solve(&lists, Rules::default());
            (lists, answers)
        };
        let mut seen: std::collections::HashSet<Lists> = seeds.iter().cloned().collect();
        let mut frontier = seeds.clone();
        let mut pool: Vec<(Lists, Answers)> = seeds.into_iter().map(solved).collect();
        let mut rings = 0;
        for _ in 0..256 {
            if self.host.stopped() || !self.host.go_on(Phase::After) {
                return;
            }
            let (lo, hi) = match limits.get(&nodes) {
                // Nothing asked at this size yet: any limit.
                None => (0, None),
                Some(allowed) => match allowed.range() {
                    Some(range) => range,
                    None => return,
                },
            };
            if Some(lo) == hi {
                return;
            }
            self.host.progress(&format!(
                "pinning the turn limit on {nodes} nodes: between {lo} and {}",
                hi.map_or("no limit".to_owned(), |hi| hi.to_string())
            ));
            let lo = lo as usize;
            let hi = hi.map_or(usize::MAX, |hi| hi as usize);
            // The graph whose answer changes nearest the middle of what is left.
            let middle = lo.saturating_add((hi - lo).div_ceil(2)).min(lo + 4 * nodes);
            let best = pool
                .iter()
                .enumerate()
                .filter_map(|(i, (_, answers))| {
                    let split = (lo + 1..=hi.min(answers.by_limit.len()))
                        .filter(|&d| answers.with_limit(d) != answers.with_limit(d - 1))
                        .min_by_key(|&d| d.abs_diff(middle))?;
                    Some((split.abs_diff(middle), i))
                })
                .min_by_key(|&(distance, _)| distance);
            if let Some((_, i)) = best {
                let (lists, answers) = pool.swap_remove(i);
                if self
                    .ask_for_cause(limits, &lists, Some(&answers))
                    .await
                    .is_none()
                {
                    return;
                }
                continue;
            }
            if rings == PIN_RINGS {
                return;
            }
            rings += 1;
            // One edge further, keeping the graphs whose games are nearest the lengths
            // in question.
            let mut next: Vec<(usize, Lists)> = Vec::new();
            for lists in &frontier {
                for near in graphs::neighbours(lists) {
                    if seen.insert(near.clone()) {
                        // Games of the middle's length; of the other parity (the other
                        // winner), only far behind.
                        let distance = expected(&near).1.map_or(usize::MAX, |moves| {
                            let moves = moves as usize;
                            moves.abs_diff(middle) + 20 * (moves % 2 != middle % 2) as usize
                        });
                        next.push((distance, near));
                    }
                }
                if !self.host.go_on(Phase::After) {
                    return;
                }
            }
            next.sort();
            next.truncate(PIN_FRONTIER);
            frontier = next.into_iter().map(|(_, lists)| lists).collect();
            pool.extend(frontier.iter().cloned().map(solved));
        }
    }

    /// Asks the solution about the positions on the optimal line where the mouse is to
    /// move, each as a new start (the graph renumbered): the last one it gets wrong.
    async fn wrong_at(&mut self, graph: &[Vec<u32>]) -> Option<WrongAt> {
        let solution = cmg_solve::solve(&Game::new(graph, Some(0)));
        let line = solution.line(START);
        let n = graph.len();
        let mut last_wrong = None;
        for (ply, position) in line.iter().enumerate().skip(1) {
            let (m, c) = (position.mouse as usize, position.cat as usize);
            if position.turn != Player::Mouse || m == 0 || c == 0 || m == c {
                continue;
            }
            let mut order = vec![0, m, c];
            order.extend((1..n).filter(|&v| v != m && v != c));
            let lists = graphs::renumbered(graph, &order);
            if !graphs::meets_constraints(&lists) {
                continue;
            }
            if self.host.stopped() || !self.host.go_on(Phase::After) {
                break;
            }
            let expected = solution.outcome(*position).code();
            match self.ask(&lists).await {
                Answer::Value(text) => match text.parse::<i64>() {
                    Ok(got) if got == i64::from(expected) => {}
                    Ok(got) => {
                        last_wrong = Some(WrongAt {
                            ply,
                            mouse: position.mouse,
                            cat: position.cat,
                            expected,
                            got,
                            graph: lists,
                        })
                    }
                    Err(_) => {}
                },
                _ => break,
            }
        }
        last_wrong
    }
}

/// The graphs the judge tries after the small ones: those submitted as missing test
/// cases for the puzzle (LeetCode-Feedback), then the record graphs.
const RECORDS: &[&str] = &[
    include_str!("../../../examples/published/leetcode-feedback-1393.cmg"),
    include_str!("../../../examples/published/leetcode-feedback-7676.cmg"),
    include_str!("../../../examples/published/leetcode-feedback-7675.cmg"),
    include_str!("../../../examples/published/leetcode-feedback-7500.cmg"),
    include_str!("../../../examples/published/leetcode-feedback-7471.cmg"),
    include_str!("../../../examples/published/leetcode-feedback-7494.cmg"),
    include_str!("../../../examples/published/leetcode-feedback-7514.cmg"),
    include_str!("../../../examples/published/leetcode-feedback-7533.cmg"),
    include_str!("../../../examples/published/leetcode-feedback-7543.cmg"),
    include_str!("../../../examples/records/n8-17-exhaustive.cmg"),
    include_str!("../../../examples/records/n9-25-exhaustive.cmg"),
    include_str!("../../../examples/records/n10-36.cmg"),
    include_str!("../../../examples/records/n13-56.cmg"),
    include_str!("../../../examples/records/n17-91.cmg"),
    include_str!("../../../examples/records/n20-109.cmg"),
    include_str!("../../../examples/records/n30-140.cmg"),
    include_str!("../../../examples/records/n50-133-leetcode.cmg"),
    include_str!("../../../examples/records/n50-226-from-leetcode.cmg"),
];

#[cfg(test)]
mod tests;
