//! `cmg view`: the game view, served on 127.0.0.1 and following the file as it is saved, or exported as an SVG picture.

use std::io::Write;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use notify::{EventKind, RecursiveMode, Watcher};
use tiny_http::{Header, Request, Response, Server};

use super::input::read_source;
use super::{CliError, CliResult};
use cmg_core::analysis::Analysis;
use cmg_core::model::Graph;
use cmg_ide::view::{parse_turn, scene, slice, svg, Positions, Scene, MAX_VIEW_NODES};
use cmg_solve::{solve, Solution};

/// The page and its bundle, built from `web/` (see `web/ci.sh`, which checks that these
/// committed files match a fresh build).
const INDEX_HTML: &str = include_str!("../../web/src/index.html");
const VIEW_JS: &str = include_str!("../../web/dist/view.js");
const VIEW_CSS: &str = include_str!("../../web/dist/view.css");

/// At most this many pages follow the file at once; each holds a thread.
const MAX_FOLLOWERS: usize = 32;

/// A following page is sent a comment this often, so that a closed one is noticed.
const KEEPALIVE: Duration = Duration::from_secs(15);

/// Editors save in bursts (truncate, write, rename); changes this close are read once.
const SETTLE: Duration = Duration::from_millis(50);

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The file to show.
    file: String,
    /// Serve the page without opening a browser.
    #[arg(long)]
    no_open: bool,
    /// The port on 127.0.0.1 to serve on; a free one when absent.
    #[arg(long, default_value_t = 0)]
    port: u16,
    /// Write the picture as SVG to this file instead of serving the page.
    #[arg(long, value_name = "OUT.svg")]
    export: Option<String>,
}

pub fn run(options: &Args) -> CliResult {
    if let Some(out) = &options.export {
        let (scene, _) = scene_of(&options.file, &Positions::new())?;
        std::fs::write(out, svg::to_svg(&scene))
            .map_err(|error| CliError(format!("cannot write {out}: {error}")))?;
        return Ok(ExitCode::SUCCESS);
    }
    if options.file == "-" {
        return Err(CliError(
            "cmg view follows a file as it changes: give a path, not `-` (or use --export)"
                .to_owned(),
        ));
    }
    serve(options)
}

/// What `/slice` answers from: the graph of the current scene and its solution.
type Solved = Arc<(Graph, Option<Solution>)>;

/// The scene of the file at `path`, laid out from `previous`, and what its slices are cut
/// from. The game is solved only when the view will draw it.
fn scene_of(path: &str, previous: &Positions) -> Result<(Scene, Solved), CliError> {
    let source = read_source(path)?;
    let analysis = Analysis::new(source.text);
    let solution = analysis
        .game()
        .filter(|game| game.node_count() <= MAX_VIEW_NODES)
        .map(|game| solve(&game));
    let scene = scene(&analysis, solution.as_ref(), previous);
    Ok((scene, Arc::new((analysis.model.graph, solution))))
}

/// The latest scene as JSON, with a generation number that grows on every change.
struct Current {
    generation: u64,
    json: String,
    positions: Positions,
    solved: Solved,
}

struct Shared {
    current: Mutex<Current>,
    changed: Condvar,
    followers: AtomicUsize,
}

fn serve(options: &Args) -> CliResult {
    let (first, solved) = scene_of(&options.file, &Positions::new())?;
    let shared = Arc::new(Shared {
        current: Mutex::new(Current {
            generation: 0,
            json: serde_json::to_string(&first).unwrap_or_default(),
            positions: first.positions(),
            solved,
        }),
        changed: Condvar::new(),
        followers: AtomicUsize::new(0),
    });
    let server = Server::http(SocketAddr::from(([127, 0, 0, 1], options.port)))
        .map_err(|error| CliError(format!("cannot listen on port {}: {error}", options.port)))?;
    let port = server
        .server_addr()
        .to_ip()
        .map_or(options.port, |a| a.port());
    let url = format!("http://127.0.0.1:{port}/");

    let path = PathBuf::from(&options.file);
    let _watcher = watch(&path, &options.file, Arc::clone(&shared))?;

    println!("cmg view: {} at {url} (Ctrl-C stops)", options.file);
    let _ = std::io::stdout().flush();
    if !options.no_open {
        if let Err(error) = open::that_detached(&url) {
            eprintln!("cmg view: cannot open a browser ({error}); open {url} yourself");
        }
    }
    for request in server.incoming_requests() {
        let shared = Arc::clone(&shared);
        // Each request on its own thread: a following page holds its thread for as long
        // as it stays open.
        std::thread::spawn(move || handle(request, &shared));
    }
    Ok(ExitCode::SUCCESS)
}

/// Watches the file's folder (editors often save by writing a new file and renaming
/// it over the old one, which a watch on the file itself would lose).
fn watch(
    path: &Path,
    name: &str,
    shared: Arc<Shared>,
) -> Result<notify::RecommendedWatcher, CliError> {
    let folder = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let file_name = path.file_name().map(ToOwned::to_owned);
    let (send, receive) = std::sync::mpsc::channel::<()>();
    let mut watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
        // Reading the file is an event too (an access): only changes count, or each read
        // would trigger the next.
        let ours = event.is_ok_and(|event| {
            matches!(
                event.kind,
                EventKind::Create(_) | EventKind::Modify(_) | EventKind::Remove(_)
            ) && event
                .paths
                .iter()
                .any(|p| p.file_name().map(ToOwned::to_owned) == file_name)
        });
        if ours {
            let _ = send.send(());
        }
    })
    .map_err(|error| CliError(format!("cannot watch {name}: {error}")))?;
    watcher
        .watch(&folder, RecursiveMode::NonRecursive)
        .map_err(|error| CliError(format!("cannot watch {}: {error}", folder.display())))?;
    let name = name.to_owned();
    std::thread::spawn(move || {
        while receive.recv().is_ok() {
            std::thread::sleep(SETTLE);
            while receive.try_recv().is_ok() {}
            update(&name, &shared);
        }
    });
    Ok(watcher)
}

