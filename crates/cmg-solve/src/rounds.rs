//! The bit-parallel round engine: whole rows of positions decided 64 at a time, one round per move of the game.
//!
//! Round `k` decides exactly the positions whose game lasts `k` moves. A position with the
//! mouse to move, the mouse on `m` and the cat on `c`, is won by the mouse when some move `m'`
//! reaches a cat-to-move position the mouse wins, and lost when every move reaches one the cat
//! wins. Over all cats at once that is an OR and an AND of the rows `m'` of the cat-to-move
//! bitsets, one 64-bit word (64 cats) at a time; the cat's side is the same with the roles
//! swapped. Every bitset is kept twice:
//!
//! - the *table* orientation (rows by the node of the player not to move, see
//!   [`super::table::Layout`]) is what the other turn's OR and AND read, and what the solution keeps;
//! - the *mover* orientation (rows by the mover's node) is what a row's new bits are written to.
//!
//! A round first computes the new bits of every row whose inputs changed (phase A, reading only
//! the table orientation), then copies them into the table orientation by transposing 64×64
//! blocks and writes their moves to the end (phase B, reading only the mover orientation). The
//! two phases never read what they write, so every round sees exactly the results of the rounds
//! before it (Jacobi order), which is what makes the round number the moves to the end; and the
//! rows of a phase can run on any number of threads with the same result.

use std::sync::{Mutex, PoisonError};

use super::queue::{Entry, Moves};
use super::table::{Layout, Table, CAT, MOUSE};

/// When the rounds hand over to the counter queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Policy {
    /// Rounds to the end.
    Never,
    /// Right after round `r` (0: before the first round).
    After(u32),
    /// When a level is cheaper to pass on with the queue than with a round.
    Auto,
}

/// How the rounds ended.
pub(super) enum Ending {
    Finished,
    Cancelled,
    /// The queue takes over: every position of up to `level` moves is decided, and `frontier`
    /// holds those of exactly `level` moves (`None`: too many to list, find them in the table).
    Handover {
        level: u32,
        frontier: Option<Vec<Entry>>,
    },
}

/// The estimated cost of passing one position on with the queue, in the word operations a
/// round is measured in: a queue pop reads each predecessor's bits and depth word, mostly
/// cache misses, against a round's streaming ORs and ANDs. Measured with `benches/solve.rs`.
const QUEUE_COST_PER_MOVE: u64 = 24;

/// How much cheaper than a round the queue must look on the terminals to take over from the start.
const FIRST_ROUND_MARGIN: u64 = 8;

/// What a round costs beyond its rows' words, in the same units: starting the other threads
/// twice (about 20 µs each) and walking the row and block flags. On a long game's thin rounds
/// this dominates, and leaving it out kept a 1000-node path off a core in rounds to the end.
fn round_overhead(layout: Layout, workers: usize) -> u64 {
    let n = layout.node_count as u64;
    let threads = 2 * (workers.max(1) as u64 - 1) * 65_536;
    threads + 8 * n + 2 * (layout.words * layout.words) as u64
}

/// What a round costs on one thread beyond its estimated words, in the same units: 200-node
/// long games took about 10 µs a round against the 2 µs their words and flags account for
/// (`benches/solve.rs`, `path_off_core`). Only the before-the-first-round guess uses it.
const ROUND_FIXED_COST: u64 = 32_768;

/// The most mouse moves from any node that can reach the hole to the hole (0 without a hole):
/// the game lasts about twice that many rounds when the mouse must run down a long path, and
/// only a few rounds on a well-connected graph.
fn hole_distance(moves: &Moves) -> u64 {
    let Some(hole) = moves.hole else {
        return 0;
    };
    let n = moves.game.node_count();
    let mut distance = vec![u32::MAX; n];
    distance[hole] = 0;
    let mut queue = std::collections::VecDeque::from([hole]);
    let mut farthest = 0;
    while let Some(node) = queue.pop_front() {
        farthest = distance[node];
        // The mouse reaches `node` from its predecessors, and the mouse may step onto the hole.
        for &from in moves.predecessors.neighbours(node as u32) {
            if distance[from as usize] == u32::MAX {
                distance[from as usize] = farthest + 1;
                queue.push_back(from as usize);
            }
        }
    }
    u64::from(farthest)
}

