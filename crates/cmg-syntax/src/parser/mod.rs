//! The parser: tokens to statements, recovering at every statement boundary.
//!
//! Recovery works in two steps. First the token list is cut into statements at
//! newlines and `;` (newlines inside `{ }` and `[ ]` do not count, unless the next
//! line plainly starts a new statement, which is how an unclosed bracket is kept from
//! swallowing the rest of the file). Then each statement is parsed on its own by the
//! chumsky grammar, so a broken statement yields exactly one error and nothing else.
//! The plain edge chains most files are made of skip the grammar (see [`edge_chain`]),
//! which reads them the same way at a fraction of the cost.

use chumsky::input::{Stream, ValueInput};
use chumsky::prelude::*;

use super::ast::*;
use super::lexer::{lex, SyntaxKind, Token};
use super::TextRange;
use messages::syntax_error;

mod messages;

/// The result of parsing: never fails, errors are data.
#[derive(Clone, Debug, Default)]
pub struct Parse {
    /// Every token of the text, comments and newlines included.
    pub tokens: Vec<Token>,
    pub file: SourceFile,
    /// One chunk per statement in the text, broken or not, in order.
    pub chunks: Vec<Chunk>,
    pub errors: Vec<SyntaxError>,
    /// The index of every token that ends a statement (a `;`, or a newline outside
    /// brackets or before a line that plainly starts a new statement), in order.
    breaks: Vec<u32>,
    /// What the statements own besides their list, summed as they are read: the
    /// memory budget asks for it once per analysis, and summing it then walked every
    /// statement again.
    statement_heap: usize,
}

impl Parse {
    /// The heap bytes this parse holds on to, approximately (buffers by capacity).
    pub fn heap_bytes(&self) -> usize {
        self.heap_parts()
            .iter()
            .map(|(_, bytes)| bytes)
            .sum::<usize>()
            + self.statement_heap
            + self
                .errors
                .iter()
                .map(|error| error.message.capacity())
                .sum::<usize>()
    }

    /// The buffers of [`Parse::heap_bytes`] by part, for the memory tests (what the
    /// statements and errors own besides is not in them).
    #[doc(hidden)]
    pub fn heap_parts(&self) -> [(&'static str, usize); 5] {
        use crate::heap::vec_bytes;
        [
            ("tokens", vec_bytes(&self.tokens)),
            ("statements", vec_bytes(&self.file.statements)),
            ("chunks", vec_bytes(&self.chunks)),
            ("errors", vec_bytes(&self.errors)),
            ("breaks", vec_bytes(&self.breaks)),
        ]
    }

    /// The line ending the file uses, for the lines that the formatter and the code
    /// actions write: that of its first line break between statements, `\n` when it
    /// has none. Breaks inside a statement don't count: the formatter may join that
    /// statement's lines, and its output must pick the same ending again.
    pub fn line_ending(&self, text: &str) -> &'static str {
        let mut chunks = self.chunks.iter().peekable();
        for (i, token) in self.tokens.iter().enumerate() {
            while chunks.next_if(|chunk| chunk.tokens.end <= i).is_some() {}
            let inside_chunk = chunks.peek().is_some_and(|chunk| chunk.tokens.contains(&i));
            if token.kind == SyntaxKind::Newline && !inside_chunk {
                return match &text[token.range.to_usize()] {
                    "\r\n" => "\r\n",
                    "\r" => "\r",
                    _ => "\n",
                };
            }
        }
        "\n"
    }

    /// The index of the first token of the statement that the tokens before `end` end
    /// in: just after the last statement break before `end`. Completion reads its
    /// context from there, cut as the parser cut the statements.
    pub fn statement_start(&self, end: usize) -> usize {
        let before = self.breaks.partition_point(|&i| (i as usize) < end);
        before
            .checked_sub(1)
            .map_or(0, |last| self.breaks[last] as usize + 1)
    }
}

