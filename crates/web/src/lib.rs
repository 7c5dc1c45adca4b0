//! The page of combat-odds: a local web server (axum on tokio) whose every answer
//! comes from the same library the command line uses: the same tables, overrides,
//! validation and one-line messages. Nothing here knows a ruleset.
//!
//! The modules:
//! - `config`: how the server answers: its per-request limits and per-connection
//!   bounds, as the binary's flags set them.
//! - `state`: what every request shares: the configuration, the long-run slots, the
//!   finished runs' files.
//! - `refused`: a request refused, as its status and the request layer's one line of
//!   JSON.
//! - `api`: the fixed answers (`GET /api/scenarios`, `/api/rulesets`, `/api/words`,
//!   `/api/tables/{ruleset}`, `/api/modifiers/{ruleset}`).
//! - `work`: every endpoint of the request layer's list
//!   ([`combat_odds_report::request::Endpoint::ALL`]), answered by one handler:
//!   admission by cost and slot, the request's own run, the answer as JSON or events.
//! - `stream`: long work answered as server-sent events, cancelled with its stream.
//! - `runs`: a finished run's or sweep's files (`GET /api/results/{id}/{file}`).
//! - `guard`: who the server answers (its own host names, its own page's origin), the
//!   headers every answer carries, and refusals as JSON.
//! - `listen`: connections: how many may be open, and how long one may take to send.
//!
//! The page itself (`page/index.html`, and the files it loads, served under `/page/`
//! with no build step) is embedded in the binary: no network, no CDN, and no
//! inline script or style, so the page runs under a policy that allows nothing but this
//! server.
//!
//! ```
//! use combat_odds_web::{Config, router};
//!
//! // A router serving the embedded tables, ready for `axum::serve`.
//! let app = router(Config::default());
//! # drop(app);
//! ```
#![deny(missing_docs)]

mod config;
mod state;
mod refused;
mod api;
mod stream;
mod work;
mod runs;
mod guard;
mod listen;

use std::future::Future;
use std::net::IpAddr;
use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, State as Shared};
use axum::http::{HeaderMap, StatusCode, Uri, header};
use axum::response::Html;
use axum::routing::{get, post};

use combat_odds_report::request::Endpoint;

pub use config::{Config, Connections, LONG_WORK, Limits};
pub use guard::BODY_LIMIT;

/// The page and its endpoints, answering as a server on loopback does.
pub fn router(config: Config) -> Router {
    app(config, None)
}

/// The page and its endpoints for a server listening on `listening` (none: loopback).
fn app(config: Config, listening: Option<IpAddr>) -> Router {
    let guard = guard::Guard { hosts: guard::Hosts::new(&config.hosts, listening), connections: config.connections };
    let state = state::State::new(config);
    let state = Arc::new(state);
    let mut router = Router::new()
        .route("/", get(|| async { Html(PAGE) }))
        .route("/page/{file}", get(page_file))
        .route(
            "/api/interpretations",
            get(|| async { ([(header::CONTENT_TYPE, "text/markdown; charset=utf-8")], INTERPRETATIONS) }),
        )
        .route("/api/scenarios", get(api::scenarios))
        .route("/api/rulesets", get(api::rulesets))
        .route("/api/tables/{ruleset}", get(api::tables))
        .route("/api/modifiers/{ruleset}", get(api::modifiers))
        .route("/api/words", get(api::words));
    // The work the page asks for: the request layer's endpoints, each at its path and
    // the names it answered at before.
    for endpoint in Endpoint::ALL {
        for path in std::iter::once(endpoint.path()).chain(endpoint.aliases().iter().copied()) {
            router = router.route(
                path,
                post(move |Shared(state): Shared<Arc<state::State>>, headers: HeaderMap, body: Bytes| {
                    work::answer(state, endpoint, headers, body)
                }),
            );
        }
    }
    router
        .route("/api/results/{id}/{file}", get(runs::file))
        .fallback(|uri: Uri| async move {
            api::Refused::new(StatusCode::NOT_FOUND, format!("{}: no such page or endpoint", uri.path()))
        })
        .with_state(state)
        .layer(axum::middleware::from_fn_with_state(Arc::new(guard), guard::guard))
}

/// How many connections the system may hold for the server before it accepts them (as
/// many as Linux allows by default, `net.core.somaxconn`): with tokio's 1,024, a flood
/// of local clients filled the queue and a new connection's first packet was dropped,
/// to be sent again a second later.
const BACKLOG: u32 = 4096;

/// A listener on `address` for [`serve`], its queue of connections not yet accepted
/// 4,096 long (tokio's own is 1,024).
pub fn bind(address: std::net::SocketAddr) -> std::io::Result<tokio::net::TcpListener> {
    let socket = if address.is_ipv4() { tokio::net::TcpSocket::new_v4()? } else { tokio::net::TcpSocket::new_v6()? };
    // As `TcpListener::bind`: a port left in TIME_WAIT by a server just stopped is free.
    socket.set_reuseaddr(true)?;
    socket.bind(address)?;
    socket.listen(BACKLOG)
}

/// Serves the page on `listener` until `shutdown` completes, then lets the requests
/// under way finish. At most [`Connections::max_open`] connections are served at once.
pub async fn serve(
    listener: tokio::net::TcpListener,
    config: Config,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let listening = listener.local_addr()?.ip();
    let connections = config.connections;
    listen::serve(listener, app(config, Some(listening)), connections, shutdown).await;
    Ok(())
}

/// The page's markup; its script and style are the files below, so that its policy can
/// forbid inline ones.
const PAGE: &str = include_str!("page/index.html");

/// The page's modules, style and icon, by file name (see `build.rs`).
const PAGE_FILES: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/page.rs"));

/// `GET /page/{file}`: one of the page's files, with the type its name gives.
async fn page_file(Path(file): Path<String>) -> axum::response::Response {
    use axum::response::IntoResponse;
    let Some((_, text)) = PAGE_FILES.iter().find(|(name, _)| *name == file) else {
        return api::Refused::new(StatusCode::NOT_FOUND, format!("/page/{file}: no such file of the page"))
            .into_response();
    };
    let kind = match file.rsplit('.').next() {
        Some("js") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        _ => "image/svg+xml",
    };
    ([(header::CONTENT_TYPE, kind)], *text).into_response()
}

/// Every recorded interpretation and the setting it became, shown beside the tables.
const INTERPRETATIONS: &str = include_str!("../../../docs/interpretations.md");
