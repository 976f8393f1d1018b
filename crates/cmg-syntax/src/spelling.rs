//! Near misses of a known word, for "did you mean": the one rule that the parser's
//! keyword hints and `cmg explain`'s code hints share.

/// Whether `typed` becomes `known` by at most one edit: an insertion, a deletion, a
/// substitution, or the swap of two neighbouring characters (a Damerau–Levenshtein
/// distance of at most one, on bytes: the words compared are ASCII). Words shorter than
/// three bytes are too short to guess from.
pub fn within_one_edit(typed: &str, known: &str) -> bool {
    let (a, b) = (typed.as_bytes(), known.as_bytes());
    if a.len().abs_diff(b.len()) > 1 || a.len() < 3 {
        return false;
    }
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let suffix = a[prefix..]
        .iter()
        .rev()
        .zip(b[prefix..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
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

#[cfg(test)]
mod tests {
    use super::within_one_edit;

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
