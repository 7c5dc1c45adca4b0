//! `combat-odds bench` through the real binary: every figure the README targets is
//! measured and judged against its target, the peer's ratios appear when its rate is
//! given, and bad flags are refused in one line. Speed itself is measured by the
//! benches, not asserted here.

use crate::common::cli::{self, assert_contains, error_line};
use serde_json::Value;

/// `bench` at a token size, as JSON.
fn bench(extra: &[&str]) -> Value {
    let args = [&["bench", "--trials", "20000", "--repeats", "1", "--format", "json"], extra].concat();
    serde_json::from_str(&cli::stdout_of(&args)).expect("bench prints JSON")
}

#[test]
fn bench_measures_every_target_and_judges_it() {
    let v = bench(&[]);
    let figures = v["figures"].as_array().expect("figures");
    let names: Vec<&str> = figures.iter().map(|f| f["measure"].as_str().expect("a name")).collect();
    for expected in [
        "d10 rolls, one core",
        "d10 rolls in blocks of 64, one core",
        "CD single resolution, literal, one core",
        "CD single resolution, trial by trial, one core",
        "CD single resolution, compiled, one core",
        "CD tank duel engagements, compiled, one core",
        "MC HMG vs rifle platoon, compiled, one core",
        "exact engine, one CD resolution",
    ] {
        assert!(names.contains(&expected), "{expected} missing from {names:?}");
    }
    for f in figures {
        let value = f["value"].as_f64().expect("a number");
        assert!(value.is_finite() && value > 0.0, "{f}");
    }
    // The targets are the README's.
    let target = |name: &str| figures.iter().find(|f| f["measure"] == name).expect(name)["target"].as_f64();
    assert_eq!(target("CD single resolution, literal, one core"), Some(150.0));
    assert_eq!(target("CD single resolution, compiled, one core"), Some(450.0));
    assert_eq!(target("MC HMG vs rifle platoon, compiled, one core"), Some(10.0));
    assert_eq!(target("CD tank duel engagements, compiled, one core"), Some(20.0));
    assert_eq!(target("exact engine, one CD resolution"), Some(100.0));
}

#[test]
fn bench_with_the_peer_rate_reports_both_ratios() {
    // A made-up peer rate of 1,000 resolutions per second: the ratios are our rates over it.
    let v = bench(&["--peer-rate", "1000"]);
    let figures = v["figures"].as_array().expect("figures");
    let value = |name: &str| figures.iter().find(|f| f["measure"] == name).expect(name)["value"].as_f64().unwrap();
    let literal = value("CD single resolution, literal, one core");
    assert!((value("literal vs peer") - literal * 1e6 / 1000.0).abs() < 1e-6 * literal * 1e3);
    let target = |name: &str| &figures.iter().find(|f| f["measure"] == name).expect(name)["target"];
    assert_eq!(*target("literal vs peer"), 12.0);
    assert_eq!(*target("compiled vs peer"), 20.0);
}

#[test]
fn bad_bench_flags_and_modes_are_refused_in_one_line() {
    let line = error_line(&cli::run(&["bench", "--peer-rate=-5"]));
    assert_contains(&line, &["--peer-rate", "positive"]);
    let line = error_line(&cli::run(&["bench", "--repeats", "0"]));
    assert_contains(&line, &["--repeats", "at least 1"]);
    let out = cli::run(&["fire", "--mode", "compild"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("compiled"), "{stderr}");
}
