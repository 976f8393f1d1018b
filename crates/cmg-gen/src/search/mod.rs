//! The search for a graph with a long game, on several threads, cut into *steps*: a step is
//! a fixed amount of work per thread, set by the node count alone, so the graph found
//! depends only on the request and on how many steps ran, never on how fast they ran. The
//! caller decides after each step whether to go on (a deadline, a cancel flag); the plan of
//! steps comes from the requested seconds, and a request may go on past it
//! ([`Request::past_plan`]) while the caller lets it.
//!
//! Three walks share that frame: up to [`TABU_MAX_NODES`] nodes, a tabu search over single
//! edge changes at the full size ([`tabu`]); above it, simulated annealing on a graph grown
//! one node at a time ([`anneal`]); from [`CHASE_MIN_NODES`] on, rounds of graphs whose hole
//! is out of play, each grown one node at a time by tabu walks ([`chase`]). docs/dev/gen.md
//! has the measurements behind the split.

mod anneal;
mod chase;
mod tabu;

use crate::eval::{Evaluator, Start, Starts, Winner};
use crate::graph::{Constraints, Graph};
use crate::variant::Variant;

/// What to search for.
#[derive(Clone, Debug)]
pub struct Request {
    /// The node count of the graph to find (3 to 64).
    pub nodes: usize,
    /// Only games this player wins count; `None`: either.
    pub winner: Option<Winner>,
    /// The steps planned (see [`planned_steps`]): they set how the graph grows, and the
    /// search ends after them unless the caller stops it earlier or `past_plan` is set.
    pub steps: u32,
    /// Go on after the plan, for as long as the caller's `go_on` says so: more steps of
    /// the same kind at the full size (the annealing from the best graph so far, the tabu
    /// walks where they are). A step's work does not depend on whether it is in the plan,
    /// so the first K steps of a run are the same with or without it. With it, `go_on`
    /// must end the search (a deadline, a step count).
    pub past_plan: bool,
    pub seed: u64,
    /// Threads that search side by side; each step waits for all of them.
    pub threads: usize,
    /// A graph to start from instead of growing one; its node count is `nodes`.
    pub from: Option<Graph>,
    /// Stop after the first step that found a game longer than this.
    pub longer_than: Option<u32>,
    pub constraints: Constraints,
}

impl Request {
    /// A search of `steps` steps on `nodes` nodes from `seed`, as far as the plan goes:
    /// either winner, one thread, grown from nothing, under LeetCode's constraints. The
    /// callers change the fields they need (`Request { winner, ..Request::new(…) }`).
    pub fn new(nodes: usize, seed: u64, steps: u32) -> Request {
        Request {
            nodes,
            winner: None,
            steps,
            past_plan: false,
            seed,
            threads: 1,
            from: None,
            longer_than: None,
            constraints: Constraints::LeetCode,
        }
    }
}

/// The plan's pace: `--seconds S` plans `S * STEPS_PER_SECOND` steps. A step of the
/// annealing takes 50 to 130 ms on an idle 2-core machine (two threads, 17 to 50 nodes; the
/// cost of a solve depends on the graph's shape as well as its size), one of the tabu
/// walks about 160 ms (9 to 16 nodes), so a plan ends before its deadline on such a
/// machine, and the CLI goes on past it ([`Request::past_plan`]) until the time is up;
/// when it does not end, the caller stops between steps. A faster pace (12
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

/// The smallest node count searched by chases ([`chase`]) when the request allows them (the
/// standard game, a cat win or either winner, grown from nothing, and a plan with room for
/// one round or leave to go past it: a shorter one would end on a small chase). From 36 nodes on the
/// chases found longer games than the annealing on every size and seed measured, below it
/// the annealing's games, the hole in play, were as long or longer (docs/dev/gen.md).
pub const CHASE_MIN_NODES: usize = 36;

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
///
/// In a variant the graph is in the search's labels (its holes on `0..h`), the starts are
/// the variant's ([`Evaluator::variant_starts`]), and a change toggles an arc when the
/// variant's edges are one-way.
#[derive(Clone, Copy)]
struct Goal {
    wanted: Option<Winner>,
    constraints: Constraints,
    variant: Option<Variant>,
}

impl Goal {
    fn starts(self, evaluator: &mut Evaluator, graph: &Graph) -> Starts {
        match &self.variant {
            None => evaluator.starts(graph, self.wanted, self.constraints),
            Some(variant) => evaluator.variant_starts(graph, self.wanted, variant),
        }
    }

    fn best(self, evaluator: &mut Evaluator, graph: &Graph) -> Option<Start> {
        self.starts(evaluator, graph).longest
    }

    fn score(self, evaluator: &mut Evaluator, graph: &Graph) -> u32 {
        self.best(evaluator, graph).map_or(0, |start| start.moves)
    }

