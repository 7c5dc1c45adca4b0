//! The command line's other answers about one scenario or ruleset, on the page:
//! the destroy chance as a game screen's whole percentage (`POST /api/percent`), which
//! table cells and modifiers move `p_kill` most (`POST /api/sensitivity`, answered as
//! server-sent events), a ruleset's own answers about a scenario (Chain of Command's
//! hand of Command Dice under every allocation policy, `POST /api/command-dice`) and a
//! ruleset's modifiers (`GET /api/modifiers/{ruleset}`).

use std::convert::Infallible;
use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, State as Shared};
use axum::response::sse::{Event, Sse};
use futures_util::Stream;
use serde::Deserialize;

use combat_odds_report::export::PercentView;
use combat_odds_report::sensitivity::{self, Options, Sensitivity};
use combat_odds_rules::Scenario;
use combat_odds_rules::ruleset::Answers;

use crate::api::{
    Refused, ScenarioRequest, admitted, blocking, blocking_run, document, exact_budget, monte_carlo, one_run,
};
use crate::cost::Cost;
use crate::own_tables::{OwnTables, rules_for};
use crate::state::State;
use crate::stream::{Progress, as_found, streamed};
use combat_odds_core::document::Document;
use combat_odds_core::engine::Mode;
use combat_odds_core::run::Run;
use combat_odds_report::cost::NATIVE;

/// `POST /api/percent`: what `percent-destroy` prints for the scenario.
pub(crate) async fn percent(
    Shared(state): Shared<Arc<State>>,
    Json(request): Json<ScenarioRequest>,
) -> Result<Json<PercentView>, Refused> {
    let monte_carlo = request.monte_carlo(&state.config.limits, 100_000)?;
    let exact_budget = request.exact_budget(&state.config.limits)?;
    let price = one_run(monte_carlo, exact_budget);
    let (mut scenario, doc, slot) = admitted(&state, request.with_tables(), monte_carlo, price).await?;
    let view = blocking_run(exact_budget, move |run| {
        let _slot = slot;
        PercentView::of(&doc, &mut scenario, run)
    })
    .await?;
    Ok(Json(view))
}

/// `POST /api/sensitivity`: a scenario and how to look for what moves it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SensitivityRequest {
    /// The scenario file's text.
    pub scenario: String,
    /// The file name messages use (`page.toml` when not given).
    pub name: Option<String>,
    /// Trials per change where the exact engine does not reach (100,000 when not given).
    pub trials: Option<u64>,
    /// Master seed (2026 when not given).
    pub seed: Option<u64>,
    /// How many of the changes that move `p_kill` most to list (20 when not given).
    pub top: Option<usize>,
    /// Screen every change with pilot trials first (see `sensitivity --screen`).
    #[serde(default)]
    pub screen: bool,
    /// The most seconds each exact stage may take, up to the server's own bound.
    pub exact_seconds: Option<f64>,
    /// Table files of the player's own read in place of the rules' own: their cells
    /// are the ones changed.
    #[serde(default)]
    pub tables: OwnTables,
}

/// What `sensitivity --format json` prints for the scenario, answered as server-sent
/// events: a long run, holding a slot, stopped when its stream closes.
pub(crate) async fn sensitivity(
    Shared(state): Shared<Arc<State>>,
    Json(request): Json<SensitivityRequest>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, Refused> {
    let options = Options { top: request.top.unwrap_or(20), screen: request.screen };
    // Literal, as on the command line: each change is paired with the unchanged tables
    // on common random numbers.
    let sampling = (request.trials, request.seed, Some(Mode::Literal.name()));
    let monte_carlo = monte_carlo(&state.config.limits, sampling, 100_000)?;
    let exact_budget = exact_budget(&state.config.limits, request.exact_seconds)?;
    // Each change is its own exact stage, and its own paired trials where the exact
    // engine does not reach; a single resolution the exact engine answers (its dice
    // enumerated at once) has every change answered exactly, drawing no trial.
    let price = move |doc: &Document, s: &Scenario| {
        let changes = sensitivity::changes_to_try(doc, s)? as u64;
        let reduce = "fewer trials, or a smaller exact_seconds (every change of every table is tried)";
        let experiment = s.set_up.experiment.as_ref();
        let cost = Cost::of(experiment, (changes, "changes"), &monte_carlo, (exact_budget, NATIVE), reduce);
        let exact = !experiment.exact_stage_is_long() && experiment.exact().is_some();
        Ok(if exact { cost.exactly() } else { cost })
    };
    let (plan, doc, slot) =
        admitted(&state, (document(request.name, request.scenario), request.tables), monte_carlo, price).await?;
    let rules = state.config.rules.clone();
    let work = move |progress: &Progress, run: &Run| {
        sensitivity::analyse(&doc, (&plan, &rules), options, &|d, p| progress.set(d, p), run)
    };
    Ok(streamed(state, (slot, exact_budget), work, as_found::<Sensitivity>))
}

/// `POST /api/command-dice`: what `command-dice --format json` prints for the hand.
pub(crate) async fn command_dice(
    Shared(state): Shared<Arc<State>>,
    Json(request): Json<ScenarioRequest>,
) -> Result<Json<Answers>, Refused> {
    let rules = state.config.rules.clone();
    let (doc, own) = request.with_tables();
    let answers = blocking(move || Ok(combat_odds_rules::scenario::answers(&doc, &rules_for(&rules, &own)?)?)).await?;
    Ok(Json(answers))
}

/// `GET /api/modifiers/{ruleset}`: what `modifiers RULESET --format json` prints.
pub(crate) async fn modifiers(
    Shared(state): Shared<Arc<State>>,
    Path(ruleset): Path<String>,
) -> Result<Json<serde_json::Value>, Refused> {
    let loaded = state.config.rules.load(&ruleset)?;
    Ok(Json(serde_json::json!({ "ruleset": loaded.name(), "modifiers": loaded.modifiers() })))
}
