//! The run's logic against fake solutions, one for each way a run ends: no solution
//! process is needed, so each branch is reached directly and fast.

use super::*;

/// A host with a bound on the graphs and on its `go_on` calls, so that no test runs on.
struct Bounded {
    graphs: Option<u64>,
    calls: u64,
    failed: Vec<Finding>,
}

impl Bounded {
    fn new(graphs: Option<u64>) -> Bounded {
        Bounded {
            graphs,
            calls: 0,
            failed: Vec::new(),
        }
    }
}

impl Host for Bounded {
    fn go_on(&mut self, phase: Phase) -> bool {
        self.calls += 1;
        assert!(self.calls < 5_000_000, "the run never ends");
        match phase {
            Phase::Search { tried } => self.graphs.is_none_or(|most| tried < most),
            Phase::After => true,
        }
    }

    fn stopped(&self) -> bool {
        false
    }

    fn graph_limit(&self) -> Option<u64> {
        self.graphs
    }

    fn failed(&mut self, finding: &Finding) {
        self.failed.push(finding.clone());
    }
}

/// A solution that answers each graph with `answer`, given the graphs answered before it
/// since its last fresh start; `restarts` counts the fresh starts.
struct Fake<F: FnMut(&[Lists], &[Vec<u32>]) -> Answer> {
    answer: F,
    before: Vec<Lists>,
    restarts: usize,
}

fn fake<F: FnMut(&[Lists], &[Vec<u32>]) -> Answer>(answer: F) -> Fake<F> {
    Fake {
        answer,
        before: Vec::new(),
        restarts: 0,
    }
}

impl<F: FnMut(&[Lists], &[Vec<u32>]) -> Answer> Solution for Fake<F> {
    fn answer(&mut self, graph: &[Vec<u32>]) -> Answer {
        let answer = (self.answer)(&self.before, graph);
        if matches!(answer, Answer::Value(_)) {
            self.before.push(graph.to_vec());
        } else {
            self.before.clear();
        }
        answer
    }

    fn restart(&mut self) {
        self.before.clear();
        self.restarts += 1;
    }
}

fn value(answer: u8) -> Answer {
    Answer::Value(answer.to_string())
}

/// The right answer, as a solution gives it.
fn right(_: &[Lists], graph: &[Vec<u32>]) -> Answer {
    value(expected(graph).0)
}

/// A search cut off after as many moves as the graph has nodes.
fn turn_limited(_: &[Lists], graph: &[Vec<u32>]) -> Answer {
    value(Answers::of(graph).with_limit(graph.len() as u32))
}

#[test]
fn a_right_solution_passes_every_graph_it_is_given() {
    let mut host = Bounded::new(Some(3_000));
    let report = judge(&mut fake(right), &mut host, 1, Vec::new());
    assert!(report.finding.is_none(), "{report:?}");
    assert_eq!(report.checked.total(), 3_000);
    assert_eq!(report.checked.count(Kind::Small), 3_000);
    assert!(host.failed.is_empty());
}

/// A graph limit that ends the small games one graph short of a size's last leaves that
/// size incomplete: the report is complete only up to the size before.
#[test]
fn a_graph_limit_one_short_of_a_size_leaves_it_incomplete() {
    // The games sent of each size: each sorted, and reversed where that is another order.
    let sent = |nodes| -> u64 {
        graphs::small_graphs(nodes)
            .iter()
            .map(|lists| 1 + u64::from(graphs::order_matters(lists)))
            .sum()
    };
    let through_four = sent(3) + sent(4);
    for (limit, complete) in [(through_four, 4), (through_four + sent(5) - 1, 4)] {
        let report = judge(
            &mut fake(right),
            &mut Bounded::new(Some(limit)),
            1,
            Vec::new(),
        );
        assert_eq!(report.checked.total(), limit);
        assert_eq!(report.checked.complete_to, Some(complete), "{limit} graphs");
    }
}

