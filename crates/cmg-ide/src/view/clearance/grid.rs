//! The spatial grids of the clearance pass: cells over the picture, the nodes and the
//! edges in each, and what is near a node within the rings it may move to.

use super::*;

pub(super) type Cell = (i64, i64);

/// The cells of a grid over the picture: it covers the picture and as far around it as a
/// node can move in one pass, and its cells are at least [`CELL`] wide and hold about one
/// node each.
#[derive(Clone, Copy)]
pub(super) struct Frame {
    pub(super) origin: [f64; 2],
    pub(super) cell: f64,
    pub(super) columns: i64,
    pub(super) rows: i64,
}

impl Frame {
    pub(super) fn new(positions: &[[f64; 2]]) -> Frame {
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
        Frame {
            origin: [low[0] - reach, low[1] - reach],
            cell,
            columns: (width / cell).ceil() as i64 + 1,
            rows: (height / cell).ceil() as i64 + 1,
        }
    }

    pub(super) fn cells(&self) -> usize {
        (self.columns * self.rows) as usize
    }

    pub(super) fn cell_of(&self, p: [f64; 2]) -> Cell {
        (
            ((p[0] - self.origin[0]) / self.cell).floor() as i64,
            ((p[1] - self.origin[1]) / self.cell).floor() as i64,
        )
    }

    /// The cell's place in the lists; cells beyond the grid (no node gets there) share
    /// the border's.
    pub(super) fn index(&self, (column, row): Cell) -> usize {
        (row.clamp(0, self.rows - 1) * self.columns + column.clamp(0, self.columns - 1)) as usize
    }

    /// The 3 × 3 cells around the one of `p` (column by column), within the grid; a point
    /// beyond the grid counts as in the border's cell, as [`Frame::index`] places it.
    pub(super) fn cells_around(&self, p: [f64; 2], mut visit: impl FnMut(usize)) {
        let (column, row) = self.cell_of(p);
        let (column, row) = (
            column.clamp(0, self.columns - 1),
            row.clamp(0, self.rows - 1),
        );
        for c in (column - 1).max(0)..=(column + 1).min(self.columns - 1) {
            for r in (row - 1).max(0)..=(row + 1).min(self.rows - 1) {
                visit((r * self.columns + c) as usize);
            }
        }
    }

    /// The cells within `pad` of a segment.
    pub(super) fn near_segment(
        &self,
        p: [f64; 2],
        q: [f64; 2],
        pad: f64,
        mut visit: impl FnMut(usize),
    ) {
        let local = |v: [f64; 2]| [v[0] - self.origin[0], v[1] - self.origin[1]];
        cells_near_segment(local(p), local(q), pad, self.cell, |cell| {
            visit(self.index(cell))
        });
    }
}

/// Nodes by the grid cell they are in, in one flat list (cell by cell, each cell's in
/// index order): what [`clashes`] reads, built once per count.
pub(super) struct NodeGrid {
    pub(super) frame: Frame,
    /// The nodes of cell `k` are `nodes[starts[k]..starts[k + 1]]`.
    pub(super) starts: Vec<u32>,
    nodes: Vec<u32>,
}

impl NodeGrid {
    pub(super) fn new(positions: &[[f64; 2]]) -> NodeGrid {
        let frame = Frame::new(positions);
        let cells: Vec<usize> = positions
            .iter()
            .map(|&p| frame.index(frame.cell_of(p)))
            .collect();
        let mut starts = vec![0u32; frame.cells() + 1];
        for &k in &cells {
            starts[k + 1] += 1;
        }
        for k in 0..frame.cells() {
            starts[k + 1] += starts[k];
        }
        let mut next = starts.clone();
        let mut nodes = vec![0u32; positions.len()];
        for (i, &k) in cells.iter().enumerate() {
            nodes[next[k] as usize] = i as u32;
            next[k] += 1;
        }
        NodeGrid {
            frame,
            starts,
            nodes,
        }
    }

    pub(super) fn cell(&self, k: usize) -> &[u32] {
        &self.nodes[self.starts[k] as usize..self.starts[k + 1] as usize]
    }

    /// Every node in the 3 × 3 cells around `p`: all those nearer than a cell.
    pub(super) fn near_point(&self, p: [f64; 2], mut visit: impl FnMut(usize)) {
        self.frame.cells_around(p, |k| {
            for &w in self.cell(k) {
                visit(w as usize);
            }
        });
    }
}

/// Nodes by the grid cell they are in, and edges by every cell that comes within
/// [`EDGE_CLEARANCE`] of them: what is near a point is in its cell and the ones around.
/// What [`relocate`] reads and keeps up to date as it moves nodes.
pub(super) struct Grid {
    pub(super) frame: Frame,
    pub(super) nodes: Vec<Vec<usize>>,
    pub(super) edges: Vec<Vec<usize>>,
}

