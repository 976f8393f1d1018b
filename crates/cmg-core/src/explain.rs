//! Why a game ends as it does: the strategies and the what-if per edge, with the limits and the wording the CLI, the server and the game view share.
//!
//! [`solve_and_explain`] is the job the command line runs: the solve, then the what-if
//! on the same cancel flag, into one [`Solved`]. The server runs the same two steps as
//! two jobs, [`solve_first`] and [`explain_pending`], so that the outcome is shown as
//! soon as the solve lands and the what-if follows.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use cmg_solve::{
    what_if_with, Continuation, EdgeOutcome, Game, Outcome, Player, Position, Solution, TreeLine,
    WhatIf,
};

use crate::analysis::describe;
pub use crate::ending::player_name;
use crate::ending::Ending;
use crate::model::Graph;

/// The what-if is computed for games of at most this many nodes, where the game view
/// stops drawing too.
pub const WHAT_IF_MAX_NODES: usize = 300;

/// How much solving a what-if may take: it solves the game once per edge (fewer when the
/// strategies leave edges out), and one solve costs about `n · (n + 2E)` steps, so the
/// estimate is `E · n · (n + 2E)`. A release build does some 1.3 · 10^8 steps a second
/// (BENCHMARKS.md, "What-if per edge").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WhatIfBudget {
    /// The server's, about 0.4 s: the what-if is a job of its own after the solve, and
    /// its hints come when it lands; a puzzle of 50 nodes and 150 edges takes a few
    /// milliseconds.
    Editor,
    /// `cmg solve --what-if` and `cmg view`, about 40 s, where the user asked and waits.
    CommandLine,
}

impl WhatIfBudget {
    pub fn steps(self) -> u64 {
        match self {
            WhatIfBudget::Editor => 50_000_000,
            WhatIfBudget::CommandLine => 5_000_000_000,
        }
    }
}

/// The estimated steps of the what-if of `game`: see [`WhatIfBudget`].
pub fn what_if_work(game: &Game) -> u64 {
    let (nodes, edges) = (game.node_count() as u64, game.edge_count() as u64);
    edges * nodes * (nodes + 2 * edges)
}

/// The most positions a strategy walk visits (a game of n nodes has 2·n² positions): on
/// larger games the strategy is given in part and says so, and the what-if solves every
/// edge instead of sparing the ones no walk uses.
pub const STRATEGY_MAX_POSITIONS: usize = 2_000_000;

/// A solution and what explains it. The solution is shared: the what-if, computed after
/// it, makes a new `Solved` of the same solution.
#[derive(Clone, Debug)]
pub struct Solved {
    pub solution: Arc<Solution>,
    pub what_if: WhatIfState,
}

/// What the hover and the game view say of a [`WhatIfState::Pending`] what-if.
pub const WHAT_IF_PENDING: &str = "being computed; it shows in a moment";

/// The what-if of a solved game, or why there is none.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WhatIfState {
    Computed(WhatIf),
    /// Over [`WHAT_IF_MAX_NODES`] or the [`WhatIfBudget`], or no start position: the message says which.
    NotComputed(String),
    /// Within the limits and not computed yet: the solve has landed and its what-if is
    /// a job still to run ([`explain_pending`]).
    Pending,
}

impl WhatIfState {
    pub fn computed(&self) -> Option<&WhatIf> {
        match self {
            WhatIfState::Computed(what_if) => Some(what_if),
            WhatIfState::NotComputed(_) | WhatIfState::Pending => None,
        }
    }

    /// Why there is no what-if to show: the reason it is not computed, or that it is
    /// being computed; `None` when it is computed.
    pub fn missing(&self) -> Option<&str> {
        match self {
            WhatIfState::Computed(_) => None,
            WhatIfState::NotComputed(reason) => Some(reason),
            WhatIfState::Pending => Some(WHAT_IF_PENDING),
        }
    }
}

/// Why the what-if of `game` is not computed under `budget`, if it is not: "not computed
/// above 300 nodes (this graph has 512)".
pub fn what_if_limit(game: &Game, budget: WhatIfBudget) -> Option<String> {
    if game.node_count() > WHAT_IF_MAX_NODES {
        return Some(format!(
            "not computed above {WHAT_IF_MAX_NODES} nodes (this graph has {})",
            game.node_count()
        ));
    }
    (what_if_work(game) > budget.steps()).then(|| {
        let (solves, nodes) = (game.edge_count(), game.node_count());
        match budget {
            WhatIfBudget::Editor => format!(
                "not computed in the editor: {solves} solves of a {nodes}-node game take too long; `cmg solve --what-if` computes it"
            ),
            WhatIfBudget::CommandLine => {
                format!("not computed: {solves} solves of a {nodes}-node game would take minutes")
            }
        }
    })
}

