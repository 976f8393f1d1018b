//! Diagnostics: what is wrong with a file, where, and under which stable code.

use std::fmt;

use cmg_syntax::{ExpectedOutcome, Parse, TextRange, MAX_NODE_ID};

/// One diagnostic as the model keeps it: its code, where, and what it is about, as
/// small data (ids, counts, ranges). Its words are made only when it is shown
/// ([`Diagnostic::render`], [`Diagnostic::message`]), so that a file of 300 000
/// warnings keeps 300 000 of these (48 bytes each), not 300 000 messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub code: Code,
    pub range: TextRange,
    kind: DiagnosticKind,
}

/// What a diagnostic says, one variant per shape of message; the message and the
/// related place are read off it by [`Diagnostic::render`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiagnosticKind {
    /// The syntax error at this index of [`Parse::errors`], whose message it shows.
    Syntax {
        error: u32,
    },
    NumberTooLarge,
    /// The statement takes the file past `limit` declared edge pairs.
    TooManyEdges {
        limit: u64,
    },
    SelfLoop {
        node: u32,
    },
    /// A statement that joins `count` pairs of a node to itself, `a -- b` the first.
    SelfLoops {
        count: u32,
        a: u32,
        b: u32,
        within: Within,
    },
    /// `a -- b` declared again, first at `first`.
    DuplicateEdge {
        a: u32,
        b: u32,
        first: TextRange,
    },
    /// A statement that declares `count` edges again, `a -- b` the first, which was
    /// first declared at `first`.
    DuplicateEdges {
        count: u32,
        a: u32,
        b: u32,
        within: Within,
        first: TextRange,
    },
    /// List `a` names `b`, and list `b` (if the literal has one, `has_list`) does not
    /// name `a`.
    OneSidedEdge {
        a: u32,
        b: u32,
        has_list: bool,
    },
    /// Node `id` is labelled again; `first` is the range of its first label (quotes
    /// included), whose value the message quotes.
    DuplicateLabel {
        id: u32,
        first: TextRange,
    },
    /// `expect` again; `first` is the first one.
    DuplicateExpect {
        first: TextRange,
    },
    MissingMouse,
    MissingCat,
    MissingHole,
    MouseStuck,
    /// `joined`: node 2 has a neighbour (the hole alone); else none at all.
    CatStuck {
        joined: bool,
    },
    HoleUnreachable,
    UnreachableNode {
        id: u32,
    },
    /// `expect expected`, and the solver says `solved` (in `moves` moves, `None` for a
    /// draw).
    ExpectMismatch {
        expected: ExpectedOutcome,
        solved: ExpectedOutcome,
        moves: Option<u32>,
    },
    /// `expect expected` in a file with syntax errors: not compared with the graph of
    /// the statements that parsed, which is only part of the file's.
    ExpectUnchecked {
        expected: ExpectedOutcome,
    },
    TooLarge(TooLarge),
}

/// Where the repeats of one statement are: what its message calls it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Within {
    /// All in one declaration: "this group product".
    GroupProduct,
    /// In several: "this statement".
    Statement,
}

impl Within {
    fn words(self) -> &'static str {
        match self {
            Within::GroupProduct => "this group product",
            Within::Statement => "this statement",
        }
    }
}

/// Another place that explains a diagnostic, such as the first of two duplicates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Related {
    pub range: TextRange,
    pub message: &'static str,
}

/// A diagnostic with its words: what is shown, made from a [`Diagnostic`] and the text
/// and parse it is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rendered {
    pub code: Code,
    pub range: TextRange,
    pub message: String,
    pub related: Option<Related>,
}

impl Rendered {
    pub fn severity(&self) -> Severity {
        self.code.severity()
    }
}

impl Diagnostic {
    pub fn new(range: TextRange, kind: DiagnosticKind) -> Diagnostic {
        Diagnostic {
            code: kind.code(),
            range,
            kind,
        }
    }
    /// Points a duplicate-edge diagnostic at where its edge was first declared.
    pub(super) fn set_first_declared(&mut self, at: TextRange) {
        if let DiagnosticKind::DuplicateEdge { first, .. }
        | DiagnosticKind::DuplicateEdges { first, .. } = &mut self.kind
        {
            *first = at;
        }
    }

    pub fn kind(&self) -> DiagnosticKind {
        self.kind
    }

    pub fn severity(&self) -> Severity {
        self.code.severity()
    }

