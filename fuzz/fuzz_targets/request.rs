//! The request layer, as both front doors call it. An input's first byte picks an
//! endpoint of [`Endpoint::ALL`] (modulo their number), and the rest, read as UTF-8
//! with invalid bytes replaced, is its JSON body: read, set up and priced by
//! `request::prepare`, admitted by the limits, and when admitted run, as the server and
//! the browser's engine run it. The limits are the server's lowered to a few
//! milliseconds of work, so an admitted job runs in the fuzzer's time; a sweep's base
//! may be one of three shipped scenarios, by file name. Any refusal is an answer; a
//! panic, an abort or a stack overflow is a finding.
#![no_main]

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use combat_odds_core::run::Run;
use combat_odds_report::request::{self, Context, Endpoint, Limits};
use combat_odds_rules::Rules;
use libfuzzer_sys::fuzz_target;

/// Each file of experiments/ named, with its text.
macro_rules! shipped {
    ($($name:literal),* $(,)?) => {
        &[$(($name, include_str!(concat!("../../experiments/", $name)))),*]
    };
}

/// The shipped scenarios a request's sweep may name as its base, by file name, as the
/// server finds them in experiments/: a duel, and an engagement of each of two rulesets.
const SHIPPED: &[(&str, &str)] = shipped![
    "cd_tank_duel.toml",
    "mc_engagement_hmg_vs_rifle_platoon.toml",
    "coc_engagement_sections_at_the_hedge.toml",
];

/// The server's limits, lowered so that no admitted job takes the fuzzer long.
const LIMITS: Limits = Limits {
    max_trials: 2_000,
    max_cost: Duration::from_millis(50),
    exact_budget: Duration::from_millis(20),
    ..Limits::SERVER
};

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else { return };
    let endpoint = Endpoint::ALL[usize::from(first) % Endpoint::ALL.len()];
    let body = String::from_utf8_lossy(rest);
    let rules = Rules::builtin();
    let shipped = |name: &str| SHIPPED.iter().find(|(n, _)| *n == name).map(|(_, text)| text.to_string());
    let context = Context { rules: &rules, limits: LIMITS, shipped: &shipped, downloads: None };
    // Never set, as in the browser's engine: the request's own run, priced and then run.
    let stop = AtomicBool::new(false);
    let Ok(job) = request::prepare(endpoint, &body, &context, &Run::new(&stop, None)) else { return };
    if LIMITS.admit(&job).is_err() {
        return;
    }
    let budget = Some(job.exact_budget);
    let _ = job.run(&Run::new(&stop, budget), &|_, _| {});
});
