//! The game view's data: one versioned JSON scene (nodes with positions and outcomes, edges, the optimal line, diagnostics), shared by `cmg view`, its SVG export and the server's `cmg/scene` request; slices of the position table come on demand (`slice`).
//!
//! Like `ide`, this knows no protocol: it turns an analysis and its solution into plain
//! structs that serialize to the scene format documented in `docs/view.md`.

pub mod clearance;
mod explain;
mod layout;
mod slice;
pub mod svg;

use serde::Serialize;

pub use clearance::{Cancelled, Limits, WORK_BUDGET};
pub use explain::{add_explanations, SceneStrategy, SceneTreeLine, MAX_SCENE_TREE_LINES};
pub use layout::{layout, layout_within, Layout, Positions, UNIT};
pub use slice::{parse_turn, slice, Slice, SliceError};

use crate::code_lens::line_ids;
use cmg_core::analysis::{
    describe, game_description, game_line, mouse_starts_at, no_game_reason, outcome_keyword,
    solution_for, start_position, Analysis,
};
use cmg_core::explain::player_name;
use cmg_core::model::{Code, Diagnostic, NodeRole};
use cmg_solve::Solution;
use cmg_syntax::{ColumnUnit, TextRange};

/// The scene format's version; it changes whenever a field changes meaning or goes away.
pub const SCENE_VERSION: u32 = 2;

/// The view draws at most this many nodes: the layout of 2000 takes about 0.7 s
/// (`BENCHMARKS.md`), and a picture of more nodes would not be readable anyway. The scene is
/// O(nodes + edges): slices of the position table come on demand ([`slice`]).
pub const MAX_VIEW_NODES: usize = 2000;

/// The view draws at most this many edges: ten per node at the node limit. A picture of
/// more is a solid tangle, its scene tens of megabytes, and its layout's post-pass
/// (`clearance.rs`) would only spend its budget on it.
pub const MAX_VIEW_EDGES: usize = 20_000;

/// Whether the view draws `graph`: at most [`MAX_VIEW_NODES`] nodes and
/// [`MAX_VIEW_EDGES`] edges. Above, the scene says so and has no nodes or edges.
pub fn draws(graph: &cmg_core::model::Graph) -> bool {
    graph.node_count() <= MAX_VIEW_NODES && drawn_edges(graph) <= MAX_VIEW_EDGES
}

/// The lines the view draws: the edges and the one-way edges.
fn drawn_edges(graph: &cmg_core::model::Graph) -> usize {
    let arcs: usize = (0..graph.node_count() as u32)
        .map(|index| graph.arcs_out(index).len())
        .sum();
    graph.edge_count() + arcs
}

/// The scene lists at most this many diagnostics; `diagnostics_omitted` counts the rest.
pub const MAX_SCENE_DIAGNOSTICS: usize = 200;

/// At most this many declared pairs are looked at for the edges one diagnostic marks.
const MAX_MARKED_PAIRS: usize = 100_000;