/// The heap a statement owns: its groups and members where they spilled out of line, a
/// label, the lists of an adjacency literal.
fn statement_heap_bytes(statement: &Statement) -> usize {
    use crate::heap::{small_vec_bytes, vec_bytes};
    match &statement.kind {
        StatementKind::Edges(groups) | StatementKind::Arcs(groups) => {
            small_vec_bytes(groups)
                + groups
                    .iter()
                    .map(|group| small_vec_bytes(&group.members))
                    .sum::<usize>()
        }
        StatementKind::Node(decl) => decl
            .label
            .as_ref()
            .map_or(0, |label| label.value.capacity()),
        StatementKind::Expect(_) => 0,
        StatementKind::Rule(rule) => vec_bytes(&rule.args),
        StatementKind::Adjacency(lists) => {
            vec_bytes(lists)
                + lists
                    .iter()
                    .map(|list| vec_bytes(&list.neighbours))
                    .sum::<usize>()
        }
    }
}

/// The tokens of one statement as written, without its terminator or trailing comment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chunk {
    /// Indices into [`Parse::tokens`].
    pub tokens: std::ops::Range<usize>,
    pub range: TextRange,
    /// The index of the statement in [`SourceFile::statements`], or `None` if it is broken.
    pub statement: Option<usize>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    pub range: TextRange,
    pub message: String,
}

pub fn parse(text: &str) -> Parse {
    parse_with(text, Route::FastPathFirst)
}

/// Which reader a statement goes to: see [`edge_chain`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Route {
    /// Plain edge chains are read straight from the tokens, the rest by the grammar.
    FastPathFirst,
    /// Every statement through the grammar: what the fast path is tested against.
    #[cfg_attr(not(test), allow(dead_code))]
    GrammarOnly,
}

fn parse_with(text: &str, route: Route) -> Parse {
    let tokens = lex(text);
    // The chunks are cut first, each with its tokens only; reading each fills in its
    // range and statement, so the cut needs no list of its own.
    let (mut chunks, breaks) = split_statements(&tokens);
    let mut file = SourceFile {
        statements: Vec::with_capacity(chunks.len()),
    };
    let mut errors = Vec::new();
    let mut statement_heap = 0;
    // One parser for the whole file, run on each statement in turn.
    let parser = statement(text);
    let mut significant: Vec<Token> = Vec::new();
    for chunk in &mut chunks {
        let written = &tokens[chunk.tokens.clone()];
        let fast = match route {
            Route::FastPathFirst => edge_chain(text, written),
            Route::GrammarOnly => None,
        };
        let fast_link = fast.is_some();
        let (range, parsed) = match fast {
            // A statement the fast path accepts has no comment or newline inside.
            Some(kind) => (
                written[0].range.cover(written[written.len() - 1].range),
                Ok(kind),
            ),
            None => {
                // One buffer for every statement: a file of 75 000 lines would
                // otherwise allocate 75 000 times here.
                significant.clear();
                significant.extend(
                    written
                        .iter()
                        .filter(|t| !matches!(t.kind, SyntaxKind::Comment | SyntaxKind::Newline)),
                );
                let range = significant[0]
                    .range
                    .cover(significant[significant.len() - 1].range);
                // The statement's range keeps LeetCode's `graph =`; the grammar reads the literal.
                let read = &significant[puzzle_name(text, &significant)..];
                let input = token_stream(read);
                (range, parse_statement(&parser, input, text, read))
            }
        };
        chunk.range = range;
        chunk.statement = match parsed {
            Ok(kind) => {
                let statement = Statement { range, kind };
                // `a -- b` read by the fast path keeps everything inline.
                if !(fast_link && written.len() == 3) {
                    statement_heap += statement_heap_bytes(&statement);
                }
                file.statements.push(statement);
                Some(file.statements.len() - 1)
            }
            Err(error) => {
                errors.push(error);
                None
            }
        };
    }
    // The lexer reserves a token per two bytes and most files have fewer; the parse is
    // kept as long as the document is open, so it keeps only what it holds (shrinking
    // a large buffer moves no bytes: the allocator remaps it).
    let mut tokens = tokens;
    tokens.shrink_to_fit();
    let mut breaks = breaks;
    breaks.shrink_to_fit();
    chunks.shrink_to_fit();
    Parse {
        tokens,
        file,
        chunks,
        errors,
        breaks,
        statement_heap,
    }
}

