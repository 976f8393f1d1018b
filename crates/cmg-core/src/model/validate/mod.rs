//! The checks of a model that need no solving, one function per check.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

use cmg_syntax::{LineIndex, Parse, TextRange};

use super::{
    Diagnostic, DiagnosticKind, EdgeDecl, EdgeOrigin, EdgePair, Graph, Model, RuleArgument, Within,
};

mod rules;

/// Appends the diagnostics of every check to `diagnostics`, check by check (the caller
/// sorts them by position, a stable sort): a file of 250 000 duplicate edges has as many
/// diagnostics, which are written once, where they are kept, not copied from list to
/// list.
pub(super) fn validate(
    text: &str,
    parse: &Parse,
    model: &Model,
    diagnostics: &mut Vec<Diagnostic>,
) {
    self_loops_and_duplicates(model, diagnostics);
    if !model.edges_truncated {
        // After a cut, the lists that would answer a one-sided entry may be missing.
        diagnostics.extend(one_sided_edges(model));
    }
    diagnostics.extend(duplicate_labels(model));
    diagnostics.extend(duplicate_expects(model));
    let file_start = file_start(text, parse);
    diagnostics.extend(missing_mouse(model, file_start));
    diagnostics.extend(missing_cat(model, file_start));
    diagnostics.extend(missing_holes(model, file_start));
    diagnostics.extend(rules::start_ends_game(model));
    if model
        .edges
        .iter()
        .any(|edge| edge.origin == EdgeOrigin::Arc)
    {
        rules::arc_checks(model, diagnostics);
    }
    // A graph cut short by `too-many-edges` lacks edges the file declares, so what it
    // says about moves and reachability would be wrong: those checks wait for the fix.
    if model.edges_truncated {
        return;
    }
    diagnostics.extend(mouse_stuck(model));
    diagnostics.extend(cat_stuck(model));
    let reach = Reach::new(&model.graph);
    diagnostics.extend(hole_unreachable(model, &reach));
    diagnostics.extend(unreachable_nodes(model, &reach));
    diagnostics.extend(rules::no_moves(model, &reach));
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
/// each distinct pair to its first declaration. A statement that repeats many pairs
/// (`{1 2 3} -- {1 2 3}` has three self-loops and three repeated edges, and so do
/// `1 -- 1 -- 1 -- 1` and `[[1,1,1,1]]`) gets one diagnostic per code, with the count
/// and the first example, so a product of a thousand members or a 2 MB list costs two
/// diagnostics, not a million. In an adjacency literal every edge is normally listed
/// on both sides; that mirror listing is the same declaration, not a duplicate.
///
/// Each statement's self-loop comes before its duplicate; statements do not overlap, so
/// after the stable sort by position this is the order of all self-loops before all
/// duplicates.
fn self_loops_and_duplicates(model: &Model, diagnostics: &mut Vec<Diagnostic>) {
    // Made when the first link that can repeat a pair comes: a file without repeats
    // never zeroes its bits (8 MB at 8192 nodes).
    let mut seen: Option<SeenPairs> = None;
    let mut listed: HashSet<(u32, u32, u32)> = HashSet::new();
    // The duplicate diagnostics start here; where each one's edge was first declared is
    // filled in after the pass, for all of them at once.
    let start = diagnostics.len();
    // What the current statement repeats; reported when the next statement starts.
    let mut statement = u32::MAX;
    let mut loops = Repeats::default();
    let mut repeats = Repeats::default();
    for (index, edge) in model.edges.iter().enumerate() {
        // One-way edges have checks of their own (`rules.rs`).
        if edge.origin == EdgeOrigin::Arc {
            continue;
        }
        if edge.statement != statement {
            diagnostics.extend(loops.self_loop_diagnostic());
            diagnostics.extend(repeats.duplicate_diagnostic());
            (loops, repeats) = (Repeats::default(), Repeats::default());
            statement = edge.statement;
        }
        // A chain link whose left ends have no repeats declares each of its pairs once
        // in the whole file, and none of them is a self-loop: nothing to find or to
        // remember. Listed edges are always looked at, for their mirror entries.
        if edge.origin == EdgeOrigin::Chain
            && model
                .mention_nodes(&edge.left)
                .iter()
                .all(|&node| !model.has_repeats[node as usize])
        {
            continue;
        }
        let mut check = |pair: EdgePair, a: u32, b: u32| {
            if pair.is_self_loop() {
                loops.add(pair, index, edge.range);
                return;
            }
            let is_mirror = pair.origin == EdgeOrigin::Listed
                && listed.contains(&(pair.statement, pair.b, pair.a))
                && !listed.contains(&(pair.statement, pair.a, pair.b));
            if pair.origin == EdgeOrigin::Listed {
                listed.insert((pair.statement, pair.a, pair.b));
            }
            let seen = seen.get_or_insert_with(|| SeenPairs::new(&model.graph));
            if !seen.insert(a.min(b), a.max(b)) && !is_mirror {
                repeats.add(pair, index, edge.range);
            }
        };
        for_each_pair(model, edge, &mut check);
    }
    diagnostics.extend(loops.self_loop_diagnostic());
    diagnostics.extend(repeats.duplicate_diagnostic());
    fill_first_declarations(model, &mut diagnostics[start..]);
}

/// Calls `f` with each pair of `edge` and the dense indices of its ends, in source order.
fn for_each_pair(model: &Model, edge: &EdgeDecl, f: &mut impl FnMut(EdgePair, u32, u32)) {
    match (
        model.mention_nodes(&edge.left),
        model.mention_nodes(&edge.right),
    ) {
        // One pair, the link `a -- b` most lines are: no product to walk.
        (&[a], &[b]) => f(model.single_pair(edge), a, b),
        _ => {
            for (pair, a, b) in model.indexed_pairs(edge) {
                f(pair, a, b);
            }
        }
    }
}

/// Points each duplicate diagnostic among `diagnostics` at the first declaration of its
/// edge: the first pair in source order that joins the same two nodes. One more walk
/// over the declarations finds them all, stopping when the last is found, so the work
/// is linear in the pairs declared however often each repeats (a lookup per repeat
/// would walk a node's mentions each time: quadratic in a file that repeats many
/// pairs of a few hundred nodes). Only pairs whose two ends have repeats can be
/// repeated edges, so only those are looked up.
fn fill_first_declarations(model: &Model, diagnostics: &mut [Diagnostic]) {
    let mut first: PairMap<Option<TextRange>> = PairMap::default();
    for diagnostic in diagnostics.iter() {
        if let DiagnosticKind::DuplicateEdge { a, b, .. }
        | DiagnosticKind::DuplicateEdges { a, b, .. } = diagnostic.kind()
        {
            first.insert(pair_key(a, b), None);
        }
    }
    let mut missing = first.len();
    for edge in &model.edges {
        if missing == 0 {
            break;
        }
        if edge.origin == EdgeOrigin::Arc {
            continue;
        }
        for_each_pair(model, edge, &mut |pair, a, b| {
            if missing == 0
                || pair.is_self_loop()
                || !(model.has_repeats[a as usize] && model.has_repeats[b as usize])
            {
                return;
            }
            if let Some(slot @ None) = first.get_mut(&pair_key(pair.a, pair.b)) {
                *slot = Some(pair.range);
                missing -= 1;
            }
        });
    }
    for diagnostic in diagnostics.iter_mut() {
        if let DiagnosticKind::DuplicateEdge { a, b, .. }
        | DiagnosticKind::DuplicateEdges { a, b, .. } = diagnostic.kind()
        {
            let at = first.get(&pair_key(a, b)).copied().flatten();
            diagnostic.set_first_declared(at.unwrap_or_default());
        }
    }
}

/// The key of the pair of node ids `a`, `b` in either order.
fn pair_key(a: u32, b: u32) -> u64 {
    u64::from(a.min(b)) << 32 | u64::from(a.max(b))
}

/// The pairs of one statement that one check finds: how many, the first, and the
/// declarations they are in.
#[derive(Default)]
struct Repeats {
    count: u64,
    first: Option<EdgePair>,
    /// The range from the first declaration with a repeat to the last.
    range: Option<TextRange>,
    /// How many declarations have one: a single group product keeps its own words.
    declarations: u32,
    last_declaration: Option<usize>,
}

impl Repeats {
    fn add(&mut self, pair: EdgePair, declaration: usize, range: TextRange) {
        self.count += 1;
        self.first.get_or_insert(pair);
        self.range = Some(self.range.map_or(range, |seen| seen.cover(range)));
        if self.last_declaration != Some(declaration) {
            self.declarations += 1;
            self.last_declaration = Some(declaration);
        }
    }

    /// What the repeats are in, for a message: "this group product" when they are all
    /// in one declaration, "this statement" when in several.
    fn within(&self) -> Within {
        if self.declarations == 1 {
            Within::GroupProduct
        } else {
            Within::Statement
        }
    }

    /// The count for a message: at most [`MAX_EDGE_PAIRS`](super::MAX_EDGE_PAIRS) pairs
    /// are declared, far below `u32::MAX`.
    fn count(&self) -> u32 {
        u32::try_from(self.count).unwrap_or(u32::MAX)
    }

    fn self_loop_diagnostic(&self) -> Option<Diagnostic> {
        let pair = self.first?;
        Some(match self.count {
            1 => Diagnostic::new(pair.range, DiagnosticKind::SelfLoop { node: pair.a }),
            _ => Diagnostic::new(
                self.range.unwrap_or(pair.range),
                DiagnosticKind::SelfLoops {
                    count: self.count(),
                    a: pair.a,
                    b: pair.b,
                    within: self.within(),
                },
            ),
        })
    }

    /// The statement's duplicate diagnostic, if it has repeats; where the edge was
    /// first declared is filled in later, by [`fill_first_declarations`].
    fn duplicate_diagnostic(&self) -> Option<Diagnostic> {
        let pair = self.first?;
        let first = TextRange::default();
        let (a, b) = (pair.a, pair.b);
        Some(match self.count {
            1 => Diagnostic::new(pair.range, DiagnosticKind::DuplicateEdge { a, b, first }),
            _ => Diagnostic::new(
                self.range.unwrap_or(pair.range),
                DiagnosticKind::DuplicateEdges {
                    count: self.count(),
                    a,
                    b,
                    within: self.within(),
                    first,
                },
            ),
        })
    }
}

/// The node pairs (dense indices, lower first) seen so far: a bit matrix while the graph
/// is small enough for one (8192 nodes take 8 MB), else a bit per entry of the graph's
/// adjacency lists, found by a binary search in the lower node's list (every pair
/// declared is an edge of the graph, or a self-loop, which is never looked up).
/// Products of thousands of members check millions of pairs, and the bits keep that to
/// a few milliseconds; on a large sparse graph the lists are short and the search is
/// cheaper than hashing the pair.
enum SeenPairs<'a> {
    Bits {
        nodes: usize,
        bits: Vec<u64>,
    },
    Entries {
        adjacency: &'a [Vec<u32>],
        /// Where each node's list starts among all the entries.
        starts: Vec<usize>,
        bits: Vec<u64>,
    },
}

