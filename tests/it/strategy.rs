//! Strategies and what-ifs checked from the rules alone: a checker that plays every line a strategy allows, and a fresh solve per removed edge.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::AtomicBool;

use cmg_core::analysis::{start_position, Analysis};
use cmg_solve::{
    solve, solve_with, strategy_players, what_if, what_if_with, without_edge, Config, Continuation,
    Engine, Game, Player, Position, Rules, Solution, Strategy, StrategyMove,
};

use crate::common::examples::example;

/// As many positions as any test graph here has (2·n² for n up to 300).
const ALL: usize = 1 << 20;

fn start() -> Position {
    Position {
        mouse: 1,
        cat: 2,
        turn: Player::Mouse,
    }
}

/// The legal moves at `pos`, from the game's lists and the rule that the cat never enters the hole.
fn legal(game: &Game, pos: Position) -> Vec<u32> {
    match pos.turn {
        Player::Mouse => game.neighbours(pos.mouse).to_vec(),
        Player::Cat => game
            .neighbours(pos.cat)
            .iter()
            .copied()
            .filter(|&next| Some(next) != game.hole())
            .collect(),
    }
}

fn after(pos: Position, next: u32) -> Position {
    match pos.turn {
        Player::Mouse => Position {
            mouse: next,
            turn: Player::Cat,
            ..pos
        },
        Player::Cat => Position {
            cat: next,
            turn: Player::Mouse,
            ..pos
        },
    }
}

/// Who has won at `pos`, if the game is over there.
fn winner(game: &Game, pos: Position) -> Option<Player> {
    if Some(pos.cat) == game.hole() {
        None
    } else if Some(pos.mouse) == game.hole() {
        Some(Player::Mouse)
    } else if pos.mouse == pos.cat {
        Some(Player::Cat)
    } else {
        None
    }
}

/// A position with the moves left before the turn limit (`None`: no limit).
type Timed = (Position, Option<u32>);

fn table(strategy: &Strategy) -> HashMap<Timed, u32> {
    strategy
        .moves
        .iter()
        .map(|step| ((step.position, step.moves_left), step.to))
        .collect()
}

/// Checks that `strategy` wins from `start` for its player: every line it allows ends in the
/// player's terminal, the longest (the loser's best defence) in exactly `moves` moves, within
/// the game's turn limit, and it has an entry at exactly the positions those lines reach with
/// the player to move.
fn check_win(game: &Game, start: Position, strategy: &Strategy, moves: u32) -> Result<(), String> {
    struct Walk<'a> {
        game: &'a Game,
        player: Player,
        moves: HashMap<Timed, u32>,
        longest: HashMap<Timed, u32>,
        on_stack: HashSet<Timed>,
        used: HashSet<Timed>,
    }
    impl Walk<'_> {
        fn longest(&mut self, at: Timed) -> Result<u32, String> {
            let (pos, left) = at;
            if let Some(&known) = self.longest.get(&at) {
                return Ok(known);
            }
            match winner(self.game, pos) {
                Some(player) if player == self.player => return Ok(0),
                Some(_) => return Err(format!("{pos:?}: the opponent wins")),
                None => {}
            }
            if left == Some(0) {
                return Err(format!("{pos:?}: the turn limit is reached, a draw"));
            }
            if !self.on_stack.insert(at) {
                return Err(format!("{pos:?}: the line comes back, a draw"));
            }
            let nexts = if pos.turn == self.player {
                let next = *self
                    .moves
                    .get(&at)
                    .ok_or(format!("{at:?}: no move for a reachable position"))?;
                if !legal(self.game, pos).contains(&next) {
                    return Err(format!("{pos:?}: {next} is not a legal move"));
                }
                self.used.insert(at);
                vec![next]
            } else {
                legal(self.game, pos)
            };
            if nexts.is_empty() {
                return Err(format!("{pos:?}: the opponent has no move, a draw"));
            }
            let mut most = 0;
            for next in nexts {
                most = most.max(1 + self.longest((after(pos, next), left.map(|left| left - 1)))?);
            }
            self.on_stack.remove(&at);
            self.longest.insert(at, most);
            Ok(most)
        }
    }
    let mut walk = Walk {
        game,
        player: strategy.player,
        moves: table(strategy),
        longest: HashMap::new(),
        on_stack: HashSet::new(),
        used: HashSet::new(),
    };
    let longest = walk.longest((start, game.limit()))?;
    if longest != moves {
        return Err(format!(
            "the longest line takes {longest} moves, not {moves}"
        ));
    }
    if walk.used.len() != walk.moves.len() {
        return Err("entries for positions no line reaches".to_owned());
    }
    Ok(())
}

