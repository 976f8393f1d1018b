//! `cmg gen --exhaustive`: the longest game over every graph on N nodes (the search is
//! `cmg_gen::Plan`), with `--part K/M` and `--merge` to spread it over machines, and
//! `--checkpoint FILE` to stop and resume it.
//!
//! A part, a checkpoint and what `--merge` reads are the same JSON record: the request,
//! the tasks done (as ranges), what they found, and the seconds they took.

use std::collections::BTreeSet;
use std::io::IsTerminal;
use std::path::Path;
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use cmg_gen::{Best, Constraints, Exhaustive, Graph, Longest, Part, Plan, Winner};
use serde::{Deserialize, Serialize};

use super::interrupt::Signal;
use super::{CliError, CliResult};

mod graph6;
pub use graph6::from_graph6;

/// Names the record's format, so that another JSON file is not taken for one.
const FORMAT: &str = "cmg gen --exhaustive record, version 1";

/// How often a checkpoint is written while the search runs.
const CHECKPOINT_EVERY: Duration = Duration::from_secs(10);

/// What the command line asked, checked.
pub struct Request {
    pub nodes: usize,
    pub winner: Option<Winner>,
    pub constraints: Constraints,
    pub threads: usize,
    pub part: Option<String>,
    pub split: Option<String>,
    pub checkpoint: Option<String>,
    pub json: bool,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
struct Record {
    format: String,
    nodes: usize,
    outcome: Wanted,
    constraints: Constraints,
    /// This part and the count of parts, from 1.
    part: [usize; 2],
    /// The tasks of the whole search (every part).
    tasks: usize,
    /// The tasks done, as ranges of task numbers, both ends included.
    done: Vec<[usize; 2]>,
    graphs: u64,
    solves: u64,
    seconds: f64,
    best: Option<RecordBest>,
}

/// The outcome a search looks for, as `--outcome` says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Wanted {
    Mouse,
    Cat,
    Any,
}

impl Wanted {
    fn of(winner: Option<Winner>) -> Wanted {
        match winner {
            Some(Winner::Mouse) => Wanted::Mouse,
            Some(Winner::Cat) => Wanted::Cat,
            None => Wanted::Any,
        }
    }

    fn winner(self) -> Option<Winner> {
        match self {
            Wanted::Mouse => Some(Winner::Mouse),
            Wanted::Cat => Some(Winner::Cat),
            Wanted::Any => None,
        }
    }

    /// `mouse`, `cat` or `any`, as `--outcome` takes it.
    fn word(self) -> &'static str {
        self.winner().map_or("any", Winner::word)
    }
}

#[derive(Clone, Debug, Serialize, Deserialize)]
struct RecordBest {
    winner: Winner,
    moves: u32,
    adjacency: Vec<Vec<u32>>,
}

