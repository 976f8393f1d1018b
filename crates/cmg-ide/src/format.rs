//! The canonical layout, shared by `cmg fmt` and the server's formatting.
//!
//! Formatting never changes what a file means and never drops a comment:
//! - one statement per line (`;` becomes a line break), single spaces between the
//!   parts of a statement, `{2 5}` groups without commas, at most one blank line in a
//!   row, none at the start or end, and a final line break; line breaks in the style
//!   the file already uses (`\n`, `\r\n` or `\r`: [`Parse::line_ending`]);
//! - a comment after a statement is kept on its line, two spaces after it;
//! - an adjacency literal stays on one line when it fits in [`MAX_WIDTH`] columns and
//!   holds no comment, and otherwise gets one list per line with a trailing comma;
//! - a statement with a syntax error, or a `{ }` group holding a comment, is kept
//!   exactly as written (followed by `;` if it leaves a bracket open, so that it
//!   cannot swallow the next line).

use cmg_syntax::{Chunk, LineIndex, Parse, StatementKind, SyntaxKind, TextRange, Token};

use crate::TextEdit;

/// The widest a one-line adjacency literal may be.
pub const MAX_WIDTH: usize = 80;

/// `text` in the canonical layout; `parse` must be the parse of `text`. The rules go
/// first, in a fixed order (`rules_first.rs`); a file without rules is not parsed again.
pub fn format(text: &str, parse: &Parse) -> String {
    let formatted = print(text, parse, 0..parse.tokens.len());
    let has_rules = parse
        .file
        .statements
        .iter()
        .any(|statement| matches!(statement.kind, cmg_syntax::StatementKind::Rule(_)));
    if has_rules {
        crate::rules_first::rules_first(&formatted)
    } else {
        formatted
    }
}

/// The edit that formats the lines of the statements touching `range`, and nothing
/// else: the lines from the one where the first such statement starts to the one where
/// the last ends (taking in any statement that shares those lines), trailing comments
/// included. Their new text is exactly what [`format`] writes for them, so that
/// formatting a range and then the whole file gives what formatting the whole file
/// gives. `None` when there is nothing to change, or no statement there.
pub fn format_range(text: &str, parse: &Parse, range: TextRange) -> Option<TextEdit> {
    let region = region(text, parse, range, |_| true)?;
    region_edit(text, parse, region)
}

/// What formatting as the user types does: after `]` or a line break at `offset`, the
/// edit that formats the statement just finished (the one ending at the `]`, or the
/// lines before the line break). Only statements that parse are touched, so that an
/// unfinished bracket is never closed with a `;` under the cursor.
pub fn format_on_type(text: &str, parse: &Parse, offset: u32, typed: char) -> Option<TextEdit> {
    let before = match typed {
        ']' => offset.checked_sub(1)?,
        '\n' | '\r' => {
            // The end of the line the break ended, skipping a `\r\n` pair and the
            // indentation an editor may have put on the new line first.
            let head = text.get(..offset as usize)?;
            head.trim_end_matches([' ', '\t'])
                .trim_end_matches(['\n', '\r'])
                .len() as u32
        }
        _ => return None,
    };
    let region = region(text, parse, TextRange::empty(before), |chunk| {
        chunk.statement.is_some()
    })?;
    region_edit(text, parse, region)
}