/// Checks that `strategy` never loses from `start`: no line it allows reaches the opponent's
/// terminal before the game's turn limit, and it has an entry at exactly the reachable
/// positions where its player can move.
fn check_never_loses(game: &Game, start: Position, strategy: &Strategy) -> Result<(), String> {
    let moves = table(strategy);
    let first = (start, game.limit());
    let mut seen = HashSet::from([first]);
    let mut stack = vec![first];
    let mut used = 0;
    while let Some(at) = stack.pop() {
        let (pos, left) = at;
        match winner(game, pos) {
            Some(player) if player == strategy.player => continue,
            Some(_) => return Err(format!("{pos:?}: the opponent wins")),
            None => {}
        }
        if left == Some(0) {
            continue;
        }
        let legal = legal(game, pos);
        let nexts = if pos.turn == strategy.player && !legal.is_empty() {
            let next = *moves
                .get(&at)
                .ok_or(format!("{at:?}: no move for a reachable position"))?;
            if !legal.contains(&next) {
                return Err(format!("{pos:?}: {next} is not a legal move"));
            }
            used += 1;
            vec![next]
        } else {
            legal
        };
        for next in nexts {
            let child = (after(pos, next), left.map(|left| left - 1));
            if seen.insert(child) {
                stack.push(child);
            }
        }
    }
    if used != moves.len() {
        return Err("entries for positions no line reaches".to_owned());
    }
    Ok(())
}

/// Checks every strategy `solution` gives for `start`, and that they are the winner's alone or
/// one per player for a draw.
fn check_strategies(solution: &Solution, start: Position) -> Vec<Strategy> {
    let game = solution.game();
    let outcome = solution.outcome(start);
    let strategies = solution.strategies(start, ALL);
    let players: Vec<Player> = strategies.iter().map(|s| s.player).collect();
    assert_eq!(players, strategy_players(outcome));
    for strategy in &strategies {
        assert!(strategy.complete);
        let checked = match solution.moves_to_end(start) {
            Some(moves) => check_win(game, start, strategy, moves),
            None => check_never_loses(game, start, strategy),
        };
        if let Err(error) = checked {
            panic!("{:?} strategy of {outcome:?}: {error}", strategy.player);
        }
        // The moves are the solver's, tie-breaks included.
        for step in &strategy.moves {
            assert_eq!(
                solution.best_move_within(step.position, step.moves_left),
                Some(step.to),
                "{step:?}"
            );
        }
        check_tree_matches(solution, start, strategy);
    }
    strategies
}

/// The whole tree (no depth limit) shows the strategist's move at exactly the strategy's positions.
fn check_tree_matches(solution: &Solution, start: Position, strategy: &Strategy) {
    let tree = solution.strategy_tree(strategy.player, start, u32::MAX, usize::MAX);
    assert!(!tree.truncated);
    let mut shown = Vec::new();
    for line in &tree.lines {
        assert_ne!(line.next, Continuation::Folded);
        if line.mover == strategy.player {
            let before = match line.mover {
                Player::Mouse => Position {
                    mouse: line.from,
                    turn: Player::Mouse,
                    ..line.position
                },
                Player::Cat => Position {
                    cat: line.from,
                    turn: Player::Cat,
                    ..line.position
                },
            };
            shown.push(StrategyMove {
                position: before,
                moves_left: line.moves_left.map(|left| left + 1),
                to: line.to,
            });
        }
    }
    shown.sort_unstable_by_key(|step| {
        (
            step.position.mouse,
            step.position.cat,
            std::cmp::Reverse(step.moves_left),
        )
    });
    assert_eq!(shown, strategy.moves);
}

