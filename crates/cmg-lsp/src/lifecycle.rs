//! The life of the server process. The input is read by its own loop, below the
//! transport's queue of handlers, so that `exit` and the end of the input are seen even
//! while every handler waits; it checks each frame ([`framing`]) and answers a bad body
//! itself. The process ends soon after `exit` (status 0 after `shutdown`, 1 without, as
//! the specification says), after its input closes, after the framing is lost (status 1,
//! logged on stderr), or after the client's process dies, whatever work or request to
//! the client is still pending.

use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::{mpsc, Notify};

use super::framing::{self, Checked, Frame};

/// After the input ends or `exit` arrives, answers already computed get this long to be
/// written out before the process ends.
const GRACE: Duration = Duration::from_millis(200);
/// Handler futures the transport runs at once. Its default of 4 let four requests that
/// wait (for a solve, for the client) stop every other message; a waiting handler costs
/// only its future, so the limit is far above what a client keeps in flight.
const CONCURRENCY: usize = 1024;
/// The size of the in-memory pipes between this loop and the transport.
const PIPE_BYTES: usize = 1 << 16;

/// How a session ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// `exit`, after `shutdown` or not.
    Exit { after_shutdown: bool },
    /// The input closed.
    InputClosed,
    /// The input is no longer a sequence of frames.
    LostFraming,
    /// The client's process is gone.
    ClientGone,
}

impl Ending {
    pub fn exit_code(self) -> ExitCode {
        match self {
            Ending::Exit {
                after_shutdown: true,
            }
            | Ending::InputClosed
            | Ending::ClientGone => ExitCode::SUCCESS,
            Ending::Exit {
                after_shutdown: false,
            }
            | Ending::LostFraming => ExitCode::FAILURE,
        }
    }
}

/// Serves one client on `input`/`output` and returns when the session is over.
pub async fn serve<I, O>(input: I, output: O) -> Ending
where
    I: AsyncRead + Unpin,
    O: AsyncWrite + Unpin,
{
    let client_gone = Arc::new(Notify::new());
    let (service, socket) = super::service(client_gone.clone());
    let (transport_in, mut to_transport) = tokio::io::duplex(PIPE_BYTES);
    let (transport_out, from_transport) = tokio::io::duplex(PIPE_BYTES);
    // Unbounded, so that reading the input never waits for the transport: that is what
    // lets `exit` and the end of the input through while the handlers are all busy. The
    // client's own flow bounds it.
    let (frames, mut frames_rx) = mpsc::unbounded_channel::<Vec<u8>>();
    let (out, mut out_rx) = mpsc::unbounded_channel::<Vec<u8>>();

    let transport = tower_lsp_server::Server::new(transport_in, transport_out, socket)
        .concurrency_level(CONCURRENCY)
        .serve(service);
    let forward = async move {
        while let Some(frame) = frames_rx.recv().await {
            if to_transport.write_all(&frame).await.is_err() {
                return;
            }
        }
    };
    let transport_output = out.clone();
    let pump = async move {
        let mut from_transport = BufReader::new(from_transport);
        while let Ok(Some(Frame::Body(body))) = framing::read_frame(&mut from_transport).await {
            if transport_output.send(body).is_err() {
                return;
            }
        }
    };
    let mut output = output;
    let write = async move {
        while let Some(body) = out_rx.recv().await {
            let written = async {
                output.write_all(&framing::frame(&body)).await?;
                output.flush().await
            };
            if written.await.is_err() {
                return;
            }
        }
    };
    // Never done by itself: the session ends when the input loop says so.
    let background = async {
        tokio::join!(transport, forward, pump, write);
        std::future::pending::<()>().await;
    };
    let session = async {
        let ending = tokio::select! {
            ending = read_input(input, frames, out) => ending,
            () = client_gone.notified() => Ending::ClientGone,
        };
        tokio::time::sleep(GRACE).await;
        ending
    };
    tokio::select! {
        ending = session => ending,
        () = background => unreachable!("the background never ends"),
    }
}

/// Reads frames until the session ends: each good one goes to the transport, each bad
/// one is answered on `out`.
async fn read_input<I: AsyncRead + Unpin>(
    input: I,
    frames: mpsc::UnboundedSender<Vec<u8>>,
    out: mpsc::UnboundedSender<Vec<u8>>,
) -> Ending {
    let mut input = BufReader::new(input);
    let mut after_shutdown = false;
    let answer = |response: Value| {
        let _ = out.send(serde_json::to_vec(&response).unwrap_or_default());
    };
    loop {
        let body = match framing::read_frame(&mut input).await {
            Ok(Some(Frame::Body(body))) => body,
            Ok(Some(Frame::TooLarge(length))) => {
                answer(framing::too_large(length));
                continue;
            }
            Ok(None) => return Ending::InputClosed,
            Err(lost) => {
                eprintln!(
                    "cmg lsp: the input is no longer a sequence of LSP messages ({}); the server ends",
                    lost.0
                );
                return Ending::LostFraming;
            }
        };
        match framing::check_body(&body) {
            Checked::Refused(response) => answer(response),
            Checked::Message { method } => {
                let _ = frames.send(framing::frame(&body));
                match method.as_deref() {
                    Some("shutdown") => after_shutdown = true,
                    Some("exit") => return Ending::Exit { after_shutdown },
                    _ => {}
                }
            }
        }
    }
}
