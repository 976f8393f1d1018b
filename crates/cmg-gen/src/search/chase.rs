//! Chases: graphs whose hole is out of the mouse's reach, so that every game on them is the
//! cat hunting the mouse, grown one node at a time by tabu walks: the search from
//! [`super::CHASE_MIN_NODES`] nodes up.
//!
//! Neither player may pass, so on a graph without the hole in play the cat needs odd cycles
//! to corner the mouse, and the hunt can take hundreds of moves. The hole and one neighbour
//! of its own (node [`PARTNER`]) make a component of two nodes that no game enters, which
//! keeps LeetCode 913's constraints (every node has a neighbour); the walks change only the
//! edges among the other nodes.
//!
//! A *round* grows one graph: from a small chase, each new node joins where the graph
//! scores best, then a tabu walk of [`MOVES_PER_SIZE`] moves reshapes the graph at that size.
//! A step is one size of one round. When a round reaches the full size the next one starts
//! afresh with a generator of its own, and the longest graph of all rounds is kept: rounds
//! end tens of moves apart, and the best of several is far less a matter of the seed than
//! one round (docs/dev/gen.md). Each move looks at every change of one edge, shared out
//! between the threads in a fixed order, so the graph found does not depend on the number
//! of threads.

use super::anneal::{best_joins, joined};
use super::tabu::{Choice, TENURE_MIN, TENURE_SPREAD};
use super::{Goal, Progress, Request, Score, Walked};
use crate::eval::Evaluator;
use crate::graph::Graph;
use crate::rng::Rng;

/// The size a round starts from.
const FIRST_SIZE: usize = 8;

/// The hole's one neighbour: the hole and it are a component of their own.
const PARTNER: usize = FIRST_SIZE - 1;

/// The nodes no change touches: the hole and its partner.
const OUT_OF_PLAY: u64 = 1 | 1 << PARTNER;

/// Tabu moves at each size of a round. At 50 nodes, seed 1: 40 moves a size reach 318
/// moves where 20 reach fewer (docs/dev/gen.md); a round takes 5 to 8 s on two threads.
const MOVES_PER_SIZE: u32 = 40;

/// The steps of one round on `n` nodes: one a node added.
pub(super) fn round_steps(n: usize) -> u32 {
    n.saturating_sub(FIRST_SIZE) as u32
}

/// A round's first graph: the hole joined to [`PARTNER`] alone, and on nodes 1 to 6 a
/// five-cycle 1 – 3 – 4 – 5 – 6 – 1 with node 2 on the triangle 2 – 3 – 4, where the
/// cat can corner the mouse. It is only somewhere to start; the walks reshape it.
fn first_graph() -> Graph {
    let mut graph = Graph::empty(FIRST_SIZE);
    for (u, v) in [
        (0, PARTNER),
        (1, 3),
        (3, 4),
        (4, 5),
        (5, 6),
        (6, 1),
        (2, 3),
        (2, 4),
    ] {
        graph.toggle(u, v);
    }
    graph
}

/// One round: the graph it grows, the best of its walk at the current size, and the moves
/// until each edge may change again.
struct Round {
    graph: Graph,
    best: Graph,
    best_score: Score,
    tabu_until: Vec<u64>,
    moves: u64,
    rng: Rng,
}

impl Round {
    fn new(rng: Rng, goal: Goal, evaluator: &mut Evaluator) -> Round {
        let graph = first_graph();
        Round {
            best_score: goal.ranked(evaluator, &graph),
            best: graph.clone(),
            graph,
            tabu_until: Vec::new(),
            moves: 0,
            rng,
        }
    }

    fn size(&self) -> usize {
        self.best.node_count()
    }

    /// One step: a node joins the round's best graph where it scores best (ties drawn),
    /// then a tabu walk of [`MOVES_PER_SIZE`] moves at the new size.
    fn grow(&mut self, goal: Goal, evaluators: &mut [Evaluator]) {
        let ties = best_joins(&self.best, goal, &mut evaluators[0], !OUT_OF_PLAY);
        let join = ties[self.rng.below(ties.len() as u64) as usize];
        self.graph = joined(&self.best, join);
        self.best.clone_from(&self.graph);
        self.best_score = goal.ranked(&mut evaluators[0], &self.graph);
        let n = self.graph.node_count();
        self.tabu_until = vec![0; n * n];
        self.moves = 0;
        for _ in 0..MOVES_PER_SIZE {
            self.step(goal, evaluators);
        }
    }

