//! The exhaustive search: the longest optimal game over *every* graph on `n` nodes, which
//! proves the length is the maximum by having looked at them all.
//!
//! Graphs are generated once per isomorphism class by canonical augmentation (McKay's
//! method): a graph on `k + 1` nodes is made from one on `k` by adding a node joined to a
//! set of the old ones, and kept only if the new node is, up to automorphism, the one the
//! canonical rule would delete again: among the nodes of least (degree, sum of the
//! neighbours' degrees), the one with the largest canonical label ([`crate::canon`]).
//! Two sets that an automorphism of the smaller graph maps onto each other give the same
//! graph, so where that graph has automorphisms the kept children are told apart by
//! their certificates. Every class then comes from exactly one parent, once.
//!
//! Each graph is examined unlabelled, for every choice of hole (up to 16 nodes in one
//! solve of all the holes at once, `every_hole`; above, one full table per hole), and
//! each solve gives every start of the mouse and the cat: this covers every labelled
//! graph, since the mouse's and the cat's starts can be any two other nodes.
//!
//! The work is cut into *tasks*, one per graph on `n - 2` nodes, numbered in the order a
//! single thread generates them; threads take tasks in turn, and `Part` keeps every
//! `count`-th task, so disjoint parts on several machines merge to the whole. The answer
//! does not depend on the order: ties go to the graph whose rows are smallest.

use std::collections::HashSet;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use crate::canon::{canon, Small};
use crate::eval::{Evaluator, Winner};
use crate::graph::{Constraints, Graph};

/// The largest node count the exhaustive search takes: 11 nodes is about a billion graphs
/// already, about 2 core-hours (`docs/records.md`); 12 is 162 times as many graphs (165
/// billion), each a larger solve.
pub const MAX_EXHAUSTIVE_NODES: usize = 12;

/// What to look for.
#[derive(Clone, Copy, Debug)]
pub struct Exhaustive {
    pub nodes: usize,
    /// Only games this player wins count; `None`: either.
    pub winner: Option<Winner>,
    pub constraints: Constraints,
    pub threads: usize,
    pub part: Part,
}

/// The `index`-th (from 0) of `count` disjoint parts of the tasks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Part {
    pub index: usize,
    pub count: usize,
}

impl Part {
    pub const WHOLE: Part = Part { index: 0, count: 1 };
}

/// The longest game found, with its graph (node 0 the hole, 1 the mouse's start, 2 the cat's).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Best {
    pub moves: u32,
    pub winner: Winner,
    pub graph: Graph,
}

/// What some tasks found: the longest game, and how much was looked at.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Longest {
    pub best: Option<Best>,
    /// Graphs examined: one per isomorphism class that meets the constraints.
    pub graphs: u64,
    /// Full solves, one per graph and choice of hole.
    pub solves: u64,
}

impl Longest {
    /// Adds what `other` found (its tasks must be others than these).
    pub fn merge(&mut self, other: Longest) {
        self.graphs += other.graphs;
        self.solves += other.solves;
        if let Some(best) = other.best {
            self.offer(best);
        }
    }

    /// Keeps `candidate` if it is longer, or as long with smaller rows.
    fn offer(&mut self, candidate: Best) {
        let better = match &self.best {
            None => true,
            Some(best) => {
                candidate.moves > best.moves
                    || (candidate.moves == best.moves && candidate.graph.rows() < best.graph.rows())
            }
        };
        if better {
            self.best = Some(candidate);
        }
    }

    fn best_moves(&self) -> Option<u32> {
        self.best.as_ref().map(|best| best.moves)
    }
}

/// The tasks of a search, in their fixed order.
pub struct Plan {
    request: Exhaustive,
    tasks: Vec<Small>,
}

impl Plan {
    /// Generates the graphs on `nodes - 2` nodes, the roots of the tasks.
    ///
    /// # Panics
    ///
    /// Panics unless `3 <= nodes <= MAX_EXHAUSTIVE_NODES` and the part is one of its count.
    pub fn new(request: Exhaustive) -> Plan {
        assert!((3..=MAX_EXHAUSTIVE_NODES).contains(&request.nodes));
        assert!(request.part.index < request.part.count);
        let mut tasks = Vec::new();
        collect(&Small::single(), request.nodes - 2, &mut tasks);
        Plan { request, tasks }
    }

