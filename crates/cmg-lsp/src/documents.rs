//! Open documents: the text on a rope, the latest finished analysis, and the state of
//! its solve. Everything here is synchronous and cheap: it runs on the scheduler's loop
//! ([`super::scheduler`]), which owns every document; the analysis and the solve
//! themselves run on the blocking pool, on snapshots, and so does the solve plan (the
//! game is built and fingerprinted with the analysis, never on the loop).
//!
//! Every edit (and every change of a setting that analyses depend on) bumps the
//! document's `generation`. Analysis
//! and solve jobs carry the generation they were started for, and a result whose
//! generation is no longer current is dropped. At most one analysis runs per document:
//! an edit made while one runs is picked up by the next one, started as soon as the
//! running one ends, so a burst of keystrokes costs two analyses, not one per key.

use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

use ropey::Rope;

use cmg_core::analysis::{Analysis, Capped, MemorySetting, SolveLimits, SolvePlan, TooLarge};
use cmg_core::explain::{Solved, WhatIfState};
use cmg_core::model::{Code, Rendered, MAX_EDGE_PAIRS};
use cmg_solve::{peak_memory_bytes, Game};
use cmg_syntax::{Parse, StatementKind, TextRange};

use super::config::Config;
use super::convert::{self, Encoding};

/// The next generation to hand out; 0 is the "not analysed" of a new document.
static NEXT_GENERATION: AtomicU64 = AtomicU64::new(1);

pub struct Document {
    pub version: i32,
    pub rope: Rope,
    /// Bumped by every edit and every change of a setting that analyses depend on.
    pub generation: u64,
    /// The latest finished analysis; its generation may be older than the document's.
    pub analysed: Arc<Analysed>,
    /// The solve of `analysed`.
    pub solve: SolveState,
    /// Whether an analysis job runs for this document.
    analysing: bool,
    /// The last game solved for this document (its fingerprint) and its solution,
    /// reused while edits leave the graph alone (typing a comment or a label solves
    /// nothing). Counted against the process's solver budget; the scheduler may evict
    /// it.
    pub last_solved: Option<(u64, Arc<Solved>)>,
    /// The what-if job of the solution, queued or running, by its cancel flag: the
    /// solution is shown as soon as it lands, and its what-if when this job ends.
    explaining: Option<Arc<AtomicBool>>,
    /// The generation whose analysis failed (panicked), if the latest did: its requests
    /// answer `ContentModified` until the next edit.
    pub failed: u64,
    /// The latest generation whose requests may be answered: its diagnostics have been
    /// handed to the client, or they wait for a solve and requests don't wait with them.
    pub released: u64,
    /// Whether the analysis (and solution) was let go to keep the process within its
    /// memory budget: only the text and the version are kept, and the diagnostics stay
    /// as published. The next request or edit analyses the text again.
    pub evicted: bool,
    /// The generation of a rebuild after an eviction whose diagnostics are already on
    /// the client (same text, same settings): it is not published again.
    pub quiet: u64,
    /// What analysing the text takes, once an analysis has sized the graph it declares
    /// ([`analysis_need`]): for the generation it was measured for, and the latest
    /// measure, which the next edit's analysis reserves too (a dense file stays dense).
    pub measured: Option<(u64, u64)>,
}

/// What a request waits for before it is answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Needs {
    /// The analysis of its text (every request).
    Analysis,
    /// The solve of that analysis too (lenses and hints, for a client that cannot be
    /// asked to refresh them once the solve lands).
    Solve,
    /// The analysis, for its diagnostics (a pull): answered for a document too large
    /// to analyse too, whose diagnostic says so.
    Diagnostics,
}

