//! The tail latency of a keystroke in a 1 MB file: each one-character edit's time from
//! `didChange` to the `publishDiagnostics` of its version, through the in-process server
//! with real framing, as percentiles (criterion reports medians and means, and the
//! editor's target is a 95th percentile). After each keystroke is published, the bench
//! also times `Analysis::new` on the same edited text, the share of the path that is
//! parsing and checking; the keystroke's time minus that one is the server's own share
//! (copies, scheduling, diagnostics, framing), measured under the same load.
//!
//! Run with `cargo bench --bench keystroke [NAME]`; `CMG_KEYSTROKES=N` sets how many
//! keystrokes (300 by default, half insertions and half deletions),
//! `CMG_KEYSTROKE_EDGES=M` the 1 MB file's size in edge lines (75 000 by default; a
//! third of the nodes). Besides `keystroke_1mb`, two heavy cases: `keystroke_duplicates`
//! (2.2 MB, about 250 000 duplicate-edge warnings) and `keystroke_product` (a group
//! product of 2 000 000 edges under the live-solve limit, typed into a comment).

use std::time::{Duration, Instant};

use serde_json::json;

use cmg_core::analysis::Analysis;
use cmg_lsp::test_client;

mod common;

/// The quantiles of a set of timings, in milliseconds, on one line.
fn summary(name: &str, timings: &mut [Duration]) -> String {
    timings.sort();
    let at = |q: f64| {
        let index = ((timings.len() as f64 * q).ceil() as usize).clamp(1, timings.len()) - 1;
        timings[index].as_secs_f64() * 1e3
    };
    format!(
        "{name:<28} n = {:>4}   p50 {:>7.2} ms   p95 {:>7.2} ms   p99 {:>7.2} ms   max {:>7.2} ms",
        timings.len(),
        at(0.50),
        at(0.95),
        at(0.99),
        at(1.0)
    )
}

/// The `(line, character)` of the end of the first node id on `line` of `text`: where
/// a digit typed changes the graph.
fn end_of_first_id(text: &str, line: usize) -> (usize, usize) {
    let content = text.lines().nth(line).expect("the file has that line");
    let digits = content.bytes().take_while(u8::is_ascii_digit).count();
    (line, digits)
}

/// The timings of one run of keystrokes.
#[derive(Default)]
struct Timings {
    inserts: Vec<Duration>,
    deletes: Vec<Duration>,
    /// `Analysis::new` of each edited text, timed in the bench once the server is idle.
    analysis: Vec<Duration>,
    /// Each keystroke's time minus its `Analysis::new`.
    server_share: Vec<Duration>,
}

/// The requests VS Code sends about a document after a change (a semantic tokens delta
/// against the last result, the outline, folding, the hints and lenses of the visible
/// lines), sent at once after the `didChange`, as an editor at its busiest would.
async fn send_editor_requests(
    client: &mut test_client::InMemoryClient,
    uri: &str,
    line: usize,
    tokens_result: &str,
) -> Vec<i64> {
    let document = json!({"uri": uri});
    let visible = json!({"start": {"line": line.saturating_sub(30), "character": 0}, "end": {"line": line + 30, "character": 0}});
    let requests = [
        (
            "textDocument/semanticTokens/full/delta",
            json!({"textDocument": document, "previousResultId": tokens_result}),
        ),
        (
            "textDocument/documentSymbol",
            json!({"textDocument": document}),
        ),
        (
            "textDocument/foldingRange",
            json!({"textDocument": document}),
        ),
        (
            "textDocument/inlayHint",
            json!({"textDocument": document, "range": visible}),
        ),
        ("textDocument/codeLens", json!({"textDocument": document})),
    ];
    let mut ids = Vec::new();
    for (method, params) in requests {
        ids.push(client.send_request(method, params).await);
    }
    ids
}

/// Where keystroke `k` types its digit: `(line, character)`.
type EditAt<'a> = &'a dyn Fn(usize) -> (usize, usize);

/// In the middle of the file, after the first id of a line: every edit changes the
/// graph.
fn after_a_middle_id(text: &str) -> impl Fn(usize) -> (usize, usize) + '_ {
    let lines = text.lines().count();
    move |keystroke| end_of_first_id(text, lines / 2 + keystroke / 2 % 1000)
}

