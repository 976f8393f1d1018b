//! Positions between the protocol and cmg: LSP line/character (UTF-16 or UTF-8) to byte
//! offsets and back, on the document's rope. Out-of-range positions are clamped, never
//! a panic.

use ropey::Rope;

use tower_lsp_server::ls_types::{
    Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity, DiagnosticTag, Location,
    NumberOrString, Position, PositionEncodingKind, Range, Uri,
};

use cmg_core::analysis::Capped;
use cmg_core::model::Severity;
use cmg_syntax::{ColumnUnit, LineIndex, TextRange};

/// How the client counts characters in a line, negotiated at initialization.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Encoding {
    Utf8,
    #[default]
    Utf16,
}

impl Encoding {
    /// UTF-8 when the client offers it (it saves work on both sides), else the
    /// mandatory UTF-16.
    pub fn negotiate(offered: Option<&[PositionEncodingKind]>) -> Encoding {
        match offered {
            Some(kinds) if kinds.contains(&PositionEncodingKind::UTF8) => Encoding::Utf8,
            _ => Encoding::Utf16,
        }
    }

    pub fn kind(self) -> PositionEncodingKind {
        match self {
            Encoding::Utf8 => PositionEncodingKind::UTF8,
            Encoding::Utf16 => PositionEncodingKind::UTF16,
        }
    }
}

/// The number of chars of `line` before its line break.
fn line_content_chars(rope: &Rope, line: usize) -> usize {
    let slice = rope.line(line);
    let mut len = slice.len_chars();
    while len > 0 && matches!(slice.char(len - 1), '\n' | '\r') {
        len -= 1;
    }
    len
}

/// The byte offset of `position`; a line past the end clamps to the end of the text,
/// a character past the end of its line to the end of the line.
pub fn offset(rope: &Rope, encoding: Encoding, position: Position) -> u32 {
    let line = position.line as usize;
    if line >= rope.len_lines() {
        return rope.len_bytes() as u32;
    }
    let line_start = rope.line_to_char(line);
    let content_end = line_start + line_content_chars(rope, line);
    let char_index = match encoding {
        Encoding::Utf16 => {
            let start = rope.char_to_utf16_cu(line_start);
            let end = rope.char_to_utf16_cu(content_end);
            let target = (start + position.character as usize).min(end);
            rope.utf16_cu_to_char(target)
        }
        Encoding::Utf8 => {
            let start = rope.char_to_byte(line_start);
            let end = rope.char_to_byte(content_end);
            let target = (start + position.character as usize).min(end);
            // A byte inside a character rounds down to its start.
            rope.byte_to_char(target)
        }
    };
    rope.char_to_byte(char_index) as u32
}

/// The protocol position of byte `offset` (clamped to the text, rounded down to a
/// character boundary).
pub fn position(rope: &Rope, encoding: Encoding, offset: u32) -> Position {
    let offset = (offset as usize).min(rope.len_bytes());
    let char_index = rope.byte_to_char(offset);
    let line = rope.char_to_line(char_index);
    let line_start = rope.line_to_char(line);
    let character = match encoding {
        Encoding::Utf16 => rope.char_to_utf16_cu(char_index) - rope.char_to_utf16_cu(line_start),
        Encoding::Utf8 => rope.char_to_byte(char_index) - rope.char_to_byte(line_start),
    };
    Position::new(line as u32, character as u32)
}

/// The protocol position of byte `offset` from the line index of the same text: the
/// same answer as [`position`] on its rope, in a few binary searches instead of several
/// walks down the rope's tree (the outline of a large file converts 40 000 of them).
pub fn position_in(index: &LineIndex, encoding: Encoding, offset: u32) -> Position {
    let unit = match encoding {
        Encoding::Utf8 => ColumnUnit::Utf8,
        Encoding::Utf16 => ColumnUnit::Utf16,
    };
    let at = index.column(offset, unit);
    Position::new(at.line, at.col)
}

