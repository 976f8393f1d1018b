//! Completion: node ids, statement keywords and outcomes, chosen from the tokens before the cursor.
//!
//! The text is often broken while the user types, so the context comes from the token
//! list and the parser's statement breaks, never from the syntax tree.

use cmg_core::analysis::Analysis;
use cmg_core::model::NodeRole;
use cmg_syntax::{Parse, RuleName, SyntaxKind};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompletionKind {
    Node,
    Keyword,
    Outcome,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompletionItem {
    pub label: String,
    pub kind: CompletionKind,
    pub detail: Option<String>,
}

/// At most this many node ids are offered at once; the list then says it is incomplete,
/// and the editor asks again as more of the id is typed (a graph of 666 666 nodes was
/// a 19 MB answer).
pub const MAX_COMPLETIONS: usize = 1000;

/// The items, and whether some were left out ([`MAX_COMPLETIONS`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Completions {
    pub items: Vec<CompletionItem>,
    pub is_incomplete: bool,
}

/// What may be typed at the cursor: keywords, outcomes, or the node ids that start with
/// the digits typed so far.
pub fn completions(analysis: &Analysis, offset: u32) -> Vec<CompletionItem> {
    completion_list(analysis, offset).items
}

/// [`completions`], with whether the list was cut.
pub fn completion_list(analysis: &Analysis, offset: u32) -> Completions {
    let complete = |items| Completions {
        items,
        is_incomplete: false,
    };
    if offset as usize > analysis.text.len() {
        return complete(Vec::new());
    }
    match context(&analysis.parse, offset) {
        Context::StatementStart => complete(keywords()),
        Context::NodeId => node_ids(analysis, typed_digits(analysis, offset)),
        Context::Outcome => complete(outcomes()),
        Context::RuleName => complete(rule_names()),
        Context::Nothing => complete(Vec::new()),
    }
}

