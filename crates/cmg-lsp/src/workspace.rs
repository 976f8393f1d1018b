//! Workspace diagnostics (`workspace/diagnostic`): the `*.cmg` files of the workspace
//! folders, open or not, found by the walk of `cmg check DIR` ([`super::files`]).
//!
//! An open document is answered from its live analysis, with the result id of
//! `textDocument/diagnostic` ([`super::pull`]). A closed file is read from disk (a
//! regular file of at most `analysis.maxDocumentBytes`) and analysed on the blocking
//! pool, one file after another, with the limits of an open document; its result id is
//! a hash of its bytes and of the settings its diagnostics depend on, so a file that
//! has not changed answers `unchanged`. The hash of each file is kept with its
//! [`Stamp`] (size, modification time, inode), so a file whose stamp has not moved is
//! answered `unchanged` without being read again. The walk stops at [`MAX_FILES`]
//! files and the reading at [`MAX_BYTES`] bytes in all; the log says when either cut
//! the report.
//!
//! One report does a bounded amount of work on closed files ([`BUDGET`]): once it is
//! spent, the files not yet read are left out of the report (the client keeps what it
//! shows for them) and the next pull starts where this one stopped, so a workspace of
//! slow files is covered over a few pulls, each answered within about its budget. The
//! first file a report reads is always done, so every pull makes progress, unless the
//! memory it needs does not come in time.
//!
//! Each closed file's analysis and solve lease their memory from the server's one
//! budget ([`Room`]), so a workspace of large closed files stays inside it; what the
//! budget refuses is said in the file's report, as an open document's.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use ropey::Rope;
use tower_lsp_server::jsonrpc;
use tower_lsp_server::ls_types::*;

use super::config::Config;
use super::convert::{self, Encoding};
use super::documents::{self, AnalysisJob, Needs, SolveState};
use super::event_loop::{Loop, NoRoom};
use super::files::{self, ReadError};
use crate::context::Context;
use crate::pool::on_pool;
use crate::pull::{self, Channel};
use cmg_core::analysis::{MemorySetting, TooLarge};

/// The most files one report covers.
pub const MAX_FILES: usize = 1000;
/// The most bytes one report reads from closed files.
pub const MAX_BYTES: u64 = 256 << 20;

/// What one report may spend on closed files, beyond the first file it reads.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Work units: one per byte read and analysed, one per edge of a game built, and
    /// [`SOLVE_WORK_PER_EDGE`] per edge of a game solved for its `expect`s. A file is
    /// not started once the units are spent, nor solved if its solve would overrun them.
    pub work: u64,
    /// Time since the report began; no file is started after it.
    pub time: Duration,
}

/// The budget of one `workspace/diagnostic` report: about two seconds of a core.
pub const BUDGET: Budget = Budget {
    work: 20_000_000,
    time: Duration::from_secs(2),
};

/// The work units of solving one edge of a game, against one for building it: the
/// solver visits each edge over several rounds.
pub const SOLVE_WORK_PER_EDGE: u64 = 4;

/// Where closed files get the memory they are analysed and solved in: the server's one
/// budget, leased from its scheduler like the open documents' work ([`Loop`]'s
/// `lease_blocking`), so a workspace of large closed files stays inside it.
pub trait Room: Sync {
    /// Room for `bytes`, waited for until `deadline`: held until the lease is dropped.
    fn lease(&self, bytes: u64, deadline: Instant) -> Result<Box<dyn Send>, NoRoom>;
}

impl Room for Loop {
    fn lease(&self, bytes: u64, deadline: Instant) -> Result<Box<dyn Send>, NoRoom> {
        self.lease_blocking(bytes, deadline)
            .map(|lease| Box::new(lease) as Box<dyn Send>)
    }
}

/// What the walk of the folders found: the files by path, and what it left out.
pub struct Found {
    pub files: Vec<PathBuf>,
    /// Why files were left out, for the log.
    pub notes: Vec<String>,
}

