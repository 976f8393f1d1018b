//! Tests of hovers on nodes and on `expect`, with and without a solution.

use expect_test::{expect, Expect};

use crate::test_utils::analyze;

use super::*;

/// A fixture's analysis, its solution with the what-if, and the cursor offset.
fn analyze_solved(fixture: &str) -> (Analysis, Option<Solved>, u32) {
    let (analysis, solution, offset) = analyze(fixture);
    let solved = solution.map(|solution| {
        let what_if = cmg_core::explain::explain_solution(
            &solution,
            start_position(&analysis.model.graph),
            cmg_core::explain::WhatIfBudget::Editor,
            &std::sync::atomic::AtomicBool::new(false),
        )
        .unwrap();
        Solved {
            solution: std::sync::Arc::new(solution),
            what_if,
        }
    });
    (analysis, solved, offset)
}

fn check(fixture: &str, expect: Expect) {
    let (analysis, solved, offset) = analyze_solved(fixture);
    let actual = match hover(&analysis, solved.as_ref(), offset) {
        Some(hover) => format!(
            "{:?} {:?}\n{}\n",
            hover.range,
            &analysis.text[hover.range.to_usize()],
            hover.markdown
        ),
        None => "no hover\n".to_owned(),
    };
    expect.assert_eq(&actual);
}

const CAT_WINS: &str = "node 0 \"exit\"\n0 -- 3 -- 1\n2 -- 3\n";

