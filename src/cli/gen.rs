//! `cmg gen`: searches for a graph whose optimal game from the start is as long as possible
//! (the search is `cmg_gen`), and prints it as `.cmg` text or as an adjacency list.

use std::io::IsTerminal;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use super::convert::strip_assignment;
use super::input::read_source;
use super::render;
use super::{CliError, CliResult};
use cmg_core::analysis::Analysis;
use cmg_core::model::{Code, Rules, Severity};
use cmg_gen::{
    search, search_variant, Constraints, Found, Graph, Request, Variant, Winner, MAX_NODES,
};

/// The puzzle's largest graph (LeetCode 913: `3 <= graph.length <= 50`).
const PUZZLE_MAX_NODES: usize = 50;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The node count of the graph to find (3 to 64); with `--from`, the file's count.
    #[arg(long, value_name = "N", required_unless_present_any = ["from", "merge"])]
    nodes: Option<usize>,
    /// Only games won by this player count.
    #[arg(long, value_enum, default_value_t = OutcomeArg::Any)]
    outcome: OutcomeArg,
    /// Plan 4 steps of search per second, and search until the time is up (between
    /// steps), going on past the plan if it is done sooner.
    #[arg(long, value_name = "S", default_value_t = 10.0)]
    seconds: f64,
    /// Stop after K steps (of the plan, then past it), however long they take: `--seconds
    /// S --steps K` gives the same graph on any machine; the deadline does not apply.
    #[arg(long, value_name = "K")]
    steps: Option<u32>,
    /// The seed of the search: the same seed, threads and plan give the same graph.
    #[arg(long, value_name = "K", default_value_t = 1)]
    seed: u64,
    /// Threads that search side by side (default: the machine's cores, at most 8).
    #[arg(long, value_name = "T")]
    threads: Option<usize>,
    /// Start from this graph (`.cmg`, or an adjacency list in a `.json` file) and keep its
    /// node count; the rules and one-way edges of a `.cmg` file set the game searched in,
    /// as `--rules` does.
    #[arg(long, value_name = "FILE")]
    from: Option<String>,
    /// Search in the game of this `.cmg` file's `rule` statements (its edges are not
    /// read; one `->` edge among them makes the search's graphs directed).
    #[arg(long, value_name = "FILE")]
    rules: Option<String>,
    /// Search directed graphs: the changes add and remove one-way edges.
    #[arg(long)]
    directed: bool,
    /// Stop as soon as a game longer than T moves (plies) is found; exit 1 if none is.
    #[arg(long, value_name = "T")]
    longer_than: Option<u32>,
    /// `cmg` (a `.cmg` file with an `expect` line) or `json` (LeetCode's adjacency list).
    #[arg(long, value_enum, default_value_t = FormatArg::Cmg)]
    format: FormatArg,
    /// `leetcode` (the default for LeetCode 913's game): every node has a neighbour and node
    /// 2 one besides the hole; `none` (the default and only choice with `--rules` or
    /// `--directed`): any graph.
    #[arg(long, value_enum)]
    constraints: Option<ConstraintsArg>,
    /// Look at every graph on N nodes (3 to 12), one per isomorphism class, instead of
    /// searching: the longest game there is, proved by exhaustion.
    #[arg(long, conflicts_with_all = ["from", "longer_than", "steps", "seconds", "seed", "merge"])]
    exhaustive: bool,
    /// With `--exhaustive`: run the K-th of M disjoint parts, and print its record for
    /// `--merge`; `auto/M` takes K from a scheduler's array index (Slurm, Kubernetes,
    /// AWS Batch, GNU parallel).
    #[arg(long, value_name = "K/M", requires = "exhaustive")]
    part: Option<String>,
    /// With `--part K/M`: run the J-th of S sub-parts of part K, for a part that runs
    /// long; `--merge` takes a part whole or as all of its sub-parts.
    #[arg(long, value_name = "J/S", requires = "part")]
    split: Option<String>,
    /// With `--exhaustive`: keep the tasks done in FILE as the search runs (every 10 s and
    /// at the end, also on Ctrl-C), and resume from it when it exists.
    #[arg(long, value_name = "FILE", requires = "exhaustive")]
    checkpoint: Option<String>,
    /// With `--exhaustive`: take the graphs from FILE (`-`: standard input) in graph6,
    /// one a line, as nauty's `geng -d1 N` writes them, instead of generating them: an
    /// independent check of the enumerator.
    #[arg(long, value_name = "FILE", requires = "exhaustive", conflicts_with_all = ["part", "checkpoint"])]
    graph6: Option<String>,
    /// Combine the records of every part of one exhaustive search, and print its result.
    #[arg(long, value_name = "FILE", num_args = 1.., conflicts_with_all = ["nodes", "from", "longer_than", "steps", "seconds", "seed", "outcome", "constraints", "rules", "directed"])]
    merge: Vec<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum OutcomeArg {
    Mouse,
    Cat,
    Any,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum FormatArg {
    Cmg,
    Json,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum ConstraintsArg {
    Leetcode,
    None,
}

pub fn run(args: &Args) -> CliResult {
    if !args.merge.is_empty() {
        return super::exhaustive::merge(&args.merge, args.format == FormatArg::Json);
    }
    let from = args.from.as_deref().map(read_graph).transpose()?;
    let from_arcs = from
        .as_ref()
        .and_then(|(_, game)| game.as_ref())
        .is_some_and(|&(_, arcs)| arcs);
    let rules = match &args.rules {
        Some(path) => Some(read_rules(path)?),
        None => from.as_ref().and_then(|(_, game)| game.clone()),
    };
    let directed = args.directed || from_arcs;
    let is_variant = rules.is_some() || directed;
    let constraints = match (args.constraints, is_variant) {
        (Some(ConstraintsArg::Leetcode), true) => {
            return Err(CliError(
                "--constraints leetcode is for LeetCode 913's game; a search with rules or one-way edges takes any graph (--constraints none)".to_owned(),
            ))
        }
        (Some(ConstraintsArg::None), _) | (None, true) => Constraints::None,
        (Some(ConstraintsArg::Leetcode), false) | (None, false) => Constraints::LeetCode,
    };
    let from = from.map(|(graph, _)| graph);
    let nodes = match (&from, args.nodes) {
        (Some(graph), Some(nodes)) if graph.node_count() != nodes => {
            return Err(CliError(format!(
                "--nodes {nodes} differs from the {} nodes of {}: --from keeps the file's node count",
                graph.node_count(),
                args.from.as_deref().unwrap_or_default()
            )))
        }
        (Some(graph), _) => graph.node_count(),
        (None, Some(nodes)) => nodes,
        (None, None) => unreachable!("clap requires --nodes without --from"),
    };
    if !(3..=MAX_NODES).contains(&nodes) {
        return Err(CliError(format!(
            "cmg gen makes graphs of 3 to {MAX_NODES} nodes, not {nodes}"
        )));
    }
    if let (Some(graph), Constraints::LeetCode) = (&from, constraints) {
        if !graph.meets(constraints) {
            return Err(CliError(format!(
                "{} does not meet LeetCode 913's constraints (every node has a neighbour, node 2 one besides the hole): fix it, or pass --constraints none",
                args.from.as_deref().unwrap_or_default()
            )));
        }
    }
    if !(args.seconds.is_finite() && args.seconds > 0.0) {
        return Err(CliError(format!(
            "--seconds must be a positive number, not {}",
            args.seconds
        )));
    }
    let threads = args.threads.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, |cores| cores.get().min(8))
    });
    if !(1..=64).contains(&threads) {
        return Err(CliError(format!(
            "--threads must be 1 to 64, not {threads}"
        )));
    }
    let winner = match args.outcome {
        OutcomeArg::Mouse => Some(Winner::Mouse),
        OutcomeArg::Cat => Some(Winner::Cat),
        OutcomeArg::Any => None,
    };
    let variant = is_variant
        .then(|| variant_of(rules.as_ref(), directed, nodes))
        .transpose()?;
    if args.exhaustive {
        if variant.is_some() {
            return Err(CliError(
                "cmg gen --exhaustive looks at LeetCode 913's game only: search the variant without --exhaustive".to_owned(),
            ));
        }
        if nodes > cmg_gen::MAX_EXHAUSTIVE_NODES {
            return Err(CliError(format!(
                "cmg gen --exhaustive looks at graphs of 3 to {} nodes, not {nodes}: above that, search (without --exhaustive)",
                cmg_gen::MAX_EXHAUSTIVE_NODES
            )));
        }
        if let Some(path) = &args.graph6 {
            return super::exhaustive::from_graph6(
                path,
                nodes,
                winner,
                constraints,
                args.format == FormatArg::Json,
            );
        }
        return super::exhaustive::run(&super::exhaustive::Request {
            nodes,
            winner,
            constraints,
            threads,
            part: args.part.clone(),
            split: args.split.clone(),
            checkpoint: args.checkpoint.clone(),
            json: args.format == FormatArg::Json,
        });
    }
    if variant.is_some() && args.format == FormatArg::Json {
        return Err(CliError(
            "--format json prints LeetCode's adjacency list, which cannot state rules or one-way edges: use --format cmg".to_owned(),
        ));
    }
    if nodes > PUZZLE_MAX_NODES && constraints == Constraints::LeetCode {
        eprintln!(
            "cmg: note: {nodes} nodes is above LeetCode 913's cap of {PUZZLE_MAX_NODES}; the other constraints hold"
        );
    }
    let request = Request {
        nodes,
        winner,
        steps: cmg_gen::planned_steps(args.seconds),
        past_plan: true,
        seed: args.seed,
        threads,
        from,
        longer_than: args.longer_than,
        constraints,
    };
    let started = Instant::now();
    // Seconds beyond what a `Duration` holds mean no deadline, not a panic.
    let deadline = Duration::try_from_secs_f64(args.seconds).unwrap_or(Duration::MAX);
    let progress = std::io::stderr().is_terminal().then(|| {
        let bar = indicatif::ProgressBar::new_spinner();
        bar.enable_steady_tick(Duration::from_millis(200));
        bar
    });
    // Ctrl-C or SIGTERM stops the search at its next step and prints the best so far.
    let interrupts = super::interrupt::Interrupts::install();
    let go_on = |step: &cmg_gen::Progress| {
        let elapsed = started.elapsed();
        if let Some(bar) = &progress {
            bar.set_message(format!(
                "{:.0} s, step {} ({} planned), {} nodes, best {}, {:.0} solves/s",
                elapsed.as_secs_f64(),
                step.steps_run,
                step.steps_planned,
                step.nodes,
                super::render::plural(step.best_moves as usize, "move"),
                step.solves as f64 / elapsed.as_secs_f64().max(1e-3)
            ));
        }
        // `--steps` is for reproduction, so it alone counts when given: a slower machine
        // must not stop sooner.
        let more = match args.steps {
            Some(last) => step.steps_run < last,
            None => elapsed < deadline,
        };
        more && interrupts.received().is_none()
    };
    let found = match &variant {
        Some(variant) => search_variant(&request, variant, go_on),
        None => search(&request, go_on),
    };
    if let Some(bar) = progress {
        bar.finish_and_clear();
    }
    let elapsed = started.elapsed().as_secs_f64();
    let interrupted = interrupts.received();
    if let Some(signal) = interrupted {
        eprintln!(
            "cmg: {} after {elapsed:.1} s, at step {} ({} planned): {}",
            signal.name(),
            found.steps_run,
            found.steps_planned,
            if found.result.is_some() {
                "the best graph found so far follows"
            } else {
                "no decided game found yet"
            }
        );
    }
    let Some((winner, moves)) = found.result else {
        if let Some(signal) = interrupted {
            return Ok(ExitCode::from(signal.exit_code()));
        }
        eprintln!(
            "cmg: no decided game{} found on {nodes} nodes in {}",
            match request.winner {
                Some(Winner::Mouse) => " won by the mouse",
                Some(Winner::Cat) => " won by the cat",
                None => "",
            },
            super::render::plural(found.steps_run as usize, "step")
        );
        return Ok(ExitCode::FAILURE);
    };
    // A game as long as the turn limit ends the search too: none can be longer.
    let at_the_limit = variant
        .and_then(|variant| variant.limit)
        .is_some_and(|limit| moves >= limit);
    // Past the plan, the deadline ends every run; before it, the graph has not had its
    // plan's growth, which is worth a note.
    let cut_by_time = args.steps.is_none()
        && found.steps_run < found.steps_planned
        && request.longer_than.is_none_or(|t| moves <= t)
        && !at_the_limit
        && interrupted.is_none();
    if cut_by_time {
        eprintln!(
            "cmg: note: the {} s ran out after {} of {} planned steps, so this graph depends on the machine's speed; `--steps {}` reproduces it",
            args.seconds, found.steps_run, found.steps_planned, found.steps_run
        );
    }
    match args.format {
        FormatArg::Json => {
            let lists = found.graph.adjacency();
            super::output::print(&format!(
                "{}\n",
                serde_json::to_string(&lists).expect("lists of numbers serialize")
            ));
        }
        FormatArg::Cmg => {
            let mut text = String::new();
            if let Some(signal) = interrupted {
                text.push_str(&format!(
                    "# interrupted ({}) after {elapsed:.1} s, at step {} ({} planned): the best graph found so far\n",
                    signal.name(),
                    found.steps_run,
                    found.steps_planned
                ));
            }
            text.push_str(&cmg_text(
                args,
                &request,
                variant.as_ref(),
                &found,
                (winner, moves),
                elapsed,
            ));
            super::output::print(&text)
        }
    }
    if let Some(signal) = interrupted {
        return Ok(ExitCode::from(signal.exit_code()));
    }
    let short = request.longer_than.is_some_and(|limit| moves <= limit);
    if short {
        eprintln!(
            "cmg: no game longer than {} found; the longest has {moves}",
            super::render::plural(request.longer_than.unwrap_or_default() as usize, "move")
        );
    }
    Ok(super::exit_code(short))
}