/// The `*.cmg` files of `folders`, each once, at most [`MAX_FILES`] of them, as far as
/// the walk gets by `deadline` (a folder such as `/` would take minutes).
pub fn walk(folders: &[PathBuf], deadline: Instant) -> Found {
    let mut found = Found {
        files: Vec::new(),
        notes: Vec::new(),
    };
    for folder in folders {
        let walk = files::cmg_files_until(folder, Some(deadline));
        found.notes.extend(
            walk.errors
                .into_iter()
                .map(|error| format!("cmg: cannot walk {}: {error}", folder.display())),
        );
        found.files.extend(walk.files);
    }
    // Nested workspace folders find the same file twice.
    found.files.sort();
    found.files.dedup();
    if found.files.len() > MAX_FILES {
        found.notes.push(format!(
            "cmg: the workspace has {} .cmg files; workspace diagnostics cover the first {MAX_FILES} by path (open a file to see its diagnostics)",
            found.files.len()
        ));
        found.files.truncate(MAX_FILES);
    }
    found
}

/// What says that a file has not changed since it was read: its size, modification
/// time and identity. Rewriting a file in place within the clock's resolution, at the
/// same size, is the one change it misses.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Stamp {
    len: u64,
    modified: Option<SystemTime>,
    identity: (u64, u64),
}

impl Stamp {
    fn of(path: &Path) -> Option<Stamp> {
        let metadata = std::fs::metadata(path).ok()?;
        #[cfg(unix)]
        let identity = {
            use std::os::unix::fs::MetadataExt;
            (metadata.dev(), metadata.ino())
        };
        #[cfg(not(unix))]
        let identity = (0, 0);
        Some(Stamp {
            len: metadata.len(),
            modified: metadata.modified().ok(),
            identity,
        })
    }
}

/// The hash of each closed file's bytes as last read, with the file's stamp then; and
/// the file the last report stopped at, where the next one starts.
#[derive(Default)]
pub struct Stamps(HashMap<PathBuf, (Stamp, u64)>, Option<PathBuf>);

