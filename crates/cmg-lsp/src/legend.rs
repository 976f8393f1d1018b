//! The legend of the semantic tokens: how each token kind is coloured, and its
//! encoding in the protocol.

use tower_lsp_server::ls_types::*;

use cmg_ide::semantic_tokens::TokenKind;

/// How one token kind is coloured: its semantic token type, the modifier naming its
/// role (with what the modifier means), and the TextMate scope a theme without semantic
/// colouring falls back to.
pub struct TokenStyle {
    pub kind: TokenKind,
    pub token_type: SemanticTokenType,
    pub modifier: Option<(&'static str, &'static str)>,
    pub scope: &'static str,
}

/// How each token kind is coloured. The legend, the indices of every token and the
/// editor's `semanticTokenModifiers`/`semanticTokenScopes` (written by `cargo xtask
/// codegen`) all come from this one table, so they cannot drift apart. Node ids are
/// `number`, the three special nodes `enumMember` with their role, mapped to scopes
/// every theme colours distinctly; the outcome words are keywords with `outcome`.
/// Punctuation is left to the grammar.
pub const TOKEN_STYLES: &[TokenStyle] = &[
    TokenStyle {
        kind: TokenKind::Node,
        token_type: SemanticTokenType::NUMBER,
        modifier: None,
        scope: "constant.numeric.node.cmg",
    },
    TokenStyle {
        kind: TokenKind::Hole,
        token_type: SemanticTokenType::ENUM_MEMBER,
        modifier: Some(("hole", "Node 0, the hole the mouse runs to.")),
        scope: "keyword.control.hole.cmg",
    },
    TokenStyle {
        kind: TokenKind::MouseStart,
        token_type: SemanticTokenType::ENUM_MEMBER,
        modifier: Some(("mouseStart", "Node 1, where the mouse starts.")),
        scope: "entity.name.function.mouse.cmg",
    },
    TokenStyle {
        kind: TokenKind::CatStart,
        token_type: SemanticTokenType::ENUM_MEMBER,
        modifier: Some(("catStart", "Node 2, where the cat starts.")),
        scope: "entity.name.type.cat.cmg",
    },
    TokenStyle {
        kind: TokenKind::Keyword,
        token_type: SemanticTokenType::KEYWORD,
        modifier: None,
        scope: "keyword.other.cmg",
    },
    TokenStyle {
        kind: TokenKind::Outcome,
        token_type: SemanticTokenType::KEYWORD,
        modifier: Some((
            "outcome",
            "An outcome word after `expect`: mouse, cat or draw.",
        )),
        scope: "constant.language.outcome.cmg",
    },
    TokenStyle {
        kind: TokenKind::String,
        token_type: SemanticTokenType::STRING,
        modifier: None,
        scope: "string.quoted.double.cmg",
    },
    TokenStyle {
        kind: TokenKind::Comment,
        token_type: SemanticTokenType::COMMENT,
        modifier: None,
        scope: "comment.line.number-sign.cmg",
    },
    TokenStyle {
        kind: TokenKind::Operator,
        token_type: SemanticTokenType::OPERATOR,
        modifier: None,
        scope: "keyword.operator.edge.cmg",
    },
];

fn legend_types() -> Vec<SemanticTokenType> {
    let mut types: Vec<SemanticTokenType> = Vec::new();
    for style in TOKEN_STYLES {
        if !types.contains(&style.token_type) {
            types.push(style.token_type.clone());
        }
    }
    types
}

fn legend_modifiers() -> Vec<&'static str> {
    let mut modifiers = Vec::new();
    for (modifier, _) in TOKEN_STYLES.iter().filter_map(|style| style.modifier) {
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
    let style = TOKEN_STYLES.iter().find(|style| style.kind == kind)?;
    let index = legend_types().iter().position(|t| *t == style.token_type)?;
    let bits = match style.modifier {
        Some((modifier, _)) => 1 << legend_modifiers().iter().position(|m| *m == modifier)?,
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
