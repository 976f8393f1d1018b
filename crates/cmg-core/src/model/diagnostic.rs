//! Diagnostics: what is wrong with a file, where, and under which stable code.

use std::fmt;

use cmg_syntax::TextRange;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub code: Code,
    pub range: TextRange,
    pub message: String,
    /// Other places that explain this one, such as the first of two duplicates.
    pub related: Vec<Related>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Related {
    pub range: TextRange,
    pub message: String,
}

impl Diagnostic {
    pub fn new(code: Code, range: TextRange, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            code,
            range,
            message: message.into(),
            related: Vec::new(),
        }
    }

    pub(crate) fn with_related(
        mut self,
        range: TextRange,
        message: impl Into<String>,
    ) -> Diagnostic {
        self.related.push(Related {
            range,
            message: message.into(),
        });
        self
    }

    /// The heap bytes this diagnostic holds on to.
    pub fn heap_bytes(&self) -> usize {
        self.message.capacity()
            + cmg_syntax::vec_bytes(&self.related)
            + self
                .related
                .iter()
                .map(|related| related.message.capacity())
                .sum::<usize>()
    }

    pub fn severity(&self) -> Severity {
        self.code.severity()
    }
}

/// Whether any of `diagnostics` is an error: what makes `cmg check` and `cmg solve`
/// exit with 1.
pub fn has_errors(diagnostics: &[Diagnostic]) -> bool {
    diagnostics.iter().any(|d| d.severity() == Severity::Error)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Error,
    Warning,
    Information,
    Hint,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Information => "information",
            Severity::Hint => "hint",
        }
    }
}

macro_rules! codes {
    ($($variant:ident = $name:literal, $severity:ident;)*) => {
        /// The stable code of every diagnostic (spec §3).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Code { $($variant),* }

        impl Code {
            pub const ALL: &'static [Code] = &[$(Code::$variant),*];

            pub fn as_str(self) -> &'static str {
                match self { $(Code::$variant => $name),* }
            }

            pub fn severity(self) -> Severity {
                match self { $(Code::$variant => Severity::$severity),* }
            }
        }
    };
}

codes! {
    Syntax = "syntax", Error;
    NumberTooLarge = "number-too-large", Error;
    SelfLoop = "self-loop", Error;
    MissingMouse = "missing-mouse", Error;
    MissingCat = "missing-cat", Error;
    MouseStuck = "mouse-stuck", Error;
    CatStuck = "cat-stuck", Error;
    ExpectMismatch = "expect-mismatch", Error;
    TooManyEdges = "too-many-edges", Error;
    MissingHole = "missing-hole", Warning;
    DuplicateEdge = "duplicate-edge", Warning;
    OneSidedEdge = "one-sided-edge", Warning;
    DuplicateLabel = "duplicate-label", Warning;
    DuplicateExpect = "duplicate-expect", Warning;
    HoleUnreachable = "hole-unreachable", Information;
    UnreachableNode = "unreachable-node", Hint;
    TooLarge = "too-large", Information;
}

impl Code {
    /// Code the editor should show faded, like unused code.
    pub fn is_unnecessary(self) -> bool {
        self == Code::UnreachableNode
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
