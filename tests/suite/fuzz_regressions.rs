//! Inputs the fuzz targets (`fuzz/`) and their preparation found to crash, hang or be
//! taken wrongly, each kept as written and refused in one line now: damaged
//! `summary.json` files through `merge`, and spans whose step is lost at their size.

use std::path::Path;

use crate::common::cli::{self, assert_contains, error_line};
use combat_odds_report::sweep::span_values;
use serde_json::{Value, json};
use toml::Value as Toml;

/// A shard 1/1 of a two-outcome study with exact odds, as `run --shard 1/1` writes
/// its `summary.json`: what each input below edits.
fn summary() -> Value {
    json!({
        "format": 1, "ruleset": "command-decision", "scenario": "duel", "kind": "engagement",
        "scenario_hash": "00", "seed": 1, "trials_requested": 10, "trials": 10,
        "shard": {"index": 1, "count": 1}, "precision": null, "precision_reached": null,
        "widest_half_width": 0.3, "rules_hash": "00", "version": "0.1.0", "generator": "g",
        "mode": "literal", "interval": "i", "wall_time_s": 0.0,
        "p_kill": {"exact": 0.5, "estimate": 0.5, "ci_low": 0.2, "ci_high": 0.8},
        "kill": [0, 0],
        "measures": [{"name": "winner", "outcomes": ["A", "B"], "counts": [5, 5], "exact": ["1/2", "1/2"]}],
        "notes": []
    })
}

/// `merge` of one directory per summary into `dir/merged`.
fn merge(dir: &Path, summaries: &[Value]) -> std::process::Output {
    let mut args = vec!["merge".to_string()];
    for (k, s) in summaries.iter().enumerate() {
        let shard = dir.join(format!("shard{}", k + 1));
        cli::write(&shard, "summary.json", &s.to_string());
        args.push(shard.display().to_string());
    }
    args.extend(["--out".to_string(), dir.join("merged").display().to_string()]);
    cli::run(&args.iter().map(String::as_str).collect::<Vec<_>>())
}

#[test]
fn the_unedited_summary_merges() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = merge(dir.path(), &[summary()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // And what it merged is the shard's own study (it was only "exits 0"): one shard
    // of one is the whole, its trials, counts and exact odds as written.
    let merged: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("merged/summary.json")).unwrap()).unwrap();
    assert_eq!(merged["trials"], 10, "{merged}");
    assert_eq!(merged["measures"][0]["counts"], json!([5, 5]), "{merged}");
    assert_eq!(merged["measures"][0]["exact"], json!(["1/2", "1/2"]), "{merged}");
}

#[test]
fn merge_refuses_exact_odds_that_miss_an_outcome_instead_of_panicking() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut s = summary();
    s["measures"][0]["exact"] = json!(["1/2"]);
    let line = error_line(&merge(dir.path(), &[s]));
    assert_contains(&line, &["shard1/summary.json", "measure `winner` has 1 exact probabilities for its 2 outcomes"]);
}

#[test]
fn merge_refuses_exact_odds_past_one_instead_of_panicking() {
    // Found by the merge target: 3/2 is no probability, and reading it panicked.
    let dir = tempfile::tempdir().expect("temp dir");
    let mut s = summary();
    s["measures"][0]["exact"] = json!(["3/2", "1/2"]);
    let line = error_line(&merge(dir.path(), &[s]));
    assert_contains(&line, &["exact probability `3/2` in a summary is not a fraction from 0 to 1"]);
}

#[test]
fn merge_refuses_counts_that_wrap_past_2_64_to_the_trials() {
    // u64::MAX + 1 wraps round to 0, the trials the file claims.
    let dir = tempfile::tempdir().expect("temp dir");
    let mut s = summary();
    s["trials"] = json!(0);
    s["measures"][0]["counts"] = json!([u64::MAX, 1]);
    assert_contains(&error_line(&merge(dir.path(), &[s])), &["counts do not add up"]);
}

#[test]
fn merge_refuses_shards_whose_counts_add_up_past_2_64() {
    // (u64::MAX + 10) trials wrap round to 9, and the counts to 4 and 5: a plausible run.
    let dir = tempfile::tempdir().expect("temp dir");
    let (mut first, mut second) = (summary(), summary());
    first["shard"] = json!({"index": 1, "count": 2});
    first["trials"] = json!(u64::MAX);
    first["measures"][0]["counts"] = json!([u64::MAX, 0]);
    second["shard"] = json!({"index": 2, "count": 2});
    assert_contains(&error_line(&merge(dir.path(), &[first, second])), &["counts add up past 2^64"]);
}

#[test]
fn a_span_whose_step_is_lost_at_its_size_is_refused_not_repeated() {
    // At 1e17 floats are 16 apart: from + 1 is from again.
    let big = span_values(1e17, 1e17 + 32.0, 1.0).unwrap_err();
    assert_contains(&big, &["from 1e17 to 1.0000000000000003e17 by 1", "repeats values", "give a larger step"]);
}

#[test]
fn a_span_of_tiny_numbers_keeps_them_rather_than_rounding_them_out_of_the_span() {
    // Found by the sweep_file target: rounded to a billionth, 3e-115 became the
    // integer 0, a value outside its own span.
    assert_eq!(span_values(3e-115, 3e-114, 3e-114).unwrap(), [Toml::Float(3e-115)]);
    // A step of 1e-10 once repeated 0 ten times; now its eleven values stand.
    let tenths: Vec<f64> = span_values(0.0, 1e-9, 1e-10).unwrap().iter().filter_map(Toml::as_float).collect();
    assert_eq!(tenths.len(), 11);
    assert!(tenths.windows(2).all(|w| w[0] < w[1]), "{tenths:?}");
    // Float noise is still tidied: 0.1 + 0.2 is written 0.3.
    assert_eq!(span_values(0.1, 0.3, 0.1).unwrap(), [Toml::Float(0.1), Toml::Float(0.2), Toml::Float(0.3)]);
}

#[test]
fn a_span_past_what_an_integer_holds_keeps_its_numbers() {
    // 1e19 as an integer saturated to 9223372036854775807.
    assert_eq!(span_values(1e19, 1e19, 1.0).unwrap(), [Toml::Float(1e19)]);
    assert_eq!(span_values(-3.0, 3.0, 3.0).unwrap(), [Toml::Integer(-3), Toml::Integer(0), Toml::Integer(3)]);
}
