//! The real `cmg lsp` binary as a child process with a client on its stdio, for the tests
//! that need the process itself (its exit, its framing on real pipes).

use std::process::Stdio;

use cmg_lsp::test_client::LspClient;
use tokio::process::{Child, ChildStdin, ChildStdout, Command};

pub type ProcessClient = LspClient<ChildStdout, ChildStdin>;

/// Starts `cmg lsp`, killed when the returned child is dropped.
pub fn start() -> (Child, ProcessClient) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cmg"))
        .arg("lsp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .kill_on_drop(true)
        .spawn()
        .expect("cmg lsp starts");
    let stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    (child, LspClient::new(stdout, stdin))
}
