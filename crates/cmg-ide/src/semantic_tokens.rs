//! Semantic tokens: node ids coloured by their role in the game, and the rest of the syntax.
//!
//! Classification works on the lexer's tokens alone, so broken statements are coloured
//! too. A number is classified by its value, wherever it stands: 0 is the hole, 1 the
//! mouse's start, 2 the cat's start, and every other number (too large ones included) a
//! plain node.

use cmg_core::analysis::Analysis;
use cmg_core::model::NodeRole;
use cmg_syntax::{parse_node_id, SyntaxKind, TextRange};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TokenKind {
    Hole,
    MouseStart,
    CatStart,
    Node,
    Keyword,
    Outcome,
    String,
    Comment,
    Operator,
    Punctuation,
}

impl TokenKind {
    /// Every kind, in a fixed order the server's legend can follow.
    pub const ALL: &'static [TokenKind] = &[
        TokenKind::Hole,
        TokenKind::MouseStart,
        TokenKind::CatStart,
        TokenKind::Node,
        TokenKind::Keyword,
        TokenKind::Outcome,
        TokenKind::String,
        TokenKind::Comment,
        TokenKind::Operator,
        TokenKind::Punctuation,
    ];
}

/// One classified token. Tokens come in source order, never overlap and never span a
/// line break, as the protocol's relative encoding needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SemanticToken {
    pub range: TextRange,
    pub kind: TokenKind,
}

/// Every token of the file, classified.
pub fn semantic_tokens(analysis: &Analysis) -> Vec<SemanticToken> {
    semantic_tokens_in(analysis, None)
}

/// The tokens that overlap `range` (all of them for `None`), classified. The lexer's
/// tokens are in source order and never overlap, so the ones in range are found by two
/// binary searches and only those are classified: a `semanticTokens/range` request for
/// the visible screen of a large file costs the screen, not the file.
pub fn semantic_tokens_in(analysis: &Analysis, range: Option<TextRange>) -> Vec<SemanticToken> {
    let tokens = analysis.parse.tokens.as_slice();
    let tokens = match range {
        None => tokens,
        Some(range) => {
            let first = tokens.partition_point(|token| token.range.end <= range.start);
            let end = tokens.partition_point(|token| token.range.start < range.end);
            &tokens[first..end.max(first)]
        }
    };
    tokens
        .iter()
        .filter_map(|token| {
            let kind = match token.kind {
                SyntaxKind::Number => {
                    let digits = analysis.text.get(token.range.to_usize()).unwrap_or("");
                    let graph = &analysis.model.graph;
                    match parse_node_id(digits).and_then(|id| graph.role_of(id)) {
                        Some(NodeRole::Hole) => TokenKind::Hole,
                        Some(NodeRole::MouseStart) => TokenKind::MouseStart,
                        Some(NodeRole::CatStart) => TokenKind::CatStart,
                        None => TokenKind::Node,
                    }
                }
                SyntaxKind::NodeKw | SyntaxKind::ExpectKw | SyntaxKind::RuleKw => {
                    TokenKind::Keyword
                }
                // A rule's name; any other word is a syntax error.
                SyntaxKind::Word
                    if cmg_syntax::RuleName::from_name(
                        analysis.text.get(token.range.to_usize()).unwrap_or(""),
                    ) != cmg_syntax::RuleName::Unknown =>
                {
                    TokenKind::Keyword
                }
                SyntaxKind::MouseKw | SyntaxKind::CatKw | SyntaxKind::DrawKw => TokenKind::Outcome,
                SyntaxKind::String | SyntaxKind::UnterminatedString => TokenKind::String,
                SyntaxKind::Comment => TokenKind::Comment,
                SyntaxKind::DashDash | SyntaxKind::Arrow => TokenKind::Operator,
                SyntaxKind::LBrace
                | SyntaxKind::RBrace
                | SyntaxKind::LBracket
                | SyntaxKind::RBracket
                | SyntaxKind::Comma
                | SyntaxKind::Semicolon => TokenKind::Punctuation,
                SyntaxKind::Newline | SyntaxKind::Word | SyntaxKind::Error => return None,
            };
            Some(SemanticToken {
                range: token.range,
                kind,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use expect_test::{expect, Expect};

    use crate::test_utils::{analyze, every_range};

    use super::*;

    fn check(fixture: &str, expect: Expect) {
        let (analysis, _, _) = analyze(fixture);
        let tokens = semantic_tokens(&analysis);
        for pair in tokens.windows(2) {
            assert!(pair[0].range.end <= pair[1].range.start, "{pair:?}");
        }
        let actual: String = tokens
            .iter()
            .map(|token| {
                let text = &analysis.text[token.range.to_usize()];
                assert!(!text.contains(['\n', '\r']), "{token:?} spans a line break");
                format!("{:?} {:?} {text:?}\n", token.range, token.kind)
            })
            .collect();
        expect.assert_eq(&actual);
    }

    #[test]
    fn every_kind() {
        check(
            "# hi\n0 -- {1, 2} -- 3; node 99999999999 \"x\"\n[[1]]\nexpect draw\n",
            expect![[r##"
                0..4 Comment "# hi"
                5..6 Hole "0"
                7..9 Operator "--"
                10..11 Punctuation "{"
                11..12 MouseStart "1"
                12..13 Punctuation ","
                14..15 CatStart "2"
                15..16 Punctuation "}"
                17..19 Operator "--"
                20..21 Node "3"
                21..22 Punctuation ";"
                23..27 Keyword "node"
                28..39 Node "99999999999"
                40..43 String "\"x\""
                44..45 Punctuation "["
                45..46 Punctuation "["
                46..47 MouseStart "1"
                47..48 Punctuation "]"
                48..49 Punctuation "]"
                50..56 Keyword "expect"
                57..61 Outcome "draw"
            "##]],
        );
    }

    #[test]
    fn broken_text() {
        check(
            "1 -- x ? 2\nnode 4 \"open\nexpect mouse cat",
            expect![[r##"
                0..1 MouseStart "1"
                2..4 Operator "--"
                9..10 CatStart "2"
                11..15 Keyword "node"
                16..17 Node "4"
                18..23 String "\"open"
                24..30 Keyword "expect"
                31..36 Outcome "mouse"
                37..40 Outcome "cat"
            "##]],
        );
    }

    #[test]
    fn unicode_and_crlf() {
        check(
            "node 0 \"é😀\" # ü\r\n01 -- 2\r",
            expect![[r##"
                0..4 Keyword "node"
                5..6 Hole "0"
                7..15 String "\"é😀\""
                16..20 Comment "# ü"
                22..24 MouseStart "01"
                25..27 Operator "--"
                28..29 CatStart "2"
            "##]],
        );
    }

    #[test]
    fn empty() {
        check("", expect![""]);
    }

    /// A range answer is exactly the tokens of the whole answer that overlap the range,
    /// for every range of a text with every kind of token, empty ranges and ranges
    /// inside a token included.
    #[test]
    fn a_range_gets_the_overlapping_tokens_of_the_whole() {
        let (analysis, _, _) =
            analyze("# c\n0 -- {1, 2} -- 3; node 9 \"é\"\r\n[[1], [0, 2]]\nexpect draw");
        let all = semantic_tokens(&analysis);
        for range in every_range(&analysis.text) {
            let expected: Vec<_> = all
                .iter()
                .filter(|token| token.range.end > range.start && token.range.start < range.end)
                .cloned()
                .collect();
            assert_eq!(
                semantic_tokens_in(&analysis, Some(range)),
                expected,
                "{range:?}"
            );
        }
    }
}