    /// The score with a second key for ties, as the tabu walks rank graphs.
    fn ranked(self, evaluator: &mut Evaluator, graph: &Graph) -> Score {
        let starts = self.starts(evaluator, graph);
        (starts.longest.map_or(0, |start| start.moves), starts.total)
    }

    fn directed(self) -> bool {
        self.variant.is_some_and(|variant| variant.directed)
    }

    /// The changes a walk may make on `n` nodes, as `(u, v)` for [`Goal::toggle`]: every
    /// edge `u -- v` with `u < v`, or on directed graphs every arc `u -> v`.
    fn changes(self, n: usize) -> impl Iterator<Item = (usize, usize)> {
        let directed = self.directed();
        (0..n).flat_map(move |u| {
            (if directed { 0 } else { u + 1 }..n)
                .filter(move |&v| v != u)
                .map(move |v| (u, v))
        })
    }

    /// Adds or removes the edge `u -- v`, or the arc `u -> v` on directed graphs.
    fn toggle(self, graph: &mut Graph, u: usize, v: usize) {
        if self.directed() {
            graph.toggle_arc(u, v);
        } else {
            graph.toggle(u, v);
        }
    }

    /// Whether the change of `u` and `v` keeps the constraints (a variant has none).
    fn keeps(self, graph: &Graph, u: usize, v: usize) -> bool {
        graph.toggle_keeps(u, v, self.constraints)
    }

    /// The longest game there can be: a game longer than the variant's turn limit is a draw.
    fn cap(self) -> Option<u32> {
        self.variant.and_then(|variant| variant.limit)
    }
}

/// Either winner, any graph, LeetCode 913's game: the goal of the walks' own tests.
#[cfg(test)]
const ANY_GRAPH: Goal = Goal {
    wanted: None,
    constraints: Constraints::None,
    variant: None,
};

/// Either winner under LeetCode 913's constraints: the goal of a plain `cmg gen`, for the
/// walks' own tests.
#[cfg(test)]
const LEETCODE_ANY: Goal = Goal {
    wanted: None,
    constraints: Constraints::LeetCode,
    variant: None,
};

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
    /// Whether the search ends after this step: the plan is done (unless the request goes
    /// on past it), a game longer than the request's `longer_than` was found, a game as
    /// long as the variant's turn limit (none can be longer), or `go_on` says stop.
    fn ends(
        &self,
        request: &Request,
        goal: Goal,
        go_on: &mut impl FnMut(&Progress) -> bool,
    ) -> bool {
        let done = request
            .longer_than
            .is_some_and(|limit| self.best_moves > limit)
            || goal.cap().is_some_and(|cap| self.best_moves >= cap);
        // `go_on` sees the plan's last step too (a progress line shows it).
        done || !go_on(self)
            || !request.past_plan && self.steps_run >= self.steps_planned
            || self.steps_run == u32::MAX
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
    run(request, None, go_on)
}

/// [`search`] in a variant: the longest game under its rules, on graphs whose holes and
/// start are where `variant` puts them (directed graphs when its edges are one-way). The
/// request's constraints do not apply: a variant is not LeetCode 913's puzzle, and any
/// graph is one of its boards.
///
/// # Panics
///
/// As [`search`], and if the variant does not fit `nodes` ([`Variant::unfit`]).
pub fn search_variant(
    request: &Request,
    variant: &Variant,
    go_on: impl FnMut(&Progress) -> bool,
) -> Found {
    if let Some(why) = variant.unfit(request.nodes) {
        panic!("the variant does not fit {} nodes: {why}", request.nodes);
    }
    run(request, Some(*variant), go_on)
}

