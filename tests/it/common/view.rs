//! `cmg view`'s server under test and a plain HTTP/1.1 client for it, on loopback.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use assert_cmd::cargo::CommandCargoExt;

/// The server, killed when the test ends however it ends, with its port.
pub struct Served {
    pub child: Child,
    pub port: u16,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `cmg view FILE --no-open`, once it has printed the address it serves on.
pub fn serve(file: &Path) -> Served {
    let mut child = Command::cargo_bin("cmg")
        .unwrap()
        .arg("view")
        .arg(file)
        .arg("--no-open")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let port = line
        .split_whitespace()
        .find_map(|word| word.strip_prefix("http://127.0.0.1:"))
        .and_then(|rest| rest.trim_end_matches('/').parse().ok())
        .unwrap_or_else(|| panic!("no URL in {line:?}"));
    Served { child, port }
}

/// A connection to the server, whose reads give up after 10 s.
pub fn connect(port: u16) -> TcpStream {
    let stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    stream
}

/// Sends `request` as is and reads the whole answer (the server closes after it).
pub fn exchange(port: u16, request: &str) -> String {
    let mut stream = connect(port);
    stream.write_all(request.as_bytes()).unwrap();
    let mut response = Vec::new();
    let _ = stream.read_to_end(&mut response);
    String::from_utf8_lossy(&response).into_owned()
}

/// The whole answer to `GET path`, its head and body.
pub fn get(port: u16, path: &str) -> String {
    exchange(
        port,
        &format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"),
    )
}

/// The event stream, asked for and not yet read.
pub fn events(port: u16) -> BufReader<TcpStream> {
    let mut stream = connect(port);
    write!(
        stream,
        "GET /events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n"
    )
    .unwrap();
    BufReader::new(stream)
}
