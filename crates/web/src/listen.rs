//! Connections: at most [`Connections::max_open`] are served at once (the rest wait in
//! the system's queue, holding nothing of this process), at most
//! [`Connections::max_per_peer`] from one address, and each must send its request's
//! headers within [`Connections::header_timeout`] of opening or of its last answer, so
//! a connection left idle, or one that trickles its headers, is closed. (`axum::serve`
//! has neither: 20,000 idle connections held 396 MB.)
//!
//! No client can hold the places for ever. A connection closes once its answer under
//! way ends when it is [`Connections::max_age`] old, and sooner when a new connection
//! waits for a place: the [`ASK_AT_ONCE`] oldest are asked at once, as many more every
//! [`ASK_EVERY`] until a place is given back. One asked with no request under way (idle,
//! or holding half a request's headers) closes as soon as it has been quiet for
//! [`QUIET`], so a request on its way is not lost; one with a request under way closes
//! when its answer ends. An answer's write that waits past
//! [`Connections::write_timeout`] for a client that does not read ends its connection.
//! So local clients reconnecting as fast as they are closed cannot keep the user's page
//! waiting: a connection accepted takes an idle one's place within milliseconds.

use std::collections::{BTreeMap, HashMap};
use std::future::Future;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::Router;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Notify, OwnedSemaphorePermit, Semaphore, watch};
use tokio::time::Sleep;

use crate::config::Connections;

/// How often a connection waiting for a place asks the next oldest open one to close,
/// while those asked before finish their answers under way.
const ASK_EVERY: Duration = Duration::from_millis(10);

/// How many of the oldest connections one ask closes. Asked one at a time, 800 clients
/// reconnecting as fast as they were closed kept a new connection behind them in the
/// system's queue for up to two seconds (each place given back is a round of wake-ups,
/// on cores busy with long runs); asked sixteen at a time, the queue clears that much
/// sooner.
const ASK_AT_ONCE: usize = 16;

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

    /// Asks the [`ASK_AT_ONCE`] oldest open connections not yet asked to close, at once
    /// or once their answer under way ends: places for the one waiting and those queued
    /// behind it.
    fn ask_oldest(&self) {
        let mut open = self.open();
        for _ in 0..ASK_AT_ONCE {
            let Some((_, close)) = open.by_age.pop_first() else { break };
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
        // Accepted before a place is found, so a place is asked for only when a
        // connection waits for one; the rest wait in the system's queue.
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
        let place = match open.clone().try_acquire_owned() {
            Ok(place) => place,
            Err(_) => {
                registry.ask_oldest();
                loop {
                    tokio::select! {
                        place = open.clone().acquire_owned() => break place.expect("the semaphore is never closed"),
                        () = tokio::time::sleep(ASK_EVERY) => registry.ask_oldest(),
                        () = &mut shutdown => return close_all(closing, open, limits).await,
                    }
                }
            }
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

/// Serves one connection, holding its place until it closes. Asked to close (a
/// shutdown, `closed` ending; its age; or a request for its place, `close`), it closes
/// at once when no answer is under way, else once the answer under way has ended.
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
    let under_way = UnderWay::default();
    let serving = http.serve_connection(io, under_way.clone().counting(app));
    let mut serving = std::pin::pin!(serving);
    tokio::select! {
        _ = serving.as_mut() => return,
        _ = closed.changed() => {},
        () = close.notified() => {},
        () = tokio::time::sleep(limits.max_age) => {},
    }
    // hyper's own graceful shutdown waits out a request's headers begun (up to the
    // header timeout), and drops a request sent but not yet read. Here what the client
    // has sent is read first (`biased`), so a request already sent is under way before
    // the check; a connection with a request under way closes once its answer ends, one
    // quiet for [`QUIET`] closes at once, and one busier is given the rest of it.
    loop {
        tokio::select! {
            biased;
            _ = serving.as_mut() => return,
            () = std::future::ready(()) => {},
        }
        if !under_way.is_idle() {
            serving.as_mut().graceful_shutdown();
            let _ = serving.await;
            return;
        }
        let Some(wait) = QUIET.checked_sub(under_way.quiet_for()) else { return };
        tokio::select! {
            biased;
            _ = serving.as_mut() => return,
            () = tokio::time::sleep(wait) => {},
        }
    }
}

/// How long a connection asked to close with no request under way is kept for one
/// that may still be on its way: a client sends its first request as soon as its
/// connection opens, and a kept-alive client its next as soon as its last answer has
/// come, so a connection this quiet is not about to ask. (A shorter time turns places
/// over faster in a flood: every place held this long is at most 5,120 connections a
/// second of 256 places.)
const QUIET: Duration = Duration::from_millis(50);

/// A connection's requests under way (from their headers read until their answer's
/// body has been sent whole, an event stream until it ends), and when the last began
/// or ended (or the connection opened).
#[derive(Clone)]
struct UnderWay(Arc<(AtomicUsize, Mutex<Instant>)>);

impl Default for UnderWay {
    fn default() -> Self {
        UnderWay(Arc::new((AtomicUsize::new(0), Mutex::new(Instant::now()))))
    }
}

impl UnderWay {
    fn is_idle(&self) -> bool {
        self.0.0.load(Ordering::Acquire) == 0
    }

    /// How long since a request began or ended, or the connection opened.
    fn quiet_for(&self) -> Duration {
        self.last().elapsed()
    }

    fn last(&self) -> MutexGuard<'_, Instant> {
        self.0.1.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn enter(&self) -> Entered {
        self.0.0.fetch_add(1, Ordering::AcqRel);
        *self.last() = Instant::now();
        Entered(self.clone())
    }

    /// `app` as hyper serves it, each request counted while under way.
    fn counting(
        self,
        app: Router,
    ) -> impl hyper::service::Service<
        hyper::Request<Incoming>,
        Response = hyper::Response<Counted>,
        Error = std::convert::Infallible,
        Future = impl Future + Send,
    > {
        let app = TowerToHyperService::new(app);
        hyper::service::service_fn(move |request| {
            let entered = self.enter();
            let answer = hyper::service::Service::call(&app, request);
            async move { answer.await.map(|response| response.map(|body| Counted { body, _entered: entered })) }
        })
    }
}

/// One request under way, until dropped with its answer's body.
struct Entered(UnderWay);

impl Drop for Entered {
    fn drop(&mut self) {
        *self.0.last() = Instant::now();
        self.0.0.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// An answer's body, holding its request's place among those under way until it has
/// been sent (hyper drops a body once it has ended) or its connection closes.
struct Counted {
    body: axum::body::Body,
    _entered: Entered,
}

impl hyper::body::Body for Counted {
    type Data = axum::body::Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<hyper::body::Frame<Self::Data>, Self::Error>>> {
        Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> hyper::body::SizeHint {
        self.body.size_hint()
    }
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
