//! The logic of `cmg judge`, free of I/O: which graphs to try and in what order
//! (`graphs`), the run that tries them, shrinks a failure and finds the earlier graphs it
//! needs (`run`), and the causes, each a neighbouring game (`variant`) checked on every
//! graph the solution answered (`cause`). The solution and the budget are behind traits
//! (`Solution`, `Host`): the command line runs a process, a browser could run a worker.

pub mod cause;
pub mod graphs;
pub mod report;
mod run;
pub mod variant;

pub use cause::{Cause, Formula};
pub use graphs::Lists;
pub use run::{
    expected, judge, Answer, Checked, Finding, Host, Judging, Kind, Phase, Report, Request,
    Solution, Step, Verdict, WrongAt, SMALL_NODES, START,
};
