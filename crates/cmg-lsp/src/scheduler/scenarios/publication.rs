//! Scenarios of publications: which timer publishes, a solve's wait shared by the texts of one game, and the summary of hidden diagnostics.

use super::*;

/// The wait for a quick solve ends the first publication's wait only for the
/// generation it was started for: the timer of an older text publishes nothing, and
/// the current text's timer publishes without the solve, which still runs.
#[test]
fn only_the_current_generations_timer_publishes() {
    let (mut scheduler, mut pool) = start();
    let a = uri("a");
    pool.open(&mut scheduler, &a, &graph_text(40, 0));
    pool.finish_analysis(&mut scheduler);
    assert_eq!((pool.timers.len(), pool.solves.len()), (1, 1));
    // Version 2 comes before version 1's timer ends.
    pool.change(&mut scheduler, &a, 2, &graph_text(40, 1));
    pool.finish_analysis(&mut scheduler);
    assert_eq!(pool.timers.len(), 2);
    pool.finish_timer(&mut scheduler);
    assert!(
        pool.builds.is_empty(),
        "the old text's timer built a publication"
    );
    pool.finish_timer(&mut scheduler);
    pool.finish_build(&mut scheduler);
    let versions: Vec<_> = pool
        .published
        .iter()
        .map(|(_, version, _)| *version)
        .collect();
    assert_eq!(versions, [Some(2)], "no publication before the solve ends");
    assert!(!pool.solves.is_empty(), "the solve still runs");
}

/// The diagnostics past `cmg.diagnostics.max` are summed up in one more diagnostic
/// with the most severe of their severities, so that a hidden error still counts as
/// an error. The oracle is `cmg_core` on the text, not the server's conversion.
#[test]
fn the_summary_of_hidden_diagnostics_has_their_worst_severity() {
    use cmg_core::model::Severity;
    // Duplicate edges (warnings) first, a syntax error (an error) last.
    let text = "0 -- 1 -- 2\n1 -- 2\n1 -- 2\n1 -- 2\n3 -- --\n";
    let max = 2;
    let mut all = Analysis::new(text.to_owned()).diagnostics_with(None, None);
    all.sort_by_key(|d| (d.range.start, d.range.end));
    let severities: Vec<Severity> = all.iter().map(|d| d.severity()).collect();
    assert!(severities.len() > max + 1);
    assert!(severities[..max].iter().all(|&s| s == Severity::Warning));
    assert!(severities[max..].contains(&Severity::Error));
    let (mut scheduler, mut pool) = start_with(serde_json::json!({"diagnostics": {"max": max}}));
    let a = uri("a");
    pool.open(&mut scheduler, &a, text);
    pool.drain(&mut scheduler);
    let (_, _, published) = pool.published.last().expect("published");
    let severities: Vec<_> = published.iter().map(|d| d.severity).collect();
    let (warning, error) = (DiagnosticSeverity::WARNING, DiagnosticSeverity::ERROR);
    assert_eq!(severities, [Some(warning), Some(warning), Some(error)]);
    assert!(published[max]
        .message
        .starts_with(&format!("{} more", all.len() - max)));
}

/// An edit that keeps the game (a comment) keeps its solve running. A text that comes
/// while that solve's wait before publishing still runs waits for what is left of it,
/// with no wait of its own: when the first text's timer ends, the newer text is
/// published, without the outcome, and the outcome follows when the solve lands.
#[test]
fn a_publication_waits_for_a_solve_that_goes_on_from_an_earlier_text() {
    let (mut scheduler, mut pool) = start();
    let a = uri("a");
    let text = graph_text(40, 0);
    pool.open(&mut scheduler, &a, &format!("{text}expect cat\n"));
    pool.finish_analysis(&mut scheduler);
    assert_eq!(pool.timers.len(), 1);
    pool.change(
        &mut scheduler,
        &a,
        2,
        &format!("# a comment\n{text}expect cat\n"),
    );
    pool.finish_analysis(&mut scheduler);
    assert_eq!(pool.solves.len(), 1, "the same game's solve goes on");
    assert!(
        pool.builds.is_empty(),
        "published before the wait for the solve"
    );
    assert_eq!(pool.timers.len(), 1, "a second wait for the same solve");
    pool.finish_timer(&mut scheduler);
    assert_eq!(
        pool.builds.len(),
        1,
        "the solve's wait ended, nothing published"
    );
    pool.finish_build(&mut scheduler);
    let versions: Vec<_> = pool.published.iter().map(|(_, v, _)| *v).collect();
    assert_eq!(versions, [Some(2)]);
    assert!(!has_mismatch(&pool.published[0].2));
    pool.finish_solve(&mut scheduler);
    pool.drain(&mut scheduler);
    let (_, version, diagnostics) = pool.published.last().unwrap();
    assert_eq!(*version, Some(2));
    assert!(has_mismatch(diagnostics), "the outcome never came");
}

/// Once a solve's wait is over, every later text of the same game (keystrokes in a
/// comment during a long solve) is published at once, without waiting again; the
/// outcome comes with a publication when the solve lands.
#[test]
fn the_second_keystroke_during_the_same_long_solve_publishes_without_waiting() {
    let (mut scheduler, mut pool) = start();
    let a = uri("a");
    let text = format!("{}expect cat\n", graph_text(40, 0));
    pool.open(&mut scheduler, &a, &text);
    pool.finish_analysis(&mut scheduler);
    pool.finish_timer(&mut scheduler);
    pool.finish_build(&mut scheduler);
    assert_eq!(pool.published.len(), 1);
    for version in 2..5 {
        pool.change(&mut scheduler, &a, version, &format!("# {version}\n{text}"));
        pool.finish_analysis(&mut scheduler);
        assert_eq!(pool.solves.len(), 1, "the same game's solve goes on");
        assert!(pool.timers.is_empty(), "waited again for the same solve");
        pool.finish_build(&mut scheduler);
        let (_, published, diagnostics) = pool.published.last().unwrap();
        assert_eq!(*published, Some(version), "not published at once");
        assert!(!has_mismatch(diagnostics));
    }
    pool.finish_solve(&mut scheduler);
    pool.drain(&mut scheduler);
    let (_, version, diagnostics) = pool.published.last().unwrap();
    assert_eq!(*version, Some(4));
    assert!(has_mismatch(diagnostics), "the outcome never came");
    // A new game is a new solve, which waits once again.
    pool.change(
        &mut scheduler,
        &a,
        5,
        &format!("{}expect cat\n", graph_text(40, 1)),
    );
    pool.finish_analysis(&mut scheduler);
    assert_eq!((pool.timers.len(), pool.builds.len()), (1, 0));
}

/// Whether a publication has the solve's `expect-mismatch` (the game's outcome is not
/// the one expected).
fn has_mismatch(diagnostics: &[Diagnostic]) -> bool {
    diagnostics.iter().any(|d| {
        d.code
            == Some(tower_lsp_server::ls_types::NumberOrString::String(
                "expect-mismatch".into(),
            ))
    })
}
