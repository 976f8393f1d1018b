//! Canonical labelling of small graphs (at most 16 nodes), for the exhaustive search: two
//! graphs get the same certificate exactly when they are isomorphic, and the labelling
//! comes with the orbits of the graph's automorphism group.
//!
//! The method is the individualisation-refinement tree (as in McKay's nauty, written
//! small): refine the ordered partition of the nodes to an equitable one, branch on each
//! node of its first non-singleton cell, and take the largest certificate over the
//! leaves. Two prunings keep symmetric graphs cheap: of two twins (nodes with the same
//! neighbours apart from each other) in the cell branched on, only the first is
//! explored, and swapping them is recorded as an automorphism; two leaves with equal
//! certificates give another. The orbits are those of the group these generate, which
//! is the whole automorphism group (a skipped branch is the image of an explored one).

/// The most nodes a graph here has: one `u16` of neighbours per node.
pub const MAX: usize = 16;

/// A graph on nodes `0..n`, one neighbour bitset per node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Small {
    pub n: usize,
    pub rows: [u16; MAX],
}

impl Small {
    /// One node and no edge.
    pub fn single() -> Small {
        Small {
            n: 1,
            rows: [0; MAX],
        }
    }

    /// This graph with one more node, `n`, joined to the nodes of `neighbours`.
    pub fn with_node(&self, neighbours: u16) -> Small {
        debug_assert!(self.n < MAX && neighbours >> self.n == 0);
        let mut next = *self;
        let node = self.n;
        next.n += 1;
        next.rows[node] = neighbours;
        let mut bits = neighbours;
        while bits != 0 {
            let u = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            next.rows[u] |= 1 << node;
        }
        next
    }

    pub fn degree(&self, node: usize) -> u32 {
        self.rows[node].count_ones()
    }
}

/// A graph's canonical labelling and the orbits of its automorphisms.
pub struct Canon {
    /// Equal for isomorphic graphs only: the upper triangle of the canonically labelled
    /// adjacency matrix, row by row.
    pub cert: u128,
    /// `lab[i]` is the node that gets canonical label `i`.
    lab: [u8; MAX],
    /// Each node's orbit, as its smallest node.
    orbit: [u8; MAX],
}

impl Canon {
    pub fn same_orbit(&self, a: usize, b: usize) -> bool {
        self.orbit[a] == self.orbit[b]
    }

    /// The canonical label of `node`.
    pub fn label_of(&self, node: usize) -> usize {
        self.lab
            .iter()
            .position(|&x| usize::from(x) == node)
            .unwrap_or(0)
    }

    /// Whether the only automorphism is the identity.
    pub fn asymmetric(&self, n: usize) -> bool {
        (0..n).all(|node| usize::from(self.orbit[node]) == node)
    }
}

/// An ordered partition of the nodes: `lab` lists them cell by cell, bit `i` of `starts`
/// says a cell starts at position `i` (bit `n` is always set, as an end mark).
#[derive(Clone, Copy)]
struct Partition {
    lab: [u8; MAX],
    starts: u32,
}

impl Partition {
    fn cell_end(&self, start: usize) -> usize {
        (self.starts >> (start + 1)).trailing_zeros() as usize + start + 1
    }
}

/// The canonical labelling of `graph`.
pub fn canon(graph: &Small) -> Canon {
    let n = graph.n;
    let mut lab = [0u8; MAX];
    for (i, slot) in lab.iter_mut().enumerate().take(n) {
        *slot = i as u8;
    }
    let mut search = Search {
        graph,
        best: None,
        parent: std::array::from_fn(|i| i as u8),
    };
    search.node(Partition {
        lab,
        starts: 1 | 1 << n,
    });
    let (cert, lab) = search.best.unwrap_or((0, lab));
    let mut orbit = [0u8; MAX];
    for (node, slot) in orbit.iter_mut().enumerate().take(n) {
        *slot = search.find(node as u8);
    }
    // Each orbit named by its smallest node.
    let mut smallest = [u8::MAX; MAX];
    for (node, &root) in orbit.iter().enumerate().take(n) {
        let root = usize::from(root);
        smallest[root] = smallest[root].min(node as u8);
    }
    for slot in orbit.iter_mut().take(n) {
        *slot = smallest[usize::from(*slot)];
    }
    Canon { cert, lab, orbit }
}

struct Search<'a> {
    graph: &'a Small,
    best: Option<(u128, [u8; MAX])>,
    /// Union-find over the nodes, joined by the automorphisms found.
    parent: [u8; MAX],
}

