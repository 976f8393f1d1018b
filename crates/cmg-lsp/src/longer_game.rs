//! "Find a longer game from this graph": a code action whose command runs the
//! generator's search from the document's graph, as `cmg gen --from` does, on one
//! thread (for at most `SEARCH_TIME`, 4 s, or until it finds a longer game), off the
//! request path, with progress the client shows and can cancel, and offers what it
//! found as one edit of the whole document (`workspace/applyEdit`), if the document is
//! still the text it searched from.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use cmg_core::analysis::Analysis;
use cmg_gen::{search, search_variant, Constraints, Graph, Request, Variant, Winner};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tower_lsp_server::jsonrpc::{Error, Result};
use tower_lsp_server::ls_types::{
    CodeAction, CodeActionKind, Command, DocumentChanges, MessageType, NumberOrString, OneOf,
    OptionalVersionedTextDocumentIdentifier, ProgressToken, TextDocumentEdit, TextEdit, Uri,
    WorkDoneProgressCancelParams, WorkspaceEdit,
};
use tower_lsp_server::Client;

use super::pool::guarded;
use super::snapshot::Snapshot;

/// The command the action runs (in `executeCommand`'s list).
pub const FIND_LONGER_COMMAND: &str = "cmg.findLongerGame";

/// How long one search runs: long enough to lengthen a small graph's game, short
/// enough to wait for.
pub const SEARCH_TIME: Duration = Duration::from_secs(4);

/// The command's argument: the document and the version the action was listed for.
#[derive(Serialize, Deserialize)]
pub struct Target {
    pub uri: Uri,
    pub version: i32,
}

/// The action, for a document whose graph the generator can start from: nodes 0 to
/// n-1 with 3 ≤ n ≤ 64, no error, and the puzzle's constraints met (or, in a file with
/// rules or one-way edges, holes and starts that the search in its game can keep).
pub fn action(analysis: &Analysis, uri: &Uri, version: i32) -> Option<CodeAction> {
    start_graph(analysis)?;
    let target = Target {
        uri: uri.clone(),
        version,
    };
    Some(CodeAction {
        title: "Find a longer game from this graph".to_owned(),
        kind: Some(CodeActionKind::REFACTOR_REWRITE),
        command: Some(Command {
            title: "Find a longer game from this graph".to_owned(),
            command: FIND_LONGER_COMMAND.to_owned(),
            arguments: Some(vec![serde_json::to_value(target).ok()?]),
        }),
        ..CodeAction::default()
    })
}

/// The generator's graph of the document, and the game it states when that is not
/// LeetCode 913's, if the generator can start from it.
fn start_graph(analysis: &Analysis) -> Option<(Graph, Option<Variant>)> {
    let graph = &analysis.model.graph;
    let errors = cmg_core::model::has_errors(&analysis.diagnostics(None));
    if errors || !graph.is_contiguous() || graph.node_count() < 3 {
        return None;
    }
    if graph.is_standard() {
        return Graph::from_adjacency(&graph.adjacency_lists())
            .filter(|g| g.meets(Constraints::LeetCode))
            .map(|g| (g, None));
    }
    // The ids are the indices here (0 to n-1).
    let rules = graph.rules();
    let game = Variant::new(
        &rules.holes,
        rules.mouse_start,
        rules.cat_start,
        graph.node_count(),
    )
    .ok()?;
    let variant = Variant {
        cat_first: graph.first() == cmg_solve::Player::Cat,
        cat_enters_holes: rules.cat_enters_holes,
        limit: rules.limit,
        directed: graph.has_arcs(),
        ..game
    };
    Some((Graph::from_moves(&graph.move_lists())?, Some(variant)))
}

/// What a search found: the new text and its game, or why there is none.
pub enum Found {
    Longer {
        text: String,
        moves: u32,
        before: Option<u32>,
    },
    NoLonger {
        before: Option<u32>,
    },
    Cancelled,
    NotAGraph,
}

