//! navigation: to be written.
