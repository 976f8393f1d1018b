//! Requests answered from one document snapshot: each calls an `ide` function and
//! turns its plain result into protocol types.

use std::collections::HashMap;
use std::sync::Arc;

use ropey::Rope;
use serde::{Deserialize, Serialize};
use serde_json::json;
use tower_lsp_server::jsonrpc::{Error, ErrorCode};
use tower_lsp_server::ls_types::*;

use cmg_core::analysis::Analysis;
use cmg_core::explain::Solved;
use cmg_ide::{
    self as ide, actions, completion, folding, inlay_hints, navigation, semantic_tokens,
};
use cmg_solve::Solution;
use cmg_syntax::TextRange;

use super::capabilities;
use super::config::Config;
use super::convert::{self, Encoding};
use super::documents::{Analysed, SolveState};

/// The command behind the "why" lens: the VS Code extension's own, which opens the game
/// view with the whole strategy tree in its panel (the server does not run it).
pub const OPEN_VIEW_COMMAND: &str = "cmg.openGameView";

/// What a request works on: one version of one document, copied out of the lock. The
/// solution, if any, is the one solved for exactly this version.
pub struct Snapshot {
    pub uri: Uri,
    /// The document version the analysis was made from.
    pub version: i32,
    /// Whether a solve of this version is still running (no solution yet).
    pub solving: bool,
    pub rope: Rope,
    pub analysis: Arc<Analysis>,
    /// The solution with its what-if.
    pub solution: Option<Arc<Solved>>,
    pub encoding: Encoding,
    pub config: Config,
    /// What the analysis was made from and the state of its solve, which its
    /// diagnostics are built from (the analysis here is an empty one when the document
    /// is too large to analyse and the snapshot is for a pull of diagnostics).
    pub analysed: Arc<Analysed>,
    pub solve: SolveState,
}

impl Snapshot {
    fn offset(&self, position: Position) -> u32 {
        convert::offset(&self.rope, self.encoding, position)
    }

    fn position(&self, offset: u32) -> Position {
        convert::position_in(&self.analysis.line_index, self.encoding, offset)
    }

    fn range(&self, range: TextRange) -> Range {
        convert::range_in(&self.analysis.line_index, self.encoding, range)
    }

    fn solution(&self) -> Option<&Solution> {
        self.solution.as_deref().map(|solved| &solved.solution)
    }

    fn edits(&self, edits: &[ide::TextEdit]) -> Vec<TextEdit> {
        edits
            .iter()
            .map(|edit| TextEdit::new(self.range(edit.range), edit.new_text.clone()))
            .collect()
    }

    fn workspace_edit(&self, edits: &[ide::TextEdit]) -> WorkspaceEdit {
        WorkspaceEdit {
            changes: Some(HashMap::from([(self.uri.clone(), self.edits(edits))])),
            ..WorkspaceEdit::default()
        }
    }
}

/// An error the user should read, such as why a rename is refused.
fn refusal(message: String) -> Error {
    Error {
        code: ErrorCode::ServerError(-32803),
        message: message.into(),
        data: None,
    }
}

pub fn hover(snapshot: &Snapshot, position: Position) -> Option<Hover> {
    let hover = ide::hover::hover(
        &snapshot.analysis,
        snapshot.solution.as_deref(),
        snapshot.offset(position),
    )?;
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: hover.markdown,
        }),
        range: Some(snapshot.range(hover.range)),
    })
}

pub fn inlay_hints(snapshot: &Snapshot, range: Range) -> Vec<InlayHint> {
    let wanted = convert::text_range(&snapshot.rope, snapshot.encoding, range);
    let config = inlay_hints::InlayHintConfig {
        node_outcomes: snapshot.config.node_hints,
    };
    let mut hints = inlay_hints::inlay_hints_in(
        &snapshot.analysis,
        snapshot.solution(),
        &config,
        Some(wanted),
    );
    hints.extend(ide::critical_edges::critical_edge_hints(
        &snapshot.analysis,
        snapshot.solution.as_deref(),
    ));
    hints
        .into_iter()
        .filter(|hint| wanted.touches(hint.offset))
        .take(MAX_INLAY_HINTS)
        .map(|hint| InlayHint {
            position: snapshot.position(hint.offset),
            label: InlayHintLabel::String(hint.label),
            kind: None,
            text_edits: None,
            tooltip: hint.tooltip.map(InlayHintTooltip::String),
            padding_left: Some(hint.pad_left),
            padding_right: Some(hint.pad_right),
            data: None,
        })
        .collect()
}