#[derive(Clone, Debug, Serialize)]
pub struct Scene {
    pub version: u32,
    /// Who wins from the real start (by default the mouse on 1, the cat on 2, the mouse to
    /// move; the file's rules may say otherwise); `None` when there is no game or it is not
    /// solved here.
    pub outcome: Option<&'static str>,
    /// Moves (plies) to the end from the start; `None` for a draw.
    pub moves: Option<u32>,
    /// The outcome in words ("cat wins in 4"), or why there is none.
    pub summary: String,
    /// Set when the graph is beyond [`MAX_VIEW_NODES`] or [`MAX_VIEW_EDGES`]: then
    /// `nodes` and `edges` are empty.
    pub too_large: Option<TooLarge>,
    pub nodes: Vec<SceneNode>,
    pub edges: Vec<SceneEdge>,
    /// The optimal line from the start as `[mouse, cat]` node ids, the start included;
    /// the mouse moves from entry 0 to 1, the cat from 1 to 2, and so on.
    pub line: Vec<[u32; 2]>,
    pub diagnostics: Vec<SceneDiagnostic>,
    pub diagnostics_omitted: usize,
    /// The smallest box around every node centre, in pixels: `[min_x, min_y, max_x, max_y]`.
    pub bounds: [f64; 4],
    /// The strategies that explain the outcome, for the strategy panel (`explain.rs`);
    /// empty until [`add_explanations`].
    pub strategies: Vec<SceneStrategy>,
    /// Why the edges carry no what-if ("what-if: not computed above 300 nodes ...").
    pub what_if_note: Option<String>,
    /// Set when the layout stopped at its work limit with edges still passing over
    /// nodes ([`LAYOUT_CUT_NOTE`]); left out of the JSON when there is none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub layout_note: Option<String>,
    /// The file's game when it is not LeetCode 913's (rules or one-way edges); left out of
    /// the JSON for a file without them, whose game the page knows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rules: Option<SceneRules>,
}

/// The game a file with rules states, for the page: its words, and what play needs.
#[derive(Clone, Debug, Serialize)]
pub struct SceneRules {
    /// The game in the hover's words: "the game: the cat moves first, limit 16".
    pub game: String,
    /// Who moves first: `mouse` or `cat`.
    pub first: &'static str,
    /// A draw once this many moves are made without an end.
    pub limit: Option<u32>,
    /// Where the mouse and the cat start (node ids).
    pub mouse: u32,
    pub cat: u32,
    /// The holes that are nodes, by id, ascending.
    pub holes: Vec<u32>,
    /// Whether the cat may enter the holes.
    pub cat_enters_holes: bool,
}

impl SceneRules {
    /// The rules of `graph`'s game; `None` for LeetCode 913's.
    pub fn of(graph: &cmg_core::model::Graph) -> Option<SceneRules> {
        let game = game_line(&game_description(graph)?);
        let rules = graph.rules();
        Some(SceneRules {
            game,
            first: player_name(rules.first),
            limit: rules.limit,
            mouse: rules.mouse_start,
            cat: rules.cat_start,
            holes: graph.holes().iter().map(|&hole| graph.id(hole)).collect(),
            cat_enters_holes: rules.cat_enters_holes,
        })
    }
}

/// Where the mouse and the cat may move from the node at dense `index`, as node ids.
fn next_moves(graph: &cmg_core::model::Graph, solution: &Solution, index: u32) -> NextMoves {
    let game = solution.game();
    let from = |turn| {
        let at = cmg_solve::Position {
            mouse: index,
            cat: index,
            turn,
        };
        game.legal_moves(at).map(|next| graph.id(next)).collect()
    };
    NextMoves {
        mouse: from(cmg_solve::Player::Mouse),
        cat: from(cmg_solve::Player::Cat),
    }
}

/// What a scene whose layout was cut short says.
pub const LAYOUT_CUT_NOTE: &str =
    "layout: stopped at its work limit; some edges pass over nodes they do not join";

#[derive(Clone, Debug, Serialize)]
pub struct TooLarge {
    pub nodes: usize,
    pub limit: usize,
    pub edges: usize,
    pub edge_limit: usize,
}

#[derive(Clone, Debug, Serialize)]
pub struct SceneNode {
    pub id: u32,
    pub label: Option<String>,
    /// `hole`, `mouse`, `cat` (a hole, where the mouse starts, where the cat starts: by
    /// default nodes 0, 1 and 2, else as the file's rules say; the first of these a node
    /// has) or `node`.
    pub role: &'static str,
    /// The node's other roles, after `role` in the same order: a hole where a player
    /// starts too (the rules may put a start on a hole). Left out of the JSON when none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub also: Vec<&'static str>,
    /// Who wins if the mouse starts here instead of on its start (the cat on its own).
    pub outcome: Option<&'static str>,
    pub moves: Option<u32>,
    pub x: f64,
    pub y: f64,
    /// The first mention of the node in the text, for "reveal in the text".
    pub mention: Option<Span>,
    /// Whether a diagnostic points at this node.
    pub flagged: bool,
    /// Where each player may move from this node; empty without a solution.
    pub next: NextMoves,
}

