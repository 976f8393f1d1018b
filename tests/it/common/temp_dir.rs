//! A folder of its own under the temporary directory, for tests that need files.

use std::path::{Path, PathBuf};

/// Removed, with what it holds, when dropped.
pub struct TempDir(PathBuf);

impl TempDir {
    /// `cmg-{name}-{pid}`: one per test name and test process.
    pub fn new(name: &str) -> TempDir {
        let path = std::env::temp_dir().join(format!("cmg-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).unwrap();
        TempDir(path)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }

    /// The path of `name` in the folder.
    pub fn join(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }

    /// Writes `name` in the folder; its path, as the command lines of tests want it.
    pub fn write(&self, name: &str, contents: impl AsRef<[u8]>) -> String {
        let path = self.0.join(name);
        std::fs::write(&path, contents).unwrap();
        path.to_str().unwrap().to_owned()
    }

    /// The `file:` URI of `name` in the folder (an empty name: the folder's); the
    /// temporary directory's path needs no percent-encoding.
    pub fn uri(&self, name: &str) -> String {
        format!("file://{}", self.0.join(name).display())
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
