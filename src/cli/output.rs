//! Where the commands' output goes: standard output, whose first failed write is kept
//! and reported when the command ends, and the user's files, replaced whole or not at all.
//!
//! Every command writes standard output through [`stdout`], [`print`] or a [`Stdout`]
//! around its coloured stream, and `cli::run` ends with [`finish`]: a write that failed
//! (a full disk behind `> file`, `/dev/full`) makes the command exit 2 with a message,
//! whatever it printed before. A closed pipe (`cmg ... | head`) is the reader's choice
//! and stays quiet.
//!
//! Files are written by [`replace_file`] alone: into a temporary file in the same
//! folder, flushed to disk, then renamed over the original, so that a full disk, a
//! quota or a kill halfway leaves the original as it was.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use termcolor::{ColorSpec, WriteColor};

use super::CliError;

/// The first error writing standard output, if any.
static STDOUT_FAILURE: Mutex<Option<io::Error>> = Mutex::new(None);

/// Keeps `error` if it is the first one, and passes the result on.
fn note<T>(result: io::Result<T>) -> io::Result<T> {
    if let Err(error) = &result {
        let mut failure = STDOUT_FAILURE.lock().unwrap_or_else(|e| e.into_inner());
        if failure.is_none() {
            *failure = Some(match error.raw_os_error() {
                Some(code) => io::Error::from_raw_os_error(code),
                None => io::Error::new(error.kind(), error.to_string()),
            });
        }
    }
    result
}

/// A writer onto standard output (its lock, or a coloured stream over it) that keeps
/// the first error for [`finish`]. The error is still returned, so that a loop of
/// writes can stop.
pub struct Stdout<W>(pub W);

impl<W: Write> Write for Stdout<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        note(self.0.write(buf))
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        note(self.0.write_all(buf))
    }

    fn flush(&mut self) -> io::Result<()> {
        note(self.0.flush())
    }
}

impl<W: WriteColor> WriteColor for Stdout<W> {
    fn supports_color(&self) -> bool {
        self.0.supports_color()
    }

    fn set_color(&mut self, spec: &ColorSpec) -> io::Result<()> {
        note(self.0.set_color(spec))
    }

    fn reset(&mut self) -> io::Result<()> {
        note(self.0.reset())
    }

    fn is_synchronous(&self) -> bool {
        self.0.is_synchronous()
    }
}

/// Standard output, locked, with its errors kept.
pub fn stdout() -> Stdout<io::StdoutLock<'static>> {
    Stdout(io::stdout().lock())
}

/// Writes `text` to standard output; a failure is reported by [`finish`].
pub fn print(text: &str) {
    print_bytes(text.as_bytes());
}

/// Writes `bytes` to standard output; a failure is reported by [`finish`].
pub fn print_bytes(bytes: &[u8]) {
    let _ = stdout().write_all(bytes);
}

/// Keeps a failure met while writing standard output outside [`Stdout`] (clap's help).
pub fn note_stdout_error(error: io::Error) {
    let _ = note::<()>(Err(error));
}

/// Flushes standard output and says whether every write to it succeeded. A closed pipe
/// counts as success: the reader had what it wanted.
pub fn finish() -> Result<(), CliError> {
    let _ = stdout().flush();
    let failure = STDOUT_FAILURE
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .take();
    match failure {
        Some(error) if error.kind() != io::ErrorKind::BrokenPipe => Err(CliError(format!(
            "cannot write to standard output: {error}"
        ))),
        _ => Ok(()),
    }
}

