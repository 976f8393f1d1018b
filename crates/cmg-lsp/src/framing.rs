//! The base protocol's frames (`Content-Length: N` + body), read and checked below the
//! transport. tower-lsp-server ends the whole session on the first message it cannot
//! decode (its framed reader stops after one error), so every frame is read here first:
//! a frame that is intact but whose body is not a JSON-RPC message is answered here
//! (`-32700` or `-32600`) and never reaches the transport, which only ever sees messages
//! it accepts; a frame that is not intact (no `Content-Length`, a header cut short, a body
//! cut by the end of the input) means the framing is lost, which the caller logs and
//! ends the process on.

use serde::Deserialize;
use serde_json::{json, Value};
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncReadExt};
use tower_lsp_server::jsonrpc::{Request, Response};

/// A header longer than this is not a header: the framing is lost.
pub const MAX_HEADER_BYTES: u64 = 8 * 1024;
/// A body longer than this is read past and refused, not held: it is far above what a
/// document within `cmg.analysis.maxDocumentBytes` needs, even escaped.
pub const MAX_BODY_BYTES: usize = 256 << 20;

/// JSON-RPC's codes for a body that is not JSON, and for JSON that is not a request.
const PARSE_ERROR: i64 = -32700;
const INVALID_REQUEST: i64 = -32600;

/// One frame read from the input.
#[derive(Debug, PartialEq, Eq)]
pub enum Frame {
    Body(Vec<u8>),
    /// A body of this many bytes, above [`MAX_BODY_BYTES`]: read past, not kept.
    TooLarge(usize),
}

/// Why the framing is lost, for the log.
#[derive(Debug, PartialEq, Eq)]
pub struct Lost(pub String);

/// Reads one frame; `Ok(None)` at the end of the input between two frames.
pub async fn read_frame<R: AsyncBufRead + Unpin>(input: &mut R) -> Result<Option<Frame>, Lost> {
    let mut length: Option<usize> = None;
    let mut header_bytes = 0u64;
    let mut line = Vec::new();
    loop {
        line.clear();
        let read = (&mut *input)
            .take(MAX_HEADER_BYTES + 1 - header_bytes.min(MAX_HEADER_BYTES))
            .read_until(b'\n', &mut line)
            .await
            .map_err(|error| Lost(format!("the input could not be read: {error}")))?;
        if read == 0 {
            if header_bytes == 0 {
                return Ok(None);
            }
            return Err(Lost("the input ended inside a message's header".to_owned()));
        }
        header_bytes += read as u64;
        if header_bytes > MAX_HEADER_BYTES || !line.ends_with(b"\n") {
            return Err(Lost(format!(
                "a message header is longer than {MAX_HEADER_BYTES} bytes"
            )));
        }
        let text = line.strip_suffix(b"\n").unwrap_or(&line);
        let text = text.strip_suffix(b"\r").unwrap_or(text);
        if text.is_empty() {
            break;
        }
        let field = std::str::from_utf8(text)
            .ok()
            .and_then(|text| text.split_once(':'));
        let Some((name, value)) = field else {
            return Err(Lost(format!(
                "a header line is not `Name: value`: {}",
                quoted(text)
            )));
        };
        if name.trim().eq_ignore_ascii_case("content-length") {
            let value = value.trim().parse::<usize>().map_err(|_| {
                Lost(format!(
                    "a Content-Length is not a number: {}",
                    quoted(text)
                ))
            })?;
            if length.is_some_and(|earlier| earlier != value) {
                return Err(Lost(
                    "a message has two different Content-Lengths".to_owned(),
                ));
            }
            length = Some(value);
        }
        // Content-Type and unknown fields are ignored: the body is read as UTF-8
        // whatever it says, and refused below if it is not.
    }
    let Some(length) = length else {
        return Err(Lost("a message header has no Content-Length".to_owned()));
    };
    let cut = || {
        Lost(format!(
            "the input ended inside a message body of {length} bytes"
        ))
    };
    if length > MAX_BODY_BYTES {
        let skipped = tokio::io::copy(
            &mut (&mut *input).take(length as u64),
            &mut tokio::io::sink(),
        )
        .await
        .map_err(|_| cut())?;
        return if skipped == length as u64 {
            Ok(Some(Frame::TooLarge(length)))
        } else {
            Err(cut())
        };
    }
    // Grown as the bytes arrive, not allocated from the claimed length up front.
    let mut body = Vec::new();
    (&mut *input)
        .take(length as u64)
        .read_to_end(&mut body)
        .await
        .map_err(|_| cut())?;
    if body.len() != length {
        return Err(cut());
    }
    Ok(Some(Frame::Body(body)))
}

