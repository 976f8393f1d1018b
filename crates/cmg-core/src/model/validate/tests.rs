//! The checks' building blocks against plain reference versions, on random graphs.

use std::collections::HashSet;

use super::*;
use crate::model::Code;
use cmg_solve::test_rng::XorShift;

/// A graph on ids `0..nodes` (or without some of the ids 0, 1, 2) with random edges,
/// repeats and self-loops included, and those edges.
fn random_graph(rng: &mut XorShift, nodes: u32, edges: u32) -> (Graph, Vec<(u32, u32)>) {
    let ids: Vec<u32> = (0..nodes).filter(|_| rng.below(8) != 0).collect();
    let pairs: Vec<(u32, u32)> = (0..edges)
        .filter_map(|_| {
            let len = ids.len() as u32;
            (len > 0).then(|| (rng.below(len), rng.below(len)))
        })
        .collect();
    let (graph, _) = Graph::from_products(
        ids,
        pairs.iter().map(|(a, b)| {
            (
                std::slice::from_ref(a) as &[u32],
                std::slice::from_ref(b) as &[u32],
            )
        }),
        [],
    );
    (graph, pairs)
}

/// The nodes reachable from `start`, never walking on from `stop`: the plain walk the
/// checks once made three times.
fn reachable(graph: &Graph, start: u32, stop: Option<u32>) -> Vec<bool> {
    let mut seen = vec![false; graph.node_count()];
    let mut stack = vec![start];
    seen[start as usize] = true;
    while let Some(node) = stack.pop() {
        if Some(node) == stop {
            continue;
        }
        for &next in graph.neighbours(node) {
            if !std::mem::replace(&mut seen[next as usize], true) {
                stack.push(next);
            }
        }
    }
    seen
}

/// The one walk gives what three separate walks give: whether the mouse can reach the
/// hole (walking on from it or not), and the nodes either player can reach.
#[test]
fn one_walk_answers_what_three_walks_did() {
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    for round in 0..400 {
        let nodes = 3 + rng.below(30);
        let edges = rng.below(2 * nodes);
        let (graph, _) = random_graph(&mut rng, nodes, edges);
        let reach = Reach::new(&graph);
        let (hole, mouse, cat) = (graph.hole(), graph.mouse_start(), graph.cat_start());
        let expected_hole = hole
            .zip(mouse)
            .map(|(hole, mouse)| reachable(&graph, mouse, None)[hole as usize]);
        assert_eq!(reach.hole_reached_by_mouse, expected_hole, "round {round}");
        let expected_either = mouse.zip(cat).map(|(mouse, cat)| {
            let (by_mouse, by_cat) = (reachable(&graph, mouse, hole), reachable(&graph, cat, hole));
            by_mouse
                .iter()
                .zip(&by_cat)
                .map(|(m, c)| *m || *c)
                .collect::<Vec<_>>()
        });
        assert_eq!(reach.by_either, expected_either, "round {round}");
    }
}

/// Both ways of remembering pairs (a bit matrix, a bit per adjacency entry) agree with a
/// set on which pairs are repeats.
#[test]
fn seen_pairs_find_each_repeat() {
    let mut rng = XorShift(0x2545_f491_4f6c_dd1d);
    for nodes in [2u32, 10, 200] {
        let (graph, pairs) = random_graph(&mut rng, nodes, 4 * nodes);
        let mut set = HashSet::new();
        let mut bits = SeenPairs::bits(graph.node_count());
        let mut entries = SeenPairs::entries(&graph);
        for (a, b) in pairs.into_iter().filter(|(a, b)| a != b) {
            let (low, high) = (a.min(b), a.max(b));
            let expected = set.insert((low, high));
            assert_eq!(bits.insert(low, high), expected, "{nodes} nodes, bits");
            assert_eq!(
                entries.insert(low, high),
                expected,
                "{nodes} nodes, entries"
            );
        }
    }
}

/// Above the bit matrix's size, a file's repeated edges are still found.
#[test]
fn repeats_are_found_in_a_graph_too_large_for_the_bit_matrix() {
    let nodes = SeenPairs::MAX_BIT_NODES + 100;
    let mut text: String = (1..nodes)
        .map(|i| format!("{} -- {}\n", i - 1, i))
        .collect();
    text.push_str("5000 -- 4999\n7 -- 8\n");
    let parse = cmg_syntax::parse(&text);
    let model = Model::new(&text, &parse);
    let repeats: Vec<&str> = model
        .diagnostics
        .iter()
        .filter(|d| d.code == Code::DuplicateEdge)
        .map(|d| &text[d.range.to_usize()])
        .collect();
    assert_eq!(repeats, ["5000 -- 4999", "7 -- 8"]);
}
