//! Comparisons across rulesets in real units: the words each ruleset's
//! `equivalents.toml` gives (`GET /api/words`), and a comparison file's answers
//! (`POST /api/compare`, answered as server-sent events): kill probability by ruleset, weapon and range, and the
//! paired differences on common random numbers, as `combat-odds compare` finds them.

use combat_odds_core::run::Run;
use std::convert::Infallible;
use std::sync::Arc;

use axum::Json;
use axum::extract::State as Shared;
use axum::http::StatusCode;
use axum::response::sse::{Event, Sse};
use futures_util::Stream;

use combat_odds_report::compare::{self, Compared, Comparison, Equivalents, Words};
use combat_odds_report::error::Error as ReportError;

use crate::LONG_RUN;
use crate::api::{Refused, ScenarioRequest, blocking, slot};
use crate::state::State;
use crate::stream::{Progress, as_found, streamed};

/// Trials per run when the request names none: a whole grid answers in a second or two.
const COMPARE_TRIALS: u64 = 20_000;

/// `GET /api/words`: every ruleset's comparison words and ground scale.
pub(crate) async fn words(Shared(state): Shared<Arc<State>>) -> Result<Json<Vec<Words>>, Refused> {
    let rules_dir = state.config.rules_dir.clone();
    let words = blocking(move || {
        combat_odds_rules::registry::names()
            .map(|name| {
                let loaded = combat_odds_rules::load(name, rules_dir.as_deref())?;
                Ok(Equivalents::of(loaded.as_ref())?.words())
            })
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
    let limits = state.config.limits;
    let monte_carlo = request.monte_carlo(&limits, COMPARE_TRIALS)?;
    let doc = request.document();
    let comparison = Comparison::read(&doc)?;
    let runs = comparison.rulesets.len() as u64
        * comparison.ranges_m.len().max(1) as u64
        * (2 * comparison.weapons.len() as u64).saturating_sub(1);
    let total = runs.saturating_mul(monte_carlo.trials);
    if total > limits.max_trials {
        return Err(Refused::new(
            StatusCode::BAD_REQUEST,
            format!(
                "trials {}: {runs} runs of them are {total} trials, and this server takes at most {} per request; ask for fewer trials, ranges or weapons",
                monte_carlo.trials, limits.max_trials
            ),
        ));
    }
    let slot = if total > LONG_RUN { Some(slot(&state)?) } else { None };
    let rules_dir = state.config.rules_dir.clone();
    let work = move |progress: &Progress, run: &Run| {
        compare::compare(comparison, rules_dir.as_deref(), monte_carlo, &|d, p| progress.set(d, p), run)
    };
    let exact_budget = state.config.limits.exact_budget;
    Ok(streamed(state, (slot, exact_budget), work, as_found::<Compared>))
}
