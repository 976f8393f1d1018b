//! Every engine under random rules against the plain reference of `variant_reference.rs`:
//! random graphs with one-way edges, several holes or none, the cat in the holes and turn
//! limits, on every position under every limit. `tests/it/solver.rs` draws more with proptest.

use crate::test_rng::XorShift;
use crate::variant_reference::check_variant;
use crate::Rules;

/// A random graph of `n` nodes: each ordered pair joined one way with the given chance in
/// percent, and most of those both ways.
fn random_moves(rng: &mut XorShift, n: u32, chance: u32) -> Vec<Vec<u32>> {
    let mut lists = vec![Vec::new(); n as usize];
    for u in 0..n {
        for v in u + 1..n {
            if rng.below(100) < chance {
                match rng.below(4) {
                    0 => lists[u as usize].push(v),
                    1 => lists[v as usize].push(u),
                    _ => {
                        lists[u as usize].push(v);
                        lists[v as usize].push(u);
                    }
                }
            }
        }
    }
    lists
}

fn random_rules(rng: &mut XorShift, n: u32) -> Rules {
    let holes = (0..rng.below(4)).map(|_| rng.below(n + 1)).collect();
    Rules {
        holes,
        cat_enters_holes: rng.below(3) == 0,
        limit: (rng.below(2) == 0).then(|| rng.below(12)),
        cat_on_holes: rng.below(4) == 0,
    }
}

#[test]
fn every_engine_agrees_with_the_reference_under_random_rules() {
    let mut rng = XorShift(0x0dd_ba11_5eed);
    for case in 0..1500u32 {
        let n = 1 + case % 7;
        let lists = random_moves(&mut rng, n, [20, 40, 60, 90][case as usize % 4]);
        let rules = random_rules(&mut rng, n);
        check_variant(&lists, &rules);
    }
}

/// The engine each game gets: the standard ones for one hole or none, the general one
/// for several holes, the cat in the holes, or when asked.
#[test]
fn the_rules_pick_the_engine() {
    use crate::{EngineKind, Game};
    let lists = vec![vec![1], vec![0, 2], vec![1]];
    let engine = |rules: Rules| Game::with_rules(&lists, rules).engine();
    assert_eq!(engine(Rules::default()), EngineKind::Standard);
    let limit = Rules {
        holes: vec![0],
        limit: Some(3),
        ..Rules::default()
    };
    assert_eq!(engine(limit), EngineKind::Standard);
    let two = Rules {
        holes: vec![0, 2],
        ..Rules::default()
    };
    assert_eq!(engine(two), EngineKind::Variant);
    let enters = Rules {
        holes: vec![0],
        cat_enters_holes: true,
        ..Rules::default()
    };
    assert_eq!(engine(enters), EngineKind::Variant);
    assert_eq!(Game::new(&lists, Some(0)).engine(), EngineKind::Standard);
}
