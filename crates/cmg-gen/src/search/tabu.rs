//! A tabu search over single edge changes, at the full size from the first step: the
//! search up to [`super::TABU_MAX_NODES`] nodes.
//!
//! Each walk looks at every change of one edge, moves to the best of them even when it
//! is worse (that is how it leaves a local maximum), and may not change that edge back
//! for the next few moves. A walk that has not improved on its best for a while starts
//! again from a fresh graph: at these sizes the long games sit in basins far apart, and
//! many short walks find the good ones more surely than one long walk. Walks keep their
//! own graphs: the best is only compared between steps.

use super::{first_graph, solves_per_step, Goal, Progress, Request, Score, Walked};
use crate::eval::{Evaluator, Winner};
use crate::graph::Graph;
use crate::rng::Rng;

/// An edge changed at move `m` may change again from move `m + TENURE_MIN + r` on, `r`
/// drawn below [`TENURE_SPREAD`]: it stays tabu for the next 4 to 13 moves.
pub(super) const TENURE_MIN: u64 = 5;
/// See [`TENURE_MIN`].
pub(super) const TENURE_SPREAD: u64 = 10;
/// Moves without a new best after which a walk starts again from a fresh graph (its best
/// is kept). Measured at 13 nodes: going back to the best and changing half as many edges
/// as there are nodes left 4 of seeds 1 to 5 at 58 moves or less; starting afresh after
/// 1000 moves, 4 of seeds 1 to 10; after 400, 2; after 200, none (docs/dev/gen.md).
const STALL: u64 = 200;

/// One tabu walk: its graph, the moves until each edge may change again, its generator
/// and evaluator, and the best graph it has seen.
struct Walk {
    goal: Goal,
    graph: Graph,
    rng: Rng,
    evaluator: Evaluator,
    /// `tabu_until[u * n + v]`: the first move at which edge `u -- v` (u < v) may change.
    tabu_until: Vec<u64>,
    moves: u64,
    best: Graph,
    best_moves: u32,
    last_better: u64,
}

impl Walk {
    fn new(goal: Goal, first: &Graph, rng: Rng) -> Walk {
        let n = first.node_count();
        let mut walk = Walk {
            goal,
            graph: first.clone(),
            rng,
            evaluator: Evaluator::new(),
            tabu_until: vec![0; n * n],
            moves: 0,
            best: first.clone(),
            best_moves: 0,
            last_better: 0,
        };
        walk.best_moves = walk.score().0;
        walk
    }

    fn score(&mut self) -> Score {
        self.goal.ranked(&mut self.evaluator, &self.graph)
    }

    /// Makes `count` moves.
    fn walk(&mut self, count: u32) {
        let n = self.graph.node_count();
        for _ in 0..count {
            self.moves += 1;
            // The best change that is not tabu (or that beats the walk's best).
            let mut choice = Choice::default();
            let goal = self.goal;
            for (u, v) in goal.changes(n) {
                if !goal.keeps(&self.graph, u, v) {
                    continue;
                }
                goal.toggle(&mut self.graph, u, v);
                let score = self.score();
                goal.toggle(&mut self.graph, u, v);
                let tabu = self.tabu_until[u * n + v] > self.moves;
                choice.offer(
                    (u, v),
                    score,
                    tabu && score.0 <= self.best_moves,
                    &mut self.rng,
                );
            }
            let Some(((u, v), score)) = choice.chosen else {
                continue;
            };
            goal.toggle(&mut self.graph, u, v);
            self.tabu_until[u * n + v] = self.moves + TENURE_MIN + self.rng.below(TENURE_SPREAD);
            if score.0 > self.best_moves {
                self.best_moves = score.0;
                self.best.clone_from(&self.graph);
                self.last_better = self.moves;
            } else if self.moves - self.last_better > STALL {
                self.graph = fresh_graph(n, &mut self.rng, self.goal);
                self.tabu_until.fill(0);
                self.last_better = self.moves;
            }
        }
    }
}

/// A tabu move being chosen: the best change offered that is not barred, ties drawn
/// uniformly as they come (the k-th of equal scores replaces the choice with chance 1/k).
#[derive(Default)]
pub(super) struct Choice {
    pub(super) chosen: Option<((usize, usize), Score)>,
    ties: u64,
}

