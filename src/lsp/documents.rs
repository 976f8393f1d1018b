//! Open documents: text on a rope, the analysis of the current version, and the state
//! of its solve. Everything here is synchronous and runs under the server's lock.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use ropey::Rope;

use crate::analysis::{Analysis, SolveLimits, SolvePlan, TooLarge};
use crate::model::Diagnostic;
use crate::solve::{Game, Solution};

use super::config::Config;

pub struct Document {
    pub version: i32,
    pub rope: Rope,
    pub analysis: Arc<Analysis>,
    pub solve: SolveState,
    /// The last game solved for this document and its solution, reused while edits
    /// leave the graph alone (typing a comment or a label solves nothing).
    last_solved: Option<(Game, Arc<Solution>)>,
}

#[derive(Clone)]
pub enum SolveState {
    /// Node 1 or node 2 is missing: there is nothing to solve.
    NoGame,
    /// Above the live-solve limit, or another limit (see [`TooLarge`]).
    TooLarge(TooLarge),
    /// A solve for this version runs on the blocking pool; setting the flag stops it.
    Pending {
        cancel: Arc<AtomicBool>,
    },
    Solved(Arc<Solution>),
}

/// A solve to run off the request path, for one version of one document.
pub struct SolveJob {
    pub version: i32,
    pub game: Game,
    pub cancel: Arc<AtomicBool>,
}

impl Document {
    pub fn new(text: &str, version: i32) -> Document {
        Document {
            version,
            rope: Rope::from_str(text),
            analysis: Arc::new(Analysis::new("")),
            solve: SolveState::NoGame,
            last_solved: None,
        }
    }

    /// Re-analyses the rope's text after an edit (or a settings change) and decides
    /// what solving it needs. Any solve still running for an older version is stopped.
    pub fn refresh(&mut self, config: &Config) -> Option<SolveJob> {
        self.cancel_solve();
        self.analysis = Arc::new(Analysis::new(self.rope.to_string()));
        let limits = SolveLimits {
            max_nodes: Some(config.max_nodes),
            max_memory: None,
        };
        let game = match self.analysis.solve_plan(limits) {
            SolvePlan::NoGame => {
                self.solve = SolveState::NoGame;
                return None;
            }
            SolvePlan::TooLarge(too_large) => {
                self.solve = SolveState::TooLarge(too_large);
                return None;
            }
            SolvePlan::Solve(game) => game,
        };
        if let Some((solved_game, solution)) = &self.last_solved {
            if *solved_game == game {
                self.solve = SolveState::Solved(solution.clone());
                return None;
            }
        }
        let cancel = Arc::new(AtomicBool::new(false));
        self.solve = SolveState::Pending {
            cancel: cancel.clone(),
        };
        Some(SolveJob {
            version: self.version,
            game,
            cancel,
        })
    }

    /// Stores a finished solve if it is still the one this version waits for; a result
    /// for an older version (or a cancelled job) is dropped.
    pub fn accept_solution(&mut self, job: &SolveJob, solution: Solution) -> bool {
        let waiting = matches!(&self.solve, SolveState::Pending { cancel } if Arc::ptr_eq(cancel, &job.cancel));
        if !waiting || job.version != self.version {
            return false;
        }
        let solution = Arc::new(solution);
        self.last_solved = Some((job.game.clone(), solution.clone()));
        self.solve = SolveState::Solved(solution);
        true
    }

    pub fn cancel_solve(&self) {
        if let SolveState::Pending { cancel } = &self.solve {
            cancel.store(true, Ordering::Relaxed);
        }
    }

    /// The solution of the current version, if there is one yet.
    pub fn solution(&self) -> Option<Arc<Solution>> {
        match &self.solve {
            SolveState::Solved(solution) => Some(solution.clone()),
            _ => None,
        }
    }

    /// The full diagnostic set of the current version, sorted by position.
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        let too_large = match &self.solve {
            SolveState::TooLarge(too_large) => Some(too_large),
            _ => None,
        };
        self.analysis
            .diagnostics_with(self.solution().as_deref(), too_large)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::solve;

    fn edit(document: &mut Document, text: &str) -> Option<SolveJob> {
        document.rope = Rope::from_str(text);
        document.version += 1;
        document.refresh(&Config::default())
    }

    #[test]
    fn a_newer_edit_cancels_the_running_solve_and_its_result_is_dropped() {
        let mut document = Document::new("", 0);
        let first = edit(&mut document, "0 -- 1 -- 2\n").expect("a game to solve");
        let second = edit(&mut document, "0 -- 1 -- 2 -- 3\n").expect("another game");
        assert!(
            first.cancel.load(Ordering::Relaxed),
            "the older solve keeps running"
        );
        assert!(!second.cancel.load(Ordering::Relaxed));
        assert!(!document.accept_solution(&first, solve(&first.game)));
        assert!(document.solution().is_none());
        assert!(document.accept_solution(&second, solve(&second.game)));
        assert!(document.solution().is_some());
    }

    #[test]
    fn edits_that_keep_the_graph_reuse_the_solution() {
        let mut document = Document::new("", 0);
        let job = edit(&mut document, "0 -- 1 -- 2\n").unwrap();
        assert!(document.accept_solution(&job, solve(&job.game)));
        assert!(edit(&mut document, "# a comment\n0 -- 1 -- 2\nexpect cat\n").is_none());
        assert!(document.solution().is_some());
        let codes: Vec<_> = document.diagnostics().iter().map(|d| d.code).collect();
        assert_eq!(codes, [crate::model::Code::ExpectMismatch]);
    }

    #[test]
    fn no_game_and_too_large_need_no_solve() {
        let mut document = Document::new("", 0);
        assert!(edit(&mut document, "0 -- 3\n").is_none());
        assert!(matches!(document.solve, SolveState::NoGame));
        document.rope = Rope::from_str("0 -- 1 -- 2 -- 3\n");
        let small = Config {
            max_nodes: 3,
            ..Config::default()
        };
        assert!(document.refresh(&small).is_none());
        let codes: Vec<_> = document.diagnostics().iter().map(|d| d.code).collect();
        assert_eq!(codes, [crate::model::Code::TooLarge]);
    }
}