    /// The other place that explains this one, if any.
    pub fn related(&self) -> Option<Related> {
        let (range, message) = match self.kind {
            DiagnosticKind::DuplicateEdge { first, .. }
            | DiagnosticKind::DuplicateEdges { first, .. } => (first, "first declared here"),
            DiagnosticKind::DuplicateLabel { first, .. } => (first, "first labelled here"),
            DiagnosticKind::DuplicateExpect { first } => (first, "first given here"),
            _ => return None,
        };
        Some(Related { range, message })
    }

    /// The message, in words: `text` and `parse` are the file's (the syntax errors'
    /// messages and the labels quoted come from them).
    pub fn message(&self, text: &str, parse: &Parse) -> String {
        match self.kind {
            DiagnosticKind::Syntax { error } => parse
                .errors
                .get(error as usize)
                .map(|error| error.message.clone())
                .unwrap_or_default(),
            DiagnosticKind::NumberTooLarge => {
                format!("this node id is too large: ids go from 0 to {MAX_NODE_ID}")
            }
            DiagnosticKind::TooManyEdges { limit } => format!(
                "this statement takes the file past {limit} declared edges (a group product counts each of its pairs), so the graph stops there and its outcome is unknown: split the file, or use fewer or smaller products"
            ),
            DiagnosticKind::SelfLoop { node } => format!(
                "node {node} is joined to itself; a move must go to another node, so this edge is ignored: remove it"
            ),
            DiagnosticKind::SelfLoops { count, a, b, within } => format!(
                "{} joins {count} pairs of a node to itself, the first being {a} -- {b}; a move must go to another node, so these edges are ignored: remove them",
                within.words()
            ),
            DiagnosticKind::DuplicateEdge { a, b, .. } => format!(
                "the edge {a} -- {b} is declared again; it counts once, so this one can go"
            ),
            DiagnosticKind::DuplicateEdges { count, a, b, within, .. } => format!(
                "{} declares {count} edges again, the first being {a} -- {b}; each edge counts once, so the repeats can go",
                within.words()
            ),
            DiagnosticKind::OneSidedEdge { a, b, has_list: true } => format!(
                "node {a} lists {b}, but list {b} does not list {a}; the edge counts both ways: add {a} to list {b}"
            ),
            DiagnosticKind::OneSidedEdge { a, b, has_list: false } => format!(
                "node {a} lists {b}, but this literal has no list {b}; the edge counts both ways"
            ),
            DiagnosticKind::DuplicateLabel { id, first } => {
                let value = text
                    .get(first.to_usize())
                    .and_then(|quoted| cmg_syntax::label_value(quoted).ok())
                    .unwrap_or_default();
                format!(
                    "node {id} already has the label \"{}\"; the first label is kept, so remove or change one",
                    cmg_syntax::quote(&value)
                )
            }
            DiagnosticKind::ExpectMismatch { expected, solved, moves } => format!(
                "`expect {}` disagrees with the solved outcome, {}: change it to `expect {}`",
                expected.keyword(),
                describe_outcome(solved, moves),
                solved.keyword(),
            ),
            DiagnosticKind::ExpectUnchecked { expected } => format!(
                "`expect {}` is not checked until the file parses: the statements with syntax errors are left out of the graph, so its outcome may not be the file's; fix them to check it",
                expected.keyword(),
            ),
            DiagnosticKind::TooLarge(too_large) => too_large.message(),
            DiagnosticKind::DuplicateExpect { .. } => {
                "`expect` is given more than once; each one is checked, so keep one".to_owned()
            }
            DiagnosticKind::MissingMouse => "node 1, where the mouse starts, is not in the graph, so there is no game: add an edge to node 1".to_owned(),
            DiagnosticKind::MissingCat => "node 2, where the cat starts, is not in the graph, so there is no game: add an edge to node 2".to_owned(),
            DiagnosticKind::MissingHole => "node 0, the hole, is not in the graph, so the mouse can never win: add an edge to node 0".to_owned(),
            DiagnosticKind::MouseStuck => "node 1 has no neighbours, so the mouse cannot make its first move and the game is a draw: join node 1 to another node".to_owned(),
            DiagnosticKind::CatStuck { joined: true } => "node 2 has no neighbour other than the hole, where the cat may not go, so the cat can never leave its start: join node 2 to a node other than 0".to_owned(),
            DiagnosticKind::CatStuck { joined: false } => "node 2 has no neighbours, so the cat can never leave its start: join node 2 to a node other than 0".to_owned(),
            DiagnosticKind::HoleUnreachable => {
                "no path leads from node 1 to the hole, so the mouse can never win".to_owned()
            }
            DiagnosticKind::UnreachableNode { id } => format!(
                "node {id} can be reached by neither the mouse nor the cat, so it takes no part in the game"
            ),
        }
    }

