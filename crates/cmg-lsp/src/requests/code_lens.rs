//! `textDocument/codeLens`: the outcome above the graph, with its optimal line and the
//! "why" lens that opens the strategy tree.

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::*;

use super::Snapshot;
use crate::context::Context;
use serde_json::json;

/// The command behind the "why" lens: the VS Code extension's own, which opens the game
/// view with the whole strategy tree in its panel (the server does not run it).
pub const OPEN_VIEW_COMMAND: &str = "cmg.openGameView";

pub(crate) fn register(capabilities: &mut ServerCapabilities) {
    capabilities.code_lens_provider = Some(CodeLensOptions {
        resolve_provider: Some(false),
    });
}

pub(crate) async fn handle(
    context: &Context,
    params: CodeLensParams,
) -> Result<Option<Vec<CodeLens>>> {
    context
        .answer_when(
            &params.text_document.uri,
            "code lens",
            context.outcome_needs(),
            move |s| Some(code_lenses(s)),
        )
        .await
}

pub fn code_lenses(snapshot: &Snapshot) -> Vec<CodeLens> {
    let lenses = cmg_ide::code_lens::code_lenses(&snapshot.analysis, snapshot.solution());
    // The "why" lens sits beside the outcome lens, on the same range.
    let why = lenses.first().map(|lens| CodeLens {
        range: snapshot.range(lens.range),
        command: Some(Command {
            title: "why: the strategy tree".to_owned(),
            command: OPEN_VIEW_COMMAND.to_owned(),
            arguments: None,
        }),
        data: None,
    });
    lenses
        .into_iter()
        .map(|lens| {
            let steps: Vec<String> = lens
                .line
                .iter()
                .map(|[m, c]| format!("({m}, {c})"))
                .collect();
            let text = format!("Optimal line as (mouse, cat): {}", steps.join(" → "));
            CodeLens {
                range: snapshot.range(lens.range),
                command: Some(Command {
                    title: lens.title,
                    command: super::commands::SHOW_LINE_COMMAND.to_owned(),
                    arguments: Some(vec![json!({"text": text, "line": lens.line})]),
                }),
                data: None,
            }
        })
        .chain(why)
        .collect()
}
