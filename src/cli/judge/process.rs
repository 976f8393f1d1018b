//! A process of the solution, or of its build, under watch: its own process group, a
//! bounded number of processes, limits set before it starts (address space, file size,
//! CPU time as a backstop, no core dumps), its output drained from pipes that `cmg`
//! owns into bounded tails, and its resident memory and CPU time summed over every
//! process it started. `kill_all` ends every one of them, including those that left
//! the group: the judge is their subreaper, so they come back to it as children.

use std::ffi::CString;
use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::ffi::OsStringExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex};

/// The bounds of one process tree.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// The address space of each process, where the runtime lets it be bounded.
    pub address_space: Option<u64>,
    /// The resident memory of all its processes together.
    pub resident: u64,
    /// The largest file it may write.
    pub file_size: u64,
    /// CPU seconds per process: a backstop should `cmg` itself be killed.
    pub cpu_backstop: u64,
}

/// How many processes (threads count) a solution may have at once, where the system
/// lets that be bounded.
const MAX_PROCESSES: u64 = 128;
/// How much of each output stream is kept: its end.
const TAIL: usize = 16 * 1024;
/// How often the tree's CPU time and memory are looked at.
pub const SAMPLE: std::time::Duration = std::time::Duration::from_millis(100);
/// The longest answer line read from the harness.
pub const MAX_LINE: u64 = 64 * 1024;

/// The end of an output stream, and how much was written in all.
#[derive(Default)]
pub struct Tail {
    total: AtomicUsize,
    end: Mutex<Vec<u8>>,
    closed: AtomicBool,
}

impl Tail {
    pub fn total(&self) -> usize {
        self.total.load(Ordering::Relaxed)
    }

    /// Waits a moment for the stream to close, once its writers are gone.
    pub fn wait_closed(&self) {
        let deadline = std::time::Instant::now() + std::time::Duration::from_millis(500);
        while !self.closed.load(Ordering::Relaxed) && std::time::Instant::now() < deadline {
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
    }

    pub fn text(&self) -> String {
        let end = self.end.lock().map(|end| end.clone()).unwrap_or_default();
        String::from_utf8_lossy(&end).into_owned()
    }

    /// Reads `stream` to its end, keeping the last `TAIL` bytes.
    fn drain(self: Arc<Self>, mut stream: impl Read + Send + 'static) {
        std::thread::spawn(move || {
            let mut buffer = vec![0u8; 8192];
            loop {
                match stream.read(&mut buffer) {
                    Ok(0) => break,
                    Ok(read) => {
                        self.total.fetch_add(read, Ordering::Relaxed);
                        if let Ok(mut end) = self.end.lock() {
                            end.extend_from_slice(&buffer[..read]);
                            if end.len() > 2 * TAIL {
                                let cut = end.len() - TAIL;
                                end.drain(..cut);
                            }
                        }
                    }
                    Err(error) if error.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(_) => break,
                }
            }
            self.closed.store(true, Ordering::Relaxed);
        });
    }
}

/// What comes from the harness on its answer channel.
pub enum Event {
    Line(String),
    TooLong,
    Closed,
}

/// The channels of a run: graphs go in on the solution's descriptor 3, answers come
/// out on its descriptor 4; its own standard input is empty.
pub struct Channels {
    pub graphs: File,
    pub answers: Receiver<Event>,
}

/// What the processes use now.
#[derive(Clone, Copy, Debug, Default)]
pub struct Usage {
    pub cpu_seconds: f64,
    pub resident: u64,
}

/// A started process tree.
pub struct Watched {
    pid: i32,
    /// Its exit status once reaped (`waitpid`'s raw status).
    status: Option<i32>,
    pub stdout: Arc<Tail>,
    pub stderr: Arc<Tail>,
    pub channels: Option<Channels>,
    cgroup: Option<PathBuf>,
    limits: Limits,
    /// The most CPU time seen: the sum drops when a process that ended is reaped.
    cpu_seen: f64,
    /// The last look at the tree, and when it was taken.
    last: Option<(std::time::Instant, Usage)>,
}

/// Makes the judge the subreaper of everything it starts: a process whose parent ends
/// comes back to the judge, not to init, so `kill_all` can find and end it.
pub fn become_subreaper() {
    // SAFETY: prctl with integer arguments only.
    unsafe {
        libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    }
}

fn pipe() -> std::io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    // SAFETY: `fds` has room for the two descriptors.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    // Above the numbers the child is given (3 and 4), so that placing one there never
    // overwrites the other.
    let high = |fd: i32| -> std::io::Result<OwnedFd> {
        // SAFETY: `fd` was just made by pipe2 and is owned here.
        let owned = unsafe { OwnedFd::from_raw_fd(fd) };
        // SAFETY: duplicating an open descriptor.
        let dup = unsafe { libc::fcntl(owned.as_raw_fd(), libc::F_DUPFD_CLOEXEC, 10) };
        if dup < 0 {
            return Err(std::io::Error::last_os_error());
        }
        // SAFETY: `dup` is a new descriptor owned here.
        Ok(unsafe { OwnedFd::from_raw_fd(dup) })
    };
    Ok((high(fds[0])?, high(fds[1])?))
}

