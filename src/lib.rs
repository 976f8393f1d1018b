//! cmg: the `.cmg` language, the Cat and Mouse solver, and the tools built on them.

pub mod analysis;
pub mod cli;
pub mod ide;
pub mod lsp;
pub mod model;
pub mod solve;
pub mod syntax;
#[cfg(test)]
mod test_rng;
pub mod view;
