//! Settings: a configuration answer is the whole truth, equal settings change nothing,
//! and a change redoes only what depends on it.

use super::*;

impl Scheduler {
    /// Applies new settings. Equal ones change nothing: VS Code sends
    /// `didChangeConfiguration` when any setting of any extension changes. Settings that
    /// analyses depend on ([`Config::same_analysis`]) analyse every document again as a
    /// new generation; its text is the same, so the requests waiting for the old
    /// generation wait for the new one and are answered from it (their positions still
    /// hold), never `ContentModified`. The other settings only change what is shown:
    /// each analysis takes them as it is, the publications are built again if the
    /// diagnostics cap changed, and the client is asked to refresh its hints if they
    /// did.
    pub(super) fn apply_settings(&mut self, config: Config, actions: &mut Vec<Action>) {
        if config == self.config {
            return;
        }
        let reanalyse = !config.same_analysis(&self.config);
        let rebuild = config.max_diagnostics != self.config.max_diagnostics;
        let hints = config.node_hints != self.config.node_hints;
        self.config = config;
        // In a fixed order, so that the same events always do the same.
        let mut uris: Vec<Uri> = self.documents.keys().cloned().collect();
        uris.sort_by(|a, b| a.as_str().cmp(b.as_str()));
        for uri in uris {
            let tracked = self.documents.get_mut(&uri).expect("listed");
            let document = &mut tracked.document;
            // An evicted document's diagnostics on the client are of the old settings:
            // its analysis on demand would not publish, so it is analysed now.
            if reanalyse || document.evicted {
                let before = document.generation;
                let job = document.changed(&self.config);
                let generation = document.generation;
                for parked in &mut self.parked {
                    if parked.uri == uri && parked.generation == before {
                        parked.generation = generation;
                    }
                }
                if let Some(job) = job {
                    self.start_analysis(uri.clone(), job, actions);
                }
            } else {
                document.analysed = Arc::new(document.analysed.reconfigured(&self.config));
                // A solution evicted since it was published is solved again, and that
                // publishes: one built now would lose the outcome the client shows. So
                // does a solve under way.
                let resolve = if rebuild {
                    document.resolve_evicted()
                } else {
                    None
                };
                if let Some(job) = resolve {
                    self.enqueue(uri.clone(), job);
                } else if rebuild
                    && tracked.publication.waiting.is_none()
                    && tracked.document.solve_settled()
                {
                    self.build(&uri, actions);
                }
            }
            self.settle_parked(&uri, actions);
        }
        if hints {
            actions.push(Action::RefreshViews);
        }
    }
}
