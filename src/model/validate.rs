//! The checks of a model that need no solving, one function per check.

use std::collections::{HashMap, HashSet};

use crate::syntax::{LineIndex, Parse, TextRange};

use super::{Code, Diagnostic, EdgeOrigin, Graph, Model};

pub(super) fn validate(text: &str, parse: &Parse, model: &Model) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    diagnostics.extend(self_loops(model));
    diagnostics.extend(duplicate_edges(model));
    diagnostics.extend(one_sided_edges(model));
    diagnostics.extend(duplicate_labels(model));
    diagnostics.extend(duplicate_expects(model));
    let file_start = file_start(text, parse);
    diagnostics.extend(missing_mouse(model, file_start));
    diagnostics.extend(missing_cat(model, file_start));
    diagnostics.extend(missing_hole(model, file_start));
    diagnostics.extend(mouse_stuck(model));
    diagnostics.extend(cat_stuck(model));
    diagnostics.extend(hole_unreachable(model));
    diagnostics.extend(unreachable_nodes(model));
    diagnostics
}

/// Where to point when the whole file is at fault: its first statement, or its first
/// line when it has none.
fn file_start(text: &str, parse: &Parse) -> TextRange {
    parse
        .chunks
        .first()
        .map(|chunk| chunk.range)
        .unwrap_or_else(|| {
            LineIndex::new(text)
                .line_content(text, 0)
                .unwrap_or_default()
        })
}

fn self_loops(model: &Model) -> Vec<Diagnostic> {
    model
        .edges
        .iter()
        .filter(|edge| edge.is_self_loop())
        .map(|edge| {
            Diagnostic::new(
                Code::SelfLoop,
                edge.range,
                format!(
                    "node {} is joined to itself; a move must go to another node, so this edge is ignored: remove it",
                    edge.a
                ),
            )
        })
        .collect()
}

/// An edge declared twice. In an adjacency literal every edge is normally listed on
/// both sides; that mirror listing is the same declaration, not a duplicate.
fn duplicate_edges(model: &Model) -> Vec<Diagnostic> {
    let mut first_declared: HashMap<(u32, u32), TextRange> = HashMap::new();
    let mut listed: HashSet<(usize, u32, u32)> = HashSet::new();
    let mut diagnostics = Vec::new();
    for edge in model.edges.iter().filter(|edge| !edge.is_self_loop()) {
        let is_mirror = edge.origin == EdgeOrigin::Listed
            && listed.contains(&(edge.statement, edge.b, edge.a))
            && !listed.contains(&(edge.statement, edge.a, edge.b));
        if edge.origin == EdgeOrigin::Listed {
            listed.insert((edge.statement, edge.a, edge.b));
        }
        match first_declared.get(&edge.key()) {
            None => {
                first_declared.insert(edge.key(), edge.range);
            }
            Some(_) if is_mirror => {}
            Some(&first) => diagnostics.push(
                Diagnostic::new(
                    Code::DuplicateEdge,
                    edge.range,
                    format!(
                        "the edge {} -- {} is declared again; it counts once, so this one can go",
                        edge.a, edge.b
                    ),
                )
                .with_related(first, "first declared here"),
            ),
        }
    }
    diagnostics
}

/// In an adjacency literal, `i` lists `j` but `j` does not list `i`.
fn one_sided_edges(model: &Model) -> Vec<Diagnostic> {
    let listed: HashSet<(usize, u32, u32)> = model
        .edges
        .iter()
        .filter(|edge| edge.origin == EdgeOrigin::Listed)
        .map(|edge| (edge.statement, edge.a, edge.b))
        .collect();
    let has_list: HashSet<(usize, u32)> = model
        .mentions
        .iter()
        .filter(|mention| mention.kind == super::MentionKind::ListIndex)
        .map(|mention| (mention.statement, mention.id))
        .collect();
    model
        .edges
        .iter()
        .filter(|edge| edge.origin == EdgeOrigin::Listed && !edge.is_self_loop())
        .filter(|edge| !listed.contains(&(edge.statement, edge.b, edge.a)))
        .map(|edge| {
            let (a, b) = (edge.a, edge.b);
            let message = if has_list.contains(&(edge.statement, b)) {
                format!("node {a} lists {b}, but list {b} does not list {a}; the edge counts both ways: add {a} to list {b}")
            } else {
                format!("node {a} lists {b}, but this literal has no list {b}; the edge counts both ways")
            };
            Diagnostic::new(Code::OneSidedEdge, edge.range, message)
        })
        .collect()
}

fn duplicate_labels(model: &Model) -> Vec<Diagnostic> {
    let mut first: HashMap<u32, &crate::syntax::Label> = HashMap::new();
    let mut diagnostics = Vec::new();
    for (id, label) in &model.labels {
        match first.get(id) {
            None => {
                first.insert(*id, label);
            }
            Some(earlier) if earlier.value == label.value => {}
            Some(earlier) => diagnostics.push(
                Diagnostic::new(
                    Code::DuplicateLabel,
                    label.range,
                    format!(
                        "node {id} already has the label {:?}; the first label is kept, so remove or change one",
                        earlier.value
                    ),
                )
                .with_related(earlier.range, "first labelled here"),
            ),
        }
    }
    diagnostics
}

