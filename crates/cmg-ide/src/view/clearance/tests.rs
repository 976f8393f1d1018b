//! The clearance pass's own tests: clashes measured, the pass on small pictures, the
//! budget and the grids.

use super::*;

fn unlimited() -> Work<'static> {
    Work::new(Limits {
        work: u64::MAX,
        cancel: None,
    })
}

/// A crowded random picture: `n` nodes in a square about `side` pixels wide, a random
/// tree and as many random edges again.
fn picture(n: usize, side: f64, seed: u64) -> (Vec<[f64; 2]>, Vec<[usize; 2]>) {
    let mut state = seed;
    let mut next = move || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 11) as f64 / (1u64 << 53) as f64
    };
    let positions = (0..n).map(|_| [next() * side, next() * side]).collect();
    let mut edges: Vec<[usize; 2]> = (1..n).map(|i| [(next() * i as f64) as usize, i]).collect();
    for _ in 0..n {
        let (a, b) = ((next() * n as f64) as usize, (next() * n as f64) as usize);
        if a != b && !edges.contains(&[a.min(b), a.max(b)]) {
            edges.push([a.min(b), a.max(b)]);
        }
    }
    (positions, edges)
}

/// How far `c` is from the segment `p`–`q` (a node when `p == q`), measured as the pass
/// measures a clash.
fn gap(c: [f64; 2], p: [f64; 2], q: [f64; 2]) -> f64 {
    let near = nearest_on_segment(c, p, q);
    length([c[0] - near[0], c[1] - near[1]])
}

/// The clashes of node `v` at `at`, counted over every node and edge of the picture.
fn counted_directly(v: usize, at: [f64; 2], edges: &[[usize; 2]], positions: &[[f64; 2]]) -> usize {
    let moved = |w: usize| if w == v { at } else { positions[w] };
    let nodes = (0..positions.len())
        .filter(|&w| w != v && gap(at, positions[w], positions[w]) < NODE_SPACING + MARGIN)
        .count();
    let lines = edges
        .iter()
        .map(|&[a, b]| {
            (0..positions.len())
                .filter(|&w| w != a && w != b && (w == v || a == v || b == v))
                .filter(|&w| gap(moved(w), moved(a), moved(b)) < EDGE_CLEARANCE + MARGIN)
                .count()
        })
        .sum::<usize>();
    nodes + lines
}

/// What a node gathers once counts, at every spot within reach, exactly the clashes a
/// count over the whole picture finds, and a limit only cuts the count short.
#[test]
fn a_gathered_neighbourhood_counts_what_the_whole_picture_holds() {
    for seed in 0..4 {
        let (positions, edges) = picture(120, 700.0 + 300.0 * seed as f64, seed);
        let incident = incident_edges(positions.len(), &edges);
        let grid = Grid::build(Frame::new(&positions), &edges, &positions);
        let mut near = Neighbourhood::new(positions.len(), edges.len());
        for v in (0..positions.len()).step_by(7) {
            near.gather(&grid, v, &edges, &incident[v], &positions);
            let here = positions[v];
            for k in 0..40 {
                let angle = k as f64 * 0.7;
                let radius = REACH * (k % 5) as f64 / 4.0;
                let at = [
                    here[0] + radius * angle.cos(),
                    here[1] + radius * angle.sin(),
                ];
                let count = counted_directly(v, at, &edges, &positions);
                // The ring whose spots are this far out, at most.
                let ring = (radius / RING_STEP).ceil() as usize;
                assert_eq!(
                    near.clashes_at(at, ring, usize::MAX),
                    count,
                    "seed {seed}, node {v}"
                );
                let limit = k % 4;
                let cut = near.clashes_at(at, ring, limit);
                assert!(
                    cut == count || (cut >= limit && count >= limit),
                    "{cut} {count}"
                );
            }
        }
    }
}

