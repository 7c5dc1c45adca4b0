//! Exact distributions of scenarios, for tests that check hand-computed odds.

use std::panic::Location;

use combat_odds_core::dice::Ratio;
use combat_odds_core::document::Document;
use combat_odds_core::engine::{ExactTable, Measure};

use super::{assert_sums_to_one, experiment_path, plan_doc};

/// The exact distribution of every measure of a scenario.
pub struct Exact {
    measures: Vec<Measure>,
    table: ExactTable,
    kill: (usize, usize),
}

impl Exact {
    /// Compiles inline scenario TOML against the embedded tables and runs the exact engine.
    /// The document's origin is the calling test file, e.g. `tests/suite/command_decision/hand_computed.rs (NAME)`.
    #[track_caller]
    pub fn of(name: &str, toml: &str) -> Self {
        let file = Location::caller().file();
        Self::from_doc(&Document::new(name, format!("{file} ({name})"), toml))
    }

    /// Compiles a scenario document against the embedded tables and runs the exact engine;
    /// every measure must sum to exactly 1.
    pub fn from_doc(doc: &Document) -> Self {
        let plan = plan_doc(doc, 1000, 1, 1);
        let experiment = plan.set_up.experiment.as_ref();
        let table = experiment.exact().expect("small enough for exact enumeration");
        let measures = experiment.measures().to_vec();
        assert_sums_to_one(&doc.name, &measures, &table);
        Exact { measures, table, kill: experiment.kill() }
    }

    /// P(measure = outcome).
    pub fn p(&self, measure: &str, outcome: &str) -> Ratio {
        let m = self
            .measures
            .iter()
            .position(|m| m.name == measure)
            .unwrap_or_else(|| panic!("no measure `{measure}` in {:?}", self.names()));
        let o = self.measures[m]
            .outcomes
            .iter()
            .position(|o| o == outcome)
            .unwrap_or_else(|| panic!("no outcome `{outcome}` of `{measure}`: {:?}", self.measures[m].outcomes));
        self.table[m][o].clone()
    }

    /// The kill probability as the report computes it.
    pub fn p_kill(&self) -> Ratio {
        self.table[self.kill.0][self.kill.1].clone()
    }

    /// The (measure, outcome) the report calls the kill.
    pub fn kill_names(&self) -> (&str, &str) {
        let m = &self.measures[self.kill.0];
        (m.name.as_str(), m.outcomes[self.kill.1].as_str())
    }

    /// Whether the scenario has a measure called `measure`.
    pub fn has(&self, measure: &str) -> bool {
        self.measures.iter().any(|m| m.name == measure)
    }

    /// The names of the scenario's measures, in order.
    pub fn names(&self) -> Vec<&str> {
        self.measures.iter().map(|m| m.name.as_str()).collect()
    }
}

/// The exact fraction `num/den`.
pub fn r(num: u128, den: u128) -> Ratio {
    Ratio::new(num, den)
}

/// A scenario file from experiments/.
pub fn experiment_file(name: &str) -> Document {
    Document::read(&experiment_path(name)).unwrap_or_else(|e| panic!("{e}"))
}

impl Exact {
    /// Every (measure, outcome) with its exact probability, keyed by name and label,
    /// so two scenarios that list the same units differently can be held side by side.
    pub fn by_label(&self) -> std::collections::BTreeMap<(String, String), Ratio> {
        let mut all = std::collections::BTreeMap::new();
        for (m, row) in self.measures.iter().zip(&self.table) {
            for (o, p) in m.outcomes.iter().zip(row) {
                all.insert((m.name.clone(), o.clone()), p.clone());
            }
        }
        all
    }
}
