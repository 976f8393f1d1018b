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

/// `text` with `edits` applied (they must not overlap).
pub fn apply_edits(text: &str, edits: &[super::TextEdit]) -> String {
    let mut edits = edits.to_vec();
    edits.sort_by_key(|edit| std::cmp::Reverse((edit.range.start, edit.range.end)));
    let mut text = text.to_owned();
    for edit in edits {
        text.replace_range(edit.range.to_usize(), &edit.new_text);
    }
    text
}
