//! The exports of the judge's `.wasm`: bytes in through memory the caller asks for, JSON
//! out through one output buffer, as `cmg-wasm`'s (`docs/dev/wasm.md`). One run at a
//! time; everything runs on the calling thread (a web worker of its own).

use std::cell::RefCell;

use serde_json::{json, Value};

use super::Session;

thread_local! {
    static SESSION: RefCell<Option<Session>> = const { RefCell::new(None) };
    static OUTPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Keeps `answer` (or `{"error": message}`) as the output; answers its length.
fn output(answer: Result<Value, String>) -> usize {
    let answer = answer.unwrap_or_else(|error| json!({ "error": error }));
    OUTPUT.with_borrow_mut(|output| {
        *output = serde_json::to_vec(&answer).unwrap_or_else(|_| b"null".to_vec());
        output.len()
    })
}

/// `len` bytes for the caller to write into, to pass to `judge_start` or `judge_resume`.
#[no_mangle]
pub extern "C" fn judge_alloc(len: usize) -> *mut u8 {
    let mut buffer = Vec::<u8>::with_capacity(len);
    let pointer = buffer.as_mut_ptr();
    std::mem::forget(buffer);
    pointer
}

/// The JSON in a buffer from `judge_alloc`, taken back.
///
/// # Safety
///
/// `pointer` comes from `judge_alloc(len)` and holds `len` initialised bytes.
unsafe fn take(pointer: *mut u8, len: usize) -> Result<Value, String> {
    // SAFETY: the caller's contract: allocated by `judge_alloc` with capacity `len`.
    let bytes = unsafe { Vec::from_raw_parts(pointer, len, len) };
    serde_json::from_slice(&bytes).map_err(|error| format!("not JSON: {error}"))
}

/// Starts a run with the JSON settings of `len` bytes at `pointer` (from `judge_alloc`,
/// freed here), in place of any run before, and runs it to its first request; answers
/// the length of the step.
///
/// # Safety
///
/// `pointer` comes from `judge_alloc(len)` and holds `len` initialised bytes.
#[no_mangle]
pub unsafe extern "C" fn judge_start(pointer: *mut u8, len: usize) -> usize {
    // SAFETY: passed on from the caller.
    let settings = unsafe { take(pointer, len) };
    output(settings.and_then(|settings| {
        let mut session = Session::start(&settings)?;
        let step = session.resume(&json!([]));
        SESSION.with_borrow_mut(|slot| *slot = Some(session));
        step
    }))
}

/// Resumes the run with the JSON answers of `len` bytes at `pointer` (from
/// `judge_alloc`, freed here) to its last request; answers the length of the next step.
///
/// # Safety
///
/// `pointer` comes from `judge_alloc(len)` and holds `len` initialised bytes.
#[no_mangle]
pub unsafe extern "C" fn judge_resume(pointer: *mut u8, len: usize) -> usize {
    // SAFETY: passed on from the caller.
    let answers = unsafe { take(pointer, len) };
    output(answers.and_then(|answers| {
        SESSION.with_borrow_mut(|slot| match slot {
            Some(session) => session.resume(&answers),
            None => Err("no run started".into()),
        })
    }))
}

/// The stop button: the run ends at its next step, with the report so far.
#[no_mangle]
pub extern "C" fn judge_stop() {
    SESSION.with_borrow_mut(|slot| {
        if let Some(session) = slot {
            session.stop();
        }
    });
}

/// Where the last step is, valid until the next call.
#[no_mangle]
pub extern "C" fn judge_output() -> *const u8 {
    OUTPUT.with_borrow(Vec::as_ptr)
}
