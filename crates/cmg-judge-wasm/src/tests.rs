//! The interface driven as the page drives it, with a right and a wrong solution
//! answering every request.

use super::*;

/// Runs a session to its report, answering every graph with `answer`.
fn drive(settings: Value, answer: impl Fn(&[Vec<u32>]) -> Value) -> (Value, usize) {
    let mut session = Session::start(&settings).expect("settings");
    let mut answers = json!([]);
    let mut restarts = 0;
    loop {
        let step = session.resume(&answers).expect("a step");
        assert!(step["progress"]["phase"].is_string());
        match step["ask"].as_str() {
            Some("answers") => {
                let graphs: Vec<Vec<Vec<u32>>> =
                    serde_json::from_value(step["graphs"].clone()).expect("graphs");
                answers = Value::Array(graphs.iter().map(|graph| answer(graph)).collect());
            }
            Some("restart") => {
                restarts += 1;
                answers = json!([]);
            }
            _ => return (step, restarts),
        }
    }
}

fn right(graph: &[Vec<u32>]) -> Value {
    json!({ "value": cmg_judge::expected(graph).0.to_string() })
}

#[test]
fn a_right_solution_gets_the_command_lines_report_after_its_graphs() {
    let (step, restarts) = drive(
        json!({ "seconds": 600, "graphs": 500, "seed": 3, "language": "JavaScript" }),
        right,
    );
    let done = &step["done"];
    assert_eq!(done["verdict"], "no-counterexample");
    assert_eq!(done["checked"]["small"], 500);
    assert_eq!(done["sandbox"], "worker");
    assert_eq!(restarts, 0);
    let text = step["text"].as_str().expect("text");
    assert!(
        text.starts_with(
            "no counterexample: the JavaScript solution answered all 500 graphs right"
        ),
        "{text}"
    );
    assert!(step["cmg"].is_null());
}

#[test]
fn a_crash_on_four_nodes_is_reported_with_its_message_and_graph() {
    let crashing = |graph: &[Vec<u32>]| {
        if graph.len() >= 4 {
            json!({ "crashed": "TypeError: x is undefined" })
        } else {
            right(graph)
        }
    };
    let (step, restarts) = drive(json!({ "seconds": 600 }), crashing);
    let done = &step["done"];
    assert_eq!(done["verdict"], "runtime-error");
    assert_eq!(done["graph"].as_array().map(Vec::len), Some(4));
    assert_eq!(done["error"], "TypeError: x is undefined");
    assert_eq!(done["reproduced"], true);
    assert!(restarts >= 1);
    let cmg = step["cmg"].as_str().expect("the graph as a .cmg file");
    assert!(cmg.contains("expect "), "{cmg}");
}

#[test]
fn bad_settings_and_answers_are_refused_with_a_message() {
    for (settings, message) in [
        (json!({}), "seconds is required"),
        (
            json!({ "seconds": 0 }),
            "seconds must be a number of seconds above 0",
        ),
        (
            json!({ "seconds": 5, "shrinkSeconds": -1 }),
            "shrinkSeconds must be a number of seconds from 0",
        ),
        (
            json!({ "seconds": 5, "graphs": 0 }),
            "graphs must be a whole number",
        ),
        (
            json!({ "seconds": 5, "seed": -1 }),
            "seed must be a whole number",
        ),
    ] {
        let error = Session::start(&settings).err().expect("refused");
        assert!(error.starts_with(message), "{error}");
    }
    // No shrinking at all, as `--shrink-seconds 0` on the command line.
    Session::start(&json!({ "seconds": 5, "shrinkSeconds": 0 })).expect("0 is taken");
    let mut session = Session::start(&json!({ "seconds": 5 })).expect("settings");
    session.resume(&json!([])).expect("a first step");
    let error = session
        .resume(&json!([{ "maybe": 1 }]))
        .expect_err("refused");
    assert!(error.starts_with("answer 0: not one of"), "{error}");
    assert!(session.resume(&json!({})).is_err());
}

#[test]
fn the_stop_button_ends_the_run_with_the_report_so_far() {
    let mut session = Session::start(&json!({ "seconds": 600 })).expect("settings");
    let step = session.resume(&json!([])).expect("a step");
    assert_eq!(step["ask"], "answers");
    session.stop();
    let step = session
        .resume(&json!([{ "interrupted": true }]))
        .expect("a step");
    assert_eq!(step["done"]["verdict"], "no-counterexample");
    assert_eq!(step["done"]["interrupted"], true);
    assert!(step["text"]
        .as_str()
        .is_some_and(|text| text.contains("interrupted by the stop button")));
}
