//! The core behind a small JSON interface, for WebAssembly: one open document, analysed
//! and solved once per text, and the editor features and the game view asked of it.
//!
//! [`Document::open`] takes the text and answers its summary (outcome, moves, the
//! optimal line, diagnostics); [`Document::request`] answers one JSON request about the
//! open text (`summary`, `format`, `hover`, `inlayHints`, `codeActions`, `scene`,
//! `semanticTokens`, `highlights`, `slice`). The requests and answers are typed in
//! [`protocol`], their one home. The same functions run natively in the tests; `abi.rs`
//! puts them behind the exports of the `.wasm`, and `docs/dev/wasm.md` describes both.
//!
//! Positions are `{line, character}`, both from 0, the character in UTF-16 code units,
//! as in the language server protocol and JavaScript strings (`position.rs`); the
//! library's byte offsets never cross the boundary. The solver runs on this one thread, under the
//! server's default limits ([`editor_defaults`]).

mod abi;
mod position;
pub mod protocol;

use std::sync::atomic::AtomicBool;

use serde_json::{json, Value};

use cmg_core::analysis::{
    describe, editor_defaults, no_game_reason, outcome_keyword, start_position, Analysis,
    MemorySetting, SolveLimits, SolvePlan, TooLarge,
};
use cmg_core::explain::{explain_pending, solve_first, Solved, WhatIfBudget, WhatIfState};
use cmg_core::model::Code;
use cmg_ide::code_lens::line_ids;
use cmg_ide::inlay_hints::{self as ide_hints, inlay_hints, InlayHintConfig};
use cmg_ide::semantic_tokens::{semantic_tokens_in, TokenKind};
use cmg_ide::view::{add_explanations, scene, slice, Positions};
use cmg_solve::Player;
use protocol::{
    ActionKind, CodeAction, Diagnostic, Formatted, Highlight, HighlightKind, Hover, InlayHint,
    InlayHintKind, Position, Range, Related, Request, SemanticTokens, Summary, TextEdit, Turn,
};

/// The solver's configuration here: one thread, whatever the platform offers.
pub const SOLVER_CONFIG: cmg_solve::Config = cmg_solve::Config {
    engine: cmg_solve::Engine::Hybrid,
    threads: Some(1),
};

/// The open document: its analysis and the state of its solve, or why it has none.
pub struct Document {
    state: State,
}

enum State {
    /// Longer than [`editor_defaults::MAX_DOCUMENT_BYTES`]: not analysed, every feature
    /// answers empty.
    Refused { bytes: usize },
    Analysed {
        analysis: Box<Analysis>,
        solve: Solve,
    },
}

/// What became of the solve of an analysed text.
enum Solve {
    /// Solved; the what-if, which takes a solve per edge, is left pending and computed
    /// on the first request that shows it (`hover`, `scene`), so that a keystroke's
    /// summary does not wait for it.
    Solved(Box<Solved>),
    TooLarge(TooLarge),
    /// Node 1 or node 2 is missing.
    NoGame,
}

impl Default for Document {
    fn default() -> Document {
        Document::open(String::new()).0
    }
}

impl Document {
    /// Analyses and solves `text`, and answers its summary (`docs/dev/wasm.md`).
    pub fn open(text: String) -> (Document, Value) {
        let bytes = text.len();
        let document = if bytes > editor_defaults::MAX_DOCUMENT_BYTES {
            Document {
                state: State::Refused { bytes },
            }
        } else {
            let analysis = Box::new(Analysis::new(text));
            let solve = solve(&analysis);
            Document {
                state: State::Analysed { analysis, solve },
            }
        };
        let summary = to_value(document.summary());
        (document, summary)
    }