/// One analysed version of a document: the text it was analysed from, on a rope that
/// positions are converted with, its analysis (none above the size limit), and what
/// solving it takes.
pub struct Analysed {
    pub generation: u64,
    pub version: i32,
    pub rope: Rope,
    pub analysis: Option<Arc<Analysis>>,
    pub config: Config,
    pub plan: Plan,
    /// Set when the analysis was refused because it would not fit in what is left of
    /// the memory budget.
    pub over_budget: Option<OverBudget>,
    /// The heap this analysis holds ([`analysed_bytes`]: the analysis with its graph,
    /// and the game planned from it), measured once on the pool: the budget sums it
    /// over every document on the loop, often, and measuring walks the whole parse.
    pub analysis_bytes: u64,
    /// Set instead of an analysis when the graph the text declares needs more than the
    /// job was granted: what it needs ([`analysis_need`]). Nothing was built; the
    /// scheduler makes room and starts the analysis again, or refuses it.
    pub needs: Option<u64>,
}

impl Analysed {
    /// Text with nothing analysed: a document's before its first analysis, and what
    /// stands in for an analysis let go.
    fn unanalysed(generation: u64, version: i32, rope: Rope, config: Config) -> Analysed {
        Analysed {
            generation,
            version,
            rope,
            analysis: None,
            config,
            plan: Plan {
                refused: SolveState::NoGame,
                game: None,
            },
            over_budget: None,
            analysis_bytes: 0,
            needs: None,
        }
    }

    /// The same analysis under settings it does not depend on (the diagnostics cap, the
    /// node hints; see [`Config::same_analysis`]), which shape what is shown of it.
    pub fn reconfigured(&self, config: &Config) -> Analysed {
        Analysed {
            rope: self.rope.clone(),
            analysis: self.analysis.clone(),
            config: config.clone(),
            plan: self.plan.clone(),
            ..*self
        }
    }
}

/// An analysis refused before anything was allocated: its estimate, and what was left
/// of the process's memory budget (in bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OverBudget {
    pub estimate: u64,
    pub left: u64,
    pub budget: u64,
}

/// The solve an analysis asks for, decided on the pool with the analysis.
#[derive(Clone)]
pub struct Plan {
    /// What to show when there is nothing to solve: no game, or why it is too large.
    pub refused: SolveState,
    /// The game to solve and its fingerprint.
    pub game: Option<(Arc<Game>, u64)>,
}

#[derive(Clone)]
pub enum SolveState {
    /// The document is not analysed, or node 1 or node 2 is missing: nothing to solve.
    NoGame,
    /// Not solved while typing, for this reason.
    TooLarge(TooLarge),
    /// A solve is queued or runs on the blocking pool; setting the flag stops it.
    Pending {
        fingerprint: u64,
        cancel: Arc<AtomicBool>,
    },
    /// The solution with its what-if.
    Solved(Arc<Solved>),
    /// Solved once, then evicted to keep the process within its solver budget; solved
    /// again when a request wants it.
    Evicted,
    /// The solver panicked; the panic has been logged.
    Failed,
}

/// An analysis to run off the request path, for one generation of one document.
pub struct AnalysisJob {
    pub generation: u64,
    pub version: i32,
    pub rope: Rope,
    pub config: Config,
    /// Refused for want of memory: the job only says so.
    pub over_budget: Option<OverBudget>,
    /// The memory reserved for it: a text that declares a graph needing more
    /// ([`analysis_need`]) is not analysed, and the result says what it needs.
    pub granted: u64,
}

impl AnalysisJob {
    /// Parses and checks the snapshot and plans its solve; this is the heavy part, run
    /// on the blocking pool.
    pub fn run(self) -> Analysed {
        let mut needs = None;
        let analysis = (self.rope.len_bytes() <= self.config.max_document_bytes
            && self.over_budget.is_none())
        .then(|| {
            // `String::from` copies the rope chunk by chunk into a string of the right
            // size; `to_string` goes through the formatter and grows its string as it
            // goes, which took 3.5 ms on a 1 MB file, on every keystroke.
            let text = String::from(&self.rope);
            let parse = cmg_syntax::parse(&text);
            let need = analysis_need(text.len(), &parse, &self.config);
            if need > self.granted {
                needs = Some(need);
                return None;
            }
            Some(Arc::new(Analysis::from_parse(text, parse)))
        })
        .flatten();
        let plan = plan(analysis.as_deref(), &self.config);
        let analysis_bytes = analysed_bytes(analysis.as_deref(), &plan);
        Analysed {
            needs,
            generation: self.generation,
            version: self.version,
            rope: self.rope,
            analysis,
            config: self.config,
            plan,
            over_budget: self.over_budget,
            analysis_bytes,
        }
    }
}

