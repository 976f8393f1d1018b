//! `textDocument/references`: every mention of a node, cut at
//! `navigation::MAX_REFERENCES` with a message saying so.

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::*;

use super::Snapshot;
use crate::context::Context;
use cmg_ide::navigation;

pub(crate) fn register(capabilities: &mut ServerCapabilities) {
    capabilities.references_provider = Some(OneOf::Left(true));
}

pub(crate) async fn handle(
    context: &Context,
    params: ReferenceParams,
) -> Result<Option<Vec<Location>>> {
    let at = params.text_document_position;
    let include = params.context.include_declaration;
    let cut = context
        .answer(&at.text_document.uri, "references", move |s| {
            Some(references(s, at.position, include))
        })
        .await?;
    Ok(tell_cut(context, cut, MessageType::WARNING).await)
}

/// A list cut at [`navigation::MAX_REFERENCES`], which the protocol has no field to
/// say: the server tells the user in a message instead (see `docs/server.md`).
pub struct Cut<T> {
    pub items: Vec<T>,
    /// The message saying how many there are and how many are shown, if some are left
    /// out.
    pub note: Option<String>,
}

/// Tells the user that a list was cut, once per request: in a message window for
/// what they asked for (`references`), in the log for what the editor asks on its
/// own whenever the cursor rests (`highlights`), where a window would pop up at
/// every pause.
pub(super) async fn tell_cut<T>(
    context: &Context,
    cut: Option<Cut<T>>,
    shown: MessageType,
) -> Option<Vec<T>> {
    let cut = cut?;
    if let Some(note) = cut.note {
        if shown == MessageType::LOG {
            context.client.log_message(MessageType::WARNING, note).await;
        } else {
            context.client.show_message(shown, note).await;
        }
    }
    Some(cut.items)
}

/// The note for a list of `shown` items out of the mentions there are.
pub(super) fn cut_note(
    snapshot: &Snapshot,
    offset: u32,
    shown: usize,
    without_declaration: bool,
    what: &str,
) -> Option<String> {
    if shown < navigation::MAX_REFERENCES {
        return None;
    }
    let analysis = &snapshot.analysis;
    let declaration = without_declaration && navigation::definition(analysis, offset).is_some();
    let total = navigation::mention_count(analysis, offset) - usize::from(declaration);
    (total > shown).then(|| {
        format!("cmg: node has {total} {what}; only the {shown} nearest the cursor are shown")
    })
}

pub fn references(
    snapshot: &Snapshot,
    position: Position,
    include_declaration: bool,
) -> Cut<Location> {
    let offset = snapshot.offset(position);
    let ranges = navigation::references(&snapshot.analysis, offset, include_declaration);
    Cut {
        note: cut_note(
            snapshot,
            offset,
            ranges.len(),
            !include_declaration,
            "references",
        ),
        items: ranges
            .into_iter()
            .map(|range| Location::new(snapshot.uri.clone(), snapshot.range(range)))
            .collect(),
    }
}
