//! A judge's run: the graphs in order, until one fails or the host says stop; then the
//! failure verified in a fresh start, shrunk (or, when it needs earlier graphs, the
//! shortest sequence of them found), explained by a cause checked on every graph run,
//! and located on the optimal line.

use cmg_gen::{Rng, Winner};
use cmg_solve::{Game, Player, Position};

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use crate::cause::{self, Allowed, Answered, Answers, Cause};
use crate::graphs::{self, Lists, Order};

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
    /// What it answered, the end of its standard error, or, after a time limit, that
    /// no answer came.
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
    /// Every small game of 3 to this many nodes was tried, with its lists sorted and
    /// reversed (where reversing them gives another order).
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

/// The last position on the optimal line, the mouse to move, that the solution gets
/// wrong when asked about it as a new start.
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
    let answers = Answers::of(lists);
    (answers.start, answers.moves)
}

/// The most graphs kept for the cause checks, each with its lists and answers (the slips
/// take a solve each).
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
    /// The search's graphs answered since the solution's last fresh start (the last
    /// `MAX_HISTORY`): what a failure may depend on.
    history: Vec<Lists>,
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
            .0
            .pop()
            .unwrap_or(Answer::Interrupted)
    }

    /// The answers to `graphs` in turn, up to the first that is not a value, and whether
    /// the last of them is a time limit's second try, which the solution answered from a
    /// fresh start.
    async fn ask_many(&mut self, graphs: &[Lists]) -> (Vec<Answer>, bool) {
        let mut answers = self.call(Request::Answers(graphs.to_vec())).await;
        if answers.last() != Some(&Answer::TimedOut) {
            return (answers, false);
        }
        let graph = graphs[answers.len() - 1].clone();
        let again = self
            .call(Request::Answers(vec![graph]))
            .await
            .pop()
            .unwrap_or(Answer::Interrupted);
        answers.pop();
        answers.push(again);
        (answers, true)
    }

    /// A fresh start of the solution, for the checks after a failure (the search's
    /// history is done with by then: the failure took it).
    async fn restart(&mut self) {
        self.call(Request::Restart).await;
    }

    /// Runs the solution on `graph`: what was wrong, if anything (`None` also when a
    /// signal came).
    async fn try_graph(&mut self, graph: &[Vec<u32>]) -> Option<Finding> {
        let answer = self.ask(graph).await;
        self.judged(graph, answer)
    }

    /// What was wrong with `answer` to `graph`, if anything; logs it for the causes.
    fn judged(&mut self, graph: &[Vec<u32>], answer: Answer) -> Option<Finding> {
        self.judged_with(graph, answer, Answers::of(graph))
    }

    /// [`Run::judged`], with the graph's answers already solved.
    fn judged_with(
        &mut self,
        graph: &[Vec<u32>],
        answer: Answer,
        answers: Answers,
    ) -> Option<Finding> {
        let (expected, moves) = (answers.start, answers.moves);
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
                            answers,
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
        let (answers, retried) = self.ask_many(&batch).await;
        if self.host.stopped() {
            return Err(());
        }
        let last = answers.len().saturating_sub(1);
        let nodes_now = batch.last().map_or(0, Vec::len);
        for (i, (graph, answer)) in batch.into_iter().zip(answers).enumerate() {
            if retried && i == last {
                self.history.clear();
            }
            let value = matches!(answer, Answer::Value(_));
            let finding = self.judged(&graph, answer);
            if self.host.stopped() {
                return Err(());
            }
            checked.counts[kind as usize] += 1;
            if let Some(finding) = finding {
                // The graphs answered before it since the last fresh start.
                return Ok(Some((finding, std::mem::take(&mut self.history))));
            }
            if !value {
                // The solution starts afresh after an answer that is not a value.
                self.history.clear();
            } else {
                if self.history.len() == MAX_HISTORY {
                    self.history.drain(..MAX_HISTORY / 2);
                }
                self.history.push(graph);
            }
        }
        self.host.progress(&format!(
            "{} graphs tried; now {nodes_now} nodes",
            checked.total()
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
        // In turn, a long game of 8 to 30 nodes (the sizes in a cycle of 23 rounds) and a
        // random graph of 0 to 19 nodes more (8 to 49 nodes), every other one shuffled.
        let mut rng = Rng::new(seed ^ 0x6a75_6467_6520_2020);
        let mut round = 0u64;
        loop {
            let nodes = 8 + (round % 23) as usize;
            let host = &mut *self.host;
            let tried = checked.total();
            let found = cmg_gen::search(
                &cmg_gen::Request::new(nodes, seed.wrapping_add(round), 2),
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
}

/// The graphs the judge tries after the small ones: those submitted as missing test
/// cases for the puzzle (LeetCode-Feedback), then the record graphs.
const RECORDS: &[&str] = &[
    include_str!("../../../examples/published/leetcode-feedback-1393.cmg"),
    include_str!("../../../examples/published/leetcode-feedback-7676.cmg"),
    include_str!("../../../examples/published/leetcode-feedback-7675.cmg"),
    include_str!("../../../examples/published/leetcode-feedback-7431.cmg"),
    include_str!("../../../examples/published/leetcode-feedback-7500.cmg"),
    include_str!("../../../examples/published/leetcode-feedback-39999.cmg"),
    include_str!("../../../examples/published/leetcode-feedback-39967.cmg"),
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

mod after;
#[cfg(test)]
mod tests;
