//! The measures of the clearance pass: a node against an edge or another node, the
//! nearest point of a segment, and the moves that push a clash apart or spread the
//! picture.

use super::*;

/// Node `node` against the edge `edge` it does not join, as [`clashes`] measures it: a
/// clash if nearer than [`EDGE_CLEARANCE`].
pub(super) fn edge_clash(node: usize, edge: [usize; 2], positions: &[[f64; 2]]) -> Option<Clash> {
    let c = positions[node];
    let near = nearest_on_segment(c, positions[edge[0]], positions[edge[1]]);
    let distance = closer_than(near, c, EDGE_CLEARANCE)?;
    Some(Clash::Edge {
        node,
        edge,
        distance,
    })
}

/// Nodes `a` and `b` (`a < b`), as [`clashes`] measures them: a clash if nearer than
/// [`NODE_SPACING`].
pub(super) fn nodes_clash(a: usize, b: usize, positions: &[[f64; 2]]) -> Option<Clash> {
    let distance = closer_than(positions[a], positions[b], NODE_SPACING)?;
    Some(Clash::Nodes { a, b, distance })
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

pub(super) fn length(v: [f64; 2]) -> f64 {
    (v[0] * v[0] + v[1] * v[1]).sqrt()
}

/// The distance from `p` to `q` where it is under `limit`, the same to the bit as
/// [`length`] measures it; a pair plainly farther (a pixel past the limit, whatever the
/// rounding) is passed over on its squared distance, before any square root.
fn closer_than(p: [f64; 2], q: [f64; 2], limit: f64) -> Option<f64> {
    let (x, y) = (q[0] - p[0], q[1] - p[1]);
    let squared = x * x + y * y;
    if squared >= (limit + 1.0) * (limit + 1.0) {
        return None;
    }
    let distance = squared.sqrt();
    (distance < limit).then_some(distance)
}

/// The distance from `p` to `q` where it is under `limit`, and the direction from `p` to
/// `q` (the fallback direction of node `index` where the two are one point).
fn apart(p: [f64; 2], q: [f64; 2], limit: f64, index: usize) -> Option<(f64, [f64; 2])> {
    let now = length([q[0] - p[0], q[1] - p[1]]);
    if now >= limit {
        return None;
    }
    let away = if now > 1e-6 {
        [(q[0] - p[0]) / now, (q[1] - p[1]) / now]
    } else {
        fallback_direction(index)
    };
    Some((now, away))
}

/// A fixed direction per index, for things on one spot (no direction to push along).
pub(super) fn fallback_direction(index: usize) -> [f64; 2] {
    let angle = index as f64 * 2.399_963; // the golden angle: directions never repeat
    [angle.cos(), angle.sin()]
}

/// Pushes the clash apart, a little past the clearance so it does not come straight back.
pub(super) fn nudge(positions: &mut [[f64; 2]], clash: Clash) {
    match clash {
        Clash::Edge {
            node, edge: [a, b], ..
        } => {
            // Earlier nudges of this pass may have moved the node or the edge: measure again.
            let c = positions[node];
            let near = nearest_on_segment(c, positions[a], positions[b]);
            let Some((now, away)) = apart(near, c, EDGE_CLEARANCE, node) else {
                return;
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
            let Some((now, away)) = apart(p, q, NODE_SPACING, b) else {
                return;
            };
            let push = (NODE_SPACING - now) / 2.0 + 1.0;
            positions[a] = [p[0] - away[0] * push, p[1] - away[1] * push];
            positions[b] = [q[0] + away[0] * push, q[1] + away[1] * push];
        }
    }
}

/// Multiplies every distance by `factor`, about the picture's centre.
pub(super) fn spread(positions: &mut [[f64; 2]], factor: f64) {
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
pub(super) fn crowding(edges: &[[usize; 2]], positions: &[[f64; 2]]) -> f64 {
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
