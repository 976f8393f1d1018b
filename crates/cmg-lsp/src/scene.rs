//! `cmg/scene` and `cmg/slice`: the game view's scene of an open document and one slice of its position table (see `docs/view.md`), for editors that draw the view themselves (the VS Code webview).
//!
//! The scene is O(nodes + edges); the explorer, the solver replay and play mode ask for
//! the slice they show (the cat on one node, one player to move), O(nodes) each,
//! instead of being shipped the O(nodes²) table.
//!
//! A document lays out one scene at a time ([`Layouts`]): a request for a newer version
//! stops the older one's layout, which is answered `ContentModified`, and a version
//! whose graph (nodes and edges) is the last one laid out, from the same positions, gets
//! that layout again without laying out.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use serde::{Deserialize, Serialize};
use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result};
use tower_lsp_server::ls_types::{TextDocumentIdentifier, Uri};

use super::context::Context;
use super::documents::Needs;
use super::snapshot::Snapshot;
use cmg_core::explain::WhatIfState;
use cmg_core::model::Graph;
use cmg_ide::view::{
    add_explanations, draws, layout_within, parse_turn, scene, scene_laid_out, slice, Layout,
    Limits, Positions, Scene, Slice, SliceError,
};

pub const SCENE_METHOD: &str = "cmg/scene";
pub const SLICE_METHOD: &str = "cmg/slice";