    /// How many tasks the whole search has (all parts).
    pub fn task_count(&self) -> usize {
        self.tasks.len()
    }

    /// The numbers of this part's tasks.
    pub fn part_tasks(&self) -> impl Iterator<Item = usize> + '_ {
        let part = self.request.part;
        (part.index..self.tasks.len()).step_by(part.count)
    }

    /// Runs this part's tasks but those `skip` names, on the request's threads, while
    /// `go_on` says so (asked before each task); `finished` hears each task's number and
    /// result as it ends. Returns what the tasks run found.
    pub fn run(
        &self,
        skip: &(dyn Fn(usize) -> bool + Sync),
        finished: &(dyn Fn(usize, &Longest) + Sync),
        go_on: &(dyn Fn() -> bool + Sync),
    ) -> Longest {
        let todo: Vec<usize> = self.part_tasks().filter(|&task| !skip(task)).collect();
        let next = AtomicUsize::new(0);
        let total = Mutex::new(Longest::default());
        std::thread::scope(|scope| {
            for _ in 0..self.request.threads.max(1) {
                scope.spawn(|| {
                    let mut evaluator = Evaluator::new();
                    let mut found = Longest::default();
                    while go_on() {
                        let Some(&task) = todo.get(next.fetch_add(1, Ordering::Relaxed)) else {
                            break;
                        };
                        let mut result = Longest::default();
                        self.grow(&self.tasks[task], &mut evaluator, &mut result);
                        finished(task, &result);
                        found.merge(result);
                    }
                    total
                        .lock()
                        .unwrap_or_else(|poisoned| poisoned.into_inner())
                        .merge(found);
                });
            }
        });
        total
            .into_inner()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Every graph on `nodes` nodes grown from `graph`, examined.
    fn grow(&self, graph: &Small, evaluator: &mut Evaluator, found: &mut Longest) {
        if graph.n == self.request.nodes {
            self.examine(graph, evaluator, found);
            return;
        }
        let last = graph.n + 1 == self.request.nodes;
        let no_isolated = last && self.request.constraints == Constraints::LeetCode;
        extend(graph, no_isolated, &mut |child| {
            self.grow(&child, evaluator, found)
        });
    }

    /// Solves `graph` once per hole, and offers its longest start.
    fn examine(&self, graph: &Small, evaluator: &mut Evaluator, found: &mut Longest) {
        let graph = relabelled(graph, &(0..graph.n).collect::<Vec<_>>());
        examine(
            &graph,
            self.request.winner,
            self.request.constraints,
            evaluator,
            found,
        );
    }
}

/// Examines one unlabelled graph as the exhaustive search does: solves it for every
/// choice of hole and offers its longest start (of `winner`'s, if given) to `found`,
/// counting it as one graph. For graphs from elsewhere (another enumerator) too. Up to
/// 16 nodes, every hole is solved in one pass ([`every_hole`]); larger graphs are solved
/// hole by hole with `evaluator`.
pub fn examine(
    graph: &Graph,
    winner: Option<Winner>,
    constraints: Constraints,
    evaluator: &mut Evaluator,
    found: &mut Longest,
) {
    if graph.node_count() <= crate::canon::MAX {
        every_hole::examine(graph, winner, constraints, found);
    } else {
        hole_by_hole(graph, winner, constraints, evaluator, found);
    }
}

/// [`examine`] one hole at a time, with the evaluator's full table of each.
fn hole_by_hole(
    graph: &Graph,
    winner: Option<Winner>,
    constraints: Constraints,
    evaluator: &mut Evaluator,
    found: &mut Longest,
) {
    let n = graph.node_count();
    found.graphs += 1;
    for hole in 0..n {
        let mut order = vec![hole];
        order.extend((0..n).filter(|&node| node != hole));
        let with_hole = graph.relabelled(&order);
        let table = evaluator.all(&with_hole);
        found.solves += 1;
        for (mouse, cat) in with_hole.starts(constraints) {
            let Some((won_by, moves)) = table(mouse, cat, true) else {
                continue;
            };
            if winner.is_some_and(|wanted| wanted != won_by)
                || found.best_moves().is_some_and(|most| most > moves)
            {
                continue;
            }
            found.offer(Best {
                moves,
                winner: won_by,
                graph: with_hole.relabelled(&Graph::standard_order(n, mouse, cat)),
            });
        }
    }
}