/// Cuts the token list into statements in one pass: a chunk per statement, with only
/// its tokens (a range that starts and ends with a token that is neither a comment nor
/// a newline) filled in. Also returns the index of every token that ends a statement
/// (see [`Parse::statement_start`]).
fn split_statements(tokens: &[Token]) -> (Vec<Chunk>, Vec<u32>) {
    let is_gap = |kind: SyntaxKind| {
        matches!(
            kind,
            SyntaxKind::Newline | SyntaxKind::Semicolon | SyntaxKind::Comment
        )
    };
    let mut breaks = Breaks::new(tokens);
    // An edge line `a -- b` is four tokens with its line break.
    let mut statements = Vec::with_capacity(tokens.len() / 3);
    let mut break_indices = Vec::with_capacity(tokens.len() / 3);
    let mut i = 0;
    while i < tokens.len() {
        if is_gap(tokens[i].kind) {
            // Between statements the depth is 0, so every newline and `;` ends one.
            if tokens[i].kind != SyntaxKind::Comment {
                break_indices.push(i as u32);
            }
            i += 1;
            continue;
        }
        let start = i;
        let mut depth = 0usize;
        while i < tokens.len() && !breaks.is_break(i, depth) {
            match tokens[i].kind {
                kind if kind.is_opening_bracket() => depth += 1,
                kind if kind.is_closing_bracket() => depth = depth.saturating_sub(1),
                _ => {}
            }
            i += 1;
        }
        if i < tokens.len() {
            break_indices.push(i as u32);
            i += 1;
        }
        let mut end = i;
        while matches!(
            tokens[end - 1].kind,
            SyntaxKind::Comment | SyntaxKind::Newline | SyntaxKind::Semicolon
        ) {
            end -= 1;
        }
        statements.push(Chunk {
            tokens: start..end,
            range: TextRange::default(),
            statement: None,
        });
    }
    (statements, break_indices)
}

/// Decides which tokens end a statement. A newline inside brackets looks ahead to the
/// next significant token; what it finds there is remembered, so a run of comment lines
/// inside brackets is looked through once, not once per line.
struct Breaks<'a> {
    tokens: &'a [Token],
    /// The first token after the last newline looked from that is neither a comment
    /// nor a newline (`tokens.len()` if none), and whether a statement starts there.
    next_significant: usize,
    starts_statement: bool,
}

