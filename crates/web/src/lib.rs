//! The page of combat-odds: a local web server (axum on tokio) whose every answer
//! comes from the same library the command line uses: the same tables, overrides,
//! validation and one-line messages. Nothing here knows a ruleset.
//!
//! The modules:
//! - `config`: how the server answers: its per-request limits and per-connection
//!   bounds, as the binary's flags set them.
//! - `state`: what every request shares: the configuration, the long-run slots, the
//!   finished runs' files.
//! - `refused`: a request refused, as its status and one line of JSON.
//! - `cost`: what a request will cost, estimated before it starts, and what the server
//!   admits by it.
//! - `own_tables`: table files of a player's own (a catalogue loaded on the page), read
//!   for one request in place of the rules' own.
//! - `api`: the quick endpoints (`GET /api/scenarios`, `POST /api/fire`,
//!   `POST /api/exact`, `GET /api/rulesets`, `GET /api/tables/{ruleset}`), their limits
//!   and their errors.
//! - `stream`: long work answered as server-sent events, cancelled with its stream.
//! - `views`: the command line's other answers (`POST /api/percent`,
//!   `POST /api/sensitivity`, `POST /api/command-dice`, `GET /api/modifiers/{ruleset}`).
//! - `form`: what the page offers in place of each value of a scenario file
//!   (`POST /api/form`), from the lists the rules checked it against.
//! - `compare`: comparisons across rulesets (`GET /api/words`, `POST /api/compare`).
//! - `sweeps`: scenario balance (`POST /api/sweep`, `POST /api/balance`), answered as
//!   server-sent events.
//! - `runs`: long runs (`POST /api/run`, answered with server-sent events) and their
//!   files (`GET /api/results/{id}/{file}`).
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
mod cost;
mod own_tables;
mod api;
mod stream;
mod views;
mod form;
mod compare;
mod sweeps;
mod runs;
mod guard;
mod listen;

use std::future::Future;
use std::net::IpAddr;
use std::sync::Arc;

use axum::Router;
use axum::extract::Path;
use axum::http::{StatusCode, Uri, header};
use axum::response::Html;
use axum::routing::{get, post};

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
    Router::new()
        .route("/", get(|| async { Html(PAGE) }))
        .route("/page/{file}", get(page_file))
        .route(
            "/api/interpretations",
            get(|| async { ([(header::CONTENT_TYPE, "text/markdown; charset=utf-8")], INTERPRETATIONS) }),
        )
        .route("/api/scenarios", get(api::scenarios))
        .route("/api/rulesets", get(api::rulesets))
        .route("/api/fire", post(api::fire))
        .route("/api/exact", post(api::exact))
        .route("/api/tables/{ruleset}", get(api::tables))
        .route("/api/percent", post(views::percent))
        .route("/api/sensitivity", post(views::sensitivity))
        .route("/api/command-dice", post(views::command_dice))
        .route("/api/modifiers/{ruleset}", get(views::modifiers))
        .route("/api/form", post(form::form))
        .route("/api/words", get(compare::words))
        .route("/api/compare", post(compare::compare))
        .route("/api/sweep", post(sweeps::sweep))
        .route("/api/balance", post(sweeps::balance))
        .route("/api/run", post(runs::run))
        .route("/api/results/{id}/{file}", get(runs::file))
        .fallback(|uri: Uri| async move {
            api::Refused::new(StatusCode::NOT_FOUND, format!("{}: no such page or endpoint", uri.path()))
        })
        .with_state(Arc::new(state))
        .layer(axum::middleware::from_fn_with_state(Arc::new(guard), guard::guard))
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
