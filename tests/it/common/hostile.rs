//! The hostile inputs of issue 7, at any size: shared by the robustness tests (small)
//! and `benches/hostile.rs` (the full sizes).

/// `{3 4 … n+2} -- {3 4 … n+2}`: one group product of `n` members on each side, which
/// joins every pair twice and every member to itself.
pub fn group_product(n: u32) -> String {
    let group = (3..n + 3)
        .map(|id| id.to_string())
        .collect::<Vec<_>>()
        .join(" ");
    format!("{{{group}}} -- {{{group}}}\n")
}

/// The ids of [`long_chain`]: `0, 0, 1, 2, …`, `len` ids after the first, modulo `modulo`.
pub fn long_chain_ids(len: u32, modulo: u32) -> Vec<u32> {
    std::iter::once(0)
        .chain((0..len).map(|i| i % modulo))
        .collect()
}

/// One line `0 -- 0 -- 1 -- 2 -- …`: every edge after the first `modulo` is declared again,
/// each in its own link of the chain.
pub fn long_chain(len: u32, modulo: u32) -> String {
    let ids: Vec<String> = long_chain_ids(len, modulo)
        .iter()
        .map(u32::to_string)
        .collect();
    ids.join(" -- ") + "\n"
}

/// The links of [`long_chain`] as statements of their own on one line, `0 -- 0; 0 -- 1;
/// 1 -- 2; …`: every repeated link is then its own diagnostic (a chain that repeats
/// edges within itself gets one per code), all on one long line.
pub fn long_line_of_statements(len: u32, modulo: u32) -> String {
    let ids = long_chain_ids(len, modulo);
    let links: Vec<String> = ids
        .windows(2)
        .map(|pair| format!("{} -- {}", pair[0], pair[1]))
        .collect();
    links.join("; ") + "\n"
}

/// An adjacency literal with `lines` comment lines between its two lists: every line
/// break inside the brackets asks whether the next line starts a statement.
pub fn comments_in_brackets(lines: usize) -> String {
    format!("[[1],\n{}[0]]\n", "#\n".repeat(lines))
}
