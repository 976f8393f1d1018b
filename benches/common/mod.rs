//! Deterministic pseudo-random graphs shared by the benchmarks.

#![allow(dead_code)]

/// A xorshift64 generator: the graphs only need to be the same on every run, not to be good random numbers.
pub struct XorShift(pub u64);

impl XorShift {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    pub fn below(&mut self, bound: usize) -> u32 {
        (self.next() % bound as u64) as u32
    }
}

/// The edges of a connected graph of `node_count` nodes and about `edge_count` edges: a
/// random spanning tree keeps every node in play, and the other edges join random pairs
/// (duplicates and self-loops among them are possible).
pub fn random_edges(node_count: usize, edge_count: usize, seed: u64) -> Vec<(u32, u32)> {
    let mut rng = XorShift(seed);
    let mut edges = Vec::with_capacity(edge_count);
    for node in 1..node_count {
        edges.push((node as u32, rng.below(node)));
    }
    for _ in node_count - 1..edge_count {
        edges.push((rng.below(node_count), rng.below(node_count)));
    }
    edges
}

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
