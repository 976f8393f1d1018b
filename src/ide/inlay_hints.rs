//! Inlay hints: the solved outcome at the end of the first line, and who wins from each node.
//!
//! The outcome hint reads "mouse wins in 3", "cat wins in 4" or "draw" (moves counted
//! in plies) and sits at the end of the first line's content.
//!
//! A per-node hint sits right after the first mention of each node and gives the outcome
//! if the mouse started there, with the cat on node 2 and the mouse to move. It reads
//! ": mouse in 3", ": cat in 2" or ": draw": short, because a graph can have many of them,
//! and led by a colon so that `5: mouse in 3` reads as a property of node 5. Node 0 (the
//! hole) and node 2 (the cat's start) get no hint: the game would be over before the
//! first move, so the hint would only say the obvious.
//!
//! In an adjacency literal, list `i` counts as a mention of node `i`, but it is not a
//! place where the id is written. So the hint goes after the first mention that writes
//! the id; only a node that is never written (an empty list, say) gets its hint inside
//! its list, right after the `[`.

use crate::analysis::{
    describe, describe_position, mouse_starts_at, solution_for, start_position, Analysis,
};
use crate::model::MentionKind;
use crate::solve::{Outcome, Solution};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InlayHintConfig {
    /// Whether to show the per-node hints.
    pub node_outcomes: bool,
}

