//! Open documents: the text on a rope, the latest finished analysis, and the state of
//! its solve. Everything here is synchronous and cheap, and runs under the server's
//! lock; the analysis and the solve themselves run on the blocking pool, on snapshots.
//!
//! Every edit (and every settings change) bumps the document's `generation`. Analysis
//! and solve jobs carry the generation they were started for, and a result whose
//! generation is no longer current is dropped. At most one analysis runs per document:
//! an edit made while one runs is picked up by the next one, started as soon as the
//! running one ends, so a burst of keystrokes costs two analyses, not one per key.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

use ropey::Rope;
use tokio::sync::watch;

use cmg_core::analysis::{Analysis, MemorySetting, SolveLimits, SolvePlan, TooLarge};
use cmg_core::model::{Code, Diagnostic};
use cmg_solve::{Game, Solution};
use cmg_syntax::TextRange;

use super::config::Config;

/// The next generation to hand out; 0 is the "not analysed" of a new document.
static NEXT_GENERATION: AtomicU64 = AtomicU64::new(1);

pub struct Document {
    pub version: i32,
    pub rope: Rope,
    /// Bumped by every edit and settings change.
    pub generation: u64,
    /// The latest finished analysis; its generation may be older than the document's.
    pub analysed: Arc<Analysed>,
    /// The solve of `analysed`.
    pub solve: SolveState,
    /// Whether an analysis job runs for this document.
    analysing: bool,
    /// The last game solved for this document and its solution, reused while edits
    /// leave the graph alone (typing a comment or a label solves nothing).
    last_solved: Option<(Arc<Game>, Arc<Solution>)>,
    /// Tells waiting requests and publishers what is done.
    progress: watch::Sender<Progress>,
    /// The semantic tokens last sent, for `semanticTokens/full/delta`.
    pub tokens: Option<SentTokens>,
}

/// Semantic tokens as sent to the client, with the id it may ask a delta against.
pub struct SentTokens {
    pub result_id: String,
    pub data: Vec<tower_lsp_server::ls_types::SemanticToken>,
}

/// What a waiter needs to know about a document, published on every change of state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// The document's generation.
    pub generation: u64,
    /// The generation of the latest finished (or failed) analysis.
    pub analysed: u64,
    /// The latest generation whose requests may be answered: its diagnostics have been
    /// handed to the client, or they wait for a solve and requests don't wait with
    /// them. The publication goes first because the answers of one analysis (a whole
    /// outline, semantic tokens) can take longer to build and write than the analysis
    /// itself took, and the diagnostics would wait behind them.
    pub released: u64,
    /// Whether the solve of that analysis is settled: solved, refused, failed, or not
    /// needed.
    pub solve_settled: bool,
}

/// What a request waits for before it is answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Needs {
    /// The analysis of its text (every request).
    Analysis,
    /// The solve of that analysis too (lenses and hints, for a client that cannot be
    /// asked to refresh them once the solve lands).
    Solve,
}

impl Progress {
    /// The current generation is analysed and released, and its solve settled if the
    /// request needs it.
    pub fn done(self, needs: Needs) -> bool {
        self.analysed == self.generation
            && self.released == self.generation
            && (self.solve_settled || needs == Needs::Analysis)
    }
}

/// One analysed version of a document: the text it was analysed from, on a rope that
/// positions are converted with, and its analysis (none above the size limit).
pub struct Analysed {
    pub generation: u64,
    pub version: i32,
    pub rope: Rope,
    pub analysis: Option<Arc<Analysis>>,
    pub config: Config,
}

#[derive(Clone)]
pub enum SolveState {
    /// The document is not analysed, or node 1 or node 2 is missing: nothing to solve.
    NoGame,
    /// Not solved while typing, for this reason.
    TooLarge(TooLarge),
    /// A solve runs on the blocking pool; setting the flag stops it.
    Pending {
        game: Arc<Game>,
        cancel: Arc<AtomicBool>,
    },
    Solved(Arc<Solution>),
    /// The solver panicked; the panic has been logged.
    Failed,
}