/// Reads the file again and publishes its scene, laid out from the last one. A file
/// that is gone or half written keeps the last scene.
fn update(name: &str, shared: &Shared) {
    let previous = match shared.current.lock() {
        Ok(current) => current.positions.clone(),
        Err(_) => return,
    };
    let (scene, solved) = match scene_of(name, &previous) {
        Ok(found) => found,
        Err(error) => {
            eprintln!("cmg view: {error}");
            return;
        }
    };
    let Ok(json) = serde_json::to_string(&scene) else {
        return;
    };
    if let Ok(mut current) = shared.current.lock() {
        if current.json != json {
            current.generation += 1;
            current.json = json;
            current.positions = scene.positions();
            current.solved = solved;
            shared.changed.notify_all();
        }
    }
}

fn header(name: &str, value: &str) -> Header {
    Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("a valid header")
}

fn handle(request: Request, shared: &Shared) {
    let path = request.url().split('?').next().unwrap_or("").to_owned();
    let (body, content_type) = match path.as_str() {
        "/" | "/index.html" => (INDEX_HTML.to_owned(), "text/html; charset=utf-8"),
        "/view.js" => (VIEW_JS.to_owned(), "text/javascript; charset=utf-8"),
        "/view.css" => (VIEW_CSS.to_owned(), "text/css; charset=utf-8"),
        "/scene.json" => match shared.current.lock() {
            Ok(current) => (current.json.clone(), "application/json"),
            Err(_) => (String::new(), "application/json"),
        },
        "/events" => return follow(request, shared),
        "/slice" => {
            let query = request.url().split_once('?').map_or("", |(_, q)| q);
            let (status, body) = slice_route(query, shared);
            let response = Response::from_string(body)
                .with_status_code(status)
                .with_header(header("Content-Type", "application/json"))
                .with_header(header("Cache-Control", "no-store"));
            let _ = request.respond(response);
            return;
        }
        _ => {
            let _ = request.respond(Response::from_string("not found").with_status_code(404));
            return;
        }
    };
    let response = Response::from_string(body)
        .with_header(header("Content-Type", content_type))
        .with_header(header("Cache-Control", "no-store"));
    let _ = request.respond(response);
}

/// Server-sent events: one `scene` event with the scene JSON now and after every change.
///
/// tiny_http buffers chunked bodies until 8 KiB have gathered, which would hold back small
/// events, so the stream is written on the raw connection: a status line and headers,
/// then the events, each flushed, until the page goes away.
fn follow(request: Request, shared: &Shared) {
    if shared.followers.fetch_add(1, Ordering::SeqCst) >= MAX_FOLLOWERS {
        shared.followers.fetch_sub(1, Ordering::SeqCst);
        let _ = request.respond(Response::from_string("too many pages").with_status_code(503));
        return;
    }
    let mut writer = request.into_writer();
    let _ = stream_events(&mut *writer, shared);
    shared.followers.fetch_sub(1, Ordering::SeqCst);
}

fn stream_events(writer: &mut dyn Write, shared: &Shared) -> std::io::Result<()> {
    writer.write_all(
        b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n",
    )?;
    let mut sent = None;
    loop {
        let event = {
            let current = shared
                .current
                .lock()
                .map_err(|_| std::io::Error::other("poisoned"))?;
            let (current, _) = shared
                .changed
                .wait_timeout_while(current, KEEPALIVE, |c| Some(c.generation) == sent)
                .map_err(|_| std::io::Error::other("poisoned"))?;
            (Some(current.generation) != sent).then(|| {
                sent = Some(current.generation);
                format!("event: scene\ndata: {}\n\n", current.json)
            })
        };
        writer.write_all(event.as_deref().unwrap_or(": keepalive\n\n").as_bytes())?;
        writer.flush()?;
    }
}

/// `GET /slice?cat=ID&turn=mouse|cat`: one slice of the current file's position table
/// (`docs/view.md`), `null` when the game is not solved; 400 with a message for a missing
/// or bad parameter or a node the graph does not have. Status and JSON body.
fn slice_route(query: &str, shared: &Shared) -> (u16, String) {
    let mut cat = None;
    let mut turn = None;
    for pair in query.split('&') {
        match pair.split_once('=') {
            Some(("cat", value)) => cat = value.parse::<u32>().ok(),
            Some(("turn", value)) => turn = parse_turn(value),
            _ => {}
        }
    }
    let (Some(cat), Some(turn)) = (cat, turn) else {
        let message = "/slice needs ?cat=NODE_ID&turn=mouse|cat";
        return (400, serde_json::json!({ "error": message }).to_string());
    };
    let Ok(solved) = shared.current.lock().map(|c| Arc::clone(&c.solved)) else {
        return (
            500,
            serde_json::json!({ "error": "internal error" }).to_string(),
        );
    };
    let (graph, solution) = &*solved;
    match slice(graph, solution.as_ref(), cat, turn) {
        Ok(found) => (200, serde_json::to_string(&found).unwrap_or_default()),
        Err(cmg_ide::view::SliceError::NotSolved) => (200, "null".to_owned()),
        Err(error) => (
            400,
            serde_json::json!({ "error": error.to_string() }).to_string(),
        ),
    }
}
