//! How a game ends, in words: one table for `cmg solve`'s optimal line, the explained
//! strategy tree and the view page (whose copy `cargo xtask codegen` generates into
//! `web/src/generated/words.ts`).

use cmg_solve::Player;

/// The ways a line of play stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The cat is on the mouse's node.
    Caught,
    /// The mouse is in the hole.
    Home,
    /// A position comes back with the same player to move: a draw.
    Repeats,
    /// The player to move has no legal move: a draw.
    NoMove(Player),
    /// The file's turn limit is reached: a draw.
    Limit,
}

impl Ending {
    /// Every ending, with the mouse as the player of `NoMove` (the wording names the player).
    pub const ALL: [Ending; 5] = [
        Ending::Caught,
        Ending::Home,
        Ending::Repeats,
        Ending::NoMove(Player::Mouse),
        Ending::Limit,
    ];

    /// The ending as a sentence: "the cat caught the mouse: cat wins".
    pub fn phrase(self) -> String {
        match self {
            Ending::Caught => "the cat caught the mouse: cat wins".to_owned(),
            Ending::Home => "the mouse reached the hole: mouse wins".to_owned(),
            Ending::Repeats => "the position repeats: draw".to_owned(),
            Ending::NoMove(player) => {
                format!("the {} has no legal move: draw", player_name(player))
            }
            Ending::Limit => "the turn limit is reached: draw".to_owned(),
        }
    }

    /// The ending after a move of an explained tree, whose line names the mover already:
    /// "caught: cat wins".
    pub fn short(self) -> &'static str {
        match self {
            Ending::Caught => "caught: cat wins",
            Ending::Home => "in the hole: mouse wins",
            Ending::Repeats => "repeats: draw",
            Ending::NoMove(_) => "no legal move: draw",
            Ending::Limit => "the limit: draw",
        }
    }

    /// The key the page's generated table uses.
    pub fn key(self) -> &'static str {
        match self {
            Ending::Caught => "caught",
            Ending::Home => "home",
            Ending::Repeats => "repeats",
            Ending::NoMove(_) => "noMove",
            Ending::Limit => "limit",
        }
    }
}

/// A player as the words name it: "mouse" or "cat".
pub fn player_name(player: Player) -> &'static str {
    match player {
        Player::Mouse => "mouse",
        Player::Cat => "cat",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_no_move_ending_names_the_player() {
        assert_eq!(
            Ending::NoMove(Player::Cat).phrase(),
            "the cat has no legal move: draw"
        );
        assert_eq!(
            Ending::NoMove(Player::Mouse).phrase(),
            "the mouse has no legal move: draw"
        );
    }
}