impl<'a> SeenPairs<'a> {
    const MAX_BIT_NODES: usize = 8192;

    fn new(graph: &'a Graph) -> SeenPairs<'a> {
        if graph.node_count() <= SeenPairs::MAX_BIT_NODES {
            SeenPairs::bits(graph.node_count())
        } else {
            SeenPairs::entries(graph)
        }
    }

    fn bits(nodes: usize) -> SeenPairs<'a> {
        SeenPairs::Bits {
            nodes,
            bits: vec![0; (nodes * nodes).div_ceil(64)],
        }
    }

    fn entries(graph: &'a Graph) -> SeenPairs<'a> {
        let nodes = graph.node_count();
        let adjacency = graph.adjacency();
        let mut starts = Vec::with_capacity(nodes + 1);
        let mut total = 0;
        starts.push(0);
        for neighbours in adjacency {
            total += neighbours.len();
            starts.push(total);
        }
        SeenPairs::Entries {
            adjacency,
            starts,
            bits: vec![0; total.div_ceil(64)],
        }
    }

    /// Adds the pair; whether it was new.
    fn insert(&mut self, low: u32, high: u32) -> bool {
        let (bits, bit) = match self {
            SeenPairs::Bits { nodes, bits } => (bits, low as usize * *nodes + high as usize),
            SeenPairs::Entries {
                adjacency,
                starts,
                bits,
            } => match adjacency[low as usize].binary_search(&high) {
                Ok(position) => (bits, starts[low as usize] + position),
                // Not an edge of the graph: cannot happen, and is never a repeat.
                Err(_) => return true,
            },
        };
        let (word, mask) = (bit / 64, 1u64 << (bit % 64));
        let new = bits[word] & mask == 0;
        bits[word] |= mask;
        new
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
    // Most files have no adjacency literal; they need not pay for a scan of the mentions.
    if !model
        .edges
        .iter()
        .any(|edge| edge.origin == EdgeOrigin::Listed)
    {
        return Vec::new();
    }
    let listed_pairs = || {
        model
            .edges
            .iter()
            .filter(|edge| edge.origin == EdgeOrigin::Listed)
            .flat_map(|edge| model.pairs(edge))
    };
    let listed: HashSet<(u32, u32, u32)> = listed_pairs()
        .map(|edge| (edge.statement, edge.a, edge.b))
        .collect();
    let has_list: HashSet<(u32, u32)> = model
        .mentions
        .iter()
        .filter(|mention| mention.kind == super::MentionKind::ListIndex)
        .map(|mention| (mention.statement, mention.id))
        .collect();
    // A list that names the same one-sided neighbour many times (`[[1,1,1,…]]`) gets
    // one diagnostic for it: the repeats are `duplicate-edge`'s, counted there.
    let mut reported: HashSet<(u32, u32, u32)> = HashSet::new();
    listed_pairs()
        .filter(|edge| !edge.is_self_loop())
        .filter(|edge| !listed.contains(&(edge.statement, edge.b, edge.a)))
        .filter(|edge| reported.insert((edge.statement, edge.a, edge.b)))
        .map(|edge| {
            let (a, b) = (edge.a, edge.b);
            let has_list = has_list.contains(&(edge.statement, b));
            Diagnostic::new(edge.range, DiagnosticKind::OneSidedEdge { a, b, has_list })
        })
        .collect()
}

fn duplicate_labels(model: &Model) -> Vec<Diagnostic> {
    let mut first: HashMap<u32, &cmg_syntax::Label> = HashMap::new();
    let mut diagnostics = Vec::new();
    for (id, label) in &model.labels {
        match first.get(id) {
            None => {
                first.insert(*id, label);
            }
            Some(earlier) if earlier.value == label.value => {}
            Some(earlier) => diagnostics.push(Diagnostic::new(
                label.range,
                DiagnosticKind::DuplicateLabel {
                    id: *id,
                    first: earlier.range,
                },
            )),
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
                expect.range(),
                DiagnosticKind::DuplicateExpect { first: first_range },
            )
        })
        .collect()
}

/// Where a start or a hole is: the rule that names it, else the start of the file.
fn stated_at(model: &Model, argument: RuleArgument, file_start: TextRange) -> TextRange {
    model
        .graph
        .rules()
        .argument_range(argument)
        .unwrap_or(file_start)
}

fn missing_mouse(model: &Model, file_start: TextRange) -> Option<Diagnostic> {
    let id = model.graph.rules().mouse_start;
    (!model.graph.contains(id)).then(|| {
        let at = stated_at(model, RuleArgument::MouseStart, file_start);
        Diagnostic::new(at, DiagnosticKind::MissingMouse { id })
    })
}

fn missing_cat(model: &Model, file_start: TextRange) -> Option<Diagnostic> {
    let id = model.graph.rules().cat_start;
    (!model.graph.contains(id)).then(|| {
        let at = stated_at(model, RuleArgument::CatStart, file_start);
        Diagnostic::new(at, DiagnosticKind::MissingCat { id })
    })
}

/// Each hole that is not a node; with several holes, each at its place in the rule.
fn missing_holes(model: &Model, file_start: TextRange) -> Vec<Diagnostic> {
    let holes = &model.graph.rules().holes;
    let several = holes.len() > 1;
    let others = !model.graph.holes().is_empty();
    holes
        .iter()
        .filter(|&&id| !model.graph.contains(id))
        .map(|&id| {
            let at = stated_at(model, RuleArgument::Hole(id), file_start);
            Diagnostic::new(
                at,
                DiagnosticKind::MissingHole {
                    id,
                    several,
                    others,
                },
            )
        })
        .collect()
}

fn mouse_stuck(model: &Model) -> Option<Diagnostic> {
    let mouse = model.graph.mouse_start()?;
    let id = model.graph.id(mouse);
    // A mouse that starts on the cat or on a hole never moves: `start-ends-game` says so.
    if model.graph.is_hole(mouse) || Some(mouse) == model.graph.cat_start() {
        return None;
    }
    (model.graph.moves(mouse).next().is_none()).then(|| {
        Diagnostic::new(
            first_mention_range(model, id),
            DiagnosticKind::MouseStuck {
                id,
                one_way: model.graph.has_arcs(),
            },
        )
    })
}

fn cat_stuck(model: &Model) -> Option<Diagnostic> {
    let graph = &model.graph;
    let cat = graph.cat_start()?;
    let id = graph.id(cat);
    let can_move = graph.moves(cat).any(|next| graph.cat_may_enter(next));
    let joined = graph.moves(cat).next().is_some();
    let hole = match graph.rules().holes.as_slice() {
        [hole] => Some(*hole),
        _ => None,
    };
    (!can_move).then(|| {
        Diagnostic::new(
            first_mention_range(model, id),
            DiagnosticKind::CatStuck { id, joined, hole },
        )
    })
}

fn hole_unreachable(model: &Model, reach: &Reach) -> Option<Diagnostic> {
    let graph = &model.graph;
    let mouse = graph.id(graph.mouse_start()?);
    let several = graph.rules().holes.len() > 1;
    let at = graph.hole().map(|hole| graph.id(hole))?;
    (!reach.hole_reached_by_mouse?).then(|| {
        Diagnostic::new(
            first_mention_range(model, at),
            DiagnosticKind::HoleUnreachable { mouse, several },
        )
    })
}

/// Nodes neither player can ever stand on: the mouse walks from node 1 and stops at
/// the hole, the cat walks from node 2 and never enters it.
fn unreachable_nodes(model: &Model, reach: &Reach) -> Vec<Diagnostic> {
    let graph = &model.graph;
    let Some(by_either) = &reach.by_either else {
        return Vec::new();
    };
    (0..graph.node_count() as u32)
        .filter(|&index| !graph.is_hole(index) && !by_either[index as usize])
        .map(|index| {
            let id = graph.id(index);
            Diagnostic::new(
                first_mention_range(model, id),
                DiagnosticKind::UnreachableNode { id },
            )
        })
        .collect()
}

/// Where the players can go, found in one walk of the graph along the moves: first from
/// the mouse's start, then on from the cat's through what the mouse left unvisited,
/// neither walking on from a hole.
pub(super) struct Reach {
    /// Whether the mouse's walk reaches a hole; `None` without a hole or the mouse's start.
    /// A walk that stops at the holes reaches one exactly when one that walks on would.
    hole_reached_by_mouse: Option<bool>,
    /// The nodes the mouse or the cat can reach; `None` without either start.
    pub(super) by_either: Option<Vec<bool>>,
}

impl Reach {
    fn new(graph: &Graph) -> Reach {
        let Some(mouse) = graph.mouse_start() else {
            return Reach {
                hole_reached_by_mouse: None,
                by_either: None,
            };
        };
        let mut walk = Walk::new(graph);
        walk.from(mouse);
        let holes = graph.holes();
        let hole_reached_by_mouse =
            (!holes.is_empty()).then(|| holes.iter().any(|&hole| walk.seen[hole as usize]));
        let by_either = graph.cat_start().map(|cat| {
            walk.from(cat);
            walk.seen
        });
        Reach {
            hole_reached_by_mouse,
            by_either,
        }
    }
}

/// A depth-first walk along the moves that can be continued from another start, never
/// walking on from a hole.
struct Walk<'a> {
    graph: &'a Graph,
    seen: Vec<bool>,
    stack: Vec<u32>,
}

impl<'a> Walk<'a> {
    fn new(graph: &'a Graph) -> Walk<'a> {
        Walk {
            graph,
            seen: vec![false; graph.node_count()],
            stack: Vec::new(),
        }
    }

    /// Marks every node reachable from `start` that is not marked yet.
    fn from(&mut self, start: u32) {
        if std::mem::replace(&mut self.seen[start as usize], true) {
            return;
        }
        self.stack.push(start);
        while let Some(node) = self.stack.pop() {
            if self.graph.is_hole(node) {
                continue;
            }
            for next in self.graph.moves(node) {
                if !self.seen[next as usize] {
                    self.seen[next as usize] = true;
                    self.stack.push(next);
                }
            }
        }
    }
}

pub(super) fn first_mention_range(model: &Model, id: u32) -> TextRange {
    model
        .first_mention(id)
        .map(|mention| mention.range)
        .unwrap_or_default()
}

#[cfg(test)]
mod tests;
