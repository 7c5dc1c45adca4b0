//! What a request's work will cost, estimated before any of it starts, and the words
//! that say so: one pricing for the server (which admits work by it, its `cost`
//! module) and the browser's engine (which refuses a tab work past its own limit).
//!
//! Work is priced in seconds of one core: its Monte Carlo trials in all (every point,
//! value, change or run of it) at the rate a pilot of its own scenario runs at on the
//! engine's own clock, plus its exact stages (a solve, and a compilation when sampled
//! compiled), each at what its experiment expects it to take before it starts
//! ([`Experiment::exact_stage_seconds`]: nothing for a single resolution's dice or a
//! fight the solver refuses at once, the solver's bound on its states, or a short pilot
//! of the solve), times how much slower than natively the engine runs, and at most
//! the request's exact budget: a stage past it stands aside when the budget is spent
//! (a compilation after a solve, which walks the turns the solve kept, at half).
//! A sweep's points are each priced as themselves ([`Cost::of_base`]): five Shermans
//! cost more than the base's three. Every run is also priced for its set-up (reading
//! and setting up its scenario, which a balance of a hundred thousand values of one
//! trial each spends nearly all its time on), at what the set-ups timed while pricing
//! took. Pricing itself is bounded ([`PILOTS`] in all) and stops with the request's run:
//! past its time, the points not yet set up are priced as the mean of those that were.
//! Admission (slots, status codes, a tab's limit) is the caller's.

use std::time::Duration;

use combat_odds_core::engine::{self, Experiment, Mode, MonteCarlo};
use combat_odds_core::run::{Clock, Run, monotonic};
use combat_odds_rules::Rules;

use crate::sweep::Sweep;

/// Where work runs, as its price needs it.
#[derive(Debug, Clone, Copy)]
pub struct Pace {
    /// The engine's clock: pilots are timed on it (a browser's is the page's).
    pub clock: Clock,
    /// How many times slower than natively the engine runs an exact stage: what a
    /// stage's native estimate is multiplied by.
    pub slowdown: f64,
}

/// A native engine's pace: the server's, the command line's.
pub const NATIVE: Pace = Pace { clock: monotonic, slowdown: 1.0 };

/// The most one stage's pilot may run (on the engine's clock) before the stage is
/// priced at its whole budget: a fight whose solver reaches every shipped sweep's
/// points in well under a second finishes within it.
pub const PILOT_STAGE: Duration = Duration::from_secs(1);

/// The most the pilots of one request may run in all: past it, every stage not yet
/// priced is priced at its budget without a pilot, so a sweep of thousands of points
/// waits no longer than this to be admitted.
pub const PILOTS: Duration = Duration::from_secs(10);

/// What a compilation (the second exact stage of a run sampled compiled) is priced at
/// against the solve before it: it walks the turns the solve weighed and kept, and
/// took at most 0.36 of the solve's time on every shipped engagement and sweep point.
const COMPILATION: f64 = 0.5;

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
    /// What setting up every run's scenario is estimated at, in seconds of one core.
    set_up_seconds: f64,
    /// What all the exact stages are estimated at, in seconds of one core.
    exact_seconds: f64,
    /// The most one exact stage may take.
    exact_budget: Duration,
    /// What the user can ask for less of, as the message says it.
    reduce: &'static str,
}

/// What one request's pilots may still run for, stopped with the request's run.
struct Pilots<'a> {
    pricing: Pricing<'a>,
    left: Duration,
}

impl<'a> Pilots<'a> {
    fn new(pricing: Pricing<'a>) -> Self {
        Pilots { pricing, left: PILOTS }
    }

