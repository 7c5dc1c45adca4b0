//! The calibration of the exact solver's price (`SECONDS_PER_STATE_TURN` in the rules
//! crate's engagement solver, and the pilots `report::cost` runs): every shipped
//! engagement and sweep point, what its exact stage is priced at natively beside what
//! its solve and compilation took on this machine. A measurement to read, not a check.
//!
//! Run from the project's root with `cargo run --release --example pricing_calibration`.

use combat_odds_core::document::Document;
use combat_odds_core::engine::{Mode, MonteCarlo};
use combat_odds_core::run::Run;
use combat_odds_report::sweep::Sweep;
use combat_odds_rules::{Rules, Scenario};
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

fn main() {
    let monte_carlo = MonteCarlo { trials: 1000, seed: 1, threads: Some(1), mode: Mode::Compiled };
    let rules = Rules::builtin();
    let time = |name: &str, s: &Scenario| {
        let e = s.set_up.experiment.as_ref();
        let stop = AtomicBool::new(false);
        let priced = e.exact_stage_seconds(&Run::new(&stop, Some(Duration::from_secs(1))));
        let t = Instant::now();
        let exact = e.exact().is_some();
        let solve = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let compiled = e.compiled().is_some();
        let compile = t.elapsed().as_secs_f64();
        println!(
            "{name}: priced {priced:?} s, solved ({exact}) in {solve:.4} s, compiled ({compiled}) in {compile:.4} s"
        );
    };
    let read = |path: &Path| {
        let name = path.file_name().unwrap().to_str().unwrap();
        Document::new(name, name, std::fs::read_to_string(path).unwrap())
    };
    for path in std::fs::read_dir("experiments").unwrap().map(|f| f.unwrap().path()) {
        let doc = read(&path);
        if doc.name.contains("_engagement_") {
            time(&doc.name, &Scenario::new(&doc, &rules, monte_carlo).unwrap());
        }
        if doc.name.starts_with("sweep_") {
            let sweep = Sweep::read(&doc, |base| Ok(read(&Path::new("experiments").join(base))), 1).unwrap();
            for i in 0..sweep.points.len() {
                let (point, scenario) = sweep.set_up(i, &rules, monte_carlo).unwrap();
                time(&point.name, &scenario);
            }
        }
    }
}
