//! `cmg fmt`'s one move of statements: the rules go first, in a fixed order (`limit`,
//! `first`, `start`, `holes`, `cat-enters-holes`), after the file's opening comment. Each
//! rule takes along the comment lines right above it and its own trailing comment.
//!
//! It works on text the formatter has already laid out, where every statement has a line
//! of its own, so moving whole lines moves whole statements.

use cmg_syntax::{parse, RuleName, StatementKind};

/// `formatted` with its rule lines moved first; the text itself when it states no rule.
pub(crate) fn rules_first(formatted: &str) -> String {
    let parsed = parse(formatted);
    let line_of = |offset: u32| formatted[..offset as usize].matches('\n').count();
    let mut rule_lines: Vec<(RuleName, usize)> = parsed
        .file
        .statements
        .iter()
        .filter_map(|statement| match &statement.kind {
            StatementKind::Rule(rule) => Some((rule.name, line_of(statement.range.start))),
            _ => None,
        })
        .collect();
    if rule_lines.is_empty() {
        return formatted.to_owned();
    }
    let ending = parsed.line_ending(formatted);
    let lines: Vec<&str> = formatted.split_inclusive(ending).collect();
    let is_comment = |line: &str| line.trim_start().starts_with('#');
    let is_blank = |line: &str| line.trim().is_empty();
    // The opening comment: the comment lines the file starts with, and one blank line
    // after them.
    let mut header = lines.iter().take_while(|line| is_comment(line)).count();
    if header > 0 && lines.get(header).is_some_and(|line| is_blank(line)) {
        header += 1;
    }
    rule_lines.retain(|&(_, line)| line >= header);
    // Each rule with the comment lines right above it (not the opening comment).
    let mut taken = vec![false; lines.len()];
    let mut groups: Vec<(RuleName, usize, Vec<&str>)> = Vec::new();
    for &(name, line) in &rule_lines {
        let mut first = line;
        while first > header && is_comment(lines[first - 1]) && !taken[first - 1] {
            first -= 1;
        }
        for slot in &mut taken[first..=line] {
            *slot = true;
        }
        groups.push((name, first, lines[first..=line].to_vec()));
    }
    groups.sort_by_key(|&(name, first, _)| (name, first));
    let mut out = String::with_capacity(formatted.len() + ending.len());
    for line in &lines[..header] {
        out.push_str(line);
    }
    for (_, _, group) in &groups {
        for line in group {
            out.push_str(line);
            if !line.ends_with(ending) {
                out.push_str(ending);
            }
        }
    }
    // The rest, without the moved lines; a run of blank lines they leave is one, and the
    // rules stand apart from it by one blank line.
    let mut rest: Vec<&str> = Vec::new();
    for (index, line) in lines.iter().enumerate().skip(header) {
        if taken[index] || (is_blank(line) && rest.last().is_none_or(|last| is_blank(last))) {
            continue;
        }
        rest.push(line);
    }
    while rest.last().is_some_and(|last| is_blank(last)) {
        rest.pop();
    }
    if !rest.is_empty() {
        out.push_str(ending);
    }
    for line in rest {
        out.push_str(line);
    }
    if !out.ends_with(ending) && !out.is_empty() {
        out.push_str(ending);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::rules_first;

    #[test]
    fn rules_move_first_in_a_fixed_order_with_their_comments() {
        let text = "# the header\n\n0 -- 1\n\n# who starts\nrule first cat  # the cat\n1 -- 2\nrule limit 3\n";
        let moved = rules_first(text);
        assert_eq!(
            moved,
            "# the header\n\nrule limit 3\n# who starts\nrule first cat  # the cat\n\n0 -- 1\n\n1 -- 2\n"
        );
        assert_eq!(rules_first(&moved), moved, "idempotent");
        let plain = "0 -- 1\r\n1 -- 2\r\n";
        assert_eq!(rules_first(plain), plain);
        let crlf = "1 -- 2\r\nrule holes 0\r\n";
        assert_eq!(rules_first(crlf), "rule holes 0\r\n\r\n1 -- 2\r\n");
    }
}
