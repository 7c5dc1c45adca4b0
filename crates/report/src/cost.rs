//! What a request's work will cost, estimated before any of it starts, and the words
//! that say so: one pricing for the server (which admits work by it, its `cost`
//! module) and the browser's engine (which refuses a tab work past its own limit).
//! Work is priced in seconds of one core: its Monte Carlo trials in all (every point,
//! value, change or run of it) at the rate a pilot of its own scenario runs at on the
//! engine's own clock, plus the most its exact stages may take (each bounded by the
//! request's exact budget; a single resolution's dice are enumerated at once and cost
//! nothing here). Admission (slots, status codes, a tab's limit) is the caller's.

use std::time::Duration;

use combat_odds_core::engine::{self, Experiment, Mode, MonteCarlo};
use combat_odds_core::run::Clock;

/// A request's work, as estimated before it starts.
#[derive(Debug, Clone)]
pub struct Cost {
    /// What the work is made of, as its message names it: "40 points", "1000 values".
    runs: (u64, &'static str),
    /// Monte Carlo trials at each run.
    trials: u64,
    /// Seconds of one core one trial takes, from a pilot of the scenario.
    seconds_per_trial: f64,
    /// Exact stages (a solve, a compilation) each run may start.
    exact_stages_per_run: u64,
    /// Whether those stages may each take the whole exact budget (a fight's chain).
    long_exact: bool,
    /// The most one exact stage may take.
    exact_budget: Duration,
    /// What the user can ask for less of, as the message says it.
    reduce: &'static str,
}

impl Cost {
    /// The work of `runs` runs of `experiment` under `monte_carlo` (each an exact
    /// stage, and a compilation when sampled compiled), its trials timed on a pilot
    /// read on `clock` (the engine's own: a browser's is the page's).
    pub fn of(
        experiment: &dyn Experiment,
        runs: (u64, &'static str),
        monte_carlo: &MonteCarlo,
        (exact_budget, clock): (Duration, Clock),
        reduce: &'static str,
    ) -> Self {
        Cost {
            runs,
            trials: monte_carlo.trials,
            seconds_per_trial: engine::seconds_per_trial(experiment, clock),
            exact_stages_per_run: if monte_carlo.mode == Mode::Compiled { 2 } else { 1 },
            long_exact: experiment.exact_stage_is_long(),
            exact_budget,
            reduce,
        }
    }

    /// One exact stage of `experiment` and no trial: what a loaded link's exact answer
    /// costs.
    pub fn exact_stage(experiment: &dyn Experiment, exact_budget: Duration) -> Self {
        Cost {
            runs: (1, "exact stage"),
            trials: 0,
            seconds_per_trial: 0.0,
            exact_stages_per_run: 1,
            long_exact: experiment.exact_stage_is_long(),
            exact_budget,
            reduce: "a smaller exact_seconds",
        }
    }

    /// Runs that draw no trial and solve nothing: a comparison no ruleset answers.
    pub fn nothing(runs: (u64, &'static str), reduce: &'static str) -> Self {
        Cost {
            runs,
            trials: 0,
            seconds_per_trial: 0.0,
            exact_stages_per_run: 0,
            long_exact: false,
            exact_budget: Duration::ZERO,
            reduce,
        }
    }

    /// The same work answered exactly throughout: no trial is drawn.
    pub fn exactly(self) -> Self {
        Cost { trials: 0, ..self }
    }

    /// What the work is made of: how many runs, and what a run is called.
    pub fn runs(&self) -> (u64, &'static str) {
        self.runs
    }

    /// Monte Carlo trials at each run.
    pub fn trials(&self) -> u64 {
        self.trials
    }

    /// What the user can ask for less of.
    pub fn reduce(&self) -> &'static str {
        self.reduce
    }

    /// Monte Carlo trials in all.
    pub fn total_trials(&self) -> u64 {
        self.runs.0.saturating_mul(self.trials)
    }

    /// The most its exact stages may take in all.
    fn exact_seconds(&self) -> f64 {
        match self.long_exact {
            true => (self.runs.0 * self.exact_stages_per_run) as f64 * self.exact_budget.as_secs_f64(),
            false => 0.0,
        }
    }

    /// Seconds of one core the work is estimated at.
    pub fn core_seconds(&self) -> f64 {
        self.total_trials() as f64 * self.seconds_per_trial + self.exact_seconds()
    }

    /// Where the cost comes from, in words: the trials and the exact stages' bound.
    pub fn parts(&self) -> String {
        let (runs, what) = self.runs;
        let trials = format!("{runs} {what} of {} trials at {} a trial", self.trials, duration(self.seconds_per_trial));
        match self.long_exact {
            false => trials,
            true => format!(
                "{trials}, and {} exact stage(s) of up to {} each",
                runs * self.exact_stages_per_run,
                duration(self.exact_budget.as_secs_f64())
            ),
        }
    }

    /// [`Cost::parts`] as the browser's engine has said them: a trial's time to a
    /// tenth of a microsecond, a stage's budget in whole seconds.
    pub fn parts_in_a_tab(&self) -> String {
        let (runs, what) = self.runs;
        let stages = match self.exact_seconds() > 0.0 {
            true => format!(
                ", and {} exact stage(s) of up to {:.0} s each",
                runs * self.exact_stages_per_run,
                self.exact_budget.as_secs_f64()
            ),
            false => String::new(),
        };
        format!("{runs} {what} of {} trials at {:.1} µs a trial{stages}", self.trials, self.seconds_per_trial * 1e6)
    }
}

/// Seconds as a person reads them: "3.2 hours", "24.70 µs".
pub fn duration(seconds: f64) -> String {
    match seconds {
        s if s >= 7200.0 => format!("{:.1} hours", s / 3600.0),
        s if s >= 120.0 => format!("{:.0} minutes", s / 60.0),
        s if s >= 1.0 => format!("{s:.0} seconds"),
        s if s >= 1e-3 => format!("{:.1} ms", s * 1e3),
        s => format!("{:.2} µs", s * 1e6),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cost(runs: u64, trials: u64, seconds_per_trial: f64, long_exact: bool) -> Cost {
        Cost {
            runs: (runs, "values"),
            trials,
            seconds_per_trial,
            exact_stages_per_run: 2,
            long_exact,
            exact_budget: Duration::from_secs(10),
            reduce: "fewer values",
        }
    }

    #[test]
    fn a_fights_exact_stages_are_priced_at_their_budget_and_a_fires_at_nothing() {
        // 1000 values x 20000 trials at 30 µs = 600 s, plus 1000 x 2 stages x 10 s.
        let fight = cost(1000, 20_000, 30e-6, true);
        assert!((fight.core_seconds() - 20_600.0).abs() < 1e-6, "{}", fight.core_seconds());
        let fire = cost(1000, 20_000, 30e-6, false);
        assert!((fire.core_seconds() - 600.0).abs() < 1e-6);
        assert_eq!(fire.total_trials(), 20_000_000);
    }

    #[test]
    fn a_duration_reads_as_a_person_says_it() {
        assert_eq!(duration(20_600.0), "5.7 hours");
        assert_eq!(duration(600.0), "10 minutes");
        assert_eq!(duration(3e-5), "30.00 µs");
    }
}