/// The clashes as they were counted before the node grid was flat and the far
/// pairs were skipped unmeasured: the grid of nodes by cell, every node near an edge
/// measured.
fn clashes_measuring_everything(edges: &[[usize; 2]], positions: &[[f64; 2]]) -> Vec<Clash> {
    let frame = Frame::new(positions);
    let mut cells = vec![Vec::new(); frame.cells()];
    for (i, &p) in positions.iter().enumerate() {
        cells[frame.index(frame.cell_of(p))].push(i);
    }
    let mut found = Vec::new();
    for &[a, b] in edges {
        let (p, q) = (positions[a], positions[b]);
        frame.near_segment(p, q, EDGE_CLEARANCE, |k| {
            for &node in cells[k].iter().filter(|&&w| w != a && w != b) {
                let c = positions[node];
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
        });
    }
    for (i, &p) in positions.iter().enumerate() {
        let (column, row) = frame.cell_of(p);
        for c in (column - 1).max(0)..=(column + 1).min(frame.columns - 1) {
            for r in (row - 1).max(0)..=(row + 1).min(frame.rows - 1) {
                for &j in &cells[(r * frame.columns + c) as usize] {
                    let q = positions[j];
                    let distance = length([q[0] - p[0], q[1] - p[1]]);
                    if j > i && distance < NODE_SPACING {
                        found.push(Clash::Nodes {
                            a: i,
                            b: j,
                            distance,
                        });
                    }
                }
            }
        }
    }
    found
}

/// The pass's count of clashes finds what measuring everything finds, in the same
/// order and at the same distances to the bit (the pass's decisions and its nudges
/// follow both), on crowded pictures, spread ones and pictures with nodes on one spot.
#[test]
fn the_clashes_are_those_measuring_everything_finds() {
    for seed in 0..6 {
        let (mut positions, edges) = picture(200 + 100 * seed as usize, 500.0, seed);
        positions[3] = positions[5];
        positions[7] = positions[8];
        for factor in [1.0, 1.7, 4.0] {
            spread(&mut positions, factor);
            let fast = clashes(&edges, &positions);
            let reference = clashes_measuring_everything(&edges, &positions);
            assert!(!reference.is_empty());
            assert_eq!(fast.len(), reference.len(), "seed {seed}, spread {factor}");
            for (f, r) in fast.iter().zip(&reference) {
                assert_eq!(f, r);
                assert_eq!(f.distance().to_bits(), r.distance().to_bits());
            }
        }
    }
}

/// Every round keeps the clashes up to date around the nodes it moved rather than
/// counting them all again; under `cfg(test)` the pass checks after each round that
/// they are what a full count finds (in order, to the bit). Random pictures, crowded
/// and spread, fresh and seeded, with nodes on one spot and beyond the grid's first
/// frame, run that check through many rounds and spreads.
#[test]
fn the_clashes_kept_across_rounds_are_those_a_full_count_finds() {
    for seed in 0..6 {
        let (mut positions, edges) = picture(150 + 50 * seed as usize, 400.0, seed);
        positions[3] = positions[5];
        positions[11] = [positions[11][0] + 5000.0, positions[11][1]];
        clear_edges(&edges, &mut positions, seed % 2 == 1, &mut unlimited());
        assert!(clashes(&edges, &positions).is_empty(), "seed {seed}");
    }
}

/// A pass stops soon after its budget is spent, leaving positions with fewer
/// clashes than it started with (never more), and counts the same units each time.
#[test]
fn a_pass_stops_at_its_work_budget_with_no_more_clashes() {
    for seed in 0..3 {
        let (start, edges) = picture(200, 300.0, seed);
        let before = clashes(&edges, &start).len();
        let limit = 150_000;
        let mut spent = None;
        for _ in 0..2 {
            let mut positions = start.clone();
            let mut work = Work::new(Limits {
                work: limit,
                cancel: None,
            });
            let cleared = clear_edges(&edges, &mut positions, true, &mut work);
            assert_eq!(cleared, Cleared::Cut, "seed {seed}");
            assert!(
                work.spent() < limit + limit / 2,
                "seed {seed}: {} units",
                work.spent()
            );
            assert!(clashes(&edges, &positions).len() <= before, "seed {seed}");
            assert!(spent.is_none_or(|spent| spent == work.spent()));
            spent = Some(work.spent());
        }
        // The whole budget clears the same picture.
        let mut positions = start.clone();
        let mut work = Work::new(Limits::default());
        let cleared = clear_edges(&edges, &mut positions, true, &mut work);
        assert_eq!(cleared, Cleared::All, "seed {seed}");
    }
}

/// A picture with more clashes than the pass keeps (every node on one spot, every
/// edge over every node) is given up at once rather than counted whole: memory stays
/// linear in the graph.
#[test]
fn a_picture_too_crowded_to_keep_its_clashes_is_given_up() {
    let n = 400;
    let positions = vec![[0.0, 0.0]; n];
    let edges: Vec<[usize; 2]> = (0..n)
        .flat_map(|a| (a + 1..n).step_by(7).map(move |b| [a, b]))
        .collect();
    let cap = max_clashes(n, edges.len());
    let mut work = Work::new(Limits::default());
    assert!(clashes_within(&edges, &positions, &mut work, cap).is_none());
    // The pass sets the nodes apart and relocates them within its budget.
    let mut moved = positions.clone();
    let limit = 5_000_000;
    let mut work = Work::new(Limits {
        work: limit,
        cancel: None,
    });
    assert_eq!(
        clear_edges(&edges, &mut moved, true, &mut work),
        Cleared::Cut
    );
    assert!(work.spent() > limit, "relocated until the budget ran out");
    let mut distinct = moved.clone();
    distinct.sort_by(|p, q| p[0].total_cmp(&q[0]).then(p[1].total_cmp(&q[1])));
    distinct.dedup();
    assert_eq!(distinct.len(), n, "no two nodes on one spot");
}

/// After a spread, measuring the clashes found before again finds every clash (in
/// another order: the grid, and so the order in which an edge finds its nodes, follow
/// the picture's size).
#[test]
fn the_clashes_after_a_spread_are_those_before_measured_again() {
    for seed in 0..4 {
        let (mut positions, edges) = picture(150, 600.0, seed);
        let before = clashes(&edges, &positions);
        assert!(!before.is_empty());
        spread(&mut positions, 1.0 + 0.2 * seed as f64 + 0.1);
        let sorted = |mut list: Vec<Clash>| {
            let key = |c: &Clash| match *c {
                Clash::Edge { node, edge, .. } => (0, edge[0], edge[1], node),
                Clash::Nodes { a, b, .. } => (1, a, b, 0),
            };
            list.sort_by_key(key);
            list
        };
        let again = sorted(remeasure(&before, &positions));
        assert!(again.len() < before.len(), "the spread clears some");
        assert_eq!(again, sorted(clashes(&edges, &positions)));
    }
}

/// The pictures the pass makes, pinned. The other tests check what every picture must
/// be (clear, compact, within its budget); this one catches a change to *which* clear
/// picture comes out, as any change to the pass's heuristics makes (where a node moves
/// to, how far the picture grows): its mutants are listed in `docs/dev/testing.md`.
/// Crowded random pictures, seeded and not, each with nodes on two shared spots; per
/// picture the outcome, the work spent, the size and a hash of every position to a
/// thousandth of a pixel. After an intended change:
/// `UPDATE_EXPECT=1 cargo test -p cmg-ide --lib clearance`.
#[test]
fn the_pictures_the_pass_makes_are_pinned() {
    use std::fmt::Write;
    let mut lines = String::new();
    // Crowded pictures with nodes sharing two spots, and three as drawn at random
    // ("apart"), in one of whose rounds exactly half of the nodes find no spot free (the
    // faster growth is for more; in the third, more than half had a clash to move from).
    for (n, side, seed, seeded, shared) in [
        (8, 10.0, 0, true, true),
        (12, 60.0, 1, false, true),
        (12, 60.0, 1, true, true),
        (40, 200.0, 2, false, true),
        (40, 200.0, 2, true, true),
        (120, 400.0, 3, false, true),
        (6, 40.0, 1, false, false),
        (10, 10.0, 6, true, false),
        (20, 5.0, 0, false, false),
    ] {
        let (mut positions, edges) = picture(n, side, seed);
        if shared {
            for (copy, of) in [(1, 0), (2, 0), (4, 3), (5, 3)] {
                positions[copy] = positions[of];
            }
        }
        let mut work = unlimited();
        let cleared = clear_edges(&edges, &mut positions, seeded, &mut work);
        let apart = if shared { "" } else { " apart" };
        writeln!(
            lines,
            "{n} nodes{apart}, seeded {seeded}: {cleared:?}, {} units, {}",
            work.spent(),
            summary(&positions)
        )
        .unwrap();
    }
    // A large picture starts less crowded than a small one: 1000 nodes, stopped by the
    // budget right after the first spread (the count of clashes, then the spread).
    let (mut positions, edges) = picture(1000, 300.0, 7);
    let mut counting = unlimited();
    let found = clashes_within(&edges, &positions, &mut counting, usize::MAX).expect("all");
    let mut work = Work::new(Limits {
        work: counting.spent() + found.len() as u64 - 1,
        cancel: None,
    });
    let cleared = clear_edges(&edges, &mut positions, false, &mut work);
    writeln!(
        lines,
        "1000 nodes, spread once: {cleared:?}, {} clashes before, {}",
        found.len(),
        summary(&positions)
    )
    .unwrap();
    // More clashes than the pass keeps: the nodes that share a spot (two spots) are
    // set apart first, within a budget that runs out.
    let n = 400;
    let edges: Vec<[usize; 2]> = (0..n)
        .flat_map(|a| (a + 1..n).step_by(7).map(move |b| [a, b]))
        .collect();
    for seeded in [false, true] {
        let mut positions: Vec<[f64; 2]> = (0..n).map(|i| [(i % 2) as f64 * 1000.0, 0.0]).collect();
        let mut work = Work::new(Limits {
            work: 2_000_000,
            cancel: None,
        });
        let cleared = clear_edges(&edges, &mut positions, seeded, &mut work);
        writeln!(
            lines,
            "{n} nodes on two spots, seeded {seeded}: {cleared:?}, {}",
            summary(&positions)
        )
        .unwrap();
    }
    // The last passes, which only pictures the rounds cannot clear reach: on crowded
    // pictures straight away, with nodes sitting on edges (nudged apart first). The
    // third still has a clash that needs a large spread at the last pass, which then
    // spreads by what it needs, however much.
    for (n, side, seed) in [(12, 30.0, 4), (40, 60.0, 5), (50, 1.0, 10)] {
        let (mut positions, edges) = picture(n, side, seed);
        for (i, &[a, b]) in edges.iter().enumerate().take(4) {
            let on = (i + 7) % n;
            if on != a && on != b {
                positions[on] = [
                    (positions[a][0] + positions[b][0]) / 2.0,
                    (positions[a][1] + positions[b][1]) / 2.0,
                ];
            }
        }
        let cap = max_clashes(n, edges.len());
        let mut work = unlimited();
        let cleared = last_passes(&edges, &mut positions, &mut work, cap);
        assert_eq!(cleared, Cleared::All);
        assert!(
            clashes(&edges, &positions).is_empty(),
            "the last passes left clashes"
        );
        writeln!(
            lines,
            "last passes, {n} nodes: {} units, {}",
            work.spent(),
            summary(&positions)
        )
        .unwrap();
    }
    expect_test::expect![[r#"
        8 nodes, seeded true: All, 18967 units, 162.9 x 190.1 px, 27cc10000f80c885
        12 nodes, seeded false: All, 57785 units, 232.5 x 277.8 px, 8fc9d47a1affd2b0
        12 nodes, seeded true: All, 47808 units, 213.5 x 183.2 px, f7337515ab77ae65
        40 nodes, seeded false: All, 320621 units, 1116.2 x 1130.7 px, df249890a5a24ad0
        40 nodes, seeded true: All, 784027 units, 1016.2 x 962.4 px, 14439c6111518a22
        120 nodes, seeded false: All, 1513873 units, 4614.7 x 4624.3 px, a5ba2eed5d69cb10
        6 nodes apart, seeded false: All, 9313 units, 110.6 x 118.5 px, 21ff7ecda12fb060
        10 nodes apart, seeded true: All, 55229 units, 370.7 x 214.2 px, f79b8c215587c20e
        20 nodes apart, seeded false: All, 264803 units, 473.6 x 523.2 px, 500abcf6933df583
        1000 nodes, spread once: Cut, 237574 clashes before, 24935.5 x 25032.2 px, 053e76dac5eed4b0
        400 nodes on two spots, seeded false: Cut, 124701.0 x 55048.7 px, 65b80fdaf1461343
        400 nodes on two spots, seeded true: Cut, 1805.2 x 796.9 px, 36b21552a87ecc95
        last passes, 12 nodes: 2987 units, 424.0 x 365.6 px, cd4f38a73bdcc748
        last passes, 40 nodes: 37900 units, 1157.8 x 1682.7 px, 648747dd1cf47d70
        last passes, 50 nodes: 60424 units, 4458.1 x 5915.9 px, 9433b028139c5476
    "#]]
    .assert_eq(&lines);
}

/// A picture's size and a hash of every position to a thousandth of a pixel.
fn summary(positions: &[[f64; 2]]) -> String {
    let (mut low, mut high) = ([f64::MAX; 2], [f64::MIN; 2]);
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    for p in positions {
        for axis in 0..2 {
            low[axis] = low[axis].min(p[axis]);
            high[axis] = high[axis].max(p[axis]);
            let milli = (p[axis] * 1000.0).round() as i64;
            hash = (hash ^ milli as u64).wrapping_mul(0x100_0000_01b3);
        }
    }
    format!(
        "{:.1} x {:.1} px, {hash:016x}",
        high[0] - low[0],
        high[1] - low[1]
    )
}

/// A pass whose cancel flag is set stops at once and says it was cancelled (not only
/// out of work), so that `clear` gives no picture: the layout's own check of the flag
/// comes before the pass and cannot see a cancel that arrives during it.
#[test]
fn a_cancelled_pass_stops_and_says_so() {
    let (mut positions, edges) = picture(40, 60.0, 1);
    let before = positions.clone();
    let flag = std::sync::atomic::AtomicBool::new(true);
    let mut work = Work::new(Limits {
        work: u64::MAX,
        cancel: Some(&flag),
    });
    assert_eq!(
        clear_edges(&edges, &mut positions, false, &mut work),
        Cleared::Cut
    );
    assert!(work.cancelled());
    assert_eq!(positions, before, "moved after the cancel");
}

/// The layout hands out positions rounded to hundredths of a pixel, which may bring a
/// line a little closer to a node than the clearance, or two nodes closer than the
/// spacing: such a picture still counts as clear (a kept seed is checked with
/// `is_clear`), and one a tenth of a pixel closer does not.
#[test]
fn a_clear_picture_rounded_to_hundredths_is_still_clear() {
    let analysis = cmg_core::analysis::Analysis::new("0 -- 1\n1 -- 2\n".to_owned());
    let graph = &analysis.model.graph;
    let index = |id: u32| graph.index_of(id).expect("a node") as usize;
    let round = |p: [f64; 2]| p.map(|v| (v * 100.0).round() / 100.0);
    let line_gap = |p: &[[f64; 2]]| gap(p[index(2)], p[index(0)], p[index(1)]);
    let apart = |p: &[[f64; 2]]| gap(p[index(2)], p[index(0)], p[index(0)]);
    // Nodes 0, 1 and 2 placed by `place` (the `k`-th try, a pair `away` apart), their
    // positions rounded: at the first try where rounding brings the pair closer than
    // `limit`, the picture is clear, and a tenth of a pixel closer it is not.
    type Place<'a> = &'a dyn Fn(usize, f64) -> [[f64; 2]; 3];
    let check = |limit: f64, measure: &dyn Fn(&[[f64; 2]]) -> f64, place: Place| {
        let at = |k: usize, inside: f64| {
            let mut p = vec![[0.0; 2]; 3];
            for (id, spot) in place(k, limit - inside).into_iter().enumerate() {
                p[index(id as u32)] = round(spot);
            }
            p
        };
        let k = (1..100)
            .find(|&k| measure(&at(k, 0.0)) < limit)
            .expect("a try at which rounding brings them closer");
        let (rounded, closer) = (at(k, 0.0), at(k, 0.1));
        assert!(
            is_clear(graph, &rounded, &mut unlimited()),
            "{}",
            measure(&rounded)
        );
        assert!(
            !is_clear(graph, &closer, &mut unlimited()),
            "{}",
            measure(&closer)
        );
    };
    // Node 2 the clearance away from the middle of the line 0 -- 1, at some slope.
    check(EDGE_CLEARANCE, &line_gap, &|k, away| {
        let end = [300.0, 3.0 + 0.713 * k as f64];
        let length = end[0].hypot(end[1]);
        let normal = [-end[1] / length, end[0] / length];
        let middle = [end[0] / 2.0, end[1] / 2.0];
        let node = [middle[0] + away * normal[0], middle[1] + away * normal[1]];
        [[0.0, 0.0], end, node]
    });
    // Nodes 0 and 2 the spacing apart at some angle, node 1 far off at a right angle
    // (each line passes its other node wide).
    check(NODE_SPACING, &apart, &|k, away| {
        let angle = 0.3 + 0.0137 * k as f64;
        let (cos, sin) = (angle.cos(), angle.sin());
        let far = [away * cos - 500.0 * sin, away * sin + 500.0 * cos];
        [[0.0, 0.0], far, [away * cos, away * sin]]
    });
}

/// The clashes the pass keeps grow with the graph: a crowded picture of 1600 nodes
/// holds more than the fixed part of the cap (`1 << 20`), and keeps them all.
#[test]
fn a_large_pictures_clashes_are_all_kept() {
    let (positions, edges) = picture(1600, 190.0, 0);
    let cap = max_clashes(positions.len(), edges.len());
    let found = clashes_within(&edges, &positions, &mut unlimited(), cap).expect("given up");
    assert!(found.len() > 1 << 20, "{} clashes", found.len());
}

/// A picture whose edges would be listed in more grid cells than the pass allows
/// (`max_grid_entries`: they cross the picture many times over) is not relocated in:
/// the pass gives up at once and moves nothing. Here 2500 edges each cross a picture
/// 400 times as wide as it is high, about 200 cells, from 50 nodes on its left to 50
/// on its right.
#[test]
fn a_picture_whose_edges_cross_the_grid_too_often_is_given_up() {
    let (width, height) = (400_000.0, 1000.0);
    let mut positions: Vec<[f64; 2]> = (0..100)
        .map(|i| {
            let x = if i < 50 { 0.0 } else { width };
            [x, (i % 50) as f64 * height / 50.0]
        })
        .collect();
    let edges: Vec<[usize; 2]> = (0..50)
        .flat_map(|a| (50..100).map(move |b| [a, b]))
        .collect();
    let before = positions.clone();
    let mut work = unlimited();
    assert_eq!(
        clear_edges(&edges, &mut positions, true, &mut work),
        Cleared::Cut
    );
    assert_eq!(positions, before, "relocated in");
}
