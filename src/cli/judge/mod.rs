//! `cmg judge SOLUTION`: runs a pasted LeetCode 913 solution on graph after graph, in
//! order of size and then of difficulty, and reports the first one it gets wrong, shrunk
//! to a graph where no single removal keeps it wrong, with the right answer, the optimal
//! line and, when it can tell, the likely cause.
//!
//! What it tries, within `--seconds`: every graph on 3 to 6 nodes (one per isomorphism
//! class, with every choice of hole, mouse and cat); the record graphs; long games from
//! the generator, at growing sizes; random graphs. `harness.rs` runs the solution,
//! `process.rs` watches its processes and `sandbox.rs` confines them.
//!
//! Every step is bounded: the build (`harness.rs`), each graph, the search
//! (`--seconds`, `--graphs`) and the shrinking (`--shrink-seconds`). SIGINT, SIGTERM
//! and SIGHUP end the run with the report so far, every process of the solution gone
//! and its folder removed.

mod harness;
mod process;
pub mod sandbox;

use std::io::IsTerminal;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use cmg_gen::{Constraints, Graph};
use cmg_solve::{Game, Outcome, Player, Position};

use super::interrupt::{Interrupts, Signal};
use super::{CliError, CliResult};
use harness::{Answer, Lang, Runner, Setup};
use sandbox::Sandbox;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The solution, as pasted on LeetCode: a `.py`, `.js`, `.cpp`, `.java` or `.rs` file.
    solution: String,
    /// The language, when the file's extension does not say it.
    #[arg(long, value_enum)]
    lang: Option<Lang>,
    /// How long to look for a counterexample, shrinking aside.
    #[arg(long, value_name = "S", default_value_t = 60.0)]
    seconds: f64,
    /// How long shrinking a counterexample may take [default: half of --seconds, at
    /// least 5].
    #[arg(long, value_name = "S")]
    shrink_seconds: Option<f64>,
    /// Stop after N graphs, even with time left: a run of the same seed and N tries the
    /// same graphs on any machine.
    #[arg(long, value_name = "N")]
    graphs: Option<u64>,
    /// The seed of the random graphs and the generator's searches.
    #[arg(long, value_name = "K", default_value_t = 1)]
    seed: u64,
    /// One JSON object instead of the report.
    #[arg(long)]
    json: bool,
    /// Write every graph the solution failed on into DIR, as `.cmg` files, numbered
    /// after those already there.
    #[arg(long, value_name = "DIR")]
    keep: Option<String>,
    /// Run the solution without the sandbox (Landlock on Linux), for a toolchain that
    /// needs more than it allows.
    #[arg(long)]
    no_sandbox: bool,
}

/// What kind of graph a test was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Small,
    Record,
    Long,
    Random,
}

const KINDS: [(Kind, &str); 4] = [
    (Kind::Small, "small"),
    (Kind::Record, "record"),
    (Kind::Long, "long"),
    (Kind::Random, "random"),
];

/// The graphs tried so far, by kind.
#[derive(Default)]
struct Checked {
    counts: [u64; 4],
    /// The longest decided game answered right: a turn-limited search shows as a draw
    /// for a game just longer.
    longest_right: Option<u32>,
}

impl Checked {
    fn total(&self) -> u64 {
        self.counts.iter().sum()
    }
}

/// A graph the solution failed on.
#[derive(Clone, Debug)]
struct Finding {
    verdict: &'static str,
    graph: Vec<Vec<u32>>,
    expected: u8,
    moves: Option<u32>,
    got: Option<i64>,
    /// What it printed, or the end of its standard error.
    detail: String,
    /// The end of its standard error, when it gave no answer.
    error: Option<String>,
    /// Whether a second run on the graph failed the same way (`None`: not run again).
    reproduced: Option<bool>,
}