impl<'a> Breaks<'a> {
    fn new(tokens: &'a [Token]) -> Breaks<'a> {
        Breaks {
            tokens,
            next_significant: 0,
            starts_statement: false,
        }
    }

    /// Whether `tokens[i]` ends the statement it is in, at bracket depth `depth`: `;`
    /// always does, and a line break outside brackets. Inside brackets a line break is
    /// plain whitespace, unless what follows cannot continue a bracket and plainly
    /// starts a statement (a keyword, `--`, `{`, or `NUMBER --`), or the line ends in an
    /// unterminated string (nothing could be added to that line to close the bracket).
    /// Called with increasing `i`.
    fn is_break(&mut self, i: usize, depth: usize) -> bool {
        let tokens = self.tokens;
        match tokens[i].kind {
            SyntaxKind::Semicolon => true,
            SyntaxKind::Newline => {
                depth == 0
                    || (i > 0 && tokens[i - 1].kind == SyntaxKind::UnterminatedString)
                    || self.next_line_starts_statement(i)
            }
            _ => false,
        }
    }

    fn next_line_starts_statement(&mut self, newline: usize) -> bool {
        // Every token between `newline` and the remembered one is insignificant, so the
        // answer found from an earlier newline of the same run still holds.
        if self.next_significant > newline {
            return self.starts_statement;
        }
        let mut rest = self.tokens[newline + 1..]
            .iter()
            .enumerate()
            .filter(|(_, t)| !matches!(t.kind, SyntaxKind::Comment | SyntaxKind::Newline));
        let first = rest.next();
        self.next_significant = first.map_or(self.tokens.len(), |(k, _)| newline + 1 + k);
        self.starts_statement = match first.map(|(_, t)| t.kind) {
            Some(SyntaxKind::Number) => matches!(
                rest.next().map(|(_, t)| t.kind),
                Some(SyntaxKind::DashDash | SyntaxKind::Arrow)
            ),
            Some(kind) => {
                kind.is_keyword()
                    || matches!(
                        kind,
                        SyntaxKind::DashDash | SyntaxKind::Arrow | SyntaxKind::LBrace
                    )
            }
            None => false,
        };
        self.starts_statement
    }
}

/// The statement most files are made of, `NUMBER -- NUMBER ( -- NUMBER )*`, read
/// straight from its tokens, which costs a fraction of a run of the grammar. It only
/// accepts: anything else (braces, a keyword, a comment inside, a broken chain) is
/// `None` and goes to the grammar, which stays the one place that reports errors. What
/// it returns is exactly what the grammar returns for these tokens; a property test in
/// this module checks that on random and broken token sequences.
fn edge_chain(text: &str, tokens: &[Token]) -> Option<StatementKind> {
    let is_chain = tokens.len() >= 3
        && tokens.len() % 2 == 1
        && tokens.iter().enumerate().all(|(i, token)| {
            token.kind
                == if i % 2 == 0 {
                    SyntaxKind::Number
                } else {
                    SyntaxKind::DashDash
                }
        });
    if !is_chain {
        return None;
    }
    let group = |token: &Token| {
        let node = NodeRef {
            id: parse_node_id(&text[token.range.to_usize()]),
            range: token.range,
        };
        Group {
            range: node.range,
            braced: false,
            members: Members::from_buf([node]),
        }
    };
    let groups = match tokens {
        [a, _, b] => Groups::from_buf([group(a), group(b)]),
        _ => tokens.iter().step_by(2).map(group).collect(),
    };
    Some(StatementKind::Edges(groups))
}

/// LeetCode shows its input as `graph = [[2,5],[3],...]`: that name and `=` before an
/// adjacency literal are part of the statement and read as nothing. Returns how many
/// tokens they are (2), or 0 when the statement does not start so.
fn puzzle_name(text: &str, tokens: &[Token]) -> usize {
    match tokens {
        [name, equals, bracket, ..]
            if name.kind == SyntaxKind::Word
                && &text[name.range.to_usize()] == "graph"
                && &text[equals.range.to_usize()] == "="
                && bracket.kind == SyntaxKind::LBracket =>
        {
            2
        }
        _ => 0,
    }
}

type Extra<'a> = extra::Err<Rich<'a, SyntaxKind>>;

/// The significant tokens of one statement as chumsky input, spans in bytes.
fn token_stream<'a>(
    tokens: &[Token],
) -> impl ValueInput<'a, Token = SyntaxKind, Span = SimpleSpan> {
    let end = tokens.last().map_or(0, |t| t.range.end as usize);
    Stream::from_iter(
        tokens
            .iter()
            .map(|t| (t.kind, SimpleSpan::from(t.range.to_usize())))
            .collect::<Vec<_>>(),
    )
    .map(SimpleSpan::from(end..end), |(kind, span): (_, _)| {
        (kind, span)
    })
}

