//! `cmg/scene` and `cmg/slice`: the game view's scene of an open document and one slice of its position table (see `docs/view.md`), for editors that draw the view themselves (the VS Code webview).
//!
//! The scene is O(nodes + edges); the explorer, the solver replay and play mode ask for
//! the slice they show (the cat on one node, one player to move), O(nodes) each,
//! instead of being shipped the O(nodes²) table.

use serde::{Deserialize, Serialize};
use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result};
use tower_lsp_server::ls_types::{TextDocumentIdentifier, Uri};

use super::documents::Needs;
use super::Server;
use cmg_ide::view::{
    add_explanations, parse_turn, scene, slice, Positions, Scene, Slice, SliceError,
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
    /// The solve of this version is still running: the scene has no outcomes yet, and
    /// the client should ask again shortly.
    pub pending: bool,
    pub scene: Scene,
}

impl Server {
    /// `null` for a document that is not open.
    pub(super) async fn scene(&self, params: SceneParams) -> Result<Option<SceneResponse>> {
        let uri = params.text_document.uri;
        let Some(snapshot) = self.current(&uri, Needs::Analysis).await? else {
            return Ok(None);
        };
        let (version, solving) = (snapshot.version, snapshot.solving);
        check_version(SCENE_METHOD, version, params.version)?;
        // Layout costs up to a few hundred milliseconds: off the async threads. A panic
        // there comes back as a join error, answered as an error response.
        let scene = tokio::task::spawn_blocking(move || {
            let solved = snapshot.solution.as_deref();
            let mut scene = scene(
                &snapshot.analysis,
                solved.map(|solved| &solved.solution),
                &params.positions,
            );
            add_explanations(&mut scene, &snapshot.analysis, solved);
            scene
        })
        .await
        .map_err(|_| {
            let mut error = Error::internal_error();
            error.message = "cmg: internal error in cmg/scene; the server goes on".into();
            error
        })?;
        Ok(Some(SceneResponse {
            uri,
            version,
            pending: solving && scene.too_large.is_none(),
            scene,
        }))
    }
}

/// A request made for another version than the document's is refused with
/// `ContentModified` rather than answered from other text.
fn check_version(method: &str, version: i32, wanted: Option<i32>) -> Result<()> {
    match wanted {
        Some(wanted) if wanted != version => Err(Error {
            code: ErrorCode::ServerError(CONTENT_MODIFIED),
            message: format!("{method}: the document is at version {version}, not {wanted}").into(),
            data: None,
        }),
        _ => Ok(()),
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

impl Server {
    /// `null` for a document that is not open; an invalid-params error for an unknown
    /// turn or a node the graph does not have.
    pub(super) async fn slice(&self, params: SliceParams) -> Result<Option<SliceResponse>> {
        let uri = params.text_document.uri;
        let Some(snapshot) = self.current(&uri, Needs::Analysis).await? else {
            return Ok(None);
        };
        let version = snapshot.version;
        check_version(SLICE_METHOD, version, params.version)?;
        let turn = parse_turn(&params.turn).ok_or_else(|| {
            Error::invalid_params(format!(
                "cmg/slice: turn must be \"mouse\" or \"cat\", not {:?}",
                params.turn
            ))
        })?;
        // O(nodes): small enough to answer here.
        let found = slice(
            &snapshot.analysis.model.graph,
            snapshot.solution.as_deref().map(|solved| &solved.solution),
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
}
