//! Scenario balance on the page: a sweep file answered over its grid
//! (`POST /api/sweep`) and the balance finder (`POST /api/balance`), both as
//! server-sent events, bounded in their total trials, stopped when their stream
//! closes. A sweep names its base scenario by file name: the page's request gives the
//! base's text, or the name of a shipped scenario; no path is ever opened.

use combat_odds_core::run::Run;
use combat_odds_report::cost::NATIVE;
use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::Json;
use axum::extract::State as Shared;
use axum::http::StatusCode;
use axum::response::sse::{Event, Sse};
use futures_util::Stream;
use serde::Deserialize;
use toml::Value;

use combat_odds_core::document::Document;
use combat_odds_core::engine::MonteCarlo;
use combat_odds_report::error::Error as ReportError;
use combat_odds_report::sweep::balance::{self, Balance, Span, Target};
use combat_odds_report::sweep::{self, Sweep, SweepResult};
use combat_odds_rules::Scenario;

use crate::api::{Refused, admitted, document, exact_budget, monte_carlo};
use crate::cost::Cost;
use crate::own_tables::OwnTables;
use crate::state::{Slot, State};
use crate::stream::{Progress, as_found, streamed};

/// Trials at each point when the request names none.
const POINT_TRIALS: u64 = 20_000;

/// `POST /api/sweep`: a sweep file, its base scenario, and how to sample.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SweepRequest {
    /// The sweep file's text.
    pub sweep: String,
    /// The base scenario's text; when not given, the shipped scenario the sweep names.
    pub base: Option<String>,
    /// Trials at every point.
    pub trials: Option<u64>,
    /// Master seed.
    pub seed: Option<u64>,
    /// `compiled` or `literal`.
    pub mode: Option<String>,
    /// The most seconds each exact stage may take, up to the server's own bound.
    pub exact_seconds: Option<f64>,
}

/// Prices `runs` runs of the base scenario `base` as [`Cost::of_base`] does (a
/// sweep's points, where given, each as itself): refused past the server's limits,
/// holding a slot when it is long work.
async fn admitted_runs(
    state: &Arc<State>,
    (base, points): (Document, Option<Sweep>),
    (monte_carlo, exact_budget): (MonteCarlo, Duration),
    runs: (u64, &'static str),
    reduce: &'static str,
) -> Result<Option<Slot>, Refused> {
    let rules = state.config.rules.clone();
    let price = move |_: &Document, s: &Scenario| {
        let points = points.as_ref().map(|sweep| (sweep, &rules));
        Ok(Cost::of_base(s.set_up.experiment.as_ref(), points, runs, &monte_carlo, (exact_budget, NATIVE), reduce))
    };
    let (.., slot) = admitted(state, (base, OwnTables::new()), monte_carlo, price).await?;
    Ok(slot)
}

/// `POST /api/sweep`.
pub(crate) async fn sweep(
    Shared(state): Shared<Arc<State>>,
    Json(request): Json<SweepRequest>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, Refused> {
    let sampling = (request.trials, request.seed, request.mode.as_deref());
    let monte_carlo = monte_carlo(&state.config.limits, sampling, POINT_TRIALS)?;
    let doc = Document::new("page-sweep.toml", "page-sweep.toml", request.sweep);
    let base = request.base;
    let found = Sweep::read(
        &doc,
        |name| match (base, crate::api::shipped(name)) {
            (Some(text), _) => Ok(Document::new(name, name, text)),
            (None, Some(text)) => Ok(Document::new(name, name, text)),
            (None, None) => Err(doc
                .error(format!("scenario `{name}` is not a shipped scenario; give its text as the sweep's base"))
                .into()),
        },
        monte_carlo.seed,
    )?;
    let exact_budget = exact_budget(&state.config.limits, request.exact_seconds)?;
    let points = (found.points.len() as u64, "points");
    let reduce = "fewer points or trials, or a smaller exact_seconds";
    let priced = (found.base.clone(), Some(found.clone()));
    let slot = admitted_runs(&state, priced, (monte_carlo, exact_budget), points, reduce).await?;
    let rules = state.config.rules.clone();
    let work = move |progress: &Progress, run: &Run| {
        sweep::run(&found, &rules, monte_carlo, (None, 1), &|d, p| progress.set(d, p), run)
    };
    Ok(streamed(state, (slot, exact_budget), work, finish))
}

/// Keeps a finished sweep's files and says what it found.
fn finish(state: &State, result: SweepResult) -> Result<sweep::Answer, ReportError> {
    let (id, files) = state.keep(|dir| result.write(dir, false))?;
    Ok(result.answer(Some(id), files.listed))
}

/// `POST /api/balance`: a scenario, the key to vary and where, and the chance sought.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct BalanceRequest {
    /// The scenario file's text.
    pub scenario: String,
    /// The file name messages use (`page.toml` when not given).
    pub name: Option<String>,
    /// The key to vary, by its path.
    pub vary: String,
    /// Values to try, each answered.
    pub values: Option<Vec<Value>>,
    /// The low end of a span of numbers.
    pub from: Option<f64>,
    /// The high end.
    pub to: Option<f64>,
    /// Try every step from `from` to `to`; without it, a bisection.
    pub step: Option<f64>,
    /// The bisection's tolerance (a 64th of the span when not given).
    pub tolerance: Option<f64>,
    /// The chance sought (0.5 when not given).
    pub target: Option<f64>,
    /// The measure and outcome balanced (the scenario's `p_kill` when not given).
    pub measure: Option<String>,
    /// The outcome of `measure`.
    pub outcome: Option<String>,
    /// Trials at each value.
    pub trials: Option<u64>,
    /// Master seed.
    pub seed: Option<u64>,
    /// `compiled` or `literal`.
    pub mode: Option<String>,
    /// The most seconds each exact stage may take, up to the server's own bound.
    pub exact_seconds: Option<f64>,
}

/// `POST /api/balance`.
pub(crate) async fn balance(
    Shared(state): Shared<Arc<State>>,
    Json(request): Json<BalanceRequest>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, Refused> {
    let sampling = (request.trials, request.seed, request.mode.as_deref());
    let monte_carlo = monte_carlo(&state.config.limits, sampling, POINT_TRIALS)?;
    let span = Span::of_request(request.values, (request.from, request.to, request.step), request.tolerance)
        .map_err(|m| Refused::new(StatusCode::BAD_REQUEST, m))?;
    let exact_budget = exact_budget(&state.config.limits, request.exact_seconds)?;
    let target = Target { outcome: request.measure.zip(request.outcome), p: request.target.unwrap_or(0.5) };
    let doc = document(request.name, request.scenario);
    let values = (span.most_tries(), "values");
    let reduce = "fewer values or trials, a coarser tolerance, or a smaller exact_seconds";
    let slot = admitted_runs(&state, (doc.clone(), None), (monte_carlo, exact_budget), values, reduce).await?;
    let (key, rules) = (request.vary, state.config.rules.clone());
    let work = move |progress: &Progress, run: &Run| {
        let heard = |d, p| progress.set(d, p);
        balance::balance(&doc, (&key, &span), &target, &rules, monte_carlo, &heard, run)
    };
    Ok(streamed(state, (slot, exact_budget), work, as_found::<Balance>))
}
