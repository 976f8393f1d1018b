//! `textDocument/documentHighlight`: the mentions of the node under the cursor, its
//! declarations as writes.

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::*;

use super::Snapshot;
use crate::context::Context;
use cmg_ide::navigation;

use super::references::{cut_note, tell_cut, Cut};

pub(crate) fn register(capabilities: &mut ServerCapabilities) {
    capabilities.document_highlight_provider = Some(OneOf::Left(true));
}

pub(crate) async fn handle(
    context: &Context,
    params: DocumentHighlightParams,
) -> Result<Option<Vec<DocumentHighlight>>> {
    let at = params.text_document_position_params;
    let cut = context
        .answer(&at.text_document.uri, "highlights", move |s| {
            Some(highlights(s, at.position))
        })
        .await?;
    Ok(tell_cut(context, cut, MessageType::LOG).await)
}

pub fn highlights(snapshot: &Snapshot, position: Position) -> Cut<DocumentHighlight> {
    let offset = snapshot.offset(position);
    let highlights = navigation::highlights(&snapshot.analysis, offset);
    Cut {
        note: cut_note(snapshot, offset, highlights.len(), false, "mentions"),
        items: highlights
            .into_iter()
            .map(|highlight| DocumentHighlight {
                range: snapshot.range(highlight.range),
                kind: Some(match highlight.kind {
                    navigation::HighlightKind::Read => DocumentHighlightKind::READ,
                    navigation::HighlightKind::Write => DocumentHighlightKind::WRITE,
                }),
            })
            .collect(),
    }
}