    /// One tabu move: to the best change of one edge that is not tabu (or that beats the
    /// walk's best), even when it is worse; ties drawn uniformly.
    fn step(&mut self, goal: Goal, evaluators: &mut [Evaluator]) {
        let n = self.graph.node_count();
        self.moves += 1;
        let changes: Vec<(usize, usize)> = goal
            .changes(n)
            .filter(|&(u, v)| OUT_OF_PLAY >> u & 1 == 0 && OUT_OF_PLAY >> v & 1 == 0)
            .filter(|&(u, v)| goal.keeps(&self.graph, u, v))
            .collect();
        let scores = scan(&self.graph, &changes, goal, evaluators);
        let mut choice = Choice::default();
        for (&(u, v), &score) in changes.iter().zip(&scores) {
            let tabu = self.tabu_until[u * n + v] > self.moves;
            choice.offer(
                (u, v),
                score,
                tabu && score.0 <= self.best_score.0,
                &mut self.rng,
            );
        }
        let Some(((u, v), score)) = choice.chosen else {
            return;
        };
        goal.toggle(&mut self.graph, u, v);
        self.tabu_until[u * n + v] = self.moves + TENURE_MIN + self.rng.below(TENURE_SPREAD);
        if score > self.best_score {
            self.best_score = score;
            self.best.clone_from(&self.graph);
        }
    }
}

/// The score of `graph` after each change, in the order of `changes`: the changes are cut
/// into one run per evaluator, each on a thread of its own where threads can start.
fn scan(
    graph: &Graph,
    changes: &[(usize, usize)],
    goal: Goal,
    evaluators: &mut [Evaluator],
) -> Vec<Score> {
    let score_all = |evaluator: &mut Evaluator, part: &[(usize, usize)]| {
        let mut changed = graph.clone();
        part.iter()
            .map(|&(u, v)| {
                goal.toggle(&mut changed, u, v);
                let score = goal.ranked(evaluator, &changed);
                goal.toggle(&mut changed, u, v);
                score
            })
            .collect::<Vec<Score>>()
    };
    let chunk = changes.len().div_ceil(evaluators.len()).max(1);
    if evaluators.len() == 1 || !cmg_solve::CAN_SPAWN_THREADS {
        return score_all(&mut evaluators[0], changes);
    }
    std::thread::scope(|scope| {
        let runs: Vec<_> = evaluators
            .iter_mut()
            .zip(changes.chunks(chunk))
            .map(|(evaluator, part)| scope.spawn(move || score_all(evaluator, part)))
            .collect();
        runs.into_iter()
            .flat_map(|run| run.join().expect("a scan does not panic"))
            .collect()
    })
}

