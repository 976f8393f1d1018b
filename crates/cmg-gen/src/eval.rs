//! The search's evaluator: outcome and moves to the end of the standard start only, on a
//! graph of at most 64 nodes held as one neighbour bitset per node, over buffers reused
//! from call to call (no allocation per call).
//!
//! It is the counter queue of retrograde analysis (as `cmg_solve`'s queue engine), cut
//! down to what the search asks: positions are decided in order of their moves to the
//! end, so the start's answer is final the moment it is decided and the solve stops there.
//! `tests` checks every position of the full run against `cmg_solve::solve`.

use serde::{Deserialize, Serialize};

use crate::graph::{Constraints, Graph, MAX_NODES};

/// Who wins a decided game; `mouse` or `cat` in words and in records.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Winner {
    Mouse,
    Cat,
}

impl Winner {
    /// `mouse` or `cat`: the one home of the word, for the command line's messages,
    /// the `expect` line of a generated file and the records.
    pub fn word(self) -> &'static str {
        match self {
            Winner::Mouse => "mouse",
            Winner::Cat => "cat",
        }
    }
}

/// The mover at a position; a position's index is `(mouse * 64 + cat) * 2 + turn`.
const MOUSE_TURN: usize = 0;
const CAT_TURN: usize = 1;
const POSITIONS: usize = MAX_NODES * MAX_NODES * 2;

/// Undecided, or the winner of a decided position.
const UNDECIDED: u8 = 0;
const MOUSE_WINS: u8 = 1;
const CAT_WINS: u8 = 2;

fn index(mouse: usize, cat: usize, turn: usize) -> usize {
    ((mouse << 6) | cat) << 1 | turn
}

/// A start and its game, as [`Evaluator::longest_start`] finds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Start {
    pub mouse: usize,
    pub cat: usize,
    pub winner: Winner,
    pub moves: u32,
}

impl Start {
    /// The order of nodes that makes this start the standard one ([`Graph::standard_order`]).
    pub fn order(&self, nodes: usize) -> Vec<usize> {
        Graph::standard_order(nodes, self.mouse, self.cat)
    }
}

/// The decided games of every start of one graph, as [`Evaluator::starts`] counts them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Starts {
    /// The longest game; `None` if no start is decided.
    pub longest: Option<Start>,
    /// The sum of the lengths of all the decided games.
    pub total: u64,
}

/// Reusable buffers for solving many graphs one after another.
pub struct Evaluator {
    winner: Box<[u8]>,
    moves: Box<[u16]>,
    /// Legal moves of the mover not yet known to lose, for undecided positions.
    left: Box<[u8]>,
    queue: Box<[u16]>,
    solves: u64,
}

impl Default for Evaluator {
    fn default() -> Evaluator {
        Evaluator::new()
    }
}

impl Evaluator {
    pub fn new() -> Evaluator {
        Evaluator {
            winner: vec![UNDECIDED; POSITIONS].into_boxed_slice(),
            moves: vec![0; POSITIONS].into_boxed_slice(),
            left: vec![0; POSITIONS].into_boxed_slice(),
            queue: vec![0; POSITIONS].into_boxed_slice(),
            solves: 0,
        }
    }

    /// How many graphs this evaluator has solved.
    pub fn solves(&self) -> u64 {
        self.solves
    }

    /// The winner and moves to the end from the start (mouse on 1 to move, cat on 2),
    /// or `None` for a draw. The hole is node 0; graphs of fewer than 3 nodes have no game.
    pub fn start(&mut self, graph: &Graph) -> Option<(Winner, u32)> {
        if graph.node_count() < 3 {
            return None;
        }
        self.run(graph, Some(index(1, 2, MOUSE_TURN)))
    }

    /// The longest decided game (won by `wanted`, when given) over every start with the
    /// hole on node 0 ([`Graph::starts`]), the mouse to move. One full solve answers them
    /// all; ties go to the smallest mouse, then cat.
    pub fn longest_start(
        &mut self,
        graph: &Graph,
        wanted: Option<Winner>,
        constraints: Constraints,
    ) -> Option<Start> {
        self.starts(graph, wanted, constraints).longest
    }

