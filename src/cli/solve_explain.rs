//! `cmg solve --strategy` and `--what-if`: the strategy tree and the outcome without each edge, as text and as JSON fields.

use std::fmt::Write as _;
use std::sync::atomic::AtomicBool;

use serde_json::{json, Value};

use cmg_core::analysis::outcome_keyword;
use cmg_core::explain::{
    describe_after, describe_move, describe_what_if, explain_solution, player_name, strategy_title,
    WhatIfBudget, WhatIfState, STRATEGY_MAX_POSITIONS,
};
use cmg_core::model::Graph;
use cmg_solve::{strategy_players, Continuation, Position, Solution};

/// The tree's depth in moves when `--depth` is not given.
const DEFAULT_DEPTH: u32 = 6;

/// The most lines one tree prints, whatever `--depth` says; the output says when it stopped.
const MAX_TREE_LINES: usize = 10_000;

// The options of `cmg solve` that explain the outcome. (A plain comment, not a doc
// comment, which would replace `cmg solve`'s own `about`: see `Command` in `mod.rs`.)
#[derive(Debug, Default, clap::Args)]
pub struct ExplainOptions {
    /// Also print each strategy that explains the outcome, as a tree: the winner's move at
    /// each position, every reply beneath it, best first (for a draw, one tree per player).
    #[arg(long)]
    strategy: bool,
    /// How many moves deep the strategy tree goes before it folds: a number, or `all`.
    #[arg(long, value_name = "N|all", value_parser = parse_depth, requires = "strategy")]
    depth: Option<u32>,
    /// Also print the start's outcome without each edge, critical edges marked.
    #[arg(long)]
    what_if: bool,
}

fn parse_depth(text: &str) -> Result<u32, String> {
    if text == "all" {
        return Ok(u32::MAX);
    }
    match text.parse::<u32>() {
        Ok(depth) if depth > 0 => Ok(depth),
        _ => Err(format!(
            "`{text}` is not a depth: give a number from 1, or `all`"
        )),
    }
}

impl ExplainOptions {
    /// Adds `"strategies"` and `"what_if"` (with `"what_if_reason"` when it is not computed).
    pub fn add_json(
        &self,
        object: &mut Value,
        graph: &Graph,
        solution: &Solution,
        start: Position,
    ) {
        if self.strategy {
            let strategies: Vec<Value> = solution
                .strategies(start, STRATEGY_MAX_POSITIONS)
                .iter()
                .map(|strategy| {
                    // Under a turn limit the move depends on the moves left: a fourth number.
                    let moves: Vec<Vec<u32>> = strategy
                        .moves
                        .iter()
                        .map(|step| {
                            let pos = step.position;
                            let mut entry =
                                vec![graph.id(pos.mouse), graph.id(pos.cat), graph.id(step.to)];
                            entry.extend(step.moves_left);
                            entry
                        })
                        .collect();
                    json!({
                        "player": player_name(strategy.player),
                        "moves": moves,
                        "complete": strategy.complete,
                    })
                })
                .collect();
            object["strategies"] = Value::from(strategies);
        }
        if self.what_if {
            let state = what_if_state(solution, start);
            match state.computed() {
                Some(what_if) => {
                    let edges: Vec<Value> = what_if
                        .edges
                        .iter()
                        .map(|edge| {
                            json!({
                                "edge": [graph.id(edge.edge.0), graph.id(edge.edge.1)],
                                "outcome": outcome_keyword(edge.outcome),
                                "moves": edge.moves,
                                "critical": edge.critical,
                            })
                        })
                        .collect();
                    object["what_if"] = Value::from(edges);
                }
                None => {
                    object["what_if"] = Value::Null;
                    object["what_if_reason"] = Value::from(state.missing().unwrap_or_default());
                }
            }
        }
    }

    /// Appends the strategy trees and the what-if list to the text output.
    pub fn add_text(&self, out: &mut String, graph: &Graph, solution: &Solution, start: Position) {
        if self.strategy {
            let depth = self.depth.unwrap_or(DEFAULT_DEPTH);
            for &player in strategy_players(solution.outcome(start)) {
                write_tree(out, graph, solution, player, start, depth);
            }
        }
        if self.what_if {
            write_what_if(out, graph, solution, start);
        }
    }
}

fn what_if_state(solution: &Solution, start: Position) -> WhatIfState {
    // Nothing cancels a command-line run; the flag is there for the server's solves.
    explain_solution(
        solution,
        Some(start),
        WhatIfBudget::CommandLine,
        &AtomicBool::new(false),
    )
    .expect("a what-if that is never cancelled always finishes")
}

fn write_tree(
    out: &mut String,
    graph: &Graph,
    solution: &Solution,
    player: cmg_solve::Player,
    start: Position,
    depth: u32,
) {
    let tree = solution.strategy_tree(player, start, depth, MAX_TREE_LINES);
    let _ = writeln!(
        out,
        "\n{}; its move at each position, every reply beneath it, best first:",
        strategy_title(solution, player, start)
    );
    let moves: Vec<String> = tree
        .lines
        .iter()
        .map(|line| {
            format!(
                "{}{}",
                "  ".repeat(line.depth.min(200) as usize),
                describe_move(graph, line)
            )
        })
        .collect();
    let width = moves.iter().map(String::len).max().unwrap_or(0).min(60);
    let number_width = tree.lines.len().to_string().len();
    let mut folded = false;
    for (index, (line, shown)) in tree.lines.iter().zip(&moves).enumerate() {
        let after = describe_after(solution, line);
        let note = match line.next {
            Continuation::Repeat(Some(at)) => format!("{after}, as at line {}", at + 1),
            Continuation::Repeat(None) => format!("{after}, back to the start"),
            Continuation::Folded => {
                folded = true;
                format!("{after} …")
            }
            Continuation::Expanded
            | Continuation::Terminal
            | Continuation::Stuck
            | Continuation::Limit => after,
        };
        let _ = writeln!(out, "{:>number_width$}  {shown:<width$}  {note}", index + 1);
    }
    if tree.truncated {
        let _ = writeln!(out, "(stopped after {MAX_TREE_LINES} lines)");
    } else if folded {
        let _ = writeln!(
            out,
            "(… folded at depth {depth}: --depth N or --depth all shows more)"
        );
    }
}

fn write_what_if(out: &mut String, graph: &Graph, solution: &Solution, start: Position) {
    let state = what_if_state(solution, start);
    let Some(what_if) = state.computed() else {
        let missing = state.missing().unwrap_or_default();
        let _ = writeln!(out, "\nwhat-if per edge: {missing}");
        return;
    };
    let _ = writeln!(
        out,
        "\nwithout each edge (* critical: removing it changes the result):"
    );
    let now = solution.outcome(start);
    let now_moves = solution.moves_to_end(start);
    for edge in &what_if.edges {
        let mark = if edge.critical { '*' } else { ' ' };
        let _ = writeln!(
            out,
            "  {mark} {}",
            describe_what_if(graph, edge, now, now_moves)
        );
    }
}
