//! The pool of the scheduler's tests: the work the scheduler hands out (analyses, solves,
//! builds of diagnostics, timers), kept until a test ends it, each end made into the
//! event the server's loop would send. The model-based test and the mutant-killing
//! tests drive the scheduler through it.

use super::*;

#[derive(Default)]
pub struct Work {
    pub analyses: Vec<(Uri, AnalysisJob)>,
    pub solves: Vec<(Uri, SolveJob)>,
    pub builds: Vec<BuildJob>,
    /// The waits for a quick solve, by document and generation.
    pub timers: Vec<(Uri, u64)>,
    /// The longest waits of requests for their solve.
    pub bounds: Vec<Ticket>,
    /// The publications handed to the client whose hand-over the publisher has not yet
    /// confirmed ([`Work::confirmations`]).
    pub handed: Vec<(Uri, u64)>,
}

impl Work {
    /// Keeps the work an action hands out; gives back every other action, a publication
    /// noted for its confirmation.
    pub fn keep(&mut self, action: Action) -> Option<Action> {
        match action {
            Action::Publish {
                ref uri,
                generation: Some(generation),
                ..
            } => {
                self.handed.push((uri.clone(), generation));
                return Some(action);
            }
            Action::Analyse { uri, job } => self.analyses.push((uri, job)),
            Action::Solve { uri, job } => self.solves.push((uri, job)),
            Action::WaitForSolve { uri, generation } => self.timers.push((uri, generation)),
            Action::BoundWait { ticket } => self.bounds.push(ticket),
            Action::Build(job) => self.builds.push(job),
            other => return Some(other),
        }
        None
    }

    /// The events by which the publisher says, in order, that it has handed over the
    /// publications given out so far.
    pub fn confirmations(&mut self) -> Vec<Event> {
        std::mem::take(&mut self.handed)
            .into_iter()
            .map(|(uri, generation)| Event::Published { uri, generation })
            .collect()
    }

    /// Ends the `k`-th analysis under way (modulo their count); `None` if none is.
    pub fn finish_analysis(&mut self, k: usize) -> Option<Event> {
        let (uri, job) = take(&mut self.analyses, k)?;
        let generation = job.generation;
        let analysed = Some(job.run());
        Some(Event::Analysed {
            uri,
            generation,
            analysed,
        })
    }

    /// Ends the `k`-th analysis under way as a panic would; `None` if none is.
    pub fn fail_analysis(&mut self, k: usize) -> Option<Event> {
        let (uri, job) = take(&mut self.analyses, k)?;
        Some(Event::Analysed {
            uri,
            generation: job.generation,
            analysed: None,
        })
    }

    /// Ends the `k`-th solve (or what-if) under way. A cancelled one may still finish (the solver
    /// looks at the flag only now and then): it is solved if `finish_cancelled`, else
    /// stopped.
    pub fn finish_solve(&mut self, k: usize, finish_cancelled: bool) -> Option<Event> {
        let (uri, job) = take(&mut self.solves, k)?;
        let cancelled = job.cancel.load(std::sync::atomic::Ordering::Relaxed);
        let outcome = if cancelled && !finish_cancelled {
            SolveOutcome::Stopped
        } else {
            // Run as if never cancelled: the solver may finish before it looks.
            let never = SolveJob {
                cancel: Arc::new(std::sync::atomic::AtomicBool::new(false)),
                ..job.clone()
            };
            let solved = never
                .run(cmg_solve::Config::default())
                .expect("never cancelled");
            SolveOutcome::Solved(Box::new(solved))
        };
        Some(Event::Solved { uri, job, outcome })
    }

    /// Ends the `k`-th build of diagnostics under way.
    pub fn finish_build(&mut self, k: usize) -> Option<Event> {
        let job = take(&mut self.builds, k)?;
        Some(job.built(Some(job.run())))
    }

    /// Ends the `k`-th wait for a quick solve.
    pub fn finish_timer(&mut self, k: usize) -> Option<Event> {
        let (uri, generation) = take(&mut self.timers, k)?;
        Some(Event::SolveWaitOver { uri, generation })
    }

    /// Ends the `k`-th longest wait of a request for its solve.
    pub fn finish_bound(&mut self, k: usize) -> Option<Event> {
        let ticket = take(&mut self.bounds, k)?;
        Some(Event::WaitOver { ticket })
    }
}

/// Removes the `k`-th item (modulo their count), if there is one.
fn take<T>(items: &mut Vec<T>, k: usize) -> Option<T> {
    (!items.is_empty()).then(|| items.remove(k % items.len()))
}