impl Choice {
    /// Offers the change `(u, v)` with the graph's `score` after it; a `barred` change (tabu,
    /// and no better than the walk's best) is passed over without a draw.
    pub(super) fn offer(
        &mut self,
        change: (usize, usize),
        score: Score,
        barred: bool,
        rng: &mut Rng,
    ) {
        if barred {
            return;
        }
        match self.chosen {
            Some((_, best)) if score < best => return,
            Some((_, best)) if score == best => {
                self.ties += 1;
                if rng.below(self.ties) != 0 {
                    return;
                }
            }
            _ => self.ties = 1,
        }
        self.chosen = Some((change, score));
    }
}

/// A graph to start a walk from: the path of [`first_graph`] with up to `n` random edges
/// (or arcs) toggled (each only if the constraints still hold), so that walks and restarts
/// start apart.
fn fresh_graph(n: usize, rng: &mut Rng, goal: Goal) -> Graph {
    let mut graph = first_graph(n);
    for _ in 0..n {
        let u = rng.below(n as u64) as usize;
        let v = rng.below(n as u64) as usize;
        if u != v && goal.keeps(&graph, u, v) {
            goal.toggle(&mut graph, u, v);
        }
    }
    graph
}

/// The winner each walk looks for. Asked for either, the walks split between the two:
/// a walk after any game settles in whichever winner's long games it meets first, and at
/// 13 nodes that is often a mouse win shorter than the cat wins there (docs/dev/gen.md).
fn wanted(request: &Request, walk: usize) -> Option<Winner> {
    request
        .winner
        .or(Some([Winner::Cat, Winner::Mouse][walk % 2]))
}

