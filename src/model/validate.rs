//! The checks of a model that need no solving, one function per check.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

use crate::syntax::{LineIndex, Parse, TextRange};

use super::{Code, Diagnostic, EdgeOrigin, EdgePair, Graph, Model};

pub(super) fn validate(text: &str, parse: &Parse, model: &Model) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    let (self_loops, duplicates) = self_loops_and_duplicates(model);
    diagnostics.extend(self_loops);
    diagnostics.extend(duplicates);
    if !model.edges_truncated {
        // After a cut, the lists that would answer a one-sided entry may be missing.
        diagnostics.extend(one_sided_edges(model));
    }
    diagnostics.extend(duplicate_labels(model));
    diagnostics.extend(duplicate_expects(model));
    let file_start = file_start(text, parse);
    diagnostics.extend(missing_mouse(model, file_start));
    diagnostics.extend(missing_cat(model, file_start));
    diagnostics.extend(missing_hole(model, file_start));
    // A graph cut short by `too-many-edges` lacks edges the file declares, so what it
    // says about moves and reachability would be wrong: those checks wait for the fix.
    if model.edges_truncated {
        return diagnostics;
    }
    diagnostics.extend(mouse_stuck(model));
    diagnostics.extend(cat_stuck(model));
    diagnostics.extend(hole_unreachable(model));
    diagnostics.extend(unreachable_nodes(model));
    diagnostics
}

/// Where to point when the whole file is at fault: its first statement, or its first
/// line when it has none.
fn file_start(text: &str, parse: &Parse) -> TextRange {
    parse
        .chunks
        .first()
        .map(|chunk| chunk.range)
        .unwrap_or_else(|| LineIndex::new(text).line_content(0).unwrap_or_default())
}

/// Self-loops and duplicate edges, found in one pass over every pair with a map from
/// each distinct pair to its first declaration. A declaration that repeats many pairs
/// (`{1 2 3} -- {1 2 3}` has three self-loops and three repeated edges) gets one
/// diagnostic per code, with the count and the first example, so a product of a
/// thousand members costs two diagnostics, not a million. In an adjacency literal every
/// edge is normally listed on both sides; that mirror listing is the same declaration,
/// not a duplicate.
fn self_loops_and_duplicates(model: &Model) -> (Vec<Diagnostic>, Vec<Diagnostic>) {
    let mut seen = SeenPairs::new(model.graph.node_count());
    let mut listed: HashSet<(usize, u32, u32)> = HashSet::new();
    // Where each repeated edge was first declared, looked up once per edge.
    let mut first_declared: PairMap<TextRange> = PairMap::default();
    let (mut self_loops, mut duplicates) = (Vec::new(), Vec::new());
    for edge in &model.edges {
        let mut loops = Repeats::default();
        let mut repeats = Repeats::default();
        for (pair, a, b) in model.indexed_pairs(edge) {
            if pair.is_self_loop() {
                loops.add(pair);
                continue;
            }
            let is_mirror = pair.origin == EdgeOrigin::Listed
                && listed.contains(&(pair.statement, pair.b, pair.a))
                && !listed.contains(&(pair.statement, pair.a, pair.b));
            if pair.origin == EdgeOrigin::Listed {
                listed.insert((pair.statement, pair.a, pair.b));
            }
            if !seen.insert(a.min(b), a.max(b)) && !is_mirror {
                repeats.add(pair);
            }
        }
        self_loops.extend(loops.first.map(|pair| match loops.count {
            1 => Diagnostic::new(
                Code::SelfLoop,
                pair.range,
                format!(
                    "node {} is joined to itself; a move must go to another node, so this edge is ignored: remove it",
                    pair.a
                ),
            ),
            count => Diagnostic::new(
                Code::SelfLoop,
                edge.range,
                format!(
                    "this group product joins {count} pairs of a node to itself, the first being {} -- {}; a move must go to another node, so these edges are ignored: remove them",
                    pair.a, pair.b
                ),
            ),
        }));
        duplicates.extend(repeats.first.map(|pair| {
            let diagnostic = match repeats.count {
                1 => Diagnostic::new(
                    Code::DuplicateEdge,
                    pair.range,
                    format!(
                        "the edge {} -- {} is declared again; it counts once, so this one can go",
                        pair.a, pair.b
                    ),
                ),
                count => Diagnostic::new(
                    Code::DuplicateEdge,
                    edge.range,
                    format!(
                        "this group product declares {count} edges again, the first being {} -- {}; each edge counts once, so the repeats can go",
                        pair.a, pair.b
                    ),
                ),
            };
            let (low, high) = pair.key();
            let first = *first_declared
                .entry(u64::from(low) << 32 | u64::from(high))
                .or_insert_with(|| model.first_declared(low, high).unwrap_or_default());
            diagnostic.with_related(first, "first declared here")
        }));
    }
    (self_loops, duplicates)
}

