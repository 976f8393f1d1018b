//! Benchmarks of what runs on every keystroke: parsing and checking a file, formatting
//! it, and the language server's latency from `didChange` to `publishDiagnostics`.

use std::ops::AsyncFnMut;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use serde_json::json;

use cmg_core::analysis::Analysis;
use cmg_core::model::Model;
use cmg_ide::{self as ide, format};
use cmg_lsp::test_client::{self, InMemoryClient};
use cmg_syntax::{parse, LineIndex, TextRange};

mod common;

const SIZES: [(usize, usize); 2] = [(50, 150), (2000, 10000)];

/// Nodes and edges of the 1 MB file: 75 000 edge lines `a -- b`.
const MEGABYTE: (usize, usize) = (25_000, 75_000);

fn bench_analysis(c: &mut Criterion) {
    let mut group = c.benchmark_group("analysis");
    for (nodes, edges) in SIZES {
        let text = common::random_cmg(nodes, edges, 7);
        group.bench_with_input(
            BenchmarkId::new("parse_and_check", nodes),
            &text,
            |b, text| b.iter(|| Analysis::new(text)),
        );
        let analysis = Analysis::new(&text);
        group.bench_with_input(
            BenchmarkId::new("format", nodes),
            &analysis,
            |b, analysis| b.iter(|| format(&analysis.text, &analysis.parse)),
        );
    }
    // The 1 MB file of the editor-speed targets (75 000 edge lines), each step on the keystroke path
    // on its own and then together.
    let (nodes, edges) = MEGABYTE;
    let text = common::random_cmg(nodes, edges, 7);
    group.bench_with_input(BenchmarkId::new("parse", "1mb"), &text, |b, text| {
        b.iter(|| parse(text))
    });
    let parsed = parse(&text);
    group.bench_with_input(BenchmarkId::new("model", "1mb"), &parsed, |b, parsed| {
        b.iter(|| Model::new(&text, parsed))
    });
    group.bench_with_input(BenchmarkId::new("line_index", "1mb"), &text, |b, text| {
        b.iter(|| LineIndex::new(text))
    });
    group.bench_with_input(
        BenchmarkId::new("parse_and_check", "1mb"),
        &text,
        |b, text| b.iter(|| Analysis::new(text)),
    );
    group.finish();

    // A small graph from text to answer: what a user waits for after each keystroke
    // when the solve is quick.
    let mut group = c.benchmark_group("text_to_answer");
    let (nodes, edges) = SIZES[0];
    let text = common::random_cmg(nodes, edges, 7);
    group.bench_with_input(BenchmarkId::from_parameter(nodes), &text, |b, text| {
        b.iter(|| {
            let analysis = Analysis::new(text);
            let solution = analysis.game().map(|game| cmg_solve::solve(&game));
            (analysis, solution)
        })
    });
    group.finish();
}

/// The requests an editor sends while the user moves around a large file.
fn bench_features(c: &mut Criterion) {
    let mut group = c.benchmark_group("features_2000_nodes");
    let text = common::random_cmg(2000, 10000, 7);
    let analysis = Analysis::new(&text);
    let solved = cmg_core::explain::solve_and_explain_analysis(
        &analysis,
        cmg_core::explain::WhatIfBudget::Editor,
    );
    let solution = solved.as_ref().map(|solved| &*solved.solution);
    let offset = text.len() as u32 / 2;
    group.bench_function("inlay_hints", |b| {
        b.iter(|| ide::inlay_hints::inlay_hints(&analysis, solution, &Default::default()))
    });
    group.bench_function("document_symbols", |b| {
        b.iter(|| ide::symbols::document_symbols(&analysis))
    });
    group.bench_function("semantic_tokens", |b| {
        b.iter(|| ide::semantic_tokens::semantic_tokens(&analysis))
    });
    group.bench_function("hover", |b| {
        b.iter(|| ide::hover::hover(&analysis, solved.as_ref(), offset))
    });
    // Eager: every action built and checked, as for a client without `codeAction/resolve`.
    group.bench_function("code_actions", |b| {
        b.iter(|| ide::actions::code_actions(&analysis, solution, TextRange::empty(offset)))
    });
    // Lazy: the `textDocument/codeAction` answer for a client that resolves.
    group.bench_function("code_action_candidates", |b| {
        b.iter(|| ide::actions::candidates(&analysis, solution, TextRange::empty(offset)))
    });
    // The `codeAction/resolve` of the one action picked.
    let listed = ide::actions::candidates(&analysis, solution, TextRange::empty(offset));
    if let Some(first) = listed.first() {
        group.bench_function("code_action_resolve", |b| {
            b.iter(|| ide::actions::resolve(&analysis, solution, &first.id))
        });
    }
    group.finish();
}

