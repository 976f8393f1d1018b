//! The scene's explanations: each edge's what-if and critical mark, and the strategy trees for the view's strategy panel.

use serde::Serialize;

use cmg_core::analysis::{solution_for, start_position, Analysis};
use cmg_core::explain::{
    describe_after, describe_move, describe_what_if, player_name, strategy_title, Solved,
};
use cmg_solve::{strategy_players, Continuation, Player};

use super::Scene;
use crate::hover::find_what_if;

/// The most lines one strategy tree of the scene holds: the panel folds the tree, but the
/// scene ships it whole up to here (about 100 bytes a line), and says when it stopped.
pub const MAX_SCENE_TREE_LINES: usize = 2_000;

#[derive(Clone, Debug, Serialize)]
pub struct SceneStrategy {
    /// `mouse` or `cat`.
    pub player: &'static str,
    /// "the cat's strategy, winning: cat wins in 4".
    pub title: String,
    pub lines: Vec<SceneTreeLine>,
    /// The tree was cut at [`MAX_SCENE_TREE_LINES`].
    pub truncated: bool,
}

/// One move of a strategy tree, in reading order (each line is followed by those beneath it).
#[derive(Clone, Debug, Serialize)]
pub struct SceneTreeLine {
    /// 0 for the moves from the start.
    pub depth: u32,
    /// "mouse 1 -> 3".
    pub text: String,
    /// What holds after the move: "cat wins in 3", "caught: cat wins".
    pub note: String,
    /// The position after the move: node ids, and `turn` 0 when the mouse moves next.
    pub mouse: u32,
    pub cat: u32,
    pub turn: u8,
    /// The position appeared before, at this line (`-1`: the start); nothing beneath it.
    pub repeat_of: Option<i64>,
}

/// Adds the what-if of every edge and the strategy trees to `scene`, from `solved` if it
/// is the solution of this graph.
pub fn add_explanations(scene: &mut Scene, analysis: &Analysis, solved: Option<&Solved>) {
    let graph = &analysis.model.graph;
    let (Some(solved), Some(start)) = (
        solved.filter(|s| solution_for(graph, Some(&s.solution)).is_some()),
        start_position(graph),
    ) else {
        return;
    };
    if scene.too_large.is_some() {
        return;
    }
    let solution = &solved.solution;
    match solved.what_if.computed() {
        Some(what_if) => {
            let (now, now_moves) = (solution.outcome(start), solution.moves_to_end(start));
            for edge in &mut scene.edges {
                let key = graph.index_of(edge.a).zip(graph.index_of(edge.b));
                if let Some(outcome) = key.and_then(|key| find_what_if(&what_if.edges, key)) {
                    edge.critical = outcome.critical;
                    edge.what_if = Some(describe_what_if(graph, outcome, now, now_moves));
                }
            }
        }
        None => {
            let missing = solved.what_if.missing().unwrap_or_default();
            scene.what_if_note = Some(format!("what-if: {missing}"));
        }
    }
    for &player in strategy_players(solution.outcome(start)) {
        let tree = solution.strategy_tree(player, start, u32::MAX, MAX_SCENE_TREE_LINES);
        let lines = tree
            .lines
            .iter()
            .map(|line| SceneTreeLine {
                depth: line.depth,
                text: describe_move(graph, line),
                note: describe_after(solution, line),
                mouse: graph.id(line.position.mouse),
                cat: graph.id(line.position.cat),
                turn: match line.position.turn {
                    Player::Mouse => 0,
                    Player::Cat => 1,
                },
                repeat_of: match line.next {
                    Continuation::Repeat(at) => Some(at.map_or(-1, |at| at as i64)),
                    _ => None,
                },
            })
            .collect();
        scene.strategies.push(SceneStrategy {
            player: player_name(player),
            title: strategy_title(solution, player, start),
            lines,
            truncated: tree.truncated,
        });
    }
}
