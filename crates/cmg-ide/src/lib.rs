//! Editor features as plain functions over a file's analysis and solution; no protocol types.
//!
//! Every feature takes the [`Analysis`] of one document
//! version and, where it needs one, the `Solution` solved for that same version
//! (`None` while solving is under way or not possible). Positions are byte offsets;
//! the `lsp` layer converts.

pub mod actions;
pub mod code_lens;
pub mod completion;
pub mod critical_edges;
pub mod folding;
mod format;
pub mod hover;
pub mod inlay_hints;
pub mod navigation;
pub mod rename;
mod rules_first;
pub mod selection_range;
pub mod semantic_tokens;
pub mod symbols;
#[cfg(test)]
mod test_utils;

pub mod view;

pub use format::{format, format_on_type, format_range, MAX_WIDTH};

#[cfg(doc)]
use cmg_core::analysis::Analysis;
use cmg_syntax::TextRange;

/// Replace `range` with `new_text`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextEdit {
    pub range: TextRange,
    pub new_text: String,
}

/// `text` with non-overlapping `edits` applied, or `None` if one does not fit the text
/// (out of range, overlapping another, or splitting a character).
pub fn apply_edits(text: &str, edits: &[TextEdit]) -> Option<String> {
    let mut edits = edits.to_vec();
    edits.sort_by_key(|edit| std::cmp::Reverse((edit.range.start, edit.range.end)));
    let mut text = text.to_owned();
    let mut limit = text.len();
    for edit in edits {
        let range = edit.range.to_usize();
        if range.end > limit
            || !text.is_char_boundary(range.start)
            || !text.is_char_boundary(range.end)
        {
            return None;
        }
        text.replace_range(range.clone(), &edit.new_text);
        limit = range.start;
    }
    Some(text)
}

/// Edge statements for a graph given as each node with its neighbours (each list sorted,
/// without repeats), in the order given: `i -- j` or `i -- {j k}` for the neighbours
/// above `i`, `node i` for a node without any. `cmg import` and the refactor that turns
/// an adjacency literal into edges both write this layout.
pub fn edge_statements<'a, N, L>(nodes: impl IntoIterator<Item = (N, L)>) -> Vec<String>
where
    N: Copy + Ord + std::fmt::Display + 'a,
    L: IntoIterator<Item = &'a N>,
{
    let mut lines = Vec::new();
    for (node, neighbours) in nodes {
        let mut any = false;
        let above: Vec<String> = neighbours
            .into_iter()
            .inspect(|_| any = true)
            .filter(|&&other| other > node)
            .map(ToString::to_string)
            .collect();
        match above.as_slice() {
            [] if !any => lines.push(format!("node {node}")),
            [] => {}
            [one] => lines.push(format!("{node} -- {one}")),
            many => lines.push(format!("{node} -- {{{}}}", many.join(" "))),
        }
    }
    lines
}

pub(crate) use navigation::mention_at;