/// Replaces the file at `path` with `bytes`, or leaves it as it was.
///
/// The bytes go to a temporary file in the same folder (`.NAME.PID.N.tmp`), which is
/// flushed to disk and given the original's permissions (and, where allowed, its owner
/// and group) before it is renamed over the original: a rename within a folder is
/// atomic, so a reader sees the old file or the new one, never a part. On any failure
/// the temporary file is removed. A symbolic link stays a link: its target is what is
/// replaced. A file the process could not write in place (read-only) is refused as
/// before, and what is not a plain file (`/dev/stdout`, a pipe) is written in place,
/// since there is nothing to replace.
pub fn replace_file(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let original = match std::fs::metadata(path) {
        Ok(original) if !original.is_file() => return std::fs::write(path, bytes),
        Ok(original) => {
            // The permission check of a write in place, without changing the file.
            std::fs::OpenOptions::new().write(true).open(path)?;
            Some(original)
        }
        Err(error) if error.kind() == io::ErrorKind::NotFound => None,
        Err(error) => return Err(error),
    };
    let target = link_target(path)?;
    let folder = match target.parent() {
        Some(folder) if !folder.as_os_str().is_empty() => folder,
        _ => Path::new("."),
    };
    let name = target
        .file_name()
        .map_or_else(|| "cmg".into(), |name| name.to_string_lossy());
    let temporary = Temporary::create(folder, &name, original.is_none()).map_err(|error| {
        io::Error::new(
            error.kind(),
            format!(
                "cannot create a temporary file in {}: {error}",
                folder.display()
            ),
        )
    })?;
    if let Some(original) = &original {
        keep_permissions(&temporary.file, original)?;
    }
    (&temporary.file).write_all(bytes)?;
    temporary.file.sync_all()?;
    temporary.rename_to(&target)?;
    // The rename itself reaches the disk with the folder; a folder that cannot be
    // opened or synced (some network file systems) does not undo a write that was made.
    if let Ok(folder) = std::fs::File::open(folder) {
        let _ = folder.sync_all();
    }
    Ok(())
}

/// A file being written beside the one it will replace; removed when dropped unless
/// it was renamed into place.
struct Temporary {
    file: std::fs::File,
    path: PathBuf,
    renamed: bool,
}

impl Temporary {
    /// `.NAME.PID.N.tmp` in `folder`, a name no other file has (`create_new`). A new file
    /// gets what `File::create` gives (0666 less the umask); a replacement starts
    /// private (0600) until it takes the original's mode.
    fn create(folder: &Path, name: &str, new_file: bool) -> io::Result<Temporary> {
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.mode(if new_file { 0o666 } else { 0o600 });
        }
        #[cfg(not(unix))]
        let _ = new_file;
        let mut attempt = 0u32;
        loop {
            let path = folder.join(format!(".{name}.{}.{attempt}.tmp", std::process::id()));
            match options.open(&path) {
                Ok(file) => {
                    return Ok(Temporary {
                        file,
                        path,
                        renamed: false,
                    })
                }
                // Left by a run that was killed, or made by another process at once.
                Err(error) if error.kind() == io::ErrorKind::AlreadyExists && attempt < 100 => {
                    attempt += 1;
                }
                Err(error) => return Err(error),
            }
        }
    }

    fn rename_to(mut self, target: &Path) -> io::Result<()> {
        std::fs::rename(&self.path, target)?;
        self.renamed = true;
        Ok(())
    }
}

impl Drop for Temporary {
    fn drop(&mut self) {
        if !self.renamed {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// The file that `path` names once every symbolic link is followed (the path itself
/// when it is not a link).
fn link_target(path: &Path) -> io::Result<PathBuf> {
    let is_link = std::fs::symlink_metadata(path).is_ok_and(|meta| meta.file_type().is_symlink());
    if is_link {
        std::fs::canonicalize(path)
    } else {
        Ok(path.to_owned())
    }
}

/// Gives the replacement the original's mode, and its owner and group where the process
/// may (root, or the owner keeping its own group).
fn keep_permissions(file: &std::fs::File, original: &std::fs::Metadata) -> io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let _ = std::os::unix::fs::fchown(file, Some(original.uid()), Some(original.gid()));
    }
    file.set_permissions(original.permissions())
}
