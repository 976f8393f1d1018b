//! Benchmarks of the solver's engines side by side on the graph families of `benches/common/graphs.rs` (n = 200, 2000, 5000; degrees 6 and 8), two cores against one, and small known long games.
//!
//! `cargo bench --bench solve -- 'geometric_deg8/hybrid/2000'` runs one point and
//! `cargo bench --bench solve -- 'deg6/.*/5000'` one column. The pre-hybrid queue and the
//! queue engine at 5000 nodes take seconds a solve, so those points run only with
//! `CMG_SLOW_BENCHES=1`; the default run takes about 15 minutes on an idle 2-core machine.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};

use std::sync::atomic::AtomicBool;

use cmg_solve::{solve, solve_with, Config, Engine, Game};

mod common;

use common::Family;

/// A family's graph as the benchmarks draw it (seeded by family, size and degree).
fn family_game(family: Family, node_count: usize, degree: usize) -> Game {
    let seed = family.seed(node_count, degree);
    Game::new(&family.adjacency(node_count, degree, seed), Some(0))
}

/// Small graphs whose start position takes many moves to decide (found by a search with the solver).
fn long_games() -> Vec<(&'static str, Game)> {
    let mouse_in_21: [&[u32]; 10] = [
        &[5, 7, 9],
        &[3, 4, 5, 6],
        &[3, 4, 5, 8],
        &[1, 2, 6, 7],
        &[1, 2, 5, 7, 9],
        &[0, 1, 2, 4, 8],
        &[1, 3, 7, 8],
        &[0, 3, 4, 6, 8],
        &[2, 5, 6, 7, 9],
        &[0, 4, 8],
    ];
    let cat_in_46: [&[u32]; 12] = [
        &[8],
        &[2, 3, 9, 11],
        &[1, 3, 4, 5, 8, 10],
        &[1, 2, 6, 8],
        &[2, 6, 7, 10, 11],
        &[2, 8, 11],
        &[3, 4, 7, 8, 10],
        &[4, 6, 8],
        &[0, 2, 3, 5, 6, 7, 11],
        &[1, 10, 11],
        &[2, 4, 6, 9, 11],
        &[1, 4, 5, 8, 9, 10],
    ];
    let game = |lists: &[&[u32]]| {
        let adjacency: Vec<Vec<u32>> = lists.iter().map(|list| list.to_vec()).collect();
        Game::new(&adjacency, Some(0))
    };
    vec![
        ("mouse_in_21/10", game(&mouse_in_21)),
        ("cat_in_46/12", game(&cat_in_46)),
    ]
}

/// The queue solver this project had before the hybrid (`f02b8a2`, `crates/cmg-solve/src/retrograde.rs`),
/// kept here only as the baseline the engines are measured against, in the same process.
///
/// One `u32` state word per position (decided flag, winner and moves, or the move counter) and
/// a FIFO of every decided position; symmetric graphs only, which every bench graph is.
mod old_queue {
    use cmg_solve::{Game, Outcome, Player, Position};

    const DECIDED: u32 = 1 << 31;
    const CAT_WINS: u32 = 1 << 30;
    const MOVES: u32 = CAT_WINS - 1;
    const QUEUED_CAT_WINS: u32 = 1 << 31;

    /// Every position's state word: mouse to move at `cat·n + mouse`, cat to move at `n² + mouse·n + cat`.
    pub fn solve(game: &Game) -> Vec<u32> {
        let n = game.node_count();
        let square = n * n;
        let hole = game.hole().map(|hole| hole as usize);
        let degree = |node: usize| game.neighbours(node as u32).len() as u32;
        let mut state = vec![0u32; 2 * square];
        for cat in 0..n {
            for mouse in 0..n {
                state[cat * n + mouse] = degree(mouse);
            }
        }
        for mouse in 0..n {
            for cat in 0..n {
                let onto_hole = hole.is_some_and(|hole| {
                    game.neighbours(cat as u32)
                        .binary_search(&(hole as u32))
                        .is_ok()
                });
                state[square + mouse * n + cat] = degree(cat) - u32::from(onto_hole);
            }
        }
        let mut queue = Vec::with_capacity(2 * square);
        let mut decide = |position: usize, word: u32, state: &mut Vec<u32>| {
            state[position] = word;
            queue.push(position as u32 | (word & CAT_WINS) << 1);
        };
        for node in 0..n {
            if Some(node) == hole {
                for cat in (0..n).filter(|&cat| Some(cat) != hole) {
                    decide(cat * n + node, DECIDED, &mut state);
                    decide(square + node * n + cat, DECIDED, &mut state);
                }
            } else {
                decide(node * n + node, DECIDED | CAT_WINS, &mut state);
                decide(square + node * n + node, DECIDED | CAT_WINS, &mut state);
            }
        }
        if let Some(hole) = hole {
            for mouse in 0..n {
                state[hole * n + mouse] = DECIDED | CAT_WINS | MOVES;
                state[square + mouse * n + hole] = DECIDED | CAT_WINS | MOVES;
            }
        }
        let (mut moves, mut level_end, mut cursor) = (0, queue.len(), 0);
        while let Some(&entry) = queue.get(cursor) {
            if cursor == level_end {
                moves += 1;
                level_end = queue.len();
            }
            cursor += 1;
            let position = (entry & !QUEUED_CAT_WINS) as usize;
            let cat_won = entry & QUEUED_CAT_WINS != 0;
            let (row, moved, mover_is_cat) = if position < square {
                (square + position % n * n, position / n, true)
            } else {
                ((position - square) % n * n, (position - square) / n, false)
            };
            let word = DECIDED | if cat_won { CAT_WINS } else { 0 } | (moves + 1);
            for &source in game.neighbours(moved as u32) {
                let slot = &mut state[row + source as usize];
                if *slot & DECIDED == 0 {
                    if cat_won != mover_is_cat {
                        *slot -= 1;
                    }
                    if cat_won == mover_is_cat || *slot == 0 {
                        *slot = word;
                        queue.push((row + source as usize) as u32 | (word & CAT_WINS) << 1);
                    }
                }
            }
        }
        state
    }

