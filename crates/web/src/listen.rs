//! Connections: at most [`Connections::max_open`] are served at once (the rest wait in
//! the system's queue, holding nothing of this process), at most
//! [`Connections::max_per_peer`] from one address, and each must send its request's
//! headers within [`Connections::header_timeout`] of opening or of its last answer, so
//! a connection left idle, or one that trickles its headers, is closed. (`axum::serve`
//! has neither: 20,000 idle connections held 396 MB.)
//!
//! No client can hold the places for ever: a connection is closed once its answer under
//! way ends when it is [`Connections::max_age`] old, or sooner when a new connection
//! waits for a place (the oldest is asked first); and an answer's write that waits past
//! [`Connections::write_timeout`] for a client that does not read ends its connection.

use std::collections::{BTreeMap, HashMap};
use std::future::Future;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Notify, OwnedSemaphorePermit, Semaphore, watch};
use tokio::time::Sleep;

use crate::config::Connections;

/// How often a connection waiting for a place asks the oldest open one to close.
const ASK_EVERY: Duration = Duration::from_millis(100);

/// The connections open now: by address, how many; by number (oldest first), what asks
/// each to close.
#[derive(Default)]
struct Open {
    peers: HashMap<IpAddr, usize>,
    by_age: BTreeMap<u64, Arc<Notify>>,
    next: u64,
}

/// The open connections, shared by the accept loop and the connections.
#[derive(Default, Clone)]
struct Registry(Arc<Mutex<Open>>);

impl Registry {
    fn open(&self) -> MutexGuard<'_, Open> {
        self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Enters a connection from `peer`, unless it already has `most` open: its number
    /// and what asks it to close. Loopback is never capped: every client on this
    /// machine, the user's page among them, is that one address.
    fn enter(&self, peer: IpAddr, most: usize) -> Option<(u64, Arc<Notify>)> {
        let mut open = self.open();
        let count = open.peers.entry(peer).or_default();
        if *count >= most && !peer.is_loopback() {
            return None;
        }
        *count += 1;
        open.next += 1;
        let (id, close) = (open.next, Arc::new(Notify::new()));
        open.by_age.insert(id, close.clone());
        Some((id, close))
    }

    fn leave(&self, peer: IpAddr, id: u64) {
        let mut open = self.open();
        open.by_age.remove(&id);
        if let Some(count) = open.peers.get_mut(&peer) {
            *count -= 1;
            if *count == 0 {
                open.peers.remove(&peer);
            }
        }
    }

    /// Asks the oldest open connection not yet asked to close, once its answer under way
    /// ends: a place for the one waiting.
    fn ask_oldest(&self) {
        let mut open = self.open();
        if let Some((_, close)) = open.by_age.pop_first() {
            close.notify_one();
        }
    }
}

/// Accepts connections on `listener` and answers them with `app` until `shutdown`
/// completes; then asks each open connection to close after its answer under way,
/// and returns once all have.
pub(crate) async fn serve(
    listener: TcpListener,
    app: Router,
    limits: Connections,
    shutdown: impl Future<Output = ()> + Send + 'static,
) {
    let open = Arc::new(Semaphore::new(limits.max_open));
    let registry = Registry::default();
    let (closing, closed) = watch::channel(());
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let place = loop {
            tokio::select! {
                place = open.clone().acquire_owned() => break place.expect("the semaphore is never closed"),
                () = tokio::time::sleep(ASK_EVERY) => registry.ask_oldest(),
                () = &mut shutdown => return close_all(closing, open, limits).await,
            }
        };
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, peer)) => (stream, peer.ip()),
                Err(e) => {
                    refused(e).await;
                    continue;
                }
            },
            () = &mut shutdown => return close_all(closing, open, limits).await,
        };
        // One address past its share is closed at once, holding nothing.
        let Some((id, close)) = registry.enter(peer, limits.max_per_peer) else { continue };
        let registry = registry.clone();
        let closed = closed.clone();
        let app = app.clone();
        tokio::spawn(async move {
            connection(stream, app, limits, (place, close), closed).await;
            registry.leave(peer, id);
        });
    }
}

/// Asks every open connection to close after its answer under way, and waits until all
/// have given their places back.
async fn close_all(closing: watch::Sender<()>, open: Arc<Semaphore>, limits: Connections) {
    drop(closing);
    let all = u32::try_from(limits.max_open).unwrap_or(u32::MAX);
    let _ = open.acquire_many(all).await;
}

/// Waits after a failed accept: one that failed for its own connection (reset before
/// it was accepted) is over; one that failed for the process (too many open files)
/// is given time for connections to close, as `axum::serve` does.
async fn refused(e: std::io::Error) {
    use std::io::ErrorKind::{ConnectionAborted, ConnectionRefused, ConnectionReset};
    if !matches!(e.kind(), ConnectionAborted | ConnectionRefused | ConnectionReset) {
        tokio::time::sleep(std::time::Duration::from_secs(1)).await;
    }
}

/// Serves one connection, holding its place until it closes; a shutdown (`closed`
/// ends), its age, or a request for its place (`close`) lets the answer under way
/// finish first.
async fn connection(
    stream: TcpStream,
    app: Router,
    limits: Connections,
    (_place, close): (OwnedSemaphorePermit, Arc<Notify>),
    mut closed: watch::Receiver<()>,
) {
    // Answers are small JSON objects or event streams: send each write at once.
    let _ = stream.set_nodelay(true);
    let mut http = http1::Builder::new();
    http.timer(TokioTimer::new()).header_read_timeout(limits.header_timeout);
    let io = TokioIo::new(WriteTimeout::new(stream, limits.write_timeout));
    let serving = http.serve_connection(io, TowerToHyperService::new(app));
    let mut serving = std::pin::pin!(serving);
    tokio::select! {
        _ = serving.as_mut() => return,
        _ = closed.changed() => {},
        () = close.notified() => {},
        () = tokio::time::sleep(limits.max_age) => {},
    }
    serving.as_mut().graceful_shutdown();
    let _ = serving.await;
}

/// A connection's stream whose writes fail when one waits past its timeout for the
/// client to read: hyper has no write timeout of its own.
struct WriteTimeout {
    stream: TcpStream,
    timeout: Duration,
    /// Set while a write waits.
    waiting: Option<Pin<Box<Sleep>>>,
}

impl WriteTimeout {
    fn new(stream: TcpStream, timeout: Duration) -> Self {
        WriteTimeout { stream, timeout, waiting: None }
    }

    /// After a write that did not complete: the error once it has waited too long.
    fn waited(&mut self, cx: &mut Context<'_>) -> Poll<std::io::Result<usize>> {
        let timeout = self.timeout;
        let waiting = self.waiting.get_or_insert_with(|| Box::pin(tokio::time::sleep(timeout)));
        match waiting.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                "the client read nothing of the answer in time",
            ))),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl AsyncRead for WriteTimeout {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for WriteTimeout {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<std::io::Result<usize>> {
        match Pin::new(&mut self.stream).poll_write(cx, buf) {
            Poll::Pending => self.waited(cx),
            done => {
                self.waiting = None;
                done
            }
        }
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        match Pin::new(&mut self.stream).poll_flush(cx) {
            Poll::Pending => self.waited(cx).map_ok(drop),
            done => {
                self.waiting = None;
                done
            }
        }
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}
