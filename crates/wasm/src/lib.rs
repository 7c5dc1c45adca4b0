//! The engine in the browser: what the page's worker (scripts/build-site writes it)
//! calls in place of the server's `/api`, over the same libraries, so a scenario, its
//! trials and its seed give the very bytes `combat-odds fire --format json` prints.
//!
//! A browser has no threads here (rayon runs every chunk on the worker's one thread),
//! no signals and no `std::time::Instant`: each call is one run whose clock is the
//! page's `performance.now()`, and Cancel ends the worker that runs it.
#![deny(missing_docs)]

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use serde::Deserialize;
use wasm_bindgen::prelude::*;

use combat_odds_core::document::Document;
use combat_odds_core::engine::{Mode, MonteCarlo};
use combat_odds_core::run::Run;
use combat_odds_report::export::{Rendered, Report};
use combat_odds_rules::Scenario;

/// The body of the server's `POST /api/fire`, read the same way: the page sends one
/// request to either.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Request {
    scenario: String,
    name: Option<String>,
    trials: Option<u64>,
    seed: Option<u64>,
    mode: Option<String>,
    exact_seconds: Option<f64>,
}

/// What the server answers a fire with no `trials` (`POST /api/fire`'s default).
const DEFAULT_TRIALS: u64 = 100_000;
/// The server's default exact budget: a tab waits no longer for an exact answer.
const DEFAULT_EXACT_SECONDS: f64 = 10.0;

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
// where the crate only builds for the workspace's checks, nothing calls `fire`.
unsafe impl Sync for Progress {}

impl Progress {
    fn call(&self, done: u64, planned: u64) {
        // A progress message the page fails to take is no reason to stop the run.
        let _ = self.0.call2(&JsValue::NULL, &JsValue::from_f64(done as f64), &JsValue::from_f64(planned as f64));
    }
}

/// `POST /api/fire` in the browser: `request` is the JSON body the page sends the
/// server; the answer is the report `fire --format json` prints for it (without the
/// trailing newline), or the one-line error the server would send. `progress` hears
/// (trials done, trials planned) between batches.
#[wasm_bindgen]
pub fn fire(request: &str, progress: &js_sys::Function) -> Result<String, String> {
    let request: Request = serde_json::from_str(request).map_err(|e| format!("the request: {e}"))?;
    let mode = match request.mode.as_deref() {
        None => Mode::Compiled,
        Some(name) => Mode::ALL
            .into_iter()
            .find(|m| m.name() == name)
            .ok_or_else(|| format!("mode `{name}`: give `compiled` or `literal`"))?,
    };
    let exact_seconds = request.exact_seconds.unwrap_or(DEFAULT_EXACT_SECONDS);
    if !(exact_seconds.is_finite() && exact_seconds >= 0.0) {
        return Err(format!("exact_seconds {exact_seconds}: give the most seconds an exact stage may take, 0 or more"));
    }
    let monte_carlo = MonteCarlo {
        trials: request.trials.unwrap_or(DEFAULT_TRIALS),
        seed: request.seed.unwrap_or(2026),
        threads: None,
        mode,
    };
    monte_carlo.validate().map_err(|e| e.to_string())?;
    let name = request.name.unwrap_or_else(|| "page.toml".into());
    let doc = Document::new(name.clone(), name, request.scenario);
    let mut scenario = Scenario::new(&doc, None, monte_carlo).map_err(|e| e.to_string())?;
    // Never set: the worker that runs this is ended to cancel it.
    let stop = AtomicBool::new(false);
    let run = Run::new(&stop, Some(Duration::from_secs_f64(exact_seconds))).with_clock(page_clock);
    let exact = scenario.exact(&run).map_err(|e| e.to_string())?;
    let progress = Progress(progress.clone());
    let report = Report::run(scenario, exact, &|done, planned| progress.call(done, planned), &run);
    Ok(report.map_err(|e| e.to_string())?.to_json())
}
