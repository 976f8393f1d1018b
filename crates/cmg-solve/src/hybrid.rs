//! The hybrid's engine choice: rounds while they decide many positions per unit of work, then the counter queue, judged from what the rounds measure as they run.
//!
//! The rounds pay per row they recompute and per 64×64 square they copy, whatever the
//! number of positions that turn out decided; the queue pays per position it passes on,
//! about the same for every position. So the choice is made from the two costs per decided
//! position: the rounds' as measured on the last two rounds (one of each player, as the
//! turns alternate between cheap and dear rounds), and the queue's, which is the position's
//! number of predecessors times a constant measured once (`docs/dev/solver.md`). Nothing is
//! guessed before the first round: the first round is always run, and it is the one that
//! says how fast the levels grow. Every cost is counted in word operations, not read from a
//! clock, so the same game takes the same path on any machine and in the tests below.

use super::table::Layout;

/// The benchmarks' graph families, for the tests that pin the decisions on them.
#[cfg(test)]
#[path = "../../../benches/common/graphs.rs"]
mod graphs;

/// When the rounds hand over to the counter queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Policy {
    /// Rounds to the end.
    Never,
    /// Right after round `r` (0: before the first round).
    After(u32),
    /// When the rounds' measured cost per decided position passes the queue's (see the module doc).
    Auto,
}

/// The estimated cost of passing one position on to one predecessor with the queue, in the
/// word operations a round is measured in: 2.0–3.7 ns a move against 0.7 ns a word operation
/// of the rounds, on the families of `benches/solve.rs` (`docs/dev/solver.md`).
pub(super) const QUEUE_COST_PER_MOVE: u64 = 5;

/// What a round costs beyond its rows' words and squares, in the same units: starting the
/// other threads twice (about 20 µs each, `workers.rs`), marking the next round's dirty words
/// (every row's moves' change masks) and walking the square flags. Fitted on the long games of
/// `benches/solve.rs`, where it is most of a round (`docs/dev/solver.md`).
pub(super) fn round_overhead(layout: Layout, average_moves: u64, workers: usize) -> u64 {
    let n = layout.node_count as u64;
    let mask_words = layout.words.div_ceil(64) as u64;
    let threads = 2 * (workers.max(1) as u64 - 1) * 28_000;
    threads
        + n * (8 + 4 * (1 + average_moves) * mask_words)
        + 2 * (layout.words * layout.words) as u64
}

/// The handover decision, fed one round at a time.
pub(super) struct Handover {
    policy: Policy,
    /// The queue's cost of passing on one position: its moves plus one, times [`QUEUE_COST_PER_MOVE`].
    queue_cost_per_position: u64,
    overhead: u64,
    /// The most positions a handover may list (`rounds::handover_capacity`).
    capacity: usize,
    /// The positions decided by the last two rounds, older first (`None`: no such round yet).
    decided: [Option<usize>; 2],
    /// The positions decided so far, and all positions.
    decided_total: usize,
    positions: usize,
    /// What the rounds have cost beyond what the queue would have, summed over the rounds
    /// since they last were the cheaper (never below 0).
    excess: u64,
}

impl Handover {
    pub(super) fn new(
        policy: Policy,
        layout: Layout,
        average_moves: u64,
        workers: usize,
        capacity: usize,
        terminals: usize,
    ) -> Handover {
        Handover {
            policy,
            queue_cost_per_position: (1 + average_moves) * QUEUE_COST_PER_MOVE,
            overhead: round_overhead(layout, average_moves, workers),
            capacity,
            decided: [None, Some(terminals)],
            decided_total: terminals,
            positions: layout.position_count(),
            excess: 0,
        }
    }

    /// What handing over costs the queue before its first pop: setting up the move counters,
    /// one sequential pass over the 16-bit depth words plus, for the decided positions the
    /// player who moved there loses (about half), one count down at each predecessor. The
    /// factors are fitted to forced switches (`docs/dev/solver.md`): on a 5000-node tree with
    /// back edges a handover after half the game costs about 100 ms, one after ten rounds of
    /// a 2000-node path next to nothing.
    fn set_up_cost(&self) -> u64 {
        self.positions as u64 / 4 + self.decided_total as u64 * self.queue_cost_per_position / 4
    }

    /// Whether the queue takes over before the first round.
    pub(super) fn before_rounds(&self) -> bool {
        // Under `Auto` nothing has been measured yet, so the rounds always run once.
        self.policy == Policy::After(0)
    }