    /// The outcome of the standard start, the optimal line and the diagnostics.
    pub fn summary(&self) -> Summary {
        let (analysis, solve) = match &self.state {
            State::Refused { bytes } => {
                let limit = editor_defaults::MAX_DOCUMENT_BYTES;
                let message = format!(
                    "this document has {bytes} bytes, above the analysis limit of {limit} bytes, so it is not analysed: run `cmg check`"
                );
                let start = Position::default();
                return Summary {
                    outcome: None,
                    result: None,
                    moves: None,
                    summary: message.clone(),
                    reason: Some(message.clone()),
                    nodes: 0,
                    edges: 0,
                    line: Vec::new(),
                    complete: false,
                    syntax_errors: 0,
                    diagnostics: vec![Diagnostic {
                        code: Code::TooLarge.as_str(),
                        severity: Code::TooLarge.severity().as_str(),
                        message,
                        range: Range { start, end: start },
                        related: None,
                    }],
                    diagnostics_omitted: 0,
                };
            }
            State::Analysed { analysis, solve } => (analysis, solve),
        };
        let graph = &analysis.model.graph;
        let (solution, too_large) = match solve {
            Solve::Solved(solved) => (Some(&*solved.solution), None),
            Solve::TooLarge(too_large) => (None, Some(too_large)),
            Solve::NoGame => (None, None),
        };
        let capped =
            analysis.diagnostics_capped(solution, too_large, editor_defaults::MAX_DIAGNOSTICS);
        let lines = &analysis.line_index;
        let diagnostics = capped
            .shown
            .iter()
            .map(|d| Diagnostic {
                code: d.code.as_str(),
                severity: d.severity().as_str(),
                message: d.message.clone(),
                range: Range::of(lines, d.range),
                related: d.related.as_ref().map(|related| Related {
                    message: related.message.to_owned(),
                    range: Range::of(lines, related.range),
                }),
            })
            .collect();
        let syntax_errors = count(analysis.parse.errors.len());
        let mut summary = Summary {
            outcome: None,
            result: None,
            moves: None,
            summary: String::new(),
            reason: None,
            line: Vec::new(),
            nodes: count(graph.node_count()),
            edges: count(graph.edge_count()),
            complete: syntax_errors == 0,
            syntax_errors,
            diagnostics,
            diagnostics_omitted: capped.hidden.map_or(0, |hidden| count(hidden.count)),
        };
        match (solution, start_position(graph)) {
            (Some(solution), Some(start)) => {
                let outcome = solution.outcome(start);
                let moves = solution.moves_to_end(start);
                summary.outcome = Some(outcome_keyword(outcome));
                summary.result = Some(outcome.code());
                summary.moves = moves;
                summary.summary = describe(outcome, moves);
                summary.line = line_ids(graph, &solution.line(start));
            }
            _ => {
                let reason = match too_large {
                    Some(too_large) => too_large.message(),
                    None => no_game_reason(graph),
                };
                summary.summary = reason.clone();
                summary.reason = Some(reason);
            }
        }
        summary
    }

    /// Answers one request about the open text: `{"method": ..., ...}` in, the answer
    /// out (`null` when there is none); an unknown method or bad parameters give
    /// `{"error": message}`.
    pub fn request(&mut self, request: &str) -> Value {
        match serde_json::from_str::<Request>(request) {
            Ok(request) => self.answer(request),
            Err(error) => json!({ "error": format!("cmg-wasm: bad request: {error}") }),
        }
    }

    fn answer(&mut self, request: Request) -> Value {
        if let Request::Summary = request {
            return to_value(self.summary());
        }
        let State::Analysed { analysis, solve } = &mut self.state else {
            return Value::Null;
        };
        if matches!(
            request,
            Request::Hover { explain: true, .. } | Request::Scene { explain: true, .. }
        ) {
            explain(solve);
        }
        let (analysis, solve) = (&*analysis, &*solve);
        // A request that did not ask for the what-if says it is not computed: nothing
        // here computes it later by itself, as the server does.
        let unexplained;
        let solved = match solve {
            Solve::Solved(solved) if solved.what_if == WhatIfState::Pending => {
                unexplained = Solved {
                    solution: solved.solution.clone(),
                    what_if: WhatIfState::NotComputed("not computed yet".to_owned()),
                };
                Some(&unexplained)
            }
            Solve::Solved(solved) => Some(solved.as_ref()),
            _ => None,
        };
        let solution = solved.map(|solved| &*solved.solution);
        let lines = &analysis.line_index;
        match request {
            Request::Summary => unreachable!("answered above"),
            Request::Format => to_value(Formatted {
                text: cmg_ide::format(&analysis.text, &analysis.parse),
            }),
            Request::Hover { position, .. } => {
                let offset = position.offset(lines);
                to_value(
                    cmg_ide::hover::hover(analysis, solved, offset).map(|hover| Hover {
                        range: Range::of(lines, hover.range),
                        markdown: hover.markdown,
                    }),
                )
            }
            Request::InlayHints => {
                let hints = inlay_hints(analysis, solution, &InlayHintConfig::default());
                let hints: Vec<InlayHint> = hints
                    .into_iter()
                    .map(|hint| InlayHint {
                        position: Position::of(lines, hint.offset),
                        label: hint.label,
                        kind: match hint.kind {
                            ide_hints::InlayHintKind::Outcome => InlayHintKind::Outcome,
                            ide_hints::InlayHintKind::NodeOutcome => InlayHintKind::NodeOutcome,
                            ide_hints::InlayHintKind::CriticalEdge => InlayHintKind::CriticalEdge,
                        },
                        tooltip: hint.tooltip,
                        padding_left: hint.pad_left,
                        padding_right: hint.pad_right,
                    })
                    .collect();
                to_value(hints)
            }
            Request::CodeActions { range } => {
                let range = range.text_range(lines);
                let actions: Vec<CodeAction> =
                    cmg_ide::actions::code_actions(analysis, solution, range)
                        .into_iter()
                        .map(|action| CodeAction {
                            title: action.title,
                            kind: match action.kind {
                                cmg_ide::actions::ActionKind::QuickFix => ActionKind::Quickfix,
                                cmg_ide::actions::ActionKind::Refactor => ActionKind::Refactor,
                            },
                            fixes: action.fixes.map(|d| d.code.as_str()),
                            preferred: action.preferred,
                            edits: action
                                .edits
                                .iter()
                                .map(|edit| TextEdit {
                                    range: Range::of(lines, edit.range),
                                    new_text: edit.new_text.clone(),
                                })
                                .collect(),
                        })
                        .collect();
                to_value(actions)
            }
            Request::Scene { positions, explain } => {
                // JSON object keys are strings; the node ids that are not are dropped.
                let positions: Positions = positions
                    .into_iter()
                    .filter_map(|(id, at)| Some((id.parse().ok()?, at)))
                    .collect();
                let mut scene = scene(analysis, solution, &positions);
                if explain {
                    add_explanations(&mut scene, analysis, solved);
                }
                to_value(scene)
            }
            Request::SemanticTokens { range } => {
                let range = range.map(|range| range.text_range(lines));
                let tokens = semantic_tokens_in(analysis, range);
                // Four numbers a token, as the protocol has them but absolute: line,
                // character, length (UTF-16; a token never spans lines), kind (an
                // index into `kinds`).
                let mut data = Vec::with_capacity(tokens.len() * 4);
                for token in tokens {
                    let start = Position::of(lines, token.range.start);
                    let end = Position::of(lines, token.range.end);
                    let kind = TokenKind::ALL.iter().position(|&k| k == token.kind);
                    data.extend([
                        start.line,
                        start.character,
                        end.character.saturating_sub(start.character),
                        kind.unwrap_or_default() as u32,
                    ]);
                }
                let kinds = TokenKind::ALL.iter().map(|&k| token_name(k)).collect();
                to_value(SemanticTokens { kinds, data })
            }
            Request::Highlights { position } => {
                let offset = position.offset(lines);
                let highlights: Vec<Highlight> = cmg_ide::navigation::highlights(analysis, offset)
                    .into_iter()
                    .map(|highlight| Highlight {
                        range: Range::of(lines, highlight.range),
                        kind: match highlight.kind {
                            cmg_ide::navigation::HighlightKind::Read => HighlightKind::Read,
                            cmg_ide::navigation::HighlightKind::Write => HighlightKind::Write,
                        },
                    })
                    .collect();
                to_value(highlights)
            }
            Request::Slice { cat, turn } => {
                let player = match turn {
                    Turn::Mouse => Player::Mouse,
                    Turn::Cat => Player::Cat,
                };
                match slice(&analysis.model.graph, solution, cat, player) {
                    Ok(slice) => to_value(slice),
                    Err(error) => json!({ "error": format!("cmg-wasm: slice: {error}") }),
                }
            }
        }
    }
}

