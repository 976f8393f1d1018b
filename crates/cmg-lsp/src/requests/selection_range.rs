//! `textDocument/selectionRange`: expand the selection from a token to its statement.

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::*;

use super::Snapshot;
use crate::context::Context;
use cmg_ide as ide;

pub(crate) fn register(capabilities: &mut ServerCapabilities) {
    capabilities.selection_range_provider = Some(SelectionRangeProviderCapability::Simple(true));
}

pub(crate) async fn handle(
    context: &Context,
    params: SelectionRangeParams,
) -> Result<Option<Vec<SelectionRange>>> {
    context
        .answer(&params.text_document.uri, "selection ranges", move |s| {
            Some(selection_ranges(s, &params.positions))
        })
        .await
}

/// The selection ranges at each position, innermost first, as the nested list the
/// protocol wants.
pub fn selection_ranges(snapshot: &Snapshot, positions: &[Position]) -> Vec<SelectionRange> {
    let analysis = &snapshot.analysis;
    positions
        .iter()
        .map(|&position| {
            let ranges = ide::selection_range::selection_ranges(
                &analysis.text,
                &analysis.parse,
                snapshot.offset(position),
            );
            let mut nested: Option<SelectionRange> = None;
            for range in ranges.into_iter().rev() {
                nested = Some(SelectionRange {
                    range: snapshot.range(range),
                    parent: nested.map(Box::new),
                });
            }
            nested.unwrap_or(SelectionRange {
                range: Range::new(position, position),
                parent: None,
            })
        })
        .collect()
}