pub fn code_lenses(snapshot: &Snapshot) -> Vec<CodeLens> {
    let lenses = ide::code_lens::code_lenses(&snapshot.analysis, snapshot.solution());
    // The "why" lens sits beside the outcome lens, on the same range.
    let why = lenses.first().map(|lens| CodeLens {
        range: snapshot.range(lens.range),
        command: Some(Command {
            title: "why: the strategy tree".to_owned(),
            command: OPEN_VIEW_COMMAND.to_owned(),
            arguments: None,
        }),
        data: None,
    });
    lenses
        .into_iter()
        .map(|lens| {
            let steps: Vec<String> = lens
                .line
                .iter()
                .map(|[m, c]| format!("({m}, {c})"))
                .collect();
            let text = format!("Optimal line as (mouse, cat): {}", steps.join(" → "));
            CodeLens {
                range: snapshot.range(lens.range),
                command: Some(Command {
                    title: lens.title,
                    command: capabilities::SHOW_LINE_COMMAND.to_owned(),
                    arguments: Some(vec![json!({"text": text, "line": lens.line})]),
                }),
                data: None,
            }
        })
        .chain(why)
        .collect()
}

/// At most this many semantic tokens in one answer: a huge file is coloured from its
/// start (and fully through `semanticTokens/range`, which clients use for what is
/// visible).
pub const MAX_SEMANTIC_TOKENS: usize = 100_000;
/// At most this many symbols in the outline of a file.
pub const MAX_SYMBOLS: usize = 10_000;
/// At most this many inlay hints in one answer; clients ask for the visible range.
pub const MAX_INLAY_HINTS: usize = 5_000;

/// The whole file's semantic tokens, up to [`MAX_SEMANTIC_TOKENS`].
pub fn semantic_tokens(snapshot: &Snapshot) -> Vec<SemanticToken> {
    semantic_tokens_in(snapshot, None)
}

/// The semantic tokens inside `range` (the whole file for `None`), up to
/// [`MAX_SEMANTIC_TOKENS`], relative-encoded as the protocol wants.
pub fn semantic_tokens_in(snapshot: &Snapshot, range: Option<Range>) -> Vec<SemanticToken> {
    let wanted = range.map(|range| convert::text_range(&snapshot.rope, snapshot.encoding, range));
    let mut data = Vec::new();
    let mut previous = Position::new(0, 0);
    for token in semantic_tokens::semantic_tokens_in(&snapshot.analysis, wanted) {
        if data.len() == MAX_SEMANTIC_TOKENS {
            break;
        }
        let Some((token_type, modifiers)) = capabilities::token_encoding(token.kind) else {
            continue;
        };
        let range = snapshot.range(token.range);
        if range.start.line != range.end.line || range.end.character <= range.start.character {
            continue;
        }
        let delta_line = range.start.line - previous.line;
        let delta_start = if delta_line == 0 {
            range.start.character - previous.character
        } else {
            range.start.character
        };
        data.push(SemanticToken {
            delta_line,
            delta_start,
            length: range.end.character - range.start.character,
            token_type,
            token_modifiers_bitset: modifiers,
        });
        previous = range.start;
    }
    data
}