/// An answer as JSON; `null` if it cannot be written, which no answer's types allow.
fn to_value(answer: impl serde::Serialize) -> Value {
    serde_json::to_value(answer).unwrap_or(Value::Null)
}

/// A count across the boundary, where JavaScript numbers hold it exactly.
fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// The name of a token kind, for a page's class names: from the one table of kinds the
/// language server's legend also follows (`cmg_ide::semantic_tokens`). The web server's
/// legend (`editors/vscode/src/web/legend.ts`) is generated by these names.
pub fn token_name(kind: TokenKind) -> &'static str {
    match kind {
        TokenKind::Hole => "hole",
        TokenKind::MouseStart => "mouse-start",
        TokenKind::CatStart => "cat-start",
        TokenKind::Node => "node",
        TokenKind::Keyword => "keyword",
        TokenKind::Outcome => "outcome",
        TokenKind::String => "string",
        TokenKind::Comment => "comment",
        TokenKind::Operator => "operator",
        TokenKind::Punctuation => "punctuation",
    }
}

/// The server's solve job on one thread, under the server's default limits: the
/// solution and, within the editor's budget, the what-if.
fn solve(analysis: &Analysis) -> Solve {
    let limits = SolveLimits {
        max_nodes: Some(editor_defaults::MAX_NODES),
        max_memory: Some(editor_defaults::MAX_SOLVER_MEMORY_MIB << 20),
        memory_setting: MemorySetting::ServerSetting,
    };
    match analysis.solve_plan(limits) {
        SolvePlan::NoGame => Solve::NoGame,
        SolvePlan::TooLarge(too_large) => Solve::TooLarge(too_large),
        SolvePlan::Solve(game) => {
            // Nothing cancels a solve here: the page drops a stale answer instead.
            let never = AtomicBool::new(false);
            match solve_first(&game, SOLVER_CONFIG, WhatIfBudget::Editor, &never) {
                Some(solved) => Solve::Solved(Box::new(solved)),
                None => Solve::NoGame,
            }
        }
    }
}

/// Computes the what-if of a solved game once, within the editor's budget, as the
/// server's what-if job does; on this thread (`cmg_solve::available_threads`).
fn explain(solve: &mut Solve) {
    if let Solve::Solved(solved) = solve {
        if let Some(explained) =
            explain_pending(solved, SOLVER_CONFIG.threads, &AtomicBool::new(false))
        {
            **solved = explained;
        }
    }
}

#[cfg(test)]
mod tests;
