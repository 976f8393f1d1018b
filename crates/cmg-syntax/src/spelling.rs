//! Near misses of a known word, for "did you mean": the one rule that the parser's
//! keyword hints and `cmg explain`'s code hints share; and the common start and end of
//! two sequences it is built on, which the language server's token deltas use too.

/// Whether `typed` becomes `known` by at most one edit: an insertion, a deletion, a
/// substitution, or the swap of two neighbouring characters (a Damerau–Levenshtein
/// distance of at most one, on bytes: the words compared are ASCII). Words shorter than
/// three bytes are too short to guess from.
pub fn within_one_edit(typed: &str, known: &str) -> bool {
    let (a, b) = (typed.as_bytes(), known.as_bytes());
    if a.len().abs_diff(b.len()) > 1 || a.len() < 3 {
        return false;
    }
    let (prefix, suffix) = common_ends(a, b);
    // What is left between the common prefix and suffix, on each side.
    let (left_a, left_b) = (a.len() - prefix - suffix, b.len() - prefix - suffix);
    match (left_a, left_b) {
        // The same word, one letter inserted or deleted, or one letter changed.
        (0, 0) | (0, 1) | (1, 0) | (1, 1) => true,
        // Two neighbours swapped.
        (2, 2) => a[prefix] == b[prefix + 1] && a[prefix + 1] == b[prefix],
        _ => false,
    }
}

/// How many items `a` and `b` share at their start, and then at their end: the
/// suffix is counted in what follows the prefix, so the two never overlap.
pub fn common_ends<T: PartialEq>(a: &[T], b: &[T]) -> (usize, usize) {
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let suffix = a[prefix..]
        .iter()
        .rev()
        .zip(b[prefix..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    (prefix, suffix)
}

#[cfg(test)]
mod tests {
    use super::{common_ends, within_one_edit};

    #[test]
    fn common_ends_never_overlap() {
        assert_eq!(common_ends(b"abcab", b"abcab"), (5, 0));
        assert_eq!(common_ends(b"aXa", b"aa"), (1, 1));
        assert_eq!(common_ends(b"aa", b"aXa"), (1, 1));
        assert_eq!(common_ends(b"abc", b"xyz"), (0, 0));
        assert_eq!(common_ends::<u8>(b"", b"abc"), (0, 0));
    }

    #[test]
    fn one_edit_of_each_kind_is_near_and_two_are_not() {
        for (typed, known) in [
            ("expect", "expect"),
            ("expet", "expect"),
            ("expectt", "expect"),
            ("expekt", "expect"),
            ("exepct", "expect"),
            ("slef-loop", "self-loop"),
            ("mosue", "mouse"),
            ("ndoe", "node"),
        ] {
            assert!(within_one_edit(typed, known), "{typed} ~ {known}");
        }
        for (typed, known) in [
            ("exepcd", "expect"),
            ("epxetc", "expect"),
            ("mice", "mouse"),
            ("ca", "cat"),
            ("esuom", "mouse"),
            ("slef-lopo", "self-loop"),
        ] {
            assert!(!within_one_edit(typed, known), "{typed} !~ {known}");
        }
    }
}
