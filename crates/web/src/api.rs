//! The endpoints: the shipped scenarios, one scenario's report (exact beside a
//! seeded Monte Carlo run) and a ruleset's tables. Every input goes through the
//! library's own validation and comes back as its one-line message; a request the
//! server will not take (too many trials, too many runs at once) is refused with a
//! message saying so; a request whose client goes away stops its run.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use axum::Json;
use axum::extract::{Path, State as Shared};
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};

use combat_odds_core::document::Document;
use combat_odds_core::engine::{Mode, MonteCarlo};
use combat_odds_core::run::Run;
use combat_odds_report::cost::NATIVE;
use combat_odds_report::error::Error as ReportError;
use combat_odds_report::export::{ExactView, Report, frames};
use combat_odds_rules::Scenario;

use crate::config::Limits;
use crate::cost::Cost;
use crate::own_tables::{OwnTables, rules_for};
pub(crate) use crate::refused::Refused;
use crate::state::{Slot, State, StopOnDrop};

/// The scenarios and comparisons of `experiments/`, as (file name, kind, text).
const SHIPPED: &[(&str, &str, &str)] = include!(concat!(env!("OUT_DIR"), "/shipped.rs"));

/// A shipped scenario, as the page lists it.
#[derive(Debug, Serialize)]
pub(crate) struct Shipped {
    /// Its file name under `experiments/`.
    pub name: &'static str,
    /// Its `kind`: `compare` for a comparison, else the kind of scenario.
    pub kind: &'static str,
    /// The TOML, as `fire` and `run` read it.
    pub text: &'static str,
}

/// The text of the shipped file named `name`, if there is one.
pub(crate) fn shipped(name: &str) -> Option<&'static str> {
    SHIPPED.iter().find(|(n, ..)| *n == name).map(|&(.., text)| text)
}

/// `GET /api/scenarios`: every shipped scenario, comparison and sweep.
pub(crate) async fn scenarios() -> Json<Vec<Shipped>> {
    Json(SHIPPED.iter().map(|&(name, kind, text)| Shipped { name, kind, text }).collect())
}

/// A scenario (or comparison) given as its TOML text, with how to sample it: the body
/// of `POST /api/fire`, `/api/run`, `/api/compare`, `/api/percent` and
/// `/api/command-dice`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ScenarioRequest {
    /// The scenario file's text.
    pub scenario: String,
    /// The file name errors and reports use (`page.toml` when not given).
    pub name: Option<String>,
    /// Monte Carlo trials (each endpoint has its default).
    pub trials: Option<u64>,
    /// Master seed (2026 when not given, as on the command line).
    pub seed: Option<u64>,
    /// `compiled` (the default) or `literal`.
    pub mode: Option<String>,
    /// The most seconds each exact stage may take, up to the server's own bound
    /// (`--exact-seconds`, the default).
    pub exact_seconds: Option<f64>,
    /// Table files of the player's own (a catalogue loaded on the page) read in place
    /// of the rules' own for this request.
    #[serde(default)]
    pub tables: OwnTables,
}

impl ScenarioRequest {
    /// The Monte Carlo plan asked for, within the server's limits.
    pub(crate) fn monte_carlo(&self, limits: &Limits, default_trials: u64) -> Result<MonteCarlo, Refused> {
        monte_carlo(limits, (self.trials, self.seed, self.mode.as_deref()), default_trials)
    }

    /// The exact budget asked for, within the server's.
    pub(crate) fn exact_budget(&self, limits: &Limits) -> Result<Duration, Refused> {
        exact_budget(limits, self.exact_seconds)
    }

    /// The scenario file as the library reads it.
    pub(crate) fn document(self) -> Document {
        document(self.name, self.scenario)
    }

    /// The scenario file with the table files of the player's own it is read against.
    pub(crate) fn with_tables(self) -> (Document, OwnTables) {
        (document(self.name, self.scenario), self.tables)
    }

