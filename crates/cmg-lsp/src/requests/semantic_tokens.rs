//! `textDocument/semanticTokens/full`, `/full/delta` and `/range`: the colours of node
//! ids, the special nodes and the outcome words, by the legend in `legend.rs`.

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::*;

use super::Snapshot;
use crate::context::Context;
use cmg_ide::semantic_tokens;

use crate::convert;
use crate::legend::{semantic_tokens_legend, token_encoding};

pub(crate) fn register(capabilities: &mut ServerCapabilities) {
    capabilities.semantic_tokens_provider = Some(
        SemanticTokensServerCapabilities::SemanticTokensOptions(SemanticTokensOptions {
            legend: semantic_tokens_legend(),
            full: Some(SemanticTokensFullOptions::Delta { delta: Some(true) }),
            range: Some(true),
            ..SemanticTokensOptions::default()
        }),
    );
}

/// At most this many semantic tokens in one answer: a huge file is coloured from its
/// start (and fully through `semanticTokens/range`, which clients use for what is
/// visible).
pub const MAX_SEMANTIC_TOKENS: usize = 100_000;

pub(crate) async fn handle_full(
    context: &Context,
    params: SemanticTokensParams,
) -> Result<Option<SemanticTokensResult>> {
    let uri = params.text_document.uri;
    let tokens = context
        .answer(&uri, "semantic tokens", move |s| Some(semantic_tokens(s)))
        .await?;
    Ok(tokens.map(|data| SemanticTokensResult::Tokens(context.tokens().remember(&uri, data))))
}

pub(crate) async fn handle_full_delta(
    context: &Context,
    params: SemanticTokensDeltaParams,
) -> Result<Option<SemanticTokensFullDeltaResult>> {
    let uri = params.text_document.uri;
    let Some(data) = context
        .answer(&uri, "semantic tokens", move |s| Some(semantic_tokens(s)))
        .await?
    else {
        return Ok(None);
    };
    let mut cache = context.tokens();
    let previous = cache
        .previous(&uri, &params.previous_result_id)
        .map(|sent| token_delta(sent, &data));
    let tokens = cache.remember(&uri, data);
    Ok(Some(match previous {
        Some(edits) => SemanticTokensFullDeltaResult::TokensDelta(SemanticTokensDelta {
            result_id: tokens.result_id,
            edits,
        }),
        None => SemanticTokensFullDeltaResult::Tokens(tokens),
    }))
}

pub(crate) async fn handle_range(
    context: &Context,
    params: SemanticTokensRangeParams,
) -> Result<Option<SemanticTokensRangeResult>> {
    context
        .answer(&params.text_document.uri, "semantic tokens", move |s| {
            Some(SemanticTokensRangeResult::Tokens(SemanticTokens {
                result_id: None,
                data: semantic_tokens_in(s, Some(params.range)),
            }))
        })
        .await
}

/// The whole file's semantic tokens, up to [`MAX_SEMANTIC_TOKENS`].
pub fn semantic_tokens(snapshot: &Snapshot) -> Vec<SemanticToken> {
    semantic_tokens_in(snapshot, None)
}

/// The semantic tokens inside `range` (the whole file for `None`), up to
/// [`MAX_SEMANTIC_TOKENS`], relative-encoded as the protocol wants.
pub fn semantic_tokens_in(snapshot: &Snapshot, range: Option<Range>) -> Vec<SemanticToken> {
    let wanted = range.map(|range| convert::text_range(&snapshot.rope, snapshot.encoding, range));
    let mut data = Vec::new();
    let mut previous = Position::new(0, 0);
    for token in semantic_tokens::semantic_tokens_in(&snapshot.analysis, wanted) {
        if data.len() == MAX_SEMANTIC_TOKENS {
            break;
        }
        let Some((token_type, modifiers)) = token_encoding(token.kind) else {
            continue;
        };
        let range = snapshot.range(token.range);
        if range.start.line != range.end.line || range.end.character <= range.start.character {
            continue;
        }
        let delta_line = range.start.line - previous.line;
        let delta_start = if delta_line == 0 {
            range.start.character - previous.character
        } else {
            range.start.character
        };
        data.push(SemanticToken {
            delta_line,
            delta_start,
            length: range.end.character - range.start.character,
            token_type,
            token_modifiers_bitset: modifiers,
        });
        previous = range.start;
    }
    data
}

/// The edit that turns the tokens last sent into `new`: one replacement of the part
/// between their common start and common end, counted in integers as the protocol
/// wants (five per token); no edit when nothing changed.
pub fn token_delta(old: &[SemanticToken], new: &[SemanticToken]) -> Vec<SemanticTokensEdit> {
    let (prefix, suffix) = cmg_syntax::common_ends(old, new);
    let deleted = old.len() - prefix - suffix;
    let inserted = &new[prefix..new.len() - suffix];
    if deleted == 0 && inserted.is_empty() {
        return Vec::new();
    }
    vec![SemanticTokensEdit {
        start: (prefix * 5) as u32,
        delete_count: (deleted * 5) as u32,
        data: Some(inserted.to_vec()),
    }]
}
