//! The scene of every example, checked node by node against the solver.

use super::*;
use cmg_core::analysis::{mouse_starts_at, start_position};
use cmg_solve::{solve, Outcome, Player, Position};

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
            assert_eq!(node.role, role(graph, node.id));
            assert!(
                node.mention.is_some(),
                "{name}: node {} has no mention",
                node.id
            );
        }
        assert_eq!(scene.edges.len(), drawn_edges(graph), "{name}");
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
                check_slices(graph, solution);
            }
            _ => {
                assert_eq!(scene.outcome, None, "{name}");
                assert_eq!(
                    slice(graph, None, 2, Player::Mouse),
                    Err(SliceError::NotSolved)
                );
            }
        }
    }
}

/// Every slice (each cat node, each turn) says what the solver says, position by position.
fn check_slices(graph: &cmg_core::model::Graph, solution: &Solution) {
    let n = graph.node_count();
    for turn in [Player::Mouse, Player::Cat] {
        for cat in 0..n as u32 {
            let slice = slice(graph, Some(solution), graph.id(cat), turn).expect("a slice");
            assert_eq!(slice.ids, graph.ids());
            assert_eq!(slice.turn, cmg_core::explain::player_name(turn));
            let outcomes: Vec<char> = slice.outcome.chars().collect();
            assert_eq!(outcomes.len(), n);
            for (mouse, &shown) in outcomes.iter().enumerate() {
                let position = Position {
                    mouse: mouse as u32,
                    cat,
                    turn,
                };
                let letter = outcome_keyword(solution.outcome(position)).chars().next();
                assert_eq!(Some(shown), letter, "{position:?}");
                assert_eq!(
                    slice.moves[mouse],
                    solution.moves_to_end(position).map_or(-1, |m| m as i32)
                );
                assert_eq!(
                    slice.best[mouse],
                    solution
                        .best_move(position)
                        .map_or(-1, |m| i64::from(graph.id(m)))
                );
            }
        }
    }
    assert_eq!(
        slice(graph, Some(solution), u32::MAX, Player::Mouse),
        Err(SliceError::UnknownNode(u32::MAX))
    );
}

