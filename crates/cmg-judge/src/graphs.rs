//! The graphs the judge sends, as LeetCode's adjacency lists: every small game once,
//! random graphs, the graphs one removal away, renumberings, and the order of each list.

use cmg_gen::{Constraints, Graph, Rng};

/// A graph as LeetCode gives it: list `i` holds the neighbours of node `i`, node 0 is the
/// hole, the mouse starts on 1 and the cat on 2. The order within a list is the judge's
/// choice, and a solution may depend on it.
pub type Lists = Vec<Vec<u32>>;

/// How the judge orders each adjacency list it sends. LeetCode promises no order, so a
/// solution that reads `graph[c][0]` as "the hole, if any" is wrong, and only an order
/// other than sorted shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    Sorted,
    Reversed,
    /// Each list shuffled by a generator with this seed.
    Shuffled(u64),
}

/// `lists` with every list in `order`.
pub fn ordered(lists: &[Vec<u32>], order: Order) -> Lists {
    let mut rng = match order {
        Order::Shuffled(seed) => Some(Rng::new(seed)),
        _ => None,
    };
    lists
        .iter()
        .map(|list| {
            let mut list = list.clone();
            list.sort_unstable();
            match (&mut rng, order) {
                (_, Order::Reversed) => list.reverse(),
                (Some(rng), _) => {
                    for i in (1..list.len()).rev() {
                        list.swap(i, rng.below(i as u64 + 1) as usize);
                    }
                }
                _ => {}
            }
            list
        })
        .collect()
}

/// Whether some list has two or more entries, so that its order can matter.
pub fn order_matters(lists: &[Vec<u32>]) -> bool {
    lists.iter().any(|list| list.len() > 1)
}

/// Every game on `nodes` nodes that meets LeetCode's constraints, exactly once per class
/// of the nodes other than the hole, the mouse and the cat (nodes 0, 1 and 2 stay
/// themselves), with sorted lists, fewer edges first.
pub fn small_graphs(nodes: usize) -> Vec<Lists> {
    let mut seen = std::collections::HashSet::new();
    let mut graphs: Vec<(usize, Vec<u64>)> = Vec::new();
    let others: Vec<Vec<usize>> = permutations(&(3..nodes).collect::<Vec<_>>());
    cmg_gen::each_graph(nodes, Constraints::LeetCode, &mut |graph| {
        for hole in 0..nodes {
            for mouse in (0..nodes).filter(|&m| m != hole) {
                for cat in (0..nodes).filter(|&c| c != hole && c != mouse) {
                    let roles = [hole, mouse, cat];
                    let mut order = roles.to_vec();
                    order.extend((0..nodes).filter(|v| !roles.contains(v)));
                    let game = graph.relabelled(&order);
                    if !game.meets(Constraints::LeetCode) {
                        continue;
                    }
                    // The least of the renamings of nodes 3.. names the class.
                    let canonical = others
                        .iter()
                        .map(|rest| {
                            let mut order = vec![0, 1, 2];
                            order.extend(rest);
                            game.relabelled(&order).rows().to_vec()
                        })
                        .min()
                        .unwrap_or_else(|| game.rows().to_vec());
                    if seen.insert(canonical.clone()) {
                        graphs.push((game.edge_count(), canonical));
                    }
                }
            }
        }
    });
    graphs.sort();
    graphs
        .into_iter()
        .map(|(_, rows)| rows_to_lists(&rows))
        .collect()
}

fn rows_to_lists(rows: &[u64]) -> Lists {
    rows.iter()
        .map(|&row| (0..64).filter(|&v| row >> v & 1 == 1).collect())
        .collect()
}

fn permutations(items: &[usize]) -> Vec<Vec<usize>> {
    if items.is_empty() {
        return vec![Vec::new()];
    }
    let mut all = Vec::new();
    for (i, &first) in items.iter().enumerate() {
        let mut rest = items.to_vec();
        rest.remove(i);
        for mut tail in permutations(&rest) {
            tail.insert(0, first);
            all.push(tail);
        }
    }
    all
}

