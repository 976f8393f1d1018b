//! The exports of the `.wasm`: bytes in through memory the caller asks for, JSON out through one output buffer (`docs/dev/wasm.md`).
//!
//! The caller (`web/src/wasm/cmg.ts`) allocates `len` bytes with `cmg_alloc`, writes
//! UTF-8 there and passes the pointer to `cmg_open` (the text) or `cmg_request` (a JSON
//! request), which take the buffer back and free it. Both answer the length of their
//! JSON answer, which stays at `cmg_output()` until the next call. Everything runs on
//! the calling thread; a panic aborts (a trap in JavaScript), after which the caller
//! starts a new instance.

use std::sync::{Mutex, PoisonError};

use super::Document;

/// The open document and the last answer.
static STATE: Mutex<Option<State>> = Mutex::new(None);

#[derive(Default)]
struct State {
    document: Document,
    output: Vec<u8>,
}

/// Runs `f` on the state and keeps its answer as the output; answers its length.
fn with_state(f: impl FnOnce(&mut Document) -> serde_json::Value) -> usize {
    let mut guard = STATE.lock().unwrap_or_else(PoisonError::into_inner);
    let state = guard.get_or_insert_with(State::default);
    let answer = f(&mut state.document);
    state.output = serde_json::to_vec(&answer).unwrap_or_else(|_| b"null".to_vec());
    state.output.len()
}

/// `len` bytes for the caller to write into, to pass to `cmg_open` or `cmg_request`.
#[no_mangle]
pub extern "C" fn cmg_alloc(len: usize) -> *mut u8 {
    let mut buffer = Vec::<u8>::with_capacity(len);
    let pointer = buffer.as_mut_ptr();
    std::mem::forget(buffer);
    pointer
}

/// The bytes of a buffer from `cmg_alloc`, taken back.
///
/// # Safety
///
/// `pointer` comes from `cmg_alloc(len)` and holds `len` initialised bytes.
unsafe fn take(pointer: *mut u8, len: usize) -> String {
    // SAFETY: the caller's contract: allocated by `cmg_alloc` with capacity `len`.
    let bytes = unsafe { Vec::from_raw_parts(pointer, len, len) };
    // The page writes with `TextEncoder`, always UTF-8; anything else is read leniently.
    String::from_utf8(bytes)
        .unwrap_or_else(|error| String::from_utf8_lossy(error.as_bytes()).into_owned())
}

/// Opens `len` bytes of UTF-8 text at `pointer` (from `cmg_alloc`, freed here) in place
/// of the last text: analyses and solves it; answers the length of its summary.
///
/// # Safety
///
/// `pointer` comes from `cmg_alloc(len)` and holds `len` initialised bytes.
#[no_mangle]
pub unsafe extern "C" fn cmg_open(pointer: *mut u8, len: usize) -> usize {
    // SAFETY: passed on from the caller.
    let text = unsafe { take(pointer, len) };
    with_state(|document| {
        let (opened, summary) = Document::open(text);
        *document = opened;
        summary
    })
}

/// Answers the JSON request of `len` bytes at `pointer` (from `cmg_alloc`, freed here)
/// about the open text; answers the length of the answer.
///
/// # Safety
///
/// `pointer` comes from `cmg_alloc(len)` and holds `len` initialised bytes.
#[no_mangle]
pub unsafe extern "C" fn cmg_request(pointer: *mut u8, len: usize) -> usize {
    // SAFETY: passed on from the caller.
    let request = unsafe { take(pointer, len) };
    with_state(|document| document.request(&request))
}

/// Where the last answer is, valid until the next call.
#[no_mangle]
pub extern "C" fn cmg_output() -> *const u8 {
    let guard = STATE.lock().unwrap_or_else(PoisonError::into_inner);
    guard
        .as_ref()
        .map_or(std::ptr::null(), |state| state.output.as_ptr())
}