/// [`range`] from the line index of the same text.
pub fn range_in(index: &LineIndex, encoding: Encoding, range: TextRange) -> Range {
    Range::new(
        position_in(index, encoding, range.start),
        position_in(index, encoding, range.end),
    )
}

/// What outgoing positions are converted with: the line index of the analysed text
/// (a few binary searches a position), or the rope of a text that has none (a document
/// too large to analyse).
pub trait Positions {
    fn range(&self, encoding: Encoding, range: TextRange) -> Range;
}

impl Positions for LineIndex {
    fn range(&self, encoding: Encoding, range: TextRange) -> Range {
        range_in(self, encoding, range)
    }
}

impl Positions for Rope {
    fn range(&self, encoding: Encoding, text_range: TextRange) -> Range {
        range(self, encoding, text_range)
    }
}

pub fn range(rope: &Rope, encoding: Encoding, range: TextRange) -> Range {
    Range::new(
        position(rope, encoding, range.start),
        position(rope, encoding, range.end),
    )
}

/// The byte range of a protocol range; a reversed range is put in order.
pub fn text_range(rope: &Rope, encoding: Encoding, range: Range) -> TextRange {
    let start = offset(rope, encoding, range.start);
    let end = offset(rope, encoding, range.end);
    TextRange::new(start.min(end), start.max(end))
}

/// Applies one `didChange` content change to the rope: a range edit, or the whole text
/// when there is no range.
pub fn apply_change(rope: &mut Rope, encoding: Encoding, range: Option<Range>, text: &str) {
    match range {
        None => *rope = Rope::from_str(text),
        Some(range) => {
            let byte_range = text_range(rope, encoding, range);
            let start = rope.byte_to_char(byte_range.start as usize);
            let end = rope.byte_to_char(byte_range.end as usize);
            rope.remove(start..end);
            rope.insert(start, text);
        }
    }
}

fn severity(severity: Severity) -> DiagnosticSeverity {
    match severity {
        Severity::Error => DiagnosticSeverity::ERROR,
        Severity::Warning => DiagnosticSeverity::WARNING,
        Severity::Information => DiagnosticSeverity::INFORMATION,
        Severity::Hint => DiagnosticSeverity::HINT,
    }
}

/// What is published for a file: the diagnostics shown (the first
/// `cmg.diagnostics.max`) and, when some are left out, one more at the first of those
/// that says how many there are and of which codes, with the most severe of their
/// severities so that a hidden error still counts as one.
pub fn publishable(
    uri: &Uri,
    positions: &impl Positions,
    encoding: Encoding,
    capped: &Capped,
) -> Vec<Diagnostic> {
    let mut published: Vec<Diagnostic> = capped
        .shown
        .iter()
        .map(|d| diagnostic(uri, positions, encoding, d))
        .collect();
    if let Some(hidden) = &capped.hidden {
        let codes: Vec<String> = hidden
            .codes
            .iter()
            .map(|(code, count)| format!("{count} {}", code.as_str()))
            .collect();
        published.push(Diagnostic {
            range: positions.range(encoding, hidden.first),
            severity: Some(severity(hidden.worst)),
            source: Some("cmg".to_owned()),
            message: format!(
                "{} more diagnostics are not shown ({}), from here on: only the first {} are published (setting `cmg.diagnostics.max`); run `cmg check` for all",
                hidden.count,
                codes.join(", "),
                capped.shown.len()
            ),
            ..Diagnostic::default()
        });
    }
    published
}