/// The `.cmg` text of the result: how it was made, the length, the variant's rules, the
/// edges and the `expect` line.
fn cmg_text(
    args: &Args,
    request: &Request,
    variant: Option<&Variant>,
    found: &Found,
    (winner, moves): (Winner, u32),
    elapsed: f64,
) -> String {
    let mut command = format!(
        "cmg gen --nodes {} --seed {} --seconds {}",
        request.nodes, request.seed, args.seconds
    );
    if let Some(path) = &args.from {
        command.push_str(&format!(" --from {path}"));
    }
    if let Some(path) = &args.rules {
        command.push_str(&format!(" --rules {path}"));
    }
    if args.directed {
        command.push_str(" --directed");
    }
    if args.outcome != OutcomeArg::Any {
        command.push_str(&format!(" --outcome {}", winner.word()));
    }
    if args.constraints == Some(ConstraintsArg::None) {
        command.push_str(" --constraints none");
    }
    command.push_str(&format!(
        " --steps {} --threads {}",
        found.steps_run, request.threads
    ));
    let mut statements = String::new();
    for line in variant
        .map(Variant::rule_statements)
        .unwrap_or_default()
        .into_iter()
        .chain(cmg_ide::move_statements(&found.graph.adjacency()))
    {
        statements.push_str(&line);
        statements.push('\n');
    }
    let start = match variant {
        None => "mouse on 1 to move, cat on 2".to_owned(),
        Some(variant) => {
            let (mouse_moves, cat_moves) = if variant.cat_first {
                ("", " to move")
            } else {
                (" to move", "")
            };
            format!(
                "mouse on {}{mouse_moves}, cat on {}{cat_moves}",
                variant.mouse, variant.cat
            )
        }
    };
    format!(
        "# made by: {command}\n\
         # ({:.1} s, {}, {} planned, {} solves)\n\
         # the {} wins in {} ({}) from the start: {start}\n\
         {}expect {}\n",
        elapsed,
        super::render::plural(found.steps_run as usize, "step"),
        found.steps_planned,
        found.solves,
        winner.word(),
        super::render::plural(moves as usize, "move"),
        if moves == 1 { "one ply" } else { "plies" },
        statements,
        winner.word()
    )
}

