//! Benchmarks of the hostile inputs at their full sizes (each used to
//! take seconds to minutes), of the editor-speed targets (parse and check
//! of a 1 MB file and of a 50-node file), and of the 2 MB files and huge answers of
//! the hostile files.

use std::time::Duration;

use criterion::measurement::WallTime;
use criterion::{criterion_group, criterion_main, BenchmarkGroup, BenchmarkId, Criterion};

use cmg_core::analysis::{Analysis, MemorySetting, SolveLimits};
use cmg_ide::completion::{completion_list, completions};
use cmg_ide::navigation::highlights;
use cmg_ide::rename::rename;
use cmg_syntax::ColumnUnit;

mod common;
#[path = "../tests/it/common/hostile.rs"]
mod hostile;
#[path = "../crates/cmg-core/tests/common/shapes.rs"]
mod shapes;

/// Few samples: each input takes up to half a second, and the machine is shared.
fn keep_short(group: &mut BenchmarkGroup<'_, WallTime>) {
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(3))
        .warm_up_time(Duration::from_secs(1));
}

fn bench_hostile(c: &mut Criterion) {
    let mut group = c.benchmark_group("hostile");
    keep_short(&mut group);
    // Measurement 1: `{3 … 1002} -- {3 … 1002}` (8 KB) and 2000 members (18 KB).
    for members in [1000, 2000] {
        let text = hostile::group_product(members);
        group.bench_with_input(
            BenchmarkId::new("group_product_parse_and_check", members),
            &text,
            |b, text| b.iter(|| Analysis::new(text.as_str())),
        );
    }
    // The edge limit: a 1.2 MB product of 100 000 × 100 000 members (10^10 pairs) is
    // refused at its statement, so its cost is the parse and the mentions alone.
    let text = hostile::group_product(100_000);
    group.bench_function("group_product_over_the_edge_limit_100000", |b| {
        b.iter(|| Analysis::new(text.as_str()))
    });
    // Measurement 2: one line over 200 000 ids modulo 5000. As one chain it repeats
    // about 195 000 edges within itself, one warning with the count; as
    // 200 000 statements of one link each, 195 000 warnings, and the line and character
    // column of each (what `cmg check --json` prints).
    let text = hostile::long_chain(200_000, 5000);
    group.bench_function("long_line_parse_and_check", |b| {
        b.iter(|| Analysis::new(text.as_str()))
    });
    let text = hostile::long_line_of_statements(200_000, 5000);
    group.bench_function("long_line_of_statements_parse_and_check", |b| {
        b.iter(|| Analysis::new(text.as_str()))
    });
    let analysis = Analysis::new(text.as_str());
    group.bench_function("long_line_columns_of_every_diagnostic", |b| {
        b.iter(|| {
            analysis
                .model
                .diagnostics
                .iter()
                .map(|d| {
                    analysis
                        .line_index
                        .column(d.range.start, ColumnUnit::Char)
                        .col
                })
                .fold(0u64, |sum, col| sum + u64::from(col))
        })
    });
    // Measurement 3: 160 KB of comment lines inside brackets, and completion at its end.
    let text = hostile::comments_in_brackets(80_000);
    group.bench_function("comments_in_brackets_parse_and_check", |b| {
        b.iter(|| Analysis::new(text.as_str()))
    });
    let analysis = Analysis::new(text.as_str());
    let offset = text.rfind("[0]]").unwrap() as u32;
    group.bench_function("comments_in_brackets_completion", |b| {
        b.iter(|| completions(&analysis, offset))
    });
    group.finish();
}

/// A 1 MB file of 75 000 edge lines (target: under 30 ms), and a 50-node file
/// (target: well under 100 µs).
fn bench_editor_targets(c: &mut Criterion) {
    let mut group = c.benchmark_group("editor_targets");
    keep_short(&mut group);
    for (nodes, edges) in [(50, 150), (25_000, 75_000)] {
        let text = common::random_cmg(nodes, edges, 11);
        group.bench_with_input(
            BenchmarkId::new(
                "parse_and_check",
                format!("{nodes}_nodes_{}_bytes", text.len()),
            ),
            &text,
            |b, text| b.iter(|| Analysis::new(text.as_str())),
        );
    }
    group.finish();
}

