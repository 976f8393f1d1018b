//! Tests of the code actions: each action applied, and every action checked to keep the file readable.

use expect_test::{expect, Expect};

use super::*;
use crate::test_utils::{analyze, apply_edits};

/// Every action at the cursor: its kind, title, what it fixes, and the text it gives.
fn check(fixture: &str, expect: Expect) {
    let (analysis, solution, offset) = analyze(fixture);
    let mut out = String::new();
    for action in code_actions(&analysis, solution.as_ref(), TextRange::empty(offset)) {
        let applied = apply_edits(&analysis.text, &action.edits);
        assert_readable(&analysis, &applied);
        let fixes = action
            .fixes
            .as_ref()
            .map_or(String::new(), |d| format!(" (fixes {})", d.code));
        let preferred = if action.preferred { " [preferred]" } else { "" };
        // Carriage returns are shown, since line endings are part of what is tested.
        let shown = applied.replace('\r', "\\r");
        out.push_str(&format!(
            "{:?}: {}{fixes}{preferred}\n{shown}\n---\n",
            action.kind, action.title
        ));
    }
    expect.assert_eq(&out);
}

/// An action's result parses with no syntax error the original did not have.
fn assert_readable(before: &Analysis, applied: &str) {
    let after = Analysis::new(applied);
    assert!(
        after.parse.errors.len() <= before.parse.errors.len(),
        "new syntax errors in:\n{applied}\n{:?}",
        after.parse.errors
    );
}

