//! Document symbols: the outline of a file is its nodes, in id order, with labels and roles.
//!
//! A node's symbol points at its `node` declaration if it has one (that is where a
//! label lives), else at its first mention. In an adjacency literal, list `i` is a
//! mention of node `i`; with no id token to select, the whole list is both ranges.

use cmg_core::analysis::Analysis;
use cmg_core::model::NodeRole;
use cmg_syntax::TextRange;

use super::navigation::definition_of;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symbol {
    /// "node 3".
    pub name: String,
    /// The label and the role, such as "exit · hole"; `None` for an unlabelled plain node.
    pub detail: Option<String>,
    /// The whole declaration, or the first mention.
    pub range: TextRange,
    /// The id token inside `range`.
    pub selection_range: TextRange,
}

/// One symbol per node of the graph, in id order.
pub fn document_symbols(analysis: &Analysis) -> Vec<Symbol> {
    let model = &analysis.model;
    let graph = &model.graph;
    graph
        .ids()
        .iter()
        .enumerate()
        .filter_map(|(index, &id)| {
            let target = definition_of(analysis, id)?;
            let (range, selection_range) = (target.full_range, target.focus_range);
            let role = analysis.model.graph.role_of(id).map(NodeRole::name);
            let detail = match (graph.label(index as u32), role) {
                (Some(label), Some(role)) => Some(format!("{label} · {role}")),
                (Some(label), None) => Some(label.to_owned()),
                (None, role) => role.map(str::to_owned),
            };
            Some(Symbol {
                name: format!("node {id}"),
                detail,
                range,
                selection_range,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use expect_test::{expect, Expect};

    use crate::test_utils::analyze;

    use super::*;

    fn check(fixture: &str, expect: Expect) {
        let (analysis, _, _) = analyze(fixture);
        let actual: String = document_symbols(&analysis)
            .iter()
            .map(|symbol| {
                assert!(symbol.range.contains_range(symbol.selection_range));
                format!(
                    "{} {:?} {:?} {:?} {:?}\n",
                    symbol.name,
                    symbol.detail,
                    &analysis.text[symbol.range.to_usize()],
                    symbol.selection_range,
                    &analysis.text[symbol.selection_range.to_usize()],
                )
            })
            .collect();
        expect.assert_eq(&actual);
    }

    #[test]
    fn edges_and_declarations() {
        check(
            "5 -- 1 -- 2\n0 -- 5\nnode 5 \"middle\"\nnode 0 \"exit\"\nnode 7\n",
            expect![[r#"
                node 0 Some("exit · hole") "node 0 \"exit\"" 40..41 "0"
                node 1 Some("mouse start") "1" 5..6 "1"
                node 2 Some("cat start") "2" 10..11 "2"
                node 5 Some("middle") "node 5 \"middle\"" 24..25 "5"
                node 7 None "node 7" 54..55 "7"
            "#]],
        );
    }

    #[test]
    fn adjacency_literal() {
        check(
            "[\n  [1,3],\n  [0],\n  [],\n]\n",
            expect![[r##"
                node 0 Some("hole") "[1,3]" 4..9 "[1,3]"
                node 1 Some("mouse start") "1" 5..6 "1"
                node 2 Some("cat start") "[]" 20..22 "[]"
                node 3 None "3" 7..8 "3"
            "##]],
        );
    }

    #[test]
    fn unicode_and_crlf() {
        check(
            "# é😀\r\n1 -- 2\r\nnode 1 \"ü😀\"\r\n",
            expect![[r##"
                node 1 Some("ü😀 · mouse start") "node 1 \"ü😀\"" 23..24 "1"
                node 2 Some("cat start") "2" 15..16 "2"
            "##]],
        );
    }

    #[test]
    fn empty() {
        check("# nothing\n", expect![""]);
    }
}