/// At full size: what every command builds for a 2 MB file (the checked
/// analysis for `check`, the unchecked one for `export`, `dot` and `fmt`), the plan for
/// `check` with an `expect` on the 23 169-node chain (the editor's limits: no solve),
/// and the bounded answers on a node mentioned a million times.
fn bench_issue_19(c: &mut Criterion) {
    let mut group = c.benchmark_group("issue_19");
    keep_short(&mut group);
    for (name, text) in [
        ("repeated_list_2mb", hostile::repeated_list(1_000_000)),
        ("control_line_2mb", hostile::junk_tail('\u{1}', 2 << 20)),
        ("nul_tail_2mb", hostile::junk_tail('\0', 2 << 20)),
    ] {
        group.bench_with_input(BenchmarkId::new("check", name), &text, |b, text| {
            b.iter(|| Analysis::new(text.as_str()).diagnostics(None))
        });
        group.bench_with_input(
            BenchmarkId::new("without_checks", name),
            &text,
            |b, text| b.iter(|| Analysis::without_checks(text.as_str())),
        );
    }
    let chain = Analysis::new(hostile::chain_with_expect(23_169, "mouse"));
    let server = SolveLimits {
        max_nodes: Some(5000),
        max_memory: Some(2048 << 20),
        memory_setting: MemorySetting::ServerSetting,
    };
    group.bench_function("check_expect_plan_23169_chain", |b| {
        b.iter(|| chain.solve_plan(server))
    });
    // A node mentioned a million times (`3 -- 4` on 1 000 000 lines, 7 MB).
    let text = format!("0 -- 1 -- 2\n{}\n", vec!["3 -- 4"; 1_000_000].join("\n"));
    let mentioned = Analysis::new(text.as_str());
    let middle = text.len() as u32 / 2;
    let cursor = middle + text[middle as usize..].find('3').unwrap() as u32;
    group.bench_function("highlights_1m_mentions", |b| {
        b.iter(|| highlights(&mentioned, cursor))
    });
    group.bench_function("rename_refused_1m_mentions", |b| {
        b.iter(|| rename(&mentioned, cursor, "9"))
    });
    // Completion after `3 -- ` in a graph of 666 666 nodes.
    let ids: Vec<String> = (0..666_666).map(|id| id.to_string()).collect();
    let text = format!("{}\n3 -- ", ids.join(" -- "));
    let many = Analysis::new(text.as_str());
    group.bench_function("completion_666666_nodes", |b| {
        b.iter(|| completion_list(&many, text.len() as u32))
    });
    group.finish();
}

/// Compact diagnostics at full size: 300 000 statements that each repeat an edge (2.1
/// MB, 300 000 `duplicate-edge` warnings) checked, the server's capped set of 1000
/// rendered, and every message rendered (what `check --json` writes); and one open
/// document of the 20 KB file a server may hold a thousand of (its retained bytes,
/// `Analysis::heap_bytes`, are in BENCHMARKS.md).
fn bench_compact_diagnostics(c: &mut Criterion) {
    let mut group = c.benchmark_group("compact_diagnostics");
    keep_short(&mut group);
    let text = format!("0 -- 1 -- 2\n{}", "1 -- 2\n".repeat(300_000));
    group.bench_function("check_300000_duplicate_statements", |b| {
        b.iter(|| Analysis::new(text.as_str()).diagnostics(None).len())
    });
    let analysis = Analysis::new(text.as_str());
    group.bench_function("capped_1000_of_300000", |b| {
        b.iter(|| analysis.diagnostics_capped(None, None, 1000))
    });
    group.bench_function("render_all_300000", |b| {
        b.iter(|| {
            analysis
                .diagnostics(None)
                .iter()
                .map(|d| analysis.message(d).len())
                .sum::<usize>()
        })
    });
    let scattered = hostile::scattered_edges(1400, 2700);
    group.bench_function("analysis_20kb_scattered", |b| {
        b.iter(|| Analysis::new(scattered.as_str()))
    });
    group.finish();
}

/// The check of each shape of [`shapes::SHAPES`] at 0.5, 1 and 2 MB: linear work shows
/// as a time per megabyte that stays flat across the three sizes.
fn bench_check_shapes(c: &mut Criterion) {
    let mut group = c.benchmark_group("check_shapes");
    keep_short(&mut group);
    for name in shapes::SHAPES {
        for kib in [512, 1024, 2048] {
            let text = shapes::shape(name, kib << 10);
            group.bench_with_input(BenchmarkId::new(name, kib), &text, |b, text| {
                b.iter(|| Analysis::new(text.as_str()).diagnostics(None))
            });
        }
    }
    group.finish();
}

criterion_group!(
    benches,
    bench_hostile,
    bench_editor_targets,
    bench_issue_19,
    bench_compact_diagnostics,
    bench_check_shapes
);
criterion_main!(benches);
