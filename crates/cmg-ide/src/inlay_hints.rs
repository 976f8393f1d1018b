//! Inlay hints: the solved outcome at the end of the first line, and who wins from each node.
//!
//! The outcome hint reads "⟹ outcome: mouse wins in 3", "⟹ outcome: cat wins in 4" or
//! "⟹ outcome: draw" (moves counted in plies) and sits at the end of the first line's
//! content. Most files start with a comment, so a bare "draw" there would read as the
//! comment's last word; the arrow and the label make it the editor's voice.
//!
//! A per-node hint gives the outcome if the mouse started on a node, with the cat on
//! node 2 and the mouse to move. Node 0 (the hole) and node 2 (the cat's start) get no
//! hint: the game would be over before the first move, so the hint would only say the
//! obvious. The hint sits at the node's first mention that stands for the node itself:
//!
//! - after an id written in an edge chain or a `node` statement, as ": mouse wins in 3",
//!   ": cat wins in 2" or ": draw", led by a colon so that `5: mouse wins in 3` reads as a property
//!   of node 5 (short, because a graph can have many of them);
//! - at the start of row `i` of an adjacency literal, as "node 3: cat wins in 2 ▸", since the
//!   row is node `i` although its id is not written there. The ids inside a row are that
//!   row's neighbours, so they never carry a hint of their own: putting node 5's hint
//!   after the `5` in row 0 would make it read as a fact about row 0.
//!
//! A node written only as a neighbour in a row (a one-sided edge to a node without a
//! row) gets its hint after that first mention, so that every node still has one.

use cmg_core::analysis::{
    describe, describe_position, mouse_starts_at, solution_for, start_position, Analysis,
};
use cmg_core::model::{Mention, MentionKind};
use cmg_solve::Solution;
use cmg_syntax::{StatementKind, TextRange};

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
    /// After the `--` of an edge whose removal changes the outcome (`critical_edges.rs`).
    CriticalEdge,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InlayHint {
    /// The byte offset the hint is shown at (before the character there).
    pub offset: u32,
    pub label: String,
    pub kind: InlayHintKind,
    pub tooltip: Option<String>,
    /// Whether the editor should leave a space before the hint.
    pub pad_left: bool,
    /// Whether the editor should leave a space after the hint.
    pub pad_right: bool,
}

/// Every hint of the document, in source order; none without a solution.
pub fn inlay_hints(
    analysis: &Analysis,
    solution: Option<&Solution>,
    config: &InlayHintConfig,
) -> Vec<InlayHint> {
    inlay_hints_in(analysis, solution, config, None)
}