/// A random graph on `nodes` nodes (clamped to 3 to 50; the judge's search asks for 8
/// to 49) that meets the constraints: a random spanning tree, so that no node is alone,
/// each other pair joined with one chance, drawn once per graph, of 0 to 39 in 100, and
/// an edge from the cat to node 3 (or 1) when it has no move besides the hole.
pub fn random_graph(rng: &mut Rng, nodes: usize) -> Lists {
    let nodes = nodes.clamp(3, 50);
    let mut graph = Graph::empty(nodes);
    for v in 1..nodes {
        let u = rng.below(v as u64) as usize;
        graph.toggle(u, v);
    }
    let density = rng.below(40);
    for u in 0..nodes {
        for v in u + 1..nodes {
            if !graph.has_edge(u, v) && rng.below(100) < density {
                graph.toggle(u, v);
            }
        }
    }
    if graph.rows()[2] & !1 == 0 {
        graph.toggle(2, if nodes > 3 { 3 } else { 1 });
    }
    graph.adjacency()
}

/// `lists` with node `order[i]` renumbered `i`, each list in the order it had (nodes not
/// in `order` dropped, with the edges to them).
pub fn renumbered(lists: &[Vec<u32>], order: &[usize]) -> Lists {
    let mut label = vec![None; lists.len()];
    for (new, &old) in order.iter().enumerate() {
        label[old] = Some(new as u32);
    }
    order
        .iter()
        .map(|&old| {
            lists[old]
                .iter()
                .filter_map(|&v| label.get(v as usize).copied().flatten())
                .collect()
        })
        .collect()
}

/// Whether `lists` is a graph LeetCode could send.
pub fn meets_constraints(lists: &[Vec<u32>]) -> bool {
    Graph::from_adjacency(lists).is_some_and(|g| g.meets(Constraints::LeetCode))
}

/// The graphs one removal away from `lists` that meet the constraints, each list in the
/// order it had: each node but the hole, the mouse and the cat (the others renumbered),
/// last first, then each edge.
pub fn removals(lists: &[Vec<u32>]) -> Vec<Lists> {
    let n = lists.len();
    let mut out = Vec::new();
    for node in (3..n).rev() {
        let order: Vec<usize> = (0..n).filter(|&v| v != node).collect();
        out.push(renumbered(lists, &order));
    }
    for u in 0..n {
        for &v in &lists[u] {
            if (u as u32) < v {
                let mut smaller = lists.to_vec();
                smaller[u].retain(|&w| w != v);
                smaller[v as usize].retain(|&w| w as usize != u);
                out.push(smaller);
            }
        }
    }
    out.retain(|lists| meets_constraints(lists));
    out
}