    /// Whether the queue takes over after round `level`, which decided `decided` positions
    /// (all positions of exactly `level` moves) at a measured `cost` in word operations.
    ///
    /// The rule is the ski-rental one: the handover is one way and costs [`Self::set_up_cost`],
    /// and nobody knows how many rounds are left; so the rounds go on until what they have
    /// cost beyond the queue since they were last the cheaper adds up to that price. That
    /// never pays more than twice the better of the two choices made in hindsight.
    pub(super) fn after_round(&mut self, level: u32, decided: usize, cost: u64) -> bool {
        let [two_before, one_before] = self.decided;
        self.decided = [one_before, Some(decided)];
        self.decided_total += decided;
        match self.policy {
            Policy::Never => false,
            Policy::After(round) => level >= round,
            // The first round computes every word of every row, whatever changed: that is the
            // rounds' set-up, not a measure of what a round costs.
            Policy::Auto if level == 1 => false,
            Policy::Auto => {
                // The queue would have made this level by passing on the one before.
                let queue_cost = one_before.unwrap_or(0) as u64 * self.queue_cost_per_position;
                let rounds_cost = cost + self.overhead;
                self.excess = (self.excess + rounds_cost).saturating_sub(queue_cost);
                // A level still growing stays with the rounds, as the levels after it will be
                // larger; so does one too large to list for the queue.
                let growing = two_before.is_none_or(|before| before < decided);
                !growing && decided <= self.capacity && self.excess >= self.set_up_cost()
            }
        }
    }
}

/// What the rounds did on the last solve of this thread, for the tests that pin the decisions.
#[cfg(test)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Trace {
    /// Rounds run (the last one decides nothing when the rounds run to the end).
    pub(super) rounds: u32,
    /// The level the queue took over at, if it did.
    pub(super) handover: Option<u32>,
}

#[cfg(test)]
thread_local! {
    pub(super) static LAST_TRACE: std::cell::Cell<Trace> = const {
        std::cell::Cell::new(Trace { rounds: 0, handover: None })
    };
}

