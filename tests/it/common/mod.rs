//! What the integration tests share.

/// Whether the slow variants of the tests run (more property cases, larger inputs): CI
/// sets `CMG_SLOW_TESTS=1`. Read by one function for every crate's tests, so that all
/// agree.
pub use cmg_solve::test_env::slow_tests;

pub mod examples;
pub mod hostile;
pub mod lsp_process;
pub mod signal;
pub mod temp_dir;
pub mod view;
