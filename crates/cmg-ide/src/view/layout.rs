//! Node positions for the game view: stress majorization (what Graphviz's `neato` does), seeded from the previous picture so nodes stay put across edits.
//!
//! Stress is `Σ w_ij (|x_i - x_j| - d_ij)²` over all pairs, with `d_ij` the number of
//! edges between the nodes and `w_ij = d_ij⁻²`. It is lowered by the localized
//! majorization update (each node moves to the weighted mean of where every other node
//! says it should be), which needs no linear solver and never increases the stress.
//! A first picture starts from classical scaling (the two leading eigenvectors of the
//! double-centred distance matrix); later pictures start from the previous positions.

use std::collections::{HashMap, VecDeque};

use cmg_core::model::Graph;

use super::clearance;

/// Pixels per edge of graph distance.
pub const UNIT: f64 = 90.0;

/// At most this many sweeps over all pairs; each costs O(n²).
const MAX_SWEEPS: usize = 300;

/// Sweeps stop early once no node moves farther than this (in units of one edge): a
/// hundredth of an edge is under a pixel on screen.
const TOLERANCE: f64 = 1e-2;

/// Seeds farther out than this many pixels are ignored.
const MAX_COORDINATE: f64 = 1e7;

/// Where each node id was drawn, in pixels.
pub type Positions = HashMap<u32, [f64; 2]>;

/// Positions for every node of `graph`, in dense index order and pixels.
///
/// Nodes found in `previous` start where they were; new nodes start beside their placed
/// neighbours. The work is O(n² · MAX_SWEEPS) time and O(n²) memory: callers bound `n`.
pub fn layout(graph: &Graph, previous: &Positions) -> Vec<[f64; 2]> {
    let n = graph.node_count();
    if n == 0 {
        return Vec::new();
    }
    let distances = all_pair_distances(graph);
    // Positions come from clients too: only sane ones seed the layout.
    let previous: Positions = previous
        .iter()
        .filter(|(_, p)| p.iter().all(|v| v.is_finite() && v.abs() < MAX_COORDINATE))
        .map(|(&id, &p)| (id, p))
        .collect();
    let seeded = (0..n)
        .filter(|&i| previous.contains_key(&graph.id(i as u32)))
        .count();
    let mut positions = if seeded == 0 {
        classical_scaling(&distances, n)
    } else {
        seed_from_previous(graph, &previous)
    };
    let seeds = positions.clone();
    majorize(&mut positions, &distances, n);
    if positions.iter().flatten().any(|v| !v.is_finite()) {
        positions = classical_scaling(&distances, n);
        majorize(&mut positions, &distances, n);
    }
    let mut pixels = to_pixels(&positions);
    clearance::clear(graph, &mut pixels);
    // The post-pass moves nodes off the stress optimum, so a layout from its own output
    // would not be at rest. A complete, clear seed is kept as it is unless the fresh
    // picture fits the graph distances better (scale-free stress, see below): an edit
    // that leaves the graph alone moves nothing.
    if seeded == n {
        let seed_pixels = to_pixels(&seeds);
        if clearance::is_clear(graph, &seed_pixels)
            && scaled_stress(&seed_pixels, &distances, n)
                <= scaled_stress(&pixels, &distances, n) * KEEP_MARGIN + 1e-9
        {
            pixels = seed_pixels;
        }
    }
    pixels
        .into_iter()
        .map(|[x, y]| [round(x), round(y)])
        .collect()
}

/// A seed is kept while its stress is at most this factor above the fresh picture's.
const KEEP_MARGIN: f64 = 1.02;

fn to_pixels(positions: &[[f64; 2]]) -> Vec<[f64; 2]> {
    positions
        .iter()
        .map(|&[x, y]| [x * UNIT, y * UNIT])
        .collect()
}

/// Stress per pair at the best uniform scale, so that a picture spread out by the
/// post-pass is compared by its shape, not its size: with `L` the drawn and `d` the graph
/// distance, `min_s Σ (s·L/d - 1)² = P - (Σ L/d)² / Σ (L/d)²` over the `P` pairs.
fn scaled_stress(pixels: &[[f64; 2]], distances: &[f64], n: usize) -> f64 {
    let (mut linear, mut square, mut pairs) = (0.0, 0.0, 0.0);
    for i in 0..n {
        for j in i + 1..n {
            let d = distances[i * n + j];
            let l = (pixels[i][0] - pixels[j][0]).hypot(pixels[i][1] - pixels[j][1]);
            linear += l / d;
            square += (l / d) * (l / d);
            pairs += 1.0;
        }
    }
    if square <= 0.0 {
        return pairs;
    }
    (pairs - linear * linear / square) / pairs.max(1.0)
}

/// Two decimals are plenty for a picture and keep the JSON short.
fn round(value: f64) -> f64 {
    (value * 100.0).round() / 100.0
}

