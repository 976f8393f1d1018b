//! The server's own small tests: a process that is alive.

use super::*;

#[test]
fn this_process_is_alive_and_a_made_up_one_is_not() {
    if std::path::Path::new("/proc/self").exists() {
        assert!(process_alive(std::process::id()));
        assert!(!process_alive(u32::MAX - 1));
    }
}
