//! `cmg dot`: the graph in Graphviz DOT, each node coloured by who wins if the mouse starts there.

use std::fmt::Write as _;
use std::io::Write;
use std::process::ExitCode;

use super::input::read_source;
use super::CliResult;
use crate::analysis::{mouse_starts_at, Analysis, SolveLimits, SolvePlan};
use crate::model::{Graph, NodeRole};
use crate::solve::{solve, Outcome, Solution};

pub fn run(path: &str) -> CliResult {
    let source = read_source(path)?;
    let analysis = Analysis::new(&source.text);
    let solution = match analysis.solve_plan(SolveLimits::default()) {
        SolvePlan::Solve(game) => Some(solve(&game)),
        SolvePlan::NoGame | SolvePlan::TooLarge(_) => None,
    };
    let text = to_dot(&analysis.model.graph, solution.as_ref());
    let _ = std::io::stdout().write_all(text.as_bytes());
    Ok(ExitCode::SUCCESS)
}

pub fn to_dot(graph: &Graph, solution: Option<&Solution>) -> String {
    let mut dot = String::from("graph cmg {\n");
    dot.push_str(
        "  // Fill: who wins if the mouse starts on the node (cat on node 2, mouse to move).\n",
    );
    dot.push_str("  // Green: mouse, red: cat, grey: draw. The hole is a double circle.\n");
    dot.push_str("  node [style=filled, fillcolor=white];\n");
    for index in 0..graph.node_count() as u32 {
        let id = graph.id(index);
        let mut label = id.to_string();
        if let Some(text) = graph.label(index) {
            label.push_str("\\n");
            label.push_str(&text.replace('\\', "\\\\").replace('"', "\\\""));
        }
        let mut attributes = vec![format!("label=\"{label}\"")];
        if let Some(outcome) =
            solution.and_then(|s| Some(s.outcome(mouse_starts_at(graph, index)?)))
        {
            let colour = match outcome {
                Outcome::MouseWins => "#a8dba8",
                Outcome::CatWins => "#f4a6a6",
                Outcome::Draw => "#d9d9d9",
            };
            attributes.push(format!("fillcolor=\"{colour}\""));
        }
        match NodeRole::of(id) {
            Some(NodeRole::Hole) => attributes.push("shape=doublecircle".to_owned()),
            Some(NodeRole::MouseStart) => attributes.push("xlabel=\"mouse\"".to_owned()),
            Some(NodeRole::CatStart) => attributes.push("xlabel=\"cat\"".to_owned()),
            None => {}
        }
        let _ = writeln!(dot, "  {id} [{}];", attributes.join(", "));
    }
    for a in 0..graph.node_count() as u32 {
        for &b in graph.neighbours(a).iter().filter(|&&b| b > a) {
            let _ = writeln!(dot, "  {} -- {};", graph.id(a), graph.id(b));
        }
    }
    dot.push_str("}\n");
    dot
}
