//! `cmg view`: the game view, served on 127.0.0.1 and following the file as it is saved, or exported as an SVG or PNG picture.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::{RawQuery, Request, State};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use notify::{EventKind, RecursiveMode, Watcher};
use tokio::sync::{watch, Semaphore};

use super::dot::{refuse_syntax_errors, refuse_truncated_graph};
use super::input::read_source;
use super::picture::{self, Format};
use super::{CliError, CliResult};
use cmg_core::analysis::Analysis;
use cmg_core::explain::{solve_and_explain, WhatIfBudget};
use cmg_core::model::Graph;
use cmg_ide::view::{
    add_explanations, draws, layout_within, parse_turn, scene, scene_laid_out, slice, svg, Limits,
    Positions, Scene,
};
use cmg_solve::Solution;

/// The page and its bundle, built from `web/` (see `web/ci.sh`, which checks that these
/// committed files match a fresh build).
const INDEX_HTML: &str = include_str!("../../web/src/index.html");
const VIEW_JS: &str = include_str!("../../web/dist/view.js");
const VIEW_CSS: &str = include_str!("../../web/dist/view.css");

/// At most this many pages follow the file at once.
const MAX_FOLLOWERS: usize = 32;

/// At most this many connections are open at once (the followers and room for the
/// page's other requests); a connection over it is closed at once.
const MAX_CONNECTIONS: usize = 64;

/// A request's headers must arrive within this time, and fit in this many bytes
/// (hyper answers 431 above it), so that half-sent requests cannot hold the server.
const HEADER_TIMEOUT: Duration = Duration::from_secs(10);
const MAX_HEADER_BYTES: usize = 16 << 10;

/// A following page is sent a comment this often, so that a closed one is noticed (and
/// its slot freed) within this time even where the closing is not seen at once.
const KEEPALIVE: Duration = Duration::from_secs(5);

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
    /// Write the picture to this file instead of serving the page: SVG for `OUT.svg` (or
    /// `-`, standard output), PNG for `OUT.png`.
    #[arg(long, value_name = "OUT.svg|OUT.png")]
    export: Option<String>,
}

pub fn run(options: &Args) -> CliResult {
    if let Some(out) = &options.export {
        return export(&options.file, out);
    }
    if options.file == "-" {
        return Err(CliError(
            "cmg view follows a file as it changes: give a path, not `-` (or use --export)"
                .to_owned(),
        ));
    }
    serve(options)
}