fn parse_statement<'a, I>(
    parser: &impl Parser<'a, I, StatementKind, Extra<'a>>,
    input: I,
    text: &str,
    tokens: &[Token],
) -> Result<StatementKind, SyntaxError>
where
    I: ValueInput<'a, Token = SyntaxKind, Span = SimpleSpan>,
{
    let last = tokens[tokens.len() - 1].range;
    let (output, errors) = parser.parse(input).into_output_errors();
    match (output, errors.into_iter().next()) {
        (Some(kind), None) => Ok(kind),
        (_, Some(error)) if error.span().start == last.end as usize => {
            Err(unclosed_bracket(text, tokens).unwrap_or_else(|| syntax_error(text, &error, last)))
        }
        (_, Some(error)) => Err(syntax_error(text, &error, last)),
        (None, None) => Err(SyntaxError {
            range: last,
            message: "this statement could not be read".to_owned(),
        }),
    }
}

fn statement<'a, I>(text: &'a str) -> impl Parser<'a, I, StatementKind, Extra<'a>> + Clone
where
    I: ValueInput<'a, Token = SyntaxKind, Span = SimpleSpan>,
{
    let node = just(SyntaxKind::Number).map_with(move |_, e| {
        let span: SimpleSpan = e.span();
        NodeRef {
            id: parse_node_id(&text[span.into_range()]),
            range: TextRange::from(span.into_range()),
        }
    });

    let single = node.map(|node: NodeRef| Group {
        range: node.range,
        braced: false,
        members: Members::from_buf([node]),
    });
    let braced = node
        .then(
            just(SyntaxKind::Comma)
                .or_not()
                .ignore_then(node)
                .repeated()
                .collect::<Vec<_>>(),
        )
        .delimited_by(just(SyntaxKind::LBrace), just(SyntaxKind::RBrace))
        .map_with(|(first, rest), e| {
            let span: SimpleSpan = e.span();
            Group {
                range: TextRange::from(span.into_range()),
                braced: true,
                members: std::iter::once(first).chain(rest).collect(),
            }
        });
    let group = single.or(braced);
    // A chain is all `--` or all `->`: after its first link, the other kind of link is
    // a syntax error.
    let chain = group.then(choice((
        just(SyntaxKind::DashDash)
            .ignore_then(group)
            .repeated()
            .at_least(1)
            .collect::<Vec<_>>()
            .map(|rest| (false, rest)),
        just(SyntaxKind::Arrow)
            .ignore_then(group)
            .repeated()
            .at_least(1)
            .collect::<Vec<_>>()
            .map(|rest| (true, rest)),
    )));
    let edges = chain.map(|(first, (one_way, rest))| {
        let groups: Groups = std::iter::once(first).chain(rest).collect();
        if one_way {
            StatementKind::Arcs(groups)
        } else {
            StatementKind::Edges(groups)
        }
    });

    let label = just(SyntaxKind::String).try_map(move |_, span: SimpleSpan| {
        let range = TextRange::from(span.into_range());
        label_value(&text[range.to_usize()])
            .map(|value| Label { value, range })
            .map_err(|message| Rich::custom(span, message))
    });
    let node_decl = just(SyntaxKind::NodeKw)
        .ignore_then(node)
        .then(label.or_not())
        .map(|(node, label)| StatementKind::Node(NodeDecl { node, label }));

    let outcome = choice((
        just(SyntaxKind::MouseKw).to(ExpectedOutcome::Mouse),
        just(SyntaxKind::CatKw).to(ExpectedOutcome::Cat),
        just(SyntaxKind::DrawKw).to(ExpectedOutcome::Draw),
    ))
    .map_with(|outcome, e| {
        let span: SimpleSpan = e.span();
        (outcome, TextRange::from(span.into_range()))
    });
    let expect = just(SyntaxKind::ExpectKw)
        .map_with(|_, e| {
            let span: SimpleSpan = e.span();
            TextRange::from(span.into_range())
        })
        .then(outcome)
        .map(|(keyword_range, (outcome, outcome_range))| {
            StatementKind::Expect(Expect {
                keyword_range,
                outcome,
                outcome_range,
            })
        });

    let list = node
        .separated_by(just(SyntaxKind::Comma))
        .allow_trailing()
        .collect::<Vec<_>>()
        .delimited_by(just(SyntaxKind::LBracket), just(SyntaxKind::RBracket))
        .map_with(|neighbours, e| {
            let span: SimpleSpan = e.span();
            AdjacencyList {
                range: TextRange::from(span.into_range()),
                neighbours,
            }
        });
    let adjacency = list
        .separated_by(just(SyntaxKind::Comma))
        .allow_trailing()
        .collect::<Vec<_>>()
        .delimited_by(just(SyntaxKind::LBracket), just(SyntaxKind::RBracket))
        .map(StatementKind::Adjacency);

    let rule = rule_statement(text);

    choice((edges, node_decl, expect, adjacency, rule)).then_ignore(end())
}