/// The edit that turns the tokens last sent into `new`: one replacement of the part
/// between their common start and common end, counted in integers as the protocol
/// wants (five per token); no edit when nothing changed.
pub fn token_delta(old: &[SemanticToken], new: &[SemanticToken]) -> Vec<SemanticTokensEdit> {
    let prefix = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    let suffix = old[prefix..]
        .iter()
        .rev()
        .zip(new[prefix..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let deleted = old.len() - prefix - suffix;
    let inserted = &new[prefix..new.len() - suffix];
    if deleted == 0 && inserted.is_empty() {
        return Vec::new();
    }
    vec![SemanticTokensEdit {
        start: (prefix * 5) as u32,
        delete_count: (deleted * 5) as u32,
        data: Some(inserted.to_vec()),
    }]
}

pub fn document_symbols(snapshot: &Snapshot) -> Vec<DocumentSymbol> {
    ide::symbols::document_symbols(&snapshot.analysis)
        .into_iter()
        .take(MAX_SYMBOLS)
        .map(|symbol| {
            #[allow(deprecated)] // `deprecated` is a required field of the struct.
            DocumentSymbol {
                name: symbol.name,
                detail: symbol.detail,
                kind: SymbolKind::CONSTANT,
                tags: None,
                deprecated: None,
                range: snapshot.range(symbol.range),
                selection_range: snapshot.range(symbol.selection_range),
                children: None,
            }
        })
        .collect()
}

pub fn folding_ranges(snapshot: &Snapshot) -> Vec<FoldingRange> {
    folding::folding_ranges(&snapshot.analysis)
        .into_iter()
        .map(|fold| {
            let range = snapshot.range(fold.range);
            FoldingRange {
                start_line: range.start.line,
                start_character: None,
                end_line: range.end.line,
                end_character: None,
                kind: Some(match fold.kind {
                    folding::FoldKind::Region => FoldingRangeKind::Region,
                    folding::FoldKind::Comment => FoldingRangeKind::Comment,
                }),
                collapsed_text: None,
            }
        })
        .filter(|fold| fold.end_line > fold.start_line)
        .collect()
}

/// What a listed action carries to `codeAction/resolve`: the document version it was
/// listed for and which action it is.
#[derive(Serialize, Deserialize)]
pub struct ActionData {
    pub uri: Uri,
    pub version: i32,
    #[serde(flatten)]
    pub id: actions::ActionId,
}

/// The actions at `range`. With `lazy` they are listed without edits, each carrying
/// `ActionData` for `codeAction/resolve`; without it (a client that cannot resolve)
/// the edits are built and checked now, for a bounded number of them.
pub fn code_actions(snapshot: &Snapshot, range: Range, lazy: bool) -> Vec<CodeActionOrCommand> {
    let range = convert::text_range(&snapshot.rope, snapshot.encoding, range);
    let (analysis, solution) = (&snapshot.analysis, snapshot.solution());
    if lazy {
        return actions::candidates(analysis, solution, range)
            .into_iter()
            .map(|candidate| {
                let data = ActionData {
                    uri: snapshot.uri.clone(),
                    version: snapshot.version,
                    id: candidate.id,
                };
                let mut action = code_action(
                    snapshot,
                    candidate.title,
                    candidate.kind,
                    candidate.fixes.as_ref(),
                    candidate.preferred,
                );
                action.data = serde_json::to_value(data).ok();
                CodeActionOrCommand::CodeAction(action)
            })
            .chain(longer_game_action(snapshot))
            .collect();
    }
    actions::code_actions(analysis, solution, range)
        .into_iter()
        .map(|action| CodeActionOrCommand::CodeAction(resolved(snapshot, action)))
        .chain(longer_game_action(snapshot))
        .collect()
}

/// "Find a longer game from this graph", last, wherever the cursor is.
fn longer_game_action(snapshot: &Snapshot) -> Option<CodeActionOrCommand> {
    crate::longer_game::action(&snapshot.analysis, &snapshot.uri, snapshot.version)
        .map(CodeActionOrCommand::CodeAction)
}

/// The action `id` of the snapshot with its checked edit, or an error saying that it no
/// longer applies (the client shows it; the document is left alone).
pub fn resolve_code_action(
    snapshot: &Snapshot,
    id: &actions::ActionId,
) -> Result<CodeAction, Error> {
    let action =
        actions::resolve(&snapshot.analysis, snapshot.solution(), id).ok_or_else(|| {
            refusal(
                "cmg: this action would change the graph or add a problem; it is not applied"
                    .to_owned(),
            )
        })?;
    Ok(resolved(snapshot, action))
}

fn resolved(snapshot: &Snapshot, action: actions::Action) -> CodeAction {
    let mut resolved = code_action(
        snapshot,
        action.title,
        action.kind,
        action.fixes.as_ref(),
        action.preferred,
    );
    resolved.edit = Some(snapshot.workspace_edit(&action.edits));
    resolved
}

fn code_action(
    snapshot: &Snapshot,
    title: String,
    kind: actions::ActionKind,
    fixes: Option<&cmg_core::model::Diagnostic>,
    preferred: bool,
) -> CodeAction {
    let diagnostics = fixes.map(|diagnostic| {
        vec![convert::diagnostic(
            &snapshot.uri,
            &snapshot.rope,
            snapshot.encoding,
            &snapshot.analysis.render(diagnostic),
        )]
    });
    CodeAction {
        title,
        kind: Some(match kind {
            actions::ActionKind::QuickFix => CodeActionKind::QUICKFIX,
            actions::ActionKind::Refactor => CodeActionKind::REFACTOR_REWRITE,
        }),
        diagnostics,
        is_preferred: preferred.then_some(true),
        ..CodeAction::default()
    }
}

pub fn definition(snapshot: &Snapshot, position: Position) -> Option<GotoDefinitionResponse> {
    let target = navigation::definition(&snapshot.analysis, snapshot.offset(position))?;
    Some(GotoDefinitionResponse::Scalar(Location::new(
        snapshot.uri.clone(),
        snapshot.range(target.focus_range),
    )))
}

/// A list cut at [`navigation::MAX_REFERENCES`], which the protocol has no field to
/// say: the server tells the user in a message instead (see `docs/server.md`).
pub struct Cut<T> {
    pub items: Vec<T>,
    /// The message saying how many there are and how many are shown, if some are left
    /// out.
    pub note: Option<String>,
}

/// The note for a list of `shown` items out of the mentions there are.
fn cut_note(
    snapshot: &Snapshot,
    offset: u32,
    shown: usize,
    without_declaration: bool,
    what: &str,
) -> Option<String> {
    if shown < navigation::MAX_REFERENCES {
        return None;
    }
    let analysis = &snapshot.analysis;
    let declaration = without_declaration && navigation::definition(analysis, offset).is_some();
    let total = navigation::mention_count(analysis, offset) - usize::from(declaration);
    (total > shown).then(|| {
        format!("cmg: node has {total} {what}; only the {shown} nearest the cursor are shown")
    })
}

pub fn references(
    snapshot: &Snapshot,
    position: Position,
    include_declaration: bool,
) -> Cut<Location> {
    let offset = snapshot.offset(position);
    let ranges = navigation::references(&snapshot.analysis, offset, include_declaration);
    Cut {
        note: cut_note(
            snapshot,
            offset,
            ranges.len(),
            !include_declaration,
            "references",
        ),
        items: ranges
            .into_iter()
            .map(|range| Location::new(snapshot.uri.clone(), snapshot.range(range)))
            .collect(),
    }
}

pub fn highlights(snapshot: &Snapshot, position: Position) -> Cut<DocumentHighlight> {
    let offset = snapshot.offset(position);
    let highlights = navigation::highlights(&snapshot.analysis, offset);
    Cut {
        note: cut_note(snapshot, offset, highlights.len(), false, "mentions"),
        items: highlights
            .into_iter()
            .map(|highlight| DocumentHighlight {
                range: snapshot.range(highlight.range),
                kind: Some(match highlight.kind {
                    navigation::HighlightKind::Read => DocumentHighlightKind::READ,
                    navigation::HighlightKind::Write => DocumentHighlightKind::WRITE,
                }),
            })
            .collect(),
    }
}

/// The selection ranges at each position, innermost first, as the nested list the
/// protocol wants.
pub fn selection_ranges(snapshot: &Snapshot, positions: &[Position]) -> Vec<SelectionRange> {
    let analysis = &snapshot.analysis;
    positions
        .iter()
        .map(|&position| {
            let ranges = ide::selection_range::selection_ranges(
                &analysis.text,
                &analysis.parse,
                snapshot.offset(position),
            );
            let mut nested: Option<SelectionRange> = None;
            for range in ranges.into_iter().rev() {
                nested = Some(SelectionRange {
                    range: snapshot.range(range),
                    parent: nested.map(Box::new),
                });
            }
            nested.unwrap_or(SelectionRange {
                range: Range::new(position, position),
                parent: None,
            })
        })
        .collect()
}

/// The edit that formats the lines of the statements in `range`.
pub fn range_formatting(snapshot: &Snapshot, range: Range) -> Vec<TextEdit> {
    let analysis = &snapshot.analysis;
    let range = convert::text_range(&snapshot.rope, snapshot.encoding, range);
    let edit = ide::format_range(&analysis.text, &analysis.parse, range);
    snapshot.edits(edit.as_slice())
}

/// The edit that formats the statement just finished by typing `typed` at `position`.
pub fn on_type_formatting(snapshot: &Snapshot, position: Position, typed: &str) -> Vec<TextEdit> {
    let analysis = &snapshot.analysis;
    let Some(typed) = typed.chars().next() else {
        return Vec::new();
    };
    let edit = ide::format_on_type(
        &analysis.text,
        &analysis.parse,
        snapshot.offset(position),
        typed,
    );
    snapshot.edits(edit.as_slice())
}

pub fn prepare_rename(
    snapshot: &Snapshot,
    position: Position,
) -> Result<PrepareRenameResponse, Error> {
    ide::rename::prepare_rename(&snapshot.analysis, snapshot.offset(position))
        .map(|range| PrepareRenameResponse::Range(snapshot.range(range)))
        .map_err(refusal)
}

pub fn rename(
    snapshot: &Snapshot,
    position: Position,
    new_name: &str,
) -> Result<WorkspaceEdit, Error> {
    ide::rename::rename(&snapshot.analysis, snapshot.offset(position), new_name)
        .map(|edits| snapshot.workspace_edit(&edits))
        .map_err(refusal)
}

/// The list says when it is cut, so that the client asks again as the user types.
pub fn completions(snapshot: &Snapshot, position: Position) -> CompletionResponse {
    let list = completion::completion_list(&snapshot.analysis, snapshot.offset(position));
    let items = list
        .items
        .into_iter()
        .map(|item| CompletionItem {
            label: item.label,
            kind: Some(match item.kind {
                completion::CompletionKind::Node => CompletionItemKind::VALUE,
                completion::CompletionKind::Keyword => CompletionItemKind::KEYWORD,
                completion::CompletionKind::Outcome => CompletionItemKind::ENUM_MEMBER,
            }),
            detail: item.detail,
            ..CompletionItem::default()
        })
        .collect();
    CompletionResponse::List(CompletionList {
        is_incomplete: list.is_incomplete,
        items,
    })
}

pub fn formatting(snapshot: &Snapshot) -> Vec<TextEdit> {
    let analysis = &snapshot.analysis;
    let formatted = ide::format(&analysis.text, &analysis.parse);
    minimal_edit(
        &snapshot.rope,
        snapshot.encoding,
        &analysis.text,
        &formatted,
    )
    .into_iter()
    .collect()
}

/// One edit that turns `old` into `new`, trimmed to the part that differs, so that the
/// editor keeps the cursor and folds where nothing changed.
fn minimal_edit(rope: &Rope, encoding: Encoding, old: &str, new: &str) -> Option<TextEdit> {
    if old == new {
        return None;
    }
    let mut prefix = old
        .bytes()
        .zip(new.bytes())
        .take_while(|(a, b)| a == b)
        .count();
    while !old.is_char_boundary(prefix) || !new.is_char_boundary(prefix) {
        prefix -= 1;
    }
    let mut suffix = old[prefix..]
        .bytes()
        .rev()
        .zip(new[prefix..].bytes().rev())
        .take_while(|(a, b)| a == b)
        .count();
    while !old.is_char_boundary(old.len() - suffix) || !new.is_char_boundary(new.len() - suffix) {
        suffix -= 1;
    }
    let range = cmg_syntax::TextRange::new(prefix as u32, (old.len() - suffix) as u32);
    Some(TextEdit {
        range: convert::range(rope, encoding, range),
        new_text: new[prefix..new.len() - suffix].to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minimal_edit_keeps_common_prefix_and_suffix() {
        let old = "a é b";
        let new = "a éé b";
        let rope = Rope::from_str(old);
        let edit = minimal_edit(&rope, Encoding::Utf16, old, new).unwrap();
        assert_eq!(
            edit.range,
            Range::new(Position::new(0, 3), Position::new(0, 3))
        );
        assert_eq!(edit.new_text, "é");
        assert!(minimal_edit(&rope, Encoding::Utf16, old, old).is_none());
    }
}
