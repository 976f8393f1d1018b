//! The semantic tokens last sent for each document, for `semanticTokens/full/delta`:
//! a delta is computed against the set the client holds, named by its `resultId`.

use std::collections::HashMap;

use tower_lsp_server::ls_types::{SemanticToken, SemanticTokens, Uri};

/// Semantic tokens as sent to the client, with the id it may ask a delta against.
struct Sent {
    result_id: String,
    data: Vec<SemanticToken>,
}

#[derive(Default)]
pub struct TokenCache {
    /// The last `resultId` given out.
    last: u64,
    sent: HashMap<Uri, Sent>,
}

impl TokenCache {
    /// Gives a full set a `resultId` and keeps it for the next delta.
    pub fn remember(&mut self, uri: &Uri, data: Vec<SemanticToken>) -> SemanticTokens {
        self.last += 1;
        let result_id = self.last.to_string();
        self.sent.insert(
            uri.clone(),
            Sent {
                result_id: result_id.clone(),
                data: data.clone(),
            },
        );
        SemanticTokens {
            result_id: Some(result_id),
            data,
        }
    }

    /// The set sent for `uri` as `result_id`, if it is the last one sent.
    pub fn previous(&self, uri: &Uri, result_id: &str) -> Option<&[SemanticToken]> {
        self.sent
            .get(uri)
            .filter(|sent| sent.result_id == result_id)
            .map(|sent| sent.data.as_slice())
    }

    /// Forgets a closed document.
    pub fn forget(&mut self, uri: &Uri) {
        self.sent.remove(uri);
    }
}