#[test]
fn a_turn_limit_is_caught_on_a_graph_no_removal_keeps_failing_and_named() {
    let mut solution = fake(turn_limited);
    let mut host = Bounded::new(None);
    let report = judge(&mut solution, &mut host, 1, Vec::new());
    let finding = report.finding.expect("a counterexample");
    assert_eq!(finding.verdict, Verdict::WrongAnswer);
    assert_eq!(report.reproduced, Some(true));
    assert!(report.sequence.is_none());
    // The answer it got is the limited game's, and the right one differs.
    let Answer::Value(got) = turn_limited(&[], &finding.graph) else {
        unreachable!()
    };
    assert_eq!(finding.got, got.parse().ok());
    assert_ne!(finding.got, Some(i64::from(finding.expected)));
    // Shrunk: no graph one removal smaller fails.
    for smaller in graphs::removals(&finding.graph) {
        let Answer::Value(got) = turn_limited(&[], &smaller) else {
            unreachable!()
        };
        assert_eq!(got, expected(&smaller).0.to_string(), "{smaller:?}");
    }
    match report.cause {
        Some(Cause::TurnLimit { nodes, decides, .. }) => {
            assert_eq!(nodes, finding.graph.len());
            let n = nodes as u32;
            assert!(
                decides.0 <= n && n <= decides.1,
                "{decides:?} for {n} nodes"
            );
        }
        other => panic!("a turn limit, not {other:?}"),
    }
    // Verified from a fresh start, and the shrinking's steps were told to the host.
    assert!(solution.restarts >= 2);
    assert!(!host.failed.is_empty());
}

#[test]
fn state_kept_between_graphs_gives_the_sequence_that_fails_from_a_fresh_start() {
    // Caches its first answer for each node count, as a table never cleared would.
    let cached = |before: &[Lists], graph: &[Vec<u32>]| match before
        .iter()
        .find(|earlier| earlier.len() == graph.len())
    {
        Some(earlier) => value(expected(earlier).0),
        None => right(before, graph),
    };
    let report = judge(&mut fake(cached), &mut Bounded::new(None), 1, Vec::new());
    let finding = report.finding.expect("a counterexample");
    assert_eq!(finding.verdict, Verdict::WrongAnswer);
    let sequence = report.sequence.expect("a sequence");
    assert_eq!(sequence.len(), 2, "{sequence:?}");
    assert_eq!(report.reproduced, Some(true));
    // From a fresh start, the sequence fails on its last graph, which alone passes.
    let mut fresh = fake(cached);
    let answers = fresh.answers(&sequence);
    assert_ne!(answers[1], value(expected(&sequence[1]).0));
    assert_eq!(cached(&[], &sequence[1]), value(expected(&sequence[1]).0));
    assert!(report.cause.is_none());
}

/// A time limit later in the same batch leaves the sequence of an earlier failure alone:
/// the graphs before it since the last fresh start are still the ones it was answered
/// after, although the retry of the slow graph starts the solution afresh.
#[test]
fn a_time_limit_after_a_failure_in_its_batch_keeps_the_failures_sequence() {
    let last_of_three = graphs::small_graphs(3).pop().expect("3-node games");
    let mut slow_asked = 0;
    let cached_then_slow = |before: &[Lists], graph: &[Vec<u32>]| {
        if graph == last_of_three.as_slice() {
            slow_asked += 1;
            return Answer::TimedOut;
        }
        match before.iter().find(|earlier| earlier.len() == graph.len()) {
            Some(earlier) => value(expected(earlier).0),
            None => right(before, graph),
        }
    };
    let mut solution = fake(cached_then_slow);
    let report = judge(&mut solution, &mut Bounded::new(None), 1, Vec::new());
    drop(solution);
    // The slow graph came in the failure's batch, after it: else this tests nothing.
    assert!(slow_asked > 0, "the time limit was never reached");
    let finding = report.finding.expect("a counterexample");
    assert_eq!(finding.verdict, Verdict::WrongAnswer);
    assert_eq!(finding.graph.len(), 3);
    assert_eq!(report.reproduced, Some(true));
    assert_eq!(report.sequence.expect("a sequence").len(), 2);
}

