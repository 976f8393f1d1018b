//! The layering holds by the dependency graph: the crates below the server and the
//! command line depend, even transitively, on no I/O stack. `cargo tree` reads it from
//! the lock file, so a dependency added to the wrong crate fails here.

use std::process::Command;

/// Crates that bring I/O, a runtime or the protocol; none may sit under the core.
const IO_CRATES: &[&str] = &[
    "tokio",
    "tower-lsp-server",
    "tower-service",
    "clap",
    "notify",
    "tiny_http",
    "axum",
    "hyper",
    "ropey",
    "ignore",
    "open",
];

/// The names of every crate `package` depends on in a normal build (no dev- or
/// build-dependencies), itself included.
fn dependencies(package: &str) -> Vec<String> {
    let output = Command::new(env!("CARGO"))
        .args([
            "tree",
            "--offline",
            "--edges",
            "normal",
            "--prefix",
            "none",
            "-p",
            package,
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo tree runs");
    assert!(
        output.status.success(),
        "cargo tree -p {package}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout)
        .expect("cargo tree prints UTF-8")
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .map(str::to_owned)
        .collect()
}

#[test]
fn the_core_crates_depend_on_no_io_stack() {
    for package in [
        "cmg-syntax",
        "cmg-solve",
        "cmg-gen",
        "cmg-judge",
        "cmg-judge-wasm",
        "cmg-core",
        "cmg-ide",
        "cmg-wasm",
    ] {
        let found: Vec<String> = dependencies(package)
            .into_iter()
            .filter(|name| IO_CRATES.contains(&name.as_str()))
            .collect();
        assert!(found.is_empty(), "{package} depends on {found:?}");
    }
}

#[test]
fn the_solver_knows_no_text_and_the_syntax_no_solver() {
    for package in ["cmg-solve", "cmg-syntax"] {
        let found = dependencies(package);
        assert!(
            !found
                .iter()
                .any(|name| name.starts_with("cmg-") && name != package),
            "{package} depends on {found:?}"
        );
    }
}

#[test]
fn the_test_client_ships_only_with_test_support() {
    // The binary's build must not turn on `test-support`: `cargo tree -e features` on
    // the `cmg` package in a normal build lists the features each crate is built with.
    let output = Command::new(env!("CARGO"))
        .args([
            "tree",
            "--offline",
            "--edges",
            "normal,features",
            "-p",
            "cmg",
            "-i",
            "cmg-lsp",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo tree runs");
    let tree = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        !tree.contains("test-support"),
        "the binary builds cmg-lsp with test-support:\n{tree}"
    );
}

/// The WebAssembly build holds the core and nothing of the server, the command line or
/// the generator: what it may depend on is listed here, so that a new dependency is a
/// decision (docs/dev/decisions.md) and not an accident of the `.wasm`'s size.
#[test]
fn the_wasm_crate_holds_the_core_and_serde_only() {
    let allowed_cmg = ["cmg-wasm", "cmg-syntax", "cmg-solve", "cmg-core", "cmg-ide"];
    let found = dependencies("cmg-wasm");
    let other_cmg: Vec<&String> = found
        .iter()
        .filter(|name| name.starts_with("cmg") && !allowed_cmg.contains(&name.as_str()))
        .collect();
    assert!(other_cmg.is_empty(), "cmg-wasm depends on {other_cmg:?}");
    assert!(
        !found.iter().any(|name| name.starts_with("wasm-bindgen")),
        "cmg-wasm has a hand-written interface (docs/dev/decisions.md): {found:?}"
    );
}
