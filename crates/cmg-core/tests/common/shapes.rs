//! The shapes of repeats whose check must cost the same per megabyte at any size:
//! shared by the diagnostics tests of `cmg-core` (small) and `benches/hostile.rs`
//! (0.5 to 2 MB).

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