/// The rules of the `.cmg` file at `path` (`--rules`), and whether it has a one-way edge:
/// its `rule` statements must read without error; its graph is not looked at.
fn read_rules(path: &str) -> Result<(Rules, bool), CliError> {
    let source = read_source(path)?;
    let analysis = Analysis::new(source.text.as_str());
    let of_the_rules = [
        Code::Syntax,
        Code::NumberTooLarge,
        Code::UnknownRule,
        Code::DuplicateRule,
        Code::BadLimit,
        Code::RuleArguments,
    ];
    refuse_errors(&analysis, path, " in its rules", |code| {
        of_the_rules.contains(&code)
    })?;
    let graph = &analysis.model.graph;
    Ok((graph.rules().clone(), graph.has_arcs()))
}

/// An error when the file at `path` has errors whose code `counts`: "`{path}` has 2
/// errors{what}", pointing at `cmg check`.
fn refuse_errors(
    analysis: &Analysis,
    path: &str,
    what: &str,
    counts: impl Fn(Code) -> bool,
) -> Result<(), CliError> {
    let errors = analysis
        .diagnostics(None)
        .into_iter()
        .filter(|d| d.severity() == Severity::Error && counts(d.code))
        .count();
    if errors > 0 {
        return Err(CliError(format!(
            "{path} has {}{what}: `cmg check {path}` shows them",
            render::plural(errors, "error")
        )));
    }
    Ok(())
}

