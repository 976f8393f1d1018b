//! One file per request of the protocol: its registration (the capability it adds), its
//! handler (which asks the [`Context`](crate::context::Context) for the snapshot of its
//! text and runs on the blocking pool) and its conversion of the `ide` result into
//! protocol types; and here, the table of capabilities the server advertises, made
//! from every request's registration. The workspace's pull of diagnostics lives in
//! `workspace`, the game view's requests in `scene`.

use tower_lsp_server::jsonrpc::{Error, ErrorCode};
use tower_lsp_server::ls_types::*;

use crate::convert::Encoding;
pub use crate::snapshot::Snapshot;

pub mod code_actions;
pub mod code_lens;
pub mod commands;
pub mod completion;
pub mod definition;
pub mod diagnostic;
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

/// What the server advertises to the client: the text synchronisation, the workspace
/// folders, and every request's capability.
pub fn capabilities(encoding: Encoding) -> ServerCapabilities {
    let mut capabilities = ServerCapabilities {
        position_encoding: Some(encoding.kind()),
        text_document_sync: Some(TextDocumentSyncCapability::Options(
            TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(TextDocumentSyncKind::INCREMENTAL),
                ..TextDocumentSyncOptions::default()
            },
        )),
        workspace: Some(WorkspaceServerCapabilities {
            workspace_folders: Some(WorkspaceFoldersServerCapabilities {
                supported: Some(true),
                change_notifications: Some(OneOf::Left(true)),
            }),
            file_operations: None,
        }),
        ..ServerCapabilities::default()
    };
    register(&mut capabilities);
    capabilities
}

/// Every request's capability, in the order the server lists them.
fn register(capabilities: &mut ServerCapabilities) {
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
    diagnostic::register(capabilities);
}

/// An error the user should read, such as why a rename is refused.
pub(crate) fn refusal(message: String) -> Error {
    Error {
        code: ErrorCode::ServerError(-32803),
        message: message.into(),
        data: None,
    }
}