/// LSP's code for "the document changed while the request ran": the client asks again.
const CONTENT_MODIFIED: i64 = -32801;

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SceneParams {
    pub text_document: TextDocumentIdentifier,
    /// The document version the client has; a different current version is refused
    /// with `ContentModified` rather than answered with a scene of other text.
    #[serde(default)]
    pub version: Option<i32>,
    /// Where the client drew each node last time (node id to `[x, y]`), so that the new
    /// layout starts there and nodes stay put.
    #[serde(default)]
    pub positions: Positions,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SceneResponse {
    pub uri: Uri,
    /// The version the scene was made from.
    pub version: i32,
    /// The solve of this version, or its what-if, is still running: the scene has no
    /// outcomes, or no what-if, yet, and the client should ask again shortly.
    pub pending: bool,
    pub scene: Scene,
}

/// `cmg/scene`: `null` for a document that is not open; one layout at a time per
/// document (`layouts`).
pub(crate) async fn handle_scene(
    context: &Context,
    layouts: &Layouts,
    params: SceneParams,
) -> Result<Option<SceneResponse>> {
    let uri = params.text_document.uri;
    let Some(snapshot) = current_version(context, SCENE_METHOD, &uri, params.version).await? else {
        return Ok(None);
    };
    let version = snapshot.version;
    // Asked again while the solve or its what-if runs.
    let solving = snapshot.solving
        || snapshot
            .solution
            .as_ref()
            .is_some_and(|solved| solved.what_if == WhatIfState::Pending);
    let document = layouts.document(&uri);
    // Queued before waiting for the turn, so that a newer version's request stops
    // this one even while it waits.
    let queued = Queued::new(&document, version);
    let _turn = document.turn.lock().await;
    if queued.cancel.load(Ordering::Relaxed) {
        return Err(superseded(version));
    }
    let last = document.state().last.clone();
    let cancel = queued.cancel.clone();
    // Layout costs up to a few seconds (its budget): off the async threads. A panic
    // there comes back as a join error, answered as an error response.
    let made = tokio::task::spawn_blocking(move || {
        let solved = snapshot.solution.as_deref();
        let solution = solved.map(|solved| &*solved.solution);
        let analysis = &snapshot.analysis;
        let graph = &analysis.model.graph;
        let (mut scene, laid_out) = if !draws(graph) {
            (scene(analysis, solution, &params.positions), None)
        } else {
            let layout = match last.filter(|last| last.fits(graph, &params.positions)) {
                Some(last) => last.layout.clone(),
                None => {
                    let limits = Limits {
                        cancel: Some(cancel.as_ref()),
                        ..Limits::default()
                    };
                    let Ok(layout) = layout_within(graph, &params.positions, limits) else {
                        return None;
                    };
                    layout
                }
            };
            let laid_out = LastLayout {
                graph: graph.clone(),
                from: params.positions,
                layout: layout.clone(),
            };
            (scene_laid_out(analysis, solution, layout), Some(laid_out))
        };
        add_explanations(&mut scene, analysis, solved);
        Some((scene, laid_out))
    })
    .await
    .map_err(|_| {
        let mut error = Error::internal_error();
        error.message = "cmg: internal error in cmg/scene; the server goes on".into();
        error
    })?;
    let Some((scene, laid_out)) = made else {
        return Err(superseded(version));
    };
    if let Some(laid_out) = laid_out {
        document.state().last = Some(Arc::new(laid_out));
    }
    Ok(Some(SceneResponse {
        uri,
        version,
        pending: solving && scene.too_large.is_none(),
        scene,
    }))
}

/// The answer to a scene request whose layout a newer version's request stopped.
fn superseded(version: i32) -> Error {
    Error {
        code: ErrorCode::ServerError(CONTENT_MODIFIED),
        message: format!("{SCENE_METHOD}: a newer version than {version} was asked for").into(),
        data: None,
    }
}

/// At most this many documents keep their last layout; the least recently asked for
/// gives its up first.
const KEPT_LAYOUTS: usize = 16;

/// The scene layouts of the open documents: one at a time per document, and the last
/// one made.
#[derive(Default)]
pub struct Layouts {
    documents: Mutex<HashMap<Uri, (u64, Arc<DocumentLayouts>)>>,
    asked: Mutex<u64>,
}

impl Layouts {
    /// The layouts of `uri`; keeps at most [`KEPT_LAYOUTS`] documents' that no request
    /// is using.
    fn document(&self, uri: &Uri) -> Arc<DocumentLayouts> {
        let asked = {
            let mut asked = lock(&self.asked);
            *asked += 1;
            *asked
        };
        let mut documents = lock(&self.documents);
        let entry = documents.entry(uri.clone()).or_default();
        entry.0 = asked;
        let document = entry.1.clone();
        while documents.len() > KEPT_LAYOUTS {
            let idle = documents
                .iter()
                .filter(|(_, (_, document))| Arc::strong_count(document) == 1)
                .min_by_key(|(_, (asked, _))| *asked)
                .map(|(uri, _)| uri.clone());
            match idle {
                Some(uri) => documents.remove(&uri),
                None => break,
            };
        }
        document
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic while the lock was held leaves plain data behind, still usable.
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

#[derive(Default)]
struct DocumentLayouts {
    /// Held while a request lays out (or reuses) this document's scene.
    turn: tokio::sync::Mutex<()>,
    state: Mutex<DocumentState>,
}

impl DocumentLayouts {
    fn state(&self) -> MutexGuard<'_, DocumentState> {
        lock(&self.state)
    }
}

#[derive(Default)]
struct DocumentState {
    /// The newest version a request was made for.
    newest: i32,
    /// The requests waiting for their turn or laying out: their version and the flag that
    /// stops their layout.
    queued: Vec<(i32, Arc<AtomicBool>)>,
    last: Option<Arc<LastLayout>>,
}

/// A scene request's place in its document's queue, left when it is dropped (answered,
/// failed or given up by the client).
struct Queued<'a> {
    document: &'a DocumentLayouts,
    cancel: Arc<AtomicBool>,
}

impl<'a> Queued<'a> {
    /// Queues a request for `version`, stopping those for older versions; a request
    /// older than one already made is stopped at once.
    fn new(document: &'a DocumentLayouts, version: i32) -> Queued<'a> {
        let cancel = Arc::new(AtomicBool::new(false));
        let mut state = document.state();
        if version < state.newest {
            cancel.store(true, Ordering::Relaxed);
        }
        state.newest = state.newest.max(version);
        for (_, flag) in state.queued.iter().filter(|(queued, _)| *queued < version) {
            flag.store(true, Ordering::Relaxed);
        }
        state.queued.push((version, cancel.clone()));
        drop(state);
        Queued { document, cancel }
    }
}

impl Drop for Queued<'_> {
    fn drop(&mut self) {
        self.document
            .state()
            .queued
            .retain(|(_, flag)| !Arc::ptr_eq(flag, &self.cancel));
    }
}

/// The last layout of a document: the graph, the positions it started from, and what
/// it gave.
struct LastLayout {
    graph: Graph,
    from: Positions,
    layout: Layout,
}

impl LastLayout {
    /// Whether laying out `graph` from `previous` would give this layout: the same nodes
    /// and edges (labels, comments and spacing do not count), from the same positions or
    /// from the very picture it gave (the client sends back what it drew; an unchanged
    /// graph laid out from its own picture moves nothing).
    fn fits(&self, graph: &Graph, previous: &Positions) -> bool {
        let same_graph = self.graph.ids() == graph.ids()
            && (0..graph.node_count() as u32)
                .all(|i| self.graph.neighbours(i) == graph.neighbours(i));
        same_graph && (*previous == self.from || self.drew(graph, previous))
    }

    fn drew(&self, graph: &Graph, previous: &Positions) -> bool {
        previous.len() == self.layout.positions.len()
            && self
                .layout
                .positions
                .iter()
                .enumerate()
                .all(|(i, p)| previous.get(&graph.id(i as u32)) == Some(p))
    }
}

/// The snapshot of `uri` once analysed; `None` for a document that is not open. A
/// request made for another version than the document's (`wanted`) is refused with
/// `ContentModified` rather than answered from other text.
async fn current_version(
    context: &Context,
    method: &str,
    uri: &Uri,
    wanted: Option<i32>,
) -> Result<Option<Snapshot>> {
    let Some(snapshot) = context.current(uri, Needs::Analysis).await? else {
        return Ok(None);
    };
    let version = snapshot.version;
    match wanted {
        Some(wanted) if wanted != version => Err(Error {
            code: ErrorCode::ServerError(CONTENT_MODIFIED),
            message: format!("{method}: the document is at version {version}, not {wanted}").into(),
            data: None,
        }),
        _ => Ok(Some(snapshot)),
    }
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SliceParams {
    pub text_document: TextDocumentIdentifier,
    #[serde(default)]
    pub version: Option<i32>,
    /// The node id the cat stands on.
    pub cat: u32,
    /// `mouse` or `cat`: who moves.
    pub turn: String,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SliceResponse {
    pub uri: Uri,
    pub version: i32,
    /// The solve of this version still runs: no slice yet; ask again shortly.
    pub pending: bool,
    /// `null` while pending or when the game is not solved here (no game, too large).
    pub slice: Option<Slice>,
}

/// `cmg/slice`: `null` for a document that is not open; an invalid-params error for an
/// unknown turn or a node the graph does not have.
pub(crate) async fn handle_slice(
    context: &Context,
    params: SliceParams,
) -> Result<Option<SliceResponse>> {
    let uri = params.text_document.uri;
    let Some(snapshot) = current_version(context, SLICE_METHOD, &uri, params.version).await? else {
        return Ok(None);
    };
    let version = snapshot.version;
    let turn = parse_turn(&params.turn).ok_or_else(|| {
        Error::invalid_params(format!(
            "cmg/slice: turn must be \"mouse\" or \"cat\", not {:?}",
            params.turn
        ))
    })?;
    // O(nodes): small enough to answer here.
    let found = slice(
        &snapshot.analysis.model.graph,
        snapshot.solution.as_deref().map(|solved| &*solved.solution),
        params.cat,
        turn,
    );
    let slice = match found {
        Ok(slice) => Some(slice),
        Err(SliceError::NotSolved) => None,
        Err(error @ SliceError::UnknownNode(_)) => {
            return Err(Error::invalid_params(format!("cmg/slice: {error}")));
        }
    };
    Ok(Some(SliceResponse {
        uri,
        version,
        pending: snapshot.solving && slice.is_none(),
        slice,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use cmg_core::analysis::Analysis;

    fn stopped(queued: &Queued) -> bool {
        queued.cancel.load(Ordering::Relaxed)
    }

    #[test]
    fn a_newer_version_stops_the_older_layouts() {
        let document = DocumentLayouts::default();
        let first = Queued::new(&document, 1);
        let again = Queued::new(&document, 1);
        assert!(
            !stopped(&first) && !stopped(&again),
            "one version waits its turn"
        );
        let second = Queued::new(&document, 2);
        assert!(stopped(&first) && stopped(&again) && !stopped(&second));
        // A request for a version older than one asked for already is stopped at once.
        let late = Queued::new(&document, 1);
        assert!(stopped(&late));
        drop((first, again, second, late));
        assert!(
            document.state().queued.is_empty(),
            "answered requests leave"
        );
    }

    #[test]
    fn an_edit_that_keeps_the_nodes_and_edges_reuses_the_layout() {
        let before = Analysis::new("0 -- {2 5}\n4 -- 3 -- 1\n5 -- 1\n");
        let graph = &before.model.graph;
        let layout = layout_within(graph, &Positions::new(), Limits::default()).expect("a layout");
        let drawn: Positions = (0..graph.node_count() as u32)
            .map(|i| (graph.id(i), layout.positions[i as usize]))
            .collect();
        let last = LastLayout {
            graph: graph.clone(),
            from: Positions::new(),
            layout,
        };
        // A comment, a label and another order: the same nodes and edges.
        let edited =
            Analysis::new("# the same\n5 -- 1\n4 -- 3 -- 1\n0 -- {5 2}\nnode 0 \"hole\"\n");
        assert!(last.fits(&edited.model.graph, &Positions::new()));
        assert!(last.fits(&edited.model.graph, &drawn));
        // From other positions, or with another edge, it is laid out again.
        let mut moved = drawn.clone();
        moved.insert(0, [1.0, 2.0]);
        assert!(!last.fits(&edited.model.graph, &moved));
        let grown = Analysis::new("0 -- {2 5}\n4 -- 3 -- 1\n5 -- 1\n2 -- 3\n");
        assert!(!last.fits(&grown.model.graph, &Positions::new()));
    }
}
