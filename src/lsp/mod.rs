//! The language server: the tower-lsp-server adapter over the `ide` features. The only
//! layer that knows the protocol.

mod capabilities;
mod config;
mod convert;
mod documents;
mod handlers;
mod scene;
mod server;
#[doc(hidden)]
pub mod test_client;

pub use server::Server;

use std::process::ExitCode;

/// The server with cmg's custom requests registered.
pub fn service() -> (
    tower_lsp_server::LspService<Server>,
    tower_lsp_server::ClientSocket,
) {
    tower_lsp_server::LspService::build(Server::new)
        .custom_method(scene::SCENE_METHOD, Server::scene)
        .finish()
}

/// Serves the language server on stdin/stdout until `exit` or until stdin closes.
pub fn run() -> ExitCode {
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("cmg lsp: cannot start the async runtime: {error}");
            return ExitCode::from(2);
        }
    };
    runtime.block_on(async {
        let (service, socket) = service();
        tower_lsp_server::Server::new(tokio::io::stdin(), tokio::io::stdout(), socket)
            .serve(service)
            .await;
    });
    // A solve still running on the blocking pool must not hold the process up.
    runtime.shutdown_background();
    ExitCode::SUCCESS
}
