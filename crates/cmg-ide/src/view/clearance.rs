//! A post-pass on the layout: no edge passes over a node it does not join, and no two nodes overlap, so that a reader never takes a line for an edge it is not (two lines once ran between 8 and 4 in `examples/long-game.cmg`).
//!
//! Stress layout places nodes well on average but knows nothing of the drawn shapes, so a
//! line can run straight through a third node. This pass measures, in pixels, every node
//! against every edge it is not an end of and every other node (a grid of cells keeps
//! that to what is near each edge), and moves each node in a clash to the nearest spot
//! on a few rings around it where it is in fewer (what it could clash with there is
//! gathered from the grid once per node, then measured for each spot). Where that
//! stalls (a dense knot where every spot is on some line), the picture grows about its
//! centre and the nodes look again: distances from a point to a segment scale with the picture while the shapes
//! keep their size in pixels, so growing makes room, and one last factor clears every
//! remaining case. Random graphs are expanders whose lines are long: their fresh
//! pictures are first spread out to a bounded crowding (the lines' clear bands over the
//! picture's area) in one step.

use std::sync::atomic::{AtomicBool, Ordering};

use cmg_core::model::Graph;

use super::svg::NODE_RADIUS;

mod geometry;
mod grid;
#[cfg(test)]
mod tests;

pub use geometry::nearest_on_segment;
use geometry::*;
use grid::*;

/// The work one pass may do, in units: one unit is one thing looked at (a grid cell, a
/// node or an edge listed in one, a clash kept or measured again). Counted, not timed, so
/// that a file gives the same picture on every machine. Random graphs of
/// [`super::MAX_VIEW_NODES`] nodes and up to 16 000 edges stay within it (their pictures
/// are those of the pass without a budget); spending it whole takes about 1.5 s of a core
/// (`BENCHMARKS.md`). Dense graphs (complete bipartite ones, stars, many nodes joined to
/// the same few) spend it before every edge is clear.
pub const WORK_BUDGET: u64 = 1_500_000_000;

/// What bounds one pass: its work budget ([`WORK_BUDGET`] by default) and a flag that
/// stops it (a newer version of the file wants its own picture).
#[derive(Clone, Copy, Debug)]
pub struct Limits<'a> {
    pub work: u64,
    pub cancel: Option<&'a AtomicBool>,
}

impl Default for Limits<'_> {
    fn default() -> Self {
        Limits {
            work: WORK_BUDGET,
            cancel: None,
        }
    }
}

/// The pass was stopped by its cancel flag: there is no picture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cancelled;

/// How a pass ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cleared {
    /// Every edge clears every node it does not join, and every two nodes are apart.
    All,
    /// The work budget ran out, or the picture held more clashes than the pass keeps
    /// (see [`max_clashes`]): the positions are the best found, with clashes left.
    Cut,
}

/// The work counted so far against a [`Limits`].
pub(super) struct Work<'a> {
    spent: u64,
    limit: u64,
    cancel: Option<&'a AtomicBool>,
    cancelled: bool,
}

