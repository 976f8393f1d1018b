//! The counter queue: retrograde analysis level by level from a frontier, the engine for sparse frontiers and long games.

use super::table::{Table, BLOCKED, CAT, MOUSE, UNSET};
use super::Game;

/// A queue entry: a position's table row in bits 15 to 30, its column in bits 0 to 14, and
/// the winner in bit 31.
///
/// Carrying the winner spares a read of the bitsets, a cache miss on large games, and carrying
/// row and column spares two divisions per position, which the queue notices. Rows stay below
/// `2^16` and columns below `2^15` under [`super::MAX_NODES`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Entry(u32);

impl Entry {
    pub(super) fn new(row: usize, column: usize, winner: usize) -> Entry {
        Entry((winner as u32) << 31 | (row as u32) << 15 | column as u32)
    }

    pub(super) fn row(self) -> usize {
        (self.0 >> 15 & 0xffff) as usize
    }

    pub(super) fn column(self) -> usize {
        (self.0 & 0x7fff) as usize
    }

    pub(super) fn winner(self) -> usize {
        (self.0 >> 31) as usize
    }

    /// Where the entry's predecessors are, in a game of `layout`.
    ///
    /// The player who moved last (not the one to move at the entry) is the mover of every
    /// predecessor; the predecessors differ in that player's node, the entry's column, and
    /// share one table row: that player's turn, with the other player on `column`.
    fn predecessors(self, layout: super::table::Layout) -> Predecessors {
        let (row, column, n) = (self.row(), self.column(), layout.node_count);
        let (last_mover, node) = if row < n {
            (CAT, row)
        } else {
            (MOUSE, row - n)
        };
        Predecessors {
            mover: last_mover,
            node,
            column,
            row: layout.row(last_mover, column),
        }
    }
}

/// The predecessors of a queue entry ([`Entry::predecessors`]).
struct Predecessors {
    /// Their mover, the player who moved last into the entry.
    mover: usize,
    /// The node that player stands on at the entry: the predecessors are its neighbours.
    node: usize,
    /// The entry's column: where the player to move at the entry stands, in every predecessor.
    column: usize,
    /// Their table row.
    row: usize,
}

/// How many queue pops go by between two looks at the cancellation flag; a power of two keeps the test cheap.
const CANCEL_CHECK_INTERVAL: usize = 4096;

/// The most entries one level's list holds (`n²/8` bytes): a larger level is held as a bitset
/// of all positions instead (`n²/4` bytes), so a level never takes more than that. Small games
/// may list up to 16 384 entries (64 KiB), or all their positions if they have fewer: a
/// 50-node random graph's levels hold thousands of positions, and walking them from a bitset
/// cost a fifth of its solve.
pub(super) fn level_capacity(node_count: usize) -> usize {
    let positions = 2 * node_count * node_count;
    (node_count * node_count / 32)
        .max(positions.min(16_384))
        .max(1)
}

/// Bytes the queue adds to the table at most: the level being passed on, held as a bitset,
/// while the next one turns from a full list into a bitset.
pub(super) fn extra_bytes(layout: super::table::Layout) -> u64 {
    let list = level_capacity(layout.node_count) as u64 * 4;
    let bits = 2 * layout.node_count as u64 * layout.words as u64 * 8;
    2 * bits + list
}

/// The moves and the predecessors of the graph, with the cat's moves onto the hole left out.
pub(super) struct Moves<'a> {
    pub(super) game: &'a Game,
    pub(super) predecessors: &'a Game,
    pub(super) hole: Option<usize>,
}

impl<'a> Moves<'a> {
    /// The nodes the player of `turn` standing on `node` can move to.
    pub(super) fn moves(&self, turn: usize, node: usize) -> impl Iterator<Item = usize> + 'a {
        self.of(self.game, turn, node)
    }

    /// The nodes the player of `turn` could have come from to reach `node` (never the hole for the cat).
    pub(super) fn predecessors(
        &self,
        turn: usize,
        node: usize,
    ) -> impl Iterator<Item = usize> + 'a {
        self.of(self.predecessors, turn, node)
    }

    /// `node`'s neighbours in `graph`, without the hole for the cat.
    fn of(&self, graph: &'a Game, turn: usize, node: usize) -> impl Iterator<Item = usize> + 'a {
        let hole = if turn == CAT { self.hole } else { None };
        graph
            .neighbours(node as u32)
            .iter()
            .map(|&next| next as usize)
            .filter(move |&next| Some(next) != hole)
    }
}

