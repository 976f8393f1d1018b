//! The judge in a browser: `cmg-judge`'s run behind a JSON interface that never waits on
//! the solution. Each call runs the judge up to its next request to the solution (the
//! answers to some graphs, or a fresh start) and returns it; the page has a worker
//! answer, and passes the answers back in the next call. Time comes from the host
//! (`judge_now`, milliseconds), and the seed from the page, so that the same seed and
//! graph count try the same graphs as `cmg judge --graphs N --seed K`.
//! `docs/dev/wasm.md` describes the interface.

use std::cell::RefCell;
use std::rc::Rc;

use cmg_judge::{Answer, Finding, Host, Judging, Phase, Request, Step};
use serde_json::{json, Value};

mod abi;

/// The time, in milliseconds from some start.
#[cfg(target_family = "wasm")]
fn now() -> f64 {
    #[link(wasm_import_module = "env")]
    extern "C" {
        fn judge_now() -> f64;
    }
    // SAFETY: an import without arguments that returns a number.
    unsafe { judge_now() }
}

#[cfg(not(target_family = "wasm"))]
fn now() -> f64 {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    START
        .get_or_init(std::time::Instant::now)
        .elapsed()
        .as_secs_f64()
        * 1000.0
}

/// The budgets, the stop button and what the page shows of the run's progress.
#[derive(Default)]
struct Budget {
    search_deadline: f64,
    after_ms: f64,
    after_deadline: Option<f64>,
    graphs: Option<u64>,
    stopped: bool,
    progress: String,
    phase: &'static str,
    tried: u64,
    left_ms: f64,
    /// The smallest failing graph so far, while shrinking.
    failed: Option<Finding>,
}

/// The judge's host: the budget, shared with the session that reads it between calls.
struct PageHost(Rc<RefCell<Budget>>);

impl Host for PageHost {
    fn go_on(&mut self, phase: Phase) -> bool {
        let mut budget = self.0.borrow_mut();
        if budget.stopped {
            return false;
        }
        let now = now();
        match phase {
            Phase::Search { tried } => {
                budget.phase = "search";
                budget.tried = tried;
                budget.left_ms = (budget.search_deadline - now).max(0.0);
                budget.left_ms > 0.0 && budget.graphs.is_none_or(|most| tried < most)
            }
            Phase::After => {
                budget.phase = "after";
                let after_ms = budget.after_ms;
                let deadline = *budget.after_deadline.get_or_insert(now + after_ms);
                budget.left_ms = (deadline - now).max(0.0);
                budget.left_ms > 0.0
            }
        }
    }

    fn stopped(&self) -> bool {
        self.0.borrow().stopped
    }

    fn graph_limit(&self) -> Option<u64> {
        self.0.borrow().graphs
    }

    fn progress(&mut self, text: &str) {
        text.clone_into(&mut self.0.borrow_mut().progress);
    }

    fn failed(&mut self, finding: &Finding) {
        self.0.borrow_mut().failed = Some(finding.clone());
    }
}

/// One run of the judge, from `start` to its report.
pub struct Session {
    judging: Judging<'static>,
    budget: Rc<RefCell<Budget>>,
    started: f64,
    language: String,
    /// Whether the report was given: every later call gives it again.
    report: Option<Value>,
}

