//! Byte ranges into a document: the one kind of position used inside cmg.

use std::fmt;
use std::ops::Range;

/// A half-open range of byte offsets `start..end` into a document's text.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct TextRange {
    pub start: u32,
    pub end: u32,
}

impl TextRange {
    pub fn new(start: u32, end: u32) -> TextRange {
        debug_assert!(start <= end);
        TextRange { start, end }
    }

    /// An empty range at `offset`.
    pub fn empty(offset: u32) -> TextRange {
        TextRange::new(offset, offset)
    }

    /// The smallest range covering both `self` and `other`.
    pub fn cover(self, other: TextRange) -> TextRange {
        TextRange::new(self.start.min(other.start), self.end.max(other.end))
    }

    pub fn len(self) -> u32 {
        self.end - self.start
    }

    pub fn is_empty(self) -> bool {
        self.start == self.end
    }

    /// Whether `offset` lies in the range, counting its end: a cursor just after a
    /// token still touches it.
    pub fn touches(self, offset: u32) -> bool {
        self.start <= offset && offset <= self.end
    }

    pub fn contains_range(self, other: TextRange) -> bool {
        self.start <= other.start && other.end <= self.end
    }

    pub fn to_usize(self) -> Range<usize> {
        self.start as usize..self.end as usize
    }
}

impl From<Range<usize>> for TextRange {
    fn from(range: Range<usize>) -> TextRange {
        TextRange::new(range.start as u32, range.end as u32)
    }
}

impl fmt::Debug for TextRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}..{}", self.start, self.end)
    }
}