/// Graph distances between all pairs (row-major `n × n`), by one breadth-first search per
/// node. Pairs in different components get one more than the longest finite distance, so
/// that components sit near each other instead of flying apart.
fn all_pair_distances(graph: &Graph) -> Vec<f64> {
    let n = graph.node_count();
    let mut distances = vec![f64::INFINITY; n * n];
    let mut queue = VecDeque::new();
    for source in 0..n {
        let row = &mut distances[source * n..(source + 1) * n];
        row[source] = 0.0;
        queue.clear();
        queue.push_back(source as u32);
        while let Some(node) = queue.pop_front() {
            let next = row[node as usize] + 1.0;
            for &neighbour in graph.neighbours(node) {
                if row[neighbour as usize].is_infinite() {
                    row[neighbour as usize] = next;
                    queue.push_back(neighbour);
                }
            }
        }
    }
    let longest = distances
        .iter()
        .copied()
        .filter(|d| d.is_finite())
        .fold(1.0, f64::max);
    for d in &mut distances {
        if d.is_infinite() {
            *d = longest + 1.0;
        }
    }
    distances
}

/// Classical multidimensional scaling by power iteration: a good, deterministic start.
fn classical_scaling(distances: &[f64], n: usize) -> Vec<[f64; 2]> {
    // B = -1/2 · J D² J, the Gram matrix of the ideal embedding.
    let mut b: Vec<f64> = distances.iter().map(|d| -0.5 * d * d).collect();
    let row_means: Vec<f64> = (0..n)
        .map(|i| b[i * n..(i + 1) * n].iter().sum::<f64>() / n as f64)
        .collect();
    let total_mean = row_means.iter().sum::<f64>() / n as f64;
    for i in 0..n {
        for j in 0..n {
            b[i * n + j] += total_mean - row_means[i] - row_means[j];
        }
    }
    let first = leading_eigenvector(&b, n, &[]);
    let second = leading_eigenvector(&b, n, &[&first.0]);
    (0..n)
        .map(|i| {
            // Fixed, non-symmetric offsets separate nodes the scaling puts on one spot
            // (such as the leaves of a star), where the majorization has no direction.
            let nudge = 0.01 * ((i * 7919 % 101) as f64 / 101.0 - 0.5);
            [
                first.0[i] * first.1.max(0.0).sqrt() + nudge,
                second.0[i] * second.1.max(0.0).sqrt() - nudge,
            ]
        })
        .collect()
}

/// The unit eigenvector of the largest eigenvalue of symmetric `matrix`, orthogonal to
/// `against`, with its eigenvalue.
fn leading_eigenvector(matrix: &[f64], n: usize, against: &[&[f64]]) -> (Vec<f64>, f64) {
    let mut vector: Vec<f64> = (0..n).map(|i| 1.0 + (i % 7) as f64 * 0.1).collect();
    let mut value = 0.0;
    for _ in 0..100 {
        for other in against {
            let dot: f64 = vector.iter().zip(other.iter()).map(|(a, b)| a * b).sum();
            for (v, o) in vector.iter_mut().zip(other.iter()) {
                *v -= dot * o;
            }
        }
        let next: Vec<f64> = (0..n)
            .map(|i| {
                let row = &matrix[i * n..(i + 1) * n];
                row.iter().zip(&vector).map(|(a, b)| a * b).sum()
            })
            .collect();
        let norm = next.iter().map(|v| v * v).sum::<f64>().sqrt();
        if norm < 1e-12 {
            break;
        }
        value = norm;
        vector = next.into_iter().map(|v| v / norm).collect();
    }
    (vector, value)
}

/// Previous positions (back in edge units) for the nodes that had one; each new node
/// goes next to its placed neighbours, or beside the picture when it has none.
fn seed_from_previous(graph: &Graph, previous: &Positions) -> Vec<[f64; 2]> {
    let n = graph.node_count();
    let mut placed: Vec<Option<[f64; 2]>> = (0..n)
        .map(|i| {
            previous
                .get(&graph.id(i as u32))
                .map(|[x, y]| [x / UNIT, y / UNIT])
        })
        .collect();
    let right = placed.iter().flatten().map(|p| p[0]).fold(0.0, f64::max) + 1.0;
    let mut fresh = 0.0;
    for i in 0..n {
        if placed[i].is_some() {
            continue;
        }
        let anchors: Vec<[f64; 2]> = graph
            .neighbours(i as u32)
            .iter()
            .filter_map(|&j| placed[j as usize])
            .collect();
        // A small offset per index keeps two new nodes at one anchor apart.
        let offset = 0.3 + 0.05 * (i % 5) as f64;
        placed[i] = Some(if anchors.is_empty() {
            fresh += 1.0;
            [right, fresh]
        } else {
            let k = anchors.len() as f64;
            let x = anchors.iter().map(|p| p[0]).sum::<f64>() / k;
            let y = anchors.iter().map(|p| p[1]).sum::<f64>() / k;
            [x + offset, y + offset * 0.5]
        });
    }
    placed.into_iter().map(Option::unwrap_or_default).collect()
}