/// Bytes the round engine adds to the table while it runs: the mover-orientation bitsets, the
/// block and row flags, and a handover frontier (at most [`handover_capacity`] entries, listed
/// per block of rows and then joined, so up to three times that while it is built).
pub(super) fn extra_bytes(layout: Layout) -> u64 {
    let n = layout.node_count as u64;
    let words = layout.words as u64;
    let bitsets = 2 * 2 * n * words * 8;
    let flags = 2 * words * words + 4 * n;
    bitsets + flags + handover_capacity(layout.node_count) as u64 * 4 * 3
}

/// The most entries a handover lists; a larger frontier is left for the queue to find in the table.
fn handover_capacity(node_count: usize) -> usize {
    (node_count * node_count / 256).max(1)
}

/// Runs rounds over `table`, whose terminal positions (`terminals`, level 0) are decided.
pub(super) fn run(
    table: &mut Table,
    moves: &Moves,
    policy: Policy,
    workers: usize,
    terminals: Vec<Entry>,
    should_stop: &dyn Fn() -> bool,
) -> Ending {
    let layout = table.layout;
    let n = layout.node_count;
    let full_round = round_cost(layout, moves);
    let average_moves = full_round / (4 * layout.words * n).max(1) as u64;
    // The queue pays per position and the rounds per row, so the queue takes over once a level
    // is cheaper to pass on one position at a time than a round. The turns alternate between
    // cheap and dear rounds, so a round's cost is averaged with the one before, and a level is
    // compared with the level two before (same player to move). A level still growing stays
    // with the rounds, as the levels after it will be larger and the handover is one way.
    // Before the first round the terminals are all there is to go by, and levels grow fast from
    // them on dense graphs, so the queue then needs a wide margin.
    let mut history = [usize::MAX, 0];
    let mut previous_cost = full_round;
    let mut switch = |level: u32, decided: usize, cost: u64| {
        let growing = history[0] < decided;
        history = [history[1], decided];
        let average_cost = (cost + std::mem::replace(&mut previous_cost, cost)) / 2
            + round_overhead(layout, workers);
        match policy {
            Policy::Never => false,
            Policy::After(round) => level >= round,
            Policy::Auto => {
                let margin = if level == 0 { FIRST_ROUND_MARGIN } else { 1 };
                let queue_cost = decided as u64 * (1 + average_moves) * QUEUE_COST_PER_MOVE;
                !growing && queue_cost * margin < average_cost && decided <= handover_capacity(n)
            }
        }
    };
    // A long thin game pays a round's fixed cost hundreds of times, which the whole queue
    // undercuts; the game's length is guessed from the mouse's way to the hole.
    let long_game = policy == Policy::Auto && {
        let round = full_round + round_overhead(layout, workers) + ROUND_FIXED_COST;
        let rounds_cost = 2 * hole_distance(moves) * round;
        let positions = 2 * (n * n) as u64;
        rounds_cost > positions * (1 + average_moves) * QUEUE_COST_PER_MOVE
    };
    if long_game || switch(0, terminals.len(), full_round) {
        return Ending::Handover {
            level: 0,
            frontier: Some(terminals),
        };
    }
    let mut rounds = Rounds::new(layout, moves, &terminals);
    drop(terminals);
    let mut level = 0;
    loop {
        level += 1;
        if should_stop() {
            return Ending::Cancelled;
        }
        let (decided, cost) = rounds.phase_a(table, workers);
        if decided == 0 {
            return Ending::Finished;
        }
        if should_stop() {
            return Ending::Cancelled;
        }
        let handover = switch(level, decided, cost);
        let listed = handover && decided <= handover_capacity(n);
        let spilled = table.depth_word(level) == table.spilled;
        let entries = rounds.phase_b(table, level, listed || spilled, workers);
        if spilled {
            for &entry in &entries {
                table.set_moves(entry.row() * n + entry.column(), level);
            }
        }
        if handover {
            return Ending::Handover {
                level,
                frontier: listed.then_some(entries),
            };
        }
        rounds.mark_dirty_rows();
    }
}

/// The word operations of recomputing one row: it ORs and ANDs the rows of its moves and writes its own.
fn row_cost(layout: Layout, moves: &Moves, turn: usize, node: usize) -> u64 {
    (moves.moves(turn, node).count() as u64 + 1) * layout.words as u64 * 2
}