/// Time from sending a `didChange` (a full-text change that edits a comment, so the
/// graph and its solution stay) to receiving the `publishDiagnostics` of that version,
/// through an in-memory pipe with real framing.
fn bench_lsp_latency(c: &mut Criterion) {
    let runtime = common::server_runtime();
    let mut group = c.benchmark_group("lsp_did_change_to_diagnostics");
    group.sample_size(20);
    for (nodes, edges) in SIZES {
        // Two of the three expectations fail once solved, which tells when the solve is in.
        let text = common::random_cmg(nodes, edges, 7) + "expect mouse\nexpect cat\nexpect draw\n";
        let uri = "file:///bench.cmg";
        let mut client = runtime.block_on(async {
            let mut client = test_client::in_memory();
            client
                .initialize(json!({}), json!({"solver": {"maxNodes": 5000}}))
                .await;
            client.open(uri, 0, &text).await;
            client
                .diagnostics_where(uri, |p| {
                    p["version"] == 0
                        && test_client::codes(p).contains(&"expect-mismatch".to_owned())
                })
                .await;
            client
        });
        let mut version = 0;
        group.bench_function(BenchmarkId::from_parameter(nodes), |b| {
            b.iter_custom(|iterations| {
                runtime.block_on(each_version(
                    &mut client,
                    &mut version,
                    iterations,
                    async |client, version| {
                        let edited = format!("{text}# edit {version}\n");
                        let start = Instant::now();
                        client.change(uri, version, json!([{"text": edited}])).await;
                        published(client, uri, version).await;
                        start.elapsed()
                    },
                ))
            })
        });
    }
    group.finish();
}

/// Runs `step` `iterations` times, each with the next `version` of the document, and
/// sums the times it reports; the notifications of each step are dropped after it.
async fn each_version(
    client: &mut InMemoryClient,
    version: &mut i32,
    iterations: u64,
    mut step: impl AsyncFnMut(&mut InMemoryClient, i32) -> Duration,
) -> Duration {
    let mut total = Duration::ZERO;
    for _ in 0..iterations {
        *version += 1;
        total += step(client, *version).await;
        client.notifications.clear();
    }
    total
}

/// Waits for the diagnostics of `version` of `uri`.
async fn published(client: &mut InMemoryClient, uri: &str, version: i32) {
    client
        .diagnostics_where(uri, |p| p["version"] == version)
        .await;
}

/// A 2 MB file of 100 000 edge statements, and a hostile one of the same size where
/// most statements repeat an edge (about 95 000 `duplicate-edge` warnings).
fn large_files() -> [(&'static str, String); 2] {
    let plain: String = (0..100_000u32)
        .map(|i| format!("{} -- {} # x\n", i % 20_000, (i * 7 + 3) % 20_000))
        .collect();
    let hostile: String = (0..100_000u32)
        .map(|i| format!("{} -- {} # dup\n", i % 5000, (i + 1) % 5000))
        .collect();
    [("plain_2mb", plain), ("duplicates_2mb", hostile)]
}

/// On a 2 MB file: the time from `didOpen` to the first `publishDiagnostics`, from a
/// keystroke (an incremental one-character insertion) to the publication of its
/// version, and of a hover sent right after the keystroke, while its analysis runs.
fn bench_lsp_large(c: &mut Criterion) {
    let runtime = common::server_runtime();
    let mut group = c.benchmark_group("lsp_large_file");
    group.sample_size(10);
    for (name, text) in large_files() {
        let uri = "file:///large.cmg";
        let mut client = runtime.block_on(async {
            let mut client = test_client::in_memory();
            client.initialize(json!({}), json!(null)).await;
            client
        });
        let mut version = 0;
        group.bench_function(BenchmarkId::new("open_to_publish", name), |b| {
            b.iter_custom(|iterations| {
                runtime.block_on(each_version(
                    &mut client,
                    &mut version,
                    iterations,
                    async |client, version| {
                        let start = Instant::now();
                        client.open(uri, version, &text).await;
                        published(client, uri, version).await;
                        start.elapsed()
                    },
                ))
            })
        });
        let at = json!({"line": 50_000, "character": 0});
        let keystroke = json!([{"range": {"start": at, "end": at}, "text": " "}]);
        group.bench_function(BenchmarkId::new("keystroke_to_publish", name), |b| {
            b.iter_custom(|iterations| {
                runtime.block_on(each_version(
                    &mut client,
                    &mut version,
                    iterations,
                    async |client, version| {
                        let start = Instant::now();
                        client.change(uri, version, keystroke.clone()).await;
                        published(client, uri, version).await;
                        start.elapsed()
                    },
                ))
            })
        });
        group.bench_function(BenchmarkId::new("hover_after_keystroke", name), |b| {
            b.iter_custom(|iterations| {
                runtime.block_on(each_version(
                    &mut client,
                    &mut version,
                    iterations,
                    async |client, version| {
                        client.change(uri, version, keystroke.clone()).await;
                        let start = Instant::now();
                        // Answered or refused with ContentModified: either way, at once.
                        client
                            .request("textDocument/hover", json!({"textDocument": {"uri": uri}, "position": {"line": 10, "character": 0}}))
                            .await;
                        let elapsed = start.elapsed();
                        published(client, uri, version).await;
                        elapsed
                    },
                ))
            })
        });
    }
    group.finish();
}

criterion_group!(
    benches,
    bench_analysis,
    bench_features,
    bench_lsp_latency,
    bench_lsp_large
);
criterion_main!(benches);