/// The graphs one edge away from `lists` (added or removed) that meet the constraints,
/// with sorted lists.
pub fn neighbours(lists: &[Vec<u32>]) -> Vec<Lists> {
    let Some(graph) = Graph::from_adjacency(lists) else {
        return Vec::new();
    };
    let n = lists.len();
    let mut out = Vec::new();
    for u in 0..n {
        for v in u + 1..n {
            let mut changed = graph.clone();
            changed.toggle(u, v);
            if changed.meets(Constraints::LeetCode) {
                out.push(changed.adjacency());
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The counts of distinct games, found by brute force over every labelling of every
    /// graph: no two of `small_graphs` are the same game, and none is missing.
    #[test]
    fn small_graphs_are_every_game_once() {
        for nodes in 3..=5 {
            let graphs = small_graphs(nodes);
            let distinct: std::collections::HashSet<_> = graphs.iter().collect();
            assert_eq!(distinct.len(), graphs.len(), "{nodes} nodes: a repeat");
            // Brute force: every graph on labelled nodes, canonical by trying every
            // renaming of nodes 3.. .
            let pairs: Vec<(usize, usize)> = (0..nodes)
                .flat_map(|u| (u + 1..nodes).map(move |v| (u, v)))
                .collect();
            let mut classes = std::collections::HashSet::new();
            for mask in 0u32..1 << pairs.len() {
                let mut graph = Graph::empty(nodes);
                for (i, &(u, v)) in pairs.iter().enumerate() {
                    if mask >> i & 1 == 1 {
                        graph.toggle(u, v);
                    }
                }
                if !graph.meets(Constraints::LeetCode) {
                    continue;
                }
                let canonical = permutations(&(3..nodes).collect::<Vec<_>>())
                    .into_iter()
                    .map(|rest| {
                        let mut order = vec![0, 1, 2];
                        order.extend(rest);
                        graph.relabelled(&order).adjacency()
                    })
                    .min()
                    .unwrap();
                classes.insert(canonical);
            }
            assert_eq!(graphs.len(), classes.len(), "{nodes} nodes");
            let edges: Vec<usize> = graphs
                .iter()
                .map(|g| g.iter().map(Vec::len).sum())
                .collect();
            assert!(edges.windows(2).all(|w| w[0] <= w[1]), "fewer edges first");
        }
    }

    #[test]
    fn orders_keep_the_lists_and_change_only_their_order() {
        let lists = vec![vec![2, 1], vec![0, 2], vec![0, 1, 3], vec![2]];
        assert_eq!(
            ordered(&lists, Order::Sorted),
            vec![vec![1, 2], vec![0, 2], vec![0, 1, 3], vec![2]]
        );
        assert_eq!(
            ordered(&lists, Order::Reversed),
            vec![vec![2, 1], vec![2, 0], vec![3, 1, 0], vec![2]]
        );
        let shuffled = ordered(&lists, Order::Shuffled(7));
        assert_eq!(
            ordered(&shuffled, Order::Sorted),
            ordered(&lists, Order::Sorted)
        );
        assert_eq!(shuffled, ordered(&lists, Order::Shuffled(7)), "seeded");
    }

    #[test]
    fn removals_keep_the_order_of_each_list() {
        // 0 - 3, 1 - 3, 2 - 3, 1 - 2, lists unsorted.
        let lists = vec![vec![3], vec![3, 2], vec![3, 1], vec![2, 1, 0]];
        let all = removals(&lists);
        // Node 3 cannot go, nor the edge 0 - 3 (node 0 would be alone); the other
        // three edges can.
        assert_eq!(all.len(), 3, "{all:?}");
        for smaller in &all {
            assert!(meets_constraints(smaller));
            for (node, list) in smaller.iter().enumerate() {
                let original: Vec<u32> = lists[node]
                    .iter()
                    .copied()
                    .filter(|v| list.contains(v))
                    .collect();
                assert_eq!(&original, list, "order kept");
            }
        }
    }

    /// Random graphs meet the puzzle's constraints at every size: connected (the spanning
    /// tree stays whole, the extra edges only add), every list without repeats, and the
    /// cat with a move besides the hole; and they are of every density up to 40 % of the
    /// pairs, none near complete.
    #[test]
    fn random_graphs_are_connected_and_meet_the_constraints() {
        let mut rng = Rng::new(7);
        let mut densest = 0f64;
        for nodes in (3..=50).cycle().take(400) {
            let lists = random_graph(&mut rng, nodes);
            if nodes >= 20 {
                let edges = lists.iter().map(Vec::len).sum::<usize>() / 2;
                densest = densest.max(edges as f64 / (nodes * (nodes - 1) / 2) as f64);
            }
            assert_eq!(lists.len(), nodes);
            let mut seen = vec![false; nodes];
            let mut stack = vec![0usize];
            seen[0] = true;
            while let Some(u) = stack.pop() {
                for &v in &lists[u] {
                    if !std::mem::replace(&mut seen[v as usize], true) {
                        stack.push(v as usize);
                    }
                }
            }
            assert!(seen.iter().all(|&s| s), "not connected: {lists:?}");
            for (u, list) in lists.iter().enumerate() {
                let mut sorted = list.clone();
                sorted.sort_unstable();
                sorted.dedup();
                assert_eq!(sorted.len(), list.len(), "repeats: {lists:?}");
                assert!(!list.contains(&(u as u32)), "a self-loop: {lists:?}");
            }
            assert!(lists[2].iter().any(|&v| v != 0), "{lists:?}");
        }
        assert!((0.3..0.5).contains(&densest), "{densest}");
    }
}
