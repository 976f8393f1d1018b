//! The search for a graph with a long game, on several threads, cut into *steps*: a step is
//! a fixed amount of work per thread, set by the node count alone, so the graph found
//! depends only on the request and on how many steps ran, never on how fast they ran. The
//! caller decides after each step whether to go on (a deadline, a cancel flag); the plan of
//! steps comes from the requested seconds.
//!
//! Two walks share that frame: up to [`TABU_MAX_NODES`] nodes, a tabu search over single
//! edge changes at the full size ([`tabu`]); above it, simulated annealing on a graph grown
//! one node at a time ([`anneal`]). docs/dev/gen.md has the measurements behind the split.

mod anneal;
mod tabu;

use crate::eval::{Evaluator, Start, Winner};
use crate::graph::{Constraints, Graph};

/// What to search for.
#[derive(Clone, Debug)]
pub struct Request {
    /// The node count of the graph to find (3 to 64).
    pub nodes: usize,
    /// Only games this player wins count; `None`: either.
    pub winner: Option<Winner>,
    /// The steps planned (see [`planned_steps`]): they set how the graph grows, and the
    /// search ends after them unless the caller stops it earlier.
    pub steps: u32,
    pub seed: u64,
    /// Threads that search side by side; each step waits for all of them.
    pub threads: usize,
    /// A graph to start from instead of growing one; its node count is `nodes`.
    pub from: Option<Graph>,
    /// Stop after the first step that found a game longer than this.
    pub longer_than: Option<u32>,
    pub constraints: Constraints,
}

/// The plan's pace: `--seconds S` plans `S * STEPS_PER_SECOND` steps. A step of the
/// annealing takes 50 to 130 ms on an idle 2-core machine (two threads, 17 to 50 nodes; the
/// cost of a solve depends on the graph's shape as well as its size), one of the tabu
/// walks about 160 ms (9 to 16 nodes), so a plan ends before its deadline on such a
/// machine; when it does not, the caller stops between steps. A faster pace (12
/// steps a second, filling the time) was measured worse at 11 to 17 nodes and better at
/// 50: docs/records.md, "Seeds and time".
pub const STEPS_PER_SECOND: f64 = 4.0;

/// The steps planned for `seconds` of search.
pub fn planned_steps(seconds: f64) -> u32 {
    (seconds * STEPS_PER_SECOND)
        .round()
        .clamp(1.0, f64::from(u32::MAX)) as u32
}

/// The largest node count searched by the tabu walks; larger graphs are annealed. From 9
/// to 16 nodes the tabu walks reached longer games than the annealing on every seed
/// measured; at 17 the two were even (docs/dev/gen.md).
pub const TABU_MAX_NODES: usize = 16;

/// Solves per thread in one step at `nodes` nodes: a solve costs about n² position visits,
/// so this keeps a step's time roughly the same at every size.
fn solves_per_step(nodes: usize) -> u32 {
    let n = nodes.max(3) as u64;
    (12_000_000 / (n * n * 6)).clamp(200, 200_000) as u32
}

/// What a walk maximises: the longest game of the graph over every start (the hole
/// fixed), not only the standard one. The nodes besides the hole are interchangeable, so a
/// graph whose longest game starts elsewhere is, renamed, a graph whose standard start has
/// that game; and one full solve scores all n² starts, which makes the landscape far less
/// flat than the standard start's length alone (measured in docs/records.md).
#[derive(Clone, Copy)]
struct Goal {
    wanted: Option<Winner>,
    constraints: Constraints,
}

impl Goal {
    fn best(self, evaluator: &mut Evaluator, graph: &Graph) -> Option<Start> {
        evaluator.longest_start(graph, self.wanted, self.constraints)
    }

    fn score(self, evaluator: &mut Evaluator, graph: &Graph) -> u32 {
        self.best(evaluator, graph).map_or(0, |start| start.moves)
    }

    /// The score with a second key for ties, as the tabu walks rank graphs.
    fn ranked(self, evaluator: &mut Evaluator, graph: &Graph) -> Score {
        let starts = evaluator.starts(graph, self.wanted, self.constraints);
        (starts.longest.map_or(0, |start| start.moves), starts.total)
    }
}

/// A graph's rank: the longest game, then the sum of every start's game.
type Score = (u32, u64);

/// What one of the searches hands back to [`search`].
struct Walked {
    best: Graph,
    steps_run: u32,
    solves: u64,
}

/// The best graph found.
#[derive(Clone, Debug)]
pub struct Found {
    pub graph: Graph,
    /// The winner and moves from the start; `None` if no decided game (of the requested winner) was found.
    pub result: Option<(Winner, u32)>,
    pub steps_run: u32,
    pub steps_planned: u32,
    pub solves: u64,
}

