//! The retrograde analysis itself: a FIFO sweep backwards from the terminal positions over one flat state array.

use std::borrow::Cow;

use super::Game;

/// The largest node count the solver accepts.
///
/// Moves to the end never exceed the number of positions (a decided line never repeats a
/// position), and they are packed into 30 bits of a state word, so `2·n²` must stay below `2^30`.
pub const MAX_NODES: usize = 23_170;

/// Set in a state word once the position is decided; while it is clear the low bits count the moves not yet known to lose.
pub(super) const DECIDED: u32 = 1 << 31;
/// Set in a decided state word when the cat wins; clear when the mouse wins.
pub(super) const CAT_WINS: u32 = 1 << 30;
/// The moves to the end of a decided position.
pub(super) const MOVES: u32 = CAT_WINS - 1;

/// Set in a queue entry when the cat won the queued position; the rest of the entry is its index.
///
/// Carrying the winner in the queue spares the solver a read of the popped position's state word,
/// which is a cache miss on large games. Indices stay below `2^31` under [`MAX_NODES`].
const QUEUED_CAT_WINS: u32 = 1 << 31;

/// How many queue pops go by between two looks at the cancellation flag; a power of two keeps the test cheap.
const CANCEL_CHECK_INTERVAL: usize = 4096;

/// Where each position lives in the state array.
///
/// Mouse-to-move positions fill the first half, cat-major (`cat * n + mouse`), and cat-to-move
/// positions the second half, mouse-major (`n² + mouse * n + cat`). The predecessors of a
/// position differ only in the node of the player who moved last, so with this split they all
/// sit in one row of `n` consecutive words, which keeps the inner loop within a few cache lines.
#[derive(Clone, Copy, Debug)]
pub(super) struct Layout {
    pub(super) node_count: usize,
}

impl Layout {
    pub(super) fn position_count(self) -> usize {
        2 * self.node_count * self.node_count
    }

    pub(super) fn mouse_to_move(self, mouse: usize, cat: usize) -> usize {
        cat * self.node_count + mouse
    }

    pub(super) fn cat_to_move(self, mouse: usize, cat: usize) -> usize {
        self.node_count * self.node_count + mouse * self.node_count + cat
    }
}

/// Peak bytes of [`retrograde`]: one `u32` state word per position, and a queue that may
/// hold every position once.
pub(super) fn peak_memory_bytes(node_count: usize) -> u64 {
    let positions = 2 * (node_count as u64) * (node_count as u64);
    positions * 2 * std::mem::size_of::<u32>() as u64
}

/// Solves `game`, returning one state word per slot of [`Layout`], or `None` once `should_stop` says so.
///
/// # Panics
///
/// Panics if the game has more than [`MAX_NODES`] nodes.
pub(super) fn retrograde(game: &Game, should_stop: impl Fn() -> bool) -> Option<Vec<u32>> {
    let node_count = game.node_count();
    assert!(
        node_count <= MAX_NODES,
        "the solver handles at most {MAX_NODES} nodes, got {node_count}"
    );
    if should_stop() {
        return None;
    }
    let layout = Layout { node_count };
    // Predecessors undo a move, so they are read from the reversed lists; for the usual symmetric
    // graph those are the lists themselves and nothing is copied.
    let predecessors = if game.is_symmetric() {
        Cow::Borrowed(game)
    } else {
        Cow::Owned(game.transposed())
    };
    let (mut state, mut queue) = initial_state(game, layout);

    let square = node_count * node_count;
    // The queue runs in order of discovery, so it holds the positions level by level: all those
    // that end in `moves` moves, then all those that end in `moves + 1`. Tracking where the current
    // level ends gives the moves of a popped position without reading its state word back.
    let mut moves = 0;
    let mut level_end = queue.len();
    let mut cursor = 0;
    while let Some(&entry) = queue.get(cursor) {
        if cursor % CANCEL_CHECK_INTERVAL == 0 && should_stop() {
            return None;
        }
        if cursor == level_end {
            moves += 1;
            level_end = queue.len();
        }
        cursor += 1;
        let position = (entry & !QUEUED_CAT_WINS) as usize;
        let cat_won = entry & QUEUED_CAT_WINS != 0;
        debug_assert_eq!(
            state[position] & (MOVES | CAT_WINS),
            moves | (entry & QUEUED_CAT_WINS) >> 1
        );
        // The predecessors undo the last move; they all sit in one row of the state array,
        // where the mover of each is the player who moved last into `position`.
        let (row, moved, mover_is_cat) = if position < square {
            // The mouse is to move, so the cat moved last: predecessors differ in the cat's node.
            let (cat, mouse) = (position / node_count, position % node_count);
            (layout.cat_to_move(mouse, 0), cat, true)
        } else {
            // The cat is to move, so the mouse moved last: predecessors differ in the mouse's node.
            let (mouse, cat) = (
                (position - square) / node_count,
                (position - square) % node_count,
            );
            (layout.mouse_to_move(0, cat), mouse, false)
        };
        let sources = predecessors.neighbours(moved as u32);
        let row_state = &mut state[row..row + node_count];
        let word = DECIDED | if cat_won { CAT_WINS } else { 0 } | (moves + 1);
        if cat_won == mover_is_cat {
            win_all(row_state, row, sources, word, &mut queue);
        } else {
            lose_one(row_state, row, sources, word, &mut queue);
        }
    }
    Some(state)
}

