//! Sending a signal to a running `cmg`, for the tests of Ctrl-C and SIGTERM.

use std::os::unix::process::ExitStatusExt;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

/// Runs `cmg ARGS`, sends it `kill -SIGNAL` after `wait`, and returns its output. A
/// signal that comes before the handlers are installed ends the process as it would
/// any program: then it tries again, waiting twice as long (a loaded machine), up to
/// about 10 s.
pub fn interrupted(args: &[&str], signal: &str, mut wait: Duration) -> Output {
    loop {
        let child = Command::new(env!("CARGO_BIN_EXE_cmg"))
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(wait);
        let sent = Command::new("kill")
            .arg(format!("-{signal}"))
            .arg(child.id().to_string())
            .status()
            .unwrap();
        assert!(sent.success());
        let output = child.wait_with_output().unwrap();
        if output.status.signal().is_some() && wait < Duration::from_secs(8) {
            wait *= 2;
            continue;
        }
        return output;
    }
}
