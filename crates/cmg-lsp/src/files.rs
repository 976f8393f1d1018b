//! Finding and reading `.cmg` files on disk, the one way for `cmg check DIR` and the
//! server's workspace diagnostics: the same walk, the same refusals.

use std::io::Read;
use std::path::{Path, PathBuf};

/// What a walk of a folder found.
#[derive(Debug, Default)]
pub struct Walk {
    /// The `*.cmg` regular files under the folder, sorted by path.
    pub files: Vec<PathBuf>,
    /// What could not be walked (an unreadable folder, a broken ignore file).
    pub errors: Vec<String>,
}

/// The `*.cmg` files under `root`, skipping what `.gitignore` and hidden-file rules
/// skip (as ruff and taplo do), sorted by path. Only regular files count: a symbolic
/// link is not followed (a link cycle cannot trap the walk), and a pipe, a socket or a
/// device named `*.cmg` is left alone.
pub fn cmg_files(root: &Path) -> Walk {
    cmg_files_until(root, None)
}

/// [`cmg_files`], stopped at `deadline` if it comes first (a workspace folder such as
/// `/`): the files found by then, and an error that says the walk stopped.
pub fn cmg_files_until(root: &Path, deadline: Option<std::time::Instant>) -> Walk {
    let mut walk = Walk::default();
    for entry in ignore::WalkBuilder::new(root).require_git(false).build() {
        if deadline.is_some_and(|deadline| std::time::Instant::now() >= deadline) {
            walk.errors.push(format!(
                "the walk stopped at its time limit, after {} .cmg files",
                walk.files.len()
            ));
            break;
        }
        match entry {
            Ok(entry) => {
                let is_file = entry.file_type().is_some_and(|kind| kind.is_file());
                if is_file && entry.path().extension().is_some_and(|ext| ext == "cmg") {
                    walk.files.push(entry.into_path());
                }
            }
            Err(error) => walk.errors.push(error.to_string()),
        }
    }
    walk.files.sort();
    walk
}

/// Why a file was not read.
#[derive(Debug)]
pub enum ReadError {
    Io(std::io::Error),
    /// A directory.
    Directory,
    /// A pipe, a socket or a device.
    NotRegular,
    /// Above the limit; the size is known when the file said it before being read.
    TooLarge {
        size: Option<u64>,
    },
}

/// Reads a regular file (a symbolic link is followed) of at most `limit` bytes.
/// Anything else is refused before it is opened: a FIFO would block the open itself,
/// and a device such as `/dev/zero` never ends.
pub fn read_regular_file(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    let regular = |metadata: &std::fs::Metadata| match () {
        _ if metadata.is_file() => Ok(()),
        _ if metadata.is_dir() => Err(ReadError::Directory),
        _ => Err(ReadError::NotRegular),
    };
    regular(&std::fs::metadata(path).map_err(ReadError::Io)?)?;
    let file = std::fs::File::open(path).map_err(ReadError::Io)?;
    // The file may have been swapped since: ask the open file again.
    let metadata = file.metadata().map_err(ReadError::Io)?;
    regular(&metadata)?;
    read_bounded(file, Some(metadata.len()), limit)
}

/// Reads at most `limit` bytes, and refuses a text above it (`size`: what the reader
/// says it holds, if it can).
pub fn read_bounded(
    reader: impl Read,
    size: Option<u64>,
    limit: u64,
) -> Result<Vec<u8>, ReadError> {
    if size.is_some_and(|size| size > limit) {
        return Err(ReadError::TooLarge { size });
    }
    let mut bytes = Vec::with_capacity(size.unwrap_or(0).min(limit) as usize);
    reader
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(ReadError::Io)?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::TooLarge { size: None });
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_walk_finds_regular_cmg_files_only_and_reads_within_the_limit() {
        let root = std::env::temp_dir().join(format!("cmg-files-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join("sub")).unwrap();
        std::fs::create_dir_all(root.join(".hidden")).unwrap();
        std::fs::write(root.join("b.cmg"), "0 -- 1\n").unwrap();
        std::fs::write(root.join("sub/a.cmg"), "0 -- 1 -- 2\n").unwrap();
        std::fs::write(root.join("notes.txt"), "").unwrap();
        std::fs::write(root.join(".hidden/c.cmg"), "").unwrap();
        std::fs::write(root.join("ignored.cmg"), "").unwrap();
        std::fs::write(root.join(".gitignore"), "ignored.cmg\n").unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(root.join("b.cmg"), root.join("link.cmg")).unwrap();
        let walk = cmg_files(&root);
        assert_eq!(walk.files, [root.join("b.cmg"), root.join("sub/a.cmg")]);
        assert!(walk.errors.is_empty(), "{:?}", walk.errors);

        assert_eq!(
            read_regular_file(&root.join("b.cmg"), 7).unwrap(),
            b"0 -- 1\n"
        );
        assert!(matches!(
            read_regular_file(&root.join("b.cmg"), 6),
            Err(ReadError::TooLarge { size: Some(7) })
        ));
        assert!(matches!(
            read_regular_file(&root, 100),
            Err(ReadError::Directory)
        ));
        assert!(matches!(
            read_bounded(&b"12345"[..], None, 4),
            Err(ReadError::TooLarge { size: None })
        ));
        std::fs::remove_dir_all(&root).unwrap();
    }
}
