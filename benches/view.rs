//! Benchmarks of the game view's scene: layout, a slice of the position table and JSON, at 100, 300, 1000 and 2000 nodes (the view's limit).

mod common;

use cmg_core::analysis::Analysis;
use cmg_ide::view::{layout, scene, slice, Positions, MAX_VIEW_NODES, UNIT};
use cmg_solve::{solve, Player};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};

fn bench_scene(c: &mut Criterion) {
    let mut group = c.benchmark_group("view");
    group.sample_size(10);
    for nodes in [100, 300, 1000, MAX_VIEW_NODES] {
        let analysis = Analysis::new(common::random_cmg(nodes, nodes * 2, 7));
        let graph = &analysis.model.graph;
        let game = analysis.game().expect("a game");
        let solution = solve(&game);
        let first = scene(&analysis, Some(&solution), &Positions::new());
        let json = serde_json::to_string(&first).expect("JSON");
        let one = slice(graph, Some(&solution), 2, Player::Cat).expect("a slice");
        let one = serde_json::to_string(&one).expect("JSON");
        // Sizes are not timings, but this is where they are measured: BENCHMARKS.md.
        // The picture's size is the bounding box in edge lengths (UNIT pixels), and its
        // area per node: how far the post-pass had to spread the picture out.
        let drawn: Vec<[f64; 2]> = first.positions().into_values().collect();
        let extent = |axis: usize| {
            let values = drawn.iter().map(|p| p[axis]);
            (values.clone().fold(f64::MIN, f64::max) - values.fold(f64::MAX, f64::min)) / UNIT
        };
        println!(
            "view/{nodes} nodes: scene {} bytes, one slice {} bytes, picture {:.0} x {:.0} edges ({:.0} square edges per node)",
            json.len(),
            one.len(),
            extent(0),
            extent(1),
            extent(0) * extent(1) / nodes as f64
        );
        group.bench_with_input(
            BenchmarkId::new("layout from scratch", nodes),
            &nodes,
            |b, _| b.iter(|| layout(graph, &Positions::new())),
        );
        group.bench_with_input(BenchmarkId::new("first scene", nodes), &nodes, |b, _| {
            b.iter(|| scene(&analysis, Some(&solution), &Positions::new()))
        });
        let previous = first.positions();
        group.bench_with_input(
            BenchmarkId::new("scene after an edit", nodes),
            &nodes,
            |b, _| b.iter(|| scene(&analysis, Some(&solution), &previous)),
        );
        group.bench_with_input(BenchmarkId::new("one slice", nodes), &nodes, |b, _| {
            b.iter(|| slice(graph, Some(&solution), 2, Player::Cat))
        });
        group.bench_with_input(BenchmarkId::new("scene to JSON", nodes), &nodes, |b, _| {
            b.iter(|| serde_json::to_string(&first).expect("JSON"))
        });
    }
    group.finish();
}

criterion_group!(benches, bench_scene);
criterion_main!(benches);
