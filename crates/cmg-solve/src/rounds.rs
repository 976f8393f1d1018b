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
//! A round first computes the new bits of every row word whose inputs changed (phase A, reading
//! only the table orientation), then copies them into the table orientation and writes their
//! moves to the end (phase B, reading only the mover orientation): by transposing the 64×64
//! squares with many new bits, and one position at a time for the squares with few. The
//! two phases never read what they write, so every round sees exactly the results of the rounds
//! before it (Jacobi order), which is what makes the round number the moves to the end; and the
//! rows of a phase can run on any number of threads with the same result.

use super::hybrid::{self, Handover, Policy};
use super::queue::{Entry, Moves};
use super::table::{Layout, Table, CAT, MOUSE};
use super::workers::for_each_item;

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

/// A 64×64 square of a round with at most this many new positions has them written one at a
/// time (phase B's sparse path) instead of being transposed: a transpose costs about the same
/// whatever the square holds, which dominated the thin rounds of long games on geometric
/// graphs (`docs/dev/solver.md`).
const SPARSE_SQUARE_BITS: u32 = 16;

/// The word operations of transposing one square for both winners and merging it.
const SQUARE_COST: u64 = 1_536;

/// The word operations of writing one position of a sparse square: a scattered write, like a queue pop's.
const SPARSE_BIT_COST: u64 = hybrid::QUEUE_COST_PER_MOVE;

/// Bytes the round engine adds to the table while it runs: the mover-orientation bitsets, the
/// square counts and row flags, the positions of sparse squares, and a handover frontier (at most [`handover_capacity`] entries, listed
/// per block of rows and then joined, so up to three times that while it is built).
pub(super) fn extra_bytes(layout: Layout) -> u64 {
    let n = layout.node_count as u64;
    let words = layout.words as u64;
    let bitsets = 2 * 2 * n * words * 8;
    // Square counts, and the dirty and changed word masks of every row of both turns.
    let flags = 2 * words * words * 4 + 2 * 2 * n * words.div_ceil(64) * 8;
    // The positions of sparse squares, listed per round: at most the bits of every square.
    let sparse = 2 * words * words * u64::from(SPARSE_SQUARE_BITS) * 4;
    bitsets + flags + sparse + handover_capacity(layout.node_count) as u64 * 4 * 3
}

/// The most entries a handover lists; a larger frontier is left for the queue to find in the table.
/// Small games may list up to 4096 (48 KiB while it is built): a 200-node path off a core has
/// levels of about 200 positions, above `n²/256`.
pub(super) fn handover_capacity(node_count: usize) -> usize {
    let square = node_count * node_count;
    (square / 256).max(square.min(4096)).max(1)
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
    let mut handover = Handover::new(
        policy,
        layout,
        average_moves,
        workers,
        handover_capacity(n),
        terminals.len(),
    );
    if handover.before_rounds() {
        hybrid::record(0, Some(0));
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
        let (decided, sparse, cost) = rounds.phase_a(table, workers);
        if decided == 0 {
            hybrid::record(level, None);
            return Ending::Finished;
        }
        if should_stop() {
            return Ending::Cancelled;
        }
        let hand_over = handover.after_round(level, decided, cost);
        let listed = hand_over && decided <= handover_capacity(n);
        let spilled = table.depth_word(level) == table.spilled;
        let entries = rounds.phase_b(table, level, sparse, listed || spilled, workers);
        if spilled {
            for &entry in &entries {
                table.set_moves(entry.row() * n + entry.column(), level);
            }
        }
        if hand_over {
            hybrid::record(level, Some(level));
            return Ending::Handover {
                level,
                frontier: listed.then_some(entries),
            };
        }
        rounds.mark_dirty_rows();
    }
}

/// Phases estimated below this many word operations (about 90 µs) run on the calling thread:
/// starting the helpers costs about 20 µs each, and the thin rounds of long games would pay
/// it hundreds of times for nothing.
const PARALLEL_MIN_PHASE_COST: u64 = 131_072;

/// The threads for a phase of `cost` word operations.
fn workers_for(cost: u64, workers: usize) -> usize {
    if cost < PARALLEL_MIN_PHASE_COST {
        1
    } else {
        workers
    }
}

/// The word operations of recomputing one row: it ORs and ANDs the rows of its moves and writes its own.
fn row_cost(layout: Layout, moves: &Moves, turn: usize, node: usize) -> u64 {
    word_cost(moves, turn, node) * layout.words as u64
}

