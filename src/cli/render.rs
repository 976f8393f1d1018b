//! Diagnostics for people (compiler style, bounded, terminal-safe) and for programs (JSON).
//!
//! The human form is drawn by `annotate-snippets` (rustc's renderer: carets at the
//! right column after tabs and wide characters), in the severity words of the JSON and
//! the editor. What it is given is prepared here: every piece of text from a file goes
//! through [`visible`], so that no control character reaches the terminal, and a very
//! long line is cut around its span first, since a 2 MB line must not be processed
//! under every diagnostic.

use std::io::{IsTerminal, Write};
use std::sync::OnceLock;

use annotate_snippets::{AnnotationKind, Level, Renderer, Snippet};
use termcolor::{ColorChoice, StandardStream, WriteColor};

use super::input::Source;
use super::output::Stdout;
pub use super::text::visible;
use super::ColorWhen;
use cmg_core::analysis::Analysis;
use cmg_core::model::{Diagnostic, Severity};
use cmg_syntax::{ColumnUnit, LineIndex, TextRange};

/// A source file with its line index, as the renderers need it.
pub struct SourceView<'a> {
    pub name: &'a str,
    pub text: &'a str,
    pub lines: &'a LineIndex,
    /// What the diagnostics' words are made from.
    pub analysis: &'a Analysis,
}

impl<'a> SourceView<'a> {
    pub fn new(source: &'a Source, analysis: &'a Analysis) -> Self {
        SourceView {
            name: &source.name,
            text: &source.text,
            lines: &analysis.line_index,
            analysis,
        }
    }
}

static COLOR: OnceLock<ColorWhen> = OnceLock::new();

pub(super) fn set_color(when: ColorWhen) {
    let _ = COLOR.set(when);
}

/// Whether to colour a stream: `--color`, then NO_COLOR and CLICOLOR_FORCE
/// (no-color.org, bixense.com/clicolors), then whether it is a terminal.
fn color_choice(is_terminal: bool) -> ColorChoice {
    let set = |name: &str| std::env::var_os(name).is_some_and(|v| !v.is_empty() && v != "0");
    match COLOR.get().copied().unwrap_or(ColorWhen::Auto) {
        ColorWhen::Always => ColorChoice::Always,
        ColorWhen::Never => ColorChoice::Never,
        ColorWhen::Auto if set("NO_COLOR") => ColorChoice::Never,
        ColorWhen::Auto if set("CLICOLOR_FORCE") => ColorChoice::Always,
        ColorWhen::Auto if is_terminal => ColorChoice::Auto,
        ColorWhen::Auto => ColorChoice::Never,
    }
}

/// Standard error, coloured as `--color` and the environment say.
pub fn stderr() -> StandardStream {
    StandardStream::stderr(color_choice(std::io::stderr().is_terminal()))
}

/// Standard output, coloured as `--color` and the environment say; a failed write is
/// kept for the end of the command (`output::finish`).
pub fn stdout() -> Stdout<StandardStream> {
    Stdout(StandardStream::stdout(color_choice(
        std::io::stdout().is_terminal(),
    )))
}

/// Columns available for a source line: the terminal's width, or rustc's 140 when the
/// output is not a terminal (so that piped output does not depend on the window).
fn output_width(to_stderr: bool) -> usize {
    let is_terminal = if to_stderr {
        std::io::stderr().is_terminal()
    } else {
        std::io::stdout().is_terminal()
    };
    let size = if to_stderr {
        terminal_size::terminal_size_of(std::io::stderr())
    } else {
        terminal_size::terminal_size_of(std::io::stdout())
    };
    match size {
        Some((terminal_size::Width(width), _)) if is_terminal => (width as usize).max(40),
        _ => 140,
    }
}

/// How many diagnostics of one file are shown unless `--max-diagnostics` says otherwise.
pub const DEFAULT_MAX_DIAGNOSTICS: usize = 200;