    /// Panics unless the baseline agrees with the solver on every position, so the comparison is fair.
    pub fn check(game: &Game) {
        let n = game.node_count();
        let state = solve(game);
        let solution = cmg_solve::solve(game);
        for (index, &word) in state.iter().enumerate() {
            let (turn, major, minor) = (index / (n * n), index % (n * n) / n, index % n);
            let (mouse, cat, turn) = match turn {
                0 => (minor, major, Player::Mouse),
                _ => (major, minor, Player::Cat),
            };
            if game.hole() == Some(cat as u32) {
                continue;
            }
            let position = Position {
                mouse: mouse as u32,
                cat: cat as u32,
                turn,
            };
            let expected = (word & DECIDED != 0).then_some((word & CAT_WINS != 0, word & MOVES));
            let actual = solution
                .moves_to_end(position)
                .map(|moves| (solution.outcome(position) == Outcome::CatWins, moves));
            assert_eq!(actual, expected, "{position:?}");
        }
    }
}

const SIZES: [usize; 3] = [200, 2000, 5000];

const ENGINES: [(&str, Engine); 3] = [
    ("queue", Engine::Queue),
    ("rounds", Engine::Rounds),
    ("hybrid", Engine::Hybrid),
];

/// Whether to run the points that take seconds a solve (the queues at 5000 nodes).
fn slow_points() -> bool {
    std::env::var_os("CMG_SLOW_BENCHES").is_some_and(|value| value != "0")
}

/// Every engine on every size of one family and degree, the pre-hybrid queue first as the baseline.
fn bench_family(c: &mut Criterion, family: Family, degree: usize) {
    let name = match family {
        // The path off a core does not use the degree: one group.
        Family::PathOffCore => family.name().to_owned(),
        _ => format!("{}_deg{degree}", family.name()),
    };
    let mut group = c.benchmark_group(name);
    for node_count in SIZES {
        let game = family_game(family, node_count, degree);
        group.sample_size(if node_count >= 2000 { 10 } else { 20 });
        if node_count <= 200 {
            old_queue::check(&game);
        }
        let slow = node_count >= 5000;
        if !slow || slow_points() {
            group.bench_with_input(
                BenchmarkId::new("old_queue", node_count),
                &game,
                |b, game| b.iter(|| old_queue::solve(game)),
            );
        }
        for (engine_name, engine) in ENGINES {
            if slow && engine == Engine::Queue && !slow_points() {
                continue;
            }
            let config = Config {
                engine,
                threads: None,
            };
            let id = BenchmarkId::new(engine_name, node_count);
            group.bench_with_input(id, &game, |b, game| {
                b.iter(|| solve_with(game, config, &AtomicBool::new(false)))
            });
        }
    }
    group.finish();
}

fn bench_families(c: &mut Criterion) {
    for family in Family::ALL {
        let degrees: &[usize] = if family == Family::PathOffCore {
            &[8]
        } else {
            &[6, 8]
        };
        for &degree in degrees {
            bench_family(c, family, degree);
        }
    }
}

/// The hybrid on one thread and on two, side by side, where rounds run long enough to split:
/// `cargo bench --bench solve -- 'threads/uniform_deg8_2000'`.
fn bench_threads(c: &mut Criterion) {
    let mut group = c.benchmark_group("threads");
    group.sample_size(10);
    let games = [
        ("uniform_deg8_2000", family_game(Family::Uniform, 2000, 8)),
        ("uniform_deg6_5000", family_game(Family::Uniform, 5000, 6)),
        (
            "geometric_deg6_5000",
            family_game(Family::Geometric, 5000, 6),
        ),
        (
            "path_off_core_2000",
            family_game(Family::PathOffCore, 2000, 8),
        ),
    ];
    for (name, game) in &games {
        for threads in [1, 2] {
            let config = Config {
                engine: Engine::Hybrid,
                threads: Some(threads),
            };
            group.bench_with_input(BenchmarkId::new(*name, threads), game, |b, game| {
                b.iter(|| solve_with(game, config, &AtomicBool::new(false)))
            });
        }
    }
    group.finish();
}

fn bench_long_games(c: &mut Criterion) {
    let mut group = c.benchmark_group("solve_long");
    for (name, game) in long_games() {
        group.bench_with_input(BenchmarkId::from_parameter(name), &game, |b, game| {
            b.iter(|| solve(game))
        });
    }
    group.finish();
}

criterion_group!(benches, bench_families, bench_threads, bench_long_games);
criterion_main!(benches);
