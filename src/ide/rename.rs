//! rename: to be written.
