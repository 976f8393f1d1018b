//! The sample files under `examples/`, as the command-line and robustness tests find them.

use std::path::{Path, PathBuf};

fn examples_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples")
}

/// The path of `examples/<file_name>`, which must exist.
pub fn example(file_name: &str) -> String {
    let path = examples_dir().join(file_name);
    assert!(path.is_file(), "missing example {}", path.display());
    path.to_str().expect("example path is UTF-8").to_owned()
}

/// Every `.cmg` file under `examples/`, sorted; there are at least six.
pub fn all_examples() -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(examples_dir())
        .expect("examples/ exists")
        .map(|entry| entry.expect("readable dir entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "cmg"))
        .collect();
    paths.sort();
    assert!(
        paths.len() >= 6,
        "expected at least 6 examples, found {paths:?}"
    );
    paths
}
