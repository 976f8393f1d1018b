//! Diagnostics for people (compiler style, via codespan-reporting) and for programs (JSON).

use std::io::IsTerminal;
use std::ops::Range;

use codespan_reporting::diagnostic::{Diagnostic as Report, Label, Severity as ReportSeverity};
use codespan_reporting::files::{Error as FilesError, Files};
use codespan_reporting::term::termcolor::{ColorChoice, StandardStream, WriteColor};
use codespan_reporting::term::{self, Config};
use serde_json::{json, Value};

use crate::model::{Diagnostic, Severity};
use crate::syntax::{LineIndex, TextRange};

/// A source file as codespan-reporting sees it, on our line index so that lone `\r`
/// line endings count as they do everywhere else in cmg.
pub struct SourceView<'a> {
    pub name: &'a str,
    pub text: &'a str,
    pub lines: &'a LineIndex,
}

impl<'a> Files<'a> for SourceView<'a> {
    type FileId = ();
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, (): ()) -> Result<&'a str, FilesError> {
        Ok(self.name)
    }

    fn source(&'a self, (): ()) -> Result<&'a str, FilesError> {
        Ok(self.text)
    }

    fn line_index(&'a self, (): (), byte_index: usize) -> Result<usize, FilesError> {
        Ok(self.lines.line_col(byte_index as u32).line as usize)
    }

    fn line_range(&'a self, (): (), line_index: usize) -> Result<Range<usize>, FilesError> {
        self.lines
            .line_range(line_index as u32)
            .map(TextRange::to_usize)
            .ok_or(FilesError::LineTooLarge {
                given: line_index,
                max: self.lines.line_count() as usize - 1,
            })
    }
}

impl<'a> SourceView<'a> {
    pub fn new(source: &'a super::input::Source, analysis: &'a crate::analysis::Analysis) -> Self {
        SourceView {
            name: &source.name,
            text: &source.text,
            lines: &analysis.line_index,
        }
    }
}

/// A terminal stream for `stdout` (or `stderr`), coloured only when it is a terminal.
pub fn stream(to_stderr: bool) -> StandardStream {
    let (is_terminal, make): (bool, fn(ColorChoice) -> StandardStream) = if to_stderr {
        (std::io::stderr().is_terminal(), StandardStream::stderr)
    } else {
        (std::io::stdout().is_terminal(), StandardStream::stdout)
    };
    make(if is_terminal {
        ColorChoice::Auto
    } else {
        ColorChoice::Never
    })
}

pub fn emit(writer: &mut dyn WriteColor, source: &SourceView<'_>, diagnostics: &[Diagnostic]) {
    let config = Config::default();
    for diagnostic in diagnostics {
        let severity = match diagnostic.severity() {
            Severity::Error => ReportSeverity::Error,
            Severity::Warning => ReportSeverity::Warning,
            Severity::Information => ReportSeverity::Note,
            Severity::Hint => ReportSeverity::Help,
        };
        let mut labels = vec![Label::primary((), diagnostic.range.to_usize())];
        labels.extend(diagnostic.related.iter().map(|related| {
            Label::secondary((), related.range.to_usize()).with_message(&related.message)
        }));
        let report = Report::new(severity)
            .with_code(diagnostic.code.as_str())
            .with_message(&diagnostic.message)
            .with_labels(labels);
        // Writing to a closed pipe is not worth a panic or a message.
        let _ = term::emit(writer, &config, source, &report);
    }
}

/// One diagnostic as JSON; lines and columns count from 1, columns in characters.
pub fn to_json(source: &SourceView<'_>, diagnostic: &Diagnostic) -> Value {
    let related: Vec<Value> = diagnostic
        .related
        .iter()
        .map(|related| {
            let (start, end) = span_json(source, related.range);
            json!({"message": related.message, "start": start, "end": end})
        })
        .collect();
    let (start, end) = span_json(source, diagnostic.range);
    json!({
        "file": source.name,
        "code": diagnostic.code.as_str(),
        "severity": diagnostic.severity().as_str(),
        "message": diagnostic.message,
        "start": start,
        "end": end,
        "related": related,
    })
}

fn span_json(source: &SourceView<'_>, range: TextRange) -> (Value, Value) {
    let position = |offset: u32| {
        json!({
            "line": source.lines.line_col(offset).line + 1,
            "column": source.lines.char_col(source.text, offset) + 1,
        })
    };
    (position(range.start), position(range.end))
}

/// "2 errors, 1 warning", with information and hints counted where there are any.
pub fn summary(diagnostics: &[Diagnostic]) -> String {
    let count = |severity| {
        diagnostics
            .iter()
            .filter(|d| d.severity() == severity)
            .count()
    };
    let mut parts = vec![
        plural(count(Severity::Error), "error"),
        plural(count(Severity::Warning), "warning"),
    ];
    if count(Severity::Information) > 0 {
        parts.push(format!("{} information", count(Severity::Information)));
    }
    if count(Severity::Hint) > 0 {
        parts.push(plural(count(Severity::Hint), "hint"));
    }
    parts.join(", ")
}

/// "1 edge", "2 edges".
pub fn plural(n: usize, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}
