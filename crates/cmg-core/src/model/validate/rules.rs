//! The checks of the game a file's rules and one-way edges make: a start that ends the game,
//! one-way self-loops and repeats, and players who come where they cannot move.

use std::collections::HashMap;

use cmg_solve::Player;

use super::{first_mention_range, Reach};
use crate::model::{Diagnostic, DiagnosticKind, EdgeOrigin, Model, RuleArgument};

/// The mouse starting on a hole or on the cat: the game is over before its first move.
pub(super) fn start_ends_game(model: &Model) -> Option<Diagnostic> {
    let graph = &model.graph;
    let rules = graph.rules();
    let mouse = graph.mouse_start()?;
    let on_cat = rules.mouse_start == rules.cat_start;
    if !on_cat && !graph.is_hole(mouse) {
        return None;
    }
    let at = rules
        .argument_range(RuleArgument::MouseStart)
        .or_else(|| rules.argument_range(RuleArgument::Hole(rules.mouse_start)))
        .unwrap_or_else(|| first_mention_range(model, rules.mouse_start));
    Some(Diagnostic::new(
        at,
        DiagnosticKind::StartEndsGame { on_cat },
    ))
}

/// One-way edges: a self-loop (`3 -> 3`) is no move (`self-loop`); one that repeats an edge
/// (`1 -- 2` and `1 -> 2`) adds nothing (`arc-duplicates-edge`); one declared twice is a
/// `duplicate-edge`, pointing at the first.
pub(super) fn arc_checks(model: &Model, diagnostics: &mut Vec<Diagnostic>) {
    let graph = &model.graph;
    let mut first: HashMap<(u32, u32), cmg_syntax::TextRange> = HashMap::new();
    for edge in model.edges.iter().filter(|e| e.origin == EdgeOrigin::Arc) {
        for pair in model.pairs(edge) {
            let (a, b) = (pair.a, pair.b);
            if a == b {
                diagnostics.push(Diagnostic::new(
                    pair.range,
                    DiagnosticKind::SelfLoop { node: a },
                ));
                continue;
            }
            let joined = match (graph.index_of(a), graph.index_of(b)) {
                (Some(x), Some(y)) => graph.neighbours(x).binary_search(&y).is_ok(),
                _ => false,
            };
            if joined {
                diagnostics.push(Diagnostic::new(
                    pair.range,
                    DiagnosticKind::ArcDuplicatesEdge { a, b },
                ));
                continue;
            }
            if let Some(&at) = first.get(&(a, b)) {
                let mut duplicate = Diagnostic::new(
                    pair.range,
                    DiagnosticKind::DuplicateEdge {
                        a,
                        b,
                        first: cmg_syntax::TextRange::default(),
                    },
                );
                duplicate.set_first_declared(at);
                diagnostics.push(duplicate);
            } else {
                first.insert((a, b), pair.range);
            }
        }
    }
}

/// The nodes a player can come to and never move on from: a node the mouse can reach with
/// no move out, a node the cat can reach whose moves all lead into holes it may not enter.
/// The starts have their own codes (`mouse-stuck`, `cat-stuck`), and the holes end the game
/// before anyone moves; in LeetCode 913's game no other node can be such a place (an edge
/// that leads to a node leads back), so this speaks only of games with one-way edges.
pub(super) fn no_moves(model: &Model, reach: &Reach) -> Vec<Diagnostic> {
    let graph = &model.graph;
    if !graph.has_arcs() {
        return Vec::new();
    }
    let Some(by_either) = &reach.by_either else {
        return Vec::new();
    };
    let starts = [graph.mouse_start(), graph.cat_start()];
    let mut found = Vec::new();
    for index in 0..graph.node_count() as u32 {
        if !by_either[index as usize] || starts.contains(&Some(index)) {
            continue;
        }
        // On a hole the mouse has won; only a cat that may enter it must move on.
        let hole = graph.is_hole(index);
        if hole && !graph.rules().cat_enters_holes {
            continue;
        }
        // `None`: no move out at all, so neither player can move on.
        let player = if graph.moves(index).next().is_none() && !hole {
            None
        } else if !graph.moves(index).any(|next| graph.cat_may_enter(next)) {
            Some(Player::Cat)
        } else {
            continue;
        };
        let id = graph.id(index);
        found.push(Diagnostic::new(
            first_mention_range(model, id),
            DiagnosticKind::NoMove { id, player },
        ));
    }
    found
}