/// `rule NAME ARG…`: any word as the name, and numbers, `mouse`, `cat` or words as
/// arguments; the model says whether they fit the rule.
fn rule_statement<'a, I>(text: &'a str) -> impl Parser<'a, I, StatementKind, Extra<'a>> + Clone
where
    I: ValueInput<'a, Token = SyntaxKind, Span = SimpleSpan>,
{
    let range = |span: SimpleSpan| TextRange::from(span.into_range());
    let arg = choice((
        just(SyntaxKind::Number).map_with(move |_, e| {
            let span: SimpleSpan = e.span();
            RuleValue::Number(parse_node_id(&text[span.into_range()]))
        }),
        just(SyntaxKind::MouseKw).to(RuleValue::Mouse),
        just(SyntaxKind::CatKw).to(RuleValue::Cat),
        just(SyntaxKind::Word).to(RuleValue::Word),
    ))
    .map_with(move |value, e| RuleArg {
        range: range(e.span()),
        value,
    });
    just(SyntaxKind::RuleKw)
        .map_with(move |_, e| range(e.span()))
        .then(just(SyntaxKind::Word).map_with(move |_, e| {
            let name_range = range(e.span());
            (
                RuleName::from_name(&text[name_range.to_usize()]),
                name_range,
            )
        }))
        .then(arg.repeated().collect::<Vec<_>>())
        .map(|((keyword_range, (name, name_range)), args)| {
            StatementKind::Rule(RuleDecl {
                keyword_range,
                name,
                name_range,
                args,
            })
        })
}

/// When a statement ends inside brackets, the bracket left open is the mistake to
/// point at, not the end of the line.
fn unclosed_bracket(text: &str, tokens: &[Token]) -> Option<SyntaxError> {
    let mut open: Vec<Token> = Vec::new();
    for &token in tokens {
        if token.kind.is_opening_bracket() {
            open.push(token);
        } else if token.kind.is_closing_bracket() {
            open.pop();
        }
    }
    let bracket = open.pop()?;
    let closing = if bracket.kind == SyntaxKind::LBrace {
        '}'
    } else {
        ']'
    };
    Some(SyntaxError {
        range: bracket.range,
        message: format!(
            "this `{}` is never closed: add a `{closing}` where it ends",
            &text[bracket.range.to_usize()]
        ),
    })
}

/// A node id, or `None` when it is above [`MAX_NODE_ID`].
pub fn parse_node_id(digits: &str) -> Option<u32> {
    digits
        .parse::<u64>()
        .ok()
        .filter(|&id| id <= u64::from(MAX_NODE_ID))
        .map(|id| id as u32)
}

/// The value of a string token, quotes removed and `\"`, `\\` resolved: a label's
/// value, or the message of the syntax error it is.
pub fn label_value(quoted: &str) -> Result<String, String> {
    let inner = &quoted[1..quoted.len() - 1];
    let mut value = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            value.push(c);
            continue;
        }
        match chars.next() {
            Some(escaped @ ('"' | '\\')) => value.push(escaped),
            Some(other) => {
                return Err(format!(
                    "unknown escape `\\{other}` in a label: only `\\\"` and `\\\\` are allowed"
                ))
            }
            None => unreachable!("the lexer never ends a string with a lone backslash"),
        }
    }
    Ok(value)
}

#[cfg(test)]
mod tests;
