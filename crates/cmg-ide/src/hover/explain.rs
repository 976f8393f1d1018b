//! The hover's explanations: the top of the strategy tree (on the first line and on `expect`), and the what-if of the edges a statement declares (on its `--`).

use std::fmt::Write;

use cmg_core::analysis::{describe, start_position, Analysis};
use cmg_core::explain::{describe_after, describe_move, describe_what_if, strategy_title, Solved};
use cmg_core::model::{EdgeDecl, EdgeOrigin};
use cmg_solve::{strategy_players, Continuation, EdgeOutcome};

/// The tree's depth in a hover: the first move, the replies, the answers.
const HOVER_DEPTH: u32 = 3;

/// The most tree lines a hover shows per strategy.
const HOVER_LINES: usize = 12;

/// The most edges one hover lists (a group product can declare thousands).
const HOVER_EDGES: usize = 20;

/// The top of the strategy tree of the start, as nested markdown lists: the strategist's
/// move, the replies beneath it, the answers beneath them.
pub(super) fn strategy_markdown(analysis: &Analysis, solved: &Solved) -> Option<String> {
    let graph = &analysis.model.graph;
    let start = start_position(graph)?;
    let solution = &solved.solution;
    let mut markdown = String::new();
    for &player in strategy_players(solution.outcome(start)) {
        let tree = solution.strategy_tree(player, start, HOVER_DEPTH, HOVER_LINES);
        write!(
            markdown,
            "\n\n**why**: {}\n",
            strategy_title(solution, player, start)
        )
        .unwrap();
        for line in &tree.lines {
            let indent = "  ".repeat(line.depth as usize);
            let more = match line.next {
                Continuation::Folded => " …",
                Continuation::Repeat(_) => ", repeats",
                _ => "",
            };
            write!(
                markdown,
                "\n{indent}- `{}`: {}{more}",
                describe_move(graph, line),
                describe_after(solution, line)
            )
            .unwrap();
        }
        if tree.truncated {
            markdown.push_str("\n- …");
        }
    }
    markdown.push_str("\n\n`cmg solve --strategy` prints the whole tree.");
    Some(markdown)
}

/// The what-if of every edge `edge` declares, or why it is not known.
pub(super) fn edge_markdown(
    analysis: &Analysis,
    solved: Option<&Solved>,
    edge: &EdgeDecl,
) -> String {
    let model = &analysis.model;
    let graph = &model.graph;
    let pairs: Vec<(u32, u32)> = model.pairs(edge).map(|pair| (pair.a, pair.b)).collect();
    let mut markdown = match pairs.as_slice() {
        [(a, b)] => format!("**edge {a} -- {b}**"),
        _ => format!("**{} edges**", pairs.len()),
    };
    let Some(solved) = solved else {
        markdown.push_str("\n\nwhat-if: not computed");
        return markdown;
    };
    let Some(what_if) = solved.what_if.computed() else {
        let missing = solved.what_if.missing().unwrap_or_default();
        write!(markdown, "\n\nwhat-if: {missing}").unwrap();
        return markdown;
    };
    let solution = &solved.solution;
    let now = solution.outcome(what_if.start);
    let now_moves = solution.moves_to_end(what_if.start);
    for &(a, b) in pairs.iter().take(HOVER_EDGES) {
        let outcome = graph
            .index_of(a)
            .zip(graph.index_of(b))
            .and_then(|key| find(&what_if.edges, key));
        let text = match outcome {
            Some(outcome) => {
                let critical = if outcome.critical {
                    " · **critical**"
                } else {
                    ""
                };
                format!(
                    "{}{critical}",
                    describe_what_if(graph, outcome, now, now_moves)
                )
            }
            None if a == b => format!("{a} -- {b}: a self-loop, not a move"),
            None => format!("{a} -- {b}: not an edge of the game"),
        };
        write!(markdown, "\n\n{text}").unwrap();
    }
    if pairs.len() > HOVER_EDGES {
        write!(
            markdown,
            "\n\n… and {} more (`cmg solve --what-if` lists every edge; now: {})",
            pairs.len() - HOVER_EDGES,
            describe(now, now_moves)
        )
        .unwrap();
    }
    markdown
}

/// The what-if of the edge between dense indices `a` and `b`, in either order; the list is
/// sorted.
pub(crate) fn find(edges: &[EdgeOutcome], (a, b): (u32, u32)) -> Option<&EdgeOutcome> {
    // The what-if lists each pair smaller index first, whichever way an edge goes.
    let key = (a.min(b), a.max(b));
    edges
        .binary_search_by_key(&key, |edge| edge.edge)
        .ok()
        .map(|i| &edges[i])
}

/// The chain edge declaration whose range holds `offset`: a hover between its two groups
/// (on the `--`) is about the edges it declares.
pub(super) fn edge_at(analysis: &Analysis, offset: u32) -> Option<&EdgeDecl> {
    analysis
        .model
        .edges
        .iter()
        .find(|edge| edge.origin == EdgeOrigin::Chain && edge.range.touches(offset))
}
