//! Positions across the boundary: line and UTF-16 character from 0, as JavaScript strings and the language server protocol count them, to and from the library's byte offsets.

use cmg_syntax::{ColumnUnit, LineCol, LineIndex, TextRange};
use serde::{Deserialize, Serialize};
#[cfg(feature = "typescript")]
use ts_rs::TS;

/// Line and character from 0, the character in UTF-16 code units (as JavaScript counts).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct Position {
    pub line: u32,
    pub character: u32,
}

impl Position {
    pub fn of(lines: &LineIndex, offset: u32) -> Position {
        let LineCol { line, col } = lines.column(offset, ColumnUnit::Utf16);
        Position {
            line,
            character: col,
        }
    }

    /// The byte offset, clamped as [`LineIndex::offset`] clamps.
    pub fn offset(self, lines: &LineIndex) -> u32 {
        let position = LineCol {
            line: self.line,
            col: self.character,
        };
        lines.offset(position, ColumnUnit::Utf16)
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct Range {
    pub start: Position,
    pub end: Position,
}

impl Range {
    pub fn of(lines: &LineIndex, range: TextRange) -> Range {
        Range {
            start: Position::of(lines, range.start),
            end: Position::of(lines, range.end),
        }
    }

    /// The byte range, its ends in order.
    pub fn text_range(self, lines: &LineIndex) -> TextRange {
        let (a, b) = (self.start.offset(lines), self.end.offset(lines));
        TextRange::new(a.min(b), a.max(b))
    }
}
