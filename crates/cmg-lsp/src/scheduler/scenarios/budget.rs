//! Scenarios of the memory budget: evictions, leases for closed files, and analyses and solves that wait for room rather than being refused.

use super::*;

/// The budget evicts the least recently used solution: the document a request
/// touched last keeps its solution, whichever of the two it is, and a document with
/// no solution is passed over however old.
#[test]
fn the_least_recently_used_solution_is_the_one_evicted() {
    // A graph size whose solves fit two at a time in 1 MiB, not three.
    let budget = 1u64 << 20;
    let nodes = (50..400u32)
        .find(|&n| {
            let peak = peak_memory_bytes(n as usize);
            2 * peak <= budget && 3 * peak > budget
        })
        .expect("some size fits two solves, not three");
    let (mut scheduler, mut pool) = start_with(serde_json::json!({"solver": {"maxMemoryMiB": 1}}));
    let [a, b, c, d] = [uri("a"), uri("b"), uri("c"), uri("d")];
    // The least recently used document of all has no game: nothing of it to evict.
    pool.open(&mut scheduler, &d, "0 -- 1\n");
    pool.open(&mut scheduler, &a, &graph_text(nodes, 0));
    pool.open(&mut scheduler, &b, &graph_text(nodes, 1));
    pool.drain(&mut scheduler);
    assert!(retained(&scheduler, &a) && retained(&scheduler, &b));
    // Either of the two is the older one in turn: a, then b.
    for (touched, evicted) in [(&a, &b), (&b, &a)] {
        pool.request(&mut scheduler, touched, Needs::Analysis);
        pool.open(&mut scheduler, &c, &graph_text(nodes, 2));
        pool.drain(&mut scheduler);
        assert!(retained(&scheduler, &c));
        assert!(
            retained(&scheduler, touched),
            "the recently used one was evicted"
        );
        assert!(!retained(&scheduler, evicted));
        // c goes, and the evicted one is solved again when asked about.
        pool.feed(&mut scheduler, Event::Closed { uri: c.clone() });
        pool.request(&mut scheduler, evicted, Needs::Solve);
        pool.drain(&mut scheduler);
        assert!(retained(&scheduler, &a) && retained(&scheduler, &b));
    }
    assert!(pool.modified.is_empty());
    assert_eq!(scheduler.parked(), 0);
}

/// Closed files lease their room from the budget: a lease takes only the room left and
/// never evicts what an open document holds; it waits while work under way will free
/// room, in the order the leases came, and is refused when nothing will. What is lent
/// counts until it is returned, and the budget is never exceeded.
#[test]
fn leases_take_only_the_room_left() {
    let budget = 1u64 << 20;
    let (mut scheduler, mut pool) = start_with(serde_json::json!({"solver": {"maxMemoryMiB": 1}}));
    let a = uri("a");
    pool.open(&mut scheduler, &a, &graph_text(100, 0));
    pool.drain(&mut scheduler);
    let held = scheduler.used();
    assert!(held > 0 && retained(&scheduler, &a));
    let lease = |pool: &mut Pool, scheduler: &mut Scheduler, ticket: Ticket, bytes: u64| {
        pool.feed(scheduler, Event::Lease { ticket, bytes });
        assert!(scheduler.used() <= budget, "the budget is exceeded");
    };
    // Half of what is left, twice: both lent. A third does not fit, and no document's
    // work will free room: refused at once, not left waiting for the other leases (the
    // work holding one may be the very work that asks).
    let half = (budget - held) / 2;
    lease(&mut pool, &mut scheduler, 101, half);
    lease(&mut pool, &mut scheduler, 102, half);
    lease(&mut pool, &mut scheduler, 103, half);
    assert_eq!(pool.lent, [(101, true), (102, true), (103, false)]);
    // Nothing was evicted for them.
    assert!(retained(&scheduler, &a));
    assert_eq!(scheduler.evictions, 0);
    pool.feed(&mut scheduler, Event::Return { ticket: 101 });
    pool.feed(&mut scheduler, Event::Return { ticket: 102 });
    assert_eq!(scheduler.used(), held);
    // While a document's analysis is under way, a lease that does not fit waits for
    // it, and the leases after it wait in turn; one that stops waiting is forgotten.
    pool.change(&mut scheduler, &a, 2, &graph_text(100, 1));
    assert!(!pool.analyses.is_empty());
    let too_much = budget - scheduler.used() + 1;
    lease(&mut pool, &mut scheduler, 104, too_much);
    lease(&mut pool, &mut scheduler, 105, 1);
    assert_eq!(
        pool.lent.len(),
        3,
        "a lease was answered while work was under way"
    );
    pool.feed(&mut scheduler, Event::Return { ticket: 104 });
    assert_eq!(pool.lent[3..], [(105, true)]);
    pool.feed(&mut scheduler, Event::Return { ticket: 105 });
    pool.drain(&mut scheduler);
    assert_eq!(pool.lent.len(), 4, "a lease that stopped waiting was lent");
    assert!(scheduler.used() <= budget);
}

