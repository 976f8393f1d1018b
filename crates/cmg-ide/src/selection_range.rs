//! Selection ranges: from the token under the cursor outwards, each range holding the
//! one before it: the token, the bracket blocks around it (`{2 5}`, one adjacency list,
//! the whole literal), the edge it is part of (`a -- {b c}` within a chain), the
//! statement, and the whole file. Broken statements get their tokens and brackets too:
//! the chain is read off the tokens and the statement cut, not only the syntax tree.

use cmg_syntax::{Parse, StatementKind, SyntaxKind, TextRange};

/// The ranges around `offset`, innermost first, each strictly holding the one before.
/// The last one is the whole text.
pub fn selection_ranges(text: &str, parse: &Parse, offset: u32) -> Vec<TextRange> {
    let offset = offset.min(text.len() as u32);
    let mut candidates = Vec::new();
    if let Some(token) = token_at(parse, offset) {
        candidates.push(token);
    }
    let chunk_index = parse
        .chunks
        .partition_point(|chunk| chunk.range.end < offset);
    if let Some(chunk) = parse
        .chunks
        .get(chunk_index)
        .filter(|chunk| chunk.range.touches(offset))
    {
        candidates.push(chunk.range);
        // Bracket blocks, matched on the chunk's tokens.
        let mut open = Vec::new();
        for token in &parse.tokens[chunk.tokens.clone()] {
            if token.kind.is_opening_bracket() {
                open.push(token.range.start);
            } else if token.kind.is_closing_bracket() {
                if let Some(start) = open.pop() {
                    let block = TextRange::new(start, token.range.end);
                    if block.touches(offset) {
                        candidates.push(block);
                    }
                }
            }
        }
        let statement = chunk.statement.map(|index| &parse.file.statements[index]);
        if let Some(StatementKind::Edges(groups)) = statement.map(|s| &s.kind) {
            candidates.extend(
                groups
                    .windows(2)
                    .map(|pair| pair[0].range.cover(pair[1].range))
                    .filter(|edge| edge.touches(offset)),
            );
        }
    }
    candidates.push(TextRange::new(0, text.len() as u32));
    candidates.sort_by_key(|range| (range.len(), range.start));
    let mut chain: Vec<TextRange> = Vec::with_capacity(candidates.len());
    for range in candidates {
        let holds_last = chain
            .last()
            .is_none_or(|&last| range != last && range.contains_range(last));
        if holds_last {
            chain.push(range);
        }
    }
    chain
}

/// The token under the cursor, or the one just before it; never a line break.
fn token_at(parse: &Parse, offset: u32) -> Option<TextRange> {
    let index = parse
        .tokens
        .partition_point(|token| token.range.end < offset);
    let wanted = |token: &&cmg_syntax::Token| {
        token.kind != SyntaxKind::Newline && token.range.touches(offset) && !token.range.is_empty()
    };
    // A token that starts at the cursor wins over one that ends there.
    let touching: Vec<_> = parse.tokens[index..]
        .iter()
        .take(2)
        .filter(wanted)
        .collect();
    touching
        .iter()
        .find(|token| token.range.start == offset)
        .or(touching.first())
        .map(|token| token.range)
}

#[cfg(test)]
mod tests {
    use expect_test::{expect, Expect};
    use proptest::prelude::*;

    use crate::test_utils::{cursor, piece};

    use super::*;

    fn check(fixture: &str, expect: Expect) {
        let (text, offset) = cursor(fixture);
        let parse = cmg_syntax::parse(&text);
        let actual: String = selection_ranges(&text, &parse, offset)
            .iter()
            .map(|range| format!("{range:?} {:?}\n", &text[range.to_usize()]))
            .collect();
        expect.assert_eq(&actual);
    }

    #[test]
    fn from_a_member_to_its_group_edge_statement_and_file() {
        check(
            "0 -- 1\n1 -- {2 $05} -- 3  # c\nexpect mouse\n",
            expect![[r#"
                15..16 "5"
                12..17 "{2 5}"
                7..17 "1 -- {2 5}"
                7..22 "1 -- {2 5} -- 3"
                0..41 "0 -- 1\n1 -- {2 5} -- 3  # c\nexpect mouse\n"
            "#]],
        );
    }

    #[test]
    fn an_adjacency_list_then_the_literal() {
        check(
            "[\n  [1, $02],\n  [0],\n]\n",
            expect![[r##"
                8..9 "2"
                4..10 "[1, 2]"
                0..20 "[\n  [1, 2],\n  [0],\n]"
                0..21 "[\n  [1, 2],\n  [0],\n]\n"
            "##]],
        );
    }

    #[test]
    fn a_keyword_a_comment_and_a_broken_statement() {
        check(
            "expect mo$0use\n",
            expect![[r##"
                7..12 "mouse"
                0..12 "expect mouse"
                0..13 "expect mouse\n"
            "##]],
        );
        check(
            "0 -- 1  # a co$0mment\n",
            expect![[r##"
                8..19 "# a comment"
                0..20 "0 -- 1  # a comment\n"
            "##]],
        );
        check(
            "1 -- {2 $03\n",
            expect![[r##"
                8..9 "3"
                0..9 "1 -- {2 3"
                0..10 "1 -- {2 3\n"
            "##]],
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        /// Each range strictly holds the one before, the first touches the cursor, and
        /// the last is the whole text.
        #[test]
        fn selection_ranges_are_nested(
            pieces in prop::collection::vec(piece(), 0..14),
            at in 0usize..300,
        ) {
            let text: String = pieces.concat();
            let offset = at.min(text.len()) as u32;
            let parse = cmg_syntax::parse(&text);
            let ranges = selection_ranges(&text, &parse, offset);
            prop_assert_eq!(ranges.last().copied(), Some(TextRange::new(0, text.len() as u32)));
            prop_assert!(ranges[0].touches(offset), "{:?} at {}", ranges, offset);
            for pair in ranges.windows(2) {
                prop_assert!(pair[0] != pair[1] && pair[1].contains_range(pair[0]), "{:?}", ranges);
            }
        }
    }

    #[test]
    fn between_statements_only_the_file() {
        check(
            "0 -- 1\n$0\n1 -- 2\n",
            expect![[r##"
                0..15 "0 -- 1\n\n1 -- 2\n"
            "##]],
        );
    }
}
