//! The rounds' thread work queue: a phase's items handed out one at a time to scoped threads, results back in item order.

use std::sync::{Mutex, PoisonError};

/// Runs `work` on every item, on up to `workers` threads, and returns the results in item order.
///
/// Items are handed out one at a time from a shared list, so a thread that drew cheap rows takes
/// more; the results do not depend on which thread ran what. The threads are scoped and started
/// per call (twice per round): about 20 µs a start, which the hybrid counts as part of a round's
/// fixed cost (`hybrid::round_overhead`); a persistent pool was measured against it in
/// `docs/dev/solver.md`.
pub(super) fn for_each_item<T: Send, R: Send>(
    items: Vec<T>,
    workers: usize,
    work: &(dyn Fn(T) -> R + Sync),
) -> Vec<R> {
    if workers <= 1 || items.len() <= 1 || !crate::CAN_SPAWN_THREADS {
        return items.into_iter().map(work).collect();
    }
    let pending = Mutex::new(items.into_iter().enumerate());
    let drain = || {
        let mut done = Vec::new();
        loop {
            let next = pending
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .next();
            let Some((at, item)) = next else {
                return done;
            };
            done.push((at, work(item)));
        }
    };
    let mut done = std::thread::scope(|scope| {
        let helpers: Vec<_> = (1..workers).map(|_| scope.spawn(drain)).collect();
        let mut done = drain();
        for helper in helpers {
            done.extend(
                helper
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            );
        }
        done
    });
    done.sort_unstable_by_key(|&(at, _)| at);
    done.into_iter().map(|(_, result)| result).collect()
}

#[cfg(test)]
mod tests {
    use super::for_each_item;

    /// Every item is worked once and the results come back in item order, on any number of threads.
    #[test]
    fn results_come_back_in_item_order() {
        for workers in [1, 2, 3, 8] {
            let items: Vec<u64> = (0..200).collect();
            let squares = for_each_item(items, workers, &|item| item * item);
            assert_eq!(
                squares,
                (0..200u64).map(|i| i * i).collect::<Vec<_>>(),
                "{workers}"
            );
        }
    }
}