#[test]
fn hole() {
    check(
        "node $00 \"exit\"\n0 -- 3 -- 1\n2 -- 3\n",
        expect![[r##"
            5..6 "0"
            **node 0** "exit" · hole

            neighbours: 3

            - mouse starts here: the mouse is already in the hole: mouse wins
            - cat starts here: not possible: the cat may never stand on the hole
        "##]],
    );
}

#[test]
fn mouse_start() {
    check(
        &format!("{CAT_WINS}1$0 -- 4\n"),
        expect![[r#"
            33..34 "1"
            **node 1** · mouse start

            neighbours: 3, 4

            - mouse starts here: **cat wins in 4**, best first move to node 4
            - cat starts here: the mouse is already there: cat wins
        "#]],
    );
}

#[test]
fn cat_start() {
    check(
        "0 -- 3 -- 1\n$02 -- 3\n",
        expect![[r##"
            12..13 "2"
            **node 2** · cat start

            neighbours: 3

            - mouse starts here: the cat is already there: cat wins
            - cat starts here: **cat wins in 2**
        "##]],
    );
}

#[test]
fn other_node() {
    check(
        "0 -- 3$0 -- 1\n2 -- 3\n1 -- 4 -- 0\n",
        expect![[r#"
            5..6 "3"
            **node 3**

            neighbours: 0, 1, 2

            - mouse starts here: **mouse wins in 1**, best first move to node 0
            - cat starts here: **mouse wins in 3**
        "#]],
    );
}

#[test]
fn isolated_node_in_adjacency_list() {
    check(
        "[[1,3],[0],[3],[0,2],$0[]]\n",
        expect![[r#"
            21..23 "[]"
            **node 4**

            neighbours: none

            - mouse starts here: **draw**, the mouse has no move
            - cat starts here: **mouse wins in 1**
        "#]],
    );
}

#[test]
fn expect_matches() {
    check(
        &format!("{CAT_WINS}exp$0ect cat\n"),
        expect![[r#"
            33..39 "expect"
            **expect cat**

            solved outcome: **cat wins in 2**

            ✓ matches

            **why**: the cat's strategy, winning: cat wins in 2

            - `mouse 1 -> 3`: cat wins in 1
              - `cat 2 -> 3`: caught: cat wins

            `cmg solve --strategy` prints the whole tree.
        "#]],
    );
}

#[test]
fn expect_mismatch() {
    check(
        &format!("{CAT_WINS}expect mouse$0\n"),
        expect![[r#"
            40..45 "mouse"
            **expect mouse**

            solved outcome: **cat wins in 2**

            ✗ does not match: the solved outcome is `expect cat`

            **why**: the cat's strategy, winning: cat wins in 2

            - `mouse 1 -> 3`: cat wins in 1
              - `cat 2 -> 3`: caught: cat wins

            `cmg solve --strategy` prints the whole tree.
        "#]],
    );
}

/// With a syntax error the outcome is that of the statements that parsed: shown, but
/// not held against the `expect`.
#[test]
fn expect_in_a_file_that_does_not_parse() {
    check(
        "1 -- 3 -- 2\n0 - 1\nexpect mo$0use\n",
        expect![[r#"
            25..30 "mouse"
            **expect mouse**

            outcome of the statements that parsed: **cat wins in 2**

            not checked until the file parses

            **why**: the cat's strategy, winning: cat wins in 2

            - `mouse 1 -> 3`: cat wins in 1
              - `cat 2 -> 3`: caught: cat wins

            `cmg solve --strategy` prints the whole tree.
        "#]],
    );
}

#[test]
fn without_a_game() {
    check(
        "0 -- 3$0 -- 1\nexpect draw\n",
        expect![[r##"
            5..6 "3"
            **node 3**

            neighbours: 0, 1

            outcome not computed: the game needs node 1 and node 2
        "##]],
    );
    check(
        "0 -- 1\nexpect $0draw\n",
        expect![[r##"
            14..18 "draw"
            **expect draw**

            solved outcome: not computed
        "##]],
    );
}

#[test]
fn without_a_solution() {
    let (analysis, _, offset) = analyze("0 -- $01 -- 2\n");
    let hover = hover(&analysis, None, offset).unwrap();
    expect![[r##"
        **node 1** · mouse start

        neighbours: 0, 2

        outcome not computed"##]]
    .assert_eq(&hover.markdown);
}

#[test]
fn nothing_to_hover() {
    check(
        "# title\n0 -- 1 -- 2  $0  # comment\n",
        expect!["no hover\n"],
    );
    let (analysis, solution, _) = analyze_solved("# title\n0 -- 1 -- 2");
    for offset in [20, 100, u32::MAX] {
        assert_eq!(hover(&analysis, solution.as_ref(), offset), None);
    }
}

#[test]
fn label_markup_is_escaped() {
    check(
        "node 1$0 \"*a_b* <i>\"\n1 -- 2\n",
        expect![[r#"
            5..6 "1"
            **node 1** "\*a\_b\* \<i\>" · mouse start

            neighbours: 2

            - mouse starts here: **cat wins in 1**, best first move to node 2
            - cat starts here: the mouse is already there: cat wins
        "#]],
    );
}

#[test]
fn every_offset_of_every_example() {
    for entry in std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples")).unwrap()
    {
        let path = entry.unwrap().path();
        // The folders below (`examples/records/`, `cmg gen`'s graphs) are not examples.
        if !path.is_file() {
            continue;
        }
        let text = std::fs::read_to_string(path).unwrap();
        let (analysis, solution, _) = analyze_solved(&text);
        for offset in 0..=text.len() as u32 + 2 {
            if let Some(hover) = hover(&analysis, solution.as_ref(), offset) {
                assert!(hover.range.touches(offset));
                assert!(text.get(hover.range.to_usize()).is_some());
            }
        }
    }
}

#[test]
fn stale_solution_is_not_used() {
    let (_, stale, _) = analyze_solved("[[1,3],[0],[3],[0,2],[4]]");
    let (analysis, _, offset) = analyze("0 -- $01 -- 2\n");
    let hover = hover(&analysis, stale.as_ref(), offset).unwrap();
    assert!(hover.markdown.ends_with("outcome not computed"));
}

#[test]
fn unicode_and_crlf() {
    check(
        "node 0 \"é😀\"\r\n0 -- 3 -- 1\r\n2 -- $03\r\n",
        expect![[r#"
            35..36 "3"
            **node 3**

            neighbours: 0, 1, 2

            - mouse starts here: **mouse wins in 1**, best first move to node 0
            - cat starts here: **cat wins in 1**
        "#]],
    );
}

#[test]
fn edge_what_if() {
    check(
        "node 0 \"exit\"\n0 -- 3 -- 1\n2 $0-- 3\n",
        expect![[r#"
            26..32 "2 -- 3"
            **edge 2 -- 3**

            without 2 -- 3: draw (now: cat wins in 2) · **critical**
        "#]],
    );
    check(
        "node 0 \"exit\"\n0 $0-- 3 -- 1\n2 -- 3\n",
        expect![[r#"
            14..20 "0 -- 3"
            **edge 0 -- 3**

            without 0 -- 3: cat wins in 2 (as now)
        "#]],
    );
}

#[test]
fn group_product_lists_each_edge() {
    check(
        "1 -- 3 -- 0\n3 --$0 {2 4}\n4 -- 0\n",
        expect![[r#"
            12..22 "3 -- {2 4}"
            **2 edges**

            without 2 -- 3: draw (now: cat wins in 2) · **critical**

            without 3 -- 4: cat wins in 2 (as now)
        "#]],
    );
}

#[test]
fn first_line_shows_why() {
    check(
        &format!("# the cat wins$0\n{CAT_WINS}1 -- 4\n"),
        expect![[r##"
            0..15 "# the cat wins\n"
            **cat wins in 4**

            **why**: the cat's strategy, winning: cat wins in 4

            - `mouse 1 -> 4`: cat wins in 3
              - `cat 2 -> 3`: cat wins in 2
                - `mouse 4 -> 1`: cat wins in 1 …
            - `mouse 1 -> 3`: cat wins in 1
              - `cat 2 -> 3`: caught: cat wins

            `cmg solve --strategy` prints the whole tree.
        "##]],
    );
}

#[test]
fn a_draw_shows_both_strategies() {
    check(
        "[[2, 5], [3], [0, 4, 5], [1, 4, 5], [2, 3], [0, 2, 3]]\nexpect$0 draw\n",
        expect![[r#"
            55..61 "expect"
            **expect draw**

            solved outcome: **draw**

            ✓ matches

            **why**: the mouse's strategy, never losing

            - `mouse 1 -> 3`: draw
              - `cat 2 -> 5`: draw
                - `mouse 3 -> 4`: draw …
              - `cat 2 -> 4`: mouse wins in 3
                - `mouse 3 -> 5`: mouse wins in 2 …

            **why**: the cat's strategy, never losing

            - `mouse 1 -> 3`: draw
              - `cat 2 -> 5`: draw
                - `mouse 3 -> 4`: draw …
                - `mouse 3 -> 1`: cat wins in 2 …
                - `mouse 3 -> 5`: caught: cat wins

            `cmg solve --strategy` prints the whole tree.
        "#]],
    );
}

#[test]
fn what_if_above_the_limit_says_so() {
    let chain: Vec<String> = (0..=cmg_core::explain::WHAT_IF_MAX_NODES as u32)
        .map(|id| id.to_string())
        .collect();
    let text = format!("{}\n1 $0-- 2\n", chain.join(" -- "));
    let (analysis, solved, offset) = analyze_solved(&text);
    let hover = hover(&analysis, solved.as_ref(), offset).unwrap();
    assert!(
        hover
            .markdown
            .ends_with("what-if: not computed above 300 nodes (this graph has 301)"),
        "{}",
        hover.markdown
    );
}

/// A hover on a rule says the file's game and the engine that solves it; a node hover
/// names the roles the rules give and the one-way edges out.
#[test]
fn rules_in_hovers() {
    check(
        "0 -- 3 -- 1 -- 2\nrule fi$0rst cat\nrule limit 16\n",
        expect![[r#"
            17..31 "rule first cat"
            `rule first cat`

            the game: the cat moves first, limit 16

            outcome: cat wins in 1 (solved by the standard engine)
        "#]],
    );
    check(
        "0 -- 3 -- 1 -- 2\n3$0 -> 2\nrule holes 0 3\nrule start 2 1\n",
        expect![[r#"
            17..18 "3"
            **node 3** · hole

            neighbours: 0, 1

            one-way to: 2

            - mouse starts here: the mouse is already in the hole: mouse wins
            - cat starts here: **cat wins in 2**
        "#]],
    );
}
