//! What every request shares: the configuration, the long runs under way (each holds a
//! [`Slot`] until its work has stopped) and the last finished runs' files, kept for
//! download.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use crate::Config;

/// How many finished runs' files are kept for download; the oldest goes first. A run
/// is seeded, so one no longer kept is had again by running it again.
pub(crate) const KEPT: usize = 16;

/// A finished run's files, as (file name, bytes).
pub(crate) type Files = Arc<Vec<(String, Vec<u8>)>>;

/// The server's shared state.
pub(crate) struct State {
    pub(crate) config: Config,
    runs: AtomicUsize,
    kept: Mutex<Kept>,
}

/// The last [`KEPT`] runs' files, by run number.
#[derive(Default)]
struct Kept {
    next: u64,
    files: VecDeque<(u64, Files)>,
}

impl State {
    pub(crate) fn new(config: Config) -> Self {
        State { config, runs: AtomicUsize::new(0), kept: Mutex::new(Kept::default()) }
    }

    /// Keeps a run's files and gives the number they are fetched by.
    pub(crate) fn keep(&self, files: Files) -> u64 {
        let mut kept = self.kept.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        kept.next += 1;
        let id = kept.next;
        if kept.files.len() == KEPT {
            kept.files.pop_front();
        }
        kept.files.push_back((id, files));
        id
    }

    /// Run `id`'s files, while they are kept.
    pub(crate) fn kept(&self, id: u64) -> Option<Files> {
        let kept = self.kept.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        kept.files.iter().find(|(n, _)| *n == id).map(|(_, files)| files.clone())
    }
}

/// One of the server's long-run slots, held until dropped: by the work itself, so a
/// slot is free again only once its run has really stopped.
pub(crate) struct Slot(Arc<State>);

impl Slot {
    /// A slot, unless [`crate::Limits::max_runs`] runs hold them all.
    pub(crate) fn take(state: &Arc<State>) -> Option<Self> {
        let max = state.config.limits.max_runs;
        state.runs.fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| (n < max).then_some(n + 1)).ok()?;
        Some(Slot(state.clone()))
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.runs.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Sets its flag when dropped: axum drops a request's future (or its response's
/// stream) when the client goes away, and the run polling the flag stops at its next
/// batch.
pub(crate) struct StopOnDrop(pub(crate) Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}
