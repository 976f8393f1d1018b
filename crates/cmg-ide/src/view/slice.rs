//! One slice of the position table on demand: the cat on a chosen node, a chosen player to move, and for every node what happens if the mouse stands there. The view's explorer, its solver replay and play mode ask for slices one at a time (`/slice` of `cmg view`, `cmg/slice` of the server) instead of being shipped the whole table.
//!
//! A slice is O(n) where the table is O(n²), so the scene's size follows what is drawn.
//! The replay needs nothing more: the retrograde analysis settles a position with k
//! moves to the end in its k-th round back from the ends (a win as soon as one move
//! reaches a loss settled a round earlier, a loss once every move reaches a win, the
//! latest of them one round earlier), so a slice's `moves` are its replay levels.

use serde::Serialize;

use cmg_core::analysis::{outcome_keyword, solution_for};
use cmg_core::explain::player_name;
use cmg_core::model::Graph;
use cmg_solve::{Player, Position, Solution};

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Slice {
    /// The node id the cat stands on.
    pub cat: u32,
    /// Who moves: `mouse` or `cat`.
    pub turn: &'static str,
    /// The node ids, in the scene's order; the fields below have one entry per node,
    /// for the mouse standing on it.
    pub ids: Vec<u32>,
    /// One character per node: `m` (mouse wins), `c` (cat wins) or `d` (draw).
    pub outcome: String,
    /// Moves to the end, which is also the replay level the position is settled at;
    /// -1 for a draw (never settled).
    pub moves: Vec<i32>,
    /// The node id the player to move goes to on the optimal line; -1 when the game is
    /// over there or the mover has no move.
    pub best: Vec<i64>,
}

/// Why there is no slice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SliceError {
    /// No solution of this graph (not solved yet, too large, or no game).
    NotSolved,
    /// The cat's node is not in the graph.
    UnknownNode(u32),
}

impl std::fmt::Display for SliceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SliceError::NotSolved => f.write_str("the game is not solved"),
            SliceError::UnknownNode(id) => write!(f, "the graph has no node {id}"),
        }
    }
}

/// The player a slice's `turn` names (`mouse`, `cat`: [`player_name`]'s words).
pub fn parse_turn(word: &str) -> Option<Player> {
    match word {
        "mouse" => Some(Player::Mouse),
        "cat" => Some(Player::Cat),
        _ => None,
    }
}

/// The slice with the cat on node id `cat` and `turn` to move. `solution` is used only
/// if it was solved for this graph.
pub fn slice(
    graph: &Graph,
    solution: Option<&Solution>,
    cat: u32,
    turn: Player,
) -> Result<Slice, SliceError> {
    let solution = solution_for(graph, solution).ok_or(SliceError::NotSolved)?;
    let cat_index = graph.index_of(cat).ok_or(SliceError::UnknownNode(cat))?;
    let n = graph.node_count();
    let mut slice = Slice {
        cat,
        turn: player_name(turn),
        ids: graph.ids().to_vec(),
        outcome: String::with_capacity(n),
        moves: Vec::with_capacity(n),
        best: Vec::with_capacity(n),
    };
    for mouse in 0..n as u32 {
        let position = Position {
            mouse,
            cat: cat_index,
            turn,
        };
        let word = outcome_keyword(solution.outcome(position));
        slice.outcome.push(word.chars().next().unwrap_or('d'));
        slice
            .moves
            .push(solution.moves_to_end(position).map_or(-1, |m| m as i32));
        slice.best.push(
            solution
                .best_move(position)
                .map_or(-1, |index| i64::from(graph.id(index))),
        );
    }
    Ok(slice)
}
