//! Syntax errors in words: what was found, what would fit, and for common slips, what to do.

use chumsky::prelude::*;

use super::{SyntaxError, SyntaxKind, TextRange};

/// Turns chumsky's error into our message: what was found, what would fit, and for
/// the common mistakes, what to do.
pub(super) fn syntax_error(
    text: &str,
    error: &Rich<'_, SyntaxKind>,
    last: TextRange,
) -> SyntaxError {
    let span = error.span();
    let range = if span.start == span.end {
        last
    } else {
        TextRange::from(span.into_range())
    };
    let message = match error.reason() {
        chumsky::error::RichReason::Custom(message) => message.clone(),
        chumsky::error::RichReason::ExpectedFound { expected, found } => {
            let found_text = &text[range.to_usize()];
            let quoted = crate::quote(found_text);
            let found_kind: Option<SyntaxKind> = found.as_deref().copied();
            let found =
                match found.as_deref() {
                    None => "the end of the statement".to_owned(),
                    Some(SyntaxKind::Word) => format!("the unknown word `{quoted}`"),
                    Some(SyntaxKind::Error) => format!("`{quoted}`"),
                    Some(SyntaxKind::UnterminatedString) => return SyntaxError {
                        range,
                        message:
                            "this string has no closing `\"`: strings end on the line they start"
                                .to_owned(),
                    },
                    Some(kind) => kind.to_string(),
                };
            // A word is expected only in a rule: its name, or an argument beside node ids.
            let word = if expected.iter().any(|pattern| {
                matches!(pattern, chumsky::error::RichPattern::Token(kind) if **kind == SyntaxKind::Number)
            }) {
                "a word"
            } else {
                "a rule name (limit, first, start, holes or cat-enters-holes)"
            };
            let mut names: Vec<String> = expected
                .iter()
                .filter_map(|pattern| match pattern {
                    chumsky::error::RichPattern::Token(kind) if **kind == SyntaxKind::Word => {
                        Some(word.to_owned())
                    }
                    chumsky::error::RichPattern::Token(kind) => Some(kind.to_string()),
                    chumsky::error::RichPattern::EndOfInput => {
                        Some("the end of the statement".to_owned())
                    }
                    _ => None,
                })
                .collect();
            names.sort();
            names.dedup();
            let expected = match names.as_slice() {
                [] => {
                    return SyntaxError {
                        range,
                        message: format!("{found} is not expected here"),
                    }
                }
                [one] => one.clone(),
                [init @ .., last] => format!("{} or {last}", init.join(", ")),
            };
            // A minus sign right before a digit where a node id may come: a negative id.
            let negative = names.iter().any(|name| name == "a node id")
                && text[range.to_usize().end..]
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_digit());
            let hint = found_kind.and_then(|kind| suggestion(kind, found_text, negative));
            match hint {
                Some(hint) => format!("expected {expected}, found {found}; {hint}"),
                None => format!("expected {expected}, found {found}"),
            }
        }
    };
    SyntaxError { range, message }
}

/// "Did you mean" for the slips newcomers make: other arrows for `--`, a keyword
/// misspelt or capitalised, single quotes, `//` comments, the puzzle's `graph = ...`,
/// a negative node id (`negative`: a minus sign before a digit, where an id may come).
fn suggestion(kind: SyntaxKind, found: &str, negative: bool) -> Option<String> {
    const KEYWORDS: [&str; 6] = ["node", "expect", "mouse", "cat", "draw", "rule"];
    let hint = match kind {
        // `-1`: a minus sign on a number, not an arrow.
        SyntaxKind::Error if negative && matches!(found, "-" | "−") => {
            "node ids are whole numbers from 0, never negative: the hole is `0`, the mouse starts on `1`, the cat on `2`".to_owned()
        }
        SyntaxKind::Error => match found {
            "-" | "—" | "–" | "=>" | "<" | "<-" | "=" | "==" | "−" => {
                "did you mean `--`? An edge is written `0 -- 1`, a one-way edge `0 -> 1`"
                    .to_owned()
            }
            "'" => "did you mean `\"`? Labels are written in double quotes: `node 1 \"start\"`"
                .to_owned(),
            "/" | "//" => "did you mean `#`? Comments start with `#`".to_owned(),
            _ => return None,
        },
        SyntaxKind::Word if found == "graph" => {
            "this looks like the puzzle's input: write it as `graph = [[...]]` or as the list alone"
                .to_owned()
        }
        SyntaxKind::Word if found.eq_ignore_ascii_case("mice") => {
            "did you mean `mouse`?".to_owned()
        }
        SyntaxKind::Word => {
            let lower = found.to_ascii_lowercase();
            let near = KEYWORDS
                .iter()
                .find(|keyword| crate::within_one_edit(&lower, keyword))?;
            format!("did you mean `{near}`?")
        }
        _ => return None,
    };
    Some(hint)
}
