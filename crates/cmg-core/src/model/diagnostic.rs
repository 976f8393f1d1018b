//! Diagnostics: what is wrong with a file, where, and under which stable code.

use std::fmt;

use cmg_solve::Player;
use cmg_syntax::{ExpectedOutcome, Parse, RuleName, TextRange, MAX_NODE_ID};

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
    /// The mouse's start, node `id`, is not in the graph.
    MissingMouse {
        id: u32,
    },
    MissingCat {
        id: u32,
    },
    /// Hole `id` is not in the graph; `several`: the file states more than one hole;
    /// `others`: another hole is in the graph.
    MissingHole {
        id: u32,
        several: bool,
        others: bool,
    },
    /// The mouse's start, node `id`, has no move out; `one_way`: the file has one-way
    /// edges (so the node may have edges in).
    MouseStuck {
        id: u32,
        one_way: bool,
    },
    /// The cat's start, node `id`, has no move the cat may make; `joined`: it has a move
    /// (into a hole alone); else none at all. `hole`: the hole, when there is one.
    CatStuck {
        id: u32,
        joined: bool,
        hole: Option<u32>,
    },
    /// No path leads from the mouse's start, node `mouse`, to a hole.
    HoleUnreachable {
        mouse: u32,
        several: bool,
    },
    /// `player` (`None`: either) can come to node `id` and can never move on from it.
    NoMove {
        id: u32,
        player: Option<Player>,
    },
    /// A `rule` with a name that is no rule.
    UnknownRule,
    /// Rule `name` again; `first` is the statement that counts.
    DuplicateRule {
        name: RuleName,
        first: TextRange,
    },
    /// `rule limit` without a whole number of moves from 1 up.
    BadLimit,
    /// Rule `name` with arguments that do not fit it.
    RuleArguments {
        name: RuleName,
    },
    /// The mouse starts on a hole (`on_cat`: on the cat): the game is over before a move.
    StartEndsGame {
        on_cat: bool,
    },
    /// The one-way edge `a -> b` where `a -- b` is an edge already.
    ArcDuplicatesEdge {
        a: u32,
        b: u32,
    },
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
            DiagnosticKind::DuplicateRule { first, .. } => (first, "the rule that counts"),
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
            DiagnosticKind::MissingMouse { id } => format!("node {id}, where the mouse starts, is not in the graph, so there is no game: add an edge to node {id}"),
            DiagnosticKind::MissingCat { id } => format!("node {id}, where the cat starts, is not in the graph, so there is no game: add an edge to node {id}"),
            DiagnosticKind::MissingHole { id, several: false, .. } => format!("node {id}, the hole, is not in the graph, so the mouse can never win: add an edge to node {id}"),
            DiagnosticKind::MissingHole { id, others: false, .. } => format!("node {id}, a hole, is not in the graph, nor is any other hole, so the mouse can never win: add an edge to node {id}"),
            DiagnosticKind::MissingHole { id, .. } => format!("node {id}, a hole, is not in the graph, so it is no way out: add an edge to node {id}, or leave it out of the holes"),
            DiagnosticKind::MouseStuck { id, one_way: false } => format!("node {id} has no neighbours, so the mouse cannot make its first move and the game is a draw: join node {id} to another node"),
            DiagnosticKind::MouseStuck { id, one_way: true } => format!("node {id} has no move out, so the mouse cannot make its first move and the game is a draw: add a move out of node {id}"),
            DiagnosticKind::CatStuck { id, joined, hole } => {
                let other = hole.map_or_else(|| "a hole".to_owned(), |hole| hole.to_string());
                match (joined, hole) {
                    (true, Some(_)) => format!("node {id} has no neighbour other than the hole, where the cat may not go, so the cat can never leave its start: join node {id} to a node other than {other}"),
                    (true, None) => format!("node {id} has no neighbour other than the holes, where the cat may not go, so the cat can never leave its start: join node {id} to a node other than a hole"),
                    (false, _) => format!("node {id} has no neighbours, so the cat can never leave its start: join node {id} to a node other than {other}"),
                }
            }
            DiagnosticKind::HoleUnreachable { mouse, several } => format!(
                "no path leads from node {mouse} to {}, so the mouse can never win",
                if several { "a hole" } else { "the hole" }
            ),
            DiagnosticKind::NoMove { id, player: None } => format!(
                "a player can come to node {id} but has no move out of it, so a game where it must move there is a draw: add a move out of node {id}"
            ),
            DiagnosticKind::NoMove { id, player: Some(player) } => format!(
                "the {} can come to node {id} but has no move out of it that it may make, so a game that gets there is a draw: add a move out of node {id}",
                crate::explain::player_name(player)
            ),
            DiagnosticKind::UnknownRule => {
                let name = text.get(self.range.to_usize()).unwrap_or_default();
                let near = RuleName::meant(name).map(RuleName::name);
                let rules = RuleName::KNOWN.map(|rule| rule.name()).join(", ");
                match near {
                    Some(near) => format!("`{}` is no rule: did you mean `{near}`?", cmg_syntax::quote(name)),
                    None => format!("`{}` is no rule; the rules are {rules}", cmg_syntax::quote(name)),
                }
            }
            DiagnosticKind::DuplicateRule { name, .. } => format!(
                "the rule `{}` is given again; the first one counts, so remove one",
                name.name()
            ),
            DiagnosticKind::BadLimit => "a turn limit is a whole number of moves, 1 or more: `rule limit 16`".to_owned(),
            DiagnosticKind::RuleArguments { name } => format!(
                "this does not fit the rule `{}`, which is written `{}`",
                name.name(),
                name.usage()
            ),
            DiagnosticKind::StartEndsGame { on_cat: true } => "the mouse starts on the cat, so the cat has won before any move: start them on different nodes".to_owned(),
            DiagnosticKind::StartEndsGame { on_cat: false } => "the mouse starts on a hole, so it has won before any move: start it on another node".to_owned(),
            DiagnosticKind::ArcDuplicatesEdge { a, b } => format!(
                "{a} -- {b} is an edge already, so the move from {a} to {b} is there: this one-way edge adds nothing and can go"
            ),
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
            DiagnosticKind::MissingMouse { .. } => Code::MissingMouse,
            DiagnosticKind::MissingCat { .. } => Code::MissingCat,
            DiagnosticKind::MissingHole { .. } => Code::MissingHole,
            DiagnosticKind::MouseStuck { .. } => Code::MouseStuck,
            DiagnosticKind::CatStuck { .. } => Code::CatStuck,
            DiagnosticKind::HoleUnreachable { .. } => Code::HoleUnreachable,
            DiagnosticKind::NoMove { .. } => Code::NoMove,
            DiagnosticKind::UnknownRule => Code::UnknownRule,
            DiagnosticKind::DuplicateRule { .. } => Code::DuplicateRule,
            DiagnosticKind::BadLimit => Code::BadLimit,
            DiagnosticKind::RuleArguments { .. } => Code::RuleArguments,
            DiagnosticKind::StartEndsGame { .. } => Code::StartEndsGame,
            DiagnosticKind::ArcDuplicatesEdge { .. } => Code::ArcDuplicatesEdge,
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
    UnknownRule = "unknown-rule", Error;
    DuplicateRule = "duplicate-rule", Error;
    BadLimit = "bad-limit", Error;
    RuleArguments = "rule-arguments", Error;
    StartEndsGame = "start-ends-game", Error;
    MissingHole = "missing-hole", Warning;
    DuplicateEdge = "duplicate-edge", Warning;
    OneSidedEdge = "one-sided-edge", Warning;
    DuplicateLabel = "duplicate-label", Warning;
    DuplicateExpect = "duplicate-expect", Warning;
    ArcDuplicatesEdge = "arc-duplicates-edge", Warning;
    NoMove = "no-move", Warning;
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
