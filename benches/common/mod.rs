//! Deterministic pseudo-random graphs shared by the benchmarks.

#![allow(dead_code)]

mod graphs;
pub use graphs::*;

/// The same graph as `.cmg` text, one edge statement per line, without self-loops.
pub fn random_cmg(node_count: usize, edge_count: usize, seed: u64) -> String {
    random_edges(node_count, edge_count, seed)
        .into_iter()
        .filter(|(a, b)| a != b)
        .map(|(a, b)| format!("{a} -- {b}\n"))
        .collect()
}

/// The runtime the in-memory server and its client run on in the server benchmarks.
pub fn server_runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap()
}
