//! The sandbox of a solution and its build, on Linux with Landlock: the code may read
//! the system and its toolchain, and write only in its own folder; it may not bind or
//! connect TCP sockets (Landlock ABI 4 and later), reach abstract UNIX sockets outside
//! the sandbox, or signal processes outside it (ABI 6 and later).
//!
//! `cmg` confines a program by running itself as `cmg __judge-exec DIR -- PROGRAM...`:
//! that process (one thread, so Landlock's per-thread rule covers it whole) restricts
//! itself and then becomes the program, whose children inherit the restriction.

use std::ffi::OsString;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};

use landlock::{
    Access, AccessFs, AccessNet, Ruleset, RulesetAttr, RulesetCreatedAttr, RulesetStatus, Scope,
    ABI,
};

/// The argument that makes `cmg` the confining wrapper.
pub const EXEC: &str = "__judge-exec";

/// What confines the solution on this system.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sandbox {
    /// Landlock, with the ABI version the kernel has.
    Landlock(i32),
    /// Nothing: no Landlock, or `--no-sandbox`.
    None,
}

impl Sandbox {
    /// Landlock where the kernel has it and `wanted`.
    pub fn probe(wanted: bool) -> Sandbox {
        if !wanted {
            return Sandbox::None;
        }
        // SAFETY: landlock_create_ruleset with a null attribute and the VERSION flag only
        // asks the kernel for its ABI version.
        let abi = unsafe {
            libc::syscall(
                libc::SYS_landlock_create_ruleset,
                std::ptr::null::<u8>(),
                0usize,
                1u32,
            )
        };
        if abi >= 1 && std::env::current_exe().is_ok() {
            Sandbox::Landlock(abi as i32)
        } else {
            Sandbox::None
        }
    }

    /// The word `--json` gives.
    pub fn word(self) -> &'static str {
        match self {
            Sandbox::Landlock(_) => "landlock",
            Sandbox::None => "none",
        }
    }

    /// What the report says of it, when it is less than full.
    pub fn caveat(self, turned_off: bool) -> Option<String> {
        match self {
            Sandbox::Landlock(abi) if abi < 4 => Some(format!(
                "the sandbox confines files but not the network (Landlock ABI {abi}; TCP needs 4)"
            )),
            Sandbox::Landlock(_) => None,
            Sandbox::None if turned_off => {
                Some("no sandbox (--no-sandbox): the solution ran with your user's rights".into())
            }
            Sandbox::None => Some(
                "no sandbox: this system has no Landlock (Linux 5.13 or later), so the solution ran with your user's rights"
                    .into(),
            ),
        }
    }

    /// `program` as run inside the sandbox of `dir`.
    pub fn wrap(self, dir: &Path, program: &[String]) -> Vec<OsString> {
        match (self, std::env::current_exe()) {
            (Sandbox::Landlock(_), Ok(cmg)) => {
                let mut wrapped = vec![cmg.into_os_string(), EXEC.into(), dir.into(), "--".into()];
                wrapped.extend(program.iter().map(OsString::from));
                wrapped
            }
            _ => program.iter().map(OsString::from).collect(),
        }
    }
}

/// `cmg __judge-exec DIR -- PROGRAM ARGS...`: confines this process to DIR and becomes
/// PROGRAM. Returns only on failure, with the exit code.
pub fn exec(args: &[OsString]) -> u8 {
    let (Some(dir), Some(rest)) = (args.first(), args.get(1..)) else {
        eprintln!("cmg {EXEC}: expected DIR -- PROGRAM");
        return 125;
    };
    let program = match rest.split_first() {
        Some((dash, program)) if dash == "--" && !program.is_empty() => program,
        _ => {
            eprintln!("cmg {EXEC}: expected DIR -- PROGRAM");
            return 125;
        }
    };
    if let Err(error) = confine(Path::new(dir)) {
        eprintln!("cmg: cannot confine the solution: {error}");
        return 125;
    }
    let error = std::process::Command::new(&program[0])
        .args(&program[1..])
        .exec();
    eprintln!(
        "cmg: cannot run {}: {error}",
        Path::new(&program[0]).display()
    );
    127
}

