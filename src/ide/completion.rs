//! completion: to be written.
