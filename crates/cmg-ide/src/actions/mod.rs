//! Code actions: quick fixes for diagnostics and refactors of the statement under the cursor.
//!
//! Every edit is checked before it is applied: the edited text is analysed again, and
//! an action survives only if the graph stays the same, no syntax error is added, no
//! kind of diagnostic grows and the diagnostic it fixes goes away. So the edits may be
//! built plainly, and a case they do not cover is left without a fix instead of broken.
//!
//! That check costs one analysis per candidate edit, so it is done lazily: `candidates`
//! lists the actions cheaply (title, kind, the diagnostic fixed and an `ActionId` that
//! rebuilds the edit), and `resolve` builds and checks the edit of the one picked.
//! `code_actions` does both at once, for clients that cannot resolve, on a bounded
//! number of candidates.

//!
//! This module is the framework (candidates, ids, the check); `fixes.rs` builds the
//! quick fixes, `refactors.rs` the refactors, and `edits.rs` the text edits they share.

mod edits;
mod fixes;
mod refactors;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use cmg_core::analysis::{solution_for, Analysis};
use cmg_core::model::{Code, Diagnostic};
use cmg_solve::Solution;
use cmg_syntax::TextRange;

use super::TextEdit;
use fixes::quick_fix;
use refactors::{add_expect, adjacency_to_edges};

/// The most candidates listed for one request: a selection over a huge file with
/// thousands of diagnostics must still get a short answer.
pub const MAX_CANDIDATES: usize = 100;
/// The most candidates `code_actions` verifies for one request (each verification
/// analyses the edited text again).
pub const MAX_VERIFIED: usize = 16;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ActionKind {
    QuickFix,
    Refactor,
}

/// A verified action with its edit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Action {
    pub title: String,
    pub kind: ActionKind,
    pub edits: Vec<TextEdit>,
    /// The diagnostic a quick fix resolves.
    pub fixes: Option<Diagnostic>,
    pub preferred: bool,
}

/// Which action of a text a candidate is: enough to find it again in the analysis of
/// the same text and build its edit. Byte offsets refer to that text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "kebab-case")]
pub enum ActionId {
    /// The quick fix of the diagnostic with this code and range.
    Fix {
        code: String,
        start: u32,
        end: u32,
    },
    AddExpect,
    /// The adjacency literal statement with this range as edge statements.
    AdjacencyToEdges {
        start: u32,
        end: u32,
    },
}

/// An action as listed, before its edit is built and checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    pub title: String,
    pub kind: ActionKind,
    /// The diagnostic a quick fix resolves.
    pub fixes: Option<Diagnostic>,
    pub preferred: bool,
    pub id: ActionId,
}

/// A candidate with its possible edits, best first, not yet checked.
struct Plan {
    candidate: Candidate,
    edits: Vec<Vec<TextEdit>>,
    /// The code whose count the edit must lower.
    fixed: Option<Code>,
    /// What the edit must leave as it was.
    keeps: Keeps,
}

/// What an action's edit must leave as it was, besides adding no diagnostic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Keeps {
    /// The game: the graph and what its rules say.
    Game,
    /// The graph's nodes and moves: a fix of a rule may change the game, as the rule asks.
    Moves,
}

impl Plan {
    /// The action with the first edit that passes the check, if any.
    fn verify(self, analysis: &Analysis) -> Option<Action> {
        let edits = first_verified(analysis, self.edits, self.fixed, self.keeps)?;
        let Candidate {
            title,
            kind,
            fixes,
            preferred,
            id: _,
        } = self.candidate;
        Some(Action {
            title,
            kind,
            edits,
            fixes,
            preferred,
        })
    }
}

/// Actions available for the selection `range` (a cursor is an empty range), listed
/// without their edits: quick fixes for diagnostics touching it, and refactors at it.
pub fn candidates(
    analysis: &Analysis,
    solution: Option<&Solution>,
    range: TextRange,
) -> Vec<Candidate> {
    plans(analysis, solution, range)
        .into_iter()
        .take(MAX_CANDIDATES)
        .map(|plan| plan.candidate)
        .collect()
}