    /// [`Evaluator::longest_start`] with the sum of the lengths of every decided game
    /// counted there, which tells apart graphs whose longest games are equally long.
    pub fn starts(
        &mut self,
        graph: &Graph,
        wanted: Option<Winner>,
        constraints: Constraints,
    ) -> Starts {
        let mut starts = Starts {
            longest: None,
            total: 0,
        };
        if graph.node_count() < 3 {
            return starts;
        }
        self.run(graph, None);
        for (mouse, cat) in graph.starts(constraints) {
            let at = index(mouse, cat, MOUSE_TURN);
            let Some((winner, moves)) = decoded(self.winner[at], self.moves[at]) else {
                continue;
            };
            if wanted.is_some_and(|w| w != winner) {
                continue;
            }
            starts.total += u64::from(moves);
            if starts.longest.is_some_and(|b| b.moves >= moves) {
                continue;
            }
            starts.longest = Some(Start {
                mouse,
                cat,
                winner,
                moves,
            });
        }
        starts
    }

    /// Solves every position (no early stop) and returns the table as
    /// `(mouse, cat, mouse_to_move) -> Option<(winner, moves)>`: every start at once, for
    /// the exhaustive search (and the tests).
    pub(crate) fn all(
        &mut self,
        graph: &Graph,
    ) -> impl Fn(usize, usize, bool) -> Option<(Winner, u32)> + '_ {
        self.run(graph, None);
        move |mouse, cat, mouse_turn| {
            let at = index(mouse, cat, if mouse_turn { MOUSE_TURN } else { CAT_TURN });
            decoded(self.winner[at], self.moves[at])
        }
    }

    fn run(&mut self, graph: &Graph, target: Option<usize>) -> Option<(Winner, u32)> {
        self.solves += 1;
        let n = graph.node_count();
        let adjacency = graph.rows();
        let (mut head, mut tail) = (0usize, 0usize);
        // The cat's moves never include the hole.
        let mut cat_moves = [0u8; MAX_NODES];
        for (moves, row) in cat_moves.iter_mut().zip(adjacency) {
            *moves = (row & !1).count_ones() as u8;
        }
        for (mouse, row) in adjacency.iter().enumerate() {
            let mouse_moves = row.count_ones() as u8;
            // The positions with the cat on the hole cannot arise; they stay undecided and
            // are never reached, because the cat never moves onto the hole.
            for (cat, &cat_moves) in cat_moves.iter().enumerate().take(n).skip(1) {
                let mouse_at = index(mouse, cat, MOUSE_TURN);
                let cat_at = index(mouse, cat, CAT_TURN);
                self.left[mouse_at] = mouse_moves;
                self.left[cat_at] = cat_moves;
                let terminal = if mouse == 0 {
                    MOUSE_WINS
                } else if mouse == cat {
                    CAT_WINS
                } else {
                    UNDECIDED
                };
                for at in [mouse_at, cat_at] {
                    self.winner[at] = terminal;
                    self.moves[at] = 0;
                    if terminal != UNDECIDED {
                        self.queue[tail] = at as u16;
                        tail += 1;
                    }
                }
            }
        }
        while head < tail {
            let at = self.queue[head] as usize;
            head += 1;
            let winner = self.winner[at];
            let moves = self.moves[at] + 1;
            let (mouse, cat, turn) = (at >> 7, (at >> 1) & 63, at & 1);
            // The player who moved into `at` is the one not to move there now.
            let (previous_turn, mover_wins, mut froms) = if turn == MOUSE_TURN {
                // The cat came from a neighbour of `cat`, never from the hole.
                (CAT_TURN, CAT_WINS, adjacency[cat] & !1)
            } else {
                (MOUSE_TURN, MOUSE_WINS, adjacency[mouse])
            };
            while froms != 0 {
                let from = froms.trailing_zeros() as usize;
                froms &= froms - 1;
                let before = if previous_turn == CAT_TURN {
                    index(mouse, from, CAT_TURN)
                } else {
                    index(from, cat, MOUSE_TURN)
                };
                if self.winner[before] != UNDECIDED {
                    continue;
                }
                if winner == mover_wins {
                    self.winner[before] = winner;
                } else {
                    self.left[before] -= 1;
                    if self.left[before] > 0 {
                        continue;
                    }
                    self.winner[before] = winner;
                }
                self.moves[before] = moves;
                if Some(before) == target {
                    return decoded(winner, moves);
                }
                self.queue[tail] = before as u16;
                tail += 1;
            }
        }
        target.and_then(|at| decoded(self.winner[at], self.moves[at]))
    }
}