/// A cgroup of the pids controller for one process tree, where the system lets `cmg`
/// make one (as root, or in a delegated tree): `pids.max` bounds its processes.
fn make_cgroup() -> Option<PathBuf> {
    let own = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let name = format!(
        "cmg-judge-{}-{}",
        std::process::id(),
        CGROUPS.fetch_add(1, Ordering::Relaxed)
    );
    let mut candidates = Vec::new();
    for line in own.lines() {
        let mut parts = line.splitn(3, ':');
        let (_, controllers, path) = (parts.next()?, parts.next()?, parts.next()?);
        let path = path.trim_start_matches('/');
        if controllers.split(',').any(|c| c == "pids") {
            candidates.push(Path::new("/sys/fs/cgroup/pids").join(path).join(&name));
        } else if controllers.is_empty() {
            candidates.push(Path::new("/sys/fs/cgroup").join(path).join(&name));
        }
    }
    candidates.into_iter().find(|dir| {
        if std::fs::create_dir(dir).is_err() {
            return false;
        }
        let ok = std::fs::write(dir.join("pids.max"), MAX_PROCESSES.to_string()).is_ok()
            && dir.join("cgroup.procs").exists();
        if !ok {
            let _ = std::fs::remove_dir(dir);
        }
        ok
    })
}

static CGROUPS: AtomicUsize = AtomicUsize::new(0);

/// The number of processes and threads of this user now: `RLIMIT_NPROC` counts them all.
fn user_tasks() -> u64 {
    use std::os::unix::fs::MetadataExt;
    // SAFETY: getuid cannot fail.
    let uid = unsafe { libc::getuid() };
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return 0;
    };
    entries
        .flatten()
        .filter(|entry| entry.metadata().is_ok_and(|m| m.uid() == uid))
        .filter_map(|entry| {
            let stat = std::fs::read_to_string(entry.path().join("stat")).ok()?;
            stat_fields(&stat)?.get(17)?.parse::<u64>().ok()
        })
        .sum()
}

/// The fields of a `/proc/PID/stat` line after the command name, from the state on
/// (so field 3 of proc(5) is index 0).
fn stat_fields(stat: &str) -> Option<Vec<&str>> {
    let after = &stat[stat.rfind(')')? + 1..];
    Some(after.split_whitespace().collect())
}