/// `cmg view FILE --export OUT`: the picture of `file`, as SVG or PNG by `out`'s
/// extension. A file that cannot be read whole is refused as `cmg dot` refuses it: a
/// picture of the statements that parsed would pass for the file's.
fn export(file: &str, out: &str) -> CliResult {
    let format = Format::of(out)?;
    let source = read_source(file)?;
    let analysis = Analysis::new(source.text.as_str());
    if refuse_syntax_errors(&source, &analysis, "exported")
        || refuse_truncated_graph(&source, &analysis, "exported")
    {
        return Ok(ExitCode::FAILURE);
    }
    let Some((scene, _)) = scene_from(analysis, &Positions::new(), &AtomicBool::new(false)) else {
        unreachable!("nothing cancels an export");
    };
    if let Some(note) = &scene.layout_note {
        eprintln!("cmg view: {note}");
    }
    // Never a picture of the legend alone with status 0: refused, nothing written
    // (an older export at that path stays as it was).
    if scene.too_large.is_some() {
        eprintln!(
            "cmg: {} is not exported: {}, so nothing was written (`cmg solve` and `cmg dot` take any size)",
            super::render::visible(file),
            scene.summary
        );
        return Ok(ExitCode::FAILURE);
    }
    let svg = svg::to_svg(&scene);
    let picture = match format {
        Format::Svg => svg.into_bytes(),
        Format::Png => picture::png(&svg)?,
    };
    // `-` is standard output, as for every other file argument.
    if out == "-" {
        super::output::print_bytes(&picture);
    } else {
        super::output::replace_file(Path::new(out), &picture)
            .map_err(|error| CliError(format!("cannot write {out}: {error}")))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The graph and solution a scene was drawn from, kept for the slices the page asks for.
type Solved = Arc<(Graph, Option<Arc<Solution>>)>;

/// The scene of the file at `path`, laid out from `previous`, and what `/slice` answers
/// from; `None` when `cancel` was set meanwhile (the file changed again: its scene is
/// stale). The game is solved only when the view will draw it.
fn scene_of(
    path: &str,
    previous: &Positions,
    cancel: &AtomicBool,
) -> Result<Option<(Scene, Solved)>, CliError> {
    let source = read_source(path)?;
    Ok(scene_from(Analysis::new(source.text), previous, cancel))
}

/// [`scene_of`] for a file already read.
fn scene_from(
    analysis: Analysis,
    previous: &Positions,
    cancel: &AtomicBool,
) -> Option<(Scene, Solved)> {
    // The layout needs only the graph: it runs on a second thread while this one solves
    // (at 2000 nodes the layout is most of the work, the solve and what-if the rest).
    let graph = &analysis.model.graph;
    let limits = Limits {
        cancel: Some(cancel),
        ..Limits::default()
    };
    let (solved, laid_out) = std::thread::scope(|threads| {
        let laying = draws(graph).then(|| threads.spawn(|| layout_within(graph, previous, limits)));
        let solved = analysis
            .game()
            .filter(|_| draws(graph))
            .and_then(|game| solve_and_explain(&game, WhatIfBudget::CommandLine, cancel));
        let laid_out = laying.map(|laying| {
            laying
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
        });
        (solved, laid_out)
    });
    if cancel.load(Ordering::Relaxed) {
        return None;
    }
    let solution = solved.as_ref().map(|s| &*s.solution);
    let mut scene = match laid_out {
        Some(Ok(laid_out)) => scene_laid_out(&analysis, solution, laid_out),
        Some(Err(_cancelled)) => return None,
        None => scene(&analysis, solution, previous),
    };
    add_explanations(&mut scene, &analysis, solved.as_ref());
    // The slices need only the solution; the what-if is in the scene now.
    let solution = solved.map(|solved| solved.solution);
    Some((scene, Arc::new((analysis.model.graph, solution))))
}

/// The latest scene as JSON, with a generation number that grows on every change.
#[derive(Clone)]
struct Current {
    generation: u64,
    /// Empty until the first scene is laid out.
    json: Arc<str>,
    solved: Solved,
}

impl Current {
    /// Whether there is a scene to send yet.
    fn is_ready(&self) -> bool {
        !self.json.is_empty()
    }
}

/// What the routes share: the latest scene, the slots of following pages and the port
/// the `Host` header must name.
#[derive(Clone)]
struct Shared {
    current: watch::Receiver<Current>,
    followers: Arc<Semaphore>,
    port: u16,
    /// The page, titled with the file's name.
    index: Arc<str>,
}

/// The page with the file's name in its title ("game.cmg — cmg game view"), so that a
/// browser tab says which file it shows, and its absolute path in
/// `<meta name="cmg-file">`, the key the page keeps the file's pins under.
fn titled_index(file: &str) -> String {
    let name = Path::new(file)
        .file_name()
        .map_or_else(|| file.into(), |name| name.to_string_lossy());
    let path = std::path::absolute(file).unwrap_or_else(|_| PathBuf::from(file));
    let escape = |text: &str| {
        text.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
            .replace('"', "&quot;")
    };
    INDEX_HTML.replacen(
        "<title>cmg game view</title>",
        &format!(
            "<title>{}</title>\n<meta name=\"cmg-file\" content=\"{}\">",
            escape(&format!("{name} — cmg game view")),
            escape(&path.to_string_lossy())
        ),
        1,
    )
}

/// Serves the page at once and lays out the first scene meanwhile (on the watcher's
/// thread, before it follows the file), so that the browser loads the page while the
/// layout runs; the scene routes wait for that first scene.
fn serve(options: &Args) -> CliResult {
    // A file that cannot be read is an error before anything is served.
    read_source(&options.file)?;
    let (publish, current) = watch::channel(Current {
        generation: 0,
        json: Arc::from(""),
        solved: Arc::new((Graph::default(), None)),
    });
    let listener = std::net::TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], options.port)))
        .map_err(|error| CliError(format!("cannot listen on port {}: {error}", options.port)))?;
    let port = listener.local_addr().map_or(options.port, |a| a.port());
    let url = format!("http://127.0.0.1:{port}/");

    let _watcher = watch(
        Path::new(&options.file),
        &options.file,
        Follower {
            publish,
            positions: Mutex::new(Positions::new()),
            changed: Arc::default(),
        },
    )?;

    super::output::print(&format!(
        "cmg view: {} at {url} (Ctrl-C stops)\n",
        options.file
    ));
    // Where the address cannot be written, nobody learns it: stop rather than serve.
    super::output::finish()?;
    if !options.no_open {
        if let Err(error) = open::that_detached(&url) {
            eprintln!("cmg view: cannot open a browser ({error}); open {url} yourself");
        }
    }
    let shared = Shared {
        current,
        followers: Arc::new(Semaphore::new(MAX_FOLLOWERS)),
        port,
        index: titled_index(&options.file).into(),
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|error| CliError(format!("cannot start the server: {error}")))?;
    runtime
        .block_on(accept(listener, router(shared)))
        .map_err(|error| CliError(format!("the server stopped: {error}")))?;
    Ok(ExitCode::SUCCESS)
}

