//! Seeded graph families for the solver's benchmarks, its decision-trace tests and the `.cmg` files the whole-process comparisons read.
//!
//! `crates/cmg-solve` includes this file in its unit tests (`hybrid.rs`) and its
//! `families` example, so every family has this one home; it depends on nothing but
//! `cmg_solve`'s generator, which those include sites name the same way.

#![allow(dead_code)]

pub use cmg_solve::test_rng::XorShift;

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

/// A family of graphs: each draws `node_count` nodes of about `degree` average degree from a seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// [`random_edges`]: a random spanning tree and uniformly random pairs.
    Uniform,
    /// The ring `0-1-…-(n-1)-0` and random chords.
    RingChords,
    /// A 2-D grid (rows of `⌈√n⌉` nodes) and random chords.
    GridChords,
    /// Preferential attachment (Barabási–Albert): each new node joins `degree / 2` earlier
    /// nodes drawn by degree (4 for degree 8).
    PreferentialAttachment,
    /// Small world (Watts–Strogatz): each node joined to its `degree / 2` next ones on a ring,
    /// one edge in ten rewired to a random node.
    SmallWorld,
    /// Random geometric: points in the unit square joined within the radius that gives the
    /// degree on average (fewer near the border), and a few short edges that join the
    /// components, so that every node is in play.
    Geometric,
    /// A random deep tree (each node's parent among the 8 nodes before it) and short back edges
    /// from each node to ancestors 2 to 5 levels up.
    TreeBackEdges,
    /// A random core of `n / 10` nodes of degree 8, the other nodes a path off its last node:
    /// games last about twice the path's length (the degree is not used).
    PathOffCore,
}

impl Family {
    pub const ALL: [Family; 8] = [
        Family::Uniform,
        Family::RingChords,
        Family::GridChords,
        Family::PreferentialAttachment,
        Family::SmallWorld,
        Family::Geometric,
        Family::TreeBackEdges,
        Family::PathOffCore,
    ];

