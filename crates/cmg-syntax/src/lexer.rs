//! The lexer: text to a flat list of tokens with byte ranges, comments and newlines included.

use std::fmt;

use logos::Logos;

use super::TextRange;

/// Every kind of token in a `.cmg` file. Spaces and tabs are skipped; everything else,
/// including characters that fit no rule, becomes a token so that no text is lost.
#[derive(Logos, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[logos(skip r"[ \t\f\u{FEFF}]+")]
pub enum SyntaxKind {
    #[regex(r"[0-9]+")]
    Number,
    /// A string with its quotes. Escapes are checked by the parser, so that a bad one
    /// yields a clear message instead of a cut-off token.
    #[regex(r#""([^"\\\r\n]|\\[^\r\n])*""#)]
    String,
    /// A string that reaches the end of its line without a closing quote.
    #[regex(r#""([^"\\\r\n]|\\[^\r\n])*\\?"#)]
    UnterminatedString,
    #[regex(r"#[^\r\n]*")]
    Comment,
    #[regex(r"\r\n|\n|\r")]
    Newline,
    #[token(";")]
    Semicolon,
    #[token("--")]
    DashDash,
    /// A one-way edge, `a -> b`.
    #[token("->")]
    Arrow,
    #[token("{")]
    LBrace,
    #[token("}")]
    RBrace,
    #[token("[")]
    LBracket,
    #[token("]")]
    RBracket,
    #[token(",")]
    Comma,
    #[token("node")]
    NodeKw,
    #[token("expect")]
    ExpectKw,
    #[token("mouse")]
    MouseKw,
    #[token("cat")]
    CatKw,
    #[token("draw")]
    DrawKw,
    #[token("rule")]
    RuleKw,
    /// A word that is not a keyword: a rule's name (`limit`, `cat-enters-holes`: parts
    /// joined by a hyphen before a letter), else never valid, but one token makes a
    /// better message than one error per letter.
    #[regex(r"[A-Za-z_][A-Za-z0-9_]*(-[A-Za-z][A-Za-z0-9_]*)*", priority = 1)]
    Word,
    /// Any other character (a run of them is merged into one token).
    Error,
}

impl SyntaxKind {
    pub fn is_keyword(self) -> bool {
        matches!(
            self,
            SyntaxKind::NodeKw
                | SyntaxKind::ExpectKw
                | SyntaxKind::MouseKw
                | SyntaxKind::CatKw
                | SyntaxKind::DrawKw
                | SyntaxKind::RuleKw
        )
    }

    pub fn is_opening_bracket(self) -> bool {
        matches!(self, SyntaxKind::LBrace | SyntaxKind::LBracket)
    }

    pub fn is_closing_bracket(self) -> bool {
        matches!(self, SyntaxKind::RBrace | SyntaxKind::RBracket)
    }
}

/// How a token kind is named in messages ("expected `--`, found a string").
impl fmt::Display for SyntaxKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self {
            SyntaxKind::Number => "a node id",
            SyntaxKind::String => "a string",
            SyntaxKind::UnterminatedString => "an unterminated string",
            SyntaxKind::Comment => "a comment",
            SyntaxKind::Newline => "the end of the line",
            SyntaxKind::Semicolon => "`;`",
            SyntaxKind::DashDash => "`--`",
            SyntaxKind::Arrow => "`->`",
            SyntaxKind::LBrace => "`{`",
            SyntaxKind::RBrace => "`}`",
            SyntaxKind::LBracket => "`[`",
            SyntaxKind::RBracket => "`]`",
            SyntaxKind::Comma => "`,`",
            SyntaxKind::NodeKw => "`node`",
            SyntaxKind::ExpectKw => "`expect`",
            SyntaxKind::MouseKw => "`mouse`",
            SyntaxKind::CatKw => "`cat`",
            SyntaxKind::DrawKw => "`draw`",
            SyntaxKind::RuleKw => "`rule`",
            SyntaxKind::Word => "an unknown word",
            SyntaxKind::Error => "an unexpected character",
        };
        f.write_str(name)
    }
}

/// One token: its kind and where it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    pub kind: SyntaxKind,
    pub range: TextRange,
}

/// Splits `text` into tokens. Never fails: characters that fit no rule become
/// [`SyntaxKind::Error`] tokens, adjacent ones merged.
pub(crate) fn lex(text: &str) -> Vec<Token> {
    // Edge lines (`12 -- 345`) have a token every three or four bytes; reserving a
    // token every two spares a megabyte file the copies of a growing list, and the
    // pages reserved but never written cost nothing. Past a few megabytes the list
    // grows as usual, so that a huge file of comments reserves no more than 24 MB.
    const MAX_RESERVED: usize = 1 << 21;
    let mut tokens: Vec<Token> = Vec::with_capacity((text.len() / 2 + 1).min(MAX_RESERVED));
    let mut lexer = SyntaxKind::lexer(text);
    while let Some(result) = lexer.next() {
        let range = TextRange::from(lexer.span());
        let kind = result.unwrap_or(SyntaxKind::Error);
        match tokens.last_mut() {
            Some(last)
                if kind == SyntaxKind::Error
                    && last.kind == SyntaxKind::Error
                    && last.range.end == range.start =>
            {
                last.range.end = range.end;
            }
            _ => tokens.push(Token { kind, range }),
        }
    }
    tokens
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<SyntaxKind> {
        lex(text).into_iter().map(|t| t.kind).collect()
    }

    #[test]
    fn line_endings_are_newline_tokens() {
        use SyntaxKind::*;
        assert_eq!(
            kinds("1\r\n2\r3\n"),
            [Number, Newline, Number, Newline, Number, Newline]
        );
    }

    #[test]
    fn keywords_and_words() {
        use SyntaxKind::*;
        assert_eq!(
            kinds("node nodes expect cat catx"),
            [NodeKw, Word, ExpectKw, CatKw, Word]
        );
    }

    #[test]
    fn rules_and_arrows() {
        use SyntaxKind::*;
        assert_eq!(
            kinds("rule cat-enters-holes 1->2 node -1 a-"),
            [RuleKw, Word, Number, Arrow, Number, NodeKw, Error, Number, Word, Error]
        );
    }

    #[test]
    fn strings_and_unterminated_strings() {
        use SyntaxKind::*;
        assert_eq!(kinds(r#""a \" b""#), [String]);
        assert_eq!(kinds("\"abc\n1"), [UnterminatedString, Newline, Number]);
        assert_eq!(kinds("\"abc\\"), [UnterminatedString]);
    }

    #[test]
    fn error_characters_are_merged() {
        let tokens = lex("1 -+- 2");
        assert_eq!(tokens[1].kind, SyntaxKind::Error);
        assert_eq!(tokens[1].range, TextRange::new(2, 5));
        assert_eq!(tokens.len(), 3);
    }

    #[test]
    fn comments_run_to_end_of_line() {
        use SyntaxKind::*;
        assert_eq!(kinds("1 # é -- 2\r\n3"), [Number, Comment, Newline, Number]);
    }
}
