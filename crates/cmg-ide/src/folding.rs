//! Folding ranges: statements that span lines, and runs of comment lines.
//!
//! Only a bracketed statement can span lines, so in practice the regions are long
//! adjacency literals (and the rare multi-line `{ }` group). A comment run is two or
//! more consecutive lines that hold nothing but a comment; a blank line ends a run.

use cmg_core::analysis::Analysis;
use cmg_syntax::{SyntaxKind, TextRange};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FoldKind {
    Region,
    Comment,
}

/// A foldable byte range; the server turns it into lines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fold {
    pub range: TextRange,
    pub kind: FoldKind,
}

/// Every fold, ordered by start.
pub fn folding_ranges(analysis: &Analysis) -> Vec<Fold> {
    let line_of = |offset: u32| analysis.line_index.line_col(offset).line;
    let mut folds: Vec<Fold> = analysis
        .parse
        .file
        .statements
        .iter()
        .filter(|statement| line_of(statement.range.start) < line_of(statement.range.end))
        .map(|statement| Fold {
            range: statement.range,
            kind: FoldKind::Region,
        })
        .collect();

    // Comments that are alone on their line, with that line, in source order.
    let mut line_has_code = false;
    let mut comment_lines: Vec<(TextRange, u32)> = Vec::new();
    for token in &analysis.parse.tokens {
        match token.kind {
            SyntaxKind::Newline => line_has_code = false,
            SyntaxKind::Comment if !line_has_code => {
                comment_lines.push((token.range, line_of(token.range.start)));
            }
            _ => line_has_code = true,
        }
    }
    let mut rest = comment_lines.as_slice();
    while let Some(&(first, _)) = rest.first() {
        let run = 1 + rest
            .windows(2)
            .take_while(|pair| pair[0].1 + 1 == pair[1].1)
            .count();
        if run >= 2 {
            folds.push(Fold {
                range: first.cover(rest[run - 1].0),
                kind: FoldKind::Comment,
            });
        }
        rest = &rest[run..];
    }
    folds.sort_by_key(|fold| fold.range.start);
    folds
}

#[cfg(test)]
mod tests {
    use expect_test::{expect, Expect};

    use crate::test_utils::analyze;

    use super::*;

    fn check(fixture: &str, expect: Expect) {
        let (analysis, _, _) = analyze(fixture);
        let actual: String = folding_ranges(&analysis)
            .iter()
            .map(|fold| {
                let start = analysis.line_index.line_col(fold.range.start).line;
                let end = analysis.line_index.line_col(fold.range.end).line;
                format!(
                    "{:?} lines {start}..={end} {:?}: {:?}\n",
                    fold.kind,
                    fold.range,
                    &analysis.text[fold.range.to_usize()]
                )
            })
            .collect();
        expect.assert_eq(&actual);
    }

    #[test]
    fn adjacency_literal_and_comment_runs() {
        check(
            "# one\n# two\n\n# alone\n[\n  [1, 2],  # first\n  # inside\n  # the list\n  [0],\n]\n1 -- 2 # a\n# b\n",
            expect![[r##"
                Comment lines 0..=1 0..11: "# one\n# two"
                Region lines 4..=9 21..74: "[\n  [1, 2],  # first\n  # inside\n  # the list\n  [0],\n]"
                Comment lines 6..=7 44..65: "# inside\n  # the list"
            "##]],
        );
    }

    #[test]
    fn multi_line_group() {
        check(
            "1 -- {\n  2\n  3\n}\n0 -- 1\n",
            expect![[r##"
                Region lines 0..=3 0..16: "1 -- {\n  2\n  3\n}"
            "##]],
        );
    }

    #[test]
    fn unicode_and_crlf() {
        check(
            "# é😀\r\n# ü\r\n[[1],\r\n [0]]\r",
            expect![[r##"
                Comment lines 0..=1 0..14: "# é😀\r\n# ü"
                Region lines 2..=3 16..28: "[[1],\r\n [0]]"
            "##]],
        );
    }

    #[test]
    fn nothing_to_fold() {
        check("# one\n0 -- 1\n# two\n", expect![""]);
        check("", expect![""]);
    }
}