/// The digits of the number the cursor is in or at the end of, up to the cursor.
fn typed_digits(analysis: &Analysis, offset: u32) -> &str {
    let tokens = &analysis.parse.tokens;
    let index = tokens.partition_point(|t| t.range.end < offset);
    match tokens.get(index) {
        Some(token) if token.kind == SyntaxKind::Number && token.range.start < offset => {
            &analysis.text[token.range.start as usize..offset as usize]
        }
        _ => "",
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Context {
    StatementStart,
    NodeId,
    Outcome,
    /// After `rule`.
    RuleName,
    Nothing,
}

fn context(parse: &Parse, offset: u32) -> Context {
    let tokens = &parse.tokens[..];
    // A token the cursor is inside of, or at the end of, is the word being typed: the
    // context is what comes before it. Inside a comment or a string nothing is offered.
    let typed = Some(tokens.partition_point(|t| t.range.end < offset))
        .filter(|&index| index < tokens.len() && tokens[index].range.start < offset);
    let before = match typed {
        Some(index) => match tokens[index].kind {
            SyntaxKind::Comment | SyntaxKind::UnterminatedString => return Context::Nothing,
            SyntaxKind::String if offset < tokens[index].range.end => return Context::Nothing,
            SyntaxKind::Number | SyntaxKind::Word => index,
            kind if kind.is_keyword() => index,
            _ => index + 1,
        },
        None => tokens.partition_point(|t| t.range.end <= offset),
    };
    // The statement the tokens before the cursor end in, cut as the parser cut them.
    let statement = &tokens[parse.statement_start(before).min(before)..before];
    let mut brackets = Vec::new();
    for token in statement {
        match token.kind {
            kind if kind.is_opening_bracket() => brackets.push(kind),
            kind if kind.is_closing_bracket() => {
                brackets.pop();
            }
            _ => {}
        }
    }
    let previous = statement
        .iter()
        .rev()
        .map(|t| t.kind)
        .find(|&kind| !matches!(kind, SyntaxKind::Comment | SyntaxKind::Newline));
    // A line break inside an unclosed bracket does not end the statement, but a word
    // typed at the start of the next line can only be the keyword of a new one.
    let at_line_start = statement
        .iter()
        .rev()
        .find(|t| t.kind != SyntaxKind::Comment)
        .is_some_and(|t| t.kind == SyntaxKind::Newline);
    let typing_word = typed.is_some_and(|index| {
        let kind = tokens[index].kind;
        kind == SyntaxKind::Word || kind.is_keyword()
    });
    match (previous, brackets.last()) {
        (None, _) => Context::StatementStart,
        _ if at_line_start && (typing_word || brackets.len() == 1) => Context::StatementStart,
        (Some(SyntaxKind::ExpectKw), _) => Context::Outcome,
        (Some(SyntaxKind::RuleKw), _) => Context::RuleName,
        _ if typing_word => Context::Nothing,
        (Some(SyntaxKind::DashDash | SyntaxKind::Arrow | SyntaxKind::NodeKw), _) => Context::NodeId,
        (_, Some(SyntaxKind::LBrace)) => Context::NodeId,
        // Ids go inside one list of an adjacency literal, not between its lists.
        (_, Some(SyntaxKind::LBracket)) if brackets.len() >= 2 => Context::NodeId,
        _ => Context::Nothing,
    }
}

fn keywords() -> Vec<CompletionItem> {
    let words = [
        ("node", "declare a node, optionally with a label"),
        ("expect", "state the outcome the graph should have"),
        (
            "rule",
            "change a rule of the game: limit, first, start, holes, cat-enters-holes",
        ),
    ];
    items(CompletionKind::Keyword, &words)
}

/// The rules, each with how it is written and what it does.
fn rule_names() -> Vec<CompletionItem> {
    RuleName::KNOWN
        .into_iter()
        .map(|rule| {
            let meaning = match rule {
                RuleName::Limit => "a draw once N moves are made",
                RuleName::First => "who moves first",
                RuleName::Start => "where the mouse and the cat start",
                RuleName::Holes => "the holes",
                RuleName::CatEntersHoles => "the cat may enter the holes",
                RuleName::Unknown => "",
            };
            CompletionItem {
                label: rule.name().to_owned(),
                kind: CompletionKind::Keyword,
                detail: Some(format!("{}: {meaning}", rule.usage())),
            }
        })
        .collect()
}

fn outcomes() -> Vec<CompletionItem> {
    let words = [
        ("mouse", "the mouse wins"),
        ("cat", "the cat wins"),
        ("draw", "neither player wins"),
    ];
    items(CompletionKind::Outcome, &words)
}

/// One item of `kind` per word and its detail.
fn items(kind: CompletionKind, words: &[(&str, &str)]) -> Vec<CompletionItem> {
    words
        .iter()
        .map(|&(label, detail)| CompletionItem {
            label: label.to_owned(),
            kind,
            detail: Some(detail.to_owned()),
        })
        .collect()
}

/// The nodes of the graph whose id starts with `typed`, labelled with their label or
/// else their role in the game; at most [`MAX_COMPLETIONS`].
fn node_ids(analysis: &Analysis, typed: &str) -> Completions {
    let graph = &analysis.model.graph;
    let mut matching = graph
        .ids()
        .iter()
        .enumerate()
        .filter(|(_, id)| typed.is_empty() || id.to_string().starts_with(typed));
    let items: Vec<CompletionItem> = matching
        .by_ref()
        .take(MAX_COMPLETIONS)
        .map(|(index, &id)| {
            let role = analysis.model.graph.role_of(id).map(NodeRole::name);
            let detail = graph.label(index as u32).or(role);
            CompletionItem {
                label: id.to_string(),
                kind: CompletionKind::Node,
                detail: detail.map(str::to_owned),
            }
        })
        .collect();
    Completions {
        items,
        is_incomplete: matching.next().is_some(),
    }
}

#[cfg(test)]
mod tests {
    use expect_test::{expect, Expect};

    use super::*;
    use crate::test_utils::analyze;

    /// One line per item: kind, label and detail.
    fn check(fixture: &str, expect: Expect) {
        let (analysis, _, offset) = analyze(fixture);
        let items: Vec<String> = completions(&analysis, offset)
            .into_iter()
            .map(|item| {
                format!(
                    "{:?} {} {}\n",
                    item.kind,
                    item.label,
                    item.detail.as_deref().unwrap_or("-")
                )
            })
            .collect();
        expect.assert_eq(&items.concat());
    }

    const GRAPH: &str = "0 -- {2 5}\n4 -- 3 -- 1\nnode 0 \"hole 😀\"\n";

    /// Every node id of [`GRAPH`], and nothing else, is offered at the cursor of `after`
    /// written below it.
    fn check_graph_ids(after: &str) {
        check(
            &format!("{GRAPH}{after}"),
            expect![[r#"
            Node 0 hole 😀
            Node 1 mouse start
            Node 2 cat start
            Node 3 -
            Node 4 -
            Node 5 -
        "#]],
        );
    }

    /// The outcome words, and nothing else, are offered at the cursor of `after` written
    /// below [`GRAPH`].
    fn check_outcomes(after: &str) {
        check(
            &format!("{GRAPH}{after}"),
            expect![[r#"
            Outcome mouse the mouse wins
            Outcome cat the cat wins
            Outcome draw neither player wins
        "#]],
        );
    }

    #[test]
    fn node_ids_after_dashes() {
        check_graph_ids("3 -- $0");
        check_graph_ids("3 --$0\n");
    }

    #[test]
    fn node_ids_while_typing_one() {
        check(
            &format!("{GRAPH}3 -- 4$0"),
            expect![[r#"
                Node 4 -
            "#]],
        );
    }

    #[test]
    fn node_ids_inside_braces() {
        check_graph_ids("3 -- {$0");
        check_graph_ids("3 -- {1, $0}");
    }

    #[test]
    fn node_ids_inside_an_adjacency_list_only() {
        check(
            "[[1, 2], [0], [$0]]",
            expect![[r#"
            Node 0 hole
            Node 1 mouse start
            Node 2 cat start
        "#]],
        );
        // The literal is broken while it is typed, so only the ids of the rest are known.
        check(
            "1 -- 2\n[[1, 2],\n  [0],\n  [3,$0",
            expect![[r#"
            Node 1 mouse start
            Node 2 cat start
        "#]],
        );
    }

    /// The keywords, and nothing else, are offered at the cursor of `fixture`.
    fn check_keywords(fixture: &str) {
        check(
            fixture,
            expect![[r#"
                Keyword node declare a node, optionally with a label
                Keyword expect state the outcome the graph should have
                Keyword rule change a rule of the game: limit, first, start, holes, cat-enters-holes
            "#]],
        );
    }

    /// The rules after `rule`, and node ids after `->`, with the roles the file's rules give.
    #[test]
    fn rule_names_after_rule_and_ids_after_arrows() {
        check(
            "0 -- 1 -- 2\nrule $0",
            expect![[r#"
                Keyword limit rule limit N: a draw once N moves are made
                Keyword first rule first cat: who moves first
                Keyword start rule start M C: where the mouse and the cat start
                Keyword holes rule holes H…: the holes
                Keyword cat-enters-holes rule cat-enters-holes: the cat may enter the holes
            "#]],
        );
        check(
            "0 -- 1 -- 2 -- 3\nrule start 3 1\n2 -> $0",
            expect![[r#"
                Node 0 hole
                Node 1 cat start
                Node 2 -
                Node 3 mouse start
            "#]],
        );
    }

    #[test]
    fn keywords_at_the_start_of_a_statement() {
        check_keywords(&format!("{GRAPH}$0"));
        check_keywords(&format!("{GRAPH}3 -- 4; ex$0"));
        check_keywords("# é 😀\n  $0\n1 -- 2");
    }

    #[test]
    fn keywords_after_an_unclosed_bracket_on_an_earlier_line() {
        check_keywords("[[1, 2], [0]\nexpe$0");
        check_keywords("[[1, 2], [0]\n$0");
        check_keywords("0 -- {1 2\nno$0");
    }

    #[test]
    fn outcomes_after_expect() {
        check_outcomes("expect $0");
        check_outcomes("expect dr$0\n");
    }

    #[test]
    fn node_ids_after_node() {
        check_graph_ids("node $0");
    }

    #[test]
    fn nothing_in_comments_strings_or_after_a_complete_statement() {
        check(&format!("{GRAPH}# 3 -- $0"), expect![[""]]);
        check(&format!("{GRAPH}node 3 \"a -- $0\""), expect![[""]]);
        check(&format!("{GRAPH}node 3 \"a -- $0"), expect![[""]]);
        check(&format!("{GRAPH}expect draw $0"), expect![[""]]);
        check("[[1, 2], $0[0]]", expect![[""]]);
    }

    #[test]
    fn out_of_range_offsets_complete_nothing() {
        let (analysis, _, _) = analyze("1 -- 2");
        assert!(completions(&analysis, 7).is_empty());
        assert!(completions(&analysis, u32::MAX).is_empty());
    }

    #[test]
    fn node_ids_are_filtered_by_the_digits_typed() {
        check(
            "0 -- 1 -- 2 -- 10 -- 11 -- 21\n3 -- 1$0",
            expect![[r#"
            Node 1 mouse start
            Node 10 -
            Node 11 -
        "#]],
        );
    }

    /// 666 666 items were a 19 MB answer. The list stops at the bound and
    /// says so; the digits typed narrow it.
    #[test]
    fn node_ids_are_capped_and_the_list_says_it_is_incomplete() {
        let ids: Vec<String> = (0..MAX_COMPLETIONS as u32 * 3)
            .map(|id| id.to_string())
            .collect();
        let text = format!("{}\n3 -- ", ids.join(" -- "));
        let analysis = Analysis::new(text.as_str());
        let list = completion_list(&analysis, text.len() as u32);
        assert_eq!(list.items.len(), MAX_COMPLETIONS);
        assert!(list.is_incomplete);
        let typed = format!("{text}299");
        let analysis = Analysis::new(typed.as_str());
        let list = completion_list(&analysis, typed.len() as u32);
        assert_eq!(
            list.items
                .iter()
                .map(|item| item.label.as_str())
                .collect::<Vec<_>>(),
            [
                "299", "2990", "2991", "2992", "2993", "2994", "2995", "2996", "2997", "2998",
                "2999"
            ]
        );
        assert!(!list.is_incomplete);
    }
}