/// Runs the tabu search.
pub(super) fn search(
    request: &Request,
    goal: Goal,
    mut go_on: impl FnMut(&Progress) -> bool,
) -> Walked {
    let n = request.nodes;
    let planned = request.steps.max(1);
    let mut seeds = Rng::new(request.seed);
    // At least two walks, one per winner; with one thread it runs both in turn.
    let walk_count = request.threads.max(2);
    let mut walks: Vec<Walk> = (0..walk_count)
        .map(|index| {
            let mut rng = Rng::new(seeds.next_u64());
            let first = match &request.from {
                Some(graph) => graph.clone(),
                None => fresh_graph(n, &mut rng, goal),
            };
            let goal = Goal {
                wanted: wanted(request, index),
                ..goal
            };
            Walk::new(goal, &first, rng)
        })
        .collect();
    let pairs = goal.changes(n).count() as u32;
    // Twice the annealing's solves per thread and step (a move solves every change of one
    // edge), shared by the walks of a thread, so that a step takes as long on one thread.
    let per_walk = 2 * u64::from(solves_per_step(n)) * request.threads as u64 / walk_count as u64;
    let moves = (per_walk / u64::from(pairs)).max(1) as u32;
    let per_thread = walk_count.div_ceil(request.threads);
    let mut evaluator = Evaluator::new();
    let mut best = walks[0].best.clone();
    let mut best_moves = goal.score(&mut evaluator, &best);
    let mut steps_run = 0;
    loop {
        // One group (or no threads to start, in WebAssembly) runs here: the walks are
        // independent, so where they run changes nothing.
        if walks.len() <= per_thread || !cmg_solve::CAN_SPAWN_THREADS {
            walks.iter_mut().for_each(|walk| walk.walk(moves));
        } else {
            std::thread::scope(|scope| {
                for group in walks.chunks_mut(per_thread) {
                    scope.spawn(move || group.iter_mut().for_each(|walk| walk.walk(moves)));
                }
            });
        }
        steps_run += 1;
        // The walks' bests are compared in walk order, so ties go the same way every run,
        // and by the request's goal: a walk after cat wins may hold a longer mouse win.
        for walk in &walks {
            let moves = goal.score(&mut evaluator, &walk.best);
            if moves > best_moves {
                best_moves = moves;
                best.clone_from(&walk.best);
            }
        }
        let progress = Progress {
            steps_run,
            steps_planned: planned,
            nodes: n,
            best_moves,
            solves: walks.iter().map(|walk| walk.evaluator.solves()).sum(),
        };
        if progress.ends(request, goal, &mut go_on) {
            break;
        }
    }
    let solves = walks
        .iter()
        .map(|walk| walk.evaluator.solves())
        .sum::<u64>()
        + evaluator.solves();
    Walked {
        best,
        steps_run,
        solves,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::ANY_GRAPH;

    fn walk_from(graph: &Graph, seed: u64) -> Walk {
        Walk::new(ANY_GRAPH, graph, Rng::new(seed))
    }

    /// The edge one move changed.
    fn changed(before: &Graph, after: &Graph) -> (usize, usize) {
        let n = before.node_count();
        let pairs: Vec<(usize, usize)> = (0..n)
            .flat_map(|u| (u + 1..n).map(move |v| (u, v)))
            .filter(|&(u, v)| before.rows()[u] >> v & 1 != after.rows()[u] >> v & 1)
            .collect();
        assert_eq!(pairs.len(), 1, "one move changes one edge");
        pairs[0]
    }

    /// From an empty graph many changes tie for the best (any edge between two of the
    /// nodes 3 to 7 gives the same graph up to renaming): a move takes one of the best,
    /// drawn, so that walks from one graph part ways. Taking always the first (or the
    /// last) of the ties fails here.
    #[test]
    fn a_move_draws_among_the_best_changes() {
        let empty = Graph::empty(8);
        let mut scorer = walk_from(&empty, 0);
        let mut best = None;
        for u in 0..8 {
            for v in u + 1..8 {
                scorer.graph.toggle(u, v);
                let score = scorer.score();
                scorer.graph.toggle(u, v);
                best = best.max(Some(score));
            }
        }
        let mut chosen = std::collections::BTreeSet::new();
        for seed in 0..24 {
            let mut walk = walk_from(&empty, seed);
            walk.walk(1);
            let (u, v) = changed(&empty, &walk.graph);
            assert_eq!(
                Some(walk.score()),
                best,
                "the move to {u} -- {v} is one of the best"
            );
            chosen.insert((u, v));
        }
        assert!(chosen.len() > 2, "the ties are drawn: {chosen:?}");
    }

    /// A walk that finds nothing better for more than [`STALL`] moves starts again from a
    /// fresh graph with no edge tabu; one move earlier it has not.
    #[test]
    fn a_stalled_walk_starts_again() {
        let first = fresh_graph(8, &mut Rng::new(1), ANY_GRAPH);
        let mut walk = walk_from(&first, 2);
        // Nothing beats this: every move from here on is no better.
        walk.best_moves = u32::MAX;
        walk.walk(STALL as u32);
        assert_eq!(walk.last_better, 0);
        assert!(walk.tabu_until.iter().any(|&until| until > walk.moves));
        walk.walk(1);
        assert_eq!(walk.last_better, STALL + 1, "it started again at this move");
        assert!(walk.tabu_until.iter().all(|&until| until == 0));
        assert_eq!(walk.best_moves, u32::MAX, "its best is kept");
    }

    /// An edge changed at move `m` is not changed back before move `m + 5`, unless that
    /// beats the walk's best.
    #[test]
    fn a_changed_edge_stays_tabu_for_at_least_four_moves() {
        for seed in 0..8 {
            let first = fresh_graph(8, &mut Rng::new(seed), ANY_GRAPH);
            let mut walk = walk_from(&first, seed);
            walk.best_moves = u32::MAX;
            let mut graphs = vec![walk.graph.clone()];
            for _ in 0..12 {
                walk.walk(1);
                graphs.push(walk.graph.clone());
            }
            let edges: Vec<(usize, usize)> = graphs
                .windows(2)
                .map(|pair| changed(&pair[0], &pair[1]))
                .collect();
            for (m, edge) in edges.iter().enumerate() {
                let again = edges[m + 1..].iter().position(|e| e == edge);
                assert!(
                    again.is_none_or(|later| later >= 4),
                    "seed {seed}: {edges:?}"
                );
            }
        }
    }
}