/// Runs the rounds; the best graph is smaller than the request's size if the first round
/// did not reach it.
///
/// # Panics
///
/// Panics if the request's size is not above the first graph's (8 nodes).
pub(super) fn search(
    request: &Request,
    goal: Goal,
    mut go_on: impl FnMut(&Progress) -> bool,
) -> Walked {
    let n = request.nodes;
    assert!(
        n > FIRST_SIZE,
        "a round grows from {FIRST_SIZE} nodes, asked for {n}"
    );
    let mut evaluators: Vec<Evaluator> = (0..request.threads).map(|_| Evaluator::new()).collect();
    let mut seeds = Rng::new(request.seed);
    let mut round = Round::new(Rng::new(seeds.next_u64()), goal, &mut evaluators[0]);
    let mut best: Option<(Graph, u32)> = None;
    let mut steps_run = 0;
    loop {
        round.grow(goal, &mut evaluators);
        steps_run += 1;
        let size = round.size();
        if size == n {
            // Rounds are compared in the order they ran, so ties go the same way every run.
            let moves = round.best_score.0;
            if best.as_ref().is_none_or(|(_, longest)| moves > *longest) {
                best = Some((round.best.clone(), moves));
            }
        }
        let progress = Progress {
            steps_run,
            steps_planned: request.steps.max(1),
            nodes: size,
            best_moves: best
                .as_ref()
                .map_or(round.best_score.0, |&(_, moves)| moves),
            solves: evaluators.iter().map(Evaluator::solves).sum(),
        };
        if progress.ends(request, goal, &mut go_on) {
            break;
        }
        if size == n {
            round = Round::new(Rng::new(seeds.next_u64()), goal, &mut evaluators[0]);
        }
    }
    Walked {
        best: best.map_or(round.best, |(graph, _)| graph),
        steps_run,
        solves: evaluators.iter().map(Evaluator::solves).sum(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::Constraints;
    use crate::search::{search as search_any, Found, LEETCODE_ANY};

    /// The chase search on `nodes` nodes (below [`super::super::CHASE_MIN_NODES`] too) for
    /// `steps` steps on `threads` threads.
    fn chase(nodes: usize, steps: u32, seed: u64, threads: usize) -> Walked {
        let request = Request {
            threads,
            ..Request::new(nodes, seed, steps)
        };
        search(&request, LEETCODE_ANY, |_| true)
    }

    /// Whether the hole and one other node are a component of their own.
    fn hole_apart(graph: &Graph) -> bool {
        let rows = graph.rows();
        let partner = rows[0].trailing_zeros() as usize;
        rows[0] == 1 << partner && rows[partner] == 1
    }

    /// The first graph is a chase: the hole apart, the cat able to corner the mouse.
    #[test]
    fn the_first_graph_is_a_chase() {
        let graph = first_graph();
        assert!(graph.meets(Constraints::LeetCode));
        assert!(hole_apart(&graph));
        let longest = LEETCODE_ANY.best(&mut Evaluator::new(), &graph);
        assert!(longest.is_some_and(|start| start.winner == crate::Winner::Cat));
    }

    /// A request from [`super::super::CHASE_MIN_NODES`] nodes on is searched by chases: the
    /// graph given keeps the hole and its partner apart from the rest (after the renaming
    /// that puts the longest start on 1 and 2), meets LeetCode's constraints, and its game
    /// from the start is a long hunt the cat wins. One round at 36 nodes is 28 steps.
    #[test]
    fn from_the_chase_size_on_the_search_is_a_chase() {
        let found: Found = search_any(&Request::new(36, 40, 28), |_| true);
        assert!(found.graph.meets(Constraints::LeetCode));
        assert!(hole_apart(&found.graph));
        let (winner, moves) = found.result.expect("a decided game");
        assert_eq!(winner, crate::Winner::Cat);
        assert!(moves > 100, "{moves}");
        // The solver, not the search's evaluator, says so too.
        let game = cmg_solve::Game::new(&found.graph.adjacency(), Some(0));
        let start = cmg_solve::Position {
            mouse: 1,
            cat: 2,
            turn: cmg_solve::Player::Mouse,
        };
        let solution = cmg_solve::solve(&game);
        assert_eq!(solution.outcome(start), cmg_solve::Outcome::CatWins);
        assert_eq!(solution.moves_to_end(start), Some(moves));
        let length = |goal: Goal, walked: Walked| goal.score(&mut Evaluator::new(), &walked.best);
        let request = Request::new(36, 40, 28);
        assert_eq!(
            length(LEETCODE_ANY, search(&request, LEETCODE_ANY, |_| true)),
            moves
        );
        // A mouse win asked for, or a plan shorter than one round with no leave to go past
        // it: the annealing's game.
        let annealed = |request: &Request, goal: Goal| {
            let found = search_any(request, |_| true);
            let walked = crate::search::anneal::search(request, goal, |_| true);
            assert_eq!(
                found.result.map(|(_, moves)| moves),
                Some(length(goal, walked)),
                "{request:?}"
            );
        };
        annealed(&Request::new(36, 40, 27), LEETCODE_ANY);
        let mouse = Request {
            winner: Some(crate::Winner::Mouse),
            ..request
        };
        let wanted = Goal {
            wanted: mouse.winner,
            ..LEETCODE_ANY
        };
        annealed(&mouse, wanted);
        // With leave to go past it, a short plan is a chase.
        let beyond = Request {
            past_plan: true,
            ..Request::new(36, 40, 27)
        };
        assert!(hole_apart(
            &search_any(&beyond, |progress| progress.steps_run < 28).graph
        ));
    }

    /// Every round's graph keeps the hole apart, each step adds one node, and a round that
    /// reaches the full size starts the next from the first graph: after one round and two
    /// steps of the next, the best is the first round's graph, which the second round's
    /// steps cannot change until it is whole.
    #[test]
    fn rounds_grow_one_node_a_step_and_the_best_round_is_kept() {
        let one_round = chase(12, 4, 3, 1);
        assert_eq!(one_round.best.node_count(), 12);
        assert!(hole_apart(&one_round.best));
        let partial = chase(12, 2, 3, 1);
        assert_eq!(partial.best.node_count(), 10, "two steps, two nodes");
        let into_the_next = chase(12, 6, 3, 1);
        assert_eq!(into_the_next.best, one_round.best);
        // After each further round the best is never shorter, and the rounds differ.
        let score = |graph: &Graph| LEETCODE_ANY.score(&mut Evaluator::new(), graph);
        let bests: Vec<u32> = (1..=8)
            .map(|k| score(&chase(12, 4 * k, 3, 1).best))
            .collect();
        assert!(bests.windows(2).all(|pair| pair[0] <= pair[1]), "{bests:?}");
        assert!(bests[0] < bests[7], "a later round is longer: {bests:?}");
    }

    /// A fixed seed and number of steps give one graph, whatever the number of threads: the
    /// moves' scans are cut between threads but read in one order. Pinned at 14 nodes (one
    /// round and two steps), recorded from the search as it is.
    #[test]
    fn a_seed_and_steps_give_one_graph_on_any_number_of_threads() {
        let one = chase(14, 8, 5, 1);
        let two = chase(14, 8, 5, 2);
        let three = chase(14, 8, 5, 3);
        assert_eq!(two.best, one.best);
        assert_eq!(three.best, one.best);
        let moves = LEETCODE_ANY.score(&mut Evaluator::new(), &one.best);
        assert_eq!(
            (moves, one.best.rows()),
            (
                52,
                &[128, 1856, 4424, 8244, 6152, 1096, 550, 1, 1542, 322, 290, 12304, 2068, 2056][..]
            )
        );
    }
}
