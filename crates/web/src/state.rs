//! What every request shares: the configuration, the long runs under way (each holds a
//! [`Slot`] until its work has stopped) and the last finished runs' files, kept for
//! download.

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use combat_odds_report::error::Error as ReportError;
use combat_odds_report::export::directory::Temporary;
use combat_odds_report::request::Downloads;

use crate::config::Config;

/// How many finished runs' files are kept for download; the oldest goes first. A run
/// is seeded, so one no longer kept is had again by running it again.
pub(crate) const KEPT: usize = 16;

/// How many bytes of kept files the server holds on disk before the oldest go: the
/// newest run's are always kept (a sweep of the most points of a company's engagement
/// writes about 200 MB).
pub(crate) const KEPT_BYTES: u64 = 1 << 30;

/// A finished run's files: its folder, and each file's name and size.
#[derive(Clone)]
pub(crate) struct Files {
    pub(crate) dir: PathBuf,
    pub(crate) listed: Vec<(String, u64)>,
}

/// The server's shared state.
pub(crate) struct State {
    pub(crate) config: Config,
    runs: AtomicUsize,
    /// Places to set up and price a request in, taken first come first served (see
    /// [`PRICING`]).
    pub(crate) pricing: Arc<tokio::sync::Semaphore>,
    kept: Mutex<Kept>,
}

/// The last runs' files, by run number, on disk in a folder of the server's own (made
/// at the first run kept, removed with the server): a sweep's files are written as its
/// points are read back, never held whole in memory.
#[derive(Default)]
struct Kept {
    next: u64,
    /// Private to the user (0700), and held as one of the process's temporaries so a
    /// signal that ends the server removes it too.
    folder: Option<(tempfile::TempDir, Temporary)>,
    files: VecDeque<(u64, Files)>,
}

impl State {
    pub(crate) fn new(config: Config) -> Self {
        State {
            config,
            runs: AtomicUsize::new(0),
            pricing: Arc::new(tokio::sync::Semaphore::new(PRICING)),
            kept: Mutex::new(Kept::default()),
        }
    }

    fn kept_now(&self) -> MutexGuard<'_, Kept> {
        self.kept.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Keeps a run's files: `write` writes them into the folder it is given (whole or
    /// not at all) and names them; the oldest runs' go past [`KEPT`] runs or
    /// [`KEPT_BYTES`]. Gives the number they are fetched by, and what was kept.
    pub(crate) fn keep(
        &self,
        write: impl FnOnce(&Path) -> Result<Vec<String>, ReportError>,
    ) -> Result<(u64, Files), ReportError> {
        let (id, dir) = {
            let mut kept = self.kept_now();
            if kept.folder.is_none() {
                let made = private().prefix("combat-odds-downloads-").tempdir().map_err(|e| {
                    let there = std::env::temp_dir();
                    ReportError::Results(format!("cannot make a folder for downloads in {}: {e}", there.display()))
                })?;
                let held = Temporary::new(made.path());
                kept.folder = Some((made, held));
            }
            kept.next += 1;
            let folder = kept.folder.as_ref().map(|(f, _)| f.path().to_path_buf()).unwrap_or_default();
            (kept.next, folder.join(kept.next.to_string()))
        };
        // Written outside the lock: a large sweep's files take a while.
        let names = write(&dir)?;
        let mut listed = Vec::new();
        // Folders (a chart's parts) are not downloads: files only.
        for name in names.into_iter().filter(|n| !n.ends_with('/')) {
            let path = dir.join(&name);
            let size = std::fs::metadata(&path).map_err(|e| combat_odds_report::export::directory::io(&path, e))?;
            listed.push((name, size.len()));
        }
        let files = Files { dir, listed };
        let mut kept = self.kept_now();
        kept.files.push_back((id, files.clone()));
        let bytes = |k: &Kept| k.files.iter().flat_map(|(_, f)| &f.listed).map(|(_, n)| n).sum::<u64>();
        while kept.files.len() > KEPT || (kept.files.len() > 1 && bytes(&kept) > KEPT_BYTES) {
            if let Some((_, old)) = kept.files.pop_front() {
                // A download under way keeps reading its open file.
                let _ = std::fs::remove_dir_all(&old.dir);
            }
        }
        Ok((id, files))
    }

    /// Run `id`'s files, while they are kept.
    pub(crate) fn kept(&self, id: u64) -> Option<Files> {
        self.kept_now().files.iter().find(|(n, _)| *n == id).map(|(_, files)| files.clone())
    }
}

/// A folder only its owner may enter (0700): what a run wrote is the user's alone.
fn private() -> tempfile::Builder<'static, 'static> {
    let mut builder = tempfile::Builder::new();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o700));
    }
    builder
}

/// The request layer's work keeps a finished run's or sweep's files here.
impl Downloads for State {
    fn keep(
        &self,
        write: &mut dyn FnMut(&Path) -> Result<Vec<String>, ReportError>,
    ) -> Result<(u64, Vec<(String, u64)>), ReportError> {
        let (id, files) = State::keep(self, write)?;
        Ok((id, files.listed))
    }
}

/// One of the server's long-run slots, held until dropped: by the work itself, so a
/// slot is free again only once its run has really stopped.
pub(crate) struct Slot(Arc<State>);

impl Slot {
    /// A slot, unless [`crate::config::Limits::max_runs`] runs hold them all.
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

/// How many requests for long work may be set up and priced at once: pricing is work
/// too (a sweep's points each set up and piloted, up to ten seconds), done before a
/// request is admitted, so it has places of its own, as many as the long-run slots a
/// server has unless told, taken first come first served; a request waiting for one
/// holds nothing but its connection, and one whose client leaves stops waiting.
pub(crate) const PRICING: usize = 4;

/// Sets its flag when dropped: axum drops a request's future (or its response's
/// stream) when the client goes away, and the run polling the flag stops at its next
/// batch.
pub(crate) struct StopOnDrop(pub(crate) Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kept_files_live_on_disk_and_the_oldest_run_s_folder_goes_past_the_most_kept() {
        let state = State::new(Config::default());
        let write = |dir: &Path| {
            std::fs::create_dir_all(dir).unwrap();
            std::fs::write(dir.join("summary.json"), b"{}\n").unwrap();
            Ok(vec!["summary.json".to_string(), "charts/".to_string()])
        };
        let (first, files) = state.keep(write).unwrap();
        assert_eq!(files.listed, [("summary.json".to_string(), 3)], "files only, with their sizes");
        assert!(files.dir.join("summary.json").is_file());
        for _ in 0..KEPT {
            state.keep(write).unwrap();
        }
        assert!(state.kept(first).is_none(), "the oldest goes past {KEPT} runs");
        assert!(!files.dir.exists(), "and its folder with it");
        assert!(state.kept(first + KEPT as u64).is_some());
    }
}
