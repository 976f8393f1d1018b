//! cmg: the `.cmg` language, the Cat and Mouse solver, and the tools built on them.

pub mod solve;