/// A short, printable quote of header bytes for the log.
fn quoted(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(60)]);
    format!("{:?}", text)
}

/// The shapes the transport accepts, in the order it tries them.
#[derive(Deserialize)]
#[serde(untagged)]
enum Incoming {
    // Held only to be parsed exactly as the transport parses it.
    Response(#[allow(dead_code)] Response),
    Request(Request),
}

/// What to do with a frame's body.
#[derive(Debug, PartialEq)]
pub enum Checked {
    /// A message the transport accepts; `method` for requests and notifications.
    Message { method: Option<String> },
    /// Not a message: this error response goes back instead.
    Refused(Value),
}

/// Checks a body the way the transport will parse it.
pub fn check_body(body: &[u8]) -> Checked {
    let text = match std::str::from_utf8(body) {
        Ok(text) => text,
        Err(error) => {
            return refused(
                PARSE_ERROR,
                Value::Null,
                format!(
                    "cmg: the message is not UTF-8 (byte {}); it is ignored",
                    error.valid_up_to()
                ),
            )
        }
    };
    match serde_json::from_str::<Incoming>(text) {
        // The transport reads a missing method as "" and answers "method not found";
        // JSON-RPC calls it an invalid request.
        Ok(Incoming::Request(request)) if request.method().is_empty() => refused(
            INVALID_REQUEST,
            request.id().map_or(Value::Null, |id| json!(id)),
            "cmg: the message has no method; it is ignored".to_owned(),
        ),
        Ok(Incoming::Request(request)) => Checked::Message {
            method: Some(request.method().to_owned()),
        },
        Ok(Incoming::Response(_)) => Checked::Message { method: None },
        Err(error) if error.is_data() => {
            // Valid JSON of the wrong shape (a batch array, a request without a method):
            // answered with its id when it has a usable one.
            let id = serde_json::from_str::<Value>(text)
                .ok()
                .and_then(|value| value.get("id").cloned())
                .filter(|id| id.is_i64() || id.is_string())
                .unwrap_or(Value::Null);
            let what = if text.trim_start().starts_with('[') {
                "a batch, which the language server protocol does not use".to_owned()
            } else {
                format!("not a JSON-RPC 2.0 message: {error}")
            };
            refused(
                INVALID_REQUEST,
                id,
                format!("cmg: the message is {what}; it is ignored"),
            )
        }
        Err(error) => refused(
            PARSE_ERROR,
            Value::Null,
            format!("cmg: the message is not valid JSON ({error}); it is ignored"),
        ),
    }
}

fn refused(code: i64, id: Value, message: String) -> Checked {
    Checked::Refused(json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": {"code": code, "message": message},
    }))
}

/// The refusal of a body above [`MAX_BODY_BYTES`].
pub fn too_large(length: usize) -> Value {
    let Checked::Refused(response) = refused(
        INVALID_REQUEST,
        Value::Null,
        format!("cmg: a message of {length} bytes is above the limit of {MAX_BODY_BYTES}; it is ignored"),
    ) else {
        unreachable!("refused always refuses")
    };
    response
}