/// A solve to run off the request path, for the game of one analysis; or, with
/// `explain`, the what-if of a solution of that game. Both take one solve slot and about
/// one solve's memory: the what-if solves the game once per edge, one after another on
/// one thread (side by side, each thread would hold a solve's tables of its own).
#[derive(Clone)]
pub struct SolveJob {
    pub game: Arc<Game>,
    pub cancel: Arc<AtomicBool>,
    /// The solution whose what-if this job computes.
    pub explain: Option<Arc<Solved>>,
}

impl SolveJob {
    /// The work, on the pool: the solve on `config`'s threads (its what-if left pending
    /// when the editor's budget allows one), or the what-if on one; `None` when
    /// cancelled.
    pub fn run(&self, config: cmg_solve::Config) -> Option<Solved> {
        match &self.explain {
            None => cmg_core::explain::solve_first(
                &self.game,
                config,
                cmg_core::explain::WhatIfBudget::Editor,
                &self.cancel,
            ),
            Some(solved) => cmg_core::explain::explain_pending(solved, Some(1), &self.cancel),
        }
    }
}

/// What became of a finished analysis job, and what it leaves to free.
pub enum Finished {
    /// The document changed meanwhile: the result is left over, and the next analysis,
    /// of the current text, may start.
    Stale(Option<AnalysisJob>, Leftover),
    /// The result is now the document's analysis; a solve may be needed. The analysis
    /// it replaced is left over.
    Accepted(Option<SolveJob>, Leftover),
}

/// An analysis nobody needs any more (a stale result, or the one a newer result
/// replaced), handed back instead of dropped where it is let go: freeing the analysis of
/// a 1 MB file takes 10–20 ms, a fifth of building it, and the loop would wait for it.
/// The server frees it on the blocking pool.
#[must_use = "a leftover analysis is to be freed off the path to the publication"]
pub struct Leftover {
    /// Held only to be dropped where the server chooses.
    _analysed: Option<Arc<Analysed>>,
}

impl Document {
    pub fn new(text: &str, version: i32) -> Document {
        let rope = Rope::from_str(text);
        Document {
            version,
            generation: 0,
            analysed: Arc::new(Analysed::unanalysed(
                0,
                version,
                rope.clone(),
                Config::default(),
            )),
            rope,
            solve: SolveState::NoGame,
            analysing: false,
            last_solved: None,
            explaining: None,
            failed: 0,
            released: 0,
            evicted: false,
            quiet: 0,
            measured: None,
        }
    }

    /// Marks the text (or the settings) changed, and returns the analysis to start, if
    /// none is running.
    pub fn changed(&mut self, config: &Config) -> Option<AnalysisJob> {
        // Unique across documents, so that work for a closed document can never pass
        // for work on one opened again under the same name.
        self.generation = NEXT_GENERATION.fetch_add(1, Ordering::Relaxed);
        self.evicted = false;
        self.schedule(config)
    }

    /// Analyses the text again for a request that finds no analysis: an evicted
    /// document (a new generation of the same text, whose diagnostics are already on the
    /// client and are not published again), or one refused for want of memory (which
    /// may fit now).
    pub fn rebuild(&mut self, config: &Config) -> Option<AnalysisJob> {
        if self.evicted {
            let job = self.changed(config);
            self.quiet = self.generation;
            return job;
        }
        if self.is_current() && self.analysed.over_budget.is_some() {
            return self.changed(config);
        }
        None
    }

    /// Lets the analysis and the solution go, keeping the text and the version; returns
    /// what to free. The scheduler evicts only a document with nothing under way: no
    /// analysis running, its diagnostics handed out.
    pub fn evict_analysis(&mut self) -> Leftover {
        self.cancel_solve();
        self.solve = SolveState::NoGame;
        self.last_solved = None;
        self.evicted = true;
        self.let_analysis_go()
    }

