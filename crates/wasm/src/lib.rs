//! The engine in the browser: what the page's worker (scripts/build-site writes it)
//! calls in place of the server's `/api`, over the same libraries, so a scenario, its
//! trials and its seed give the very bytes `combat-odds fire --format json` prints, and
//! every other answer the bytes the server sends for the same request.
//!
//! A browser has no threads here (rayon runs every chunk on the worker's one thread),
//! no signals and no `std::time::Instant`: each call is one run whose clock is the
//! page's `performance.now()`, and Cancel ends the worker that runs it.
#![deny(missing_docs)]

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

use combat_odds_core::document::Document;
use combat_odds_core::engine::{Mode, MonteCarlo};
use combat_odds_core::run::Run;
use combat_odds_report::compare::{self, Comparison};
use combat_odds_report::cost::{Cost, Pace, duration};
use combat_odds_report::export::{ExactView, PercentView, Rendered, Report};
use combat_odds_report::form::Form;
use combat_odds_report::sensitivity::{self, Options};
use combat_odds_report::sweep::balance::{self, Span, Target};
use combat_odds_report::sweep::{self, Sweep};
use combat_odds_rules::{Rules, Scenario};
use toml::Value;

/// The body of the server's `POST /api/fire`, `/api/exact`, `/api/run`, `/api/compare`,
/// `/api/percent` and `/api/command-dice`, read the same way: the page sends one
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

/// The body of the server's `POST /api/sensitivity`: a scenario and how to look for
/// what moves it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SensitivityRequest {
    scenario: String,
    name: Option<String>,
    trials: Option<u64>,
    seed: Option<u64>,
    top: Option<usize>,
    #[serde(default)]
    screen: bool,
    exact_seconds: Option<f64>,
}

/// The body of the server's `POST /api/form`: a file's text and name alone.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FormRequest {
    scenario: String,
    name: Option<String>,
}

/// What the server answers a fire, a percent view or a fire's exact stage with no
/// `trials` (`POST /api/fire`'s default).
const FIRE_TRIALS: u64 = 100_000;
/// What an engagement draws with no `trials`, as `combat-odds run` does.
const RUN_TRIALS: u64 = 1_000_000;
/// What each run of a comparison draws with no `trials`, as the server's compare.
const COMPARE_TRIALS: u64 = 20_000;
/// The server's default exact budget: a tab waits no longer for an exact answer.
const DEFAULT_EXACT_SECONDS: f64 = 10.0;
/// What a sweep's point or a balance's value draws with no `trials`, as the server's.
const POINT_TRIALS: u64 = 20_000;
/// The most work a tab takes on for one sweep or balance, in seconds of its one
/// thread, priced as the server prices work before it starts (the report crate's
/// `cost`): every trial at the rate a pilot of the scenario runs at in this engine,
/// and every exact stage of a fight at what its solver expects it to take at the tab's
/// [`PACE`], at most its budget. Two minutes: long enough for every shipped sweep at
/// the page's trials, short enough that a person watching a tab's progress bar does
/// not give up on it; past it, the page names the `combat-odds` command that does the
/// work with every core.
const TAB_SECONDS: f64 = 120.0;
/// How a tab runs an exact stage against the native engine it is estimated by: its
/// pilots timed on the page's clock, and three times slower, the slow end of what
/// this engine was measured at in headless Chromium (1.3x to 3x the native
/// single-thread rate), so a tab is promised no work it takes longer at.
const PACE: Pace = Pace { clock: page_clock, slowdown: 3.0 };
/// How a refusal for weight begins: the page reads it to name the command instead.
const TOO_HEAVY: &str = "too heavy for a browser tab";

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

impl Request {
    fn read(json: &str) -> Result<Self, String> {
        serde_json::from_str(json).map_err(|e| format!("the request: {e}"))
    }

    /// The Monte Carlo plan asked for, as the server reads it (`default_trials` where
    /// it names none).
    fn monte_carlo(&self, default_trials: u64) -> Result<MonteCarlo, String> {
        let mode = match self.mode.as_deref() {
            None => Mode::Compiled,
            Some(name) => Mode::ALL
                .into_iter()
                .find(|m| m.name() == name)
                .ok_or_else(|| format!("mode `{name}`: give `compiled` or `literal`"))?,
        };
        let monte_carlo = MonteCarlo {
            trials: self.trials.unwrap_or(default_trials),
            seed: self.seed.unwrap_or(2026),
            threads: None,
            mode,
        };
        monte_carlo.validate().map_err(|e| e.to_string())?;
        Ok(monte_carlo)
    }

