//! Hover: what a node is and who wins from it, and whether an `expect` holds.
//!
//! A node hover shows the id, label, role and neighbours, then two outcomes: the mouse
//! starting on the node (cat on node 2, mouse to move) with its best first move, and the
//! cat starting on it (mouse on node 1, mouse to move). An `expect` hover shows the
//! solved outcome and whether the expectation matches it (not checked while the file
//! has syntax errors), then why: the top of the
//! strategy tree, which the first line's hover shows as well. A hover on an edge's `--`
//! shows the outcome without that edge, for each edge the statement declares
//! (`explain.rs`). A hover on a `rule` shows the file's game in words and the engine that
//! solves it.

mod explain;

use std::fmt::Write;

use cmg_core::analysis::{
    self, cat_starts_at, describe_position, expected_outcome, game_description, game_line,
    mouse_starts_at, solution_for, start_position, Analysis,
};
use cmg_core::explain::Solved;
use cmg_core::model::{Graph, NodeRole};
use cmg_solve::Solution;
use cmg_syntax::{Expect, TextRange};

pub(crate) use explain::find as find_what_if;

use super::mention_at;

/// Markdown to show for the text at `range`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hover {
    pub range: TextRange,
    pub markdown: String,
}

/// The hover at byte `offset`: on a node mention, on an `expect` statement, between the
/// groups of an edge statement, or on the first line; `None` elsewhere, including offsets
/// past the end of the text. `solved` is the solution with its what-if.
pub fn hover(analysis: &Analysis, solved: Option<&Solved>, offset: u32) -> Option<Hover> {
    if offset as usize > analysis.text.len() {
        return None;
    }
    // A solution of another graph is never shown (its queries could panic on this one).
    let solved = solved
        .filter(|solved| solution_for(&analysis.model.graph, Some(&solved.solution)).is_some());
    let solution = solved.map(|solved| &*solved.solution);
    if let Some(mention) = mention_at(analysis, offset) {
        let index = analysis.model.graph.index_of(mention.id)?;
        return Some(Hover {
            range: mention.range,
            markdown: node_markdown(&analysis.model.graph, solution, index),
        });
    }
    let on_expect = analysis.model.expects.iter().find_map(|expect| {
        let range = [expect.keyword_range, expect.outcome_range]
            .into_iter()
            .find(|range| range.touches(offset))?;
        let mut markdown = expect_markdown(analysis, solution, expect);
        markdown.extend(solved.and_then(|solved| explain::strategy_markdown(analysis, solved)));
        Some(Hover { range, markdown })
    });
    if on_expect.is_some() {
        return on_expect;
    }
    if let Some(hover) = rule_hover(analysis, solution, offset) {
        return Some(hover);
    }
    if let Some(edge) = explain::edge_at(analysis, offset) {
        return Some(Hover {
            range: edge.range,
            markdown: explain::edge_markdown(analysis, solved, edge),
        });
    }
    first_line_hover(analysis, solved, offset)
}

/// On the first line: the outcome and why.
fn first_line_hover(analysis: &Analysis, solved: Option<&Solved>, offset: u32) -> Option<Hover> {
    let range = analysis.line_index.line_range(0)?;
    if !range.touches(offset) {
        return None;
    }
    let solved = solved?;
    let start = start_position(&analysis.model.graph)?;
    let mut markdown = format!("**{}**", describe_position(&solved.solution, start));
    if let Some(game) = game_description(&analysis.model.graph) {
        write!(markdown, "\n\n{}", game_line(&game)).unwrap();
    }
    markdown.extend(explain::strategy_markdown(analysis, solved));
    Some(Hover { range, markdown })
}

/// On a `rule` statement: the rule, the file's game in words and the engine that solves
/// it ("the game: the cat moves first, limit 16"), and its outcome.
fn rule_hover(analysis: &Analysis, solution: Option<&Solution>, offset: u32) -> Option<Hover> {
    let rule = analysis
        .parse
        .file
        .statements
        .iter()
        .find_map(|statement| match &statement.kind {
            cmg_syntax::StatementKind::Rule(rule) if statement.range.touches(offset) => Some(rule),
            _ => None,
        })?;
    let graph = &analysis.model.graph;
    let mut markdown = format!("`{}`", rule.name.usage());
    let game = game_description(graph).unwrap_or_else(|| "LeetCode 913's".to_owned());
    write!(markdown, "\n\n{}", game_line(&game)).unwrap();
    if let (Some(solution), Some(start)) = (solution, start_position(graph)) {
        write!(
            markdown,
            "\n\noutcome: {} (solved by the {} engine)",
            describe_position(solution, start),
            solution.engine().name()
        )
        .unwrap();
    }
    Some(Hover {
        range: rule.range(),
        markdown,
    })
}