    /// Replaces the analysis with one of the same text that holds nothing, and returns
    /// the old one to free.
    fn let_analysis_go(&mut self) -> Leftover {
        let kept = &self.analysed;
        let placeholder = Analysed::unanalysed(
            kept.generation,
            kept.version,
            kept.rope.clone(),
            kept.config.clone(),
        );
        Leftover {
            _analysed: Some(std::mem::replace(&mut self.analysed, Arc::new(placeholder))),
        }
    }

    /// Lets go the analysis of an older text while the next one waits for room: nothing
    /// answers or publishes from it any more.
    pub fn drop_stale_analysis(&mut self) -> Leftover {
        debug_assert!(!self.is_current() && self.analysing);
        self.let_analysis_go()
    }

    /// The heap the latest analysis holds, if it is retained: the analysis and its
    /// game ([`Analysed::analysis_bytes`]).
    pub fn analysis_bytes(&self) -> u64 {
        self.analysed.analysis_bytes
    }

    /// What the analysis of the current text is to reserve: what an analysis of it
    /// measured, else the text's estimate, or the latest measure if more (an edit of a
    /// dense file leaves it dense); and whether that is a measure of this very text.
    pub fn analysis_reservation(&self, config: &Config) -> (u64, bool) {
        let estimate = analysis_estimate(self.rope.len_bytes(), config);
        match self.measured {
            Some((generation, need)) if generation == self.generation => (need, true),
            _ if estimate == 0 => (0, true),
            Some((_, need)) => (estimate.max(need), false),
            None => (estimate, false),
        }
    }

    /// Notes what the analysis of `generation` found it needs, and returns the job to
    /// start again for it (the analysis stays under way).
    pub fn measured(&mut self, generation: u64, need: u64, config: &Config) -> AnalysisJob {
        debug_assert!(self.analysing && generation == self.generation);
        self.measured = Some((generation, need));
        self.job(config)
    }

    fn schedule(&mut self, config: &Config) -> Option<AnalysisJob> {
        if self.analysing {
            return None;
        }
        self.analysing = true;
        Some(self.job(config))
    }

    /// The analysis of the current text, for a document whose analysis is due (one that
    /// waited for room in the memory budget starts on the text it has by then).
    pub fn job(&self, config: &Config) -> AnalysisJob {
        AnalysisJob {
            generation: self.generation,
            version: self.version,
            rope: self.rope.clone(),
            config: config.clone(),
            over_budget: None,
            // The scheduler grants what it reserved.
            granted: self.analysis_reservation(config).0,
        }
    }

    /// Takes the result of an analysis job (`None` if it panicked).
    pub fn finish_analysis(
        &mut self,
        generation: u64,
        analysed: Option<Analysed>,
        config: &Config,
    ) -> Finished {
        self.analysing = false;
        if generation != self.generation {
            return Finished::Stale(
                self.schedule(config),
                Leftover {
                    _analysed: analysed.map(Arc::new),
                },
            );
        }
        let Some(analysed) = analysed else {
            // The old analysis stays, but no request may use it for this text; waiters
            // are answered rather than left waiting for a result that never comes.
            self.cancel_solve();
            self.solve = SolveState::Failed;
            self.failed = generation;
            return Finished::Accepted(None, Leftover { _analysed: None });
        };
        let replaced = std::mem::replace(&mut self.analysed, Arc::new(analysed));
        let job = self.plan_solve();
        Finished::Accepted(
            job,
            Leftover {
                _analysed: Some(replaced),
            },
        )
    }