/// The whole lines to format for `range`, as source offsets and the token indices they
/// hold: every chunk touching `range`, widened to whole lines and to the chunks those
/// lines reach into. `None` if a chunk fails `accept`, or there is none.
fn region(
    text: &str,
    parse: &Parse,
    range: TextRange,
    accept: impl Fn(&Chunk) -> bool,
) -> Option<Region> {
    let chunks = &parse.chunks;
    let touching = |chunk: &Chunk, range: TextRange| {
        chunk.range.start <= range.end && chunk.range.end >= range.start
    };
    let mut first = chunks.partition_point(|chunk| chunk.range.end < range.start);
    if !chunks
        .get(first)
        .is_some_and(|chunk| touching(chunk, range))
    {
        return None;
    }
    let mut last = first;
    while chunks
        .get(last + 1)
        .is_some_and(|chunk| touching(chunk, range))
    {
        last += 1;
    }
    let (mut start, mut end);
    loop {
        start = line_start(text, chunks[first].range.start);
        end = line_end(text, chunks[last].range.end);
        let lines = TextRange::new(start, end);
        // A broken statement that leaves a bracket open gets the `;` that ends it
        // (see `print`), and the separator after it is dropped: the lines after it
        // print as they do in the whole file only with it.
        let before = first.checked_sub(1).filter(|&i| {
            touching(&chunks[i], lines)
                || (chunks[i].statement.is_none()
                    && leaves_bracket_open(&parse.tokens[chunks[i].tokens.clone()]))
        });
        let after = Some(last + 1).filter(|&i| chunks.get(i).is_some_and(|c| touching(c, lines)));
        match (before, after) {
            (None, None) => break,
            (before, after) => {
                first = before.unwrap_or(first);
                last = after.unwrap_or(last);
            }
        }
    }
    if !chunks[first..=last].iter().all(accept) {
        return None;
    }
    let tokens = &parse.tokens;
    Some(Region {
        source: TextRange::new(start, end),
        first_token: tokens.partition_point(|token| token.range.start < start),
        end_token: tokens.partition_point(|token| token.range.start < end),
    })
}

/// The start of the line that holds `offset`.
fn line_start(text: &str, offset: u32) -> u32 {
    text[..offset as usize]
        .rfind(['\n', '\r'])
        .map_or(0, |at| at as u32 + 1)
}

/// The end of the line that holds `offset` (before its line break).
fn line_end(text: &str, offset: u32) -> u32 {
    text[offset as usize..]
        .find(['\n', '\r'])
        .map_or(text.len() as u32, |at| offset + at as u32)
}

fn region_edit(text: &str, parse: &Parse, region: Region) -> Option<TextEdit> {
    let new_text = print(text, parse, region.first_token..region.end_token);
    (new_text != text[region.source.to_usize()]).then_some(TextEdit {
        range: region.source,
        new_text,
    })
}

/// Whole lines of the source and the tokens on them (`first_token..end_token`).
struct Region {
    source: TextRange,
    first_token: usize,
    end_token: usize,
}

/// The canonical layout of the tokens `tokens` of `text`, which start a line (or the
/// text) and end before a line break (or at the end of the text, where the final line
/// break is added). The printer's state at a line start is always the same (nothing on
/// the line; a blank line before it is written before the line, so it belongs to the
/// lines above), so the layout of some lines is the same text whether the whole file
/// or only they are printed: range formatting prints only its lines.
fn print(text: &str, parse: &Parse, tokens: std::ops::Range<usize>) -> String {
    let mut printer = Printer {
        text,
        tokens: &parse.tokens,
        lines: std::cell::OnceCell::new(),
        out: String::new(),
        line_ending: parse.line_ending(text),
        line_has_content: false,
        newlines: 0,
    };
    let first_chunk = parse
        .chunks
        .partition_point(|chunk| chunk.tokens.start < tokens.start);
    let mut chunks = parse.chunks[first_chunk..].iter().peekable();
    let mut i = tokens.start;
    while i < tokens.end {
        if let Some(chunk) = chunks.next_if(|chunk| chunk.tokens.start == i) {
            printer.start_content();
            printer.chunk(parse, chunk);
            i = chunk.tokens.end;
            // A broken statement may leave a bracket open, and then only `;` is sure
            // to end it: a line break could let it swallow the next line.
            if chunk.statement.is_none() && leaves_bracket_open(&parse.tokens[chunk.tokens.clone()])
            {
                printer.out.push(';');
            }
            continue;
        }
        let token = parse.tokens[i];
        match token.kind {
            SyntaxKind::Newline => printer.newline(),
            SyntaxKind::Comment => printer.comment(token.range),
            // Statement separators: the next statement goes on its own line anyway.
            _ => {}
        }
        i += 1;
    }
    if printer.line_has_content && tokens.end == parse.tokens.len() {
        printer.line_break();
    }
    printer.out
}

/// Whether brackets are still open at the end of `tokens`, counted as the parser's
/// statement splitter counts them.
fn leaves_bracket_open(tokens: &[Token]) -> bool {
    if tokens.last().map(|t| t.kind) == Some(SyntaxKind::UnterminatedString) {
        // Its line break ends it, and a `;` would only join the string.
        return false;
    }
    let mut depth = 0usize;
    for token in tokens {
        if token.kind.is_opening_bracket() {
            depth += 1;
        } else if token.kind.is_closing_bracket() {
            depth = depth.saturating_sub(1);
        }
    }
    depth > 0
}

