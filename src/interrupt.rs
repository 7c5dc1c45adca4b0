//! Ctrl-C, as one process-wide flag every long phase looks at.
//!
//! The handler only sets the flag; each phase (Monte Carlo batches, the exact solvers,
//! chain compilation, writing results) checks it at points where stopping leaves
//! nothing behind, and returns [`Error::Interrupted`]. A signal cannot carry a context
//! to the work it stops, so this one flag is the process's, not a run's.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::error::{Error, Result};

static STOP: AtomicBool = AtomicBool::new(false);

/// How long a phase has to notice the flag before the process is ended from the
/// handler: every phase that writes polls far more often, so this only ends work that
/// holds nothing the user asked for (temporary files are removed by the next write).
const GRACE: std::time::Duration = std::time::Duration::from_secs(1);

/// Sets the Ctrl-C handler (once per process; a second call keeps the first). The
/// first Ctrl-C sets the flag; if the process is still running a second later, the
/// handler ends it with exit status 130, so no phase can ignore Ctrl-C.
pub fn install_handler() {
    let _ = ctrlc::set_handler(|| {
        STOP.store(true, Ordering::Relaxed);
        std::thread::sleep(GRACE);
        eprintln!("error: {}", Error::Interrupted);
        std::process::exit(Error::Interrupted.exit_code());
    });
}

/// The flag itself, for loops that poll it.
pub fn flag() -> &'static AtomicBool {
    &STOP
}

/// Whether Ctrl-C has been pressed.
pub fn requested() -> bool {
    STOP.load(Ordering::Relaxed)
}

/// `Err(Interrupted)` once Ctrl-C has been pressed.
pub fn check() -> Result<()> {
    if requested() { Err(Error::Interrupted) } else { Ok(()) }
}
