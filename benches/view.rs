//! Benchmarks of the game view's scene: layout, a slice of the position table and JSON, at 100, 300, 1000 and 2000 nodes (the view's limit); and the layout of dense families (complete bipartite graphs, stars, many nodes joined to the same few), whose post-pass runs into its work budget.

mod common;

use cmg_core::analysis::Analysis;
use cmg_ide::view::{
    draws, layout, layout_within, scene, slice, Limits, Positions, MAX_VIEW_NODES, UNIT,
};
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
        let work = layout_within(graph, &Positions::new(), Limits::default())
            .expect("not cancelled")
            .work;
        let extent = |axis: usize| {
            let values = drawn.iter().map(|p| p[axis]);
            (values.clone().fold(f64::MIN, f64::max) - values.fold(f64::MAX, f64::min)) / UNIT
        };
        println!(
            "view/{nodes} nodes: scene {} bytes, one slice {} bytes, picture {:.0} x {:.0} edges ({:.0} square edges per node), {work} units of layout work",
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

/// `{0 … a-1} -- {a … a+b-1}`: every one of `a` nodes joined to every one of `b`.
fn complete_bipartite(a: usize, b: usize) -> String {
    let group = |from: usize, count: usize| {
        let ids: Vec<String> = (from..from + count).map(|i| i.to_string()).collect();
        format!("{{{}}}", ids.join(" "))
    };
    format!("{} -- {}\n", group(0, a), group(a, b))
}

/// Dense families at 100 to 2000 nodes: complete bipartite (the few within the view's
/// edge limit), stars, and groups of many equal nodes joined to the same ten.
fn bench_dense(c: &mut Criterion) {
    let mut group = c.benchmark_group("view dense");
    group.sample_size(10);
    let mut families = Vec::new();
    for nodes in [100, 300, 1000, MAX_VIEW_NODES] {
        families.push((format!("star {nodes}"), complete_bipartite(1, nodes - 1)));
        families.push((
            format!("ten to all {nodes}"),
            complete_bipartite(10, nodes - 10),
        ));
        families.push((
            format!("complete bipartite {nodes}"),
            complete_bipartite(nodes / 2, nodes / 2),
        ));
    }
    for (name, text) in families {
        let analysis = Analysis::new(text);
        let graph = &analysis.model.graph;
        if !draws(graph) {
            println!("view dense/{name}: {} edges, not drawn", graph.edge_count());
            continue;
        }
        let laid_out =
            layout_within(graph, &Positions::new(), Limits::default()).expect("not cancelled");
        println!(
            "view dense/{name}: {} edges, {} units of work{}",
            graph.edge_count(),
            laid_out.work,
            if laid_out.cut { ", cut short" } else { "" }
        );
        group.bench_function(BenchmarkId::new("layout from scratch", &name), |b| {
            b.iter(|| layout(graph, &Positions::new()))
        });
    }
    group.finish();
}

criterion_group!(benches, bench_scene, bench_dense);
criterion_main!(benches);