/// Calls `visit` with one graph per isomorphism class on `nodes` nodes (1 to 16; beyond 8
/// they are many) that every node has a neighbour in under `LeetCode` constraints (which
/// of the others hold depends on which nodes are the hole and the cat).
pub fn each_graph(nodes: usize, constraints: Constraints, visit: &mut dyn FnMut(&Graph)) {
    fn walk(graph: &Small, nodes: usize, no_isolated: bool, visit: &mut dyn FnMut(&Graph)) {
        if graph.n == nodes {
            visit(&relabelled(graph, &(0..nodes).collect::<Vec<_>>()));
            return;
        }
        let last = graph.n + 1 == nodes && no_isolated;
        extend(graph, last, &mut |child| {
            walk(&child, nodes, no_isolated, visit)
        });
    }
    assert!((1..=crate::canon::MAX).contains(&nodes));
    let no_isolated = constraints == Constraints::LeetCode;
    if nodes == 1 {
        if !no_isolated {
            visit(&Graph::empty(1));
        }
        return;
    }
    walk(&Small::single(), nodes, no_isolated, visit);
}

/// The graphs on `size` nodes grown from `graph` (fewer nodes), one per class.
fn collect(graph: &Small, size: usize, out: &mut Vec<Small>) {
    if graph.n == size {
        out.push(*graph);
        return;
    }
    extend(graph, false, &mut |child| collect(&child, size, out));
}

/// Calls `visit` with each child of `parent` (one node more) that canonical augmentation
/// keeps; with `no_isolated`, only those where every node has a neighbour.
fn extend(parent: &Small, no_isolated: bool, visit: &mut dyn FnMut(Small)) {
    let k = parent.n;
    let symmetric = !canon(parent).asymmetric(k);
    let mut seen = HashSet::new();
    let isolated = (0..k)
        .filter(|&node| parent.rows[node] == 0)
        .fold(0u16, |mask, node| mask | 1 << node);
    for neighbours in 0..(1u32 << k) {
        let neighbours = neighbours as u16;
        if no_isolated && (neighbours == 0 || neighbours & isolated != isolated) {
            continue;
        }
        let child = parent.with_node(neighbours);
        // The rule's candidates: the nodes of least (degree, sum of neighbours' degrees).
        // The new node must be one of them: the others' keys are computed only until one
        // is smaller, which rejects most children early.
        let mut degrees = [0u32; crate::canon::MAX];
        for (node, degree) in degrees.iter_mut().enumerate().take(k + 1) {
            *degree = child.degree(node);
        }
        let key = |node: usize| {
            let mut sum = 0;
            let mut bits = child.rows[node];
            while bits != 0 {
                sum += degrees[bits.trailing_zeros() as usize];
                bits &= bits - 1;
            }
            degrees[node] << 8 | sum
        };
        let least = key(k);
        let mut keys = [0u32; crate::canon::MAX];
        keys[k] = least;
        let mut tied = false;
        let mut smaller = false;
        for (node, slot) in keys.iter_mut().enumerate().take(k) {
            *slot = key(node);
            if *slot < least {
                smaller = true;
                break;
            }
            tied |= *slot == least;
        }
        if smaller {
            continue;
        }
        if !tied && !symmetric {
            visit(child);
            continue;
        }
        let child_canon = canon(&child);
        if tied {
            let deleted = (0..=k)
                .filter(|&node| keys[node] == least)
                .max_by_key(|&node| child_canon.label_of(node))
                .unwrap_or(k);
            if !child_canon.same_orbit(k, deleted) {
                continue;
            }
        }
        if symmetric && !seen.insert(child_canon.cert) {
            continue;
        }
        visit(child);
    }
}

/// `graph` with node `order[i]` renumbered `i`.
fn relabelled(graph: &Small, order: &[usize]) -> Graph {
    Graph::renamed(order, |node| u64::from(graph.rows[node]))
}

mod every_hole;

#[cfg(test)]
mod tests;