/// Prints at most `max` diagnostics (0: all) in the compiler style, then a line with
/// the counts of those left out. An error on the stream (a closed pipe, a full disk)
/// stops the output; on standard output, `output::finish` reports it.
pub fn emit(
    out: &mut impl WriteColor,
    to_stderr: bool,
    source: &SourceView<'_>,
    diagnostics: &[Diagnostic],
    max: usize,
) {
    let width = output_width(to_stderr);
    let shown = if max == 0 {
        diagnostics.len()
    } else {
        max.min(diagnostics.len())
    };
    for diagnostic in &diagnostics[..shown] {
        if emit_one(out, source, diagnostic, width).is_err() {
            return;
        }
    }
    if shown < diagnostics.len() {
        let rest = &diagnostics[shown..];
        let _ = writeln!(
            out,
            "{}: {} more not shown ({}); `--max-diagnostics 0` shows all\n",
            visible(source.name),
            rest.len(),
            counts(rest.iter().map(Diagnostic::severity))
        );
    }
}

/// One annotation: where, how, and what it says.
struct Mark<'a> {
    range: TextRange,
    primary: bool,
    message: &'a str,
}

/// Source lines longer than this many bytes are cut around each span before they are
/// handed to the renderer, so that a 2 MB line costs a window per diagnostic, not the
/// line. Shorter lines go whole, and the renderer trims them to the terminal itself,
/// keeping the reported column exact.
const WHOLE_LINE_BYTES: usize = 4096;

/// Marks this many lines apart or closer share one excerpt (the lines between are
/// folded); farther ones get an excerpt of their own, as rustc does.
const JOIN_LINES: u32 = 4;

fn emit_one(
    out: &mut impl WriteColor,
    source: &SourceView<'_>,
    diagnostic: &Diagnostic,
    width: usize,
) -> std::io::Result<()> {
    let diagnostic = source.analysis.render(diagnostic);
    let mut marks = vec![Mark {
        range: diagnostic.range,
        primary: true,
        message: "",
    }];
    marks.extend(diagnostic.related.iter().map(|related| Mark {
        range: related.range,
        primary: false,
        message: related.message,
    }));
    marks.sort_by_key(|mark| (mark.range.start, !mark.primary));
    let line_of = |offset: u32| source.lines.line_col(offset).line;

    // Excerpts: runs of nearby lines, each line escaped and (if very long) cut.
    let mut excerpts: Vec<Excerpt> = Vec::new();
    for mark in &marks {
        let line = line_of(mark.range.start);
        let joined = excerpts
            .last_mut()
            .is_some_and(|last| last.annotate(source, mark, line));
        if !joined {
            let mut excerpt = Excerpt::new(line);
            excerpt.annotate(source, mark, line);
            excerpts.push(excerpt);
        }
    }
    // The excerpt of the diagnostic's own place comes first, under the `-->` line, as
    // in rustc; the related places follow under `:::` lines.
    if let Some(primary) = excerpts.iter().position(|e| e.has_primary) {
        let excerpt = excerpts.remove(primary);
        excerpts.insert(0, excerpt);
    }

    let name = visible(source.name);
    let message = visible(&diagnostic.message);
    let title = level(diagnostic.severity())
        .primary_title(message)
        .id(diagnostic.code.as_str());
    let snippets = excerpts.iter().map(|excerpt| {
        Snippet::source(excerpt.text.as_str())
            .line_start(excerpt.first_line as usize + 1)
            .path(name.as_ref())
            .fold(true)
            .annotations(excerpt.annotations.iter().map(|(range, primary, label)| {
                let kind = if *primary {
                    AnnotationKind::Primary
                } else {
                    AnnotationKind::Context
                };
                kind.span(range.clone()).label(label.as_str())
            }))
    });
    let report = [title.elements(snippets)];
    let renderer = if out.supports_color() {
        Renderer::styled()
    } else {
        Renderer::plain()
    };
    let text = renderer.term_width(width).render(&report);
    writeln!(out, "{}\n", true_locations(&text, &name, source, &excerpts))
}

/// The rendered report with each `--> file:line:column` and `::: file:line:column`
/// naming the place in the file. The renderer counts columns in the text it was given,
/// which is not the file's when a very long line was cut before the span or a control
/// character was written as `\u{..}`; the excerpts know the true places, in order.
fn true_locations(text: &str, name: &str, source: &SourceView<'_>, excerpts: &[Excerpt]) -> String {
    let mut places = excerpts.iter().filter_map(|excerpt| excerpt.place);
    let mut fixed = String::with_capacity(text.len() + 16);
    for line in text.split_inclusive('\n') {
        // A location line starts with its arrow (after the gutter's spaces and colour
        // codes); a source line that happens to hold `--> ` starts with its number.
        let bare: String = strip_styles(line).trim_start().chars().take(4).collect();
        let is_location = bare == "--> " || bare == "::: ";
        match (is_location, line.rfind(&format!("{name}:"))) {
            (true, Some(at)) => {
                let Some(offset) = places.next() else {
                    fixed.push_str(line);
                    continue;
                };
                let place = source.lines.column(offset, ColumnUnit::Char);
                fixed.push_str(&line[..at]);
                fixed.push_str(&format!("{name}:{}:{}", place.line + 1, place.col + 1));
                if line.ends_with('\n') {
                    fixed.push('\n');
                }
            }
            _ => fixed.push_str(line),
        }
    }
    fixed
}

