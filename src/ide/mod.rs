//! Editor features as plain functions over a file's text, model and solution; no protocol types.

mod format;

pub use format::{format, MAX_WIDTH};
