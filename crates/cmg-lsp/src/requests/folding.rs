//! `textDocument/foldingRange`: multi-line statements and runs of comments.

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::*;

use super::Snapshot;
use crate::context::Context;
use cmg_ide::folding;

pub(crate) fn register(capabilities: &mut ServerCapabilities) {
    capabilities.folding_range_provider = Some(FoldingRangeProviderCapability::Simple(true));
}

pub(crate) async fn handle(
    context: &Context,
    params: FoldingRangeParams,
) -> Result<Option<Vec<FoldingRange>>> {
    context
        .answer(&params.text_document.uri, "folding", move |s| {
            Some(folding_ranges(s))
        })
        .await
}

pub fn folding_ranges(snapshot: &Snapshot) -> Vec<FoldingRange> {
    folding::folding_ranges(&snapshot.analysis)
        .into_iter()
        .map(|fold| {
            let range = snapshot.range(fold.range);
            FoldingRange {
                start_line: range.start.line,
                start_character: None,
                end_line: range.end.line,
                end_character: None,
                kind: Some(match fold.kind {
                    folding::FoldKind::Region => FoldingRangeKind::Region,
                    folding::FoldKind::Comment => FoldingRangeKind::Comment,
                }),
                collapsed_text: None,
            }
        })
        .filter(|fold| fold.end_line > fold.start_line)
        .collect()
}
