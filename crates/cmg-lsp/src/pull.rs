//! Pull diagnostics (`textDocument/diagnostic`), for clients that ask for them instead
//! of taking publications.
//!
//! A pull is answered from the analysis of the text the client had when it asked, like
//! every request, through the same builder and caps as a publication. Its result id
//! names what the diagnostics depend on: the document's generation (a global counter
//! bumped by every edit and every change of the settings that analyses depend on, so a
//! reopened document never reuses one), whether a solve or a size refusal adds to them,
//! and the diagnostics cap, so a client whose previous result id is current gets
//! `unchanged`. A pull superseded by an edit is answered `ServerCancelled`, as LSP 3.17
//! provides for this request, asking for a retrigger (see [`superseded`]); new settings
//! do not supersede it: it is answered under them.
//!
//! The server's loop still builds every publication; for a pull client it is not sent
//! but compared with what the last pull of the same version answered: when they differ
//! (a solve added `expect-mismatch`, settings changed), the client is asked to pull
//! again with `workspace/diagnostic/refresh`. After an edit the client pulls by itself.
//! The document's own pull and the workspace pull are kept apart: a client shows one
//! of them for an open document (VS Code the document's), so either being stale is
//! reason to refresh.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};

use serde_json::json;
use tower_lsp_server::jsonrpc::{Error, ErrorCode};
use tower_lsp_server::ls_types::*;

use super::documents::{self, SolveState};
use super::snapshot::Snapshot;

/// The result id of the snapshot's diagnostics: its generation, what besides the
/// analysis they are built from (`s`: a solution checked against `expect`s, `t`: a
/// solve refused for its size, `n`: nothing), and the diagnostics cap, which changes
/// the list without a new generation.
pub fn result_id(snapshot: &Snapshot) -> String {
    let analysis = &snapshot.analysis;
    let has_expect = !analysis.model.expects.is_empty() && analysis.checks_expects();
    let tag = match &snapshot.solve {
        SolveState::Solved(_) if has_expect => 's',
        SolveState::TooLarge(_) => 't',
        _ => 'n',
    };
    let cap = snapshot.analysed.config.max_diagnostics;
    format!("{}{tag}{cap}", snapshot.analysed.generation)
}

/// The snapshot's diagnostics as a publication would carry them: capped at
/// `cmg.diagnostics.max`, with the summary of the rest.
pub fn items(snapshot: &Snapshot) -> Vec<Diagnostic> {
    documents::publication(
        &snapshot.uri,
        &snapshot.analysed,
        &snapshot.solve,
        snapshot.encoding,
    )
}

pub fn full(result_id: Option<String>, items: Vec<Diagnostic>) -> DocumentDiagnosticReportResult {
    DocumentDiagnosticReportResult::Report(DocumentDiagnosticReport::Full(
        RelatedFullDocumentDiagnosticReport {
            related_documents: None,
            full_document_diagnostic_report: FullDocumentDiagnosticReport { result_id, items },
        },
    ))
}

pub fn unchanged(result_id: String) -> DocumentDiagnosticReportResult {
    DocumentDiagnosticReportResult::Report(DocumentDiagnosticReport::Unchanged(
        RelatedUnchangedDocumentDiagnosticReport {
            related_documents: None,
            unchanged_document_diagnostic_report: UnchangedDocumentDiagnosticReport { result_id },
        },
    ))
}

/// The answer to a pull whose text was superseded by an edit before it could be
/// answered. `retriggerRequest` is true: the new pull waits for the new text. VS Code's
/// client (vscode-languageclient 9) never pulls a document again after a
/// `ServerCancelled` without a retrigger that it did not cancel itself: its diagnostics
/// then stayed empty for good.
pub fn superseded() -> Error {
    Error {
        code: ErrorCode::ServerError(-32802),
        message: "cmg: the document changed; pull again".into(),
        data: Some(json!(DiagnosticServerCancellationData {
            retrigger_request: true
        })),
    }
}

/// The answer to a pull whose text's analysis failed: the client keeps what it shows
/// (`unchanged`, given the id it holds), as a publication client gets nothing new. An
/// error here would be retried at once, in a loop for as long as the failure stands,
/// or end the client's pulls of the document.
pub fn kept(previous_result_id: Option<String>) -> DocumentDiagnosticReportResult {
    match previous_result_id {
        Some(result_id) => unchanged(result_id),
        None => full(None, Vec::new()),
    }
}

