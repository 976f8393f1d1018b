//! `cmg import` and `cmg export`: between `.cmg` text and the puzzle's adjacency-list JSON.

use std::process::ExitCode;

use super::input::read_source;
use super::render::{self, SourceView};
use super::{CliError, CliResult};
use cmg_core::analysis::Analysis;
use cmg_core::model::Severity;

pub fn import(file: Option<&str>, text: Option<&str>) -> CliResult {
    let (name, input) = match (file, text) {
        (_, Some(text)) => ("--text".to_owned(), text.to_owned()),
        (Some(path), None) => {
            let source = read_source(path)?;
            (source.name, source.text)
        }
        (None, None) => ("<stdin>".to_owned(), super::input::read_stdin()?),
    };
    let lists: Vec<Vec<u64>> = serde_json::from_str(strip_assignment(&input)).map_err(|error| {
        CliError(format!(
            "{name} is not an adjacency list such as [[1,3],[0],[3],[0,2]]: {error}"
        ))
    })?;
    match adjacency_to_cmg(&lists) {
        Ok(text) => {
            let changes = repairs(&lists);
            if !changes.is_empty() {
                // The text is not a copy of the list: say what differs, off standard output.
                eprintln!("cmg import: {}", changes.join("; "));
            }
            super::output::print(&text);
            Ok(ExitCode::SUCCESS)
        }
        Err(message) => Err(CliError(message)),
    }
}

/// What [`adjacency_to_cmg`] changes in a list it turns into edges, in words: the
/// self-loops it leaves out, the entries listed on one side only that it counts both
/// ways, and the repeated entries it merges.
fn repairs(lists: &[Vec<u64>]) -> Vec<String> {
    let listed: std::collections::HashSet<(u64, u64)> = lists
        .iter()
        .enumerate()
        .flat_map(|(i, list)| list.iter().map(move |&j| (i as u64, j)))
        .collect();
    let (mut self_loops, mut one_sided, mut repeated) = (0usize, 0usize, 0usize);
    for (i, list) in lists.iter().enumerate() {
        let i = i as u64;
        let mut seen = std::collections::HashSet::new();
        for &j in list {
            if !seen.insert(j) {
                repeated += 1;
            } else if j == i {
                self_loops += 1;
            } else if !listed.contains(&(j, i)) {
                one_sided += 1;
            }
        }
    }
    let mut changes = Vec::new();
    if self_loops > 0 {
        changes.push(format!(
            "left out {} (a node listing itself; no move)",
            render::plural(self_loops, "self-loop")
        ));
    }
    if one_sided > 0 {
        changes.push(format!(
            "made {} symmetric (listed on one side only; an edge counts both ways)",
            entries(one_sided, "one-sided")
        ));
    }
    if repeated > 0 {
        changes.push(format!("merged {}", entries(repeated, "repeated")));
    }
    changes
}

/// "1 repeated entry", "2 repeated entries".
fn entries(n: usize, kind: &str) -> String {
    format!("{n} {kind} {}", if n == 1 { "entry" } else { "entries" })
}

/// The list of `graph = [[2,5],[3]]`, as the puzzle's input is usually pasted: text
/// before the first `[` that ends in `=` is a name, not part of the list.
pub(super) fn strip_assignment(input: &str) -> &str {
    match input.find('[') {
        Some(start) if input[..start].trim_end().ends_with('=') => &input[start..],
        _ => input,
    }
}

/// Edge statements for an adjacency list: `i -- j` or `i -- {j k}` for the neighbours
/// above `i`, `node i` for a node without edges. Every listed edge counts both ways, as
/// in the puzzle; self-loops are left out, since they are no moves.
pub fn adjacency_to_cmg(lists: &[Vec<u64>]) -> Result<String, String> {
    let n = lists.len() as u64;
    let mut neighbours: Vec<Vec<u64>> = vec![Vec::new(); lists.len()];
    for (i, list) in lists.iter().enumerate() {
        for &j in list {
            if j >= n {
                return Err(format!(
                    "list {i} names node {j}, but the adjacency list has {} (0 to {})",
                    super::render::plural(n as usize, "node"),
                    n.saturating_sub(1)
                ));
            }
            if j != i as u64 {
                neighbours[i].push(j);
                neighbours[j as usize].push(i as u64);
            }
        }
    }
    for list in &mut neighbours {
        list.sort_unstable();
        list.dedup();
    }
    let mut text = String::from("# imported from an adjacency list\n");
    for line in cmg_ide::edge_statements((0..).zip(&neighbours)) {
        text.push_str(&line);
        text.push('\n');
    }
    Ok(text)
}

pub fn export(path: &str) -> CliResult {
    let source = read_source(path)?;
    // Exporting needs no outcome, so nothing is solved (`expect` is not checked), and
    // only the errors of reading the file stop it: the checks are not built.
    let analysis = Analysis::without_checks(source.text.as_str());
    let mut errors: Vec<_> = analysis
        .model
        .diagnostics
        .iter()
        .filter(|d| d.severity() == Severity::Error)
        .cloned()
        .collect();
    errors.sort_by_key(|d| d.range.start);
    let syntax_broken = errors.iter().any(|d| {
        matches!(
            d.code,
            cmg_core::model::Code::Syntax | cmg_core::model::Code::NumberTooLarge
        )
    });
    if syntax_broken {
        render::emit(
            &mut render::stderr(),
            true,
            &SourceView::new(&source, &analysis),
            &errors,
            render::DEFAULT_MAX_DIAGNOSTICS,
        );
        eprintln!(
            "cmg: {}: not exported, since part of the file could not be read",
            render::visible(&source.name)
        );
        return Ok(ExitCode::FAILURE);
    }
    if super::dot::refuse_truncated_graph(&source, &analysis, "exported") {
        return Ok(ExitCode::FAILURE);
    }
    let graph = &analysis.model.graph;
    // An adjacency list is LeetCode 913's game: exported as one, a file's rules or one-way
    // edges would be dropped without a word, so such a file is refused.
    if let Some(game) = cmg_core::analysis::game_description(graph) {
        eprintln!(
            "cmg: {}: not exported: an adjacency list states LeetCode 913's game, and this file's is another ({game})",
            render::visible(&source.name),
        );
        return Ok(ExitCode::FAILURE);
    }
    if !graph.is_contiguous() {
        const SHOWN: usize = 10;
        let last = graph.ids().last().map_or(0, |&last| last);
        let missing_count = last as usize + 1 - graph.node_count();
        let shown: Vec<String> = (0..last)
            .filter(|&id| !graph.contains(id))
            .take(SHOWN)
            .map(|id| id.to_string())
            .collect();
        let missing = match missing_count {
            1 => format!("node {} is", shown[0]),
            n if n <= SHOWN => format!("nodes {} are", shown.join(", ")),
            n => format!("nodes {} and {} more are", shown.join(", "), n - SHOWN),
        };
        eprintln!(
            "cmg: {}: an adjacency list needs node ids 0 to n-1 without gaps, but {missing} missing",
            render::visible(&source.name),
        );
        return Ok(ExitCode::FAILURE);
    }
    let lists: Vec<Vec<u32>> = graph.adjacency_lists();
    super::output::print(&format!(
        "{}\n",
        serde_json::to_string(&lists).expect("lists of numbers serialize")
    ));
    Ok(ExitCode::SUCCESS)
}