/// Where the search stands after a step, for a progress line and the decision to go on.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    pub steps_run: u32,
    pub steps_planned: u32,
    pub nodes: usize,
    pub best_moves: u32,
    pub solves: u64,
}

impl Progress {
    /// Whether the search ends after this step: a game longer than the request's
    /// `longer_than` was found, or `go_on` says stop.
    fn ends(&self, request: &Request, go_on: &mut impl FnMut(&Progress) -> bool) -> bool {
        let done = request
            .longer_than
            .is_some_and(|limit| self.best_moves > limit);
        done || !go_on(self)
    }
}

/// A first graph of `n` nodes meeting `constraints`: a path 1 – 3 – 4 – … – (n-1) – 0
/// with the cat's node 2 on node 3. It is only somewhere to start; the walks reshape it.
fn first_graph(n: usize) -> Graph {
    let mut graph = Graph::empty(n);
    let mut previous = 1;
    for node in 3..n {
        graph.toggle(previous, node);
        previous = node;
    }
    graph.toggle(previous, 0);
    graph.toggle(2, if n > 3 { 3 } else { 1 });
    graph
}

/// Runs the search. After every step `go_on` sees the progress and says whether to continue;
/// the search also ends when the plan is done or a game is longer than `longer_than`.
///
/// # Panics
///
/// Panics if `nodes` is outside 3..=64, `threads` is 0, or `from` has another node count.
pub fn search(request: &Request, go_on: impl FnMut(&Progress) -> bool) -> Found {
    let n = request.nodes;
    assert!(
        (3..=crate::MAX_NODES).contains(&n),
        "3 to 64 nodes, got {n}"
    );
    assert!(request.threads > 0);
    if let Some(graph) = &request.from {
        assert_eq!(graph.node_count(), n);
    }
    let goal = Goal {
        wanted: request.winner,
        constraints: request.constraints,
    };
    let walked = if n <= TABU_MAX_NODES {
        tabu::search(request, goal, go_on)
    } else {
        anneal::search(request, goal, go_on)
    };
    finish(walked, n, goal, request.steps.max(1))
}

/// The graph printed from the best one found: grown to `n` nodes if the search stopped
/// while growing, and renamed so that its longest start is the standard one.
fn finish(walked: Walked, n: usize, goal: Goal, steps_planned: u32) -> Found {
    let Walked {
        mut best,
        steps_run,
        solves,
    } = walked;
    // Stopped before the graph reached its size: the missing nodes hang off the hole, where
    // neither player can reach them (the cat may not enter the hole, and the mouse's game
    // ends there), so the game from the start stays what it was.
    while best.node_count() < n {
        best.push_node();
        let last = best.node_count() - 1;
        best.toggle(last, 0);
    }
    let start = goal.best(&mut Evaluator::new(), &best);
    Found {
        graph: match start {
            Some(start) => best.relabelled(&start.order(n)),
            None => best,
        },
        result: start.map(|start| (start.winner, start.moves)),
        steps_run,
        steps_planned,
        solves: solves + 1,
    }
}

#[cfg(test)]
mod tests {
    use super::{search, Request};
    use crate::{Constraints, Winner};

    fn pinned(nodes: usize, steps: u32, seed: u64) -> (Option<(Winner, u32)>, Vec<u64>) {
        let found = search(
            &Request {
                nodes,
                winner: None,
                steps,
                seed,
                threads: 1,
                from: None,
                longer_than: None,
                constraints: Constraints::LeetCode,
            },
            |_| true,
        );
        (found.result, found.graph.rows().to_vec())
    }

    /// A fixed seed and number of steps give one graph, on every machine: pinned here
    /// for the tabu walks (11 nodes) and the annealing (18 nodes), so that a change to
    /// either walk's rules (a tie-break, a restart) shows as a changed graph. Recorded
    /// from the walks as they are; a deliberate change of the search updates them.
    #[test]
    fn a_seed_and_steps_give_one_graph() {
        assert_eq!(
            pinned(11, 6, 3),
            (
                Some((Winner::Cat, 44)),
                vec![8, 1168, 1552, 1409, 262, 1856, 800, 266, 248, 1124, 558]
            )
        );
        assert_eq!(
            pinned(18, 6, 3),
            (
                Some((Winner::Cat, 100)),
                vec![
                    128, 33040, 68416, 168992, 164994, 71880, 23588, 165425, 131590, 10628, 84184,
                    136804, 75880, 4608, 197696, 154, 152612, 84376
                ]
            )
        );
    }
}
