//! The `cmg` binary: a thin entry point into the command-line layer.

fn main() -> std::process::ExitCode {
    cmg::cli::run()
}