/// The hints whose offset touches `range` (every hint for `None`), in source order.
/// Only the nodes whose hint can fall in the range are looked at: a request for the
/// visible part of a large file costs that part, not the file.
pub fn inlay_hints_in(
    analysis: &Analysis,
    solution: Option<&Solution>,
    config: &InlayHintConfig,
    range: Option<TextRange>,
) -> Vec<InlayHint> {
    let graph = &analysis.model.graph;
    let Some(solution) = solution_for(graph, solution) else {
        return Vec::new();
    };
    let Some(start) = start_position(graph) else {
        return Vec::new();
    };
    let wanted = |offset: u32| range.is_none_or(|range| range.touches(offset));
    let mut hints = Vec::new();
    let outcome = outcome_hint(analysis, solution);
    if wanted(outcome.offset) {
        hints.push(outcome);
    }
    if config.node_outcomes {
        let nodes = match range {
            None => (0..graph.node_count() as u32).collect(),
            Some(range) => nodes_hinted_in(analysis, range),
        };
        for index in nodes {
            let id = graph.id(index);
            if id == 0 || index == start.cat {
                continue;
            }
            let (Some((offset, place)), Some(position)) = (
                hint_mention(analysis, id).map(place_of),
                mouse_starts_at(graph, index),
            ) else {
                continue;
            };
            if !wanted(offset) {
                continue;
            }
            let outcome = solution.outcome(position);
            let moves = solution.moves_to_end(position);
            let short = describe(outcome, moves);
            // An id's hint hugs the id, so that `5: mouse wins in 3` reads as one phrase; a
            // row's hint keeps the row's indentation and stands apart from its `[`.
            let (label, pad_left, pad_right) = match place {
                HintPlace::AfterId => (format!(": {short}"), false, false),
                HintPlace::BeforeRow => (format!("node {id}: {short} ▸"), false, true),
            };
            hints.push(InlayHint {
                offset,
                label,
                kind: InlayHintKind::NodeOutcome,
                pad_left,
                pad_right,
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

/// The dense indices, in order, of the nodes whose hint falls in `range`. A hint sits
/// at the start of a row or at the end of an id, so its mention starts in the range,
/// or is the one id that starts before the range and ends in it (mentions are in order
/// of their start, and ids never overlap).
fn nodes_hinted_in(analysis: &Analysis, range: TextRange) -> Vec<u32> {
    let mentions = &analysis.model.mentions;
    let first = mentions.partition_point(|mention| mention.range.start < range.start);
    let end = mentions.partition_point(|mention| mention.range.start <= range.end);
    let straddling = first.checked_sub(1).map(|before| &mentions[before]);
    let candidates = straddling
        .filter(|mention| mention.kind != MentionKind::ListIndex)
        .into_iter()
        .chain(&mentions[first..end.max(first)]);
    let mut nodes: Vec<u32> = candidates
        .filter(|&mention| {
            range.touches(place_of(mention).0)
                && hint_mention(analysis, mention.id).is_some_and(|own| std::ptr::eq(own, mention))
        })
        .filter_map(|mention| analysis.model.graph.index_of(mention.id))
        .collect();
    nodes.sort_unstable();
    nodes
}

fn outcome_hint(analysis: &Analysis, solution: &Solution) -> InlayHint {
    let offset = analysis
        .line_index
        .line_content(0)
        .map_or(0, |range| range.end);
    let outcome = start_position(&analysis.model.graph).map_or_else(
        || "draw".to_owned(),
        |start| describe_position(solution, start),
    );
    // A file with rules says which game the outcome is of.
    let label = match cmg_core::analysis::game_description(&analysis.model.graph) {
        Some(game) => format!("⟹ outcome: {outcome} ({game})"),
        None => format!("⟹ outcome: {outcome}"),
    };
    InlayHint {
        offset,
        label,
        kind: InlayHintKind::Outcome,
        pad_left: true,
        pad_right: false,
        tooltip: Some(
            "The outcome with both players at their best: mouse on node 1, cat on node 2, \
             mouse to move. Moves are counted one player's move at a time."
                .to_owned(),
        ),
    }
}

/// How a per-node hint sits next to its node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum HintPlace {
    /// Right after the written id: `3: cat wins in 2`.
    AfterId,
    /// At the start of the node's row in an adjacency literal: `node 3: cat wins in 2 ▸ [1, 2]`.
    BeforeRow,
}

/// The mention the hint of node `id` goes with: its first mention that stands for the
/// node itself (an id in a chain or a `node` statement, or its row in an adjacency
/// literal), else its first mention of any kind.
fn hint_mention(analysis: &Analysis, id: u32) -> Option<&Mention> {
    let mut mentions = analysis.model.mentions_of(id);
    let first = mentions.clone().next()?;
    Some(
        mentions
            .find(|m| !is_neighbour_in_row(analysis, m))
            .unwrap_or(first),
    )
}

/// Where a hint that goes with `mention` is shown.
fn place_of(mention: &Mention) -> (u32, HintPlace) {
    match mention.kind {
        MentionKind::ListIndex => (mention.range.start, HintPlace::BeforeRow),
        MentionKind::Edge | MentionKind::Declaration => (mention.range.end, HintPlace::AfterId),
    }
}

/// Whether a mention is an id inside a row of an adjacency literal, where it names a
/// neighbour of the row's node.
fn is_neighbour_in_row(analysis: &Analysis, mention: &Mention) -> bool {
    mention.kind == MentionKind::Edge
        && analysis
            .parse
            .file
            .statements
            .get(mention.statement as usize)
            .is_some_and(|statement| matches!(statement.kind, StatementKind::Adjacency(_)))
}

#[cfg(test)]
mod tests {
    use expect_test::{expect, Expect};

    use crate::test_utils::{analyze, apply_edits, every_range};
    use crate::TextEdit;
    use cmg_syntax::TextRange;

    use super::*;

    fn check_with(config: &InlayHintConfig, fixture: &str, expect: Expect) {
        let (analysis, solution, _) = analyze(fixture);
        let hints = inlay_hints(&analysis, solution.as_ref(), config);
        // Show the text with each hint spliced in where the editor would draw it; hints at
        // one offset become one insertion, so that they keep their order.
        let mut edits: Vec<TextEdit> = Vec::new();
        for hint in &hints {
            // Padding shows as a space, the way the editor draws it.
            let shown = format!(
                "{}⟨{}⟩{}",
                if hint.pad_left { " " } else { "" },
                hint.label,
                if hint.pad_right { " " } else { "" },
            );
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

    /// The outcome hint names the file's game; the node hints are the file's game too
    /// (the cat first here, so a mouse next to the cat is caught at once).
    #[test]
    fn a_file_with_rules_says_its_game() {
        check(
            "0 -- 3 -- 1 -- 2\nrule first cat\n",
            expect![[r#"
            0 -- 3⟨: mouse wins in 2⟩ -- 1⟨: cat wins in 1⟩ -- 2 ⟨⟹ outcome: cat wins in 1 (the cat moves first)⟩
            rule first cat
        "#]],
        );
    }

    #[test]
    fn mouse_wins() {
        check(
            "[[1,3],[0],[3],[0,2]]\nexpect mouse\n",
            expect![[r#"
                [[1,3],⟨node 1: mouse wins in 1 ▸⟩ [0],[3],⟨node 3: mouse wins in 1 ▸⟩ [0,2]] ⟨⟹ outcome: mouse wins in 1⟩
                expect mouse
            "#]],
        );
    }

    #[test]
    fn cat_wins() {
        check(
            "# cat wins\nnode 0 \"hole\"\n0 -- 3 -- 1\n2 -- 3\n3 -- 4\n",
            expect![[r##"
                # cat wins ⟨⟹ outcome: cat wins in 2⟩
                node 0 "hole"
                0 -- 3⟨: mouse wins in 1⟩ -- 1⟨: cat wins in 2⟩
                2 -- 3
                3 -- 4⟨: cat wins in 2⟩
            "##]],
        );
    }

    #[test]
    fn draw() {
        check(
            "0 -- {2 5}\n4 -- 3 -- 1\n2 -- {4 5}\n3 -- 5\n",
            expect![[r#"
                0 -- {2 5⟨: mouse wins in 1⟩} ⟨⟹ outcome: draw⟩
                4⟨: draw⟩ -- 3⟨: cat wins in 4⟩ -- 1⟨: draw⟩
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
            expect![[r#"
                0 -- {2 5} ⟨⟹ outcome: draw⟩
                4 -- 3 -- 1
                2 -- {4 5}
                3 -- 5
            "#]],
        );
    }

    #[test]
    fn empty_row() {
        // Node 4 has no neighbours, so only its (empty) row stands for it.
        check(
            "[[1,3],[0],[3],[0,2],[]]",
            expect!["[[1,3],⟨node 1: mouse wins in 1 ▸⟩ [0],[3],⟨node 3: mouse wins in 1 ▸⟩ [0,2],⟨node 4: draw ▸⟩ []] ⟨⟹ outcome: mouse wins in 1⟩"],
        );
    }

    #[test]
    fn rows_of_a_multi_line_literal() {
        // Each node's hint is on its own row, not after its first mention as another
        // row's neighbour.
        let text = include_str!("../../../examples/long-game.cmg").to_owned();
        check(
            &text,
            expect![[r#"
                # A long game on 10 nodes: the mouse wins, but only after 21 moves (plies) ⟨⟹ outcome: mouse wins in 21⟩
                # of best play by both sides. `cmg solve` prints the whole optimal line.
                [
                  [5, 7, 9],
                  ⟨node 1: mouse wins in 21 ▸⟩ [3, 4, 5, 6],
                  [3, 4, 5, 8],
                  ⟨node 3: mouse wins in 3 ▸⟩ [1, 2, 6, 7],
                  ⟨node 4: mouse wins in 3 ▸⟩ [1, 2, 5, 7, 9],
                  ⟨node 5: mouse wins in 1 ▸⟩ [0, 1, 2, 4, 8],
                  ⟨node 6: mouse wins in 3 ▸⟩ [1, 3, 7, 8],
                  ⟨node 7: mouse wins in 1 ▸⟩ [0, 3, 4, 6, 8],
                  ⟨node 8: mouse wins in 3 ▸⟩ [2, 5, 6, 7, 9],
                  ⟨node 9: mouse wins in 1 ▸⟩ [0, 4, 8],
                ]
                expect mouse  # the mouse wins in 21 moves
            "#]],
        );
    }

    #[test]
    fn chains_before_a_literal_keep_their_hints() {
        // Node 3 is written in a chain first, so its hint stays there; node 4 exists
        // only as a neighbour in row 3 (a one-sided edge), so its hint follows that id.
        check(
            "0 -- 3\n[[1,3],[0],[3],[0,2,4]]\n",
            expect![[r#"
                0 -- 3⟨: mouse wins in 1⟩ ⟨⟹ outcome: mouse wins in 1⟩
                [[1,3],⟨node 1: mouse wins in 1 ▸⟩ [0],[3],[0,2,4⟨: cat wins in 2⟩]]
            "#]],
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
            expect![
                "# é😀 ⟨⟹ outcome: mouse wins in 1⟩\r\n0 -- 1⟨: mouse wins in 1⟩\r\n1 -- 2\r\n"
            ],
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

    /// A range answer is exactly the hints of the whole answer whose offset touches the
    /// range, for every range: ids in chains and `node` statements, adjacency rows, ids
    /// written only as neighbours, long ids that start before a range and end in it.
    #[test]
    fn a_range_gets_the_hints_of_the_whole_in_it() {
        for fixture in [
            "# c\n0 -- 00001 -- 2 -- {3, 4}\nnode 5\n4 -- 5\n",
            "[[1, 3], [0, 7], [3], [0, 2], [0, 4]]\n[[], [2]]\n",
        ] {
            let (analysis, solution, _) = analyze(fixture);
            let config = InlayHintConfig::default();
            let all = inlay_hints(&analysis, solution.as_ref(), &config);
            assert!(all.len() > 4, "{all:?}");
            for range in every_range(&analysis.text) {
                let expected: Vec<_> = all
                    .iter()
                    .filter(|hint| range.touches(hint.offset))
                    .cloned()
                    .collect();
                let actual = inlay_hints_in(&analysis, solution.as_ref(), &config, Some(range));
                assert_eq!(actual, expected, "{range:?} of {fixture:?}");
            }
        }
    }
}
