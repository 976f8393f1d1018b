//! Scenarios of parked requests and the open documents: what a request about a replaced text, or a text whose analysis failed, is answered.

use super::*;

/// A request parked on a text that an edit then replaces is answered
/// `ContentModified` at once, never later from the analysis of the new text.
#[test]
fn a_request_about_a_replaced_text_is_answered_content_modified() {
    let (mut scheduler, mut pool) = start();
    let a = uri("a");
    pool.open(&mut scheduler, &a, "0 -- 1 -- 2\n");
    let ticket = pool.request(&mut scheduler, &a, Needs::Analysis);
    pool.change(&mut scheduler, &a, 2, "0 -- 1 -- 2 -- 3\n");
    assert_eq!(pool.modified, [ticket]);
    pool.drain(&mut scheduler);
    assert!(pool.answered.is_empty(), "answered from another text");
    assert_eq!(scheduler.parked(), 0);
}

/// A request about a text whose analysis panicked is answered `Failed` at once: not
/// `ContentModified`, as if an edit had replaced the text (a pull client asked to pull
/// again would be answered the same way, in a loop), and not from the analysis before.
/// The next edit's text is answered as usual.
#[test]
fn a_request_about_a_text_whose_analysis_failed_is_answered_failed() {
    let (mut scheduler, mut pool) = start();
    let a = uri("a");
    pool.open(&mut scheduler, &a, "0 -- 1 -- 2\n");
    pool.drain(&mut scheduler);
    pool.change(&mut scheduler, &a, 2, "0 -- 1 -- 2 -- 3\n");
    let ticket = pool.request(&mut scheduler, &a, Needs::Diagnostics);
    let answered = pool.answered.len();
    let panicked = pool.work.fail_analysis(0).expect("an analysis runs");
    pool.feed(&mut scheduler, panicked);
    assert_eq!(pool.failed, [ticket]);
    assert!(pool.modified.is_empty(), "answered as superseded");
    assert_eq!(
        pool.answered.len(),
        answered,
        "answered from the text before"
    );
    assert_eq!(scheduler.parked(), 0);
    let later = pool.request(&mut scheduler, &a, Needs::Analysis);
    assert_eq!(pool.failed, [ticket, later]);

    pool.change(&mut scheduler, &a, 3, "0 -- 1 -- 2 -- 4\n");
    let after = pool.request(&mut scheduler, &a, Needs::Analysis);
    pool.drain(&mut scheduler);
    assert!(pool.answered.contains(&after));
    assert_eq!(pool.failed, [ticket, later]);
}

/// The documents the client has open, as the workspace report asks for them (it answers
/// those from their live text, not from the disk).
#[test]
fn the_open_documents_are_those_opened_and_not_closed() {
    let (mut scheduler, mut pool) = start();
    let [a, b] = [uri("a"), uri("b")];
    let open = |scheduler: &Scheduler| {
        let mut open = scheduler.open_documents();
        open.sort_by(|x, y| x.as_str().cmp(y.as_str()));
        open
    };
    assert!(open(&scheduler).is_empty());
    pool.open(&mut scheduler, &a, "0 -- 1 -- 2\n");
    pool.open(&mut scheduler, &b, "0 -- 1 -- 2\n");
    assert_eq!(open(&scheduler), [a.clone(), b.clone()]);
    pool.feed(&mut scheduler, Event::Closed { uri: a });
    assert_eq!(open(&scheduler), [b]);
}
