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
use tokio::task::JoinHandle;

use combat_odds_core::run::Run;
use combat_odds_report::request::{self, Job, Kind};

use crate::state::{Slot, StopOnDrop};

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

/// Work under way, as its event stream holds it.
struct Running {
    work: JoinHandle<Result<String, request::Refused>>,
    progress: Arc<Progress>,
    /// Dropped with the stream: a client gone stops the work.
    _stop: StopOnDrop,
}

/// Runs `job` on the blocking pool, holding `slot` (if it needs one) until it ends,
/// and answers with its events. The work is the request's own run: stopped when its
/// client leaves, each exact stage bounded by the job's budget.
pub(crate) fn streamed(slot: Option<Slot>, job: Job) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    let stop = Arc::new(AtomicBool::new(false));
    let progress = Arc::new(Progress::default());
    let work = tokio::task::spawn_blocking({
        let (stop, progress) = (stop.clone(), progress.clone());
        move || {
            let _slot = slot;
            let budget = Some(job.exact_budget);
            job.run(&Run::new(&stop, budget), &|done, planned| progress.set(done, planned))
        }
    });
    let running = Running { work, progress, _stop: StopOnDrop(stop) };
    Sse::new(futures_util::stream::unfold(Some(running), next_event))
}

/// The stream's next event: the result or its failure when the work has ended (and
/// then the end of the stream), else progress after a tick.
async fn next_event(running: Option<Running>) -> Option<(Result<Event, Infallible>, Option<Running>)> {
    let mut running = running?;
    match tokio::time::timeout(TICK, &mut running.work).await {
        Err(_) => {
            let done = running.progress.done.load(Ordering::Relaxed);
            let planned = running.progress.planned.load(Ordering::Relaxed);
            let event = serde_json::json!({ "done": done, "planned": planned }).to_string();
            Some((Ok(Event::default().event("progress").data(event)), Some(running)))
        }
        Ok(ended) => {
            let ended = ended.map_err(|e| request::Refused::new(Kind::Failed, format!("the work failed: {e}")));
            let event = match ended.and_then(|answer| answer) {
                // The answer's JSON as the request layer wrote it: the bytes the
                // browser's engine answers too.
                Ok(answer) => Event::default().event("result").data(answer),
                Err(refused) => Event::default().event("error").data(refused.to_json()),
            };
            Some((Ok(event), None))
        }
    }
}