/// Restricts this thread, and so what it executes, to reading the system and the
/// toolchains and writing in `dir`.
fn confine(dir: &Path) -> Result<(), String> {
    let abi = ABI::V6;
    let read = AccessFs::from_read(abi);
    let ruleset = Ruleset::default()
        .handle_access(AccessFs::from_all(abi))
        .and_then(|r| r.handle_access(AccessNet::from_all(abi)))
        .and_then(|r| r.scope(Scope::from_all(abi)))
        .and_then(Ruleset::create)
        .map_err(|error| error.to_string())?;
    let mut ruleset = ruleset;
    for path in readable() {
        if let Ok(fd) = landlock::PathFd::new(&path) {
            ruleset = ruleset
                .add_rule(landlock::PathBeneath::new(fd, read))
                .map_err(|error| error.to_string())?;
        }
    }
    for device in ["/dev/null", "/dev/zero", "/dev/full"] {
        if let Ok(fd) = landlock::PathFd::new(device) {
            ruleset = ruleset
                .add_rule(landlock::PathBeneath::new(fd, AccessFs::from_file(abi)))
                .map_err(|error| error.to_string())?;
        }
    }
    let fd = landlock::PathFd::new(dir).map_err(|error| error.to_string())?;
    ruleset = ruleset
        .add_rule(landlock::PathBeneath::new(fd, AccessFs::from_all(abi)))
        .map_err(|error| error.to_string())?;
    let status = ruleset.restrict_self().map_err(|error| error.to_string())?;
    if status.ruleset == RulesetStatus::NotEnforced {
        return Err("Landlock is not enforced on this system".into());
    }
    Ok(())
}

/// What the solution may read: the system (every folder at the root but the users'
/// homes, `/root` and the temporary folders) and, wherever they are, its toolchains:
/// the folders on `PATH` and the homes of rustup, cargo, pyenv and Java.
fn readable() -> Vec<PathBuf> {
    let private = [
        "home", "root", "tmp", "var", "mnt", "media", "srv", "run", "proc",
    ];
    let mut paths: Vec<PathBuf> = std::fs::read_dir("/")
        .map(|entries| {
            entries
                .flatten()
                .filter(|entry| !private.contains(&entry.file_name().to_string_lossy().as_ref()))
                .map(|entry| entry.path())
                .collect()
        })
        .unwrap_or_default();
    // The system's own parts of /var (libraries and fonts some runtimes read).
    paths.extend(["/var/lib", "/var/cache/fontconfig"].map(PathBuf::from));
    // Of /proc, this process's own entry (the program keeps its number when this
    // process becomes it) and the system-wide files runtimes read; not the other
    // processes', whose environments hold the user's secrets.
    paths.extend(
        [
            "/proc/self",
            "/proc/cpuinfo",
            "/proc/meminfo",
            "/proc/stat",
            "/proc/sys",
            "/proc/filesystems",
            "/proc/version",
        ]
        .map(PathBuf::from),
    );
    let home = std::env::var_os("HOME").map(PathBuf::from);
    if let Some(path) = std::env::var_os("PATH") {
        for dir in std::env::split_paths(&path) {
            // A tool's own root holds what its `bin` or `shims` starts: ~/.cargo,
            // ~/.pyenv, ~/.nvm/versions/node/vN.
            if let (Some(name), Some(parent)) = (dir.file_name(), dir.parent()) {
                let tool_root = (name == "bin" || name == "shims")
                    && Some(parent) != home.as_deref()
                    && !parent.ends_with(".local")
                    && parent != Path::new("/");
                if tool_root {
                    paths.push(parent.to_path_buf());
                }
            }
            paths.push(dir);
        }
    }
    for (name, default) in [
        ("RUSTUP_HOME", Some(".rustup")),
        ("CARGO_HOME", Some(".cargo")),
        ("PYENV_ROOT", Some(".pyenv")),
        ("JAVA_HOME", None),
    ] {
        let value = std::env::var_os(name)
            .map(PathBuf::from)
            .or_else(|| Some(home.as_ref()?.join(default?)));
        paths.extend(value);
    }
    paths
}