/// The node ids a player standing on a node may move to, ascending, from
/// `cmg_solve::Game::legal_moves` (the rule's one home: the page's play mode reads these
/// lists and keeps no copy of the rule that the cat never enters the hole).
#[derive(Clone, Debug, Default, Serialize)]
pub struct NextMoves {
    pub mouse: Vec<u32>,
    pub cat: Vec<u32>,
}

#[derive(Clone, Debug, Serialize)]
pub struct SceneEdge {
    /// The node ids of the two ends, `a < b`; of a one-way edge, its start and its end.
    pub a: u32,
    pub b: u32,
    /// A one-way edge: a move from `a` to `b` only, drawn with an arrowhead at `b`. Left
    /// out of the JSON for an edge.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub one_way: bool,
    pub flagged: bool,
    /// Removing the edge changes the result, in any direction (`cmg_solve::is_critical`).
    pub critical: bool,
    /// "without 3 -- 5: mouse wins in 7 (now: cat wins in 12)"; `None` when not computed.
    pub what_if: Option<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct SceneDiagnostic {
    pub code: &'static str,
    pub severity: &'static str,
    pub message: String,
    pub start: LineColumn,
    pub end: LineColumn,
    /// The nodes and edges (`[a, b]`, node ids) the diagnostic's range touches.
    pub nodes: Vec<u32>,
    pub edges: Vec<[u32; 2]>,
}

/// A place in the text: line and column from 1, the column in Unicode characters, as
/// `cmg check --json` prints them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct LineColumn {
    pub line: u32,
    pub column: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Span {
    pub start: LineColumn,
    pub end: LineColumn,
}

impl Scene {
    /// The node positions of this scene, to seed the next layout with.
    pub fn positions(&self) -> Positions {
        self.nodes.iter().map(|n| (n.id, [n.x, n.y])).collect()
    }
}

/// The scene of `analysis`. `solution` is used only if it was solved for this graph;
/// `previous` holds where nodes were drawn last time, so that they stay there.
pub fn scene(analysis: &Analysis, solution: Option<&Solution>, previous: &Positions) -> Scene {
    build_scene(analysis, solution, || {
        layout(&analysis.model.graph, previous).into()
    })
}

/// [`scene`] with its layout within `limits` ([`layout_within`]); `Err` when the cancel
/// flag stopped it.
pub fn scene_within(
    analysis: &Analysis,
    solution: Option<&Solution>,
    previous: &Positions,
    limits: Limits,
) -> Result<Scene, Cancelled> {
    let graph = &analysis.model.graph;
    let laid_out = if draws(graph) {
        Some(layout_within(graph, previous, limits)?)
    } else {
        None
    };
    Ok(build_scene(analysis, solution, move || {
        laid_out.expect("laid out for a graph the view draws")
    }))
}

/// [`scene`] with the layout already made: `positions` is what [`layout`] gives for the
/// graph of `analysis` (and the `previous` positions), so that a caller can lay out
/// while it solves; the same scene as [`scene`]'s. Unused above [`MAX_VIEW_NODES`].
///
/// # Panics
///
/// If `positions` does not hold one position per node of a graph the view draws.
pub fn scene_laid_out(
    analysis: &Analysis,
    solution: Option<&Solution>,
    laid_out: impl Into<Layout>,
) -> Scene {
    let laid_out = laid_out.into();
    build_scene(analysis, solution, move || {
        assert_eq!(
            laid_out.positions.len(),
            analysis.model.graph.node_count(),
            "one laid-out position per node"
        );
        laid_out
    })
}

/// The scene, with the positions from `laid_out` (called only for a graph the view draws).
fn build_scene(
    analysis: &Analysis,
    solution: Option<&Solution>,
    laid_out: impl FnOnce() -> Layout,
) -> Scene {
    let graph = &analysis.model.graph;
    let solution = solution_for(graph, solution);
    let diagnostics = analysis.diagnostics(solution);
    let diagnostics_omitted = diagnostics.len().saturating_sub(MAX_SCENE_DIAGNOSTICS);
    let mut scene = Scene {
        version: SCENE_VERSION,
        outcome: None,
        moves: None,
        summary: String::new(),
        too_large: None,
        nodes: Vec::new(),
        edges: Vec::new(),
        line: Vec::new(),
        diagnostics: Vec::new(),
        diagnostics_omitted,
        bounds: [0.0; 4],
        strategies: Vec::new(),
        what_if_note: None,
        layout_note: None,
        rules: SceneRules::of(graph),
    };
    if !draws(graph) {
        scene.too_large = Some(TooLarge {
            nodes: graph.node_count(),
            limit: MAX_VIEW_NODES,
            edges: graph.edge_count(),
            edge_limit: MAX_VIEW_EDGES,
        });
        scene.summary = if graph.node_count() > MAX_VIEW_NODES {
            format!(
                "the graph has {} nodes; the view draws at most {MAX_VIEW_NODES}",
                graph.node_count()
            )
        } else {
            format!(
                "the graph has {} edges; the view draws at most {MAX_VIEW_EDGES}",
                graph.edge_count()
            )
        };
        scene.diagnostics = scene_diagnostics(analysis, &diagnostics);
        return scene;
    }
    let start = start_position(graph);
    scene.summary = match (solution, start) {
        (Some(solution), Some(start)) => {
            let outcome = solution.outcome(start);
            scene.outcome = Some(outcome_keyword(outcome));
            scene.moves = solution.moves_to_end(start);
            scene.line = line_ids(graph, &solution.line(start));
            describe(outcome, scene.moves)
        }
        (None, Some(_)) => "not solved".to_owned(),
        (_, None) => format!("no game: {}", no_game_reason(graph)),
    };

    let diagnostics = scene_diagnostics(analysis, &diagnostics);
    let Layout { positions, cut, .. } = laid_out();
    if cut {
        scene.layout_note = Some(LAYOUT_CUT_NOTE.to_owned());
    }
    for (index, &[x, y]) in positions.iter().enumerate() {
        let index = index as u32;
        let id = graph.id(index);
        let at_start = solution.zip(mouse_starts_at(graph, index));
        scene.nodes.push(SceneNode {
            id,
            label: graph.label(index).map(str::to_owned),
            role: role(graph, id),
            also: graph.roles_of(id).skip(1).map(role_word).collect(),
            outcome: at_start.map(|(s, p)| outcome_keyword(s.outcome(p))),
            moves: at_start.and_then(|(s, p)| s.moves_to_end(p)),
            x,
            y,
            mention: analysis
                .model
                .first_mention(id)
                .map(|m| span(analysis, m.range)),
            flagged: diagnostics.iter().any(|d| d.nodes.contains(&id)),
            next: solution.map_or_else(NextMoves::default, |s| next_moves(graph, s, index)),
        });
    }
    // One set of the marked edges: asking each diagnostic's list for each edge cost
    // edges times marked pairs.
    let marked: std::collections::HashSet<[u32; 2]> = diagnostics
        .iter()
        .flat_map(|d| d.edges.iter().copied())
        .collect();
    for a in 0..graph.node_count() as u32 {
        for &b in graph.neighbours(a).iter().filter(|&&b| b > a) {
            let key = [graph.id(a), graph.id(b)];
            scene.edges.push(SceneEdge {
                a: key[0],
                b: key[1],
                one_way: false,
                flagged: marked.contains(&key),
                critical: false,
                what_if: None,
            });
        }
    }
    for a in 0..graph.node_count() as u32 {
        for &b in graph.arcs_out(a) {
            let key = [graph.id(a), graph.id(b)];
            scene.edges.push(SceneEdge {
                a: key[0],
                b: key[1],
                one_way: true,
                flagged: marked.contains(&[key[0].min(key[1]), key[0].max(key[1])]),
                critical: false,
                what_if: None,
            });
        }
    }
    scene.bounds = bounds(&positions);
    scene.diagnostics = diagnostics;
    scene
}

/// The role of a node id in `graph`'s game, as the scene names it.
pub fn role(graph: &cmg_core::model::Graph, id: u32) -> &'static str {
    graph.role_of(id).map_or("node", role_word)
}

