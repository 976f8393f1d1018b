//! `textDocument/prepareRename` and `/rename`: renumber a node everywhere, refused with
//! a reason the user reads when it would merge two nodes or touch a special one.

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::*;

use super::Snapshot;
use crate::context::Context;
use tower_lsp_server::jsonrpc::Error;

use cmg_ide as ide;

use super::refusal;
use crate::documents::Needs;
use crate::pool::on_pool;

pub(crate) fn register(capabilities: &mut ServerCapabilities) {
    capabilities.rename_provider = Some(OneOf::Right(RenameOptions {
        prepare_provider: Some(true),
        work_done_progress_options: WorkDoneProgressOptions::default(),
    }));
}

pub(crate) async fn handle_prepare(
    context: &Context,
    params: TextDocumentPositionParams,
) -> Result<Option<PrepareRenameResponse>> {
    let Some(snapshot) = context
        .current(&params.text_document.uri, Needs::Analysis)
        .await?
    else {
        return Ok(None);
    };
    on_pool("rename", move || prepare_rename(&snapshot, params.position))
        .await?
        .map(Some)
}

pub(crate) async fn handle(
    context: &Context,
    params: RenameParams,
) -> Result<Option<WorkspaceEdit>> {
    let at = params.text_document_position;
    let Some(snapshot) = context
        .current(&at.text_document.uri, Needs::Analysis)
        .await?
    else {
        return Ok(None);
    };
    on_pool("rename", move || {
        rename(&snapshot, at.position, &params.new_name)
    })
    .await?
    .map(Some)
}

pub fn prepare_rename(
    snapshot: &Snapshot,
    position: Position,
) -> std::result::Result<PrepareRenameResponse, Error> {
    ide::rename::prepare_rename(&snapshot.analysis, snapshot.offset(position))
        .map(|range| PrepareRenameResponse::Range(snapshot.range(range)))
        .map_err(refusal)
}

pub fn rename(
    snapshot: &Snapshot,
    position: Position,
    new_name: &str,
) -> std::result::Result<WorkspaceEdit, Error> {
    ide::rename::rename(&snapshot.analysis, snapshot.offset(position), new_name)
        .map(|edits| snapshot.workspace_edit(&edits))
        .map_err(refusal)
}