impl Watched {
    /// Starts `program` in `dir` under `limits`, in a process group of its own, with
    /// standard output and error drained into tails, and, for a run, the graph and
    /// answer channels.
    pub fn start(
        mut command: Command,
        limits: Limits,
        with_channels: bool,
    ) -> std::io::Result<Watched> {
        let cgroup = make_cgroup();
        let procs = cgroup.as_ref().and_then(|dir| {
            CString::new(dir.join("cgroup.procs").into_os_string().into_vec()).ok()
        });
        // Without a cgroup, and where the limit holds (not for root), RLIMIT_NPROC.
        // SAFETY: geteuid cannot fail.
        let nproc = (cgroup.is_none() && unsafe { libc::geteuid() } != 0)
            .then(|| user_tasks() + MAX_PROCESSES);
        let (graph_read, graph_write, answer_read, answer_write) = if with_channels {
            let (graph_read, graph_write) = pipe()?;
            let (answer_read, answer_write) = pipe()?;
            (
                Some(graph_read),
                Some(graph_write),
                Some(answer_read),
                Some(answer_write),
            )
        } else {
            (None, None, None, None)
        };
        let child_fds = (
            graph_read.as_ref().map(AsRawFd::as_raw_fd),
            answer_write.as_ref().map(AsRawFd::as_raw_fd),
        );
        command
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        // SAFETY: only async-signal-safe calls between fork and exec: setpgid, prctl,
        // setrlimit, open/write/close on a path made before the fork, dup2.
        unsafe {
            command.pre_exec(move || {
                if libc::setpgid(0, 0) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0);
                if let Some(procs) = &procs {
                    let fd = libc::open(procs.as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC);
                    if fd >= 0 {
                        libc::write(fd, b"0".as_ptr().cast(), 1);
                        libc::close(fd);
                    }
                }
                let set = |resource, value: u64| {
                    let limit = libc::rlimit {
                        rlim_cur: value as libc::rlim_t,
                        rlim_max: value as libc::rlim_t,
                    };
                    libc::setrlimit(resource, &limit)
                };
                if let Some(bytes) = limits.address_space {
                    set(libc::RLIMIT_AS, bytes);
                }
                set(libc::RLIMIT_FSIZE, limits.file_size);
                set(libc::RLIMIT_CORE, 0);
                set(libc::RLIMIT_CPU, limits.cpu_backstop);
                if let Some(nproc) = nproc {
                    set(libc::RLIMIT_NPROC, nproc);
                }
                if let (Some(graphs), Some(answers)) = child_fds {
                    if libc::dup2(graphs, 3) < 0 || libc::dup2(answers, 4) < 0 {
                        return Err(std::io::Error::last_os_error());
                    }
                }
                Ok(())
            });
        }
        let mut child = match command.spawn() {
            Ok(child) => child,
            Err(error) => {
                if let Some(dir) = &cgroup {
                    let _ = std::fs::remove_dir(dir);
                }
                return Err(error);
            }
        };
        // The child's ends are closed here, so that its end of a stream is the only one.
        drop(graph_read);
        drop(answer_write);
        let stdout = Arc::new(Tail::default());
        let stderr = Arc::new(Tail::default());
        if let Some(out) = child.stdout.take() {
            Arc::clone(&stdout).drain(out);
        }
        if let Some(err) = child.stderr.take() {
            Arc::clone(&stderr).drain(err);
        }
        let channels = match (graph_write, answer_read) {
            (Some(graphs), Some(answers)) => Some(Channels {
                graphs: File::from(graphs),
                answers: read_answers(File::from(answers)),
            }),
            _ => None,
        };
        Ok(Watched {
            pid: child.id() as i32,
            status: None,
            stdout,
            stderr,
            channels,
            cgroup,
            limits,
            cpu_seen: 0.0,
            last: None,
        })
    }

    /// Whether the first process has ended (it is reaped then); its raw status.
    pub fn exited(&mut self) -> Option<i32> {
        if self.status.is_none() {
            let mut status = 0;
            // SAFETY: waiting for our own child, without blocking.
            let reaped = unsafe { libc::waitpid(self.pid, &mut status, libc::WNOHANG) };
            if reaped == self.pid {
                self.status = Some(status);
            } else if reaped < 0 {
                // Reaped elsewhere (kill_all): it has ended all the same.
                self.status = Some(0);
            }
        }
        self.status
    }

    /// How the first process ended, in words, if it has.
    pub fn status_words(&mut self) -> Option<String> {
        let status = self.exited()?;
        Some(if libc::WIFSIGNALED(status) {
            let signal = libc::WTERMSIG(status);
            match signal {
                libc::SIGXCPU => "it was stopped after its CPU time ran out".to_owned(),
                libc::SIGKILL => "it was killed (SIGKILL)".to_owned(),
                libc::SIGSEGV => "it crashed: segmentation fault (SIGSEGV)".to_owned(),
                libc::SIGABRT => "it aborted (SIGABRT)".to_owned(),
                libc::SIGXFSZ => "it wrote a file larger than allowed (SIGXFSZ)".to_owned(),
                other => format!("it was ended by signal {other}"),
            }
        } else {
            format!("it exited with status {}", libc::WEXITSTATUS(status))
        })
    }

    /// Every process of the tree: its process group, its cgroup, and the processes
    /// that came back to the judge as their subreaper.
    fn members(&self) -> Vec<(i32, String)> {
        let me = std::process::id() as i32;
        let in_cgroup: Vec<i32> = self
            .cgroup
            .as_ref()
            .and_then(|dir| std::fs::read_to_string(dir.join("cgroup.procs")).ok())
            .map(|text| text.lines().filter_map(|l| l.trim().parse().ok()).collect())
            .unwrap_or_default();
        let Ok(entries) = std::fs::read_dir("/proc") else {
            return Vec::new();
        };
        let mut members = Vec::new();
        for entry in entries.flatten() {
            let Some(pid) = entry
                .file_name()
                .to_str()
                .and_then(|n| n.parse::<i32>().ok())
            else {
                continue;
            };
            let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
                continue;
            };
            let Some(fields) = stat_fields(&stat) else {
                continue;
            };
            let ppid: i32 = fields.get(1).and_then(|f| f.parse().ok()).unwrap_or(0);
            let group: i32 = fields.get(2).and_then(|f| f.parse().ok()).unwrap_or(0);
            // The first process, its group, its cgroup, and what came back to the judge.
            let ours =
                pid == self.pid || group == self.pid || in_cgroup.contains(&pid) || ppid == me;
            if ours {
                members.push((pid, stat));
            }
        }
        members
    }

    /// The CPU time and memory of the whole tree, as of at most `SAMPLE` ago: a look
    /// reads every process's entry in `/proc`, too slow to take for each graph.
    pub fn usage(&mut self) -> Usage {
        match self.last {
            Some((when, usage)) if when.elapsed() < SAMPLE => usage,
            _ => {
                let usage = self.look();
                self.last = Some((std::time::Instant::now(), usage));
                usage
            }
        }
    }

    fn look(&mut self) -> Usage {
        // SAFETY: sysconf cannot fail for these names.
        let ticks = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as f64;
        let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) }.max(1) as u64;
        let mut cpu = 0.0;
        let mut resident = 0;
        for (pid, stat) in self.members() {
            let Some(fields) = stat_fields(&stat) else {
                continue;
            };
            let number = |i: usize| fields.get(i).and_then(|f| f.parse::<u64>().ok());
            // utime, stime, cutime, cstime; rss in pages.
            cpu += (11..=14).filter_map(number).sum::<u64>() as f64 / ticks;
            resident += proportional(pid).unwrap_or_else(|| number(21).unwrap_or(0) * page);
        }
        self.cpu_seen = self.cpu_seen.max(cpu);
        Usage {
            cpu_seconds: self.cpu_seen,
            resident,
        }
    }

    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Ends every process of the tree and reaps those that are the judge's children.
    pub fn kill_all(&mut self) {
        self.channels = None;
        for _ in 0..200 {
            // SAFETY: signals to the tree's group and to its members by pid.
            unsafe {
                libc::kill(-self.pid, libc::SIGKILL);
            }
            let members = self.members();
            let mut alive = 0;
            for (pid, stat) in &members {
                let zombie = stat_fields(stat).is_some_and(|fields| fields.first() == Some(&"Z"));
                // SAFETY: as above; a reaped pid is skipped by waitpid's answer.
                unsafe {
                    if !zombie {
                        libc::kill(*pid, libc::SIGKILL);
                        alive += 1;
                    }
                    let mut status = 0;
                    let reaped = libc::waitpid(*pid, &mut status, libc::WNOHANG);
                    if reaped == self.pid {
                        self.status.get_or_insert(status);
                    }
                }
            }
            if alive == 0 && members.iter().all(|(pid, _)| !is_our_zombie(*pid)) {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        if self.status.is_none() {
            self.status = Some(libc::SIGKILL);
        }
        if let Some(dir) = self.cgroup.take() {
            for _ in 0..100 {
                if std::fs::remove_dir(&dir).is_ok() {
                    break;
                }
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
        }
    }
}

/// The memory of `pid`, with each page it shares counted in part (its PSS), so that the
/// forked processes of a tree are not counted many times over for the pages they share.
fn proportional(pid: i32) -> Option<u64> {
    let rollup = std::fs::read_to_string(format!("/proc/{pid}/smaps_rollup")).ok()?;
    let line = rollup.lines().find(|line| line.starts_with("Pss:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// Whether `pid` is a zombie whose parent is the judge (so not reaped yet).
fn is_our_zombie(pid: i32) -> bool {
    let me = std::process::id().to_string();
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .as_deref()
        .and_then(stat_fields)
        .is_some_and(|fields| fields.first() == Some(&"Z") && fields.get(1) == Some(&me.as_str()))
}

impl Drop for Watched {
    fn drop(&mut self) {
        self.kill_all();
    }
}

/// Reads answer lines from the harness's channel on a thread of its own.
fn read_answers(answers: File) -> Receiver<Event> {
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        let mut reader = BufReader::new(answers);
        loop {
            let mut line = Vec::new();
            match (&mut reader).take(MAX_LINE).read_until(b'\n', &mut line) {
                Ok(0) | Err(_) => {
                    let _ = send.send(Event::Closed);
                    return;
                }
                Ok(_) if line.last() != Some(&b'\n') && line.len() as u64 >= MAX_LINE => {
                    let _ = send.send(Event::TooLong);
                    return;
                }
                Ok(_) => {
                    let text = String::from_utf8_lossy(&line).trim().to_owned();
                    if send.send(Event::Line(text)).is_err() {
                        return;
                    }
                }
            }
        }
    });
    receive
}
