//! What the memory budget counts, in one place: every estimate and measure of what a
//! document holds or a piece of work takes is made here, from the data structures'
//! capacities and element sizes, and the scheduler only adds them up.

use super::*;

/// The most heap an analysis takes while it is built, per byte of text (the copy of the
/// text included): measured with a counting allocator, from 8 (comments) to 112 (a list
/// of 100 000 repeats) at the peak, 34 to 61 for edge lists; 128 bounds them all.
const ANALYSIS_PEAK_BYTES_PER_TEXT_BYTE: u64 = 128;

/// The most heap an analysis takes while it is built, per edge pair a group product
/// declares (`{3 … 699} -- {700 … 4989}` declares 3 million in 24 KB, which the bytes
/// of text do not bound): the pairs listed from both ends with their repeats (8 bytes)
/// while the sorted adjacency lists are made (8 more), then the lists and the game
/// planned from them (8 and 8, the first list freed by then). Measured with a counting
/// allocator at 16.2 to 17.9 bytes per pair, from 200 000 to 3 million pairs.
const ANALYSIS_PEAK_BYTES_PER_PAIR: u64 = 20;

/// The memory an analysis of `text_bytes` bytes may take while it runs, estimated before
/// anything is allocated; 0 above the size limit, where nothing is analysed. The graph
/// a group product declares is not in it: [`analysis_need`] adds it once the text is
/// parsed.
pub fn analysis_estimate(text_bytes: usize, config: &Config) -> u64 {
    if text_bytes > config.max_document_bytes {
        return 0;
    }
    (text_bytes as u64).saturating_mul(ANALYSIS_PEAK_BYTES_PER_TEXT_BYTE)
}

/// The memory the analysis of a parsed text takes while it runs: [`analysis_estimate`]
/// and the edge pairs its group products declare (up to the model's limit, where the
/// graph stops growing).
pub fn analysis_need(text_bytes: usize, parse: &Parse, config: &Config) -> u64 {
    analysis_estimate(text_bytes, config)
        .saturating_add(product_pairs(parse).saturating_mul(ANALYSIS_PEAK_BYTES_PER_PAIR))
}

/// The edge pairs the group products of a parse declare (`{a b} -- {c d}`: four), up to
/// [`MAX_EDGE_PAIRS`]; a link of two single ids is not counted, its text bounds it.
fn product_pairs(parse: &Parse) -> u64 {
    let mut pairs = 0u64;
    for statement in &parse.file.statements {
        if let StatementKind::Edges(groups) = &statement.kind {
            for link in groups.windows(2) {
                let (left, right) = (link[0].members.len() as u64, link[1].members.len() as u64);
                if left > 1 || right > 1 {
                    pairs = pairs.saturating_add(left * right);
                }
            }
        }
        if pairs >= MAX_EDGE_PAIRS {
            return MAX_EDGE_PAIRS;
        }
    }
    pairs
}

/// What a finished analysis holds: the analysis (its text, parse, model with the graph,
/// and line index, by [`Analysis::heap_bytes`]) and the game planned from it.
pub(super) fn analysed_bytes(analysis: Option<&Analysis>, plan: &Plan) -> u64 {
    let analysis = analysis.map_or(0, Analysis::heap_bytes);
    let game = plan.game.as_ref().map_or(0, |(game, _)| game.heap_bytes());
    (analysis + game) as u64
}

/// What the solve of `game` takes at its peak, and what its solution holds after (an
/// upper bound): the solver's tables and work lists ([`peak_memory_bytes`]) and the
/// solution's own copy of the game.
pub fn solve_bytes(game: &Game) -> u64 {
    peak_memory_bytes(game.node_count()).saturating_add(game.heap_bytes() as u64)
}

/// What a retained solution holds: see [`solve_bytes`].
pub fn solution_bytes(solved: &Solved) -> u64 {
    solve_bytes(solved.solution.game())
}

/// Gives the heap freed by closed and evicted documents back to the system. glibc keeps
/// what is freed in its arenas, and reuses it, but returns only the top of the main
/// arena by itself: after 48 dense documents were closed, the server held 1.6 GB for
/// nothing. `malloc_trim` releases every free page of every arena (docs/dev/decisions.md
/// has the measures); it walks the free lists, a few milliseconds, so it runs on the
/// blocking pool, and a trim asked for while one runs makes that one trim once more.
pub fn give_back_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        static ASKED: AtomicU64 = AtomicU64::new(0);
        static TRIMMING: AtomicBool = AtomicBool::new(false);
        ASKED.fetch_add(1, Ordering::AcqRel);
        if TRIMMING.swap(true, Ordering::AcqRel) {
            return;
        }
        loop {
            let asked = ASKED.load(Ordering::Acquire);
            // SAFETY: `malloc_trim` only returns free pages of the allocator's arenas to
            // the system; it takes the arenas' locks, like any allocation.
            unsafe {
                libc::malloc_trim(0);
            }
            TRIMMING.store(false, Ordering::Release);
            // A free that ended meanwhile asked too: trim again unless another thread
            // already took it.
            if ASKED.load(Ordering::Acquire) == asked || TRIMMING.swap(true, Ordering::AcqRel) {
                return;
            }
        }
    }
}