/// The pairs of one declaration that one check finds: how many, and the first.
#[derive(Default)]
struct Repeats {
    count: u64,
    first: Option<EdgePair>,
}

impl Repeats {
    fn add(&mut self, pair: EdgePair) {
        self.count += 1;
        self.first.get_or_insert(pair);
    }
}

/// The node pairs (dense indices, lower first) seen so far: a bit matrix while the graph
/// is small enough for one (8192 nodes take 8 MB), else a hash set. Products of
/// thousands of members check millions of pairs, and the bits keep that to a few
/// milliseconds.
enum SeenPairs {
    Bits { nodes: usize, bits: Vec<u64> },
    Set(HashSet<u64, BuildHasherDefault<PairHasher>>),
}

impl SeenPairs {
    const MAX_BIT_NODES: usize = 8192;

    fn new(nodes: usize) -> SeenPairs {
        if nodes <= SeenPairs::MAX_BIT_NODES {
            SeenPairs::Bits {
                nodes,
                bits: vec![0; (nodes * nodes).div_ceil(64)],
            }
        } else {
            SeenPairs::Set(HashSet::default())
        }
    }

    /// Adds the pair; whether it was new.
    fn insert(&mut self, low: u32, high: u32) -> bool {
        match self {
            SeenPairs::Bits { nodes, bits } => {
                let bit = low as usize * *nodes + high as usize;
                let (word, mask) = (bit / 64, 1u64 << (bit % 64));
                let new = bits[word] & mask == 0;
                bits[word] |= mask;
                new
            }
            SeenPairs::Set(set) => set.insert(u64::from(low) << 32 | u64::from(high)),
        }
    }
}

/// A hash map keyed by an unordered node pair packed into a `u64`. The default SipHash
/// guards against adversarial keys, which cost nothing here (the file's author only
/// slows their own check down), and it is several times slower than a multiply on the
/// millions of pairs a large group product declares.
type PairMap<V> = HashMap<u64, V, BuildHasherDefault<PairHasher>>;

#[derive(Default)]
struct PairHasher(u64);

impl Hasher for PairHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.write_u64(u64::from(byte));
        }
    }

    fn write_u64(&mut self, value: u64) {
        // Fibonacci hashing: the multiply spreads the low and high ids over all bits,
        // and the rotation brings the well-mixed high bits to where hashbrown looks.
        self.0 = (self.0 ^ value)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .rotate_left(26);
    }
}

/// In an adjacency literal, `i` lists `j` but `j` does not list `i`.
fn one_sided_edges(model: &Model) -> Vec<Diagnostic> {
    let listed_pairs = || {
        model
            .edges
            .iter()
            .filter(|edge| edge.origin == EdgeOrigin::Listed)
            .flat_map(|edge| model.pairs(edge))
    };
    let listed: HashSet<(usize, u32, u32)> = listed_pairs()
        .map(|edge| (edge.statement, edge.a, edge.b))
        .collect();
    let has_list: HashSet<(usize, u32)> = model
        .mentions
        .iter()
        .filter(|mention| mention.kind == super::MentionKind::ListIndex)
        .map(|mention| (mention.statement, mention.id))
        .collect();
    listed_pairs()
        .filter(|edge| !edge.is_self_loop())
        .filter(|edge| !listed.contains(&(edge.statement, edge.b, edge.a)))
        .map(|edge| {
            let (a, b) = (edge.a, edge.b);
            let message = if has_list.contains(&(edge.statement, b)) {
                format!("node {a} lists {b}, but list {b} does not list {a}; the edge counts both ways: add {a} to list {b}")
            } else {
                format!("node {a} lists {b}, but this literal has no list {b}; the edge counts both ways")
            };
            Diagnostic::new(Code::OneSidedEdge, edge.range, message)
        })
        .collect()
}

fn duplicate_labels(model: &Model) -> Vec<Diagnostic> {
    let mut first: HashMap<u32, &crate::syntax::Label> = HashMap::new();
    let mut diagnostics = Vec::new();
    for (id, label) in &model.labels {
        match first.get(id) {
            None => {
                first.insert(*id, label);
            }
            Some(earlier) if earlier.value == label.value => {}
            Some(earlier) => diagnostics.push(
                Diagnostic::new(
                    Code::DuplicateLabel,
                    label.range,
                    format!(
                        "node {id} already has the label {:?}; the first label is kept, so remove or change one",
                        earlier.value
                    ),
                )
                .with_related(earlier.range, "first labelled here"),
            ),
        }
    }
    diagnostics
}

