//! Rename: renumber a node, rewriting every mention of its id.

use cmg_core::analysis::Analysis;
use cmg_core::model::MentionKind;
use cmg_syntax::{parse_node_id, TextRange, MAX_NODE_ID};

use super::navigation::{id_mentions, node_at};
use super::{mention_at, TextEdit};

/// A rename rewrites at most this many mentions: above it the answer would be tens of
/// megabytes that the editor applies in one step, so it is refused with the count.
pub const MAX_RENAME_EDITS: usize = 10_000;

/// The id under the cursor, if that node can be renumbered; otherwise why not.
pub fn prepare_rename(analysis: &Analysis, offset: u32) -> Result<TextRange, String> {
    let Some(mention) = mention_at(analysis, offset) else {
        return Err("there is no node id here to renumber".to_owned());
    };
    if mention.kind == MentionKind::ListIndex {
        return Err("this list stands for its node by its position; put the cursor on a node id to renumber it".to_owned());
    }
    check_renamable(analysis, mention.id)?;
    Ok(mention.range)
}

/// Edits that give the node under the cursor the id `new_name` everywhere it is mentioned.
pub fn rename(analysis: &Analysis, offset: u32, new_name: &str) -> Result<Vec<TextEdit>, String> {
    prepare_rename(analysis, offset)?;
    let Some(old) = node_at(analysis, offset) else {
        return Err("there is no node id here to renumber".to_owned());
    };
    let new = parse_new_id(new_name)?;
    if new == old {
        return Ok(Vec::new());
    }
    if analysis.model.graph.contains(new) {
        return Err(format!(
            "node {new} already exists; renumbering node {old} to {new} would merge the two nodes"
        ));
    }
    let mentions = id_mentions(analysis, old).count();
    if mentions > MAX_RENAME_EDITS {
        return Err(format!(
            "node {old} is mentioned {mentions} times, more than the {MAX_RENAME_EDITS} a rename rewrites at once; replace the id with a text search instead"
        ));
    }
    let new_text = new.to_string();
    Ok(id_mentions(analysis, old)
        .map(|mention| TextEdit {
            range: mention.range,
            new_text: new_text.clone(),
        })
        .collect())
}

/// A node declared by its place in an adjacency literal cannot change its id without
/// moving its list, which would renumber every node after it.
fn check_renamable(analysis: &Analysis, id: u32) -> Result<(), String> {
    let listed = analysis
        .model
        .mentions_of(id)
        .any(|mention| mention.kind == MentionKind::ListIndex);
    if listed {
        return Err(format!(
            "node {id} is declared by its position in an adjacency literal (list {id}), so its id cannot change without reordering the lists; turn the literal into edge statements first"
        ));
    }
    Ok(())
}

fn parse_new_id(new_name: &str) -> Result<u32, String> {
    let digits = new_name.trim();
    let all_digits = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
    all_digits
        .then(|| parse_node_id(digits))
        .flatten()
        .ok_or_else(|| {
            format!(
                "`{new_name}` is not a node id: node ids are whole numbers from 0 to {MAX_NODE_ID}"
            )
        })
}

#[cfg(test)]
mod tests {
    use expect_test::{expect, Expect};

    use super::*;
    use crate::test_utils::{analyze, apply_edits};

    /// The renamed text, or the reason the rename is refused.
    fn check(fixture: &str, new_name: &str, expect: Expect) {
        let (analysis, _, offset) = analyze(fixture);
        let actual = match rename(&analysis, offset, new_name) {
            Ok(edits) => {
                let renamed = apply_edits(&analysis.text, &edits);
                let before = Analysis::new(&analysis.text);
                let after = Analysis::new(&renamed);
                // A rename keeps the graph's shape and introduces no syntax errors.
                assert_eq!(
                    before.model.graph.edge_count(),
                    after.model.graph.edge_count()
                );
                assert_eq!(before.parse.errors.len(), after.parse.errors.len());
                renamed
            }
            Err(message) => format!("refused: {message}\n"),
        };
        expect.assert_eq(&actual);
    }