#[test]
fn removes_a_self_loop_statement_on_its_own_line() {
    check(
        "1 -- 2 -- 0\n3 -- 3$0\n2 -- 3\nexpect cat\n",
        expect![[r#"
        QuickFix: Remove the self-loop 3 -- 3 (fixes self-loop) [preferred]
        1 -- 2 -- 0
        2 -- 3
        expect cat

        ---
    "#]],
    );
}

#[test]
fn a_self_loop_of_an_otherwise_unmentioned_node_leaves_the_node_declared() {
    check(
        "1 -- 2 -- 0 # é 😀\n3 -- 3$0 # loop 😀\nexpect cat\n",
        expect![[r#"
            QuickFix: Remove the self-loop 3 -- 3 (fixes self-loop) [preferred]
            1 -- 2 -- 0 # é 😀
            node 3 # loop 😀
            expect cat

            ---
        "#]],
    );
}

#[test]
fn removes_a_self_loop_from_a_chain() {
    check(
        "0 -- 1 -- 1$0 -- 2; expect mouse\n",
        expect![[r#"
        QuickFix: Remove the self-loop 1 -- 1 (fixes self-loop) [preferred]
        0 -- 1 -- 2; expect mouse

        ---
    "#]],
    );
}

#[test]
fn removes_a_self_loop_from_a_group() {
    check(
        "1 -- {1$0, 2 0}\n2 -- 0\nexpect mouse\n",
        expect![[r#"
        QuickFix: Remove the self-loop 1 -- 1 (fixes self-loop) [preferred]
        1 -- {2 0}
        2 -- 0
        expect mouse

        ---
    "#]],
    );
}

#[test]
fn no_fix_where_removing_the_loop_would_drop_other_edges() {
    check("0 -- {1$0 2} -- 1\nexpect mouse\n", expect![[""]]);
}

#[test]
fn removes_a_self_loop_from_an_adjacency_list() {
    check(
        "[[1], [0, 1$0, 2], [1]]\nexpect mouse\n",
        expect![[r#"
        QuickFix: Remove the self-loop 1 -- 1 (fixes self-loop) [preferred]
        [[1], [0, 2], [1]]
        expect mouse

        ---
        Refactor: Turn the adjacency literal into edge statements
        0 -- 1
        1 -- 2
        expect mouse

        ---
    "#]],
    );
}

#[test]
fn removes_a_duplicate_edge_statement_joined_by_a_semicolon() {
    check(
        "1 -- 2 -- 0\n2 -- 1$0; 1 -- 0\nexpect mouse\n",
        expect![[r#"
            QuickFix: Remove the duplicate edge 2 -- 1 (fixes duplicate-edge) [preferred]
            1 -- 2 -- 0
            1 -- 0
            expect mouse

            ---
        "#]],
    );
}

#[test]
fn removes_a_duplicate_from_an_adjacency_list() {
    check(
        "[[1, 2, 1$0], [0], [0]]\nexpect mouse\n",
        expect![[r#"
        QuickFix: Remove the duplicate edge 0 -- 1 (fixes duplicate-edge) [preferred]
        [[1, 2], [0], [0]]
        expect mouse

        ---
        Refactor: Turn the adjacency literal into edge statements
        0 -- {1 2}
        expect mouse

        ---
    "#]],
    );
}

#[test]
fn removes_both_sides_of_an_edge_already_declared_elsewhere() {
    check(
        "0 -- 1\n[[1$0], [0, 2], [1]]\nexpect mouse\n",
        expect![[r#"
            QuickFix: Remove the duplicate edge 0 -- 1 (fixes duplicate-edge) [preferred]
            0 -- 1
            [[], [2], [1]]
            expect mouse

            ---
            Refactor: Turn the adjacency literal into edge statements
            0 -- 1
            0 -- 1
            1 -- 2
            expect mouse

            ---
        "#]],
    );
}

#[test]
fn adds_the_missing_side_of_a_one_sided_edge() {
    check(
        "[[1, 3$0], [0, 2], [1], [2]]\nexpect mouse\n",
        expect![[r#"
            QuickFix: Add 0 to list 3 (fixes one-sided-edge) [preferred]
            [[1, 3], [0, 2], [1], [2, 0]]
            expect mouse

            ---
            Refactor: Turn the adjacency literal into edge statements
            0 -- {1 3}
            1 -- 2
            2 -- 3
            expect mouse

            ---
        "#]],
    );
    check(
        "[[1, 2$0], [0, 2], []]\nexpect mouse\n",
        expect![[r#"
        QuickFix: Add 0 to list 2 (fixes one-sided-edge) [preferred]
        [[1, 2], [0, 2], [0]]
        expect mouse

        ---
        Refactor: Turn the adjacency literal into edge statements
        0 -- {1 2}
        1 -- 2
        expect mouse

        ---
    "#]],
    );
}

#[test]
fn sets_expect_to_the_solved_outcome() {
    check(
        "[[1,3],[0],[3],[0,2]]\nexpect cat$0 # 😀\n",
        expect![[r#"
        QuickFix: Change to `expect mouse` (fixes expect-mismatch) [preferred]
        [[1,3],[0],[3],[0,2]]
        expect mouse # 😀

        ---
    "#]],
    );
}

/// In a file with syntax errors the outcome is that of part of the file: neither
/// changing an `expect` to it nor adding one is offered.
#[test]
fn offers_no_expect_edit_while_the_file_does_not_parse() {
    check("1 -- 3 -- 2\n0 - 1\nexpect mo$0use\n", expect![[""]]);
    check("1 -- 3 -- 2\n0 - 1$0\n", expect![[""]]);
}

#[test]
fn adds_expect_at_the_end() {
    check(
        "1 -- 2 -- 0$0",
        expect![[r#"
        Refactor: Add `expect cat` with the solved outcome
        1 -- 2 -- 0
        expect cat
        ---
    "#]],
    );
    check(
        "1 -- 2 -- 0$0\r\n# last\r\n",
        expect![[r#"
        Refactor: Add `expect cat` with the solved outcome
        1 -- 2 -- 0\r
        # last\r
        expect cat\r

        ---
    "#]],
    );
}

#[test]
fn turns_an_adjacency_literal_into_edge_statements() {
    check(
        "# LeetCode 1\n[[2,5],[3],[0,4,5],[1,4,5],[2,3],[0,2,3]]$0\nexpect draw\n",
        expect![[r#"
            Refactor: Turn the adjacency literal into edge statements
            # LeetCode 1
            0 -- {2 5}
            1 -- 3
            2 -- {4 5}
            3 -- {4 5}
            expect draw

            ---
        "#]],
    );
    check(
        "[\n  [1, 1], # é 😀\n  [0$0, 4],\n  [],\n]\n",
        expect![[r#"
            Refactor: Add `expect mouse` with the solved outcome
            [
              [1, 1], # é 😀
              [0, 4],
              [],
            ]
            expect mouse

            ---
            Refactor: Turn the adjacency literal into edge statements
            # é 😀
            0 -- 1
            1 -- 4
            node 2

            ---
        "#]],
    );
}

#[test]
fn adjacency_to_edges_keeps_the_graph() {
    let fixtures = [
        "[[2,5],[3],[0,4,5],[1,4,5],[2,3],[0,2,3]]",
        "[[1,3],[0],[3],[0,2]]",
        "[[1, 7], [0, 0], [], [3]]",
        "[[],[],[]]",
        "0 -- 9; [[1], [0, 2], [9]] # after\n",
    ];
    for fixture in fixtures {
        let analysis = Analysis::new(fixture);
        let start = fixture.find('[').unwrap() as u32;
        let action = code_actions(&analysis, None, TextRange::empty(start))
            .into_iter()
            .find(|action| action.kind == ActionKind::Refactor)
            .unwrap_or_else(|| panic!("no refactor for {fixture}"));
        let applied = apply_edits(fixture, &action.edits);
        let after = Analysis::new(&applied);
        assert_eq!(
            after.model.graph, analysis.model.graph,
            "{fixture} -> {applied}"
        );
        assert!(after.parse.errors.is_empty(), "{applied}");
        assert!(!applied.contains('['), "{applied}");
    }
}

#[test]
fn selections_find_the_diagnostics_they_touch() {
    let text = "1 -- 2 -- 0\n3 -- 3\n4 -- 4\nexpect cat\n";
    let analysis = Analysis::new(text);
    let all = code_actions(&analysis, None, TextRange::new(0, text.len() as u32));
    let titles: Vec<&str> = all.iter().map(|action| action.title.as_str()).collect();
    assert_eq!(
        titles,
        ["Remove the self-loop 3 -- 3", "Remove the self-loop 4 -- 4"]
    );
}

#[test]
fn out_of_range_selections_offer_nothing() {
    let (analysis, solution, _) = analyze("1 -- 1\n");
    assert!(code_actions(&analysis, solution.as_ref(), TextRange::empty(100)).is_empty());
    assert!(code_actions(&analysis, solution.as_ref(), TextRange::new(3, 1000)).is_empty());
    let backwards = TextRange { start: 4, end: 2 };
    assert!(code_actions(&analysis, solution.as_ref(), backwards).is_empty());
}

/// Every action at every offset of the example files keeps the text readable and,
/// except for the `expect` edits, the graph the same.
#[test]
fn every_action_everywhere_keeps_the_file_readable() {
    let files = [
        include_str!("../../../../examples/every-diagnostic.cmg"),
        include_str!("../../../../examples/leetcode-draw.cmg"),
        include_str!("../../../../examples/leetcode-mouse.cmg"),
        include_str!("../../../../examples/cat-wins.cmg"),
        include_str!("../../../../examples/no-game.cmg"),
        "[[1,1,2],[0,0],[0,3],[]]\n0 -- 1 -- 1\n{1 1} -- {2 2}\r\n[[5]]; 2 -- 3",
    ];
    for text in files {
        let (analysis, solution, _) = analyze(text);
        for offset in 0..=text.len() as u32 {
            for action in code_actions(&analysis, solution.as_ref(), TextRange::empty(offset)) {
                let applied = apply_edits(text, &action.edits);
                assert_readable(&analysis, &applied);
                let after = Analysis::new(&applied);
                assert_eq!(after.model.graph, analysis.model.graph, "{}", action.title);
            }
        }
    }
}

/// Listing and resolving give exactly the eager actions: every candidate that passes
/// the check resolves to the action `code_actions` gives, in the same order.
#[test]
fn candidates_resolve_to_the_eager_actions() {
    let files = [
        include_str!("../../../../examples/every-diagnostic.cmg"),
        include_str!("../../../../examples/leetcode-draw.cmg"),
        include_str!("../../../../examples/cat-wins.cmg"),
        "[[1,1,2],[0,0],[0,3],[]]\n0 -- 1 -- 1\n{1 1} -- {2 2}\r\n[[5]]; 2 -- 3",
        "0 -- {1 2} -- 1\nexpect mouse\n",
    ];
    let mut resolved_some = 0;
    for text in files {
        let (analysis, solution, _) = analyze(text);
        let solution = solution.as_ref();
        for offset in 0..=text.len() as u32 {
            let range = TextRange::empty(offset);
            let eager = code_actions(&analysis, solution, range);
            let lazy: Vec<Action> = candidates(&analysis, solution, range)
                .iter()
                .filter_map(|candidate| {
                    let action = resolve(&analysis, solution, &candidate.id)?;
                    assert_eq!(action.title, candidate.title);
                    assert_eq!(action.fixes, candidate.fixes);
                    Some(action)
                })
                .collect();
            resolved_some += lazy.len();
            assert_eq!(lazy, eager, "{text:?} at {offset}");
        }
    }
    assert!(resolved_some > 0);
}

/// A candidate is listed before its edit is checked; when no edit passes, resolving
/// it gives nothing rather than an edit that would change the graph.
#[test]
fn a_candidate_whose_edit_fails_the_check_resolves_to_nothing() {
    let (analysis, solution, offset) = analyze("0 -- {1$0 2} -- 1\nexpect mouse\n");
    let listed = candidates(&analysis, solution.as_ref(), TextRange::empty(offset));
    let titles: Vec<&str> = listed.iter().map(|c| c.title.as_str()).collect();
    assert_eq!(titles, ["Remove the self-loop 1 -- 1"]);
    assert_eq!(resolve(&analysis, solution.as_ref(), &listed[0].id), None);
}

/// An id that names nothing in the text (a stale or forged one) resolves to nothing.
#[test]
fn an_unknown_id_resolves_to_nothing() {
    let (analysis, solution, _) = analyze("1 -- 2 -- 0\n3 -- 3\nexpect cat\n");
    let ids = [
        ActionId::Fix {
            code: "self-loop".to_owned(),
            start: 0,
            end: 1,
        },
        ActionId::Fix {
            code: "no-such-code".to_owned(),
            start: 12,
            end: 18,
        },
        ActionId::AdjacencyToEdges { start: 0, end: 11 },
        ActionId::AddExpect,
        ActionId::AdjacencyToEdges {
            start: 5,
            end: u32::MAX,
        },
    ];
    for id in ids {
        assert_eq!(resolve(&analysis, solution.as_ref(), &id), None, "{id:?}");
    }
}

/// A selection over many diagnostics lists each one, but the eager path checks at most
/// `MAX_VERIFIED` of them.
#[test]
fn the_eager_path_is_bounded() {
    let text: String = (3..43).map(|n| format!("{n} -- {n}\n")).collect();
    let text = format!("1 -- 2 -- 0\n{text}");
    let analysis = Analysis::new(&text);
    let all = TextRange::new(0, text.len() as u32);
    assert_eq!(candidates(&analysis, None, all).len(), 40);
    assert_eq!(code_actions(&analysis, None, all).len(), MAX_VERIFIED);
}

/// An edit before a rule moves the rule's text: the game it states is the same, so the
/// self-loop's fix still passes the check.
#[test]
fn a_fix_before_a_rule_keeps_the_game() {
    check(
        "3 -- 3$0\nrule limit 4\n1 -- 2 -- 0 -- 3\n",
        expect![[r#"
            QuickFix: Remove the self-loop 3 -- 3 (fixes self-loop) [preferred]
            rule limit 4
            1 -- 2 -- 0 -- 3

            ---
            Refactor: Add `expect cat` with the solved outcome
            3 -- 3
            rule limit 4
            1 -- 2 -- 0 -- 3
            expect cat

            ---
        "#]],
    );
}

#[test]
fn renames_a_misspelt_rule_to_the_one_meant() {
    check(
        "rule limt$0 4\n1 -- 2 -- 0\n",
        expect![[r#"
            QuickFix: Change to `rule limit` (fixes unknown-rule) [preferred]
            rule limit 4
            1 -- 2 -- 0

            ---
            Refactor: Add `expect cat` with the solved outcome
            rule limt 4
            1 -- 2 -- 0
            expect cat

            ---
        "#]],
    );
    // No rule is one edit away: no fix.
    check(
        "rule speed$0 4\n1 -- 2 -- 0\n",
        expect![[r#"
        Refactor: Add `expect cat` with the solved outcome
        rule speed 4
        1 -- 2 -- 0
        expect cat

        ---
    "#]],
    );
}

#[test]
fn removes_a_rule_given_again() {
    check(
        "rule first cat\n1 -- 2 -- 0\nrule first$0 mouse # again\n",
        expect![[r#"
            QuickFix: Remove `rule first` (fixes duplicate-rule) [preferred]
            rule first cat
            1 -- 2 -- 0
            # again

            ---
            Refactor: Add `expect cat` with the solved outcome
            rule first cat
            1 -- 2 -- 0
            rule first mouse # again
            expect cat

            ---
        "#]],
    );
}

#[test]
fn removes_a_limit_that_is_no_number() {
    check(
        "rule limit 0$0; 1 -- 2 -- 0\n",
        expect![[r#"
            QuickFix: Remove `rule limit` (fixes bad-limit) [preferred]
            1 -- 2 -- 0

            ---
            Refactor: Add `expect cat` with the solved outcome
            rule limit 0; 1 -- 2 -- 0
            expect cat

            ---
        "#]],
    );
}

#[test]
fn drops_the_arguments_a_rule_does_not_take() {
    check(
        "rule first cat mouse$0\n1 -- 2 -- 0\n",
        expect![[r#"
            QuickFix: Remove what `rule first` does not take (fixes rule-arguments) [preferred]
            rule first cat
            1 -- 2 -- 0

            ---
            Refactor: Add `expect cat` with the solved outcome
            rule first cat mouse
            1 -- 2 -- 0
            expect cat

            ---
        "#]],
    );
    // Arguments that do not fit at all: the rule does not count, and goes.
    check(
        "rule start 1$0\n1 -- 2 -- 0\n",
        expect![[r#"
            QuickFix: Remove `rule start` (fixes rule-arguments) [preferred]
            1 -- 2 -- 0

            ---
            Refactor: Add `expect cat` with the solved outcome
            rule start 1
            1 -- 2 -- 0
            expect cat

            ---
        "#]],
    );
}

#[test]
fn removes_a_one_way_edge_an_edge_already_makes() {
    check(
        "0 -- 1 -- 2 -- 3\n2 -> 1$0 -> 0\n",
        expect![[r#"
            QuickFix: Remove the one-way edge 2 -> 1 (fixes arc-duplicates-edge) [preferred]
            0 -- 1 -- 2 -- 3
            1 -> 0

            ---
            QuickFix: Remove the one-way edge 1 -> 0 (fixes arc-duplicates-edge) [preferred]
            0 -- 1 -- 2 -- 3
            2 -> 1

            ---
            Refactor: Add `expect mouse` with the solved outcome
            0 -- 1 -- 2 -- 3
            2 -> 1 -> 0
            expect mouse

            ---
        "#]],
    );
}

#[test]
fn removes_a_one_way_self_loop() {
    check(
        "0 -- 1 -- 2\n2 -> 2$0\n",
        expect![[r#"
            QuickFix: Remove the self-loop 2 -> 2 (fixes self-loop) [preferred]
            0 -- 1 -- 2

            ---
            Refactor: Add `expect mouse` with the solved outcome
            0 -- 1 -- 2
            2 -> 2
            expect mouse

            ---
        "#]],
    );
}
