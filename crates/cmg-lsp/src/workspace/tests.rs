//! The workspace's pull of diagnostics, from the inside: the walk, the budgets and
//! the reports of closed files.

use super::*;

/// A budget with room for anything.
struct Unbounded;

impl Room for Unbounded {
    fn lease(&self, _: u64, _: Instant) -> Result<Box<dyn Send>, NoRoom> {
        Ok(Box::new(()))
    }
}

/// A budget with room for `0` bytes at a time, whose leases the test counts; what
/// does not fit is refused, or late when `late`.
struct Tight(u64, bool, std::sync::Mutex<Vec<u64>>);

impl Room for Tight {
    fn lease(&self, bytes: u64, _: Instant) -> Result<Box<dyn Send>, NoRoom> {
        self.2.lock().unwrap().push(bytes);
        match (bytes <= self.0, self.1) {
            (true, _) => Ok(Box::new(())),
            (false, true) => Err(NoRoom::Late),
            (false, false) => Err(NoRoom::Refused(documents::OverBudget {
                estimate: bytes,
                left: self.0,
                budget: self.0,
            })),
        }
    }
}

/// A closed file's analysis and solve lease their memory from the server's budget
/// first, as an open document's are reserved: what it refuses is said as for an
/// open document, and what comes late is left for the next report.
#[test]
fn closed_files_lease_their_memory_from_the_budget() {
    let root = std::env::temp_dir().join(format!("cmg-room-{}", std::process::id()));
    std::fs::create_dir_all(&root).unwrap();
    let path = root.join("a.cmg");
    let chain: String = (0..200).map(|i| format!("{i} -- ")).collect();
    std::fs::write(&path, format!("{chain}200\nexpect cat\n")).unwrap();
    let uri = uri_of(&path).unwrap();
    let config = Config::default();
    let text =
        documents::analysis_estimate(std::fs::metadata(&path).unwrap().len() as usize, &config);
    let report = |room: &Tight| {
        let cancelled = AtomicBool::new(false);
        let (reports, note) = closed_reports(
            vec![(uri.clone(), path.clone())],
            &HashMap::new(),
            &mut Stamps::default(),
            &config,
            Encoding::Utf16,
            &cancelled,
            BUDGET,
            Instant::now(),
            room,
        );
        let messages: Vec<String> = reports
            .into_iter()
            .flat_map(|report| match report {
                WorkspaceDocumentDiagnosticReport::Full(full) => {
                    full.full_document_diagnostic_report.items
                }
                WorkspaceDocumentDiagnosticReport::Unchanged(_) => Vec::new(),
            })
            .map(|diagnostic| diagnostic.message)
            .collect();
        (messages, note, room.2.lock().unwrap().clone())
    };
    // Room for everything: the analysis, then the solve, and the outcome checked.
    let (messages, note, leases) = report(&Tight(u64::MAX, false, Default::default()));
    assert_eq!(note, None);
    assert_eq!(leases.len(), 2, "{leases:?}");
    assert_eq!(leases[0], text);
    assert!(
        messages.iter().any(|m| m.contains("expect")),
        "{messages:?}"
    );
    // Room for the analysis only: the solve is refused, and the file says so.
    let (messages, _, _) = report(&Tight(text, false, Default::default()));
    assert!(
        messages.iter().any(|m| m.contains("memory budget")),
        "{messages:?}"
    );
    // No room at all: the analysis is refused, and the file says so.
    let (messages, _, leases) = report(&Tight(0, false, Default::default()));
    assert_eq!(leases, [text]);
    assert!(
        messages.iter().any(|m| m.contains("memory budget")),
        "{messages:?}"
    );
    // Room that comes too late: the file is left for the next report.
    let (messages, note, _) = report(&Tight(0, true, Default::default()));
    assert!(messages.is_empty());
    assert!(note.is_some_and(|note| note.contains("left for the next pull")));
    std::fs::remove_dir_all(&root).unwrap();
}

fn folder(uri: &str) -> WorkspaceFolder {
    WorkspaceFolder {
        uri: uri.parse().unwrap(),
        name: String::new(),
    }
}