struct Printer<'a> {
    text: &'a str,
    tokens: &'a [Token],
    /// Built on first use (a comment in a long adjacency literal), so that formatting
    /// a few lines does not index the whole file.
    lines: std::cell::OnceCell<LineIndex>,
    out: String,
    line_ending: &'static str,
    /// Whether the current output line holds anything yet.
    line_has_content: bool,
    /// Line breaks in the source since the last thing printed.
    newlines: usize,
}

impl Printer<'_> {
    fn line_break(&mut self) {
        self.out.push_str(self.line_ending);
    }

    fn newline(&mut self) {
        if self.line_has_content {
            self.line_break();
            self.line_has_content = false;
        }
        self.newlines += 1;
    }

    /// Starts a new statement or comment line, keeping one blank line where the source
    /// had any.
    fn start_content(&mut self) {
        let blank_line = self.newlines >= 2 && !self.out.is_empty();
        if self.line_has_content || blank_line {
            self.line_break();
        }
        self.line_has_content = true;
        self.newlines = 0;
    }

    fn comment(&mut self, range: TextRange) {
        let comment = self.text[range.to_usize()].trim_end();
        if self.line_has_content {
            self.out.push_str("  ");
        } else {
            self.start_content();
        }
        self.out.push_str(comment);
        self.line_has_content = true;
        self.newlines = 0;
    }

    fn chunk(&mut self, parse: &Parse, chunk: &Chunk) {
        let tokens = &self.tokens[chunk.tokens.clone()];
        let has_comment = tokens.iter().any(|t| t.kind == SyntaxKind::Comment);
        let statement = chunk.statement.map(|index| &parse.file.statements[index]);
        match statement.map(|s| &s.kind) {
            Some(StatementKind::Adjacency(lists)) => {
                // LeetCode's `graph =` before the literal is dropped: the canonical form is the list.
                let from = tokens
                    .iter()
                    .position(|t| t.kind == SyntaxKind::LBracket)
                    .unwrap_or(0);
                let tokens = &tokens[from..];
                let one_line = self.one_line(tokens);
                if !has_comment && one_line.len() <= MAX_WIDTH {
                    self.out.push_str(&one_line);
                } else {
                    let ranges: Vec<TextRange> = lists.iter().map(|list| list.range).collect();
                    self.adjacency_lines(tokens, &ranges);
                }
            }
            Some(_) if !has_comment => {
                let line = self.one_line(tokens);
                self.out.push_str(&line);
            }
            _ => self.out.push_str(&self.text[chunk.range.to_usize()]),
        }
    }

    /// The significant tokens of `tokens` on one line with canonical spacing.
    fn one_line(&self, tokens: &[Token]) -> String {
        let mut line = String::new();
        let mut previous: Option<SyntaxKind> = None;
        let mut brace_depth = 0usize;
        for token in tokens {
            match token.kind {
                SyntaxKind::Comment | SyntaxKind::Newline => continue,
                SyntaxKind::LBrace => brace_depth += 1,
                SyntaxKind::RBrace => brace_depth = brace_depth.saturating_sub(1),
                // Commas between group members are optional; the canonical form has none.
                SyntaxKind::Comma if brace_depth > 0 => continue,
                _ => {}
            }
            let glued = matches!(
                previous,
                None | Some(SyntaxKind::LBrace | SyntaxKind::LBracket)
            ) || matches!(
                token.kind,
                SyntaxKind::RBrace | SyntaxKind::RBracket | SyntaxKind::Comma
            );
            if !glued {
                line.push(' ');
            }
            let token_text = &self.text[token.range.to_usize()];
            if token.kind == SyntaxKind::Number {
                // `007` is node 7: the canonical form has no leading zeros.
                let digits = token_text.trim_start_matches('0');
                line.push_str(if digits.is_empty() { "0" } else { digits });
            } else {
                line.push_str(token_text);
            }
            previous = Some(token.kind);
        }
        line
    }

    /// An adjacency literal with one list per line. Comments stay after the list they
    /// follow on the same source line, or get a line of their own.
    fn adjacency_lines(&mut self, tokens: &[Token], lists: &[TextRange]) {
        self.out.push('[');
        let comments: Vec<TextRange> = tokens
            .iter()
            .filter(|t| t.kind == SyntaxKind::Comment)
            .map(|t| t.range)
            .collect();
        let mut comments = comments.into_iter().peekable();
        // The end of what was printed last, to tell trailing comments from own-line ones.
        let mut last_end = tokens[0].range.end;
        for &list in lists {
            while let Some(comment) = comments.next_if(|c| c.start < list.start) {
                self.place_comment(comment, last_end);
            }
            self.line_break();
            self.out.push_str("  ");
            // The tokens are in source order, so a list's are one slice, found by two
            // binary searches: a scan per list made a 2 MB literal take seconds.
            let first = tokens.partition_point(|t| t.range.start < list.start);
            let end = tokens.partition_point(|t| t.range.end <= list.end);
            let list_tokens = &tokens[first..end.max(first)];
            self.out.push_str(&self.one_line(list_tokens));
            self.out.push(',');
            last_end = list.end;
            // Comments inside a list go after it, in order.
            let mut first_inside = true;
            while let Some(comment) = comments.next_if(|c| c.end <= list.end) {
                if first_inside {
                    self.out.push_str("  ");
                    self.out.push_str(self.text[comment.to_usize()].trim_end());
                    first_inside = false;
                } else {
                    self.own_line_comment(comment);
                }
            }
            if !first_inside {
                // The list's line now ends in a comment: nothing else may join it.
                last_end = u32::MAX;
            }
        }
        for comment in comments {
            self.place_comment(comment, last_end);
        }
        self.line_break();
        self.out.push(']');
    }

    fn place_comment(&mut self, comment: TextRange, last_end: u32) {
        let lines = self.lines.get_or_init(|| LineIndex::new(self.text));
        let same_line = last_end != u32::MAX
            && lines.line_col(last_end).line == lines.line_col(comment.start).line;
        if same_line {
            self.out.push_str("  ");
            self.out.push_str(self.text[comment.to_usize()].trim_end());
        } else {
            self.own_line_comment(comment);
        }
    }

    fn own_line_comment(&mut self, comment: TextRange) {
        self.line_break();
        self.out.push_str("  ");
        self.out.push_str(self.text[comment.to_usize()].trim_end());
    }
}

