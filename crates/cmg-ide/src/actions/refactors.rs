//! Refactors of the statement under the cursor: add `expect` with the solved outcome,
//! turn an adjacency literal into edge statements.

use std::collections::{BTreeMap, BTreeSet};

use cmg_core::analysis::{outcome_keyword, start_position, Analysis};
use cmg_solve::Solution;
use cmg_syntax::{SyntaxKind, TextRange};

use super::edits::tokens_in;
use super::{touches, ActionId, ActionKind, Candidate, Keeps, Plan};
use crate::TextEdit;

/// Refactor: append `expect` with the solved outcome to a file that states none, and
/// parses (the outcome of a file with syntax errors is only that of part of it).
pub(super) fn add_expect(analysis: &Analysis, solution: Option<&Solution>) -> Option<Plan> {
    if !analysis.model.expects.is_empty() || !analysis.checks_expects() {
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
        keeps: Keeps::Game,
    })
}

/// Refactor: the adjacency literal at `range` as edge statements, in the style of
/// `cmg import`. Comments inside the literal are kept on lines of their own before them.
pub(super) fn adjacency_to_edges(analysis: &Analysis, range: TextRange) -> Option<Plan> {
    let (statement, lists) = analysis
        .parse
        .file
        .statements
        .iter()
        .filter(|statement| touches(statement.range, range))
        .find_map(|statement| Some((statement, statement.adjacency_lists()?)))?;
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
        keeps: Keeps::Game,
    })
}