    /// The diagnostic with its words (see [`Diagnostic::message`]).
    pub fn render(&self, text: &str, parse: &Parse) -> Rendered {
        Rendered {
            code: self.code,
            range: self.range,
            message: self.message(text, parse),
            related: self.related(),
        }
    }
}

/// "mouse wins in 3", "cat wins in 1", "draw": an outcome and the moves to it.
pub fn describe_outcome(outcome: ExpectedOutcome, moves: Option<u32>) -> String {
    match (outcome, moves) {
        (ExpectedOutcome::Draw, _) | (_, None) => "draw".to_owned(),
        (ExpectedOutcome::Mouse, Some(moves)) => format!("mouse wins in {moves}"),
        (ExpectedOutcome::Cat, Some(moves)) => format!("cat wins in {moves}"),
    }
}

impl DiagnosticKind {
    pub fn code(self) -> Code {
        match self {
            DiagnosticKind::Syntax { .. } => Code::Syntax,
            DiagnosticKind::NumberTooLarge => Code::NumberTooLarge,
            DiagnosticKind::TooManyEdges { .. } => Code::TooManyEdges,
            DiagnosticKind::SelfLoop { .. } | DiagnosticKind::SelfLoops { .. } => Code::SelfLoop,
            DiagnosticKind::DuplicateEdge { .. } | DiagnosticKind::DuplicateEdges { .. } => {
                Code::DuplicateEdge
            }
            DiagnosticKind::OneSidedEdge { .. } => Code::OneSidedEdge,
            DiagnosticKind::DuplicateLabel { .. } => Code::DuplicateLabel,
            DiagnosticKind::DuplicateExpect { .. } => Code::DuplicateExpect,
            DiagnosticKind::MissingMouse => Code::MissingMouse,
            DiagnosticKind::MissingCat => Code::MissingCat,
            DiagnosticKind::MissingHole => Code::MissingHole,
            DiagnosticKind::MouseStuck => Code::MouseStuck,
            DiagnosticKind::CatStuck { .. } => Code::CatStuck,
            DiagnosticKind::HoleUnreachable => Code::HoleUnreachable,
            DiagnosticKind::UnreachableNode { .. } => Code::UnreachableNode,
            DiagnosticKind::ExpectMismatch { .. } => Code::ExpectMismatch,
            DiagnosticKind::ExpectUnchecked { .. } => Code::ExpectUnchecked,
            DiagnosticKind::TooLarge(_) => Code::TooLarge,
        }
    }
}

/// Where a front end's limits come from, so that the message over them names the one
/// thing that lifts them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MemorySetting {
    /// `cmg solve --max-memory SIZE` (and the same default in `cmg check` and `cmg dot`).
    #[default]
    CliFlag,
    /// The server's settings `cmg.solver.maxNodes` and `cmg.solver.maxMemoryMiB`.
    ServerSetting,
    /// `cmg check` checking an `expect`: `cmg check --max-memory SIZE`.
    CheckBudget,
}

/// Why a game is not solved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TooLarge {
    /// Above the solver's hard limit, the solver's `MAX_NODES`: no setting can help.
    SolverLimit { nodes: usize },
    /// Above the live-solve limit, a setting.
    LiveSolveLimit {
        nodes: usize,
        limit: usize,
        setting: MemorySetting,
    },
    /// The solver's peak memory, estimated before anything is allocated, is above the
    /// budget.
    MemoryBudget {
        nodes: usize,
        estimate: u64,
        budget: u64,
        setting: MemorySetting,
    },
    /// The file declares more edge pairs than [`MAX_EDGE_PAIRS`](super::MAX_EDGE_PAIRS), so the graph was cut
    /// short (`too-many-edges`, an error at the statement, says so) and the outcome is
    /// unknown.
    EdgeLimit,
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
        /// The stable code of every diagnostic (the contract's table of codes).
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
    ExpectUnchecked = "expect-unchecked", Information;
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A diagnostic is small data: a file of 300 000 warnings keeps 300 000 of these.
    #[test]
    fn a_diagnostic_takes_at_most_48_bytes() {
        assert!(
            std::mem::size_of::<Diagnostic>() <= 48,
            "{} bytes",
            std::mem::size_of::<Diagnostic>()
        );
    }
}