/// The right answer for LeetCode 913 (0 draw, 1 mouse, 2 cat) and the moves to the end.
fn expected(graph: &[Vec<u32>]) -> (u8, Option<u32>) {
    let solution = cmg_solve::solve(&Game::new(graph, Some(0)));
    let start = START;
    let answer = match solution.outcome(start) {
        Outcome::MouseWins => 1,
        Outcome::CatWins => 2,
        Outcome::Draw => 0,
    };
    (answer, solution.moves_to_end(start))
}

const START: Position = Position {
    mouse: 1,
    cat: 2,
    turn: Player::Mouse,
};

pub fn run(args: &Args) -> CliResult {
    let interrupts = Arc::new(Interrupts::install());
    match judge(args, &interrupts) {
        Err(error) if args.json => {
            // The error is said on standard error too, by the caller.
            super::output::print(&format!(
                "{}\n",
                serde_json::json!({ "error": error.to_string() })
            ));
            Err(error)
        }
        result => result,
    }
}

/// The largest `--seconds` and `--shrink-seconds`: about eleven days.
const MAX_SECONDS: f64 = 1e6;

fn judge(args: &Args, interrupts: &Arc<Interrupts>) -> CliResult {
    let lang = match args.lang.or_else(|| Lang::of_path(&args.solution)) {
        Some(lang) => lang,
        None => {
            return Err(CliError(format!(
            "cannot tell the language of {} from its extension: pass --lang py|js|cpp|java|rust",
            args.solution
        )))
        }
    };
    let seconds = |name: &str, value: f64, zero_ok: bool| {
        if value.is_finite() && (value > 0.0 || (zero_ok && value == 0.0)) && value <= MAX_SECONDS {
            Ok(Duration::from_secs_f64(value))
        } else {
            Err(CliError(format!(
                "{name} must be a number of seconds above 0 and at most {MAX_SECONDS}, not {value}"
            )))
        }
    };
    let search_time = seconds("--seconds", args.seconds, false)?;
    let shrink_time = match args.shrink_seconds {
        Some(value) => seconds("--shrink-seconds", value, true)?,
        None => (search_time / 2).max(Duration::from_secs(5)),
    };
    if args.graphs == Some(0) {
        return Err(CliError(
            "--graphs must be at least 1: with no graph there is nothing to judge".into(),
        ));
    }
    let source = super::input::read_source(&args.solution)?;
    check_shape(lang, &source.text)?;
    process::become_subreaper();
    let stop = {
        let interrupts = Arc::clone(interrupts);
        Box::new(move || interrupts.received().is_some())
    };
    let setup = Setup {
        sandbox: Sandbox::probe(!args.no_sandbox),
        build_seconds: args.seconds.clamp(30.0, 120.0) as u64,
        stop,
    };
    let mut progress = Progress::new();
    progress.show(&format!("building the {} solution", lang.name()));
    let built = Runner::build(lang, &source.text, setup);
    progress.clear();
    if let Some(signal) = interrupts.received() {
        return Ok(ExitCode::from(signal.exit_code()));
    }
    let mut runner = built?;
    let sandbox = runner.sandbox();
    let started = Instant::now();
    let mut checked = Checked::default();
    let mut keep = Keep::new(args.keep.as_deref())?;
    let budget = Budget {
        deadline: started + search_time,
        graphs: args.graphs,
    };
    let mut judge = Judge {
        runner: &mut runner,
        keep: &mut keep,
        progress: &mut progress,
        interrupts,
    };
    let found = search(&mut judge, &mut checked, &budget, args.seed);
    let finding = match found {
        Some(finding) => {
            let mut shrunk = shrink(&mut judge, finding, Instant::now() + shrink_time);
            if judge.interrupts.received().is_none() {
                // Once more on the final graph, from a fresh process when the last one
                // ended: a solution that answers differently is not deterministic.
                let again = try_graph(&mut judge, &shrunk.graph, &mut Checked::default());
                if judge.interrupts.received().is_none() {
                    shrunk.reproduced = Some(again.is_some_and(|again| {
                        (again.verdict, again.got) == (shrunk.verdict, shrunk.got)
                    }));
                }
            }
            Some(shrunk)
        }
        None => None,
    };
    judge.progress.clear();
    // Every process of the solution ends, and its folder goes, before the report.
    drop(runner);
    let signal = interrupts.received();
    let report = Report {
        finding: &finding,
        checked: &checked,
        seconds: started.elapsed().as_secs_f64(),
        sandbox,
        no_sandbox: args.no_sandbox,
        interrupted: signal,
    };
    if args.json {
        print_json(&report);
    } else {
        print_report(&report, lang);
    }
    Ok(match (signal, &finding) {
        (Some(signal), _) => ExitCode::from(signal.exit_code()),
        (None, Some(_)) => ExitCode::FAILURE,
        (None, None) => ExitCode::SUCCESS,
    })
}