/// A solve that does not fit while another document's analysis holds its room waits
/// for that analysis to end, and is solved then; it is refused only when nothing under
/// way will free room.
#[test]
fn a_solve_waits_for_an_analysis_under_way_rather_than_being_refused() {
    let budget = 1u64 << 20;
    let (mut scheduler, mut pool) = start_with(serde_json::json!({"solver": {"maxMemoryMiB": 1}}));
    let [b, c] = [uri("b"), uri("c")];
    // c: a long comment, whose analysis is reserved at its text's estimate.
    let comment = format!("# {}\n", "x".repeat(3500));
    pool.open(&mut scheduler, &c, &comment);
    let reserved = scheduler.used();
    // b: a game whose solve fits in the budget, but not beside c's analysis.
    let nodes = (50..2000u32)
        .find(|&n| peak_memory_bytes(n as usize) + reserved > budget)
        .expect("a size");
    pool.open(&mut scheduler, &b, &graph_text(nodes, 0));
    let event = pool.work.finish_analysis(1).expect("b's analysis");
    pool.feed(&mut scheduler, event);
    assert!(
        pool.solves.is_empty(),
        "the solve started beside the analysis"
    );
    assert!(
        matches!(
            scheduler.documents[&b].document.solve,
            SolveState::Pending { .. }
        ),
        "refused while an analysis was under way"
    );
    pool.drain(&mut scheduler);
    assert!(scheduler.documents[&b].document.solution().is_some());
}

/// An analysis that does not fit beside the running solve waits for that solve to end
/// (it will free its room), and is analysed then, rather than refused.
#[test]
fn an_analysis_waits_for_the_running_solve_rather_than_being_refused() {
    let budget = 1u64 << 20;
    let (mut scheduler, mut pool) = start_with(serde_json::json!({"solver": {"maxMemoryMiB": 1}}));
    let [a, b] = [uri("a"), uri("b")];
    // a: a game whose solve takes most of the budget; its publication is handed out
    // while the solve runs, so only the solve is under way.
    let nodes = (50..2000u32)
        .find(|&n| peak_memory_bytes(n as usize) > budget * 6 / 10)
        .expect("a size");
    pool.open(&mut scheduler, &a, &graph_text(nodes, 0));
    pool.finish_analysis(&mut scheduler);
    pool.finish_timer(&mut scheduler);
    pool.finish_build(&mut scheduler);
    assert_eq!(pool.solves.len(), 1, "a's solve runs");
    // b: a long comment whose analysis does not fit beside it.
    let left = budget - scheduler.used();
    let bytes = (left / 128 + 1) as usize;
    let comment = format!("# {}\n", "x".repeat(bytes));
    assert!(documents::analysis_estimate(comment.len(), &scheduler.config) > left);
    pool.open(&mut scheduler, &b, &comment);
    assert!(
        pool.analyses.is_empty(),
        "analysed beside the solve, over the budget"
    );
    pool.drain(&mut scheduler);
    let analysed = &scheduler.documents[&b].document.analysed;
    assert!(
        analysed.over_budget.is_none(),
        "refused while the solve would free room"
    );
    assert!(analysed.analysis.is_some());
}