/// Records the trace of a solve (only in tests; nothing otherwise).
#[inline]
pub(super) fn record(_rounds: u32, _handover: Option<u32>) {
    #[cfg(test)]
    LAST_TRACE.with(|trace| {
        trace.set(Trace {
            rounds: _rounds,
            handover: _handover,
        })
    });
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use super::graphs::Family;
    use super::{Trace, LAST_TRACE};
    use crate::{solve_with, Config, Engine, Game};

    /// The hybrid's trace on one thread for a family's benchmark-seeded graph.
    fn trace(family: Family, node_count: usize, degree: usize) -> Trace {
        trace_with(Engine::Hybrid, family, node_count, degree)
    }

    /// The trace of `engine` on one thread for a family's benchmark-seeded graph.
    fn trace_with(engine: Engine, family: Family, node_count: usize, degree: usize) -> Trace {
        let adjacency = family.adjacency(node_count, degree, family.seed(node_count, degree));
        let game = Game::new(&adjacency, Some(0));
        let config = Config {
            engine,
            threads: Some(1),
        };
        solve_with(&game, config, &AtomicBool::new(false)).expect("not cancelled");
        LAST_TRACE.with(|trace| trace.get())
    }

    /// A forced policy hands over where it is told: the queue alone before any round,
    /// after round `r`, or never.
    #[test]
    fn forced_policies_hand_over_where_told() {
        let family = Family::PathOffCore;
        let never = trace_with(Engine::Rounds, family, 300, 8);
        assert_eq!(never.handover, None);
        assert_eq!(
            trace_with(Engine::Queue, family, 300, 8),
            Trace {
                rounds: 0,
                handover: Some(0)
            }
        );
        for round in [1, 3, 7] {
            assert!(round < never.rounds);
            assert_eq!(
                trace_with(Engine::SwitchAfter(round), family, 300, 8),
                Trace {
                    rounds: round,
                    handover: Some(round)
                }
            );
        }
    }

    /// The ski-rental rule on measured costs: the first round (the rounds' set-up) is
    /// not counted, the rounds' cost beyond the queue adds up over the rounds, and the
    /// queue takes over once that sum reaches the handover's price.
    #[test]
    fn the_handover_waits_until_the_excess_pays_for_the_set_up() {
        use super::{round_overhead, Handover, Layout, Policy, QUEUE_COST_PER_MOVE};
        let layout = Layout::new(100);
        let (moves, terminals) = (3, 10);
        let per_position = (1 + moves) * QUEUE_COST_PER_MOVE;
        let overhead = round_overhead(layout, moves, 1);
        let set_up = |decided: u64| layout.position_count() as u64 / 4 + decided * per_position / 4;
        // Whether the queue takes over after a third round of `cost`.
        let third_round = |cost: u64| {
            let mut handover = Handover::new(
                Policy::Auto,
                layout,
                moves,
                1,
                usize::MAX,
                terminals as usize,
            );
            assert!(!handover.before_rounds());
            // A first round of any cost stays with the rounds, and counts for nothing.
            assert!(!handover.after_round(1, 100, 1 << 40));
            // Level 2 shrinks (100 -> 50) and costs the rounds only their overhead: less
            // than the handover's price.
            assert!(!handover.after_round(2, 50, 0));
            handover.after_round(3, 40, cost)
        };
        let excess = overhead - 100 * per_position;
        assert!(excess < set_up(terminals + 150));
        // The least cost of level 3 that brings the excess to the price.
        let cost = set_up(terminals + 190) - excess - overhead + 50 * per_position;
        assert!(!third_round(cost - 1));
        assert!(third_round(cost));
    }

    /// The decisions on a small graph of each family: the families whose rounds keep deciding
    /// many positions per word stay with the rounds to the end, and the long game (a path off a
    /// core) goes to the queue once the rounds' cost beyond it adds up to the handover's price.
    /// A policy that hands over too early, too late or never fails here, not only in a bench.
    #[test]
    fn hybrid_decisions_on_each_family() {
        // (family, nodes, degree, rounds run, handover level); a round that decides nothing ends the rounds.
        let expected = [
            (Family::Uniform, 300, 8, 11, None),
            (Family::RingChords, 300, 8, 13, None),
            (Family::GridChords, 300, 8, 13, None),
            (Family::PreferentialAttachment, 300, 8, 19, None),
            (Family::SmallWorld, 300, 8, 18, None),
            (Family::Geometric, 300, 8, 28, None),
            (Family::Geometric, 600, 6, 88, None),
            (Family::TreeBackEdges, 300, 8, 30, None),
            (Family::TreeBackEdges, 600, 6, 63, None),
            (Family::PathOffCore, 300, 8, 24, Some(24)),
            (Family::PathOffCore, 600, 6, 41, Some(41)),
        ];
        let actual: Vec<_> = expected
            .iter()
            .map(|&(family, node_count, degree, _, _)| {
                let Trace { rounds, handover } = trace(family, node_count, degree);
                (family, node_count, degree, rounds, handover)
            })
            .collect();
        assert_eq!(actual, expected);
    }

    /// A round's overhead, piece by piece as `round_overhead` documents it, on layouts
    /// of one and of several mask words (above 4096 nodes) and with several workers: the
    /// decisions above run on one thread and small graphs, where some pieces are 0 or 1.
    #[test]
    fn the_round_overhead_counts_threads_masks_and_squares() {
        use super::{round_overhead, Layout};
        for node_count in [300, 5000, 9000] {
            let layout = Layout::new(node_count);
            let n = node_count as u64;
            let mask_words = layout.words.div_ceil(64) as u64;
            let squares = (layout.words * layout.words) as u64;
            // One worker starts no thread; an empty graph row marks nothing.
            assert_eq!(
                round_overhead(layout, 0, 1),
                n * (8 + 4 * mask_words) + 2 * squares
            );
            for moves in [0, 3, 10] {
                // Every move of every node marks its change mask, one word op per mask word.
                assert_eq!(
                    round_overhead(layout, moves + 1, 1) - round_overhead(layout, moves, 1),
                    4 * n * mask_words
                );
                // Every worker beyond the first is started twice a round.
                for workers in 1..4 {
                    assert_eq!(
                        round_overhead(layout, moves, workers + 1)
                            - round_overhead(layout, moves, workers),
                        2 * 28_000
                    );
                }
            }
        }
        // No worker is counted as one.
        let layout = Layout::new(300);
        assert_eq!(round_overhead(layout, 2, 0), round_overhead(layout, 2, 1));
    }
}