/// A role as the scene names it: `hole`, `mouse`, `cat`.
pub fn role_word(role: NodeRole) -> &'static str {
    match role {
        NodeRole::Hole => "hole",
        NodeRole::MouseStart => "mouse",
        NodeRole::CatStart => "cat",
    }
}

fn bounds(positions: &[[f64; 2]]) -> [f64; 4] {
    if positions.is_empty() {
        return [0.0; 4];
    }
    positions.iter().fold(
        [f64::MAX, f64::MAX, f64::MIN, f64::MIN],
        |[x0, y0, x1, y1], &[x, y]| [x0.min(x), y0.min(y), x1.max(x), y1.max(y)],
    )
}

fn line_column(analysis: &Analysis, offset: u32) -> LineColumn {
    let place = analysis.line_index.column(offset, ColumnUnit::Char);
    LineColumn {
        line: place.line + 1,
        column: place.col + 1,
    }
}

fn span(analysis: &Analysis, range: TextRange) -> Span {
    Span {
        start: line_column(analysis, range.start),
        end: line_column(analysis, range.end),
    }
}

/// Diagnostics with the nodes and edges they point at: those whose declaration overlaps
/// the diagnostic's range. Whole-graph diagnostics (a missing node, an unreachable hole)
/// point at the place they were found, not at a node, so they mark nothing.
fn scene_diagnostics(analysis: &Analysis, diagnostics: &[Diagnostic]) -> Vec<SceneDiagnostic> {
    let model = &analysis.model;
    diagnostics
        .iter()
        .take(MAX_SCENE_DIAGNOSTICS)
        .map(|diagnostic| {
            let marks = !matches!(
                diagnostic.code,
                Code::MissingMouse
                    | Code::MissingCat
                    | Code::MissingHole
                    | Code::HoleUnreachable
                    | Code::TooLarge
                    | Code::ExpectMismatch
                    | Code::ExpectUnchecked
                    | Code::DuplicateExpect
            );
            let overlaps = |range: TextRange| {
                marks && range.start < diagnostic.range.end && diagnostic.range.start < range.end
            };
            let mut nodes: Vec<u32> = model
                .mentions
                .iter()
                .filter(|m| overlaps(m.range) && model.graph.contains(m.id))
                .map(|m| m.id)
                .collect();
            nodes.sort_unstable();
            nodes.dedup();
            // Declarations first, then their pairs: a group product stands for many.
            let mut edges: Vec<[u32; 2]> = model
                .edges
                .iter()
                .filter(|decl| overlaps(decl.range))
                .flat_map(|decl| model.pairs(decl))
                .take(MAX_MARKED_PAIRS)
                .filter(|e| !e.is_self_loop() && overlaps(e.range))
                .map(|e| {
                    let (a, b) = e.key();
                    [a, b]
                })
                .filter(|&[a, b]| model.graph.contains(a) && model.graph.contains(b))
                .collect();
            edges.sort_unstable();
            edges.dedup();
            SceneDiagnostic {
                code: diagnostic.code.as_str(),
                severity: diagnostic.severity().as_str(),
                message: analysis.message(diagnostic),
                start: line_column(analysis, diagnostic.range.start),
                end: line_column(analysis, diagnostic.range.end),
                nodes,
                edges,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests;