/// A text that declared a dense graph is measured, and its next text is reserved at
/// that measure; when the measure does not fit beside what the document still holds,
/// the new text is measured again from its own size rather than refused (it may need
/// far less: here the product is gone).
#[test]
fn a_text_that_no_longer_needs_the_old_measure_is_measured_again() {
    let (mut scheduler, mut pool) = start_with(serde_json::json!({"solver": {"maxMemoryMiB": 1}}));
    let a = uri("a");
    let left: Vec<String> = (3..200).map(|id| id.to_string()).collect();
    let right: Vec<String> = (200..400).map(|id| id.to_string()).collect();
    let dense = format!("{{{}}} -- {{{}}}\n", left.join(" "), right.join(" "));
    pool.open(&mut scheduler, &a, &dense);
    pool.drain(&mut scheduler);
    let document = &scheduler.documents[&a].document;
    assert!(document.measured.is_some(), "the product was not measured");
    assert!(
        document.analysed.over_budget.is_none(),
        "the dense text was refused"
    );
    pool.change(&mut scheduler, &a, 2, "0 -- 1 -- 2\n");
    pool.drain(&mut scheduler);
    let analysed = &scheduler.documents[&a].document.analysed;
    assert!(
        analysed.over_budget.is_none(),
        "refused at the old text's measure"
    );
    assert_eq!(analysed.version, 2);
}

/// Making room, the budget evicts a document whose solve is settled before one whose
/// solve still waits in the queue, however recently each was used (evicting the second
/// would cancel a solve that is wanted), and the solves queued for the documents it
/// does not evict stay queued.
#[test]
fn a_settled_document_is_evicted_before_one_whose_solve_waits() {
    let (mut scheduler, mut pool) = start();
    let [settled, running, queued, newcomer] = [uri("s"), uri("r"), uri("q"), uri("n")];
    pool.open(&mut scheduler, &settled, &graph_text(40, 0));
    pool.drain(&mut scheduler);
    // One solve runs, the next waits in the queue behind it.
    pool.open(&mut scheduler, &running, &graph_text(40, 1));
    pool.finish_analysis(&mut scheduler);
    pool.open(&mut scheduler, &queued, &graph_text(40, 2));
    pool.finish_analysis(&mut scheduler);
    while !pool.timers.is_empty() {
        pool.finish_timer(&mut scheduler);
    }
    while !pool.builds.is_empty() {
        pool.finish_build(&mut scheduler);
    }
    assert_eq!(pool.solves.len(), 1);
    assert!(scheduler.queue.iter().any(|(uri, _)| *uri == queued));
    // The settled document is touched last: only the state of its solve puts it first.
    pool.request(&mut scheduler, &settled, Needs::Analysis);
    let text = graph_text(40, 3);
    let estimate = documents::analysis_estimate(text.len(), &scheduler.config);
    scheduler.config.memory_cap = Some(scheduler.used() + estimate - 1);
    pool.open(&mut scheduler, &newcomer, &text);
    let analysis_bytes = |uri: &Uri| scheduler.documents[uri].document.analysis_bytes();
    assert_eq!(analysis_bytes(&settled), 0, "the settled document was kept");
    assert!(
        analysis_bytes(&queued) > 0,
        "the queued solve's document was evicted"
    );
    assert!(
        scheduler.queue.iter().any(|(uri, _)| *uri == queued),
        "the queued solve was dropped"
    );
}

