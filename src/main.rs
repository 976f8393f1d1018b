//! The `cmg` binary: a thin entry point into the command-line layer.
fn main() {}
