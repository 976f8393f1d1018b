//! What the test suites of every crate read from the environment, read in one place.

/// Whether `CMG_SLOW_TESTS` asks for the slow variants of the tests (more property
/// cases, larger sizes): any value but empty or `0`.
pub fn slow_tests() -> bool {
    std::env::var_os("CMG_SLOW_TESTS").is_some_and(|value| !value.is_empty() && value != "0")
}
