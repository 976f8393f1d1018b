//! cmg: the `cmg` command line, built on the workspace's crates (`cmg-syntax`,
//! `cmg-solve`, `cmg-core`, `cmg-ide`, `cmg-lsp`; see ARCHITECTURE.md).

pub mod cli;
