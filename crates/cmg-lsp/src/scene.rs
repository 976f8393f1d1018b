//! `cmg/scene`: the game view's scene of an open document (see `docs/view.md`), for editors that draw the view themselves (the VS Code webview).
//!
//! Play mode needs no second request: the scene carries the whole position table,
//! which measured cheaper than a `cmg/bestMove` round trip per click at the sizes the
//! view draws (`BENCHMARKS.md`).

use serde::{Deserialize, Serialize};
use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result};
use tower_lsp_server::ls_types::{TextDocumentIdentifier, Uri};

use super::documents::Needs;
use super::Server;
use cmg_ide::view::{scene, Positions, Scene};

pub const SCENE_METHOD: &str = "cmg/scene";

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
        if params.version.is_some_and(|wanted| wanted != version) {
            return Err(Error {
                code: ErrorCode::ServerError(CONTENT_MODIFIED),
                message: format!(
                    "cmg/scene: the document is at version {version}, not {}",
                    params.version.unwrap_or_default()
                )
                .into(),
                data: None,
            });
        }
        // Layout costs up to a few hundred milliseconds: off the async threads. A panic
        // there comes back as a join error, answered as an error response.
        let scene = tokio::task::spawn_blocking(move || {
            scene(
                &snapshot.analysis,
                snapshot.solution.as_deref(),
                &params.positions,
            )
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