/// What every step of a run shares: the solution, where failures are kept, the
/// progress line, and the signals that stop it.
struct Judge<'a> {
    runner: &'a mut Runner,
    keep: &'a mut Keep,
    progress: &'a mut Progress,
    interrupts: &'a Interrupts,
}

impl Judge<'_> {
    fn stopped(&self) -> bool {
        self.interrupts.received().is_some()
    }
}

/// What the code must define for the harness to call it, checked before anything is
/// built: a file in another shape (a script that reads its input, a bare function)
/// would otherwise look like a wrong answer.
fn check_shape(lang: Lang, source: &str) -> Result<(), CliError> {
    let has = |word: &str| source.contains(word);
    let (ok, expected, example) = match lang {
        Lang::Py => (
            has("class Solution") && has("def catMouseGame"),
            "a class `Solution` with a method `catMouseGame(self, graph)`",
            "class Solution:\n    def catMouseGame(self, graph: List[List[int]]) -> int:",
        ),
        Lang::Js => (
            source.split("catMouseGame").count() > 1
                && (has("function catMouseGame") || has("catMouseGame =") || has("catMouseGame=")),
            "a function `catMouseGame(graph)`",
            "var catMouseGame = function(graph) {\n    ...",
        ),
        Lang::Cpp => (
            (has("class Solution") || has("struct Solution")) && has("catMouseGame"),
            "a class `Solution` with a member `int catMouseGame(vector<vector<int>>& graph)`",
            "class Solution {\npublic:\n    int catMouseGame(vector<vector<int>>& graph) {",
        ),
        Lang::Java => (
            has("class Solution") && has("catMouseGame"),
            "a class `Solution` with a method `int catMouseGame(int[][] graph)`",
            "class Solution {\n    public int catMouseGame(int[][] graph) {",
        ),
        Lang::Rust => (
            has("impl Solution") && has("fn cat_mouse_game"),
            "`impl Solution` with `pub fn cat_mouse_game(graph: Vec<Vec<i32>>) -> i32`",
            "impl Solution {\n    pub fn cat_mouse_game(graph: Vec<Vec<i32>>) -> i32 {",
        ),
    };
    if ok {
        return Ok(());
    }
    let what = if source.trim().is_empty() {
        "the file is empty".to_owned()
    } else {
        "the file does not define it".to_owned()
    };
    Err(CliError(format!(
        "the judge calls the solution as LeetCode does, so the {} file must define {expected}; {what}. It starts like this:\n{example}",
        lang.name()
    )))
}

/// When the search stops: the deadline, or a number of graphs.
struct Budget {
    deadline: Instant,
    graphs: Option<u64>,
}

impl Budget {
    fn spent(&self, checked: &Checked) -> bool {
        Instant::now() >= self.deadline || self.graphs.is_some_and(|most| checked.total() >= most)
    }
}

