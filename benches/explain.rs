//! Benchmarks of the what-if per edge (one solve per edge the strategy walks use) and of the strategy walk, on random graphs of 50, 100 and 300 nodes.
//!
//! `cargo bench --bench explain -- 'what_if/reused/300'` runs one point. `every_edge` is the
//! same work with the walks' reuse turned off (a walk limit of one position), and
//! `reused_one_thread` the same solves one after another on one thread, for comparison.

use std::sync::atomic::AtomicBool;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};

use cmg_solve::{solve, what_if, what_if_with, Game, Player, Position};

mod common;

const START: Position = Position {
    mouse: 1,
    cat: 2,
    turn: Player::Mouse,
};

/// A connected random graph of average degree 4 on shuffled labels: the benchmarks'
/// spanning tree always joins node 1 to the hole, which would make every game one move long.
fn shuffled_game(node_count: usize, seed: u64) -> Game {
    let mut rng = common::XorShift(seed);
    let mut label: Vec<u32> = (0..node_count as u32).collect();
    for i in (1..node_count).rev() {
        label.swap(i, rng.below(i + 1) as usize);
    }
    let mut adjacency = vec![Vec::new(); node_count];
    for (a, b) in common::random_edges(node_count, 2 * node_count, seed) {
        let (a, b) = (label[a as usize], label[b as usize]);
        adjacency[a as usize].push(b);
        adjacency[b as usize].push(a);
    }
    Game::new(&adjacency, Some(0))
}

/// The first graph of the family (by seed) whose start is a win of at least 5 moves, and
/// the first that is a draw: a win in 1 would spare nearly every solve.
fn interesting_games(node_count: usize) -> Vec<(&'static str, Game)> {
    let mut found: Vec<(&'static str, Game)> = Vec::new();
    for seed in 0..500 {
        let game = shuffled_game(node_count, 0xe4 + seed);
        let solution = solve(&game);
        let kind = match solution.moves_to_end(START) {
            Some(moves) if moves >= 5 => "win",
            Some(_) => continue,
            None => "draw",
        };
        if found.iter().all(|(k, _)| *k != kind) {
            found.push((kind, game));
        }
        if found.len() == 2 {
            break;
        }
    }
    found.sort_by_key(|(kind, _)| *kind);
    found
}

fn bench_what_if(c: &mut Criterion) {
    let mut group = c.benchmark_group("what_if");
    group.sample_size(10);
    let never = AtomicBool::new(false);
    for nodes in [50, 100, 300] {
        for (kind, game) in interesting_games(nodes) {
            let solution = solve(&game);
            let result = what_if(&solution, START, 1 << 20, &never).unwrap();
            eprintln!(
                "what_if/{kind}/{nodes}: {} edges, {} solved, start {:?} in {:?}",
                result.edges.len(),
                result.solved,
                solution.outcome(START),
                solution.moves_to_end(START)
            );
            let id = |what: &str| BenchmarkId::new(format!("{what}/{kind}"), nodes);
            group.bench_with_input(id("reused"), &solution, |b, s| {
                b.iter(|| what_if(s, START, 1 << 20, &never))
            });
            group.bench_with_input(id("reused_one_thread"), &solution, |b, s| {
                b.iter(|| what_if_with(s, START, 1 << 20, Some(1), &never))
            });
            group.bench_with_input(id("every_edge"), &solution, |b, s| {
                b.iter(|| what_if(s, START, 1, &never))
            });
            group.bench_with_input(id("strategies"), &solution, |b, s| {
                b.iter(|| s.strategies(START, 1 << 20))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench_what_if);
criterion_main!(benches);
