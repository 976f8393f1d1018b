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

/// The statements of a graph given by its moves (list `i`: the ids one move from node
/// `i`, sorted, without repeats): `i -- j` for the moves both ways, in the layout of
/// [`edge_statements`], then `i -> j` or `i -> {j k}` for the moves one way only, and
/// `node i` for a node with neither. `cmg gen` writes the graphs it finds with it.
pub fn move_statements(lists: &[Vec<u32>]) -> Vec<String> {
    let back = |from: usize, to: u32| {
        lists
            .get(to as usize)
            .is_some_and(|list| list.binary_search(&(from as u32)).is_ok())
    };
    let (mut both, mut one_way) = (Vec::new(), Vec::new());
    let mut arc_ends = std::collections::BTreeSet::new();
    for (node, list) in lists.iter().enumerate() {
        let (two, one): (Vec<u32>, Vec<u32>) = list.iter().partition(|&&to| back(node, to));
        if !one.is_empty() {
            arc_ends.insert(node as u32);
            arc_ends.extend(one.iter().copied());
        }
        both.push(two);
        one_way.push(one);
    }
    let mut lines: Vec<String> = edge_statements((0u32..).zip(&both))
        .into_iter()
        .filter(|line| {
            line.strip_prefix("node ")
                .and_then(|id| id.parse().ok())
                .is_none_or(|id: u32| !arc_ends.contains(&id))
        })
        .collect();
    for (node, ends) in one_way.iter().enumerate() {
        let ends: Vec<String> = ends.iter().map(u32::to_string).collect();
        match ends.as_slice() {
            [] => {}
            [one] => lines.push(format!("{node} -> {one}")),
            many => lines.push(format!("{node} -> {{{}}}", many.join(" "))),
        }
    }
    lines
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

pub(crate) use navigation::mention_at;

#[cfg(test)]
mod tests {
    use super::move_statements;
    use cmg_core::analysis::Analysis;

    /// Two-way pairs as edges, one-way ones as arcs, a node with neither on its own.
    #[test]
    fn move_statements_write_edges_arcs_and_lone_nodes() {
        let lists = vec![vec![1, 2], vec![0, 2, 3], vec![], vec![], vec![]];
        assert_eq!(
            move_statements(&lists),
            ["0 -- 1", "node 4", "0 -> 2", "1 -> {2 3}"]
        );
    }

    /// The statements read back as the same moves, on graphs of every mix of edges and
    /// arcs on 4 nodes drawn from a fixed sequence.
    #[test]
    fn move_statements_read_back_as_the_same_moves() {
        let mut state = 17u64;
        for _ in 0..200 {
            let lists: Vec<Vec<u32>> = (0..4u32)
                .map(|from| {
                    (0..4u32)
                        .filter(|&to| {
                            state = state.wrapping_mul(6364136223846793005).wrapping_add(1);
                            to != from && state >> 62 == 0
                        })
                        .collect()
                })
                .collect();
            let text = move_statements(&lists).join("\n");
            let analysis = Analysis::new(text.as_str());
            let graph = &analysis.model.graph;
            assert_eq!(graph.node_count(), 4, "{text}");
            assert_eq!(graph.move_lists().to_vec(), lists, "{text}");
        }
    }
}
