//! `cmg dot`: the graph in Graphviz DOT, each node coloured by who wins if the mouse starts there.

use std::fmt::Write as _;
use std::process::ExitCode;

use super::input::{read_source, Source};
use super::render::{self, SourceView};
use super::CliResult;
use cmg_core::analysis::{mouse_starts_at, Analysis};
use cmg_core::model::{Code, Graph, NodeRole};
use cmg_solve::Solution;

pub fn run(path: &str) -> CliResult {
    let source = read_source(path)?;
    // Only the errors of reading the file stop it: the checks are not built.
    let analysis = Analysis::without_checks(source.text.as_str());
    if refuse_syntax_errors(&source, &analysis, "drawn")
        || refuse_truncated_graph(&source, &analysis, "drawn")
    {
        return Ok(ExitCode::FAILURE);
    }
    let solution = match super::solve::solve_within(&analysis, super::solve::default_max_memory()) {
        Ok(solution) => Some(solution),
        Err(reason) => {
            // Say why the nodes are not coloured rather than dropping the colours quietly.
            eprintln!(
                "cmg: {}: nodes not coloured: {reason}",
                super::render::visible(&source.name)
            );
            None
        }
    };
    let text = to_dot(&analysis.model.graph, solution.as_ref());
    super::output::print(&text);
    Ok(ExitCode::SUCCESS)
}

/// Shows `too-many-edges` and says the file was not `done` ("drawn", "exported"): its
/// graph holds only the edges before the limit, and drawing or exporting that would
/// pass off a different graph as the file's.
pub(super) fn refuse_truncated_graph(source: &Source, analysis: &Analysis, done: &str) -> bool {
    refuse(
        source,
        analysis,
        &[Code::TooManyEdges],
        &format!("not {done}, since the file declares more edges than cmg takes"),
    )
}

/// Shows the syntax errors of a file and says it was not `done` ("formatted",
/// "drawn"): rustfmt, ruff and taplo leave a file they cannot read alone, too.
pub(super) fn refuse_syntax_errors(source: &Source, analysis: &Analysis, done: &str) -> bool {
    refuse(
        source,
        analysis,
        &[Code::Syntax, Code::NumberTooLarge],
        &format!(
            "not {done}, since part of the file could not be read: fix the syntax errors first"
        ),
    )
}

/// Shows the file's diagnostics with one of `codes` and `why` the command stops, if it
/// has any.
fn refuse(source: &Source, analysis: &Analysis, codes: &[Code], why: &str) -> bool {
    let mut errors: Vec<_> = analysis
        .model
        .diagnostics
        .iter()
        .filter(|d| codes.contains(&d.code))
        .cloned()
        .collect();
    errors.sort_by_key(|d| d.range.start);
    if errors.is_empty() {
        return false;
    }
    render::emit(
        &mut render::stderr(),
        true,
        &SourceView::new(source, analysis),
        &errors,
        render::DEFAULT_MAX_DIAGNOSTICS,
    );
    eprintln!("cmg: {}: {why}", super::render::visible(&source.name));
    true
}

pub fn to_dot(graph: &Graph, solution: Option<&Solution>) -> String {
    let mut dot = String::from("graph cmg {\n");
    dot.push_str(
        "  // Fill: who wins if the mouse starts on the node (cat on node 2, mouse to move).\n",
    );
    dot.push_str(
        "  // Blue: mouse, orange: cat, grey: draw. The hole is a double circle, the mouse's\n",
    );
    dot.push_str(
        "  // start a box and the cat's a diamond, each named inside, as in `cmg view`.\n",
    );
    if let Some(game) = cmg_core::analysis::game_description(graph) {
        // Where the rules say so, the starts, the holes and the first player are the
        // file's, and a one-way edge is drawn with its arrow.
        let _ = writeln!(dot, "  // The game: {game}.");
    }
    dot.push_str("  node [style=filled, fillcolor=white];\n");
    for index in 0..graph.node_count() as u32 {
        let id = graph.id(index);
        let role = graph.role_of(id);
        let mut label = id.to_string();
        // The role's word inside the node, where no layout can float it away.
        match role {
            Some(NodeRole::MouseStart) => label.push_str("\\nmouse"),
            Some(NodeRole::CatStart) => label.push_str("\\ncat"),
            _ => {}
        }
        if let Some(text) = graph.label(index) {
            label.push_str("\\n");
            label.push_str(&text.replace('\\', "\\\\").replace('"', "\\\""));
        }
        let mut attributes = vec![format!("label=\"{label}\"")];
        if let Some(outcome) =
            solution.and_then(|s| Some(s.outcome(mouse_starts_at(graph, index)?)))
        {
            let colour = cmg_ide::view::svg::outcome_colour(outcome);
            attributes.push(format!("fillcolor=\"{colour}\""));
        }
        match role {
            Some(NodeRole::Hole) => attributes.push("shape=doublecircle".to_owned()),
            Some(NodeRole::MouseStart) => attributes.push("shape=box".to_owned()),
            Some(NodeRole::CatStart) => attributes.push("shape=diamond".to_owned()),
            None => {}
        }
        let _ = writeln!(dot, "  {id} [{}];", attributes.join(", "));
    }
    for a in 0..graph.node_count() as u32 {
        for &b in graph.neighbours(a).iter().filter(|&&b| b > a) {
            let _ = writeln!(dot, "  {} -- {};", graph.id(a), graph.id(b));
        }
        for &b in graph.arcs_out(a) {
            let _ = writeln!(dot, "  {} -- {} [dir=forward];", graph.id(a), graph.id(b));
        }
    }
    dot.push_str("}\n");
    dot
}