/// An analysis to run off the request path, for one generation of one document.
pub struct AnalysisJob {
    pub generation: u64,
    pub version: i32,
    pub rope: Rope,
    pub config: Config,
}

impl AnalysisJob {
    /// Parses and checks the snapshot; this is the heavy part, run on the blocking pool.
    pub fn run(self) -> Analysed {
        let analysis = (self.rope.len_bytes() <= self.config.max_document_bytes)
            // `String::from` copies the rope chunk by chunk into a string of the right size;
            // `to_string` goes through the formatter and grows its string as it goes, which
            // took 3.5 ms on a 1 MB file, on every keystroke.
            .then(|| Arc::new(Analysis::new(String::from(&self.rope))));
        Analysed {
            generation: self.generation,
            version: self.version,
            rope: self.rope,
            analysis,
            config: self.config,
        }
    }
}

/// A solve to run off the request path, for the game of one analysis.
pub struct SolveJob {
    pub game: Arc<Game>,
    pub cancel: Arc<AtomicBool>,
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
/// a 1 MB file takes 10–20 ms, a fifth of building it, and the lock is held there and
/// the publication waits behind it. The server frees it on the blocking pool, after the
/// publication.
#[must_use = "a leftover analysis is to be freed off the path to the publication"]
pub struct Leftover {
    /// Held only to be dropped where the server chooses.
    _analysed: Option<Arc<Analysed>>,
}

impl Document {
    pub fn new(text: &str, version: i32) -> Document {
        let rope = Rope::from_str(text);
        // Generation 0, not analysed: `changed` is called next, before the lock is let go.
        let progress = Progress {
            generation: 0,
            analysed: 0,
            released: 0,
            solve_settled: false,
        };
        Document {
            version,
            generation: 0,
            analysed: Arc::new(Analysed {
                generation: 0,
                version,
                rope: rope.clone(),
                analysis: None,
                config: Config::default(),
            }),
            rope,
            solve: SolveState::NoGame,
            analysing: false,
            last_solved: None,
            progress: watch::Sender::new(progress),
            tokens: None,
        }
    }

    pub fn progress(&self) -> watch::Receiver<Progress> {
        self.progress.subscribe()
    }

    /// Marks the text (or the settings) changed, and returns the analysis to start, if
    /// none is running.
    pub fn changed(&mut self, config: &Config) -> Option<AnalysisJob> {
        // Unique across documents, so that work for a closed document can never pass
        // for work on one opened again under the same name.
        self.generation = NEXT_GENERATION.fetch_add(1, Ordering::Relaxed);
        let generation = self.generation;
        self.progress.send_modify(|p| p.generation = generation);
        self.schedule(config)
    }

    fn schedule(&mut self, config: &Config) -> Option<AnalysisJob> {
        if self.analysing {
            return None;
        }
        self.analysing = true;
        Some(AnalysisJob {
            generation: self.generation,
            version: self.version,
            rope: self.rope.clone(),
            config: config.clone(),
        })
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
            // are released rather than left waiting for a result that never comes.
            self.cancel_solve();
            self.solve = SolveState::Failed;
            self.progress.send_modify(|p| {
                p.analysed = generation;
                p.released = generation;
                p.solve_settled = true;
            });
            return Finished::Accepted(None, Leftover { _analysed: None });
        };
        let replaced = std::mem::replace(&mut self.analysed, Arc::new(analysed));
        let job = self.plan_solve();
        let settled = !matches!(self.solve, SolveState::Pending { .. });
        self.progress.send_modify(|p| {
            p.analysed = generation;
            p.solve_settled = settled;
        });
        Finished::Accepted(
            job,
            Leftover {
                _analysed: Some(replaced),
            },
        )
    }

