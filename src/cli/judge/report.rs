//! The judge's report (`cmg-judge`'s words), printed as text or as `--json`
//! ([docs/json.md]).

use super::lang::Lang;
use super::sandbox::Sandbox;
use crate::cli::interrupt::Signal;

/// What a run found, and how it ran.
pub struct Report<'a> {
    pub outcome: &'a cmg_judge::Report,
    pub seconds: f64,
    pub sandbox: Sandbox,
    pub no_sandbox: bool,
    pub interrupted: Option<Signal>,
}

impl Report<'_> {
    fn words(&self, lang: Lang) -> cmg_judge::report::Report<'_> {
        cmg_judge::report::Report {
            outcome: self.outcome,
            language: lang.name(),
            seconds: self.seconds,
            sandbox: self.sandbox.word(),
            note: self.sandbox.caveat(self.no_sandbox),
            interrupted: self.interrupted.map(Signal::name),
        }
    }
}

pub fn print_text(report: &Report, lang: Lang) {
    crate::cli::output::print(&cmg_judge::report::text(&report.words(lang)));
}

/// `--json`: the judge's object, with the counterexample as a `.cmg` file and the
/// report as printed, so that a client (the VS Code command) shows the terminal's words.
pub fn print_json(report: &Report, lang: Lang) {
    let words = report.words(lang);
    let mut value = cmg_judge::report::json(&words);
    value["cmg"] = report.outcome.finding.as_ref().map(cmg_text).into();
    value["report"] = cmg_judge::report::text(&words).into();
    crate::cli::output::print(&format!("{value}\n"));
}

pub use cmg_judge::report::cmg_text;
