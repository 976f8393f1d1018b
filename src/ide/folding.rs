//! folding: to be written.
