//! The same seed gives bit-identical results on any number of threads.

mod common;

use common::cli::stdout_of;

/// `combat-odds fire --format json` (the default scenario) from `seed` on `threads` threads.
fn fire_json(threads: usize, seed: u64) -> String {
    let (seed, threads) = (seed.to_string(), threads.to_string());
    stdout_of(&["fire", "--format", "json", "--trials", "300001", "--seed", &seed, "--threads", &threads])
}

#[test]
fn same_seed_gives_identical_json_on_1_2_and_8_threads() {
    // 300,001 trials: four full chunks and a partial one, so chunk boundaries matter.
    let one = fire_json(1, 7);
    assert_eq!(one, fire_json(2, 7));
    assert_eq!(one, fire_json(8, 7));
}

#[test]
fn a_different_seed_gives_different_counts() {
    assert_ne!(fire_json(2, 7), fire_json(2, 8));
}

#[test]
fn json_carries_the_stable_field_names() {
    let v: serde_json::Value = serde_json::from_str(&fire_json(1, 1)).unwrap();
    for key in ["ruleset", "scenario", "trials", "seed", "p_kill", "outcomes"] {
        assert!(v.get(key).is_some(), "missing {key}");
    }
    for key in ["exact", "estimate", "ci_low", "ci_high"] {
        assert!(v["p_kill"].get(key).is_some(), "p_kill missing {key}");
    }
    for row in v["outcomes"].as_array().unwrap() {
        for key in ["outcome", "exact", "estimate", "ci_low", "ci_high", "count"] {
            assert!(row.get(key).is_some(), "outcome row missing {key}");
        }
    }
    assert_eq!(v["trials"], 300_001);
}