/// Every cell (of side `cell`) that comes within `pad` of the segment `p`–`q`, column
/// by column: O(length).
pub(super) fn cells_near_segment(
    p: [f64; 2],
    q: [f64; 2],
    pad: f64,
    cell: f64,
    mut visit: impl FnMut(Cell),
) {
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
    /// The grid of the picture; `None` when its edges would be listed in more than
    /// [`max_grid_entries`] cells (they cross the picture many times over) or the work
    /// runs out counting them.
    pub(super) fn new(
        edges: &[[usize; 2]],
        positions: &[[f64; 2]],
        work: &mut Work,
    ) -> Option<Grid> {
        let frame = Frame::new(positions);
        let cap = max_grid_entries(positions.len(), edges.len());
        let mut entries = 0usize;
        for &[a, b] in edges {
            frame.near_segment(positions[a], positions[b], EDGE_CLEARANCE, |_| entries += 1);
            if entries > cap {
                return None;
            }
        }
        work.spend(entries + frame.cells() + positions.len());
        if work.exhausted() {
            return None;
        }
        Some(Grid::build(frame, edges, positions))
    }

    pub(super) fn build(frame: Frame, edges: &[[usize; 2]], positions: &[[f64; 2]]) -> Grid {
        let mut grid = Grid {
            frame,
            nodes: vec![Vec::new(); frame.cells()],
            edges: vec![Vec::new(); frame.cells()],
        };
        for (i, &p) in positions.iter().enumerate() {
            grid.nodes[frame.index(frame.cell_of(p))].push(i);
        }
        for (e, &[a, b]) in edges.iter().enumerate() {
            grid.add_edge(e, positions[a], positions[b]);
        }
        grid
    }

    pub(super) fn add_edge(&mut self, e: usize, p: [f64; 2], q: [f64; 2]) {
        let lists = &mut self.edges;
        self.frame
            .near_segment(p, q, EDGE_CLEARANCE, |k| lists[k].push(e));
    }

    /// Takes edge `e` out of the cells near it; the units of work that took.
    pub(super) fn remove_edge(&mut self, e: usize, p: [f64; 2], q: [f64; 2]) -> usize {
        let lists = &mut self.edges;
        let mut looked = 0;
        self.frame.near_segment(p, q, EDGE_CLEARANCE, |k| {
            looked += 1;
            if let Some(at) = lists[k].iter().position(|&f| f == e) {
                looked += at;
                lists[k].swap_remove(at);
            }
        });
        looked
    }

    /// Moves node `v` and its edges to `to`; the units of work that took.
    pub(super) fn move_node(
        &mut self,
        v: usize,
        to: [f64; 2],
        edges: &[[usize; 2]],
        incident: &[usize],
        positions: &mut [[f64; 2]],
    ) -> usize {
        let mut looked = 0;
        for &e in incident {
            let [a, b] = edges[e];
            looked += self.remove_edge(e, positions[a], positions[b]);
        }
        let from = self.frame.index(self.frame.cell_of(positions[v]));
        looked += self.nodes[from].len();
        self.nodes[from].retain(|&w| w != v);
        positions[v] = to;
        let k = self.frame.index(self.frame.cell_of(to));
        self.nodes[k].push(v);
        for &e in incident {
            let [a, b] = edges[e];
            self.add_edge(e, positions[a], positions[b]);
        }
        // About as many cells again as were left.
        2 * looked
    }
}

/// How far from where it is a node may be moved in one step: the outer ring.
pub(super) const REACH: f64 = RINGS as f64 * RING_STEP;

/// What may clash with one node at any spot within [`REACH`] of where it is, gathered
/// from the grid once and then measured for each spot it tries: the other nodes near it,
/// the edges near it that it does not join, and for each of its own edges the nodes near
/// that edge. Moving one end of a segment by `d` moves each of its points by at most `d`,
/// so what is within a clearance of a spot's picture is within the clearance and
/// [`REACH`] of the node's present one: the lists hold all that a spot can clash with.
///
/// By the same bound, a spot on ring `r` (`r` × [`RING_STEP`] from the node, ring 0 the
/// node's own place) can only clash with what is within a clearance and `r` ×
/// [`RING_STEP`] of the node now. Each list is ordered by the first ring that can reach
/// its items, and a spot reads only the part its ring can reach.
#[derive(Default)]
pub(super) struct Neighbourhood {
    nodes: Vec<(u8, [f64; 2])>,
    pub(super) edges: Vec<(u8, Segment)>,
    /// How many of `nodes` (of `edges`) a spot on each ring reads.
    node_ends: [usize; RINGS + 1],
    edge_ends: [usize; RINGS + 1],
    /// Per edge of the node: its other end, and the nodes near it are
    /// `near_edge[starts[i]..starts[i + 1]]`, of which a spot on ring `r` reads those
    /// before `near_ends[i][r]`.
    other_ends: Vec<[f64; 2]>,
    pub(super) starts: Vec<usize>,
    near_ends: Vec<[usize; RINGS + 1]>,
    near_edge: Vec<(u8, [f64; 2])>,
    /// Stamps that keep a node or an edge from being gathered twice (cells beyond the
    /// grid share the border's lists).
    pub(super) node_seen: Vec<u32>,
    pub(super) edge_seen: Vec<u32>,
    stamp: u32,
}

