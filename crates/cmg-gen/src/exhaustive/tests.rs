//! The exhaustive search against a plain brute force over every labelled graph, the
//! published counts of graphs, and the known maxima; parts, threads and skipped tasks
//! against the whole.

use super::{Exhaustive, Longest, Part, Plan};
use crate::eval::{Evaluator, Winner};
use crate::graph::{Constraints, Graph};

fn request(nodes: usize, winner: Option<Winner>, constraints: Constraints) -> Exhaustive {
    Exhaustive {
        nodes,
        winner,
        constraints,
        threads: 2,
        part: Part::WHOLE,
    }
}

fn whole(request: Exhaustive) -> Longest {
    Plan::new(request).run(&|_| false, &|_, _| {}, &|| true)
}

/// The longest game over every labelled graph on `n` nodes (node 0 the hole, 1 the
/// mouse, 2 the cat), one solve from the start each: the definition, written plainly.
fn brute_force(n: usize, winner: Option<Winner>, constraints: Constraints) -> Option<u32> {
    let pairs: Vec<(usize, usize)> = (0..n)
        .flat_map(|u| (u + 1..n).map(move |v| (u, v)))
        .collect();
    let mut evaluator = Evaluator::new();
    let mut longest = None;
    for edges in 0u64..1 << pairs.len() {
        let mut graph = Graph::empty(n);
        for (i, &(u, v)) in pairs.iter().enumerate() {
            if edges >> i & 1 == 1 {
                graph.toggle(u, v);
            }
        }
        if !graph.meets(constraints) {
            continue;
        }
        if let Some((won, moves)) = evaluator.start(&graph) {
            if winner.is_none_or(|w| w == won) && longest.is_none_or(|most| moves > most) {
                longest = Some(moves);
            }
        }
    }
    longest
}

use cmg_solve::test_env::slow_tests as slow;

/// Up to 6 nodes (7 with `CMG_SLOW_TESTS`), for either winner, the mouse and the cat,
/// under both constraints: the same length as the brute force, and a graph that has it.
#[test]
fn agrees_with_a_brute_force_over_every_labelled_graph() {
    let largest = if slow() { 7 } else { 6 };
    let mut evaluator = Evaluator::new();
    for n in 3..=largest {
        for constraints in [Constraints::LeetCode, Constraints::None] {
            for winner in [None, Some(Winner::Mouse), Some(Winner::Cat)] {
                let found = whole(request(n, winner, constraints));
                let expected = brute_force(n, winner, constraints);
                let best = found.best.as_ref().map(|best| best.moves);
                assert_eq!(best, expected, "{n} nodes, {winner:?}, {constraints:?}");
                if let Some(best) = found.best {
                    assert!(best.graph.meets(constraints), "{best:?}");
                    assert_eq!(best.graph.node_count(), n);
                    assert_eq!(
                        evaluator.start(&best.graph),
                        Some((best.winner, best.moves))
                    );
                    assert!(winner.is_none_or(|w| w == best.winner));
                }
            }
        }
    }
}

/// The graph printed, pinned at 5 to 8 nodes: among the longest games, the one whose rows
/// come first, whichever order the graphs and holes are examined in (and however early
/// a graph that cannot beat the best so far is passed over).
#[test]
fn the_longest_games_printed_are_pinned() {
    let pinned: [(usize, Option<Winner>, u32, &[u64]); 5] = [
        (5, None, 5, &[4, 12, 3, 18, 8]),
        (7, None, 12, &[32, 88, 64, 50, 42, 89, 38]),
        (7, Some(Winner::Mouse), 9, &[12, 20, 3, 33, 66, 72, 48]),
        (8, None, 17, &[164, 120, 105, 54, 202, 143, 150, 113]),
        (
            8,
            Some(Winner::Cat),
            16,
            &[64, 88, 192, 50, 138, 200, 39, 52],
        ),
    ];
    for (n, winner, moves, rows) in pinned {
        let best = whole(request(n, winner, Constraints::LeetCode))
            .best
            .unwrap();
        assert_eq!(
            (best.moves, best.graph.rows()),
            (moves, rows),
            "{n} {winner:?}"
        );
    }
}

/// One graph per isomorphism class: graphs with no isolated node (OEIS A002494) under
/// the puzzle's constraints, all graphs (OEIS A000088) without.
#[test]
fn examines_one_graph_per_class() {
    let no_isolated = [2, 7, 23, 122, 888, 11_302];
    let all = [4, 11, 34, 156, 1_044, 12_346];
    for (i, n) in (3..=8).enumerate() {
        assert_eq!(
            whole(request(n, None, Constraints::LeetCode)).graphs,
            no_isolated[i],
            "{n} nodes"
        );
        assert_eq!(
            whole(request(n, None, Constraints::None)).graphs,
            all[i],
            "{n} nodes"
        );
    }
}

/// `each_graph` visits as many graphs as the search examines, each meeting the rule.
#[test]
fn each_graph_visits_one_graph_per_class() {
    for n in 3..=7 {
        let mut count = 0u64;
        super::each_graph(n, Constraints::LeetCode, &mut |graph| {
            assert!(graph.rows().iter().all(|&row| row != 0));
            count += 1;
        });
        assert_eq!(count, whole(request(n, None, Constraints::LeetCode)).graphs);
    }
    // One node: alone, so no graph under LeetCode's constraints, and one without them.
    for (constraints, graphs) in [(Constraints::LeetCode, 0), (Constraints::None, 1)] {
        let mut count = 0;
        super::each_graph(1, constraints, &mut |_| count += 1);
        assert_eq!(count, graphs, "{constraints:?}");
    }
}

