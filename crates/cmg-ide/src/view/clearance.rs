//! A post-pass on the layout: no edge passes over a node it does not join, and no two nodes overlap, so that a reader never takes a line for an edge it is not (issue 19: two lines ran between 8 and 4 in `examples/long-game.cmg`).
//!
//! Stress layout places nodes well on average but knows nothing of the drawn shapes, so a
//! line can run straight through a third node. This pass measures, in pixels, every node
//! against every edge it is not an end of and every other node (a grid of cells keeps
//! that to what is near each edge), and moves each node in a clash to the nearest spot
//! on a few rings around it where it is in fewer. Where that stalls (a dense knot where
//! every spot is on some line), the picture grows about its centre and the nodes look
//! again: distances from a point to a segment scale with the picture while the shapes
//! keep their size in pixels, so growing makes room, and one last factor clears every
//! remaining case. Random graphs are expanders whose lines are long: their fresh
//! pictures are first spread out to a bounded crowding (the lines' clear bands over the
//! picture's area) in one step.

use cmg_core::model::Graph;

use super::svg::NODE_RADIUS;

/// An edge keeps at least this far (pixels) from the centre of a node it does not join:
/// the node's radius and a gap that reads as "the line goes past".
pub const EDGE_CLEARANCE: f64 = NODE_RADIUS + 6.0;

/// Node centres keep at least this far apart: two shapes and a gap, so that a marker
/// drawn inside its node (the M and C tokens) never touches another node.
pub const NODE_SPACING: f64 = 2.0 * NODE_RADIUS + 12.0;