    /// Decides what solving the new analysis needs. A solve already running for the same
    /// game goes on (the edit touched a comment or a label); any other is stopped.
    fn plan_solve(&mut self) -> Option<SolveJob> {
        let (state, game) = solve_policy(&self.analysed);
        let Some(game) = game else {
            self.cancel_solve();
            self.solve = state;
            return None;
        };
        if let SolveState::Pending { game: running, .. } = &self.solve {
            if **running == game {
                return None;
            }
        }
        self.cancel_solve();
        if let Some((solved_game, solution)) = &self.last_solved {
            if **solved_game == game {
                self.solve = SolveState::Solved(solution.clone());
                return None;
            }
        }
        let game = Arc::new(game);
        let cancel = Arc::new(AtomicBool::new(false));
        self.solve = SolveState::Pending {
            game: game.clone(),
            cancel: cancel.clone(),
        };
        Some(SolveJob { game, cancel })
    }

    /// Stores a finished solve if it is still the one the current analysis waits for; a
    /// result for another game (or a cancelled job) is dropped. `None` is a solve that
    /// panicked.
    pub fn accept_solution(&mut self, job: &SolveJob, solution: Option<Solution>) -> bool {
        let waiting = matches!(&self.solve, SolveState::Pending { cancel, .. } if Arc::ptr_eq(cancel, &job.cancel));
        if !waiting || job.cancel.load(Ordering::Relaxed) {
            return false;
        }
        self.solve = match solution {
            Some(solution) => {
                let solution = Arc::new(solution);
                self.last_solved = Some((job.game.clone(), solution.clone()));
                SolveState::Solved(solution)
            }
            None => SolveState::Failed,
        };
        self.progress.send_modify(|p| p.solve_settled = true);
        true
    }

    /// Lets the requests about `generation` be answered (see [`Progress::released`]).
    /// Generations only grow, so a late call for an older one changes nothing.
    pub fn release(&self, generation: u64) {
        self.progress
            .send_modify(|p| p.released = p.released.max(generation));
    }

    pub fn cancel_solve(&self) {
        if let SolveState::Pending { cancel, .. } = &self.solve {
            cancel.store(true, Ordering::Relaxed);
        }
    }

    /// Whether the latest analysis is of the current text.
    pub fn is_current(&self) -> bool {
        self.analysed.generation == self.generation
    }

    /// The solution of the latest analysis's graph, if there is one yet.
    pub fn solution(&self) -> Option<Arc<Solution>> {
        match &self.solve {
            SolveState::Solved(solution) => Some(solution.clone()),
            _ => None,
        }
    }
}

/// Whether to solve an analysed document while typing: the game, or the state that says
/// why not. The decision is the one solve policy of `analysis`, with the server's live
/// limits: the live-solve node limit and the memory budget.
pub fn solve_policy(analysed: &Analysed) -> (SolveState, Option<Game>) {
    let Some(analysis) = &analysed.analysis else {
        return (SolveState::NoGame, None);
    };
    let limits = SolveLimits {
        max_nodes: Some(analysed.config.max_nodes),
        max_memory: Some(analysed.config.solver_memory_budget()),
        memory_setting: MemorySetting::ServerSetting,
    };
    match analysis.solve_plan(limits) {
        SolvePlan::NoGame => (SolveState::NoGame, None),
        SolvePlan::TooLarge(too_large) => (SolveState::TooLarge(too_large), None),
        SolvePlan::Solve(game) => (SolveState::NoGame, Some(game)),
    }
}

/// The full diagnostic set of an analysed document and the state of its solve, sorted
/// by position.
pub fn diagnostics(analysed: &Analysed, solve: &SolveState) -> Vec<Diagnostic> {
    let Some(analysis) = &analysed.analysis else {
        let bytes = analysed.rope.len_bytes();
        return vec![Diagnostic::new(
            Code::TooLarge,
            TextRange::empty(0),
            format!(
                "this document has {bytes} bytes, above the analysis limit of {} bytes, so it is not analysed: raise `cmg.analysis.maxDocumentBytes`, or run `cmg check`",
                analysed.config.max_document_bytes
            ),
        )];
    };
    let (solution, too_large) = match solve {
        SolveState::Solved(solution) => (Some(solution.as_ref()), None),
        SolveState::TooLarge(too_large) => (None, Some(too_large)),
        _ => (None, None),
    };
    analysis.diagnostics_with(solution, too_large)
}

