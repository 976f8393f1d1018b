//! Tests of the solver against a deliberately simple reference solver, the puzzle's examples and known long games.

use std::sync::atomic::AtomicBool;

use cmg_solve::{
    solve, solve_cancellable, solve_with, Config, Engine, Game, Outcome, Player, Position,
};
use proptest::prelude::*;

use cmg_solve::reference::check_against_reference;
pub(crate) use cmg_solve::reference::ReferenceGame;
use cmg_solve::test_rng::XorShift;

fn case_count() -> u32 {
    if crate::common::slow_tests() {
        4096
    } else {
        1024
    }
}

/// Random undirected graphs of up to 12 nodes, sparse to dense, with or without a hole, some
/// with isolated nodes and with nodes whose only neighbour is the hole.
fn undirected_graph() -> impl Strategy<Value = (Vec<Vec<u32>>, Option<u32>)> {
    (1..=12usize).prop_flat_map(|n| {
        (
            prop::collection::vec(any::<u8>(), n * n),
            any::<u8>(),
            prop::collection::vec(0..8u8, n),
            prop_oneof![3 => Just(Some(0)), 1 => Just(None), 1 => (0..n as u32).prop_map(Some)],
        )
            .prop_map(move |(coins, density, kinds, hole)| {
                let mut adjacency = vec![Vec::new(); n];
                for a in 0..n {
                    for b in a + 1..n {
                        if coins[a * n + b] < density {
                            adjacency[a].push(b as u32);
                            adjacency[b].push(a as u32);
                        }
                    }
                }
                for (node, &kind) in kinds.iter().enumerate() {
                    if Some(node as u32) == hole {
                        continue;
                    }
                    // Kind 0 cuts the node off; kind 1 leaves it hanging on the hole alone.
                    if kind <= 1 {
                        for list in adjacency.iter_mut() {
                            list.retain(|&next| next != node as u32);
                        }
                        adjacency[node].clear();
                        if let (1, Some(hole)) = (kind, hole) {
                            adjacency[node].push(hole);
                            adjacency[hole as usize].push(node as u32);
                        }
                    }
                }
                (adjacency, hole)
            })
    })
}