/// The word operations of a round that recomputes every row.
fn round_cost(layout: Layout, moves: &Moves) -> u64 {
    [MOUSE, CAT]
        .into_iter()
        .flat_map(|turn| {
            (0..layout.node_count).map(move |node| row_cost(layout, moves, turn, node))
        })
        .sum()
}

/// The round engine's own state next to the table.
struct Rounds<'a> {
    layout: Layout,
    moves: &'a Moves<'a>,
    /// `mover[turn][winner]`: the bitsets in the mover orientation, `n` rows by the mover's node.
    mover: [[Vec<u64>; 2]; 2],
    /// `valid[turn]`: the columns (non-mover nodes) a row may decide; the cat never stands on the hole.
    valid: [Vec<u64>; 2],
    /// `dirty[turn][node]`: the row's inputs changed in the last round, so it is recomputed in this one.
    dirty: [Vec<bool>; 2],
    /// `row_cost[turn][node]`: the word operations of recomputing the row ([`row_cost`]).
    row_cost: [Vec<u64>; 2],
    /// The word operations of the dirty rows: the next round's cost, summed as rows are marked.
    dirty_cost: u64,
    /// `changed[turn][row]`: the table row got new bits in this round.
    changed: [Vec<bool>; 2],
    /// `blocks[turn][i * words + j]`: the 64×64 block of mover rows `64i..` and columns `64j..`
    /// got new bits in phase A, so phase B transposes it.
    blocks: [Vec<bool>; 2],
}

