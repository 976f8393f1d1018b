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

/// The widest a one-line adjacency literal may be.
pub const MAX_WIDTH: usize = 80;

/// `text` in the canonical layout; `parse` must be the parse of `text`.
pub fn format(text: &str, parse: &Parse) -> String {
    let mut printer = Printer {
        text,
        tokens: &parse.tokens,
        lines: LineIndex::new(text),
        out: String::new(),
        line_ending: parse.line_ending(text),
        line_has_content: false,
        newlines: 0,
    };
    let mut chunks = parse.chunks.iter().peekable();
    let mut i = 0;
    while i < parse.tokens.len() {
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
    if printer.line_has_content {
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
    lines: LineIndex,
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
        let same_line = last_end != u32::MAX
            && self.lines.line_col(last_end).line == self.lines.line_col(comment.start).line;
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