fn decoded(winner: u8, moves: u16) -> Option<(Winner, u32)> {
    match winner {
        MOUSE_WINS => Some((Winner::Mouse, u32::from(moves))),
        CAT_WINS => Some((Winner::Cat, u32::from(moves))),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::{Evaluator, Winner};
    use crate::graph::{Constraints, Graph};
    use crate::rng::Rng;
    use cmg_solve::{solve, Game, Outcome, Player, Position};

    fn random_graph(rng: &mut Rng, n: usize, edge_chance: u64) -> Graph {
        let mut graph = Graph::empty(n);
        for u in 0..n {
            for v in u + 1..n {
                if rng.below(100) < edge_chance {
                    graph.toggle(u, v);
                }
            }
        }
        graph
    }

    /// Every position, both turns, on many random graphs of 3 to 64 nodes, against the reference engine.
    #[test]
    fn agrees_with_the_solver_on_every_position() {
        let mut rng = Rng::new(7);
        let mut evaluator = Evaluator::new();
        let mut decided_starts = 0;
        for case in 0..300 {
            let n = 3 + (case % 62);
            let chance = [3, 8, 20, 50][case % 4];
            let graph = random_graph(&mut rng, n, chance);
            let game = Game::new(&graph.adjacency(), Some(0));
            let solution = solve(&game);
            let table = evaluator.all(&graph);
            for mouse in 0..n {
                for cat in 0..n {
                    for (turn, mouse_turn) in [(Player::Mouse, true), (Player::Cat, false)] {
                        let pos = Position {
                            mouse: mouse as u32,
                            cat: cat as u32,
                            turn,
                        };
                        let expected = match (solution.outcome(pos), solution.moves_to_end(pos)) {
                            (Outcome::MouseWins, Some(moves)) => Some((Winner::Mouse, moves)),
                            (Outcome::CatWins, Some(moves)) => Some((Winner::Cat, moves)),
                            _ => None,
                        };
                        assert_eq!(
                            table(mouse, cat, mouse_turn),
                            expected,
                            "{pos:?} in case {case}"
                        );
                    }
                }
            }
            let start = Position {
                mouse: 1,
                cat: 2,
                turn: Player::Mouse,
            };
            let expected = table(1, 2, true);
            drop(table);
            decided_starts +=
                usize::from(expected.is_some() && solution.moves_to_end(start).unwrap_or(0) > 2);
            assert_eq!(evaluator.start(&graph), expected, "start in case {case}");
        }
        // The cases must include real games, not only draws and instant wins.
        assert!(decided_starts > 30, "{decided_starts}");
    }

    /// The longest start is the longest over every start of the full table, the total is
    /// the sum of the table's games over those starts, and the graph renamed by the
    /// longest start's order has it as its standard start.
    #[test]
    fn the_longest_start_is_the_longest_of_the_table_and_renaming_makes_it_standard() {
        let mut rng = Rng::new(11);
        let mut evaluator = Evaluator::new();
        let mut moved = 0;
        for case in 0..400 {
            let n = 3 + (case % 14);
            let graph = random_graph(&mut rng, n, [15, 25, 40][case % 3]);
            for wanted in [None, Some(Winner::Mouse), Some(Winner::Cat)] {
                for constraints in [Constraints::LeetCode, Constraints::None] {
                    let mut most = None;
                    let mut total = 0;
                    let table = evaluator.all(&graph);
                    for mouse in 1..n {
                        for cat in 1..n {
                            let cat_stuck = graph.rows()[cat] & !1 == 0;
                            if mouse == cat || (constraints == Constraints::LeetCode && cat_stuck) {
                                continue;
                            }
                            if let Some((winner, moves)) = table(mouse, cat, true) {
                                if wanted.is_some_and(|w| w != winner) {
                                    continue;
                                }
                                total += u64::from(moves);
                                if most.is_none_or(|(_, m)| moves > m) {
                                    most = Some((winner, moves));
                                }
                            }
                        }
                    }
                    drop(table);
                    let starts = evaluator.starts(&graph, wanted, constraints);
                    assert_eq!(starts.total, total, "case {case}");
                    let found = evaluator.longest_start(&graph, wanted, constraints);
                    assert_eq!(found, starts.longest, "case {case}");
                    assert_eq!(found.map(|s| (s.winner, s.moves)), most, "case {case}");
                    if let Some(start) = found {
                        moved += usize::from((start.mouse, start.cat) != (1, 2));
                        let renamed = graph.relabelled(&start.order(n));
                        assert_eq!(renamed.edge_count(), graph.edge_count());
                        assert_eq!(
                            evaluator.start(&renamed),
                            Some((start.winner, start.moves)),
                            "case {case}"
                        );
                    }
                }
            }
        }
        // Most longest starts are not the standard one, so the renaming is exercised.
        assert!(moved > 500, "{moved}");
    }
}