#[cfg(test)]
mod tests {
    use super::*;
    use cmg_solve::solve;

    /// Replaces the text and runs the analysis to the end, as the server does.
    fn edit_with(document: &mut Document, text: &str, config: &Config) -> Option<SolveJob> {
        document.rope = Rope::from_str(text);
        document.version += 1;
        let job = document.changed(config).expect("no analysis is running");
        let generation = job.generation;
        match document.finish_analysis(generation, Some(job.run()), config) {
            Finished::Accepted(solve, _) => solve,
            Finished::Stale(..) => panic!("the analysis was current"),
        }
    }

    fn edit(document: &mut Document, text: &str) -> Option<SolveJob> {
        edit_with(document, text, &Config::default())
    }

    fn codes(document: &Document) -> Vec<Code> {
        diagnostics(&document.analysed, &document.solve)
            .iter()
            .map(|d| d.code)
            .collect()
    }

    #[test]
    fn a_new_game_cancels_the_running_solve_and_its_result_is_dropped() {
        let mut document = Document::new("", 0);
        let first = edit(&mut document, "0 -- 1 -- 2\n").expect("a game to solve");
        let second = edit(&mut document, "0 -- 1 -- 2 -- 3\n").expect("another game");
        assert!(
            first.cancel.load(Ordering::Relaxed),
            "the older solve keeps running"
        );
        assert!(!second.cancel.load(Ordering::Relaxed));
        assert!(!document.accept_solution(&first, Some(solve(&first.game))));
        assert!(document.solution().is_none());
        assert!(document.accept_solution(&second, Some(solve(&second.game))));
        assert!(document.solution().is_some());
    }

    #[test]
    fn a_solve_for_the_same_game_survives_an_edit_of_a_comment() {
        let mut document = Document::new("", 0);
        let job = edit(&mut document, "0 -- 1 -- 2\n").unwrap();
        assert!(edit(&mut document, "# typing\n0 -- 1 -- 2\n").is_none());
        assert!(!job.cancel.load(Ordering::Relaxed));
        assert!(document.accept_solution(&job, Some(solve(&job.game))));
        assert!(document.solution().is_some());
    }

    #[test]
    fn edits_that_keep_the_graph_reuse_the_solution() {
        let mut document = Document::new("", 0);
        let job = edit(&mut document, "0 -- 1 -- 2\n").unwrap();
        assert!(document.accept_solution(&job, Some(solve(&job.game))));
        assert!(edit(&mut document, "# a comment\n0 -- 1 -- 2\nexpect cat\n").is_none());
        assert!(document.solution().is_some());
        assert_eq!(codes(&document), [Code::ExpectMismatch]);
    }

    #[test]
    fn an_edit_during_an_analysis_is_picked_up_by_the_next_one() {
        let config = Config::default();
        let mut document = Document::new("0 -- 1\n", 1);
        let first = document.changed(&config).unwrap();
        document.rope = Rope::from_str("0 -- 1 -- 2\n");
        document.version = 2;
        assert!(document.changed(&config).is_none(), "two analyses at once");
        let generation = first.generation;
        let Finished::Stale(Some(next), _) =
            document.finish_analysis(generation, Some(first.run()), &config)
        else {
            panic!("the stale analysis was accepted");
        };
        assert!(!document.is_current());
        assert_eq!(next.version, 2);
        let generation = next.generation;
        assert!(matches!(
            document.finish_analysis(generation, Some(next.run()), &config),
            Finished::Accepted(Some(_), _)
        ));
        assert!(document.is_current());
        assert_eq!(document.analysed.rope.to_string(), "0 -- 1 -- 2\n");
    }

