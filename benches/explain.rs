//! Benchmarks of the what-if per edge (one solve per edge the strategy walks use) and of the strategy walk, on random graphs of 50, 100 and 300 nodes.
//!
//! `cargo bench --bench explain -- 'what_if/reused/300'` runs one point. `every_edge` is the
//! same work with the walks' reuse turned off (a walk limit of one position), for comparison.

use std::sync::atomic::AtomicBool;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};

use cmg_solve::{solve, what_if, Game, Player, Position};

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

fn bench_what_if(c: &mut Criterion) {
    let mut group = c.benchmark_group("what_if");
    group.sample_size(10);
    for nodes in [50, 100, 300] {
        let solution = solve(&shuffled_game(nodes, 0xe4 + nodes as u64));
        let never = AtomicBool::new(false);
        let result = what_if(&solution, START, 1 << 20, &never).unwrap();
        eprintln!(
            "what_if/{nodes}: {} edges, {} solved, start {:?} in {:?}",
            result.edges.len(),
            result.solved,
            solution.outcome(START),
            solution.moves_to_end(START)
        );
        group.bench_with_input(BenchmarkId::new("reused", nodes), &solution, |b, s| {
            b.iter(|| what_if(s, START, 1 << 20, &never))
        });
        group.bench_with_input(BenchmarkId::new("every_edge", nodes), &solution, |b, s| {
            b.iter(|| what_if(s, START, 1, &never))
        });
        group.bench_with_input(BenchmarkId::new("strategies", nodes), &solution, |b, s| {
            b.iter(|| s.strategies(START, 1 << 20))
        });
    }
    group.finish();
}

criterion_group!(benches, bench_what_if);
criterion_main!(benches);
