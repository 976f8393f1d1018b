//! `cmg view`'s server against a hostile world, on loopback: foreign `Host`s and
//! methods, oversized and half-sent requests, pages that come and go, and a file that
//! turns into a link, a FIFO or something huge. Each test is bounded in connections
//! and time.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::Command;
use std::time::{Duration, Instant};

use assert_cmd::cargo::CommandCargoExt;

use crate::common::temp_dir::TempDir;
use crate::common::view::{connect, events, exchange, serve};

const GAME: &str = "0 -- 1 -- 2\n";

fn get_with_host(port: u16, method: &str, path: &str, host: &str) -> String {
    exchange(
        port,
        &format!("{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"),
    )
}

fn status(response: &str) -> &str {
    response.get(9..12).unwrap_or("")
}

#[test]
fn only_its_own_host_and_get_or_head_are_answered() {
    let dir = TempDir::new("view-host");
    let file = dir.join("game.cmg");
    std::fs::write(&file, GAME).unwrap();
    let served = serve(&file);
    let port = served.port;
    let ours = format!("127.0.0.1:{port}");
    assert_eq!(
        status(&get_with_host(port, "GET", "/scene.json", &ours)),
        "200"
    );
    let named = format!("localhost:{port}");
    assert_eq!(status(&get_with_host(port, "GET", "/", &named)), "200");
    // DNS rebinding: a page of another name that resolves to 127.0.0.1.
    for host in [
        format!("evil.example:{port}"),
        "127.0.0.1".to_owned(),
        format!("127.0.0.1:{}", port.wrapping_add(1)),
        format!("localhost.evil.example:{port}"),
    ] {
        let response = get_with_host(port, "GET", "/scene.json", &host);
        assert_eq!(status(&response), "421", "{host}: {response}");
        assert!(!response.contains("\"nodes\""), "{host} read the scene");
    }
    // No Host at all (HTTP/1.0).
    let response = exchange(port, "GET /scene.json HTTP/1.0\r\n\r\n");
    assert_eq!(status(&response), "421", "{response}");
    for method in ["POST", "PUT", "DELETE", "OPTIONS", "PATCH"] {
        let response = get_with_host(port, method, "/scene.json", &ours);
        assert_eq!(status(&response), "405", "{method}: {response}");
        assert!(
            response.to_ascii_lowercase().contains("allow: get, head"),
            "{response}"
        );
    }
    let head = get_with_host(port, "HEAD", "/scene.json", &ours);
    assert_eq!(status(&head), "200", "{head}");
    assert!(head.ends_with("\r\n\r\n"), "HEAD has no body: {head}");
}

#[test]
fn oversized_and_half_sent_requests_do_not_hold_the_server() {
    let dir = TempDir::new("view-limits");
    let file = dir.join("game.cmg");
    std::fs::write(&file, GAME).unwrap();
    let served = serve(&file);
    let port = served.port;
    let ours = format!("127.0.0.1:{port}");

    // 1 MB of headers: refused (431) or cut off, never buffered.
    let mut stream = connect(port);
    let _ = write!(stream, "GET / HTTP/1.1\r\nHost: {ours}\r\n");
    let filler = format!("X-Filler: {}\r\n", "a".repeat(1000));
    for _ in 0..1000 {
        if stream.write_all(filler.as_bytes()).is_err() {
            break;
        }
    }
    let mut response = Vec::new();
    let _ = stream.read_to_end(&mut response);
    let response = String::from_utf8_lossy(&response);
    assert!(
        response.is_empty() || status(&response) == "431",
        "{response}"
    );

    // 200 requests that never finish their headers: the server stays at a few
    // threads, and answers again as soon as they go away.
    let mut half_sent: Vec<TcpStream> = (0..200)
        .filter_map(|_| TcpStream::connect(("127.0.0.1", port)).ok())
        .collect();
    for stream in &mut half_sent {
        let _ = stream.write_all(b"GET / HTTP/1.1\r\nHost: 127");
    }
    std::thread::sleep(Duration::from_millis(300));
    let threads = std::fs::read_to_string(format!("/proc/{}/status", served.child.id()))
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find_map(|line| line.strip_prefix("Threads:"))
                .and_then(|n| n.trim().parse::<usize>().ok())
        });
    if let Some(threads) = threads {
        assert!(threads < 16, "{threads} threads for 200 half-sent requests");
    }
    drop(half_sent);
    let start = Instant::now();
    loop {
        let response = get_with_host(port, "GET", "/scene.json", &ours);
        if status(&response) == "200" {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "no answer after the half-sent requests closed"
        );
        std::thread::sleep(Duration::from_millis(100));
    }

    // One that stays half-sent is closed by the server after the header timeout.
    let mut slow = connect(port);
    slow.set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    slow.write_all(b"GET / HTTP/1.1\r\nHost: 127").unwrap();
    let start = Instant::now();
    let mut rest = Vec::new();
    let _ = slow.read_to_end(&mut rest);
    assert!(
        start.elapsed() < Duration::from_secs(15),
        "a half-sent request held its connection for {:?}",
        start.elapsed()
    );
}

/// Opens the event stream and reads up to its first scene.
fn follow(port: u16) -> (BufReader<TcpStream>, String) {
    let mut reader = events(port);
    let mut head = String::new();
    reader.read_line(&mut head).unwrap();
    if !head.starts_with("HTTP/1.1 200") {
        return (reader, head);
    }
    let data = next_scene(&mut reader);
    (reader, data)
}