/// The variant searched: the file's rules (LeetCode 913's without one), its edges one-way
/// when `directed` or when the file has a one-way edge; its holes and starts must be
/// nodes of the graph of `nodes` nodes, the starts two nodes that are not holes.
fn variant_of(
    rules: Option<&(Rules, bool)>,
    directed: bool,
    nodes: usize,
) -> Result<Variant, CliError> {
    let default = (Rules::default(), false);
    let (rules, has_arcs) = rules.unwrap_or(&default);
    let variant = Variant::new(&rules.holes, rules.mouse_start, rules.cat_start, nodes)
        .map_err(|why| CliError(format!("cmg gen cannot search this game: {why}")))?;
    Ok(Variant {
        cat_first: rules.first == cmg_solve::Player::Cat,
        cat_enters_holes: rules.cat_enters_holes,
        limit: rules.limit,
        directed: directed || *has_arcs,
        ..variant
    })
}

/// The graph of `--from`: a `.json` file holds an adjacency list, anything else is `.cmg`
/// text, which must be free of errors and number its nodes 0 to n-1.
fn read_graph(path: &str) -> Result<(Graph, Option<(Rules, bool)>), CliError> {
    let source = read_source(path)?;
    let text = if path.ends_with(".json") {
        let lists: Vec<Vec<u64>> = serde_json::from_str(strip_assignment(&source.text))
            .map_err(|error| CliError(format!("{path} is not an adjacency list: {error}")))?;
        super::convert::adjacency_to_cmg(&lists)
            .map_err(|message| CliError(format!("{path}: {message}")))?
    } else {
        source.text
    };
    let analysis = Analysis::new(text.as_str());
    refuse_errors(&analysis, path, "", |_| true)?;
    let graph = &analysis.model.graph;
    if !graph.is_contiguous() || graph.node_count() < 3 {
        return Err(CliError(format!(
            "{path}: cmg gen needs nodes numbered 0 to n-1 without gaps, with n at least 3"
        )));
    }
    // Ids are indices here (0 to n-1), so the move lists hold ids.
    let read = if graph.has_arcs() {
        Graph::from_moves(&graph.move_lists())
    } else {
        Graph::from_adjacency(&graph.adjacency_lists())
    };
    let read = read.ok_or_else(|| {
        CliError(format!(
            "{path} has {} nodes; cmg gen handles at most {MAX_NODES}",
            graph.node_count()
        ))
    })?;
    let game = (!graph.is_standard()).then(|| (graph.rules().clone(), graph.has_arcs()));
    Ok((read, game))
}
