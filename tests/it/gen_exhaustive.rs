//! `cmg gen --exhaustive`: the longest game over every graph on a few nodes, its parts and
//! their merge, and its checkpoint, from the command line.

use std::time::Duration;

use assert_cmd::Command;

fn cmg() -> Command {
    Command::cargo_bin("cmg").expect("the cmg binary is built")
}

/// Runs `cmg ARGS` and returns its exit code, stdout and stderr.
fn run(args: &[&str]) -> (i32, String, String) {
    let output = cmg().args(args).output().expect("cmg runs");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8(output.stdout).expect("UTF-8"),
        String::from_utf8(output.stderr).expect("UTF-8"),
    )
}

/// The graph and its length: the output without the comment lines on how it was made.
fn result_lines(text: &str) -> String {
    text.lines()
        .filter(|line| !line.starts_with("# made by") && !line.starts_with("# ("))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The longest game on 7 nodes is 12 moves, over the 888 graphs with no lonely node; the
/// text checks clean with its `expect`; `--outcome mouse` gives the longest mouse win.
#[test]
fn the_longest_game_on_seven_nodes() {
    let (code, out, err) = run(&["gen", "--nodes", "7", "--exhaustive"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("over all 888 graphs on 7 nodes"), "{out}");
    assert!(out.contains(" wins in 12 moves (plies)"), "{out}");
    let (code, _, err) = run_with_stdin(&["check", "-"], &out);
    assert_eq!(code, 0, "{err}");
    let (code, mouse, _) = run(&["gen", "--nodes", "7", "--exhaustive", "--outcome", "mouse"]);
    assert_eq!(code, 0);
    assert!(mouse.contains("the mouse wins in "), "{mouse}");
    assert!(mouse.ends_with("expect mouse\n"), "{mouse}");
    // The JSON format is the adjacency list alone.
    let (_, json, _) = run(&["gen", "--nodes", "7", "--exhaustive", "--format", "json"]);
    let lists: Vec<Vec<u32>> = serde_json::from_str(&json).unwrap();
    assert_eq!(lists.len(), 7);
    let (code, _, err) = run(&["gen", "--nodes", "13", "--exhaustive"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("3 to 12 nodes"), "{err}");
}

fn run_with_stdin(args: &[&str], stdin: &str) -> (i32, String, String) {
    let output = cmg()
        .args(args)
        .write_stdin(stdin.to_owned())
        .output()
        .unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

/// Three parts, each a record, merge to the graph of the whole search; a missing part,
/// a part given twice and a part of another search are refused.
#[test]
fn parts_merge_to_the_whole() {
    let folder = crate::common::temp_dir::TempDir::new("exhaustive-parts");
    let (_, whole, _) = run(&["gen", "--nodes", "7", "--exhaustive"]);
    let mut paths = Vec::new();
    for k in 1..=3 {
        let part = format!("{k}/3");
        let (code, record, err) = run(&["gen", "--nodes", "7", "--exhaustive", "--part", &part]);
        assert_eq!(code, 0, "{err}");
        let path = folder.path().join(format!("part{k}.json"));
        std::fs::write(&path, record).unwrap();
        paths.push(path.to_str().unwrap().to_owned());
    }
    let mut args = vec!["gen", "--merge"];
    args.extend(paths.iter().map(String::as_str));
    let (code, merged, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    assert_eq!(result_lines(&merged), result_lines(&whole));
    assert!(merged.starts_with("# made by: cmg gen --merge"), "{merged}");
    let (code, _, err) = run(&["gen", "--merge", &paths[0], &paths[2]]);
    assert_eq!(code, 2);
    assert!(err.contains("lacks part 2/3"), "{err}");
    let (code, _, err) = run(&["gen", "--merge", &paths[0], &paths[0], &paths[2]]);
    assert_eq!(code, 2);
    assert!(err.contains("are both part 1 of 3"), "{err}");
    let (_, other, _) = run(&["gen", "--nodes", "6", "--exhaustive", "--part", "2/3"]);
    let other_path = folder.path().join("other.json");
    std::fs::write(&other_path, other).unwrap();
    let (code, _, err) = run(&[
        "gen",
        "--merge",
        &paths[0],
        other_path.to_str().unwrap(),
        &paths[2],
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("another search"), "{err}");
}

/// A finished checkpoint answers at once with the same graph; one of another search is
/// refused; Ctrl-C keeps the tasks done in it and says how to resume.
#[test]
fn a_checkpoint_keeps_the_work_done() {
    let folder = crate::common::temp_dir::TempDir::new("exhaustive-checkpoint");
    let checkpoint = folder.path().join("seven.json");
    let checkpoint = checkpoint.to_str().unwrap();
    let args = [
        "gen",
        "--nodes",
        "7",
        "--exhaustive",
        "--checkpoint",
        checkpoint,
    ];
    let (code, first, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    let record: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(checkpoint).unwrap()).unwrap();
    assert_eq!(record["graphs"], 888, "{record}");
    let (code, again, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    assert_eq!(result_lines(&again), result_lines(&first));
    let (code, _, err) = run(&[
        "gen",
        "--nodes",
        "8",
        "--exhaustive",
        "--checkpoint",
        checkpoint,
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("checkpoint of another search"), "{err}");

    let interrupted = folder.path().join("ten.json");
    let output = crate::common::signal::interrupted(
        &[
            "gen",
            "--nodes",
            "10",
            "--exhaustive",
            "--checkpoint",
            interrupted.to_str().unwrap(),
        ],
        "INT",
        Duration::from_millis(1500),
    );
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(output.status.code(), Some(130), "{stderr}");
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(
        stdout.starts_with("# interrupted (SIGINT) after "),
        "{stdout}"
    );
    assert!(
        stderr.contains("the same command resumes the search"),
        "{stderr}"
    );
    let record: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&interrupted).unwrap()).unwrap();
    let done: u64 = record["done"]
        .as_array()
        .unwrap()
        .iter()
        .map(|range| range[1].as_u64().unwrap() + 1 - range[0].as_u64().unwrap())
        .sum();
    assert!(done < record["tasks"].as_u64().unwrap(), "{record}");
}

/// Ctrl-C (SIGINT) or SIGTERM stops a whole search, checkpoint or not, with the longest
/// game of the graphs looked at so far: marked as no proof by exhaustion in the text, and
/// `complete: false` in JSON (an object, not the bare list a finished search prints); the
/// exit code is the shell's for the signal. (Ten nodes take minutes; the signal comes
/// after 1.5 s.)
#[test]
fn a_signal_prints_the_best_so_far_marked_as_no_proof() {
    let search = ["gen", "--nodes", "10", "--exhaustive"];
    let output = crate::common::signal::interrupted(&search, "INT", Duration::from_millis(1500));
    let (stdout, stderr) = (
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    );
    assert_eq!(output.status.code(), Some(130), "{stderr}");
    assert!(
        stdout.starts_with("# interrupted (SIGINT) after "),
        "{stdout}"
    );
    assert!(stdout.contains("NOT a proof by exhaustion"), "{stdout}");
    assert!(
        stdout.contains("# not exhaustive: interrupted after "),
        "{stdout}"
    );
    assert!(!stdout.contains("one per isomorphism class"), "{stdout}");
    assert!(stderr.contains("not a proof"), "{stderr}");
    // The graph is what it claims: its `expect` holds, and its game is as long as said.
    let (code, solved, err) = run_with_stdin(&["solve", "--json", "-"], &stdout);
    assert_eq!(code, 0, "{err}");
    let solved: serde_json::Value = serde_json::from_str(&solved).unwrap();
    let claimed = stdout
        .lines()
        .find_map(|line| line.split(" wins in ").nth(1))
        .and_then(|rest| rest.split(' ').next())
        .and_then(|moves| moves.parse::<u64>().ok())
        .expect("a length comment");
    assert_eq!(solved["moves"], claimed, "{stdout}");

    let json: Vec<&str> = search.iter().copied().chain(["--format", "json"]).collect();
    let output = crate::common::signal::interrupted(&json, "TERM", Duration::from_millis(1500));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(output.status.code(), Some(143), "{stderr}");
    let found: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(found["complete"], false, "{found}");
    assert_eq!(found["interrupted"], "SIGTERM", "{found}");
    assert!(found["graphs"].as_u64().unwrap() > 0, "{found}");
    assert!(
        found["tasks_done"].as_u64().unwrap() < found["tasks"].as_u64().unwrap(),
        "{found}"
    );
    assert_eq!(found["adjacency"].as_array().unwrap().len(), 10, "{found}");
    assert!(found["moves"].as_u64().unwrap() > 0, "{found}");
}

/// The merge is a proof checker: a part that did not finish, a part that claims another
/// part's tasks, a changed length and a count of graphs that does not add up to the
/// graphs there are (888 on 7 nodes with no node alone) are each refused, with exit 2.
#[test]
fn the_merge_checks_every_claim() {
    let folder = crate::common::temp_dir::TempDir::new("exhaustive-claims");
    let mut records = Vec::new();
    for k in 1..=3 {
        let part = format!("{k}/3");
        let (code, record, err) = run(&["gen", "--nodes", "7", "--exhaustive", "--part", &part]);
        assert_eq!(code, 0, "{err}");
        records.push(serde_json::from_str::<serde_json::Value>(&record).unwrap());
    }
    let merge = |records: &[serde_json::Value]| {
        let mut args = vec!["gen".to_owned(), "--merge".to_owned()];
        for (i, record) in records.iter().enumerate() {
            let path = folder.path().join(format!("part{i}.json"));
            std::fs::write(&path, record.to_string()).unwrap();
            args.push(path.to_str().unwrap().to_owned());
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        run(&args)
    };
    let (code, _, err) = merge(&records);
    assert_eq!(code, 0, "{err}");
    let changed = |edit: &dyn Fn(&mut serde_json::Value)| {
        let mut records = records.clone();
        edit(&mut records[0]);
        merge(&records)
    };
    // A length that the graph does not have.
    let (code, _, err) = changed(&|record| {
        if record["best"].is_null() {
            record["best"] = records[1]["best"].clone();
        }
        record["best"]["moves"] = 99.into();
    });
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("solved again"), "{err}");
    // One graph fewer than there are.
    let (code, _, err) = changed(&|record| {
        record["graphs"] = (record["graphs"].as_u64().unwrap() - 1).into();
    });
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("but there are 888 on 7 nodes"), "{err}");
    // Another part's task instead of one of its own: as many tasks as it should have.
    let (code, _, err) = changed(&|record| {
        assert_eq!(record["done"][0], serde_json::json!([0, 0]));
        record["done"][0] = serde_json::json!([1, 1]);
    });
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("not one of part 1/3's own"), "{err}");
    // A part stopped half-way.
    let (code, _, err) = changed(&|record| {
        let done = record["done"].as_array_mut().unwrap();
        done.truncate(done.len() / 2);
    });
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("tasks done: finish it"), "{err}");
}

/// `--part auto/M` takes the part from the scheduler's array index (here GNU parallel's
/// job number, from 1, and a Kubernetes Indexed Job's, from 0), says which it used, and
/// is the same part as `--part K/M`; with no index set it is an error.
#[test]
fn a_part_from_the_schedulers_index() {
    const INDEXES: [&str; 5] = [
        "SLURM_ARRAY_TASK_ID",
        "SLURM_ARRAY_TASK_MIN",
        "JOB_COMPLETION_INDEX",
        "AWS_BATCH_JOB_ARRAY_INDEX",
        "PARALLEL_SEQ",
    ];
    let run_with = |part: &str, vars: &[(&str, &str)]| {
        let mut command = cmg();
        command.args(["gen", "--nodes", "6", "--exhaustive", "--part", part]);
        for name in INDEXES {
            command.env_remove(name);
        }
        for (name, value) in vars {
            command.env(name, value);
        }
        let output = command.output().unwrap();
        (
            output.status.code().unwrap_or(-1),
            String::from_utf8(output.stdout).unwrap(),
            String::from_utf8(output.stderr).unwrap(),
        )
    };
    let (code, given, _) = run_with("2/3", &[]);
    assert_eq!(code, 0);
    let (code, parallel, err) = run_with("auto/3", &[("PARALLEL_SEQ", "2")]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("part 2/3, from PARALLEL_SEQ"), "{err}");
    let (code, kubernetes, _) = run_with("auto/3", &[("JOB_COMPLETION_INDEX", "1")]);
    assert_eq!(code, 0);
    // The records differ only in the seconds they took.
    let tasks = |record: &str| {
        let mut value: serde_json::Value = serde_json::from_str(record).unwrap();
        value["seconds"] = 0.into();
        value
    };
    assert_eq!(tasks(&parallel), tasks(&given));
    assert_eq!(tasks(&kubernetes), tasks(&given));
    let (code, _, err) = run_with("auto/3", &[]);
    assert_eq!(code, 2);
    assert!(err.contains("needs a scheduler's index"), "{err}");
    let (code, _, err) = run_with("auto/3", &[("AWS_BATCH_JOB_ARRAY_INDEX", "3")]);
    assert_eq!(code, 2);
    assert!(
        err.contains("makes this part 4, not one of 1 to 3"),
        "{err}"
    );
}

/// nauty's `geng` (Debian's `nauty-geng`), an enumerator written independently of
/// cmg's, gives the same count of graphs and the same longest game as the built-in
/// enumerator, on 3 to 8 nodes (9 with `CMG_SLOW_TESTS`).
#[test]
fn an_independent_enumerator_gives_the_same_longest_games() {
    let geng = ["nauty-geng", "geng"]
        .into_iter()
        .find(|name| {
            std::process::Command::new(name)
                .arg("-help")
                .output()
                .is_ok()
        })
        .expect("nauty's geng is installed (.ci/run installs Debian's nauty)");
    let largest = if std::env::var_os("CMG_SLOW_TESTS").is_some() {
        9
    } else {
        8
    };
    for nodes in 3..=largest {
        let n = nodes.to_string();
        let graphs = std::process::Command::new(geng)
            .args(["-q", "-d1", &n])
            .output()
            .unwrap();
        assert!(graphs.status.success());
        let graph6 = String::from_utf8(graphs.stdout).unwrap();
        let (code, theirs, err) = run_with_stdin(
            &["gen", "--nodes", &n, "--exhaustive", "--graph6", "-"],
            &graph6,
        );
        assert_eq!(code, 0, "{nodes} nodes: {err}");
        let (code, ours, err) = run(&["gen", "--nodes", &n, "--exhaustive"]);
        assert_eq!(code, 0, "{nodes} nodes: {err}");
        // The count and the length (the graph itself may be another of the same
        // length, as each enumerator labels its classes its own way).
        let summary = |text: &str| -> Vec<String> {
            text.lines()
                .filter(|line| line.contains("graphs on") || line.contains(" wins in "))
                .map(str::to_owned)
                .collect()
        };
        assert_eq!(
            summary(&theirs),
            summary(&ours),
            "{nodes} nodes:\n{theirs}\n{ours}"
        );
        assert_eq!(summary(&ours).len(), 2, "{ours}");
    }
}

/// A real engine: GNU parallel runs an 8-node search as 8 parts, each taking its part
/// from parallel's job number (`--part auto/8`), and their merge is the unsplit search.
#[test]
fn gnu_parallel_runs_the_parts_and_they_merge_to_the_whole() {
    let folder = crate::common::temp_dir::TempDir::new("exhaustive-parallel");
    let cmg = assert_cmd::cargo::cargo_bin("cmg");
    let dir = folder.path().to_str().unwrap().to_owned();
    let job = format!(
        "{} gen --nodes 8 --exhaustive --part auto/8 > {dir}/part-{{}}.json",
        cmg.display()
    );
    let status = std::process::Command::new("parallel")
        .args([
            "--will-cite",
            "-j",
            "2",
            &job,
            ":::",
            "1",
            "2",
            "3",
            "4",
            "5",
            "6",
            "7",
            "8",
        ])
        .env_remove("PARALLEL_SEQ")
        .status()
        .expect("GNU parallel is installed (.ci/run installs Debian's parallel)");
    assert!(status.success());
    let mut args = vec!["gen".to_owned(), "--merge".to_owned()];
    for k in 1..=8 {
        args.push(format!("{dir}/part-{k}.json"));
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, merged, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    let (_, whole, _) = run(&["gen", "--nodes", "8", "--exhaustive"]);
    assert_eq!(result_lines(&merged), result_lines(&whole));
    assert!(
        merged.contains("over all 11302 graphs on 8 nodes"),
        "{merged}"
    );
}

/// A part stopped half-way by a signal keeps its tasks in its checkpoint; the merge
/// refuses that checkpoint until the part is finished.
#[test]
fn the_merge_refuses_a_part_stopped_half_way() {
    let folder = crate::common::temp_dir::TempDir::new("exhaustive-stopped");
    let checkpoint = folder.path().join("part-1.json");
    let checkpoint = checkpoint.to_str().unwrap();
    let mut part = std::process::Command::new(assert_cmd::cargo::cargo_bin("cmg"))
        .args(["gen", "--nodes", "10", "--exhaustive", "--threads", "1"])
        .args(["--part", "1/2", "--checkpoint", checkpoint])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_secs(2));
    std::process::Command::new("kill")
        .args(["-INT", &part.id().to_string()])
        .status()
        .unwrap();
    let status = part.wait().unwrap();
    assert_eq!(status.code(), Some(130));
    let record: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(checkpoint).unwrap()).unwrap();
    let done: u64 = record["done"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r[1].as_u64().unwrap() - r[0].as_u64().unwrap() + 1)
        .sum();
    let tasks = record["tasks"].as_u64().unwrap();
    assert!(
        done > 0 && done < tasks.div_ceil(2),
        "stopped half-way: {record}"
    );
    let (code, _, err) = run(&["gen", "--merge", checkpoint]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("tasks done: finish it"), "{err}");
}

/// A part that runs long is split further (`--split J/S`) without redoing the others:
/// part 1 whole and part 2 as three sub-parts merge to the whole search; a sub-part
/// missing, or a sub-part beside its whole part, is refused.
#[test]
fn a_straggler_splits_into_sub_parts_that_merge() {
    let folder = crate::common::temp_dir::TempDir::new("exhaustive-split");
    let write = |name: &str, args: &[&str]| {
        let mut all = vec!["gen", "--nodes", "8", "--exhaustive"];
        all.extend(args);
        let (code, record, err) = run(&all);
        assert_eq!(code, 0, "{err}");
        let path = folder.path().join(name);
        std::fs::write(&path, record).unwrap();
        path.to_str().unwrap().to_owned()
    };
    let one = write("one.json", &["--part", "1/2"]);
    let two = write("two.json", &["--part", "2/2"]);
    let subs: Vec<String> = (1..=3)
        .map(|j| {
            write(
                &format!("two-{j}.json"),
                &["--part", "2/2", "--split", &format!("{j}/3")],
            )
        })
        .collect();
    let (_, whole, _) = run(&["gen", "--nodes", "8", "--exhaustive"]);
    let merge = |paths: &[&String]| {
        let mut args = vec!["gen", "--merge"];
        args.extend(paths.iter().map(|p| p.as_str()));
        run(&args)
    };
    let (code, merged, err) = merge(&[&one, &subs[0], &subs[1], &subs[2]]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(result_lines(&merged), result_lines(&whole));
    let (code, _, err) = merge(&[&one, &subs[0], &subs[2]]);
    assert_eq!(code, 2);
    assert!(err.contains("a part or a sub-part is missing"), "{err}");
    let (code, _, err) = merge(&[&one, &two, &subs[1]]);
    assert_eq!(code, 2);
    assert!(err.contains("overlapping parts"), "{err}");
    let (code, _, err) = run(&[
        "gen",
        "--nodes",
        "8",
        "--exhaustive",
        "--part",
        "1/2",
        "--split",
        "4/3",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("--split must be J/S"), "{err}");
}
