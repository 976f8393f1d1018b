//! Benchmarks of the solver on fixed pseudo-random graphs of growing size and on small graphs with long games.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};

use cmg::solve::{solve, Game};

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

fn bench_random(c: &mut Criterion) {
    let mut group = c.benchmark_group("solve_random");
    for (node_count, edge_count) in [(50, 150), (200, 1000), (1000, 5000)] {
        let game = random_game(node_count, edge_count, 0x5eed_0000 + node_count as u64);
        if node_count >= 1000 {
            group.sample_size(20);
        }
        let label = format!("{}n_{}e", game.node_count(), game.edge_count());
        group.bench_with_input(BenchmarkId::from_parameter(label), &game, |b, game| {
            b.iter(|| solve(game))
        });
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

criterion_group!(benches, bench_random, bench_long_games);
criterion_main!(benches);