impl Default for InlayHintConfig {
    fn default() -> InlayHintConfig {
        InlayHintConfig {
            node_outcomes: true,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InlayHintKind {
    /// The outcome of the game, at the end of the first line.
    Outcome,
    /// The outcome if the mouse started on a node, after its first mention.
    NodeOutcome,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InlayHint {
    /// The byte offset the hint is shown at (before the character there).
    pub offset: u32,
    pub label: String,
    pub kind: InlayHintKind,
    pub tooltip: Option<String>,
}

/// Every hint of the document, in source order; none without a solution.
pub fn inlay_hints(
    analysis: &Analysis,
    solution: Option<&Solution>,
    config: &InlayHintConfig,
) -> Vec<InlayHint> {
    let graph = &analysis.model.graph;
    let Some(solution) = solution_for(graph, solution) else {
        return Vec::new();
    };
    let Some(start) = start_position(graph) else {
        return Vec::new();
    };
    let mut hints = vec![outcome_hint(analysis, solution)];
    if config.node_outcomes {
        for (index, &id) in graph.ids().iter().enumerate() {
            let index = index as u32;
            if id == 0 || index == start.cat {
                continue;
            }
            let (Some(offset), Some(position)) =
                (hint_offset(analysis, id), mouse_starts_at(graph, index))
            else {
                continue;
            };
            let outcome = solution.outcome(position);
            let moves = solution.moves_to_end(position);
            let label = match (outcome, moves) {
                (Outcome::MouseWins, Some(moves)) => format!(": mouse in {moves}"),
                (Outcome::CatWins, Some(moves)) => format!(": cat in {moves}"),
                _ => ": draw".to_owned(),
            };
            hints.push(InlayHint {
                offset,
                label,
                kind: InlayHintKind::NodeOutcome,
                tooltip: Some(format!(
                    "If the mouse started on node {id} (cat on node 2, mouse to move): {}.",
                    describe(outcome, moves)
                )),
            });
        }
    }
    // At one offset, a node's hint comes before the outcome, so that it stays next to its node.
    hints.sort_by_key(|hint| (hint.offset, hint.kind == InlayHintKind::Outcome));
    hints
}

fn outcome_hint(analysis: &Analysis, solution: &Solution) -> InlayHint {
    let offset = analysis
        .line_index
        .line_content(&analysis.text, 0)
        .map_or(0, |range| range.end);
    let label = start_position(&analysis.model.graph).map_or_else(
        || "draw".to_owned(),
        |start| describe_position(solution, start),
    );
    InlayHint {
        offset,
        label,
        kind: InlayHintKind::Outcome,
        tooltip: Some(
            "The outcome with both players at their best: mouse on node 1, cat on node 2, \
             mouse to move. Moves are counted one player's move at a time."
                .to_owned(),
        ),
    }
}

/// Where the hint of node `id` goes: after its first written mention, else just inside
/// the first list that declares it.
fn hint_offset(analysis: &Analysis, id: u32) -> Option<u32> {
    let mut mentions = analysis.model.mentions_of(id);
    let first = mentions.clone().next()?;
    match mentions.find(|m| m.kind != MentionKind::ListIndex) {
        Some(written) => Some(written.range.end),
        None => Some(first.range.start + 1),
    }
}

#[cfg(test)]
mod tests {
    use expect_test::{expect, Expect};

    use crate::ide::test_utils::{analyze, apply_edits};
    use crate::ide::TextEdit;
    use crate::syntax::TextRange;

    use super::*;

    fn check_with(config: &InlayHintConfig, fixture: &str, expect: Expect) {
        let (analysis, solution, _) = analyze(fixture);
        let hints = inlay_hints(&analysis, solution.as_ref(), config);
        // Show the text with each hint spliced in where the editor would draw it; hints at
        // one offset become one insertion, so that they keep their order.
        let mut edits: Vec<TextEdit> = Vec::new();
        for hint in &hints {
            let shown = match hint.kind {
                InlayHintKind::Outcome => format!("  ⟨{}⟩", hint.label),
                InlayHintKind::NodeOutcome => format!("⟨{}⟩", hint.label),
            };
            match edits.last_mut() {
                Some(edit) if edit.range.start == hint.offset => edit.new_text.push_str(&shown),
                _ => edits.push(TextEdit {
                    range: TextRange::empty(hint.offset),
                    new_text: shown,
                }),
            }
        }
        let actual = apply_edits(&analysis.text, &edits);
        expect.assert_eq(&actual);
    }

    fn check(fixture: &str, expect: Expect) {
        check_with(&InlayHintConfig::default(), fixture, expect);
    }

    #[test]
    fn mouse_wins() {
        check(
            "[[1,3],[0],[3],[0,2]]\nexpect mouse\n",
            expect![[r##"
                [[1⟨: mouse in 1⟩,3⟨: mouse in 1⟩],[0],[3],[0,2]]  ⟨mouse wins in 1⟩
                expect mouse
            "##]],
        );
    }

    #[test]
    fn cat_wins() {
        check(
            "# cat wins\nnode 0 \"hole\"\n0 -- 3 -- 1\n2 -- 3\n3 -- 4\n",
            expect![[r##"
                # cat wins  ⟨cat wins in 2⟩
                node 0 "hole"
                0 -- 3⟨: mouse in 1⟩ -- 1⟨: cat in 2⟩
                2 -- 3
                3 -- 4⟨: cat in 2⟩
            "##]],
        );
    }

    #[test]
    fn draw() {
        check(
            "0 -- {2 5}\n4 -- 3 -- 1\n2 -- {4 5}\n3 -- 5\n",
            expect![[r#"
                0 -- {2 5⟨: mouse in 1⟩}  ⟨draw⟩
                4⟨: draw⟩ -- 3⟨: cat in 4⟩ -- 1⟨: draw⟩
                2 -- {4 5}
                3 -- 5
            "#]],
        );
    }

    #[test]
    fn node_hints_off() {
        check_with(
            &InlayHintConfig {
                node_outcomes: false,
            },
            "0 -- {2 5}\n4 -- 3 -- 1\n2 -- {4 5}\n3 -- 5\n",
            expect![[r##"
                0 -- {2 5}  ⟨draw⟩
                4 -- 3 -- 1
                2 -- {4 5}
                3 -- 5
            "##]],
        );
    }

    #[test]
    fn node_only_in_a_list_index() {
        check(
            "[[1,3],[0],[3],[0,2],[]]",
            expect![
                "[[1⟨: mouse in 1⟩,3⟨: mouse in 1⟩],[0],[3],[0,2],[⟨: draw⟩]]  ⟨mouse wins in 1⟩"
            ],
        );
    }

    #[test]
    fn no_game_no_hints() {
        check("0 -- 1 -- 3\n", expect!["0 -- 1 -- 3\n"]);
        check("", expect![""]);
    }

    #[test]
    fn unicode_and_crlf() {
        check(
            "# é😀\r\n0 -- 1\r\n1 -- 2\r\n",
            expect!["# é😀  ⟨mouse wins in 1⟩\r\n0 -- 1⟨: mouse in 1⟩\r\n1 -- 2\r\n"],
        );
    }

    #[test]
    fn tooltips() {
        let (analysis, solution, _) = analyze("0 -- 1 -- 2\n");
        let hints = inlay_hints(&analysis, solution.as_ref(), &InlayHintConfig::default());
        let tooltips: Vec<_> = hints.iter().map(|hint| hint.tooltip.clone()).collect();
        expect![[r##"
            [
                Some(
                    "If the mouse started on node 1 (cat on node 2, mouse to move): mouse wins in 1.",
                ),
                Some(
                    "The outcome with both players at their best: mouse on node 1, cat on node 2, mouse to move. Moves are counted one player's move at a time.",
                ),
            ]
        "##]]
        .assert_debug_eq(&tooltips);
    }

    #[test]
    fn stale_solution_is_not_used() {
        // A solution for another version of the document must not be read: its node
        // indices do not fit this graph.
        let (_, stale, _) = analyze("[[1,3],[0],[3],[0,2],[4]]");
        let (analysis, _, _) = analyze("0 -- 1 -- 2\n");
        assert_eq!(
            inlay_hints(&analysis, stale.as_ref(), &InlayHintConfig::default()),
            []
        );
    }
}
