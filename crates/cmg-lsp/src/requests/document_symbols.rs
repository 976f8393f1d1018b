//! `textDocument/documentSymbol`: the outline, one entry per labelled or special node.

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::*;

use super::Snapshot;
use crate::context::Context;
use cmg_ide as ide;

pub(crate) fn register(capabilities: &mut ServerCapabilities) {
    capabilities.document_symbol_provider = Some(OneOf::Left(true));
}

/// At most this many symbols in the outline of a file.
pub const MAX_SYMBOLS: usize = 10_000;

pub(crate) async fn handle(
    context: &Context,
    params: DocumentSymbolParams,
) -> Result<Option<DocumentSymbolResponse>> {
    context
        .answer(&params.text_document.uri, "document symbols", move |s| {
            Some(DocumentSymbolResponse::Nested(document_symbols(s)))
        })
        .await
}

pub fn document_symbols(snapshot: &Snapshot) -> Vec<DocumentSymbol> {
    ide::symbols::document_symbols(&snapshot.analysis)
        .into_iter()
        .take(MAX_SYMBOLS)
        .map(|symbol| {
            #[allow(deprecated)] // `deprecated` is a required field of the struct.
            DocumentSymbol {
                name: symbol.name,
                detail: symbol.detail,
                kind: SymbolKind::CONSTANT,
                tags: None,
                deprecated: None,
                range: snapshot.range(symbol.range),
                selection_range: snapshot.range(symbol.selection_range),
                children: None,
            }
        })
        .collect()
}