/// Rounds of relocating and growing before the last resort, one spread by the factor the
/// worst remaining clash needs.
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
#[derive(Clone, Copy, Debug)]
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
pub fn clear(graph: &Graph, positions: &mut [[f64; 2]], seeded: bool) {
    let edges = edge_list(graph);
    let incident = incident_edges(positions.len(), &edges);
    // Move each node that is in a clash to the nearest spot where it is in fewer (none,
    // best); where that stalls, grow the picture a little and look again: in a larger
    // picture there is more room between the lines, so this finds a picture not much
    // larger than it must be. A move changes only the clashes of the node it moves, to
    // fewer, so the clashes only ever get fewer.
    let rounds = if seeded { GROW_ROUNDS + 2 } else { GROW_ROUNDS };
    let mut found = clashes(&edges, positions);
    if !found.is_empty() && !seeded {
        // Relocating costs about the nodes times the rounds, and a larger picture takes
        // fewer rounds: large graphs start less crowded.
        let allowed = (CROWDED_NODES / positions.len() as f64).clamp(MIN_CROWDING, MAX_CROWDING);
        let crowding = crowding(&edges, positions);
        if crowding > allowed {
            spread(positions, crowding / allowed);
            found = clashes(&edges, positions);
        }
    }
    for round in 0..rounds {
        if found.is_empty() {
            return;
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
        let stuck = relocate(&edges, &incident, positions, &involved);
        // Grow only where relocating stalls: a round that clears less than a quarter of
        // the clashes, by more where more than half the nodes found no spot free.
        let left = clashes(&edges, positions);
        let stalled = 4 * left.len() > 3 * found.len();
        if stuck > 0 && stalled && !(seeded && round < 2) {
            spread(
                positions,
                if 2 * stuck > positions.len() {
                    GROW_FAST
                } else {
                    GROW
                },
            );
            found = clashes(&edges, positions);
        } else {
            found = left;
        }
    }
    // What is left: nudge the worst clashes (those a spread would have to blow the
    // picture up for) a few passes, then spread out by the one factor the rest needs.
    for attempt in 0..LAST_PASSES {
        let clashes = clashes(&edges, positions);
        if clashes.is_empty() {
            return;
        }
        let needed = clashes.iter().map(Clash::spread_needed).fold(1.0, f64::max);
        let positive = clashes.iter().all(|c| c.distance() > 1e-3);
        if positive && (needed <= WORST_SPREAD || attempt + 1 == LAST_PASSES) {
            // Some room for rounding to hundredths of a pixel afterwards.
            spread(positions, (needed * 1.01).min(MAX_SPREAD));
            return;
        }
        for clash in clashes
            .into_iter()
            .filter(|c| c.distance() <= 1e-3 || c.spread_needed() > WORST_SPREAD)
        {
            nudge(positions, clash);
        }
        spread(positions, GROW);
    }
}

/// Passes after the rounds of relocating: the worst clashes are nudged and the picture grows
/// by [`GROW`], until one spread clears the rest.
const LAST_PASSES: usize = 16;

/// A clash that would need the picture spread more than this is nudged, not spread for.
const WORST_SPREAD: f64 = 2.0;

/// Whether `positions` (pixels) already clear every edge and node as [`clear`] leaves them.
/// Positions rounded to hundredths of a pixel after the pass still count as clear.
pub fn is_clear(graph: &Graph, positions: &[[f64; 2]]) -> bool {
    clashes(&edge_list(graph), positions)
        .iter()
        .all(|clash| match *clash {
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

/// Every clash, in a fixed order (edges by index, then node pairs by their first node),
/// so the pass is deterministic. The grid bounds the work by what is near each edge.
fn clashes(edges: &[[usize; 2]], positions: &[[f64; 2]]) -> Vec<Clash> {
    let mut found = Vec::new();
    if positions.is_empty() {
        return found;
    }
    let grid = Grid::new(&[], positions);
    for &[a, b] in edges {
        let (p, q) = (positions[a], positions[b]);
        grid.nodes_near_segment(p, q, [a, b], positions, |node, distance| {
            if distance < EDGE_CLEARANCE {
                found.push(Clash::Edge {
                    node,
                    edge: [a, b],
                    distance,
                });
            }
        });
    }
    for (i, &p) in positions.iter().enumerate() {
        grid.near_point(p, |j| {
            let q = positions[j];
            let distance = length([q[0] - p[0], q[1] - p[1]]);
            if j > i && distance < NODE_SPACING {
                found.push(Clash::Nodes {
                    a: i,
                    b: j,
                    distance,
                });
            }
        });
    }
    found
}

/// The point of segment `p`–`q` nearest to `c`.
pub fn nearest_on_segment(c: [f64; 2], p: [f64; 2], q: [f64; 2]) -> [f64; 2] {
    let d = [q[0] - p[0], q[1] - p[1]];
    let squared = d[0] * d[0] + d[1] * d[1];
    let t = if squared > 0.0 {
        (((c[0] - p[0]) * d[0] + (c[1] - p[1]) * d[1]) / squared).clamp(0.0, 1.0)
    } else {
        0.0
    };
    [p[0] + t * d[0], p[1] + t * d[1]]
}

fn length(v: [f64; 2]) -> f64 {
    (v[0] * v[0] + v[1] * v[1]).sqrt()
}

/// A fixed direction per index, for things on one spot (no direction to push along).
fn fallback_direction(index: usize) -> [f64; 2] {
    let angle = index as f64 * 2.399_963; // the golden angle: directions never repeat
    [angle.cos(), angle.sin()]
}

/// Pushes the clash apart, a little past the clearance so it does not come straight back.
fn nudge(positions: &mut [[f64; 2]], clash: Clash) {
    match clash {
        Clash::Edge {
            node, edge: [a, b], ..
        } => {
            // Earlier nudges of this pass may have moved the node or the edge: measure again.
            let c = positions[node];
            let near = nearest_on_segment(c, positions[a], positions[b]);
            let now = length([c[0] - near[0], c[1] - near[1]]);
            if now >= EDGE_CLEARANCE {
                return;
            }
            let away = if now > 1e-6 {
                [(c[0] - near[0]) / now, (c[1] - near[1]) / now]
            } else {
                fallback_direction(node)
            };
            // The node goes most of the way, the edge the rest: in a crowded picture
            // moving only the node pushes it into the next line.
            let push = EDGE_CLEARANCE - now + 2.0;
            positions[node] = [c[0] + away[0] * push * 0.6, c[1] + away[1] * push * 0.6];
            for end in [a, b] {
                let e = positions[end];
                positions[end] = [e[0] - away[0] * push * 0.4, e[1] - away[1] * push * 0.4];
            }
        }
        Clash::Nodes { a, b, .. } => {
            let (p, q) = (positions[a], positions[b]);
            let now = length([q[0] - p[0], q[1] - p[1]]);
            if now >= NODE_SPACING {
                return;
            }
            let away = if now > 1e-6 {
                [(q[0] - p[0]) / now, (q[1] - p[1]) / now]
            } else {
                fallback_direction(b)
            };
            let push = (NODE_SPACING - now) / 2.0 + 1.0;
            positions[a] = [p[0] - away[0] * push, p[1] - away[1] * push];
            positions[b] = [q[0] + away[0] * push, q[1] + away[1] * push];
        }
    }
}

/// Multiplies every distance by `factor`, about the picture's centre.
fn spread(positions: &mut [[f64; 2]], factor: f64) {
    let n = positions.len().max(1) as f64;
    let cx = positions.iter().map(|p| p[0]).sum::<f64>() / n;
    let cy = positions.iter().map(|p| p[1]).sum::<f64>() / n;
    for p in positions.iter_mut() {
        *p = [cx + (p[0] - cx) * factor, cy + (p[1] - cy) * factor];
    }
}

/// The bands the edges must keep clear (length times twice [`EDGE_CLEARANCE`]), over
/// the picture's bounding box: how much of the picture the bands would cover if they did
/// not overlap. Spreading the picture by `s` divides it by `s`.
fn crowding(edges: &[[usize; 2]], positions: &[[f64; 2]]) -> f64 {
    let bands: f64 = edges
        .iter()
        .map(|&[a, b]| {
            let (p, q) = (positions[a], positions[b]);
            length([q[0] - p[0], q[1] - p[1]]) * 2.0 * EDGE_CLEARANCE
        })
        .sum();
    let (mut low, mut high) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
    for p in positions {
        for axis in 0..2 {
            low[axis] = low[axis].min(p[axis]);
            high[axis] = high[axis].max(p[axis]);
        }
    }
    let area = (high[0] - low[0]).max(NODE_SPACING) * (high[1] - low[1]).max(NODE_SPACING);
    bands / area
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

type Cell = (i64, i64);

/// Nodes by the grid cell they are in, and edges by every cell that comes within
/// [`EDGE_CLEARANCE`] of them: what is near a point is in its cell and the ones around.
/// The grid covers the picture and as far around it as a node can move in one pass;
/// its cells are at least [`CELL`] wide and hold about one node each.
struct Grid {
    origin: [f64; 2],
    cell: f64,
    columns: i64,
    rows: i64,
    nodes: Vec<Vec<usize>>,
    edges: Vec<Vec<usize>>,
}

/// Every cell (of side `cell`) that comes within `pad` of the segment `p`–`q`, column
/// by column: O(length).
fn cells_near_segment(p: [f64; 2], q: [f64; 2], pad: f64, cell: f64, mut visit: impl FnMut(Cell)) {
    let (p, q) = if p[0] <= q[0] { (p, q) } else { (q, p) };
    let first = ((p[0] - pad) / cell).floor() as i64;
    let last = ((q[0] + pad) / cell).floor() as i64;
    let dx = q[0] - p[0];
    let y_at = |x: f64| p[1] + (q[1] - p[1]) * ((x - p[0]) / dx).clamp(0.0, 1.0);
    for column in first..=last {
        // The part of the segment within `pad` of this column, and its y range.
        let x0 = (column as f64 * cell - pad).max(p[0]);
        let x1 = ((column + 1) as f64 * cell + pad).min(q[0]);
        let (mut y0, mut y1) = if dx > 0.0 {
            (y_at(x0), y_at(x1))
        } else {
            (p[1], q[1])
        };
        if y0 > y1 {
            std::mem::swap(&mut y0, &mut y1);
        }
        let top = ((y0 - pad) / cell).floor() as i64;
        let bottom = ((y1 + pad) / cell).floor() as i64;
        for row in top..=bottom {
            visit((column, row));
        }
    }
}

impl Grid {
    fn new(edges: &[[usize; 2]], positions: &[[f64; 2]]) -> Grid {
        let (mut low, mut high) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
        for p in positions {
            for axis in 0..2 {
                low[axis] = low[axis].min(p[axis]);
                high[axis] = high[axis].max(p[axis]);
            }
        }
        let reach = (RINGS + 1) as f64 * RING_STEP + EDGE_CLEARANCE;
        let width = high[0] - low[0] + 2.0 * reach;
        let height = high[1] - low[1] + 2.0 * reach;
        let cell = CELL.max((width * height / positions.len().max(1) as f64).sqrt());
        let columns = (width / cell).ceil() as i64 + 1;
        let rows = (height / cell).ceil() as i64 + 1;
        let mut grid = Grid {
            origin: [low[0] - reach, low[1] - reach],
            cell,
            columns,
            rows,
            nodes: vec![Vec::new(); (columns * rows) as usize],
            edges: vec![Vec::new(); (columns * rows) as usize],
        };
        for (i, &p) in positions.iter().enumerate() {
            let k = grid.index(grid.cell_of(p));
            grid.nodes[k].push(i);
        }
        for (e, &[a, b]) in edges.iter().enumerate() {
            grid.add_edge(e, positions[a], positions[b]);
        }
        grid
    }

    fn cell_of(&self, p: [f64; 2]) -> Cell {
        (
            ((p[0] - self.origin[0]) / self.cell).floor() as i64,
            ((p[1] - self.origin[1]) / self.cell).floor() as i64,
        )
    }

    /// The cell's place in the lists; cells beyond the grid (no node gets there) share
    /// the border's.
    fn index(&self, (column, row): Cell) -> usize {
        (row.clamp(0, self.rows - 1) * self.columns + column.clamp(0, self.columns - 1)) as usize
    }

    /// The cells within `pad` of a segment.
    fn near_segment(&self, p: [f64; 2], q: [f64; 2], pad: f64, mut visit: impl FnMut(usize)) {
        let local = |v: [f64; 2]| [v[0] - self.origin[0], v[1] - self.origin[1]];
        cells_near_segment(local(p), local(q), pad, self.cell, |cell| {
            visit(self.index(cell))
        });
    }

    /// Every node in the 3 × 3 cells around `p`: all those nearer than a cell.
    fn near_point(&self, p: [f64; 2], mut visit: impl FnMut(usize)) {
        let (column, row) = self.cell_of(p);
        for c in (column - 1).max(0)..=(column + 1).min(self.columns - 1) {
            for r in (row - 1).max(0)..=(row + 1).min(self.rows - 1) {
                for &w in &self.nodes[(r * self.columns + c) as usize] {
                    visit(w);
                }
            }
        }
    }

    /// Every node but the segment's `ends` in the cells near it, with its distance to it.
    fn nodes_near_segment(
        &self,
        p: [f64; 2],
        q: [f64; 2],
        ends: [usize; 2],
        positions: &[[f64; 2]],
        mut visit: impl FnMut(usize, f64),
    ) {
        self.near_segment(p, q, EDGE_CLEARANCE, |k| {
            for &node in self.nodes[k].iter().filter(|w| !ends.contains(w)) {
                let c = positions[node];
                let near = nearest_on_segment(c, p, q);
                visit(node, length([c[0] - near[0], c[1] - near[1]]));
            }
        });
    }

    fn add_edge(&mut self, e: usize, p: [f64; 2], q: [f64; 2]) {
        let mut cells = Vec::new();
        self.near_segment(p, q, EDGE_CLEARANCE, |k| cells.push(k));
        for k in cells {
            self.edges[k].push(e);
        }
    }

    fn remove_edge(&mut self, e: usize, p: [f64; 2], q: [f64; 2]) {
        let mut cells = Vec::new();
        self.near_segment(p, q, EDGE_CLEARANCE, |k| cells.push(k));
        for k in cells {
            if let Some(at) = self.edges[k].iter().position(|&f| f == e) {
                self.edges[k].swap_remove(at);
            }
        }
    }

    /// Moves node `v` and its edges to `to`.
    fn move_node(
        &mut self,
        v: usize,
        to: [f64; 2],
        edges: &[[usize; 2]],
        incident: &[usize],
        positions: &mut [[f64; 2]],
    ) {
        for &e in incident {
            let [a, b] = edges[e];
            self.remove_edge(e, positions[a], positions[b]);
        }
        let from = self.index(self.cell_of(positions[v]));
        self.nodes[from].retain(|&w| w != v);
        positions[v] = to;
        let k = self.index(self.cell_of(to));
        self.nodes[k].push(v);
        for &e in incident {
            let [a, b] = edges[e];
            self.add_edge(e, positions[a], positions[b]);
        }
    }

    /// How many clashes node `v` would be in at `at`, counting up to `limit`: other
    /// nodes too near, edges it does not join too near, and nodes its own edges pass too
    /// near.
    fn clashes_at(
        &self,
        v: usize,
        at: [f64; 2],
        edges: &[[usize; 2]],
        incident: &[usize],
        positions: &[[f64; 2]],
        limit: usize,
    ) -> usize {
        let mut count = 0;
        self.near_point(at, |w| {
            let q = positions[w];
            if w != v && length([q[0] - at[0], q[1] - at[1]]) < NODE_SPACING + MARGIN {
                count += 1;
            }
        });
        if count >= limit {
            return count;
        }
        for &e in &self.edges[self.index(self.cell_of(at))] {
            let [a, b] = edges[e];
            if a == v || b == v {
                continue;
            }
            let near = nearest_on_segment(at, positions[a], positions[b]);
            if length([at[0] - near[0], at[1] - near[1]]) < EDGE_CLEARANCE + MARGIN {
                count += 1;
            }
        }
        for &e in incident {
            if count >= limit {
                return count;
            }
            let [a, b] = edges[e];
            let other = if a == v { b } else { a };
            let end = positions[other];
            self.nodes_near_segment(at, end, [v, other], positions, |_, distance| {
                if distance < EDGE_CLEARANCE + MARGIN {
                    count += 1;
                }
            });
        }
        count
    }
}

/// Moves each `involved` node that is in a clash to the nearest free spot on the rings
/// around it (in index order, so the pass is deterministic), and returns how many found none.
fn relocate(
    edges: &[[usize; 2]],
    incident: &[Vec<usize>],
    positions: &mut [[f64; 2]],
    involved: &[bool],
) -> usize {
    let mut grid = Grid::new(edges, positions);
    // The spots to try, nearest first, as offsets: 6 on the first ring, 12 on the next…
    let spots: Vec<[f64; 2]> = (1..=RINGS)
        .flat_map(|ring| {
            let count = 6 * ring;
            (0..count).map(move |k| {
                let (sin, cos) = (std::f64::consts::TAU * k as f64 / count as f64).sin_cos();
                let radius = ring as f64 * RING_STEP;
                [radius * cos, radius * sin]
            })
        })
        .collect();
    let mut stuck = 0;
    for v in (0..positions.len()).filter(|&v| involved[v]) {
        let here = positions[v];
        let now = grid.clashes_at(v, here, edges, &incident[v], positions, usize::MAX);
        if now == 0 {
            continue;
        }
        // The nearest spot with the fewest clashes, if fewer than here; the rings are
        // turned by a fixed angle per node, so that neighbours do not try the same spots.
        let [cos, sin] = fallback_direction(v);
        let mut best = (now, here);
        for &[x, y] in &spots {
            let at = [here[0] + x * cos - y * sin, here[1] + x * sin + y * cos];
            let there = grid.clashes_at(v, at, edges, &incident[v], positions, best.0);
            if there < best.0 {
                best = (there, at);
                if there == 0 {
                    break;
                }
            }
        }
        if best.0 < now {
            grid.move_node(v, best.1, edges, &incident[v], positions);
        }
        if best.0 > 0 {
            stuck += 1;
        }
    }
    stuck
}
