//! The integration tests, in one binary so that the crates link once: the CLI against
//! the built `cmg`, the language server in process and over stdio, the parser's golden
//! files, the solver against a reference solver, and the documentation's examples.
//!
//! `cargo test --test it NAME` runs the tests whose path contains `NAME` (for example
//! `cargo test --test it lsp_soak`).

mod common;

mod circles;
mod cli;
mod cli_hostile;
mod cli_rules;
mod cli_view;
#[cfg(unix)]
mod cli_writes;
mod colours;
mod doc_links;
mod docs;
mod gen;
mod gen_exhaustive;
mod judge;
#[cfg(target_os = "linux")]
mod judge_hostile;
mod layers;
mod lsp;
mod lsp_actions;
mod lsp_e2e;
mod lsp_features;
mod lsp_limits;
mod lsp_memory;
mod lsp_process;
mod lsp_pull;
mod lsp_requests;
mod lsp_scene;
mod lsp_soak;
mod parser;
mod robustness;
mod solver;
mod strategy;
mod version;
mod view_server;
