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

/// The shapes of file whose check must cost the same per megabyte at any size: each
/// repeats edges in its own way. `shape(name, bytes)` writes about `bytes` of it.
pub const SHAPES: [&str; 5] = [
    "few_nodes_many_repeats",
    "dense_middle",
    "sparse_thousands",
    "chains_revisiting_pairs",
    "adjacency_rows_repeating",
];

/// About `bytes` of the shape `name` (one of [`SHAPES`]), from a fixed sequence.
pub fn shape(name: &str, bytes: usize) -> String {
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move |below: u32| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % u64::from(below)) as u32
    };
    let mut text = String::from("0 -- 1 -- 2\n");
    match name {
        // `a -- b -- a`: every line repeats its pair, over 400 nodes.
        "few_nodes_many_repeats" => {
            while text.len() < bytes {
                let (a, b) = (next(400), next(400));
                text.push_str(&format!("{a} -- {b} -- {a}\n"));
            }
        }
        // `a -- b` over 300 nodes: most of the 45 000 pairs declared several times.
        "dense_middle" => {
            while text.len() < bytes {
                text.push_str(&format!("{} -- {}\n", next(300), next(300)));
            }
        }
        // `a -- b` over 100 000 nodes: few repeats, many nodes.
        "sparse_thousands" => {
            while text.len() < bytes {
                text.push_str(&format!("{} -- {}\n", next(100_000), next(100_000)));
            }
        }
        // Chains of 40 links over 2 000 nodes that walk back over their own pairs.
        "chains_revisiting_pairs" => {
            while text.len() < bytes {
                let ids: Vec<u32> = (0..8).map(|_| next(2000)).collect();
                let chain: Vec<String> = (0..40).map(|k| ids[k % 8].to_string()).collect();
                text.push_str(&chain.join(" -- "));
                text.push('\n');
            }
        }
        // One adjacency literal whose rows name each neighbour several times.
        "adjacency_rows_repeating" => {
            text.clear();
            text.push('[');
            let mut row = 0;
            while text.len() < bytes {
                let neighbours: Vec<u32> = (0..4).map(|_| next(500)).collect();
                let entries: Vec<String> = (0..12).map(|k| neighbours[k % 4].to_string()).collect();
                if row > 0 {
                    text.push_str(",\n");
                }
                text.push_str(&format!("[{}]", entries.join(",")));
                row += 1;
            }
            text.push_str("]\n");
        }
        _ => panic!("no shape {name}"),
    }
    text
}
