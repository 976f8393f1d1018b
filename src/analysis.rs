//! One file's analysis from text to outcome: what the CLI and the server both start from.

use crate::model::{Code, Diagnostic, Graph, Model};
use crate::solve::{Game, Outcome, Player, Position, Solution, MAX_NODES};
use crate::syntax::{parse, ExpectedOutcome, LineIndex, Parse};

/// The cheap part of an analysis: parse and model, done on every keystroke.
#[derive(Clone, Debug)]
pub struct Analysis {
    pub text: String,
    pub parse: Parse,
    pub model: Model,
    pub line_index: LineIndex,
}

impl Analysis {
    /// Takes the text by value when the caller has a `String` to give, so that it is
    /// not copied on every keystroke.
    pub fn new(text: impl Into<String>) -> Analysis {
        let text = text.into();
        let parse = parse(&text);
        let model = Model::new(&text, &parse);
        Analysis {
            line_index: LineIndex::new(&text),
            text,
            parse,
            model,
        }
    }

    /// Every diagnostic of the file, sorted by position: the model's and, given the
    /// solution of this graph, the check of each `expect` against it.
    pub fn diagnostics(&self, solution: Option<&Solution>) -> Vec<Diagnostic> {
        let mut diagnostics = self.model.diagnostics.clone();
        suppress_knock_on_errors(&mut diagnostics);
        if let Some(solution) = solution_for(&self.model.graph, solution) {
            diagnostics.extend(check_expectations(&self.model, solution));
        }
        sort_by_position(&mut diagnostics);
        diagnostics
    }

    /// The game to solve, or `None` when node 1 or node 2 is missing, or the graph is
    /// beyond what the solver can hold ([`MAX_NODES`]).
    pub fn game(&self) -> Option<Game> {
        game_of(&self.model.graph)
    }
}

pub fn game_of(graph: &Graph) -> Option<Game> {
    graph.mouse_start()?;
    graph.cat_start()?;
    if graph.node_count() > MAX_NODES {
        return None;
    }
    Some(Game::new(graph.adjacency(), graph.hole()))
}

/// With syntax errors in the file, the whole-file checks could be answered by the
/// text that was not read (`0 -> 1` mentions nodes 0 and 1), so they are left out
/// until the syntax is fixed, as a compiler leaves out errors caused by an earlier one.
fn suppress_knock_on_errors(diagnostics: &mut Vec<Diagnostic>) {
    if diagnostics.iter().any(|d| d.code == Code::Syntax) {
        diagnostics.retain(|d| {
            !matches!(
                d.code,
                Code::MissingMouse | Code::MissingCat | Code::MissingHole
            )
        });
    }
}

/// Orders diagnostics as a reader meets them; those at one place keep their order.
pub fn sort_by_position(diagnostics: &mut [Diagnostic]) {
    diagnostics.sort_by_key(|d| (d.range.start, d.range.end));
}

/// `solution` if it was solved for this graph. A solution for another version of a
/// document could name nodes the graph no longer has, and its queries panic on those;
/// the editor features call this before reading one.
pub fn solution_for<'a>(graph: &Graph, solution: Option<&'a Solution>) -> Option<&'a Solution> {
    solution.filter(|solution| solution.game().node_count() == graph.node_count())
}

/// The position every game starts from: mouse on node 1, cat on node 2, mouse to move.
pub fn start_position(graph: &Graph) -> Option<Position> {
    Some(Position {
        mouse: graph.mouse_start()?,
        cat: graph.cat_start()?,
        turn: Player::Mouse,
    })
}

/// The position where the mouse starts on the node at `index` instead of node 1.
pub fn mouse_starts_at(graph: &Graph, index: u32) -> Option<Position> {
    Some(Position {
        mouse: index,
        cat: graph.cat_start()?,
        turn: Player::Mouse,
    })
}

/// The position where the cat starts on the node at `index` instead of node 2.
pub fn cat_starts_at(graph: &Graph, index: u32) -> Option<Position> {
    Some(Position {
        mouse: graph.mouse_start()?,
        cat: index,
        turn: Player::Mouse,
    })
}

/// "mouse wins in 3", "cat wins in 1", "draw".
pub fn describe(outcome: Outcome, moves: Option<u32>) -> String {
    match (outcome, moves) {
        (Outcome::Draw, _) | (_, None) => "draw".to_owned(),
        (Outcome::MouseWins, Some(moves)) => format!("mouse wins in {moves}"),
        (Outcome::CatWins, Some(moves)) => format!("cat wins in {moves}"),
    }
}

/// The outcome a solution gives a position, in words.
pub fn describe_position(solution: &Solution, position: Position) -> String {
    describe(solution.outcome(position), solution.moves_to_end(position))
}

pub fn outcome_keyword(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::MouseWins => "mouse",
        Outcome::CatWins => "cat",
        Outcome::Draw => "draw",
    }
}

pub fn expected_outcome(expected: ExpectedOutcome) -> Outcome {
    match expected {
        ExpectedOutcome::Mouse => Outcome::MouseWins,
        ExpectedOutcome::Cat => Outcome::CatWins,
        ExpectedOutcome::Draw => Outcome::Draw,
    }
}

/// `expect-mismatch` for every `expect` the solved outcome disagrees with.
pub fn check_expectations(model: &Model, solution: &Solution) -> Vec<Diagnostic> {
    let Some(start) = start_position(&model.graph) else {
        return Vec::new();
    };
    let outcome = solution.outcome(start);
    let solved = describe(outcome, solution.moves_to_end(start));
    model
        .expects
        .iter()
        .filter(|expect| expected_outcome(expect.outcome) != outcome)
        .map(|expect| {
            Diagnostic::new(
                Code::ExpectMismatch,
                expect.range(),
                format!(
                    "`expect {}` disagrees with the solved outcome, {solved}: change it to `expect {}`",
                    expect.outcome.keyword(),
                    outcome_keyword(outcome),
                ),
            )
        })
        .collect()
}

/// `too-large`: the editor does not solve graphs above its live-solve limit.
pub fn too_large(analysis: &Analysis, limit: usize) -> Option<Diagnostic> {
    let nodes = analysis.model.graph.node_count();
    (nodes > limit).then(|| {
        let range = analysis
            .line_index
            .line_content(&analysis.text, 0)
            .unwrap_or_default();
        Diagnostic::new(
            Code::TooLarge,
            range,
            format!("the graph has {nodes} nodes, above the live-solve limit of {limit}, so the outcome is not computed here: raise the limit in the settings, or run `cmg solve`"),
        )
    })
}
