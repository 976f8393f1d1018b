//! Diagnostics for people (compiler style, bounded) and for programs (JSON).
//!
//! The human form is written here rather than by a reporting library so that it can
//! use the same severity words as the JSON and the editor, and cut long source lines
//! around the span as rustc does: a 2 MB line must not be printed under every
//! diagnostic.

use std::io::{IsTerminal, Write};
use std::sync::OnceLock;

use termcolor::{Color, ColorChoice, ColorSpec, StandardStream, WriteColor};

use super::input::Source;
use super::ColorWhen;
use cmg_core::analysis::Analysis;
use cmg_core::model::{Diagnostic, Severity};
use cmg_syntax::{ColumnUnit, LineIndex, TextRange};

/// A source file with its line index, as the renderers need it.
pub struct SourceView<'a> {
    pub name: &'a str,
    pub text: &'a str,
    pub lines: &'a LineIndex,
}

impl<'a> SourceView<'a> {
    pub fn new(source: &'a Source, analysis: &'a Analysis) -> Self {
        SourceView {
            name: &source.name,
            text: &source.text,
            lines: &analysis.line_index,
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

/// A stream for `stdout` (or `stderr`), coloured as `--color` and the environment say.
pub fn stream(to_stderr: bool) -> StandardStream {
    if to_stderr {
        StandardStream::stderr(color_choice(std::io::stderr().is_terminal()))
    } else {
        StandardStream::stdout(color_choice(std::io::stdout().is_terminal()))
    }
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

fn severity_color(severity: Severity) -> Color {
    match severity {
        Severity::Error => Color::Red,
        Severity::Warning => Color::Yellow,
        Severity::Information => Color::Blue,
        Severity::Hint => Color::Cyan,
    }
}

/// How many diagnostics of one file are shown unless `--max-diagnostics` says otherwise.
pub const DEFAULT_MAX_DIAGNOSTICS: usize = 200;

/// Prints at most `max` diagnostics (0: all) in the compiler style, then a line with
/// the counts of those left out. Errors on the stream (a closed pipe) stop the output
/// quietly.
pub fn emit(
    out: &mut StandardStream,
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
            source.name,
            rest.len(),
            counts(rest.iter().map(Diagnostic::severity))
        );
    }
}

/// One label under a source line: where, how, and what it says.
struct Mark<'a> {
    range: TextRange,
    primary: bool,
    message: &'a str,
}

fn emit_one(
    out: &mut StandardStream,
    source: &SourceView<'_>,
    diagnostic: &Diagnostic,
    width: usize,
) -> std::io::Result<()> {
    let severity = diagnostic.severity();
    out.set_color(
        ColorSpec::new()
            .set_fg(Some(severity_color(severity)))
            .set_bold(true),
    )?;
    write!(out, "{}[{}]", severity.as_str(), diagnostic.code)?;
    out.set_color(ColorSpec::new().set_bold(true))?;
    writeln!(out, ": {}", diagnostic.message)?;
    out.reset()?;

    let mut marks = vec![Mark {
        range: diagnostic.range,
        primary: true,
        message: "",
    }];
    marks.extend(diagnostic.related.iter().map(|related| Mark {
        range: related.range,
        primary: false,
        message: &related.message,
    }));
    marks.sort_by_key(|mark| mark.range.start);
    let line_of = |offset: u32| source.lines.line_col(offset).line;
    // Characters between two offsets of one line, from the line index's columns.
    let chars = |from: u32, to: u32| {
        source
            .lines
            .char_col(to)
            .saturating_sub(source.lines.char_col(from)) as usize
    };
    let last_line = marks
        .iter()
        .map(|m| line_of(m.range.start))
        .max()
        .unwrap_or(0);
    let gutter = (last_line + 1).to_string().len();
    let blank = " ".repeat(gutter);

    let place = source
        .lines
        .column(diagnostic.range.start, ColumnUnit::Char);
    writeln!(
        out,
        "{blank} ┌─ {}:{}:{}",
        source.name,
        place.line + 1,
        place.col + 1
    )?;
    writeln!(out, "{blank} │")?;
    // Room for the source text: the width less the gutter, " │ " and the two `…`.
    let room = width.saturating_sub(gutter + 5).max(20);
    let mut previous_line: Option<u32> = None;
    let mut index = 0;
    while index < marks.len() {
        let line = line_of(marks[index].range.start);
        let same_line = marks[index..]
            .iter()
            .take_while(|m| line_of(m.range.start) == line)
            .count();
        let group = &marks[index..index + same_line];
        index += same_line;
        match previous_line {
            Some(previous) if line > previous + 1 => writeln!(out, "{blank} ·")?,
            _ => {}
        }
        previous_line = Some(line);
        let content = source.lines.line_content(line).unwrap_or_default();
        let line_text = &source.text[content.to_usize()];
        if line_text.len() <= room {
            write_source_line(out, gutter, line + 1, line_text)?;
            for mark in group {
                let before = chars(content.start, mark.range.start);
                let end = mark.range.end.min(content.end).max(mark.range.start);
                let length = chars(mark.range.start, end);
                write_underline(out, &blank, before, length.max(1), mark, severity)?;
            }
        } else {
            // A long line: each mark gets its own window of the line around its span.
            for mark in group {
                let window = Window::around(source.text, content, mark.range, room);
                let shown = format!(
                    "{}{}{}",
                    if window.cut_before { "…" } else { "" },
                    &source.text[window.range.to_usize()],
                    if window.cut_after { "…" } else { "" }
                );
                write_source_line(out, gutter, line + 1, &shown)?;
                let before =
                    usize::from(window.cut_before) + chars(window.range.start, mark.range.start);
                let end = mark.range.end.min(window.range.end).max(mark.range.start);
                let length = chars(mark.range.start, end);
                write_underline(out, &blank, before, length.max(1), mark, severity)?;
            }
        }
    }
    writeln!(out)
}

fn write_source_line(
    out: &mut StandardStream,
    gutter: usize,
    number: u32,
    text: &str,
) -> std::io::Result<()> {
    writeln!(out, "{number:>gutter$} │ {text}")
}

fn write_underline(
    out: &mut StandardStream,
    blank: &str,
    before: usize,
    length: usize,
    mark: &Mark<'_>,
    severity: Severity,
) -> std::io::Result<()> {
    write!(out, "{blank} │ {}", " ".repeat(before))?;
    let (symbol, color) = if mark.primary {
        ('^', severity_color(severity))
    } else {
        ('-', Color::Blue)
    };
    out.set_color(ColorSpec::new().set_fg(Some(color)).set_bold(true))?;
    write!(out, "{}", symbol.to_string().repeat(length))?;
    if !mark.message.is_empty() {
        write!(out, " {}", mark.message)?;
    }
    out.reset()?;
    writeln!(out)
}

/// The part of a long line shown for one span: the span's start with some context
/// before it, at most `room` bytes, cut at character boundaries.
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
    message: &'a str,
    related: Vec<JsonRelated<'a>>,
    severity: &'static str,
    start: JsonPosition,
}

#[derive(serde::Serialize)]
struct JsonRelated<'a> {
    end: JsonPosition,
    message: &'a str,
    start: JsonPosition,
}

#[derive(serde::Serialize)]
struct JsonPosition {
    column: u32,
    line: u32,
}

pub fn to_json<'a>(source: &SourceView<'a>, diagnostic: &'a Diagnostic) -> JsonDiagnostic<'a> {
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
        message: &diagnostic.message,
        related: diagnostic
            .related
            .iter()
            .map(|related| JsonRelated {
                end: position(related.range.end),
                message: &related.message,
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

/// Writes to standard output, ignoring a closed pipe (`cmg ... | head`).
pub fn print(text: &str) {
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
}