/// A document whose diagnostics are built again when its solve lands (the generation
/// was handed over already) holds its analysis until that build is sent: another
/// document's analysis that needs the room waits for it rather than being refused,
/// though nothing else is under way.
#[test]
fn an_analysis_waits_for_a_rebuild_with_the_outcome_rather_than_being_refused() {
    let (mut scheduler, mut pool) = start();
    let [a, b] = [uri("a"), uri("b")];
    pool.open(&mut scheduler, &a, &graph_text(40, 0));
    pool.finish_analysis(&mut scheduler);
    // The wait for a quick solve ends first: published without the outcome.
    pool.finish_timer(&mut scheduler);
    pool.finish_build(&mut scheduler);
    assert_eq!(pool.published.len(), 1);
    // The solve lands: a build with the outcome is handed out; the what-if ends too.
    pool.finish_solve(&mut scheduler);
    pool.finish_solve(&mut scheduler);
    assert_eq!((pool.builds.len(), pool.solves.len()), (1, 0));
    assert!(!scheduler.under_way());
    // Room for b only with a's analysis gone: evicting a's solution is not enough.
    let text = graph_text(400, 1);
    let estimate = documents::analysis_estimate(text.len(), &scheduler.config);
    let solution = scheduler.documents[&a].solution_bytes();
    assert!(estimate > solution + 1);
    scheduler.config.memory_cap = Some(scheduler.used() + estimate - solution - 1);
    open_to_wait(&mut pool, &mut scheduler, &b, &text);
    pool.drain(&mut scheduler);
    assert_analysed(&scheduler, &b);
}

/// A publication handed to the client and not yet confirmed holds the analysis it was
/// built from: another document's analysis that needs the room waits for the
/// confirmation rather than being refused, though nothing else is under way. (The
/// pools confirm each publication at once; here the confirmation is held back.)
#[test]
fn an_analysis_waits_for_a_publication_not_yet_confirmed() {
    let (mut scheduler, mut pool) = start();
    let [a, b] = [uri("a"), uri("b")];
    // No game: no solve, no wait for one.
    pool.open(&mut scheduler, &a, "0 -- 1 -- 3\n");
    pool.finish_analysis(&mut scheduler);
    let built = pool.work.finish_build(0).expect("a build runs");
    let mut handed = None;
    for action in scheduler.handle(built) {
        match action {
            Action::Publish {
                uri,
                generation: Some(generation),
                ..
            } => handed = Some((uri, generation)),
            other => assert!(pool
                .work
                .keep(other)
                .is_none_or(|other| matches!(other, Action::Free(_)))),
        }
    }
    let (published, generation) = handed.expect("a publication");
    assert!(!scheduler.under_way());
    let text = graph_text(40, 1);
    let estimate = documents::analysis_estimate(text.len(), &scheduler.config);
    scheduler.config.memory_cap = Some(scheduler.used() + estimate - 1);
    open_to_wait(&mut pool, &mut scheduler, &b, &text);
    pool.feed(
        &mut scheduler,
        Event::Published {
            uri: published,
            generation,
        },
    );
    pool.drain(&mut scheduler);
    assert_analysed(&scheduler, &b);
}

/// A document whose analysis was refused holds nothing, so making room never picks it
/// (it would free nothing, and mark the document evicted); once room is made, a
/// request tries it again and the client is shown the result instead of the refusal.
#[test]
fn a_refused_document_is_not_evicted_and_its_next_analysis_is_published() {
    let (mut scheduler, mut pool) = start();
    let [a, b] = [uri("a"), uri("b")];
    let text = graph_text(40, 0);
    let estimate = documents::analysis_estimate(text.len(), &scheduler.config);
    scheduler.config.memory_cap = Some(estimate - 1);
    pool.open(&mut scheduler, &a, &text);
    pool.drain(&mut scheduler);
    let refused = |pool: &Pool| {
        let (_, _, diagnostics) = pool
            .published
            .iter()
            .rev()
            .find(|(uri, ..)| *uri == a)
            .unwrap();
        diagnostics
            .iter()
            .any(|d| d.message.contains("memory budget"))
    };
    assert!(refused(&pool));
    // Another document needs room: a has none to give.
    let other = graph_text(30, 1);
    let needed = documents::analysis_estimate(other.len(), &scheduler.config);
    scheduler.config.memory_cap = Some(scheduler.used() + needed - 1);
    pool.open(&mut scheduler, &b, &other);
    pool.drain(&mut scheduler);
    assert!(
        !scheduler.documents[&a].document.evicted,
        "a refused document was evicted"
    );
    // With room enough, a request tries a again, and the client is shown the result.
    scheduler.config.memory_cap = None;
    pool.request(&mut scheduler, &a, Needs::Analysis);
    pool.drain(&mut scheduler);
    assert!(!refused(&pool), "the client still shows the refusal");
}

