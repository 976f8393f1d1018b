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
    let value: serde_json::Value =
        serde_json::from_str(strip_assignment(&input)).map_err(|error| {
            CliError(format!(
                "{name} is not an adjacency list such as [[1,3],[0],[3],[0,2]]: {error}"
            ))
        })?;
    let (text, changes) = if value.is_object() {
        let game: GameJson = serde_json::from_value(value).map_err(|error| {
            CliError(format!(
                "{name} is not cmg's JSON such as {{\"graph\": [[1],[0,2],[1]], \"rules\": {{\"limit\": 8}}}}, nor an adjacency list such as [[1,3],[0],[3],[0,2]]: {error}"
            ))
        })?;
        let text = game_to_cmg(&game).map_err(CliError)?;
        (text, repairs(&game.graph, false))
    } else {
        let lists: Vec<Vec<u64>> = serde_json::from_value(value).map_err(|error| {
            CliError(format!(
                "{name} is not an adjacency list such as [[1,3],[0],[3],[0,2]]: {error}"
            ))
        })?;
        let text = adjacency_to_cmg(&lists).map_err(CliError)?;
        (text, repairs(&lists, true))
    };
    if !changes.is_empty() {
        // The text is not a copy of the list: say what differs, off standard output.
        eprintln!("cmg import: {}", changes.join("; "));
    }
    super::output::print(&text);
    Ok(ExitCode::SUCCESS)
}

/// cmg's JSON for a game (`cmg export --json`, read by `cmg import`): the moves from
/// each node, a one-way edge listed at its tail only, and the rules.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct GameJson {
    graph: Vec<Vec<u64>>,
    #[serde(default)]
    rules: RulesJson,
}

/// The rules of [`GameJson`], each LeetCode 913's when left out.
#[derive(serde::Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RulesJson {
    limit: Option<u32>,
    first: Option<FirstJson>,
    start: Option<[u64; 2]>,
    holes: Option<Vec<u64>>,
    #[serde(default)]
    cat_enters_holes: bool,
}

#[derive(serde::Deserialize, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum FirstJson {
    Mouse,
    Cat,
}

/// `.cmg` text for cmg's JSON: the rules that differ from LeetCode 913's, then the edges
/// (moves listed both ways) and the one-way edges. Self-loops are left out and repeats
/// merged; a node the lists or the rules name outside the graph is an error.
fn game_to_cmg(game: &GameJson) -> Result<String, String> {
    let n = game.graph.len() as u64;
    let outside = |what: &str, id: u64| {
        format!(
            "{what} names node {id}, but the graph has {} (0 to {})",
            super::render::plural(n as usize, "node"),
            n.saturating_sub(1)
        )
    };
    let mut lists: Vec<Vec<u32>> = Vec::with_capacity(game.graph.len());
    for (i, list) in game.graph.iter().enumerate() {
        let mut moves = Vec::with_capacity(list.len());
        for &j in list {
            if j >= n {
                return Err(outside(&format!("graph list {i}"), j));
            }
            if j != i as u64 {
                moves.push(j as u32);
            }
        }
        moves.sort_unstable();
        moves.dedup();
        lists.push(moves);
    }
    let given = &game.rules;
    let standard = cmg_core::model::Rules::default();
    let node = |what: &str, id: u64| {
        if id < n {
            Ok(id as u32)
        } else {
            Err(outside(what, id))
        }
    };
    let (mouse_start, cat_start) = match given.start {
        Some([mouse, cat]) => (node("rules.start", mouse)?, node("rules.start", cat)?),
        None => (standard.mouse_start, standard.cat_start),
    };
    let holes = match &given.holes {
        Some(holes) if holes.is_empty() => {
            return Err("rules.holes is empty: a game needs at least one hole".to_owned())
        }
        Some(holes) => holes
            .iter()
            .map(|&hole| node("rules.holes", hole))
            .collect::<Result<Vec<u32>, String>>()?,
        None => standard.holes.clone(),
    };
    if given.limit == Some(0) {
        return Err("rules.limit is 0: a limit counts at least one move".to_owned());
    }
    let rules = cmg_core::model::Rules {
        limit: given.limit,
        first: match given.first {
            Some(FirstJson::Cat) => cmg_solve::Player::Cat,
            Some(FirstJson::Mouse) | None => cmg_solve::Player::Mouse,
        },
        mouse_start,
        cat_start,
        holes,
        cat_enters_holes: given.cat_enters_holes,
        stated: Vec::new(),
    };
    let mut text = String::from("# imported from cmg's JSON\n");
    for line in rules
        .statements()
        .into_iter()
        .chain(cmg_ide::move_statements(&lists))
    {
        text.push_str(&line);
        text.push('\n');
    }
    Ok(text)
}

/// What [`adjacency_to_cmg`] changes in a list it turns into edges, in words: the
/// self-loops it leaves out, the entries listed on one side only that it counts both
/// ways, and the repeated entries it merges. With `both_ways` false, as for cmg's JSON
/// ([`game_to_cmg`]), an entry listed on one side only is a one-way edge, no change.
fn repairs(lists: &[Vec<u64>], both_ways: bool) -> Vec<String> {
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
            } else if both_ways && !listed.contains(&(j, i)) {
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

pub fn export(path: &str, json: bool) -> CliResult {
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
    if !json {
        if let Some(game) = cmg_core::analysis::game_description(graph) {
            eprintln!(
                "cmg: {}: not exported: an adjacency list states LeetCode 913's game, and this file's is another ({game}); `cmg export --json` carries it",
                render::visible(&source.name),
            );
            return Ok(ExitCode::FAILURE);
        }
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
    let printed = if json {
        game_json(graph)
    } else {
        serde_json::json!(graph.adjacency_lists())
    };
    super::output::print(&format!("{printed}\n"));
    Ok(ExitCode::SUCCESS)
}

/// cmg's JSON for a graph whose ids are 0 to n-1: the moves from each node (an edge listed
/// at both ends, a one-way edge at its tail) and every rule, LeetCode 913's included.
fn game_json(graph: &cmg_core::model::Graph) -> serde_json::Value {
    let moves: Vec<Vec<u32>> = graph
        .move_lists()
        .iter()
        .map(|list| list.iter().map(|&index| graph.id(index)).collect())
        .collect();
    let rules = graph.rules();
    serde_json::json!({
        "graph": moves,
        "rules": {
            "limit": rules.limit,
            "first": cmg_core::ending::player_name(rules.first),
            "start": [rules.mouse_start, rules.cat_start],
            "holes": rules.holes,
            "cat_enters_holes": rules.cat_enters_holes,
        },
    })
}