fn node_markdown(graph: &Graph, solution: Option<&Solution>, index: u32) -> String {
    let id = graph.id(index);
    let mut markdown = format!("**node {id}**");
    if let Some(label) = graph.label(index) {
        write!(markdown, " \"{}\"", escape_markdown(label)).unwrap();
    }
    let roles: Vec<&str> = graph.roles_of(id).map(NodeRole::name).collect();
    if !roles.is_empty() {
        write!(markdown, " · {}", roles.join(", ")).unwrap();
    }
    let neighbours = graph.neighbours(index);
    if neighbours.is_empty() {
        markdown.push_str("\n\nneighbours: none");
    } else {
        let ids: Vec<String> = neighbours
            .iter()
            .map(|&n| graph.id(n).to_string())
            .collect();
        write!(markdown, "\n\nneighbours: {}", ids.join(", ")).unwrap();
    }
    let one_way: Vec<String> = graph
        .arcs_out(index)
        .iter()
        .map(|&n| graph.id(n).to_string())
        .collect();
    if !one_way.is_empty() {
        write!(markdown, "\n\none-way to: {}", one_way.join(", ")).unwrap();
    }
    markdown.push_str("\n\n");
    match solution {
        Some(solution) => {
            write!(
                markdown,
                "- mouse starts here: {}\n- cat starts here: {}",
                mouse_start_outcome(graph, solution, index),
                cat_start_outcome(graph, solution, index),
            )
            .unwrap();
        }
        None if start_position(graph).is_none() => {
            let rules = graph.rules();
            write!(
                markdown,
                "outcome not computed: the game needs node {} and node {}",
                rules.mouse_start, rules.cat_start
            )
            .unwrap();
        }
        None => markdown.push_str("outcome not computed"),
    }
    markdown
}

/// `text` with the characters that markdown would read as markup escaped, so that a
/// label such as `*start*` shows as written.
fn escape_markdown(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(
            c,
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '#' | '|' | '~' | '!'
        ) {
            escaped.push('\\');
        }
        escaped.push(c);
    }
    escaped
}

/// The outcome with the mouse on the node at `index` instead of node 1.
fn mouse_start_outcome(graph: &Graph, solution: &Solution, index: u32) -> String {
    let Some(position) = mouse_starts_at(graph, index) else {
        return "no game".to_owned();
    };
    if solution.is_terminal(position) {
        // The only terminal starts are the hole and the cat's own node; "wins in 0" would
        // read like a bug, so say what happens instead.
        return if position.mouse == position.cat {
            "the cat is already there: cat wins".to_owned()
        } else {
            "the mouse is already in the hole: mouse wins".to_owned()
        };
    }
    let outcome = format!("**{}**", describe_position(solution, position));
    match solution.best_move(position) {
        Some(next) => format!("{outcome}, best first move to node {}", graph.id(next)),
        None => format!("{outcome}, the mouse has no move"),
    }
}

/// The outcome with the cat on the node at `index` instead of its start.
fn cat_start_outcome(graph: &Graph, solution: &Solution, index: u32) -> String {
    let Some(position) = cat_starts_at(graph, index) else {
        return "no game".to_owned();
    };
    // The standard engines leave out the positions with the cat on the hole; the general
    // one plays them (the cat may enter the holes, or start on one).
    if graph.is_hole(index) && solution.engine() == cmg_solve::EngineKind::Standard {
        return "not possible: the cat may never stand on the hole".to_owned();
    }
    if solution.is_terminal(position) {
        return "the mouse is already there: cat wins".to_owned();
    }
    format!("**{}**", describe_position(solution, position))
}

fn expect_markdown(analysis: &Analysis, solution: Option<&Solution>, expect: &Expect) -> String {
    let keyword = expect.outcome.keyword();
    let mut markdown = format!("**expect {keyword}**\n\n");
    let solved = solution.zip(start_position(&analysis.model.graph));
    let Some((solution, start)) = solved else {
        markdown.push_str("solved outcome: not computed");
        return markdown;
    };
    let outcome = solution.outcome(start);
    if !analysis.checks_expects() {
        // The outcome of the statements that parsed is not the file's: saying that it
        // does not match would invite the wrong fix.
        write!(
            markdown,
            "outcome of the statements that parsed: **{}**\n\nnot checked until the file parses",
            describe_position(solution, start)
        )
        .unwrap();
        return markdown;
    }
    write!(
        markdown,
        "solved outcome: **{}**\n\n",
        describe_position(solution, start)
    )
    .unwrap();
    if expected_outcome(expect.outcome) == outcome {
        markdown.push_str("✓ matches");
    } else {
        write!(
            markdown,
            "✗ does not match: the solved outcome is `expect {}`",
            analysis::outcome_keyword(outcome)
        )
        .unwrap();
    }
    markdown
}

#[cfg(test)]
mod tests;