/// With three documents, making room meets a stale analysis (of an older text, kept
/// while the next waits for room) beside another document's analysis: the stale one
/// goes first, since nothing needs it, and the other is kept for its requests. (With
/// two documents the choice never arises: the one that needs room is never a
/// candidate, so the properties, which use two, cannot pin it.)
#[test]
fn a_stale_analysis_goes_before_another_documents() {
    let (mut scheduler, mut pool) = start();
    let [a, b, c] = [uri("a"), uri("b"), uri("c")];
    let estimate = |text: &str, scheduler: &Scheduler| {
        documents::analysis_estimate(text.len(), &scheduler.config)
    };
    // a: a large game whose solve runs; its publication is handed out.
    pool.open(&mut scheduler, &a, &graph_text(400, 0));
    pool.finish_analysis(&mut scheduler);
    pool.finish_timer(&mut scheduler);
    pool.finish_build(&mut scheduler);
    assert_eq!(pool.solves.len(), 1, "a's solve runs");
    let stale = scheduler.documents[&a].document.analysis_bytes();
    // a's next text does not fit beside its older analysis: it waits for the solve.
    let next = graph_text(40, 1);
    let room = estimate(&next, &scheduler) - 1;
    scheduler.config.memory_cap = Some(scheduler.used() + room);
    pool.change(&mut scheduler, &a, 2, &next);
    assert_waiting(&pool, &scheduler, &a);
    // b, small and without a game, fits beside it and settles; it is the newest.
    pool.open(&mut scheduler, &b, "0 -- 1\n");
    while !pool.analyses.is_empty() || !pool.builds.is_empty() {
        if pool.analyses.is_empty() {
            pool.finish_build(&mut scheduler);
        } else {
            pool.finish_analysis(&mut scheduler);
        }
    }
    assert!(scheduler.waiting.contains(&a), "a's next text was started");
    let held = scheduler.documents[&b].retained_bytes();
    // c (a's next text without its last newline) needs more than is left, and less
    // than either analysis frees; with the stale one gone, a's next text fits too.
    let third = next.trim_end();
    let need = estimate(third, &scheduler);
    assert!(room - held < need && need <= room, "{room} {held} {need}");
    assert!(stale > held + need + 1, "{stale} {held} {need}");
    pool.open(&mut scheduler, &c, third);
    assert!(
        scheduler.documents[&b].document.analysis_bytes() > 0,
        "b's analysis was evicted"
    );
    assert!(
        !scheduler.waiting.contains(&a),
        "the stale analysis was kept"
    );
}

/// Opens `uri` with `text` when it does not fit: its analysis waits for room.
fn open_to_wait(pool: &mut Pool, scheduler: &mut Scheduler, uri: &Uri, text: &str) {
    pool.open(scheduler, uri, text);
    assert_waiting(pool, scheduler, uri);
}

/// `uri`'s analysis was neither started above the budget nor refused: it waits for room.
fn assert_waiting(pool: &Pool, scheduler: &Scheduler, uri: &Uri) {
    assert!(pool.analyses.is_empty(), "started above the budget");
    assert!(scheduler.waiting.contains(uri), "refused, not waiting");
}

/// `uri`'s analysis is done and was not refused.
fn assert_analysed(scheduler: &Scheduler, uri: &Uri) {
    let analysed = &scheduler.documents[uri].document.analysed;
    assert!(analysed.over_budget.is_none(), "refused");
    assert!(analysed.analysis.is_some());
}
