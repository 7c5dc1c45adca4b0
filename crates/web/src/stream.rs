//! Long work answered as server-sent events: `progress` events (done, planned) every
//! tick while it goes, then one `result` event with what it found, or one `error`
//! event with the line that says why not. The work holds a long-run slot until it has
//! really stopped, and closing the stream (the page's Cancel, or the page gone) stops
//! it at its next step.

use std::convert::Infallible;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use axum::response::sse::{Event, Sse};
use futures_util::Stream;
use serde::Serialize;
use tokio::task::JoinHandle;

use combat_odds_core::run::Run;
use combat_odds_report::error::Error as ReportError;

use crate::state::{Slot, State, StopOnDrop};

/// How often progress is sent.
const TICK: Duration = Duration::from_millis(200);

/// Steps done and planned, as the work reports them from its workers.
#[derive(Default)]
pub(crate) struct Progress {
    done: AtomicU64,
    planned: AtomicU64,
}

impl Progress {
    /// Hears (done, planned), as the library's progress callbacks give them.
    pub(crate) fn set(&self, done: u64, planned: u64) {
        self.done.store(done, Ordering::Relaxed);
        self.planned.store(planned, Ordering::Relaxed);
    }
}

/// What a finished piece of work sends, made on the server's side (a run keeps its
/// files there first, on disk: on the blocking pool with the work).
type Finish<T, R> = fn(&State, T) -> Result<R, ReportError>;

/// Work under way, as its event stream holds it.
struct Running<R> {
    work: JoinHandle<Result<R, ReportError>>,
    progress: Arc<Progress>,
    /// Dropped with the stream: a client gone stops the work.
    _stop: StopOnDrop,
}

/// Runs `work` on the blocking pool, holding `slot` (if it needs one) until it ends,
/// and answers with its events; `finish` turns what it found into the `result` event.
/// The work is the request's own run: stopped when its client leaves, each exact
/// stage bounded by `exact_budget`.
pub(crate) fn streamed<T, R>(
    state: Arc<State>,
    (slot, exact_budget): (Option<Slot>, Duration),
    work: impl FnOnce(&Progress, &Run) -> Result<T, ReportError> + Send + 'static,
    finish: Finish<T, R>,
) -> Sse<impl Stream<Item = Result<Event, Infallible>>>
where
    T: Send + 'static,
    R: Serialize + Send + 'static,
{
    let stop = Arc::new(AtomicBool::new(false));
    let progress = Arc::new(Progress::default());
    let work = tokio::task::spawn_blocking({
        let (stop, progress) = (stop.clone(), progress.clone());
        move || {
            let _slot = slot;
            let found = work(&progress, &Run::new(&stop, Some(exact_budget)))?;
            finish(&state, found)
        }
    });
    let running = Running { work, progress, _stop: StopOnDrop(stop) };
    Sse::new(futures_util::stream::unfold(Some(running), next_event))
}

/// The stream's next event: the result or its failure when the work has ended (and
/// then the end of the stream), else progress after a tick.
async fn next_event<R: Serialize>(
    running: Option<Running<R>>,
) -> Option<(Result<Event, Infallible>, Option<Running<R>>)> {
    let mut running = running?;
    match tokio::time::timeout(TICK, &mut running.work).await {
        Err(_) => {
            let done = running.progress.done.load(Ordering::Relaxed);
            let planned = running.progress.planned.load(Ordering::Relaxed);
            let event = json_event("progress", &serde_json::json!({ "done": done, "planned": planned }));
            Some((Ok(event), Some(running)))
        }
        Ok(ended) => {
            let result = ended.map_err(|e| format!("the work failed: {e}")).and_then(|r| r.map_err(|e| e.to_string()));
            let event = match result {
                Ok(found) => json_event("result", &found),
                Err(error) => json_event("error", &serde_json::json!({ "error": error })),
            };
            Some((Ok(event), None))
        }
    }
}

fn json_event(name: &str, data: &impl Serialize) -> Event {
    Event::default().event(name).json_data(data).expect("the events are plain JSON")
}

/// A `finish` for work whose finding is its result as it stands.
pub(crate) fn as_found<T>(_: &State, found: T) -> Result<T, ReportError> {
    Ok(found)
}
