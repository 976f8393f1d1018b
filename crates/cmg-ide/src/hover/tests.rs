//! Tests of hovers on nodes and on `expect`, with and without a solution.

use expect_test::{expect, Expect};

use crate::test_utils::analyze;

use super::*;

fn check(fixture: &str, expect: Expect) {
    let (analysis, solution, offset) = analyze(fixture);
    let actual = match hover(&analysis, solution.as_ref(), offset) {
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
    check("0 -- 1 -- 2  $0  # comment\n", expect!["no hover\n"]);
    let (analysis, solution, _) = analyze("0 -- 1 -- 2");
    for offset in [12, 100, u32::MAX] {
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
        let (analysis, solution, _) = analyze(&text);
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
    let (_, stale, _) = analyze("[[1,3],[0],[3],[0,2],[4]]");
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
