//! Benchmarks of the solver's engines side by side: random graphs of average degree 8 and 6, long games (a path off a dense core), and small known long games.
//!
//! `cargo bench --bench solve -- 'random_deg8/hybrid/2000'` runs one point; the whole grid takes long.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};

use std::sync::atomic::AtomicBool;

use cmg::solve::{solve, solve_with, Config, Engine, Game};

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

fn bench_long_games(c: &mut Criterion) {
    let mut group = c.benchmark_group("solve_long");
    for (name, game) in long_games() {
        group.bench_with_input(BenchmarkId::from_parameter(name), &game, |b, game| {
            b.iter(|| solve(game))
        });
    }
    group.finish();
}

criterion_group!(benches, bench_random, bench_path_off_core, bench_long_games);
criterion_main!(benches);
