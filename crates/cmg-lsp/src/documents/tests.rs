//! The documents' tests: generations, evictions, solves again on demand, the memory they count.

use super::*;

/// The solve job's result for a game, as the server computes it.
fn solved(game: &Game) -> Option<Solved> {
    cmg_core::explain::solve_and_explain(
        game,
        cmg_core::explain::WhatIfBudget::Editor,
        &AtomicBool::new(false),
    )
}

/// Replaces the text and runs the analysis to the end, as the server does.
fn edit_with(document: &mut Document, text: &str, config: &Config) -> Option<SolveJob> {
    document.rope = Rope::from_str(text);
    document.version += 1;
    let job = document.changed(config).expect("no analysis is running");
    let generation = job.generation;
    match document.finish_analysis(generation, Some(job.run()), config) {
        Finished::Accepted(solve, _) => solve,
        Finished::Stale(..) => panic!("the analysis was current"),
    }
}

fn edit(document: &mut Document, text: &str) -> Option<SolveJob> {
    edit_with(document, text, &Config::default())
}

fn codes(document: &Document) -> Vec<Code> {
    diagnostics(&document.analysed, &document.solve)
        .shown
        .iter()
        .map(|d| d.code)
        .collect()
}

#[test]
fn a_new_game_cancels_the_running_solve_and_its_result_is_dropped() {
    let mut document = Document::new("", 0);
    let first = edit(&mut document, "0 -- 1 -- 2\n").expect("a game to solve");
    let second = edit(&mut document, "0 -- 1 -- 2 -- 3\n").expect("another game");
    assert!(
        first.cancel.load(Ordering::Relaxed),
        "the older solve keeps running"
    );
    assert!(!second.cancel.load(Ordering::Relaxed));
    assert!(!document.accept_solution(&first.cancel, solved(&first.game)));
    assert!(document.solution().is_none());
    assert!(document.accept_solution(&second.cancel, solved(&second.game)));
    assert!(document.solution().is_some());
}

#[test]
fn a_solve_for_the_same_game_survives_an_edit_of_a_comment() {
    let mut document = Document::new("", 0);
    let job = edit(&mut document, "0 -- 1 -- 2\n").unwrap();
    assert!(edit(&mut document, "# typing\n0 -- 1 -- 2\n").is_none());
    assert!(!job.cancel.load(Ordering::Relaxed));
    assert!(document.accept_solution(&job.cancel, solved(&job.game)));
    assert!(document.solution().is_some());
}

#[test]
fn edits_that_keep_the_graph_reuse_the_solution() {
    let mut document = Document::new("", 0);
    let job = edit(&mut document, "0 -- 1 -- 2\n").unwrap();
    assert!(document.accept_solution(&job.cancel, solved(&job.game)));
    assert!(edit(&mut document, "# a comment\n0 -- 1 -- 2\nexpect cat\n").is_none());
    assert!(document.solution().is_some());
    assert_eq!(codes(&document), [Code::ExpectMismatch]);
}

#[test]
fn an_edit_during_an_analysis_is_picked_up_by_the_next_one() {
    let config = Config::default();
    let mut document = Document::new("0 -- 1\n", 1);
    let first = document.changed(&config).unwrap();
    document.rope = Rope::from_str("0 -- 1 -- 2\n");
    document.version = 2;
    assert!(document.changed(&config).is_none(), "two analyses at once");
    let generation = first.generation;
    let Finished::Stale(Some(next), _) =
        document.finish_analysis(generation, Some(first.run()), &config)
    else {
        panic!("the stale analysis was accepted");
    };
    assert!(!document.is_current());
    assert_eq!(next.version, 2);
    let generation = next.generation;
    assert!(matches!(
        document.finish_analysis(generation, Some(next.run()), &config),
        Finished::Accepted(Some(_), _)
    ));
    assert!(document.is_current());
    assert_eq!(document.analysed.rope.to_string(), "0 -- 1 -- 2\n");
}

