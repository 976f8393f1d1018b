//! The server's own small tests: a panicking feature, a process that is alive.

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

#[test]
fn this_process_is_alive_and_a_made_up_one_is_not() {
    if std::path::Path::new("/proc/self").exists() {
        assert!(process_alive(std::process::id()));
        assert!(!process_alive(u32::MAX - 1));
    }
}
