//! Code lens: the outcome and the optimal line of the game, on the first line of the file.
//!
//! The title names the outcome, then lists positions as `mouse,cat` node ids, one per
//! move, from the start `1,2`: "▶ mouse wins in 2 · optimal line: 1,2 → 3,2 → 0,2". The
//! outcome is also the first line's inlay hint; it is repeated here because a lens sits
//! on a line of its own, where it cannot be mistaken for the file's text. A long line is
//! cut to its first moves, an ellipsis and its last position, so that the lens stays on
//! one line; the full line travels in [`CodeLens::line`] for the command behind the
//! lens. A drawn line ends at its first repeated position and says "(repeats)".

use cmg_core::analysis::{describe_position, solution_for, start_position, Analysis};
use cmg_core::model::Graph;
use cmg_solve::{Outcome, Position, Solution};
use cmg_syntax::TextRange;

/// How many positions a title shows in full; longer lines are shortened.
const MAX_SHOWN: usize = 8;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodeLens {
    pub range: TextRange,
    pub title: String,
    /// The optimal line from the start, as `[mouse id, cat id]` pairs, the start included.
    pub line: Vec<[u32; 2]>,
}

/// The optimal-line lens; none without a solution.
pub fn code_lenses(analysis: &Analysis, solution: Option<&Solution>) -> Vec<CodeLens> {
    let graph = &analysis.model.graph;
    let Some(solution) = solution_for(graph, solution) else {
        return Vec::new();
    };
    let Some(start) = start_position(graph) else {
        return Vec::new();
    };
    let positions = solution.line(start);
    let line = line_ids(graph, &positions);
    let range = analysis.line_index.line_content(0).unwrap_or_default();
    let mut title = format!(
        "▶ {} · optimal line: {}",
        describe_position(solution, start),
        shorten(&line)
    );
    if solution.outcome(start) == Outcome::Draw && repeats(&positions) {
        title.push_str(" (repeats)");
    }
    vec![CodeLens { range, title, line }]
}

/// A line of play as `[mouse id, cat id]` pairs: the one shape of a line in the lens's
/// command, `cmg solve --json` and the game view's scene.
pub fn line_ids(graph: &Graph, line: &[Position]) -> Vec<[u32; 2]> {
    line.iter()
        .map(|position| [graph.id(position.mouse), graph.id(position.cat)])
        .collect()
}

fn shorten(line: &[[u32; 2]]) -> String {
    let step = |&[mouse, cat]: &[u32; 2]| format!("{mouse},{cat}");
    let steps: Vec<String> = if line.len() <= MAX_SHOWN {
        line.iter().map(step).collect()
    } else {
        let mut steps: Vec<String> = line[..MAX_SHOWN - 2].iter().map(step).collect();
        steps.push("…".to_owned());
        steps.extend(line.last().map(step));
        steps
    };
    steps.join(" → ")
}

/// Whether the line ends at a position it has been at before.
pub fn repeats(positions: &[Position]) -> bool {
    match positions.split_last() {
        Some((last, earlier)) => earlier.contains(last),
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use expect_test::{expect, Expect};

    use crate::test_utils::analyze;

    use super::*;

    fn check(fixture: &str, expect: Expect) {
        let (analysis, solution, _) = analyze(fixture);
        let actual: String = code_lenses(&analysis, solution.as_ref())
            .iter()
            .map(|lens| {
                format!(
                    "{:?} {:?}\n{}\n{:?}\n",
                    lens.range,
                    &analysis.text[lens.range.to_usize()],
                    lens.title,
                    lens.line
                )
            })
            .collect();
        expect.assert_eq(&actual);
    }

    #[test]
    fn mouse_wins() {
        check(
            "[[1,3],[0],[3],[0,2]]\nexpect mouse\n",
            expect![[r#"
                0..21 "[[1,3],[0],[3],[0,2]]"
                ▶ mouse wins in 1 · optimal line: 1,2 → 0,2
                [[1, 2], [0, 2]]
            "#]],
        );
    }

    #[test]
    fn cat_wins() {
        check(
            "# cat wins\r\n0 -- 3 -- 1\r\n2 -- 3\r\n",
            expect![[r##"
                0..10 "# cat wins"
                ▶ cat wins in 2 · optimal line: 1,2 → 3,2 → 3,3
                [[1, 2], [3, 2], [3, 3]]
            "##]],
        );
    }

    #[test]
    fn draw_repeats() {
        check(
            "0 -- {2 5}\n4 -- 3 -- 1\n2 -- {4 5}\n3 -- 5\n",
            expect![[r#"
                0..10 "0 -- {2 5}"
                ▶ draw · optimal line: 1,2 → 3,2 → 3,5 → 4,5 → 4,2 → 3,2 (repeats)
                [[1, 2], [3, 2], [3, 5], [4, 5], [4, 2], [3, 2]]
            "#]],
        );
    }

    #[test]
    fn long_line_is_shortened() {
        let text = include_str!("../../../examples/long-game.cmg").to_owned();
        check(
            &text,
            expect![[r##"
                0..74 "# A long game on 10 nodes: the mouse wins, but only after 21 moves (plies)"
                ▶ mouse wins in 21 · optimal line: 1,2 → 6,2 → 6,8 → 3,8 → 3,6 → 2,6 → … → 0,3
                [[1, 2], [6, 2], [6, 8], [3, 8], [3, 6], [2, 6], [2, 1], [8, 1], [8, 4], [6, 4], [6, 7], [1, 7], [1, 4], [3, 4], [3, 7], [2, 7], [2, 4], [8, 4], [8, 1], [7, 1], [7, 3], [0, 3]]
            "##]],
        );
    }

    #[test]
    fn no_game_no_lens() {
        check("0 -- 1\n", expect![""]);
    }

    #[test]
    fn empty_first_line() {
        check(
            "\n0 -- 1 -- 2\n",
            expect![[r#"
                0..0 ""
                ▶ mouse wins in 1 · optimal line: 1,2 → 0,2
                [[1, 2], [0, 2]]
            "#]],
        );
    }

    #[test]
    fn stale_solution_is_not_used() {
        // A solution for another version of the document must not be read: its node
        // indices do not fit this graph.
        let (_, stale, _) = analyze("[[1,3],[0],[3],[0,2],[4]]");
        let (analysis, _, _) = analyze("0 -- 1 -- 2\n");
        assert_eq!(code_lenses(&analysis, stale.as_ref()), []);
    }
}
