//! The same seed gives bit-identical results on any number of threads.

use crate::common::cli::stdout_of;

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
fn json_gives_every_measure_one_shape_and_names_the_kill() {
    let v: serde_json::Value = serde_json::from_str(&fire_json(1, 1)).unwrap();
    for key in ["ruleset", "scenario", "trials", "seed", "p_kill", "measures", "mode", "rules_hash"] {
        assert!(v.get(key).is_some(), "missing {key}");
    }
    // No measure stands apart at the top level.
    for key in ["outcomes", "measure", "agreement"] {
        assert!(v.get(key).is_none(), "a top-level {key} would give the primary measure a shape of its own");
    }
    for key in ["measure", "outcome", "exact", "estimate", "ci_low", "ci_high"] {
        assert!(v["p_kill"].get(key).is_some(), "p_kill missing {key}");
    }
    // The tank duel's kill is the target measure's `eliminated`.
    assert_eq!((&v["p_kill"]["measure"], &v["p_kill"]["outcome"]), (&"target".into(), &"eliminated".into()));
    let measures = v["measures"].as_array().unwrap();
    let names: Vec<&str> = measures.iter().map(|m| m["measure"].as_str().unwrap()).collect();
    assert_eq!(names[0], "target", "the primary measure comes first");
    for m in measures {
        assert!(m.get("agreement").is_some(), "{} has no agreement key", m["measure"]);
        for row in m["outcomes"].as_array().unwrap() {
            for key in ["outcome", "exact", "exact_fraction", "estimate", "ci_low", "ci_high", "count"] {
                assert!(row.get(key).is_some(), "{} row missing {key}", m["measure"]);
            }
        }
    }
    // p_kill is the row it names.
    let target = &measures[0]["outcomes"];
    let eliminated = target.as_array().unwrap().iter().find(|r| r["outcome"] == "eliminated").unwrap();
    assert_eq!(eliminated["estimate"], v["p_kill"]["estimate"]);
    assert_eq!(v["trials"], 300_001);
}
