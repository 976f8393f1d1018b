//! `cmg gen --exhaustive --graph6 FILE`: the graphs of another enumerator (nauty's
//! `geng`), read in graph6 and each examined as the built-in enumerator does.

use std::time::Instant;

use cmg_gen::{Constraints, Graph, Longest, Winner};

use super::{graph_count, options, print_result, Record, Wanted, FORMAT};
use crate::cli::{CliError, CliResult};

/// `cmg gen --exhaustive --graph6 FILE`: the longest game over the graphs in FILE, each
/// examined as the built-in enumerator examines its own, so that another enumerator's
/// graphs (nauty's `geng`) check the count and the length it finds.
pub fn from_graph6(
    path: &str,
    nodes: usize,
    winner: Option<Winner>,
    constraints: Constraints,
    json: bool,
) -> CliResult {
    let source = crate::cli::input::read_source(path)?;
    let started = Instant::now();
    let mut evaluator = cmg_gen::Evaluator::new();
    let mut found = Longest::default();
    for (number, line) in source.text.lines().enumerate() {
        let line = line.trim();
        let line = line.strip_prefix(">>graph6<<").unwrap_or(line);
        if line.is_empty() {
            continue;
        }
        let graph = parse_graph6(line).ok_or_else(|| {
            CliError(format!(
                "{path}:{}: not a graph in graph6 of at most {} nodes",
                number + 1,
                cmg_gen::MAX_NODES
            ))
        })?;
        if graph.node_count() != nodes {
            return Err(CliError(format!(
                "{path}:{}: a graph of {} nodes, not {nodes}",
                number + 1,
                graph.node_count()
            )));
        }
        let lonely = graph.rows().contains(&0);
        if constraints == Constraints::LeetCode && lonely {
            return Err(CliError(format!(
                "{path}:{}: a node has no neighbour, which LeetCode's constraints rule out (geng -d1 leaves such graphs out)",
                number + 1
            )));
        }
        cmg_gen::examine(&graph, winner, constraints, &mut evaluator, &mut found);
    }
    let record = Record {
        format: FORMAT.to_owned(),
        nodes,
        outcome: Wanted::of(winner),
        constraints,
        part: [1, 1],
        tasks: 0,
        done: Vec::new(),
        graphs: found.graphs,
        solves: found.solves,
        seconds: started.elapsed().as_secs_f64(),
        best: None,
    };
    if graph_count(nodes, record.constraints).is_some_and(|all| all != found.graphs) {
        eprintln!(
            "cmg: note: {path} holds {} graphs, not every graph on {nodes} nodes: the longest game below is the longest of those, no proof",
            found.graphs
        );
    }
    let command = format!(
        "cmg gen --nodes {nodes} --exhaustive --graph6 {path}{}",
        options(record.outcome, record.constraints)
    );
    print_result(&record, &found, json, &command, None)
}

/// A graph in graph6 (nauty's format): its node count in one byte (63 to 126, for up to
/// 62 nodes), then the upper triangle of its adjacency matrix column by column, six bits
/// a byte, each byte plus 63.
pub(super) fn parse_graph6(line: &str) -> Option<Graph> {
    let bytes = line.as_bytes();
    let (&first, rest) = bytes.split_first()?;
    if !(63..=125).contains(&first) {
        return None;
    }
    let n = usize::from(first - 63);
    if n > cmg_gen::MAX_NODES {
        return None;
    }
    let bits = n * n.saturating_sub(1) / 2;
    if rest.len() != bits.div_ceil(6) || rest.iter().any(|b| !(63..=126).contains(b)) {
        return None;
    }
    let bit = |k: usize| (rest[k / 6] - 63) >> (5 - k % 6) & 1 == 1;
    let mut graph = Graph::empty(n);
    let mut k = 0;
    for j in 1..n {
        for i in 0..j {
            if bit(k) {
                graph.toggle(i, j);
            }
            k += 1;
        }
    }
    Some(graph)
}
