//! The chance a fire destroys its target the way Company Commander's screen shows it
//! ("The percentage chance of 'destroying' each available target unit is displayed.
//! The chance of suppressing a unit will be slightly higher"): a whole percentage,
//! with the exact fraction behind it.

use serde::Serialize;

use crate::cli::FirePlan;
use crate::dice::Ratio;
use crate::engine;
use crate::error::Result;
use crate::export::frames;

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

impl PercentView {
    /// Computes the view: exactly where the exact engine reaches, else by Monte Carlo.
    pub fn new(plan: &FirePlan) -> Result<Self> {
        let experiment = plan.compiled.experiment.as_ref();
        let (km, ko) = experiment.kill();
        let primary = &experiment.measures()[0];
        let (destroy, nothing, exact, method) = match experiment.exact() {
            Some(table) => {
                let (d, n) = (table[km][ko].clone(), table[0][0].clone());
                (d.to_f64(), n.to_f64(), Some((d, n)), "exact".to_string())
            }
            None => {
                let mc = &plan.monte_carlo;
                let tally = engine::run(experiment, mc)?;
                let share = |m: usize, o: usize| tally.counts(m)[o] as f64 / tally.trials() as f64;
                (share(km, ko), share(0, 0), None, format!("Monte Carlo ({} trials, seed {})", mc.trials, mc.seed))
            }
        };
        let at_least = exact.as_ref().map(|(_, n)| Ratio::from_big(n.denom() - n.numer(), n.denom().clone()));
        Ok(PercentView {
            scenario: plan.header.scenario.clone(),
            ruleset: plan.header.ruleset.clone(),
            destroy: Percent::new(destroy, exact.as_ref().map(|(d, _)| d)),
            mildest: primary.outcomes.get(1).cloned().unwrap_or_default(),
            at_least_mildest: Percent::new(1.0 - nothing, at_least.as_ref()),
            method,
        })
    }

    /// As printed: the two percentages and what they rest on.
    pub fn to_table(&self) -> String {
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

    /// As CSV, through the same frame writer as reports.
    pub fn to_csv(&self) -> String {
        frames::percent_frame(self).and_then(|mut f| frames::csv(&mut f)).expect("a percent frame always writes")
    }
}
