//! `textDocument/diagnostic`: a pull of one document's diagnostics (the reports and
//! their result ids are `crate::pull`'s; the workspace's pull is `crate::workspace`'s).

use tower_lsp_server::jsonrpc;
use tower_lsp_server::ls_types::*;

use crate::context::Context;
use crate::documents::Needs;
use crate::event_loop::Unanswerable;
use crate::pool::on_pool;
use crate::pull::{full, items, kept, result_id, superseded, unchanged, Channel};

/// The pull of diagnostics, for one document (here) and for the workspace
/// (`workspace::handle`).
pub(crate) fn register(capabilities: &mut ServerCapabilities) {
    capabilities.diagnostic_provider =
        Some(DiagnosticServerCapabilities::Options(DiagnosticOptions {
            identifier: Some("cmg".to_owned()),
            inter_file_dependencies: false,
            workspace_diagnostics: true,
            work_done_progress_options: WorkDoneProgressOptions::default(),
        }));
}

/// A pull of one document's diagnostics; see [`crate::pull`].
pub(crate) async fn handle(
    context: &Context,
    params: DocumentDiagnosticParams,
) -> jsonrpc::Result<DocumentDiagnosticReportResult> {
    let uri = params.text_document.uri;
    let snapshot = match context.current(&uri, Needs::Diagnostics).await {
        Ok(Some(snapshot)) => snapshot,
        // Not open: nothing to report here (closed files are in `workspace/diagnostic`).
        Ok(None) => return Ok(full(None, Vec::new())),
        Err(Unanswerable::Superseded) => return Err(superseded()),
        Err(Unanswerable::Failed) => return Ok(kept(params.previous_result_id)),
        Err(why) => return Err(why.into()),
    };
    let result_id = result_id(&snapshot);
    if params.previous_result_id.as_deref() == Some(result_id.as_str()) {
        return Ok(unchanged(result_id));
    }
    let version = snapshot.version;
    let items = on_pool("diagnostics", move || items(&snapshot)).await?;
    if context
        .pulled()
        .answered(&uri, Channel::Document, version, &items)
    {
        context.refresh_diagnostics();
    }
    Ok(full(Some(result_id), items))
}
