//! The text edits the actions are built from: deleting an item of a list with its
//! separator, a statement with its line or `;`, and the token queries they need.

use cmg_core::analysis::Analysis;
use cmg_syntax::{SyntaxKind, TextRange};

use crate::TextEdit;

/// Deletes item `index` of a comma-separated sequence with its separator, keeping any
/// comment between the items.
pub(super) fn delete_item(analysis: &Analysis, items: &[TextRange], index: usize) -> Vec<TextEdit> {
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

pub(super) fn tokens_in(
    analysis: &Analysis,
    range: TextRange,
) -> impl Iterator<Item = &cmg_syntax::Token> {
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

pub(super) fn has_comment(analysis: &Analysis, range: TextRange) -> bool {
    tokens_in(analysis, range).any(|t| t.kind == SyntaxKind::Comment)
}

fn comma_in(analysis: &Analysis, range: TextRange) -> Option<TextRange> {
    tokens_in(analysis, range)
        .find(|t| t.kind == SyntaxKind::Comma)
        .map(|t| t.range)
}

pub(super) fn delete(range: TextRange) -> TextEdit {
    TextEdit {
        range,
        new_text: String::new(),
    }
}

/// Deletes a statement: its whole line when it stands alone there, else the statement
/// and the `;` that joins it to its neighbour.
pub(super) fn remove_statement(analysis: &Analysis, index: usize) -> Vec<TextEdit> {
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