/// What `weak` points to is still there, held by `leftover` and nothing else: it is
/// freed when `leftover` is dropped.
fn assert_held_only_by<T>(weak: &std::sync::Weak<T>, leftover: Leftover) {
    assert!(weak.upgrade().is_some(), "freed before it was handed back");
    drop(leftover);
    assert!(weak.upgrade().is_none(), "held elsewhere");
}

/// The analysis a result replaces, and a stale result, are handed back to be freed
/// off the path, not freed under the lock.
#[test]
fn a_finished_analysis_hands_back_what_it_leaves_over() {
    let config = Config::default();
    let mut document = Document::new("0 -- 1\n", 1);
    let job = document.changed(&config).unwrap();
    let _ = document.finish_analysis(job.generation, Some(job.run()), &config);
    let replaced = Arc::downgrade(&document.analysed);
    let job = document.changed(&config).unwrap();
    let Finished::Accepted(_, leftover) =
        document.finish_analysis(job.generation, Some(job.run()), &config)
    else {
        panic!("the analysis was current");
    };
    assert_held_only_by(&replaced, leftover);

    let stale = document.changed(&config).unwrap();
    let generation = stale.generation;
    let result = stale.run();
    let analysis = Arc::downgrade(result.analysis.as_ref().unwrap());
    document.rope = Rope::from_str("0 -- 1 -- 2\n");
    assert!(document.changed(&config).is_none());
    let Finished::Stale(Some(_), leftover) =
        document.finish_analysis(generation, Some(result), &config)
    else {
        panic!("the stale analysis was accepted");
    };
    assert_held_only_by(&analysis, leftover);
}

#[test]
fn a_failed_analysis_marks_its_generation() {
    let config = Config::default();
    let mut document = Document::new("0 -- 1\n", 1);
    let job = document.changed(&config).unwrap();
    let _ = document.finish_analysis(job.generation, None, &config);
    assert_eq!(document.failed, job.generation);
    assert!(!document.is_current());
    assert!(document.solve_settled());
}

#[test]
fn an_evicted_solution_is_solved_again_on_demand() {
    let mut document = Document::new("", 0);
    let job = edit(&mut document, "0 -- 1 -- 2\n").unwrap();
    assert!(document.accept_solution(&job.cancel, solved(&job.game)));
    document.evict();
    assert!(document.solution().is_none() && document.last_solved.is_none());
    let again = document.resolve_evicted().expect("solved again");
    assert_eq!(*again.game, *job.game);
    assert!(
        document.resolve_evicted().is_none(),
        "two solves of it at once"
    );
    assert!(document.accept_solution(&again.cancel, solved(&again.game)));
    assert!(document.solution().is_some());
}

#[test]
fn limits_refuse_with_the_reason() {
    let mut document = Document::new("", 0);
    assert!(edit(&mut document, "0 -- 3\n").is_none());
    assert!(matches!(document.solve, SolveState::NoGame));
    let small = Config {
        max_nodes: 3,
        ..Config::default()
    };
    assert!(edit_with(&mut document, "0 -- 1 -- 2 -- 3\n", &small).is_none());
    assert_eq!(codes(&document), [Code::TooLarge]);
    let tight = Config {
        max_solver_memory_mib: 0,
        ..Config::default()
    };
    assert!(edit_with(&mut document, "0 -- 1 -- 2 -- 3\n", &tight).is_none());
    let messages = diagnostics(&document.analysed, &document.solve).shown;
    assert!(
        messages[0].message.contains("memory budget"),
        "{messages:?}"
    );
    let tiny = Config {
        max_document_bytes: 4,
        ..Config::default()
    };
    assert!(edit_with(&mut document, "0 -- 1 -- 2 -- 2\n", &tiny).is_none());
    let messages = diagnostics(&document.analysed, &document.solve).shown;
    assert_eq!(messages.len(), 1, "only the reason: {messages:?}");
    assert!(messages[0].message.contains("analysis limit"));
}
