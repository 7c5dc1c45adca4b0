//! The server's fixed answers, the same for every request (the static site keeps a copy
//! of each under `data/`): the shipped scenarios, the rulesets, a ruleset's tables and
//! modifiers, and the comparison words. The work the page asks for goes through the
//! request layer instead (see `work`).

use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, State as Shared};
use axum::http::StatusCode;
use serde::Serialize;

use combat_odds_report::compare::{Equivalents, Words};
use combat_odds_report::error::Error as ReportError;
use combat_odds_report::export::frames;
use combat_odds_report::request;

pub(crate) use crate::refused::Refused;
use crate::state::State;

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

/// The text of the shipped file named `name`, if there is one: where a sweep finds the
/// base scenario it names.
pub(crate) fn shipped(name: &str) -> Option<String> {
    SHIPPED.iter().find(|(n, ..)| *n == name).map(|&(.., text)| text.to_string())
}

/// `GET /api/scenarios`: every shipped scenario, comparison and sweep.
pub(crate) async fn scenarios() -> Json<Vec<Shipped>> {
    Json(SHIPPED.iter().map(|&(name, kind, text)| Shipped { name, kind, text }).collect())
}

/// Runs `work` on tokio's blocking pool (the engine's own rayon pool does the
/// trials); a panic there comes back as a 500 with its message, never a dropped
/// connection.
pub(crate) async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, request::Refused> + Send + 'static,
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

/// `GET /api/modifiers/{ruleset}`: what `modifiers RULESET --format json` prints.
pub(crate) async fn modifiers(
    Shared(state): Shared<Arc<State>>,
    Path(ruleset): Path<String>,
) -> Result<Json<serde_json::Value>, Refused> {
    let loaded = state.config.rules.load(&ruleset)?;
    Ok(Json(serde_json::json!({ "ruleset": loaded.name(), "modifiers": loaded.modifiers() })))
}

/// `GET /api/words`: the comparison words and ground scale of every ruleset that has
/// them (one without an `equivalents.toml` answers no comparison).
pub(crate) async fn words(Shared(state): Shared<Arc<State>>) -> Result<Json<Vec<Words>>, Refused> {
    let rules = state.config.rules.clone();
    let words = blocking(move || {
        let words = rules
            .names()
            .filter_map(|name| {
                let loaded = rules.load(name);
                loaded.map_err(ReportError::from).and_then(|l| Equivalents::of(l.as_ref())).transpose()
            })
            .map(|equivalents| Ok(equivalents?.words()))
            .collect::<Result<Vec<_>, ReportError>>();
        Ok(words?)
    })
    .await?;
    Ok(Json(words))
}
