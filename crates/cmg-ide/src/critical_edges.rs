//! The mark on critical edges: an inlay hint "critical" right after the `--` of each edge statement that declares an edge whose removal changes the result (`cmg_solve::is_critical`).
//!
//! A hint rather than a semantic-token modifier: VS Code's themes colour only the standard
//! modifiers, so a custom one would be invisible unless the user configured a colour for
//! it, while an inlay hint shows in every theme, grey and small, and carries a tooltip
//! with the what-if. Most edges are not critical, so the hints stay few.

use cmg_core::analysis::{solution_for, Analysis};
use cmg_core::explain::{describe_what_if, Solved};
use cmg_core::model::EdgeOrigin;

use crate::hover::find_what_if;
use crate::inlay_hints::{InlayHint, InlayHintKind};

/// One hint per edge statement that declares a critical edge, in source order; none while
/// the what-if is not known.
pub fn critical_edge_hints(analysis: &Analysis, solved: Option<&Solved>) -> Vec<InlayHint> {
    let model = &analysis.model;
    let graph = &model.graph;
    let Some(solved) = solved.filter(|s| solution_for(graph, Some(&s.solution)).is_some()) else {
        return Vec::new();
    };
    let Some(what_if) = solved.what_if.computed() else {
        return Vec::new();
    };
    if !what_if.edges.iter().any(|edge| edge.critical) {
        return Vec::new();
    }
    let now = solved.solution.outcome(what_if.start);
    let now_moves = solved.solution.moves_to_end(what_if.start);
    let mut hints = Vec::new();
    for edge in model.edges.iter().filter(|e| e.origin == EdgeOrigin::Chain) {
        let critical: Vec<String> = model
            .pairs(edge)
            .filter_map(|pair| {
                let (a, b) = (graph.index_of(pair.a)?, graph.index_of(pair.b)?);
                let outcome = find_what_if(&what_if.edges, (a, b))?;
                outcome
                    .critical
                    .then(|| describe_what_if(graph, outcome, now, now_moves))
            })
            .collect();
        if critical.is_empty() {
            continue;
        }
        let Some(offset) = operator_end(&analysis.text, edge.range) else {
            continue;
        };
        hints.push(InlayHint {
            offset,
            label: "critical".to_owned(),
            kind: InlayHintKind::CriticalEdge,
            tooltip: Some(format!(
                "critical: removing it changes the outcome\n\n{}",
                critical.join("\n")
            )),
            pad_left: true,
            pad_right: true,
        })
    }
    hints
}

/// The offset just after the `--` of a chain link whose range is `range` (from the first
/// group to the second). A braced first group is skipped first, since a comment inside it
/// may hold a `--` of its own.
fn operator_end(text: &str, range: cmg_syntax::TextRange) -> Option<u32> {
    let link = text.get(range.to_usize())?;
    let after_group = if link.starts_with('{') {
        link.find('}')? + 1
    } else {
        0
    };
    let operator = link[after_group..].find("--")? + after_group;
    Some(range.start + operator as u32 + 2)
}

#[cfg(test)]
mod tests {
    use cmg_core::analysis::Analysis;
    use cmg_core::explain::solve_and_explain_analysis;

    use super::critical_edge_hints;

    /// The hints as `text‸ label`, one per line, with their tooltips.
    fn marked(text: &str) -> String {
        let analysis = Analysis::new(text);
        let solved = solve_and_explain_analysis(&analysis, cmg_core::explain::WhatIfBudget::Editor);
        critical_edge_hints(&analysis, solved.as_ref())
            .iter()
            .map(|hint| {
                let (before, _) = text.split_at(hint.offset as usize);
                let line = before.rsplit('\n').next().unwrap_or("");
                format!("{line}‸ {} | {:?}\n", hint.label, hint.tooltip.as_deref())
            })
            .collect()
    }

    #[test]
    fn critical_edges_are_marked_after_their_operator() {
        expect_test::expect![[r#"
            0 -- 3 --‸ critical | Some("critical: removing it changes the outcome\n\nwithout 1 -- 3: draw (now: cat wins in 2)")
            2 --‸ critical | Some("critical: removing it changes the outcome\n\nwithout 2 -- 3: draw (now: cat wins in 2)")
        "#]]
        .assert_eq(&marked("0 -- 3 -- 1\n2 -- 3\n"));
        // A group product is marked once, with each critical edge it declares; a `--` in a
        // comment inside the braces is not the operator.
        expect_test::expect![[r#"
            3 --‸ critical | Some("critical: removing it changes the outcome\n\nwithout 1 -- 3: draw (now: cat wins in 2)\nwithout 2 -- 3: draw (now: cat wins in 2)")
            } --‸ critical | Some("critical: removing it changes the outcome\n\nwithout 1 -- 3: draw (now: cat wins in 2)")
        "#]]
        .assert_eq(&marked("3 -- {1 2}\n{1 # a -- b\n} -- 3 -- 0\n"));
    }

    #[test]
    fn nothing_without_a_critical_edge_or_a_solution() {
        assert_eq!(marked("0 -- 1 -- 2\n0 -- 2\n0 -- 3 -- 1\n"), "");
        assert!(critical_edge_hints(&Analysis::new("0 -- 1 -- 2\n"), None).is_empty());
    }
}