    /// The scenario file, for an endpoint that reads the rules' own tables only: one
    /// that brings tables of its own is refused rather than answered without them.
    pub(crate) fn without_tables(self, endpoint: &str) -> Result<Document, Refused> {
        if self.tables.values().any(|files| !files.is_empty()) {
            return Err(Refused::new(
                StatusCode::BAD_REQUEST,
                format!(
                    "{endpoint} reads the rules' own tables only; leave out `tables` (your own catalogue is read by fire, exact, percent, command dice, sensitivity, run and the form)"
                ),
            ));
        }
        Ok(self.document())
    }
}

/// The Monte Carlo plan a request's (trials, seed, mode) ask for, every request's the
/// same way, within the server's limits; `default_trials` where it names none.
pub(crate) fn monte_carlo(
    limits: &Limits,
    (trials, seed, mode): (Option<u64>, Option<u64>, Option<&str>),
    default_trials: u64,
) -> Result<MonteCarlo, Refused> {
    let trials = trials.unwrap_or(default_trials);
    if trials > limits.max_trials {
        return Err(Refused::new(
            StatusCode::BAD_REQUEST,
            format!("trials {trials}: at most {} per request on this server", limits.max_trials),
        ));
    }
    let mode = match mode {
        None => Mode::Compiled,
        Some(name) => Mode::ALL.into_iter().find(|m| m.name() == name).ok_or_else(|| {
            Refused::new(StatusCode::BAD_REQUEST, format!("mode `{name}`: give `compiled` or `literal`"))
        })?,
    };
    let monte_carlo = MonteCarlo { trials, seed: seed.unwrap_or(2026), threads: None, mode };
    monte_carlo.validate()?;
    Ok(monte_carlo)
}

/// The exact budget a request's `exact_seconds` asks for, within the server's (the
/// server's own where it asks for none).
pub(crate) fn exact_budget(limits: &Limits, exact_seconds: Option<f64>) -> Result<Duration, Refused> {
    match exact_seconds {
        None => Ok(limits.exact_budget),
        Some(s) if s.is_finite() && s >= 0.0 => Ok(Duration::from_secs_f64(s).min(limits.exact_budget)),
        Some(s) => Err(Refused::new(
            StatusCode::BAD_REQUEST,
            format!("exact_seconds {s}: give the most seconds an exact stage may take, 0 or more"),
        )),
    }
}

/// A scenario file a request gives, named `page.toml` where it names none.
pub(crate) fn document(name: Option<String>, text: String) -> Document {
    let name = name.unwrap_or_else(|| "page.toml".into());
    Document::new(name.clone(), name, text)
}

/// `doc` set up against its ruleset (tables overridden as the server was told, then by
/// the request's `own` files, on the blocking pool; a bad file comes back as its
/// one-line message) and its work priced
/// by `price` before any of it starts: refused past the server's limits, and holding
/// a slot when it is long work (see [`crate::cost::admit`]).
pub(crate) async fn admitted(
    state: &Arc<State>,
    (doc, own): (Document, OwnTables),
    monte_carlo: MonteCarlo,
    price: impl FnOnce(&Document, &Scenario) -> Result<Cost, ReportError> + Send + 'static,
) -> Result<(Scenario, Document, Option<Slot>), Refused> {
    let rules = state.config.rules.clone();
    let (scenario, doc, cost) = blocking(move || {
        let scenario = Scenario::new(&doc, &rules_for(&rules, &own)?, monte_carlo)?;
        let cost = price(&doc, &scenario)?;
        Ok((scenario, doc, cost))
    })
    .await?;
    let slot = crate::cost::admit(&cost, state)?;
    Ok((scenario, doc, slot))
}

/// The price of one run of a request's scenario (its exact stage, its compilation
/// when compiled, its trials): what `fire`, `percent` and `run` ask of [`admitted`].
pub(crate) fn one_run(
    monte_carlo: MonteCarlo,
    exact_budget: Duration,
) -> impl FnOnce(&Document, &Scenario) -> Result<Cost, ReportError> + Send + 'static {
    move |_, s| {
        let reduce = "fewer trials, or a smaller exact_seconds";
        Ok(Cost::of(s.set_up.experiment.as_ref(), (1, "run"), &monte_carlo, (exact_budget, NATIVE), reduce))
    }
}

