//! Byte offset ⇄ line and column (in bytes, Unicode characters or UTF-16 code units), for
//! `\n`, `\r\n` and lone `\r` line endings alike.
//!
//! Columns are never counted from the start of the line: the index keeps every non-ASCII
//! character of the text in a table, with running totals of the bytes they take beyond
//! one character and one UTF-16 unit, so converting a column is a few binary searches
//! whatever the length of the line (one 2 MB line with 200 000 diagnostics on it stays
//! fast). An ASCII-only text has an empty table.

use super::TextRange;

/// A zero-based line and a zero-based column within it; the unit of the column depends
/// on where it comes from (bytes for [`LineIndex::line_col`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct LineCol {
    pub line: u32,
    pub col: u32,
}

/// How a column counts: UTF-8 bytes, Unicode characters (what compilers print), or
/// UTF-16 code units (the LSP default).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ColumnUnit {
    Utf8,
    Char,
    Utf16,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineIndex {
    /// The offset where each line starts; the first is always 0.
    line_starts: Vec<u32>,
    /// The offset where each line's content ends, before its line ending.
    content_ends: Vec<u32>,
    /// Every non-ASCII character, in text order.
    wide: Vec<WideChar>,
    len: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct WideChar {
    offset: u32,
    /// Its length in UTF-8 (2 to 4).
    len: u8,
    /// Bytes taken beyond one per character, by the wide characters before this one.
    extra_chars_before: u32,
    /// Bytes taken beyond one per UTF-16 unit, by the wide characters before this one.
    extra_utf16_before: u32,
}

impl WideChar {
    /// The bytes this character takes beyond one column in `unit`.
    fn extra(self, unit: ColumnUnit) -> u32 {
        match unit {
            ColumnUnit::Utf8 => 0,
            ColumnUnit::Char => u32::from(self.len) - 1,
            // Four bytes are a surrogate pair, two units; the others are one unit.
            ColumnUnit::Utf16 => u32::from(self.len) - if self.len == 4 { 2 } else { 1 },
        }
    }

    fn extra_before(self, unit: ColumnUnit) -> u32 {
        match unit {
            ColumnUnit::Utf8 => 0,
            ColumnUnit::Char => self.extra_chars_before,
            ColumnUnit::Utf16 => self.extra_utf16_before,
        }
    }
}

impl LineIndex {
    /// The heap bytes this index holds on to.
    pub fn heap_bytes(&self) -> usize {
        use crate::heap::vec_bytes;
        vec_bytes(&self.line_starts) + vec_bytes(&self.content_ends) + vec_bytes(&self.wide)
    }

    pub fn new(text: &str) -> LineIndex {
        // Most files are ASCII with `\n` line ends: then a line ends at each `\n`, and
        // the loop over the bytes has nothing else to look at (each check before it is
        // one quick pass over the text).
        if text.is_ascii() && !text.contains('\r') {
            LineIndex::of_newlines(text)
        } else {
            LineIndex::scanned(text)
        }
    }

    /// The index of an ASCII text whose only line ending is `\n`.
    fn of_newlines(text: &str) -> LineIndex {
        let mut line_starts = vec![0];
        let mut content_ends = Vec::new();
        for (i, _) in text.bytes().enumerate().filter(|&(_, byte)| byte == b'\n') {
            content_ends.push(i as u32);
            line_starts.push(i as u32 + 1);
        }
        content_ends.push(text.len() as u32);
        LineIndex {
            line_starts,
            content_ends,
            wide: Vec::new(),
            len: text.len() as u32,
        }
    }

    /// The index of any text, byte by byte.
    fn scanned(text: &str) -> LineIndex {
        let bytes = text.as_bytes();
        let mut line_starts = vec![0];
        let mut content_ends = Vec::new();
        let mut wide = Vec::new();
        let (mut extra_chars, mut extra_utf16) = (0u32, 0u32);
        let mut i = 0;
        while i < bytes.len() {
            let byte = bytes[i];
            if byte.is_ascii() {
                if byte == b'\n' || byte == b'\r' {
                    let ending = if bytes[i..].starts_with(b"\r\n") {
                        2
                    } else {
                        1
                    };
                    content_ends.push(i as u32);
                    line_starts.push((i + ending) as u32);
                    i += ending;
                } else {
                    i += 1;
                }
                continue;
            }
            // A leading byte: its count of leading ones is the character's length.
            let len = byte.leading_ones().clamp(2, 4) as u8;
            let char = WideChar {
                offset: i as u32,
                len,
                extra_chars_before: extra_chars,
                extra_utf16_before: extra_utf16,
            };
            extra_chars += char.extra(ColumnUnit::Char);
            extra_utf16 += char.extra(ColumnUnit::Utf16);
            wide.push(char);
            i += usize::from(len);
        }
        content_ends.push(text.len() as u32);
        LineIndex {
            line_starts,
            content_ends,
            wide,
            len: text.len() as u32,
        }
    }

    /// The length of the text in bytes.
    pub fn len(&self) -> u32 {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The line and byte column of `offset`, clamped to the end of the text.
    pub fn line_col(&self, offset: u32) -> LineCol {
        let offset = offset.min(self.len);
        let line = self.line_starts.partition_point(|&start| start <= offset) - 1;
        LineCol {
            line: line as u32,
            col: offset - self.line_starts[line],
        }
    }

    /// The line and column of `offset` in `unit`. The offset is clamped to the end of
    /// the text, and one inside a character is moved back to that character's start.
    pub fn column(&self, offset: u32, unit: ColumnUnit) -> LineCol {
        let LineCol { line, col } = self.line_col(offset);
        let line_start = self.line_starts[line as usize];
        let offset = line_start + col;
        // The wide characters that start before `offset`; the last may contain it.
        let before = self.wide.partition_point(|c| c.offset < offset);
        let offset = match before.checked_sub(1).map(|k| self.wide[k]) {
            Some(c) if offset < c.offset + u32::from(c.len) => c.offset,
            _ => offset,
        };
        LineCol {
            line,
            col: offset - line_start - self.extra_between(line_start, offset, unit),
        }
    }

    /// The column of `offset` counted in Unicode characters, as compilers print it.
    pub fn char_col(&self, offset: u32) -> u32 {
        self.column(offset, ColumnUnit::Char).col
    }

    /// The byte offset of a line and a column in `unit`. A line past the end gives the
    /// end of the text; a column past the end of its line, the end of the line's
    /// content; a column inside a character (a UTF-8 byte or the second half of a
    /// surrogate pair), the start of that character.
    pub fn offset(&self, position: LineCol, unit: ColumnUnit) -> u32 {
        let line = position.line as usize;
        let (Some(&start), Some(&end)) = (self.line_starts.get(line), self.content_ends.get(line))
        else {
            return self.len;
        };
        // The wide characters of the line, and among them the last one whose column is
        // at most the target: the target lies at it, inside it or after it.
        let first = self.wide.partition_point(|c| c.offset < start);
        let last = first + self.wide[first..].partition_point(|c| c.offset < end);
        let line_wide = &self.wide[first..last];
        let col_of = |c: &WideChar| c.offset - start - self.extra_between(start, c.offset, unit);
        let k = line_wide.partition_point(|c| col_of(c) <= position.col);
        let offset = match k.checked_sub(1).map(|k| line_wide[k]) {
            None => start.saturating_add(position.col),
            Some(c) => {
                let past = position.col - col_of(&c);
                let width = u32::from(c.len) - c.extra(unit);
                if past < width {
                    c.offset
                } else {
                    (c.offset + u32::from(c.len)).saturating_add(past - width)
                }
            }
        };
        offset.min(end)
    }

    /// The bytes taken beyond one column per `unit` by the wide characters in
    /// `start..end`.
    fn extra_between(&self, start: u32, end: u32, unit: ColumnUnit) -> u32 {
        if unit == ColumnUnit::Utf8 {
            return 0;
        }
        let total_before = |offset: u32| {
            let k = self.wide.partition_point(|c| c.offset < offset);
            match self.wide.get(k) {
                Some(c) => c.extra_before(unit),
                None => self
                    .wide
                    .last()
                    .map_or(0, |c| c.extra_before(unit) + c.extra(unit)),
            }
        };
        total_before(end) - total_before(start)
    }

    /// The range of `line` including its line ending, or `None` past the last line.
    pub fn line_range(&self, line: u32) -> Option<TextRange> {
        let start = *self.line_starts.get(line as usize)?;
        let end = self
            .line_starts
            .get(line as usize + 1)
            .copied()
            .unwrap_or(self.len);
        Some(TextRange::new(start, end))
    }

    /// The range of `line` without its line ending. (`text` is no longer needed.)
    pub fn line_content(&self, line: u32) -> Option<TextRange> {
        let start = *self.line_starts.get(line as usize)?;
        Some(TextRange::new(start, self.content_ends[line as usize]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_line_endings_count() {
        let text = "a\nb\r\nc\rd";
        let index = LineIndex::new(text);
        assert!(index.line_range(3).is_some() && index.line_range(4).is_none());
        assert_eq!(index.line_col(7), LineCol { line: 3, col: 0 });
        assert_eq!(index.line_col(6), LineCol { line: 2, col: 1 });
        assert_eq!(index.line_col(3), LineCol { line: 1, col: 1 });
        assert_eq!(index.line_content(1), Some(TextRange::new(2, 3)));
        assert_eq!(index.line_col(100), LineCol { line: 3, col: 1 });
    }

    /// The search for `\n`s gives the index that looking at every byte gives.
    #[test]
    fn ascii_lines_are_found_as_byte_by_byte() {
        for text in [
            "",
            "\n",
            "a",
            "a\n",
            "\n\nab\n\n",
            "0 -- 1\n1 -- 2\n# c\n",
            "x\ny",
        ] {
            assert_eq!(
                LineIndex::of_newlines(text),
                LineIndex::scanned(text),
                "{text:?}"
            );
            assert_eq!(LineIndex::new(text), LineIndex::scanned(text), "{text:?}");
        }
    }

    #[test]
    fn char_columns_count_characters() {
        let text = "# é😀x";
        let index = LineIndex::new(text);
        assert_eq!(index.char_col(text.len() as u32), 5);
        // An offset inside a character is moved back to its start.
        assert_eq!(index.char_col(3), 2);
    }

    /// Every offset of a text with every width of character and every line ending,
    /// against columns counted from the line start (the slow, obviously right way), in
    /// all three units and back.
    #[test]
    fn columns_agree_with_counting_from_the_line_start() {
        let text = "é😀x\r\n\r日a😀😀\nb\rü\u{7ff}\u{800}\u{ffff}\u{10000}é";
        let index = LineIndex::new(text);
        for offset in 0..=text.len() as u32 + 2 {
            let clamped = (offset as usize).min(text.len());
            let boundary = (0..=clamped)
                .rev()
                .find(|&i| text.is_char_boundary(i))
                .unwrap();
            let LineCol { line, .. } = index.line_col(offset);
            let line_start = index.line_range(line).unwrap().start as usize;
            // Going back, a position inside a `\r\n` lands before it.
            let content_end = index.line_content(line).unwrap().end;
            let before = &text[line_start..boundary];
            for (unit, expected) in [
                (ColumnUnit::Utf8, before.len()),
                (ColumnUnit::Char, before.chars().count()),
                (ColumnUnit::Utf16, before.encode_utf16().count()),
            ] {
                let position = index.column(offset, unit);
                assert_eq!(
                    position,
                    LineCol {
                        line,
                        col: expected as u32
                    },
                    "offset {offset} in {unit:?}"
                );
                let back = (boundary as u32).min(content_end);
                assert_eq!(index.offset(position, unit), back, "{unit:?}");
            }
        }
    }

    #[test]
    fn positions_out_of_range_are_clamped() {
        let text = "a😀\r\nbc";
        let index = LineIndex::new(text);
        let at = |line, col, unit| index.offset(LineCol { line, col }, unit);
        // Past the end of a line: the end of its content, before the line ending.
        assert_eq!(at(0, 9, ColumnUnit::Utf16), 5);
        assert_eq!(at(0, 9, ColumnUnit::Utf8), 5);
        // Inside the surrogate pair, or inside the UTF-8 bytes: the character's start.
        assert_eq!(at(0, 2, ColumnUnit::Utf16), 1);
        assert_eq!(at(0, 3, ColumnUnit::Utf8), 1);
        assert_eq!(at(0, 3, ColumnUnit::Utf16), 5);
        // Past the last line: the end of the text.
        assert_eq!(at(7, 0, ColumnUnit::Char), text.len() as u32);
        assert_eq!(at(1, u32::MAX, ColumnUnit::Char), text.len() as u32);
    }
}
