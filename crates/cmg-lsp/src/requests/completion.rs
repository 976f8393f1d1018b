//! `textDocument/completion`: node ids, keywords and outcome words.

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::*;

use super::Snapshot;
use crate::context::Context;
use cmg_ide::completion;

pub(crate) fn register(capabilities: &mut ServerCapabilities) {
    capabilities.completion_provider = Some(CompletionOptions {
        trigger_characters: Some(vec![
            "-".to_owned(),
            "{".to_owned(),
            "[".to_owned(),
            ",".to_owned(),
        ]),
        ..CompletionOptions::default()
    });
}

pub(crate) async fn handle(
    context: &Context,
    params: CompletionParams,
) -> Result<Option<CompletionResponse>> {
    let at = params.text_document_position;
    context
        .answer(&at.text_document.uri, "completion", move |s| {
            Some(completions(s, at.position))
        })
        .await
}

/// The list says when it is cut, so that the client asks again as the user types.
pub fn completions(snapshot: &Snapshot, position: Position) -> CompletionResponse {
    let list = completion::completion_list(&snapshot.analysis, snapshot.offset(position));
    let items = list
        .items
        .into_iter()
        .map(|item| CompletionItem {
            label: item.label,
            kind: Some(match item.kind {
                completion::CompletionKind::Node => CompletionItemKind::VALUE,
                completion::CompletionKind::Keyword => CompletionItemKind::KEYWORD,
                completion::CompletionKind::Outcome => CompletionItemKind::ENUM_MEMBER,
            }),
            detail: item.detail,
            ..CompletionItem::default()
        })
        .collect();
    CompletionResponse::List(CompletionList {
        is_incomplete: list.is_incomplete,
        items,
    })
}
