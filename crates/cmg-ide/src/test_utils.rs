//! Fixtures for the feature tests: `.cmg` text with a `$0` cursor marker.

use cmg_core::analysis::Analysis;
use cmg_solve::{solve, Solution};

/// The text without its `$0` marker, and the marker's offset (0 if there is none).
pub fn cursor(fixture: &str) -> (String, u32) {
    match fixture.find("$0") {
        Some(offset) => (fixture.replacen("$0", "", 1), offset as u32),
        None => (fixture.to_owned(), 0),
    }
}

/// The analysis of a fixture, its solution (if the game exists) and the cursor offset.
pub fn analyze(fixture: &str) -> (Analysis, Option<Solution>, u32) {
    let (text, offset) = cursor(fixture);
    let analysis = Analysis::new(&text);
    let solution = analysis.game().map(|game| solve(&game));
    (analysis, solution, offset)
}

/// `text` with `edits` applied; they must fit the text.
pub fn apply_edits(text: &str, edits: &[super::TextEdit]) -> String {
    super::apply_edits(text, edits).expect("the edits fit the text")
}

/// Every range of `text`, empty ones included, for the tests that check a range
/// answer against the whole one.
pub fn every_range(text: &str) -> impl Iterator<Item = cmg_syntax::TextRange> {
    let len = text.len() as u32;
    (0..=len)
        .flat_map(move |start| (start..=len).map(move |end| cmg_syntax::TextRange::new(start, end)))
}

/// One piece of a random `.cmg` text for the property tests: statements whole and broken,
/// comments, line breaks of every kind, brackets left open or closed too many times.
pub fn piece() -> impl proptest::strategy::Strategy<Value = &'static str> {
    proptest::sample::select(vec![
        "0 -- 1",
        "0--{2,5}",
        "{1 2} -- 3 -- 4",
        "[[1,2],[0]]",
        "[\n[1],  # c\n[0]\n]",
        "# note",
        "\n",
        "\n",
        "\n\n",
        ";",
        "  ",
        "\t",
        "node 3 \"é\"",
        "expect mouse",
        "1 -- [",
        "{2",
        "\r\n",
        "--",
        "]",
        "}",
        "x",
        "0 -- 1  # tail",
    ])
}
