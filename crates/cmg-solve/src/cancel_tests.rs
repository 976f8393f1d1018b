//! The cancellation flag is read inside the sweep, not only before it: a solve that is
//! stopped after thousands of pops returns at the next look.

use std::cell::Cell;

use super::{solve_until, Config, Engine, Game};

/// The counter queue alone: it is the engine that looks at the flag every 4096 pops.
const QUEUE: Config = Config {
    engine: Engine::Queue,
    threads: Some(1),
};

/// A path of 200 nodes with the hole at one end: 80 000 positions, most decided.
fn path() -> Game {
    let adjacency: Vec<Vec<u32>> = (0..200u32)
        .map(|v| {
            [v.checked_sub(1), (v < 199).then_some(v + 1)]
                .into_iter()
                .flatten()
                .collect()
        })
        .collect();
    Game::new(&adjacency, Some(0))
}

#[test]
fn a_stop_requested_mid_sweep_ends_the_solve() {
    let looks = Cell::new(0);
    let full = solve_until(&path(), QUEUE, &|| {
        looks.set(looks.get() + 1);
        false
    });
    assert!(full.is_some());
    // One look before the sweep, then one every 4096 pops: more than four looks means
    // the sweep runs past 3 * 4096 pops.
    assert!(
        looks.get() > 4,
        "the game is too small: {} looks",
        looks.get()
    );

    let looks = Cell::new(0);
    let stopped = solve_until(&path(), QUEUE, &|| {
        looks.set(looks.get() + 1);
        looks.get() == 4
    });
    assert!(stopped.is_none(), "the sweep ignored the stop");
    // The fourth look is the one after 2 * 4096 pops.
    assert_eq!(looks.get(), 4);
}