/// Every route, one a line. `get` answers HEAD as well; the guard turns away other
/// methods and foreign `Host`s before any route runs.
fn router(shared: Shared) -> Router {
    Router::new()
        .route("/", get(index))
        .route("/index.html", get(index))
        .route(
            "/view.js",
            get(|| async { asset(VIEW_JS, "text/javascript; charset=utf-8") }),
        )
        .route(
            "/view.css",
            get(|| async { asset(VIEW_CSS, "text/css; charset=utf-8") }),
        )
        .route("/scene.json", get(scene_json))
        .route("/slice", get(slice_json))
        .route("/events", get(events))
        .fallback(|| async { (StatusCode::NOT_FOUND, "not found\n") })
        .layer(axum::middleware::from_fn_with_state(shared.clone(), guard))
        .with_state(shared)
}

/// Serves connections one task each, at most [`MAX_CONNECTIONS`] at once, each with the
/// header size and time limits.
async fn accept(listener: std::net::TcpListener, router: Router) -> std::io::Result<()> {
    listener.set_nonblocking(true)?;
    let listener = tokio::net::TcpListener::from_std(listener)?;
    let connections = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    loop {
        let (stream, _) = match listener.accept().await {
            Ok(accepted) => accepted,
            // Out of descriptors and the like: wait a little rather than spin.
            Err(_) => {
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let Ok(slot) = Arc::clone(&connections).try_acquire_owned() else {
            continue;
        };
        let service = TowerToHyperService::new(router.clone());
        tokio::spawn(async move {
            let _slot = slot;
            let _ = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(HEADER_TIMEOUT)
                .max_buf_size(MAX_HEADER_BYTES)
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}

/// Whether `host` names this server: `127.0.0.1:PORT` or `localhost:PORT`. Any other
/// name is a page elsewhere that had its name resolve to 127.0.0.1 (DNS rebinding).
fn our_host(host: &str, port: u16) -> bool {
    let Some((name, at)) = host.rsplit_once(':') else {
        return false;
    };
    at.parse::<u16>() == Ok(port) && (name == "127.0.0.1" || name.eq_ignore_ascii_case("localhost"))
}

async fn guard(State(shared): State<Shared>, request: Request, next: Next) -> Response {
    let host = request
        .headers()
        .get(header::HOST)
        .and_then(|value| value.to_str().ok());
    if !host.is_some_and(|host| our_host(host, shared.port)) {
        return (
            StatusCode::MISDIRECTED_REQUEST,
            "this server answers only to 127.0.0.1 and localhost with its port\n",
        )
            .into_response();
    }
    if !matches!(*request.method(), Method::GET | Method::HEAD) {
        return (
            StatusCode::METHOD_NOT_ALLOWED,
            [(header::ALLOW, "GET, HEAD")],
            "only GET and HEAD\n",
        )
            .into_response();
    }
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    response
}

async fn index(State(shared): State<Shared>) -> Response {
    (
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        shared.index.to_string(),
    )
        .into_response()
}

fn asset(body: &'static str, content_type: &'static str) -> Response {
    ([(header::CONTENT_TYPE, content_type)], body).into_response()
}

/// The current scene once there is one (the first is still being laid out for a
/// moment after the server starts).
async fn first_scene(shared: &Shared) -> Current {
    let mut current = shared.current.clone();
    let found = current.wait_for(Current::is_ready).await;
    found.map_or_else(
        |_| shared.current.borrow().clone(),
        |current| current.clone(),
    )
}

async fn scene_json(State(shared): State<Shared>) -> Response {
    let json = first_scene(&shared).await.json;
    (
        [(header::CONTENT_TYPE, "application/json")],
        json.to_string(),
    )
        .into_response()
}

/// One slice of the current file's position table, `?cat=ID&turn=mouse|cat`
/// (`docs/view.md`).
async fn slice_json(State(shared): State<Shared>, RawQuery(query): RawQuery) -> Response {
    let solved = first_scene(&shared).await.solved;
    let (status, body) = slice_route(query.as_deref().unwrap_or(""), &solved);
    (status, [(header::CONTENT_TYPE, "application/json")], body).into_response()
}

/// The answer of `/slice` for a query string: the slice (`docs/view.md`), `null` when the
/// game is not solved; 400 with a message for a missing or bad parameter or a node the
/// graph lacks.
fn slice_route(query: &str, solved: &Solved) -> (StatusCode, String) {
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
        return (
            StatusCode::BAD_REQUEST,
            serde_json::json!({ "error": message }).to_string(),
        );
    };
    let (graph, solution) = &**solved;
    match slice(graph, solution.as_deref(), cat, turn) {
        Ok(found) => (
            StatusCode::OK,
            serde_json::to_string(&found).unwrap_or_default(),
        ),
        Err(cmg_ide::view::SliceError::NotSolved) => (StatusCode::OK, "null".to_owned()),
        Err(error) => (
            StatusCode::BAD_REQUEST,
            serde_json::json!({ "error": error.to_string() }).to_string(),
        ),
    }
}

/// Server-sent events: one `scene` event with the scene JSON now and after every
/// change. A page holds a slot for as long as its stream lives; hyper drops the stream
/// when the connection closes, which frees the slot.
async fn events(State(shared): State<Shared>) -> Response {
    let Ok(slot) = Arc::clone(&shared.followers).try_acquire_owned() else {
        // The page retries with back-off, so a full house is not the end of it.
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            [(header::RETRY_AFTER, "2")],
            "too many pages follow this file\n",
        )
            .into_response();
    };
    let mut current = shared.current.clone();
    current.mark_changed();
    let stream = futures_util::stream::unfold((current, slot), |(mut current, slot)| async move {
        let json = loop {
            current.changed().await.ok()?;
            let latest = current.borrow_and_update().clone();
            // Before the first scene there is nothing to send.
            if latest.is_ready() {
                break latest.json;
            }
        };
        let event = Event::default().event("scene").data(json.as_ref());
        Some((Ok::<_, Infallible>(event), (current, slot)))
    });
    Sse::new(stream)
        .keep_alive(KeepAlive::new().interval(KEEPALIVE))
        .into_response()
}

/// The watcher side: where changed scenes go, and the last layout to start the next from.
struct Follower {
    publish: watch::Sender<Current>,
    positions: Mutex<Positions>,
    /// Set when the file changes: the scene being made is stale, and its layout and
    /// solve stop, so that the next one starts at once.
    changed: Arc<AtomicBool>,
}

/// Watches the file's folder (editors often save by writing a new file and renaming
/// it over the old one, which a watch on the file itself would lose). A symbolic link
/// is followed to its target, whose folder is watched too: saving the target is what
/// changes what the link shows.
fn watch(
    path: &Path,
    name: &str,
    follower: Follower,
) -> Result<notify::RecommendedWatcher, CliError> {
    let mut watched: Vec<(PathBuf, Option<std::ffi::OsString>)> = vec![folder_and_name(path)];
    if let Ok(target) = std::fs::canonicalize(path) {
        let target = folder_and_name(&target);
        if !watched.contains(&target) {
            watched.push(target);
        }
    }
    let names: Vec<_> = watched.iter().map(|(_, name)| name.clone()).collect();
    let (send, receive) = std::sync::mpsc::channel::<()>();
    let changed = follower.changed.clone();
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
                .any(|p| names.contains(&p.file_name().map(ToOwned::to_owned)))
        });
        if ours {
            changed.store(true, Ordering::Relaxed);
            let _ = send.send(());
        }
    })
    .map_err(|error| CliError(format!("cannot watch {name}: {error}")))?;
    for (folder, _) in &watched {
        watcher
            .watch(folder, RecursiveMode::NonRecursive)
            .map_err(|error| CliError(format!("cannot watch {}: {error}", folder.display())))?;
    }
    let name = name.to_owned();
    std::thread::spawn(move || {
        // The first scene, then one after every change.
        update(&name, &follower);
        while receive.recv().is_ok() {
            std::thread::sleep(SETTLE);
            while receive.try_recv().is_ok() {}
            // From here on, a change stops this scene: the loop makes the next one.
            follower.changed.store(false, Ordering::Relaxed);
            update(&name, &follower);
        }
    });
    Ok(watcher)
}