    /// Decides what solving the new analysis needs. A solve already running for the same
    /// game goes on (the edit touched a comment or a label); any other is stopped. Games
    /// are compared by their fingerprints, made on the pool: comparing two games of
    /// millions of edges here took 33 ms on every keystroke.
    fn plan_solve(&mut self) -> Option<SolveJob> {
        let Some((game, fingerprint)) = &self.analysed.plan.game else {
            self.cancel_solve();
            self.solve = self.analysed.plan.refused.clone();
            return None;
        };
        let (game, fingerprint) = (game.clone(), *fingerprint);
        match &self.solve {
            SolveState::Pending {
                fingerprint: running,
                ..
            } if *running == fingerprint => return None,
            // Solved already, its what-if under way or not: it goes on.
            SolveState::Solved(_)
                if self
                    .last_solved
                    .as_ref()
                    .is_some_and(|(solved, _)| *solved == fingerprint) =>
            {
                return self.explain_job(game);
            }
            _ => {}
        }
        self.cancel_solve();
        if let Some((solved, solution)) = &self.last_solved {
            if *solved == fingerprint {
                self.solve = SolveState::Solved(solution.clone());
                return self.explain_job(game);
            }
        }
        Some(self.start_solve(game, fingerprint))
    }

    /// The what-if job of the solution, if its what-if is pending and no job of this
    /// solution computes it yet.
    pub fn explain_job(&mut self, game: Arc<Game>) -> Option<SolveJob> {
        let SolveState::Solved(solved) = &self.solve else {
            return None;
        };
        let under_way = self
            .explaining
            .as_ref()
            .is_some_and(|cancel| !cancel.load(Ordering::Relaxed));
        if solved.what_if != WhatIfState::Pending || under_way {
            return None;
        }
        let cancel = Arc::new(AtomicBool::new(false));
        self.explaining = Some(cancel.clone());
        Some(SolveJob {
            game,
            cancel,
            explain: Some(solved.clone()),
        })
    }

    /// Whether `job` is still wanted: the solve the state waits for, or the what-if of
    /// the solution it holds.
    pub fn wants(&self, job: &SolveJob) -> bool {
        if job.cancel.load(Ordering::Relaxed) {
            return false;
        }
        match (&job.explain, &self.solve) {
            (None, SolveState::Pending { cancel, .. }) => Arc::ptr_eq(cancel, &job.cancel),
            (Some(_), SolveState::Solved(_)) => self
                .explaining
                .as_ref()
                .is_some_and(|cancel| Arc::ptr_eq(cancel, &job.cancel)),
            _ => false,
        }
    }

    /// Stores the end of a what-if job if it is still the one the solution waits for:
    /// its what-if, or `None` when it panicked (logged).
    pub fn accept_what_if(&mut self, cancel: &Arc<AtomicBool>, what_if: Option<Solved>) -> bool {
        if !self
            .explaining
            .as_ref()
            .is_some_and(|explaining| Arc::ptr_eq(explaining, cancel))
        {
            return false;
        }
        self.explaining = None;
        let SolveState::Solved(current) = &self.solve else {
            return false;
        };
        let what_if = match what_if {
            Some(solved) if Arc::ptr_eq(&solved.solution, &current.solution) => solved.what_if,
            Some(_) => return false,
            None => WhatIfState::NotComputed("not computed: it failed (see the log)".to_owned()),
        };
        self.set_what_if(what_if);
        true
    }

    /// Ends the what-if job without running it: the memory budget has no room for it.
    pub fn refuse_what_if(&mut self, reason: String) {
        self.cancel_solve();
        self.explaining = None;
        self.set_what_if(WhatIfState::NotComputed(reason));
    }

    /// Gives the solution its what-if, or why there is none, in place of the pending one.
    pub fn set_what_if(&mut self, what_if: WhatIfState) {
        let SolveState::Solved(current) = &self.solve else {
            return;
        };
        let explained = Arc::new(Solved {
            solution: current.solution.clone(),
            what_if,
        });
        if let Some((_, last)) = &mut self.last_solved {
            if Arc::ptr_eq(&last.solution, &explained.solution) {
                *last = explained.clone();
            }
        }
        self.solve = SolveState::Solved(explained);
    }

    /// Marks a solve of `game` pending and returns its job.
    fn start_solve(&mut self, game: Arc<Game>, fingerprint: u64) -> SolveJob {
        let cancel = Arc::new(AtomicBool::new(false));
        self.solve = SolveState::Pending {
            fingerprint,
            cancel: cancel.clone(),
        };
        SolveJob {
            game,
            cancel,
            explain: None,
        }
    }