fn duplicate_expects(model: &Model) -> Vec<Diagnostic> {
    let Some((first, rest)) = model.expects.split_first() else {
        return Vec::new();
    };
    let first_range = first.range();
    rest.iter()
        .map(|expect| {
            Diagnostic::new(
                Code::DuplicateExpect,
                expect.range(),
                "`expect` is given more than once; each one is checked, so keep one",
            )
            .with_related(first_range, "first given here")
        })
        .collect()
}

fn missing_mouse(model: &Model, file_start: TextRange) -> Option<Diagnostic> {
    (!model.graph.contains(1)).then(|| {
        Diagnostic::new(
            Code::MissingMouse,
            file_start,
            "node 1, where the mouse starts, is not in the graph, so there is no game: add an edge to node 1",
        )
    })
}

fn missing_cat(model: &Model, file_start: TextRange) -> Option<Diagnostic> {
    (!model.graph.contains(2)).then(|| {
        Diagnostic::new(
            Code::MissingCat,
            file_start,
            "node 2, where the cat starts, is not in the graph, so there is no game: add an edge to node 2",
        )
    })
}

fn missing_hole(model: &Model, file_start: TextRange) -> Option<Diagnostic> {
    (!model.graph.contains(0)).then(|| {
        Diagnostic::new(
            Code::MissingHole,
            file_start,
            "node 0, the hole, is not in the graph, so the mouse can never win: add an edge to node 0",
        )
    })
}

fn mouse_stuck(model: &Model) -> Option<Diagnostic> {
    let mouse = model.graph.mouse_start()?;
    model.graph.neighbours(mouse).is_empty().then(|| {
        Diagnostic::new(
            Code::MouseStuck,
            first_mention_range(model, 1),
            "node 1 has no neighbours, so the mouse cannot make its first move and the game is a draw: join node 1 to another node",
        )
    })
}

fn cat_stuck(model: &Model) -> Option<Diagnostic> {
    let cat = model.graph.cat_start()?;
    let hole = model.graph.hole();
    let can_move = model
        .graph
        .neighbours(cat)
        .iter()
        .any(|&next| Some(next) != hole);
    (!can_move).then(|| {
        Diagnostic::new(
            Code::CatStuck,
            first_mention_range(model, 2),
            "node 2 has no neighbour other than the hole, where the cat may not go, so the cat can never leave its start: join node 2 to a node other than 0",
        )
    })
}

fn hole_unreachable(model: &Model) -> Option<Diagnostic> {
    let graph = &model.graph;
    let (hole, mouse) = (graph.hole()?, graph.mouse_start()?);
    let reached = reachable(graph, mouse, None);
    (!reached[hole as usize]).then(|| {
        Diagnostic::new(
            Code::HoleUnreachable,
            first_mention_range(model, 0),
            "no path leads from node 1 to the hole, so the mouse can never win",
        )
    })
}

/// Nodes neither player can ever stand on: the mouse walks from node 1 and stops at
/// the hole, the cat walks from node 2 and never enters it.
fn unreachable_nodes(model: &Model) -> Vec<Diagnostic> {
    let graph = &model.graph;
    let (Some(mouse), Some(cat)) = (graph.mouse_start(), graph.cat_start()) else {
        return Vec::new();
    };
    let hole = graph.hole();
    let by_mouse = reachable(graph, mouse, hole);
    let by_cat = reachable(graph, cat, hole);
    (0..graph.node_count() as u32)
        .filter(|&index| Some(index) != hole)
        .filter(|&index| !by_mouse[index as usize] && !by_cat[index as usize])
        .map(|index| {
            let id = graph.id(index);
            Diagnostic::new(
                Code::UnreachableNode,
                first_mention_range(model, id),
                format!("node {id} can be reached by neither the mouse nor the cat, so it takes no part in the game"),
            )
        })
        .collect()
}

/// The nodes reachable from `start`, never walking on from `stop`.
fn reachable(graph: &Graph, start: u32, stop: Option<u32>) -> Vec<bool> {
    let mut seen = vec![false; graph.node_count()];
    let mut stack = vec![start];
    seen[start as usize] = true;
    while let Some(node) = stack.pop() {
        if Some(node) == stop {
            continue;
        }
        for &next in graph.neighbours(node) {
            if !seen[next as usize] {
                seen[next as usize] = true;
                stack.push(next);
            }
        }
    }
    seen
}

fn first_mention_range(model: &Model, id: u32) -> TextRange {
    model
        .first_mention(id)
        .map(|mention| mention.range)
        .unwrap_or_default()
}