impl<'a> Rounds<'a> {
    fn new(layout: Layout, moves: &'a Moves<'a>, terminals: &[Entry]) -> Rounds<'a> {
        let n = layout.node_count;
        let words = layout.words;
        let empty = || vec![0u64; n * words];
        let mut mover = [[empty(), empty()], [empty(), empty()]];
        for &entry in terminals {
            let (row, column, winner) = (entry.row(), entry.column(), entry.winner());
            let (turn, other) = (row / n, row % n);
            mover[turn][winner][column * words + other / 64] |= 1 << (other % 64);
        }
        let mut valid = [vec![!0u64; words], vec![!0u64; words]];
        if let Some(hole) = moves.hole {
            valid[MOUSE][hole / 64] &= !(1 << (hole % 64));
        }
        let mut rounds = Rounds {
            layout,
            moves,
            mover,
            valid,
            dirty: [vec![true; n], vec![true; n]],
            row_cost: [MOUSE, CAT].map(|turn| {
                (0..n)
                    .map(|node| row_cost(layout, moves, turn, node))
                    .collect()
            }),
            dirty_cost: 0,
            changed: [vec![false; n], vec![false; n]],
            blocks: [vec![false; words * words], vec![false; words * words]],
        };
        if let Some(hole) = moves.hole {
            // Positions with the cat on the hole cannot arise: that row of the cat's turn is never computed.
            rounds.dirty[CAT][hole] = false;
        }
        rounds.dirty_cost = rounds.sum_dirty_cost();
        rounds
    }

    /// The word operations of recomputing the dirty rows.
    fn sum_dirty_cost(&self) -> u64 {
        let rows = self.dirty.iter().zip(&self.row_cost);
        rows.flat_map(|(dirty, cost)| dirty.iter().zip(cost))
            .filter(|(&dirty, _)| dirty)
            .map(|(_, &cost)| cost)
            .sum()
    }

    /// Computes the new bits of every dirty row into the mover orientation. Returns how many
    /// positions were decided and what the round cost in word operations.
    fn phase_a(&mut self, table: &Table, workers: usize) -> (usize, u64) {
        let layout = self.layout;
        let n = layout.node_count;
        let words = layout.words;
        let moves = self.moves;
        let cost = self.dirty_cost;
        let mut items = Vec::new();
        for (turn, ([mouse_wins, cat_wins], blocks)) in self
            .mover
            .iter_mut()
            .zip(self.blocks.iter_mut())
            .enumerate()
        {
            blocks.fill(false);
            let rows = mouse_wins
                .chunks_mut(64 * words)
                .zip(cat_wins.chunks_mut(64 * words))
                .zip(blocks.chunks_mut(words))
                .enumerate();
            for (block, ((mouse_wins, cat_wins), blocks)) in rows {
                let first = block * 64;
                if self.dirty[turn][first..(first + 64).min(n)].contains(&true) {
                    items.push((turn, first, [mouse_wins, cat_wins], blocks));
                }
            }
        }
        let dirty = &self.dirty;
        let valid = &self.valid;
        let counts = for_each_item(items, workers, &|(turn, first, mut own, blocks)| {
            let opponent = 1 - turn;
            let mut wins = vec![0u64; words];
            let mut losses = vec![0u64; words];
            let mut decided = 0;
            let row_of = |node: usize| {
                let start = layout.row(opponent, node) * words;
                &table.wins[start..start + words]
            };
            for offset in 0..own[MOUSE].len() / words {
                let node = first + offset;
                if !dirty[turn][node] {
                    continue;
                }
                let mut targets = moves.moves(turn, node);
                let Some(target) = targets.next() else {
                    continue;
                };
                // The mover wins if some move reaches a position the mover wins (OR), and loses
                // if every move reaches one the opponent wins (AND).
                for ((win, loss), pair) in wins.iter_mut().zip(&mut losses).zip(row_of(target)) {
                    (*win, *loss) = (pair[turn], pair[opponent]);
                }
                for target in targets {
                    for ((win, loss), pair) in wins.iter_mut().zip(&mut losses).zip(row_of(target))
                    {
                        *win |= pair[turn];
                        *loss &= pair[opponent];
                    }
                }
                let row = offset * words..(offset + 1) * words;
                let [mouse_row, cat_row] = &mut own;
                let mouse_row = &mut mouse_row[row.clone()];
                let cat_row = &mut cat_row[row];
                for word in 0..words {
                    let open = !(mouse_row[word] | cat_row[word]) & valid[turn][word];
                    let won = wins[word] & open;
                    let lost = losses[word] & open & !won;
                    if won | lost == 0 {
                        continue;
                    }
                    let (mover_row, opponent_row) = if turn == MOUSE {
                        (&mut *mouse_row, &mut *cat_row)
                    } else {
                        (&mut *cat_row, &mut *mouse_row)
                    };
                    mover_row[word] |= won;
                    opponent_row[word] |= lost;
                    blocks[word] = true;
                    decided += (won | lost).count_ones() as usize;
                }
            }
            decided
        });
        (counts.into_iter().sum(), cost)
    }

    /// Copies the round's new bits into the table orientation and writes `level` as their
    /// moves to the end. Returns the new positions as queue entries when `list` is set.
    fn phase_b(&mut self, table: &mut Table, level: u32, list: bool, workers: usize) -> Vec<Entry> {
        let layout = self.layout;
        let n = layout.node_count;
        let words = layout.words;
        let depth = table.depth_word(level);
        let mut items = Vec::new();
        let tables = table
            .wins
            .chunks_mut(n * words)
            .zip(table.depth.chunks_mut(n * n))
            .zip(self.changed.iter_mut());
        for (turn, ((wins, depths), changed)) in tables.enumerate() {
            let rows = wins
                .chunks_mut(64 * words)
                .zip(depths.chunks_mut(64 * n))
                .zip(changed.chunks_mut(64))
                .enumerate();
            for (block, ((wins, depths), changed)) in rows {
                let touched = (0..words).any(|i| self.blocks[turn][i * words + block]);
                if touched {
                    items.push((turn, block, wins, depths, changed));
                }
            }
        }
        let mover = &self.mover;
        let blocks = &self.blocks;
        let lists = for_each_item(items, workers, &|(turn, block, own, depths, changed)| {
            let mut listed = Vec::new();
            let rows = changed.len();
            let mut square = [0u64; 64];
            for source in 0..words {
                if !blocks[turn][source * words + block] {
                    continue;
                }
                for winner in [MOUSE, CAT] {
                    let bits = &mover[turn][winner];
                    for (offset, slot) in square.iter_mut().enumerate() {
                        let node = source * 64 + offset;
                        *slot = if node < n {
                            bits[node * words + block]
                        } else {
                            0
                        };
                    }
                    transpose(&mut square);
                    for (offset, &column) in square[..rows].iter().enumerate() {
                        let slot = &mut own[offset * words + source][winner];
                        let mut new = column & !*slot;
                        if new == 0 {
                            continue;
                        }
                        *slot |= new;
                        changed[offset] = true;
                        let start = offset * n + source * 64;
                        while new != 0 {
                            let bit = new.trailing_zeros() as usize;
                            new &= new - 1;
                            depths[start + bit] = depth;
                            if list {
                                let row = layout.row(turn, block * 64 + offset);
                                listed.push(Entry::new(row, source * 64 + bit, winner));
                            }
                        }
                    }
                }
            }
            listed
        });
        lists.concat()
    }

    /// Marks for the next round every row that reads a table row changed in this one, and clears the changes.
    fn mark_dirty_rows(&mut self) {
        let moves = self.moves;
        for turn in [MOUSE, CAT] {
            let changed = &self.changed[1 - turn];
            for (node, dirty) in self.dirty[turn].iter_mut().enumerate() {
                let cat_on_hole = turn == CAT && Some(node) == moves.hole;
                *dirty = !cat_on_hole && moves.moves(turn, node).any(|next| changed[next]);
            }
        }
        for changed in &mut self.changed {
            changed.fill(false);
        }
        self.dirty_cost = self.sum_dirty_cost();
    }
}