/// The graphs in order, until one fails, the budget is spent or a signal comes.
fn search(judge: &mut Judge, checked: &mut Checked, budget: &Budget, seed: u64) -> Option<Finding> {
    let deadline = budget.deadline;
    let test = |judge: &mut Judge, graph: Vec<Vec<u32>>, kind: Kind, checked: &mut Checked| {
        let finding = try_graph(judge, &graph, checked);
        if judge.stopped() {
            return None;
        }
        checked.counts[KINDS.iter().position(|(k, _)| *k == kind).unwrap_or(0)] += 1;
        let left = deadline.saturating_duration_since(Instant::now()).as_secs();
        judge.progress.show(&format!(
            "{} graphs tried ({}); now {} nodes; {left} s left",
            checked.total(),
            checked_words(checked),
            graph.len()
        ));
        if let Some(finding) = &finding {
            judge.keep.write(finding);
        }
        finding
    };
    let over = |judge: &Judge, checked: &Checked| judge.stopped() || budget.spent(checked);
    for nodes in 3..=6 {
        for graph in small_graphs(nodes) {
            if over(judge, checked) {
                return None;
            }
            if let Some(finding) = test(judge, graph, Kind::Small, checked) {
                return Some(finding);
            }
        }
    }
    // Smallest first, so that the first failure is on as few nodes as these allow.
    let mut records: Vec<Vec<Vec<u32>>> = RECORDS
        .iter()
        .map(|text| {
            cmg_core::analysis::Analysis::new(*text)
                .model
                .graph
                .adjacency_lists()
        })
        .collect();
    records.sort_by_key(Vec::len);
    for graph in records {
        if over(judge, checked) {
            return None;
        }
        if let Some(finding) = test(judge, graph, Kind::Record, checked) {
            return Some(finding);
        }
    }
    let mut rng = cmg_gen_rng(seed);
    let mut round = 0u64;
    while !over(judge, checked) {
        // Long games at growing sizes, then a random graph of a size near them.
        let nodes = 7 + (round % 24) as usize;
        let interrupts = judge.interrupts;
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
            |_| Instant::now() < deadline && interrupts.received().is_none(),
        );
        if found.result.is_some() {
            if let Some(finding) = test(judge, found.graph.adjacency(), Kind::Long, checked) {
                return Some(finding);
            }
        }
        if over(judge, checked) {
            break;
        }
        let graph = random_graph(&mut rng, nodes + (round % 20) as usize);
        if let Some(finding) = test(judge, graph, Kind::Random, checked) {
            return Some(finding);
        }
        round += 1;
    }
    None
}

/// The solution's answer to `graph`; a time limit is tried once more in a fresh
/// process before it counts, so that a busy moment never makes a right solution wrong.
fn ask(runner: &mut Runner, graph: &[Vec<u32>]) -> Answer {
    match runner.answer(graph) {
        Answer::TimedOut => runner.answer(graph),
        answer => answer,
    }
}

/// Runs the solution on `graph` and says what was wrong, if anything.
fn try_graph(judge: &mut Judge, graph: &[Vec<u32>], checked: &mut Checked) -> Option<Finding> {
    let (expected, moves) = expected(graph);
    let finding = |verdict, got, detail: String, error: Option<String>| Finding {
        verdict,
        graph: graph.to_vec(),
        expected,
        moves,
        got,
        detail,
        error,
        reproduced: None,
    };
    match ask(judge.runner, graph) {
        Answer::Value(text) => {
            let got = text.parse::<i64>().ok();
            if got == Some(i64::from(expected)) {
                if let Some(moves) = moves {
                    checked.longest_right =
                        Some(checked.longest_right.map_or(moves, |m| m.max(moves)));
                }
                None
            } else {
                Some(finding("wrong-answer", got, text, None))
            }
        }
        Answer::Crashed(stderr) => {
            Some(finding("runtime-error", None, stderr.clone(), Some(stderr)))
        }
        Answer::OutOfMemory(stderr) => {
            Some(finding("memory-limit", None, stderr.clone(), Some(stderr)))
        }
        Answer::TimedOut => Some(finding(
            "time-limit",
            None,
            format!(
                "no answer within {} s of CPU time, twice",
                harness::TIME_LIMIT.as_secs()
            ),
            None,
        )),
        Answer::Interrupted => None,
    }
}

