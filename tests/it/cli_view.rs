//! `cmg view`: the SVG export, the served page and scene, and usage errors.

use std::io::BufRead;
use std::process::{Command, Stdio};

use assert_cmd::cargo::CommandCargoExt;

// Shared with the command-line tests; this file uses only some of it.
use crate::common::examples;
use crate::common::view::{events, get, serve};
use examples::example;

/// A graph beyond what the view draws is refused, never exported as a picture of the
/// legend alone with status 0; an older export at that path is left as it was.
#[test]
fn export_refuses_a_graph_too_large_to_draw_and_writes_nothing() {
    let dir = std::env::temp_dir().join(format!("cmg-view-refuse-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (input, out) = (dir.join("path.cmg"), dir.join("game.svg"));
    let path: String = (0..2500).map(|i| format!("{i} -- {}\n", i + 1)).collect();
    std::fs::write(&input, path).unwrap();
    std::fs::write(&out, "the older picture").unwrap();
    let output = Command::cargo_bin("cmg")
        .unwrap()
        .args(["view", "--export"])
        .args([&out, &input])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("is not exported: the graph has 2501 nodes; the view draws at most 2000"),
        "{stderr}"
    );
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "the older picture");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn export_writes_one_element_per_node() {
    let dir = std::env::temp_dir().join(format!("cmg-view-export-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("game.svg");
    let status = Command::cargo_bin("cmg")
        .unwrap()
        .args(["view", &example("cat-wins.cmg"), "--export"])
        .arg(&out)
        .status()
        .unwrap();
    assert!(status.success());
    let svg = std::fs::read_to_string(&out).unwrap();
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    for (id, role, outcome) in [
        (0, "hole", "mouse"),
        (1, "mouse", "cat"),
        (2, "cat", "cat"),
        (3, "node", "mouse"),
    ] {
        let element = format!(r#"data-node="{id}" data-role="{role}" data-outcome="{outcome}""#);
        assert_eq!(svg.matches(&element).count(), 1, "{element}");
    }
    assert!(svg.contains("outcome: cat wins in 2"));
    let _ = std::fs::remove_dir_all(dir);
}

/// `--export FILE.png` writes a PNG rasterised from the SVG, at twice its size; the SVG
/// of `FILE.svg` is one resvg reads.
#[test]
fn export_writes_svg_or_png_by_the_extension() {
    let dir = crate::common::temp_dir::TempDir::new("view-export-png");
    let (svg_path, png_path) = (dir.path().join("game.svg"), dir.path().join("game.png"));
    for out in [&svg_path, &png_path] {
        let output = Command::cargo_bin("cmg")
            .unwrap()
            .args(["view", &example("leetcode-draw.cmg"), "--export"])
            .arg(out)
            .output()
            .unwrap();
        assert!(output.status.success(), "{output:?}");
    }
    let svg = std::fs::read_to_string(&svg_path).unwrap();
    let tree = resvg::usvg::Tree::from_str(&svg, &resvg::usvg::Options::default()).unwrap();
    let size = tree.size();
    assert!(size.width() > 0.0 && size.height() > 0.0);

    let png = std::fs::read(&png_path).unwrap();
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "not a PNG");
    assert_eq!(&png[12..16], b"IHDR");
    let number = |at: usize| u32::from_be_bytes(png[at..at + 4].try_into().unwrap());
    let (width, height) = (number(16), number(20));
    assert_eq!(width, (size.width() * 2.0).ceil() as u32);
    assert_eq!(height, (size.height() * 2.0).ceil() as u32);
    let pixmap = resvg::tiny_skia::Pixmap::decode_png(&png).unwrap();
    assert_eq!((pixmap.width(), pixmap.height()), (width, height));
    // Drawn, not blank: the background is white, the outcomes' fills are not.
    let colours: std::collections::HashSet<[u8; 4]> = pixmap
        .pixels()
        .iter()
        .map(|p| [p.red(), p.green(), p.blue(), p.alpha()])
        .collect();
    assert!(colours.len() > 10, "{} colours", colours.len());
}

/// Another extension is a usage error naming the two there are, and a file with syntax
/// errors is refused as `cmg dot` refuses it (exit 1, the errors shown): nothing is
/// written either way.
#[test]
fn export_refuses_an_unknown_extension_and_a_file_with_syntax_errors() {
    let dir = crate::common::temp_dir::TempDir::new("view-export-refused");
    let broken = dir.path().join("broken.cmg");
    std::fs::write(&broken, "1 -- 3 -- 2\n0 - 1\n").unwrap();
    let export = |input: &std::path::Path, out: &str| {
        Command::cargo_bin("cmg")
            .unwrap()
            .args(["view", "--export"])
            .arg(dir.path().join(out))
            .arg(input)
            .output()
            .unwrap()
    };
    let output = export(
        std::path::Path::new(&example("leetcode-draw.cmg")),
        "game.jpg",
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(".svg") && stderr.contains(".png"),
        "{stderr}"
    );

    for out in ["game.svg", "game.png"] {
        let output = export(&broken, out);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{stderr}");
        assert!(stderr.contains("error[syntax]"), "{stderr}");
        assert!(stderr.contains("not exported"), "{stderr}");
    }
    let mut left: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .collect();
    left.sort();
    assert_eq!(left, ["broken.cmg"]);
}

#[test]
fn following_standard_input_is_a_usage_error() {
    let output = Command::cargo_bin("cmg")
        .unwrap()
        .args(["view", "-", "--no-open"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("give a path"));
}

#[test]
fn serves_the_page_the_scene_and_its_events_on_localhost() {
    let served = serve(std::path::Path::new(&example("long-game.cmg")));
    let port = served.port;

    let page = get(port, "/");
    assert!(page.starts_with("HTTP/1.1 200"), "{page}");
    assert!(page.contains("Content-Security-Policy"));
    let scene = get(port, "/scene.json");
    let body = scene.split("\r\n\r\n").nth(1).unwrap();
    let json: serde_json::Value = serde_json::from_str(body).unwrap();
    assert_eq!(json["outcome"], "mouse");
    assert_eq!(json["nodes"].as_array().unwrap().len(), 10);
    assert!(get(port, "/nothing").starts_with("HTTP/1.1 404"));

    // Slices of the table on demand: the solver's column for the cat and turn asked for.
    let analysis = cmg_core::analysis::Analysis::new(
        std::fs::read_to_string(example("long-game.cmg")).unwrap(),
    );
    let solution = cmg_solve::solve(&analysis.game().unwrap());
    for (cat, turn, player) in [
        (2, "mouse", cmg_solve::Player::Mouse),
        (7, "cat", cmg_solve::Player::Cat),
    ] {
        let answer = get(port, &format!("/slice?cat={cat}&turn={turn}"));
        assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
        let body: serde_json::Value =
            serde_json::from_str(answer.split("\r\n\r\n").nth(1).unwrap()).unwrap();
        let expected =
            cmg_ide::view::slice(&analysis.model.graph, Some(&solution), cat, player).unwrap();
        assert_eq!(body, serde_json::to_value(&expected).unwrap());
    }
    for bad in ["/slice", "/slice?cat=2&turn=dog", "/slice?cat=99&turn=cat"] {
        let answer = get(port, bad);
        assert!(answer.starts_with("HTTP/1.1 400"), "{bad}: {answer}");
        assert!(answer.contains("\"error\""), "{bad}: {answer}");
    }

    // The event stream starts with the current scene at once.
    let mut reader = events(port);
    let mut lines = Vec::new();
    while !lines.iter().any(|l: &String| l.starts_with("data: ")) {
        let mut line = String::new();
        assert!(reader.read_line(&mut line).unwrap() > 0, "{lines:?}");
        lines.push(line);
    }
    assert!(lines[0].starts_with("HTTP/1.1 200"));
    assert!(lines.iter().any(|l| l.contains("text/event-stream")));
    assert!(lines.iter().any(|l| l == "event: scene\n"));
    assert!(lines.last().unwrap().contains(r#""outcome":"mouse""#));
}
