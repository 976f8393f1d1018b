//! Quick fixes: the edits that resolve a diagnostic (remove a self-loop or a duplicate
//! edge, add the missing side of a one-sided edge, set `expect` to the solved outcome,
//! and for the rules: rename an unknown rule to the one meant, remove a rule given again
//! or one that does not count, drop arguments a rule does not take, remove a one-way edge
//! an edge already makes).

use std::collections::BTreeSet;

use cmg_core::analysis::{outcome_keyword, start_position, Analysis};
use cmg_core::model::{Code, Diagnostic, EdgeOrigin, EdgePair};
use cmg_solve::Solution;
use cmg_syntax::{AdjacencyList, Group, RuleDecl, RuleName, StatementKind, TextRange};

use super::edits::{delete, delete_item, has_comment, remove_statement};
use super::{ActionId, ActionKind, Candidate, Keeps, Plan};
use crate::TextEdit;

pub(super) fn quick_fix(
    analysis: &Analysis,
    solution: Option<&Solution>,
    diagnostic: Diagnostic,
) -> Option<Plan> {
    let mut keeps = Keeps::Game;
    let (title, edits, fixed) = match diagnostic.code {
        Code::SelfLoop => {
            let edge = edge_at(analysis, diagnostic.range, true)?;
            let title = format!("Remove the self-loop {}", link(edge));
            (title, removals(analysis, edge), Some(Code::SelfLoop))
        }
        Code::DuplicateEdge => {
            let edge = edge_at(analysis, diagnostic.range, false)?;
            let title = format!("Remove the duplicate edge {}", link(edge));
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
        Code::ArcDuplicatesEdge => {
            let edge = edge_at(analysis, diagnostic.range, false)?;
            let title = format!("Remove the one-way edge {} -> {}", edge.a, edge.b);
            (
                title,
                removals(analysis, edge),
                Some(Code::ArcDuplicatesEdge),
            )
        }
        Code::UnknownRule => {
            let (_, decl) = rule_at(analysis, diagnostic.range)?;
            let written = analysis.text.get(decl.name_range.to_usize())?;
            let meant = RuleName::meant(written)?.name();
            // The rule it becomes takes effect: the game changes, as the file asks.
            keeps = Keeps::Moves;
            let edit = TextEdit {
                range: decl.name_range,
                new_text: meant.to_owned(),
            };
            (
                format!("Change to `rule {meant}`"),
                vec![vec![edit]],
                Some(Code::UnknownRule),
            )
        }
        Code::DuplicateRule | Code::BadLimit => {
            // A rule given again, or a limit that is no number, does not count: removing
            // it keeps the game.
            let (index, decl) = rule_at(analysis, diagnostic.range)?;
            let title = format!("Remove `rule {}`", decl.name.name());
            (
                title,
                vec![remove_statement(analysis, index)],
                Some(diagnostic.code),
            )
        }
        Code::RuleArguments => {
            let (index, decl) = rule_at(analysis, diagnostic.range)?;
            // Arguments past those the rule takes: the rule counts, without them.
            let extra = decl
                .args
                .iter()
                .position(|arg| arg.range.start == diagnostic.range.start)
                .filter(|&at| at > 0 && diagnostic.range.end == decl.range().end);
            match extra {
                Some(at) => {
                    let edit = delete(TextRange::new(
                        decl.args[at - 1].range.end,
                        diagnostic.range.end,
                    ));
                    let title = format!("Remove what `rule {}` does not take", decl.name.name());
                    (title, vec![vec![edit]], Some(Code::RuleArguments))
                }
                None => {
                    let title = format!("Remove `rule {}`", decl.name.name());
                    (
                        title,
                        vec![remove_statement(analysis, index)],
                        Some(Code::RuleArguments),
                    )
                }
            }
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
        keeps,
    })
}

/// "3 -- 4", or "3 -> 4" for a one-way edge.
fn link(edge: EdgePair) -> String {
    let arrow = if edge.origin == EdgeOrigin::Arc {
        "->"
    } else {
        "--"
    };
    format!("{} {arrow} {}", edge.a, edge.b)
}

/// The `rule` statement a diagnostic points into, with its index.
fn rule_at(analysis: &Analysis, range: TextRange) -> Option<(usize, &RuleDecl)> {
    analysis.parse.file.statements.iter().enumerate().find_map(
        |(index, statement)| match &statement.kind {
            StatementKind::Rule(decl) if decl.range().contains_range(range) => Some((index, decl)),
            _ => None,
        },
    )
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
    let Some(statement) = analysis.parse.file.statements.get(edge.statement as usize) else {
        return Vec::new();
    };
    match (&statement.kind, edge.origin) {
        (StatementKind::Edges(groups), EdgeOrigin::Chain)
        | (StatementKind::Arcs(groups), EdgeOrigin::Arc) => chain_removals(analysis, groups, edge),
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
        candidates.push(remove_statement(analysis, edge.statement as usize));
        // Without its only edge a node would vanish: keep it declared.
        let ids: BTreeSet<u32> = groups
            .iter()
            .flat_map(|group| group.members.iter().filter_map(|m| m.id))
            .collect();
        let declarations: Vec<String> = ids.iter().map(|id| format!("node {id}")).collect();
        if let Some(statement) = analysis.parse.file.statements.get(edge.statement as usize) {
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
    let lists = analysis.parse.file.adjacency_lists(edge.statement)?;
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