/// `line` without the renderer's colour codes (`ESC [ … m`); the text from the file has
/// no ESC left in it by then (see [`visible`]).
fn strip_styles(line: &str) -> String {
    let mut plain = String::with_capacity(line.len());
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            for c in chars.by_ref() {
                if c == 'm' {
                    break;
                }
            }
        } else {
            plain.push(c);
        }
    }
    plain
}

/// Lines of the source as the renderer sees them, with the annotations on them in
/// offsets of this text.
struct Excerpt {
    first_line: u32,
    last_line: u32,
    /// Whether the diagnostic's own range is here.
    has_primary: bool,
    /// The offset its location line names: the primary range's start, else the first
    /// mark's.
    place: Option<u32>,
    text: String,
    /// Where each escaped line starts in `text`, and the window of the source it shows.
    lines: Vec<(usize, Window)>,
    annotations: Vec<(std::ops::Range<usize>, bool, String)>,
}

impl Excerpt {
    fn new(line: u32) -> Excerpt {
        Excerpt {
            first_line: line,
            last_line: line,
            has_primary: false,
            place: None,
            text: String::new(),
            lines: Vec::new(),
            annotations: Vec::new(),
        }
    }

    /// Appends one line, whole, or cut around `near` when it is very long.
    fn push_line(&mut self, source: &SourceView<'_>, line: u32, near: Option<TextRange>) {
        if !self.lines.is_empty() {
            self.text.push('\n');
        }
        self.last_line = line;
        let content = source.lines.line_content(line).unwrap_or_default();
        let window = if content.len() as usize <= WHOLE_LINE_BYTES {
            Window {
                range: content,
                cut_before: false,
                cut_after: false,
            }
        } else {
            let span = near.unwrap_or(TextRange::empty(content.start));
            Window::around(source.text, content, span, WHOLE_LINE_BYTES)
        };
        let at = self.text.len();
        if window.cut_before {
            self.text.push_str("...");
        }
        self.text
            .push_str(&visible(&source.text[window.range.to_usize()]));
        if window.cut_after {
            self.text.push_str("...");
        }
        self.lines.push((at, window));
    }

    /// Adds `mark`, which starts on `line` (marks come sorted, so never before the
    /// lines already here), if it is close enough and falls in the part of its line
    /// shown; otherwise says no, and the mark gets an excerpt of its own.
    fn annotate(&mut self, source: &SourceView<'_>, mark: &Mark<'_>, line: u32) -> bool {
        if !self.lines.is_empty() && line > self.last_line + JOIN_LINES {
            return false;
        }
        if self.lines.is_empty() || line > self.last_line {
            while !self.lines.is_empty() && self.last_line + 1 < line {
                self.push_line(source, self.last_line + 1, None);
            }
            self.push_line(source, line, Some(mark.range));
        }
        let Some(&(at, window)) = self.lines.get((line - self.first_line) as usize) else {
            return false;
        };
        if !(window.range.start <= mark.range.start && mark.range.start <= window.range.end) {
            return false;
        }
        let prefix = usize::from(window.cut_before) * "...".len();
        let start = mark.range.start as usize;
        let end = (mark.range.end.min(window.range.end) as usize).max(start);
        let before = visible(&source.text[window.range.start as usize..start]).len();
        let inside = visible(&source.text[start..end]).len();
        let from = at + prefix + before;
        if mark.primary {
            self.has_primary = true;
            self.place = Some(mark.range.start);
        } else if self.place.is_none() {
            self.place = Some(mark.range.start);
        }
        self.annotations.push((
            from..from + inside,
            mark.primary,
            visible(mark.message).into_owned(),
        ));
        true
    }
}