/// The reports of the closed files `paths` (given with their URIs, sorted by path),
/// answered `unchanged` where `previous` holds their current result id. Starts at the
/// file where the last report stopped, and goes round. Stops when `cancelled` is set
/// (the request was dropped), at [`MAX_BYTES`], and when `budget` is spent (counted
/// from `began`), leaving the rest for the next report.
#[allow(clippy::too_many_arguments)]
pub fn closed_reports(
    paths: Vec<(Uri, PathBuf)>,
    previous: &HashMap<Uri, String>,
    stamps: &mut Stamps,
    config: &Config,
    encoding: Encoding,
    cancelled: &AtomicBool,
    budget: Budget,
    began: Instant,
    room: &dyn Room,
) -> (Vec<WorkspaceDocumentDiagnosticReport>, Option<String>) {
    let mut reports = Vec::new();
    let mut read = 0u64;
    let mut work = 0u64;
    let mut worked = false;
    let limit = config.max_document_bytes as u64;
    // Files gone since the last report are forgotten.
    stamps
        .0
        .retain(|path, _| paths.iter().any(|(_, walked)| walked == path));
    let start = stamps.1.take().map_or(0, |resume| {
        paths.partition_point(|(_, path)| *path < resume)
    });
    for (done, index) in (start..paths.len()).chain(0..start).enumerate() {
        let (uri, path) = &paths[index];
        if cancelled.load(Ordering::Relaxed) {
            stamps.1 = Some(path.clone());
            break;
        }
        let stamp = Stamp::of(path);
        if let (Some(stamp), Some(&(kept, hash))) = (stamp, stamps.0.get(path)) {
            let result_id = hashed_id(hash, config);
            if stamp == kept && previous.get(uri) == Some(&result_id) {
                reports.push(unchanged(uri.clone(), None, result_id));
                continue;
            }
        }
        let left = paths.len() - done;
        if read > MAX_BYTES {
            stamps.1 = Some(path.clone());
            let note = format!(
                "cmg: workspace diagnostics read {read} bytes and stopped there; {left} files are left for the next pull"
            );
            return (reports, Some(note));
        }
        if worked && (work >= budget.work || began.elapsed() >= budget.time) {
            stamps.1 = Some(path.clone());
            let note = format!(
                "cmg: workspace diagnostics spent their budget for one report; {left} files are left for the next pull"
            );
            return (reports, Some(note));
        }
        let (result_id, items) = match files::read_regular_file(path, limit) {
            Ok(bytes) => {
                read += bytes.len() as u64;
                let hash = content_hash(&bytes);
                match stamp {
                    Some(stamp) => stamps.0.insert(path.clone(), (stamp, hash)),
                    None => stamps.0.remove(path),
                };
                let result_id = hashed_id(hash, config);
                if previous.get(uri) == Some(&result_id) {
                    reports.push(unchanged(uri.clone(), None, result_id));
                    continue;
                }
                // Not UTF-8: not a text an editor would open as `.cmg`.
                let Ok(text) = String::from_utf8(bytes) else {
                    continue;
                };
                let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
                work += text.len() as u64;
                // What a solve may spend: the rest of the budget, or anything for the
                // first file.
                let solve_budget = if worked {
                    budget.work.saturating_sub(work)
                } else {
                    u64::MAX
                };
                let rope = Rope::from_str(text);
                let deadline = began + budget.time;
                let (items, spent) = analyse(
                    uri,
                    rope,
                    config,
                    encoding,
                    cancelled,
                    solve_budget,
                    (room, deadline),
                );
                work += spent;
                worked = true;
                let Some(items) = items else {
                    // Its solve would overrun the budget, or the memory it needs did not
                    // come in time: the next report starts with it.
                    stamps.1 = Some(path.clone());
                    stamps.0.remove(path);
                    let note = format!(
                        "cmg: workspace diagnostics spent their budget for one report; {left} files are left for the next pull"
                    );
                    return (reports, Some(note));
                };
                (result_id, items)
            }
            Err(ReadError::TooLarge { size }) => {
                let size = size.unwrap_or(limit + 1);
                let result_id = format!("t{size}-{:x}", settings_digest(config));
                if previous.get(uri) == Some(&result_id) {
                    reports.push(unchanged(uri.clone(), None, result_id));
                    continue;
                }
                let refusal = documents::refusal(size, config.max_document_bytes);
                let items = convert::publishable(uri, &Rope::new(), encoding, &refusal);
                (result_id, items)
            }
            // Gone since the walk, unreadable, or swapped for a pipe: nothing to say.
            Err(_) => continue,
        };
        reports.push(full(uri.clone(), None, result_id, items));
    }
    (reports, None)
}