impl<'a> Work<'a> {
    pub(super) fn new(limits: Limits<'a>) -> Work<'a> {
        Work {
            spent: 0,
            limit: limits.work,
            cancel: limits.cancel,
            cancelled: false,
        }
    }

    fn spend(&mut self, units: usize) {
        self.spent = self.spent.saturating_add(units as u64);
    }

    /// Whether the pass must stop here: its budget is spent, or it was cancelled. Only
    /// asked where the positions make a whole picture (between two nodes' moves).
    pub(super) fn exhausted(&mut self) -> bool {
        if self.cancel.is_some_and(|flag| flag.load(Ordering::Relaxed)) {
            self.cancelled = true;
        }
        self.cancelled || self.spent > self.limit
    }

    pub(super) fn cancelled(&self) -> bool {
        self.cancelled
    }

    /// The units of work counted so far.
    pub(super) fn spent(&self) -> u64 {
        self.spent
    }
}

/// At most this many clashes are kept at once (40 bytes each, about 50 MB at the view's
/// limits): a picture with more is too crowded for relocating them one by one in the
/// budget, and keeping them all took gigabytes (a complete bipartite graph of 600 nodes
/// has 90 000 edges, and each of its first picture's edges passes over hundreds of
/// nodes). Linear in the graph; a star of 2000 leaves starts with about 700 000.
fn max_clashes(nodes: usize, edges: usize) -> usize {
    32 * (nodes + edges) + (1 << 20)
}

/// At most this many grid entries (an edge listed in a cell it passes near): a picture
/// whose edges cross it many times over is not relocated in. Linear in the graph.
fn max_grid_entries(nodes: usize, edges: usize) -> usize {
    64 * (nodes + edges) + 65_536
}

/// An edge keeps at least this far (pixels) from the centre of a node it does not join:
/// the node's radius and a gap that reads as "the line goes past".
pub const EDGE_CLEARANCE: f64 = NODE_RADIUS + 6.0;

/// Node centres keep at least this far apart: two shapes and a gap, so that a marker
/// drawn inside its node (the M and C tokens) never touches another node.
pub const NODE_SPACING: f64 = 2.0 * NODE_RADIUS + 12.0;

/// Rounds of relocating and growing before the last resort, one spread by the factor the
/// worst remaining clash needs. A seeded pass gets two more, for its first two rounds,
/// which do not grow: seeded stars of 2000 leaves and more use them (docs/dev/testing.md).
const GROW_ROUNDS: usize = 40;
const GROW: f64 = 1.1;

/// The growth of a round in which more than half of the nodes found no free spot.
const GROW_FAST: f64 = 1.3;

/// A fresh picture more crowded (see [`crowding`]) than [`CROWDED_NODES`] over its node
/// count, within these bounds, is first spread out to that in one step: random graphs
/// need it (their stress picture is small and their edges long), and relocating nodes
/// takes fewer rounds in a picture that has room, at the price of a larger picture.
const MAX_CROWDING: f64 = 4.0;
const MIN_CROWDING: f64 = 1.5;
const CROWDED_NODES: f64 = 2000.0;

/// A node in a clash looks for a free spot on this many rings around it, each
/// [`RING_STEP`] pixels farther out.
const RINGS: usize = 3;
const RING_STEP: f64 = NODE_SPACING / 2.0;

/// Free spots keep this much more than the clearances (pixels), so that rounding the
/// positions to hundredths of a pixel afterwards keeps them free.
const MARGIN: f64 = 0.5;

/// The side of a grid cell (pixels): at least the node spacing, so a node's neighbours
/// are in the 3 × 3 cells around it.
const CELL: f64 = 64.0;

/// Spreading never multiplies the picture by more than this (a bound on coordinates).
const MAX_SPREAD: f64 = 1e4;

/// One thing too close: a node near an edge it does not join, or two nodes.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Clash {
    /// Node `node` is `distance` from the edge `a`–`b` (dense indices).
    Edge {
        node: usize,
        edge: [usize; 2],
        distance: f64,
    },
    Nodes {
        a: usize,
        b: usize,
        distance: f64,
    },
}

impl Clash {
    /// How far the picture must be spread out for this clash to clear.
    fn spread_needed(&self) -> f64 {
        match *self {
            Clash::Edge { distance, .. } => EDGE_CLEARANCE / distance,
            Clash::Nodes { distance, .. } => NODE_SPACING / distance,
        }
    }

    fn distance(&self) -> f64 {
        match *self {
            Clash::Edge { distance, .. } | Clash::Nodes { distance, .. } => distance,
        }
    }
}