    #[test]
    fn renumbers_every_mention() {
        check(
            r#"
0 -- {3$0 4} -- 1 # the 3 in this comment stays
3 -- 2; node 3 "corner 😀"
2 -- 4
"#,
            "17",
            expect![[r#"

                0 -- {17 4} -- 1 # the 3 in this comment stays
                17 -- 2; node 17 "corner 😀"
                2 -- 4
            "#]],
        );
    }

    #[test]
    fn renaming_to_the_same_id_changes_nothing() {
        let (analysis, _, offset) = analyze("1 -- 2$0 -- 0");
        assert_eq!(rename(&analysis, offset, "2"), Ok(Vec::new()));
        assert_eq!(rename(&analysis, offset, "002"), Ok(Vec::new()));
    }

    #[test]
    fn refuses_a_taken_id() {
        check(
            "1 -- 2 -- 0\n5 -- 3$0\n",
            "5",
            expect![[r#"
                refused: node 5 already exists; renumbering node 3 to 5 would merge the two nodes
            "#]],
        );
    }

    #[test]
    fn refuses_what_is_not_a_node_id() {
        check(
            "1 -- 2 -- 0\n5 -- 3$0\n",
            "x",
            expect![[r#"
                refused: `x` is not a node id: node ids are whole numbers from 0 to 4294967294
            "#]],
        );
        check(
            "1 -- 2 -- 0\n5 -- 3$0\n",
            "4294967295",
            expect![[r#"
                refused: `4294967295` is not a node id: node ids are whole numbers from 0 to 4294967294
            "#]],
        );
        check(
            "1 -- 2 -- 0\n5 -- 3$0\n",
            "-4",
            expect![[r#"
                refused: `-4` is not a node id: node ids are whole numbers from 0 to 4294967294
            "#]],
        );
    }

    #[test]
    fn refuses_nodes_declared_by_an_adjacency_literal() {
        check(
            "[[1$0, 2], [0], [0]]\n",
            "7",
            expect![[r#"
                refused: node 1 is declared by its position in an adjacency literal (list 1), so its id cannot change without reordering the lists; turn the literal into edge statements first
            "#]],
        );
    }

    #[test]
    fn prepare_names_the_id_or_why_not() {
        let (analysis, _, offset) = analyze("1 -- 42$0 -- 0\n# 😀 é\n");
        assert_eq!(prepare_rename(&analysis, offset), Ok(TextRange::new(5, 7)));
        assert!(prepare_rename(&analysis, 10).is_err());
        assert!(prepare_rename(&analysis, u32::MAX).is_err());
        let (analysis, _, offset) = analyze("[[1, 2], $0[0], [0]]\n");
        assert!(prepare_rename(&analysis, offset).is_err());
    }

    #[test]
    fn a_node_listed_beyond_the_literal_can_be_renumbered() {
        check(
            "[[1, 2], [0, 9$0], [0]]\n",
            "3",
            expect![[r#"
                [[1, 2], [0, 3], [0]]
            "#]],
        );
    }

    #[test]
    fn a_node_mentioned_too_often_is_not_renamed_and_the_count_is_said() {
        let count = MAX_RENAME_EDITS + 1;
        let text = format!("0 -- 1 -- 2\n{}\n", vec!["3 -- 4"; count].join("\n"));
        let analysis = cmg_core::analysis::Analysis::new(text.as_str());
        let error = rename(&analysis, 12, "9").unwrap_err();
        assert!(
            error.contains(&format!("mentioned {count} times")),
            "{error}"
        );
        let fewer = format!("0 -- 1 -- 2\n{}\n", vec!["3 -- 4"; count - 1].join("\n"));
        let analysis = cmg_core::analysis::Analysis::new(fewer.as_str());
        assert_eq!(rename(&analysis, 12, "9").unwrap().len(), count - 1);
    }
}