    /// Solves again what was evicted, when something wants the solution.
    pub fn resolve_evicted(&mut self) -> Option<SolveJob> {
        if !matches!(self.solve, SolveState::Evicted) || !self.is_current() {
            return None;
        }
        let (game, fingerprint) = self.analysed.plan.game.clone()?;
        Some(self.start_solve(game, fingerprint))
    }

    /// Lets the retained solution go (the process's solver budget needs the room).
    pub fn evict(&mut self) {
        self.cancel_solve();
        self.last_solved = None;
        if matches!(self.solve, SolveState::Solved(_)) {
            self.solve = SolveState::Evicted;
        }
    }

    /// Stores a finished solve if it is still the one the current analysis waits for; a
    /// result for another game is dropped. `None` is a solve that
    /// panicked.
    pub fn accept_solution(&mut self, cancel: &Arc<AtomicBool>, solution: Option<Solved>) -> bool {
        // The one guard: the job is the very one the state waits for. Every change of
        // the state sets the old job's cancel flag as well, but the solver may finish
        // before it looks at the flag, so the flag proves nothing here.
        let fingerprint = match &self.solve {
            SolveState::Pending {
                cancel: waiting,
                fingerprint,
            } if Arc::ptr_eq(waiting, cancel) => *fingerprint,
            _ => return false,
        };
        self.solve = match solution {
            Some(solution) => {
                let solution = Arc::new(solution);
                self.last_solved = Some((fingerprint, solution.clone()));
                SolveState::Solved(solution)
            }
            None => SolveState::Failed,
        };
        true
    }

    /// Stops the solve under way, and the what-if job of the solution.
    pub fn cancel_solve(&self) {
        if let SolveState::Pending { cancel, .. } = &self.solve {
            cancel.store(true, Ordering::Relaxed);
        }
        if let Some(cancel) = &self.explaining {
            cancel.store(true, Ordering::Relaxed);
        }
    }

    /// Whether the latest analysis is of the current text.
    pub fn is_current(&self) -> bool {
        self.analysed.generation == self.generation && !self.evicted
    }

    /// Whether the solve of the latest analysis is settled: solved, refused, failed, or
    /// not needed.
    pub fn solve_settled(&self) -> bool {
        !matches!(self.solve, SolveState::Pending { .. })
    }

    /// Whether the solve is settled and, if it solved the game, its what-if too.
    pub fn explained(&self) -> bool {
        match &self.solve {
            SolveState::Pending { .. } => false,
            SolveState::Solved(solved) => solved.what_if != WhatIfState::Pending,
            _ => true,
        }
    }

    /// The solve the latest analysis waits for, if one is queued or running: its cancel
    /// flag, which names the job.
    pub fn pending_solve(&self) -> Option<&Arc<AtomicBool>> {
        match &self.solve {
            SolveState::Pending { cancel, .. } => Some(cancel),
            _ => None,
        }
    }

    /// The solution of the latest analysis's graph, if there is one yet.
    pub fn solution(&self) -> Option<Arc<Solved>> {
        match &self.solve {
            SolveState::Solved(solution) => Some(solution.clone()),
            _ => None,
        }
    }
}

/// Whether to solve an analysis while typing: the game, or the state that says why not.
/// The decision is the one solve policy of `analysis`, with the server's live limits:
/// the live-solve node limit and the memory budget.
fn plan(analysis: Option<&Analysis>, config: &Config) -> Plan {
    let refused = |refused| Plan {
        refused,
        game: None,
    };
    let Some(analysis) = analysis else {
        return refused(SolveState::NoGame);
    };
    let limits = SolveLimits {
        max_nodes: Some(config.max_nodes),
        max_memory: Some(config.solver_memory_budget()),
        memory_setting: MemorySetting::ServerSetting,
    };
    match analysis.solve_plan(limits) {
        SolvePlan::NoGame => refused(SolveState::NoGame),
        SolvePlan::TooLarge(too_large) => refused(SolveState::TooLarge(too_large)),
        SolvePlan::Solve(game) => {
            let fingerprint = fingerprint(&game);
            Plan {
                refused: SolveState::NoGame,
                game: Some((Arc::new(game), fingerprint)),
            }
        }
    }
}

