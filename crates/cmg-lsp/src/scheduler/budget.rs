//! The memory budget: what the retained analyses and solutions and the work under way
//! take, starting an analysis when it fits, and making room by evicting the least
//! recently used documents first.

use super::*;

impl Scheduler {
    /// Starts an analysis if its estimate fits in the budget, after evictions; else it
    /// waits for the work under way to end, or, when nothing is under way, is refused
    /// (the job then only says so).
    pub(super) fn start_analysis(
        &mut self,
        uri: Uri,
        mut job: AnalysisJob,
        actions: &mut Vec<Action>,
    ) {
        let text = documents::analysis_estimate(job.rope.len_bytes(), &job.config);
        let (estimate, measured) = self.documents.get(&uri).map_or((text, false), |tracked| {
            tracked.document.analysis_reservation(&self.config)
        });
        let mut granted = estimate;
        if estimate > 0 && !self.make_room(&uri, estimate, actions) {
            if self.under_way() || self.publishing(&uri) {
                if !self.waiting.contains(&uri) {
                    self.waiting.push(uri);
                }
                return;
            }
            if !measured && text < estimate && self.make_room(&uri, text, actions) {
                // What an older text of the document measured does not fit: this text
                // is measured again, and may need less.
                granted = text;
            } else {
                job.over_budget = Some(OverBudget {
                    estimate,
                    left: self.left(),
                    budget: self.config.solver_memory_budget(),
                });
                actions.push(Action::Analyse { uri, job });
                return;
            }
        }
        if granted > 0 {
            self.reserved.insert(job.generation, granted);
        }
        job.granted = granted;
        actions.push(Action::Analyse { uri, job });
    }

    /// Whether a document other than `uri` holds an analysis only until its publication
    /// is handed over. That ends on its own, without a solve, and leaves the analysis
    /// evictable: what needs the room waits for it rather than being refused while
    /// the budget is only held for a moment (many documents opened at once).
    pub(super) fn publishing(&self, uri: &Uri) -> bool {
        self.documents
            .iter()
            .any(|(other, tracked)| other != uri && tracked.publishing())
    }

    /// Gives the analyses that wait for room another try, the most recently used first.
    pub(super) fn start_waiting(&mut self, actions: &mut Vec<Action>) {
        let mut waiting = std::mem::take(&mut self.waiting);
        waiting.sort_by_key(|uri| {
            std::cmp::Reverse(self.documents.get(uri).map_or(0, |t| t.last_used))
        });
        for uri in waiting {
            let Some(tracked) = self.documents.get(&uri) else {
                continue;
            };
            let job = tracked.document.job(&self.config);
            self.start_analysis(uri, job, actions);
        }
    }

    /// The bytes the budget holds: what the documents retain, the analyses under way,
    /// the running solve, and the room lent.
    pub(super) fn used(&self) -> u64 {
        let retained: u64 = self.documents.values().map(Tracked::retained_bytes).sum();
        let reserved: u64 = self.reserved.values().sum();
        let running = self.running.as_ref().map_or(0, |(_, _, peak)| *peak);
        let leased: u64 = self.leases.values().sum();
        retained + reserved + running + leased
    }

    /// Whether work is under way that will free room when it ends: an analysis, the
    /// running solve, or a lease.
    pub(super) fn under_way(&self) -> bool {
        !self.reserved.is_empty() || self.running.is_some() || !self.leases.is_empty()
    }

    /// Lends room to the leases that wait for it, in the order they came: each takes
    /// only the room left. The first that does not fit waits, with those after it, while
    /// the documents' work under way (an analysis, the running solve) will free room;
    /// when none will, it is refused. It does not wait for other leases: the work that
    /// holds one may be the very work that asks (a closed file's solve, while its
    /// analysis holds its own), and would wait for itself.
    pub(super) fn lend_waiting(&mut self, actions: &mut Vec<Action>) {
        while let Some(&(ticket, bytes)) = self.lease_queue.first() {
            if bytes <= self.left() {
                self.leases.insert(ticket, bytes);
                actions.push(Action::Lend {
                    ticket,
                    granted: Ok(()),
                });
            } else if !self.reserved.is_empty() || self.running.is_some() {
                return;
            } else {
                let refused = OverBudget {
                    estimate: bytes,
                    left: self.left(),
                    budget: self.config.solver_memory_budget(),
                };
                actions.push(Action::Lend {
                    ticket,
                    granted: Err(refused),
                });
            }
            self.lease_queue.remove(0);
        }
    }

