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

/// The longest budget a run takes, in seconds: about eleven days.
pub const MAX_SECONDS: f64 = 1e6;

/// The shrinking's budget when none is given: half the search's, at least 5 seconds.
pub fn default_shrink_seconds(search_seconds: f64) -> f64 {
    (search_seconds / 2.0).max(5.0)
}

/// A budget of `value` seconds, as the command line and the browser take it (`name`, the
/// setting's name, is for the message): finite, at most [`MAX_SECONDS`], and above 0, or
/// 0 as well where `zero_ok` (the shrinking's budget: 0 reports the failure as found).
pub fn budget_seconds(name: &str, value: f64, zero_ok: bool) -> Result<f64, String> {
    if value.is_finite() && (value > 0.0 || (zero_ok && value == 0.0)) && value <= MAX_SECONDS {
        Ok(value)
    } else {
        let least = if zero_ok { "from 0" } else { "above 0" };
        Err(format!(
            "{name} must be a number of seconds {least} and at most {MAX_SECONDS}, not {value}"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::{budget_seconds, MAX_SECONDS};

    #[test]
    fn a_budget_is_positive_finite_and_bounded_and_zero_only_where_allowed() {
        assert_eq!(budget_seconds("s", 2.5, false), Ok(2.5));
        assert_eq!(budget_seconds("s", MAX_SECONDS, false), Ok(MAX_SECONDS));
        assert_eq!(budget_seconds("s", 0.0, true), Ok(0.0));
        for (value, zero_ok) in [(0.0, false), (-1.0, true), (f64::NAN, true), (2e6, true)] {
            let error = budget_seconds("--s", value, zero_ok).expect_err("refused");
            assert!(
                error.starts_with("--s must be a number of seconds"),
                "{error}"
            );
        }
    }
}