/// Changes one move on the optimal line to one that is not as good, and returns the broken
/// strategy, or `None` when no move on the line has a worse alternative.
fn mutate(solution: &Solution, start: Position, strategy: &Strategy) -> Option<Strategy> {
    let player = strategy.player;
    for pos in solution.line(start) {
        if pos.turn != player || solution.is_terminal(pos) {
            continue;
        }
        let best = solution.best_move(pos)?;
        let ranked = solution.ranked_moves(pos);
        let child_of = |next| after(pos, next);
        let worse = ranked.into_iter().find(|&next| {
            let (child, best_child) = (child_of(next), child_of(best));
            solution.outcome(child) != solution.outcome(best_child)
                || solution.moves_to_end(child) != solution.moves_to_end(best_child)
        });
        if let Some(worse) = worse {
            let mut broken = strategy.clone();
            for entry in &mut broken.moves {
                if entry.position == pos {
                    entry.to = worse;
                }
            }
            return Some(broken);
        }
    }
    None
}

/// A connected random graph on `nodes` nodes with about `nodes * degree / 2` edges, hole 0:
/// a random spanning tree on shuffled labels (so that node 1 is not always next to the
/// hole) and random extra pairs.
fn random_graph(nodes: usize, degree: usize, seed: u64) -> Game {
    let mut rng = cmg_solve::test_rng::XorShift(seed);
    let mut label: Vec<u32> = (0..nodes as u32).collect();
    for i in (1..nodes).rev() {
        label.swap(i, rng.below(i as u32 + 1) as usize);
    }
    let mut adjacency = vec![Vec::new(); nodes];
    for node in 1..nodes {
        let (a, b) = (label[node], label[rng.below(node as u32) as usize]);
        adjacency[a as usize].push(b);
        adjacency[b as usize].push(a);
    }
    for _ in nodes - 1..nodes * degree / 2 {
        let (a, b) = (rng.below(nodes as u32), rng.below(nodes as u32));
        adjacency[a as usize].push(b);
        adjacency[b as usize].push(a);
    }
    Game::new(&adjacency, Some(0))
}

fn random_games() -> Vec<Game> {
    let count = if crate::common::slow_tests() { 400 } else { 80 };
    (0..count)
        .map(|seed| random_graph(4 + seed as usize % 9, 2 + seed as usize % 3, 0x9e37 + seed))
        .collect()
}

/// `game` with one direction of some of its edges dropped (each with chance 1 in
/// `one_in`): a one-sided game, as an adjacency list the puzzle's checks would refuse.
fn one_sided(game: &Game, one_in: u32, seed: u64) -> Game {
    let mut rng = cmg_solve::test_rng::XorShift(seed);
    let adjacency: Vec<Vec<u32>> = (0..game.node_count() as u32)
        .map(|node| {
            game.neighbours(node)
                .iter()
                .copied()
                .filter(|_| rng.below(one_in) != 0)
                .collect()
        })
        .collect();
    Game::new(&adjacency, game.hole())
}

/// The examples whose strategies and what-ifs the tests walk: one of each outcome, and
/// a long game.
const EXAMPLE_GAMES: [&str; 4] = [
    "long-game.cmg",
    "cat-wins.cmg",
    "leetcode-draw.cmg",
    "leetcode-mouse.cmg",
];

/// An example's solution and start position.
fn example_game(name: &str) -> (Solution, Position) {
    let analysis = Analysis::new(std::fs::read_to_string(example(name)).unwrap());
    let game = analysis.game().expect("the example has a game");
    (solve(&game), start_position(&analysis.model.graph).unwrap())
}

#[test]
fn strategies_of_random_graphs_check_on_every_engine() {
    let mut outcomes = HashSet::new();
    for game in random_games() {
        let reference = check_strategies(&solve(&game), start());
        for engine in [Engine::Queue, Engine::Rounds, Engine::SwitchAfter(2)] {
            let config = Config {
                engine,
                threads: Some(1),
            };
            let solution = solve_with(&game, config, &AtomicBool::new(false)).unwrap();
            assert_eq!(
                check_strategies(&solution, start()),
                reference,
                "{engine:?}"
            );
        }
        outcomes.insert(solve(&game).outcome(start()));
    }
    // The graphs cover all three outcomes, so both checkers ran.
    assert_eq!(outcomes.len(), 3);
}

