//! `textDocument/definition`: from a mention of a node to its declaration.

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::*;

use super::Snapshot;
use crate::context::Context;
use cmg_ide::navigation;

pub(crate) fn register(capabilities: &mut ServerCapabilities) {
    capabilities.definition_provider = Some(OneOf::Left(true));
}

pub(crate) async fn handle(
    context: &Context,
    params: GotoDefinitionParams,
) -> Result<Option<GotoDefinitionResponse>> {
    let at = params.text_document_position_params;
    context
        .answer(&at.text_document.uri, "definition", move |s| {
            definition(s, at.position)
        })
        .await
}

pub fn definition(snapshot: &Snapshot, position: Position) -> Option<GotoDefinitionResponse> {
    let target = navigation::definition(&snapshot.analysis, snapshot.offset(position))?;
    Some(GotoDefinitionResponse::Scalar(Location::new(
        snapshot.uri.clone(),
        snapshot.range(target.focus_range),
    )))
}
