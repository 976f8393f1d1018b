//! Byte offset to line and column, for `\n`, `\r\n` and lone `\r` line endings alike.

use super::TextRange;

/// A zero-based line and a zero-based byte column within it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct LineCol {
    pub line: u32,
    pub col: u32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineIndex {
    /// The offset where each line starts; the first is always 0.
    line_starts: Vec<u32>,
    len: u32,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        let bytes = text.as_bytes();
        let mut line_starts = vec![0];
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'\r' if bytes.get(i + 1) == Some(&b'\n') => {
                    line_starts.push(i as u32 + 2);
                    i += 2;
                    continue;
                }
                b'\r' | b'\n' => line_starts.push(i as u32 + 1),
                _ => {}
            }
            i += 1;
        }
        LineIndex {
            line_starts,
            len: text.len() as u32,
        }
    }

    pub fn line_count(&self) -> u32 {
        self.line_starts.len() as u32
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

    /// The range of `line` without its line ending.
    pub fn line_content(&self, text: &str, line: u32) -> Option<TextRange> {
        let range = self.line_range(line)?;
        let content = text.get(range.to_usize())?.trim_end_matches(['\r', '\n']);
        Some(TextRange::new(
            range.start,
            range.start + content.len() as u32,
        ))
    }

    /// The column of `offset` counted in Unicode characters, as compilers print it.
    pub fn char_col(&self, text: &str, offset: u32) -> u32 {
        let LineCol { line, .. } = self.line_col(offset);
        let start = self.line_starts[line as usize] as usize;
        let mut end = (offset as usize).min(text.len());
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text[start..end].chars().count() as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_line_endings_count() {
        let text = "a\nb\r\nc\rd";
        let index = LineIndex::new(text);
        assert_eq!(index.line_count(), 4);
        assert_eq!(index.line_col(7), LineCol { line: 3, col: 0 });
        assert_eq!(index.line_col(6), LineCol { line: 2, col: 1 });
        assert_eq!(index.line_col(3), LineCol { line: 1, col: 1 });
        assert_eq!(index.line_content(text, 1), Some(TextRange::new(2, 3)));
        assert_eq!(index.line_col(100), LineCol { line: 3, col: 1 });
    }

    #[test]
    fn char_columns_count_characters() {
        let text = "# é😀x";
        let index = LineIndex::new(text);
        assert_eq!(index.char_col(text, text.len() as u32), 5);
        // An offset inside a character is moved back to its start.
        assert_eq!(index.char_col(text, 3), 2);
    }
}