/// Moves nodes (pixels, dense index order) until every edge clears every node it does not
/// join by [`EDGE_CLEARANCE`] and every two nodes are [`NODE_SPACING`] apart. Positions
/// that already clear are given back untouched.
///
/// `seeded`: the positions come from the previous picture, so the clashes are few and
/// local (around an edit): the picture is not spread out first, and the first two
/// rounds only relocate, before growing (and so moving) the whole picture.
///
/// The work is bounded by `work` and the memory is linear in the graph: a pass cut
/// short leaves the best positions found ([`Cleared::Cut`]; every move only lowers the
/// clashes), a cancelled one leaves no picture to speak of.
pub(super) fn clear(
    graph: &Graph,
    positions: &mut [[f64; 2]],
    seeded: bool,
    work: &mut Work,
) -> Result<Cleared, Cancelled> {
    let cleared = clear_edges(&edge_list(graph), positions, seeded, work);
    if work.cancelled() {
        return Err(Cancelled);
    }
    Ok(cleared)
}

/// [`clear`] for the edges `edges` (dense indices).
fn clear_edges(
    edges: &[[usize; 2]],
    positions: &mut [[f64; 2]],
    seeded: bool,
    work: &mut Work,
) -> Cleared {
    let incident = incident_edges(positions.len(), edges);
    let cap = max_clashes(positions.len(), edges.len());
    // Move each node that is in a clash to the nearest spot where it is in fewer (none,
    // best); where that stalls, grow the picture a little and look again: in a larger
    // picture there is more room between the lines, so this finds a picture not much
    // larger than it must be. A move changes only the clashes of the node it moves, to
    // fewer, so the clashes only ever get fewer.
    // Relocating costs about the nodes times the rounds, and a larger picture takes
    // fewer rounds: large graphs start less crowded.
    let allowed = (CROWDED_NODES / positions.len() as f64).clamp(MIN_CROWDING, MAX_CROWDING);
    let mut found = match clashes_within(edges, positions, work, cap) {
        Some(mut found) => {
            if !found.is_empty() && !seeded {
                let crowding = crowding(edges, positions);
                if crowding > allowed {
                    spread(positions, crowding / allowed);
                    work.spend(found.len());
                    found = remeasure(&found, positions);
                }
            }
            found
        }
        None if work.exhausted() => return Cut,
        // Too many to keep: set apart the nodes that share a spot, spread out as above
        // (spreading only lengthens distances, so the clashes after it are among those
        // before), then count again.
        None => {
            separate_shared_spots(positions);
            if !seeded {
                let crowding = crowding(edges, positions);
                if crowding > allowed {
                    spread(positions, crowding / allowed);
                }
            }
            match clashes_within(edges, positions, work, cap) {
                Some(found) => found,
                None => return Cut,
            }
        }
    };
    found = in_order(found);
    // The grid relocating reads; it follows the nodes it moves, so it is built again
    // only after a spread has moved them all.
    let mut grid = None;
    let rounds = if seeded { GROW_ROUNDS + 2 } else { GROW_ROUNDS };
    for round in 0..rounds {
        if found.is_empty() {
            return Cleared::All;
        }
        if work.exhausted() {
            return Cut;
        }
        let mut involved = vec![false; positions.len()];
        for clash in &found {
            match *clash {
                Clash::Edge { node, edge, .. } => {
                    involved[node] = true;
                    involved[edge[0]] = true;
                    involved[edge[1]] = true;
                }
                Clash::Nodes { a, b, .. } => {
                    involved[a] = true;
                    involved[b] = true;
                }
            }
        }
        if grid.is_none() {
            grid = Grid::new(edges, positions, work);
        }
        let Some(reading) = grid.as_mut() else {
            return Cut;
        };
        let before = found.len();
        let (stuck, moved) = relocate(reading, edges, &incident, positions, &involved, work);
        if work.exhausted() {
            // Cut short between two moves: the positions are a picture with fewer
            // clashes than before the round.
            return Cut;
        }
        // Only the clashes of the nodes that moved (as a node, an end of an edge or one
        // of a pair) can have changed: those are measured again from the grid, which
        // has followed the moves; counting every clash again each round cost more than
        // the last rounds' relocating.
        let left = update(found, &moved, reading, edges, &incident, positions, work);
        #[cfg(test)]
        assert_eq!(
            left,
            in_order(clashes(edges, positions)),
            "the clashes kept across round {round} are those a full count finds"
        );
        // Grow only where relocating stalls: a round that clears less than a quarter of
        // the clashes, by more where more than half the nodes found no spot free.
        let stalled = 4 * left.len() > 3 * before;
        if stuck > 0 && stalled && !(seeded && round < 2) {
            spread(
                positions,
                if 2 * stuck > positions.len() {
                    GROW_FAST
                } else {
                    GROW
                },
            );
            // Spreading only lengthens distances: the clashes after it are among those
            // before, measured again.
            work.spend(left.len());
            found = remeasure(&left, positions);
            grid = None;
        } else {
            found = left;
        }
    }
    last_passes(edges, positions, work, cap)
}

