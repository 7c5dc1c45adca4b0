//! The form over a scenario file: `POST /api/form` reads the file as the rules do and
//! answers with every value the page can offer in place: each value the rules took
//! from a closed list (a catalogue weapon or vehicle, a quality, a modifier, a
//! setting's reading), with that list, and each number or switch, with the range in
//! metres beside it where the ruleset has a ground scale. Nothing here knows a
//! ruleset: the lists are the ones the ruleset's own checks used.

use std::sync::Arc;

use axum::Json;
use axum::extract::State as Shared;
use serde::{Deserialize, Serialize};
use toml::Spanned;
use toml::de::{DeTable, DeValue};

use combat_odds_core::document::{Document, Offer, Unset};
use combat_odds_core::engine::{Mode, MonteCarlo};
use combat_odds_report::compare::Equivalents;
use combat_odds_rules::Scenario;

use crate::api::{Refused, blocking};
use crate::state::State;

/// `POST /api/form`: a scenario file's text.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct FormRequest {
    /// The scenario file's text.
    pub scenario: String,
    /// The file name messages use (`page.toml` when not given).
    pub name: Option<String>,
}

/// What the page can offer for a scenario file.
#[derive(Debug, Serialize)]
pub(crate) struct Form {
    /// Values from closed lists, in the order the text holds them.
    choices: Vec<Choice>,
    /// Numbers and switches, in the order the text holds them.
    values: Vec<Value>,
    /// Settings the rules read for this file that it leaves at their defaults.
    settings: Vec<Unset>,
    /// The ruleset's range unit and metres per unit, where it has a ground scale.
    scale: Option<(String, f64)>,
    /// Why the file cannot be run as it stands, if it cannot: the offers up to that
    /// point still stand.
    error: Option<String>,
}

/// A value from a closed list.
#[derive(Debug, Serialize)]
struct Choice {
    /// Where it is in the file, e.g. `firer[0].weapon`.
    key: String,
    /// The list and the value's place in the text.
    #[serde(flatten)]
    offer: Offer,
}

/// A number or switch the file gives.
#[derive(Debug, Serialize)]
struct Value {
    /// Where it is in the file, e.g. `target.stands`.
    key: String,
    /// `integer`, `float` or `boolean`.
    kind: &'static str,
    /// Its text.
    text: String,
    /// Byte offsets of the value.
    start: usize,
    /// End of the value (exclusive).
    end: usize,
}

/// `POST /api/form`: the form over a scenario file.
pub(crate) async fn form(
    Shared(state): Shared<Arc<State>>,
    Json(request): Json<FormRequest>,
) -> Result<Json<Form>, Refused> {
    let rules_dir = state.config.rules_dir.clone();
    let form = blocking(move || {
        let name = request.name.unwrap_or_else(|| "page.toml".into());
        let doc = Document::new(name.clone(), name, request.scenario);
        // Set up only, never run: one trial is the least a plan may name.
        let plan = MonteCarlo { trials: 1, seed: 0, threads: None, mode: Mode::Compiled };
        let (scale, error) = match Scenario::new(&doc, rules_dir.as_deref(), plan) {
            Ok(scenario) => {
                (Equivalents::of(scenario.ruleset.as_ref()).ok().flatten().and_then(|e| e.words().scale), None)
            }
            Err(e) => (None, Some(e.to_string())),
        };
        let mut leaves = Vec::new();
        if let Ok(table) = DeTable::parse(&doc.text) {
            walk(&doc.text, table.get_ref(), "", &mut leaves);
        }
        let key_at = |start: usize| leaves.iter().find(|l| l.start == start).map(|l| l.key.clone());
        let choices = doc
            .offers()
            .into_iter()
            .filter_map(|offer| Some(Choice { key: key_at(offer.start)?, offer }))
            // A scenario's kind decides which sections it has: changed alone, it would
            // leave the file wrong.
            .filter(|choice| choice.key != "kind")
            .collect();
        let values = leaves.into_iter().filter(|l| l.kind != "string").collect();
        Ok(Form { choices, values, settings: doc.unset(), scale, error })
    })
    .await?;
    Ok(Json(form))
}

/// Every scalar of `table` (parsed from `text`) with its key path, in text order.
fn walk(text: &str, table: &DeTable, prefix: &str, out: &mut Vec<Value>) {
    for (key, value) in table.iter() {
        let key = match prefix {
            "" => key.get_ref().to_string(),
            p => format!("{p}.{}", key.get_ref()),
        };
        leaf(text, &key, value, out);
    }
    out.sort_by_key(|v| v.start);
}

fn leaf(text: &str, key: &str, value: &Spanned<DeValue>, out: &mut Vec<Value>) {
    let span = value.span();
    let kind = match value.get_ref() {
        DeValue::Table(t) => return walk(text, t, key, out),
        DeValue::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                leaf(text, &format!("{key}[{i}]"), item, out);
            }
            return;
        }
        DeValue::String(_) => "string",
        DeValue::Integer(_) => "integer",
        DeValue::Float(_) => "float",
        DeValue::Boolean(_) => "boolean",
        DeValue::Datetime(_) => return,
    };
    let text = text.get(span.clone()).unwrap_or_default().to_string();
    out.push(Value { key: key.to_string(), kind, text, start: span.start, end: span.end });
}
