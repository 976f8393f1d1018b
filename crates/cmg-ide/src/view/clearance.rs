//! A post-pass on the layout: no edge passes over a node it does not join, and no two nodes overlap, so that a reader never takes a line for an edge it is not (issue 19: two lines ran between 8 and 4 in `examples/long-game.cmg`).
//!
//! Stress layout places nodes well on average but knows nothing of the drawn shapes, so a
//! line can run straight through a third node. This pass measures, in pixels, every node
//! against every edge it is not an end of and every other node, and pushes offenders
//! apart a little, a few times over. What nudging cannot clear (a dense knot where every
//! push makes another crossing) is cleared by spreading the whole picture out about its
//! centre: distances from a point to a segment scale with the picture while the shapes
//! keep their size in pixels, so one factor clears every remaining case. A tiny
//! deterministic nudge first makes sure no distance is exactly zero.

use cmg_core::model::Graph;

use super::svg::NODE_RADIUS;

/// An edge keeps at least this far (pixels) from the centre of a node it does not join:
/// the node's radius and a gap that reads as "the line goes past".
pub const EDGE_CLEARANCE: f64 = NODE_RADIUS + 6.0;

/// Node centres keep at least this far apart: two shapes and a gap, so that a marker
/// drawn inside its node (the M and C tokens) never touches another node.
pub const NODE_SPACING: f64 = 2.0 * NODE_RADIUS + 12.0;

/// Nudging passes before the picture grows by [`GROW`].
const NUDGE_PASSES: usize = 6;

/// Rounds of nudging and growing before the last resort, one spread by the factor the
/// worst remaining clash needs.
const GROW_ROUNDS: usize = 30;
const GROW: f64 = 1.2;

/// Spreading never multiplies the picture by more than this (a bound on coordinates).
const MAX_SPREAD: f64 = 1e4;

/// Nudging stops once its passes have measured this many node-edge pairs in all (each
/// pass looks at the nodes in each edge's box): then one spread by the factor the worst
/// clash needs clears the rest. This bounds the pass on large, dense pictures.
const NUDGE_BUDGET: usize = 120_000_000;

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
/// local (around an edit): the first round nudges longer before growing, and so moving,
/// the whole picture.
pub fn clear(graph: &Graph, positions: &mut [[f64; 2]], seeded: bool) {
    let edges = edge_list(graph);
    let mut work = 0usize;
    // Nudge; where that does not settle, grow the picture a little and nudge again: in a
    // larger picture the same pushes are smaller relative to the distances, so this
    // finds a picture not much larger than it must be.
    'rounds: for round in 0..GROW_ROUNDS {
        let passes = if round == 0 && seeded {
            5 * NUDGE_PASSES
        } else {
            NUDGE_PASSES
        };
        for _ in 0..passes {
            let (clashes, measured) = clashes(&edges, positions);
            if clashes.is_empty() {
                return;
            }
            work += measured;
            if work > NUDGE_BUDGET {
                break 'rounds;
            }
            for clash in clashes {
                nudge(positions, clash);
            }
        }
        if round + 1 < GROW_ROUNDS {
            spread(positions, GROW);
        }
    }
    // What is left: nudge the worst clashes (those a spread would have to blow the
    // picture up for) a few passes, then spread out by the one factor the rest needs.
    for attempt in 0..LAST_PASSES {
        let (clashes, _) = clashes(&edges, positions);
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

/// Passes after the nudging budget: the worst clashes are nudged and the picture grows
/// by [`GROW`], until one spread clears the rest.
const LAST_PASSES: usize = 16;

/// A clash that would need the picture spread more than this is nudged, not spread for.
const WORST_SPREAD: f64 = 2.0;

/// Whether `positions` (pixels) already clear every edge and node as [`clear`] leaves them.
/// Positions rounded to hundredths of a pixel after the pass still count as clear.
pub fn is_clear(graph: &Graph, positions: &[[f64; 2]]) -> bool {
    clashes(&edge_list(graph), positions)
        .0
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

/// Every clash, in a fixed order (edges by index, then node pairs), so the pass is
/// deterministic, and how many node-edge pairs were measured.
fn clashes(edges: &[[usize; 2]], positions: &[[f64; 2]]) -> (Vec<Clash>, usize) {
    let mut found = Vec::new();
    let mut measured = 0;
    // Nodes sorted by x: an edge only needs the nodes within its box's x range, and a
    // node only those less than the spacing to its right.
    let mut order: Vec<usize> = (0..positions.len()).collect();
    order.sort_by(|&i, &j| positions[i][0].total_cmp(&positions[j][0]).then(i.cmp(&j)));
    let xs: Vec<f64> = order.iter().map(|&i| positions[i][0]).collect();
    for &[a, b] in edges {
        let (p, q) = (positions[a], positions[b]);
        let (x0, x1) = (
            p[0].min(q[0]) - EDGE_CLEARANCE,
            p[0].max(q[0]) + EDGE_CLEARANCE,
        );
        let (y0, y1) = (
            p[1].min(q[1]) - EDGE_CLEARANCE,
            p[1].max(q[1]) + EDGE_CLEARANCE,
        );
        let first = xs.partition_point(|&x| x < x0);
        for &node in &order[first..] {
            let c = positions[node];
            if c[0] > x1 {
                break;
            }
            measured += 1;
            if node == a || node == b || c[1] < y0 || c[1] > y1 {
                continue;
            }
            let near = nearest_on_segment(c, p, q);
            let distance = length([c[0] - near[0], c[1] - near[1]]);
            if distance < EDGE_CLEARANCE {
                found.push(Clash::Edge {
                    node,
                    edge: [a, b],
                    distance,
                });
            }
        }
    }
    for (k, &i) in order.iter().enumerate() {
        for &j in &order[k + 1..] {
            let (p, q) = (positions[i], positions[j]);
            if q[0] - p[0] >= NODE_SPACING {
                break;
            }
            let distance = length([q[0] - p[0], q[1] - p[1]]);
            if distance < NODE_SPACING {
                found.push(Clash::Nodes {
                    a: i.min(j),
                    b: i.max(j),
                    distance,
                });
            }
        }
    }
    (found, measured)
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
