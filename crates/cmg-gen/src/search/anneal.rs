//! Simulated annealing over single-edge changes, on a graph grown one node at a time
//! (anneal a small graph, add a node, anneal again), on several threads: the search above
//! [`super::TABU_MAX_NODES`] nodes.

use super::{first_graph, solves_per_step, Goal, Progress, Request, Walked};
use crate::eval::Evaluator;
use crate::graph::Graph;
use crate::rng::Rng;

/// The size a search from scratch starts growing from.
const FIRST_SIZE: usize = 8;

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
            if !goal.keeps(&self.graph, u, v) {
                continue;
            }
            goal.toggle(&mut self.graph, u, v);
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
                goal.toggle(&mut self.graph, u, v);
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

/// Runs the annealing; the best graph is smaller than the request's size if it stopped
/// while growing.
pub(super) fn search(
    request: &Request,
    goal: Goal,
    mut go_on: impl FnMut(&Progress) -> bool,
) -> Walked {
    let n = request.nodes;
    let planned = request.steps.max(1);
    // Growing: a from-scratch search spends its first 80 % of steps on the sizes below n, evenly.
    // A variant with many holes starts with room for its start besides them.
    let holes = goal.variant.map_or(1, |variant| variant.hole_count());
    let start_size = if request.from.is_some() {
        n
    } else {
        FIRST_SIZE.max(holes + 2).min(n)
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
        Some(graph) => graph.clone(),
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
    loop {
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
        let changes = solves_per_step(size);
        // One chain (or no threads to start, in WebAssembly) runs here: the chains are
        // independent, so where they run changes nothing.
        if chains.len() == 1 || !cmg_solve::CAN_SPAWN_THREADS {
            for chain in &mut chains {
                chain.anneal(changes, 2.0, 0.05, goal);
            }
        } else {
            std::thread::scope(|scope| {
                for chain in &mut chains {
                    scope.spawn(move || chain.anneal(changes, 2.0, 0.05, goal));
                }
            });
        }
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
        // A game found while growing counts too: `finish` adds the nodes still missing
        // where they change nothing.
        if progress.ends(request, goal, &mut go_on) {
            break;
        }
    }
    let solves = chains.iter().map(|chain| chain.evaluator.solves()).sum();
    Walked {
        best,
        steps_run,
        solves,
    }
}
