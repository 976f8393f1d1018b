//! What the server advertises to the client, and the legend of its semantic tokens.

use tower_lsp_server::ls_types::*;

use cmg_ide::semantic_tokens::TokenKind;

use super::convert::Encoding;
use super::handlers::SHOW_LINE_COMMAND;

pub fn capabilities(encoding: Encoding) -> ServerCapabilities {
    ServerCapabilities {
        position_encoding: Some(encoding.kind()),
        text_document_sync: Some(TextDocumentSyncCapability::Options(
            TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(TextDocumentSyncKind::INCREMENTAL),
                ..TextDocumentSyncOptions::default()
            },
        )),
        document_formatting_provider: Some(OneOf::Left(true)),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        inlay_hint_provider: Some(OneOf::Left(true)),
        code_lens_provider: Some(CodeLensOptions {
            resolve_provider: Some(false),
        }),
        code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
            code_action_kinds: Some(vec![
                CodeActionKind::QUICKFIX,
                CodeActionKind::REFACTOR_REWRITE,
            ]),
            resolve_provider: Some(true),
            ..CodeActionOptions::default()
        })),
        semantic_tokens_provider: Some(SemanticTokensServerCapabilities::SemanticTokensOptions(
            SemanticTokensOptions {
                legend: semantic_tokens_legend(),
                full: Some(SemanticTokensFullOptions::Delta { delta: Some(true) }),
                range: Some(true),
                ..SemanticTokensOptions::default()
            },
        )),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        document_highlight_provider: Some(OneOf::Left(true)),
        rename_provider: Some(OneOf::Right(RenameOptions {
            prepare_provider: Some(true),
            work_done_progress_options: WorkDoneProgressOptions::default(),
        })),
        document_symbol_provider: Some(OneOf::Left(true)),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec![
                "-".to_owned(),
                "{".to_owned(),
                "[".to_owned(),
                ",".to_owned(),
            ]),
            ..CompletionOptions::default()
        }),
        folding_range_provider: Some(FoldingRangeProviderCapability::Simple(true)),
        execute_command_provider: Some(ExecuteCommandOptions {
            commands: vec![SHOW_LINE_COMMAND.to_owned()],
            ..ExecuteCommandOptions::default()
        }),
        ..ServerCapabilities::default()
    }
}

/// How each token kind is coloured: its type and the modifier naming its role, if any.
/// The legend and the indices of every token are both derived from this one table, so
/// they cannot drift apart. Node ids are `number`, the three special nodes
/// `enumMember` with their role; the outcome words are keywords with `outcome`.
/// Punctuation is left to the grammar.
const TOKEN_STYLES: &[(TokenKind, SemanticTokenType, Option<&str>)] = &[
    (TokenKind::Node, SemanticTokenType::NUMBER, None),
    (
        TokenKind::Hole,
        SemanticTokenType::ENUM_MEMBER,
        Some("hole"),
    ),
    (
        TokenKind::MouseStart,
        SemanticTokenType::ENUM_MEMBER,
        Some("mouseStart"),
    ),
    (
        TokenKind::CatStart,
        SemanticTokenType::ENUM_MEMBER,
        Some("catStart"),
    ),
    (TokenKind::Keyword, SemanticTokenType::KEYWORD, None),
    (
        TokenKind::Outcome,
        SemanticTokenType::KEYWORD,
        Some("outcome"),
    ),
    (TokenKind::String, SemanticTokenType::STRING, None),
    (TokenKind::Comment, SemanticTokenType::COMMENT, None),
    (TokenKind::Operator, SemanticTokenType::OPERATOR, None),
];

fn legend_types() -> Vec<SemanticTokenType> {
    let mut types: Vec<SemanticTokenType> = Vec::new();
    for (_, token_type, _) in TOKEN_STYLES {
        if !types.contains(token_type) {
            types.push(token_type.clone());
        }
    }
    types
}

fn legend_modifiers() -> Vec<&'static str> {
    let mut modifiers = Vec::new();
    for modifier in TOKEN_STYLES.iter().filter_map(|(_, _, modifier)| *modifier) {
        if !modifiers.contains(&modifier) {
            modifiers.push(modifier);
        }
    }
    modifiers
}

pub fn semantic_tokens_legend() -> SemanticTokensLegend {
    SemanticTokensLegend {
        token_types: legend_types(),
        token_modifiers: legend_modifiers()
            .into_iter()
            .map(SemanticTokenModifier::new)
            .collect(),
    }
}

/// The legend's type index and modifier bits of a token kind; `None` for kinds the
/// server leaves to the grammar.
pub fn token_encoding(kind: TokenKind) -> Option<(u32, u32)> {
    let (_, token_type, modifier) = TOKEN_STYLES.iter().find(|(k, _, _)| *k == kind)?;
    let index = legend_types().iter().position(|t| t == token_type)?;
    let bits = match modifier {
        Some(modifier) => 1 << legend_modifiers().iter().position(|m| m == modifier)?,
        None => 0,
    };
    Some((index as u32, bits))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_but_punctuation_is_in_the_legend() {
        let legend = semantic_tokens_legend();
        for &kind in TokenKind::ALL {
            let encoding = token_encoding(kind);
            assert_eq!(
                encoding.is_none(),
                kind == TokenKind::Punctuation,
                "{kind:?}"
            );
            if let Some((index, bits)) = encoding {
                assert!((index as usize) < legend.token_types.len());
                assert!(bits < 1 << legend.token_modifiers.len());
            }
        }
        assert_eq!(token_encoding(TokenKind::CatStart), Some((1, 1 << 2)));
        assert_eq!(token_encoding(TokenKind::Outcome), Some((2, 1 << 3)));
    }
}