/// What the rounds leave: nudges the worst clashes (those a spread would have to blow
/// the picture up for) a few passes, then spreads out by the one factor the rest needs.
fn last_passes(
    edges: &[[usize; 2]],
    positions: &mut [[f64; 2]],
    work: &mut Work,
    cap: usize,
) -> Cleared {
    for attempt in 0..LAST_PASSES {
        let Some(clashes) = clashes_within(edges, positions, work, cap) else {
            return Cut;
        };
        let clashes = in_order(clashes);
        if clashes.is_empty() {
            return Cleared::All;
        }
        let needed = clashes.iter().map(Clash::spread_needed).fold(1.0, f64::max);
        let positive = clashes.iter().all(|c| c.distance() > 1e-3);
        if positive && (needed <= WORST_SPREAD || attempt + 1 == LAST_PASSES) {
            // Some room for rounding to hundredths of a pixel afterwards.
            spread(positions, (needed * 1.01).min(MAX_SPREAD));
            return Cleared::All;
        }
        work.spend(clashes.len());
        for clash in clashes
            .into_iter()
            .filter(|c| c.distance() <= 1e-3 || c.spread_needed() > WORST_SPREAD)
        {
            nudge(positions, clash);
        }
        spread(positions, GROW);
    }
    Cleared::All
}

use Cleared::Cut;

/// Sets apart the nodes that share a spot exactly, each after the first of its spot on a
/// sunflower around it (the golden angle, a radius growing as the root of its rank, so
/// that they keep about [`NODE_SPACING`] apart): the leaves of a large star have the same
/// stress terms and land on one spot, every leaf in a clash with every other and with
/// every edge, more clashes than the pass keeps. Deterministic: spots and ranks follow
/// the positions and indices.
fn separate_shared_spots(positions: &mut [[f64; 2]]) {
    let mut order: Vec<usize> = (0..positions.len()).collect();
    order.sort_by(|&a, &b| {
        let (p, q) = (positions[a], positions[b]);
        p[0].total_cmp(&q[0])
            .then(p[1].total_cmp(&q[1]))
            .then(a.cmp(&b))
    });
    let mut start = 0;
    for i in 1..order.len() {
        let spot = positions[order[start]];
        if positions[order[i]] != spot {
            start = i;
            continue;
        }
        let rank = (i - start) as f64;
        let [x, y] = fallback_direction(i - start);
        let radius = NODE_SPACING * 0.6 * rank.sqrt();
        positions[order[i]] = [spot[0] + radius * x, spot[1] + radius * y];
    }
}

/// Passes after the rounds of relocating: the worst clashes are nudged and the picture grows
/// by [`GROW`], until one spread clears the rest.
const LAST_PASSES: usize = 16;

