//! The check both diagnostic test files use: every diagnostic of a text in one line each.

use cmg_core::analysis::{check_expectations, Analysis};
use cmg_solve::solve;
use expect_test::Expect;

/// Every diagnostic of `text` as `code severity line:col-line:col "covered text": message`,
/// with related locations indented below.
pub fn check(text: &str, expected: Expect) {
    let analysis = Analysis::new(text);
    let mut diagnostics = analysis.model.diagnostics.clone();
    let solution = analysis.game().map(|game| solve(&game));
    diagnostics.extend(check_expectations(&analysis, solution.as_ref()));
    let position = |offset: u32| {
        let lc = analysis.line_index.line_col(offset);
        format!("{}:{}", lc.line + 1, lc.col + 1)
    };
    let mut out = String::new();
    for d in &diagnostics {
        out.push_str(&format!(
            "{} {} {}-{} {:?}: {}\n",
            d.code,
            d.severity().as_str(),
            position(d.range.start),
            position(d.range.end),
            &text[d.range.to_usize()],
            analysis.message(d)
        ));
        if let Some(related) = d.related() {
            out.push_str(&format!(
                "  related {}-{} {:?}: {}\n",
                position(related.range.start),
                position(related.range.end),
                &text[related.range.to_usize()],
                related.message
            ));
        }
    }
    expected.assert_eq(&out);
}