/// Decides every position whose game lasts more than `level` moves, given a table where all
/// positions of `level` moves or fewer are decided and `frontier` holds those of exactly `level`
/// moves. Returns `false` once `should_stop` says so.
///
/// Each level's positions pass their result to their predecessors: a predecessor whose mover
/// wins with the move is won one move later; any other loses one more of its moves, and when
/// none is left it is lost one move later. The count of moves not yet lost is set up front
/// ([`count_all_moves`], [`count_open_moves`]) or, after a late handover, the first time a
/// predecessor is reached, from the table itself ([`open_moves`]).
pub(super) fn run(
    table: &mut Table,
    moves: &Moves,
    mut level: u32,
    frontier: Option<Vec<Entry>>,
    should_stop: &dyn Fn() -> bool,
) -> bool {
    let counted = if let (0, Some(terminals)) = (level, &frontier) {
        count_all_moves(table, moves, terminals);
        true
    } else if level > 0 && 2 * decided_count(table) < table.layout.position_count() {
        count_open_moves(table, moves, level);
        true
    } else {
        false
    };
    let mut current = frontier.map_or(Level::InTable, Level::List);
    // The lists of two levels are swapped rather than allocated anew: a long game has thousands
    // of small levels, and a fresh list per level cost more than passing its positions on.
    let mut spare = Vec::new();
    let mut pops = 0usize;
    loop {
        let mut next = Level::List(std::mem::take(&mut spare));
        let finished = current.for_each_chunk(table, level, &mut |table, chunk| {
            // The flag is read before the first pop and every `CANCEL_CHECK_INTERVAL` pops after it.
            let mut rest = chunk;
            while !rest.is_empty() {
                let since_look = pops % CANCEL_CHECK_INTERVAL;
                if since_look == 0 && should_stop() {
                    return false;
                }
                let (part, after) =
                    rest.split_at(rest.len().min(CANCEL_CHECK_INTERVAL - since_look));
                if !counted {
                    set_up_counters(table, moves, level, part);
                }
                pass_on(table, moves, level, part, &mut next);
                pops += part.len();
                rest = after;
            }
            true
        });
        if !finished {
            return false;
        }
        if next.is_empty() {
            return true;
        }
        if table.depth_word(level + 1) == table.spilled {
            // Games this long are never seen; their moves go to the spill map after the fact.
            next.for_each_chunk(table, level + 1, &mut |table, chunk| {
                for entry in chunk {
                    let index = entry.row() * table.layout.node_count + entry.column();
                    table.set_moves(index, level + 1);
                }
                true
            });
        }
        if let Level::List(mut list) = std::mem::replace(&mut current, next) {
            list.clear();
            spare = list;
        }
        level += 1;
    }
}

/// Sets up the counter of every predecessor still [`UNSET`] that a position of `entries`,
/// all decided in `level` moves, takes a move from: its moves not known to lose as of `level`
/// ([`open_moves`]). Taken before [`pass_on`] when the counters were not set up front (a late
/// handover). Any time within the level gives the same counts, as it decides only positions
/// of `level + 1` moves.
fn set_up_counters(table: &mut Table, moves: &Moves, level: u32, entries: &[Entry]) {
    let n = table.layout.node_count;
    for &entry in entries {
        let from = entry.predecessors(table.layout);
        if entry.winner() == from.mover {
            continue;
        }
        for &source in moves.predecessors.neighbours(from.node as u32) {
            let at = from.row * n + source as usize;
            if table.depth[at] == UNSET {
                let open = open_moves(
                    table,
                    moves,
                    from.mover,
                    from.column,
                    source as usize,
                    level,
                );
                table.depth[at] = table.counter_word(open);
            }
        }
    }
}

/// Passes every position of `entries`, all decided in `level` moves, on to its predecessors,
/// and lists the ones this decides in `next`. Every predecessor's counter is set up.
///
/// This is the queue's inner loop, so it reads one 16-bit depth word per predecessor, which
/// says both "decided" and "moves left", and touches the winner bits only to decide. The
/// table and the lists are held as plain slices for the whole call, so that their bounds
/// stay in registers instead of being read again for every position.
fn pass_on(table: &mut Table, moves: &Moves, level: u32, entries: &[Entry], next: &mut Level) {
    let layout = table.layout;
    let (n, words) = (layout.node_count, layout.words);
    let spilled = table.spilled;
    let counter_one = table.counter_word(1);
    let decided_word = table.depth_word(level + 1);
    let lists = moves.predecessors.lists();
    let depth = &mut table.depth[..];
    let wins = &mut table.wins[..];
    for &entry in entries {
        // The cat's moves off the hole need no filter here: positions with the cat on the
        // hole hold a decided depth word (`Table::block_cat_on_hole`).
        let from = entry.predecessors(layout);
        let (winner, predecessor_row) = (entry.winner(), from.row);
        let row_start = predecessor_row * n;
        let loses = winner != from.mover;
        for &source in lists.neighbours(from.node as u32) {
            let source = source as usize;
            let word = depth[row_start + source];
            if word <= spilled {
                continue;
            }
            // A move into a position its mover loses takes one from the counter; the last one
            // makes the position lost. A move into one it wins decides it at once.
            // (Only a counter that loses a move must be set up: [`set_up_counters`].)
            debug_assert!(!loses || word != UNSET, "a counter not set up");
            if loses && word > counter_one {
                depth[row_start + source] = word - 1;
                continue;
            }
            depth[row_start + source] = decided_word;
            wins[predecessor_row * words + source / 64][winner] |= 1 << (source % 64);
            next.push(layout, Entry::new(predecessor_row, source, winner));
        }
    }
}