fn run(request: &Request, variant: Option<Variant>, go_on: impl FnMut(&Progress) -> bool) -> Found {
    let n = request.nodes;
    assert!(
        (3..=crate::MAX_NODES).contains(&n),
        "3 to 64 nodes, got {n}"
    );
    assert!(request.threads > 0);
    if let Some(graph) = &request.from {
        assert_eq!(graph.node_count(), n);
    }
    // A graph to start from is in the variant's labels; the search's keep the holes first.
    let renamed;
    let request = match (variant, &request.from) {
        (Some(variant), Some(graph)) => {
            renamed = Request {
                from: Some(graph.relabelled(&variant.search_order(n))),
                ..request.clone()
            };
            &renamed
        }
        _ => request,
    };
    let goal = Goal {
        wanted: request.winner,
        constraints: match variant {
            Some(_) => Constraints::None,
            None => request.constraints,
        },
        variant,
    };
    let chases = n >= CHASE_MIN_NODES
        && variant.is_none()
        && request.from.is_none()
        && request.winner != Some(Winner::Mouse)
        && (request.past_plan || request.steps >= chase::round_steps(n));
    let walked = if n <= TABU_MAX_NODES {
        tabu::search(request, goal, go_on)
    } else if chases {
        chase::search(request, goal, go_on)
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
    // ends there), so the game from the start stays what it was. In a variant (where the
    // cat may enter the holes) they stay alone, which no game reaches either.
    while best.node_count() < n {
        best.push_node();
        let last = best.node_count() - 1;
        if goal.variant.is_none() {
            best.toggle(last, 0);
        }
    }
    let start = goal.best(&mut Evaluator::new(), &best);
    Found {
        graph: match (start, goal.variant) {
            (Some(start), None) => best.relabelled(&start.order(n)),
            (Some(start), Some(variant)) => {
                best.relabelled(&variant.order(n, (start.mouse, start.cat)))
            }
            (None, _) => best,
        },
        result: start.map(|start| (start.winner, start.moves)),
        steps_run,
        steps_planned,
        solves: solves + 1,
    }
}

#[cfg(test)]
mod tests {
    use super::{planned_steps, search, search_variant, Request};
    use crate::{Constraints, Graph, Variant, Winner};
    use cmg_solve::{solve, Game, Outcome, Player, Position, Rules};

    fn request(nodes: usize, steps: u32, seed: u64) -> Request {
        Request::new(nodes, seed, steps)
    }

    fn pinned(nodes: usize, steps: u32, seed: u64) -> (Option<(Winner, u32)>, Vec<u64>) {
        let found = search(&request(nodes, steps, seed), |_| true);
        (found.result, found.graph.rows().to_vec())
    }

    /// LeetCode 913's game as a variant: hole 0, the mouse on 1 and first, the cat on 2.
    const STANDARD: Variant = Variant {
        holes: 1,
        mouse: 1,
        cat: 2,
        cat_first: false,
        cat_enters_holes: false,
        limit: None,
        directed: false,
    };

    /// The winner and moves of `graph`'s game from the variant's start, under its rules,
    /// by `cmg_solve`.
    fn solved(graph: &Graph, variant: &Variant) -> Option<(Winner, u32)> {
        let holes = (0..64)
            .filter(|&node| variant.holes >> node & 1 == 1)
            .collect();
        let game = Game::with_rules(
            &graph.adjacency(),
            Rules {
                holes,
                cat_enters_holes: variant.cat_enters_holes,
                limit: variant.limit,
                cat_on_holes: false,
            },
        );
        let start = Position {
            mouse: variant.mouse as u32,
            cat: variant.cat as u32,
            turn: if variant.cat_first {
                Player::Cat
            } else {
                Player::Mouse
            },
        };
        let solution = solve(&game);
        match (solution.outcome(start), solution.moves_to_end(start)) {
            (Outcome::MouseWins, Some(moves)) => Some((Winner::Mouse, moves)),
            (Outcome::CatWins, Some(moves)) => Some((Winner::Cat, moves)),
            _ => None,
        }
    }

    /// LeetCode 913's game searched as a variant takes the variant's evaluator and gives
    /// the standard search's graph (both without constraints): the two evaluators score
    /// every graph of both walks alike, at 9 nodes (tabu) and 18 (annealing).
    #[test]
    fn the_standard_game_as_a_variant_gives_the_standard_graph() {
        for (nodes, steps) in [(9, 3), (18, 3)] {
            let request = Request {
                constraints: Constraints::None,
                ..request(nodes, steps, 5)
            };
            let standard = search(&request, |_| true);
            let variant = search_variant(&request, &STANDARD, |_| true);
            assert_eq!(variant.result, standard.result, "{nodes} nodes");
            assert_eq!(variant.graph, standard.graph, "{nodes} nodes");
        }
    }

    /// A variant's search hands back a graph with its holes and start where the variant
    /// puts them, whose game there, solved by `cmg_solve` under the variant's rules, is the
    /// one claimed; on directed graphs it changes arcs, not edges.
    #[test]
    fn a_variant_search_claims_what_the_solver_finds() {
        let variants = [
            Variant {
                holes: 1 << 5 | 1,
                mouse: 3,
                cat: 1,
                cat_first: true,
                ..STANDARD
            },
            Variant {
                directed: true,
                ..STANDARD
            },
            Variant {
                holes: 1 << 2,
                mouse: 0,
                cat: 6,
                cat_enters_holes: true,
                directed: true,
                ..STANDARD
            },
            Variant {
                limit: Some(9),
                ..STANDARD
            },
        ];
        let mut one_way = 0;
        for (case, variant) in variants.iter().enumerate() {
            for (nodes, steps) in [(7, 2), (17, 2)] {
                let found =
                    search_variant(&request(nodes, steps, 1 + case as u64), variant, |_| true);
                let result = found.result.expect("a decided game");
                assert!(result.1 > 2, "case {case}: a real game, {result:?}");
                assert_eq!(
                    solved(&found.graph, variant),
                    found.result,
                    "case {case}, {nodes} nodes"
                );
                let rows = found.graph.rows();
                one_way += (0..nodes)
                    .flat_map(|u| (0..nodes).map(move |v| (u, v)))
                    .filter(|&(u, v)| rows[u] >> v & 1 == 1 && rows[v] >> u & 1 == 0)
                    .count();
                if !variant.directed {
                    assert!(
                        found.graph
                            == Graph::from_adjacency(&found.graph.adjacency()).expect("small"),
                        "case {case}: undirected"
                    );
                }
            }
        }
        assert!(
            one_way > 10,
            "the directed searches made one-way arcs: {one_way}"
        );
    }

    /// Under a turn limit no game is longer than the limit: the search reaches it and
    /// stops there, before its plan is done.
    #[test]
    fn a_variant_with_a_limit_stops_at_the_limit() {
        let variant = Variant {
            limit: Some(6),
            ..STANDARD
        };
        let found = search_variant(&request(9, 40, 2), &variant, |_| true);
        assert_eq!(found.result.map(|(_, moves)| moves), Some(6));
        assert!(found.steps_run < 40, "{}", found.steps_run);
        assert_eq!(solved(&found.graph, &variant), found.result);
        // Without the limit the same search finds a longer game.
        let free = search(&request(9, 3, 2), |_| true);
        assert!(free.result.is_some_and(|(_, moves)| moves > 6));
    }

    /// Past the plan the search goes on for as long as `go_on` lets it, in both walks:
    /// the steps run are the ones asked for, the first steps are the plan's own (stopped
    /// inside the plan, it gives what a search without `past_plan` gives), the best only
    /// gets longer, and the same count gives the same graph again. Without `past_plan`
    /// the plan ends it whatever `go_on` says.
    #[test]
    fn past_the_plan_the_caller_decides_when_to_stop() {
        for nodes in [11, 18] {
            let plan = request(nodes, 3, 4);
            let beyond = Request {
                past_plan: true,
                ..plan.clone()
            };
            let stop_at = |last: u32| move |progress: &super::Progress| progress.steps_run < last;
            let planned = search(&plan, |_| true);
            assert_eq!(planned.steps_run, 3, "{nodes} nodes");
            let within = search(&beyond, stop_at(3));
            assert_eq!(within.steps_run, 3, "{nodes} nodes");
            assert_eq!(within.graph, planned.graph, "{nodes} nodes");
            let longer = search(&beyond, stop_at(9));
            assert_eq!(longer.steps_run, 9, "{nodes} nodes");
            assert_eq!(longer.steps_planned, 3, "{nodes} nodes");
            let moves = |found: &super::Found| found.result.map_or(0, |(_, moves)| moves);
            assert!(moves(&longer) >= moves(&planned), "{nodes} nodes");
            let again = search(&beyond, stop_at(9));
            assert_eq!(again.graph, longer.graph, "{nodes} nodes");
        }
    }

    /// Stopped while the graph still grows, the search gives a graph of the size asked
    /// for: the missing nodes hang off the hole, out of both players' reach, so the game
    /// it claims is the one from the start of the graph it gives.
    #[test]
    fn a_search_stopped_while_growing_gives_the_full_size() {
        let grown = search(&request(30, 40, 2), |progress| progress.steps_run < 2);
        assert_eq!(grown.steps_run, 2);
        let graph = &grown.graph;
        assert_eq!(graph.node_count(), 30);
        assert!(graph.meets(Constraints::LeetCode));
        assert_eq!(grown.result, solved(graph, &STANDARD));
        assert!(graph.rows()[29] == 1, "the last node hangs off the hole");
    }

    /// `--seconds S` plans `S * STEPS_PER_SECOND` steps, at least one.
    #[test]
    fn the_plan_has_four_steps_a_second() {
        assert_eq!(planned_steps(60.0), 240);
        assert_eq!(planned_steps(0.01), 1);
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
                Some((Winner::Cat, 94)),
                vec![
                    128, 4368, 166720, 28704, 13442, 18888, 3108, 13873, 9766, 231812, 33232,
                    156260, 154, 231832, 67624, 140804, 156160, 109060
                ]
            )
        );
        // Two threads: the walks share the step's work differently.
        let two = search(
            &Request {
                threads: 2,
                ..request(13, 2, 3)
            },
            |_| true,
        );
        assert_eq!(
            (two.result, two.graph.rows()),
            (
                Some((Winner::Mouse, 51)),
                &[224, 5388, 5178, 6950, 3780, 4173, 3761, 5713, 5642, 1496, 982, 4184, 2478][..]
            )
        );
    }
}