impl Search<'_> {
    fn find(&self, mut node: u8) -> u8 {
        while self.parent[usize::from(node)] != node {
            node = self.parent[usize::from(node)];
        }
        node
    }

    fn union(&mut self, a: u8, b: u8) {
        let (a, b) = (self.find(a), self.find(b));
        if a != b {
            self.parent[usize::from(a.max(b))] = a.min(b);
        }
    }

    fn node(&mut self, mut partition: Partition) {
        let n = self.graph.n;
        refine(self.graph, &mut partition);
        let Some(start) =
            (0..n).find(|&i| partition.starts >> i & 1 == 1 && partition.cell_end(i) - i > 1)
        else {
            self.leaf(&partition.lab);
            return;
        };
        let end = partition.cell_end(start);
        let cell = partition.lab;
        let mut explored: u16 = 0;
        for &node in &cell[start..end] {
            let rows = &self.graph.rows;
            let twin = (0..n).find(|&t| {
                explored >> t & 1 == 1
                    && rows[t] & !(1 << node) == rows[usize::from(node)] & !(1 << t)
            });
            if let Some(twin) = twin {
                self.union(twin as u8, node);
                continue;
            }
            explored |= 1 << node;
            let mut child = partition;
            let at = (start..end)
                .find(|&i| child.lab[i] == node)
                .unwrap_or(start);
            child.lab.swap(start, at);
            child.starts |= 1 << (start + 1);
            self.node(child);
        }
    }

    fn leaf(&mut self, lab: &[u8; MAX]) {
        let cert = certificate(self.graph, lab);
        match self.best {
            Some((best, _)) if cert < best => {}
            Some((best, best_lab)) if cert == best => {
                // The map from one leaf's labelling to the other's is an automorphism.
                for i in 0..self.graph.n {
                    self.union(best_lab[i], lab[i]);
                }
            }
            _ => self.best = Some((cert, *lab)),
        }
    }
}

/// The upper triangle of the adjacency matrix with node `lab[i]` labelled `i`.
fn certificate(graph: &Small, lab: &[u8; MAX]) -> u128 {
    let n = graph.n;
    let mut label = [0u8; MAX];
    for (i, &node) in lab.iter().enumerate().take(n) {
        label[usize::from(node)] = i as u8;
    }
    let mut cert = 0u128;
    for (i, &node) in lab.iter().enumerate().take(n.saturating_sub(1)) {
        let mut row = 0u16;
        let mut bits = graph.rows[usize::from(node)];
        while bits != 0 {
            let u = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            row |= 1 << label[u];
        }
        let width = n - 1 - i;
        cert = cert << width | u128::from(row >> (i + 1));
    }
    cert
}

/// Splits cells until the partition is equitable: the nodes of a cell have as many
/// neighbours in each cell as each other. Splits depend on counts only, never on node
/// numbers, so isomorphic graphs refine alike.
fn refine(graph: &Small, partition: &mut Partition) {
    let n = graph.n;
    loop {
        let mut masks = [0u16; MAX];
        let mut cells = [(0usize, 0usize); MAX];
        let mut count = 0;
        let mut start = 0;
        while start < n {
            let end = partition.cell_end(start);
            for &node in &partition.lab[start..end] {
                masks[count] |= 1 << node;
            }
            cells[count] = (start, end);
            count += 1;
            start = end;
        }
        let mut starts = partition.starts;
        for &(start, end) in &cells[..count] {
            if end - start < 2 {
                continue;
            }
            let key = |node: u8| {
                masks[..count]
                    .iter()
                    .enumerate()
                    .map(|(k, &mask)| {
                        u64::from((graph.rows[usize::from(node)] & mask).count_ones()) << (4 * k)
                    })
                    .sum::<u64>()
            };
            let cell = &mut partition.lab[start..end];
            cell.sort_by_key(|&node| key(node));
            for i in start + 1..end {
                if key(partition.lab[i]) != key(partition.lab[i - 1]) {
                    starts |= 1 << i;
                }
            }
        }
        if starts == partition.starts {
            return;
        }
        partition.starts = starts;
    }
}

#[cfg(test)]
mod tests {
    use super::{canon, Small};
    use crate::rng::Rng;

    fn random(rng: &mut Rng, n: usize, chance: u64) -> Small {
        let mut graph = Small::single();
        for k in 1..n {
            let mut neighbours = 0u16;
            for u in 0..k {
                if rng.below(100) < chance {
                    neighbours |= 1 << u;
                }
            }
            graph = graph.with_node(neighbours);
        }
        graph
    }