    /// This request's run: each exact stage within its budget, the page's clock.
    /// `stop` is never set: the worker that runs it is ended to cancel it.
    fn run<'a>(&self, stop: &'a AtomicBool) -> Result<Run<'a>, String> {
        let seconds = self.exact_seconds.unwrap_or(DEFAULT_EXACT_SECONDS);
        if !(seconds.is_finite() && seconds >= 0.0) {
            return Err(format!("exact_seconds {seconds}: give the most seconds an exact stage may take, 0 or more"));
        }
        Ok(Run::new(stop, Some(Duration::from_secs_f64(seconds))).with_clock(page_clock))
    }

    fn document(&self) -> Document {
        document(self.name.clone(), self.scenario.clone())
    }
}

/// A file the page sends, named `page.toml` where it names none, as the server names it.
fn document(name: Option<String>, text: String) -> Document {
    let name = name.unwrap_or_else(|| "page.toml".into());
    Document::new(name.clone(), name, text)
}

/// The server's JSON for an answer (compact, as its `Json` and its events send it).
fn json(answer: &impl Serialize) -> String {
    serde_json::to_string(answer).expect("the answers are plain JSON")
}

/// `POST /api/fire` in the browser: `request` is the JSON body the page sends the
/// server; the answer is the report `fire --format json` prints for it (without the
/// trailing newline), or the one-line error the server would send. `progress` hears
/// (trials done, trials planned) between batches.
#[wasm_bindgen]
pub fn fire(request: &str, progress: &js_sys::Function) -> Result<String, String> {
    Ok(fired(request, progress)?.to_json())
}

/// The report of `POST /api/fire`'s request, as `fire` answers it.
fn fired(request: &str, progress: &js_sys::Function) -> Result<Report, String> {
    let request = Request::read(request)?;
    let monte_carlo = request.monte_carlo(FIRE_TRIALS)?;
    let stop = AtomicBool::new(false);
    let run = request.run(&stop)?;
    let mut scenario = Scenario::new(&request.document(), &Rules::builtin(), monte_carlo).map_err(|e| e.to_string())?;
    let exact = scenario.exact(&run).map_err(|e| e.to_string())?;
    let progress = Progress(progress.clone());
    let report = Report::run(scenario, exact, &|done, planned| progress.call(done, planned), &run);
    report.map_err(|e| e.to_string())
}

/// The same request's report as CSV, the very bytes `fire --format csv` prints, as one
/// JSON string (every answer of the worker is JSON): what the page offers to download
/// beside report.json. Its trials are drawn again, on the same seed.
#[wasm_bindgen]
pub fn fire_csv(request: &str, progress: &js_sys::Function) -> Result<String, String> {
    Ok(json(&fired(request, progress)?.csv()))
}

/// `POST /api/exact` in the browser: the exact stage alone, no trial drawn: what the
/// page shows for a link it was opened with.
#[wasm_bindgen]
pub fn exact(request: &str) -> Result<String, String> {
    let request = Request::read(request)?;
    let monte_carlo = request.monte_carlo(FIRE_TRIALS)?;
    let stop = AtomicBool::new(false);
    let run = request.run(&stop)?;
    let scenario = Scenario::new(&request.document(), &Rules::builtin(), monte_carlo).map_err(|e| e.to_string())?;
    Ok(json(&ExactView::of(scenario, &run).map_err(|e| e.to_string())?))
}

/// `POST /api/form` in the browser: what the page can offer in place of each value
/// of the file, as the server answers it.
#[wasm_bindgen]
pub fn form(request: &str) -> Result<String, String> {
    let request: FormRequest = serde_json::from_str(request).map_err(|e| format!("the request: {e}"))?;
    Ok(json(&Form::of(&document(request.name, request.scenario), &Rules::builtin())))
}

/// `POST /api/percent` in the browser: the destroy chance as a game screen shows it.
#[wasm_bindgen]
pub fn percent(request: &str) -> Result<String, String> {
    let request = Request::read(request)?;
    let monte_carlo = request.monte_carlo(FIRE_TRIALS)?;
    let stop = AtomicBool::new(false);
    let run = request.run(&stop)?;
    let doc = request.document();
    let mut scenario = Scenario::new(&doc, &Rules::builtin(), monte_carlo).map_err(|e| e.to_string())?;
    Ok(json(&PercentView::of(&doc, &mut scenario, &run).map_err(|e| e.to_string())?))
}

/// `POST /api/command-dice` in the browser: a ruleset's own answers about the file.
#[wasm_bindgen]
pub fn command_dice(request: &str) -> Result<String, String> {
    let request = Request::read(request)?;
    let answers =
        combat_odds_rules::scenario::answers(&request.document(), &Rules::builtin()).map_err(|e| e.to_string())?;
    Ok(json(&answers))
}

/// What a finished engagement sends: the server's answer less the files it keeps on
/// disk (a browser keeps none; the page offers its own downloads).
#[derive(Serialize)]
struct Finished {
    /// Every measure, exact beside Monte Carlo.
    report: Report,
    /// Seconds from the exact stage's start to the last trial.
    wall_time_s: f64,
    /// Files kept for download: none here.
    files: [(String, u64); 0],
}