/// A clash that would need the picture spread more than this is nudged, not spread for.
const WORST_SPREAD: f64 = 2.0;

/// Whether `positions` (pixels) already clear every edge and node as [`clear`] leaves them.
/// Positions rounded to hundredths of a pixel after the pass still count as clear.
/// Stops at the first clash beyond the rounding; a count the work runs out in is not
/// clear.
pub(super) fn is_clear(graph: &Graph, positions: &[[f64; 2]], work: &mut Work) -> bool {
    each_clash(&edge_list(graph), positions, work, |clash| match clash {
        Clash::Edge { distance, .. } => distance >= EDGE_CLEARANCE - ROUNDING,
        Clash::Nodes { distance, .. } => distance >= NODE_SPACING - ROUNDING,
    })
}

/// Slack for positions rounded to hundredths of a pixel.
const ROUNDING: f64 = 0.05;

fn edge_list(graph: &Graph) -> Vec<[usize; 2]> {
    (0..graph.node_count() as u32)
        .flat_map(|a| {
            graph
                .neighbours(a)
                .iter()
                .filter(move |&&b| b > a)
                .map(move |&b| [a as usize, b as usize])
        })
        .collect()
}

/// Every clash, as [`each_clash`] finds them; `None` when there are more than `cap` or
/// the work ran out.
fn clashes_within(
    edges: &[[usize; 2]],
    positions: &[[f64; 2]],
    work: &mut Work,
    cap: usize,
) -> Option<Vec<Clash>> {
    let mut found = Vec::new();
    let whole = each_clash(edges, positions, work, |clash| {
        // Bounded by `cap`, and kept from aborting where memory is short.
        if found.len() >= cap || found.try_reserve(1).is_err() {
            return false;
        }
        found.push(clash);
        true
    });
    whole.then_some(found)
}

/// Every clash, however many, with no budget: what the tests compare the pass with.
#[cfg(test)]
fn clashes(edges: &[[usize; 2]], positions: &[[f64; 2]]) -> Vec<Clash> {
    let mut work = Work::new(Limits {
        work: u64::MAX,
        cancel: None,
    });
    clashes_within(edges, positions, &mut work, usize::MAX).expect("no limit")
}

/// Gives `visit` every clash, in a fixed order (edges by index, then node pairs by their
/// first node), so the pass is deterministic, while it says to go on; false when it said
/// to stop or the work ran out. A grid of the nodes bounds the work by what is near each
/// edge; boxes and squared distances skip what is plainly far before it is measured.
fn each_clash(
    edges: &[[usize; 2]],
    positions: &[[f64; 2]],
    work: &mut Work,
    mut visit: impl FnMut(Clash) -> bool,
) -> bool {
    if positions.is_empty() {
        return true;
    }
    let grid = NodeGrid::new(positions);
    work.spend(positions.len());
    for &[a, b] in edges {
        let (p, q) = (positions[a], positions[b]);
        let pad = EDGE_CLEARANCE + 1.0;
        let low = [p[0].min(q[0]) - pad, p[1].min(q[1]) - pad];
        let high = [p[0].max(q[0]) + pad, p[1].max(q[1]) + pad];
        let mut going = true;
        let mut looked = 1;
        grid.frame.near_segment(p, q, EDGE_CLEARANCE, |k| {
            let cell = grid.cell(k);
            looked += 1 + cell.len();
            for &node in cell {
                let node = node as usize;
                let c = positions[node];
                if !going
                    || node == a
                    || node == b
                    || c[0] < low[0]
                    || c[0] > high[0]
                    || c[1] < low[1]
                    || c[1] > high[1]
                {
                    continue;
                }
                if let Some(clash) = edge_clash(node, [a, b], positions) {
                    going = visit(clash);
                }
            }
        });
        work.spend(looked);
        if !going || work.exhausted() {
            return false;
        }
    }
    for (i, &p) in positions.iter().enumerate() {
        let mut going = true;
        let mut looked = 1;
        grid.near_point(p, |j| {
            looked += 1;
            if !going || j <= i {
                return;
            }
            if let Some(clash) = nodes_clash(i, j, positions) {
                going = visit(clash);
            }
        });
        work.spend(looked);
        if !going || work.exhausted() {
            return false;
        }
    }
    true
}

