//! One run's context: what a piece of work (a CLI command, a server request) carries
//! down to every phase that may take long, so that nothing about one run lives in the
//! process. A run owns its cancellation flag and its exact-solver budget; each exact
//! stage it starts gets its own clock ([`ExactStage`]), so concurrent runs never move
//! each other's deadlines, and a stage that runs out of budget says so for itself.
//! The clock is the run's too: a browser has no `std::time::Instant` (it panics on
//! wasm32-unknown-unknown), so the WebAssembly engine hands its runs the page's clock.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::error::{Error, Result};

/// A monotonic clock: the time since an origin of its own choosing, read only to
/// compare two of its readings.
pub type Clock = fn() -> Duration;

/// The operating system's monotonic clock, from its first reading: every run's clock
/// but the browser's.
pub fn monotonic() -> Duration {
    static ORIGIN: OnceLock<Instant> = OnceLock::new();
    ORIGIN.get_or_init(Instant::now).elapsed()
}

/// A run's cancellation, exact budget and clock.
#[derive(Debug, Clone, Copy)]
pub struct Run<'a> {
    /// Set to stop the run: the CLI's Ctrl-C flag, or a request's own, set when its
    /// client leaves.
    stop: &'a AtomicBool,
    /// The most one exact stage (a Markov chain solved or compiled) may take; `None`:
    /// unbounded.
    exact_budget: Option<Duration>,
    /// What the budget is measured on.
    clock: Clock,
}

impl<'a> Run<'a> {
    /// A run stopped through `stop`, whose exact stages may each take `exact_budget`
    /// by the [`monotonic`] clock.
    pub const fn new(stop: &'a AtomicBool, exact_budget: Option<Duration>) -> Self {
        Run { stop, exact_budget, clock: monotonic }
    }

    /// The same run, its budget measured on `clock`.
    pub const fn with_clock(self, clock: Clock) -> Self {
        Run { clock, ..self }
    }

    /// The run's clock now: two readings apart are the time between them (a study's
    /// wall time, read the same way in a browser).
    pub fn now(&self) -> Duration {
        (self.clock)()
    }

    /// The flag that stops the run, for loops that poll it.
    pub fn stop(&self) -> &'a AtomicBool {
        self.stop
    }

    /// Whether the run has been asked to stop.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// `Err(Interrupted)` once the run has been asked to stop.
    pub fn check(&self) -> Result<()> {
        if self.stopped() { Err(Error::Interrupted) } else { Ok(()) }
    }

    /// Starts the clock of one exact stage of this run.
    pub fn exact_stage(&self) -> ExactStage<'a> {
        ExactStage {
            stop: Some(self.stop),
            // The clock is read only where there is a budget: a run without one never
            // asks for the time.
            deadline: self.exact_budget.map(|b| (self.clock)() + b),
            clock: self.clock,
            budget: self.exact_budget,
            spent: AtomicBool::new(false),
        }
    }
}

/// One exact stage's clock: the run's cancellation and the deadline its budget set
/// when the stage began.
#[derive(Debug)]
pub struct ExactStage<'a> {
    stop: Option<&'a AtomicBool>,
    /// When the stage must stop, by `clock`.
    deadline: Option<Duration>,
    clock: Clock,
    budget: Option<Duration>,
    /// Whether this stage gave up on its budget.
    spent: AtomicBool,
}

impl ExactStage<'static> {
    /// A stage with neither budget nor cancellation: for tests and tools that want
    /// the exact answer however long it takes.
    pub fn unbounded() -> Self {
        ExactStage { stop: None, deadline: None, clock: monotonic, budget: None, spent: AtomicBool::new(false) }
    }
}

impl ExactStage<'_> {
    /// Whether the stage must stop: its run cancelled, or its budget spent (which is
    /// remembered for [`ExactStage::spent`]).
    pub fn should_stop(&self) -> bool {
        if self.stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
            return true;
        }
        let spent = self.deadline.is_some_and(|d| (self.clock)() >= d);
        if spent {
            self.spent.store(true, Ordering::Relaxed);
        }
        spent
    }

    /// The budget, if this stage ran out of it.
    pub fn spent(&self) -> Option<Duration> {
        self.spent.load(Ordering::Relaxed).then_some(self.budget).flatten()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_stage_keeps_its_own_clock_and_its_own_spent_budget() {
        let (a, b) = (AtomicBool::new(false), AtomicBool::new(false));
        let spent = Run::new(&a, Some(Duration::ZERO)).exact_stage();
        let roomy = Run::new(&b, Some(Duration::from_secs(3600))).exact_stage();
        assert!(spent.should_stop());
        assert_eq!(spent.spent(), Some(Duration::ZERO));
        // Another run's stage neither inherits the deadline nor the note.
        assert!(!roomy.should_stop());
        assert_eq!(roomy.spent(), None);
    }

    #[test]
    fn a_stage_reads_its_run_s_clock_not_the_system_s() {
        // A clock stopped at zero never reaches a one-second deadline; one an hour
        // later has passed it.
        fn stopped_clock() -> Duration {
            Duration::ZERO
        }
        let stop = AtomicBool::new(false);
        let stage = Run::new(&stop, Some(Duration::from_secs(1))).with_clock(stopped_clock).exact_stage();
        assert!(!stage.should_stop());
        fn late_clock() -> Duration {
            Duration::from_secs(3600)
        }
        let late = ExactStage { clock: late_clock, ..stage };
        assert!(late.should_stop());
        assert_eq!(late.spent(), Some(Duration::from_secs(1)));
    }

    #[test]
    fn a_cancelled_run_stops_its_stages_without_calling_it_a_spent_budget() {
        let stop = AtomicBool::new(false);
        let run = Run::new(&stop, None);
        let stage = run.exact_stage();
        assert!(!stage.should_stop() && run.check().is_ok());
        stop.store(true, Ordering::Relaxed);
        assert!(stage.should_stop());
        assert!(matches!(run.check(), Err(Error::Interrupted)));
        assert_eq!(stage.spent(), None);
    }
}