fn folder_and_name(path: &Path) -> (PathBuf, Option<std::ffi::OsString>) {
    let folder = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
        _ => PathBuf::from("."),
    };
    (folder, path.file_name().map(ToOwned::to_owned))
}

/// Reads the file again and publishes its scene, laid out from the last one. A file
/// that is gone, half written, not a regular file or too large keeps the last scene
/// (`read_source` refuses the last two without blocking or reading them whole).
fn update(name: &str, follower: &Follower) {
    let previous = match follower.positions.lock() {
        Ok(positions) => positions.clone(),
        Err(_) => return,
    };
    let (scene, solved) = match scene_of(name, &previous, &follower.changed) {
        Ok(Some(found)) => found,
        // The file changed meanwhile: the watcher has the next change queued.
        Ok(None) => return,
        Err(error) => {
            eprintln!("cmg view: {error}");
            keep_with_note(name, &error.to_string(), follower);
            return;
        }
    };
    let Ok(json) = serde_json::to_string(&scene) else {
        return;
    };
    if let Ok(mut positions) = follower.positions.lock() {
        *positions = scene.positions();
    }
    follower.publish.send_if_modified(|current| {
        if *current.json == *json {
            return false;
        }
        current.generation += 1;
        current.json = json.into();
        current.solved = solved;
        true
    });
}

