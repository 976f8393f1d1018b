//! What a request works on: one version of one document, copied out of the server's
//! loop, with the conversions between its protocol positions and byte offsets.

use std::collections::HashMap;
use std::sync::Arc;

use ropey::Rope;
use tower_lsp_server::ls_types::*;

use cmg_core::analysis::Analysis;
use cmg_core::explain::Solved;
use cmg_ide as ide;
use cmg_solve::Solution;
use cmg_syntax::TextRange;

use crate::config::Config;
use crate::convert::{self, Encoding};
use crate::documents::{Analysed, SolveState};

/// What a request works on: one version of one document, copied out of the lock. The
/// solution, if any, is the one solved for exactly this version.
pub struct Snapshot {
    pub uri: Uri,
    /// The document version the analysis was made from.
    pub version: i32,
    /// Whether a solve of this version is still running (no solution yet).
    pub solving: bool,
    pub rope: Rope,
    pub analysis: Arc<Analysis>,
    /// The solution with its what-if.
    pub solution: Option<Arc<Solved>>,
    pub encoding: Encoding,
    pub config: Config,
    /// What the analysis was made from and the state of its solve, which its
    /// diagnostics are built from (the analysis here is an empty one when the document
    /// is too large to analyse and the snapshot is for a pull of diagnostics).
    pub analysed: Arc<Analysed>,
    pub solve: SolveState,
}

impl Snapshot {
    pub(crate) fn offset(&self, position: Position) -> u32 {
        convert::offset(&self.rope, self.encoding, position)
    }

    pub(crate) fn position(&self, offset: u32) -> Position {
        convert::position_in(&self.analysis.line_index, self.encoding, offset)
    }

    pub(crate) fn range(&self, range: TextRange) -> Range {
        convert::range_in(&self.analysis.line_index, self.encoding, range)
    }

    pub(crate) fn solution(&self) -> Option<&Solution> {
        self.solution.as_deref().map(|solved| &*solved.solution)
    }

    pub(crate) fn edits(&self, edits: &[ide::TextEdit]) -> Vec<TextEdit> {
        edits
            .iter()
            .map(|edit| TextEdit::new(self.range(edit.range), edit.new_text.clone()))
            .collect()
    }

    pub(crate) fn workspace_edit(&self, edits: &[ide::TextEdit]) -> WorkspaceEdit {
        WorkspaceEdit {
            changes: Some(HashMap::from([(self.uri.clone(), self.edits(edits))])),
            ..WorkspaceEdit::default()
        }
    }
}