/// The next `data:` line of an event stream.
fn next_scene(reader: &mut BufReader<TcpStream>) -> String {
    loop {
        let mut line = String::new();
        let read = reader.read_line(&mut line).unwrap_or(0);
        assert!(read > 0, "the event stream ended");
        if let Some(data) = line.strip_prefix("data: ") {
            return data.to_owned();
        }
    }
}

#[test]
fn a_closed_page_frees_its_slot_at_once_and_a_full_house_says_retry() {
    let dir = TempDir::new("view-slots");
    let file = dir.join("game.cmg");
    std::fs::write(&file, GAME).unwrap();
    let served = serve(&file);
    let port = served.port;
    // Three rounds of 32 pages that open and close: 96 reloads, more than the slots.
    for round in 0..3 {
        let pages: Vec<_> = (0..32).map(|_| follow(served.port)).collect();
        for (_, data) in &pages {
            assert!(data.contains("\"nodes\""), "round {round}: {data}");
        }
        if round == 0 {
            let (_, refused) = follow(port);
            assert!(refused.starts_with("HTTP/1.1 503"), "{refused}");
        }
        drop(pages);
        // The slots come back within a moment, not after a keep-alive period.
        let start = Instant::now();
        loop {
            let (_, data) = follow(port);
            if data.contains("\"nodes\"") {
                break;
            }
            assert!(
                start.elapsed() < Duration::from_secs(2),
                "round {round}: slots not freed: {data}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

/// Waits for a scene event that contains `text`.
fn wait_for(reader: &mut BufReader<TcpStream>, text: &str) {
    let start = Instant::now();
    loop {
        let data = next_scene(reader);
        if data.contains(text) {
            return;
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "no scene with {text}"
        );
    }
}

#[test]
fn a_symlinked_file_is_followed_through_its_target() {
    let dir = TempDir::new("view-link");
    std::fs::create_dir_all(dir.join("real")).unwrap();
    let target = dir.join("real/game.cmg");
    std::fs::write(&target, GAME).unwrap();
    let link = dir.join("link.cmg");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let served = serve(&link);
    let (mut events, first) = follow(served.port);
    assert!(!first.contains("\"the target\""), "{first}");
    std::thread::sleep(Duration::from_millis(200));
    std::fs::write(&target, "0 -- 1 -- 2\nnode 2 \"the target\"\n").unwrap();
    wait_for(&mut events, "the target");
}

#[test]
fn a_fifo_or_a_huge_file_in_its_place_is_refused_and_following_goes_on() {
    let dir = TempDir::new("view-fifo");
    let file = dir.join("game.cmg");
    std::fs::write(&file, GAME).unwrap();
    let served = serve(&file);
    let (mut events, _) = follow(served.port);
    std::thread::sleep(Duration::from_millis(200));

    // A FIFO in the file's place: reading it would block the updater for good.
    std::fs::remove_file(&file).unwrap();
    let made = Command::new("mkfifo").arg(&file).status().unwrap();
    assert!(made.success());
    std::thread::sleep(Duration::from_millis(300));
    std::fs::remove_file(&file).unwrap();
    std::fs::write(&file, "0 -- 1 -- 2\nnode 1 \"after the fifo\"\n").unwrap();
    wait_for(&mut events, "after the fifo");

    // A save that grows the file past the document limit keeps the last scene; the
    // next good save shows.
    let huge = format!("{}\n", "# padding\n".repeat(900_000));
    std::fs::write(&file, huge).unwrap();
    std::thread::sleep(Duration::from_millis(300));
    std::fs::write(&file, "0 -- 1 -- 2\nnode 1 \"after the huge one\"\n").unwrap();
    wait_for(&mut events, "after the huge one");
}

/// A deleted file: the page keeps its last picture and says the file is gone; when the
/// file is back, its scene shows without the note. The tab's title names the file, and
/// the page carries its absolute path, the key it keeps the file's pins under.
#[test]
fn a_deleted_file_is_said_to_be_gone_and_taken_up_again_when_back() {
    let dir = TempDir::new("view-gone");
    let file = dir.join("game <1>.cmg");
    std::fs::write(&file, GAME).unwrap();
    let served = serve(&file);
    let ours = format!("127.0.0.1:{}", served.port);
    let page = get_with_host(served.port, "GET", "/", &ours);
    assert!(
        page.contains("<title>game &lt;1&gt;.cmg — cmg game view</title>"),
        "{page}"
    );
    let path = std::path::absolute(&file).unwrap();
    let meta = format!(
        r#"<meta name="cmg-file" content="{}">"#,
        path.to_string_lossy()
            .replace('<', "&lt;")
            .replace('>', "&gt;")
    );
    assert!(page.contains(&meta), "{meta} in {page}");
    let (mut events, first) = follow(served.port);
    assert!(!first.contains("source_note"), "{first}");
    std::fs::remove_file(&file).unwrap();
    wait_for(
        &mut events,
        "is gone (deleted or moved): this is the last version read",
    );
    std::fs::write(&file, "0 -- 1 -- 2\nnode 1 \"back again\"\n").unwrap();
    let start = Instant::now();
    loop {
        let data = next_scene(&mut events);
        if data.contains("back again") {
            assert!(!data.contains("source_note"), "{data}");
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(10), "never back");
    }
}

#[test]
fn a_link_to_a_device_is_refused_at_start() {
    let dir = TempDir::new("view-device");
    let link = dir.join("zero.cmg");
    std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
    let output = Command::cargo_bin("cmg")
        .unwrap()
        .arg("view")
        .arg(&link)
        .arg("--no-open")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("not a regular file"));
}