    fn relabelled(graph: &Small, perm: &[usize]) -> Small {
        let mut out = Small {
            n: graph.n,
            rows: [0; super::MAX],
        };
        for u in 0..graph.n {
            for v in 0..graph.n {
                if graph.rows[u] >> v & 1 == 1 {
                    out.rows[perm[u]] |= 1 << perm[v];
                }
            }
        }
        out
    }

    fn automorphisms(graph: &Small) -> Vec<Vec<usize>> {
        // Every permutation, for graphs of at most 7 nodes.
        let n = graph.n;
        let mut perm: Vec<usize> = (0..n).collect();
        let mut found = Vec::new();
        permute(&mut perm, 0, &mut |p| {
            if relabelled(graph, p) == *graph {
                found.push(p.to_vec());
            }
        });
        found
    }

    fn permute(perm: &mut Vec<usize>, k: usize, visit: &mut impl FnMut(&[usize])) {
        if k == perm.len() {
            visit(perm);
            return;
        }
        for i in k..perm.len() {
            perm.swap(k, i);
            permute(perm, k + 1, visit);
            perm.swap(k, i);
        }
    }

    /// Relabelled copies get the same certificate; non-isomorphic graphs (told apart by
    /// trying every permutation) get different ones; the orbits are those of every
    /// automorphism.
    #[test]
    fn certificates_and_orbits_agree_with_every_permutation() {
        let mut rng = Rng::new(3);
        let mut graphs = Vec::new();
        for case in 0..400 {
            let n = 1 + case % 7;
            let graph = random(&mut rng, n, [10, 30, 50, 70, 95][case % 5]);
            let canon_of = canon(&graph);
            let mut perm: Vec<usize> = (0..n).collect();
            for i in (1..n).rev() {
                perm.swap(i, rng.below(i as u64 + 1) as usize);
            }
            assert_eq!(
                canon(&relabelled(&graph, &perm)).cert,
                canon_of.cert,
                "{graph:?}"
            );
            let autos = automorphisms(&graph);
            assert_eq!(canon_of.asymmetric(n), autos.len() == 1, "{graph:?}");
            for a in 0..n {
                for b in 0..n {
                    let joined = autos.iter().any(|p| p[a] == b);
                    assert_eq!(canon_of.same_orbit(a, b), joined, "{a} {b} in {graph:?}");
                }
            }
            graphs.push(graph);
        }
        for (i, a) in graphs.iter().enumerate() {
            for b in &graphs[i + 1..] {
                if a.n != b.n || a.n > 6 {
                    continue;
                }
                let mut perm: Vec<usize> = (0..a.n).collect();
                let mut isomorphic = false;
                permute(&mut perm, 0, &mut |p| isomorphic |= relabelled(a, p) == *b);
                assert_eq!(canon(a).cert == canon(b).cert, isomorphic, "{a:?} {b:?}");
            }
        }
    }

    /// A certificate is the upper triangle of the adjacency matrix, row by row, one bit a
    /// pair (within a row, the nearest node lowest), up to the largest graph (16 nodes,
    /// 120 bits).
    #[test]
    fn the_certificate_is_the_upper_triangle_row_by_row() {
        let mut rng = Rng::new(7);
        for case in 0..100 {
            let graph = random(&mut rng, 2 + case % (super::MAX - 1), 50);
            let mut expected = 0u128;
            for u in 0..graph.n {
                // Row `u`'s pairs, the nearest node in the lowest bit.
                for v in (u + 1..graph.n).rev() {
                    expected = expected << 1 | u128::from(graph.rows[u] >> v & 1);
                }
            }
            let identity = std::array::from_fn(|i| i as u8);
            assert_eq!(super::certificate(&graph, &identity), expected, "{graph:?}");
        }
    }

    /// The canonical labelling relabels the graph to the graph of its certificate.
    #[test]
    fn the_labelling_gives_the_certificate() {
        let mut rng = Rng::new(5);
        for case in 0..200 {
            let graph = random(&mut rng, 2 + case % 11, 40);
            let canon_of = canon(&graph);
            let perm: Vec<usize> = (0..graph.n).map(|u| canon_of.label_of(u)).collect();
            let canonical = relabelled(&graph, &perm);
            let again = canon(&canonical);
            assert_eq!(again.cert, canon_of.cert);
            assert_eq!(
                super::certificate(&canonical, &std::array::from_fn(|i| i as u8)),
                canon_of.cert
            );
        }
    }
}