/// `POST /api/fire`: the report `fire --format json` prints for the scenario: every
/// measure exact where the exact engine reaches, beside a seeded Monte Carlo run.
pub(crate) async fn fire(
    Shared(state): Shared<Arc<State>>,
    Json(request): Json<ScenarioRequest>,
) -> Result<Json<Report>, Refused> {
    let monte_carlo = request.monte_carlo(&state.config.limits, 100_000)?;
    let exact_budget = request.exact_budget(&state.config.limits)?;
    // Only long work holds a slot: a single fire draws a million trials in
    // milliseconds, and refusing those would refuse the page's every click; a fight's
    // exact stage or its trials take far longer.
    let price = one_run(monte_carlo, exact_budget);
    let (mut scenario, _, slot) = admitted(&state, request.with_tables(), monte_carlo, price).await?;
    let report = blocking_run(exact_budget, move |run| -> Result<Report, ReportError> {
        let _slot = slot;
        let exact = scenario.exact(run)?;
        Report::run(scenario, exact, &|_, _| {}, run)
    })
    .await?;
    Ok(Json(report))
}

/// `POST /api/exact`: the scenario's exact stage alone (bounded by the exact solver's
/// time budget), for the same body as `POST /api/fire`. No Monte Carlo trial is drawn,
/// so no link, whatever trials it names, starts long work by being opened.
pub(crate) async fn exact(
    Shared(state): Shared<Arc<State>>,
    Json(request): Json<ScenarioRequest>,
) -> Result<Json<ExactView>, Refused> {
    let monte_carlo = request.monte_carlo(&state.config.limits, 100_000)?;
    let exact_budget = request.exact_budget(&state.config.limits)?;
    // One exact stage and no trial: a fight's solve still holds a slot while it runs.
    let price =
        move |_: &Document, s: &Scenario| Ok(Cost::exact_stage(s.set_up.experiment.as_ref(), (exact_budget, NATIVE)));
    let (scenario, _, slot) = admitted(&state, request.with_tables(), monte_carlo, price).await?;
    let exact = blocking_run(exact_budget, move |run| {
        let _slot = slot;
        ExactView::of(scenario, run)
    })
    .await?;
    Ok(Json(exact))
}

/// Runs `work` as the request's own run (see [`blocking`]): stopped when the request
/// is dropped (its client gone), each exact stage within `exact_budget`.
pub(crate) async fn blocking_run<T: Send + 'static>(
    exact_budget: Duration,
    work: impl FnOnce(&Run) -> Result<T, ReportError> + Send + 'static,
) -> Result<T, Refused> {
    let stop = Arc::new(AtomicBool::new(false));
    let _stop_on_drop = StopOnDrop(stop.clone());
    blocking(move || work(&Run::new(&stop, Some(exact_budget)))).await
}

/// Runs `work` on tokio's blocking pool (the engine's own rayon pool does the
/// trials); a panic there comes back as a 500 with its message, never a dropped
/// connection.
pub(crate) async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, ReportError> + Send + 'static,
) -> Result<T, Refused> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| Refused::new(StatusCode::INTERNAL_SERVER_ERROR, format!("the run failed: {e}")))?
        .map_err(Refused::from)
}

/// `GET /api/rulesets`: the name of every ruleset the server was given.
pub(crate) async fn rulesets(Shared(state): Shared<Arc<State>>) -> Json<Vec<&'static str>> {
    Json(state.config.rules.names().collect())
}

/// `GET /api/tables/{ruleset}`: every table of a ruleset with its source, as
/// `tables RULESET --format json` prints it.
pub(crate) async fn tables(
    Shared(state): Shared<Arc<State>>,
    Path(ruleset): Path<String>,
) -> Result<Json<serde_json::Value>, Refused> {
    let loaded = state.config.rules.load(&ruleset)?;
    Ok(Json(frames::tables_json(loaded.as_ref())))
}