/// The action `id` of this text with its checked edit; `None` if the text has no such
/// action or no edit for it passes the check.
pub fn resolve(analysis: &Analysis, solution: Option<&Solution>, id: &ActionId) -> Option<Action> {
    let solution = solution_for(&analysis.model.graph, solution);
    let plan = match id {
        ActionId::Fix { code, start, end } => {
            let range = TextRange::new(*start, *end);
            let diagnostic = analysis
                .diagnostics(solution)
                .into_iter()
                .find(|d| d.range == range && d.code.as_str() == code)?;
            quick_fix(analysis, solution, diagnostic)
        }
        ActionId::AddExpect => add_expect(analysis, solution),
        ActionId::AdjacencyToEdges { start, end } => {
            let range = TextRange::new(*start, *end);
            adjacency_to_edges(analysis, range).filter(|plan| plan.candidate.id == *id)
        }
    }?;
    plan.verify(analysis)
}

/// Actions available for the selection `range` with their checked edits, for clients
/// that cannot resolve an action later; at most `MAX_VERIFIED` candidates are checked.
pub fn code_actions(
    analysis: &Analysis,
    solution: Option<&Solution>,
    range: TextRange,
) -> Vec<Action> {
    plans(analysis, solution, range)
        .into_iter()
        .take(MAX_VERIFIED)
        .filter_map(|plan| plan.verify(analysis))
        .collect()
}

fn plans(analysis: &Analysis, solution: Option<&Solution>, range: TextRange) -> Vec<Plan> {
    if range.start > range.end || range.end as usize > analysis.text.len() {
        return Vec::new();
    }
    let solution = solution_for(&analysis.model.graph, solution);
    let mut plans: Vec<Plan> = analysis
        .diagnostics(solution)
        .into_iter()
        .filter(|diagnostic| touches(diagnostic.range, range))
        .filter_map(|diagnostic| quick_fix(analysis, solution, diagnostic))
        .take(MAX_CANDIDATES)
        .collect();
    plans.extend(add_expect(analysis, solution));
    plans.extend(adjacency_to_edges(analysis, range));
    plans
}

fn touches(a: TextRange, b: TextRange) -> bool {
    a.start <= b.end && b.start <= a.end
}

/// The first candidate whose result keeps the graph, adds no diagnostic and, given a
/// code, has fewer diagnostics of that code.
fn first_verified(
    analysis: &Analysis,
    candidates: Vec<Vec<TextEdit>>,
    fixed: Option<Code>,
    keeps: Keeps,
) -> Option<Vec<TextEdit>> {
    candidates
        .into_iter()
        .find(|edits| keeps_meaning(analysis, edits, fixed, keeps))
}

fn keeps_meaning(
    analysis: &Analysis,
    edits: &[TextEdit],
    fixed: Option<Code>,
    keeps: Keeps,
) -> bool {
    let Some(text) = crate::apply_edits(&analysis.text, edits) else {
        return false;
    };
    let after = Analysis::new(&text);
    let count = |analysis: &Analysis| {
        let mut counts: BTreeMap<Code, usize> = BTreeMap::new();
        for diagnostic in &analysis.model.diagnostics {
            *counts.entry(diagnostic.code).or_default() += 1;
        }
        counts
    };
    let (before_counts, after_counts) = (count(analysis), count(&after));
    let no_growth = after_counts
        .iter()
        .all(|(code, &n)| n <= before_counts.get(code).copied().unwrap_or(0));
    let fixes = fixed.is_none_or(|code| {
        after_counts.get(&code).copied().unwrap_or(0)
            < before_counts.get(&code).copied().unwrap_or(0)
    });
    let (before_graph, after_graph) = (&analysis.model.graph, &after.model.graph);
    let kept = match keeps {
        Keeps::Game => after_graph.same_game(before_graph),
        Keeps::Moves => after_graph.same_moves(before_graph),
    };
    kept && after.parse.errors.len() <= analysis.parse.errors.len() && no_growth && fixes
}

#[cfg(test)]
mod tests;
