//! What an analysis holds on to, counted by the allocator: `Analysis::heap_bytes`
//! against the bytes really retained, and the retained bytes per byte of text. A test
//! binary of its own, since the counting allocator is global; the tests take a lock so
//! that one's allocations never land in another's count.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, Ordering};
use std::sync::Mutex;

use cmg_core::analysis::Analysis;

#[path = "../../../tests/it/common/hostile.rs"]
#[allow(dead_code)]
mod hostile;

struct Counting;

static LIVE: AtomicIsize = AtomicIsize::new(0);
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed);
        System.alloc(layout)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size() as isize, Ordering::Relaxed);
        System.dealloc(ptr, layout)
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE.fetch_add(
            new_size as isize - layout.size() as isize,
            Ordering::Relaxed,
        );
        System.realloc(ptr, layout, new_size)
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The analysis of `make()`'s text and the heap bytes it retains, the text included.
fn retained(make: impl FnOnce() -> String) -> (Analysis, usize) {
    let before = LIVE.load(Ordering::Relaxed);
    let analysis = Analysis::new(make());
    let after = LIVE.load(Ordering::Relaxed);
    (analysis, (after - before) as usize)
}

fn files() -> Vec<(&'static str, String)> {
    vec![
        ("scattered_20kb", hostile::scattered_edges(1400, 2700)),
        ("duplicates", "0 -- 1 -- 2\n1 -- 2\n".repeat(2000)),
        ("labels", {
            let mut text = String::from("0 -- 1 -- 2\n");
            for id in 0..500 {
                text.push_str(&format!("node {id} \"label {id}\"\nnode {id} \"other\"\n"));
            }
            text
        }),
        ("broken", "0 -- 1 -- 2\n1 -> 2\n[[1, 2]\n".repeat(300)),
        ("adjacency", hostile::repeated_list(5000)),
    ]
}

/// `heap_bytes` is what the allocator says the analysis retains, within a few
/// percent (it counts every buffer by its capacity; the allocator's own overhead is
/// not counted by either).
#[test]
fn heap_bytes_matches_what_the_allocator_counts() {
    let _lock = ONE_AT_A_TIME.lock().unwrap();
    for (name, text) in files() {
        let (analysis, counted) = retained(|| text.clone());
        let estimate = analysis.heap_bytes();
        let ratio = estimate as f64 / counted as f64;
        assert!(
            (0.9..=1.1).contains(&ratio),
            "{name}: heap_bytes {estimate}, allocator {counted} (ratio {ratio:.3})"
        );
    }
}

/// What each part of an analysis holds, per byte of text, printed with `--nocapture`.
#[test]
fn breakdown() {
    let _lock = ONE_AT_A_TIME.lock().unwrap();
    for (name, text) in files() {
        let (analysis, counted) = retained(|| text.clone());
        let len = analysis.text.len() as f64;
        eprintln!(
            "{name}: text {} B, retained {counted} B ({:.1}/B): parse {} {:?}, model {} {:?}, line index {}",
            analysis.text.len(),
            counted as f64 / len,
            analysis.parse.heap_bytes(),
            analysis.parse.heap_parts(),
            analysis.model.heap_bytes(),
            analysis.model.heap_parts(),
            analysis.line_index.heap_bytes(),
        );
    }
}