/// `game` with a turn limit of `limit` moves.
fn limited(game: &Game, limit: u32) -> Game {
    let lists: Vec<Vec<u32>> = (0..game.node_count() as u32)
        .map(|node| game.neighbours(node).to_vec())
        .collect();
    Game::with_rules(
        &lists,
        Rules {
            holes: game.hole().into_iter().collect(),
            limit: Some(limit),
            ..Rules::default()
        },
    )
}

/// Under a turn limit a strategy's move depends on the moves left: the walks, the trees and
/// the checkers all go by position and moves left. Limits below, at and above the
/// unlimited game's length, on two-sided and one-sided graphs, so that wins, draws made by
/// the limit, and wins the limit does not reach are all met.
#[test]
fn strategies_under_a_turn_limit_check() {
    let mut kinds = HashSet::new();
    for (i, game) in random_games().into_iter().enumerate() {
        let game = if i % 3 == 0 {
            one_sided(&game, 4, 0x51 + i as u64)
        } else {
            game
        };
        let unlimited = solve(&game).moves_to_end(start()).unwrap_or(6);
        for limit in [
            1,
            2,
            unlimited.saturating_sub(1).max(1),
            unlimited,
            unlimited + 3,
        ] {
            let solution = solve(&limited(&game, limit));
            let outcome = solution.outcome(start());
            kinds.insert((outcome, solve(&game).outcome(start()) == outcome));
            check_strategies(&solution, start());
        }
    }
    // Wins kept, wins the limit turns into draws, and draws.
    for kind in [
        (cmg_solve::Outcome::MouseWins, true),
        (cmg_solve::Outcome::CatWins, true),
        (cmg_solve::Outcome::Draw, true),
        (cmg_solve::Outcome::Draw, false),
    ] {
        assert!(kinds.contains(&kind), "{kind:?} not met: {kinds:?}");
    }
}

#[test]
fn strategies_of_the_examples_check() {
    for name in EXAMPLE_GAMES {
        let (solution, start) = example_game(name);
        check_strategies(&solution, start);
    }
}

#[test]
fn a_mutated_move_fails_the_checker() {
    let mut broken_count = 0;
    for game in random_games() {
        let solution = solve(&game);
        for strategy in solution.strategies(start(), ALL) {
            let Some(broken) = mutate(&solution, start(), &strategy) else {
                continue;
            };
            let checked = match solution.moves_to_end(start()) {
                Some(moves) => check_win(&game, start(), &broken, moves),
                None => check_never_loses(&game, start(), &broken),
            };
            assert!(checked.is_err(), "{broken:?}");
            broken_count += 1;
        }
    }
    assert!(broken_count > 20, "{broken_count}");
}

/// Every what-if equals a fresh solve without the edge, and the walks spare some solves.
/// An edge's what-if is what a fresh solve of the game without it gives.
fn assert_fresh(game: &Game, edge: &cmg_solve::EdgeOutcome, context: &str) {
    let fresh = solve(&without_edge(game, edge.edge));
    assert_eq!(
        (edge.outcome, edge.moves),
        (fresh.outcome(start()), fresh.moves_to_end(start())),
        "{context} edge {:?}",
        edge.edge
    );
}

/// Every edge of the what-if of `game` from the start, against a fresh solve; the number
/// of edges it spared a solve of their own.
fn assert_every_edge_fresh(game: &Game, context: &str) -> usize {
    let solution = solve(game);
    let what_if = what_if(&solution, start(), ALL, &AtomicBool::new(false)).unwrap();
    for edge in &what_if.edges {
        assert_fresh(game, edge, context);
    }
    what_if.edges.len() - what_if.solved
}

