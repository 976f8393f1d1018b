//! What the integration tests share: how they read `CMG_SLOW_TESTS`.

/// Whether the slow variants of the tests run (more property cases, larger inputs): CI
/// sets `CMG_SLOW_TESTS=1`. Any value but empty or `0` turns them on, read here alone so
/// that every test agrees.
pub fn slow_tests() -> bool {
    std::env::var_os("CMG_SLOW_TESTS").is_some_and(|value| !value.is_empty() && value != "0")
}

pub mod examples;
pub mod hostile;
pub mod lsp_process;
pub mod signal;
pub mod temp_dir;
