//! The page of combat-odds: a local web server (axum on tokio) whose every answer
//! comes from the same library the command line uses: the same tables, overrides,
//! validation and one-line messages. Nothing here knows a ruleset.
//!
//! The modules:
//! - `state`: what every request shares: the configuration, the long-run slots, the
//!   finished runs' files.
//! - `api`: the quick endpoints (`GET /api/scenarios`, `POST /api/fire`,
//!   `GET /api/rulesets`, `GET /api/tables/{ruleset}`), their limits and their errors.
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
//!
//! The page itself (`page/index.html`) is embedded in the binary: no network, no CDN.
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
mod api;
mod stream;
mod views;
mod form;
mod compare;
mod sweeps;
mod runs;

use std::future::Future;
use std::path::PathBuf;
use std::sync::Arc;

use axum::Router;
use axum::http::header;
use axum::response::Html;
use axum::routing::{get, post};

/// What the server is allowed to do for one request.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// The most Monte Carlo trials one request may ask for.
    pub max_trials: u64,
    /// How many long runs (a study's run, or a fire or comparison of more than
    /// [`LONG_RUN`] trials) may be under way at once; a request beyond them is refused
    /// with a message rather than queued.
    pub max_runs: usize,
    /// The most one exact stage (a Markov chain solved or compiled) of a request may
    /// take (`--exact-seconds`); a request may ask for less. Each request's stages
    /// keep their own clock.
    pub exact_budget: std::time::Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { max_trials: 10_000_000, max_runs: 4, exact_budget: std::time::Duration::from_secs(60) }
    }
}

/// Trials above which a run counts against [`Limits::max_runs`]: a single fire draws a
/// million trials in milliseconds, so only runs past this hold a core for long.
pub const LONG_RUN: u64 = 1_000_000;

/// How the server answers.
#[derive(Debug, Clone, Default)]
pub struct Config {
    /// Table overrides, laid out like `rulesets/`, as `--rules DIR` gives them.
    pub rules_dir: Option<PathBuf>,
    /// Per-request bounds.
    pub limits: Limits,
}

/// The page and its endpoints.
pub fn router(config: Config) -> Router {
    let state = state::State::new(config);
    Router::new()
        .route("/", get(|| async { Html(PAGE) }))
        .route(
            "/api/interpretations",
            get(|| async { ([(header::CONTENT_TYPE, "text/markdown; charset=utf-8")], INTERPRETATIONS) }),
        )
        .route("/api/scenarios", get(api::scenarios))
        .route("/api/rulesets", get(api::rulesets))
        .route("/api/fire", post(api::fire))
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
        .with_state(Arc::new(state))
}

/// Serves the page on `listener` until `shutdown` completes.
pub async fn serve(
    listener: tokio::net::TcpListener,
    config: Config,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    axum::serve(listener, router(config)).with_graceful_shutdown(shutdown).await
}

/// The page: one HTML file with its script and style inline.
const PAGE: &str = include_str!("page/index.html");

/// Every recorded interpretation and the setting it became, shown beside the tables.
const INTERPRETATIONS: &str = include_str!("../../../docs/interpretations.md");
