//! `workspace/executeCommand`: `cmg.showLine` (the outcome lens's optimal line, shown
//! as a message) and `cmg.findLongerGame` (see `longer_game`).

use serde_json::Value;
use tower_lsp_server::jsonrpc::{Error, Result};
use tower_lsp_server::ls_types::*;

use crate::longer_game;
use crate::server::Server;

/// The command behind the outcome code lens: shows the optimal line. Advertised here,
/// attached to the lens by `code_lens`, run by the server.
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

pub(crate) async fn handle(server: &Server, params: ExecuteCommandParams) -> Result<Option<Value>> {
    if params.command == longer_game::FIND_LONGER_COMMAND {
        return server.find_longer_game(params.arguments).await;
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
    server.client.show_message(MessageType::INFO, text).await;
    Ok(None)
}