/// The replay's levels are the slice's moves: a position is settled in the round of its
/// moves to the end. Checked against a retrograde analysis written out here, round by
/// round, on every example: the positions settled after k rounds are exactly those with
/// at most k moves.
#[test]
fn the_replay_levels_are_the_rounds_of_a_retrograde_analysis() {
    for (name, text) in examples() {
        let analysis = Analysis::new(text);
        let Some(game) = analysis.game() else {
            continue;
        };
        let solution = solve(&game);
        let graph = &analysis.model.graph;
        // The rounds below are LeetCode 913's game; the other rules have their own
        // reference (`cmg-solve`'s `variant_reference.rs`).
        if !graph.is_standard() {
            continue;
        }
        let n = graph.node_count();
        let hole = graph.index_of(0);
        // settled[t][m][c]: the round a position was settled at.
        let index = |t: usize, m: usize, c: usize| (t * n + m) * n + c;
        let mut settled: Vec<Option<(char, usize)>> = vec![None; 2 * n * n];
        for t in 0..2 {
            for m in 0..n {
                for c in 0..n {
                    if m == c {
                        settled[index(t, m, c)] = Some(('c', 0));
                    } else if Some(m as u32) == hole {
                        settled[index(t, m, c)] = Some(('m', 0));
                    }
                }
            }
        }
        let mut round = 0;
        loop {
            round += 1;
            let mut next = settled.clone();
            for t in 0..2 {
                for m in 0..n {
                    for c in 0..n {
                        if settled[index(t, m, c)].is_some() || Some(c as u32) == hole {
                            continue;
                        }
                        let (me, from) = if t == 0 { ('m', m) } else { ('c', c) };
                        let moves: Vec<usize> = graph
                            .neighbours(from as u32)
                            .iter()
                            .map(|&k| k as usize)
                            .filter(|&k| t == 0 || Some(k as u32) != hole)
                            .collect();
                        let child = |k: usize| {
                            if t == 0 {
                                settled[index(1, k, c)]
                            } else {
                                settled[index(0, m, k)]
                            }
                        };
                        if moves
                            .iter()
                            .any(|&k| child(k).is_some_and(|(w, _)| w == me))
                        {
                            next[index(t, m, c)] = Some((me, round));
                        } else if !moves.is_empty()
                            && moves
                                .iter()
                                .all(|&k| child(k).is_some_and(|(w, _)| w != me))
                        {
                            next[index(t, m, c)] = Some((if me == 'm' { 'c' } else { 'm' }, round));
                        }
                    }
                }
            }
            if next == settled {
                break;
            }
            settled = next;
        }
        for (t, turn) in [Player::Mouse, Player::Cat].into_iter().enumerate() {
            for c in 0..n {
                if Some(c as u32) == hole {
                    continue;
                }
                let slice =
                    slice(graph, Some(&solution), graph.id(c as u32), turn).expect("a slice");
                for m in 0..n {
                    let expected = settled[index(t, m, c)].map_or(-1, |(_, r)| r as i32);
                    assert_eq!(slice.moves[m], expected, "{name}: {t} {m} {c}");
                }
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
    assert_eq!(
        slice(&new.model.graph, solution.as_ref(), 2, Player::Mouse),
        Err(SliceError::NotSolved)
    );
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

/// `{0 … a-1} -- {a … a+b-1}`, written as one group product.
fn complete_bipartite(a: u32, b: u32) -> String {
    let group = |ids: std::ops::Range<u32>| {
        let ids: Vec<String> = ids.map(|i| i.to_string()).collect();
        format!("{{{}}}", ids.join(" "))
    };
    format!("{} -- {}\n", group(0..a), group(a..a + b))
}

/// A 9 KB file of a million edges (a complete bipartite graph of 2000 nodes) is within
/// the node limit: the scene refuses it by its edges at once, with no layout.
#[test]
fn a_graph_beyond_the_edge_limit_is_not_drawn() {
    let analysis = Analysis::new(complete_bipartite(1000, 1000));
    assert_eq!(analysis.model.graph.edge_count(), 1_000_000);
    let scene = scene(&analysis, None, &Positions::new());
    let too_large = scene.too_large.as_ref().expect("refused");
    assert_eq!(
        (too_large.edges, too_large.edge_limit),
        (1_000_000, MAX_VIEW_EDGES)
    );
    assert!(scene.nodes.is_empty() && scene.edges.is_empty());
    assert_eq!(
        scene.summary,
        format!("the graph has 1000000 edges; the view draws at most {MAX_VIEW_EDGES}")
    );
}

/// A dense graph whose post-pass runs out of work keeps the best picture it found, and
/// the scene and its export say so; the same input gives the same picture (work is
/// counted, not timed). The examples never run out (the picture tests above).
#[test]
fn a_layout_out_of_work_keeps_its_picture_and_says_so() {
    let analysis = Analysis::new(complete_bipartite(12, 40));
    let graph = &analysis.model.graph;
    let limits = Limits {
        work: 200_000,
        cancel: None,
    };
    let cut = layout_within(graph, &Positions::new(), limits).expect("not cancelled");
    assert!(
        cut.cut,
        "200 000 units clear a 12 × 40 complete bipartite graph"
    );
    assert!(cut.work > 200_000, "{} units", cut.work);
    assert_eq!(cut.positions.len(), graph.node_count());
    assert!(cut.positions.iter().flatten().all(|v| v.is_finite()));
    assert_eq!(
        layout_within(graph, &Positions::new(), limits),
        Ok(cut.clone())
    );
    let scene = scene_laid_out(&analysis, None, cut.clone());
    assert_eq!(scene.layout_note.as_deref(), Some(LAYOUT_CUT_NOTE));
    assert!(svg::to_svg(&scene).contains(LAYOUT_CUT_NOTE));
    let json = serde_json::to_value(&scene).expect("JSON");
    assert_eq!(json["layout_note"], LAYOUT_CUT_NOTE);
    // With the whole budget it clears, and says nothing.
    let whole = layout_within(graph, &Positions::new(), Limits::default()).expect("a layout");
    assert!(!whole.cut);
    assert!(whole.work > cut.work, "{} units", whole.work);
    let scene = scene_laid_out(&analysis, None, whole);
    assert_eq!(geometry_offence(&scene), None);
    assert_eq!(
        serde_json::to_value(&scene)
            .expect("JSON")
            .get("layout_note"),
        None
    );
}

/// A set cancel flag stops a layout: there is no picture.
#[test]
fn a_cancelled_layout_gives_no_picture() {
    let analysis = Analysis::new(complete_bipartite(12, 40));
    let flag = std::sync::atomic::AtomicBool::new(true);
    let limits = Limits {
        cancel: Some(&flag),
        ..Limits::default()
    };
    assert_eq!(
        layout_within(&analysis.model.graph, &Positions::new(), limits),
        Err(Cancelled)
    );
    assert!(scene_within(&analysis, None, &Positions::new(), limits).is_err());
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
    for name in ["leetcode-draw", "long-game", "cat-wins", "every-rule"] {
        let path = format!("{}/../../examples/{name}.cmg", env!("CARGO_MANIFEST_DIR"));
        let analysis = Analysis::new(std::fs::read_to_string(path).expect("an example"));
        let solved = cmg_core::explain::solve_and_explain_analysis(
            &analysis,
            cmg_core::explain::WhatIfBudget::CommandLine,
        );
        let solution = solved.as_ref().map(|s| &*s.solution);
        let mut scene = scene(&analysis, solution, &Positions::new());
        add_explanations(&mut scene, &analysis, solved.as_ref());
        // Every slice, as the page would ask for them one by one.
        let graph = &analysis.model.graph;
        let slices: Vec<Slice> = [Player::Mouse, Player::Cat]
            .into_iter()
            .flat_map(|turn| graph.ids().iter().map(move |&cat| (cat, turn)))
            .filter_map(|(cat, turn)| slice(graph, solution, cat, turn).ok())
            .collect();
        for (file, json) in [
            (
                format!("{dir}/{name}.json"),
                serde_json::to_string_pretty(&scene),
            ),
            (
                format!("{dir}/{name}.slices.json"),
                serde_json::to_string(&slices),
            ),
        ] {
            let json = json.expect("JSON") + "\n";
            if std::env::var_os("UPDATE_EXPECT").is_some() {
                std::fs::create_dir_all(dir).expect("the fixtures folder");
                std::fs::write(&file, &json).expect("a fixture");
            }
            let current = std::fs::read_to_string(&file).unwrap_or_default();
            assert!(
                current == json,
                "{file} is out of date: run UPDATE_EXPECT=1 cargo test --lib view"
            );
        }
    }
}

/// The page draws with its own copies of the node radius, the arrowhead and the scene
/// version (it has no Rust to read them from); they must be these.
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
    let arrow = format!("export const ARROW_MARKER = `{}`;", svg::ARROW_MARKER);
    assert!(
        web("render.ts").contains(&arrow),
        "web/src/render.ts lacks `{arrow}`"
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
        format!("more than {MAX_VIEW_EDGES} edges"),
        format!("at most {MAX_SCENE_DIAGNOSTICS};"),
    ] {
        assert!(contract.contains(&phrase), "docs/view.md lacks {phrase:?}");
    }
}

/// The scene of an unsolved analysis, laid out from nothing.
fn scene_of(analysis: &Analysis) -> Scene {
    scene(analysis, None, &Positions::new())
}

/// The scene of `analysis` solved and explained as `cmg view` and the server do.
fn explained_scene(analysis: &Analysis, budget: cmg_core::explain::WhatIfBudget) -> Scene {
    let solved = cmg_core::explain::solve_and_explain_analysis(analysis, budget);
    let mut scene = scene(
        analysis,
        solved.as_ref().map(|s| &*s.solution),
        &Positions::new(),
    );
    add_explanations(&mut scene, analysis, solved.as_ref());
    scene
}

/// Each edge carries its what-if, critical edges are marked, and the strategy trees come
/// with the positions the panel shows.
#[test]
fn explanations_mark_critical_edges_and_carry_the_tree() {
    let analysis = Analysis::new("0 -- 3 -- 1\n2 -- 3\n");
    let scene = explained_scene(&analysis, cmg_core::explain::WhatIfBudget::CommandLine);
    let edges: Vec<String> = scene
        .edges
        .iter()
        .map(|e| format!("{}-{} {} {:?}", e.a, e.b, e.critical, e.what_if))
        .collect();
    expect_test::expect![[r#"
        [
            "0-3 false Some(\"without 0 -- 3: cat wins in 2 (as now)\")",
            "1-3 true Some(\"without 1 -- 3: draw (now: cat wins in 2)\")",
            "2-3 true Some(\"without 2 -- 3: draw (now: cat wins in 2)\")",
        ]
    "#]]
    .assert_debug_eq(&edges);
    let [strategy] = scene.strategies.as_slice() else {
        panic!("one strategy for a win");
    };
    let lines: Vec<String> = strategy
        .lines
        .iter()
        .map(|l| {
            format!(
                "{} {}: {} at {}/{}/{}",
                l.depth, l.text, l.note, l.mouse, l.cat, l.turn
            )
        })
        .collect();
    assert_eq!(strategy.player, "cat");
    assert_eq!(
        lines,
        [
            "0 mouse 1 -> 3: cat wins in 1 at 3/2/1",
            "1 cat 2 -> 3: caught: cat wins at 3/3/0"
        ]
    );
    let svg = svg::to_svg(&scene);
    assert!(
        svg.contains(r#"data-edge="1-3" data-critical="true""#),
        "{svg}"
    );
    // The legend names the critical edges' mark, once, when some are drawn.
    assert_eq!(svg.matches(r#"data-legend="critical""#).count(), 1, "{svg}");
    let unsolved = svg::to_svg(&scene_of(&analysis));
    assert!(
        !unsolved.contains(r#"data-legend="critical""#),
        "{unsolved}"
    );
}

/// The exported picture is as wide as its widest caption: a long outcome line or note
/// is not cut at a fixed width.
#[test]
fn the_export_is_as_wide_as_its_legend() {
    let analysis = Analysis::new("0 -- 1 -- 2\n");
    let mut scene = scene_of(&analysis);
    let width = |scene: &Scene| -> f64 {
        let svg = svg::to_svg(scene);
        let at = svg.find(r#" width=""#).expect("a width") + 8;
        svg[at..at + svg[at..].find('"').unwrap()].parse().unwrap()
    };
    let narrow = width(&scene);
    scene.summary = "a very long caption ".repeat(20);
    assert!(width(&scene) >= 20.0 * 20.0 * 7.0, "{}", width(&scene));
    scene.summary = "short".to_owned();
    scene.layout_note = Some("一".repeat(80));
    assert!(width(&scene) >= 80.0 * 13.0, "{}", width(&scene));
    // The roles' row of the legend alone is wider than the three nodes.
    assert!(narrow > 400.0, "{narrow}");
}

/// Over the what-if's edge limit the scene says why, and marks no edge.
#[test]
fn explanations_over_the_what_if_limit_say_so() {
    let text = "{0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57} -- {0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57}\n";
    let analysis = Analysis::new(text);
    let scene = explained_scene(&analysis, cmg_core::explain::WhatIfBudget::Editor);
    assert_eq!(
        scene.what_if_note.as_deref(),
        Some("what-if: not computed in the editor: 1653 solves of a 58-node game take too long; `cmg solve --what-if` computes it")
    );
    assert!(scene
        .edges
        .iter()
        .all(|e| !e.critical && e.what_if.is_none()));
    assert!(!scene.strategies.is_empty());
}

/// The picture's geometry, measured on the scene as the page and the export draw it: no
/// edge passes within a node's radius (and a gap) of a node it does not join, and no two
/// nodes are so close that a marker drawn inside one touches the other. Returns the
/// first offence in words.
fn geometry_offence(scene: &Scene) -> Option<String> {
    let at = |id: u32| {
        let node = scene
            .nodes
            .iter()
            .find(|n| n.id == id)
            .expect("an edge's node");
        [node.x, node.y]
    };
    // A little under the constants: positions are rounded to hundredths of a pixel.
    let (edge_gap, node_gap) = (
        clearance::EDGE_CLEARANCE - 0.05,
        clearance::NODE_SPACING - 0.05,
    );
    for edge in &scene.edges {
        let (p, q) = (at(edge.a), at(edge.b));
        for node in scene
            .nodes
            .iter()
            .filter(|n| n.id != edge.a && n.id != edge.b)
        {
            // The distance to the segment, by its own arithmetic (not the pass's helper).
            let d = [q[0] - p[0], q[1] - p[1]];
            let t = ((node.x - p[0]) * d[0] + (node.y - p[1]) * d[1]) / (d[0] * d[0] + d[1] * d[1]);
            let t = if t.is_finite() {
                t.clamp(0.0, 1.0)
            } else {
                0.0
            };
            let distance = (node.x - p[0] - t * d[0]).hypot(node.y - p[1] - t * d[1]);
            if distance < edge_gap {
                return Some(format!(
                    "edge {}-{} passes {distance:.1} px from node {}",
                    edge.a, edge.b, node.id
                ));
            }
        }
    }
    for (i, a) in scene.nodes.iter().enumerate() {
        for b in &scene.nodes[i + 1..] {
            let distance = (a.x - b.x).hypot(a.y - b.y);
            if distance < node_gap {
                return Some(format!(
                    "nodes {} and {} are {distance:.1} px apart",
                    a.id, b.id
                ));
            }
        }
    }
    None
}

#[test]
fn no_edge_of_any_example_passes_over_a_node_it_does_not_join() {
    for (name, text) in examples() {
        let analysis = Analysis::new(text);
        let scene = scene(&analysis, None, &Positions::new());
        assert_eq!(geometry_offence(&scene), None, "{name}");
        // And again after an edit, from the previous picture: the seeded layout too.
        let edited = Analysis::new(format!("{}\n1 -- 999\n", analysis.text));
        let again = super::scene(&edited, None, &scene.positions());
        assert_eq!(geometry_offence(&again), None, "{name}, edited");
    }
}

/// An edit that joins two drawn nodes far apart: the new edge crosses the kept picture,
/// and the seeded layout must clear it from every node it passes, as a fresh one does.
#[test]
fn an_edge_across_a_kept_picture_clears_the_nodes_it_passes() {
    let mut checked = 0;
    for (name, text) in examples() {
        let analysis = Analysis::new(text);
        let first = scene(&analysis, None, &Positions::new());
        let graph = &analysis.model.graph;
        // The two drawn nodes farthest apart that no edge joins.
        let far = first
            .nodes
            .iter()
            .flat_map(|a| first.nodes.iter().map(move |b| (a, b)))
            .filter(|(a, b)| a.id < b.id)
            .filter(|(a, b)| {
                let (ia, ib) = (graph.index_of(a.id), graph.index_of(b.id));
                ia.zip(ib)
                    .is_some_and(|(ia, ib)| !graph.neighbours(ia).contains(&ib))
            })
            .max_by(|(a, b), (c, d)| {
                let length = |p: &SceneNode, q: &SceneNode| (p.x - q.x).hypot(p.y - q.y);
                length(a, b).total_cmp(&length(c, d))
            });
        let Some((a, b)) = far else {
            continue;
        };
        let edited = Analysis::new(format!("{}\n{} -- {}\n", analysis.text, a.id, b.id));
        let again = scene(&edited, None, &first.positions());
        assert_eq!(
            geometry_offence(&again),
            None,
            "{name}, {} -- {} added",
            a.id,
            b.id
        );
        checked += 1;
    }
    assert!(checked >= 5, "{checked} examples had two nodes to join");
}

/// A picture laid out again from itself (a client sending back the positions it was
/// given, or an edit that leaves the graph alone) comes back unchanged, for every example.
#[test]
fn every_example_laid_out_from_its_own_picture_moves_nothing() {
    for (name, text) in examples() {
        let analysis = Analysis::new(text);
        let first = scene(&analysis, None, &Positions::new());
        let again = scene(&analysis, None, &first.positions());
        assert_eq!(again.positions(), first.positions(), "{name}");
    }
}

/// Deterministic pseudo-random graphs: trees, sparse and dense ones, up to 80 nodes.
fn random_graph(seed: u64) -> String {
    let mut state = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let mut next = move |bound: u64| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) % bound.max(1)
    };
    let n = 3 + next(78);
    let mut text = String::new();
    // A spanning tree keeps it one piece, then extra edges by a per-graph density.
    for i in 1..n {
        text += &format!("{} -- {i}\n", next(i));
    }
    let extra = next(n * n / 4 + 1);
    for _ in 0..extra {
        let (a, b) = (next(n), next(n));
        if a != b {
            text += &format!("{a} -- {b}\n");
        }
    }
    text
}

#[test]
fn no_edge_of_a_random_graph_passes_over_a_node_it_does_not_join() {
    for seed in 0..60 {
        let text = random_graph(seed);
        let analysis = Analysis::new(text.clone());
        let scene = scene(&analysis, None, &Positions::new());
        assert_eq!(geometry_offence(&scene), None, "seed {seed}:\n{text}");
    }
    // A complete graph and a grid: many lines, many nodes in a row.
    let complete: String = (0..14u32)
        .flat_map(|a| (a + 1..14).map(move |b| format!("{a} -- {b}\n")))
        .collect();
    let grid: String = (0..100u32)
        .flat_map(|i| {
            let right = (i % 10 < 9).then(|| format!("{i} -- {}\n", i + 1));
            let down = (i < 90).then(|| format!("{i} -- {}\n", i + 10));
            right.into_iter().chain(down)
        })
        .collect();
    for text in [complete, grid] {
        let scene = scene(&Analysis::new(text.clone()), None, &Positions::new());
        assert_eq!(geometry_offence(&scene), None, "{text}");
    }
}

/// A dense random graph (a random spanning tree and as many random edges again, the
/// kind `benches/view.rs` lays out) is an expander: its lines are long, so the picture
/// must grow for them to clear the nodes. It must still clear them, and grow no more than
/// it needs: a bounding box of at most 25 square edge lengths per node (about 11 today;
/// `BENCHMARKS.md` has the larger sizes, which a debug build takes too long for).
#[test]
fn a_dense_random_graph_is_drawn_clear_and_compact() {
    let n = 300u64;
    let mut state = 7u64;
    let mut next = |bound: u64| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) % bound
    };
    let mut text = String::new();
    for node in 1..n {
        text += &format!("{node} -- {}\n", next(node));
    }
    for _ in 0..n {
        let (a, b) = (next(n), next(n));
        if a != b {
            text += &format!("{a} -- {b}\n");
        }
    }
    let scene = scene(&Analysis::new(text), None, &Positions::new());
    assert_eq!(geometry_offence(&scene), None);
    let positions: Vec<[f64; 2]> = scene.positions().into_values().collect();
    let extent = |axis: usize| {
        let values = positions.iter().map(|p| p[axis]);
        values.clone().fold(f64::MIN, f64::max) - values.fold(f64::MAX, f64::min)
    };
    let area = extent(0) * extent(1) / (UNIT * UNIT) / n as f64;
    assert!(area <= 25.0, "{area:.1} square edge lengths per node");
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

/// A scene made from a layout done beforehand (as `cmg view` lays out while it solves) is
/// the scene made in one go, for every example, fresh and seeded from a previous picture.
#[test]
fn a_scene_laid_out_beforehand_is_the_scene_made_in_one_go() {
    for (name, text) in examples() {
        let analysis = Analysis::new(text);
        let solution = analysis.game().map(|game| solve(&game));
        let graph = &analysis.model.graph;
        let fresh = scene(&analysis, solution.as_ref(), &Positions::new());
        let laid_out = scene_laid_out(
            &analysis,
            solution.as_ref(),
            layout(graph, &Positions::new()),
        );
        let json = |scene: &Scene| serde_json::to_string(scene).expect("a scene's JSON");
        assert_eq!(json(&laid_out), json(&fresh), "{name}");
        let edited = Analysis::new(format!("{}\n1 -- 999\n", analysis.text));
        let previous = fresh.positions();
        let seeded = scene(&edited, None, &previous);
        let laid_out = scene_laid_out(&edited, None, layout(&edited.model.graph, &previous));
        assert_eq!(json(&laid_out), json(&seeded), "{name}, edited");
    }
}

/// A file with every rule: the roles where its rules put them, each one-way edge drawn
/// from its start with its arrowhead, the game in words, and play's moves along the
/// one-way edges only in their direction (the cat into the holes, as the file allows).
#[test]
fn the_scene_of_a_file_with_every_rule_follows_its_rules() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/every-rule.cmg");
    let analysis = Analysis::new(std::fs::read_to_string(path).expect("the example"));
    let solved = explained_scene(&analysis, cmg_core::explain::WhatIfBudget::CommandLine);
    let scene = &solved;
    let nodes: Vec<String> = scene
        .nodes
        .iter()
        .map(|n| {
            format!(
                "{} {} mouse {:?} cat {:?}",
                n.id, n.role, n.next.mouse, n.next.cat
            )
        })
        .collect();
    expect_test::expect![[r#"
        [
            "0 hole mouse [1, 6] cat [1, 6]",
            "1 node mouse [0, 2] cat [0, 2]",
            "2 node mouse [1, 3, 6] cat [1, 3, 6]",
            "3 mouse mouse [2, 4] cat [2, 4]",
            "4 node mouse [3, 5, 9] cat [3, 5, 9]",
            "5 cat mouse [4, 6] cat [4, 6]",
            "6 node mouse [0, 2, 5] cat [0, 2, 5]",
            "9 hole mouse [6] cat [6]",
        ]
    "#]]
    .assert_debug_eq(&nodes);
    let edges: Vec<String> = scene
        .edges
        .iter()
        .map(|e| format!("{}-{}{}", e.a, e.b, if e.one_way { " one way" } else { "" }))
        .collect();
    expect_test::expect![[r#"
        [
            "0-1",
            "0-6",
            "1-2",
            "2-3",
            "2-6",
            "3-4",
            "4-5",
            "5-6",
            "4-9 one way",
            "9-6 one way",
        ]
    "#]]
    .assert_debug_eq(&edges);
    expect_test::expect![[r#"
        {
          "game": "the game: the cat moves first, the mouse starts on 3, the cat on 5, the holes are 0, 9, the cat may enter the holes, limit 12, one-way edges",
          "first": "cat",
          "limit": 12,
          "mouse": 3,
          "cat": 5,
          "holes": [
            0,
            9
          ],
          "cat_enters_holes": true
        }"#]]
    .assert_eq(&serde_json::to_string_pretty(&scene.rules).expect("JSON"));
    // The line starts where the rules say, the cat moving first.
    assert_eq!(scene.line.first(), Some(&[3, 5]));
    let svg = svg::to_svg(scene);
    assert_eq!(svg.matches(svg::ARROW_MARKER).count(), 1, "{svg}");
    for arc in ["4-9", "9-6"] {
        let line = format!(
            r#"data-edge="{arc}" data-critical="false" data-one-way="true" marker-end="url(#cmg-arrow)""#
        );
        assert!(svg.contains(&line), "{line} in {svg}");
    }
    for legend in [
        "hole (0, 9)",
        "mouse start (3)",
        "cat start (5)",
        "one-way edge",
        &scene.rules.as_ref().expect("rules").game,
    ] {
        assert!(svg.contains(legend), "{legend} in {svg}");
    }
    // A file without rules has none of this: no rules, no arrowhead.
    let plain = scene_of(&Analysis::new("0 -- 1 -- 2\n"));
    assert!(plain.rules.is_none());
    let json = serde_json::to_string(&plain).expect("JSON");
    assert!(
        !json.contains("rules") && !json.contains("one_way"),
        "{json}"
    );
    assert!(!svg::to_svg(&plain).contains("cmg-arrow"));
}

/// The element of an exported picture whose attribute `name` is `value`.
fn element_with<'a, 'input>(
    document: &'a roxmltree::Document<'input>,
    name: &str,
    value: &str,
) -> roxmltree::Node<'a, 'input> {
    document
        .descendants()
        .find(|n| n.attribute(name) == Some(value))
        .unwrap_or_else(|| panic!("no {name}=\"{value}\" in the picture"))
}

/// The arrowhead of a highlighted one-way edge is in its line's colour: in the export, a
/// critical one-way edge points at a marker the stylesheet fills in the critical colour,
/// a flagged one at one in the flag's colour, a plain one at the edges' marker.
#[test]
fn a_highlighted_one_way_edge_has_its_arrowhead_in_its_colour() {
    // Without 1 -> 0 (from the larger id) the mouse must step onto the cat: the one-way
    // edge is critical. Node 3 has no move out: 2 -> 3 is flagged.
    let analysis = Analysis::new("1 -> 0\n1 -- 2\n2 -> 3\n2 -- 4\n4 -> 5 -> 2\n".to_owned());
    let scene = explained_scene(&analysis, cmg_core::explain::WhatIfBudget::CommandLine);
    let picture = svg::to_svg(&scene);
    let document = roxmltree::Document::parse(&picture).expect("XML");
    let fill_of = |edge: &str| {
        let line = element_with(&document, "data-edge", edge);
        let critical = line.attribute("data-critical") == Some("true");
        let marker = line
            .attribute("marker-end")
            .and_then(|end| end.strip_prefix("url(#")?.strip_suffix(')'))
            .unwrap_or_else(|| panic!("{edge} has no arrowhead"));
        let marker = document
            .descendants()
            .find(|n| n.has_tag_name("marker") && n.attribute("id") == Some(marker))
            .unwrap_or_else(|| panic!("no marker {marker} in {picture}"));
        let rule = match marker.attribute("data-look") {
            None => ".cmg-scene .arrow { fill:".to_owned(),
            Some(look) => format!(r#".cmg-scene .arrow[data-look="{look}"] {{ fill:"#),
        };
        let fill = svg::STYLESHEET
            .lines()
            .find_map(|line| line.strip_prefix(&rule))
            .unwrap_or_else(|| panic!("the stylesheet has no `{rule}`"))
            .trim()
            .to_owned();
        (critical, fill)
    };
    assert_eq!(
        fill_of("1-0"),
        (true, "var(--cmg-critical); }".to_owned()),
        "{picture}"
    );
    assert_eq!(
        fill_of("2-3"),
        (false, "var(--cmg-flag); }".to_owned()),
        "{picture}"
    );
    assert_eq!(
        fill_of("5-2"),
        (false, "var(--cmg-edge); }".to_owned()),
        "{picture}"
    );
}

/// A node that is a hole and a start at once shows both: the start's outline with the
/// hole's ring inside, in the scene (`also`) and the export alike.
#[test]
fn a_hole_where_a_player_starts_is_drawn_as_both() {
    let analysis = Analysis::new("rule holes 0 2\nrule cat-enters-holes\n0 -- 1 -- 2\n".to_owned());
    let scene = scene_of(&analysis);
    let roles: Vec<String> = scene
        .nodes
        .iter()
        .map(|n| format!("{} {} {:?}", n.id, n.role, n.also))
        .collect();
    assert_eq!(roles, ["0 hole []", "1 mouse []", "2 hole [\"cat\"]"]);
    let picture = svg::to_svg(&scene);
    let document = roxmltree::Document::parse(&picture).expect("XML");
    let shapes = |id: &str| {
        let group = element_with(&document, "data-node", id);
        let children: Vec<String> = group
            .children()
            .filter(|c| c.is_element() && !c.has_tag_name("text"))
            .map(|c| {
                format!(
                    "{} {}",
                    c.tag_name().name(),
                    c.attribute("class").unwrap_or("")
                )
            })
            .collect();
        (group.attribute("data-also").map(str::to_owned), children)
    };
    // The cat's diamond, the hole's ring inside.
    assert_eq!(
        shapes("2"),
        (
            Some("cat".to_owned()),
            vec!["polygon shape".to_owned(), "circle ring".to_owned()]
        )
    );
    // A plain hole is still the double circle, without `data-also`.
    assert_eq!(
        shapes("0"),
        (
            None,
            vec!["circle shape".to_owned(), "circle ring".to_owned()]
        )
    );
    let json = serde_json::to_string(&scene_of(&Analysis::new("0 -- 1 -- 2\n"))).expect("JSON");
    assert!(!json.contains("also"), "{json}");
}

/// A node where the mouse and the cat both start (the game over at once,
/// `start-ends-game`) shows both: the mouse's square on the left, the cat's diamond on
/// the right, halves of one outline; with the hole's ring inside when it is a hole too.
#[test]
fn a_node_where_both_players_start_is_drawn_as_both() {
    let outline_of = |text: &str, id: &str| {
        let analysis = Analysis::new(text.to_owned());
        let picture = svg::to_svg(&scene_of(&analysis));
        let document = roxmltree::Document::parse(&picture).expect("XML");
        let group = element_with(&document, "data-node", id);
        let drawn: Vec<String> = group
            .children()
            .filter(|c| c.is_element() && !c.has_tag_name("text"))
            .map(|c| {
                let class = c.attribute("class").unwrap_or("");
                match c.attribute("points") {
                    Some(points) => format!("{} {class} {points}", c.tag_name().name()),
                    None => format!("{} {class}", c.tag_name().name()),
                }
            })
            .collect();
        let roles = format!(
            "{} {}",
            group.attribute("data-role").unwrap_or(""),
            group.attribute("data-also").unwrap_or("")
        );
        (roles, drawn)
    };
    // Left: the square's corners (-18,±18); right: the diamond's tip (1.3 × 18, 0).
    let d = svg::NODE_RADIUS * 1.3;
    let both = format!(
        "polygon shape -18,-18 0,-18 0,{} {d},0 0,{d} 0,18 -18,18",
        -d
    );
    assert_eq!(
        outline_of("0 -- 1 -- 2\nrule start 1 1\n", "1"),
        ("mouse cat".to_owned(), vec![both.clone()])
    );
    assert_eq!(
        outline_of(
            "0 -- 1 -- 2\nrule holes 1\nrule cat-enters-holes\nrule start 1 1\n",
            "1"
        ),
        (
            "hole mouse cat".to_owned(),
            vec![both, "circle ring".to_owned()]
        )
    );
    // Apart, each start keeps its own shape.
    assert_eq!(
        outline_of("0 -- 1 -- 2\n", "1").1,
        ["rect shape".to_owned()]
    );
}