/// Random lists that break the undirected promise: one-sided moves, self-loops, duplicates and
/// out-of-range neighbours, which the solver must take as given instead of panicking.
fn one_sided_graph() -> impl Strategy<Value = (Vec<Vec<u32>>, Option<u32>)> {
    (1..=9usize).prop_flat_map(|n| {
        (
            prop::collection::vec(prop::collection::vec(0..n as u32 + 2, 0..6), n),
            prop_oneof![Just(Some(0)), Just(None), Just(Some(n as u32 + 3))],
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(case_count()))]

    #[test]
    fn agrees_with_reference_on_undirected_graphs((adjacency, hole) in undirected_graph()) {
        check_against_reference(&adjacency, hole);
    }

    #[test]
    fn agrees_with_reference_on_one_sided_lists((adjacency, hole) in one_sided_graph()) {
        check_against_reference(&adjacency, hole);
    }

    /// Every engine under any combination of rules, against the general game's reference
    /// with its own turn-limited backward induction: outcome and moves of every position
    /// under every limit, and the optimal lines.
    #[test]
    fn agrees_with_the_variant_reference_under_any_rules(
        (adjacency, rules) in graph_with_rules()
    ) {
        cmg_solve::variant_reference::check_variant(&adjacency, &rules);
    }
}

/// Random moves (one-way edges, repeats, self-loops and out-of-range entries included)
/// of up to 8 nodes, under random rules: no hole to several, the cat in the holes or not,
/// a turn limit or none.
fn graph_with_rules() -> impl Strategy<Value = (Vec<Vec<u32>>, cmg_solve::Rules)> {
    (1..=8usize).prop_flat_map(|n| {
        (
            prop::collection::vec(prop::collection::vec(0..n as u32 + 1, 0..5), n),
            prop::collection::vec(0..n as u32 + 1, 0..4),
            any::<bool>(),
            prop::option::of(0..14u32),
            any::<bool>(),
        )
            .prop_map(
                |(adjacency, holes, cat_enters_holes, limit, cat_on_holes)| {
                    let rules = cmg_solve::Rules {
                        holes,
                        cat_enters_holes,
                        limit,
                        cat_on_holes,
                    };
                    (adjacency, rules)
                },
            )
    })
}

fn start() -> Position {
    Position {
        mouse: 1,
        cat: 2,
        turn: Player::Mouse,
    }
}

/// Solves a puzzle-style graph (node `i` is index `i`, the hole is node 0) and reports the start position.
fn solve_puzzle(adjacency: &[Vec<u32>]) -> (Outcome, Option<u32>) {
    check_against_reference(adjacency, Some(0));
    let solution = solve(&Game::new(adjacency, Some(0)));
    (solution.outcome(start()), solution.moves_to_end(start()))
}

#[test]
fn puzzle_example_one_is_a_draw() {
    let adjacency = [
        vec![2, 5],
        vec![3],
        vec![0, 4, 5],
        vec![1, 4, 5],
        vec![2, 3],
        vec![0, 2, 3],
    ];
    assert_eq!(solve_puzzle(&adjacency), (Outcome::Draw, None));
    assert_eq!(Outcome::Draw.code(), 0);
}

#[test]
fn puzzle_example_two_is_won_by_the_mouse_at_once() {
    let adjacency = [vec![1, 3], vec![0], vec![3], vec![0, 2]];
    assert_eq!(solve_puzzle(&adjacency), (Outcome::MouseWins, Some(1)));
    let solution = solve(&Game::new(&adjacency, Some(0)));
    assert_eq!(solution.best_move(start()), Some(0));
    assert_eq!(Outcome::MouseWins.code(), 1);
    assert_eq!(Outcome::CatWins.code(), 2);
}

/// The published 10-node graph on which turn-limited solvers answer "draw".
fn ten_node_long_game() -> [Vec<u32>; 10] {
    [
        vec![5, 7, 9],
        vec![3, 4, 5, 6],
        vec![3, 4, 5, 8],
        vec![1, 2, 6, 7],
        vec![1, 2, 5, 7, 9],
        vec![0, 1, 2, 4, 8],
        vec![1, 3, 7, 8],
        vec![0, 3, 4, 6, 8],
        vec![2, 5, 6, 7, 9],
        vec![0, 4, 8],
    ]
}

#[test]
fn ten_node_game_is_won_by_the_mouse_in_21_moves() {
    let adjacency = ten_node_long_game();
    assert_eq!(solve_puzzle(&adjacency), (Outcome::MouseWins, Some(21)));
    let line = solve(&Game::new(&adjacency, Some(0))).line(start());
    assert_eq!(line.len(), 22);
    assert_eq!(line.last().unwrap().mouse, 0);
}

/// Renders a line compactly, one `mouse/cat/mover` triple per position, for snapshots.
fn render_line(line: &[Position]) -> String {
    let steps: Vec<String> = line
        .iter()
        .map(|pos| {
            let mover = match pos.turn {
                Player::Mouse => 'M',
                Player::Cat => 'C',
            };
            format!("{}/{}{mover}", pos.mouse, pos.cat)
        })
        .collect();
    steps.join(" ")
}

#[test]
fn ten_node_game_line() {
    let adjacency = ten_node_long_game();
    let line = solve(&Game::new(&adjacency, Some(0))).line(start());
    expect_test::expect!["1/2M 6/2C 6/8M 3/8C 3/6M 2/6C 2/1M 8/1C 8/4M 6/4C 6/7M 1/7C 1/4M 3/4C 3/7M 2/7C 2/4M 8/4C 8/1M 7/1C 7/3M 0/3C"].assert_eq(&render_line(&line));
}

// The long games below were found by hill-climbing random graphs with the solver; the reference
// solver confirms every position of each of them.

#[test]
fn nine_node_game_is_won_by_the_cat_in_26_moves() {
    let adjacency = [
        vec![],
        vec![3, 5],
        vec![5, 6, 8],
        vec![1, 4, 5, 6],
        vec![3, 7, 8],
        vec![1, 2, 3],
        vec![2, 3, 7],
        vec![4, 6, 8],
        vec![2, 4, 7],
    ];
    assert_eq!(solve_puzzle(&adjacency), (Outcome::CatWins, Some(26)));
}

#[test]
fn another_ten_node_game_is_won_by_the_mouse_in_27_moves() {
    let adjacency = [
        vec![3, 4],
        vec![2, 4, 9],
        vec![1, 4, 5, 8],
        vec![0, 6, 7, 8],
        vec![0, 1, 2, 6, 7],
        vec![2, 7, 8, 9],
        vec![3, 4, 8, 9],
        vec![3, 4, 5, 9],
        vec![2, 3, 5, 6],
        vec![1, 5, 6, 7],
    ];
    assert_eq!(solve_puzzle(&adjacency), (Outcome::MouseWins, Some(27)));
}

#[test]
fn twelve_node_game_is_won_by_the_mouse_in_39_moves() {
    let adjacency = [
        vec![3, 7],
        vec![3, 4, 7, 9],
        vec![3, 5, 7, 9, 11],
        vec![0, 1, 2, 5, 6, 8, 11],
        vec![1, 6, 7, 10, 11],
        vec![2, 3, 6, 9, 10],
        vec![3, 4, 5, 10, 11],
        vec![0, 1, 2, 4, 8, 9, 10],
        vec![3, 7, 10, 11],
        vec![1, 2, 5, 7, 10],
        vec![4, 5, 6, 7, 8, 9],
        vec![2, 3, 4, 6, 8],
    ];
    assert_eq!(solve_puzzle(&adjacency), (Outcome::MouseWins, Some(39)));
}

#[test]
fn twelve_node_game_is_won_by_the_cat_in_46_moves() {
    let adjacency = [
        vec![8],
        vec![2, 3, 9, 11],
        vec![1, 3, 4, 5, 8, 10],
        vec![1, 2, 6, 8],
        vec![2, 6, 7, 10, 11],
        vec![2, 8, 11],
        vec![3, 4, 7, 8, 10],
        vec![4, 6, 8],
        vec![0, 2, 3, 5, 6, 7, 11],
        vec![1, 10, 11],
        vec![2, 4, 6, 9, 11],
        vec![1, 4, 5, 8, 9, 10],
    ];
    assert_eq!(solve_puzzle(&adjacency), (Outcome::CatWins, Some(46)));
}

#[test]
fn cancelled_solve_gives_up() {
    let game = Game::new(&[vec![1, 3], vec![0], vec![3], vec![0, 2]], Some(0));
    assert!(solve_cancellable(&game, &AtomicBool::new(true)).is_none());
}

#[test]
fn uncancelled_solve_matches_solve() {
    let adjacency: Vec<Vec<u32>> = (0..40u32)
        .map(|node| {
            [(node + 1) % 40, (node + 39) % 40, (node * 7 + 3) % 40]
                .into_iter()
                .collect()
        })
        .collect();
    let game = Game::new(&adjacency, Some(0));
    let plain = solve(&game);
    let cancellable =
        solve_cancellable(&game, &AtomicBool::new(false)).expect("the flag is never set");
    assert_eq!(cancellable.game(), &game);
    for mouse in 0..40 {
        for cat in 0..40 {
            for turn in [Player::Mouse, Player::Cat] {
                let pos = Position { mouse, cat, turn };
                assert_eq!(plain.outcome(pos), cancellable.outcome(pos));
                assert_eq!(plain.moves_to_end(pos), cancellable.moves_to_end(pos));
            }
        }
    }
}

#[test]
fn game_normalises_its_lists() {
    let game = Game::new(&[vec![2, 1, 1, 0, 9], vec![0, 2], vec![1, 0, 0]], Some(0));
    assert_eq!(game.node_count(), 3);
    assert_eq!(game.edge_count(), 3);
    assert_eq!(game.neighbours(0), &[1, 2]);
    assert_eq!(game.neighbours(2), &[0, 1]);
    assert_eq!(game.hole(), Some(0));
    assert_eq!(Game::new(&[vec![]], Some(1)).hole(), None);
    let empty = Game::new(&[], None);
    assert_eq!((empty.node_count(), empty.edge_count()), (0, 0));
    assert_eq!(solve(&empty).game(), &empty);
}

/// A connected random graph on nodes `0..nodes` with about `nodes * degree / 2` edges: a random
/// spanning tree and random extra pairs, as in the benchmarks.
fn random_core(nodes: usize, degree: usize, seed: u64) -> Vec<Vec<u32>> {
    let mut rng = XorShift(seed);
    let mut adjacency = vec![Vec::new(); nodes];
    let join = |adjacency: &mut Vec<Vec<u32>>, a: u32, b: u32| {
        adjacency[a as usize].push(b);
        adjacency[b as usize].push(a);
    };
    for node in 1..nodes {
        let parent = rng.below(node);
        join(&mut adjacency, node as u32, parent);
    }
    for _ in nodes - 1..nodes * degree / 2 {
        let (a, b) = (rng.below(nodes), rng.below(nodes));
        join(&mut adjacency, a, b);
    }
    adjacency
}

/// `core` with a path of `length` nodes hanging off its last node.
fn with_path(mut adjacency: Vec<Vec<u32>>, length: usize) -> Vec<Vec<u32>> {
    let mut end = adjacency.len() as u32 - 1;
    for _ in 0..length {
        let node = adjacency.len() as u32;
        adjacency.push(vec![end]);
        adjacency[end as usize].push(node);
        end = node;
    }
    adjacency
}

/// `core` with a corridor (a ladder two nodes wide) of `length` rungs hanging off its last node.
fn with_corridor(mut adjacency: Vec<Vec<u32>>, length: usize) -> Vec<Vec<u32>> {
    let mut ends = [adjacency.len() as u32 - 1; 2];
    for _ in 0..length {
        let rung = [adjacency.len() as u32, adjacency.len() as u32 + 1];
        adjacency.push(vec![ends[0], rung[1]]);
        adjacency.push(vec![ends[1], rung[0]]);
        adjacency[ends[0] as usize].push(rung[0]);
        adjacency[ends[1] as usize].push(rung[1]);
        ends = rung;
    }
    adjacency
}

/// The longest game of the solution of `adjacency` (hole 0), and the start's outcome and moves.
fn summary(adjacency: &[Vec<u32>]) -> String {
    let solution = solve(&Game::new(adjacency, Some(0)));
    let nodes = adjacency.len() as u32;
    let mut longest = 0;
    for mouse in 0..nodes {
        for cat in 0..nodes {
            for turn in [Player::Mouse, Player::Cat] {
                let moves = solution.moves_to_end(Position { mouse, cat, turn });
                longest = longest.max(moves.unwrap_or(0));
            }
        }
    }
    format!(
        "longest {longest}, start {:?} in {:?}",
        solution.outcome(start()),
        solution.moves_to_end(start())
    )
}

/// Long games: paths and corridors hanging off a dense core, where the rounds run thin and the
/// hybrid hands over to the queue; every engine and every switch point against the reference.
#[test]
fn long_game_families_agree_with_reference() {
    let lengths = if crate::common::slow_tests() {
        vec![3, 8, 17, 30]
    } else {
        vec![3, 17]
    };
    for core in [4, 7] {
        for &length in &lengths {
            let base = random_core(core, 4, 0x5eed + core as u64);
            check_against_reference(&with_path(base.clone(), length), Some(0));
            check_against_reference(&with_corridor(base, length / 2), Some(0));
        }
    }
}

/// The three families of the benchmarks at small sizes, with their exact longest games: random
/// graphs of average degree 8 and 6, and a dense core with a path hanging off it.
#[test]
fn benchmark_families_at_small_sizes() {
    let degree_8 = random_core(14, 8, 0x5eed_0000 + 14);
    let degree_6 = random_core(16, 6, 0x5eed_0000 + 16);
    let long = with_path(random_core(8, 8, 0x5eed_0000 + 8), 24);
    for adjacency in [&degree_8, &degree_6, &long] {
        check_against_reference(adjacency, Some(0));
    }
    expect_test::expect!["longest 9, start MouseWins in Some(1)"].assert_eq(&summary(&degree_8));
    expect_test::expect!["longest 6, start MouseWins in Some(1)"].assert_eq(&summary(&degree_6));
    expect_test::expect!["longest 51, start MouseWins in Some(1)"].assert_eq(&summary(&long));
}

/// The rounds split a round's rows into blocks of 64 among threads: on games of several blocks,
/// any number of threads gives every position the same outcome and moves as one thread.
#[test]
fn threads_give_the_single_threaded_solution() {
    let random = random_core(230, 8, 0x5eed_0000 + 230);
    let long = with_corridor(random_core(70, 8, 0x5eed_0000 + 70), 60);
    for adjacency in [random, long] {
        let game = Game::new(&adjacency, Some(0));
        let solve_on = |engine, threads| {
            let config = Config {
                engine,
                threads: Some(threads),
            };
            solve_with(&game, config, &AtomicBool::new(false)).expect("not cancelled")
        };
        let single = solve_on(Engine::Rounds, 1);
        let nodes = adjacency.len() as u32;
        for engine in [Engine::Rounds, Engine::Hybrid, Engine::SwitchAfter(4)] {
            for threads in [2, 3] {
                let solution = solve_on(engine, threads);
                for mouse in 0..nodes {
                    for cat in 0..nodes {
                        for turn in [Player::Mouse, Player::Cat] {
                            let pos = Position { mouse, cat, turn };
                            assert_eq!(
                                (solution.outcome(pos), solution.moves_to_end(pos)),
                                (single.outcome(pos), single.moves_to_end(pos)),
                                "{pos:?} with {engine:?} on {threads} threads, {nodes} nodes"
                            );
                        }
                    }
                }
            }
        }
    }
}