/// Runs (or resumes) the search, and prints its graph, or a part's record.
pub fn run(request: &Request) -> CliResult {
    let part = match &request.part {
        None => Part::WHOLE,
        Some(text) => parse_part(text)?,
    };
    // The J-th of S sub-parts of part K of M takes every S-th of part K's tasks: tasks
    // (K - 1) + M·(J - 1) + M·S·i, which is part (K - 1) + M·(J - 1) + 1 of M·S.
    let part = match &request.split {
        None => part,
        Some(text) => {
            let split = parse_part(text).map_err(|_| {
                CliError(format!(
                    "--split must be J/S with 1 <= J <= S (the J-th of S sub-parts of the part), not {text}"
                ))
            })?;
            Part {
                index: part.index + part.count * split.index,
                count: part.count * split.count,
            }
        }
    };
    let plan = Plan::new(Exhaustive {
        nodes: request.nodes,
        winner: request.winner,
        constraints: request.constraints,
        threads: request.threads,
        part,
    });
    let fresh = Record {
        format: FORMAT.to_owned(),
        nodes: request.nodes,
        outcome: Wanted::of(request.winner),
        constraints: request.constraints,
        part: [part.index + 1, part.count],
        tasks: plan.task_count(),
        done: Vec::new(),
        graphs: 0,
        solves: 0,
        seconds: 0.0,
        best: None,
    };
    let start = match &request.checkpoint {
        Some(path) if Path::new(path).exists() => {
            let record = read_record(path)?;
            if !same_search(&record, &fresh) || record.part != fresh.part {
                return Err(CliError(format!(
                    "{path} is the checkpoint of another search ({} nodes, outcome {}, constraints {}, part {}/{}): give another file",
                    record.nodes, record.outcome.word(), record.constraints.word(), record.part[0], record.part[1]
                )));
            }
            record
        }
        _ => fresh,
    };
    let done: BTreeSet<usize> = start
        .done
        .iter()
        .flat_map(|&[first, last]| first..=last)
        .collect();
    let part_tasks = plan.part_tasks().count();
    let state = Mutex::new(State {
        done,
        found: longest_of(&start)?,
        saved: Instant::now(),
    });
    let started = Instant::now();
    let seconds_before = start.seconds;
    let record_now = |state: &State| Record {
        done: ranges(&state.done),
        graphs: state.found.graphs,
        solves: state.found.solves,
        seconds: seconds_before + started.elapsed().as_secs_f64(),
        best: state.found.best.as_ref().map(record_best),
        ..start.clone()
    };
    let save = |state: &State| -> Result<(), CliError> {
        match &request.checkpoint {
            Some(path) => write_record(path, &record_now(state)),
            None => Ok(()),
        }
    };
    let progress = std::io::stderr().is_terminal().then(|| {
        let bar = indicatif::ProgressBar::new_spinner();
        bar.enable_steady_tick(Duration::from_millis(200));
        bar
    });
    let interrupts = super::interrupt::Interrupts::install();
    let save_failed = Mutex::new(None);
    let skip = |task: usize| lock(&state).done.contains(&task);
    let finished = |task: usize, result: &Longest| {
        let mut state = lock(&state);
        state.done.insert(task);
        state.found.merge(result.clone());
        if let Some(bar) = &progress {
            bar.set_message(format!(
                "{:.0} s, {} of {} tasks, {} graphs, longest {}",
                started.elapsed().as_secs_f64(),
                state.done.len(),
                part_tasks,
                state.found.graphs,
                state
                    .found
                    .best
                    .as_ref()
                    .map_or_else(|| "none yet".to_owned(), |best| best.moves.to_string())
            ));
        }
        if state.saved.elapsed() >= CHECKPOINT_EVERY {
            state.saved = Instant::now();
            if let Err(error) = save(&state) {
                *lock(&save_failed) = Some(error);
            }
        }
    };
    let go_on = || interrupts.received().is_none() && lock(&save_failed).is_none();
    plan.run(&skip, &finished, &go_on);
    if let Some(bar) = progress {
        bar.finish_and_clear();
    }
    if let Some(error) = lock(&save_failed).take() {
        return Err(error);
    }
    let state = state.into_inner().unwrap_or_else(|p| p.into_inner());
    save(&state)?;
    let record = record_now(&state);
    if let Some(signal) = interrupts.received() {
        // A part's output is its record for `--merge`, which must be whole: a stopped
        // part prints nothing. A whole search prints the best so far, marked.
        let shown = part.count == 1 && state.found.best.is_some();
        eprintln!(
            "cmg: {} after {:.1} s: {} of {} tasks done{}{}",
            signal.name(),
            started.elapsed().as_secs_f64(),
            state.done.len(),
            part_tasks,
            if shown {
                format!(
                    "; the longest game of the {} graphs looked at follows, not a proof",
                    state.found.graphs
                )
            } else {
                String::new()
            },
            match &request.checkpoint {
                Some(path) => format!("; {path} keeps them: the same command resumes the search"),
                None if shown => "; --checkpoint FILE keeps the work done".to_owned(),
                None => "; nothing is proved (--checkpoint FILE keeps the work done)".to_owned(),
            }
        );
        if shown {
            let stopped = Stopped {
                signal,
                tasks_done: state.done.len(),
                tasks: part_tasks,
            };
            print_result(
                &record,
                &state.found,
                request.json,
                &command(request),
                Some(&stopped),
            )?;
        }
        return Ok(ExitCode::from(signal.exit_code()));
    }
    if part.count > 1 {
        super::output::print(&format!(
            "{}\n",
            serde_json::to_string(&record).expect("a record serializes")
        ));
        return Ok(ExitCode::SUCCESS);
    }
    print_result(&record, &state.found, request.json, &command(request), None)
}

