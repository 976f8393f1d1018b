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
use crate::variant::{Masks, Variant};

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
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
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
    /// A variant where the cat enters the holes has written positions with the cat on a
    /// hole, which the standard game leaves undecided ([`Evaluator::all`] resets them).
    cat_on_holes_written: bool,
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
            cat_on_holes_written: false,
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
        if graph.node_count() < 3 {
            return Starts::default();
        }
        self.run(graph, None);
        self.tally(graph.starts(constraints), MOUSE_TURN, wanted, None)
    }

    /// [`Evaluator::starts`] in a variant, on a graph in the search's labels (the holes
    /// are nodes `0..variant.hole_count()`, [`Variant`]): every start with the mouse and
    /// the cat on two nodes that are not holes, the first player of the variant to move,
    /// and only games that end within its turn limit (a longer one is a draw there).
    pub fn variant_starts(
        &mut self,
        graph: &Graph,
        wanted: Option<Winner>,
        variant: &Variant,
    ) -> Starts {
        let n = graph.node_count();
        let holes = variant.hole_count();
        if n < holes + 2 {
            return Starts::default();
        }
        self.solve::<true>(graph, &variant.masks(), None);
        let turn = if variant.cat_first {
            CAT_TURN
        } else {
            MOUSE_TURN
        };
        let pairs = (holes..n).flat_map(|mouse| {
            (holes..n)
                .filter(move |&cat| cat != mouse)
                .map(move |cat| (mouse, cat))
        });
        self.tally(pairs, turn, wanted, variant.limit)
    }

    /// The longest game and the sum of the games from `starts` (as `(mouse, cat)`, with
    /// `turn` to move) in the table just solved: the decided ones, won by `wanted` when
    /// given, that end within `limit` moves when given. Inlined, so that the standard
    /// game's `None` limit costs its loop nothing.
    #[inline(always)]
    fn tally(
        &self,
        starts: impl Iterator<Item = (usize, usize)>,
        turn: usize,
        wanted: Option<Winner>,
        limit: Option<u32>,
    ) -> Starts {
        let mut starts_seen = Starts::default();
        for (mouse, cat) in starts {
            let at = index(mouse, cat, turn);
            let Some((winner, moves)) = decoded(self.winner[at], self.moves[at]) else {
                continue;
            };
            if wanted.is_some_and(|w| w != winner) || limit.is_some_and(|limit| moves > limit) {
                continue;
            }
            starts_seen.total += u64::from(moves);
            if starts_seen.longest.is_some_and(|b| b.moves >= moves) {
                continue;
            }
            starts_seen.longest = Some(Start {
                mouse,
                cat,
                winner,
                moves,
            });
        }
        starts_seen
    }

    /// Solves every position (no early stop) and returns the table as
    /// `(mouse, cat, mouse_to_move) -> Option<(winner, moves)>`: every start at once, for
    /// the exhaustive search (and the tests).
    pub(crate) fn all(
        &mut self,
        graph: &Graph,
    ) -> impl Fn(usize, usize, bool) -> Option<(Winner, u32)> + '_ {
        self.run(graph, None);
        // Undecided, as they were before a variant wrote them.
        if self.cat_on_holes_written {
            for mouse in 0..graph.node_count() {
                self.winner[index(mouse, 0, MOUSE_TURN)] = UNDECIDED;
                self.winner[index(mouse, 0, CAT_TURN)] = UNDECIDED;
            }
        }
        self.table()
    }

    /// [`Evaluator::all`] in a variant, on a graph in the search's labels (for the tests).
    #[cfg(test)]
    pub(crate) fn variant_all(
        &mut self,
        graph: &Graph,
        variant: &Variant,
    ) -> impl Fn(usize, usize, bool) -> Option<(Winner, u32)> + '_ {
        self.solve::<true>(graph, &variant.masks(), None);
        self.table()
    }

    /// The table just solved, as `(mouse, cat, mouse_to_move) -> Option<(winner, moves)>`.
    fn table(&self) -> impl Fn(usize, usize, bool) -> Option<(Winner, u32)> + '_ {
        move |mouse, cat, mouse_turn| {
            let at = index(mouse, cat, if mouse_turn { MOUSE_TURN } else { CAT_TURN });
            decoded(self.winner[at], self.moves[at])
        }
    }

    fn run(&mut self, graph: &Graph, target: Option<usize>) -> Option<(Winner, u32)> {
        self.solve::<false>(graph, &Masks::STANDARD, target)
    }

    /// The solve, for the standard game (`VARIANT` false: the masks are LeetCode 913's
    /// constants, so this instance compiles to the standard game's loop) or for a variant's
    /// `masks` (`VARIANT` true).
    #[inline(always)]
    fn solve<const VARIANT: bool>(
        &mut self,
        graph: &Graph,
        masks: &Masks,
        target: Option<usize>,
    ) -> Option<(Winner, u32)> {
        self.solves += 1;
        let n = graph.node_count();
        let adjacency = graph.rows();
        let masks = if VARIANT { *masks } else { Masks::STANDARD };
        // The moves into each node: the rows themselves on an undirected graph.
        let mut transposed = [0u64; MAX_NODES];
        let incoming: &[u64] = if VARIANT && masks.directed {
            for (from, &row) in adjacency.iter().enumerate() {
                let mut bits = row;
                while bits != 0 {
                    transposed[bits.trailing_zeros() as usize] |= 1 << from;
                    bits &= bits - 1;
                }
            }
            &transposed[..n]
        } else {
            adjacency
        };
        let (mut head, mut tail) = (0usize, 0usize);
        // The cat's moves leave out the nodes it may not stand on (the holes).
        let cat_nodes = !0u64 << masks.first_cat;
        let mut cat_moves = [0u8; MAX_NODES];
        for (moves, row) in cat_moves.iter_mut().zip(adjacency) {
            *moves = (row & cat_nodes).count_ones() as u8;
        }
        // The positions with the cat where it may not stand cannot arise: the solve neither
        // writes them nor reaches them, because the cat never moves there. A variant where
        // the cat enters the holes writes them, and `all` hands them out.
        if VARIANT && masks.first_cat == 0 {
            self.cat_on_holes_written = true;
        }
        for (mouse, row) in adjacency.iter().enumerate() {
            let mouse_moves = row.count_ones() as u8;
            for (cat, &cat_moves) in cat_moves[..n].iter().enumerate().skip(masks.first_cat) {
                let mouse_at = index(mouse, cat, MOUSE_TURN);
                let cat_at = index(mouse, cat, CAT_TURN);
                self.left[mouse_at] = mouse_moves;
                self.left[cat_at] = cat_moves;
                // The mouse on the cat is a cat win, on a hole too (when the cat may enter
                // one); the test of the hole comes first, as it depends on the row alone.
                let terminal = if mouse < masks.holes && (masks.first_cat > 0 || mouse != cat) {
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
                // The cat came from a node where it may stand.
                (CAT_TURN, CAT_WINS, incoming[cat] & cat_nodes)
            } else {
                (MOUSE_TURN, MOUSE_WINS, incoming[mouse])
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
    use crate::variant::Variant;
    use cmg_solve::variant_reference::VariantReference;
    use cmg_solve::{solve, Game, Outcome, Player, Position, Rules};

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

    /// Every position, both turns, on 300 random graphs of 3 to 64 nodes, against
    /// `cmg_solve::solve`.
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
            // A variant where the cat enters the hole first, which writes the positions with
            // the cat on the hole: the standard table must not show them.
            let cat_in_the_hole = Variant {
                holes: 1,
                mouse: 1,
                cat: 2,
                cat_first: false,
                cat_enters_holes: true,
                limit: None,
                directed: false,
            };
            evaluator.variant_starts(&graph, None, &cat_in_the_hole);
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

    /// A random variant in the search's labels: 1 to 3 holes on the first nodes, the
    /// other rules drawn, edges one-way or not; the start labels are the holes' next ones.
    fn random_variant(rng: &mut Rng, n: usize) -> Variant {
        let holes = 1 + rng.below(3.min(n as u64 - 2)) as usize;
        Variant {
            holes: (1 << holes) - 1,
            mouse: holes,
            cat: holes + 1,
            cat_first: rng.below(2) == 0,
            cat_enters_holes: rng.below(2) == 0,
            limit: (rng.below(2) == 0).then(|| 1 + rng.below(12) as u32),
            directed: rng.below(2) == 0,
        }
    }

    /// A random graph for `variant`: arcs drawn one by one when it is directed.
    fn random_board(rng: &mut Rng, n: usize, edge_chance: u64, variant: &Variant) -> Graph {
        if !variant.directed {
            return random_graph(rng, n, edge_chance);
        }
        let mut graph = Graph::empty(n);
        for u in 0..n {
            for v in (0..n).filter(|&v| v != u) {
                if rng.below(100) < edge_chance {
                    graph.toggle_arc(u, v);
                }
            }
        }
        graph
    }

    /// The solver's game for a variant in the search's labels, without its limit.
    fn solver_game(graph: &Graph, variant: &Variant) -> Game {
        Game::with_rules(
            &graph.adjacency(),
            Rules {
                holes: (0..variant.hole_count() as u32).collect(),
                cat_enters_holes: variant.cat_enters_holes,
                limit: None,
                cat_on_holes: false,
            },
        )
    }

    /// Every position of a variant's full table, both turns, on random graphs of 4 to 64
    /// nodes (one-way edges or not, several holes, the cat in the holes), against
    /// `cmg_solve` solving the same game; the positions with the cat on a hole it may not
    /// enter cannot arise and are left out.
    #[test]
    fn variants_agree_with_the_solver_on_every_position() {
        let mut rng = Rng::new(23);
        let mut evaluator = Evaluator::new();
        let mut long_games = 0;
        for case in 0..240 {
            let n = 4 + (case % 61);
            let variant = random_variant(&mut rng, n);
            let chance = [3, 8, 20, 50][case % 4];
            let graph = random_board(&mut rng, n, chance, &variant);
            let solution = solve(&solver_game(&graph, &variant));
            // A standard solve first, so that the variant's table is not the first written.
            evaluator.start(&random_graph(&mut rng, n, 20));
            let table = evaluator.variant_all(&graph, &variant);
            for mouse in 0..n {
                for cat in 0..n {
                    if cat < variant.hole_count() && !variant.cat_enters_holes {
                        continue;
                    }
                    for (turn, mouse_turn) in [(Player::Mouse, true), (Player::Cat, false)] {
                        let pos = Position {
                            mouse: mouse as u32,
                            cat: cat as u32,
                            turn,
                        };
                        let expected = match (
                            solution.outcome_within(pos, None),
                            solution.moves_within(pos, None),
                        ) {
                            (Outcome::MouseWins, Some(moves)) => Some((Winner::Mouse, moves)),
                            (Outcome::CatWins, Some(moves)) => Some((Winner::Cat, moves)),
                            _ => None,
                        };
                        long_games += usize::from(expected.is_some_and(|(_, moves)| moves > 4));
                        assert_eq!(
                            table(mouse, cat, mouse_turn),
                            expected,
                            "{pos:?} in case {case}, {variant:?}"
                        );
                    }
                }
            }
        }
        assert!(long_games > 1000, "{long_games}");
    }

    /// The longest start of a variant and the sum over its starts, under its turn limit
    /// and first player, against the reference's layers of backward induction (which
    /// steps through the limit one move at a time), on small random graphs.
    #[test]
    fn variant_starts_agree_with_the_reference() {
        let mut rng = Rng::new(29);
        let mut evaluator = Evaluator::new();
        let mut cut_by_the_limit = 0;
        for case in 0..300 {
            let n = 4 + (case % 4);
            let variant = random_variant(&mut rng, n);
            let graph = random_board(&mut rng, n, [25, 40, 60][case % 3], &variant);
            let holes: Vec<u32> = (0..variant.hole_count() as u32).collect();
            let reference =
                VariantReference::new(&graph.adjacency(), &holes, variant.cat_enters_holes);
            let layers = reference.layers(4 * (n * n) as u32 + 2);
            let unlimited = layers.last().expect("a layer");
            let layer = variant.limit.map_or(unlimited, |limit| {
                &layers[(limit as usize).min(layers.len() - 1)]
            });
            let turn = if variant.cat_first {
                Player::Cat
            } else {
                Player::Mouse
            };
            let (mut longest, mut total) = (None, 0);
            for mouse in variant.hole_count()..n {
                for cat in (variant.hole_count()..n).filter(|&cat| cat != mouse) {
                    let pos = Position {
                        mouse: mouse as u32,
                        cat: cat as u32,
                        turn,
                    };
                    cut_by_the_limit +=
                        usize::from(layer[&pos].is_none() && unlimited[&pos].is_some());
                    let Some((outcome, moves)) = layer[&pos] else {
                        continue;
                    };
                    let winner = match outcome {
                        Outcome::MouseWins => Winner::Mouse,
                        _ => Winner::Cat,
                    };
                    total += u64::from(moves);
                    if longest.is_none_or(|(_, most)| moves > most) {
                        longest = Some((winner, moves));
                    }
                }
            }
            let starts = evaluator.variant_starts(&graph, None, &variant);
            assert_eq!(starts.total, total, "case {case}, {variant:?}");
            assert_eq!(
                starts.longest.map(|start| (start.winner, start.moves)),
                longest,
                "case {case}, {variant:?} on {:?}",
                graph.adjacency()
            );
        }
        assert!(cut_by_the_limit > 20, "{cut_by_the_limit}");
    }
}
