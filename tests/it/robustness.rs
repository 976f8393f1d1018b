//! No input makes any entry point panic: random bytes, random token soup, and every
//! prefix of a real file (what an editor sees while someone types). And the hostile
//! hostile inputs give their exact outcome with work proportional to the input
//! (their timings are in `benches/hostile.rs`).

use cmg_core::analysis::{check_expectations, start_position, Analysis, SolveLimits, SolvePlan};
use cmg_core::model::Code;
use cmg_ide::format;
use cmg_solve::solve;
use proptest::prelude::*;

use crate::common::hostile;
// Shared with the command-line tests; this file uses only some of it.
use crate::common::examples;

/// Runs everything the CLI and the server run on a text.
fn run_everything(text: &str) {
    let analysis = Analysis::new(text);
    let _ = format(text, &analysis.parse);
    let limits = SolveLimits {
        max_nodes: Some(3),
        ..SolveLimits::default()
    };
    if let SolvePlan::TooLarge(too_large) = analysis.solve_plan(limits) {
        let _ = analysis.diagnostics_with(None, Some(&too_large));
    }
    for d in &analysis.model.diagnostics {
        assert!(d.range.end as usize <= text.len(), "range past the end");
        assert!(text.is_char_boundary(d.range.start as usize));
        assert!(text.is_char_boundary(d.range.end as usize));
        let _ = analysis.line_index.char_col(d.range.start);
    }
    if let Some(game) = analysis.game() {
        if game.node_count() <= 40 {
            let solution = solve(&game);
            let _ = check_expectations(&analysis, Some(&solution));
            let start = start_position(&analysis.model.graph).unwrap();
            assert!(!solution.line(start).is_empty());
        }
    }
}

