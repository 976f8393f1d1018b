//! `cmg judge SOLUTION`: runs a pasted LeetCode 913 solution on graph after graph, in
//! order of size and then of difficulty, and reports the first one it gets wrong, shrunk
//! to a graph where no single removal keeps it wrong, with the right answer, the optimal
//! line and, when it can tell, the likely cause.
//!
//! What it tries, within `--seconds`: every graph on 3 to 6 nodes (one per isomorphism
//! class, with every choice of hole, mouse and cat); the record graphs; long games from
//! the generator, at growing sizes; random graphs. `harness.rs` runs the solution.

mod harness;

use std::process::ExitCode;
use std::time::{Duration, Instant};

use cmg_gen::{Constraints, Graph};
use cmg_solve::{Game, Outcome, Player, Position};

use super::{CliError, CliResult};
use harness::{Answer, Lang, Runner};

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
    /// Write every graph the solution failed on into DIR, as `.cmg` files.
    #[arg(long, value_name = "DIR")]
    keep: Option<String>,
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
    /// The longest decided game answered right, and the shortest decided game called a
    /// draw: a turn-limited search shows as the first just under the second.
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
    let lang = match args.lang.or_else(|| Lang::of_path(&args.solution)) {
        Some(lang) => lang,
        None => {
            return Err(CliError(format!(
            "cannot tell the language of {} from its extension: pass --lang py|js|cpp|java|rust",
            args.solution
        )))
        }
    };
    if !(args.seconds.is_finite() && args.seconds > 0.0) {
        return Err(CliError(format!(
            "--seconds must be a positive number, not {}",
            args.seconds
        )));
    }
    let source = super::input::read_source(&args.solution)?;
    let mut runner = Runner::build(lang, &source.text)?;
    let started = Instant::now();
    let deadline = started + Duration::try_from_secs_f64(args.seconds).unwrap_or(Duration::MAX);
    let mut checked = Checked::default();
    let mut keep = Keep::new(args.keep.as_deref())?;
    let budget = Budget {
        deadline,
        graphs: args.graphs,
    };
    let found = search(&mut runner, &mut checked, &budget, args.seed, &mut keep);
    let finding = match found {
        Some(finding) => {
            let mut shrunk = shrink(&mut runner, finding, &mut keep);
            // Once more on the final graph, from a fresh process when the last one
            // ended: a solution that answers differently is not deterministic.
            let again = try_graph(&mut runner, &shrunk.graph, &mut Checked::default());
            shrunk.reproduced =
                Some(again.is_some_and(|again| {
                    (again.verdict, again.got) == (shrunk.verdict, shrunk.got)
                }));
            Some(shrunk)
        }
        None => None,
    };
    let seconds = started.elapsed().as_secs_f64();
    if args.json {
        print_json(&finding, &checked, seconds);
    } else {
        print_report(&finding, &checked, seconds, lang);
    }
    Ok(if finding.is_some() {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
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

/// The graphs in order, until one fails or the budget is spent.
fn search(
    runner: &mut Runner,
    checked: &mut Checked,
    budget: &Budget,
    seed: u64,
    keep: &mut Keep,
) -> Option<Finding> {
    let deadline = budget.deadline;
    let mut test = |graph: Vec<Vec<u32>>, kind: Kind, checked: &mut Checked| {
        let finding = try_graph(runner, &graph, checked);
        checked.counts[KINDS.iter().position(|(k, _)| *k == kind).unwrap_or(0)] += 1;
        if let Some(finding) = &finding {
            keep.write(finding);
        }
        finding
    };
    for nodes in 3..=6 {
        for graph in small_graphs(nodes) {
            if budget.spent(checked) {
                return None;
            }
            if let Some(finding) = test(graph, Kind::Small, checked) {
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
        if budget.spent(checked) {
            return None;
        }
        if let Some(finding) = test(graph, Kind::Record, checked) {
            return Some(finding);
        }
    }
    let mut rng = cmg_gen_rng(seed);
    let mut round = 0u64;
    while !budget.spent(checked) {
        // Long games at growing sizes, then a random graph of a size near them.
        let nodes = 7 + (round % 24) as usize;
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
            |_| Instant::now() < deadline,
        );
        if found.result.is_some() {
            if let Some(finding) = test(found.graph.adjacency(), Kind::Long, checked) {
                return Some(finding);
            }
        }
        if budget.spent(checked) {
            break;
        }
        let graph = random_graph(&mut rng, nodes + (round % 20) as usize);
        if let Some(finding) = test(graph, Kind::Random, checked) {
            return Some(finding);
        }
        round += 1;
    }
    None
}

/// Runs the solution on `graph` and says what was wrong, if anything.
fn try_graph(runner: &mut Runner, graph: &[Vec<u32>], checked: &mut Checked) -> Option<Finding> {
    let (expected, moves) = expected(graph);
    let finding = |verdict, got, detail: String| Finding {
        verdict,
        graph: graph.to_vec(),
        expected,
        moves,
        got,
        detail,
        reproduced: None,
    };
    match runner.answer(graph) {
        Answer::Value(text) => {
            let got = text.parse::<i64>().ok();
            if got == Some(i64::from(expected)) {
                if let Some(moves) = moves {
                    checked.longest_right =
                        Some(checked.longest_right.map_or(moves, |m| m.max(moves)));
                }
                None
            } else {
                Some(finding("wrong-answer", got, text))
            }
        }
        Answer::Crashed(stderr) => Some(finding("runtime-error", None, stderr)),
        Answer::OutOfMemory(stderr) => Some(finding("memory-limit", None, stderr)),
        Answer::TimedOut => Some(finding(
            "time-limit",
            None,
            format!("no answer within {} s", harness::TIME_LIMIT.as_secs()),
        )),
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
/// meets the constraints; stops where no single removal keeps it failing.
fn shrink(runner: &mut Runner, mut finding: Finding, keep: &mut Keep) -> Finding {
    if finding.verdict == "time-limit" {
        // Every try would wait for the limit; the graph stays as found.
        return finding;
    }
    let mut scratch = Checked::default();
    loop {
        let mut smaller = None;
        let graph = finding.graph.clone();
        let candidates = removals(&graph);
        for candidate in candidates {
            if let Some(found) = try_graph(runner, &candidate, &mut scratch) {
                if found.verdict == finding.verdict {
                    keep.write(&found);
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

/// `--keep DIR`: every failing graph, as a `.cmg` file.
struct Keep {
    dir: Option<std::path::PathBuf>,
    written: usize,
}

impl Keep {
    fn new(dir: Option<&str>) -> Result<Keep, CliError> {
        if let Some(dir) = dir {
            std::fs::create_dir_all(dir)
                .map_err(|error| CliError(format!("cannot create {dir}: {error}")))?;
        }
        Ok(Keep {
            dir: dir.map(Into::into),
            written: 0,
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

fn print_report(finding: &Option<Finding>, checked: &Checked, seconds: f64, lang: Lang) {
    let Some(finding) = finding else {
        super::output::print(&format!(
            "no counterexample: the {} solution answered all {} graphs right ({}) in {seconds:.1} s.\nThis is no proof: a graph it gets wrong may still exist.\n",
            lang.name(),
            checked.total(),
            checked_words(checked)
        ));
        return;
    };
    let edges: usize = finding.graph.iter().map(Vec::len).sum::<usize>() / 2;
    let mut text = format!(
        "{} on a graph of {} nodes and {} (after {}: {}; {seconds:.1} s)\n",
        match finding.verdict {
            "wrong-answer" => "wrong answer",
            "runtime-error" => "runtime error",
            "time-limit" => "time limit exceeded",
            _ => "memory limit exceeded",
        },
        finding.graph.len(),
        super::render::plural(edges, "edge"),
        super::render::plural(checked.total() as usize, "graph"),
        checked_words(checked)
    );
    text.push_str(&format!(
        "  expected: {} ({})\n",
        finding.expected,
        answer_words(finding.expected, finding.moves)
    ));
    match finding.got {
        Some(got) => text.push_str(&format!("  got:      {got}\n")),
        None => text.push_str(&format!(
            "  got:      no answer: {}\n",
            first_lines(&finding.detail)
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

fn first_lines(text: &str) -> String {
    let lines: Vec<&str> = text.lines().rev().take(6).collect();
    lines
        .into_iter()
        .rev()
        .collect::<Vec<_>>()
        .join("\n            ")
}

fn print_json(finding: &Option<Finding>, checked: &Checked, seconds: f64) {
    let checked_json: serde_json::Map<String, serde_json::Value> = KINDS
        .iter()
        .zip(checked.counts)
        .map(|((_, name), count)| ((*name).to_owned(), count.into()))
        .collect();
    let value = match finding {
        None => serde_json::json!({
            "verdict": "no-counterexample",
            "checked": checked_json,
            "seconds": seconds,
        }),
        Some(finding) => serde_json::json!({
            "verdict": finding.verdict,
            "graph": finding.graph,
            "expected": finding.expected,
            "got": finding.got,
            "moves": finding.moves,
            "reproduced": finding.reproduced,
            "checked": checked_json,
            "seconds": seconds,
        }),
    };
    super::output::print(&format!("{value}\n"));
}
