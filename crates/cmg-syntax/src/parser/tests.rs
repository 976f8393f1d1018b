//! The parser's fast path for edge chains against the grammar alone, on random files.

use proptest::prelude::*;
use proptest::strategy::ValueTree;

use super::*;

/// Both routes must give the same parse, field by field.
fn assert_same_parse(text: &str) {
    let fast = parse_with(text, Route::FastPathFirst);
    let grammar = parse_with(text, Route::GrammarOnly);
    assert_eq!(fast.tokens, grammar.tokens, "tokens of {text:?}");
    assert_eq!(fast.file, grammar.file, "statements of {text:?}");
    assert_eq!(fast.chunks, grammar.chunks, "chunks of {text:?}");
    assert_eq!(fast.errors, grammar.errors, "errors of {text:?}");
    assert_eq!(fast.breaks, grammar.breaks, "breaks of {text:?}");
}

/// The statements the fast path reads itself, so that the property tests are known to
/// cover it: every chunk whose tokens it accepts.
fn fast_path_statements(text: &str) -> usize {
    let parse = parse(text);
    parse
        .chunks
        .iter()
        .filter(|chunk| edge_chain(text, &parse.tokens[chunk.tokens.clone()]).is_some())
        .count()
}

#[test]
fn chains_take_the_fast_path_and_the_rest_does_not() {
    let text = "1 -- 2\n3--4 -- 99999999999 ; 0 -- 1 # c\n";
    assert_eq!(fast_path_statements(text), 3);
    assert_same_parse(text);
    for declined in [
        "1",
        "1 --",
        "1 -- 2 --",
        "-- 1 -- 2",
        "1 -- {2}",
        "1 -- 2 3",
        "1 -- -- 2",
        "node 1",
        "1 -- x",
        "[[1], [0]]",
    ] {
        assert_eq!(fast_path_statements(declined), 0, "{declined:?}");
        assert_same_parse(declined);
    }
}

/// Tokens of every kind, weighted towards those of edge chains so that long valid
/// chains, and chains broken at one place, both come up often.
fn token() -> impl Strategy<Value = &'static str> {
    prop_oneof![
        8 => prop_oneof![Just("0"), Just("1"), Just("2"), Just("17"), Just("4294967294"),
            Just("4294967295"), Just("99999999999999999999999")],
        8 => Just("--"),
        1 => prop_oneof![Just("{"), Just("}"), Just("["), Just("]"), Just(","), Just(";")],
        2 => prop_oneof![Just("\n"), Just("\r\n"), Just("\r"), Just("# c\n"), Just("#")],
        1 => prop_oneof![Just("node"), Just("expect"), Just("mouse"), Just("cat"), Just("draw")],
        1 => prop_oneof![Just("\"s\""), Just("\"open"), Just("\"\\q\""), Just("x"), Just("~"),
            Just("-"), Just("é")],
    ]
}

/// A line that is a valid chain, or a valid chain with one token changed.
fn chain_line() -> impl Strategy<Value = String> {
    (
        proptest::collection::vec(0u32..30, 2..6),
        proptest::option::of((proptest::arbitrary::any::<prop::sample::Index>(), token())),
    )
        .prop_map(|(ids, broken)| {
            let mut tokens: Vec<String> = Vec::new();
            for (i, id) in ids.iter().enumerate() {
                if i > 0 {
                    tokens.push("--".to_owned());
                }
                tokens.push(id.to_string());
            }
            if let Some((at, token)) = broken {
                let at = at.index(tokens.len());
                tokens[at] = token.to_owned();
            }
            tokens.join(" ") + "\n"
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    #[test]
    fn fast_path_matches_the_grammar_on_token_soup(
        tokens in proptest::collection::vec(
            (token(), prop_oneof![Just(" "), Just(""), Just("\t")]),
            0..40,
        )
    ) {
        let text: String = tokens.iter().flat_map(|(t, s)| [*t, *s]).collect();
        assert_same_parse(&text);
    }

    #[test]
    fn fast_path_matches_the_grammar_on_chain_lines(
        lines in proptest::collection::vec(chain_line(), 1..12)
    ) {
        let text = lines.concat();
        assert_same_parse(&text);
    }
}

/// Random chain lines are mostly read by the fast path: the property above tests it,
/// not only the grammar.
#[test]
fn most_random_chain_lines_take_the_fast_path() {
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let (mut lines, mut fast) = (0, 0);
    for _ in 0..200 {
        let line = chain_line().new_tree(&mut runner).unwrap().current();
        lines += 1;
        fast += fast_path_statements(&line);
    }
    assert!(
        fast * 2 > lines,
        "{fast} of {lines} lines took the fast path"
    );
}

/// Rules parse with their name resolved and their arguments as written; one-way chains
/// are their own statement, and a chain that mixes `--` and `->` is one syntax error.
#[test]
fn rules_and_one_way_chains() {
    let text =
        "rule limit 16\nrule first cat\nrule holse 0 3\n1 -> {2 3} -> 4\n1 -> 2 -- 3\nrule\n";
    let parse = parse(text);
    let kinds: Vec<&StatementKind> = parse.file.statements.iter().map(|s| &s.kind).collect();
    let StatementKind::Rule(limit) = kinds[0] else {
        panic!("{kinds:?}")
    };
    assert_eq!(limit.name, RuleName::Limit);
    assert_eq!(limit.args[0].value, RuleValue::Number(Some(16)));
    assert_eq!(&text[limit.range().to_usize()], "rule limit 16");
    let StatementKind::Rule(first) = kinds[1] else {
        panic!("{kinds:?}")
    };
    assert_eq!(first.args[0].value, RuleValue::Cat);
    let StatementKind::Rule(unknown) = kinds[2] else {
        panic!("{kinds:?}")
    };
    assert_eq!(unknown.name, RuleName::Unknown);
    assert_eq!(&text[unknown.name_range.to_usize()], "holse");
    let StatementKind::Arcs(groups) = kinds[3] else {
        panic!("{kinds:?}")
    };
    assert_eq!(groups.len(), 3);
    assert_eq!(kinds.len(), 4);
    assert_eq!(parse.errors.len(), 2, "{:?}", parse.errors);
    assert!(
        parse.errors[0].message.contains("expected `->`"),
        "{:?}",
        parse.errors
    );
    assert!(
        parse.errors[1]
            .message
            .contains("expected a rule name (limit, first, start, holes or cat-enters-holes)"),
        "{:?}",
        parse.errors
    );
    for text in ["1 -> 2\n", "rule start 1 2\n", "{1 2} -> 3 -> {4}\n"] {
        assert_same_parse(text);
    }
}