fn level(severity: Severity) -> Level<'static> {
    match severity {
        Severity::Error => Level::ERROR,
        Severity::Warning => Level::WARNING,
        Severity::Information => Level::INFO.with_name("information"),
        Severity::Hint => Level::HELP.with_name("hint"),
    }
}

/// The part of a long line shown for one span: the span's start with some context
/// before it, at most `room` bytes, cut at character boundaries.
#[derive(Clone, Copy)]
struct Window {
    range: TextRange,
    cut_before: bool,
    cut_after: bool,
}

impl Window {
    fn around(text: &str, line: TextRange, span: TextRange, room: usize) -> Window {
        let room = room as u32;
        let context = room / 4;
        let mut start = span.start.saturating_sub(context).max(line.start);
        while !text.is_char_boundary(start as usize) {
            start -= 1;
        }
        let mut end = start.saturating_add(room).min(line.end);
        while !text.is_char_boundary(end as usize) {
            end -= 1;
        }
        Window {
            range: TextRange::new(start, end),
            cut_before: start > line.start,
            cut_after: end < line.end,
        }
    }
}

/// A JSON array written element by element, through a buffer.
pub struct JsonArray<W: Write> {
    out: std::io::BufWriter<W>,
    empty: bool,
}

impl<W: Write> JsonArray<W> {
    pub fn new(out: W) -> Self {
        let mut out = std::io::BufWriter::new(out);
        let _ = out.write_all(b"[");
        JsonArray { out, empty: true }
    }

    pub fn push(&mut self, value: &impl serde::Serialize) {
        if !self.empty {
            let _ = self.out.write_all(b",");
        }
        self.empty = false;
        let _ = serde_json::to_writer(&mut self.out, value);
    }

    pub fn finish(mut self) {
        let _ = self.out.write_all(b"]\n");
        let _ = self.out.flush();
    }
}

/// One diagnostic as JSON; lines and columns count from 1, columns in characters.
/// Fields are declared in alphabetical order, the order `serde_json::Value` prints, so
/// that the output keeps one shape however it is made; typed fields rather than a
/// `Value` map make 200 000 diagnostics take milliseconds, not seconds.
#[derive(serde::Serialize)]
pub struct JsonDiagnostic<'a> {
    code: &'static str,
    end: JsonPosition,
    file: &'a str,
    message: String,
    related: Vec<JsonRelated>,
    severity: &'static str,
    start: JsonPosition,
}

#[derive(serde::Serialize)]
struct JsonRelated {
    end: JsonPosition,
    message: &'static str,
    start: JsonPosition,
}

#[derive(serde::Serialize)]
struct JsonPosition {
    column: u32,
    line: u32,
}

/// Its words are made here, one diagnostic at a time, as the JSON is written.
pub fn to_json<'a>(source: &SourceView<'a>, diagnostic: &Diagnostic) -> JsonDiagnostic<'a> {
    let position = |offset: u32| {
        let place = source.lines.column(offset, ColumnUnit::Char);
        JsonPosition {
            line: place.line + 1,
            column: place.col + 1,
        }
    };
    JsonDiagnostic {
        code: diagnostic.code.as_str(),
        end: position(diagnostic.range.end),
        file: source.name,
        message: source.analysis.message(diagnostic),
        related: diagnostic
            .related()
            .iter()
            .map(|related| JsonRelated {
                end: position(related.range.end),
                message: related.message,
                start: position(related.range.start),
            })
            .collect(),
        severity: diagnostic.severity().as_str(),
        start: position(diagnostic.range.start),
    }
}

/// "2 errors, 1 warning, 3 hints": the severities present, in the words of the JSON.
pub fn counts(severities: impl IntoIterator<Item = Severity>) -> String {
    let mut tally = [0usize; 4];
    for severity in severities {
        tally[severity as usize] += 1;
    }
    let parts: Vec<String> = [
        Severity::Error,
        Severity::Warning,
        Severity::Information,
        Severity::Hint,
    ]
    .into_iter()
    .filter(|&severity| tally[severity as usize] > 0)
    .map(|severity| {
        let n = tally[severity as usize];
        match severity {
            // "information" has no plural.
            Severity::Information => format!("{n} information"),
            _ => plural(n, severity.as_str()),
        }
    })
    .collect();
    if parts.is_empty() {
        "no problems".to_owned()
    } else {
        parts.join(", ")
    }
}

/// "1 edge", "2 edges".
pub fn plural(n: usize, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}