/// Those of `clashes` that are still clashes at `positions`, measured again as
/// [`clashes`] measures them, in their order.
fn remeasure(clashes: &[Clash], positions: &[[f64; 2]]) -> Vec<Clash> {
    clashes
        .iter()
        .filter_map(|clash| match *clash {
            Clash::Edge { node, edge, .. } => edge_clash(node, edge, positions),
            Clash::Nodes { a, b, .. } => nodes_clash(a, b, positions),
        })
        .collect()
}

/// `clashes` in the order the pass keeps them: edge clashes by edge and then node, then
/// node pairs. The order decides the last passes' nudges, so it must not depend on how
/// the clashes were found (a full count or an update around the nodes that moved).
fn in_order(mut clashes: Vec<Clash>) -> Vec<Clash> {
    clashes.sort_unstable_by_key(order_key);
    clashes
}

fn order_key(clash: &Clash) -> (u8, usize, usize, usize) {
    match *clash {
        Clash::Edge { node, edge, .. } => (0, edge[0], edge[1], node),
        Clash::Nodes { a, b, .. } => (1, a, b, 0),
    }
}

/// The clashes after the nodes in `moved` have moved, from those before (in the order of
/// [`in_order`]): the clashes touching no moved node are as they were; those of a moved
/// node (near an edge, an end of an edge near a node, one of two nodes too near) are
/// found again from `grid`, which holds the nodes and edges where they are now, and
/// measured as [`clashes`] measures them, to the bit. O(clashes + what is near the moved
/// nodes and their edges).
fn update(
    before: Vec<Clash>,
    moved: &[usize],
    grid: &Grid,
    edges: &[[usize; 2]],
    incident: &[Vec<usize>],
    positions: &[[f64; 2]],
    work: &mut Work,
) -> Vec<Clash> {
    if moved.is_empty() {
        return before;
    }
    work.spend(before.len());
    let mut is_moved = vec![false; positions.len()];
    for &v in moved {
        is_moved[v] = true;
    }
    let kept = before.into_iter().filter(|clash| match *clash {
        Clash::Edge { node, edge, .. } => {
            !(is_moved[node] || is_moved[edge[0]] || is_moved[edge[1]])
        }
        Clash::Nodes { a, b, .. } => !(is_moved[a] || is_moved[b]),
    });
    let mut found = Vec::new();
    let frame = &grid.frame;
    let mut looked = 0;
    for &v in moved {
        let p = positions[v];
        // The edges near a point are in its cell's list (each edge is listed in every
        // cell within the clearance of it).
        let here = &grid.edges[frame.index(frame.cell_of(p))];
        looked += here.len() + incident[v].len();
        for &e in here {
            let edge = edges[e];
            if edge[0] != v && edge[1] != v {
                found.extend(edge_clash(v, edge, positions));
            }
        }
        for &e in &incident[v] {
            let edge = edges[e];
            frame.near_segment(
                positions[edge[0]],
                positions[edge[1]],
                EDGE_CLEARANCE,
                |k| {
                    looked += 1 + grid.nodes[k].len();
                    for &w in &grid.nodes[k] {
                        if w != edge[0] && w != edge[1] {
                            found.extend(edge_clash(w, edge, positions));
                        }
                    }
                },
            );
        }
        // Nodes nearer than the spacing are in the 3 × 3 cells around (cells are wider
        // than the spacing; a node beyond the grid is in the border's cell, as near).
        frame.cells_around(p, |k| {
            looked += 1 + grid.nodes[k].len();
            for &w in &grid.nodes[k] {
                if w != v {
                    found.extend(nodes_clash(v.min(w), v.max(w), positions));
                }
            }
        });
    }
    work.spend(looked + found.len());
    // A clash between two moved nodes, or of an edge with a moved node and a moved end,
    // was found from both.
    found.sort_unstable_by_key(order_key);
    found.dedup_by_key(|clash| order_key(clash));
    // The kept clashes touch no moved node, the fresh ones each touch one: no clash is
    // in both, and merging the two ordered lists keeps the order.
    let mut merged = Vec::with_capacity(found.len());
    let mut fresh = found.into_iter().peekable();
    for clash in kept {
        while let Some(next) = fresh.next_if(|next| order_key(next) < order_key(&clash)) {
            merged.push(next);
        }
        merged.push(clash);
    }
    merged.extend(fresh);
    merged
}

