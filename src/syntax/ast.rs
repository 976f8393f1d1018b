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
    Edges(Groups),
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

/// The node ids of a group. Most groups are a single id (`a -- b`); those keep it
/// inline, which spares a file of 75 000 edge lines 150 000 allocations.
pub type Members = SmallList<NodeRef, 1>;

/// The groups of an edge chain. Most chains are two groups (`a -- b`); those keep them
/// inline, one allocation less per edge line.
pub type Groups = SmallList<Group, 2>;

/// A list read as a slice that keeps exactly `N` items inline and any other count on
/// the heap. How it is stored never shows: it compares and prints as its slice.
#[derive(Clone)]
pub struct SmallList<T, const N: usize>(SmallListRepr<T, N>);

#[derive(Clone)]
enum SmallListRepr<T, const N: usize> {
    Inline([T; N]),
    Heap(Vec<T>),
}

impl<T, const N: usize> From<[T; N]> for SmallList<T, N> {
    fn from(items: [T; N]) -> SmallList<T, N> {
        SmallList(SmallListRepr::Inline(items))
    }
}

impl<T, const N: usize> From<Vec<T>> for SmallList<T, N> {
    fn from(items: Vec<T>) -> SmallList<T, N> {
        match <[T; N]>::try_from(items) {
            Ok(inline) => SmallList(SmallListRepr::Inline(inline)),
            Err(items) => SmallList(SmallListRepr::Heap(items)),
        }
    }
}

impl<T, const N: usize> std::ops::Deref for SmallList<T, N> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        match &self.0 {
            SmallListRepr::Inline(items) => items,
            SmallListRepr::Heap(items) => items,
        }
    }
}

impl<'a, T, const N: usize> IntoIterator for &'a SmallList<T, N> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<T: PartialEq, const N: usize> PartialEq for SmallList<T, N> {
    fn eq(&self, other: &SmallList<T, N>) -> bool {
        **self == **other
    }
}

impl<T: Eq, const N: usize> Eq for SmallList<T, N> {}

impl<T: std::fmt::Debug, const N: usize> std::fmt::Debug for SmallList<T, N> {
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

    /// Items inline and the same items on the heap are the same list, read and printed
    /// alike; a list of `N` items from a `Vec` is stored inline.
    #[test]
    fn small_lists_read_the_same_however_stored() {
        let node = |id| NodeRef {
            id: Some(id),
            range: TextRange::new(id, id + 1),
        };
        let inline = Members::from([node(3)]);
        let listed: Members = SmallList(SmallListRepr::Heap(vec![node(3)]));
        assert!(matches!(
            Members::from(vec![node(3)]).0,
            SmallListRepr::Inline(_)
        ));
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
