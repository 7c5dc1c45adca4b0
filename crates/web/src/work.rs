//! The work the page asks for: every endpoint of the request layer's list
//! ([`Endpoint::ALL`]) answered by one handler, which adds to the request layer only
//! what a server needs: the body read as text, the set-up and pricing off the async
//! threads, long work admitted to a slot, the request's own run (stopped when its
//! client leaves), and the answer as one JSON body or as server-sent events.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use axum::body::Bytes;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};

use combat_odds_core::run::Run;
use combat_odds_report::request::{self, Context, Downloads, Endpoint, Job};

use crate::api::{Refused, blocking, shipped};
use crate::state::{Slot, State, StopOnDrop};
use crate::stream::streamed;

/// `POST` to `endpoint`'s path: its request read, set up and priced by the request
/// layer, refused past the server's limits, then answered.
pub(crate) async fn answer(state: Arc<State>, endpoint: Endpoint, headers: HeaderMap, body: Bytes) -> Response {
    match answered(state, endpoint, headers, body).await {
        Ok(response) => response,
        Err(refused) => refused.into_response(),
    }
}

async fn answered(state: Arc<State>, endpoint: Endpoint, headers: HeaderMap, body: Bytes) -> Result<Response, Refused> {
    let json = headers.get(header::CONTENT_TYPE).is_some_and(|t| t.as_bytes().starts_with(b"application/json"));
    if !json {
        return Err(Refused::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "Expected request with `Content-Type: application/json`",
        ));
    }
    let text = String::from_utf8(body.to_vec())
        .map_err(|e| Refused::new(StatusCode::BAD_REQUEST, format!("the request: not UTF-8 ({e})")))?;
    // Set up and priced on the request's own run: a client that leaves stops its
    // pricing too. Long work (a sweep's points, a balance's values, each set up and
    // piloted for up to seconds) is priced in a pricing place, waited for in turn; a
    // quick answer's pricing is one set-up and a pilot of milliseconds, and never
    // waits behind them.
    let pricer =
        match endpoint.streamed() {
            true => {
                Some(state.pricing.clone().acquire_owned().await.map_err(|e| {
                    Refused::new(StatusCode::SERVICE_UNAVAILABLE, format!("the server is stopping: {e}"))
                })?)
            }
            false => None,
        };
    let stop = Arc::new(AtomicBool::new(false));
    let _stop_on_drop = StopOnDrop(stop.clone());
    let job = blocking({
        let (state, stop) = (state.clone(), stop.clone());
        // The place is held by the pricing itself, on the blocking pool: it is free
        // again only once the pricing has stopped.
        move || {
            let _pricer = pricer;
            let downloads: Arc<dyn Downloads> = state.clone();
            let context = Context {
                rules: &state.config.rules,
                limits: state.config.limits.request(),
                shipped: &shipped,
                downloads: Some(downloads),
            };
            request::prepare(endpoint, &text, &context, &Run::new(&stop, None))
        }
    })
    .await?;
    let slot = admit(&job, &state)?;
    if endpoint.streamed() {
        return Ok(streamed(slot, job).into_response());
    }
    let answer = blocking(move || {
        let _slot = slot;
        let budget = Some(job.exact_budget);
        job.run(&Run::new(&stop, budget), &|_, _| {})
    })
    .await?;
    Ok(([(header::CONTENT_TYPE, "application/json")], answer).into_response())
}

/// Admits `job` within the request layer's limits; long work (past
/// [`crate::config::Limits::long_work`]) holds a slot, refused when every one is taken.
fn admit(job: &Job, state: &Arc<State>) -> Result<Option<Slot>, Refused> {
    let limits = &state.config.limits;
    limits.request().admit(job)?;
    if job.cost.core_seconds() <= limits.long_work.as_secs_f64() {
        return Ok(None);
    }
    Slot::take(state).map(Some).ok_or_else(|| {
        Refused::new(
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "busy: {} long runs are under way, the most this server takes at once; try again when one ends, or ask for fewer trials",
                limits.max_runs
            ),
        )
    })
}