#[cfg(test)]
mod tests {
    use expect_test::{expect, Expect};
    use proptest::prelude::*;

    use super::*;
    use crate::test_utils::{apply_edits, piece};

    /// `fixture` with its range between two `$0` markers (or at one) formatted.
    fn check_range(fixture: &str, expect: Expect) {
        let start = fixture.find("$0").expect("a marker");
        let text = fixture.replace("$0", "");
        let end = fixture.rfind("$0").expect("a marker")
            - if fixture.matches("$0").count() > 1 {
                2
            } else {
                0
            };
        let range = TextRange::new(start as u32, end as u32);
        let parse = cmg_syntax::parse(&text);
        let edits: Vec<TextEdit> = format_range(&text, &parse, range).into_iter().collect();
        expect.assert_eq(&apply_edits(&text, &edits));
    }

    fn check_typed(fixture: &str, typed: char, expect: Expect) {
        let (text, offset) = crate::test_utils::cursor(fixture);
        let parse = cmg_syntax::parse(&text);
        let edits: Vec<TextEdit> = format_on_type(&text, &parse, offset, typed)
            .into_iter()
            .collect();
        expect.assert_eq(&apply_edits(&text, &edits));
    }

    #[test]
    fn only_the_lines_of_the_statements_in_the_range() {
        check_range(
            "0--1\n\n\n  1--{2,$05}   # c\n3--4;4--5\n",
            expect![[r##"
                0--1


                1 -- {2 5}  # c
                3--4;4--5
            "##]],
        );
        check_range(
            "0--1\n1--$02\n3--4;4--$05\n6--7\n",
            expect![[r##"
                0--1
                1 -- 2
                3 -- 4
                4 -- 5
                6--7
            "##]],
        );
    }

    #[test]
    fn a_multi_line_literal_and_the_statement_sharing_its_line() {
        check_range(
            "0--1; [\n[1,$02], [0]\n]\n",
            expect![[r##"
                0 -- 1
                [[1, 2], [0]]
            "##]],
        );
        // A range on the first statement reaches the literal through the line they
        // share: the region's end widens to the literal's last line, or the edit would
        // print the literal and leave its tail behind, twice.
        check_range(
            "0--$01; [\n[1,2], [0]\n]\n",
            expect![[r##"
                0 -- 1
                [[1, 2], [0]]
            "##]],
        );
    }

    #[test]
    fn nothing_outside_statements_and_nothing_already_formatted() {
        check_range("0 -- 1\n$0\n  # c\n", expect!["0 -- 1\n\n  # c\n"]);
        check_range("0 -- $01\n", expect!["0 -- 1\n"]);
    }

    /// A broken statement above the range is taken in only when it leaves a bracket
    /// open; a line above that is merely broken is left alone and the range formatted.
    #[test]
    fn a_broken_line_above_the_range_is_left_alone() {
        check_range("0 -- -\n2--$03\n", expect!["0 -- -\n2 -- 3\n"]);
        check_range("0 -- ]\n2--$03\n", expect!["0 -- ]\n2 -- 3\n"]);
        // Not even rewritten as it was: the edit starts on the range's line.
        for text in ["0 -- -\n2--3\n", "0 -- ]\n2--3\n"] {
            let parse = cmg_syntax::parse(text);
            let edit = format_range(text, &parse, TextRange::new(9, 9)).expect("an edit");
            assert_eq!(edit.range.start, 7, "{text:?}: {edit:?}");
        }
    }

    #[test]
    fn the_last_line_gets_its_line_break() {
        check_range("0--$01", expect!["0 -- 1\n"]);
    }

    #[test]
    fn on_type_formats_the_statement_just_finished() {
        check_typed(
            "0--1\n[[1,2],[0]]$0\n",
            ']',
            expect![[r##"
                0--1
                [[1, 2], [0]]
            "##]],
        );
        check_typed(
            "0--1\n1--{2,5}\n$0\n",
            '\n',
            expect![[r##"
                0--1
                1 -- {2 5}

            "##]],
        );
        check_typed("1--{2,5}\r\n$0", '\n', expect!["1 -- {2 5}\r\n"]);
        // The editor indented the new line before asking.
        check_typed("0--1\n  $0", '\n', expect!["0 -- 1\n  "]);
    }

    #[test]
    fn on_type_leaves_an_unfinished_statement_alone() {
        check_typed("[[1,2]$0\n", ']', expect!["[[1,2]\n"]);
        check_typed("[[1,2],\n$0", '\n', expect!["[[1,2],\n"]);
        check_typed("0--1$0", 'x', expect!["0--1"]);
    }

    /// The `;` that ends a broken statement's open bracket is printed with that
    /// statement, so a range after it takes it in.
    #[test]
    fn a_range_after_an_open_bracket_takes_in_the_statement_that_opened_it() {
        let text = "1 -- [\n;]";
        let parse = cmg_syntax::parse(text);
        let edit = format_range(text, &parse, TextRange::new(7, 8)).expect("an edit");
        let result = apply_edits(text, std::slice::from_ref(&edit));
        assert_eq!(result, format(text, &parse));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// Formatting any range keeps the parse (the same errors, and what the whole
        /// file formats to) and is idempotent: the range formatted again is left alone.
        #[test]
        fn formatting_any_range_keeps_the_parse_and_is_idempotent(
            pieces in prop::collection::vec(piece(), 0..14),
            a in 0usize..400,
            b in 0usize..400,
        ) {
            let text: String = pieces.concat();
            let clamp = |at: usize| (0..=at.min(text.len())).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0) as u32;
            let range = TextRange::new(clamp(a.min(b)), clamp(a.max(b)));
            let parse = cmg_syntax::parse(&text);
            let Some(edit) = format_range(&text, &parse, range) else {
                return Ok(());
            };
            let result = apply_edits(&text, std::slice::from_ref(&edit));
            let reparsed = cmg_syntax::parse(&result);
            prop_assert_eq!(reparsed.errors.len(), parse.errors.len());
            prop_assert_eq!(format(&result, &reparsed), format(&text, &parse));
            let again = TextRange::new(edit.range.start, edit.range.start + edit.new_text.len() as u32);
            prop_assert_eq!(format_range(&result, &reparsed, again), None);
        }
    }
}
