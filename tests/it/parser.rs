//! Golden tests of the parser: each `tests/parser/*.cmg` against its `.txt` dump of
//! statements and syntax errors. `UPDATE_EXPECT=1 cargo test --test it parser` rewrites the dumps.

use std::fmt::Write;
use std::path::Path;

use cmg_syntax::{parse, Group, NodeRef, StatementKind};

fn node(node: &NodeRef) -> String {
    match node.id {
        Some(id) => format!("{id}@{:?}", node.range),
        None => format!("TOO-LARGE@{:?}", node.range),
    }
}

fn group(group: &Group) -> String {
    let members: Vec<String> = group.members.iter().map(node).collect();
    if group.braced {
        format!("{{{}}}", members.join(" "))
    } else {
        members.join(" ")
    }
}

fn dump(text: &str) -> String {
    let parse = parse(text);
    let mut out = String::new();
    for statement in &parse.file.statements {
        let _ = write!(out, "{:?} ", statement.range);
        let _ = match &statement.kind {
            StatementKind::Edges(groups) => {
                let groups: Vec<String> = groups.iter().map(group).collect();
                writeln!(out, "edges {}", groups.join(" -- "))
            }
            StatementKind::Arcs(groups) => {
                let groups: Vec<String> = groups.iter().map(group).collect();
                writeln!(out, "arcs {}", groups.join(" -> "))
            }
            StatementKind::Rule(rule) => {
                let args: Vec<String> = rule
                    .args
                    .iter()
                    .map(|arg| format!("{:?}", arg.value))
                    .collect();
                writeln!(out, "rule {:?} {}", rule.name, args.join(" "))
            }
            StatementKind::Node(decl) => writeln!(
                out,
                "node {} label={:?}",
                node(&decl.node),
                decl.label.as_ref().map(|l| (&l.value, l.range))
            ),
            StatementKind::Expect(expect) => writeln!(
                out,
                "expect {:?}@{:?}",
                expect.outcome, expect.outcome_range
            ),
            StatementKind::Adjacency(lists) => {
                let lists: Vec<String> = lists
                    .iter()
                    .map(|list| {
                        let members: Vec<String> = list.neighbours.iter().map(node).collect();
                        format!("[{}]@{:?}", members.join(" "), list.range)
                    })
                    .collect();
                writeln!(out, "adjacency {}", lists.join(" "))
            }
        };
    }
    for error in &parse.errors {
        let _ = writeln!(
            out,
            "error {:?} {:?}: {}",
            error.range,
            &text[error.range.to_usize()],
            error.message
        );
    }
    out
}

#[test]
fn golden_files() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/parser");
    let update = std::env::var_os("UPDATE_EXPECT").is_some();
    let mut inputs: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "cmg"))
        .collect();
    inputs.sort();
    assert!(inputs.len() >= 10, "golden inputs are missing");
    let mut failures = Vec::new();
    for input in inputs {
        let text = std::fs::read_to_string(&input).unwrap();
        let actual = dump(&text);
        let golden = input.with_extension("txt");
        if update {
            std::fs::write(&golden, &actual).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&golden).unwrap_or_default();
        if expected != actual {
            failures.push(format!(
                "{}:\n--- expected\n{expected}--- actual\n{actual}",
                input.display()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "golden mismatches (rerun with UPDATE_EXPECT=1 to accept):\n{}",
        failures.join("\n")
    );
}
