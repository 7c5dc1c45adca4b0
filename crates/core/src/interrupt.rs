//! Ctrl-C, as one process-wide flag every long phase looks at, and the time budget of
//! the exact stage.
//!
//! The handler only sets the flag; each phase (Monte Carlo batches, the exact solvers,
//! chain compilation, writing results) checks it at points where stopping leaves
//! nothing behind, and returns [`Error::Interrupted`]. A signal cannot carry a context
//! to the work it stops, so this one flag is the process's, not a run's. The exact
//! budget sits beside it because the same solver loops poll both
//! ([`exact_should_stop`]) without threading a setting through every ruleset's exact
//! engine.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::error::{Error, Result};

static STOP: AtomicBool = AtomicBool::new(false);

/// How long a phase has to notice the flag before a signal handler may end the
/// process: every phase that writes polls far more often, so ending after this only
/// ends work that holds nothing the user asked for (temporary files are removed by
/// the next write).
pub const GRACE: std::time::Duration = std::time::Duration::from_secs(1);

/// Asks every phase to stop: what a Ctrl-C handler (or a cancelled request) calls.
pub fn request() {
    STOP.store(true, Ordering::Relaxed);
}

/// The flag itself, for loops that poll it.
pub fn flag() -> &'static AtomicBool {
    &STOP
}

/// Whether Ctrl-C has been pressed.
pub(crate) fn requested() -> bool {
    STOP.load(Ordering::Relaxed)
}

/// `Err(Interrupted)` once Ctrl-C has been pressed.
pub fn check() -> Result<()> {
    if requested() { Err(Error::Interrupted) } else { Ok(()) }
}

/// The exact stage's time budget, in milliseconds (`u64::MAX`: none).
static EXACT_BUDGET_MS: AtomicU64 = AtomicU64::new(u64::MAX);
/// When the running exact stage must give up.
static EXACT_DEADLINE: Mutex<Option<Instant>> = Mutex::new(None);
/// Whether an exact stage of this process gave up on its budget.
static EXACT_SPENT: AtomicBool = AtomicBool::new(false);

/// Bounds every exact stage (a Markov chain solved or compiled) to `budget`; past it
/// the stage gives up and Monte Carlo answers alone, which the output says.
pub fn set_exact_budget(budget: Duration) {
    EXACT_BUDGET_MS.store(u64::try_from(budget.as_millis()).unwrap_or(u64::MAX), Ordering::Relaxed);
}

/// Starts the clock of one exact stage.
pub fn begin_exact_stage() {
    let ms = EXACT_BUDGET_MS.load(Ordering::Relaxed);
    let deadline = (ms != u64::MAX).then(|| Instant::now() + Duration::from_millis(ms));
    *EXACT_DEADLINE.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = deadline;
}

/// Whether the running exact stage must stop: Ctrl-C, or its budget spent (which is
/// remembered for [`exact_budget_spent`]).
pub fn exact_should_stop() -> bool {
    if requested() {
        return true;
    }
    let deadline = *EXACT_DEADLINE.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let spent = deadline.is_some_and(|d| Instant::now() >= d);
    if spent {
        EXACT_SPENT.store(true, Ordering::Relaxed);
    }
    spent
}

/// The budget, if an exact stage of this process ran out of it.
pub fn exact_budget_spent() -> Option<Duration> {
    EXACT_SPENT.load(Ordering::Relaxed).then(|| Duration::from_millis(EXACT_BUDGET_MS.load(Ordering::Relaxed)))
}
