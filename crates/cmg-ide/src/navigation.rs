//! Navigation between the mentions of a node: go to definition, find references, highlight.

use cmg_core::analysis::Analysis;
use cmg_core::model::{Mention, MentionKind};
use cmg_syntax::TextRange;

/// Where to go: `full_range` is the whole declaring construct, `focus_range` the part
/// to select (the id itself).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NavigationTarget {
    pub full_range: TextRange,
    pub focus_range: TextRange,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HighlightKind {
    Read,
    Write,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Highlight {
    pub range: TextRange,
    pub kind: HighlightKind,
}

/// At most this many references or highlights are answered: a node mentioned a million
/// times would otherwise be a 100 MB answer, and VS Code asks for highlights whenever
/// the cursor rests. The ones nearest the cursor are kept (see [`nearest`]).
pub const MAX_REFERENCES: usize = 10_000;

/// The `node n` declaration of the node under the cursor if there is one, else its
/// first mention.
pub fn definition(analysis: &Analysis, offset: u32) -> Option<NavigationTarget> {
    let id = node_at(analysis, offset)?;
    definition_of(analysis, id)
}

/// Every mention of the node under the cursor as an id, in source order, at most
/// [`MAX_REFERENCES`] of them. The lists of an adjacency literal are left out: they are
/// not the node's id.
pub fn references(analysis: &Analysis, offset: u32, include_declaration: bool) -> Vec<TextRange> {
    let Some(id) = node_at(analysis, offset) else {
        return Vec::new();
    };
    let definition = definition_of(analysis, id).map(|target| target.focus_range);
    let all: Vec<TextRange> = id_mentions(analysis, id)
        .map(|mention| mention.range)
        .filter(|&range| include_declaration || Some(range) != definition)
        .collect();
    nearest(all, offset, MAX_REFERENCES)
}

/// How many times the node under the cursor is written out: what [`references`] and
/// [`highlights`] would list without their cap.
pub fn mention_count(analysis: &Analysis, offset: u32) -> usize {
    node_at(analysis, offset).map_or(0, |id| id_mentions(analysis, id).count())
}

/// At most `max` of `ranges` (in source order), those around `offset`: the part of the
/// file the user is looking at.
fn nearest(ranges: Vec<TextRange>, offset: u32, max: usize) -> Vec<TextRange> {
    if ranges.len() <= max {
        return ranges;
    }
    let at = ranges.partition_point(|range| range.end < offset);
    let start = at.saturating_sub(max / 2).min(ranges.len() - max);
    ranges[start..start + max].to_vec()
}

/// The references of the node under the cursor, with its definition site as a write;
/// at most [`MAX_REFERENCES`], those around the cursor.
pub fn highlights(analysis: &Analysis, offset: u32) -> Vec<Highlight> {
    let Some(id) = node_at(analysis, offset) else {
        return Vec::new();
    };
    let definition = definition_of(analysis, id).map(|target| target.focus_range);
    let all: Vec<TextRange> = id_mentions(analysis, id)
        .map(|mention| mention.range)
        .collect();
    nearest(all, offset, MAX_REFERENCES)
        .into_iter()
        .map(|range| Highlight {
            range,
            kind: if Some(range) == definition {
                HighlightKind::Write
            } else {
                HighlightKind::Read
            },
        })
        .collect()
}

/// The node whose id is under the cursor. A cursor inside an adjacency list but not on
/// one of its ids names no node: the list stands for its node only by its position.
pub(crate) fn node_at(analysis: &Analysis, offset: u32) -> Option<u32> {
    let mention = mention_at(analysis, offset)?;
    (mention.kind != MentionKind::ListIndex).then_some(mention.id)
}

/// The node mention under the cursor at `offset` (touching it from either side).
/// A whole adjacency list is a mention of its node, but an id inside it wins.
pub(crate) fn mention_at(analysis: &Analysis, offset: u32) -> Option<&Mention> {
    let mentions = &analysis.model.mentions;
    touching(analysis, offset)
        .into_iter()
        .map(|index| &mentions[index])
        .min_by_key(|mention| mention.range.len())
}

/// The indices of the mentions that touch `offset`, in source order, found without a
/// scan of the file. Mentions are ordered by their start, and the only range that
/// holds others is an adjacency row (its list mention holds the ids of its neighbours,
/// which follow it); every other pair is disjoint. So only the mentions that start at
/// `offset`, the last one that starts before it, and that one's row can touch it.
fn touching(analysis: &Analysis, offset: u32) -> Vec<usize> {
    let mentions = &analysis.model.mentions;
    let mut found = Vec::new();
    let mut index = mentions.partition_point(|mention| mention.range.start <= offset);
    while index > 0 {
        index -= 1;
        let mention = &mentions[index];
        if mention.range.touches(offset) {
            found.push(index);
        }
        if mention.range.start == offset {
            // A mention before this one may end right at `offset`.
            continue;
        }
        // Everything before this mention ends where it starts, at the latest, except
        // the row that holds it.
        if let Some(row) = row_of(analysis, mention) {
            if mentions[row].range.touches(offset) && !found.contains(&row) {
                found.push(row);
            }
        }
        break;
    }
    found.sort_unstable();
    found
}

/// The index of the list mention of the adjacency row that holds the id `mention`.
fn row_of(analysis: &Analysis, mention: &Mention) -> Option<usize> {
    if mention.kind == MentionKind::ListIndex {
        return None;
    }
    let lists = analysis.parse.file.adjacency_lists(mention.statement)?;
    let row = lists
        .partition_point(|list| list.range.start <= mention.range.start)
        .checked_sub(1)
        .map(|row| &lists[row])
        .filter(|list| list.range.contains_range(mention.range))?;
    let mentions = &analysis.model.mentions;
    let first = mentions.partition_point(|other| other.range.start < row.range.start);
    mentions[first..]
        .iter()
        .take_while(|other| other.range.start == row.range.start)
        .position(|other| {
            other.kind == MentionKind::ListIndex && other.statement == mention.statement
        })
        .map(|at| first + at)
}

/// The mentions of `id` that write the id out, in source order.
pub(crate) fn id_mentions(analysis: &Analysis, id: u32) -> impl Iterator<Item = &Mention> {
    analysis
        .model
        .mentions_of(id)
        .filter(|mention| mention.kind != MentionKind::ListIndex)
}

/// Where node `id` is defined: its `node` statement, else its first mention. Document
/// symbols point at the same place.
pub(crate) fn definition_of(analysis: &Analysis, id: u32) -> Option<NavigationTarget> {
    let mention = analysis.model.definition(id)?;
    let full_range = match mention.kind {
        // The whole `node n "label"` statement is what declares the node.
        MentionKind::Declaration => analysis
            .parse
            .file
            .statements
            .get(mention.statement as usize)
            .map_or(mention.range, |statement| statement.range),
        MentionKind::Edge | MentionKind::ListIndex => mention.range,
    };
    Some(NavigationTarget {
        full_range,
        focus_range: mention.range,
    })
}

#[cfg(test)]
mod tests {
    use expect_test::{expect, Expect};

    use super::*;
    use crate::test_utils::analyze;

    /// Shows a range as `line:column` (both from 1, columns in characters) and its text.
    fn show(analysis: &Analysis, range: TextRange) -> String {
        let line = analysis.line_index.line_col(range.start).line + 1;
        let col = analysis.line_index.char_col(range.start) + 1;
        format!("{line}:{col} {:?}", &analysis.text[range.to_usize()])
    }

    /// Definition, references without and with the declaration, and highlights.
    fn check(fixture: &str, expect: Expect) {
        let (analysis, _, offset) = analyze(fixture);
        let mut out = String::new();
        match definition(&analysis, offset) {
            Some(target) => out.push_str(&format!(
                "definition: {} in {}\n",
                show(&analysis, target.focus_range),
                show(&analysis, target.full_range)
            )),
            None => out.push_str("definition: none\n"),
        }
        for (include, name) in [(false, "references"), (true, "with declaration")] {
            let ranges: Vec<String> = references(&analysis, offset, include)
                .into_iter()
                .map(|range| show(&analysis, range))
                .collect();
            out.push_str(&format!("{name}: [{}]\n", ranges.join(", ")));
        }
        for highlight in highlights(&analysis, offset) {
            out.push_str(&format!(
                "{:?} {}\n",
                highlight.kind,
                show(&analysis, highlight.range)
            ));
        }
        expect.assert_eq(&out);
    }

    #[test]
    fn node_declaration_is_the_definition() {
        check(
            r#"
0 -- 3$0 -- 1
3 -- 2
node 3 "corner"
"#,
            expect![[r#"
                definition: 4:6 "3" in 4:1 "node 3 \"corner\""
                references: [2:6 "3", 3:1 "3"]
                with declaration: [2:6 "3", 3:1 "3", 4:6 "3"]
                Read 2:6 "3"
                Read 3:1 "3"
                Write 4:6 "3"
            "#]],
        );
    }

    #[test]
    fn without_declaration_the_first_mention_is_the_definition() {
        check(
            "1 -- 2 -- 0\n2$0 -- 0 # é😀\n",
            expect![[r#"
                definition: 1:6 "2" in 1:6 "2"
                references: [2:1 "2"]
                with declaration: [1:6 "2", 2:1 "2"]
                Write 1:6 "2"
                Read 2:1 "2"
            "#]],
        );
    }

    #[test]
    fn ids_after_wide_characters() {
        check(
            "node 0 \"trou 😀\"; 0 -- 1\n1 -- 2 -- 0$0\n",
            expect![[r#"
                definition: 1:6 "0" in 1:1 "node 0 \"trou 😀\""
                references: [1:18 "0", 2:11 "0"]
                with declaration: [1:6 "0", 1:18 "0", 2:11 "0"]
                Write 1:6 "0"
                Read 1:18 "0"
                Read 2:11 "0"
            "#]],
        );
    }

    #[test]
    fn ids_inside_an_adjacency_literal() {
        check(
            "[[1$0, 2], [0], [0]]\n",
            expect![[r#"
            definition: 1:3 "1" in 1:3 "1"
            references: []
            with declaration: [1:3 "1"]
            Write 1:3 "1"
        "#]],
        );
    }

    #[test]
    fn no_navigation_from_a_list_outside_its_ids() {
        check(
            "[[1, 2], $0[0], [0]]\n",
            expect![[r#"
            definition: none
            references: []
            with declaration: []
        "#]],
        );
        check(
            "[[1, 2], [0], [0]]\n$0expect cat",
            expect![[r#"
            definition: none
            references: []
            with declaration: []
        "#]],
        );
    }

    #[test]
    fn out_of_range_offsets_find_nothing() {
        let (analysis, _, _) = analyze("1 -- 2");
        assert_eq!(definition(&analysis, 100), None);
        assert!(references(&analysis, u32::MAX, true).is_empty());
        assert!(highlights(&analysis, u32::MAX).is_empty());
    }

    /// A node mentioned more than the bound: the answers stop at it, and keep the
    /// mentions around the cursor (a million mentions were 94 MB).
    #[test]
    fn references_and_highlights_are_bounded_around_the_cursor() {
        let count = MAX_REFERENCES * 3;
        let text = format!("0 -- 1 -- 2\n{}\n", vec!["3 -- 4"; count].join("\n"));
        let analysis = cmg_core::analysis::Analysis::new(text.as_str());
        let middle = text.len() as u32 / 2;
        let cursor = middle + text[middle as usize..].find('3').unwrap() as u32;
        let found = references(&analysis, cursor, true);
        assert_eq!(found.len(), MAX_REFERENCES);
        assert!(found.iter().any(|range| range.start == cursor));
        assert!(found.windows(2).all(|pair| pair[0].start < pair[1].start));
        let lit = highlights(&analysis, cursor);
        assert_eq!(lit.len(), MAX_REFERENCES);
        assert!(lit.iter().any(|highlight| highlight.range.start == cursor));
        // At the start of the file, the first ones.
        let first = references(&analysis, 13, true);
        assert_eq!(first.len(), MAX_REFERENCES);
        assert_eq!(first[0].start, 12);
    }

    /// Pieces of `.cmg` text, valid and broken, that together make every shape of
    /// mention: chains, groups, `node` statements, adjacency rows (empty, nested,
    /// unclosed), ids too large to be nodes, and ids that touch other tokens.
    const PIECES: [&str; 22] = [
        "0",
        "1",
        "2",
        "17",
        "007",
        "99999999999",
        " ",
        " -- ",
        "--",
        "{",
        "}",
        ", ",
        "[",
        "]",
        "[[",
        "]]",
        ";",
        "\n",
        "\r\n",
        "node ",
        "\"x\"",
        "# c\n",
    ];

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 500, ..Default::default() })]
        /// The binary search finds what a scan of every mention finds, at every offset
        /// of random texts; and the mentions are in order of their start, which the
        /// search relies on.
        #[test]
        fn the_mention_at_an_offset_is_the_one_a_scan_finds(
            pieces in proptest::collection::vec(0..PIECES.len(), 0..40)
        ) {
            let text: String = pieces.iter().map(|&piece| PIECES[piece]).collect();
            let analysis = cmg_core::analysis::Analysis::new(text.as_str());
            let mentions = &analysis.model.mentions;
            proptest::prop_assert!(mentions.windows(2).all(|pair| pair[0].range.start <= pair[1].range.start));
            for offset in 0..=text.len() as u32 + 1 {
                let scanned = mentions
                    .iter()
                    .filter(|mention| mention.range.touches(offset))
                    .min_by_key(|mention| mention.range.len());
                proptest::prop_assert_eq!(mention_at(&analysis, offset), scanned, "at {}", offset);
            }
        }
    }
}
