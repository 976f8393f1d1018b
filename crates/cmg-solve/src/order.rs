//! The order the solver numbers nodes in internally: breadth first from the hole, so that neighbours get nearby numbers.
//!
//! Both engines read the rows of a position's neighbours: the rounds OR and AND the rows of a
//! node's moves, the queue reads one depth word per predecessor in one row. With neighbours
//! numbered close together those reads share cache lines, and a round's new positions fall
//! into fewer 64×64 squares. Graphs whose files number nodes without regard to the edges (a
//! random geometric graph, say) gain most; a numbering that is already local (a path, a
//! grid) keeps roughly its shape. The renumbering is a permutation: the solution maps every
//! query back to it, so nothing outside the solver sees it.

use super::Game;

/// The internal number of every node (`rank[node]`), breadth first from the hole (from node 0
/// without one), each node's neighbours in list order; nodes it never reaches follow in
/// their own order.
pub(super) fn breadth_first(game: &Game) -> Vec<u32> {
    let n = game.node_count();
    let mut rank = vec![u32::MAX; n];
    let mut order = Vec::with_capacity(n);
    for root in game.hole().into_iter().chain(0..n as u32) {
        if rank[root as usize] != u32::MAX {
            continue;
        }
        rank[root as usize] = order.len() as u32;
        order.push(root);
        let mut next = order.len() - 1;
        while let Some(&node) = order.get(next) {
            next += 1;
            for &neighbour in game.neighbours(node) {
                if rank[neighbour as usize] == u32::MAX {
                    rank[neighbour as usize] = order.len() as u32;
                    order.push(neighbour);
                }
            }
        }
    }
    rank
}

/// `game` with every node `v` renamed `rank[v]`.
pub(super) fn renumbered(game: &Game, rank: &[u32]) -> Game {
    let mut adjacency = vec![Vec::new(); game.node_count()];
    for (node, &new) in rank.iter().enumerate() {
        adjacency[new as usize] = game
            .neighbours(node as u32)
            .iter()
            .map(|&next| rank[next as usize])
            .collect();
    }
    Game::new(&adjacency, game.hole().map(|hole| rank[hole as usize]))
}

#[cfg(test)]
mod tests {
    use super::{breadth_first, renumbered};
    use crate::Game;

    /// The hole comes first, then its neighbours, then theirs; a node out of reach comes last.
    #[test]
    fn numbers_nodes_breadth_first_from_the_hole() {
        // 3 is the hole; 3-1, 3-4, 1-0, 4-2; 5 stands alone.
        let adjacency = vec![vec![1], vec![0, 3], vec![4], vec![1, 4], vec![2, 3], vec![]];
        let game = Game::new(&adjacency, Some(3));
        let rank = breadth_first(&game);
        assert_eq!(rank, vec![3, 1, 4, 0, 2, 5]);
        let renamed = renumbered(&game, &rank);
        assert_eq!(renamed.hole(), Some(0));
        assert_eq!(renamed.neighbours(0), &[1, 2]);
        assert_eq!(renamed.neighbours(1), &[0, 3]);
        assert_eq!(renamed.neighbours(5), &[] as &[u32]);
    }
}
