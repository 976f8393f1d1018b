//! No input makes any entry point panic: random bytes, random token soup, and every
//! prefix of a real file (what an editor sees while someone types).

use cmg::analysis::{check_expectations, start_position, Analysis, SolveLimits, SolvePlan};
use cmg::ide::format;
use cmg::solve::solve;
use proptest::prelude::*;

/// Runs everything the CLI and the server run on a text.
fn run_everything(text: &str) {
    let analysis = Analysis::new(text);
    let _ = format(text, &analysis.parse);
    let limits = SolveLimits {
        max_nodes: Some(3),
        max_memory: None,
    };
    if let SolvePlan::TooLarge(too_large) = analysis.solve_plan(limits) {
        let _ = analysis.diagnostics_with(None, Some(&too_large));
    }
    for d in &analysis.model.diagnostics {
        assert!(d.range.end as usize <= text.len(), "range past the end");
        assert!(text.is_char_boundary(d.range.start as usize));
        assert!(text.is_char_boundary(d.range.end as usize));
        let _ = analysis.line_index.char_col(text, d.range.start);
    }
    if let Some(game) = analysis.game() {
        if game.node_count() <= 40 {
            let solution = solve(&game);
            let _ = check_expectations(&analysis.model, &solution);
            let start = start_position(&analysis.model.graph).unwrap();
            assert!(!solution.line(start).is_empty());
        }
    }
}

fn cases() -> u32 {
    if std::env::var_os("CMG_SLOW_TESTS").is_some() {
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
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let mut seen = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|ext| ext == "cmg") {
            let text = std::fs::read_to_string(&path).unwrap();
            for (end, _) in text.char_indices() {
                run_everything(&text[..end]);
            }
            seen += 1;
        }
    }
    assert!(seen >= 4, "the examples are missing");
}
