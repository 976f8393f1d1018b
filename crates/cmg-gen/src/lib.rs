//! `cmg gen`'s searches: graphs on at most 64 nodes whose optimal game from the standard
//! start (mouse on 1 to move, cat on 2, hole 0) is as long as possible.
//!
//! `eval` answers "who wins from the start, in how many moves" thousands of times a second;
//! `search` changes one edge at a time (tabu walks on small graphs, annealing on a growing
//! graph above them, chases grown by tabu walks on the largest), in LeetCode 913's game or in a `variant` (other holes and starts, the
//! cat first or in the holes, a turn limit, one-way edges); `graph` holds the graph and the
//! constraints; `exhaustive` looks at every graph on a few nodes, once per isomorphism
//! class (`canon` tells the classes apart), for the longest game there is; `rng` is the
//! seeded generator of the search, which the judge uses too. It does no I/O.

mod canon;
mod eval;
mod exhaustive;
mod graph;
mod rng;
mod search;
mod variant;

pub use eval::{Evaluator, Start, Starts, Winner};
pub use exhaustive::{
    each_graph, examine, Best, Exhaustive, Longest, Part, Plan, MAX_EXHAUSTIVE_NODES,
};
pub use graph::{Constraints, Graph, MAX_NODES};
pub use rng::Rng;
pub use search::{
    planned_steps, search, search_variant, Found, Progress, Request, CHASE_MIN_NODES,
    STEPS_PER_SECOND, TABU_MAX_NODES,
};
pub use variant::Variant;