/// How many positions [`Level::for_each_chunk`] hands over at once from a level not held as a list.
const CHUNK: usize = 1024;

/// The positions of one level, as the queue holds them.
enum Level {
    /// Queue entries, while there are at most [`level_capacity`].
    List(Vec<Entry>),
    /// One bit per position in table order, for a larger level: `n²/4` bytes whatever its size.
    Bits(Vec<u64>),
    /// Not held: the positions of the table with the level's moves to the end (a handover too
    /// large to list, which the hybrid never makes but a forced switch may).
    InTable,
}

impl Level {
    #[inline]
    fn push(&mut self, layout: super::table::Layout, entry: Entry) {
        match self {
            Level::List(list) if list.len() < list.capacity() => list.push(entry),
            _ => self.push_slow(layout, entry),
        }
    }

    /// [`Level::push`] when the list is full: it grows up to [`level_capacity`] and then turns into a bitset.
    #[cold]
    fn push_slow(&mut self, layout: super::table::Layout, entry: Entry) {
        let set = |bits: &mut Vec<u64>, entry: Entry| {
            bits[entry.row() * layout.words + entry.column() / 64] |= 1 << (entry.column() % 64);
        };
        match self {
            Level::List(list) if list.len() < level_capacity(layout.node_count) => {
                // Doubling as `push` would, but never past the capacity, so the estimate holds.
                let room = level_capacity(layout.node_count) - list.len();
                list.reserve_exact(list.len().max(16).min(room));
                list.push(entry);
            }
            Level::List(list) => {
                let mut bits = vec![0u64; 2 * layout.node_count * layout.words];
                for &listed in list.iter() {
                    set(&mut bits, listed);
                }
                set(&mut bits, entry);
                *self = Level::Bits(bits);
            }
            Level::Bits(bits) => set(bits, entry),
            Level::InTable => unreachable!("the next level is always held"),
        }
    }

    fn is_empty(&self) -> bool {
        matches!(self, Level::List(list) if list.is_empty())
    }

    /// Calls `visit` on the level's entries, a slice at a time, until it returns `false`;
    /// returns whether it never did. A level not held as a list is read in table order into
    /// slices of [`CHUNK`] entries, so `visit` may decide positions of the next level meanwhile.
    fn for_each_chunk(
        &self,
        table: &mut Table,
        level: u32,
        visit: &mut dyn FnMut(&mut Table, &[Entry]) -> bool,
    ) -> bool {
        let layout = table.layout;
        let n = layout.node_count;
        let mut chunk = Vec::new();
        let mut flush = |table: &mut Table, chunk: &mut Vec<Entry>, force: bool| {
            if chunk.len() < CHUNK && !force {
                return true;
            }
            let more = visit(table, chunk);
            chunk.clear();
            more
        };
        match self {
            Level::List(list) => visit(table, list),
            Level::Bits(bits) => {
                for (at, &word) in bits.iter().enumerate() {
                    let (row, first) = (at / layout.words, at % layout.words * 64);
                    let mut word = word;
                    while word != 0 {
                        let column = first + word.trailing_zeros() as usize;
                        word &= word - 1;
                        let winner = table.winner_at(row, column).unwrap_or(MOUSE);
                        chunk.push(Entry::new(row, column, winner));
                    }
                    if !flush(table, &mut chunk, false) {
                        return false;
                    }
                }
                flush(table, &mut chunk, true)
            }
            Level::InTable => {
                // Positions decided during the scan have `level + 1` moves, so it never picks them
                // up; undecided positions, whose depth words hold counters, have no winner bit.
                for row in 0..2 * n {
                    for word in 0..layout.words {
                        for winner in [MOUSE, CAT] {
                            let mut bits = table.wins[row * layout.words + word][winner];
                            while bits != 0 {
                                let column = word * 64 + bits.trailing_zeros() as usize;
                                bits &= bits - 1;
                                if table.moves(row * n + column) == level {
                                    chunk.push(Entry::new(row, column, winner));
                                }
                            }
                        }
                        if !flush(table, &mut chunk, false) {
                            return false;
                        }
                    }
                }
                flush(table, &mut chunk, true)
            }
        }
    }
}

