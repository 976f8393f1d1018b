//! Times `Analysis::new` on a file, for profiling the keystroke path under `perf` or
//! `valgrind --tool=callgrind`:
//! `cargo build --profile profiling -p cmg-core --example analyse`, then
//! `target/profiling/examples/analyse FILE [RUNS]`. With `CMG_PARTS` set it times the
//! parse, the model and the line index one by one instead.

use std::time::{Duration, Instant};

use cmg_core::analysis::Analysis;
use cmg_core::model::Model;
use cmg_syntax::{parse, LineIndex};

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("a .cmg file");
    let runs: usize = args
        .next()
        .map_or(20, |n| n.parse().expect("a number of runs"));
    let text = std::fs::read_to_string(&path).expect("a readable file");
    if std::env::var_os("CMG_PARTS").is_none() {
        let times = (0..runs).map(|_| {
            let text = text.clone();
            let start = Instant::now();
            let analysis = std::hint::black_box(Analysis::new(text));
            let elapsed = start.elapsed();
            drop(analysis);
            elapsed
        });
        report("Analysis::new", times.collect());
        return;
    }
    let mut parts = [Vec::new(), Vec::new(), Vec::new()];
    for _ in 0..runs {
        let start = Instant::now();
        let parsed = parse(&text);
        parts[0].push(start.elapsed());
        let start = Instant::now();
        let model = Model::new(&text, &parsed);
        parts[1].push(start.elapsed());
        let start = Instant::now();
        let index = LineIndex::new(&text);
        parts[2].push(start.elapsed());
        drop((parsed, model, index));
    }
    for (name, times) in ["parse", "model", "line index"].into_iter().zip(parts) {
        report(name, times);
    }
}

fn report(name: &str, mut times: Vec<Duration>) {
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "{name:>14}: p50 {:>7.2} ms, min {:>7.2} ms, {} runs",
        ms(times[times.len() / 2]),
        ms(times[0]),
        times.len()
    );
}
