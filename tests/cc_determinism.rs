//! Company Commander Monte Carlo is deterministic: the same seed gives bit-identical
//! tallies on any number of threads, for trial counts that do and do not fill whole
//! chunks, through the library and through `combat-odds fire --threads`; the counts of
//! one scenario at a fixed seed are pinned; and `percent-destroy` reports the exact
//! kill probability that `fire` reports.

mod common;

use std::path::Path;

use combat_odds::engine::{self, CHUNK_TRIALS, Tally};
use common::cli::{stdout_of, write};
use common::{experiment_path, plan};

/// Direct fire at armour with several attacks: a three-point Sherman platoon fires its
/// 75mm guns (2 x 3 attacks) and its .50 cals (3 x 3 attacks) at a two-point Pz IV
/// platoon's flank: `target`, `final_state`, `strength_lost` (0-2), `hits`.
const DIRECT_ARMOUR: &str = r#"ruleset = "company-commander"
kind = "direct_fire"
name = "Sherman platoon at a Pz IV platoon's flank, 5 hexes"
range = 5

[firer]
name = "Sherman platoon"
quality = "trained"
strength = 3
weapons = ["us_75mm_m3", "us_50cal_hmg"]

[target]
quality = "veteran"
vehicle = "pz_iv_h"
strength = 2
facing = "side"
"#;

/// Direct fire at a non-armoured unit of several strength points: a three-point MG 42
/// platoon and an inline rifle weapon at a three-point squad, front line in hard cover.
const NON_ARMOURED: &str = r#"ruleset = "company-commander"
kind = "direct_fire"
name = "MG 42s and rifles at a dug-in squad, 3 hexes"
range = 3

[firer]
name = "MG 42 platoon"
quality = "veteran"
strength = 3
weapons = ["ge_mg42"]

[[firer.weapon_data]]
label = "Rifles"
direct = { stationary_rof = 2, moving_rof = 1, range = [1, 5], strength = 1 }

[target]
name = "Rifle squad"
quality = "green"
strength = 3
front_line = true
cover = "hard"
status = "cautious"
"#;

/// A barrage on a dug-in squad with units within the blast radius, two of them alike.
const BARRAGE: &str = r#"ruleset = "company-commander"
kind = "barrage"
name = "105mm barrage on a dug-in platoon"
range = 40

[firer]
name = "105mm battery"
quality = "trained"
strength = 4
weapons = ["us_105mm_howitzer"]

[target]
name = "Rifle squad (target hex)"
strength = 2
front_line = true
cover = "entrenchment"
visible = false

[[nearby]]
name = "Rifle squad"
strength = 2
front_line = true
cover = "entrenchment"
visible = false
count = 2

[[nearby]]
vehicle = "m4_sherman"
visible = true
"#;

/// A two-point bazooka section close-assaults an open-topped half-track, one attack per
/// strength point.
const CLOSE_ASSAULT: &str = r#"ruleset = "company-commander"
kind = "close_assault"
name = "Bazooka section close-assaults a half-track"

[assault]
name = "Bazooka section"
quality = "experienced"
weapon_class = "bazooka_piat"
strength = 2

[target]
vehicle = "m3_halftrack"
strength = 2

[settings]
close_assault_attacks = "per_strength_point"
"#;

/// A.A. fire by three entries at a two-point aircraft.
const ANTI_AIRCRAFT: &str = r#"ruleset = "company-commander"
kind = "anti_aircraft"
name = "Quad .50s, twin 20mm and a Bofors at two fighter-bombers"

[[aa_firer]]
name = "M16 quad .50 half-tracks"
level = "hmg"
mount = "quad"
units = 2

[[aa_firer]]
name = "Twin 20mm"
level = "aa_gun_15_to_29mm"
mount = "twin"

[[aa_firer]]
name = "40mm Bofors"
level = "gun_30_to_49mm"

[aircraft]
name = "Fw 190 F pair"
save = 3
strength = 2
"#;

const SCENARIOS: [(&str, &str); 5] = [
    ("direct_armour", DIRECT_ARMOUR),
    ("non_armoured", NON_ARMOURED),
    ("barrage", BARRAGE),
    ("close_assault", CLOSE_ASSAULT),
    ("anti_aircraft", ANTI_AIRCRAFT),
];

