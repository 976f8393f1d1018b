//! Simulated annealing over single-edge changes, on a graph grown one node at a time
//! (anneal a small graph, add a node, anneal again; a fast growth joins its larger sizes'
//! nodes where the graph scores best), on several threads: the search above
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

/// The node count up to which the growth adds each node as a leaf of a random node; the
/// nodes after it join where the graph scores best ([`best_joins`]), when the plan grows
/// fast (see [`FEW_STEPS_PER_NODE`]). Scoring the joins from the start cost 17 nodes 8 and
/// 24 moves on seeds 1 and 2 (docs/dev/gen.md).
const RANDOM_LEAVES_UP_TO: usize = 17;

/// The joins are scored only when the growth has fewer steps than this per node added:
/// with many, the annealing settles each new node itself, and the greedy join costs moves
/// (30 nodes, 8.7 steps per node in a 60-second plan: 144 150 156 against 164 148 166 on
/// seeds 1 to 3); with few, it lifts the result (50 nodes, 4.6 steps per node: 233 286 264
/// 254 258 against 231 248 236 250 250 on seeds 1 to 5). In a 60-second plan that is 41
/// nodes and more.
const FEW_STEPS_PER_NODE: u32 = 6;

/// The ways a new node may join a graph of `m` nodes, as masks of its neighbours, in a
/// fixed order: to one node besides the hole, or to two nodes (the hole may be one of them).
fn joins(m: usize) -> impl Iterator<Item = u64> {
    (0..m).flat_map(move |a| {
        let alone = (a != 0).then_some(1u64 << a);
        alone
            .into_iter()
            .chain((a + 1..m).map(move |b| 1 << a | 1 << b))
    })
}

/// `graph` with one more node, joined to the nodes of `join`.
pub(super) fn joined(graph: &Graph, join: u64) -> Graph {
    let mut grown = graph.clone();
    grown.push_node();
    let new = grown.node_count() - 1;
    for node in (0..new).filter(|&node| join >> node & 1 == 1) {
        grown.toggle(new, node);
    }
    grown
}

/// The joins of a new node to `graph` ([`joins`]) to nodes of `allowed` whose graphs score
/// best, ranked as the tabu walks rank them (the longest game, then the sum of every start's
/// game): m(m + 1)/2 - 1 solves, under 1 % of a search's. Growing by a leaf of a random
/// node instead left more to the annealing and reached shorter games at 50 nodes
/// (docs/dev/gen.md).
pub(super) fn best_joins(
    graph: &Graph,
    goal: Goal,
    evaluator: &mut Evaluator,
    allowed: u64,
) -> Vec<u64> {
    let mut grown = joined(graph, 0);
    let new = graph.node_count();
    let mut top = None;
    let mut ties = Vec::new();
    for join in joins(new).filter(|&join| join & !allowed == 0) {
        let nodes = || (0..new).filter(move |&node| join >> node & 1 == 1);
        nodes().for_each(|node| grown.toggle(new, node));
        let score = goal.ranked(evaluator, &grown);
        nodes().for_each(|node| grown.toggle(new, node));
        if Some(score) > top {
            top = Some(score);
            ties.clear();
        }
        if Some(score) == top {
            ties.push(join);
        }
    }
    ties
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
    let score_joins = growth_steps < FEW_STEPS_PER_NODE * sizes;
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
        // A new node joins the best graph as a leaf of a random node, or, above
        // `RANDOM_LEAVES_UP_TO` nodes in a fast growth, in the way that scores best. Each
        // chain draws its own node, or its own among the ways that tie.
        while size < target {
            size += 1;
            let ties = if score_joins && size > RANDOM_LEAVES_UP_TO {
                best_joins(&best, goal, &mut chains[0].evaluator, !0)
            } else {
                Vec::new()
            };
            for chain in &mut chains {
                let join = if ties.is_empty() {
                    1 << (1 + chain.rng.below(size as u64 - 2))
                } else {
                    ties[chain.rng.below(ties.len() as u64) as usize]
                };
                chain.restart_from(&joined(&best, join), goal);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::Constraints;
    use crate::search::ANY_GRAPH;
    use std::collections::BTreeSet;

    /// The joins of a new node are every set of one or two old nodes, each once, but the
    /// hole alone (a node whose only neighbour is the hole adds no game).
    #[test]
    fn a_new_node_may_join_any_one_or_two_nodes_but_the_hole_alone() {
        for m in 3..10 {
            let listed: Vec<u64> = joins(m).collect();
            let unique: BTreeSet<u64> = listed.iter().copied().collect();
            assert_eq!(unique.len(), listed.len(), "{m} nodes: no join twice");
            let expected: BTreeSet<u64> = (1..1u64 << m)
                .filter(|join| matches!(join.count_ones(), 1 | 2) && *join != 1)
                .collect();
            assert_eq!(unique, expected, "{m} nodes");
        }
    }

    /// The joins kept are exactly those whose grown graph ranks highest, each graph built
    /// from adjacency lists and scored here on its own, on random graphs of 6 to 12 nodes.
    #[test]
    fn a_new_node_joins_where_the_graph_scores_best() {
        let mut rng = Rng::new(7);
        let mut tied = 0;
        for case in 0..24 {
            let m = 6 + case % 7;
            let mut graph = first_graph(m);
            for _ in 0..m {
                let u = rng.below(m as u64) as usize;
                let v = rng.below(m as u64) as usize;
                if u != v {
                    graph.toggle(u, v);
                }
            }
            let rank = |join: u64| {
                let mut lists = graph.adjacency();
                lists.push(
                    (0..m as u32)
                        .filter(|&node| join >> node & 1 == 1)
                        .collect(),
                );
                let grown = Graph::from_adjacency(&lists).expect("small");
                let starts = Evaluator::new().starts(&grown, None, Constraints::None);
                (starts.longest.map_or(0, |start| start.moves), starts.total)
            };
            let ranked: Vec<(u64, _)> = (1..1u64 << m)
                .filter(|join| matches!(join.count_ones(), 1 | 2) && *join != 1)
                .map(|join| (join, rank(join)))
                .collect();
            let top = ranked.iter().map(|&(_, score)| score).max();
            let best: BTreeSet<u64> = ranked
                .into_iter()
                .filter(|&(_, score)| Some(score) == top)
                .map(|(join, _)| join)
                .collect();
            let kept = best_joins(&graph, ANY_GRAPH, &mut Evaluator::new(), !0);
            assert_eq!(
                kept.iter().copied().collect::<BTreeSet<u64>>(),
                best,
                "case {case}"
            );
            assert_eq!(kept.len(), best.len(), "case {case}: each join once");
            tied += usize::from(kept.len() > 1);
        }
        assert!(tied > 0, "some cases have ties, which the chains draw from");
    }
}
