//! Editor features as plain functions over a file's analysis and solution; no protocol types.
//!
//! Every feature takes the [`Analysis`] of one document
//! version and, where it needs one, the `Solution` solved for that same version
//! (`None` while solving is under way or not possible). Positions are byte offsets;
//! the `lsp` layer converts.

pub mod actions;
pub mod code_lens;
pub mod completion;
pub mod critical_edges;
pub mod folding;
mod format;
pub mod hover;
pub mod inlay_hints;
pub mod navigation;
pub mod rename;
mod rules_first;
pub mod selection_range;
pub mod semantic_tokens;
pub mod symbols;
#[cfg(test)]
mod test_utils;

pub mod view;

pub use format::{format, format_on_type, format_range, MAX_WIDTH};

#[cfg(doc)]
use cmg_core::analysis::Analysis;
use cmg_syntax::TextRange;

/// Replace `range` with `new_text`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextEdit {
    pub range: TextRange,
    pub new_text: String,
}

/// `text` with non-overlapping `edits` applied, or `None` if one does not fit the text
/// (out of range, overlapping another, or splitting a character).
pub fn apply_edits(text: &str, edits: &[TextEdit]) -> Option<String> {
    let mut edits = edits.to_vec();
    edits.sort_by_key(|edit| std::cmp::Reverse((edit.range.start, edit.range.end)));
    let mut text = text.to_owned();
    let mut limit = text.len();
    for edit in edits {
        let range = edit.range.to_usize();
        if range.end > limit
            || !text.is_char_boundary(range.start)
            || !text.is_char_boundary(range.end)
        {
            return None;
        }
        text.replace_range(range.clone(), &edit.new_text);
        limit = range.start;
    }
    Some(text)
}

/// Edge statements for a graph given as each node with its neighbours (each list sorted,
/// without repeats), in the order given: `i -- j` or `i -- {j k}` for the neighbours
/// above `i`, `node i` for a node without any. `cmg import` and the refactor that turns
/// an adjacency literal into edges both write this layout.
pub fn edge_statements<'a, N, L>(nodes: impl IntoIterator<Item = (N, L)>) -> Vec<String>
where
    N: Copy + Ord + std::fmt::Display + 'a,
    L: IntoIterator<Item = &'a N>,
{
    let mut lines = Vec::new();
    for (node, neighbours) in nodes {
        let mut any = false;
        let above: Vec<String> = neighbours
            .into_iter()
            .inspect(|_| any = true)
            .filter(|&&other| other > node)
            .map(ToString::to_string)
            .collect();
        match above.as_slice() {
            [] if !any => lines.push(format!("node {node}")),
            [] => {}
            [one] => lines.push(format!("{node} -- {one}")),
            many => lines.push(format!("{node} -- {{{}}}", many.join(" "))),
        }
    }
    lines
}

/// Statements for a graph given as each node's moves (`lists[i]` the nodes a player on `i`
/// may move to, sorted, without repeats): a move listed both ways is an edge, written as
/// [`edge_statements`] writes it, and a move listed one way only is an arc, `i -> j` or
/// `i -> {j k}` after the edges. `cmg import` of cmg's JSON and `cmg gen` on directed
/// graphs write this layout.
pub fn move_statements(lists: &[Vec<u32>]) -> Vec<String> {
    let listed = |from: u32, to: u32| {
        lists
            .get(to as usize)
            .is_some_and(|list| list.binary_search(&from).is_ok())
    };
    let mut both: Vec<Vec<u32>> = vec![Vec::new(); lists.len()];
    let mut arcs: Vec<(u32, Vec<String>)> = Vec::new();
    for (node, list) in (0u32..).zip(lists) {
        let mut one_way = Vec::new();
        for &to in list {
            if listed(node, to) {
                both[node as usize].push(to);
            } else {
                one_way.push(to.to_string());
            }
        }
        if !one_way.is_empty() {
            arcs.push((node, one_way));
        }
    }
    // A node whose only moves are arcs, or that only arcs reach, is named by them.
    let in_arc: std::collections::HashSet<u32> = lists
        .iter()
        .enumerate()
        .flat_map(|(from, list)| {
            list.iter()
                .filter(move |&&to| !listed(from as u32, to))
                .flat_map(move |&to| [from as u32, to])
        })
        .collect();
    let mut lines = edge_statements(
        (0u32..)
            .zip(&both)
            .filter(|(node, list)| !list.is_empty() || !in_arc.contains(node)),
    );
    for (node, to) in arcs {
        match to.as_slice() {
            [one] => lines.push(format!("{node} -> {one}")),
            many => lines.push(format!("{node} -> {{{}}}", many.join(" "))),
        }
    }
    lines
}

pub(crate) use navigation::mention_at;

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::move_statements;

    fn lists_strategy() -> impl Strategy<Value = Vec<Vec<u32>>> {
        (1usize..9).prop_flat_map(|n| {
            proptest::collection::vec(proptest::collection::btree_set(0..n as u32, 0..n), n)
                .prop_map(|sets| {
                    (0u32..)
                        .zip(sets)
                        .map(|(node, set)| set.into_iter().filter(|&to| to != node).collect())
                        .collect()
                })
        })
    }

    proptest! {
        /// The statements read back as the same moves, node for node.
        #[test]
        fn move_statements_read_back_as_the_same_moves(lists in lists_strategy()) {
            let text = move_statements(&lists).join("\n");
            let analysis = cmg_core::analysis::Analysis::without_checks(text.as_str());
            let graph = &analysis.model.graph;
            prop_assert!(analysis.model.diagnostics.is_empty(), "{text}: {:?}", analysis.model.diagnostics);
            let mut read: Vec<Vec<u32>> = vec![Vec::new(); lists.len()];
            prop_assert_eq!(graph.node_count(), lists.len(), "{}", text);
            for (index, list) in (0u32..).zip(graph.move_lists().iter()) {
                let mut ids: Vec<u32> = list.iter().map(|&to| graph.id(to)).collect();
                ids.sort_unstable();
                read[graph.id(index) as usize] = ids;
            }
            prop_assert_eq!(read, lists, "{}", text);
        }
    }

    #[test]
    fn edges_first_then_arcs() {
        let lists = vec![vec![1, 2], vec![0], vec![], vec![0, 1], vec![]];
        assert_eq!(
            move_statements(&lists),
            ["0 -- 1", "node 4", "0 -> 2", "3 -> {0 1}"]
        );
    }
}
