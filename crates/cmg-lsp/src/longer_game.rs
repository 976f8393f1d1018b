//! "Find a longer game from this graph": a code action whose command runs `cmg gen
//! --from` on the document's graph (up to a few seconds, until it finds a longer game), off the request path, with
//! progress the client shows and can cancel, and offers what it found as one edit of
//! the whole document (`workspace/applyEdit`), if the document is still the text it
//! searched from.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use cmg_core::analysis::Analysis;
use cmg_gen::{search, Constraints, Graph, Request, Winner};
use serde::{Deserialize, Serialize};
use tower_lsp_server::ls_types::{
    CodeAction, CodeActionKind, Command, NumberOrString, ProgressToken, Uri,
    WorkDoneProgressCancelParams,
};

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
/// n-1 with 3 ≤ n ≤ 64, no error, and the puzzle's constraints met.
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

/// The generator's graph of the document, if it can start from it.
fn start_graph(analysis: &Analysis) -> Option<Graph> {
    let graph = &analysis.model.graph;
    let errors = cmg_core::model::has_errors(&analysis.diagnostics(None));
    if errors || !graph.is_contiguous() || graph.node_count() < 3 {
        return None;
    }
    Graph::from_adjacency(&graph.adjacency_lists()).filter(|g| g.meets(Constraints::LeetCode))
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
    let Some(from) = start_graph(analysis) else {
        return Found::NotAGraph;
    };
    let before = cmg_gen::Evaluator::new()
        .start(&from)
        .map(|(_, moves)| moves);
    let request = Request {
        nodes: from.node_count(),
        winner: None,
        steps: cmg_gen::planned_steps(SEARCH_TIME.as_secs_f64()),
        seed: 1,
        // One core, so that typing stays quick.
        threads: 1,
        from: Some(from),
        longer_than: before,
        constraints: Constraints::LeetCode,
    };
    let started = Instant::now();
    let found = search(&request, |step| {
        progress(step.best_moves);
        started.elapsed() < SEARCH_TIME && !cancel.load(Ordering::Relaxed)
    });
    if cancel.load(Ordering::Relaxed) {
        return Found::Cancelled;
    }
    match found.result {
        Some((winner, moves)) if before.is_none_or(|before| moves > before) => Found::Longer {
            text: cmg_text(&found.graph, winner, moves, before),
            moves,
            before,
        },
        _ => Found::NoLonger { before },
    }
}

/// The document's new text: a comment on where it came from, the edges, the `expect`.
fn cmg_text(graph: &Graph, winner: Winner, moves: u32, before: Option<u32>) -> String {
    let keyword = match winner {
        Winner::Mouse => "mouse",
        Winner::Cat => "cat",
    };
    let mut text = format!(
        "# A longer game, found by the editor's \"Find a longer game from this graph\"\n# from a graph whose game {}: the {keyword} wins in {moves} moves (plies).\n",
        match before {
            Some(before) => format!("lasted {before}"),
            None => "was a draw".to_owned(),
        }
    );
    for line in cmg_ide::edge_statements((0u32..).zip(&graph.adjacency())) {
        text.push_str(&line);
        text.push('\n');
    }
    text.push_str(&format!("expect {keyword}\n"));
    text
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
