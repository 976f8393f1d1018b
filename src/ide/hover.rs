//! hover: to be written.
