//! How `cmg` writes: a user's file is replaced whole or not at all (a full disk, a
//! symbolic link, permissions, a file already formatted).

use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::Output;

use crate::common::slow_tests;
use crate::common::temp_dir::TempDir;

fn cmg(args: &[&str]) -> Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_cmg"))
        .args(args)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("cmg runs")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// About 12 KB of edges written `3--4`, which formatting widens to `3 -- 4`: the
/// formatted file is larger than the original, so it cannot fit where the original did.
fn unformatted_graph() -> String {
    let mut text = String::from("0--1\n1--2\n");
    let mut node = 3;
    while text.len() < 12_000 {
        text.push_str(&format!("{node}--{}\n", node + 1));
        node += 1;
    }
    text
}

/// The names in a folder, sorted: a temporary file left behind shows here.
fn names(folder: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(folder)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// A 64 KiB tmpfs, unmounted when dropped.
struct SmallDisk(PathBuf);

impl SmallDisk {
    /// `None` where it cannot be mounted (not root, no mount command, in a container
    /// without the right): under `CMG_SLOW_TESTS`, as in CI, which runs as root, that
    /// is a failure, not a skip.
    fn mount(folder: &Path) -> Option<SmallDisk> {
        let point = folder.join("disk");
        std::fs::create_dir_all(&point).unwrap();
        let mounted = std::process::Command::new("mount")
            .args(["-t", "tmpfs", "-o", "size=64k", "tmpfs"])
            .arg(&point)
            .output();
        let why = match mounted {
            Ok(output) if output.status.success() => return Some(SmallDisk(point)),
            Ok(output) => stderr(&output),
            Err(error) => error.to_string(),
        };
        assert!(
            !slow_tests(),
            "cannot mount a 64 KiB tmpfs for the full-disk test (it needs root): {why}"
        );
        eprintln!("full-disk test not run: cannot mount a tmpfs ({why}); CMG_SLOW_TESTS=1 as root runs it");
        None
    }

    /// Writes 4 KiB blocks to `fill` until the disk refuses one.
    fn fill(&self) {
        use std::io::Write;
        let mut filler = std::fs::File::create(self.0.join("fill")).unwrap();
        let block = [0u8; 4096];
        while filler
            .write_all(&block)
            .and_then(|()| filler.flush())
            .is_ok()
        {}
        let _ = filler.sync_all();
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = std::process::Command::new("umount").arg(&self.0).output();
    }
}

#[test]
fn fmt_on_a_full_disk_leaves_the_file_as_it_was() {
    let folder = TempDir::new("full-disk");
    let Some(disk) = SmallDisk::mount(folder.path()) else {
        return;
    };
    let original = unformatted_graph();
    let graph = disk.0.join("g.cmg");
    std::fs::write(&graph, &original).unwrap();
    let picture = disk.0.join("g.svg");
    std::fs::write(&picture, "<svg>an older picture</svg>\n").unwrap();
    disk.fill();

    let run = cmg(&["fmt", graph.to_str().unwrap()]);
    assert_eq!(run.status.code(), Some(2), "{}", stderr(&run));
    assert!(
        stderr(&run).contains("cannot write") && stderr(&run).contains("No space left on device"),
        "{}",
        stderr(&run)
    );
    assert!(
        std::fs::read_to_string(&graph).unwrap() == original,
        "the file changed"
    );

    // The same for the picture of `view --export`.
    let run = cmg(&[
        "view",
        "--export",
        picture.to_str().unwrap(),
        graph.to_str().unwrap(),
    ]);
    assert_eq!(run.status.code(), Some(2), "{}", stderr(&run));
    assert_eq!(
        std::fs::read_to_string(&picture).unwrap(),
        "<svg>an older picture</svg>\n"
    );
    assert_eq!(
        names(&disk.0),
        ["fill", "g.cmg", "g.svg"],
        "nothing left behind"
    );

    // With room again, the same command formats the file.
    std::fs::remove_file(disk.0.join("fill")).unwrap();
    let run = cmg(&["fmt", graph.to_str().unwrap()]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    assert!(std::fs::read_to_string(&graph)
        .unwrap()
        .starts_with("0 -- 1\n"));
}

#[test]
fn fmt_writes_through_a_symlink_and_keeps_the_permissions() {
    let folder = TempDir::new("fmt-symlink");
    let games = folder.path().join("games");
    std::fs::create_dir(&games).unwrap();
    let real = games.join("real.cmg");
    std::fs::write(&real, "0--1--2\n").unwrap();
    std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o640)).unwrap();
    // A link in another folder, as a dotfiles checkout makes.
    let link = folder.path().join("link.cmg");
    std::os::unix::fs::symlink("games/real.cmg", &link).unwrap();

    let run = cmg(&["fmt", link.to_str().unwrap()]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(
        std::fs::read_link(&link).unwrap(),
        Path::new("games/real.cmg")
    );
    assert_eq!(std::fs::read_to_string(&real).unwrap(), "0 -- 1 -- 2\n");
    assert_eq!(
        std::fs::metadata(&real).unwrap().permissions().mode() & 0o7777,
        0o640
    );
    assert_eq!(names(folder.path()), ["games", "link.cmg"]);
    assert_eq!(names(&games), ["real.cmg"]);
}

#[test]
fn fmt_does_not_rewrite_a_formatted_file() {
    let folder = TempDir::new("fmt-unchanged");
    let path = folder.path().join("done.cmg");
    std::fs::write(&path, "0 -- 1 -- 2\n").unwrap();
    let past = std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_000_000_000);
    std::fs::File::options()
        .write(true)
        .open(&path)
        .unwrap()
        .set_modified(past)
        .unwrap();
    let before = std::fs::metadata(&path).unwrap();

    let run = cmg(&["fmt", path.to_str().unwrap()]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let after = std::fs::metadata(&path).unwrap();
    assert_eq!(after.modified().unwrap(), past, "the file was rewritten");
    assert_eq!(after.ino(), before.ino(), "the file was replaced");
}

#[test]
fn view_export_makes_a_new_file_as_a_plain_create_would() {
    let folder = TempDir::new("export-new");
    folder.write("g.cmg", "0 -- 1 -- 2\n");
    let picture = folder.path().join("g.svg");
    let run = cmg(&[
        "view",
        "--export",
        picture.to_str().unwrap(),
        folder.path().join("g.cmg").to_str().unwrap(),
    ]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    assert!(std::fs::read_to_string(&picture)
        .unwrap()
        .starts_with("<svg"));
    // 0666 less the umask, as `File::create` gives, not the 0600 of a temporary file.
    let mode = |path: &Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o7777;
    let plain = folder.path().join("plain");
    std::fs::File::create(&plain).unwrap();
    assert_eq!(mode(&picture), mode(&plain));
    assert_eq!(names(folder.path()), ["g.cmg", "g.svg", "plain"]);
}