/// The file cannot be read (gone, or not a file the view reads): the page keeps the
/// last scene and says so, in `source_note`, until a read succeeds again.
fn keep_with_note(name: &str, error: &str, follower: &Follower) {
    let gone = std::fs::metadata(name).is_err_and(|e| e.kind() == std::io::ErrorKind::NotFound);
    let note = if gone {
        format!("{name} is gone (deleted or moved): this is the last version read; the view takes the file up again when it is back")
    } else {
        format!("{error}: this is the last version read")
    };
    follower.publish.send_if_modified(|current| {
        let Ok(mut scene) = serde_json::from_str::<serde_json::Value>(&current.json) else {
            // Nothing shown yet.
            return false;
        };
        if scene["source_note"] == note.as_str() {
            return false;
        }
        scene["source_note"] = note.into();
        current.generation += 1;
        current.json = scene.to_string().into();
        true
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A change to the file while its scene is made (the cancel flag set) drops that
    /// scene: nothing is published from a stale layout, and the next update starts.
    #[test]
    fn a_changed_file_drops_the_stale_scene() {
        let path = std::env::temp_dir().join(format!("cmg-view-stale-{}.cmg", std::process::id()));
        std::fs::write(&path, "1 -- 2\n2 -- 0\n0 -- 1\n").expect("a file");
        let name = path.to_str().expect("a UTF-8 path");
        let fresh = scene_of(name, &Positions::new(), &AtomicBool::new(false));
        let stale = scene_of(name, &Positions::new(), &AtomicBool::new(true));
        let _ = std::fs::remove_file(&path);
        let (scene, _) = fresh.expect("read").expect("not cancelled");
        assert_eq!(scene.nodes.len(), 3);
        assert!(stale.expect("read").is_none(), "a stale scene");
    }
}