/// Builds the state array with every move counter set and the terminal positions decided, and the queue holding them.
fn initial_state(game: &Game, layout: Layout) -> (Vec<u32>, Vec<u32>) {
    let node_count = layout.node_count;
    let hole = game.hole().map(|hole| hole as usize);
    let mouse_moves: Vec<u32> = (0..node_count as u32)
        .map(|node| game.neighbours(node).len() as u32)
        .collect();
    // The cat may not step onto the hole, so such a move is not counted among the ones it can lose with.
    let cat_moves: Vec<u32> = (0..node_count as u32)
        .map(|node| {
            let all = game.neighbours(node);
            all.len() as u32
                - u32::from(
                    game.hole()
                        .is_some_and(|hole| all.binary_search(&hole).is_ok()),
                )
        })
        .collect();

    let mut state = vec![0u32; layout.position_count()];
    let (mouse_half, cat_half) = state.split_at_mut(node_count * node_count);
    for cat in 0..node_count {
        mouse_half[cat * node_count..(cat + 1) * node_count].copy_from_slice(&mouse_moves);
    }
    for mouse in 0..node_count {
        cat_half[mouse * node_count..(mouse + 1) * node_count].copy_from_slice(&cat_moves);
    }

    // Reserving the worst case up front never reallocates mid-solve; the pages are only touched as the queue fills.
    let mut queue = Vec::with_capacity(layout.position_count());
    let mut decide = |position: usize, word: u32| {
        state[position] = word;
        queue.push(queue_entry(position, word));
    };
    for node in 0..node_count {
        if Some(node) == hole {
            for cat in (0..node_count).filter(|&cat| Some(cat) != hole) {
                decide(layout.mouse_to_move(node, cat), DECIDED);
                decide(layout.cat_to_move(node, cat), DECIDED);
            }
        } else {
            decide(layout.mouse_to_move(node, node), DECIDED | CAT_WINS);
            decide(layout.cat_to_move(node, node), DECIDED | CAT_WINS);
        }
    }
    // Positions with the cat on the hole cannot arise. Marking them decided (without queueing them)
    // lets the inner loop skip them through the same test as any decided position.
    if let Some(hole) = hole {
        for mouse in 0..node_count {
            state[layout.mouse_to_move(mouse, hole)] = DECIDED | CAT_WINS | MOVES;
            state[layout.cat_to_move(mouse, hole)] = DECIDED | CAT_WINS | MOVES;
        }
    }
    (state, queue)
}

/// Decides every undecided predecessor as a win for its mover, who can play the move into the decided position.
fn win_all(row: &mut [u32], row_start: usize, sources: &[u32], word: u32, queue: &mut Vec<u32>) {
    for &source in sources {
        let slot = &mut row[source as usize];
        if *slot & DECIDED == 0 {
            *slot = word;
            queue.push(queue_entry(row_start + source as usize, word));
        }
    }
}

/// Takes one more losing move from every undecided predecessor, deciding it as a loss when none is left.
fn lose_one(row: &mut [u32], row_start: usize, sources: &[u32], word: u32, queue: &mut Vec<u32>) {
    for &source in sources {
        let slot = &mut row[source as usize];
        if *slot & DECIDED == 0 {
            *slot -= 1;
            if *slot == 0 {
                *slot = word;
                queue.push(queue_entry(row_start + source as usize, word));
            }
        }
    }
}

/// The queue entry of a position just decided with the state word `word`.
fn queue_entry(position: usize, word: u32) -> u32 {
    position as u32 | (word & CAT_WINS) << 1
}
