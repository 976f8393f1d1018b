//! The syntax tree of a `.cmg` file: statements with the byte range of every part.

use smallvec::SmallVec;

use super::TextRange;

/// The largest node id the language accepts.
pub const MAX_NODE_ID: u32 = 4_294_967_294;

/// The statements of a file that parsed; broken ones are left out (they are in
/// [`super::Parse::errors`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SourceFile {
    pub statements: Vec<Statement>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Statement {
    pub range: TextRange,
    pub kind: StatementKind,
}

impl SourceFile {
    /// The lists of the adjacency literal that is statement `index`; `None` for a
    /// statement of another kind or one past the end.
    pub fn adjacency_lists(&self, index: u32) -> Option<&[AdjacencyList]> {
        self.statements.get(index as usize)?.adjacency_lists()
    }
}

impl Statement {
    /// The lists of an adjacency literal; `None` for any other statement.
    pub fn adjacency_lists(&self) -> Option<&[AdjacencyList]> {
        match &self.kind {
            StatementKind::Adjacency(lists) => Some(lists),
            _ => None,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StatementKind {
    /// `a -- {b c} -- d`: at least two groups.
    Edges(Groups),
    /// `node 3 "label"`.
    Node(NodeDecl),
    /// `expect mouse`.
    Expect(Expect),
    /// `[[1,3],[0],[3],[0,2]]`.
    Adjacency(Vec<AdjacencyList>),
    /// `a -> {b c} -> d`: one-way edges, at least two groups.
    Arcs(Groups),
    /// `rule limit 16`.
    Rule(RuleDecl),
}

/// `rule NAME ARG…`: the name and its arguments as written; what they mean, and whether
/// they fit the rule, is the model's to say (so that a wrong one gets its own code).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleDecl {
    pub keyword_range: TextRange,
    pub name: RuleName,
    pub name_range: TextRange,
    pub args: Vec<RuleArg>,
}

impl RuleDecl {
    /// The whole statement, `rule` to its last argument.
    pub fn range(&self) -> TextRange {
        let last = self.args.last().map_or(self.name_range, |arg| arg.range);
        self.keyword_range.cover(last)
    }
}

/// The rules there are, in the order `cmg fmt` writes them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum RuleName {
    Limit,
    First,
    Start,
    Holes,
    CatEntersHoles,
    /// A name that is no rule (the text at `name_range` says which).
    Unknown,
}

impl RuleName {
    pub const KNOWN: [RuleName; 5] = [
        RuleName::Limit,
        RuleName::First,
        RuleName::Start,
        RuleName::Holes,
        RuleName::CatEntersHoles,
    ];

    /// The rule a name stands for: its own name, or an alias (`hole`, `cat-enters-hole`).
    pub fn from_name(name: &str) -> RuleName {
        match name {
            "limit" => RuleName::Limit,
            "first" => RuleName::First,
            "start" => RuleName::Start,
            "holes" | "hole" => RuleName::Holes,
            "cat-enters-holes" | "cat-enters-hole" => RuleName::CatEntersHoles,
            _ => RuleName::Unknown,
        }
    }

    /// The rule a misspelt name (one edit away, in any case) most likely means: what
    /// `unknown-rule` suggests and its quick fix writes.
    pub fn meant(written: &str) -> Option<RuleName> {
        let written = written.to_ascii_lowercase();
        RuleName::KNOWN
            .into_iter()
            .find(|known| crate::within_one_edit(&written, known.name()))
    }

    /// The name as `cmg fmt` writes it.
    pub fn name(self) -> &'static str {
        match self {
            RuleName::Limit => "limit",
            RuleName::First => "first",
            RuleName::Start => "start",
            RuleName::Holes => "holes",
            RuleName::CatEntersHoles => "cat-enters-holes",
            RuleName::Unknown => "?",
        }
    }