#[test]
fn a_crash_is_a_runtime_error_shrunk_to_the_fewest_nodes_that_crash() {
    let crashing = |before: &[Lists], graph: &[Vec<u32>]| {
        if graph.len() >= 5 {
            Answer::Crashed("IndexError: list index out of range".into())
        } else {
            right(before, graph)
        }
    };
    // A 12-node graph kept from an earlier run comes first: it crashes, and shrinks.
    let kept = graphs::random_graph(&mut Rng::new(3), 12);
    let report = judge(&mut fake(crashing), &mut Bounded::new(None), 1, vec![kept]);
    assert_eq!(report.checked.count(Kind::Kept), 1);
    let finding = report.finding.expect("a counterexample");
    assert_eq!(finding.verdict, Verdict::RuntimeError);
    assert_eq!(finding.graph.len(), 5);
    assert_eq!(
        finding.error.as_deref(),
        Some("IndexError: list index out of range")
    );
    assert_eq!(report.reproduced, Some(true));
    assert!(report.cause.is_none());
}

#[test]
fn a_time_limit_is_tried_again_from_a_fresh_start_and_not_shrunk() {
    let mut asked = Vec::new();
    let slow = |before: &[Lists], graph: &[Vec<u32>]| {
        asked.push(graph.to_vec());
        if graph.len() >= 4 {
            Answer::TimedOut
        } else {
            right(before, graph)
        }
    };
    let mut solution = fake(slow);
    let report = judge(&mut solution, &mut Bounded::new(None), 1, Vec::new());
    let finding = report.finding.expect("a counterexample");
    assert_eq!(finding.verdict, Verdict::TimeLimit);
    assert_eq!(report.reproduced, Some(true));
    drop(solution);
    // Asked twice about the first 4-node graph, then never again.
    let tried: Vec<&Lists> = asked.iter().filter(|graph| graph.len() >= 4).collect();
    assert_eq!(tried, [&finding.graph, &finding.graph]);
}

#[test]
fn answers_that_change_from_run_to_run_are_not_deterministic() {
    // Wrong once in every 700 calls, whatever ran before: a clock or a random number.
    let mut calls = 0u32;
    let flaky = |before: &[Lists], graph: &[Vec<u32>]| {
        calls += 1;
        let right_answer = expected(graph).0;
        if calls.is_multiple_of(700) {
            value((right_answer + 1) % 3)
        } else {
            right(before, graph)
        }
    };
    let report = judge(&mut fake(flaky), &mut Bounded::new(None), 1, Vec::new());
    assert_eq!(
        report.finding.expect("a failure").verdict,
        Verdict::WrongAnswer
    );
    assert_eq!(report.reproduced, Some(false));
    assert!(report.cause.is_none() && report.sequence.is_none());
}

#[test]
fn a_run_resumed_with_answers_step_by_step_is_the_run_judge_makes() {
    // The browser's way: every request goes out, its answers come back later.
    let mut host = Bounded::new(None);
    let mut judging = Judging::new(&mut host, 7, Vec::new());
    let mut solution = fake(turn_limited);
    let mut answers = Vec::new();
    let (mut asked, mut restarts) = (0, 0);
    let stepped = loop {
        match judging.resume(std::mem::take(&mut answers)) {
            Step::Done(report) => break report,
            Step::Ask(Request::Answers(graphs)) => {
                asked += graphs.len();
                answers = solution.answers(&graphs);
            }
            Step::Ask(Request::Restart) => {
                restarts += 1;
                solution.restart();
            }
        }
    };
    assert!(matches!(judging.resume(Vec::new()), Step::Done(report) if report.finding.is_none()));
    drop(judging);
    let direct = judge(
        &mut fake(turn_limited),
        &mut Bounded::new(None),
        7,
        Vec::new(),
    );
    assert_eq!(format!("{stepped:?}"), format!("{direct:?}"));
    assert!(stepped.finding.is_some());
    assert!(
        asked > 1000 && restarts >= 2,
        "{asked} graphs, {restarts} restarts"
    );
}

