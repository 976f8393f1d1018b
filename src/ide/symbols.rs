//! symbols: to be written.
