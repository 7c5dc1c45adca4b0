//! Ctrl-C, as the one process-wide flag: the CLI's run stops through it.
//!
//! The handler only sets the flag; each phase (Monte Carlo batches, the exact solvers,
//! chain compilation, writing results) checks its run's stop flag ([`crate::run::Run`])
//! at points where stopping leaves nothing behind, and returns [`Error::Interrupted`].
//! A signal cannot carry a context to the work it stops, so this one flag is the
//! process's; the CLI hands it to its one run, and everything else about a run (its
//! exact budget, a server request's own cancellation) travels with the run.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::error::{Error, Result};

static STOP: AtomicBool = AtomicBool::new(false);

/// How long a phase has to notice the flag before a signal handler may end the
/// process: every phase that writes polls far more often, so ending after this only
/// ends work that holds nothing the user asked for (temporary files are removed by
/// the next write).
pub const GRACE: std::time::Duration = std::time::Duration::from_secs(1);

/// Asks the CLI's run to stop: what its Ctrl-C handler calls.
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
