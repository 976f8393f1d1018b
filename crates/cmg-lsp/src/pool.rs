//! Where a feature runs: on the blocking pool, with a panic turned into an error
//! response so that the server keeps serving.

use std::panic::{catch_unwind, AssertUnwindSafe};

use tower_lsp_server::jsonrpc::{Error, Result};

/// Runs a feature, turning a panic into an error response so the server keeps serving.
pub(crate) fn guarded<T>(feature: &str, f: impl FnOnce() -> T) -> Result<T> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|_| {
        let mut error = Error::internal_error();
        error.message = format!("cmg: internal error in {feature}; the server goes on").into();
        error
    })
}

/// Runs a feature on the blocking pool, guarded: on a large file a feature (an outline,
/// a rename, resolving an action) takes as long as an analysis, and on an async worker
/// it held up the transport, which writes every message from one task.
pub(crate) async fn on_pool<T: Send + 'static>(
    feature: &'static str,
    f: impl FnOnce() -> T + Send + 'static,
) -> Result<T> {
    tokio::task::spawn_blocking(move || guarded(feature, f))
        .await
        .unwrap_or_else(|_| Err(Error::internal_error()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panicking_feature_becomes_an_error_response() {
        let result: Result<()> = guarded("hover", || panic!("boom"));
        let error = result.unwrap_err();
        assert_eq!(
            error.code,
            tower_lsp_server::jsonrpc::ErrorCode::InternalError
        );
        assert!(error.message.contains("hover"));
        assert_eq!(guarded("hover", || 7).unwrap(), 7);
    }
}
