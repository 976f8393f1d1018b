//! The life of the server process: it ends soon after `exit`, after its input closes,
//! or after the client's process dies, whatever work or request to the client is still
//! pending.

use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::sync::Notify;
use tower_lsp_server::jsonrpc::{Request, Response};
use tower_lsp_server::{ExitedError, LspService};

use super::Server;

/// After the input ends or `exit` arrives, answers already computed get this long to be
/// written out before the process ends.
const GRACE: Duration = Duration::from_millis(200);

/// Serves one client on `input`/`output` and returns when the session is over. The
/// transport alone would wait for every pending handler, and a handler waiting for the
/// client (say, `workspace/configuration` from a client that crashed) would keep the
/// process alive forever; so the end of the input and `exit` are watched here, and the
/// session ends a moment after either.
pub async fn serve<I, O>(input: I, output: O)
where
    I: AsyncRead + Unpin,
    O: AsyncWrite + Unpin,
{
    let ended = Arc::new(Notify::new());
    let exit = ended.clone();
    let (service, socket) = super::service(exit);
    let service = WatchExit {
        inner: service,
        ended: ended.clone(),
    };
    let input = WatchEof {
        inner: input,
        ended: ended.clone(),
    };
    let serve = tower_lsp_server::Server::new(input, output, socket).serve(service);
    tokio::select! {
        () = serve => {}
        () = async {
            ended.notified().await;
            tokio::time::sleep(GRACE).await;
        } => {}
    }
}

/// The input, telling `ended` when it reaches its end or fails.
struct WatchEof<I> {
    inner: I,
    ended: Arc<Notify>,
}

impl<I: AsyncRead + Unpin> AsyncRead for WatchEof<I> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let room = buf.remaining() > 0;
        let poll = Pin::new(&mut self.inner).poll_read(cx, buf);
        match &poll {
            Poll::Ready(Ok(())) if room && buf.filled().len() == before => self.ended.notify_one(),
            Poll::Ready(Err(_)) => self.ended.notify_one(),
            _ => {}
        }
        poll
    }
}

/// The service, telling `ended` when the client sends `exit`.
struct WatchExit {
    inner: LspService<Server>,
    ended: Arc<Notify>,
}

impl tower_service::Service<Request> for WatchExit {
    type Response = Option<Response>;
    type Error = ExitedError;
    type Future = <LspService<Server> as tower_service::Service<Request>>::Future;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), ExitedError>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request) -> Self::Future {
        if request.method() == "exit" {
            self.ended.notify_one();
        }
        self.inner.call(request)
    }
}
