//! `workspace/executeCommand`: `cmg.showLine` (the outcome lens's optimal line, shown
//! as a message) and `cmg.findLongerGame` (see `longer_game`).

use serde_json::Value;
use tower_lsp_server::jsonrpc::{Error, Result};
use tower_lsp_server::ls_types::*;

use crate::context::Context;
use crate::documents::Needs;
use crate::longer_game;

/// The command behind the outcome code lens: shows the optimal line. Advertised here,
/// attached to the lens by `code_lens`, and run by `handle` here as a message to the
/// client.
pub const SHOW_LINE_COMMAND: &str = "cmg.showLine";

pub(crate) fn register(capabilities: &mut ServerCapabilities) {
    capabilities.execute_command_provider = Some(ExecuteCommandOptions {
        commands: vec![
            SHOW_LINE_COMMAND.to_owned(),
            longer_game::FIND_LONGER_COMMAND.to_owned(),
        ],
        ..ExecuteCommandOptions::default()
    });
}

pub(crate) async fn handle(
    context: &Context,
    params: ExecuteCommandParams,
) -> Result<Option<Value>> {
    if params.command == longer_game::FIND_LONGER_COMMAND {
        return find_longer_game(context, params.arguments).await;
    }
    if params.command != SHOW_LINE_COMMAND {
        return Err(Error::invalid_params(format!(
            "unknown command {}",
            params.command
        )));
    }
    let text = params
        .arguments
        .first()
        .and_then(|argument| argument.get("text"))
        .and_then(Value::as_str)
        .unwrap_or("no optimal line")
        .to_owned();
    context.client.show_message(MessageType::INFO, text).await;
    Ok(None)
}

/// `cmg.findLongerGame` on the version the action was listed for
/// ([`longer_game::run`]).
async fn find_longer_game(context: &Context, arguments: Vec<Value>) -> Result<Option<Value>> {
    let target: longer_game::Target = arguments
        .into_iter()
        .next()
        .and_then(|argument| serde_json::from_value(argument).ok())
        .ok_or_else(|| Error::invalid_params("cmg.findLongerGame needs {uri, version}"))?;
    let Some(snapshot) = context.current(&target.uri, Needs::Analysis).await? else {
        return Ok(None);
    };
    if snapshot.version != target.version {
        let mut error = Error::content_modified();
        error.message = "cmg: the document changed since the action was listed".into();
        return Err(error);
    }
    longer_game::run(
        &context.client,
        &context.searches,
        &snapshot,
        target,
        context.support().work_done_progress,
    )
    .await
}
