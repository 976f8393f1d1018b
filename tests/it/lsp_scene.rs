//! The `cmg/scene` and `cmg/slice` requests of the language server: the game view's scene
//! of an open document and slices of its position table, for the current version, an
//! unknown document and a stale version.

use cmg_core::analysis::Analysis;
use cmg_lsp::test_client::{in_memory, InMemoryClient};
use cmg_solve::{solve, Outcome, Player, Position};
use serde_json::{json, Value};

const URI: &str = "file:///test/view.cmg";
const LONG_GAME: &str = include_str!("../../examples/long-game.cmg");

async fn started() -> InMemoryClient {
    let mut client = in_memory();
    client.initialize(json!({}), json!(null)).await;
    client
}

/// Asks until the solve of the version has landed (`pending` false), within a bound.
async fn solved_scene(client: &mut InMemoryClient, params: Value) -> Value {
    for _ in 0..200 {
        let result = client.call("cmg/scene", params.clone()).await;
        if result["pending"] == json!(false) {
            return result;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    panic!("the scene stayed pending");
}

#[tokio::test]
async fn the_scene_of_the_current_version_has_the_solvers_outcomes() {
    let mut client = started().await;
    client.open(URI, 3, LONG_GAME).await;
    let result = solved_scene(
        &mut client,
        json!({"textDocument": {"uri": URI}, "version": 3}),
    )
    .await;
    assert_eq!(result["version"], 3);
    assert_eq!(result["uri"], URI);
    let scene = &result["scene"];
    assert_eq!(scene["version"], cmg_ide::view::SCENE_VERSION);
    assert_eq!(scene["outcome"], "mouse");
    assert_eq!(scene["moves"], 21);

    let analysis = Analysis::new(LONG_GAME);
    let graph = &analysis.model.graph;
    let solution = solve(&analysis.game().expect("a game"));
    let nodes = scene["nodes"].as_array().expect("nodes");
    assert_eq!(nodes.len(), graph.node_count());
    for (index, node) in nodes.iter().enumerate() {
        // The mouse starts on this node, the cat on node 2, the mouse moves.
        let start = Position {
            mouse: index as u32,
            cat: graph.ids().binary_search(&2).expect("node 2") as u32,
            turn: Player::Mouse,
        };
        assert_eq!(node["id"], graph.id(index as u32));
        let outcome = match solution.outcome(start) {
            Outcome::MouseWins => "mouse",
            Outcome::CatWins => "cat",
            Outcome::Draw => "draw",
        };
        assert_eq!(node["outcome"], outcome);
        assert_eq!(node["moves"], json!(solution.moves_to_end(start)));
    }
    assert_eq!(scene["line"][0], json!([1, 2]));
    // The scene has no table: slices come on demand.
    assert_eq!(scene.get("table"), None);
}

#[tokio::test]
async fn a_slice_is_the_solvers_column_for_the_cat_and_the_turn_asked_for() {
    let mut client = started().await;
    client.open(URI, 4, LONG_GAME).await;
    solved_scene(
        &mut client,
        json!({"textDocument": {"uri": URI}, "version": 4}),
    )
    .await;
    let analysis = Analysis::new(LONG_GAME);
    let graph = &analysis.model.graph;
    let solution = solve(&analysis.game().expect("a game"));
    for (cat, turn, player) in [(2, "mouse", Player::Mouse), (5, "cat", Player::Cat)] {
        let result = client
            .call(
                "cmg/slice",
                json!({"textDocument": {"uri": URI}, "version": 4, "cat": cat, "turn": turn}),
            )
            .await;
        assert_eq!(result["pending"], false, "{result}");
        let slice = &result["slice"];
        assert_eq!(slice["cat"], cat);
        assert_eq!(slice["turn"], turn);
        let expected = cmg_ide::view::slice(graph, Some(&solution), cat, player).expect("a slice");
        assert_eq!(slice, &serde_json::to_value(&expected).expect("JSON"));
        assert_eq!(
            slice["moves"].as_array().map(Vec::len),
            Some(graph.node_count())
        );
    }
    // A stale version, an unknown node and an unknown turn are errors; the server goes on.
    let stale = client
        .request(
            "cmg/slice",
            json!({"textDocument": {"uri": URI}, "version": 3, "cat": 2, "turn": "cat"}),
        )
        .await;
    assert_eq!(stale["error"]["code"], -32801, "{stale}");
    for (cat, turn) in [(77, "cat"), (2, "dog")] {
        let bad = client
            .request(
                "cmg/slice",
                json!({"textDocument": {"uri": URI}, "cat": cat, "turn": turn}),
            )
            .await;
        assert_eq!(bad["error"]["code"], -32602, "{bad}");
    }
    let unknown = client
        .call(
            "cmg/slice",
            json!({"textDocument": {"uri": "file:///nowhere.cmg"}, "cat": 2, "turn": "cat"}),
        )
        .await;
    assert_eq!(unknown, Value::Null);
}

#[tokio::test]
async fn an_unknown_document_has_no_scene() {
    let mut client = started().await;
    let result = client
        .call(
            "cmg/scene",
            json!({"textDocument": {"uri": "file:///nowhere.cmg"}}),
        )
        .await;
    assert_eq!(result, Value::Null);
    // Malformed parameters are an error response, and the server goes on.
    let response = client.request("cmg/scene", json!({"uri": 3})).await;
    assert!(response.get("error").is_some(), "{response}");
    client.open(URI, 1, "0 -- 1 -- 2").await;
    let result = client
        .call("cmg/scene", json!({"textDocument": {"uri": URI}}))
        .await;
    assert_eq!(result["version"], 1);
}

#[tokio::test]
async fn a_stale_version_is_refused_as_content_modified() {
    let mut client = started().await;
    client.open(URI, 1, "0 -- 1 -- 2").await;
    client
        .change(URI, 2, json!([{"text": "0 -- 1 -- 3 -- 2\n"}]))
        .await;
    let response = client
        .request(
            "cmg/scene",
            json!({"textDocument": {"uri": URI}, "version": 1}),
        )
        .await;
    assert_eq!(response["error"]["code"], -32801, "{response}");
    let result = solved_scene(
        &mut client,
        json!({"textDocument": {"uri": URI}, "version": 2}),
    )
    .await;
    assert_eq!(result["version"], 2);
    let ids: Vec<&Value> = result["scene"]["nodes"]
        .as_array()
        .expect("nodes")
        .iter()
        .map(|n| &n["id"])
        .collect();
    assert_eq!(ids, [0, 1, 2, 3]);
}

#[tokio::test]
async fn given_positions_keep_nodes_where_they_were() {
    let mut client = started().await;
    client.open(URI, 1, LONG_GAME).await;
    let params = json!({"textDocument": {"uri": URI}});
    let first = solved_scene(&mut client, params).await;
    let positions: serde_json::Map<String, Value> = first["scene"]["nodes"]
        .as_array()
        .expect("nodes")
        .iter()
        .map(|n| (n["id"].to_string(), json!([n["x"], n["y"]])))
        .collect();
    let again = client
        .call(
            "cmg/scene",
            json!({"textDocument": {"uri": URI}, "positions": positions}),
        )
        .await;
    assert_eq!(again["scene"]["nodes"], first["scene"]["nodes"]);
    // Positions far from the natural layout pull it there: the picture follows the client.
    let shifted: serde_json::Map<String, Value> = positions
        .iter()
        .map(|(id, xy)| {
            let x = xy[0].as_f64().expect("x") + 5000.0;
            (id.clone(), json!([x, xy[1]]))
        })
        .collect();
    let moved = client
        .call(
            "cmg/scene",
            json!({"textDocument": {"uri": URI}, "positions": shifted}),
        )
        .await;
    let x0 = moved["scene"]["nodes"][0]["x"].as_f64().expect("x");
    assert!(x0 > 4000.0, "{x0}");
}

/// One layout per document at a time: a scene request for a newer version stops the
/// layout of an older one, which is answered `ContentModified` (-32801), and the newer
/// one is answered. The first graph (2000 nodes, a ring and chords) takes many seconds
/// to lay out in a debug build unless it is stopped.
#[tokio::test]
async fn a_newer_versions_scene_stops_the_older_layout() {
    let mut client = started().await;
    let ring: String = (0..2000)
        .map(|i| format!("{i} -- {}\n{i} -- {}\n", (i + 1) % 2000, (i * 7 + 3) % 2000))
        .collect();
    client.open(URI, 1, &ring).await;
    let first = client
        .send_request(
            "cmg/scene",
            json!({"textDocument": {"uri": URI}, "version": 1}),
        )
        .await;
    // Version 1 is published: the first request has its analysis and goes on to lay
    // out. Whether the edit comes before or during its layout, it is answered
    // ContentModified, for its version is gone (the stopping itself is checked in
    // `scene.rs`'s own tests).
    client.diagnostics_where(URI, |p| p["version"] == 1).await;
    client
        .change(URI, 2, json!([{"text": "1 -- 2\n2 -- 0\n"}]))
        .await;
    let second = client
        .send_request(
            "cmg/scene",
            json!({"textDocument": {"uri": URI}, "version": 2}),
        )
        .await;
    let first = client.response_to(first).await;
    // Not the scene of version 1.
    assert_eq!(
        first["error"]["code"], -32801,
        "answered for version {}",
        first["result"]["version"]
    );
    let second = client.response_to(second).await;
    assert_eq!(second["result"]["version"], 2, "{}", second["error"]);
    assert_eq!(
        second["result"]["scene"]["nodes"].as_array().map(Vec::len),
        Some(3)
    );
}