fn duplicate_expects(model: &Model) -> Vec<Diagnostic> {
    let Some((first, rest)) = model.expects.split_first() else {
        return Vec::new();
    };
    let first_range = first.range();
    rest.iter()
        .map(|expect| {
            Diagnostic::new(
                Code::DuplicateExpect,
                expect.range(),
                "`expect` is given more than once; each one is checked, so keep one",
            )
            .with_related(first_range, "first given here")
        })
        .collect()
}

fn missing_mouse(model: &Model, file_start: TextRange) -> Option<Diagnostic> {
    (!model.graph.contains(1)).then(|| {
        Diagnostic::new(
            Code::MissingMouse,
            file_start,
            "node 1, where the mouse starts, is not in the graph, so there is no game: add an edge to node 1",
        )
    })
}

fn missing_cat(model: &Model, file_start: TextRange) -> Option<Diagnostic> {
    (!model.graph.contains(2)).then(|| {
        Diagnostic::new(
            Code::MissingCat,
            file_start,
            "node 2, where the cat starts, is not in the graph, so there is no game: add an edge to node 2",
        )
    })
}

fn missing_hole(model: &Model, file_start: TextRange) -> Option<Diagnostic> {
    (!model.graph.contains(0)).then(|| {
        Diagnostic::new(
            Code::MissingHole,
            file_start,
            "node 0, the hole, is not in the graph, so the mouse can never win: add an edge to node 0",
        )
    })
}

fn mouse_stuck(model: &Model) -> Option<Diagnostic> {
    let mouse = model.graph.mouse_start()?;
    model.graph.neighbours(mouse).is_empty().then(|| {
        Diagnostic::new(
            Code::MouseStuck,
            first_mention_range(model, 1),
            "node 1 has no neighbours, so the mouse cannot make its first move and the game is a draw: join node 1 to another node",
        )
    })
}

fn cat_stuck(model: &Model) -> Option<Diagnostic> {
    let cat = model.graph.cat_start()?;
    let hole = model.graph.hole();
    let can_move = model
        .graph
        .neighbours(cat)
        .iter()
        .any(|&next| Some(next) != hole);
    (!can_move).then(|| {
        Diagnostic::new(
            Code::CatStuck,
            first_mention_range(model, 2),
            "node 2 has no neighbour other than the hole, where the cat may not go, so the cat can never leave its start: join node 2 to a node other than 0",
        )
    })
}

fn hole_unreachable(model: &Model) -> Option<Diagnostic> {
    let graph = &model.graph;
    let (hole, mouse) = (graph.hole()?, graph.mouse_start()?);
    let reached = reachable(graph, mouse, None);
    (!reached[hole as usize]).then(|| {
        Diagnostic::new(
            Code::HoleUnreachable,
            first_mention_range(model, 0),
            "no path leads from node 1 to the hole, so the mouse can never win",
        )
    })
}

/// Nodes neither player can ever stand on: the mouse walks from node 1 and stops at
/// the hole, the cat walks from node 2 and never enters it.
fn unreachable_nodes(model: &Model) -> Vec<Diagnostic> {
    let graph = &model.graph;
    let (Some(mouse), Some(cat)) = (graph.mouse_start(), graph.cat_start()) else {
        return Vec::new();
    };
    let hole = graph.hole();
    let by_mouse = reachable(graph, mouse, hole);
    let by_cat = reachable(graph, cat, hole);
    (0..graph.node_count() as u32)
        .filter(|&index| Some(index) != hole)
        .filter(|&index| !by_mouse[index as usize] && !by_cat[index as usize])
        .map(|index| {
            let id = graph.id(index);
            Diagnostic::new(
                Code::UnreachableNode,
                first_mention_range(model, id),
                format!("node {id} can be reached by neither the mouse nor the cat, so it takes no part in the game"),
            )
        })
        .collect()
}

/// The nodes reachable from `start`, never walking on from `stop`.
fn reachable(graph: &Graph, start: u32, stop: Option<u32>) -> Vec<bool> {
    let mut seen = vec![false; graph.node_count()];
    let mut stack = vec![start];
    seen[start as usize] = true;
    while let Some(node) = stack.pop() {
        if Some(node) == stop {
            continue;
        }
        for &next in graph.neighbours(node) {
            if !seen[next as usize] {
                seen[next as usize] = true;
                stack.push(next);
            }
        }
    }
    seen
}

fn first_mention_range(model: &Model, id: u32) -> TextRange {
    model
        .first_mention(id)
        .map(|mention| mention.range)
        .unwrap_or_default()
}
