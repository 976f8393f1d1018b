//! The scene of every example, checked node by node against the solver.

use super::*;
use cmg_core::analysis::{mouse_starts_at, start_position};
use cmg_solve::solve;

fn examples() -> Vec<(String, String)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("the examples folder")
        .map(|entry| entry.expect("an example").path())
        .filter(|path| path.extension().is_some_and(|e| e == "cmg"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).expect("an example's text");
            (path.display().to_string(), text)
        })
        .collect()
}

#[test]
fn every_node_of_every_example_has_the_solvers_outcome() {
    for (name, text) in examples() {
        let analysis = Analysis::new(text);
        let solution = analysis.game().map(|game| solve(&game));
        let scene = scene(&analysis, solution.as_ref(), &Positions::new());
        let graph = &analysis.model.graph;
        assert_eq!(scene.version, SCENE_VERSION);
        assert_eq!(scene.nodes.len(), graph.node_count(), "{name}");
        let ids: Vec<u32> = scene.nodes.iter().map(|n| n.id).collect();
        assert_eq!(ids, graph.ids(), "{name}");
        for (index, node) in scene.nodes.iter().enumerate() {
            let expected = solution
                .as_ref()
                .zip(mouse_starts_at(graph, index as u32))
                .map(|(s, p)| (outcome_keyword(s.outcome(p)), s.moves_to_end(p)));
            assert_eq!(
                expected,
                node.outcome.map(|o| (o, node.moves)),
                "{name}: node {}",
                node.id
            );
            assert_eq!(node.role, role(node.id));
            assert!(
                node.mention.is_some(),
                "{name}: node {} has no mention",
                node.id
            );
        }
        assert_eq!(scene.edges.len(), graph.edge_count(), "{name}");
        match (solution.as_ref(), start_position(graph)) {
            (Some(solution), Some(start)) => {
                assert_eq!(
                    scene.outcome,
                    Some(outcome_keyword(solution.outcome(start)))
                );
                assert_eq!(scene.moves, solution.moves_to_end(start));
                let line: Vec<[u32; 2]> = solution
                    .line(start)
                    .iter()
                    .map(|p| [graph.id(p.mouse), graph.id(p.cat)])
                    .collect();
                assert_eq!(scene.line, line, "{name}");
                check_table(scene.table.as_ref().expect("a table"), solution);
            }
            _ => {
                assert_eq!(scene.outcome, None, "{name}");
                assert!(scene.table.is_none(), "{name}");
            }
        }
    }
}

/// Every position's entry in the table says what the solver says.
fn check_table(table: &PositionTable, solution: &Solution) {
    let n = solution.game().node_count();
    assert_eq!(table.outcome.len(), 2 * n * n);
    let outcomes: Vec<char> = table.outcome.chars().collect();
    for (t, turn) in [Player::Mouse, Player::Cat].into_iter().enumerate() {
        for mouse in 0..n {
            for cat in 0..n {
                let entry = (t * n + mouse) * n + cat;
                let position = Position {
                    mouse: mouse as u32,
                    cat: cat as u32,
                    turn,
                };
                let letter = outcome_keyword(solution.outcome(position)).chars().next();
                assert_eq!(Some(outcomes[entry]), letter, "{position:?}");
                assert_eq!(
                    table.moves[entry],
                    solution.moves_to_end(position).map_or(-1, |m| m as i32)
                );
                assert_eq!(
                    table.best[entry],
                    solution.best_move(position).map_or(-1, |m| m as i32)
                );
            }
        }
    }
}

#[test]
fn diagnostics_mark_the_nodes_and_edges_they_point_at() {
    let analysis = Analysis::new("0 -- 3 -- 1 -- 2\n3 -- 1\n4 -- 4\n");
    let solution = analysis.game().map(|game| solve(&game));
    let scene = scene(&analysis, solution.as_ref(), &Positions::new());
    let duplicate = scene
        .diagnostics
        .iter()
        .find(|d| d.code == "duplicate-edge")
        .expect("a duplicate edge");
    assert_eq!(duplicate.edges, vec![[1, 3]]);
    assert_eq!(duplicate.start, LineColumn { line: 2, column: 1 });
    let flagged: Vec<[u32; 2]> = scene
        .edges
        .iter()
        .filter(|e| e.flagged)
        .map(|e| [e.a, e.b])
        .collect();
    assert_eq!(flagged, vec![[1, 3]]);
    let self_loop = scene.nodes.iter().find(|n| n.id == 4).expect("node 4");
    assert!(self_loop.flagged);
    assert!(
        !scene
            .nodes
            .iter()
            .find(|n| n.id == 0)
            .expect("node 0")
            .flagged
    );
}

