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

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use cmg_core::analysis::{outcome_keyword, solution_for, start_position, Analysis};
use cmg_core::model::{Code, Diagnostic, EdgeOrigin, EdgePair};
use cmg_solve::Solution;
use cmg_syntax::{AdjacencyList, Group, StatementKind, SyntaxKind, TextRange};

use super::TextEdit;

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
}

impl Plan {
    /// The action with the first edit that passes the check, if any.
    fn verify(self, analysis: &Analysis) -> Option<Action> {
        let edits = first_verified(analysis, self.edits, self.fixed)?;
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

fn quick_fix(
    analysis: &Analysis,
    solution: Option<&Solution>,
    diagnostic: Diagnostic,
) -> Option<Plan> {
    let (title, edits, fixed) = match diagnostic.code {
        Code::SelfLoop => {
            let edge = edge_at(analysis, diagnostic.range, true)?;
            let title = format!("Remove the self-loop {} -- {}", edge.a, edge.b);
            (title, removals(analysis, edge), Some(Code::SelfLoop))
        }
        Code::DuplicateEdge => {
            let edge = edge_at(analysis, diagnostic.range, false)?;
            let title = format!("Remove the duplicate edge {} -- {}", edge.a, edge.b);
            (title, removals(analysis, edge), Some(Code::DuplicateEdge))
        }
        Code::OneSidedEdge => {
            let edge = edge_at(analysis, diagnostic.range, false)?;
            let title = format!("Add {} to list {}", edge.a, edge.b);
            let edits = add_missing_side(analysis, edge).into_iter().collect();
            (title, edits, Some(Code::OneSidedEdge))
        }
        Code::ExpectMismatch => {
            let start = start_position(&analysis.model.graph)?;
            let keyword = outcome_keyword(solution?.outcome(start));
            let expect = analysis
                .model
                .expects
                .iter()
                .find(|expect| expect.range() == diagnostic.range)?;
            let edit = TextEdit {
                range: expect.outcome_range,
                new_text: keyword.to_owned(),
            };
            let title = format!("Change to `expect {keyword}`");
            (title, vec![vec![edit]], None)
        }
        _ => return None,
    };
    if edits.is_empty() {
        return None;
    }
    let id = ActionId::Fix {
        code: diagnostic.code.as_str().to_owned(),
        start: diagnostic.range.start,
        end: diagnostic.range.end,
    };
    Some(Plan {
        candidate: Candidate {
            title,
            kind: ActionKind::QuickFix,
            fixes: Some(diagnostic),
            preferred: true,
            id,
        },
        edits,
        fixed,
    })
}

/// The declared edge a diagnostic points at. A diagnostic that counts many pairs of a
/// group product points at the whole product, which no single pair matches, so it gets
/// no fix: removing one pair would not resolve it.
fn edge_at(analysis: &Analysis, range: TextRange, self_loop: bool) -> Option<EdgePair> {
    let model = &analysis.model;
    model
        .edges
        .iter()
        .filter(|edge| edge.range.contains_range(range))
        .flat_map(|edge| model.pairs(edge))
        .find(|edge| edge.range == range && edge.is_self_loop() == self_loop)
}

/// Ways to take `edge` out of the text, best first.
fn removals(analysis: &Analysis, edge: EdgePair) -> Vec<Vec<TextEdit>> {
    let Some(statement) = analysis.parse.file.statements.get(edge.statement) else {
        return Vec::new();
    };
    match (&statement.kind, edge.origin) {
        (StatementKind::Edges(groups), EdgeOrigin::Chain) => chain_removals(analysis, groups, edge),
        (StatementKind::Adjacency(lists), EdgeOrigin::Listed) => {
            listed_removals(analysis, lists, edge)
        }
        _ => Vec::new(),
    }
}

fn chain_removals(analysis: &Analysis, groups: &[Group], edge: EdgePair) -> Vec<Vec<TextEdit>> {
    let mut candidates = Vec::new();
    // The end `a` of the edge starts its range, and `b`, in the next group, ends it.
    for (k, pair) in groups.windows(2).enumerate() {
        let a = pair[0]
            .members
            .iter()
            .position(|m| m.id == Some(edge.a) && m.range.start == edge.range.start);
        let b = pair[1]
            .members
            .iter()
            .position(|m| m.id == Some(edge.b) && m.range.end == edge.range.end);
        if let (Some(a), Some(b)) = (a, b) {
            candidates.extend(remove_member(analysis, groups, k + 1, b));
            candidates.extend(remove_member(analysis, groups, k, a));
        }
    }
    if groups.len() == 2 {
        candidates.push(remove_statement(analysis, edge.statement));
        // Without its only edge a node would vanish: keep it declared.
        let ids: BTreeSet<u32> = groups
            .iter()
            .flat_map(|group| group.members.iter().filter_map(|m| m.id))
            .collect();
        let declarations: Vec<String> = ids.iter().map(|id| format!("node {id}")).collect();
        if let Some(statement) = analysis.parse.file.statements.get(edge.statement) {
            candidates.push(vec![TextEdit {
                range: statement.range,
                new_text: declarations.join("; "),
            }]);
        }
    }
    candidates
}

/// Takes member `index` out of group `k` of a chain; `None` when that would take the
/// chain below two groups, which is a matter for the whole statement.
fn remove_member(
    analysis: &Analysis,
    groups: &[Group],
    k: usize,
    index: usize,
) -> Option<Vec<TextEdit>> {
    let group = &groups[k];
    if group.members.len() >= 2 {
        let ranges: Vec<TextRange> = group.members.iter().map(|m| m.range).collect();
        if ranges.len() == 2 && !has_comment(analysis, group.range) {
            // `{3 4}` less 3 reads better as plain `4`.
            let rest = ranges[1 - index];
            return Some(vec![TextEdit {
                range: group.range,
                new_text: analysis.text[rest.to_usize()].to_owned(),
            }]);
        }
        return Some(delete_item(analysis, &ranges, index));
    }
    if groups.len() <= 2 {
        return None;
    }
    let range = if k + 1 == groups.len() {
        TextRange::new(groups[k - 1].range.end, group.range.end)
    } else {
        TextRange::new(group.range.start, groups[k + 1].range.start)
    };
    Some(vec![delete(range)])
}

fn listed_removals(
    analysis: &Analysis,
    lists: &[AdjacencyList],
    edge: EdgePair,
) -> Vec<Vec<TextEdit>> {
    let Some(list) = lists.get(edge.a as usize) else {
        return Vec::new();
    };
    let ranges: Vec<TextRange> = list.neighbours.iter().map(|n| n.range).collect();
    let Some(index) = ranges.iter().position(|&range| range == edge.range) else {
        return Vec::new();
    };
    let removal = delete_item(analysis, &ranges, index);
    let mut candidates = vec![removal.clone()];
    // An edge declared elsewhere too may be listed on both sides here: both sides go,
    // or the other side is left one-sided.
    let mirror = lists
        .get(edge.b as usize)
        .filter(|_| edge.a != edge.b)
        .and_then(|other| {
            let ranges: Vec<TextRange> = other.neighbours.iter().map(|n| n.range).collect();
            let index = other.neighbours.iter().position(|n| n.id == Some(edge.a))?;
            Some(delete_item(analysis, &ranges, index))
        });
    if let Some(mirror) = mirror {
        candidates.push(removal.into_iter().chain(mirror).collect());
    }
    candidates
}

/// `[3]` becomes `[3, 0]` and `[]` becomes `[0]` when list 0 lists 3.
fn add_missing_side(analysis: &Analysis, edge: EdgePair) -> Option<Vec<TextEdit>> {
    let statement = analysis.parse.file.statements.get(edge.statement)?;
    let StatementKind::Adjacency(lists) = &statement.kind else {
        return None;
    };
    let list = lists.get(edge.b as usize)?;
    let edit = match list.neighbours.last() {
        Some(last) => TextEdit {
            range: TextRange::empty(last.range.end),
            new_text: format!(", {}", edge.a),
        },
        None => TextEdit {
            range: TextRange::empty(list.range.start + 1),
            new_text: edge.a.to_string(),
        },
    };
    Some(vec![edit])
}

/// Deletes item `index` of a comma-separated sequence with its separator, keeping any
/// comment between the items.
fn delete_item(analysis: &Analysis, items: &[TextRange], index: usize) -> Vec<TextEdit> {
    let item = items[index];
    if let Some(&next) = items.get(index + 1) {
        let between = TextRange::new(item.end, next.start);
        if !has_layout(analysis, between) {
            return vec![delete(TextRange::new(item.start, next.start))];
        }
        let end = comma_in(analysis, between).map_or(item.end, |comma| comma.end);
        return vec![delete(TextRange::new(item.start, end))];
    }
    if index > 0 {
        let previous = items[index - 1];
        let between = TextRange::new(previous.end, item.start);
        if !has_layout(analysis, between) {
            return vec![delete(TextRange::new(previous.end, item.end))];
        }
        let mut edits: Vec<TextEdit> = comma_in(analysis, between)
            .map(delete)
            .into_iter()
            .collect();
        edits.push(delete(item));
        return edits;
    }
    // The only item: a trailing comma after it must go too.
    let tokens = &analysis.parse.tokens;
    let after = tokens.partition_point(|t| t.range.start < item.end);
    let trailing_comma = tokens[after..]
        .iter()
        .find(|t| !matches!(t.kind, SyntaxKind::Comment | SyntaxKind::Newline))
        .filter(|t| t.kind == SyntaxKind::Comma);
    let end = trailing_comma.map_or(item.end, |comma| comma.range.end);
    vec![delete(TextRange::new(item.start, end))]
}

fn tokens_in(analysis: &Analysis, range: TextRange) -> impl Iterator<Item = &cmg_syntax::Token> {
    analysis
        .parse
        .tokens
        .iter()
        .filter(move |t| range.contains_range(t.range))
}

/// Whether a comment or line break lies in `range`, which deleting it would lose.
fn has_layout(analysis: &Analysis, range: TextRange) -> bool {
    tokens_in(analysis, range).any(|t| matches!(t.kind, SyntaxKind::Comment | SyntaxKind::Newline))
}

fn has_comment(analysis: &Analysis, range: TextRange) -> bool {
    tokens_in(analysis, range).any(|t| t.kind == SyntaxKind::Comment)
}

fn comma_in(analysis: &Analysis, range: TextRange) -> Option<TextRange> {
    tokens_in(analysis, range)
        .find(|t| t.kind == SyntaxKind::Comma)
        .map(|t| t.range)
}

fn delete(range: TextRange) -> TextEdit {
    TextEdit {
        range,
        new_text: String::new(),
    }
}

/// Deletes a statement: its whole line when it stands alone there, else the statement
/// and the `;` that joins it to its neighbour.
fn remove_statement(analysis: &Analysis, index: usize) -> Vec<TextEdit> {
    let Some(statement) = analysis.parse.file.statements.get(index) else {
        return Vec::new();
    };
    let (text, lines) = (&analysis.text, &analysis.line_index);
    let range = statement.range;
    let first_line = lines.line_col(range.start).line;
    let last_line = lines.line_col(range.end).line;
    let (Some(first), Some(last), Some(last_content)) = (
        lines.line_range(first_line),
        lines.line_range(last_line),
        lines.line_content(last_line),
    ) else {
        return Vec::new();
    };
    let before = &text[first.start as usize..range.start as usize];
    let after = &text[range.end as usize..last_content.end.max(range.end) as usize];
    let deleted = if before.trim().is_empty() && after.trim().is_empty() {
        TextRange::new(first.start, last.end)
    } else if let Some(rest) = after.trim_start().strip_prefix(';') {
        let spaces = rest.len() - rest.trim_start().len();
        let end = range.end as usize + after.len() - rest.len() + spaces;
        TextRange::new(range.start, end as u32)
    } else if before.trim_end().ends_with(';') {
        let semicolon = first.start as usize + before.trim_end().len() - 1;
        TextRange::new(semicolon as u32, range.end)
    } else {
        let spaces = after.len() - after.trim_start().len();
        TextRange::new(range.start, range.end + spaces as u32)
    };
    vec![delete(deleted)]
}

/// Refactor: append `expect` with the solved outcome to a file that states none.
fn add_expect(analysis: &Analysis, solution: Option<&Solution>) -> Option<Plan> {
    if !analysis.model.expects.is_empty() {
        return None;
    }
    let start = start_position(&analysis.model.graph)?;
    let keyword = outcome_keyword(solution?.outcome(start));
    let text = &analysis.text;
    let ending = analysis.parse.line_ending(text);
    let new_text = if text.is_empty() || text.ends_with(['\n', '\r']) {
        format!("expect {keyword}{ending}")
    } else {
        format!("{ending}expect {keyword}")
    };
    let edit = TextEdit {
        range: TextRange::empty(text.len() as u32),
        new_text,
    };
    Some(Plan {
        candidate: Candidate {
            title: format!("Add `expect {keyword}` with the solved outcome"),
            kind: ActionKind::Refactor,
            fixes: None,
            preferred: false,
            id: ActionId::AddExpect,
        },
        edits: vec![vec![edit]],
        fixed: None,
    })
}

/// Refactor: the adjacency literal at `range` as edge statements, in the style of
/// `cmg import`. Comments inside the literal are kept on lines of their own before them.
fn adjacency_to_edges(analysis: &Analysis, range: TextRange) -> Option<Plan> {
    let statement = analysis.parse.file.statements.iter().find(|statement| {
        matches!(statement.kind, StatementKind::Adjacency(_)) && touches(statement.range, range)
    })?;
    let StatementKind::Adjacency(lists) = &statement.kind else {
        return None;
    };
    if lists.is_empty() {
        return None;
    }
    // Every node of the literal with its neighbours: the lists' own nodes, and any node
    // a list names beyond them. Listing an edge on both sides counts once.
    let mut neighbours: BTreeMap<u32, BTreeSet<u32>> = BTreeMap::new();
    for (index, list) in lists.iter().enumerate() {
        let a = u32::try_from(index).ok()?;
        neighbours.entry(a).or_default();
        for b in list.neighbours.iter().map(|n| n.id) {
            let b = b?;
            neighbours.entry(b).or_default();
            if a != b {
                neighbours.entry(a).or_default().insert(b);
                neighbours.entry(b).or_default().insert(a);
            }
        }
    }
    let mut lines: Vec<String> = tokens_in(analysis, statement.range)
        .filter(|t| t.kind == SyntaxKind::Comment)
        .map(|t| analysis.text[t.range.to_usize()].trim_end().to_owned())
        .collect();
    lines.extend(crate::edge_statements(
        neighbours.iter().map(|(&node, adjacent)| (node, adjacent)),
    ));
    let edit = TextEdit {
        range: statement.range,
        new_text: lines.join(analysis.parse.line_ending(&analysis.text)),
    };
    Some(Plan {
        candidate: Candidate {
            title: "Turn the adjacency literal into edge statements".to_owned(),
            kind: ActionKind::Refactor,
            fixes: None,
            preferred: false,
            id: ActionId::AdjacencyToEdges {
                start: statement.range.start,
                end: statement.range.end,
            },
        },
        edits: vec![vec![edit]],
        fixed: None,
    })
}

/// The first candidate whose result keeps the graph, adds no diagnostic and, given a
/// code, has fewer diagnostics of that code.
fn first_verified(
    analysis: &Analysis,
    candidates: Vec<Vec<TextEdit>>,
    fixed: Option<Code>,
) -> Option<Vec<TextEdit>> {
    candidates
        .into_iter()
        .find(|edits| keeps_meaning(analysis, edits, fixed))
}

fn keeps_meaning(analysis: &Analysis, edits: &[TextEdit], fixed: Option<Code>) -> bool {
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
    after.model.graph == analysis.model.graph
        && after.parse.errors.len() <= analysis.parse.errors.len()
        && no_growth
        && fixes
}

#[cfg(test)]
mod tests;