/// Searches from the analysis's graph until it finds a longer game, `SEARCH_TIME`
/// passes or `cancel` is set,
/// calling `progress` with the best length so far after each step. Blocking: run it on
/// the blocking pool.
pub fn find(analysis: &Analysis, cancel: &AtomicBool, mut progress: impl FnMut(u32)) -> Found {
    let Some((from, variant)) = start_graph(analysis) else {
        return Found::NotAGraph;
    };
    let before = match &variant {
        None => cmg_gen::Evaluator::new()
            .start(&from)
            .map(|(_, moves)| moves),
        // The file's own game, by the solver.
        Some(_) => analysis.game().and_then(|game| {
            let start = cmg_core::analysis::start_position(&analysis.model.graph)?;
            cmg_solve::solve(&game).moves_to_end(start)
        }),
    };
    let request = Request {
        nodes: from.node_count(),
        winner: None,
        steps: cmg_gen::planned_steps(SEARCH_TIME.as_secs_f64()),
        past_plan: false,
        seed: 1,
        // One core, so that typing stays quick.
        threads: 1,
        from: Some(from),
        longer_than: before,
        constraints: Constraints::LeetCode,
    };
    let started = Instant::now();
    let go_on = |step: &cmg_gen::Progress| {
        progress(step.best_moves);
        started.elapsed() < SEARCH_TIME && !cancel.load(Ordering::Relaxed)
    };
    let found = match &variant {
        Some(variant) => search_variant(&request, variant, go_on),
        None => search(&request, go_on),
    };
    if cancel.load(Ordering::Relaxed) {
        return Found::Cancelled;
    }
    match found.result {
        Some((winner, moves)) if before.is_none_or(|before| moves > before) => Found::Longer {
            text: cmg_text(&found.graph, variant.as_ref(), winner, moves, before),
            moves,
            before,
        },
        _ => Found::NoLonger { before },
    }
}

/// The document's new text: a comment on where it came from, the rules of its game, the
/// edges, the `expect`.
fn cmg_text(
    graph: &Graph,
    variant: Option<&Variant>,
    winner: Winner,
    moves: u32,
    before: Option<u32>,
) -> String {
    let keyword = winner.word();
    let mut text = format!(
        "# A longer game, found by the editor's \"Find a longer game from this graph\"\n# from a graph whose game {}: the {keyword} wins in {moves} moves (plies).\n",
        match before {
            Some(before) => format!("lasted {before}"),
            None => "was a draw".to_owned(),
        }
    );
    let rules = variant.map(Variant::rule_statements).unwrap_or_default();
    for line in rules
        .into_iter()
        .chain(cmg_ide::move_statements(&graph.adjacency()))
    {
        text.push_str(&line);
        text.push('\n');
    }
    text.push_str(&format!("expect {keyword}\n"));
    text
}

