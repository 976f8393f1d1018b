//! `textDocument/inlayHint`: each node's outcome and the critical edges, in the
//! range the client shows.

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::*;

use super::Snapshot;
use crate::context::Context;
use cmg_ide::{self as ide, inlay_hints};

use crate::convert;

pub(crate) fn register(capabilities: &mut ServerCapabilities) {
    capabilities.inlay_hint_provider = Some(OneOf::Left(true));
}

/// At most this many inlay hints in one answer; clients ask for the visible range.
pub const MAX_INLAY_HINTS: usize = 5_000;

pub(crate) async fn handle(
    context: &Context,
    params: InlayHintParams,
) -> Result<Option<Vec<InlayHint>>> {
    context
        .answer_when(
            &params.text_document.uri,
            "inlay hints",
            context.outcome_needs(),
            move |s| Some(inlay_hints(s, params.range)),
        )
        .await
}

pub fn inlay_hints(snapshot: &Snapshot, range: Range) -> Vec<InlayHint> {
    let wanted = convert::text_range(&snapshot.rope, snapshot.encoding, range);
    let config = inlay_hints::InlayHintConfig {
        node_outcomes: snapshot.config.node_hints,
    };
    let mut hints = inlay_hints::inlay_hints_in(
        &snapshot.analysis,
        snapshot.solution(),
        &config,
        Some(wanted),
    );
    hints.extend(ide::critical_edges::critical_edge_hints(
        &snapshot.analysis,
        snapshot.solution.as_deref(),
    ));
    hints
        .into_iter()
        .filter(|hint| wanted.touches(hint.offset))
        .take(MAX_INLAY_HINTS)
        .map(|hint| InlayHint {
            position: snapshot.position(hint.offset),
            label: InlayHintLabel::String(hint.label),
            kind: None,
            text_edits: None,
            tooltip: hint.tooltip.map(InlayHintTooltip::String),
            padding_left: Some(hint.pad_left),
            padding_right: Some(hint.pad_right),
            data: None,
        })
        .collect()
}
