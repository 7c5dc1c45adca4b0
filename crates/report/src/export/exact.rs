//! What the exact engine alone says of a scenario: what a page shows for a link it was
//! opened with, whose Monte Carlo run waits for the user's click (the server's
//! `POST /api/exact`, and the browser's engine for the same request).

use serde::Serialize;

use combat_odds_core::run::Run;
use combat_odds_rules::Scenario;

use super::mean::{self, ExactMean};
use crate::error::Result;

/// A scenario's exact stage alone: no trial drawn.
#[derive(Debug, Serialize)]
pub struct ExactView {
    ruleset: String,
    scenario: String,
    kind: String,
    /// Where `p_kill` is read, and its exact value where the exact engine reaches.
    p_kill: ExactRow,
    measures: Vec<ExactMeasure>,
    /// How the numbers were reached (and why there are none, where there are none).
    notes: Vec<String>,
}

/// One measure's outcomes, exactly.
#[derive(Debug, Serialize)]
struct ExactMeasure {
    measure: String,
    outcomes: Vec<ExactRow>,
    /// Its exact mean, where its outcomes are whole numbers and the exact engine reaches.
    mean: Option<ExactMean>,
}

/// One outcome's exact chance, as a number and as a fraction; null where the exact
/// engine does not reach.
#[derive(Debug, Serialize)]
struct ExactRow {
    #[serde(skip_serializing_if = "Option::is_none")]
    measure: Option<String>,
    outcome: String,
    exact: Option<f64>,
    exact_fraction: Option<String>,
}

impl ExactView {
    /// `scenario`'s exact stage within `run`'s budget, every measure's outcomes
    /// exactly where the exact engine reaches (null where it does not).
    pub fn of(mut scenario: Scenario, run: &Run) -> Result<ExactView> {
        let table = scenario.exact(run)?;
        let experiment = scenario.set_up.experiment.as_ref();
        let row = |m: usize, o: usize, outcome: &str| {
            let x = table.as_ref().map(|t| &t[m][o]);
            ExactRow {
                measure: None,
                outcome: outcome.to_string(),
                exact: x.map(|r| r.to_f64()),
                exact_fraction: x.map(|r| r.to_string()),
            }
        };
        let measures: Vec<ExactMeasure> = experiment
            .measures()
            .iter()
            .enumerate()
            .map(|(m, measure)| ExactMeasure {
                measure: measure.name.clone(),
                outcomes: measure.outcomes.iter().enumerate().map(|(o, outcome)| row(m, o, outcome)).collect(),
                mean: table.as_ref().and_then(|t| mean::exact_of(&measure.outcomes, &t[m])),
            })
            .collect();
        let (km, ko) = experiment.kill();
        let p_kill =
            ExactRow { measure: Some(measures[km].measure.clone()), ..row(km, ko, &measures[km].outcomes[ko].outcome) };
        let header = scenario.header;
        Ok(ExactView {
            ruleset: header.ruleset,
            scenario: header.scenario,
            kind: header.kind,
            p_kill,
            measures,
            notes: header.notes,
        })
    }
}