/// A 64-bit hash of a game's hole and adjacency: two games with the same fingerprint
/// are taken to be the same game.
fn fingerprint(game: &Game) -> u64 {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    game.hole().hash(&mut hasher);
    game.node_count().hash(&mut hasher);
    for node in 0..game.node_count() as u32 {
        game.neighbours(node).hash(&mut hasher);
    }
    hasher.finish()
}

impl OverBudget {
    /// Why the document is not analysed, and the setting that would let it be.
    fn message(self, bytes: usize) -> String {
        const MIB: u64 = 1 << 20;
        format!(
            "analysing this document of {bytes} bytes would take about {} MiB, more than the {} MiB left of the server's memory budget of {} MiB, so it is not analysed: raise the setting `cmg.solver.maxMemoryMiB`, close other documents, or run `cmg check`",
            self.estimate.div_ceil(MIB),
            self.left / MIB,
            self.budget / MIB
        )
    }
}

/// The diagnostics of an analysed document and the state of its solve, sorted by
/// position: the first `cmg.diagnostics.max` and a summary of the rest, which are not
/// built into a list (see [`Analysis::diagnostics_capped`]).
pub fn diagnostics(analysed: &Analysed, solve: &SolveState) -> Capped {
    let Some(analysis) = &analysed.analysis else {
        let bytes = analysed.rope.len_bytes();
        return match analysed.over_budget {
            Some(over) => refused(over.message(bytes)),
            None => refusal(bytes as u64, analysed.config.max_document_bytes),
        };
    };
    let (solution, too_large) = match solve {
        SolveState::Solved(solved) => (Some(&*solved.solution), None),
        SolveState::TooLarge(too_large) => (None, Some(too_large)),
        _ => (None, None),
    };
    analysis.diagnostics_capped(solution, too_large, analysed.config.max_diagnostics)
}

/// The publication of an analysed document and the state of its solve, in protocol
/// form: [`diagnostics`], converted with the analysis's line index (the rope where
/// there is no analysis). What the loop builds on the pool and a pull answers.
pub fn publication(
    uri: &tower_lsp_server::ls_types::Uri,
    analysed: &Analysed,
    solve: &SolveState,
    encoding: Encoding,
) -> Vec<tower_lsp_server::ls_types::Diagnostic> {
    converted(uri, analysed, encoding, &diagnostics(analysed, solve))
}

/// `capped`, diagnostics of `analysed`, in protocol form: converted with the analysis's
/// line index (the rope where there is no analysis).
pub fn converted(
    uri: &tower_lsp_server::ls_types::Uri,
    analysed: &Analysed,
    encoding: Encoding,
    capped: &Capped,
) -> Vec<tower_lsp_server::ls_types::Diagnostic> {
    match &analysed.analysis {
        Some(analysis) => convert::publishable(uri, &analysis.line_index, encoding, capped),
        None => convert::publishable(uri, &analysed.rope, encoding, capped),
    }
}

/// The one diagnostic of a document of `bytes` bytes, above the analysis `limit`.
pub fn refusal(bytes: u64, limit: usize) -> Capped {
    refused(format!(
        "this document has {bytes} bytes, above the analysis limit of {limit} bytes, so it is not analysed: raise `cmg.analysis.maxDocumentBytes`, or run `cmg check`"
    ))
}

/// The one diagnostic of a document that is not analysed, saying why.
fn refused(message: String) -> Capped {
    Capped {
        shown: vec![Rendered {
            code: Code::TooLarge,
            range: TextRange::empty(0),
            message,
            related: None,
        }],
        hidden: None,
    }
}

mod memory;

pub use memory::*;

#[cfg(test)]
mod tests;