/// The word operations of recomputing one word of a row.
fn word_cost(moves: &Moves, turn: usize, node: usize) -> u64 {
    (moves.moves(turn, node).count() as u64 + 1) * 2
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
    /// Words of a row mask: one bit per word of a bitset row.
    mask_words: usize,
    /// `dirty[turn][node * mask_words..]`: the words of the mover row whose inputs changed in
    /// the last round, so they are recomputed in this one; a word none of whose moves' words
    /// changed would give the same bits as before, all decided already.
    dirty: [Vec<u64>; 2],
    /// `word_cost[turn][node]`: the word operations of recomputing one word of the row ([`word_cost`]).
    word_cost: [Vec<u64>; 2],
    /// The word operations of the dirty words: the next round's cost, summed as rows are marked.
    dirty_cost: u64,
    /// `changed[turn][row * mask_words..]`: the words of the table row that got new bits in this round.
    changed: [Vec<u64>; 2],
    /// `blocks[turn][i * words + j]`: how many new bits the 64×64 square of mover rows `64i..`
    /// and columns `64j..` got in phase A; phase B transposes the squares with more than
    /// [`SPARSE_SQUARE_BITS`] and writes the others' positions one at a time.
    blocks: [Vec<u32>; 2],
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
        let mask_words = words.div_ceil(64);
        // Every word of every row is computed in the first round.
        let mut full_mask = vec![0u64; mask_words];
        for word in 0..words {
            full_mask[word / 64] |= 1 << (word % 64);
        }
        let full_masks = full_mask.repeat(n);
        let mut rounds = Rounds {
            layout,
            moves,
            mover,
            valid,
            mask_words,
            dirty: [full_masks.clone(), full_masks],
            word_cost: [MOUSE, CAT]
                .map(|turn| (0..n).map(|node| word_cost(moves, turn, node)).collect()),
            dirty_cost: 0,
            changed: [vec![0; n * mask_words], vec![0; n * mask_words]],
            blocks: [vec![0; words * words], vec![0; words * words]],
        };
        if let Some(hole) = moves.hole {
            // Positions with the cat on the hole cannot arise: that row of the cat's turn is never computed.
            rounds.dirty[CAT][hole * mask_words..(hole + 1) * mask_words].fill(0);
        }
        rounds.dirty_cost = rounds.sum_dirty_cost();
        rounds
    }

    /// The word operations of recomputing the dirty words.
    fn sum_dirty_cost(&self) -> u64 {
        let rows = self.dirty.iter().zip(&self.word_cost);
        rows.flat_map(|(dirty, cost)| dirty.chunks(self.mask_words).zip(cost))
            .map(|(mask, &cost)| {
                cost * mask
                    .iter()
                    .map(|word| u64::from(word.count_ones()))
                    .sum::<u64>()
            })
            .sum()
    }

    /// Computes the new bits of every dirty row into the mover orientation, and counts them per
    /// square. Returns how many positions were decided, the positions of the sparse squares as
    /// table entries, and what the round costs in word operations: the rows recomputed, and
    /// phase B's squares and sparse positions.
    fn phase_a(&mut self, table: &Table, workers: usize) -> (usize, Vec<Entry>, u64) {
        let layout = self.layout;
        let n = layout.node_count;
        let words = layout.words;
        let moves = self.moves;
        let rows_cost = self.dirty_cost;
        let mut items = Vec::new();
        for (turn, ([mouse_wins, cat_wins], blocks)) in self
            .mover
            .iter_mut()
            .zip(self.blocks.iter_mut())
            .enumerate()
        {
            blocks.fill(0);
            let rows = mouse_wins
                .chunks_mut(64 * words)
                .zip(cat_wins.chunks_mut(64 * words))
                .zip(blocks.chunks_mut(words))
                .enumerate();
            for (block, ((mouse_wins, cat_wins), blocks)) in rows {
                let first = block * 64;
                let masks = first * self.mask_words..(first + 64).min(n) * self.mask_words;
                if self.dirty[turn][masks].iter().any(|&mask| mask != 0) {
                    items.push((turn, first, [mouse_wins, cat_wins], blocks));
                }
            }
        }
        let dirty = &self.dirty;
        let mask_words = self.mask_words;
        let valid = &self.valid;
        // An item's sparse squares hold at most this many positions together; past it the item
        // has a dense square, and its positions are left to the transposes.
        let sparse_capacity = words * SPARSE_SQUARE_BITS as usize;
        let workers = workers_for(rows_cost, workers);
        let results = for_each_item(items, workers, &|(turn, first, mut own, blocks)| {
            let opponent = 1 - turn;
            let mut wins = vec![0u64; words];
            let mut losses = vec![0u64; words];
            let mut listed_words = Vec::with_capacity(words);
            let mut decided = 0;
            let mut sparse = Vec::new();
            let mut overflow = false;
            let row_of = |node: usize| {
                let start = layout.row(opponent, node) * words;
                &table.wins[start..start + words]
            };
            for offset in 0..own[MOUSE].len() / words {
                let node = first + offset;
                let mask = &dirty[turn][node * mask_words..(node + 1) * mask_words];
                if mask.iter().all(|&bits| bits == 0) {
                    continue;
                }
                let mut targets = moves.moves(turn, node);
                let Some(target) = targets.next() else {
                    continue;
                };
                // The dirty words, listed once for the row rather than decoded from the mask
                // for every move.
                listed_words.clear();
                for (at, &bits) in mask.iter().enumerate() {
                    let mut bits = bits;
                    while bits != 0 {
                        listed_words.push(at * 64 + bits.trailing_zeros() as usize);
                        bits &= bits - 1;
                    }
                }
                // The mover wins if some move reaches a position the mover wins (OR), and loses
                // if every move reaches one the opponent wins (AND). Only the dirty words are
                // computed, unless half of the row or more is dirty: then the whole row is, in
                // order, which the compiler vectorises. A word whose moves' words did not change
                // gives the bits it gave when it last was computed, all decided or still open,
                // so computing it anyway decides nothing new.
                let first_row = row_of(target);
                let whole = 2 * listed_words.len() >= words;
                if whole {
                    listed_words.clear();
                    listed_words.extend(0..words);
                    for ((win, loss), pair) in wins.iter_mut().zip(losses.iter_mut()).zip(first_row)
                    {
                        (*win, *loss) = (pair[turn], pair[opponent]);
                    }
                    for target in targets {
                        for ((win, loss), pair) in
                            wins.iter_mut().zip(losses.iter_mut()).zip(row_of(target))
                        {
                            *win |= pair[turn];
                            *loss &= pair[opponent];
                        }
                    }
                } else {
                    for &word in &listed_words {
                        (wins[word], losses[word]) =
                            (first_row[word][turn], first_row[word][opponent]);
                    }
                    for target in targets {
                        let pairs = row_of(target);
                        for &word in &listed_words {
                            wins[word] |= pairs[word][turn];
                            losses[word] &= pairs[word][opponent];
                        }
                    }
                }
                let row = offset * words..(offset + 1) * words;
                let [mouse_row, cat_row] = &mut own;
                let mouse_row = &mut mouse_row[row.clone()];
                let cat_row = &mut cat_row[row];
                for &word in &listed_words {
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
                    let count = (won | lost).count_ones();
                    blocks[word] += count;
                    decided += count as usize;
                    if overflow || sparse.len() + count as usize > sparse_capacity {
                        overflow = true;
                        continue;
                    }
                    for (mut bits, winner) in [(won, turn), (lost, opponent)] {
                        while bits != 0 {
                            let other = word * 64 + bits.trailing_zeros() as usize;
                            bits &= bits - 1;
                            sparse.push(Entry::new(layout.row(turn, other), node, winner));
                        }
                    }
                }
            }
            if overflow {
                // Too many to keep: every square of the item goes through the transposes.
                for count in blocks.iter_mut().filter(|count| **count > 0) {
                    *count = (*count).max(SPARSE_SQUARE_BITS + 1);
                }
                sparse.clear();
            }
            sparse.retain(|entry| blocks[entry.row() % n / 64] <= SPARSE_SQUARE_BITS);
            (decided, sparse)
        });
        let mut decided = 0;
        let mut sparse = Vec::new();
        for (count, entries) in results {
            decided += count;
            sparse.extend(entries);
        }
        let dense_squares = self
            .blocks
            .iter()
            .flatten()
            .filter(|&&count| count > SPARSE_SQUARE_BITS)
            .count() as u64;
        let cost = rows_cost + dense_squares * SQUARE_COST + sparse.len() as u64 * SPARSE_BIT_COST;
        (decided, sparse, cost)
    }

    /// Copies the round's new bits into the table orientation and writes `level` as their
    /// moves to the end: the `sparse` positions one at a time, the other squares by
    /// transposing them. Returns the new positions as queue entries when `list` is set.
    fn phase_b(
        &mut self,
        table: &mut Table,
        level: u32,
        sparse: Vec<Entry>,
        list: bool,
        workers: usize,
    ) -> Vec<Entry> {
        let layout = self.layout;
        let n = layout.node_count;
        let words = layout.words;
        let depth = table.depth_word(level);
        // The sparse squares and the dense ones never share a table word, so the order of the two does not matter.
        for &entry in &sparse {
            let (row, column) = (entry.row(), entry.column());
            table.wins[row * words + column / 64][entry.winner()] |= 1 << (column % 64);
            table.depth[row * n + column] = depth;
            self.changed[row / n][row % n * self.mask_words + column / 64 / 64] |=
                1 << (column / 64 % 64);
        }
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
                .zip(changed.chunks_mut(64 * self.mask_words))
                .enumerate();
            for (block, ((wins, depths), changed)) in rows {
                let touched =
                    (0..words).any(|i| self.blocks[turn][i * words + block] > SPARSE_SQUARE_BITS);
                if touched {
                    items.push((turn, block, wins, depths, changed));
                }
            }
        }
        let mover = &self.mover;
        let blocks = &self.blocks;
        let mask_words = self.mask_words;
        let dense_squares = blocks
            .iter()
            .flatten()
            .filter(|&&count| count > SPARSE_SQUARE_BITS)
            .count() as u64;
        let workers = workers_for(dense_squares * SQUARE_COST, workers);
        let lists = for_each_item(items, workers, &|(turn, block, own, depths, changed)| {
            let mut listed = Vec::new();
            let rows = changed.len() / mask_words;
            let mut square = [0u64; 64];
            for source in 0..words {
                if blocks[turn][source * words + block] <= SPARSE_SQUARE_BITS {
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
                        changed[offset * mask_words + source / 64] |= 1 << (source % 64);
                        let start = offset * n + source * 64;
                        if list {
                            let row = layout.row(turn, block * 64 + offset);
                            let mut bits = new;
                            while bits != 0 {
                                let bit = bits.trailing_zeros() as usize;
                                bits &= bits - 1;
                                listed.push(Entry::new(row, source * 64 + bit, winner));
                            }
                        }
                        while new != 0 {
                            let bit = new.trailing_zeros() as usize;
                            new &= new - 1;
                            depths[start + bit] = depth;
                        }
                    }
                }
            }
            listed
        });
        let mut entries = if list { sparse } else { Vec::new() };
        for listed in lists {
            entries.extend(listed);
        }
        entries
    }

    /// Marks for the next round every word that reads a table word changed in this one, and clears the changes.
    fn mark_dirty_rows(&mut self) {
        let moves = self.moves;
        let mask_words = self.mask_words;
        // From the changed rows to the rows that read them (the predecessors), not the other
        // way: a thin round changes few rows, and walking every row's moves was most of the
        // round on a 2000-node tree with back edges.
        for turn in [MOUSE, CAT] {
            let opponent = 1 - turn;
            let dirty = &mut self.dirty[turn];
            dirty.fill(0);
            for (target, words) in self.changed[opponent].chunks(mask_words).enumerate() {
                if words.iter().all(|&word| word == 0)
                    || (turn == CAT && Some(target) == moves.hole)
                {
                    continue;
                }
                for node in moves.predecessors(turn, target) {
                    let row = &mut dirty[node * mask_words..(node + 1) * mask_words];
                    for (dirty, &changed) in row.iter_mut().zip(words) {
                        *dirty |= changed;
                    }
                }
            }
        }
        for changed in &mut self.changed {
            changed.fill(0);
        }
        self.dirty_cost = self.sum_dirty_cost();
    }
}