    /// A pilot's run: stopped with the request's, on the engine's clock, for at most
    /// [`PILOT_STAGE`], the exact budget and what is left of the request's pilots.
    fn pilot(&self) -> Run<'a> {
        let Pricing { exact_budget, pace, run } = self.pricing;
        Run::new(run.stop(), Some(exact_budget.min(PILOT_STAGE).min(self.left))).with_clock(pace.clock)
    }

    /// `work` on a pilot's run, its time taken from what is left.
    fn piloted<T>(&mut self, work: impl FnOnce(&Run) -> T) -> T {
        let pilot = self.pilot();
        let started = pilot.now();
        let done = work(&pilot);
        self.left = self.left.saturating_sub(pilot.now() - started);
        done
    }

    /// Seconds one exact stage of `experiment` is priced at: its own estimate at the
    /// engine's pace, at most the exact budget; the whole budget where it cannot say.
    fn stage(&mut self, experiment: &dyn Experiment) -> f64 {
        let Pricing { exact_budget: budget, pace, .. } = self.pricing;
        let estimate = self.piloted(|pilot| experiment.exact_stage_seconds(pilot));
        estimate.map_or(budget.as_secs_f64(), |s| (s * pace.slowdown).min(budget.as_secs_f64()))
    }

    /// Seconds one trial of `experiment` itself takes, from a pilot: sampled compiled,
    /// of the compiled experiment where it compiles within a pilot (a compiled fight's
    /// trial took a third of a literal one's: pricing three values of a Mission Command
    /// fight at the literal pace came to 3.5 times their processor time), else literal.
    fn trial(&mut self, experiment: &dyn Experiment, mode: Mode) -> f64 {
        let clock = self.pricing.pace.clock;
        let compiled = mode == Mode::Compiled;
        let pace = self.piloted(|pilot| {
            let compiled = compiled.then(|| experiment.compiled_in(&pilot.exact_stage())).flatten();
            compiled.map(|c| engine::seconds_per_trial(c.as_ref(), clock))
        });
        pace.unwrap_or_else(|| engine::seconds_per_trial(experiment, clock))
    }
}

/// How a request's work is priced: the most one of its exact stages may take, where its
/// engine runs, and the request's own run, which pricing stops with.
#[derive(Debug, Clone, Copy)]
pub struct Pricing<'a> {
    /// The most one exact stage may take.
    pub exact_budget: Duration,
    /// Where the work runs.
    pub pace: Pace,
    /// The request's run: pricing stops when it is stopped (its client gone), and the
    /// caller then reports the interruption.
    pub run: &'a Run<'a>,
}

impl Pricing<'_> {
    /// Seconds `work` takes on the engine's clock, with what it gives.
    pub fn timed<T>(&self, work: impl FnOnce() -> T) -> (T, f64) {
        let started = (self.pace.clock)();
        let done = work();
        (done, ((self.pace.clock)() - started).as_secs_f64())
    }
}