/// The game a cause names, as the report prints it, is the game the solution solves:
/// read back as `cmg solve` reads a file, its answer is the one the solution gave on the
/// counterexample. Causes the language cannot state print no game.
#[test]
fn the_game_a_cause_names_is_printed_and_gives_the_solutions_answer() {
    let cat_first = |_: &[Lists], graph: &[Vec<u32>]| value(Answers::of(graph).cat_first);
    let swapped = |_: &[Lists], graph: &[Vec<u32>]| value(Answers::of(graph).start_swapped);
    let in_hole = |_: &[Lists], graph: &[Vec<u32>]| {
        value(crate::slips::answer(graph, crate::slips::Slip::CatInHole))
    };
    type Answering = dyn Fn(&[Lists], &[Vec<u32>]) -> Answer;
    let in_holes = |_: &[Lists], graph: &[Vec<u32>]| {
        let answers = Answers::of(graph);
        value(Cause::CatEntersHoles.answer(graph, &answers).unwrap())
    };
    let cases: [(&Answering, &str, Option<&str>); 5] = [
        (&turn_limited, "turn-limit", Some("rule limit ")),
        (&cat_first, "turns-swapped", Some("rule first cat\n")),
        (&swapped, "start-swapped", Some("rule start 2 1\n")),
        (
            &in_holes,
            "cat-enters-holes",
            Some("rule cat-enters-holes\n"),
        ),
        (&in_hole, "cat-enters-hole", None),
    ];
    for (answer, kind, rule) in cases {
        let outcome = judge(&mut fake(answer), &mut Bounded::new(None), 1, Vec::new());
        let finding = outcome.finding.as_ref().expect("a counterexample");
        let words = crate::report::Report {
            outcome: &outcome,
            language: "Python",
            seconds: 1.0,
            sandbox: "none",
            note: None,
            interrupted: None,
        };
        let json = crate::report::json(&words);
        let text = crate::report::text(&words);
        assert_eq!(json["cause"]["kind"], kind, "{json}");
        let Some(rule) = rule else {
            assert!(json["cause"]["cmg"].is_null(), "{json}");
            assert!(!text.contains("The game it solves"), "{text}");
            continue;
        };
        let cmg = json["cause"]["cmg"]
            .as_str()
            .expect("the game as a .cmg file");
        assert!(cmg.contains(rule), "{cmg}");
        assert!(text.ends_with(cmg), "{text}");
        let analysis = cmg_core::analysis::Analysis::new(cmg);
        let graph = &analysis.model.graph;
        assert!(!graph.is_standard(), "{cmg}");
        let solution = cmg_solve::solve(&analysis.game().expect("a game"));
        let start = cmg_core::analysis::start_position(graph).expect("a start");
        let got = finding.got.expect("an answer");
        assert_eq!(i64::from(solution.outcome(start).code()), got, "{cmg}");
        assert_ne!(got, i64::from(finding.expected), "{cmg}");
    }
}

/// The report of a caught turn limit, read in full: the finding, the cause with its
/// range and formula, the counterexample twice (LeetCode's game and the game the
/// solution solves), as `cmg judge` prints it.
#[test]
fn the_report_of_a_caught_turn_limit_reads_in_full() {
    let outcome = judge(
        &mut fake(turn_limited),
        &mut Bounded::new(None),
        1,
        Vec::new(),
    );
    let text = crate::report::text(&crate::report::Report {
        outcome: &outcome,
        language: "Python",
        seconds: 1.25,
        sandbox: "landlock",
        note: None,
        interrupted: None,
    });
    expect_test::expect![[r#"
        wrong answer on a graph of 6 nodes and 5 edges (after 1104 graphs: 1104 small; every game of 3 to 5 nodes tried; 1.2 s)
          expected: 2 (the cat wins in 7 moves)
          got:      0
          optimal line (mouse,cat): 1,2 → 3,2 → 3,1 → 4,1 → 4,3 → 5,3 → 5,4 → 4,4
          cause, checked on every graph it answered: on 6 nodes it decides games of up to 6 moves and calls longer ones a draw: up to n moves on every size where it was pinned, as a search cut off after a fixed number of turns does
            the game it solves: this graph with a draw once 6 moves are made, where the real game lasts 7 moves
        LeetCode's input: [[2],[2,3],[0,1],[1,4],[3,5],[4]]
        The graph as a .cmg file (`cmg check` verifies its expect line):
        # a graph the solution answers 0 for; the right answer is 2 (the cat wins in 7 moves)
        0 -- 2
        1 -- {2 3}
        3 -- 4
        4 -- 5
        expect cat
        The game it solves, the same graph with the rule its answers fit, as a .cmg file (`cmg solve` gives the answer it gave, and `cmg check` verifies the expect line):
        # the graph above under `rule limit 6`: the game the solution solves, where its answer 0 is right (a draw)
        rule limit 6
        0 -- 2
        1 -- {2 3}
        3 -- 4
        4 -- 5
        expect draw
    "#]].assert_eq(&text);
}
