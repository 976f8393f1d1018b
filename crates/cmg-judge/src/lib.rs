//! The logic of `cmg judge`, free of I/O: which graphs to try and in what order
//! (`graphs`), the run that tries them, shrinks a failure and finds the earlier graphs it
//! needs (`run`), and the causes, each a neighbouring game checked on every graph the
//! solution answered (`cause`: the games the language states through `cmg-solve`, the
//! two slips it cannot state in `slips`), and the report's words (`report`). The budget
//! is behind a trait (`Host`). The solution is asked through requests: `judge` answers
//! them at once from a `Solution` (the command line's process), and a browser drives a
//! `Judging`, resuming it with the answers its worker gives later.

pub mod cause;
pub mod graphs;
pub mod report;
mod run;
pub mod slips;

pub use cause::{Answers, Cause, Formula};
pub use graphs::Lists;
pub use run::{
    expected, judge, Answer, Checked, Finding, Host, Judging, Kind, Phase, Report, Request,
    Solution, Step, Verdict, WrongAt, SMALL_NODES, START,
};
