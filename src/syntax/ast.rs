//! The syntax tree of a `.cmg` file: statements with the byte range of every part.

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

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StatementKind {
    /// `a -- {b c} -- d`: at least two groups.
    Edges(Vec<Group>),
    /// `node 3 "label"`.
    Node(NodeDecl),
    /// `expect mouse`.
    Expect(Expect),
    /// `[[1,3],[0],[3],[0,2]]`.
    Adjacency(Vec<AdjacencyList>),
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

/// The node ids of a group, read as a slice. Most groups are a single id (`a -- b`);
/// those keep it inline, which spares a file of 75 000 edge lines 150 000 allocations.
#[derive(Clone)]
pub struct Members(MembersRepr);

#[derive(Clone)]
enum MembersRepr {
    One(NodeRef),
    Many(Vec<NodeRef>),
}

impl Members {
    pub fn one(node: NodeRef) -> Members {
        Members(MembersRepr::One(node))
    }
}

impl From<Vec<NodeRef>> for Members {
    fn from(nodes: Vec<NodeRef>) -> Members {
        Members(MembersRepr::Many(nodes))
    }
}

impl std::ops::Deref for Members {
    type Target = [NodeRef];

    fn deref(&self) -> &[NodeRef] {
        match &self.0 {
            MembersRepr::One(node) => std::slice::from_ref(node),
            MembersRepr::Many(nodes) => nodes,
        }
    }
}

impl<'a> IntoIterator for &'a Members {
    type Item = &'a NodeRef;
    type IntoIter = std::slice::Iter<'a, NodeRef>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// Equal when the ids are, however they are stored.
impl PartialEq for Members {
    fn eq(&self, other: &Members) -> bool {
        **self == **other
    }
}

impl Eq for Members {}

impl std::fmt::Debug for Members {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

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
    pub(crate) fn keyword(self) -> &'static str {
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

impl Statement {}

#[cfg(test)]
mod tests {
    use super::*;

    /// One id inline and a list of one are the same members, read and printed alike.
    #[test]
    fn members_read_the_same_however_stored() {
        let node = |id| NodeRef {
            id: Some(id),
            range: TextRange::new(id, id + 1),
        };
        let inline = Members::one(node(3));
        let listed = Members::from(vec![node(3)]);
        assert_eq!(inline, listed);
        assert_eq!(&*inline, &[node(3)]);
        assert_eq!(format!("{inline:?}"), format!("{listed:?}"));
        assert_eq!(
            format!("{inline:?}"),
            "[NodeRef { id: Some(3), range: 3..4 }]"
        );
        let pair = Members::from(vec![node(3), node(5)]);
        assert_ne!(inline, pair);
        assert_eq!(
            (&pair).into_iter().map(|n| n.id).collect::<Vec<_>>(),
            [Some(3), Some(5)]
        );
    }
}
