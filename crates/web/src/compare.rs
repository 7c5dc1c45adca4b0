//! Comparisons across rulesets in real units: the words each ruleset's
//! `equivalents.toml` gives (`GET /api/words`), and a comparison file's answers
//! (`POST /api/compare`, answered as server-sent events): kill probability by ruleset, weapon and range, and the
//! paired differences on common random numbers, as `combat-odds compare` finds them.

use combat_odds_core::run::Run;
use combat_odds_report::cost::NATIVE;
use std::convert::Infallible;
use std::sync::Arc;

use axum::Json;
use axum::extract::State as Shared;
use axum::response::sse::{Event, Sse};
use futures_util::Stream;

use combat_odds_report::compare::{self, Compared, Comparison, Equivalents, Words};
use combat_odds_report::error::Error as ReportError;

use crate::api::{Refused, ScenarioRequest, blocking};
use crate::cost::Cost;
use crate::state::State;
use crate::stream::{Progress, as_found, streamed};

/// Trials per run when the request names none: a whole grid answers in a second or two.
const COMPARE_TRIALS: u64 = 20_000;

/// `GET /api/words`: the comparison words and ground scale of every ruleset that has
/// them (one without an `equivalents.toml` answers no comparison).
pub(crate) async fn words(Shared(state): Shared<Arc<State>>) -> Result<Json<Vec<Words>>, Refused> {
    let rules = state.config.rules.clone();
    let words = blocking(move || {
        rules
            .names()
            .filter_map(|name| {
                let loaded = rules.load(name);
                loaded.map_err(ReportError::from).and_then(|l| Equivalents::of(l.as_ref())).transpose()
            })
            .map(|equivalents| Ok(equivalents?.words()))
            .collect::<Result<Vec<_>, ReportError>>()
    })
    .await?;
    Ok(Json(words))
}

/// `POST /api/compare`: a comparison file (in the request's `scenario`) checked at
/// once, then compared with progress events until it ends. Every run of it counts
/// against the trials one request may ask for.
pub(crate) async fn compare(
    Shared(state): Shared<Arc<State>>,
    Json(request): Json<ScenarioRequest>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, Refused> {
    let monte_carlo = request.monte_carlo(&state.config.limits, COMPARE_TRIALS)?;
    let exact_budget = request.exact_budget(&state.config.limits)?;
    let doc = request.without_tables("compare")?;
    let rules = state.config.rules.clone();
    let comparison = Comparison::read(&doc, &rules)?;
    // Priced by the first scenario a ruleset answers: every one is a single resolution.
    let (comparison, cost) = blocking({
        let rules = rules.clone();
        move || {
            let sample = comparison.sample(&rules, monte_carlo)?;
            let runs = (comparison.runs(), "runs");
            let reduce = "fewer trials, ranges or weapons";
            let cost = match &sample {
                Some(s) => Cost::of(s.set_up.experiment.as_ref(), runs, &monte_carlo, (exact_budget, NATIVE), reduce),
                None => Cost::nothing(runs, reduce),
            };
            Ok((comparison, cost))
        }
    })
    .await?;
    let slot = crate::cost::admit(&cost, &state)?;
    let work = move |progress: &Progress, run: &Run| {
        compare::compare(comparison, &rules, monte_carlo, &|d, p| progress.set(d, p), run)
    };
    Ok(streamed(state, (slot, exact_budget), work, as_found::<Compared>))
}
