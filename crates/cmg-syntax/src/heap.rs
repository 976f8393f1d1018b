//! Approximate retained heap bytes of the syntax layer's values: what a server that
//! keeps many documents counts against its memory budget.

use std::mem::size_of;

use smallvec::{Array, SmallVec};

/// The heap bytes of a vector's buffer (its capacity, not its length: that is what it
/// holds on to), not counting what its elements own.
pub fn vec_bytes<T>(vec: &Vec<T>) -> usize {
    vec.capacity() * size_of::<T>()
}

/// The heap bytes of a small vector: nothing while it is inline.
pub(crate) fn small_vec_bytes<A: Array>(vec: &SmallVec<A>) -> usize {
    if vec.spilled() {
        vec.capacity() * size_of::<A::Item>()
    } else {
        0
    }
}
