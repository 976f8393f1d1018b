//! One test per diagnostic code: the code, severity, range and message a fixture yields.
//! `UPDATE_EXPECT=1 cargo test -p cmg-core --test diagnostics` refreshes the
//! expectations. They live with the crate that makes the diagnostics, so that its own
//! tests (`cargo test -p cmg-core`, and cargo-mutants on its files) guard every rule.

use cmg_core::analysis::{Analysis, MemorySetting, SolveLimits, SolvePlan, TooLarge};
use cmg_core::model::{Code, DiagnosticKind};
use expect_test::expect;

#[path = "common/shapes.rs"]
mod shapes;

#[path = "common/check.rs"]
mod check;
use check::check;

// `CMG_SLOW_TESTS=1`: the property below runs many more cases.
use cmg_solve::test_env::slow_tests;

/// Keeps the fixtures below free of noise: the codes a fixture yields.
fn codes(text: &str) -> Vec<Code> {
    Analysis::new(text)
        .model
        .diagnostics
        .iter()
        .map(|d| d.code)
        .collect()
}

#[test]
fn valid_file_has_no_diagnostics() {
    check(
        "0 -- {2 5}\n4 -- 3 -- 1\n2 -- {4 5}\n3 -- 5\nexpect draw\n",
        expect![""],
    );
}

