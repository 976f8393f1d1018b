//! `textDocument/codeAction` and `codeAction/resolve`: the quick fixes and rewrites,
//! listed without their edits and resolved on exactly the version they were listed for.

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::*;

use super::Snapshot;
use crate::context::Context;
use serde::{Deserialize, Serialize};
use tower_lsp_server::jsonrpc::Error;

use cmg_ide::actions;

use super::refusal;
use crate::convert;
use crate::documents::Needs;
use crate::pool::on_pool;

pub(crate) fn register(capabilities: &mut ServerCapabilities) {
    capabilities.code_action_provider =
        Some(CodeActionProviderCapability::Options(CodeActionOptions {
            code_action_kinds: Some(vec![
                CodeActionKind::QUICKFIX,
                CodeActionKind::REFACTOR_REWRITE,
            ]),
            resolve_provider: Some(true),
            ..CodeActionOptions::default()
        }));
}

pub(crate) async fn handle(
    context: &Context,
    params: CodeActionParams,
) -> Result<Option<CodeActionResponse>> {
    let lazy = context.support().code_action_resolve;
    context
        .answer(&params.text_document.uri, "code actions", move |s| {
            Some(code_actions(s, params.range, lazy))
        })
        .await
}

/// Builds and checks the edit of the action picked, on the snapshot of exactly the
/// version it was listed for: a document changed since gets `ContentModified`, an
/// action that no longer checks out `RequestFailed`, never an edit for other text.
pub(crate) async fn handle_resolve(context: &Context, params: CodeAction) -> Result<CodeAction> {
    // An action that runs a command ("Find a longer game") has nothing to resolve.
    if params.data.is_none() && params.command.is_some() {
        return Ok(params);
    }
    let data = params
        .data
        .clone()
        .and_then(|data| serde_json::from_value::<ActionData>(data).ok())
        .ok_or_else(|| Error::invalid_params("cmg: a code action without its data"))?;
    let stale = || {
        let mut error = Error::content_modified();
        error.message = "cmg: the document changed since the action was listed".into();
        error
    };
    let snapshot = context
        .current(&data.uri, Needs::Analysis)
        .await?
        .ok_or_else(stale)?;
    if snapshot.version != data.version {
        return Err(stale());
    }
    on_pool("code action resolve", move || {
        resolve_code_action(&snapshot, &data.id)
    })
    .await?
}

/// What a listed action carries to `codeAction/resolve`: the document version it was
/// listed for and which action it is.
#[derive(Serialize, Deserialize)]
pub struct ActionData {
    pub uri: Uri,
    pub version: i32,
    #[serde(flatten)]
    pub id: actions::ActionId,
}

/// The actions at `range`. With `lazy` they are listed without edits, each carrying
/// `ActionData` for `codeAction/resolve`; without it (a client that cannot resolve)
/// the edits are built and checked now, for a bounded number of them.
pub fn code_actions(snapshot: &Snapshot, range: Range, lazy: bool) -> Vec<CodeActionOrCommand> {
    let range = convert::text_range(&snapshot.rope, snapshot.encoding, range);
    let (analysis, solution) = (&snapshot.analysis, snapshot.solution());
    if lazy {
        return actions::candidates(analysis, solution, range)
            .into_iter()
            .map(|candidate| {
                let data = ActionData {
                    uri: snapshot.uri.clone(),
                    version: snapshot.version,
                    id: candidate.id,
                };
                let mut action = code_action(
                    snapshot,
                    candidate.title,
                    candidate.kind,
                    candidate.fixes.as_ref(),
                    candidate.preferred,
                );
                action.data = serde_json::to_value(data).ok();
                CodeActionOrCommand::CodeAction(action)
            })
            .chain(longer_game_action(snapshot))
            .collect();
    }
    actions::code_actions(analysis, solution, range)
        .into_iter()
        .map(|action| CodeActionOrCommand::CodeAction(resolved(snapshot, action)))
        .chain(longer_game_action(snapshot))
        .collect()
}

/// "Find a longer game from this graph", last, wherever the cursor is.
fn longer_game_action(snapshot: &Snapshot) -> Option<CodeActionOrCommand> {
    crate::longer_game::action(&snapshot.analysis, &snapshot.uri, snapshot.version)
        .map(CodeActionOrCommand::CodeAction)
}

/// The action `id` of the snapshot with its checked edit, or an error saying that it no
/// longer applies (the client shows it; the document is left alone).
pub fn resolve_code_action(
    snapshot: &Snapshot,
    id: &actions::ActionId,
) -> std::result::Result<CodeAction, Error> {
    let action =
        actions::resolve(&snapshot.analysis, snapshot.solution(), id).ok_or_else(|| {
            refusal(
                "cmg: this action would change the graph or add a problem; it is not applied"
                    .to_owned(),
            )
        })?;
    Ok(resolved(snapshot, action))
}

fn resolved(snapshot: &Snapshot, action: actions::Action) -> CodeAction {
    let mut resolved = code_action(
        snapshot,
        action.title,
        action.kind,
        action.fixes.as_ref(),
        action.preferred,
    );
    resolved.edit = Some(snapshot.workspace_edit(&action.edits));
    resolved
}

fn code_action(
    snapshot: &Snapshot,
    title: String,
    kind: actions::ActionKind,
    fixes: Option<&cmg_core::model::Diagnostic>,
    preferred: bool,
) -> CodeAction {
    let diagnostics = fixes.map(|diagnostic| {
        vec![convert::diagnostic(
            &snapshot.uri,
            &snapshot.rope,
            snapshot.encoding,
            &snapshot.analysis.render(diagnostic),
        )]
    });
    CodeAction {
        title,
        kind: Some(match kind {
            actions::ActionKind::QuickFix => CodeActionKind::QUICKFIX,
            actions::ActionKind::Refactor => CodeActionKind::REFACTOR_REWRITE,
        }),
        diagnostics,
        is_preferred: preferred.then_some(true),
        ..CodeAction::default()
    }
}
