//! `POST /api/form`: the form over a scenario file (see `combat_odds_report::form`),
//! every value the page can offer in place, from the lists the rules checked it
//! against, read with the request's own table files where it brings any. The
//! browser's engine answers the same request with the same function.

use std::sync::Arc;

use axum::Json;
use axum::extract::State as Shared;
use serde::Deserialize;

use combat_odds_report::form::Form;

use crate::api::{Refused, blocking, document};
use crate::own_tables::{OwnTables, rules_for};
use crate::state::State;

/// `POST /api/form`: a scenario file's text.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct FormRequest {
    /// The scenario file's text.
    pub scenario: String,
    /// The file name messages use (`page.toml` when not given).
    pub name: Option<String>,
    /// Table files of the player's own read in place of the rules' own, so the form
    /// offers their entries.
    #[serde(default)]
    pub tables: OwnTables,
}

/// `POST /api/form`: the form over a scenario file.
pub(crate) async fn form(
    Shared(state): Shared<Arc<State>>,
    Json(request): Json<FormRequest>,
) -> Result<Json<Form>, Refused> {
    let rules = state.config.rules.clone();
    let doc = document(request.name, request.scenario);
    let own = request.tables;
    let form = blocking(move || Ok(Form::of(&doc, &rules_for(&rules, &own)?))).await?;
    Ok(Json(form))
}