    /// The arguments it takes, in words, for messages and completion.
    pub fn usage(self) -> &'static str {
        match self {
            RuleName::Limit => "rule limit N",
            RuleName::First => "rule first cat",
            RuleName::Start => "rule start M C",
            RuleName::Holes => "rule holes H…",
            RuleName::CatEntersHoles => "rule cat-enters-holes",
            RuleName::Unknown => "rule NAME",
        }
    }
}

/// A game's rules as `rule` lines: each rule given here becomes one line, in the order
/// `cmg fmt` writes them (`limit`, `first`, `start`, `holes`, `cat-enters-holes`). The
/// one writer of rule statements, for every tool that puts a game into a file.
#[derive(Clone, Copy, Debug, Default)]
pub struct RuleLines<'a> {
    pub limit: Option<u32>,
    pub cat_first: bool,
    /// The mouse's start and the cat's.
    pub start: Option<(u32, u32)>,
    pub holes: Option<&'a [u32]>,
    pub cat_enters_holes: bool,
}

impl RuleLines<'_> {
    pub fn lines(&self) -> Vec<String> {
        let line = |name: RuleName, args: &str| match args {
            "" => format!("rule {}", name.name()),
            _ => format!("rule {} {args}", name.name()),
        };
        let mut lines = Vec::new();
        if let Some(limit) = self.limit {
            lines.push(line(RuleName::Limit, &limit.to_string()));
        }
        if self.cat_first {
            lines.push(line(RuleName::First, "cat"));
        }
        if let Some((mouse, cat)) = self.start {
            lines.push(line(RuleName::Start, &format!("{mouse} {cat}")));
        }
        if let Some(holes) = self.holes {
            let holes: Vec<String> = holes.iter().map(u32::to_string).collect();
            lines.push(line(RuleName::Holes, &holes.join(" ")));
        }
        if self.cat_enters_holes {
            lines.push(line(RuleName::CatEntersHoles, ""));
        }
        lines
    }
}

/// One argument of a rule: a number (`None` above [`MAX_NODE_ID`]), `mouse`, `cat`, or
/// another word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleArg {
    pub range: TextRange,
    pub value: RuleValue,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuleValue {
    Number(Option<u32>),
    Mouse,
    Cat,
    Word,
}

/// One mention of a node id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NodeRef {
    /// `None` when the number is above [`MAX_NODE_ID`].
    pub id: Option<u32>,
    pub range: TextRange,
}

/// A single node id, or `{ ... }` standing for each of its members.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    pub range: TextRange,
    pub braced: bool,
    pub members: Members,
}

/// The node ids of a group. Most groups are a single id (`a -- b`); those keep it
/// inline, which spares a file of 75 000 edge lines 150 000 allocations.
pub type Members = SmallVec<[NodeRef; 1]>;

/// The groups of an edge chain. Most chains are two groups (`a -- b`); those keep them
/// inline, one allocation less per edge line.
pub type Groups = SmallVec<[Group; 2]>;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeDecl {
    pub node: NodeRef,
    pub label: Option<Label>,
}

/// A string with its escapes resolved; `range` includes the quotes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    pub value: String,
    pub range: TextRange,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Expect {
    pub keyword_range: TextRange,
    pub outcome: ExpectedOutcome,
    pub outcome_range: TextRange,
}

impl Expect {
    /// The whole statement, `expect` to the outcome word.
    pub fn range(&self) -> TextRange {
        self.keyword_range.cover(self.outcome_range)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ExpectedOutcome {
    Mouse,
    Cat,
    Draw,
}

impl ExpectedOutcome {
    pub fn keyword(self) -> &'static str {
        match self {
            ExpectedOutcome::Mouse => "mouse",
            ExpectedOutcome::Cat => "cat",
            ExpectedOutcome::Draw => "draw",
        }
    }
}

/// List `i` of an adjacency literal: the neighbours of node `i`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AdjacencyList {
    pub range: TextRange,
    pub neighbours: Vec<NodeRef>,
}
