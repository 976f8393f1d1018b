//! Scenarios of the queue of solves and what-ifs: what a close, a superseded text or a new game does to a queued or running job, and the outcome before the what-if.

use super::*;

/// Closing a document drops its own queued solve, not the solves queued for the
/// others: a request that needs the other document's solution is still answered.
#[test]
fn closing_a_document_keeps_the_solves_queued_for_the_others() {
    let (mut scheduler, mut pool) = start();
    let [a, b] = [uri("a"), uri("b")];
    pool.open(&mut scheduler, &a, &graph_text(40, 0));
    pool.open(&mut scheduler, &b, &graph_text(40, 1));
    pool.finish_analysis(&mut scheduler);
    pool.finish_analysis(&mut scheduler);
    // One solve at a time: a's runs, b's waits in the queue.
    assert_eq!(pool.solves.len(), 1);
    let waiting_for_b = pool.request(&mut scheduler, &b, Needs::Solve);
    pool.feed(&mut scheduler, Event::Closed { uri: a.clone() });
    pool.drain(&mut scheduler);
    assert_eq!(pool.answered, [waiting_for_b]);
    assert!(scheduler.documents[&b].document.solution().is_some());
}

/// A queued solve that its document stopped waiting for (the text went back to the
/// game solved before) never starts: it would hold the one solve slot for a result
/// that is dropped.
#[test]
fn a_superseded_queued_solve_never_starts() {
    let (mut scheduler, mut pool) = start();
    let [a, b] = [uri("a"), uri("b")];
    let (first, second) = (graph_text(40, 1), graph_text(40, 2));
    pool.open(&mut scheduler, &b, &first);
    pool.drain(&mut scheduler);
    assert!(retained(&scheduler, &b));
    // a's solve takes the slot; b's new game waits in the queue behind it.
    pool.open(&mut scheduler, &a, &graph_text(40, 0));
    pool.finish_analysis(&mut scheduler);
    assert_eq!(pool.solves.len(), 1);
    pool.change(&mut scheduler, &b, 2, &second);
    pool.finish_analysis(&mut scheduler);
    // Back to the first game: its solution is reused, the queued solve is not wanted.
    pool.change(&mut scheduler, &b, 3, &first);
    pool.finish_analysis(&mut scheduler);
    assert!(scheduler.documents[&b].document.solution().is_some());
    pool.finish_solve(&mut scheduler);
    // What starts next is a's what-if, and nothing of b.
    assert!(
        pool.solves
            .iter()
            .all(|(solving, job)| *solving == a && job.explain.is_some()),
        "a solve nobody waits for started"
    );
}

/// The outcome does not wait for the what-if: the solve's landing asks the client for
/// fresh lenses and hints, and the what-if follows as a job of its own in the queue,
/// which asks again when it ends. A request that needs the solve (from a client that
/// cannot be asked to refresh) waits for the what-if too: its answer is the one the
/// client keeps.
#[test]
fn the_outcome_lands_before_the_what_if() {
    let (mut scheduler, mut pool) = start();
    let a = uri("a");
    pool.open(&mut scheduler, &a, &graph_text(12, 0));
    pool.finish_analysis(&mut scheduler);
    let hints = pool.request(&mut scheduler, &a, Needs::Solve);
    pool.finish_solve(&mut scheduler);
    assert_eq!(pool.refreshes, 1, "the outcome waited for the what-if");
    let solved = scheduler.documents[&a].document.solution().expect("solved");
    assert_eq!(solved.what_if, WhatIfState::Pending);
    assert!(
        matches!(&pool.solves[..], [(running, job)] if *running == a && job.explain.is_some()),
        "the what-if is not the job under way"
    );
    let lenses = pool.request(&mut scheduler, &a, Needs::Analysis);
    assert!(pool.answered.contains(&lenses));
    assert!(!pool.answered.contains(&hints));
    pool.finish_solve(&mut scheduler);
    assert_eq!(pool.refreshes, 2);
    assert!(pool.answered.contains(&hints));
    let solved = scheduler.documents[&a].document.solution().expect("solved");
    assert!(solved.what_if.computed().is_some());
    assert!(pool.solves.is_empty());
}

/// An edit that leaves the game alone (a comment) lets the what-if go on; one that
/// changes the game stops it once its analysis says so, and its end changes nothing.
#[test]
fn only_a_new_game_stops_the_what_if() {
    use std::sync::atomic::Ordering;
    let (mut scheduler, mut pool) = start();
    let a = uri("a");
    let text = graph_text(12, 0);
    pool.open(&mut scheduler, &a, &text);
    pool.finish_analysis(&mut scheduler);
    pool.finish_solve(&mut scheduler);
    let what_if = pool.solves[0].1.cancel.clone();
    pool.change(&mut scheduler, &a, 2, &format!("{text}# a note\n"));
    pool.finish_analysis(&mut scheduler);
    assert!(
        !what_if.load(Ordering::Relaxed),
        "a comment stopped the what-if"
    );
    assert_eq!(pool.solves.len(), 1, "a comment started another what-if");
    pool.change(&mut scheduler, &a, 3, &graph_text(12, 1));
    pool.finish_analysis(&mut scheduler);
    assert!(
        what_if.load(Ordering::Relaxed),
        "a new game's what-if went on"
    );
    let refreshes = pool.refreshes;
    pool.finish_solve(&mut scheduler);
    assert_eq!(pool.refreshes, refreshes, "a stale what-if was shown");
    // The new game's solve, then its what-if.
    pool.drain(&mut scheduler);
    let solved = scheduler.documents[&a].document.solution().expect("solved");
    assert!(solved.what_if.computed().is_some());
}