/// Within the clearance `limit` (pixels, margin included), the first ring whose spots can
/// come that near something `squared` (squared pixels) from the node now. A pixel of slack
/// covers the rounding of the spots' places, so no spot that can clash is left out.
pub(super) fn first_ring(squared: f64, limit: f64) -> u8 {
    (0..RINGS)
        .find(|&ring| {
            let reach = limit + ring as f64 * RING_STEP + 1.0;
            squared < reach * reach
        })
        .unwrap_or(RINGS) as u8
}

/// Orders `items` by their first ring and says how many each ring reads. There are only
/// [`RINGS`] + 1 rings: a partition per ring, O(items) (a comparison sort was a tenth of
/// the pass). The order within a ring is left as it falls: a count does not depend on it,
/// and a count cut short at a limit is only ever compared with that limit.
pub(super) fn by_ring<T>(items: &mut [(u8, T)]) -> [usize; RINGS + 1] {
    let mut ends = [items.len(); RINGS + 1];
    let mut placed = 0;
    for (ring, end) in ends.iter_mut().enumerate().take(RINGS) {
        let from = placed;
        for j in from..items.len() {
            if items[j].0 as usize <= ring {
                items.swap(placed, j);
                placed += 1;
            }
        }
        *end = placed;
    }
    ends
}

impl Neighbourhood {
    pub(super) fn new(nodes: usize, edges: usize) -> Neighbourhood {
        Neighbourhood {
            node_seen: vec![0; nodes],
            edge_seen: vec![0; edges],
            ..Neighbourhood::default()
        }
    }

    pub(super) fn next_stamp(&mut self) -> u32 {
        self.stamp += 1;
        self.stamp
    }

    /// Gathers what node `v`, at `here`, could clash with within [`REACH`] of it; the
    /// units of work that took.
    pub(super) fn gather(
        &mut self,
        grid: &Grid,
        v: usize,
        edges: &[[usize; 2]],
        incident: &[usize],
        positions: &[[f64; 2]],
    ) -> usize {
        let mut looked = 0;
        let here = positions[v];
        self.nodes.clear();
        self.edges.clear();
        self.other_ends.clear();
        self.starts.clear();
        self.near_ends.clear();
        self.near_edge.clear();
        let node_limit = NODE_SPACING + MARGIN;
        let edge_limit = EDGE_CLEARANCE + MARGIN;
        let node_reach = node_limit + REACH;
        let edge_reach = edge_limit + REACH;
        let stamp = self.next_stamp();
        // The cells of the square around `here` that holds both reaches; a square
        // beyond the grid reads the border's cells, which hold what is beyond it.
        let square = node_reach.max(edge_reach);
        let (first, last) = (
            grid.frame.cell_of([here[0] - square, here[1] - square]),
            grid.frame.cell_of([here[0] + square, here[1] + square]),
        );
        let (columns, rows) = (grid.frame.columns, grid.frame.rows);
        for row in first.1.clamp(0, rows - 1)..=last.1.clamp(0, rows - 1) {
            for column in first.0.clamp(0, columns - 1)..=last.0.clamp(0, columns - 1) {
                let k = (row * columns + column) as usize;
                looked += 1 + grid.nodes[k].len() + grid.edges[k].len();
                for &w in &grid.nodes[k] {
                    let q = positions[w];
                    let squared = squared_distance(q, here);
                    if w != v && squared < node_reach * node_reach {
                        self.nodes.push((first_ring(squared, node_limit), q));
                    }
                }
                for &e in &grid.edges[k] {
                    let [a, b] = edges[e];
                    if a == v || b == v || self.edge_seen[e] == stamp {
                        continue;
                    }
                    self.edge_seen[e] = stamp;
                    // Most edges through these cells pass farther off: their boxes say so.
                    let (p, q) = (positions[a], positions[b]);
                    let off = (0..2).any(|axis| {
                        here[axis] < p[axis].min(q[axis]) - edge_reach
                            || here[axis] > p[axis].max(q[axis]) + edge_reach
                    });
                    if off {
                        continue;
                    }
                    let segment = Segment::new(p, q);
                    let squared = segment.squared_distance(here);
                    if squared < edge_reach * edge_reach {
                        self.edges.push((first_ring(squared, edge_limit), segment));
                    }
                }
            }
        }
        self.node_ends = by_ring(&mut self.nodes);
        self.edge_ends = by_ring(&mut self.edges);
        for &e in incident {
            let [a, b] = edges[e];
            let other = if a == v { b } else { a };
            let end = positions[other];
            self.other_ends.push(end);
            let start = self.near_edge.len();
            self.starts.push(start);
            let stamp = self.next_stamp();
            let segment = Segment::new(here, end);
            grid.frame.near_segment(here, end, edge_reach, |k| {
                looked += 1 + grid.nodes[k].len();
                for &w in &grid.nodes[k] {
                    if w == v || w == other || self.node_seen[w] == stamp {
                        continue;
                    }
                    self.node_seen[w] = stamp;
                    let c = positions[w];
                    let squared = segment.squared_distance(c);
                    if squared < edge_reach * edge_reach {
                        self.near_edge.push((first_ring(squared, edge_limit), c));
                    }
                }
            });
            let ends = by_ring(&mut self.near_edge[start..]);
            self.near_ends.push(ends.map(|end| start + end));
        }
        self.starts.push(self.near_edge.len());
        looked
    }

