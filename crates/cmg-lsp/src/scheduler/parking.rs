//! Parked requests: answered from the analysis of exactly the text the client had when
//! it asked, or `ContentModified` once a newer edit supersedes them.

use super::*;

impl Scheduler {
    /// Answers every parked request about `uri` that can be answered now.
    pub(super) fn settle_parked(&mut self, uri: &Uri, actions: &mut Vec<Action>) {
        let encoding = self.encoding;
        let documents = &self.documents;
        self.parked.retain(|parked| {
            if parked.uri != *uri {
                return true;
            }
            let Some(tracked) = documents.get(uri) else {
                actions.push(Action::Answer {
                    ticket: parked.ticket,
                    snapshot: None,
                });
                return false;
            };
            let document = &tracked.document;
            if document.generation != parked.generation {
                actions.push(Action::Modified {
                    ticket: parked.ticket,
                });
                return false;
            }
            if document.failed == parked.generation {
                actions.push(Action::Failed {
                    ticket: parked.ticket,
                });
                return false;
            }
            let ready = document.is_current()
                && document.released == document.generation
                && (parked.needs != Needs::Solve || document.explained());
            if !ready {
                return true;
            }
            actions.push(Action::Answer {
                ticket: parked.ticket,
                snapshot: snapshot(uri, document, encoding, parked.needs).map(Box::new),
            });
            false
        });
    }

    /// How many requests are parked (for the tests).
    #[cfg(test)]
    pub(super) fn parked(&self) -> usize {
        self.parked.len()
    }
}

/// The snapshot a request works on; `None` above the size limit (no analysis), except
/// for a pull of diagnostics, which reads only `analysed` and `solve` and gets an empty
/// analysis in place of the missing one.
pub(super) fn snapshot(
    uri: &Uri,
    document: &Document,
    encoding: Encoding,
    needs: Needs,
) -> Option<Snapshot> {
    let analysed = &document.analysed;
    let analysis = match &analysed.analysis {
        Some(analysis) => analysis.clone(),
        None if needs == Needs::Diagnostics => {
            Arc::new(cmg_core::analysis::Analysis::new(String::new()))
        }
        None => return None,
    };
    Some(Snapshot {
        analysed: analysed.clone(),
        solve: document.solve.clone(),
        uri: uri.clone(),
        version: analysed.version,
        solving: matches!(document.solve, SolveState::Pending { .. }),
        rope: analysed.rope.clone(),
        analysis,
        solution: document.solution(),
        encoding,
        config: analysed.config.clone(),
    })
}
