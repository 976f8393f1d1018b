//! The formatter: fixed layouts, and on random files the properties that make it safe
//! to run anywhere (idempotent, meaning kept, every comment kept).

use cmg_core::model::Model;
use cmg_ide::format;
use cmg_syntax::{parse, SyntaxKind};
use expect_test::{expect, Expect};
use proptest::prelude::*;

fn fmt(text: &str) -> String {
    format(text, &parse(text))
}

fn check(before: &str, after: Expect) {
    let formatted = fmt(before);
    after.assert_eq(&formatted);
    assert_eq!(fmt(&formatted), formatted, "formatting is not idempotent");
}

#[test]
fn spacing_and_one_statement_per_line() {
    check(
        "  0--{2,5}   #  joins\n4 -- 3--1;3 -- 5 ;node 0   \"hole\"\nexpect    draw",
        expect![[r#"
            0 -- {2 5}  #  joins
            4 -- 3 -- 1
            3 -- 5
            node 0 "hole"
            expect draw
        "#]],
    );
}

#[test]
fn node_ids_lose_their_leading_zeros() {
    check(
        "007 -- 01 -- 00\nnode 010 \"ten\"\n[[01], [00]]\n",
        expect![[r#"
            7 -- 1 -- 0
            node 10 "ten"
            [[1], [0]]
        "#]],
    );
}

#[test]
fn blank_lines_are_collapsed_and_trimmed() {
    check(
        "\n\n# head\n\n\n\n1 -- 2\n\n\n",
        expect![[r#"
            # head

            1 -- 2
        "#]],
    );
}

#[test]
fn short_adjacency_stays_on_one_line() {
    check(
        "[ [1,3] ,[0],\n [3],[0 , 2] ]\n",
        expect![[r#"
            [[1, 3], [0], [3], [0, 2]]
        "#]],
    );
}

#[test]
fn adjacency_with_comments_gets_one_list_per_line() {
    check(
        "[ # the puzzle\n[1,3], # hole\n[0],[3 # inside\n],\n# before last\n[0,2]]\n",
        expect![[r#"
            [  # the puzzle
              [1, 3],  # hole
              [0],
              [3],  # inside
              # before last
              [0, 2],
            ]
        "#]],
    );
}

#[test]
fn long_adjacency_is_split() {
    let lists: Vec<String> = (0..30).map(|i| format!("[{}]", (i + 1) % 30)).collect();
    let text = format!("[{}]\n", lists.join(","));
    let formatted = fmt(&text);
    assert_eq!(formatted.lines().count(), 32);
    assert!(formatted.lines().all(|line| line.len() <= 80));
}

#[test]
fn broken_statements_are_kept_as_written() {
    check(
        "1  --  2\n0 --   \nnode   \"x\"\n3   --   4\n",
        expect![[r#"
            1 -- 2
            0 --
            node   "x"
            3 -- 4
        "#]],
    );
}

#[test]
fn line_breaks_follow_the_first_line() {
    assert_eq!(
        fmt("1 -- 2\r\n# c\r3 -- 4\n"),
        "1 -- 2\r\n# c\r\n3 -- 4\r\n"
    );
    assert_eq!(fmt("1 -- 2\r3--4\r\n"), "1 -- 2\r3 -- 4\r");
    assert_eq!(fmt("1--2"), "1 -- 2\n");
    // A broken statement keeps its own line breaks, whatever they are.
    assert_eq!(fmt("1 -- 2\r\n[[\n\"x\n"), "1 -- 2\r\n[[\n\"x\r\n");
}

#[test]
fn empty_and_comment_only_files() {
    check("", expect![""]);
    check("\n\n  \n", expect![""]);
    check(
        "# only\n",
        expect![[r#"
            # only
        "#]],
    );
}

/// What a file means: its graph (with labels), its expectations, and how many
/// statements are broken.
fn meaning(
    text: &str,
) -> (
    cmg_core::model::Graph,
    Vec<cmg_syntax::ExpectedOutcome>,
    usize,
) {
    let parse = parse(text);
    let model = Model::new(text, &parse);
    let expects = model.expects.iter().map(|e| e.outcome).collect();
    (model.graph, expects, parse.errors.len())
}

fn comments(text: &str) -> Vec<String> {
    parse(text)
        .tokens
        .iter()
        .filter(|t| t.kind == SyntaxKind::Comment)
        .map(|t| text[t.range.to_usize()].trim_end().to_owned())
        .collect()
}

fn check_properties(text: &str) {
    let once = fmt(text);
    let twice = fmt(&once);
    assert_eq!(once, twice, "not idempotent for {text:?}");
    assert_eq!(
        meaning(text),
        meaning(&once),
        "meaning changed for {text:?}"
    );
    assert_eq!(
        comments(text),
        comments(&once),
        "comments changed for {text:?}"
    );
}

/// Pieces of a `.cmg` file with random spacing: valid statements of every kind,
/// broken ones, comments, separators and line breaks, including inside brackets.
fn piece() -> impl Strategy<Value = String> {
    let id = prop_oneof![0u32..8, Just(4294967295u32), Just(12)].prop_map(|id| {
        if id == 4294967295 {
            "99999999999".to_owned()
        } else {
            id.to_string()
        }
    });
    let space = prop_oneof![
        Just(""),
        Just(" "),
        Just("   "),
        Just("\t"),
        Just("\n"),
        Just(" # c\n")
    ];
    let group = prop_oneof![
        id.clone(),
        (proptest::collection::vec((id.clone(), space.clone(), any::<bool>()), 1..4)).prop_map(
            |members| {
                let inner: Vec<String> = members
                    .into_iter()
                    .map(|(id, space, comma)| {
                        format!("{id}{}{space}", if comma { "," } else { " " })
                    })
                    .collect();
                format!("{{{}}}", inner.concat().trim_end_matches([',', ' ']))
            }
        ),
    ];
    let edges = proptest::collection::vec(group, 2..4).prop_map(|groups| groups.join(" -- "));
    let list =
        proptest::collection::vec(id.clone(), 0..4).prop_map(|ids| format!("[{}]", ids.join(",")));
    let adjacency = (
        proptest::collection::vec((list, space.clone()), 0..5),
        any::<bool>(),
    )
        .prop_map(|(lists, trailing)| {
            let parts: Vec<String> = lists
                .into_iter()
                .map(|(list, space)| format!("{list}{space}"))
                .collect();
            let mut inner = parts.join(",");
            if trailing && !inner.is_empty() {
                inner.push(',');
            }
            format!("[{inner}]")
        });
    let node = (
        id.clone(),
        prop_oneof![
            Just(""),
            Just(" \"a b\""),
            Just(" \"é \\\" 😀\""),
            Just(" \"bad \\q\"")
        ],
    )
        .prop_map(|(id, label)| format!("node {id}{label}"));
    let expect = prop_oneof![
        Just("expect mouse"),
        Just("expect cat"),
        Just("expect draw"),
        Just("expect")
    ]
    .prop_map(str::to_owned);
    let junk = prop_oneof![
        Just("--"),
        Just("foo"),
        Just("}"),
        Just("[["),
        Just("{"),
        Just("\"open"),
        Just("~"),
        Just(",")
    ]
    .prop_map(str::to_owned);
    let separator = prop_oneof![
        Just("\n"),
        Just(";"),
        Just(" ; "),
        Just("\r\n"),
        Just("\r"),
        Just("\n\n\n"),
        Just("  # note\n")
    ]
    .prop_map(str::to_owned);
    (
        prop_oneof![4 => edges, 2 => adjacency, 1 => node, 1 => expect, 1 => junk],
        separator,
    )
        .prop_map(|(statement, separator)| format!("{statement}{separator}"))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn formatting_random_files_is_safe(pieces in proptest::collection::vec(piece(), 0..12)) {
        check_properties(&pieces.concat());
    }

    #[test]
    fn formatting_token_soup_is_safe(tokens in proptest::collection::vec(
        prop_oneof![
            Just("0"), Just("1"), Just("2"), Just("--"), Just("{"), Just("}"), Just("["), Just("]"),
            Just(","), Just(";"), Just("\n"), Just("\r"), Just(" "), Just("node"), Just("expect"),
            Just("cat"), Just("\"s\""), Just("\""), Just("# c\n"), Just("#"), Just("x"), Just("é"),
        ],
        0..40,
    )) {
        check_properties(&tokens.concat());
    }
}

fn cases() -> u32 {
    if cmg_solve::test_env::slow_tests() {
        4096
    } else {
        512
    }
}
