//! The one solve queue: newest first, one solve (or what-if) at a time, started when its
//! memory fits.

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
            let wanted = self
                .documents
                .get(&uri)
                .is_some_and(|tracked| tracked.document.wants(&job));
            if !wanted {
                continue;
            }
            let peak = documents::solve_bytes(&job.game);
            // A what-if takes only the room left: it never evicts a solution (which a
            // request would solve again, evicting another for its own what-if).
            let fits = match job.explain {
                None => self.make_room(&uri, peak, actions),
                Some(_) => peak <= self.left(),
            };
            if !fits {
                if self.under_way() || self.publishing(&uri) {
                    self.queue.push((uri, job));
                    return;
                }
                let left = self.left();
                let tracked = self.documents.get_mut(&uri).expect("wanted");
                if job.explain.is_some() {
                    // The outcome is shown already; only the what-if is given up.
                    tracked.document.refuse_what_if(format!(
                        "not computed: it needs about {} MiB and the server's memory budget has {} MiB left",
                        peak.div_ceil(1 << 20),
                        left >> 20
                    ));
                    actions.push(Action::RefreshViews);
                    self.settle_parked(&uri, actions);
                    continue;
                }
                let too_large = TooLarge::MemoryBudget {
                    nodes: job.game.node_count(),
                    estimate: peak,
                    budget: left,
                    setting: MemorySetting::ServerSetting,
                };
                tracked.document.cancel_solve();
                tracked.document.solve = SolveState::TooLarge(too_large);
                tracked.publication.waiting = None;
                self.build(&uri, actions);
                self.settle_parked(&uri, actions);
                continue;
            }
            self.running = Some((uri.clone(), job.clone(), peak));
            actions.push(Action::Solve { uri, job });
            return;
        }
    }

    pub(super) fn solved(
        &mut self,
        uri: Uri,
        job: SolveJob,
        outcome: SolveOutcome,
        actions: &mut Vec<Action>,
    ) {
        if self
            .running
            .as_ref()
            .is_some_and(|(_, running, _)| Arc::ptr_eq(&running.cancel, &job.cancel))
        {
            self.running = None;
        }
        let solution = match outcome {
            SolveOutcome::Solved(solution) => Some(*solution),
            SolveOutcome::Panicked => None,
            SolveOutcome::Stopped => {
                self.pump(actions);
                return;
            }
        };
        let Some(tracked) = self.documents.get_mut(&uri) else {
            self.pump(actions);
            return;
        };
        if job.explain.is_some() {
            // The what-if of the solution shown: only what shows it changes.
            if tracked.document.accept_what_if(&job.cancel, solution) {
                actions.push(Action::RefreshViews);
                self.settle_parked(&uri, actions);
            }
        } else {
            let solved = solution.is_some();
            if tracked.document.accept_solution(&job.cancel, solution) {
                // The first publication if it still waited for this solve, or a second
                // one now that the outcome is known.
                tracked.publication.waiting = None;
                let explain = tracked.document.explain_job(job.game.clone());
                self.build(&uri, actions);
                if solved {
                    actions.push(Action::RefreshViews);
                }
                if let Some(explain) = explain {
                    self.enqueue(uri.clone(), explain);
                }
                self.settle_parked(&uri, actions);
            }
        }
        self.pump(actions);
    }
}
