//! The one solve queue: newest first, one solve at a time, started when its memory fits.

use super::*;

impl Scheduler {
    /// Queues a solve; an older queued solve of the same document is superseded.
    pub(super) fn enqueue(&mut self, uri: Uri, job: SolveJob) {
        self.queue.retain(|(queued, _)| *queued != uri);
        self.queue.push((uri, job));
    }

    /// Starts the newest queued solve if none runs, making room in the budget first. A
    /// solve that does not fit waits for the analyses under way, and is refused
    /// (`too-large`) when none is. Analyses that wait for room go first: a solve that
    /// started in their place would keep them waiting for its end (a dense game takes
    /// seconds), and the next solve for its own, so that with many documents open one
    /// was never analysed.
    pub(super) fn pump(&mut self, actions: &mut Vec<Action>) {
        if self.running.is_some() || !self.waiting.is_empty() {
            return;
        }
        while let Some((uri, job)) = self.queue.pop() {
            let cancelled = job.cancel.load(std::sync::atomic::Ordering::Relaxed);
            let wanted = self.documents.get(&uri).is_some_and(|tracked| {
                matches!(&tracked.document.solve, SolveState::Pending { cancel, .. } if Arc::ptr_eq(cancel, &job.cancel))
            });
            if cancelled || !wanted {
                continue;
            }
            let peak = documents::solve_bytes(&job.game);
            if !self.make_room(&uri, peak, actions) {
                if !self.reserved.is_empty() || self.publishing(&uri) {
                    self.queue.push((uri, job));
                    return;
                }
                let too_large = TooLarge::MemoryBudget {
                    nodes: job.game.node_count(),
                    estimate: peak,
                    budget: self.left(),
                    setting: MemorySetting::ServerSetting,
                };
                let tracked = self.documents.get_mut(&uri).expect("wanted");
                tracked.document.cancel_solve();
                tracked.document.solve = SolveState::TooLarge(too_large);
                tracked.publication.waiting = None;
                self.build(&uri, actions);
                self.settle_parked(&uri, actions);
                continue;
            }
            self.running = Some((
                uri.clone(),
                SolveJob {
                    game: job.game.clone(),
                    cancel: job.cancel.clone(),
                },
                peak,
            ));
            actions.push(Action::Solve { uri, job });
            return;
        }
    }
}