    /// What is left of the budget.
    pub(super) fn left(&self) -> u64 {
        self.config
            .solver_memory_budget()
            .saturating_sub(self.used())
    }

    /// Evicts what other documents retain, the least recently used first, until `need`
    /// more bytes fit in the budget; whether they do. The most recently used document
    /// keeps its analysis (its solution may go), and so does every document with work
    /// or requests under way; documents whose solve is settled go before those whose
    /// solve is still to come (evicting cancels it).
    pub(super) fn make_room(
        &mut self,
        for_uri: &Uri,
        need: u64,
        actions: &mut Vec<Action>,
    ) -> bool {
        let budget = self.config.solver_memory_budget();
        let newest = self
            .documents
            .iter()
            .max_by_key(|(_, tracked)| tracked.last_used)
            .map(|(uri, _)| uri.clone());
        loop {
            if self.used().saturating_add(need) <= budget {
                return true;
            }
            let running = self.running.as_ref().map(|(uri, _, _)| uri);
            let (parked, waiting) = (&self.parked, &self.waiting);
            let victim = self
                .documents
                .iter()
                .filter(|(uri, _)| *uri != for_uri)
                .filter_map(|(uri, tracked)| {
                    // The analysis of an older text, whose next waits for room, goes
                    // first: nothing needs it.
                    let stale = waiting.contains(uri) && tracked.document.analysis_bytes() > 0;
                    let analysis = stale
                        || Some(uri) != newest.as_ref()
                            && Some(uri) != running
                            && !parked.iter().any(|p| p.uri == *uri)
                            && tracked.analysis_evictable();
                    let solution = tracked.solution_bytes() > 0;
                    (analysis || solution).then(|| {
                        let key = (
                            !stale,
                            analysis && !tracked.document.solve_settled(),
                            tracked.last_used,
                        );
                        (uri.clone(), stale, analysis, key)
                    })
                })
                .min_by_key(|(_, _, _, key)| *key);
            let Some((uri, stale, analysis, _)) = victim else {
                return false;
            };
            let tracked = self.documents.get_mut(&uri).expect("listed");
            if stale {
                let leftover = tracked.document.drop_stale_analysis();
                actions.push(Action::Free(Garbage::Leftover(leftover)));
            } else if analysis {
                let leftover = tracked.document.evict_analysis();
                actions.push(Action::Free(Garbage::Evicted(leftover)));
                self.queue.retain(|(queued, _)| *queued != uri);
                self.evictions += 1;
            } else {
                tracked.document.evict();
            }
        }
    }
}

impl Tracked {
    /// What the retained solution holds, counted at its solve's peak: an upper bound.
    pub(super) fn solution_bytes(&self) -> u64 {
        self.document
            .last_solved
            .as_ref()
            .map_or(0, |(_, solution)| documents::solution_bytes(solution))
    }

    /// What the document holds against the budget: its analysis and its solution.
    pub(super) fn retained_bytes(&self) -> u64 {
        self.document.analysis_bytes() + self.solution_bytes()
    }

    /// Whether the analysis is held for a publication under way: a build handed out and
    /// not sent, a publication not handed over, or the short wait for a quick solve
    /// (its timer ends it).
    pub(super) fn publishing(&self) -> bool {
        let document = &self.document;
        let publication = &self.publication;
        document.is_current()
            && document.analysis_bytes() > 0
            && (publication.builds > publication.sent
                || document.released < document.generation
                || publication.waiting.is_some())
    }

    /// Whether the analysis may be evicted as far as this document goes: it is of the
    /// current text and nothing about it is under way (its diagnostics are handed out,
    /// no build or wait for a solve is pending), so nothing is lost with it.
    pub(super) fn analysis_evictable(&self) -> bool {
        let document = &self.document;
        document.is_current()
            && document.analysis_bytes() > 0
            && document.released == document.generation
            && self.publication.waiting.is_none()
            && self.publication.sent == self.publication.builds
    }
}
