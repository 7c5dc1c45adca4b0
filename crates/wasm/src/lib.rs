//! The engine in the browser: what the page's worker (scripts/build-site writes it)
//! calls in place of the server's `/api`, through the same request layer
//! ([`combat_odds_report::request`]) as the server, so a request gives the very bytes
//! the server sends for it, its refusals included.
//!
//! What this crate adds to the request layer is only what a tab needs: its pace (pilots
//! timed on the page's `performance.now()`, exact stages at the tab's slowdown), its
//! lower limit on work ([`Limits::tab`]), and the worker's progress callback. A browser
//! has no threads here (rayon runs every chunk on the worker's one thread), no signals
//! and no `std::time::Instant`: each call is one run on the page's clock, and Cancel
//! ends the worker that runs it.
#![deny(missing_docs)]

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use serde::Deserialize;
use wasm_bindgen::prelude::*;

use combat_odds_core::run::Run;
use combat_odds_report::cost::Pace;
use combat_odds_report::request::{self, Context, Endpoint, Kind, Limits, Refused};
use combat_odds_rules::Rules;

/// How a tab runs an exact stage against the native engine it is estimated by: its
/// pilots timed on the page's clock, and three times slower, the slow end of what
/// this engine was measured at in headless Chromium (1.3x to 3x the native
/// single-thread rate), so a tab is promised no work it takes longer at.
const PACE: Pace = Pace { clock: page_clock, slowdown: 3.0 };

#[wasm_bindgen]
extern "C" {
    /// The page's monotonic clock, in milliseconds.
    #[wasm_bindgen(js_namespace = performance, js_name = now)]
    fn performance_now() -> f64;
}

/// The page's clock as a run reads it.
fn page_clock() -> Duration {
    Duration::from_secs_f64(performance_now() / 1000.0)
}

/// A progress callback the engine may hold across its (one-thread) chunks.
struct Progress(js_sys::Function);

// SAFETY: wasm32-unknown-unknown without the `atomics` target feature (how this crate
// is built) has one thread, so no other thread can ever see the function. Natively,
// where the crate only builds for the workspace's checks, nothing calls the engine.
unsafe impl Sync for Progress {}

impl Progress {
    fn call(&self, done: u64, planned: u64) {
        // A progress message the page fails to take is no reason to stop the run.
        let _ = self.0.call2(&JsValue::NULL, &JsValue::from_f64(done as f64), &JsValue::from_f64(planned as f64));
    }
}

/// A shipped file as the server lists it (`GET /api/scenarios`, the static site's
/// `data/scenarios`): where a sweep finds the base scenario it names.
#[derive(Deserialize)]
struct Shipped {
    name: String,
    text: String,
}

/// The paths this engine answers: every endpoint of the request layer, at its path and
/// the names it answered at before (the worker checks a path against them).
#[wasm_bindgen]
pub fn paths() -> Vec<String> {
    Endpoint::ALL
        .into_iter()
        .flat_map(|e| std::iter::once(e.path()).chain(e.aliases().iter().copied()))
        .map(String::from)
        .collect()
}

/// `POST path` in the browser: `request` is the JSON body the page sends the server;
/// `shipped` the list of shipped files (JSON, as the server lists them; empty where
/// the endpoint needs none); `progress` hears (done, planned) as the work goes. The
/// answer is the server's JSON body (or its `result` event's data); a refusal is thrown
/// as the server's JSON error, `{"error":"..."}`, in the tab's words where its limits
/// are lower.
#[wasm_bindgen]
pub fn answer(path: &str, request: &str, shipped: &str, progress: &js_sys::Function) -> Result<String, String> {
    answered(path, request, shipped, progress).map_err(|refused| refused.to_json())
}

fn answered(path: &str, request: &str, shipped: &str, progress: &js_sys::Function) -> Result<String, Refused> {
    let job = prepared(path, request, shipped)?;
    Limits::tab(PACE).admit(&job)?;
    // Never set: the worker that runs the call is ended to cancel it.
    let stop = AtomicBool::new(false);
    let run = Run::new(&stop, Some(job.exact_budget)).with_clock(page_clock);
    let progress = Progress(progress.clone());
    job.run(&run, &|done, planned| progress.call(done, planned))
}

/// What the same call would cost this tab, priced as [`answer`] prices it before it
/// starts, whether or not the tab would take it on: `{"seconds": ..., "parts": "..."}`,
/// the seconds of its one thread and where they come from (`tests/site/prices.mjs`
/// reads it). A request refused before it is priced throws as [`answer`] does.
#[wasm_bindgen]
pub fn price(path: &str, request: &str, shipped: &str) -> Result<String, String> {
    let job = prepared(path, request, shipped).map_err(|refused| refused.to_json())?;
    Ok(serde_json::json!({ "seconds": job.cost.core_seconds(), "parts": job.cost.parts() }).to_string())
}

/// The request at `path` read, set up and priced for a tab; `shipped` as [`answer`]
/// takes it.
fn prepared(path: &str, request: &str, shipped: &str) -> Result<request::Job, Refused> {
    let endpoint =
        Endpoint::at(path).ok_or_else(|| Refused::new(Kind::NotFound, format!("{path}: no such page or endpoint")))?;
    let shipped: Vec<Shipped> = match shipped {
        "" => Vec::new(),
        list => {
            serde_json::from_str(list).map_err(|e| Refused::new(Kind::Failed, format!("the shipped files: {e}")))?
        }
    };
    let find = |name: &str| shipped.iter().find(|s| s.name == name).map(|s| s.text.clone());
    let rules = Rules::builtin();
    let context = Context { rules: &rules, limits: Limits::tab(PACE), shipped: &find, downloads: None };
    // Never set: the worker that prices it is ended to cancel it.
    let stop = AtomicBool::new(false);
    request::prepare(endpoint, request, &context, &Run::new(&stop, None).with_clock(page_clock))
}