/// Which pull answered: a document's own (`textDocument/diagnostic`) or the
/// workspace's (`workspace/diagnostic`). A client may hold both for an open document
/// and show only one: VS Code shows the document pull's and ignores the workspace's,
/// so a workspace answer says nothing of what the document pull left on screen.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Channel {
    Document,
    Workspace,
}

/// What pull clients hold, per document and channel, and what the loop built last,
/// per document, as digests of the diagnostics and the version they are for.
#[derive(Default)]
pub struct Pulled {
    answered: HashMap<(Uri, Channel), (i32, u64)>,
    built: HashMap<Uri, (i32, u64)>,
}

impl Pulled {
    /// A pull on `channel` of `version` answered `items`; `true` if the loop has
    /// meanwhile built other diagnostics for the same version (the client should pull
    /// again).
    pub fn answered(
        &mut self,
        uri: &Uri,
        channel: Channel,
        version: i32,
        items: &[Diagnostic],
    ) -> bool {
        let answer = (version, digest(items));
        self.answered.insert((uri.clone(), channel), answer);
        self.built
            .get(uri)
            .is_some_and(|&built| built.0 == version && built != answer)
    }

    /// The loop built `diagnostics` for `version` (`None`: the document closed);
    /// `true` if the client holds other diagnostics for that same version, on either
    /// channel.
    pub fn built(&mut self, uri: &Uri, version: Option<i32>, diagnostics: &[Diagnostic]) -> bool {
        let channels = [Channel::Document, Channel::Workspace];
        let Some(version) = version else {
            for channel in channels {
                self.answered.remove(&(uri.clone(), channel));
            }
            self.built.remove(uri);
            return false;
        };
        let built = (version, digest(diagnostics));
        self.built.insert(uri.clone(), built);
        channels.into_iter().any(|channel| {
            self.answered
                .get(&(uri.clone(), channel))
                .is_some_and(|&answer| answer.0 == version && answer != built)
        })
    }
}

fn digest(diagnostics: &[Diagnostic]) -> u64 {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    serde_json::to_string(diagnostics)
        .unwrap_or_default()
        .hash(&mut hasher);
    hasher.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn diagnostic(message: &str) -> Diagnostic {
        Diagnostic {
            message: message.to_owned(),
            ..Diagnostic::default()
        }
    }

    #[test]
    fn a_refresh_only_when_the_same_version_gets_other_diagnostics() {
        let uri: Uri = "file:///a.cmg".parse().unwrap();
        let mut pulled = Pulled::default();
        const DOC: Channel = Channel::Document;
        let (one, two) = (
            vec![diagnostic("one")],
            vec![diagnostic("one"), diagnostic("two")],
        );
        // Built before any pull: nothing to refresh.
        assert!(!pulled.built(&uri, Some(1), &one));
        assert!(!pulled.answered(&uri, DOC, 1, &one));
        // A solve adds a diagnostic to version 1: the client's copy is stale.
        assert!(pulled.built(&uri, Some(1), &two));
        // The client pulled the new list; the same list built again changes nothing.
        assert!(!pulled.answered(&uri, DOC, 1, &two));
        assert!(!pulled.built(&uri, Some(1), &two));
        // A new version: the client pulls by itself after its edit.
        assert!(!pulled.built(&uri, Some(2), &one));
        // An answer older than what was built for its version.
        assert!(!pulled.built(&uri, Some(3), &two));
        assert!(pulled.answered(&uri, DOC, 3, &one));
        // Closed: forgotten.
        assert!(!pulled.built(&uri, None, &[]));
        assert!(!pulled.built(&uri, Some(3), &one));
    }

    /// VS Code shows an open document's own pull and ignores the workspace pull's
    /// report of it: a workspace answer with the solved list must not hide that the
    /// document pull still shows the list from before the solve.
    #[test]
    fn a_workspace_answer_does_not_hide_a_stale_document_answer() {
        let uri: Uri = "file:///a.cmg".parse().unwrap();
        let mut pulled = Pulled::default();
        let (before, solved) = (
            vec![diagnostic("one")],
            vec![diagnostic("one"), diagnostic("expect-mismatch")],
        );
        assert!(!pulled.answered(&uri, Channel::Document, 1, &before));
        // The workspace pull answers from the live analysis, which has the solve...
        assert!(!pulled.answered(&uri, Channel::Workspace, 1, &solved));
        // ...and the loop then builds the same list: the document pull is stale.
        assert!(pulled.built(&uri, Some(1), &solved));
        // Once the document pull has it too, nothing is stale.
        assert!(!pulled.answered(&uri, Channel::Document, 1, &solved));
        assert!(!pulled.built(&uri, Some(1), &solved));
    }
}