/// `POST /api/run` in the browser: an engagement's study, `progress` hearing (trials
/// done, trials planned); the answer is the server's `result` event but its kept files.
#[wasm_bindgen]
pub fn run(request: &str, progress: &js_sys::Function) -> Result<String, String> {
    let request = Request::read(request)?;
    let monte_carlo = request.monte_carlo(RUN_TRIALS)?;
    let stop = AtomicBool::new(false);
    let run = request.run(&stop)?;
    let mut scenario = Scenario::new(&request.document(), &Rules::builtin(), monte_carlo).map_err(|e| e.to_string())?;
    // From the exact stage's start, as the server times it.
    let started = page_clock();
    let exact = scenario.exact(&run).map_err(|e| e.to_string())?;
    let progress = Progress(progress.clone());
    let report = Report::run(scenario, exact, &|done, planned| progress.call(done, planned), &run);
    let report = report.map_err(|e| e.to_string())?;
    Ok(json(&Finished { report, wall_time_s: (page_clock() - started).as_secs_f64(), files: [] }))
}

/// `POST /api/compare` in the browser: a comparison file's answers, `progress` hearing
/// (runs done, runs in all); the answer is the server's `result` event.
#[wasm_bindgen]
pub fn compare(request: &str, progress: &js_sys::Function) -> Result<String, String> {
    let request = Request::read(request)?;
    let monte_carlo = request.monte_carlo(COMPARE_TRIALS)?;
    let stop = AtomicBool::new(false);
    let run = request.run(&stop)?;
    let rules = Rules::builtin();
    let comparison = Comparison::read(&request.document(), &rules).map_err(|e| e.to_string())?;
    let progress = Progress(progress.clone());
    let compared =
        compare::compare(comparison, &rules, monte_carlo, &|done, planned| progress.call(done, planned), &run);
    Ok(json(&compared.map_err(|e| e.to_string())?))
}

/// `POST /api/sensitivity` in the browser: which cells and modifiers move `p_kill`
/// most, `progress` hearing (changes tried, changes in all); the answer is the
/// server's `result` event.
#[wasm_bindgen]
pub fn sensitivity(request: &str, progress: &js_sys::Function) -> Result<String, String> {
    let request: SensitivityRequest = serde_json::from_str(request).map_err(|e| format!("the request: {e}"))?;
    let options = Options { top: request.top.unwrap_or(20), screen: request.screen };
    // Literal, as on the command line and the server: each change is paired with the
    // unchanged tables on common random numbers.
    let sampling = Request {
        scenario: request.scenario,
        name: request.name,
        trials: request.trials,
        seed: request.seed,
        mode: Some(Mode::Literal.name().into()),
        exact_seconds: request.exact_seconds,
    };
    let monte_carlo = sampling.monte_carlo(FIRE_TRIALS)?;
    let stop = AtomicBool::new(false);
    let run = sampling.run(&stop)?;
    let doc = sampling.document();
    let plan = Scenario::new(&doc, &Rules::builtin(), monte_carlo).map_err(|e| e.to_string())?;
    let progress = Progress(progress.clone());
    let found = sensitivity::analyse(
        &doc,
        (&plan, &Rules::builtin()),
        options,
        &|done, planned| progress.call(done, planned),
        &run,
    );
    Ok(json(&found.map_err(|e| e.to_string())?))
}

/// The body of the server's `POST /api/sweep`: a sweep file, its base scenario (the
/// shipped one it names when not given), and how to sample.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SweepRequest {
    sweep: String,
    base: Option<String>,
    trials: Option<u64>,
    seed: Option<u64>,
    mode: Option<String>,
    exact_seconds: Option<f64>,
}

/// A shipped file as the server lists it (`GET /api/scenarios`, the static site's
/// `data/scenarios`): where a sweep finds the base scenario it names.
#[derive(Deserialize)]
struct Shipped {
    name: String,
    text: String,
}

