//! One file per request of the protocol: its registration (the capability it adds), its
//! handler (which asks the server's loop for the snapshot of its text and runs on the
//! blocking pool) and its conversion of the `ide` result into protocol types. The
//! diagnostics pulls live in `pull` and `workspace`, the game view's requests in
//! `scene`.

use std::collections::HashMap;
use std::sync::Arc;

use ropey::Rope;
use tower_lsp_server::jsonrpc::{Error, ErrorCode};
use tower_lsp_server::ls_types::*;

use cmg_core::analysis::Analysis;
use cmg_core::explain::Solved;
use cmg_ide as ide;
use cmg_solve::Solution;
use cmg_syntax::TextRange;

use super::config::Config;
use super::convert::{self, Encoding};
use super::documents::{Analysed, SolveState};

pub mod code_actions;
pub mod code_lens;
pub mod commands;
pub mod completion;
pub mod definition;
pub mod document_symbols;
pub mod folding;
pub mod formatting;
pub mod highlights;
pub mod hover;
pub mod inlay_hints;
pub mod references;
pub mod rename;
pub mod selection_range;
pub mod semantic_tokens;

/// Every request's capability, in the order the server lists them.
pub(crate) fn register(capabilities: &mut ServerCapabilities) {
    formatting::register(capabilities);
    selection_range::register(capabilities);
    hover::register(capabilities);
    inlay_hints::register(capabilities);
    code_lens::register(capabilities);
    code_actions::register(capabilities);
    semantic_tokens::register(capabilities);
    definition::register(capabilities);
    references::register(capabilities);
    highlights::register(capabilities);
    rename::register(capabilities);
    document_symbols::register(capabilities);
    completion::register(capabilities);
    folding::register(capabilities);
    commands::register(capabilities);
}

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

/// An error the user should read, such as why a rename is refused.
pub(crate) fn refusal(message: String) -> Error {
    Error {
        code: ErrorCode::ServerError(-32803),
        message: message.into(),
        data: None,
    }
}