    /// The analysis a result replaces, and a stale result, are handed back to be freed
    /// off the path, not freed under the lock.
    #[test]
    fn a_finished_analysis_hands_back_what_it_leaves_over() {
        let config = Config::default();
        let mut document = Document::new("0 -- 1\n", 1);
        let job = document.changed(&config).unwrap();
        let _ = document.finish_analysis(job.generation, Some(job.run()), &config);
        let replaced = Arc::downgrade(&document.analysed);
        let job = document.changed(&config).unwrap();
        let Finished::Accepted(_, leftover) =
            document.finish_analysis(job.generation, Some(job.run()), &config)
        else {
            panic!("the analysis was current");
        };
        assert!(
            replaced.upgrade().is_some(),
            "freed before it was handed back"
        );
        drop(leftover);
        assert!(replaced.upgrade().is_none(), "held elsewhere");

        let stale = document.changed(&config).unwrap();
        let generation = stale.generation;
        let result = stale.run();
        let analysis = Arc::downgrade(result.analysis.as_ref().unwrap());
        document.rope = Rope::from_str("0 -- 1 -- 2\n");
        assert!(document.changed(&config).is_none());
        let Finished::Stale(Some(_), leftover) =
            document.finish_analysis(generation, Some(result), &config)
        else {
            panic!("the stale analysis was accepted");
        };
        assert!(
            analysis.upgrade().is_some(),
            "freed before it was handed back"
        );
        drop(leftover);
        assert!(analysis.upgrade().is_none(), "held elsewhere");
    }

    /// Requests wait for the publication of the analysis they would read (the server
    /// releases them after it), so that the diagnostics go out first.
    #[test]
    fn an_analysis_is_done_for_requests_once_released() {
        let config = Config::default();
        let mut document = Document::new("0 -- 3\n", 1);
        let progress = document.progress();
        let first = document.changed(&config).unwrap();
        let first_generation = first.generation;
        let _ = document.finish_analysis(first_generation, Some(first.run()), &config);
        assert!(
            !progress.borrow().done(Needs::Analysis),
            "done before its publication"
        );
        document.release(first_generation);
        assert!(progress.borrow().done(Needs::Solve));
        // A late release of an older generation does not undo a newer one.
        let second = document.changed(&config).unwrap();
        let second_generation = second.generation;
        let _ = document.finish_analysis(second_generation, Some(second.run()), &config);
        document.release(second_generation);
        document.release(first_generation);
        assert!(progress.borrow().done(Needs::Analysis));
    }

    #[test]
    fn a_failed_analysis_releases_the_waiters() {
        let config = Config::default();
        let mut document = Document::new("0 -- 1\n", 1);
        let progress = document.progress();
        let job = document.changed(&config).unwrap();
        document.finish_analysis(job.generation, None, &config);
        assert!(progress.borrow().done(Needs::Solve));
        assert!(!document.is_current());
    }

    #[test]
    fn limits_refuse_with_the_reason() {
        let mut document = Document::new("", 0);
        assert!(edit(&mut document, "0 -- 3\n").is_none());
        assert!(matches!(document.solve, SolveState::NoGame));
        let small = Config {
            max_nodes: 3,
            ..Config::default()
        };
        assert!(edit_with(&mut document, "0 -- 1 -- 2 -- 3\n", &small).is_none());
        assert_eq!(codes(&document), [Code::TooLarge]);
        let tight = Config {
            max_solver_memory_mib: 0,
            ..Config::default()
        };
        assert!(edit_with(&mut document, "0 -- 1 -- 2 -- 3\n", &tight).is_none());
        let messages = diagnostics(&document.analysed, &document.solve);
        assert!(
            messages[0].message.contains("memory budget"),
            "{messages:?}"
        );
        let tiny = Config {
            max_document_bytes: 4,
            ..Config::default()
        };
        assert!(edit_with(&mut document, "0 -- 1 -- 2 -- 2\n", &tiny).is_none());
        let messages = diagnostics(&document.analysed, &document.solve);
        assert_eq!(messages.len(), 1, "only the reason: {messages:?}");
        assert!(messages[0].message.contains("analysis limit"));
    }
}