impl Session {
    /// A run from its JSON settings: `{"seed", "graphs", "seconds", "shrinkSeconds",
    /// "language"}`, as `cmg judge`'s options of those names, with the same bounds
    /// (`language`: the name the report gives). The first step comes from `resume(&[])`.
    pub fn start(settings: &Value) -> Result<Session, String> {
        let seconds = |name: &str, default: Option<f64>, zero_ok: bool| -> Result<f64, String> {
            let value = match settings.get(name) {
                None | Some(Value::Null) => default.ok_or(format!("{name} is required"))?,
                Some(value) => value
                    .as_f64()
                    .ok_or(format!("{name} must be a number of seconds"))?,
            };
            cmg_judge::budget_seconds(name, value, zero_ok)
        };
        let search = seconds("seconds", None, false)?;
        let after = seconds(
            "shrinkSeconds",
            Some(cmg_judge::default_shrink_seconds(search)),
            true,
        )?;
        let seed = match settings.get("seed") {
            None | Some(Value::Null) => 1,
            Some(value) => value.as_u64().ok_or("seed must be a whole number from 0")?,
        };
        let graphs = match settings.get("graphs") {
            None | Some(Value::Null) => None,
            Some(value) => match value.as_u64() {
                Some(0) | None => {
                    return Err("graphs must be a whole number, at least 1".into());
                }
                some => some,
            },
        };
        let language = settings
            .get("language")
            .and_then(Value::as_str)
            .unwrap_or("pasted")
            .to_owned();
        let started = now();
        let budget = Rc::new(RefCell::new(Budget {
            search_deadline: started + search * 1000.0,
            after_ms: after * 1000.0,
            graphs,
            ..Budget::default()
        }));
        let judging = Judging::new(PageHost(Rc::clone(&budget)), seed, Vec::new());
        Ok(Session {
            judging,
            budget,
            started,
            language,
            report: None,
        })
    }

    /// The stop button: the run ends at its next step, with the report so far.
    pub fn stop(&mut self) {
        self.budget.borrow_mut().stopped = true;
    }

    /// Runs up to the next request, with the answers (JSON) to the last one: the
    /// request, or the report.
    pub fn resume(&mut self, answers: &Value) -> Result<Value, String> {
        if let Some(report) = &self.report {
            return Ok(report.clone());
        }
        let answers = parse_answers(answers)?;
        let step = match self.judging.resume(answers) {
            Step::Ask(Request::Answers(graphs)) => json!({ "ask": "answers", "graphs": graphs }),
            Step::Ask(Request::Restart) => json!({ "ask": "restart" }),
            Step::Done(outcome) => {
                let stopped = self.budget.borrow().stopped;
                let words = cmg_judge::report::Report {
                    outcome: &outcome,
                    language: &self.language,
                    seconds: (now() - self.started) / 1000.0,
                    sandbox: "worker",
                    note: None,
                    interrupted: stopped.then_some("the stop button"),
                };
                let report = json!({
                    "done": cmg_judge::report::json(&words),
                    "text": cmg_judge::report::text(&words),
                    "cmg": outcome.finding.as_ref().map(cmg_judge::report::cmg_text),
                });
                self.report = Some(report.clone());
                report
            }
        };
        Ok(self.with_progress(step))
    }

    fn with_progress(&self, mut step: Value) -> Value {
        let budget = self.budget.borrow();
        step["progress"] = json!({
            "phase": budget.phase,
            "tried": budget.tried,
            "leftMs": budget.left_ms.round(),
            "text": budget.progress,
            "failedNodes": budget.failed.as_ref().map(|finding| finding.graph.len()),
        });
        step
    }
}

/// The page's answers: `{"value": text}`, `{"crashed": message}`, `{"outOfMemory":
/// message}`, `{"timedOut": true}` or `{"interrupted": true}` each.
fn parse_answers(answers: &Value) -> Result<Vec<Answer>, String> {
    let Some(list) = answers.as_array() else {
        return Err("the answers must be a JSON array".into());
    };
    list.iter()
        .enumerate()
        .map(|(i, answer)| {
            let text = |key: &str| answer.get(key).and_then(Value::as_str).map(str::to_owned);
            if let Some(value) = text("value") {
                Ok(Answer::Value(value))
            } else if let Some(message) = text("crashed") {
                Ok(Answer::Crashed(message))
            } else if let Some(message) = text("outOfMemory") {
                Ok(Answer::OutOfMemory(message))
            } else if answer.get("timedOut") == Some(&Value::Bool(true)) {
                Ok(Answer::TimedOut)
            } else if answer.get("interrupted") == Some(&Value::Bool(true)) {
                Ok(Answer::Interrupted)
            } else {
                Err(format!("answer {i}: not one of value, crashed, outOfMemory, timedOut, interrupted: {answer}"))
            }
        })
        .collect()
}

#[cfg(test)]
mod tests;