/// `body` framed for the wire.
pub fn frame(body: &[u8]) -> Vec<u8> {
    let mut framed = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    framed.extend_from_slice(body);
    framed
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn frames(input: &[u8]) -> Vec<Result<Option<Frame>, Lost>> {
        let mut reader = tokio::io::BufReader::new(input);
        let mut out = Vec::new();
        loop {
            let next = read_frame(&mut reader).await;
            let end = !matches!(next, Ok(Some(_)));
            out.push(next);
            if end {
                return out;
            }
        }
    }

    fn code(checked: Checked) -> i64 {
        match checked {
            Checked::Refused(response) => response["error"]["code"].as_i64().unwrap(),
            Checked::Message { .. } => 0,
        }
    }

    #[tokio::test]
    async fn frames_are_cut_by_their_length_in_bytes() {
        let body = "{\"é\":1}".as_bytes();
        let mut input = frame(body);
        input.extend(b"content-length: 2\nContent-Type: x\n\n{}");
        assert_eq!(
            frames(&input).await,
            [
                Ok(Some(Frame::Body(body.to_vec()))),
                Ok(Some(Frame::Body(b"{}".to_vec()))),
                Ok(None)
            ]
        );
    }

    #[tokio::test]
    async fn a_broken_header_or_a_cut_body_loses_the_framing() {
        for input in [
            &b"Content-Length: 10\r\n\r\n{}"[..],
            b"Content-Length: 2\r\n",
            b"Content-Type: x\r\n\r\n{}",
            b"}Content-Length 2\r\n\r\n{}",
            b"Content-Length: two\r\n\r\n{}",
        ] {
            let read = frames(input).await;
            assert!(
                matches!(read.last(), Some(Err(Lost(_)))),
                "{:?}: {read:?}",
                String::from_utf8_lossy(input)
            );
        }
        let endless = vec![b'x'; 20_000];
        assert!(matches!(frames(&endless).await[..], [Err(_)]));
    }

    #[tokio::test]
    async fn a_body_over_the_limit_is_read_past() {
        let mut input = format!("Content-Length: {}\r\n\r\n", MAX_BODY_BYTES + 1).into_bytes();
        input.resize(input.len() + MAX_BODY_BYTES + 1, b' ');
        input.extend(frame(b"{}"));
        let read = frames(&input).await;
        assert_eq!(read[0], Ok(Some(Frame::TooLarge(MAX_BODY_BYTES + 1))));
        assert_eq!(read[1], Ok(Some(Frame::Body(b"{}".to_vec()))));
    }

    #[test]
    fn bodies_are_checked_as_the_transport_reads_them() {
        let request = br#"{"jsonrpc":"2.0","id":1,"method":"shutdown"}"#;
        assert_eq!(
            check_body(request),
            Checked::Message {
                method: Some("shutdown".to_owned())
            }
        );
        let response = br#"{"jsonrpc":"2.0","id":1,"result":null}"#;
        assert_eq!(check_body(response), Checked::Message { method: None });
        assert_eq!(code(check_body(b"{\"jsonrpc\":")), PARSE_ERROR);
        assert_eq!(code(check_body(b"")), PARSE_ERROR);
        assert_eq!(code(check_body(b"\xff\xfe")), PARSE_ERROR);
        let deep = "[".repeat(100_000);
        assert_eq!(code(check_body(deep.as_bytes())), PARSE_ERROR);
        assert_eq!(
            code(check_body(b"[{\"jsonrpc\":\"2.0\",\"method\":\"x\"}]")),
            INVALID_REQUEST
        );
        let Checked::Refused(wrong) = check_body(br#"{"jsonrpc":"1.0","id":7,"method":"x"}"#)
        else {
            panic!("a JSON-RPC 1.0 message was accepted");
        };
        assert_eq!(wrong["error"]["code"], INVALID_REQUEST);
        assert_eq!(wrong["id"], 7);
        let Checked::Refused(nameless) = check_body(br#"{"jsonrpc":"2.0","id":"a","params":1}"#)
        else {
            panic!("a request without a method was accepted");
        };
        assert_eq!(
            (nameless["error"]["code"].as_i64(), &nameless["id"]),
            (Some(INVALID_REQUEST), &json!("a"))
        );
        assert_eq!(too_large(5)["error"]["code"], INVALID_REQUEST);
    }
}
