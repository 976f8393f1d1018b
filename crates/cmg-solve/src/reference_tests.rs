//! The solver against the reference solver of `reference.rs`, on random graphs: every
//! engine, every position, the best moves and the lines. The integration tests run the
//! same checks on more graphs, drawn by proptest; this keeps `cargo test -p cmg-solve`
//! honest on its own.

use crate::reference::check_against_reference;
use crate::test_rng::XorShift;

/// A random graph of `n` nodes: each pair joined with the given chance in percent, plus
/// an odd self-loop, repeat or out-of-range neighbour that the solver must ignore.
fn random_graph(rng: &mut XorShift, n: u32, chance: u32) -> Vec<Vec<u32>> {
    let mut lists = vec![Vec::new(); n as usize];
    for u in 0..n {
        for v in u + 1..n {
            if rng.below(100) < chance {
                lists[u as usize].push(v);
                lists[v as usize].push(u);
            }
        }
    }
    if n > 0 && rng.below(4) == 0 {
        let u = rng.below(n);
        let odd = [u, n + 1, lists[u as usize].first().copied().unwrap_or(u)];
        lists[u as usize].push(odd[rng.below(3) as usize]);
    }
    lists
}

#[test]
fn every_engine_agrees_with_the_reference_on_every_position() {
    let mut rng = XorShift(0x5eed_cafe);
    for case in 0..120u32 {
        let n = 1 + case % 9;
        let lists = random_graph(&mut rng, n, [15, 30, 50, 80][case as usize % 4]);
        let hole = match case % 5 {
            0 => None,
            1 => Some(n + 2),
            2 => Some(rng.below(n)),
            _ => Some(0),
        };
        check_against_reference(&lists, hole);
    }
}