/// For each node, the indices (into the edge list) of the edges it is an end of.
fn incident_edges(n: usize, edges: &[[usize; 2]]) -> Vec<Vec<usize>> {
    let mut incident = vec![Vec::new(); n];
    for (e, &[a, b]) in edges.iter().enumerate() {
        incident[a].push(e);
        incident[b].push(e);
    }
    incident
}

/// Moves each `involved` node that is in a clash to the nearest free spot on the rings
/// around it (in index order, so the pass is deterministic), and returns how many found
/// none and the nodes it moved.
/// `grid` holds the nodes where they are and follows them as they move; a node beyond its
/// cells is in the border's, so what the grid covers only bounds how much each cell holds.
fn relocate(
    grid: &mut Grid,
    edges: &[[usize; 2]],
    incident: &[Vec<usize>],
    positions: &mut [[f64; 2]],
    involved: &[bool],
    work: &mut Work,
) -> (usize, Vec<usize>) {
    // The spots to try, nearest first, as offsets: 6 on the first ring, 12 on the next…
    let spots: Vec<(usize, [f64; 2])> = (1..=RINGS)
        .flat_map(|ring| {
            let count = 6 * ring;
            (0..count).map(move |k| {
                let (sin, cos) = (std::f64::consts::TAU * k as f64 / count as f64).sin_cos();
                let radius = ring as f64 * RING_STEP;
                (ring, [radius * cos, radius * sin])
            })
        })
        .collect();
    let mut near = Neighbourhood::new(positions.len(), edges.len());
    let mut stuck = 0;
    let mut moved = Vec::new();
    // What a spot on each ring measures at most, as of the node in hand.
    let mut to_measure = [0; RINGS + 1];
    for v in (0..positions.len()).filter(|&v| involved[v]) {
        // Stops between two nodes' moves, where the positions make a picture.
        if work.exhausted() {
            break;
        }
        let here = positions[v];
        work.spend(near.gather(grid, v, edges, &incident[v], positions));
        for (ring, units) in to_measure.iter_mut().enumerate() {
            *units = near.to_measure(ring);
        }
        work.spend(to_measure[0]);
        let now = near.clashes_at(here, 0, usize::MAX);
        if now == 0 {
            continue;
        }
        // The nearest spot with the fewest clashes, if fewer than here; the rings are
        // turned by a fixed angle per node, so that neighbours do not try the same spots.
        let [cos, sin] = fallback_direction(v);
        let mut best = (now, here);
        for &(ring, [x, y]) in &spots {
            let at = [here[0] + x * cos - y * sin, here[1] + x * sin + y * cos];
            work.spend(to_measure[ring]);
            let there = near.clashes_at(at, ring, best.0);
            if there < best.0 {
                best = (there, at);
                if there == 0 {
                    break;
                }
            }
        }
        if best.0 < now {
            work.spend(grid.move_node(v, best.1, edges, &incident[v], positions));
            moved.push(v);
        }
        if best.0 > 0 {
            stuck += 1;
        }
    }
    (stuck, moved)
}