/// Every graph on `nodes` nodes that meets the constraints, once per class of the nodes
/// other than the hole, the mouse and the cat, with fewer edges first.
fn small_graphs(nodes: usize) -> Vec<Vec<Vec<u32>>> {
    let mut graphs = Vec::new();
    cmg_gen::each_graph(nodes, Constraints::LeetCode, &mut |graph| {
        for hole in 0..nodes {
            for mouse in (0..nodes).filter(|&m| m != hole) {
                for cat in (0..nodes).filter(|&c| c != hole && c != mouse) {
                    let first = [hole, mouse, cat];
                    let mut order = first.to_vec();
                    order.extend((0..nodes).filter(|v| !first.contains(v)));
                    let lists = relabel(&graph.adjacency(), &order);
                    if lists[2].iter().any(|&v| v != 0) {
                        graphs.push(lists);
                    }
                }
            }
        }
    });
    graphs.sort_by_key(|lists| lists.iter().map(Vec::len).sum::<usize>());
    graphs.dedup();
    graphs
}

/// `lists` with node `order[i]` renumbered `i`, each list sorted.
fn relabel(lists: &[Vec<u32>], order: &[usize]) -> Vec<Vec<u32>> {
    let mut label = vec![0u32; lists.len()];
    for (i, &node) in order.iter().enumerate() {
        label[node] = i as u32;
    }
    order
        .iter()
        .map(|&node| {
            let mut list: Vec<u32> = lists[node].iter().map(|&v| label[v as usize]).collect();
            list.sort_unstable();
            list
        })
        .collect()
}