impl Cost {
    /// The work of `runs` runs of `experiment` under `monte_carlo` (each an exact
    /// stage, and a compilation when sampled compiled), its trials timed on a pilot
    /// and its stages priced at the pricing's pace.
    pub fn of(
        experiment: &dyn Experiment,
        runs: (u64, &'static str),
        monte_carlo: &MonteCarlo,
        pricing: Pricing,
        reduce: &'static str,
    ) -> Self {
        let mut pilots = Pilots::new(pricing);
        let stages = runs.0 as f64 * pilots.stage(experiment);
        let pace = pilots.trial(experiment, monte_carlo.mode);
        Self::priced(pace, (runs, monte_carlo), pricing, stages, reduce)
    }

    /// The same work, each run also setting up its own scenario in `seconds` (timed on
    /// the engine's clock while pricing).
    pub fn with_set_up(self, seconds: f64) -> Self {
        Cost { set_up_seconds: self.runs.0 as f64 * seconds, ..self }
    }

    /// The work of `runs` runs of a base scenario's `experiment`, each the base with
    /// values written in (a sweep's points, a balance's values), its trials timed on a
    /// pilot of the base. Where a sweep's `points` are given (set up by their rules),
    /// each point's exact stages are priced from the point itself (five Shermans cost
    /// more than the base's three), the base's own never piloted, and a point the rules
    /// refuse costs nothing, as the sweep refuses it before any work; else every run's
    /// as the base's.
    ///
    /// A sweep sets every point up twice (once to check them all before any run, once
    /// to run it), and each set-up is priced at what the points' set-ups took while
    /// pricing. Past [`PILOTS`] of pricing, or once the request's run is stopped, the
    /// points not yet set up are priced at the mean of those that were.
    pub fn of_base(
        experiment: &dyn Experiment,
        points: Option<(&Sweep, &Rules)>,
        runs: (u64, &'static str),
        monte_carlo: &MonteCarlo,
        pricing: Pricing,
        reduce: &'static str,
    ) -> Self {
        let Some((sweep, rules)) = points else {
            return Self::of(experiment, runs, monte_carlo, pricing, reduce);
        };
        let mut pilots = Pilots::new(pricing);
        let (mut stages, mut set_ups, mut priced) = (0.0, 0.0, 0usize);
        for i in 0..sweep.points.len() {
            if pricing.run.stopped() || pilots.left.is_zero() {
                break;
            }
            let (point, took) = pricing.timed(|| sweep.set_up(i, rules, *monte_carlo));
            pilots.left = pilots.left.saturating_sub(Duration::from_secs_f64(took));
            set_ups += took;
            priced += 1;
            if let Ok((_, point)) = point {
                stages += pilots.stage(point.set_up.experiment.as_ref());
            }
        }
        // The points not priced, at the mean of those that were.
        let all = sweep.points.len() as f64 / priced.max(1) as f64;
        // Points differ from their base in what compiles (a point the compilation
        // stands aside for is sampled literally): their trials at the literal pace.
        let pace = engine::seconds_per_trial(experiment, pricing.pace.clock);
        let cost = Self::priced(pace, (runs, monte_carlo), pricing, stages * all, reduce);
        Cost { set_up_seconds: 2.0 * set_ups * all, ..cost }
    }

    /// `runs` runs of trials at `seconds_per_trial` (a pilot's), and solves priced at
    /// `stages` seconds in all (a compilation after each, when sampled compiled).
    fn priced(
        seconds_per_trial: f64,
        (runs, monte_carlo): ((u64, &'static str), &MonteCarlo),
        pricing: Pricing,
        stages: f64,
        reduce: &'static str,
    ) -> Self {
        Cost {
            runs,
            trials: monte_carlo.trials,
            seconds_per_trial,
            exact_stages_per_run: if monte_carlo.mode == Mode::Compiled { 2 } else { 1 },
            exact_seconds: stages * per_run(monte_carlo),
            set_up_seconds: 0.0,
            exact_budget: pricing.exact_budget,
            reduce,
        }
    }

    /// One exact stage of `experiment` and no trial: what a loaded link's exact answer
    /// costs.
    pub fn exact_stage(experiment: &dyn Experiment, pricing: Pricing) -> Self {
        Cost {
            runs: (1, "exact stage"),
            trials: 0,
            seconds_per_trial: 0.0,
            exact_stages_per_run: 1,
            exact_seconds: Pilots::new(pricing).stage(experiment),
            set_up_seconds: 0.0,
            exact_budget: pricing.exact_budget,
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
            exact_seconds: 0.0,
            set_up_seconds: 0.0,
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

    /// Seconds of one core the work is estimated at.
    pub fn core_seconds(&self) -> f64 {
        self.total_trials() as f64 * self.seconds_per_trial + self.exact_seconds + self.set_up_seconds
    }

    /// Where the cost comes from, in words: the trials, and the exact stages where
    /// they cost anything.
    pub fn parts(&self) -> String {
        let (runs, what) = self.runs;
        let mut trials =
            format!("{runs} {what} of {} trials at {} a trial", self.trials, duration(self.seconds_per_trial));
        if self.set_up_seconds > 0.0 {
            trials += &format!(", set up in about {} in all", duration(self.set_up_seconds));
        }
        match self.exact_seconds > 0.0 {
            false => trials,
            true => format!(
                "{trials}, and {} exact stage(s) of about {} in all, each at most {}",
                runs.saturating_mul(self.exact_stages_per_run),
                duration(self.exact_seconds),
                duration(self.exact_budget.as_secs_f64())
            ),
        }
    }
}

/// A run's exact stages against one solve: the solve, and a compilation when sampled
/// compiled.
fn per_run(monte_carlo: &MonteCarlo) -> f64 {
    if monte_carlo.mode == Mode::Compiled { 1.0 + COMPILATION } else { 1.0 }
}

/// Seconds as a person reads them: "3.2 hours", "24.70 µs".
pub fn duration(seconds: f64) -> String {
    match seconds {
        s if s >= 7200.0 => format!("{:.1} hours", s / 3600.0),
        s if s >= 600.0 => format!("{:.0} minutes", s / 60.0),
        // A tab's limit is 2 minutes: 2.4 minutes of work is not said as "2 minutes".
        s if s >= 120.0 => format!("{} minutes", tenths(s / 60.0)),
        s if s >= 10.0 => format!("{s:.0} seconds"),
        // Not "1 seconds", nor 1.4 read as 1.
        s if s >= 1.0 => format!("{s:.1} seconds"),
        s if s >= 1e-3 => format!("{:.1} ms", s * 1e3),
        s => format!("{:.2} µs", s * 1e6),
    }
}

/// `x` to one decimal, without a trailing ".0": 2.4, 2.
fn tenths(x: f64) -> String {
    let text = format!("{x:.1}");
    text.strip_suffix(".0").map_or(text.clone(), str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;
    use combat_odds_core::engine::{ExactTable, Measure, Streams, Tally};
    use combat_odds_core::run::ExactStage;

    /// An experiment whose stage expects what it is told to.
    struct Expecting(Option<f64>);

    impl Experiment for Expecting {
        fn measures(&self) -> &[Measure] {
            &[]
        }
        fn kill(&self) -> (usize, usize) {
            (0, 0)
        }
        fn simulate(&self, _: &mut Streams, _: u64, _: &mut Tally) {}
        fn exact_in(&self, _: &ExactStage) -> Option<ExactTable> {
            None
        }
        fn exact_stage_seconds(&self, _: &Run) -> Option<f64> {
            self.0
        }
    }

    #[test]
    fn a_stage_is_priced_at_its_own_estimate_at_the_engines_pace_and_at_most_its_budget() {
        let stop = std::sync::atomic::AtomicBool::new(false);
        let run = Run::new(&stop, None);
        let budget = Duration::from_secs(10);
        let mut tab =
            Pilots::new(Pricing { exact_budget: budget, pace: Pace { clock: monotonic, slowdown: 3.0 }, run: &run });
        assert_eq!(tab.stage(&Expecting(Some(0.5))), 1.5);
        assert_eq!(tab.stage(&Expecting(Some(0.0))), 0.0);
        // Past its budget it stands aside when the budget is spent; unknown, it may
        // take all of it.
        assert_eq!(tab.stage(&Expecting(Some(4.0))), 10.0);
        assert_eq!(tab.stage(&Expecting(None)), 10.0);
    }

    #[test]
    fn a_duration_reads_as_a_person_says_it() {
        assert_eq!(duration(20_600.0), "5.7 hours");
        assert_eq!(duration(600.0), "10 minutes");
        assert_eq!(duration(144.0), "2.4 minutes");
        assert_eq!(duration(120.0), "2 minutes");
        assert_eq!(duration(14.2), "14 seconds");
        assert_eq!(duration(1.04), "1.0 seconds");
        assert_eq!(duration(3e-5), "30.00 µs");
    }
}