/// Solves a game built by [`crate::analysis::Analysis::solve_plan`] and then, within the
/// limits, the what-if of every edge from its start; `None` when `cancel` was set during
/// either. The server runs this as its solve job, the CLI the same two steps.
pub fn solve_and_explain(game: &Game, budget: WhatIfBudget, cancel: &AtomicBool) -> Option<Solved> {
    solve_and_explain_with(game, cmg_solve::Config::default(), budget, cancel)
}

/// The game of `analysis` solved and explained with nothing to cancel it: for tests,
/// benchmarks and fixtures; `None` for a text without a game.
pub fn solve_and_explain_analysis(
    analysis: &crate::analysis::Analysis,
    budget: WhatIfBudget,
) -> Option<Solved> {
    solve_and_explain(&analysis.game()?, budget, &AtomicBool::new(false))
}

/// [`solve_and_explain`] with the solver's engine and threads set by `config` (the
/// server leaves a core to the keystroke path).
pub fn solve_and_explain_with(
    game: &Game,
    config: cmg_solve::Config,
    budget: WhatIfBudget,
    cancel: &AtomicBool,
) -> Option<Solved> {
    let solved = solve_first(game, config, budget, cancel)?;
    match solved.what_if {
        WhatIfState::Pending => explain_pending(&solved, config.threads, cancel),
        _ => Some(solved),
    }
}

/// The first step of [`solve_and_explain_with`]: the solve, with its what-if
/// [`WhatIfState::Pending`] when `budget` allows one, else `NotComputed` with the reason.
pub fn solve_first(
    game: &Game,
    config: cmg_solve::Config,
    budget: WhatIfBudget,
    cancel: &AtomicBool,
) -> Option<Solved> {
    let solution = cmg_solve::solve_with(game, config, cancel)?;
    let what_if = match what_if_limit(game, budget) {
        Some(reason) => WhatIfState::NotComputed(reason),
        None => WhatIfState::Pending,
    };
    Some(Solved {
        solution: Arc::new(solution),
        what_if,
    })
}

/// The second step: the what-if of a solve that [`solve_first`] left pending, on
/// `threads` threads (`None`: every core), as a new `Solved` of the same solution;
/// `None` when `cancel` was set. A `solved` whose what-if is not pending comes back as
/// it is.
pub fn explain_pending(
    solved: &Solved,
    threads: Option<usize>,
    cancel: &AtomicBool,
) -> Option<Solved> {
    if solved.what_if != WhatIfState::Pending {
        return Some(solved.clone());
    }
    let game = solved.solution.game();
    let what_if = what_if_with(
        &solved.solution,
        start_of(game),
        STRATEGY_MAX_POSITIONS,
        threads,
        cancel,
    )?;
    Some(Solved {
        solution: solved.solution.clone(),
        what_if: WhatIfState::Computed(what_if),
    })
}

/// The start position of a game built from a graph with nodes 1 and 2 (as every solved
/// game is). Dense indices follow the ids, so node 1 comes right after the hole, node 0,
/// when there is one, and node 2 right after node 1: the game alone says where they are.
pub fn start_of(game: &Game) -> Position {
    let mouse = u32::from(game.hole().is_some());
    Position {
        mouse,
        cat: mouse + 1,
        turn: cmg_solve::Player::Mouse,
    }
}

/// The what-if part of [`solve_and_explain`], for a solution at hand, on every core.
pub fn explain_solution(
    solution: &Solution,
    start: Option<Position>,
    budget: WhatIfBudget,
    cancel: &AtomicBool,
) -> Option<WhatIfState> {
    explain_on(solution, start, budget, None, cancel)
}

/// [`explain_solution`] on `threads` threads (`None`: every core).
fn explain_on(
    solution: &Solution,
    start: Option<Position>,
    budget: WhatIfBudget,
    threads: Option<usize>,
    cancel: &AtomicBool,
) -> Option<WhatIfState> {
    let Some(start) = start else {
        return Some(WhatIfState::NotComputed("no game".to_owned()));
    };
    if let Some(reason) = what_if_limit(solution.game(), budget) {
        return Some(WhatIfState::NotComputed(reason));
    }
    what_if_with(solution, start, STRATEGY_MAX_POSITIONS, threads, cancel)
        .map(WhatIfState::Computed)
}

/// "3 -- 5", or "4 -> 9" for a one-way edge, in the file's node ids.
pub fn edge_name(graph: &Graph, (a, b): (u32, u32)) -> String {
    // A one-way edge is named the way it goes, as the file writes it.
    if graph.arcs_out(a).contains(&b) {
        format!("{} -> {}", graph.id(a), graph.id(b))
    } else if graph.arcs_out(b).contains(&a) {
        format!("{} -> {}", graph.id(b), graph.id(a))
    } else {
        format!("{} -- {}", graph.id(a), graph.id(b))
    }
}

