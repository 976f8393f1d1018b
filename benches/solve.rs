//! Benchmarks of the solver's engines side by side: random graphs of average degree 8 and 6, long games (a path off a dense core), and small known long games.
//!
//! `cargo bench --bench solve -- 'random_deg8/hybrid/2000'` runs one point; the whole grid takes long.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};

use std::sync::atomic::AtomicBool;

use cmg_solve::{solve, solve_with, Config, Engine, Game};

mod common;

/// The benchmark graph: see [`common::random_edges`].
fn random_game(node_count: usize, edge_count: usize, seed: u64) -> Game {
    let mut adjacency = vec![Vec::new(); node_count];
    for (a, b) in common::random_edges(node_count, edge_count, seed) {
        adjacency[a as usize].push(b);
        adjacency[b as usize].push(a);
    }
    // Duplicates and self-loops from the random pairs are merged and dropped here, so the edge count is approximate.
    Game::new(&adjacency, Some(0))
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

/// A random core of `node_count / 10` nodes (average degree 8) with a path of the other nodes
/// hanging off its last node: games last about twice the path's length.
fn path_off_core(node_count: usize) -> Game {
    let core = (node_count / 10).max(3);
    let mut adjacency = vec![Vec::new(); node_count];
    let edges = common::random_edges(core, core * 4, 0x5eed_0000 + core as u64);
    let path = (core - 1..node_count - 1).map(|node| (node as u32, node as u32 + 1));
    for (a, b) in edges.into_iter().chain(path) {
        adjacency[a as usize].push(b);
        adjacency[b as usize].push(a);
    }
    Game::new(&adjacency, Some(0))
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

const SIZES: [usize; 5] = [50, 200, 1000, 2000, 5000];

const ENGINES: [(&str, Engine); 3] = [
    ("queue", Engine::Queue),
    ("rounds", Engine::Rounds),
    ("hybrid", Engine::Hybrid),
];

/// Every engine on every size of one family, the queue first as the baseline.
fn bench_family(c: &mut Criterion, name: &str, game_of: impl Fn(usize) -> Game) {
    let mut group = c.benchmark_group(name);
    for node_count in SIZES {
        let game = game_of(node_count);
        group.sample_size(if node_count >= 1000 { 10 } else { 30 });
        if node_count <= 1000 {
            old_queue::check(&game);
        }
        group.bench_with_input(
            BenchmarkId::new("old_queue", node_count),
            &game,
            |b, game| b.iter(|| old_queue::solve(game)),
        );
        for (engine_name, engine) in ENGINES {
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

fn bench_random(c: &mut Criterion) {
    for degree in [8, 6] {
        bench_family(c, &format!("random_deg{degree}"), |node_count| {
            let seed = 0x5eed_0000 + node_count as u64;
            random_game(node_count, node_count * degree / 2, seed)
        });
    }
}

fn bench_path_off_core(c: &mut Criterion) {
    bench_family(c, "path_off_core", path_off_core);
}

/// The hybrid on one thread and on two, side by side, where rounds run long enough to split:
/// `cargo bench --bench solve -- 'threads/random_deg8_2000'`.
fn bench_threads(c: &mut Criterion) {
    let mut group = c.benchmark_group("threads");
    group.sample_size(10);
    let games = [
        (
            "random_deg8_2000",
            random_game(2000, 8000, 0x5eed_0000 + 2000),
        ),
        (
            "random_deg6_5000",
            random_game(5000, 15_000, 0x5eed_0000 + 5000),
        ),
        ("path_off_core_1000", path_off_core(1000)),
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

criterion_group!(
    benches,
    bench_random,
    bench_path_off_core,
    bench_threads,
    bench_long_games
);
criterion_main!(benches);