/// The diagnostics of a closed file in protocol form, as if it were open: analysed
/// with the same limits, and solved (one thread, within the same limits) only when an
/// `expect` needs the outcome; with the work units spent beyond reading the text (see
/// [`Budget`]). The analysis and the solve each lease their memory from `room` first,
/// as an open document's would be reserved; what the budget refuses is said as an open
/// document's diagnostics say it. `None` for the diagnostics when the solve would spend
/// more than `solve_budget` units, or the room did not come by the deadline: the file
/// is left for the next report.
fn analyse(
    uri: &Uri,
    rope: Rope,
    config: &Config,
    encoding: Encoding,
    cancelled: &AtomicBool,
    solve_budget: u64,
    (room, deadline): (&dyn Room, Instant),
) -> (Option<Vec<Diagnostic>>, u64) {
    let mut job = AnalysisJob {
        generation: 0,
        version: 0,
        rope,
        config: config.clone(),
        over_budget: None,
        granted: 0,
    };
    let mut need = documents::analysis_estimate(job.rope.len_bytes(), config);
    // The text's estimate, then, for a text that declares a larger graph, what its
    // parse measured.
    let (analysed, _lease) = loop {
        let lease = match room.lease(need, deadline) {
            Ok(lease) => Some(lease),
            Err(NoRoom::Late) => return (None, 0),
            Err(NoRoom::Refused(over)) => {
                job.over_budget = Some(over);
                None
            }
        };
        job.granted = need;
        let analysed = AnalysisJob {
            rope: job.rope.clone(),
            config: job.config.clone(),
            ..job
        }
        .run();
        match analysed.needs {
            Some(more) if job.over_budget.is_none() && more > need => need = more,
            _ => break (analysed, lease),
        }
    };
    let Some((game, _)) = &analysed.plan.game else {
        let items = documents::publication(uri, &analysed, &analysed.plan.refused, encoding);
        return (Some(items), 0);
    };
    let built = game.edge_count() as u64;
    let analysis = analysed
        .analysis
        .as_ref()
        .expect("a game comes of an analysis");
    // A file with syntax errors has its `expect`s noted as unchecked, solved or not.
    if !analysis.model.expects.is_empty() && analysis.checks_expects() {
        let solve = built.saturating_mul(SOLVE_WORK_PER_EDGE);
        if solve > solve_budget {
            return (None, built);
        }
        let peak = documents::solve_bytes(game);
        let _lease = match room.lease(peak, deadline) {
            Ok(lease) => lease,
            Err(NoRoom::Late) => return (None, built),
            Err(NoRoom::Refused(over)) => {
                let too_large = SolveState::TooLarge(TooLarge::MemoryBudget {
                    nodes: game.node_count(),
                    estimate: peak,
                    budget: over.left,
                    setting: MemorySetting::ServerSetting,
                });
                let items = documents::publication(uri, &analysed, &too_large, encoding);
                return (Some(items), built);
            }
        };
        let solver = cmg_solve::Config {
            threads: Some(1),
            ..cmg_solve::Config::default()
        };
        if let Some(solution) = cmg_solve::solve_with(game, solver, cancelled) {
            let capped = analysis.diagnostics_capped(Some(&solution), None, config.max_diagnostics);
            let items = documents::converted(uri, &analysed, encoding, &capped);
            return (Some(items), built + solve);
        }
    }
    let items = documents::publication(uri, &analysed, &analysed.plan.refused, encoding);
    (Some(items), built)
}

fn content_hash(bytes: &[u8]) -> u64 {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    bytes.hash(&mut hasher);
    hasher.finish()
}

/// A closed file's result id: the hash of its bytes and the settings that shape its
/// diagnostics.
fn hashed_id(hash: u64, config: &Config) -> String {
    format!("h{hash:x}-{:x}", settings_digest(config))
}

/// The diagnostics of every `.cmg` file of the workspace `folders`; see
/// [`super::workspace`]. `stamps` is what the last pull read of each closed file.
pub(crate) async fn handle(
    context: &Context,
    folders: Vec<PathBuf>,
    stamps: Arc<Mutex<Stamps>>,
    params: WorkspaceDiagnosticParams,
) -> jsonrpc::Result<WorkspaceDiagnosticReportResult> {
    let began = std::time::Instant::now();
    let cancelled = CancelOnDrop(Arc::default());
    let state = context.events.workspace().await?;
    let deadline = began + BUDGET.time;
    let found = on_pool("workspace diagnostics", move || walk(&folders, deadline)).await?;
    context.log_warnings(found.notes).await;
    let previous: HashMap<Uri, String> = params
        .previous_result_ids
        .into_iter()
        .map(|previous| (previous.uri, previous.value))
        .collect();
    // The client's spelling of an open document's URI may differ from the one
    // made of its path: they are matched by path.
    let open: HashMap<PathBuf, &Uri> = state
        .open
        .iter()
        .filter_map(|uri| Some((path_of(uri)?, uri)))
        .collect();
    let mut reports = Vec::new();
    let mut closed = Vec::new();
    for path in found.files {
        if let Some(&uri) = open.get(&path) {
            reports.extend(open_report(context, uri, previous.get(uri)).await);
        } else if let Some(uri) = uri_of(&path) {
            closed.push((uri, path));
        }
    }
    let flag = cancelled.0.clone();
    let room = context.events.clone();
    let (closed, note) = on_pool("workspace diagnostics", move || {
        let mut stamps = stamps
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        closed_reports(
            closed,
            &previous,
            &mut stamps,
            &state.config,
            state.encoding,
            &flag,
            BUDGET,
            began,
            &room,
        )
    })
    .await?;
    context.log_warnings(note.into_iter().collect()).await;
    reports.extend(closed);
    Ok(WorkspaceDiagnosticReportResult::Report(
        WorkspaceDiagnosticReport { items: reports },
    ))
}