/// Runs the search for [`FIND_LONGER_COMMAND`] on `snapshot` (the version the action was
/// listed for) on the blocking pool, with progress and a cancel button where the client
/// shows progress (`work_done_progress`), then offers what it found as one edit of the
/// whole document for that version (a client refuses it if the text changed meanwhile).
/// Answers `{"moves", "before"}` (`moves` null when none was longer), or null if
/// cancelled.
pub async fn run(
    client: &Client,
    searches: &Searches,
    snapshot: &Snapshot,
    target: Target,
    work_done_progress: bool,
) -> Result<Option<Value>> {
    let (token, cancel) = searches.start();
    let progress = if work_done_progress
        && client
            .create_work_done_progress(token.clone())
            .await
            .is_ok()
    {
        Some(
            client
                .progress(token.clone(), "cmg: finding a longer game")
                .with_cancel_button()
                .with_message("from this graph")
                .begin()
                .await,
        )
    } else {
        None
    };
    let (best, mut bests) = tokio::sync::mpsc::unbounded_channel();
    let analysis = snapshot.analysis.clone();
    let searching = tokio::task::spawn_blocking(move || {
        guarded("find a longer game", || {
            find(&analysis, &cancel, |moves| {
                let _ = best.send(moves);
            })
        })
    });
    let mut shown = None;
    while let Some(moves) = bests.recv().await {
        if shown != Some(moves) {
            shown = Some(moves);
            if let Some(progress) = &progress {
                progress
                    .report_with_message(format!("best so far: {moves} moves"), None)
                    .await;
            }
        }
    }
    let found = searching.await.map_err(|_| Error::internal_error())?;
    searches.end(&token);
    let found = match found {
        Ok(found) => found,
        Err(error) => {
            if let Some(progress) = progress {
                progress.finish().await;
            }
            return Err(error);
        }
    };
    let (message, answer) = match found {
        Found::Longer {
            text,
            moves,
            before,
        } => {
            let edit = TextDocumentEdit {
                text_document: OptionalVersionedTextDocumentIdentifier {
                    uri: target.uri.clone(),
                    version: Some(target.version),
                },
                edits: vec![OneOf::Left(TextEdit {
                    range: super::convert::range(
                        &snapshot.rope,
                        snapshot.encoding,
                        cmg_syntax::TextRange::new(0, snapshot.rope.len_bytes() as u32),
                    ),
                    new_text: text,
                })],
            };
            let applied = client
                .apply_edit(WorkspaceEdit {
                    document_changes: Some(DocumentChanges::Edits(vec![edit])),
                    ..WorkspaceEdit::default()
                })
                .await
                .is_ok_and(|response| response.applied);
            let message = if applied {
                format!("found a game of {moves} moves")
            } else {
                format!("found a game of {moves} moves; the document changed meanwhile, so it is not applied")
            };
            (
                message,
                Some(serde_json::json!({"moves": moves, "before": before})),
            )
        }
        Found::NoLonger { before } => (
            format!("no longer game found in {} s", SEARCH_TIME.as_secs()),
            Some(serde_json::json!({"moves": null, "before": before})),
        ),
        Found::Cancelled => ("cancelled".to_owned(), None),
        Found::NotAGraph => {
            if let Some(progress) = progress {
                progress.finish().await;
            }
            return Err(Error::invalid_params(
                "cmg: this graph cannot be searched from: nodes 0 to n-1 (3 to 64), no error, each with a neighbour and node 2 one besides the hole",
            ));
        }
    };
    match progress {
        Some(progress) => progress.finish_with_message(message).await,
        None => {
            client
                .show_message(MessageType::INFO, format!("cmg: {message}"))
                .await
        }
    }
    Ok(answer)
}

/// The searches running, by progress token, for `window/workDoneProgress/cancel`.
#[derive(Default)]
pub struct Searches {
    running: Mutex<HashMap<String, Arc<AtomicBool>>>,
    next: Mutex<u64>,
}

impl Searches {
    /// A new token and the flag that cancels its search.
    pub fn start(&self) -> (ProgressToken, Arc<AtomicBool>) {
        let mut next = self.next.lock().unwrap_or_else(|p| p.into_inner());
        *next += 1;
        let name = format!("cmg-longer-game-{next}");
        let cancel = Arc::new(AtomicBool::new(false));
        self.running
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(name.clone(), cancel.clone());
        (NumberOrString::String(name), cancel)
    }

    pub fn end(&self, token: &ProgressToken) {
        if let NumberOrString::String(name) = token {
            self.running
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .remove(name);
        }
    }

    /// Cancels the search of `params.token`, if it runs.
    pub fn cancel(&self, params: &WorkDoneProgressCancelParams) {
        if let NumberOrString::String(name) = &params.token {
            if let Some(flag) = self
                .running
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .get(name)
            {
                flag.store(true, Ordering::Relaxed);
            }
        }
    }
}
