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