/// Runs `work` on every item, on up to `workers` threads, and returns the results in item order.
///
/// Items are handed out one at a time from a shared list, so a thread that drew cheap rows takes
/// more; the results do not depend on which thread ran what.
fn for_each_item<T: Send, R: Send>(
    items: Vec<T>,
    workers: usize,
    work: &(dyn Fn(T) -> R + Sync),
) -> Vec<R> {
    if workers <= 1 || items.len() <= 1 {
        return items.into_iter().map(work).collect();
    }
    let pending = Mutex::new(items.into_iter().enumerate());
    let drain = || {
        let mut done = Vec::new();
        loop {
            let next = pending
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .next();
            let Some((at, item)) = next else {
                return done;
            };
            done.push((at, work(item)));
        }
    };
    let mut done = std::thread::scope(|scope| {
        let helpers: Vec<_> = (1..workers).map(|_| scope.spawn(drain)).collect();
        let mut done = drain();
        for helper in helpers {
            done.extend(
                helper
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            );
        }
        done
    });
    done.sort_unstable_by_key(|&(at, _)| at);
    done.into_iter().map(|(_, result)| result).collect()
}

/// Transposes a 64×64 bit matrix in place: bit `c` of word `r` trades places with bit `r` of word `c`.
///
/// Swaps the off-diagonal 32×32 quadrants, then the 16×16 ones inside each quadrant, and so on:
/// six passes of 32 word pairs instead of 4096 single bits.
pub(super) fn transpose(square: &mut [u64; 64]) {
    let mut width = 32;
    let mut mask: u64 = 0x0000_0000_FFFF_FFFF;
    while width != 0 {
        let mut row = 0;
        while row < 64 {
            let swap = ((square[row] >> width) ^ square[row + width]) & mask;
            square[row] ^= swap << width;
            square[row + width] ^= swap;
            row = (row + width + 1) & !width;
        }
        width >>= 1;
        mask ^= mask << width;
    }
}

#[cfg(test)]
mod tests {
    use super::{hole_distance, transpose};
    use crate::queue::Moves;
    use crate::Game;

    /// The long-game guess counts the mouse's way to the hole along a path, and nothing without a hole.
    #[test]
    fn hole_distance_is_the_farthest_walk_to_the_hole() {
        // A triangle 0-1-2 with the path 2-3-4-5 hanging off it; node 6 cannot reach the hole.
        let adjacency: Vec<Vec<u32>> = vec![
            vec![1, 2],
            vec![0, 2],
            vec![0, 1, 3],
            vec![2, 4],
            vec![3, 5],
            vec![4],
            vec![],
        ];
        for (hole, expected) in [(Some(0), 4), (Some(5), 4), (None, 0)] {
            let game = Game::new(&adjacency, hole);
            let moves = Moves {
                game: &game,
                predecessors: &game,
                hole: hole.map(|hole| hole as usize),
            };
            assert_eq!(hole_distance(&moves), expected, "{hole:?}");
        }
    }

    #[test]
    fn transpose_moves_every_bit_across_the_diagonal() {
        let mut rng = crate::test_rng::XorShift(0x9e37_79b9_7f4a_7c15);
        let mut square: [u64; 64] = std::array::from_fn(|_| rng.next_u64());
        let original = square;
        transpose(&mut square);
        for (row, &word) in square.iter().enumerate() {
            for (column, &before) in original.iter().enumerate() {
                assert_eq!(
                    word >> column & 1,
                    before >> row & 1,
                    "bit {column} of word {row}"
                );
            }
        }
    }
}
