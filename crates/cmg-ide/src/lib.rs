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
pub mod semantic_tokens;
pub mod symbols;
#[cfg(test)]
mod test_utils;

pub mod view;

pub use format::{format, MAX_WIDTH};

use cmg_core::analysis::Analysis;
use cmg_core::model::Mention;
use cmg_syntax::TextRange;

/// Replace `range` with `new_text`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextEdit {
    pub range: TextRange,
    pub new_text: String,
}

/// The node mention under the cursor at `offset` (touching it from either side).
/// A whole adjacency list is a mention of its node, but an id inside it wins.
pub(crate) fn mention_at(analysis: &Analysis, offset: u32) -> Option<&Mention> {
    let touching = analysis
        .model
        .mentions
        .iter()
        .filter(|mention| mention.range.touches(offset));
    touching.min_by_key(|mention| mention.range.len())
}