/// Localized stress majorization, at most [`MAX_SWEEPS`] sweeps.
///
/// Positions that are already at rest are given back untouched, so that an edit that
/// leaves the graph as it was (a comment, a label) moves nothing at all.
fn majorize(positions: &mut [[f64; 2]], distances: &[f64], n: usize) {
    let weights: Vec<f64> = distances
        .iter()
        .map(|&d| if d > 0.0 { 1.0 / (d * d) } else { 0.0 })
        .collect();
    // The sum of a row's weights does not change between sweeps.
    let weight_sums: Vec<f64> = (0..n)
        .map(|i| weights[i * n..(i + 1) * n].iter().sum())
        .collect();
    let start = positions.to_vec();
    for sweep in 0..MAX_SWEEPS {
        let mut largest_move: f64 = 0.0;
        for i in 0..n {
            if weight_sums[i] <= 0.0 {
                continue;
            }
            let [xi, yi] = positions[i];
            let (mut sum_x, mut sum_y) = (0.0, 0.0);
            let row = i * n..(i + 1) * n;
            for ((&[xj, yj], &d), &w) in positions
                .iter()
                .zip(&distances[row.clone()])
                .zip(&weights[row])
            {
                let (dx, dy) = (xi - xj, yi - yj);
                let length = (dx * dx + dy * dy).sqrt();
                // Two nodes on one spot (or a node and itself, where w is 0): no direction
                // to push, so leave it to the others.
                let push = if length > 1e-9 { d / length } else { 0.0 };
                sum_x += w * (xj + push * dx);
                sum_y += w * (yj + push * dy);
            }
            let next = [sum_x / weight_sums[i], sum_y / weight_sums[i]];
            largest_move = largest_move.max((next[0] - xi).abs() + (next[1] - yi).abs());
            positions[i] = next;
        }
        if largest_move < TOLERANCE {
            if sweep == 0 {
                positions.copy_from_slice(&start);
            }
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graph(edges: &[(u32, u32)]) -> Graph {
        let text: String = edges.iter().map(|(a, b)| format!("{a} -- {b}\n")).collect();
        cmg_core::analysis::Analysis::new(text).model.graph
    }

    fn length(positions: &[[f64; 2]], a: usize, b: usize) -> f64 {
        let [x, y] = [
            positions[a][0] - positions[b][0],
            positions[a][1] - positions[b][1],
        ];
        (x * x + y * y).sqrt() / UNIT
    }

    #[test]
    fn edges_come_out_about_one_unit_long() {
        let cycle = graph(&[(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 0)]);
        let positions = layout(&cycle, &Positions::new());
        for i in 0..6 {
            let edge = length(&positions, i, (i + 1) % 6);
            assert!((0.8..1.2).contains(&edge), "edge {i} is {edge} long");
        }
        // Opposite nodes of a hexagon are two edges apart.
        let across = length(&positions, 0, 3);
        assert!((1.7..2.3).contains(&across), "across is {across}");
    }

    #[test]
    fn no_two_nodes_share_a_spot() {
        let star = graph(&[(0, 1), (0, 2), (0, 3), (0, 4), (5, 6)]);
        let positions = layout(&star, &Positions::new());
        for a in 0..positions.len() {
            for b in a + 1..positions.len() {
                assert!(length(&positions, a, b) > 0.3, "{a} and {b} overlap");
            }
        }
    }

    #[test]
    fn an_added_edge_moves_nodes_little() {
        let before = graph(&[(0, 1), (1, 2), (2, 3), (3, 4), (4, 0), (1, 5)]);
        let first = layout(&before, &Positions::new());
        let previous: Positions = (0..6).map(|i| (before.id(i), first[i as usize])).collect();
        let after = graph(&[(0, 1), (1, 2), (2, 3), (3, 4), (4, 0), (1, 5), (5, 6)]);
        let second = layout(&after, &previous);
        for i in 0..6 {
            let moved = length(&[first[i], second[i]], 0, 1);
            assert!(moved < 0.5, "node {i} moved {moved} edges");
        }
        // Insane seeds are ignored rather than carried into the picture.
        let mut wild = previous.clone();
        wild.insert(0, [f64::MAX, f64::NAN]);
        assert!(layout(&after, &wild)
            .iter()
            .flatten()
            .all(|v| v.is_finite()));
        // The same input gives the same picture, and laying it out again moves nothing.
        assert_eq!(layout(&after, &previous), second);
        let again: Positions = (0..7).map(|i| (after.id(i), second[i as usize])).collect();
        assert_eq!(layout(&after, &again), second);
    }
}