/// "without 3 -- 5: mouse wins in 7 (now: cat wins in 12)"; the "now" part only when it differs.
pub fn describe_what_if(
    graph: &Graph,
    edge: &EdgeOutcome,
    now: Outcome,
    now_moves: Option<u32>,
) -> String {
    let then = describe(edge.outcome, edge.moves);
    let before = describe(now, now_moves);
    let name = edge_name(graph, edge.edge);
    if then == before {
        format!("without {name}: {then} (as now)")
    } else {
        format!("without {name}: {then} (now: {before})")
    }
}

/// "mouse 1 -> 3": a tree line's move in the file's node ids.
pub fn describe_move(graph: &Graph, line: &TreeLine) -> String {
    format!(
        "{} {} -> {}",
        player_name(line.mover),
        graph.id(line.from),
        graph.id(line.to)
    )
}

/// What holds after a tree line's move: "cat wins in 3", or its [`Ending::short`] wording
/// ("in the hole: mouse wins", "caught: cat wins", "no legal move: draw").
pub fn describe_after(solution: &Solution, line: &TreeLine) -> String {
    match line.next {
        Continuation::Terminal if line.position.mouse == line.position.cat => {
            Ending::Caught.short().to_owned()
        }
        Continuation::Terminal => Ending::Home.short().to_owned(),
        Continuation::Stuck => Ending::NoMove(line.position.turn).short().to_owned(),
        Continuation::Limit => Ending::Limit.short().to_owned(),
        _ => describe(
            solution.outcome_within(line.position, line.moves_left),
            solution.moves_within(line.position, line.moves_left),
        ),
    }
}

/// "strategy of the cat", and what it guarantees from the start.
pub fn strategy_title(solution: &Solution, player: Player, start: Position) -> String {
    let name = player_name(player);
    match solution.outcome(start) {
        Outcome::Draw => format!("the {name}'s strategy, never losing"),
        outcome => format!(
            "the {name}'s strategy, winning: {}",
            describe(outcome, solution.moves_to_end(start))
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{start_position, Analysis};

    /// A one-way edge is named the way it goes, whichever end comes first in the pair.
    #[test]
    fn a_one_way_edge_is_named_with_its_arrow() {
        let analysis = Analysis::new("0 -- 1 -- 2\n2 -> 7\n7 -> 1\n");
        let graph = &analysis.model.graph;
        let index = |id| graph.index_of(id).unwrap();
        assert_eq!(edge_name(graph, (index(1), index(2))), "1 -- 2");
        assert_eq!(edge_name(graph, (index(2), index(7))), "2 -> 7");
        assert_eq!(edge_name(graph, (index(1), index(7))), "7 -> 1");
    }

    /// The start a game alone gives is the one the graph's ids give, with or without the hole.
    #[test]
    fn start_of_a_game_is_where_nodes_1_and_2_are() {
        for text in ["0 -- 1 -- 2\n", "1 -- 2 -- 7\n", "5 -- 1 -- 3 -- 2 -- 0\n"] {
            let analysis = Analysis::new(text);
            let game = analysis.game().unwrap();
            assert_eq!(
                Some(start_of(&game)),
                start_position(&analysis.model.graph),
                "{text}"
            );
        }
    }

    #[test]
    fn the_what_if_stops_at_the_node_limit() {
        let chain: Vec<String> = (0..=WHAT_IF_MAX_NODES).map(|id| id.to_string()).collect();
        let analysis = Analysis::new(chain.join(" -- "));
        let game = analysis.game().unwrap();
        let solved =
            solve_and_explain(&game, WhatIfBudget::CommandLine, &AtomicBool::new(false)).unwrap();
        assert_eq!(
            solved.what_if,
            WhatIfState::NotComputed(
                "not computed above 300 nodes (this graph has 301)".to_owned()
            )
        );
        let game = Analysis::new("0 -- 1 -- 2\n").game().unwrap();
        let solved =
            solve_and_explain(&game, WhatIfBudget::Editor, &AtomicBool::new(false)).unwrap();
        assert_eq!(solved.what_if.computed().map(|w| w.edges.len()), Some(2));
        assert!(solve_and_explain(&game, WhatIfBudget::Editor, &AtomicBool::new(true)).is_none());
        // 100 nodes in a ring with chords, 200 edges: 10^7 steps, within the editor's budget;
        // 300 nodes with 600 edges (2.7 · 10^8) only within the command line's.
        let ring = |n: u32| {
            let edges: Vec<String> = (0..n)
                .flat_map(|i| {
                    [
                        format!("{i} -- {}", (i + 1) % n),
                        format!("{i} -- {}", (i + n / 2) % n),
                    ]
                })
                .collect();
            Analysis::new(edges.join("\n")).game().unwrap()
        };
        assert_eq!(what_if_limit(&ring(100), WhatIfBudget::Editor), None);
        assert_eq!(
            what_if_limit(&ring(300), WhatIfBudget::Editor).as_deref(),
            Some("not computed in the editor: 450 solves of a 300-node game take too long; `cmg solve --what-if` computes it")
        );
        assert_eq!(what_if_limit(&ring(300), WhatIfBudget::CommandLine), None);
    }
}