/// A SplitMix64 stream for the random graphs.
fn cmg_gen_rng(seed: u64) -> impl FnMut() -> u64 {
    let mut state = seed ^ 0x6a75_6467_6520_2020;
    move || {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// A random graph on `nodes` nodes that meets the constraints: a random spanning tree
/// (so no node is alone) and a random density of further edges.
fn random_graph(rng: &mut impl FnMut() -> u64, nodes: usize) -> Vec<Vec<u32>> {
    let nodes = nodes.clamp(3, 50);
    let mut graph = Graph::empty(nodes);
    for v in 1..nodes {
        let u = (rng() % v as u64) as usize;
        graph.toggle(u, v);
    }
    let density = rng() % 40;
    for u in 0..nodes {
        for v in u + 1..nodes {
            if !graph.has_edge(u, v) && rng() % 100 < density {
                graph.toggle(u, v);
            }
        }
    }
    if graph.rows()[2] & !1 == 0 {
        graph.toggle(2, if nodes > 3 { 3 } else { 1 });
    }
    graph.adjacency()
}

/// Removes edges and nodes while the solution still fails the same way and the graph
/// meets the constraints; stops where no single removal keeps it failing, when the
/// deadline passes, or on a signal, with the smallest graph so far.
fn shrink(judge: &mut Judge, mut finding: Finding, deadline: Instant) -> Finding {
    if finding.verdict == "time-limit" {
        // Every try would wait for the limit; the graph stays as found.
        return finding;
    }
    let mut scratch = Checked::default();
    loop {
        let mut smaller = None;
        let graph = finding.graph.clone();
        let candidates = removals(&graph);
        let count = candidates.len();
        for (tried, candidate) in candidates.into_iter().enumerate() {
            if judge.stopped() || Instant::now() >= deadline {
                return finding;
            }
            let left = deadline.saturating_duration_since(Instant::now()).as_secs();
            judge.progress.show(&format!(
                "shrinking a {}-node counterexample: removal {} of {count}; {left} s left",
                graph.len(),
                tried + 1
            ));
            if let Some(found) = try_graph(judge, &candidate, &mut scratch) {
                if found.verdict == finding.verdict {
                    judge.keep.write(&found);
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

/// The graphs one removal away from `graph` that meet the constraints: each node but the
/// hole, the mouse and the cat (the others renumbered), then each edge.
fn removals(graph: &[Vec<u32>]) -> Vec<Vec<Vec<u32>>> {
    let n = graph.len();
    let mut out = Vec::new();
    for node in (3..n).rev() {
        let order: Vec<usize> = (0..n).filter(|&v| v != node).collect();
        let mut lists: Vec<Vec<u32>> = graph.to_vec();
        for list in &mut lists {
            list.retain(|&v| v as usize != node);
        }
        let mut label = vec![0u32; n];
        for (i, &v) in order.iter().enumerate() {
            label[v] = i as u32;
        }
        let lists: Vec<Vec<u32>> = order
            .iter()
            .map(|&v| lists[v].iter().map(|&w| label[w as usize]).collect())
            .collect();
        out.push(lists);
    }
    for u in 0..n {
        for &v in &graph[u] {
            if (u as u32) < v {
                let mut lists = graph.to_vec();
                lists[u].retain(|&w| w != v);
                lists[v as usize].retain(|&w| w as usize != u);
                out.push(lists);
            }
        }
    }
    out.retain(|lists| {
        Graph::from_adjacency(lists).is_some_and(|g| g.meets(Constraints::LeetCode))
    });
    out
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

/// `--keep DIR`: every failing graph, as a `.cmg` file, numbered after the files
/// already there, so that no earlier run's graph is overwritten.
struct Keep {
    dir: Option<std::path::PathBuf>,
    written: usize,
}

impl Keep {
    fn new(dir: Option<&str>) -> Result<Keep, CliError> {
        let mut written = 0;
        if let Some(dir) = dir {
            std::fs::create_dir_all(dir)
                .map_err(|error| CliError(format!("cannot create {dir}: {error}")))?;
            let entries = std::fs::read_dir(dir)
                .map_err(|error| CliError(format!("cannot read {dir}: {error}")))?;
            written = entries
                .flatten()
                .filter_map(|entry| keep_number(&entry.file_name().to_string_lossy()))
                .max()
                .unwrap_or(0);
        }
        Ok(Keep {
            dir: dir.map(Into::into),
            written,
        })
    }

    fn write(&mut self, finding: &Finding) {
        let Some(dir) = &self.dir else { return };
        self.written += 1;
        let path = dir.join(format!(
            "failing-{:03}-{}-nodes.cmg",
            self.written,
            finding.graph.len()
        ));
        if let Err(error) = super::output::replace_file(&path, cmg_text(finding).as_bytes()) {
            eprintln!("cmg: cannot write {}: {error}", path.display());
        }
    }
}

/// The number of a kept file's name, `failing-NNN-...`.
fn keep_number(name: &str) -> Option<usize> {
    let rest = name.strip_prefix("failing-")?;
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

/// The graph as a `.cmg` file whose `expect` line says the right answer.
fn cmg_text(finding: &Finding) -> String {
    let mut text = format!(
        "# a graph the solution answers {} for; the right answer is {} ({})\n",
        finding
            .got
            .map_or_else(|| finding.verdict.to_owned(), |got| got.to_string()),
        finding.expected,
        answer_words(finding.expected, finding.moves)
    );
    for line in cmg_ide::edge_statements((0u32..).zip(&finding.graph)) {
        text.push_str(&line);
        text.push('\n');
    }
    text.push_str(match finding.expected {
        1 => "expect mouse\n",
        2 => "expect cat\n",
        _ => "expect draw\n",
    });
    text
}

fn answer_words(answer: u8, moves: Option<u32>) -> String {
    let plies = |moves: Option<u32>| {
        moves.map_or_else(String::new, |m| {
            format!(" in {}", super::render::plural(m as usize, "move"))
        })
    };
    match answer {
        1 => format!("the mouse wins{}", plies(moves)),
        2 => format!("the cat wins{}", plies(moves)),
        _ => "a draw".to_owned(),
    }
}

/// What the counterexample suggests went wrong, when it can tell.
fn likely_cause(finding: &Finding, checked: &Checked) -> Option<String> {
    let n = finding.graph.len() as u32;
    let solution = cmg_solve::solve(&Game::new(&finding.graph, Some(0)));
    let answer_at = |pos: Position| match solution.outcome(pos) {
        Outcome::MouseWins => 1,
        Outcome::CatWins => 2,
        Outcome::Draw => 0,
    };
    let got = finding.got?;
    // A draw for a game longer than every game it answered right: a turn limit.
    let longer_than_right = |moves: u32| checked.longest_right.is_none_or(|right| moves > right);
    if got == 0 && finding.expected != 0 && finding.moves.is_some_and(longer_than_right) {
        let moves = finding.moves?;
        let limits = [
            (n + 1, "n + 1"),
            (2 * n, "2n"),
            (3 * n, "3n"),
            (4 * n + 3, "4n + 3"),
        ];
        let right = checked.longest_right.map_or(String::new(), |longest| {
            format!(
                " (the longest game it answered right had {})",
                super::render::plural(longest as usize, "move")
            )
        });
        let limit = limits
            .iter()
            .filter(|(limit, _)| *limit <= moves)
            .max_by_key(|(limit, _)| *limit)
            .map_or(String::new(), |(limit, name)| {
                format!(", as a search cut off after {limit} turns ({name} for n = {n}) would")
            });
        return Some(format!(
            "this game lasts {}; the solution calls it a draw{limit}: a search that stops after a fixed number of turns misses long games{right}",
            super::render::plural(moves as usize, "move")
        ));
    }
    let cat_first = answer_at(Position {
        turn: Player::Cat,
        ..START
    });
    if i64::from(cat_first) == got && cat_first != finding.expected {
        return Some(
            "the answer is right for a game where the cat moves first: are the turns swapped?"
                .to_owned(),
        );
    }
    let swapped = answer_at(Position {
        mouse: 2,
        cat: 1,
        turn: Player::Mouse,
    });
    if i64::from(swapped) == got && swapped != finding.expected {
        return Some("the answer is right for a game with the mouse on node 2 and the cat on node 1: is the start swapped?".to_owned());
    }
    None
}

fn line_text(graph: &[Vec<u32>]) -> Option<String> {
    let solution = cmg_solve::solve(&Game::new(graph, Some(0)));
    solution.moves_to_end(START)?;
    let line = solution.line(START);
    Some(
        line.iter()
            .map(|pos| format!("{},{}", pos.mouse, pos.cat))
            .collect::<Vec<_>>()
            .join(" → "),
    )
}

fn checked_words(checked: &Checked) -> String {
    KINDS
        .iter()
        .zip(checked.counts)
        .filter(|(_, count)| *count > 0)
        .map(|((_, name), count)| format!("{count} {name}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// What a run found, for the report and `--json`.
struct Report<'a> {
    finding: &'a Option<Finding>,
    checked: &'a Checked,
    seconds: f64,
    sandbox: Sandbox,
    no_sandbox: bool,
    interrupted: Option<Signal>,
}

fn print_report(report: &Report, lang: Lang) {
    let checked = report.checked;
    let seconds = report.seconds;
    let mut text = String::new();
    if let Some(caveat) = report.sandbox.caveat(report.no_sandbox) {
        text.push_str(&format!("note: {caveat}\n"));
    }
    let Some(finding) = report.finding else {
        match report.interrupted {
            Some(signal) => text.push_str(&format!(
                "no counterexample in {} ({}; {seconds:.1} s; interrupted by {})\n",
                super::render::plural(checked.total() as usize, "graph"),
                checked_words(checked),
                signal.name()
            )),
            None => text.push_str(&format!(
                "no counterexample: the {} solution answered all {} graphs right ({}) in {seconds:.1} s.\nThis is no proof: a graph it gets wrong may still exist.\n",
                lang.name(),
                checked.total(),
                checked_words(checked)
            )),
        }
        super::output::print(&text);
        return;
    };
    let edges: usize = finding.graph.iter().map(Vec::len).sum::<usize>() / 2;
    text.push_str(&format!(
        "{} on a graph of {} nodes and {} (after {}: {}; {seconds:.1} s{})\n",
        verdict_words(finding.verdict),
        finding.graph.len(),
        super::render::plural(edges, "edge"),
        super::render::plural(checked.total() as usize, "graph"),
        checked_words(checked),
        report.interrupted.map_or(String::new(), |signal| format!(
            "; interrupted by {} while shrinking",
            signal.name()
        ))
    ));
    text.push_str(&format!(
        "  expected: {} ({})\n",
        finding.expected,
        answer_words(finding.expected, finding.moves)
    ));
    match finding.got {
        Some(got) => text.push_str(&format!("  got:      {got}\n")),
        None => text.push_str(&format!(
            "  got:      no answer: {}\n",
            last_lines(&finding.detail)
        )),
    }
    if finding.reproduced == Some(false) {
        text.push_str(
            "  run again on this graph, it answered otherwise: the solution is not deterministic\n",
        );
    }
    if let Some(line) = line_text(&finding.graph) {
        text.push_str(&format!("  optimal line (mouse,cat): {line}\n"));
    }
    if let Some(cause) = likely_cause(finding, checked) {
        text.push_str(&format!("  likely cause: {cause}\n"));
    }
    text.push_str(&format!(
        "LeetCode's input: {}\nThe graph as a .cmg file (`cmg check` verifies its expect line):\n{}",
        serde_json::to_string(&finding.graph).unwrap_or_default(),
        cmg_text(finding)
    ));
    super::output::print(&text);
}

fn verdict_words(verdict: &str) -> &'static str {
    match verdict {
        "wrong-answer" => "wrong answer",
        "runtime-error" => "runtime error",
        "time-limit" => "time limit exceeded",
        "memory-limit" => "memory limit exceeded",
        _ => "no counterexample",
    }
}

/// The last six lines of `text`, indented under the report's `got:`.
fn last_lines(text: &str) -> String {
    let lines: Vec<&str> = text.lines().rev().take(6).collect();
    lines
        .into_iter()
        .rev()
        .collect::<Vec<_>>()
        .join("\n            ")
}

fn print_json(report: &Report) {
    let checked_json: serde_json::Map<String, serde_json::Value> = KINDS
        .iter()
        .zip(report.checked.counts)
        .map(|((_, name), count)| ((*name).to_owned(), count.into()))
        .collect();
    let mut value = match report.finding {
        None => serde_json::json!({
            "verdict": "no-counterexample",
            "error": null,
        }),
        Some(finding) => serde_json::json!({
            "verdict": finding.verdict,
            "graph": finding.graph,
            "expected": finding.expected,
            "got": finding.got,
            "moves": finding.moves,
            "reproduced": finding.reproduced,
            "error": finding.error.as_deref().map(|error| harness::tail(error, harness::ERROR_TAIL)),
        }),
    };
    value["checked"] = checked_json.into();
    value["seconds"] = report.seconds.into();
    value["sandbox"] = report.sandbox.word().into();
    value["interrupted"] = report.interrupted.is_some().into();
    super::output::print(&format!("{value}\n"));
}

/// The progress line on standard error, on a terminal only: the phase, the graphs tried,
/// the size and the time left, at most ten times a second.
struct Progress {
    on: bool,
    last: Option<Instant>,
    shown: bool,
}

impl Progress {
    fn new() -> Progress {
        Progress {
            on: std::io::stderr().is_terminal(),
            last: None,
            shown: false,
        }
    }

    fn show(&mut self, text: &str) {
        if !self.on
            || self
                .last
                .is_some_and(|last| last.elapsed() < Duration::from_millis(100))
        {
            return;
        }
        self.last = Some(Instant::now());
        self.shown = true;
        eprint!("\r\x1b[2Kcmg judge: {text}");
    }

    fn clear(&mut self) {
        if self.shown {
            eprint!("\r\x1b[2K");
            self.shown = false;
        }
    }
}