/// Sets every undecided position's counter to its mover's number of moves, before any position
/// is passed on: the queue then never counts a position's moves one at a time. `terminals`
/// are the decided positions, whose depth words this overwrites and puts back.
fn count_all_moves(table: &mut Table, moves: &Moves, terminals: &[Entry]) {
    let n = table.layout.node_count;
    for turn in [MOUSE, CAT] {
        let mut counts: Vec<u16> = (0..n)
            .map(|node| table.counter_word(moves.moves(turn, node).count() as u16))
            .collect();
        if let (CAT, Some(hole)) = (turn, moves.hole) {
            counts[hole] = BLOCKED;
        }
        for row in table.depth[turn * n * n..(turn + 1) * n * n].chunks_mut(n) {
            row.copy_from_slice(&counts);
        }
    }
    for &terminal in terminals {
        table.set_moves(terminal.row() * n + terminal.column(), 0);
    }
}

/// How many positions the table has decided.
fn decided_count(table: &Table) -> usize {
    table
        .wins
        .iter()
        .map(|[mouse, cat]| (mouse | cat).count_ones() as usize)
        .sum()
}

/// Sets every undecided position's counter at a handover after `level` moves, as
/// [`open_moves`] would, but for all of them at once: each starts at its number of moves in one
/// sequential pass, and each decided position of fewer than `level` moves takes one from its
/// predecessors that lose by moving there. Taken when fewer than half the positions are decided
/// (long games, handed over early), where counting every undecided position's moves lazily
/// would read scattered rows once per move, while this reads the few decided ones in order.
fn count_open_moves(table: &mut Table, moves: &Moves, level: u32) {
    let layout = table.layout;
    let n = layout.node_count;
    for turn in [MOUSE, CAT] {
        let counts: Vec<u16> = (0..n)
            .map(|node| table.counter_word(moves.moves(turn, node).count() as u16))
            .collect();
        for row in table.depth[turn * n * n..(turn + 1) * n * n].chunks_mut(n) {
            // Written whether or not it changes, so that the loop has no branch: decided and
            // undecided positions alternate with no pattern to predict, and the mispredictions
            // made this pass most of a small game's handover (48 µs of a 200-node path's).
            for (slot, &count) in row.iter_mut().zip(&counts) {
                *slot = if *slot == UNSET { count } else { *slot };
            }
        }
    }
    for row in 0..2 * n {
        let (turn, other) = if row < n {
            (MOUSE, row)
        } else {
            (CAT, row - n)
        };
        let last_mover = 1 - turn;
        for word in 0..layout.words {
            // Only the last mover's losses count down its moves; its wins decide at once.
            let mut bits = table.wins[row * layout.words + word][turn];
            while bits != 0 {
                let column = word * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if table.moves(row * n + column) >= level {
                    continue;
                }
                let row_start = layout.row(last_mover, column) * n;
                for source in moves.predecessors(last_mover, other) {
                    let slot = table.depth[row_start + source];
                    if !table.is_decided_word(slot) {
                        // A counter reaching zero here would be a loss in `level` moves or fewer,
                        // which the rounds have decided already.
                        debug_assert!(slot > table.counter_word(1));
                        table.depth[row_start + source] = slot - 1;
                    }
                }
            }
        }
    }
}

/// How many moves the undecided position (`turn` to move, `mover` moving, `other` waiting) has
/// that are not yet known to lose as of `level`: every move except those into positions the
/// opponent wins in fewer than `level` moves. Those have been counted already; the ones of
/// `level` moves are still to come through the queue, this one included.
fn open_moves(
    table: &Table,
    moves: &Moves,
    turn: usize,
    other: usize,
    mover: usize,
    level: u32,
) -> u16 {
    let opponent = 1 - turn;
    let mut open = 0u16;
    for next in moves.moves(turn, mover) {
        // After the move the opponent is to move, standing on `other`, with this player on `next`.
        let row = table.layout.row(opponent, next);
        let lost = table.winner_at(row, other) == Some(opponent)
            && table.moves(row * table.layout.node_count + other) < level;
        open += u16::from(!lost);
    }
    open
}
