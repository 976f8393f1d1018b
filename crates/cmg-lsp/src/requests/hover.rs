//! `textDocument/hover`: what a node, an edge or a keyword means in this game.

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::*;

use super::Snapshot;
use crate::context::Context;
use cmg_ide as ide;

pub(crate) fn register(capabilities: &mut ServerCapabilities) {
    capabilities.hover_provider = Some(HoverProviderCapability::Simple(true));
}

pub(crate) async fn handle(context: &Context, params: HoverParams) -> Result<Option<Hover>> {
    let at = params.text_document_position_params;
    context
        .answer(&at.text_document.uri, "hover", move |s| {
            hover(s, at.position)
        })
        .await
}

pub fn hover(snapshot: &Snapshot, position: Position) -> Option<Hover> {
    let hover = ide::hover::hover(
        &snapshot.analysis,
        snapshot.solution.as_deref(),
        snapshot.offset(position),
    )?;
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: hover.markdown,
        }),
        range: Some(snapshot.range(hover.range)),
    })
}