fn cases() -> u32 {
    if crate::common::slow_tests() {
        8192
    } else {
        1024
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        run_everything(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn random_text_never_panics(text in "\\PC{0,120}") {
        run_everything(&text);
    }

    #[test]
    fn token_soup_never_panics(tokens in proptest::collection::vec(
        prop_oneof![
            Just("0"), Just("1"), Just("2"), Just("3"), Just("99999999999"), Just("--"), Just("{"),
            Just("}"), Just("["), Just("]"), Just(","), Just(";"), Just("\n"), Just("\r\n"), Just("\r"),
            Just(" "), Just("node"), Just("expect"), Just("mouse"), Just("cat"), Just("draw"),
            Just("\"l\""), Just("\""), Just("\\"), Just("# c"), Just("é"), Just("😀"), Just("-"),
        ],
        0..60,
    )) {
        run_everything(&tokens.concat());
    }
}

#[test]
fn every_prefix_of_the_examples_is_handled() {
    for path in examples::all_examples() {
        let text = std::fs::read_to_string(&path).unwrap();
        for (end, _) in text.char_indices() {
            run_everything(&text[..end]);
        }
    }
}

/// The codes of `analysis`'s diagnostics with how many of each, in code order.
fn code_counts(analysis: &Analysis) -> Vec<(Code, usize)> {
    let mut counts = std::collections::BTreeMap::new();
    for d in &analysis.model.diagnostics {
        *counts.entry(d.code).or_insert(0) += 1;
    }
    counts.into_iter().collect()
}

/// a group product is one declaration, and the pairs it repeats
/// within itself make one diagnostic per code, whatever its size.
#[test]
fn a_large_group_product_is_one_declaration_with_one_diagnostic_per_code() {
    for n in [50, 300] {
        let analysis = Analysis::new(hostile::group_product(n));
        assert_eq!(
            analysis.model.edges.len(),
            1,
            "one declaration for {n} × {n} pairs"
        );
        assert_eq!(
            code_counts(&analysis),
            [
                (Code::SelfLoop, 1),
                (Code::MissingMouse, 1),
                (Code::MissingCat, 1),
                (Code::MissingHole, 1),
                (Code::DuplicateEdge, 1),
            ]
        );
        let message = |code| {
            let d = analysis.model.diagnostics.iter().find(|d| d.code == code);
            analysis.message(d.unwrap())
        };
        assert_eq!(
            message(Code::SelfLoop),
            format!("this group product joins {n} pairs of a node to itself, the first being 3 -- 3; a move must go to another node, so these edges are ignored: remove them")
        );
        assert_eq!(
            message(Code::DuplicateEdge),
            format!("this group product declares {} edges again, the first being 4 -- 3; each edge counts once, so the repeats can go", n * (n - 1) / 2)
        );
        assert_eq!(analysis.model.graph.edge_count() as u32, n * (n - 1) / 2);
    }
}

/// a long chain whose links repeat edges is
/// one statement, and one rule holds for all statements: one diagnostic per code with
/// the count, covering the links that repeat; the range converts to columns on the one
/// line.
#[test]
fn a_long_chain_on_one_line_warns_once_per_code_with_the_count() {
    let (len, modulo) = (20_000, 500);
    let text = hostile::long_chain(len, modulo);
    let analysis = Analysis::new(text.as_str());
    let ids = hostile::long_chain_ids(len, modulo);
    let mut seen = std::collections::HashSet::new();
    let repeated = ids
        .windows(2)
        .filter(|pair| pair[0] != pair[1])
        .filter(|pair| !seen.insert((pair[0].min(pair[1]), pair[0].max(pair[1]))))
        .count();
    assert_eq!(analysis.model.edges.len(), len as usize);
    assert_eq!(
        code_counts(&analysis),
        [(Code::SelfLoop, 1), (Code::DuplicateEdge, 1)]
    );
    // Besides the self-loop, 19 999 links over 500 distinct edges (the cycle closes with
    // 499 -- 0).
    assert_eq!(repeated, 19_499);
    let duplicate = analysis
        .model
        .diagnostics
        .iter()
        .find(|d| d.code == Code::DuplicateEdge)
        .unwrap();
    let message = analysis.message(duplicate);
    assert!(
        message.starts_with(&format!("this statement declares {repeated} edges again")),
        "{message}"
    );
    let last = analysis.model.diagnostics.iter().map(|d| d.range.end).max();
    let column = analysis.line_index.char_col(last.unwrap());
    assert_eq!(
        column as usize,
        text.trim_end().len(),
        "the last link ends the line"
    );
}

/// adjacency rows and chains that repeat a pair within themselves get
/// one diagnostic per code, with the count, as group products do; statements apart
/// still get one each.
#[test]
fn every_statement_repeating_pairs_gets_one_diagnostic_per_code() {
    let n = 20_000;
    let repeated_row = format!("[[1,2],[{}],[0]]\n", vec!["0"; n + 1].join(","));
    let looping_row = format!("[[1,2],[0,{}],[0]]\n", vec!["1"; n].join(","));
    let looping_chain = format!("0 -- 1 -- 2\n{}\n", vec!["1"; n].join(" -- "));
    let repeated_chain = format!("0 -- 1 -- 2\n{}\n", vec!["0 -- 1"; 75].join(" -- "));
    for (text, code, count) in [
        (&repeated_row, Code::DuplicateEdge, n),
        (&looping_row, Code::SelfLoop, n),
        (&looping_chain, Code::SelfLoop, n - 1),
        (&repeated_chain, Code::DuplicateEdge, 149),
    ] {
        let analysis = Analysis::new(text.as_str());
        let found: Vec<_> = analysis
            .model
            .diagnostics
            .iter()
            .filter(|d| d.code == code)
            .collect();
        assert_eq!(found.len(), 1, "{code:?} in {:.40}: {found:?}", text);
        let message = analysis.message(found[0]);
        assert!(
            message.contains(&format!(" {count} ")),
            "{code:?}: {message}"
        );
    }
    // Two statements, one repeat each: one diagnostic each, pointing at the repeat.
    let analysis = Analysis::new("0 -- 1 -- 2\n1 -- 0\n2 -- 1\n");
    assert_eq!(
        code_counts(&analysis),
        [(Code::DuplicateEdge, 2)],
        "{:?}",
        analysis.model.diagnostics
    );
}

/// thousands of comment lines inside brackets are plain
/// whitespace; the literal is one statement, and completion inside it works from the
/// parse.
#[test]
fn comment_lines_inside_brackets_are_one_statement() {
    let text = hostile::comments_in_brackets(20_000);
    let analysis = Analysis::new(text.as_str());
    assert!(analysis.parse.errors.is_empty());
    assert_eq!(analysis.parse.chunks.len(), 1);
    assert_eq!(analysis.model.graph.edge_count(), 1);
    // At the start of the last line, inside the outer bracket only, a new statement may
    // start; in the middle of the comments nothing is offered.
    let last_line = text.rfind("[0]]").unwrap() as u32;
    let labels = |offset| -> Vec<String> {
        cmg_ide::completion::completions(&analysis, offset)
            .into_iter()
            .map(|item| item.label)
            .collect()
    };
    assert_eq!(labels(last_line), ["node", "expect", "rule"]);
    assert_eq!(labels(last_line - 1), Vec::<String>::new());
}

/// The edge limit: a product of 2001 × 2001 members (18 KB, just over the four million
/// pairs a file may declare) is refused at its statement before a pair is made, so the
/// graph has no edge, nothing is solved, and every feature stays proportional to the
/// text. Without the limit this is the product that took 76 MB at 3000 members and
/// would take ~10^10 pairs at 100 000.
#[test]
fn a_product_over_the_edge_limit_is_refused_before_any_pair_is_made() {
    let text = hostile::group_product(2001);
    let analysis = Analysis::new(text.as_str());
    assert_eq!(
        code_counts(&analysis),
        [
            (Code::MissingMouse, 1),
            (Code::MissingCat, 1),
            (Code::TooManyEdges, 1),
            (Code::MissingHole, 1),
        ]
    );
    let error = analysis
        .model
        .diagnostics
        .iter()
        .find(|d| d.code == Code::TooManyEdges)
        .unwrap();
    assert_eq!(&text[error.range.to_usize()], text.trim_end());
    assert!(analysis.model.edges_truncated);
    assert!(analysis.model.edges.is_empty());
    assert_eq!(analysis.model.graph.edge_count(), 0);
    assert_eq!(analysis.model.graph.node_count(), 2001);
    assert!(analysis.game().is_none());

    // The editor features and the view on the same file.
    let symbols = cmg_ide::symbols::document_symbols(&analysis);
    assert!(symbols.len() <= text.len());
    assert!(cmg_ide::semantic_tokens::semantic_tokens(&analysis).len() <= text.len());
    let hover = cmg_ide::hover::hover(&analysis, None, 1).expect("a hover on node 3");
    assert!(hover.markdown.len() < 2000, "{}", hover.markdown);
    let scene = cmg_ide::view::scene(&analysis, None, &Default::default());
    assert!(scene.too_large.is_some());
    assert!(format(&text, &analysis.parse).len() <= text.len());
}

/// `[[1,1,1,…]]`, a list that names one missing neighbour a great many
/// times, is one `one-sided-edge` (and one `duplicate-edge` with the count), not one per
/// entry.
#[test]
fn a_list_naming_a_missing_neighbour_many_times_is_one_diagnostic() {
    let text = hostile::repeated_list(20_000);
    let analysis = Analysis::new(text.as_str());
    assert_eq!(
        code_counts(&analysis),
        [
            (Code::MissingCat, 1),
            (Code::DuplicateEdge, 1),
            (Code::OneSidedEdge, 1)
        ]
    );
}

/// a server keeps the analysis of every open document, so an analysis
/// must hold a small multiple of its text. The 20 KB file of scattered edges is mostly
/// `unreachable-node` hints; its analysis held 65 bytes per byte of text when each
/// hint kept its message as a string and the parse and model kept their reservations.
/// `heap_bytes` is checked against a counting allocator in
/// `crates/cmg-core/tests/memory.rs`.
#[test]
fn an_analysis_holds_a_small_multiple_of_its_text() {
    let text = hostile::scattered_edges(1400, 2700);
    assert!((15_000..25_000).contains(&text.len()), "{}", text.len());
    let analysis = Analysis::new(text.as_str());
    let hints = analysis
        .model
        .diagnostics
        .iter()
        .filter(|d| d.code == Code::UnreachableNode)
        .count();
    assert!(hints > 1000, "{hints} unreachable-node hints");
    let per_byte = analysis.heap_bytes() as f64 / text.len() as f64;
    assert!(per_byte < 45.0, "{per_byte:.1} bytes per byte of text");
}