    /// The family's name in bench ids and file names.
    pub fn name(self) -> &'static str {
        match self {
            Family::Uniform => "uniform",
            Family::RingChords => "ring",
            Family::GridChords => "grid",
            Family::PreferentialAttachment => "ba",
            Family::SmallWorld => "small_world",
            Family::Geometric => "geometric",
            Family::TreeBackEdges => "tree",
            Family::PathOffCore => "path_off_core",
        }
    }

    pub fn from_name(name: &str) -> Option<Family> {
        Family::ALL.into_iter().find(|family| family.name() == name)
    }

    /// The seed the benchmarks use for `node_count` nodes and `degree`.
    pub fn seed(self, node_count: usize, degree: usize) -> u64 {
        0x5eed_0000 + node_count as u64 + ((degree as u64) << 32) + ((self as u64) << 40)
    }

    /// The edges of the family's graph (duplicates and self-loops possible; `Game::new` drops them).
    pub fn edges(self, node_count: usize, degree: usize, seed: u64) -> Vec<(u32, u32)> {
        let n = node_count;
        if n < 2 {
            return Vec::new();
        }
        let edge_count = n * degree / 2;
        let mut rng = XorShift(seed | 1);
        let chords = |edges: &mut Vec<(u32, u32)>, rng: &mut XorShift| {
            while edges.len() < edge_count {
                edges.push((rng.below(n), rng.below(n)));
            }
        };
        match self {
            Family::Uniform => random_edges(n, edge_count, seed),
            Family::RingChords => {
                let mut edges: Vec<_> = (0..n as u32).map(|a| (a, (a + 1) % n as u32)).collect();
                chords(&mut edges, &mut rng);
                edges
            }
            Family::GridChords => {
                let width = (n as f64).sqrt().ceil() as usize;
                let mut edges = Vec::new();
                for node in 0..n {
                    if node % width + 1 < width && node + 1 < n {
                        edges.push((node as u32, node as u32 + 1));
                    }
                    if node + width < n {
                        edges.push((node as u32, (node + width) as u32));
                    }
                }
                chords(&mut edges, &mut rng);
                edges
            }
            Family::PreferentialAttachment => {
                let per_node = (degree / 2).max(1);
                let mut edges = Vec::new();
                // Every edge's two ends, so a uniform draw from it is a draw by degree.
                let mut ends: Vec<u32> = Vec::new();
                let seedlings = (per_node + 1).min(n);
                for a in 0..seedlings as u32 {
                    for b in 0..a {
                        edges.push((a, b));
                        ends.extend([a, b]);
                    }
                }
                for node in seedlings as u32..n as u32 {
                    let mut chosen: Vec<u32> = Vec::with_capacity(per_node);
                    // Bounded retries: a repeated draw is skipped after a few tries.
                    for _ in 0..per_node * 4 {
                        if chosen.len() == per_node {
                            break;
                        }
                        let target = ends[rng.below(ends.len()) as usize];
                        if !chosen.contains(&target) {
                            chosen.push(target);
                        }
                    }
                    for target in chosen {
                        edges.push((node, target));
                        ends.extend([node, target]);
                    }
                }
                edges
            }
            Family::SmallWorld => {
                let reach = (degree / 2).max(1);
                let mut edges = Vec::new();
                for a in 0..n {
                    for step in 1..=reach {
                        let b = if rng.below(10) == 0 {
                            rng.below(n) as usize
                        } else {
                            (a + step) % n
                        };
                        edges.push((a as u32, b as u32));
                    }
                }
                edges
            }
            Family::Geometric => {
                let points: Vec<(f64, f64)> = (0..n).map(|_| (rng.unit(), rng.unit())).collect();
                let radius = (degree as f64 / (n as f64 * std::f64::consts::PI)).sqrt();
                // Strips of one radius: only points in the same or the next strip can be joined.
                let strips = ((1.0 / radius) as usize).max(1);
                let strip_of = |x: f64| ((x * strips as f64) as usize).min(strips - 1);
                let mut by_strip = vec![Vec::new(); strips];
                for (node, &(x, _)) in points.iter().enumerate() {
                    by_strip[strip_of(x)].push(node);
                }
                let distance = |a: usize, b: usize| {
                    let (dx, dy) = (points[a].0 - points[b].0, points[a].1 - points[b].1);
                    (dx * dx + dy * dy).sqrt()
                };
                let mut edges = Vec::new();
                for strip in 0..strips {
                    for &a in &by_strip[strip] {
                        for (near, nodes) in by_strip.iter().enumerate().skip(strip).take(2) {
                            for &b in nodes {
                                if (near > strip || a < b) && distance(a, b) <= radius {
                                    edges.push((a as u32, b as u32));
                                }
                            }
                        }
                    }
                }
                // Points outside the giant component are joined to it, and the small ones to
                // each other, by one edge at each place where the strips' boustrophedon order
                // steps from one component to another: few edges, and short ones.
                let mut component: Vec<usize> = (0..n).collect();
                fn root(component: &mut [usize], mut node: usize) -> usize {
                    while component[node] != node {
                        component[node] = component[component[node]];
                        node = component[node];
                    }
                    node
                }
                for &(a, b) in &edges {
                    let (a, b) = (
                        root(&mut component, a as usize),
                        root(&mut component, b as usize),
                    );
                    component[a] = b;
                }
                let mut order = Vec::with_capacity(n);
                for (strip, nodes) in by_strip.iter_mut().enumerate() {
                    nodes.sort_by(|&a, &b| points[a].1.total_cmp(&points[b].1));
                    if strip % 2 == 1 {
                        nodes.reverse();
                    }
                    order.extend_from_slice(nodes);
                }
                for pair in order.windows(2) {
                    let (a, b) = (root(&mut component, pair[0]), root(&mut component, pair[1]));
                    if a != b {
                        component[a] = b;
                        edges.push((pair[0] as u32, pair[1] as u32));
                    }
                }
                edges
            }
            Family::TreeBackEdges => {
                let mut parent = vec![0usize];
                let mut edges = Vec::new();
                for node in 1..n {
                    parent.push(node - 1 - rng.below(node.min(8)) as usize);
                    edges.push((node as u32, parent[node] as u32));
                }
                let back_edges = edge_count.saturating_sub(n - 1) / n.max(1) + 1;
                for node in 1..n {
                    for _ in 0..back_edges {
                        let mut ancestor = node;
                        for _ in 0..2 + rng.below(4) {
                            ancestor = parent[ancestor];
                        }
                        edges.push((node as u32, ancestor as u32));
                    }
                }
                edges
            }
            Family::PathOffCore => {
                let core = (n / 10).max(3).min(n);
                let mut edges = random_edges(core, core * 4, 0x5eed_0000 + core as u64);
                edges.extend((core - 1..n - 1).map(|node| (node as u32, node as u32 + 1)));
                edges
            }
        }
    }

    /// The graph as adjacency lists, both directions of every edge listed.
    pub fn adjacency(self, node_count: usize, degree: usize, seed: u64) -> Vec<Vec<u32>> {
        let mut adjacency = vec![Vec::new(); node_count];
        for (a, b) in self.edges(node_count, degree, seed) {
            adjacency[a as usize].push(b);
            adjacency[b as usize].push(a);
        }
        adjacency
    }

    /// The graph as `.cmg` text, one edge statement per line, without self-loops or
    /// duplicates (which `cmg` would warn about).
    pub fn cmg(self, node_count: usize, degree: usize, seed: u64) -> String {
        let mut seen = std::collections::HashSet::new();
        self.edges(node_count, degree, seed)
            .into_iter()
            .filter(|&(a, b)| a != b && seen.insert((a.min(b), a.max(b))))
            .map(|(a, b)| format!("{a} -- {b}\n"))
            .collect()
    }
}