/// A cmg diagnostic in protocol form; related locations point into the same document.
pub fn diagnostic(
    uri: &Uri,
    positions: &impl Positions,
    encoding: Encoding,
    diagnostic: &cmg_core::model::Rendered,
) -> Diagnostic {
    let related = diagnostic
        .related
        .iter()
        .map(|related| DiagnosticRelatedInformation {
            location: Location::new(uri.clone(), positions.range(encoding, related.range)),
            message: related.message.to_owned(),
        })
        .collect::<Vec<_>>();
    Diagnostic {
        range: positions.range(encoding, diagnostic.range),
        severity: Some(severity(diagnostic.severity())),
        code: Some(NumberOrString::String(diagnostic.code.as_str().to_owned())),
        // No link: the project has no published documentation address to point to, and
        // an invented one would lead nowhere; `cmg explain CODE` prints the page offline.
        code_description: None,
        source: Some("cmg".to_owned()),
        message: diagnostic.message.clone(),
        related_information: (!related.is_empty()).then_some(related),
        tags: diagnostic
            .code
            .is_unnecessary()
            .then(|| vec![DiagnosticTag::UNNECESSARY]),
        ..Diagnostic::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "0 -- 1\r\n# é日😀x\r\n2 -- 1\rnode 3";

    #[test]
    fn utf16_positions_count_surrogate_pairs() {
        let rope = Rope::from_str(TEXT);
        let x = TEXT.find('x').unwrap() as u32;
        // "# é日😀" is 2 + 1 + 1 + 2 UTF-16 units.
        assert_eq!(position(&rope, Encoding::Utf16, x), Position::new(1, 6));
        assert_eq!(offset(&rope, Encoding::Utf16, Position::new(1, 6)), x);
        // Inside the surrogate pair: the start of the emoji.
        let emoji = TEXT.find('😀').unwrap() as u32;
        assert_eq!(offset(&rope, Encoding::Utf16, Position::new(1, 5)), emoji);
    }

    #[test]
    fn utf8_positions_count_bytes() {
        let rope = Rope::from_str(TEXT);
        let x = TEXT.find('x').unwrap() as u32;
        assert_eq!(position(&rope, Encoding::Utf8, x), Position::new(1, 11));
        assert_eq!(offset(&rope, Encoding::Utf8, Position::new(1, 11)), x);
        // A byte inside `é` rounds down to its start.
        let e = TEXT.find('é').unwrap() as u32;
        assert_eq!(offset(&rope, Encoding::Utf8, Position::new(1, 3)), e);
    }

    #[test]
    fn lone_cr_and_crlf_end_lines() {
        let rope = Rope::from_str(TEXT);
        let node = TEXT.find("node").unwrap() as u32;
        assert_eq!(position(&rope, Encoding::Utf16, node), Position::new(3, 0));
    }

    #[test]
    fn out_of_range_positions_clamp() {
        let rope = Rope::from_str(TEXT);
        let line_end = TEXT.find("\r\n").unwrap() as u32;
        assert_eq!(
            offset(&rope, Encoding::Utf16, Position::new(0, 999)),
            line_end
        );
        assert_eq!(
            offset(&rope, Encoding::Utf16, Position::new(99, 0)),
            TEXT.len() as u32
        );
        assert_eq!(
            position(&rope, Encoding::Utf16, 10_000),
            Position::new(3, 6)
        );
    }

    #[test]
    fn the_line_index_agrees_with_the_rope() {
        let text = format!("{TEXT}\r\n\n😀\r");
        let rope = Rope::from_str(&text);
        let index = LineIndex::new(&text);
        for encoding in [Encoding::Utf8, Encoding::Utf16] {
            // Every byte, inside characters and line breaks too, and past the end.
            for offset in 0..=text.len() as u32 + 2 {
                assert_eq!(
                    position_in(&index, encoding, offset),
                    position(&rope, encoding, offset),
                    "{encoding:?} at {offset}"
                );
            }
        }
    }

    #[test]
    fn changes_apply_in_both_encodings() {
        for encoding in [Encoding::Utf8, Encoding::Utf16] {
            let mut rope = Rope::from_str(TEXT);
            let start = position(&rope, encoding, TEXT.find('x').unwrap() as u32);
            let end = Position::new(start.line, start.character + 1);
            apply_change(&mut rope, encoding, Some(Range::new(start, end)), "y");
            assert_eq!(rope.to_string(), TEXT.replace('x', "y"));
        }
    }
}