/// Types and deletes `keystrokes / 2` digits at `edit_at` in `text`, one keystroke
/// after the publication of the last, and times each to its publication.
fn run(text: &str, keystrokes: usize, with_requests: bool, edit_at: EditAt<'_>) -> Timings {
    let runtime = common::server_runtime();
    let uri = "file:///keystroke.cmg";
    let mut timings = Timings::default();
    runtime.block_on(async {
        let mut client = test_client::in_memory();
        client.initialize(json!({}), json!(null)).await;
        client.open(uri, 0, text).await;
        client.diagnostics_where(uri, |p| p["version"] == 0).await;
        client.notifications.clear();
        let tokens = client
            .call(
                "textDocument/semanticTokens/full",
                json!({"textDocument": {"uri": uri}}),
            )
            .await;
        let mut tokens_result = tokens["resultId"].as_str().unwrap().to_owned();
        let mut version = 0;
        let mut edited = text.to_owned();
        for keystroke in 0..keystrokes {
            // A digit typed after the first id of a line in the middle, then deleted:
            // each pair leaves the text as it was, and every edit changes the graph.
            let (line, character) = edit_at(keystroke);
            let at = json!({"line": line, "character": character});
            let after = json!({"line": line, "character": character + 1});
            let insert = keystroke % 2 == 0;
            let offset = text.lines().take(line).map(|l| l.len() + 1).sum::<usize>() + character;
            if insert {
                edited.insert(offset, '7');
            } else {
                edited.remove(offset);
            }
            let change = if insert {
                json!([{"range": {"start": at, "end": at}, "text": "7"}])
            } else {
                json!([{"range": {"start": at, "end": after}, "text": ""}])
            };
            version += 1;
            let start = Instant::now();
            client.change(uri, version, change).await;
            let requests = if with_requests {
                send_editor_requests(&mut client, uri, line, &tokens_result).await
            } else {
                Vec::new()
            };
            client
                .diagnostics_where(uri, |p| p["version"] == version)
                .await;
            let elapsed = start.elapsed();
            if insert {
                timings.inserts.push(elapsed);
            } else {
                timings.deletes.push(elapsed);
            }
            client.notifications.clear();
            for id in requests {
                let response = client.response_to(id).await;
                if let Some(result) = response["result"]["resultId"].as_str() {
                    tokens_result = result.to_owned();
                }
            }
            if !with_requests {
                // Once the server is idle again, the same analysis on its own.
                let start = Instant::now();
                let fresh = std::hint::black_box(Analysis::new(edited.as_str()));
                let alone = start.elapsed();
                // Freeing it is not part of building it (the server frees off the path).
                drop(fresh);
                timings.analysis.push(alone);
                timings.server_share.push(elapsed.saturating_sub(alone));
            }
        }
    });
    timings
}

/// Prints the percentiles of one run.
fn report(timings: &mut Timings, with_requests: bool) {
    println!(
        "{}",
        if with_requests {
            "with the requests an editor sends after each change:"
        } else {
            "keystrokes alone:"
        }
    );
    let mut all: Vec<Duration> = timings
        .inserts
        .iter()
        .chain(&timings.deletes)
        .copied()
        .collect();
    println!("{}", summary("keystroke → publish, all", &mut all));
    println!("{}", summary("  insert one digit", &mut timings.inserts));
    println!("{}", summary("  delete it", &mut timings.deletes));
    if !with_requests {
        println!("{}", summary("Analysis::new alone", &mut timings.analysis));
        println!(
            "{}",
            summary("keystroke − Analysis::new", &mut timings.server_share)
        );
    }
}

/// A file of about 2.2 MB whose lines nearly all repeat an edge among 100 nodes:
/// about 250 000 `duplicate-edge` warnings, of which a publication shows 1000.
fn duplicates() -> String {
    // `i` and `7i + 3` never agree modulo 100 (an even and an odd number), so no line
    // is a self-loop; `i % 100` fixes the line, so at most 100 edges are distinct
    // and every other line repeats one.
    (0..250_000u32)
        .map(|i| format!("{} -- {}\n", i % 100, (i * 7 + 3) % 100))
        .collect()
}

/// One group product of 2 000 000 edges on 3000 nodes (under the live-solve limit of
/// 5000), and a comment line the keystrokes type into: the graph is the same after
/// every keystroke, so the server keeps its solve and compares games on every edit.
fn product() -> String {
    let group =
        |range: std::ops::Range<u32>| range.map(|i| i.to_string()).collect::<Vec<_>>().join(" ");
    format!(
        "{{{}}} -- {{{}}}\n# typing here\n",
        group(0..1000),
        group(1000..3000)
    )
}

/// The number in the environment variable `name`, or `default` if it is unset or not
/// a number.
fn env_number(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(default)
}

/// Prints the name of a run, the size of its text and how many keystrokes it types.
fn announce(name: &str, text: &str, keystrokes: usize) {
    println!(
        "{name}: {} bytes, {} lines, {keystrokes} keystrokes",
        text.len(),
        text.lines().count()
    );
}

fn main() {
    // `cargo bench` passes `--bench`; a filter that names another benchmark skips this one.
    let filter = std::env::args()
        .skip(1)
        .find(|argument| !argument.starts_with('-'));
    let wanted = |name: &str| {
        filter
            .as_ref()
            .is_none_or(|filter| name.contains(filter.as_str()))
    };
    let keystrokes = env_number("CMG_KEYSTROKES", 300);
    if wanted("keystroke_1mb") {
        let edges = env_number("CMG_KEYSTROKE_EDGES", 75_000).max(3000);
        let text = common::random_cmg(edges / 3, edges, 7);
        announce("keystroke_1mb", &text, keystrokes);
        for with_requests in [false, true] {
            report(
                &mut run(&text, keystrokes, with_requests, &after_a_middle_id(&text)),
                with_requests,
            );
        }
    }
    if wanted("keystroke_duplicates") {
        let text = duplicates();
        announce("keystroke_duplicates", &text, keystrokes);
        report(
            &mut run(&text, keystrokes, false, &after_a_middle_id(&text)),
            false,
        );
    }
    if wanted("keystroke_product") {
        let text = product();
        println!(
            "keystroke_product: {} bytes, 2 000 000 edges, {keystrokes} keystrokes",
            text.len()
        );
        let comment_end = |_| (1, "# typing here".len());
        report(&mut run(&text, keystrokes, false, &comment_end), false);
    }
}
