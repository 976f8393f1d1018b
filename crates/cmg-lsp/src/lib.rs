//! The language server: the tower-lsp-server adapter over the `ide` features. The only
//! layer that knows the protocol.

mod client;
mod config;
mod context;
mod convert;
mod documents;
mod event_loop;
pub mod files;
mod framing;
mod legend;
mod lifecycle;
mod longer_game;
mod pool;
mod pull;
mod requests;
mod scene;
mod scheduler;
mod server;
mod snapshot;
#[cfg(feature = "test-support")]
pub mod test_client;
mod tokens;
mod workspace;

pub use config::Config;
pub use server::Server;

/// The tables `cargo xtask codegen` writes the editor files from.
pub mod tables {
    pub use super::config::{Setting, SettingKind, SETTINGS};
    pub use super::legend::{semantic_tokens_legend, token_encoding, TokenStyle, TOKEN_STYLES};
    pub use tower_lsp_server::ls_types::SemanticTokenType;
}

use std::process::ExitCode;

/// The most threads the blocking pool runs at once (tokio's default is 512).
const BLOCKING_THREADS: usize = 8;

/// glibc gives each thread that allocates an arena of its own, up to eight per core,
/// each reserving 64 MiB of address space: with the pool's threads, 1 GB of address
/// space for 60 MB of heap, and under an address-space limit (`ulimit -v`) a failed
/// allocation, which aborts, long before the memory budget is reached. Two arenas are
/// plenty for a server whose heavy work runs a few threads at a time.
fn limit_allocator_arenas() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `mallopt` only sets one of the allocator's tunables; it is called before
    // the runtime starts any thread.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 2);
    }
}

/// The server with cmg's custom requests registered; it wakes `exit` when the process
/// should end without waiting for the client (see [`Server::with_exit`]).
fn service(
    exit: std::sync::Arc<tokio::sync::Notify>,
) -> (
    tower_lsp_server::LspService<Server>,
    tower_lsp_server::ClientSocket,
) {
    tower_lsp_server::LspService::build(move |client| Server::with_exit(client, exit.clone()))
        .custom_method(scene::SCENE_METHOD, Server::scene)
        .custom_method(scene::SLICE_METHOD, Server::slice)
        .custom_method("window/workDoneProgress/cancel", Server::cancel_progress)
        .finish()
}

/// Serves the language server on stdin/stdout until `exit`, until stdin closes or its
/// framing is lost, or until the client's process (`processId`) is gone; the exit
/// status is 1 for `exit` without `shutdown` and for lost framing.
pub fn run() -> ExitCode {
    limit_allocator_arenas();
    // The blocking pool runs analyses, the solve, builds of diagnostics and features:
    // a few threads keep every core busy, and each thread more reserves a stack and an
    // allocator arena that count against an address-space limit.
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .max_blocking_threads(BLOCKING_THREADS)
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("cmg lsp: cannot start the async runtime: {error}");
            return ExitCode::from(2);
        }
    };
    let ending = runtime.block_on(lifecycle::serve(tokio::io::stdin(), tokio::io::stdout()));
    // A solve or analysis still running on the blocking pool must not hold the
    // process up.
    runtime.shutdown_background();
    ending.exit_code()
}
