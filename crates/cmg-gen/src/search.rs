//! The search: simulated annealing over single-edge changes, on a graph grown one node at a
//! time (anneal a small graph, add a node, anneal again), on several threads.
//!
//! The work is cut into *steps*, and a step is a fixed number of edge changes per thread,
//! set by the node count alone, so the graph found depends only on the request and on how
//! many steps ran: never on how fast they ran. The caller decides after each step whether
//! to go on (a deadline, a cancel flag); the plan of steps comes from the requested seconds.

use crate::eval::{Evaluator, Start, Winner};
use crate::graph::{Constraints, Graph};
use crate::rng::Rng;

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
    /// Threads that anneal side by side; each step waits for all of them.
    pub threads: usize,
    /// A graph to start from instead of growing one; its node count is `nodes`.
    pub from: Option<Graph>,
    /// Stop after the first step that found a game longer than this.
    pub longer_than: Option<u32>,
    pub constraints: Constraints,
}

/// The plan's pace: `--seconds S` plans `S * STEPS_PER_SECOND` steps. A step takes 50 to
/// 130 ms on an idle 2-core machine (two threads, 9 to 50 nodes; the cost of a solve
/// depends on the graph's shape as well as its size), so a plan ends before its deadline
/// on such a machine; when it does not, the caller stops between steps. A faster pace (12
/// steps a second, filling the time) was measured worse at 11 to 17 nodes and better at
/// 50: docs/records.md, "Seeds and time".
pub const STEPS_PER_SECOND: f64 = 4.0;

/// The steps planned for `seconds` of search.
pub fn planned_steps(seconds: f64) -> u32 {
    (seconds * STEPS_PER_SECOND)
        .round()
        .clamp(1.0, f64::from(u32::MAX)) as u32
}

/// Edge changes per thread in one step at `nodes` nodes: a solve costs about n² position
/// visits, so this keeps a step's time roughly the same at every size.
fn changes_per_step(nodes: usize) -> u32 {
    let n = nodes.max(3) as u64;
    (12_000_000 / (n * n * 6)).clamp(200, 200_000) as u32
}

/// The size a search from scratch starts growing from.
const FIRST_SIZE: usize = 8;

/// What a chain maximises: the longest game of the graph over every start (the hole
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

/// One annealing chain: its graph, score, generator and evaluator.
struct Chain {
    graph: Graph,
    score: u32,
    rng: Rng,
    evaluator: Evaluator,
    best: Graph,
    best_score: u32,
}

impl Chain {
    /// Runs `changes` edge changes at temperatures falling from `hot` to `cold`.
    fn anneal(&mut self, changes: u32, hot: f64, cold: f64, goal: Goal) {
        let n = self.graph.node_count();
        let ratio = (cold / hot).powf(1.0 / f64::from(changes.max(1)));
        let mut temperature = hot;
        for _ in 0..changes {
            temperature *= ratio;
            let u = self.rng.below(n as u64) as usize;
            let mut v = self.rng.below(n as u64 - 1) as usize;
            if v >= u {
                v += 1;
            }
            if !self.graph.toggle_keeps(u, v, goal.constraints) {
                continue;
            }
            self.graph.toggle(u, v);
            let new = goal.score(&mut self.evaluator, &self.graph);
            let accept = new >= self.score
                || self.rng.unit() < (-(f64::from(self.score - new)) / temperature).exp();
            if accept {
                self.score = new;
                if new > self.best_score {
                    self.best_score = new;
                    self.best.clone_from(&self.graph);
                }
            } else {
                self.graph.toggle(u, v);
            }
        }
    }

    fn restart_from(&mut self, graph: &Graph, goal: Goal) {
        self.graph.clone_from(graph);
        self.score = goal.score(&mut self.evaluator, graph);
        self.best.clone_from(graph);
        self.best_score = self.score;
    }
}