struct State {
    done: BTreeSet<usize>,
    found: Longest,
    saved: Instant,
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// `cmg gen --merge FILE...`: the parts' records, checked to be the whole of one search.
pub fn merge(paths: &[String], json: bool) -> CliResult {
    let records = paths
        .iter()
        .map(|path| read_record(path).map(|record| (path, record)))
        .collect::<Result<Vec<_>, _>>()?;
    let Some((first_path, first)) = records.first() else {
        return Err(CliError("--merge needs the parts' records".to_owned()));
    };
    // Which record covers each task (its number in `records`, from 1): the parts may be
    // of different counts, as a straggler's sub-parts are parts of M·S.
    let mut owner = vec![0u32; first.tasks];
    let mut found = Longest::default();
    let mut seconds = 0.0;
    let mut graphs = 0u64;
    for (number, (path, record)) in records.iter().enumerate() {
        if !same_search(record, first) {
            return Err(CliError(format!(
                "{path} is a part of another search than {first_path}"
            )));
        }
        let (index, count) = (record.part[0] - 1, record.part[1]);
        let planned = (index..record.tasks).step_by(count).count();
        let done: usize = record.done.iter().map(|[a, b]| b + 1 - a).sum();
        if done != planned {
            return Err(CliError(format!(
                "{path} has {done} of its part's {planned} tasks done: finish it (the same command with its --checkpoint resumes it)"
            )));
        }
        // The tasks done are the part's own, each once: the count alone could hide
        // another part's tasks, or one task twice; and no other record did them.
        let mut tasks = BTreeSet::new();
        for &[first_task, last_task] in &record.done {
            let slots = owner.iter_mut().enumerate();
            for (task, slot) in slots.skip(first_task).take(last_task + 1 - first_task) {
                if task % count != index || !tasks.insert(task) {
                    return Err(CliError(format!(
                        "{path} claims task {task}, which is not one of part {}/{count}'s own, or claims it twice",
                        record.part[0]
                    )));
                }
                let other = std::mem::replace(slot, number as u32 + 1);
                if other != 0 {
                    let (other_path, other_record) = &records[other as usize - 1];
                    return Err(CliError(if other_record.part == record.part {
                        format!(
                            "{other_path} and {path} are both part {} of {count}",
                            record.part[0]
                        )
                    } else {
                        format!(
                            "{other_path} and {path} both did task {task}: they are overlapping parts"
                        )
                    }));
                }
            }
        }
        let longest = longest_of(record)?;
        if let Some(best) = &longest.best {
            check_claim(path, best)?;
        }
        found.merge(longest);
        graphs += record.graphs;
        seconds += record.seconds;
    }
    let missing: Vec<usize> = (0..first.tasks).filter(|&task| owner[task] == 0).collect();
    if let Some(&task) = missing.first() {
        let count = first.part[1];
        let same_count = records.iter().all(|(_, record)| record.part[1] == count);
        return Err(CliError(if same_count {
            let parts: BTreeSet<usize> = missing.iter().map(|task| task % count + 1).collect();
            format!(
                "the merge lacks part {} of the search",
                parts
                    .iter()
                    .map(|k| format!("{k}/{count}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        } else {
            format!(
                "the merge lacks {} of the search's {} tasks, task {task} first: a part or a sub-part is missing",
                missing.len(),
                first.tasks
            )
        }));
    }
    if let Some(expected) = graph_count(first.nodes, first.constraints) {
        if graphs != expected {
            return Err(CliError(format!(
                "the parts looked at {graphs} graphs, but there are {expected} on {} nodes{}: a part missed graphs or counted some twice",
                first.nodes,
                if first.constraints == Constraints::LeetCode { " with no node alone" } else { "" }
            )));
        }
    }
    let record = Record {
        seconds,
        ..first.clone()
    };
    let count = first.part[1];
    let command = format!(
        "cmg gen --merge, of cmg gen --nodes {} --exhaustive --part K/{count}{}",
        first.nodes,
        options(first.outcome, first.constraints)
    );
    print_result(&record, &found, json, &command, None)
}

/// How far a search stopped by a signal got: its best graph so far is no proof.
struct Stopped {
    signal: Signal,
    tasks_done: usize,
    tasks: usize,
}

/// An interrupted search's best graph in `--format json`: an object rather than the
/// bare adjacency list, so that no script takes it for the longest game there is.
/// Its keys are in alphabetical order, as in every JSON object cmg prints.
#[derive(Serialize)]
struct StoppedJson<'a> {
    adjacency: &'a [Vec<u32>],
    /// Always false: the search did not look at every graph.
    complete: bool,
    graphs: u64,
    interrupted: &'static str,
    moves: u32,
    tasks: usize,
    tasks_done: usize,
    winner: &'static str,
}

/// Prints the longest game as `.cmg` text (or its adjacency list), or says there is none.
/// The game of a search `stopped` by a signal is marked as the longest of the graphs
/// looked at, not a proof.
fn print_result(
    record: &Record,
    found: &Longest,
    json: bool,
    command: &str,
    stopped: Option<&Stopped>,
) -> CliResult {
    let Some(best) = &found.best else {
        eprintln!(
            "cmg: no graph on {} nodes has a decided game{}: all {} were looked at",
            record.nodes,
            match record.outcome.winner() {
                Some(winner) => format!(" won by the {}", winner.word()),
                None => String::new(),
            },
            found.graphs
        );
        return Ok(ExitCode::FAILURE);
    };
    let winner = best.winner.word();
    let adjacency = best.graph.adjacency();
    if json {
        let text = match stopped {
            None => serde_json::to_string(&adjacency),
            Some(stopped) => serde_json::to_string(&StoppedJson {
                complete: false,
                interrupted: stopped.signal.name(),
                graphs: found.graphs,
                tasks: stopped.tasks,
                tasks_done: stopped.tasks_done,
                winner,
                moves: best.moves,
                adjacency: &adjacency,
            }),
        };
        super::output::print(&format!("{}\n", text.expect("numbers and words serialize")));
        return Ok(ExitCode::SUCCESS);
    }
    let meeting = if record.constraints == Constraints::LeetCode {
        " that meet LeetCode 913's constraints"
    } else {
        ""
    };
    let (first, scope) = match stopped {
        None => (
            String::new(),
            format!(
                "# the longest game over all {} graphs on {} nodes{meeting},\n\
                 # one per isomorphism class, each solved once per choice of hole: a proof by exhaustion\n",
                found.graphs, record.nodes
            ),
        ),
        Some(stopped) => (
            format!(
                "# interrupted ({}) after {:.1} s, {} of {} tasks done: NOT a proof by exhaustion\n",
                stopped.signal.name(),
                record.seconds,
                stopped.tasks_done,
                stopped.tasks
            ),
            format!(
                "# not exhaustive: interrupted after {} graphs on {} nodes{meeting};\n\
                 # the longest game among those, and a longer one may exist\n",
                found.graphs, record.nodes
            ),
        ),
    };
    let mut text = format!(
        "{first}# made by: {command}\n\
         {scope}\
         # ({:.1} s, {} solves)\n\
         # the {winner} wins in {} ({}) from the start: mouse on 1 to move, cat on 2\n",
        record.seconds,
        found.solves,
        super::render::plural(best.moves as usize, "move"),
        if best.moves == 1 { "one ply" } else { "plies" },
    );
    for line in cmg_ide::edge_statements((0u32..).zip(&adjacency)) {
        text.push_str(&line);
        text.push('\n');
    }
    text.push_str(&format!("expect {winner}\n"));
    super::output::print(&text);
    Ok(ExitCode::SUCCESS)
}

fn command(request: &Request) -> String {
    format!(
        "cmg gen --nodes {} --exhaustive{}",
        request.nodes,
        options(Wanted::of(request.winner), request.constraints)
    )
}

fn options(outcome: Wanted, constraints: Constraints) -> String {
    let mut options = String::new();
    if let Some(winner) = outcome.winner() {
        options.push_str(&format!(" --outcome {}", winner.word()));
    }
    if constraints != Constraints::LeetCode {
        options.push_str(&format!(" --constraints {}", constraints.word()));
    }
    options
}

/// `K/M` with `1 <= K <= M`.
fn parse_part(text: &str) -> Result<Part, CliError> {
    let usage = || {
        CliError(format!(
            "--part must be K/M with 1 <= K <= M (the K-th of M parts), or auto/M, not {text}"
        ))
    };
    let (k, m) = text.split_once('/').ok_or_else(usage)?;
    let m = m.parse::<usize>().map_err(|_| usage())?;
    let k = if k == "auto" {
        let (k, name) = scheduler_index(m, &|name| std::env::var(name).ok())?;
        eprintln!("cmg: part {k}/{m}, from {name}");
        k
    } else {
        k.parse::<usize>().map_err(|_| usage())?
    };
    if !(1..=m).contains(&k) {
        return Err(usage());
    }
    Ok(Part {
        index: k - 1,
        count: m,
    })
}

/// The part (from 1) a scheduler's array job gives this process, and the variable it
/// came from: Slurm's task id (from its array's first id), Kubernetes' Indexed Job
/// index and AWS Batch's array index (from 0), GNU parallel's job number (from 1).
fn scheduler_index(
    count: usize,
    var: &dyn Fn(&str) -> Option<String>,
) -> Result<(usize, &'static str), CliError> {
    let number =
        |name: &str| -> Result<Option<i64>, CliError> {
            match var(name) {
                None => Ok(None),
                Some(text) => text.trim().parse().map(Some).map_err(|_| {
                    CliError(format!("--part auto: {name} is {text:?}, not a number"))
                }),
            }
        };
    // The first that is set, with its base: Slurm's first task id, 0 or 1.
    let found = if let Some(id) = number("SLURM_ARRAY_TASK_ID")? {
        let base = number("SLURM_ARRAY_TASK_MIN")?.unwrap_or(1);
        Some((id - base + 1, "SLURM_ARRAY_TASK_ID"))
    } else {
        let mut found = None;
        for (name, base) in [
            ("JOB_COMPLETION_INDEX", 0),
            ("AWS_BATCH_JOB_ARRAY_INDEX", 0),
            ("PARALLEL_SEQ", 1),
        ] {
            if let Some(value) = number(name)? {
                found = Some((value - base + 1, name));
                break;
            }
        }
        found
    };
    let Some((k, name)) = found else {
        return Err(CliError(
            "--part auto/M needs a scheduler's index: none of SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX, AWS_BATCH_JOB_ARRAY_INDEX or PARALLEL_SEQ is set".to_owned(),
        ));
    };
    match usize::try_from(k) {
        Ok(k) if (1..=count).contains(&k) => Ok((k, name)),
        _ => Err(CliError(format!(
            "--part auto/{count}: {name} makes this part {k}, not one of 1 to {count}"
        ))),
    }
}

/// The graphs on `n` nodes, one per isomorphism class (OEIS A000088), for `n` up to
/// the exhaustive search's largest.
const GRAPHS: [u64; 13] = [
    1,
    1,
    2,
    4,
    11,
    34,
    156,
    1044,
    12_346,
    274_668,
    12_005_168,
    1_018_997_864,
    165_091_172_592,
];

/// How many graphs a whole search looks at: every graph (`none`), or those with no node
/// alone (`leetcode`; OEIS A002494, the graphs on n nodes less those on n - 1, which a
/// lone node makes n).
fn graph_count(nodes: usize, constraints: Constraints) -> Option<u64> {
    let all = *GRAPHS.get(nodes)?;
    match constraints {
        Constraints::None => Some(all),
        Constraints::LeetCode => Some(all - GRAPHS[nodes.checked_sub(1)?]),
    }
}

/// A part's claim, solved again: its graph's game from the standard start is the
/// length and winner it says.
fn check_claim(path: &str, best: &Best) -> Result<(), CliError> {
    let lists = best.graph.adjacency();
    let solution = cmg_solve::solve(&cmg_solve::Game::new(&lists, Some(0)));
    let start = cmg_solve::Position::START;
    let winner = match solution.outcome(start) {
        cmg_solve::Outcome::MouseWins => Some(Winner::Mouse),
        cmg_solve::Outcome::CatWins => Some(Winner::Cat),
        cmg_solve::Outcome::Draw => None,
    };
    let moves = solution.moves_to_end(start);
    if winner != Some(best.winner) || moves != Some(best.moves) {
        return Err(CliError(format!(
            "{path} claims that the {} wins in {} moves on its graph, but solved again the game is {}: the record was changed or is wrong",
            best.winner.word(),
            best.moves,
            match (winner, moves) {
                (Some(winner), Some(moves)) => format!("a {} win in {moves}", winner.word()),
                _ => "a draw".to_owned(),
            }
        )));
    }
    Ok(())
}

fn same_search(a: &Record, b: &Record) -> bool {
    (a.nodes, a.outcome, a.constraints, a.tasks) == (b.nodes, b.outcome, b.constraints, b.tasks)
}

fn read_record(path: &str) -> Result<Record, CliError> {
    let source = super::input::read_source(path)?;
    serde_json::from_str::<Record>(&source.text)
        .ok()
        .filter(|record| {
            record.format == FORMAT
                && (1..=record.part[1]).contains(&record.part[0])
                && (3..=cmg_gen::MAX_EXHAUSTIVE_NODES).contains(&record.nodes)
                && record.done.iter().all(|&[a, b]| a <= b && b < record.tasks)
        })
        .ok_or_else(|| {
            CliError(format!(
                "{path} is not a record of `cmg gen --exhaustive` (a part's output or a --checkpoint file)"
            ))
        })
}

fn write_record(path: &str, record: &Record) -> Result<(), CliError> {
    let text = serde_json::to_string(record).expect("a record serializes") + "\n";
    super::output::replace_file(Path::new(path), text.as_bytes())
        .map_err(|error| CliError(format!("cannot write the checkpoint {path}: {error}")))
}

fn longest_of(record: &Record) -> Result<Longest, CliError> {
    let best = match &record.best {
        None => None,
        Some(best) => {
            let graph = Graph::from_adjacency(&best.adjacency)
                .filter(|graph| graph.node_count() == record.nodes);
            match graph {
                Some(graph) => Some(Best {
                    moves: best.moves,
                    winner: best.winner,
                    graph,
                }),
                None => {
                    return Err(CliError(
                        "a record's best graph is not a graph of its search".to_owned(),
                    ))
                }
            }
        }
    };
    Ok(Longest {
        best,
        graphs: record.graphs,
        solves: record.solves,
    })
}

fn record_best(best: &Best) -> RecordBest {
    RecordBest {
        winner: best.winner,
        moves: best.moves,
        adjacency: best.graph.adjacency(),
    }
}

/// Task numbers as ranges of consecutive ones, both ends included.
fn ranges(done: &BTreeSet<usize>) -> Vec<[usize; 2]> {
    let mut ranges: Vec<[usize; 2]> = Vec::new();
    for &task in done {
        match ranges.last_mut() {
            Some(last) if last[1] + 1 == task => last[1] = task,
            _ => ranges.push([task, task]),
        }
    }
    ranges
}

#[cfg(test)]
mod tests;