    /// At most how many things [`Neighbourhood::clashes_at`] measures for a spot on `ring`.
    pub(super) fn to_measure(&self, ring: usize) -> usize {
        let near_edges: usize = (0..self.other_ends.len())
            .map(|i| self.near_ends[i][ring] - self.starts[i])
            .sum();
        1 + self.node_ends[ring] + self.edge_ends[ring] + near_edges
    }

    /// How many clashes the node would be in at `at`, a spot on ring `ring` (0: where it
    /// was gathered), counting up to `limit`: other nodes too near, edges it does not join
    /// too near, and nodes its own edges pass too near. Squared distances: no root.
    pub(super) fn clashes_at(&self, at: [f64; 2], ring: usize, limit: usize) -> usize {
        const NODE_LIMIT: f64 = (NODE_SPACING + MARGIN) * (NODE_SPACING + MARGIN);
        const EDGE_LIMIT: f64 = (EDGE_CLEARANCE + MARGIN) * (EDGE_CLEARANCE + MARGIN);
        let mut count = 0;
        for &(_, q) in &self.nodes[..self.node_ends[ring]] {
            if squared_distance(q, at) < NODE_LIMIT {
                count += 1;
                if count >= limit {
                    return count;
                }
            }
        }
        for (_, segment) in &self.edges[..self.edge_ends[ring]] {
            if count >= limit {
                return count;
            }
            if segment.squared_distance(at) < EDGE_LIMIT {
                count += 1;
            }
        }
        for (i, &end) in self.other_ends.iter().enumerate() {
            let segment = Segment::new(at, end);
            for &(_, c) in &self.near_edge[self.starts[i]..self.near_ends[i][ring]] {
                if count >= limit {
                    return count;
                }
                if segment.squared_distance(c) < EDGE_LIMIT {
                    count += 1;
                }
            }
        }
        count
    }
}

/// A segment ready for many distance queries: its start, direction and the inverse of
/// its squared length (0 for a point).
#[derive(Clone, Copy)]
pub(super) struct Segment {
    start: [f64; 2],
    direction: [f64; 2],
    pub(super) inverse: f64,
}

impl Segment {
    pub(super) fn new(p: [f64; 2], q: [f64; 2]) -> Segment {
        let direction = [q[0] - p[0], q[1] - p[1]];
        let squared = direction[0] * direction[0] + direction[1] * direction[1];
        Segment {
            start: p,
            direction,
            inverse: if squared > 0.0 { 1.0 / squared } else { 0.0 },
        }
    }

    pub(super) fn squared_distance(&self, c: [f64; 2]) -> f64 {
        let [dx, dy] = self.direction;
        let (x, y) = (c[0] - self.start[0], c[1] - self.start[1]);
        let t = ((x * dx + y * dy) * self.inverse).clamp(0.0, 1.0);
        let (ex, ey) = (x - t * dx, y - t * dy);
        ex * ex + ey * ey
    }
}

pub(super) fn squared_distance(p: [f64; 2], q: [f64; 2]) -> f64 {
    let (x, y) = (p[0] - q[0], p[1] - q[1]);
    x * x + y * y
}
