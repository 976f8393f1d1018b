//! actions: to be written.