#[test]
fn a_stale_solution_is_not_used() {
    let old = Analysis::new("0 -- 1 -- 2");
    let solution = old.game().map(|game| solve(&game));
    let new = Analysis::new("0 -- 1 -- 2 -- 3");
    let scene = scene(&new, solution.as_ref(), &Positions::new());
    assert_eq!(scene.outcome, None);
    assert!(scene.nodes.iter().all(|n| n.outcome.is_none()));
    assert!(scene.table.is_none());
}

#[test]
fn a_graph_beyond_the_limit_is_not_drawn() {
    let text: String = (0..=MAX_VIEW_NODES as u32)
        .map(|i| format!("{i} -- {}\n", i + 1))
        .collect();
    let scene = scene(&Analysis::new(text), None, &Positions::new());
    assert!(scene.too_large.is_some());
    assert!(scene.nodes.is_empty() && scene.edges.is_empty());
    assert!(scene.summary.contains("at most"), "{}", scene.summary);
}

#[test]
fn the_export_carries_one_element_per_node_with_its_outcome() {
    let analysis = Analysis::new("[[1,3],[0],[3],[0,2]]\nnode 3 \"a <b>\"");
    let solution = analysis.game().map(|game| solve(&game));
    let scene = scene(&analysis, solution.as_ref(), &Positions::new());
    let svg = svg::to_svg(&scene);
    for node in &scene.nodes {
        let attributes = format!(
            r#"data-node="{}" data-role="{}" data-outcome="{}""#,
            node.id,
            node.role,
            node.outcome.expect("solved")
        );
        assert_eq!(svg.matches(&attributes).count(), 1, "{attributes}\n{svg}");
    }
    assert_eq!(svg.matches("data-node=").count(), scene.nodes.len());
    assert!(svg.contains("a &lt;b&gt;"));
    assert!(!svg.contains("<b>"));
}

/// The web UI's unit tests run on real scenes: these files, kept equal to what this code
/// produces (`UPDATE_EXPECT=1 cargo test --lib view` rewrites them).
#[test]
fn the_web_test_fixtures_are_current() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../web/test/fixtures");
    for name in ["leetcode-draw", "long-game", "cat-wins"] {
        let path = format!("{}/../../examples/{name}.cmg", env!("CARGO_MANIFEST_DIR"));
        let analysis = Analysis::new(std::fs::read_to_string(path).expect("an example"));
        let solution = analysis.game().map(|game| solve(&game));
        let scene = scene(&analysis, solution.as_ref(), &Positions::new());
        let json = serde_json::to_string_pretty(&scene).expect("JSON") + "\n";
        let fixture = format!("{dir}/{name}.json");
        if std::env::var_os("UPDATE_EXPECT").is_some() {
            std::fs::create_dir_all(dir).expect("the fixtures folder");
            std::fs::write(&fixture, &json).expect("a fixture");
        }
        let current = std::fs::read_to_string(&fixture).unwrap_or_default();
        assert!(
            current == json,
            "{fixture} is out of date: run UPDATE_EXPECT=1 cargo test --lib view"
        );
    }
}

/// The page draws with its own copies of the node radius and the scene version (it has
/// no Rust to read them from); they must be these.
#[test]
fn the_web_page_has_the_same_node_radius_and_scene_version() {
    let web = |file: &str| {
        std::fs::read_to_string(format!(
            "{}/../../web/src/{file}",
            env!("CARGO_MANIFEST_DIR")
        ))
        .expect("a web source")
    };
    let radius = format!("export const NODE_RADIUS = {};", svg::NODE_RADIUS);
    assert!(
        web("render.ts").contains(&radius),
        "web/src/render.ts lacks `{radius}`"
    );
    let version = format!("export const SCENE_VERSION = {SCENE_VERSION};");
    assert!(
        web("scene.ts").contains(&version),
        "web/src/scene.ts lacks `{version}`"
    );
}

/// `docs/view.md` is the scene's contract; its bounds are these constants.
#[test]
fn the_contract_states_the_bounds_of_the_scene() {
    let contract =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/view.md"))
            .expect("docs/view.md");
    for phrase in [
        format!("more than {MAX_VIEW_NODES} nodes"),
        format!("at most {MAX_SCENE_DIAGNOSTICS};"),
    ] {
        assert!(contract.contains(&phrase), "docs/view.md lacks {phrase:?}");
    }
}

#[test]
fn the_palette_gives_every_outcome_a_colour_of_the_stylesheet() {
    let colours: Vec<&str> = [Outcome::MouseWins, Outcome::CatWins, Outcome::Draw]
        .into_iter()
        .map(svg::outcome_colour)
        .collect();
    for colour in &colours {
        assert!(
            colour.len() == 7
                && colour.starts_with('#')
                && colour[1..].chars().all(|c| c.is_ascii_hexdigit()),
            "{colour}"
        );
        assert!(svg::STYLESHEET.contains(colour));
    }
    assert_ne!(colours[0], colours[1]);
    assert_eq!(svg::palette("--cmg-no-such-colour"), None);
}
