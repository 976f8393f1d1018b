//! The version number has one home, `[workspace.package]` in the root `Cargo.toml`:
//! every crate inherits it, the Python wheel takes it from Cargo (`dynamic`), and the
//! VS Code extension's manifest and lock file, and the latest release in
//! `CHANGELOG.md`, must say the same. A release that bumps one and not the others
//! fails here.

use std::path::{Path, PathBuf};

use toml_edit::DocumentMut;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

fn toml(path: &Path) -> DocumentMut {
    read(path)
        .parse()
        .unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&read(path)).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

/// The one home: `workspace.package.version` in the root manifest.
fn workspace_version() -> String {
    let manifest = toml(&root().join("Cargo.toml"));
    manifest["workspace"]["package"]["version"]
        .as_str()
        .expect("Cargo.toml has [workspace.package] version")
        .to_owned()
}

#[test]
fn every_crate_inherits_the_workspace_version() {
    let version = workspace_version();
    // The root package is the binary that `cmg --version` reports.
    assert_eq!(env!("CARGO_PKG_VERSION"), version);
    // Every member the workspace lists (`crates/*` stands for each folder there).
    let workspace = toml(&root().join("Cargo.toml"));
    let mut manifests = vec![root().join("Cargo.toml")];
    let members = workspace["workspace"]["members"]
        .as_array()
        .expect("Cargo.toml has workspace.members");
    for member in members.iter().filter_map(|member| member.as_str()) {
        match member.strip_suffix("/*") {
            Some(folder) => {
                let entries = std::fs::read_dir(root().join(folder)).expect("member folder");
                manifests.extend(
                    entries
                        .map(|entry| {
                            entry
                                .expect("member folder entry")
                                .path()
                                .join("Cargo.toml")
                        })
                        .filter(|manifest| manifest.exists()),
                );
            }
            None => manifests.push(root().join(member).join("Cargo.toml")),
        }
    }
    assert!(
        manifests.len() > 2,
        "no workspace member found: {manifests:?}"
    );
    for manifest in manifests {
        let document = toml(&manifest);
        assert_eq!(
            document["package"]["version"]["workspace"].as_bool(),
            Some(true),
            "{} must say `version.workspace = true`, not a version of its own",
            manifest.display()
        );
    }
}

#[test]
fn the_wheel_takes_its_version_from_cargo() {
    let pyproject = toml(&root().join("pyproject.toml"));
    let project = &pyproject["project"];
    assert!(
        project.get("version").is_none(),
        "pyproject.toml must not write a version: maturin reads Cargo.toml's"
    );
    let dynamic: Vec<_> = project["dynamic"]
        .as_array()
        .expect("pyproject.toml has project.dynamic")
        .iter()
        .filter_map(|value| value.as_str())
        .collect();
    assert!(
        dynamic.contains(&"version"),
        "project.dynamic is {dynamic:?}"
    );
    assert_eq!(
        pyproject["tool"]["maturin"]["bindings"].as_str(),
        Some("bin")
    );
}

#[test]
fn the_vscode_extension_has_the_workspace_version() {
    let version = workspace_version();
    let extension = root().join("editors/vscode");
    let manifest = json(&extension.join("package.json"));
    assert_eq!(
        manifest["version"],
        version.as_str(),
        "editors/vscode/package.json"
    );
    // npm writes the version twice into its lock file, and `npm ci` compares only the
    // dependencies with the manifest, so nothing else would notice a stale one.
    let lock = json(&extension.join("package-lock.json"));
    assert_eq!(
        lock["version"],
        version.as_str(),
        "editors/vscode/package-lock.json"
    );
    assert_eq!(
        lock["packages"][""]["version"],
        version.as_str(),
        "editors/vscode/package-lock.json, packages[\"\"]"
    );
}

/// The first `## [X]` heading of the changelog that is not `Unreleased`.
fn latest_release(changelog: &str) -> Option<&str> {
    changelog
        .lines()
        .filter_map(|line| line.strip_prefix("## ["))
        .filter_map(|rest| rest.split_once(']'))
        .map(|(name, _)| name)
        .find(|name| *name != "Unreleased")
}

#[test]
fn the_changelog_latest_release_is_the_workspace_version() {
    let changelog = read(&root().join("CHANGELOG.md"));
    assert!(
        changelog.starts_with("# Changelog"),
        "CHANGELOG.md starts with `# Changelog`"
    );
    assert_eq!(
        latest_release(&changelog),
        Some(workspace_version().as_str())
    );
}

#[test]
fn latest_release_skips_unreleased() {
    let text = "# Changelog\n\n## [Unreleased]\n\n### Added\n\n## [0.2.0] - 2027-01-01\n\n## [0.1.0] - 2026-12-01\n";
    assert_eq!(latest_release(text), Some("0.2.0"));
    assert_eq!(latest_release("# Changelog\n\n## [Unreleased]\n"), None);
}

/// The first `N.N.N` in `word`, if any.
fn version_in(word: &str) -> Option<&str> {
    word.split(|c: char| !c.is_ascii_digit() && c != '.')
        .map(|piece| piece.trim_matches('.'))
        .find(|piece| {
            let parts: Vec<_> = piece.split('.').collect();
            parts.len() == 3 && parts.iter().all(|part| !part.is_empty())
        })
}

/// The package file names the install instructions show (`cmg_cat_mouse-0.1.0-*.whl`,
/// `cmg-linux-x64-0.1.0.vsix`), with the version each names.
fn package_names(text: &str) -> Vec<(&str, &str)> {
    text.split(|c: char| c.is_whitespace() || "`()[]".contains(c))
        .filter(|word| {
            word.starts_with("cmg_cat_mouse-")
                || (word.starts_with("cmg-") && word.ends_with(".vsix"))
        })
        .filter_map(|word| Some((word, version_in(word)?)))
        .collect()
}

#[test]
fn the_install_instructions_name_packages_of_the_workspace_version() {
    let version = workspace_version();
    for file in ["README.md", "editors/README.md", "editors/vscode/README.md"] {
        let text = read(&root().join(file));
        let names = package_names(&text);
        assert!(!names.is_empty(), "{file} names no wheel or .vsix file");
        for (name, named) in names {
            assert_eq!(named, version, "{file} shows {name}");
        }
    }
}

#[test]
fn package_names_finds_the_version_of_each_file() {
    let text = "pip install cmg_cat_mouse-0.1.0-*.whl and `cmg-linux-x64-12.3.45.vsix`, cmg-<target>-<version>.vsix";
    assert_eq!(
        package_names(text),
        [
            ("cmg_cat_mouse-0.1.0-*.whl", "0.1.0"),
            ("cmg-linux-x64-12.3.45.vsix", "12.3.45")
        ]
    );
}