/// The what-if's reuse of work holds on one-sided games too, where a player's only move
/// may go along an edge that the other direction does not mirror: every edge's outcome
/// is a fresh solve's.
#[test]
fn what_if_matches_fresh_solves_on_one_sided_games() {
    let count = if crate::common::slow_tests() {
        6000
    } else {
        3000
    };
    let mut spared = 0;
    for seed in 0..count {
        let symmetric = random_graph(4 + seed as usize % 9, 2 + seed as usize % 3, 0x51de + seed);
        let game = one_sided(&symmetric, 3, seed);
        spared += assert_every_edge_fresh(&game, &format!("seed {seed}"));
    }
    assert!(spared > 0, "no work was reused");
}

/// How many edges of each example get a solve of their own: the walks spare the others.
/// Pinned, so that a change that makes the what-if solve more (a looser "used" test,
/// which stays exact and only costs time) is seen.
#[test]
fn the_what_if_solves_only_the_edges_the_walks_use() {
    let mut counts = Vec::new();
    for name in EXAMPLE_GAMES {
        let (solution, start) = example_game(name);
        let what_if = what_if(&solution, start, ALL, &AtomicBool::new(false)).unwrap();
        counts.push(format!(
            "{name}: {} of {}",
            what_if.solved,
            what_if.edges.len()
        ));
    }
    expect_test::expect![[r#"
        long-game.cmg: 19 of 21
        cat-wins.cmg: 2 of 3
        leetcode-draw.cmg: 7 of 7
        leetcode-mouse.cmg: 1 of 3"#]]
    .assert_eq(&counts.join("\n"));
}

#[test]
fn what_if_matches_fresh_solves() {
    let mut spared = 0;
    let mut critical = 0;
    for game in random_games() {
        let solution = solve(&game);
        let now = solution.outcome(start());
        let what_if = what_if(&solution, start(), ALL, &AtomicBool::new(false)).unwrap();
        assert_eq!(what_if.edges.len(), game.edge_count());
        for edge in &what_if.edges {
            assert_fresh(&game, edge, "");
            // Critical: the result changes, in any direction.
            assert_eq!(edge.critical, edge.outcome != now);
            critical += usize::from(edge.critical);
        }
        spared += what_if.edges.len() - what_if.solved;
    }
    assert!(
        spared > 0 && critical > 0,
        "spared {spared}, critical {critical}"
    );
}

/// Under a turn limit the walks that spare solves go by moves left too: every edge's
/// outcome is still a fresh solve's of the limited game without it.
#[test]
fn what_if_matches_fresh_solves_under_a_turn_limit() {
    let mut spared = 0;
    for game in random_games() {
        let unlimited = solve(&game).moves_to_end(start()).unwrap_or(4);
        for limit in [1, 2, 3, unlimited.saturating_sub(1).max(1), unlimited + 1] {
            let game = limited(&game, limit);
            spared += assert_every_edge_fresh(&game, &format!("limit {limit}"));
        }
    }
    assert!(spared > 0, "spared {spared}");
}

/// The solves spread over threads give what one thread gives, edge by edge.
#[test]
fn what_if_is_the_same_on_any_number_of_threads() {
    let never = AtomicBool::new(false);
    for game in random_games() {
        let solution = solve(&game);
        for cut in [ALL, 1] {
            let one = what_if_with(&solution, start(), cut, Some(1), &never).unwrap();
            for threads in [2, 3, 64] {
                let many = what_if_with(&solution, start(), cut, Some(threads), &never);
                assert_eq!(many.as_ref(), Some(&one), "{threads} threads");
            }
        }
    }
}

#[test]
fn what_if_stops_when_cancelled() {
    let game = random_graph(12, 3, 7);
    let solution = solve(&game);
    for threads in [Some(1), Some(2), None] {
        assert_eq!(
            what_if_with(&solution, start(), ALL, threads, &AtomicBool::new(true)),
            None,
            "{threads:?}"
        );
    }
}

/// A walk cut short by its position limit solves every edge, and still gets them right.
#[test]
fn what_if_with_a_tiny_walk_limit_solves_every_edge() {
    let game = random_graph(10, 3, 11);
    let solution = solve(&game);
    let full = what_if(&solution, start(), ALL, &AtomicBool::new(false)).unwrap();
    let cut = what_if(&solution, start(), 1, &AtomicBool::new(false)).unwrap();
    assert_eq!(cut.edges, full.edges);
    assert_eq!(cut.solved, game.edge_count());
}