/// The longest games an outside exhaustive search found, 3 to 8 nodes. With
/// `CMG_SLOW_TESTS`, 9 nodes too: 262 322 graphs (the published count) and 25 moves,
/// which this search found (the longest published game there is 24).
#[test]
fn finds_the_known_maxima() {
    let mut known = vec![(3, 1), (4, 3), (5, 5), (6, 8), (7, 12), (8, 17)];
    if slow() {
        known.push((9, 25));
    }
    for (n, moves) in known {
        let found = whole(request(n, None, Constraints::LeetCode));
        assert_eq!(found.best.map(|best| best.moves), Some(moves), "{n} nodes");
        if n == 9 {
            assert_eq!(found.graphs, 262_322);
        }
    }
}

/// Parts merge to the whole, threads change nothing, and tasks skipped in one run and
/// run in another (a resumed checkpoint) give the whole too.
#[test]
fn parts_threads_and_resumed_runs_give_the_whole() {
    let base = request(7, None, Constraints::LeetCode);
    let all = whole(base);
    let mut merged = Longest::default();
    let mut seen = Vec::new();
    for index in 0..3 {
        let plan = Plan::new(Exhaustive {
            part: Part { index, count: 3 },
            ..base
        });
        seen.extend(plan.part_tasks());
        merged.merge(plan.run(&|_| false, &|_, _| {}, &|| true));
    }
    seen.sort_unstable();
    assert_eq!(seen, (0..Plan::new(base).task_count()).collect::<Vec<_>>());
    assert_eq!(merged, all);
    assert_eq!(whole(Exhaustive { threads: 1, ..base }), all);
    assert_eq!(whole(Exhaustive { threads: 5, ..base }), all);
    let plan = Plan::new(base);
    let first_half = plan.task_count() / 2;
    let done = std::sync::Mutex::new(Vec::new());
    let mut resumed = plan.run(
        &|task| task >= first_half,
        &|task, _| done.lock().unwrap().push(task),
        &|| true,
    );
    assert_eq!(done.lock().unwrap().len(), first_half);
    resumed.merge(plan.run(&|task| task < first_half, &|_, _| {}, &|| true));
    assert_eq!(resumed, all);
}

/// Graph by graph, not only the maximum: the longest start `examine` finds on each
/// graph of 3 to 6 nodes is the longest of every choice of hole, mouse and cat, solved
/// one by one from the relabelled graph. A rule that left out some starts (the cat on a
/// leaf, say) changes the longest game of some graph even where it leaves the maximum.
#[test]
fn each_graphs_longest_start_is_the_longest_of_every_start() {
    let mut evaluator = Evaluator::new();
    let mut checked = 0;
    for n in 3..=6 {
        for constraints in [Constraints::LeetCode, Constraints::None] {
            super::each_graph(n, constraints, &mut |graph| {
                let mut found = Longest::default();
                super::examine(graph, None, constraints, &mut evaluator, &mut found);
                let mut longest = None;
                for hole in 0..n {
                    for mouse in (0..n).filter(|&m| m != hole) {
                        for cat in (0..n).filter(|&c| c != hole && c != mouse) {
                            let mut order = vec![hole, mouse, cat];
                            order.extend((0..n).filter(|v| ![hole, mouse, cat].contains(v)));
                            let labelled = graph.relabelled(&order);
                            // The cat must have a move besides the hole (LeetCode's
                            // constraint on node 2); the rest holds for the graph.
                            if constraints == Constraints::LeetCode && labelled.rows()[2] & !1 == 0
                            {
                                continue;
                            }
                            if let Some((_, moves)) = evaluator.start(&labelled) {
                                longest = longest.max(Some(moves));
                            }
                        }
                    }
                }
                assert_eq!(
                    found.best.as_ref().map(|best| best.moves),
                    longest,
                    "{:?}",
                    graph.adjacency()
                );
                checked += 1;
            });
        }
    }
    assert!(checked > 300, "{checked}");
}

/// The solve of every hole at once against the evaluator's solve of each hole, graph by
/// graph: the same longest game, winner and graph printed (ties included), for either
/// winner and both constraints, on every graph of 3 to 7 nodes (symmetric ones too) and
/// on random graphs of up to 16 nodes, some with nodes alone.
#[test]
fn every_hole_at_once_agrees_with_hole_by_hole() {
    let mut evaluator = Evaluator::new();
    let mut compare = |graph: &Graph, constraints: Constraints, longest: &mut u32| {
        for winner in [None, Some(Winner::Mouse), Some(Winner::Cat)] {
            let mut at_once = Longest::default();
            super::every_hole::examine(graph, winner, constraints, &mut at_once);
            let mut one_by_one = Longest::default();
            super::hole_by_hole(graph, winner, constraints, &mut evaluator, &mut one_by_one);
            assert_eq!(at_once, one_by_one, "{winner:?}, {:?}", graph.adjacency());
            if let Some(best) = at_once.best {
                *longest = (*longest).max(best.moves);
            }
        }
    };
    let mut longest = 0;
    for n in 3..=7 {
        for constraints in [Constraints::LeetCode, Constraints::None] {
            super::each_graph(n, constraints, &mut |graph| {
                compare(graph, constraints, &mut longest)
            });
        }
    }
    assert_eq!(longest, 12);
    let mut rng = crate::rng::Rng::new(5);
    for case in 0..600 {
        let n = 3 + case % 14;
        let mut graph = Graph::empty(n);
        for u in 0..n {
            for v in u + 1..n {
                if rng.below(100) < [15, 25, 40][case % 3] {
                    graph.toggle(u, v);
                }
            }
        }
        compare(&graph, Constraints::None, &mut longest);
        if graph.meets(Constraints::LeetCode) {
            compare(&graph, Constraints::LeetCode, &mut longest);
        }
    }
    assert!(longest > 20, "{longest}");
}
