//! The page of combat-odds: a local web server (axum on tokio) whose every answer
//! comes from the same library the command line uses: the same tables, overrides,
//! validation and one-line messages. Nothing here knows a ruleset.
//!
//! The modules:
//! - `state`: what every request shares: the configuration, the long-run slots, the
//!   finished runs' files.
//! - `refused`: a request refused, as its status and one line of JSON.
//! - `cost`: what a request will cost, estimated before it starts, and what the server
//!   admits by it.
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

mod state;
mod refused;
mod cost;
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
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::Path;
use axum::http::{StatusCode, Uri, header};
use axum::response::Html;
use axum::routing::{get, post};

pub use guard::BODY_LIMIT;

/// What the server is allowed to do for one request.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// The most Monte Carlo trials one request may ask for.
    pub max_trials: u64,
    /// How many pieces of long work (any request estimated past `long_work`) may be
    /// under way at once; a request beyond them is refused with a message rather than
    /// queued.
    pub max_runs: usize,
    /// Work estimated past this (in seconds of one core) is long work and holds one of
    /// the `max_runs` slots until it has stopped: [`LONG_WORK`] unless told.
    pub long_work: std::time::Duration,
    /// The most work one request may be estimated at, in seconds of one core: its
    /// trials in all at its scenario's pace, and the most its exact stages may take.
    pub max_cost: std::time::Duration,
    /// The most one exact stage (a Markov chain solved or compiled) of a request may
    /// take (`--exact-seconds`); a request may ask for less. Each request's stages
    /// keep their own clock.
    pub exact_budget: std::time::Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_trials: 10_000_000,
            max_runs: 4,
            long_work: LONG_WORK,
            max_cost: std::time::Duration::from_secs(3600),
            exact_budget: std::time::Duration::from_secs(10),
        }
    }
}

pub use cost::LONG_WORK;

/// What one connection may hold, and for how long: a flood of idle or slow
/// connections holds neither memory nor the user's place.
#[derive(Debug, Clone, Copy)]
pub struct Connections {
    /// The most connections open at once; more wait, unanswered, until one closes.
    pub max_open: usize,
    /// How long a connection may take to send a request's headers, counted from when
    /// it opens or its last answer ended: an idle connection closes after this too.
    pub header_timeout: Duration,
    /// How long a request may take to send its body, once its headers are in.
    pub body_timeout: Duration,
}

impl Default for Connections {
    fn default() -> Self {
        Connections { max_open: 256, header_timeout: Duration::from_secs(10), body_timeout: Duration::from_secs(10) }
    }
}

/// How the server answers.
#[derive(Debug, Clone, Default)]
pub struct Config {
    /// Table overrides, laid out like `rulesets/`, as `--rules DIR` gives them.
    pub rules_dir: Option<PathBuf>,
    /// Per-request bounds.
    pub limits: Limits,
    /// Host names the server answers to besides loopback's and the address it listens
    /// on (`--allow-host`): a name this machine has on the network, when `--listen`
    /// shares the page.
    pub hosts: Vec<String>,
    /// Per-connection bounds.
    pub connections: Connections,
}

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