/// A first graph of `n` nodes meeting `constraints`: a path 1 – 3 – 4 – … – (n-1) – 0
/// with the cat's node 2 on node 3. It is only somewhere to start; annealing reshapes it.
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
pub fn search(request: &Request, mut go_on: impl FnMut(&Progress) -> bool) -> Found {
    let n = request.nodes;
    assert!(
        (3..=crate::MAX_NODES).contains(&n),
        "3 to 64 nodes, got {n}"
    );
    assert!(request.threads > 0);
    let goal = Goal {
        wanted: request.winner,
        constraints: request.constraints,
    };
    let planned = request.steps.max(1);
    // Growing: a from-scratch search spends its first 80 % of steps on the sizes below n, evenly.
    let start_size = if request.from.is_some() {
        n
    } else {
        FIRST_SIZE.min(n)
    };
    let growth_steps = if start_size < n { planned * 4 / 5 } else { 0 };
    let sizes = (n - start_size) as u32;
    let size_at = |step: u32| -> usize {
        if step >= growth_steps {
            n
        } else {
            start_size
                + (u64::from(step) * u64::from(sizes) / u64::from(growth_steps.max(1))) as usize
        }
    };
    let first = match &request.from {
        Some(graph) => {
            assert_eq!(graph.node_count(), n);
            graph.clone()
        }
        None => first_graph(start_size),
    };
    let mut seeds = Rng::new(request.seed);
    let mut chains: Vec<Chain> = (0..request.threads)
        .map(|_| {
            let mut chain = Chain {
                graph: first.clone(),
                score: 0,
                rng: Rng::new(seeds.next_u64()),
                evaluator: Evaluator::new(),
                best: first.clone(),
                best_score: 0,
            };
            chain.restart_from(&first, goal);
            chain
        })
        .collect();
    let mut best = first.clone();
    let mut best_score = chains[0].score;
    let mut steps_run = 0;
    let mut size = start_size;
    while steps_run < planned {
        let target = size_at(steps_run);
        // A new node joins the best graph as a leaf of a random node; each chain picks its own.
        while size < target {
            size += 1;
            for chain in &mut chains {
                let mut graph = best.clone();
                graph.push_node();
                let anchor = 1 + chain.rng.below(size as u64 - 2) as usize;
                graph.toggle(size - 1, anchor);
                chain.restart_from(&graph, goal);
            }
            best = chains[0].graph.clone();
            best_score = chains[0].score;
        }
        let changes = changes_per_step(size);
        std::thread::scope(|scope| {
            for chain in &mut chains {
                scope.spawn(move || chain.anneal(changes, 2.0, 0.05, goal));
            }
        });
        steps_run += 1;
        // The chains' bests are compared in chain order, so ties go the same way every run.
        for chain in &chains {
            if chain.best_score > best_score {
                best_score = chain.best_score;
                best.clone_from(&chain.best);
            }
        }
        // Every chain goes on from the best graph so far (with its own generator): in trials
        // at 13 nodes this beat chains that keep their own graphs by 2 to 4 moves.
        for chain in &mut chains {
            chain.restart_from(&best, goal);
        }
        let progress = Progress {
            steps_run,
            steps_planned: planned,
            nodes: size,
            best_moves: best_score,
            solves: chains.iter().map(|chain| chain.evaluator.solves()).sum(),
        };
        // A game found while growing counts too: the nodes still missing are added below
        // where they change nothing.
        let done = request.longer_than.is_some_and(|limit| best_score > limit);
        if done || !go_on(&progress) {
            break;
        }
    }
    // Stopped before the graph reached its size: the missing nodes hang off the hole, where
    // neither player can reach them (the cat may not enter the hole, and the mouse's game
    // ends there), so the game from the start stays what it was.
    while best.node_count() < n {
        best.push_node();
        let last = best.node_count() - 1;
        best.toggle(last, 0);
    }
    // The longest start becomes the standard one.
    let start = goal.best(&mut Evaluator::new(), &best);
    Found {
        graph: match start {
            Some(start) => best.relabelled(&start.order(n)),
            None => best,
        },
        result: start.map(|start| (start.winner, start.moves)),
        steps_run,
        steps_planned: planned,
        solves: chains
            .iter()
            .map(|chain| chain.evaluator.solves())
            .sum::<u64>()
            + 1,
    }
}