#[test]
fn the_folders_are_the_workspace_folders_else_the_root_and_follow_changes() {
    #[allow(deprecated)]
    let mut params = InitializeParams {
        root_uri: Some("file:///root".parse().unwrap()),
        ..InitializeParams::default()
    };
    assert_eq!(folders(&params), [PathBuf::from("/root")]);
    params.workspace_folders = Some(vec![folder("file:///a"), folder("file:///b%20c")]);
    let mut current = folders(&params);
    assert_eq!(current, [PathBuf::from("/a"), PathBuf::from("/b c")]);
    change_folders(
        &mut current,
        &WorkspaceFoldersChangeEvent {
            added: vec![folder("file:///d"), folder("file:///a")],
            removed: vec![folder("file:///b%20c")],
        },
    );
    assert_eq!(current, [PathBuf::from("/a"), PathBuf::from("/d")]);
}

#[test]
fn the_walk_stops_at_its_deadline_and_says_so() {
    let root = std::env::temp_dir().join(format!("cmg-walk-{}", std::process::id()));
    std::fs::create_dir_all(&root).unwrap();
    std::fs::write(root.join("a.cmg"), "0 -- 1\n").unwrap();
    let later = Instant::now() + Duration::from_secs(3600);
    assert_eq!(walk(std::slice::from_ref(&root), later).files.len(), 1);
    let found = walk(std::slice::from_ref(&root), Instant::now());
    assert!(found.files.is_empty());
    assert!(
        found.notes[0].contains("stopped at its time limit"),
        "{:?}",
        found.notes
    );
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn a_closed_file_id_changes_with_its_bytes_and_with_the_settings_that_shape_it() {
    let config = Config::default();
    let id = result_id(b"0 -- 1\n", &config);
    assert_eq!(id, result_id(b"0 -- 1\n", &config));
    assert_ne!(id, result_id(b"0 -- 2\n", &config));
    let capped = Config {
        max_diagnostics: 1,
        ..Config::default()
    };
    assert_ne!(id, result_id(b"0 -- 1\n", &capped));
}

fn report_ids(reports: &[WorkspaceDocumentDiagnosticReport]) -> Vec<(bool, String)> {
    reports
        .iter()
        .map(|report| match report {
            WorkspaceDocumentDiagnosticReport::Full(full) => (
                true,
                full.full_document_diagnostic_report
                    .result_id
                    .clone()
                    .unwrap(),
            ),
            WorkspaceDocumentDiagnosticReport::Unchanged(same) => (
                false,
                same.unchanged_document_diagnostic_report.result_id.clone(),
            ),
        })
        .collect()
}

#[test]
fn a_closed_file_whose_stamp_has_not_moved_is_not_read_again() {
    let root = std::env::temp_dir().join(format!("cmg-stamps-{}", std::process::id()));
    std::fs::create_dir_all(&root).unwrap();
    let path = root.join("a.cmg");
    std::fs::write(&path, "0 -- 1 -- 2\n").unwrap();
    let uri = uri_of(&path).unwrap();
    let config = Config::default();
    let mut stamps = Stamps::default();
    let pull = |previous: &HashMap<Uri, String>, stamps: &mut Stamps| {
        let paths = vec![(uri.clone(), path.clone())];
        let cancelled = AtomicBool::new(false);
        let (reports, note) = closed_reports(
            paths,
            previous,
            stamps,
            &config,
            Encoding::Utf16,
            &cancelled,
            BUDGET,
            Instant::now(),
            &Unbounded,
        );
        assert_eq!(note, None);
        report_ids(&reports)
    };
    let [(true, first)] = &pull(&HashMap::new(), &mut stamps)[..] else {
        panic!("the first pull is a full report");
    };
    let previous = HashMap::from([(uri.clone(), first.clone())]);
    assert_eq!(pull(&previous, &mut stamps), [(false, first.clone())]);

    // Rewritten in place at the same size, with the old modification time put back:
    // the stamp has not moved, so the file is not read and the answer is `unchanged`.
    let modified = std::fs::metadata(&path).unwrap().modified().unwrap();
    std::fs::write(&path, "0 -- 1 -- 3\n").unwrap();
    let file = std::fs::File::options().write(true).open(&path).unwrap();
    file.set_modified(modified).unwrap();
    assert_eq!(pull(&previous, &mut stamps), [(false, first.clone())]);
    // Without the kept stamps it is read, and its new bytes give a new id.
    let [(true, second)] = &pull(&previous, &mut Stamps::default())[..] else {
        panic!("a file read again with new bytes is a full report");
    };
    assert_ne!(second, first);
    // A new modification time is a change, whatever the size.
    file.set_modified(modified + std::time::Duration::from_secs(1))
        .unwrap();
    assert_eq!(pull(&previous, &mut stamps), [(true, second.clone())]);
    std::fs::remove_dir_all(&root).unwrap();
}

/// Files whose `expect` needs a solve, each of the same size and game: a report
/// stops when its budget is spent, leaves the rest for the next one, which starts
/// where it stopped, and every report covers at least one file.
#[test]
fn a_report_stops_at_its_budget_and_the_next_goes_on_from_there() {
    let root = std::env::temp_dir().join(format!("cmg-budget-{}", std::process::id()));
    std::fs::create_dir_all(&root).unwrap();
    let chain: String = (0..60).map(|i| format!("{i} -- ")).collect();
    let paths: Vec<(Uri, PathBuf)> = (0..12)
        .map(|i| {
            let path = root.join(format!("{i:02}.cmg"));
            std::fs::write(&path, format!("# {i:02}\n{chain}60\nexpect cat\n")).unwrap();
            (uri_of(&path).unwrap(), path)
        })
        .collect();
    let bytes = std::fs::metadata(&paths[0].1).unwrap().len();
    // A file's work: its bytes, its 60 edges built and solved.
    let file = bytes + 60 * (1 + SOLVE_WORK_PER_EDGE);
    let config = Config::default();
    let covered = |budget: Budget| {
        let mut stamps = Stamps::default();
        let mut previous = HashMap::new();
        let mut fulls = Vec::new();
        loop {
            let cancelled = AtomicBool::new(false);
            let (reports, _) = closed_reports(
                paths.clone(),
                &previous,
                &mut stamps,
                &config,
                Encoding::Utf16,
                &cancelled,
                budget,
                Instant::now(),
                &Unbounded,
            );
            let ids = report_ids(&reports);
            let full = ids.iter().filter(|(full, _)| *full).count();
            if full == 0 {
                assert_eq!(ids.len(), paths.len(), "all unchanged at the end");
                return fulls;
            }
            fulls.push(full);
            for (report, (_, id)) in reports.iter().zip(ids) {
                let uri = match report {
                    WorkspaceDocumentDiagnosticReport::Full(full) => &full.uri,
                    WorkspaceDocumentDiagnosticReport::Unchanged(same) => &same.uri,
                };
                previous.insert(uri.clone(), id);
            }
            assert!(fulls.len() <= paths.len(), "no progress");
        }
    };
    let hour = Duration::from_secs(3600);
    // Room for two files and a half: the third is read, and not solved.
    let two = Budget {
        work: file * 5 / 2,
        time: hour,
    };
    assert_eq!(covered(two), [2; 6]);
    // Nothing to spend: one file a report, the one it must do.
    let none = Budget {
        work: 0,
        time: hour,
    };
    assert_eq!(covered(none), [1; 12]);
    let no_time = Budget {
        work: u64::MAX,
        time: Duration::ZERO,
    };
    assert_eq!(covered(no_time), [1; 12]);
    assert_eq!(covered(BUDGET), [12]);
    // A client that sends no previous result ids gets every file in turn too.
    let mut stamps = Stamps::default();
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..paths.len() {
        let cancelled = AtomicBool::new(false);
        let (reports, _) = closed_reports(
            paths.clone(),
            &HashMap::new(),
            &mut stamps,
            &config,
            Encoding::Utf16,
            &cancelled,
            none,
            Instant::now(),
            &Unbounded,
        );
        for report in reports {
            if let WorkspaceDocumentDiagnosticReport::Full(full) = report {
                seen.insert(full.uri.as_str().to_owned());
            }
        }
    }
    assert_eq!(seen.len(), paths.len(), "a file is never reached");
    std::fs::remove_dir_all(&root).unwrap();
}
