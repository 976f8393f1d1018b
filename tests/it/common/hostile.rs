//! The hostile inputs, at any size: shared by the robustness tests (small)
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

/// `[[1,1,1,…,1]]`: one adjacency list naming node 1 `count` times (2 MB at a million),
/// with no list 1: a million repeats and one-sided entries in one statement.
pub fn repeated_list(count: usize) -> String {
    format!("[[{}]]\n", vec!["1"; count].join(","))
}

/// A game, then `bytes` of `fill` on one line: a 2 MB unknown token (`\x01`), or the
/// zero-filled tail a crash leaves (`\0`).
pub fn junk_tail(fill: char, bytes: usize) -> String {
    format!("0 -- 1 -- 2\n{}", fill.to_string().repeat(bytes))
}

/// `expect OUTCOME` and a chain `0 -- 1 -- 3 -- … -- 2` of `nodes` nodes (the mouse
/// wins in one move).
pub fn chain_with_expect(nodes: u32, outcome: &str) -> String {
    let middle: Vec<String> = (3..nodes).map(|id| id.to_string()).collect();
    format!("expect {outcome}\n0 -- 1 -- {} -- 2\n", middle.join(" -- "))
}

/// A file of about `edges` lines `a -- b` between `nodes` ids picked at random (a fixed
/// sequence): with `edges` about half of `nodes`, most nodes are joined to one other
/// and reached by neither player, so the file is mostly `unreachable-node` hints. At
/// 1400 edges and 2700 nodes it is about 20 KB, the size of many open editor files.
pub fn scattered_edges(edges: u32, nodes: u32) -> String {
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % u64::from(nodes)) as u32
    };
    let mut text = String::from("0 -- 1 -- 2\n");
    for _ in 0..edges {
        let (a, b) = (next(), next());
        text.push_str(&format!("{a} -- {b}\n"));
    }
    text
}
