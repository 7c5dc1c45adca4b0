//! Connections: at most [`Connections::max_open`] are served at once (the rest wait in
//! the system's queue, holding nothing of this process), and each must send its
//! request's headers within [`Connections::header_timeout`] of opening or of its last
//! answer, so a connection left idle, or one that trickles its headers, is closed.
//! (`axum::serve` has neither: 20,000 idle connections held 396 MB.)

use std::future::Future;
use std::sync::Arc;

use axum::Router;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore, watch};

use crate::config::Connections;

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
    let (closing, closed) = watch::channel(());
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let place = tokio::select! {
            place = open.clone().acquire_owned() => place.expect("the semaphore is never closed"),
            () = &mut shutdown => break,
        };
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(e) => {
                    refused(e).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        tokio::spawn(connection(stream, app.clone(), limits, place, closed.clone()));
    }
    drop(closing);
    let all = u32::try_from(limits.max_open).unwrap_or(u32::MAX);
    // Every connection gives its place back when it ends.
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

/// Serves one connection, holding its `place` until it closes; a shutdown (`closed`
/// ends) lets the answer under way finish first.
async fn connection(
    stream: TcpStream,
    app: Router,
    limits: Connections,
    _place: OwnedSemaphorePermit,
    mut closed: watch::Receiver<()>,
) {
    // Answers are small JSON objects or event streams: send each write at once.
    let _ = stream.set_nodelay(true);
    let mut http = http1::Builder::new();
    http.timer(TokioTimer::new()).header_read_timeout(limits.header_timeout);
    let serving = http.serve_connection(TokioIo::new(stream), TowerToHyperService::new(app));
    let mut serving = std::pin::pin!(serving);
    tokio::select! {
        _ = serving.as_mut() => return,
        _ = closed.changed() => serving.as_mut().graceful_shutdown(),
    }
    let _ = serving.await;
}
