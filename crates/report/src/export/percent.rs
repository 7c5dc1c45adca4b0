//! The chance a fire destroys its target the way Company Commander's screen shows it
//! ("The percentage chance of 'destroying' each available target unit is displayed.
//! The chance of suppressing a unit will be slightly higher"): a whole percentage,
//! with the exact fraction behind it.

#[cfg(feature = "files")]
use polars::prelude::{Column, DataFrame, PolarsResult};
use serde::Serialize;

use combat_odds_core::dice::Ratio;
use combat_odds_core::document::Document;
use combat_odds_core::engine::{self, ExactTable, Measure, MonteCarlo, Tally};
use combat_odds_core::run::Run;
use combat_odds_rules::{Header, Scenario};

use super::Rendered;
#[cfg(feature = "files")]
use super::frames;
use crate::error::Result;

/// One probability as a screen would show it.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Percent {
    /// Rounded to the nearest whole percent.
    pub percent: u32,
    /// The probability itself (exact where known, else the Monte Carlo estimate).
    pub probability: f64,
    /// The exact fraction, where the exact engine reaches.
    pub exact_fraction: Option<String>,
}

impl Percent {
    fn new(p: f64, exact: Option<&Ratio>) -> Self {
        Percent { percent: (p * 100.0).round() as u32, probability: p, exact_fraction: exact.map(ToString::to_string) }
    }
}

/// The screen's two numbers for one scenario.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct PercentView {
    /// Scenario name.
    pub scenario: String,
    /// Ruleset name.
    pub ruleset: String,
    /// The chance of destroying the target (the report's `p_kill`).
    pub destroy: Percent,
    /// The mildest outcome above nothing (`suppressed` in Company Commander).
    pub mildest: String,
    /// The chance of that outcome or worse.
    pub at_least_mildest: Percent,
    /// "exact", or "Monte Carlo (N trials, seed S)" where the exact engine does not reach.
    pub method: String,
}

/// What a percent view rests on.
pub enum Basis<'a> {
    /// The exact distribution.
    Exact(&'a ExactTable),
    /// A Monte Carlo tally, where the exact engine does not reach, and how it was run.
    Estimate(&'a Tally, &'a MonteCarlo),
}

/// The primary measures of fires at a target, whose worst outcome is a destruction.
const FIRED_AT: [&str; 4] = ["target", "template", "structure", "aircraft"];

impl PercentView {
    /// The percentages a game screen shows for `scenario` (read from `doc`): from the
    /// exact engine where it reaches, else from a Monte Carlo run. Only a fire at a
    /// target is answered.
    pub fn of(doc: &Document, scenario: &mut Scenario, run: &Run) -> Result<PercentView> {
        let experiment = scenario.set_up.experiment.as_ref();
        let (measures, (km, ko)) = (experiment.measures(), experiment.kill());
        // "Destroying" is a fire's result on its target; a morale test, a hand of dice or
        // a whole engagement has a p_kill of another kind, which this view would mislabel.
        if !FIRED_AT.contains(&measures[0].name.as_str()) {
            return Err(doc
                .error(format!(
                    "percent-destroy answers a fire at a target; this {} scenario's p_kill is `{} = {}`, not a destruction: use `combat-odds fire` for its odds",
                    scenario.header.kind, measures[km].name, measures[km].outcomes[ko]
                ))
                .into());
        }
        let exact = scenario.exact(run)?;
        let experiment = scenario.set_up.experiment.as_ref();
        let (measures, kill) = (experiment.measures(), experiment.kill());
        Ok(match exact {
            Some(table) => PercentView::new(&scenario.header, measures, kill, Basis::Exact(&table)),
            None => {
                let (tally, mode) = engine::run(experiment, &scenario.monte_carlo, run)?;
                let ran = MonteCarlo { mode, ..scenario.monte_carlo };
                PercentView::new(&scenario.header, measures, kill, Basis::Estimate(&tally, &ran))
            }
        })
    }

    /// The view of a scenario's `measures`, whose `kill` cell is the destroy chance and
    /// whose first outcome is "nothing happened".
    pub fn new(header: &Header, measures: &[Measure], (km, ko): (usize, usize), basis: Basis) -> Self {
        let (destroy, nothing, exact, method) = match basis {
            Basis::Exact(table) => {
                let (d, n) = (&table[km][ko], &table[0][0]);
                (d.to_f64(), n.to_f64(), Some((d, n.complement())), "exact".to_string())
            }
            Basis::Estimate(tally, mc) => {
                let share = |m: usize, o: usize| tally.counts(m)[o] as f64 / tally.trials() as f64;
                (share(km, ko), share(0, 0), None, format!("Monte Carlo ({} trials, seed {})", mc.trials, mc.seed))
            }
        };
        PercentView {
            scenario: header.scenario.clone(),
            ruleset: header.ruleset.clone(),
            destroy: Percent::new(destroy, exact.as_ref().map(|(d, _)| *d)),
            mildest: measures[0].outcomes.get(1).cloned().unwrap_or_default(),
            at_least_mildest: Percent::new(1.0 - nothing, exact.as_ref().map(|(_, at_least)| at_least)),
            method,
        }
    }
}

impl Rendered for PercentView {
    /// The two percentages and what they rest on.
    #[cfg(feature = "files")]
    fn to_table(&self) -> String {
        let line = |what: &str, p: &Percent| {
            let fraction = p.exact_fraction.as_ref().map_or(String::new(), |f| format!(" = {f}"));
            format!("  {what:<28} {:>3}%   ({:.6}{fraction})\n", p.percent, p.probability)
        };
        format!(
            "{} -- {}\n{}{}  ({}; percentages rounded to the nearest whole number)\n",
            self.scenario,
            self.ruleset,
            line("destroy", &self.destroy),
            line(&format!("{} or worse", self.mildest), &self.at_least_mildest),
            self.method
        )
    }

    #[cfg(feature = "files")]
    fn to_csv(&self) -> String {
        percent_frame(self).and_then(|mut f| frames::csv(&mut f)).expect("a percent frame always writes")
    }
}

/// The percent view: one row for `destroy`, one for the mildest effect or worse.
#[cfg(feature = "files")]
fn percent_frame(view: &PercentView) -> PolarsResult<DataFrame> {
    let rows: [(String, &Percent); 2] =
        [("destroy".into(), &view.destroy), (format!("{}_or_worse", view.mildest), &view.at_least_mildest)];
    frames::frame(vec![
        Column::new("measure".into(), rows.iter().map(|(m, _)| m.clone()).collect::<Vec<_>>()),
        Column::new("percent".into(), rows.iter().map(|(_, p)| p.percent).collect::<Vec<_>>()),
        Column::new("probability".into(), rows.iter().map(|(_, p)| p.probability).collect::<Vec<_>>()),
        Column::new("exact_fraction".into(), rows.iter().map(|(_, p)| p.exact_fraction.clone()).collect::<Vec<_>>()),
        Column::new("method".into(), vec![view.method.clone(); 2]),
    ])
}