/// The workspace report of an open document: from its live analysis, as a pull of
/// it would answer; `None` if it changed or closed meanwhile (the client pulls it
/// by itself after an edit).
async fn open_report(
    context: &Context,
    uri: &Uri,
    previous: Option<&String>,
) -> Option<WorkspaceDocumentDiagnosticReport> {
    let snapshot = context.current(uri, Needs::Diagnostics).await.ok()??;
    let result_id = pull::result_id(&snapshot);
    let version = snapshot.version;
    if previous == Some(&result_id) {
        return Some(unchanged(uri.clone(), Some(version), result_id));
    }
    let items = on_pool("diagnostics", move || pull::items(&snapshot))
        .await
        .ok()?;
    if context
        .pulled()
        .answered(uri, Channel::Workspace, version, &items)
    {
        context.refresh_diagnostics();
    }
    Some(full(uri.clone(), Some(version), result_id, items))
}

#[cfg(test)]
fn result_id(bytes: &[u8], config: &Config) -> String {
    hashed_id(content_hash(bytes), config)
}

fn settings_digest(config: &Config) -> u64 {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    (
        config.max_nodes,
        config.max_solver_memory_mib,
        config.max_document_bytes,
        config.max_diagnostics,
    )
        .hash(&mut hasher);
    hasher.finish()
}

/// A full report; `version` for an open document.
pub fn full(
    uri: Uri,
    version: Option<i32>,
    result_id: String,
    items: Vec<Diagnostic>,
) -> WorkspaceDocumentDiagnosticReport {
    WorkspaceDocumentDiagnosticReport::Full(WorkspaceFullDocumentDiagnosticReport {
        uri,
        version: version.map(i64::from),
        full_document_diagnostic_report: FullDocumentDiagnosticReport {
            result_id: Some(result_id),
            items,
        },
    })
}

pub fn unchanged(
    uri: Uri,
    version: Option<i32>,
    result_id: String,
) -> WorkspaceDocumentDiagnosticReport {
    WorkspaceDocumentDiagnosticReport::Unchanged(WorkspaceUnchangedDocumentDiagnosticReport {
        uri,
        version: version.map(i64::from),
        unchanged_document_diagnostic_report: UnchangedDocumentDiagnosticReport { result_id },
    })
}

/// The folders of `initialize`: `workspaceFolders`, else `rootUri`; only `file:` ones.
pub fn folders(params: &InitializeParams) -> Vec<PathBuf> {
    #[allow(deprecated)]
    let root = params.root_uri.iter();
    let uris: Vec<&Uri> = match &params.workspace_folders {
        Some(folders) if !folders.is_empty() => folders.iter().map(|f| &f.uri).collect(),
        _ => root.collect(),
    };
    uris.into_iter().filter_map(path_of).collect()
}

/// The folders after `workspace/didChangeWorkspaceFolders`.
pub fn change_folders(folders: &mut Vec<PathBuf>, event: &WorkspaceFoldersChangeEvent) {
    let removed: Vec<PathBuf> = event
        .removed
        .iter()
        .filter_map(|f| path_of(&f.uri))
        .collect();
    folders.retain(|folder| !removed.contains(folder));
    for added in event.added.iter().filter_map(|f| path_of(&f.uri)) {
        if !folders.contains(&added) {
            folders.push(added);
        }
    }
}

/// The path of a `file:` URI, which the client and the server may spell differently
/// (percent-encoding), so documents are matched by path.
pub fn path_of(uri: &Uri) -> Option<PathBuf> {
    uri.to_file_path().map(|path| path.into_owned())
}

/// The URI of a walked file.
pub fn uri_of(path: &Path) -> Option<Uri> {
    Uri::from_file_path(path)
}

/// Set when the request's future is dropped (the client cancelled it), so that the
/// work on the pool stops between files.
pub struct CancelOnDrop(pub Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests;
