//! The meaning of a `.cmg` file and its analysis: [`model`] turns a parse into a graph
//! and every diagnostic that needs no solving; [`analysis`] joins the model to the solver
//! (`cmg-solve`) with the one solve policy both front ends use.

pub mod analysis;
pub mod ending;
pub mod explain;
pub mod model;
