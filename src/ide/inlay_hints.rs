//! inlay_hints: to be written.
