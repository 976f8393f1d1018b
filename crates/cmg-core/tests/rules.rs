//! The diagnostics of the rules and one-way edges, one test per code, and the game a file's
//! rules make: `expect` checked against it, the starts and holes it names.
//! `UPDATE_EXPECT=1 cargo test -p cmg-core --test rules` refreshes the expectations.

use cmg_core::analysis::{start_position, Analysis};
use cmg_solve::{solve, EngineKind, Outcome, Player};
use expect_test::expect;

#[path = "common/check.rs"]
mod check;
use check::check;

#[test]
fn unknown_rule() {
    check(
        "0 -- 1 -- 2 -- 0\nrule limt 4\nrule speed 3\n",
        expect![[r#"
            unknown-rule error 2:6-2:10 "limt": `limt` is no rule: did you mean `limit`?
            unknown-rule error 3:6-3:11 "speed": `speed` is no rule; the rules are limit, first, start, holes, cat-enters-holes
        "#]],
    );
}

#[test]
fn duplicate_rule() {
    check(
        "0 -- 1 -- 2 -- 0\nrule first cat\nrule first mouse\n",
        expect![[r#"
            duplicate-rule error 3:1-3:17 "rule first mouse": the rule `first` is given again; the first one counts, so remove one
              related 2:1-2:15 "rule first cat": the rule that counts
        "#]],
    );
}

#[test]
fn bad_limit() {
    check(
        "0 -- 1 -- 2 -- 0\nrule limit 0\n",
        expect![[r#"
            bad-limit error 2:12-2:13 "0": a turn limit is a whole number of moves, 1 or more: `rule limit 16`
        "#]],
    );
    check(
        "0 -- 1 -- 2 -- 0\nrule limit many\n",
        expect![[r#"
        bad-limit error 2:12-2:16 "many": a turn limit is a whole number of moves, 1 or more: `rule limit 16`
    "#]],
    );
}

#[test]
fn rule_arguments() {
    check(
        "0 -- 1 -- 2 -- 0\nrule first dog\nrule start 1\nrule cat-enters-holes 3\n",
        expect![[r#"
            rule-arguments error 2:12-2:15 "dog": this does not fit the rule `first`, which is written `rule first cat`
            rule-arguments error 3:1-3:13 "rule start 1": this does not fit the rule `start`, which is written `rule start M C`
            rule-arguments error 4:23-4:24 "3": this does not fit the rule `cat-enters-holes`, which is written `rule cat-enters-holes`
        "#]],
    );
}

/// A start or a hole on a node that does not exist: the codes of the missing start and
/// hole, at the rule's argument, naming the node.
#[test]
fn starts_and_holes_that_are_not_nodes() {
    check(
        "0 -- 1 -- 2 -- 0\nrule start 7 2\nrule holes 0 9\n",
        expect![[r#"
            missing-mouse error 2:12-2:13 "7": node 7, where the mouse starts, is not in the graph, so there is no game: add an edge to node 7
            missing-hole warning 3:14-3:15 "9": node 9, a hole, is not in the graph, so it is no way out: add an edge to node 9, or leave it out of the holes
        "#]],
    );
    check(
        "1 -- 2 -- 3\nrule holes 8\n",
        expect![[r#"
        missing-hole warning 2:12-2:13 "8": node 8, the hole, is not in the graph, so the mouse can never win: add an edge to node 8
    "#]],
    );
}

#[test]
fn start_ends_game() {
    check(
        "0 -- 1 -- 2 -- 0\nrule start 0 2\n",
        expect![[r#"
            start-ends-game error 2:12-2:13 "0": the mouse starts on a hole, so it has won before any move: start it on another node
        "#]],
    );
    check(
        "0 -- 1 -- 2 -- 0\nrule start 2 2\n",
        expect![[r#"
        start-ends-game error 2:12-2:13 "2": the mouse starts on the cat, so the cat has won before any move: start them on different nodes
    "#]],
    );
}

#[test]
fn one_way_self_loop_and_repeats() {
    check(
        "0 -- 1 -- 2 -- 0\n3 -> 3\n1 -> 2\n2 -> 3 -> 0\n2 -> 3\n",
        expect![[r#"
            no-move warning 2:1-2:2 "3": the cat can come to node 3 but has no move out of it that it may make, so a game that gets there is a draw: add a move out of node 3
            self-loop error 2:1-2:7 "3 -> 3": node 3 is joined to itself; a move must go to another node, so this edge is ignored: remove it
            arc-duplicates-edge warning 3:1-3:7 "1 -> 2": 1 -- 2 is an edge already, so the move from 1 to 2 is there: this one-way edge adds nothing and can go
            duplicate-edge warning 5:1-5:7 "2 -> 3": the edge 2 -- 3 is declared again; it counts once, so this one can go
              related 4:1-4:7 "2 -> 3": first declared here
        "#]],
    );
}

#[test]
fn no_move() {
    check(
        "0 -- 1 -- 2 -- 3\n1 -> 4\n2 -> 5 -> 0\n",
        expect![[r#"
        no-move warning 2:6-2:7 "4": a player can come to node 4 but has no move out of it, so a game where it must move there is a draw: add a move out of node 4
        no-move warning 3:6-3:7 "5": the cat can come to node 5 but has no move out of it that it may make, so a game that gets there is a draw: add a move out of node 5
    "#]],
    );
}

/// The starts speak of the file's nodes: a mouse on node 5 with no move out is stuck there,
/// and a cat whose start leads only into holes is stuck, unless it may enter them.
#[test]
fn stuck_starts_are_the_files_starts() {
    check(
        "0 -- 1 -- 2 -- 0\n6 -> 5\n3 -- 4 -- 0\nrule start 5 3\nrule holes 0 4\n",
        expect![[r#"
            hole-unreachable information 1:1-1:2 "0": no path leads from node 5 to a hole, so the mouse can never win
            unreachable-node hint 1:6-1:7 "1": node 1 can be reached by neither the mouse nor the cat, so it takes no part in the game
            unreachable-node hint 1:11-1:12 "2": node 2 can be reached by neither the mouse nor the cat, so it takes no part in the game
            unreachable-node hint 2:1-2:2 "6": node 6 can be reached by neither the mouse nor the cat, so it takes no part in the game
            mouse-stuck error 2:6-2:7 "5": node 5 has no move out, so the mouse cannot make its first move and the game is a draw: add a move out of node 5
            cat-stuck error 3:1-3:2 "3": node 3 has no neighbour other than the holes, where the cat may not go, so the cat can never leave its start: join node 3 to a node other than a hole
        "#]],
    );
    check(
        "0 -- 1 -- 2 -- 0\n3 -- 4 -- 0\nrule start 1 3\nrule holes 0 4\nrule cat-enters-holes\n",
        expect![[r#""#]],
    );
}

/// `expect` is held to the file's game: the cat moving first on a path where it catches the
/// mouse at once, and a turn limit too short for the mouse's win.
#[test]
fn expect_is_checked_against_the_files_game() {
    check(
        "0 -- 1 -- 2\nrule first cat\nexpect mouse\n",
        expect![[r#"
            expect-mismatch error 3:1-3:13 "expect mouse": `expect mouse` disagrees with the solved outcome, cat wins in 1: change it to `expect cat`
        "#]],
    );
    check(
        "0 -- 3 -- 1 -- 2\nrule limit 1\nexpect mouse\n",
        expect![[r#"
            expect-mismatch error 3:1-3:13 "expect mouse": `expect mouse` disagrees with the solved outcome, draw: change it to `expect draw`
        "#]],
    );
}

/// The rules pick the start, who moves first and the engine; a file without rules keeps
/// LeetCode 913's game on the standard engine.
#[test]
fn the_rules_make_the_game() {
    let analysis = Analysis::new("0 -- 3 -- 4 -- 5\nrule start 4 5\nrule first cat\n");
    let graph = &analysis.model.graph;
    let start = start_position(graph).unwrap();
    assert_eq!(
        (graph.id(start.mouse), graph.id(start.cat), start.turn),
        (4, 5, Player::Cat)
    );
    let game = analysis.game().unwrap();
    assert_eq!(game.engine(), EngineKind::Standard);
    assert_eq!(solve(&game).outcome(start), Outcome::CatWins);

    let analysis = Analysis::new("0 -- 1 -- 2 -- 3\nrule holes 0 3\n");
    let game = analysis.game().unwrap();
    assert_eq!(game.engine(), EngineKind::Variant);
    let start = start_position(&analysis.model.graph).unwrap();
    assert_eq!(solve(&game).moves_to_end(start), Some(1));

    let analysis = Analysis::new("0 -- 1 -- 2\n");
    let game = analysis.game().unwrap();
    assert!(game.rules().is_none());
    assert!(analysis.model.graph.rules().is_standard());

    // One-way edges alone keep the standard engine: 1 -> 0 lets the mouse out, and 2 -> 1
    // lets the cat follow, but not back.
    let analysis = Analysis::new("1 -> 0\n2 -> 1\n");
    let game = analysis.game().unwrap();
    assert_eq!(game.engine(), EngineKind::Standard);
    let start = start_position(&analysis.model.graph).unwrap();
    assert_eq!(solve(&game).outcome(start), Outcome::MouseWins);
}

/// The graph as a picture joins it: a one-way edge is an edge both ways there, and a
/// graph without one is itself.
#[test]
fn a_picture_joins_the_ends_of_a_one_way_edge() {
    let graph = Analysis::new("0 -- 1 -- 2\n2 -> 3\n").model.graph;
    let drawn = graph.with_arcs_as_edges();
    assert!(matches!(drawn, std::borrow::Cow::Owned(_)));
    assert_eq!((graph.edge_count(), drawn.edge_count()), (2, 3));
    assert_eq!(
        (drawn.neighbours(2), drawn.neighbours(3)),
        (&[1, 3][..], &[2][..])
    );
    assert!(!drawn.has_arcs() && graph.has_arcs());
    let plain = Analysis::new("0 -- 1 -- 2\n").model.graph;
    assert!(matches!(
        plain.with_arcs_as_edges(),
        std::borrow::Cow::Borrowed(_)
    ));
}
