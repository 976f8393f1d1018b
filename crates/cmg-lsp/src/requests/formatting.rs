//! `textDocument/formatting`, `/rangeFormatting` and `/onTypeFormatting`: `cmg fmt`'s
//! layout, as one minimal edit or the edits of the statements touched.

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::*;

use super::Snapshot;
use crate::context::Context;
use ropey::Rope;

use cmg_ide as ide;

use crate::convert::{self, Encoding};

pub(crate) fn register(capabilities: &mut ServerCapabilities) {
    capabilities.document_formatting_provider = Some(OneOf::Left(true));
    capabilities.document_range_formatting_provider = Some(OneOf::Left(true));
    capabilities.document_on_type_formatting_provider = Some(DocumentOnTypeFormattingOptions {
        first_trigger_character: "]".to_owned(),
        more_trigger_character: Some(vec!["\n".to_owned()]),
    });
}

pub(crate) async fn handle(
    context: &Context,
    params: DocumentFormattingParams,
) -> Result<Option<Vec<TextEdit>>> {
    context
        .answer(&params.text_document.uri, "formatting", move |s| {
            Some(formatting(s))
        })
        .await
}

pub(crate) async fn handle_range(
    context: &Context,
    params: DocumentRangeFormattingParams,
) -> Result<Option<Vec<TextEdit>>> {
    context
        .answer(&params.text_document.uri, "range formatting", move |s| {
            Some(range_formatting(s, params.range))
        })
        .await
}

pub(crate) async fn handle_on_type(
    context: &Context,
    params: DocumentOnTypeFormattingParams,
) -> Result<Option<Vec<TextEdit>>> {
    let at = params.text_document_position;
    context
        .answer(&at.text_document.uri, "formatting as you type", move |s| {
            Some(on_type_formatting(s, at.position, &params.ch))
        })
        .await
}

pub fn formatting(snapshot: &Snapshot) -> Vec<TextEdit> {
    let analysis = &snapshot.analysis;
    let formatted = ide::format(&analysis.text, &analysis.parse);
    minimal_edit(
        &snapshot.rope,
        snapshot.encoding,
        &analysis.text,
        &formatted,
    )
    .into_iter()
    .collect()
}

/// The edit that formats the lines of the statements in `range`.
pub fn range_formatting(snapshot: &Snapshot, range: Range) -> Vec<TextEdit> {
    let analysis = &snapshot.analysis;
    let range = convert::text_range(&snapshot.rope, snapshot.encoding, range);
    let edit = ide::format_range(&analysis.text, &analysis.parse, range);
    snapshot.edits(edit.as_slice())
}

/// The edit that formats the statement just finished by typing `typed` at `position`.
pub fn on_type_formatting(snapshot: &Snapshot, position: Position, typed: &str) -> Vec<TextEdit> {
    let analysis = &snapshot.analysis;
    let Some(typed) = typed.chars().next() else {
        return Vec::new();
    };
    let edit = ide::format_on_type(
        &analysis.text,
        &analysis.parse,
        snapshot.offset(position),
        typed,
    );
    snapshot.edits(edit.as_slice())
}

/// One edit that turns `old` into `new`, trimmed to the part that differs, so that the
/// editor keeps the cursor and folds where nothing changed.
fn minimal_edit(rope: &Rope, encoding: Encoding, old: &str, new: &str) -> Option<TextEdit> {
    if old == new {
        return None;
    }
    let mut prefix = old
        .bytes()
        .zip(new.bytes())
        .take_while(|(a, b)| a == b)
        .count();
    while !old.is_char_boundary(prefix) || !new.is_char_boundary(prefix) {
        prefix -= 1;
    }
    let mut suffix = old[prefix..]
        .bytes()
        .rev()
        .zip(new[prefix..].bytes().rev())
        .take_while(|(a, b)| a == b)
        .count();
    while !old.is_char_boundary(old.len() - suffix) || !new.is_char_boundary(new.len() - suffix) {
        suffix -= 1;
    }
    let range = cmg_syntax::TextRange::new(prefix as u32, (old.len() - suffix) as u32);
    Some(TextEdit {
        range: convert::range(rope, encoding, range),
        new_text: new[prefix..new.len() - suffix].to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minimal_edit_keeps_common_prefix_and_suffix() {
        let old = "a é b";
        let new = "a éé b";
        let rope = Rope::from_str(old);
        let edit = minimal_edit(&rope, Encoding::Utf16, old, new).unwrap();
        assert_eq!(
            edit.range,
            Range::new(Position::new(0, 3), Position::new(0, 3))
        );
        assert_eq!(edit.new_text, "é");
        assert!(minimal_edit(&rope, Encoding::Utf16, old, old).is_none());
    }
}