/// Refuses `runs` runs of `base` (a sweep's points, where given, each priced as
/// itself: `Cost::of_base`) past [`TAB_SECONDS`] of this thread, saying what they
/// would cost: priced as the server prices work, at the tab's [`PACE`].
fn within_a_tab(
    (base, points): (&Document, Option<&Sweep>),
    (monte_carlo, exact_budget): (MonteCarlo, Duration),
    runs: (u64, &'static str),
) -> Result<(), String> {
    let scenario = Scenario::new(base, &Rules::builtin(), monte_carlo).map_err(|e| e.to_string())?;
    let rules = Rules::builtin();
    let points = points.map(|sweep| (sweep, &rules));
    let cost = Cost::of_base(scenario.set_up.experiment.as_ref(), points, runs, &monte_carlo, (exact_budget, PACE), "");
    let seconds = cost.core_seconds();
    if seconds <= TAB_SECONDS {
        return Ok(());
    }
    Err(format!(
        "{TOO_HEAVY}: about {:.0} minutes of work on its one thread ({}), and a tab takes on {} at most",
        (seconds / 60.0).ceil(),
        cost.parts(),
        duration(TAB_SECONDS)
    ))
}

/// `POST /api/sweep` in the browser: the sweep file's points, each answered on common
/// random numbers, `progress` hearing (trials done, trials planned); `shipped` is the
/// list of shipped files (JSON, as the server lists them) where the base is found when
/// the request gives none. The answer is the server's `result` event but its kept files.
#[wasm_bindgen]
pub fn sweep(request: &str, shipped: &str, progress: &js_sys::Function) -> Result<String, String> {
    let request: SweepRequest = serde_json::from_str(request).map_err(|e| format!("the request: {e}"))?;
    let sampling = Request {
        scenario: String::new(),
        name: None,
        trials: request.trials,
        seed: request.seed,
        mode: request.mode,
        exact_seconds: request.exact_seconds,
    };
    let monte_carlo = sampling.monte_carlo(POINT_TRIALS)?;
    let shipped: Vec<Shipped> = serde_json::from_str(shipped).map_err(|e| format!("the shipped files: {e}"))?;
    let doc = Document::new("page-sweep.toml", "page-sweep.toml", request.sweep);
    let base = request.base;
    let found = Sweep::read(
        &doc,
        |name| match (base, shipped.into_iter().find(|s| s.name == name)) {
            (Some(text), _) => Ok(Document::new(name, name, text)),
            (None, Some(s)) => Ok(Document::new(name, name, s.text)),
            (None, None) => Err(doc
                .error(format!("scenario `{name}` is not a shipped scenario; give its text as the sweep's base"))
                .into()),
        },
        monte_carlo.seed,
    )
    .map_err(|e| e.to_string())?;
    let stop = AtomicBool::new(false);
    let run = sampling.run(&stop)?;
    let budget = Duration::from_secs_f64(sampling.exact_seconds.unwrap_or(DEFAULT_EXACT_SECONDS));
    within_a_tab((&found.base, Some(&found)), (monte_carlo, budget), (found.points.len() as u64, "points"))?;
    let progress = Progress(progress.clone());
    let heard = |done, planned| progress.call(done, planned);
    let result =
        sweep::run(&found, &Rules::builtin(), monte_carlo, (None, 1), &heard, &run).map_err(|e| e.to_string())?;
    Ok(json(&result.answer(None, Vec::new())))
}

/// The body of the server's `POST /api/balance`: a scenario, the key to vary and where,
/// and the chance sought.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct BalanceRequest {
    scenario: String,
    name: Option<String>,
    vary: String,
    values: Option<Vec<Value>>,
    from: Option<f64>,
    to: Option<f64>,
    step: Option<f64>,
    tolerance: Option<f64>,
    target: Option<f64>,
    measure: Option<String>,
    outcome: Option<String>,
    trials: Option<u64>,
    seed: Option<u64>,
    mode: Option<String>,
    exact_seconds: Option<f64>,
}

/// `POST /api/balance` in the browser: where the key balances the target, `progress`
/// hearing (values tried, the most the span may try); the answer is the server's
/// `result` event.
#[wasm_bindgen]
pub fn balance(request: &str, progress: &js_sys::Function) -> Result<String, String> {
    let request: BalanceRequest = serde_json::from_str(request).map_err(|e| format!("the request: {e}"))?;
    let sampling = Request {
        scenario: request.scenario,
        name: request.name,
        trials: request.trials,
        seed: request.seed,
        mode: request.mode,
        exact_seconds: request.exact_seconds,
    };
    let monte_carlo = sampling.monte_carlo(POINT_TRIALS)?;
    let span = Span::of_request(request.values, (request.from, request.to, request.step), request.tolerance)?;
    let stop = AtomicBool::new(false);
    let run = sampling.run(&stop)?;
    let target = Target { outcome: request.measure.zip(request.outcome), p: request.target.unwrap_or(0.5) };
    let doc = sampling.document();
    let budget = Duration::from_secs_f64(sampling.exact_seconds.unwrap_or(DEFAULT_EXACT_SECONDS));
    within_a_tab((&doc, None), (monte_carlo, budget), (span.most_tries(), "values"))?;
    let progress = Progress(progress.clone());
    let heard = |done, planned| progress.call(done, planned);
    let found = balance::balance(&doc, (&request.vary, &span), &target, &Rules::builtin(), monte_carlo, &heard, &run);
    Ok(json(&found.map_err(|e| e.to_string())?))
}