/// The merged tally of `trials` trials from `seed` on `threads` threads.
fn tally(name: &str, text: &str, trials: u64, seed: u64, threads: usize) -> Tally {
    let p = plan(name, text, trials, seed, threads);
    engine::run(p.compiled.experiment.as_ref(), &p.monte_carlo).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Every measure's counts, in measure order.
fn counts(name: &str, text: &str, trials: u64, seed: u64, threads: usize) -> Vec<Vec<u64>> {
    let p = plan(name, text, trials, seed, threads);
    let experiment = p.compiled.experiment.as_ref();
    let t = engine::run(experiment, &p.monte_carlo).unwrap_or_else(|e| panic!("{name}: {e}"));
    (0..experiment.measures().len()).map(|m| t.counts(m).to_vec()).collect()
}

#[test]
fn every_kind_gives_identical_tallies_on_1_2_and_8_threads() {
    // Less than a chunk, one chunk and one trial, and three chunks and a part: none a
    // multiple of the chunk size, so a partial last chunk is always in play.
    let partial = [1, 1_000, CHUNK_TRIALS + 1, 3 * CHUNK_TRIALS + 4_321];
    // Exactly one and exactly two whole chunks: no partial chunk at all.
    let whole = [CHUNK_TRIALS, 2 * CHUNK_TRIALS];
    for (name, text) in SCENARIOS {
        let measures = plan(name, text, 1, 1, 1).compiled.experiment.measures().len();
        assert!(measures >= 2, "{name}: {measures} measures");
        for trials in partial.into_iter().chain(whole) {
            assert_eq!(partial.contains(&trials), trials % CHUNK_TRIALS != 0, "{trials}");
            let one = tally(name, text, trials, 7, 1);
            assert_eq!(one.trials(), trials, "{name}: {trials} trials");
            for m in 0..measures {
                assert_eq!(one.counts(m).iter().sum::<u64>(), trials, "{name}: measure {m}, {trials} trials");
            }
            for threads in [2, 8] {
                assert_eq!(one, tally(name, text, trials, 7, threads), "{name}: {trials} trials on {threads} threads");
            }
        }
    }
}

#[test]
fn a_different_seed_gives_different_tallies() {
    // Guards the test above against a generator that ignores its seed.
    for (name, text) in SCENARIOS {
        let trials = CHUNK_TRIALS + 1;
        assert_ne!(tally(name, text, trials, 7, 2), tally(name, text, trials, 8, 2), "{name}");
    }
}

#[test]
fn every_scenario_can_end_more_than_one_way() {
    // A scenario whose target measure always reads the same would pass the thread test
    // above without exercising the dice: each must spread over at least two outcomes.
    for (name, text) in SCENARIOS {
        let got = counts(name, text, 20_000, 3, 2);
        let spread = got[0].iter().filter(|c| **c > 0).count();
        assert!(spread >= 2, "{name}: target counts {:?}", got[0]);
    }
}

/// `combat-odds fire FILE --format json` on `threads` threads.
fn fire_json(file: &Path, threads: usize) -> String {
    let (file, threads) = (file.to_str().expect("utf-8 temp path"), threads.to_string());
    stdout_of(&["fire", file, "--format", "json", "--trials", "200001", "--seed", "11", "--threads", &threads])
}

#[test]
fn the_cli_gives_identical_json_on_1_2_and_8_threads() {
    // 200,001 trials: three full chunks and a partial one.
    let dir = tempfile::tempdir().expect("a temporary directory");
    for (name, text) in SCENARIOS {
        let file = write(dir.path(), &format!("{name}.toml"), text);
        let one = fire_json(&file, 1);
        let v: serde_json::Value = serde_json::from_str(&one).expect("JSON");
        assert_eq!(v["ruleset"], "company-commander", "{name}");
        assert_eq!(v["trials"], 200_001, "{name}");
        assert_eq!(one, fire_json(&file, 2), "{name}: 2 threads");
        assert_eq!(one, fire_json(&file, 8), "{name}: 8 threads");
    }
}

/// The direct-fire-at-armour scenario's counts at seed 1, 1,000 trials, one thread:
/// `target` (no_effect, suppressed, damaged, destroyed), `final_state`,
/// `strength_lost` and `hits`, each in the order the report lists its outcomes.
///
/// A change here means the order in which randomness is consumed changed (the order
/// of rolls within a trial, the streams they draw from, stream derivation or the die
/// algorithm), or the tables or catalogue entries this scenario reads changed. That
/// must be deliberate: update these numbers only with such a change, and say so in its
/// commit message.
const PINNED_DIRECT_ARMOUR: [&[u64]; 4] = [
    &[310, 215, 342, 133],
    &[310, 215, 210, 132, 133],
    &[525, 342, 133],
    &[14, 120, 277, 324, 161, 69, 24, 8, 2, 1, 0, 0, 0, 0, 0, 0],
];

#[test]
fn company_commander_direct_fire_counts_are_pinned() {
    let got = counts("pinned direct_armour", DIRECT_ARMOUR, 1_000, 1, 1);
    let want: Vec<Vec<u64>> = PINNED_DIRECT_ARMOUR.iter().map(|m| m.to_vec()).collect();
    assert_eq!(got, want, "pinned counts changed: see PINNED_DIRECT_ARMOUR");
    // The same counts through the report the CLI prints.
    let report = plan("pinned direct_armour", DIRECT_ARMOUR, 1_000, 1, 1).report().expect("a report");
    let reported: Vec<Vec<u64>> =
        report.all_measures().map(|(_, rows, _)| rows.iter().map(|r| r.count).collect()).collect();
    assert_eq!(reported, want, "the report's counts differ from the tally's");
}

#[test]
fn percent_destroy_reports_the_exact_kill_probability_of_fire() {
    let file = experiment_path("cc_panther_vs_sherman.toml");
    let file = file.to_str().expect("utf-8 path");
    let common = ["--format", "json", "--trials", "20000", "--seed", "5", "--threads", "2"];
    let fire: serde_json::Value =
        serde_json::from_str(&stdout_of(&[&["fire", file][..], &common].concat())).expect("fire prints JSON");
    let view: serde_json::Value = serde_json::from_str(&stdout_of(&[&["percent-destroy", file][..], &common].concat()))
        .expect("percent-destroy prints JSON");

    assert_eq!(view["ruleset"], "company-commander");
    assert_eq!(view["scenario"], fire["scenario"]);
    assert_eq!(view["method"], "exact", "{view}");
    let exact = fire["p_kill"]["exact"].as_f64().unwrap_or_else(|| panic!("p_kill.exact in {fire}"));
    let destroy = &view["destroy"];
    assert_eq!(destroy["probability"].as_f64(), Some(exact), "{view}");
    // The same fraction as fire's `destroyed` row, and the percentage is it rounded.
    let destroyed = fire["outcomes"]
        .as_array()
        .and_then(|rows| rows.iter().find(|r| r["outcome"] == "destroyed"))
        .unwrap_or_else(|| panic!("no destroyed outcome in {fire}"));
    assert_eq!(destroy["exact_fraction"], destroyed["exact_fraction"], "{view}");
    assert_eq!(destroy["percent"].as_f64(), Some((exact * 100.0).round()), "{view}");
}