/// Transposes a 64×64 bit matrix in place: bit `c` of word `r` trades places with bit `r` of word `c`.
///
/// Swaps the off-diagonal 32×32 quadrants, then the 16×16 ones inside each quadrant, and so on:
/// six passes of 32 word pairs instead of 4096 single bits. Each pass is written for its own
/// width, so its pairs are contiguous runs the compiler unrolls and vectorises (about three
/// times the speed of one loop for all widths).
pub(super) fn transpose(square: &mut [u64; 64]) {
    swap_pass::<32>(square, 0x0000_0000_FFFF_FFFF);
    swap_pass::<16>(square, 0x0000_FFFF_0000_FFFF);
    swap_pass::<8>(square, 0x00FF_00FF_00FF_00FF);
    swap_pass::<4>(square, 0x0F0F_0F0F_0F0F_0F0F);
    swap_pass::<2>(square, 0x3333_3333_3333_3333);
    swap_pass::<1>(square, 0x5555_5555_5555_5555);
}

/// One pass of [`transpose`]: in every block of `2 · WIDTH` words, the high `WIDTH` bits
/// (`mask` shifted up) of each of the first `WIDTH` words trade places with the low bits of
/// the word `WIDTH` below it.
#[inline(always)]
fn swap_pass<const WIDTH: usize>(square: &mut [u64; 64], mask: u64) {
    for block in square.chunks_exact_mut(2 * WIDTH) {
        let (upper, lower) = block.split_at_mut(WIDTH);
        for (a, b) in upper.iter_mut().zip(lower) {
            let swap = ((*a >> WIDTH) ^ *b) & mask;
            *a ^= swap << WIDTH;
            *b ^= swap;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::transpose;

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
