//! Solves per second of `cmg gen`'s evaluator (outcome and moves from the start, over reused
//! buffers) at 10, 17 and 50 nodes, on the record graphs under `examples/records/`, beside the
//! full solver on the same graphs; and graphs examined per second by the exhaustive search.
//! `docs/records.md` has the lengths the search reaches.

use std::path::Path;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

fn record(name: &str) -> Vec<Vec<u32>> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples/records")
        .join(name);
    let text = std::fs::read_to_string(&path).expect("the record graph exists");
    let analysis = cmg_core::analysis::Analysis::new(text.as_str());
    let graph = &analysis.model.graph;
    graph.adjacency_lists()
}

fn solves(c: &mut Criterion) {
    let mut group = c.benchmark_group("gen_solves");
    group.throughput(Throughput::Elements(1));
    for name in ["n10-36.cmg", "n17-91.cmg", "n50-206.cmg"] {
        let lists = record(name);
        let graph = cmg_gen::Graph::from_adjacency(&lists).expect("at most 64 nodes");
        let mut evaluator = cmg_gen::Evaluator::new();
        group.bench_function(format!("evaluator/{name}"), |b| {
            b.iter(|| evaluator.start(std::hint::black_box(&graph)))
        });
        let game = cmg_solve::Game::new(&lists, Some(0));
        group.bench_function(format!("full_solve/{name}"), |b| {
            b.iter(|| cmg_solve::solve(std::hint::black_box(&game)))
        });
    }
    group.finish();
}

/// The exhaustive search over every graph on 7 and 8 nodes (888 and 11 302 graphs), on one
/// thread: graphs examined per second is the throughput.
fn exhaustive(c: &mut Criterion) {
    let mut group = c.benchmark_group("gen_exhaustive");
    group.sample_size(10);
    for (nodes, graphs) in [(7, 888), (8, 11_302)] {
        group.throughput(Throughput::Elements(graphs));
        group.bench_function(format!("{nodes}_nodes"), |b| {
            b.iter(|| {
                let plan = cmg_gen::Plan::new(cmg_gen::Exhaustive {
                    nodes,
                    winner: None,
                    constraints: cmg_gen::Constraints::LeetCode,
                    threads: 1,
                    part: cmg_gen::Part::WHOLE,
                });
                plan.run(&|_| false, &|_, _| {}, &|| true)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, solves, exhaustive);
criterion_main!(benches);