#[test]
fn syntax() {
    check(
        "0 -- 1 -- 2\n1 --\n2 -- 0\n",
        expect![[r#"
            syntax error 2:3-2:5 "--": expected `{` or a node id, found the end of the statement
        "#]],
    );
}

#[test]
fn number_too_large() {
    check(
        "0 -- 1 -- 2\n2 -- 4294967295\n",
        expect![[r#"
            number-too-large error 2:6-2:16 "4294967295": this node id is too large: ids go from 0 to 4294967294
        "#]],
    );
}

#[test]
fn self_loop() {
    check(
        "0 -- 1 -- 2\n2 -- 2\n",
        expect![[r#"
            self-loop error 2:1-2:7 "2 -- 2": node 2 is joined to itself; a move must go to another node, so this edge is ignored: remove it
        "#]],
    );
}

#[test]
fn missing_mouse_and_cat() {
    check(
        "0 -- 3\n",
        expect![[r#"
            missing-mouse error 1:1-1:7 "0 -- 3": node 1, where the mouse starts, is not in the graph, so there is no game: add an edge to node 1
            missing-cat error 1:1-1:7 "0 -- 3": node 2, where the cat starts, is not in the graph, so there is no game: add an edge to node 2
        "#]],
    );
}

#[test]
fn missing_hole() {
    check(
        "1 -- 2\n",
        expect![[r#"
            missing-hole warning 1:1-1:7 "1 -- 2": node 0, the hole, is not in the graph, so the mouse can never win: add an edge to node 0
        "#]],
    );
}

#[test]
fn mouse_stuck() {
    check(
        "node 1\n0 -- 2 -- 3\n",
        expect![[r#"
            mouse-stuck error 1:6-1:7 "1": node 1 has no neighbours, so the mouse cannot make its first move and the game is a draw: join node 1 to another node
            hole-unreachable information 2:1-2:2 "0": no path leads from node 1 to the hole, so the mouse can never win
        "#]],
    );
}

#[test]
fn cat_stuck() {
    check(
        "0 -- 1 -- 3\n2 -- 0\n",
        expect![[r#"
            cat-stuck error 2:1-2:2 "2": node 2 has no neighbour other than the hole, where the cat may not go, so the cat can never leave its start: join node 2 to a node other than 0
        "#]],
    );
    // No neighbour at all: the hole is not mentioned.
    check(
        "0 -- 1 -- 3\nnode 2\n",
        expect![[r#"
            cat-stuck error 2:6-2:7 "2": node 2 has no neighbours, so the cat can never leave its start: join node 2 to a node other than 0
        "#]],
    );
}

#[test]
fn expect_mismatch() {
    check(
        "[[1,3],[0],[3],[0,2]]\nexpect cat\n",
        expect![[r#"
            expect-mismatch error 2:1-2:11 "expect cat": `expect cat` disagrees with the solved outcome, mouse wins in 1: change it to `expect mouse`
        "#]],
    );
}

/// A file with a syntax error: its graph leaves the broken statement out, so the
/// outcome of the rest (cat wins in 2 here, where `0 -- 1` would let the mouse win) is
/// not held against the `expect`.
#[test]
fn expect_unchecked() {
    check(
        "1 -- 3 -- 2\n0 - 1\nexpect mouse\n",
        expect![[r#"
            missing-hole warning 1:1-1:12 "1 -- 3 -- 2": node 0, the hole, is not in the graph, so the mouse can never win: add an edge to node 0
            syntax error 2:3-2:4 "-": expected `--` or `->`, found `-`; did you mean `--`? An edge is written `0 -- 1`, a one-way edge `0 -> 1`
            expect-unchecked information 3:1-3:13 "expect mouse": `expect mouse` is not checked until the file parses: the statements with syntax errors are left out of the graph, so its outcome may not be the file's; fix them to check it
        "#]],
    );
}

#[test]
fn duplicate_edge() {
    check(
        "0 -- 1 -- 2\n2 -- 1\n",
        expect![[r#"
            duplicate-edge warning 2:1-2:7 "2 -- 1": the edge 2 -- 1 is declared again; it counts once, so this one can go
              related 1:6-1:12 "1 -- 2": first declared here
        "#]],
    );
    // A chain that repeats: one diagnostic whose underline runs from the first repeat
    // to the last, not the last alone.
    check(
        "0 -- 1 -- 2 -- 1 -- 2 -- 1\n",
        expect![[r#"
            duplicate-edge warning 1:11-1:27 "2 -- 1 -- 2 -- 1": this statement declares 3 edges again, the first being 2 -- 1; each edge counts once, so the repeats can go
              related 1:6-1:12 "1 -- 2": first declared here
        "#]],
    );
}

/// A group product that repeats pairs within itself gets one diagnostic per code for the
/// product, with the count and the first example; a product that repeats one earlier
/// edge keeps the precise range of that pair.
#[test]
fn a_group_product_repeating_pairs_gets_one_diagnostic_per_code() {
    check(
        "0 -- 1\n{1 2 3} -- {1 2 3}\n{0 9} -- {1 8}\n",
        expect![[r#"
            self-loop error 2:1-2:19 "{1 2 3} -- {1 2 3}": this group product joins 3 pairs of a node to itself, the first being 1 -- 1; a move must go to another node, so these edges are ignored: remove them
            duplicate-edge warning 2:1-2:19 "{1 2 3} -- {1 2 3}": this group product declares 3 edges again, the first being 2 -- 1; each edge counts once, so the repeats can go
              related 2:2-2:16 "1 2 3} -- {1 2": first declared here
            duplicate-edge warning 3:2-3:12 "0 9} -- {1": the edge 0 -- 1 is declared again; it counts once, so this one can go
              related 1:1-1:7 "0 -- 1": first declared here
        "#]],
    );
}

#[test]
fn adjacency_mirror_is_not_a_duplicate_but_a_repeat_is() {
    assert_eq!(codes("[[1,2],[0,2],[0,1]]\n"), []);
    check(
        "[[1,2,1],[0,2],[0,1]]\n",
        expect![[r#"
            duplicate-edge warning 1:7-1:8 "1": the edge 0 -- 1 is declared again; it counts once, so this one can go
              related 1:3-1:4 "1": first declared here
        "#]],
    );
}

#[test]
fn one_sided_edge() {
    check(
        "[[1,2],[0,2],[1]]\n",
        expect![[r#"
            one-sided-edge warning 1:5-1:6 "2": node 0 lists 2, but list 2 does not list 0; the edge counts both ways: add 0 to list 2
        "#]],
    );
    // A neighbour with no list of its own: the message says so (node 2 is named, as an
    // entry, but has no list).
    check(
        "[[1,2],[0]]\n",
        expect![[r#"
        one-sided-edge warning 1:5-1:6 "2": node 0 lists 2, but this literal has no list 2; the edge counts both ways
        cat-stuck error 1:5-1:6 "2": node 2 has no neighbour other than the hole, where the cat may not go, so the cat can never leave its start: join node 2 to a node other than 0
    "#]],
    );
}

#[test]
fn duplicate_label() {
    check(
        "0 -- 1 -- 2\nnode 1 \"start\"\nnode 1 \"start\"\nnode 1 \"other\"\n",
        expect![[r#"
            duplicate-label warning 4:8-4:15 "\"other\"": node 1 already has the label "start"; the first label is kept, so remove or change one
              related 2:8-2:15 "\"start\"": first labelled here
        "#]],
    );
}

#[test]
fn duplicate_expect() {
    check(
        "0 -- 1 -- 2\nexpect mouse\nexpect mouse\n",
        expect![[r#"
            duplicate-expect warning 3:1-3:13 "expect mouse": `expect` is given more than once; each one is checked, so keep one
              related 2:1-2:13 "expect mouse": first given here
        "#]],
    );
}

#[test]
fn hole_unreachable() {
    check(
        "1 -- 2 -- 3\n0 -- 4\n",
        expect![[r#"
            hole-unreachable information 2:1-2:2 "0": no path leads from node 1 to the hole, so the mouse can never win
            unreachable-node hint 2:6-2:7 "4": node 4 can be reached by neither the mouse nor the cat, so it takes no part in the game
        "#]],
    );
}

#[test]
fn unreachable_node() {
    check(
        "0 -- 1 -- 2\n0 -- 5\n6 -- 7\n",
        expect![[r#"
            unreachable-node hint 2:6-2:7 "5": node 5 can be reached by neither the mouse nor the cat, so it takes no part in the game
            unreachable-node hint 3:1-3:2 "6": node 6 can be reached by neither the mouse nor the cat, so it takes no part in the game
            unreachable-node hint 3:6-3:7 "7": node 7 can be reached by neither the mouse nor the cat, so it takes no part in the game
        "#]],
    );
    assert!(Code::UnreachableNode.is_unnecessary());
}

/// The `too-large` diagnostic of `text` under `limits`, if the plan is not to solve.
fn too_large(text: &str, limits: SolveLimits) -> Option<String> {
    let analysis = Analysis::new(text);
    let SolvePlan::TooLarge(too_large) = analysis.solve_plan(limits) else {
        return None;
    };
    let diagnostics = analysis.diagnostics_with(None, Some(&too_large));
    let diagnostic = diagnostics.iter().find(|d| d.code == Code::TooLarge)?;
    assert_eq!(diagnostic.severity().as_str(), "information");
    Some(analysis.message(diagnostic))
}

#[test]
fn too_large_is_reported_above_the_limit_only() {
    let text = "0 -- 1 -- 2 -- 3\n";
    let nodes = |max_nodes| SolveLimits {
        max_nodes: Some(max_nodes),
        ..SolveLimits::default()
    };
    assert_eq!(too_large(text, nodes(4)), None);
    expect![[r#"
        the graph has 4 nodes, above the live-solve limit of 3, so the outcome is not computed here: raise the setting `cmg.solver.maxNodes`, or run `cmg solve`
    "#]]
    .assert_eq(&format!("{}\n", too_large(text, nodes(3)).unwrap()));
    let memory = |max_memory| SolveLimits {
        max_nodes: None,
        max_memory: Some(max_memory),
        ..SolveLimits::default()
    };
    let estimate = cmg_solve::peak_memory_bytes(4);
    assert_eq!(too_large(text, memory(estimate)), None);
    // The message names what sets the budget: the CLI's flag, or the server's setting.
    // A budget under a MiB is named in bytes, not as "0 MiB".
    assert!(too_large(text, memory(estimate - 1))
        .unwrap()
        .ends_with(&format!("above the memory budget of {} bytes, so the outcome is not computed: raise the budget with `cmg solve --max-memory SIZE` to solve it", estimate - 1)));
    let server = SolveLimits {
        memory_setting: MemorySetting::ServerSetting,
        ..memory(estimate - 1)
    };
    assert!(too_large(text, server)
        .unwrap()
        .ends_with("so the outcome is not computed: raise the setting `cmg.solver.maxMemoryMiB`, or run `cmg solve`"));
    assert_eq!(
        too_large("0 -- 3\n", nodes(0)),
        None,
        "no game, nothing to limit"
    );
}

/// Above what the solver can hold at all, the message must not send the user to a
/// setting: none can help.
#[test]
fn over_the_solvers_hard_limit_no_setting_is_suggested() {
    let nodes = cmg_solve::MAX_NODES + 1;
    let chain: Vec<String> = (0..nodes).map(|id| id.to_string()).collect();
    let text = chain.join(" -- ");
    let limits = SolveLimits {
        max_nodes: Some(10),
        max_memory: Some(1),
        ..SolveLimits::default()
    };
    let analysis = Analysis::new(text.as_str());
    assert_eq!(
        analysis.solve_plan(limits),
        SolvePlan::TooLarge(TooLarge::SolverLimit { nodes })
    );
    expect![[r#"
        the graph has 23171 nodes, more than the 23170 the solver can hold, so its outcome cannot be computed
    "#]]
    .assert_eq(&format!("{}\n", too_large(&text, limits).unwrap()));
}

/// The real edge limit, crossed by a product of 2001 × 2001 members (18 KB): the error
/// is at that statement, the graph keeps the edges before it and drops the ones after,
/// and the plan is not to solve, with no second word on the first line.
#[test]
fn too_many_edges() {
    let members: Vec<String> = (3..2004).map(|id| id.to_string()).collect();
    let members = members.join(" ");
    let text = format!("0 -- 1 -- 2\n{{{members}}} -- {{{members}}}\n2 -- 0\nexpect cat\n");
    let analysis = Analysis::new(text.as_str());
    let out: Vec<String> = analysis
        .diagnostics(None)
        .iter()
        .map(|d| {
            let at = |offset| {
                let lc = analysis.line_index.line_col(offset);
                format!("{}:{}", lc.line + 1, lc.col + 1)
            };
            let (start, end) = (at(d.range.start), at(d.range.end));
            format!(
                "{} {} {start}-{end}: {}\n",
                d.code,
                d.severity().as_str(),
                analysis.message(d)
            )
        })
        .collect();
    expect![[r#"
        too-many-edges error 2:1-2:17815: this statement takes the file past 4000000 declared edges (a group product counts each of its pairs), so the graph stops there and its outcome is unknown: split the file, or use fewer or smaller products
    "#]]
    .assert_eq(&out.concat());
    assert_eq!(analysis.model.graph.edge_count(), 2);
    assert!(analysis.model.graph.edge_count() as u64 <= cmg_core::model::MAX_EDGE_PAIRS);
    let plan = analysis.solve_plan(SolveLimits::default());
    assert_eq!(plan, SolvePlan::TooLarge(TooLarge::EdgeLimit));
    assert_eq!(
        analysis
            .diagnostics_with(None, Some(&TooLarge::EdgeLimit))
            .len(),
        1
    );
}

#[test]
fn every_code_is_tested_here() {
    let source = [include_str!("diagnostics.rs"), include_str!("rules.rs")].concat();
    for code in Code::ALL {
        let needle = format!("{} {}", code.as_str(), code.severity().as_str());
        assert!(
            source.contains(&needle) || *code == Code::TooLarge,
            "no fixture yields {code}"
        );
    }
}

/// Files that repeat pairs in every way the language allows: chains that come back to
/// a pair, group products, adjacency lists that name a neighbour twice.
fn repeating_file() -> impl proptest::strategy::Strategy<Value = String> {
    use proptest::prelude::*;
    let id = 0u32..6;
    let group = prop_oneof![
        id.clone().prop_map(|id| id.to_string()),
        proptest::collection::vec(id.clone(), 1..4).prop_map(|ids| {
            let ids: Vec<String> = ids.iter().map(u32::to_string).collect();
            format!("{{{}}}", ids.join(" "))
        }),
    ];
    let chain = proptest::collection::vec(group, 2..5).prop_map(|groups| groups.join(" -- "));
    let list = proptest::collection::vec(id, 0..4).prop_map(|ids| {
        let ids: Vec<String> = ids.iter().map(u32::to_string).collect();
        format!("[{}]", ids.join(","))
    });
    let adjacency =
        proptest::collection::vec(list, 1..5).prop_map(|lists| format!("[{}]", lists.join(",")));
    let statement = prop_oneof![4 => chain, 1 => adjacency];
    proptest::collection::vec(statement, 1..8).prop_map(|statements| statements.join("\n"))
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(
        if slow_tests() { 2000 } else { 300 }
    ))]

    /// Each duplicate-edge diagnostic points at the first pair in source order that
    /// joins the same two nodes.
    #[test]
    fn a_duplicate_points_at_the_first_declaration_of_its_edge(text in repeating_file()) {
        if let Err(message) = duplicates_point_at_first_declarations(&text) {
            return Err(proptest::test_runner::TestCaseError::fail(message));
        }
    }
}

/// The same on each shape of file the check must handle in linear time (at 16 KB: the
/// reference below is quadratic). Each but the sparse one has repeats to check.
#[test]
fn every_shape_of_repeats_points_at_the_first_declarations() {
    for name in shapes::SHAPES {
        let text = shapes::shape(name, 16 << 10);
        let checked = duplicates_point_at_first_declarations(&text)
            .unwrap_or_else(|message| panic!("{name}: {message}"));
        assert!(
            checked > 0 || name == "sparse_thousands",
            "{name}: no repeats"
        );
    }
}

/// Checks that every duplicate-edge diagnostic of `text` points at the first pair of the
/// file joining its two nodes, and counts them; the reference walks every pair of every
/// declaration.
fn duplicates_point_at_first_declarations(text: &str) -> Result<usize, String> {
    let analysis = Analysis::new(text);
    let model = &analysis.model;
    let mut duplicates = 0;
    for diagnostic in &model.diagnostics {
        let (a, b) = match diagnostic.kind() {
            DiagnosticKind::DuplicateEdge { a, b, .. }
            | DiagnosticKind::DuplicateEdges { a, b, .. } => (a, b),
            _ => continue,
        };
        duplicates += 1;
        let first = model
            .edges
            .iter()
            .flat_map(|edge| model.pairs(edge))
            .find(|pair| pair.key() == (a.min(b), a.max(b)))
            .map(|pair| pair.range);
        let related = diagnostic.related().map(|related| related.range);
        if related != first {
            return Err(format!(
                "{a} -- {b}: points at {related:?}, first declared at {first:?} in {text:?}"
            ));
        }
    }
    Ok(duplicates)
}
