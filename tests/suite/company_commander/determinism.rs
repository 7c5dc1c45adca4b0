//! Company Commander Monte Carlo is deterministic: the same seed gives bit-identical
//! tallies on any number of threads, for trial counts that do and do not fill whole
//! chunks, through the library and through `combat-odds fire --threads`; the counts of
//! one scenario at a fixed seed are pinned; and `percent-destroy` reports the exact
//! kill probability that `fire` reports.

use crate::common::cli::stdout_of;
use crate::common::determinism::{
    assert_cli_thread_independent, assert_every_scenario_varies, assert_pinned, assert_seed_matters,
    assert_thread_independent,
};
use crate::common::experiment_path;

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

#[test]
fn every_kind_gives_identical_tallies_on_1_2_and_8_threads() {
    assert_thread_independent(&SCENARIOS);
}

#[test]
fn a_different_seed_gives_different_tallies() {
    assert_seed_matters(&SCENARIOS);
}

#[test]
fn every_scenario_can_end_more_than_one_way() {
    assert_every_scenario_varies(&SCENARIOS);
}

#[test]
fn the_cli_gives_identical_json_on_1_2_and_8_threads() {
    assert_cli_thread_independent(&SCENARIOS, "company-commander");
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
// Weapon by weapon (CC-6's default `later_weapons`): every attack of a weapon is rolled
// against the target as it began, so later attacks no longer stop at destruction.
const PINNED_DIRECT_ARMOUR: [&[u64]; 4] = [
    &[285, 181, 375, 159],
    &[285, 181, 201, 174, 159],
    &[466, 375, 159],
    &[14, 96, 255, 313, 206, 82, 28, 5, 1, 0, 0, 0, 0, 0, 0, 0],
];

#[test]
fn company_commander_direct_fire_counts_are_pinned() {
    assert_pinned("pinned direct_armour", DIRECT_ARMOUR, &PINNED_DIRECT_ARMOUR, "PINNED_DIRECT_ARMOUR");
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
    let destroyed = fire["measures"][0]["outcomes"]
        .as_array()
        .and_then(|rows| rows.iter().find(|r| r["outcome"] == "destroyed"))
        .unwrap_or_else(|| panic!("no destroyed outcome in {fire}"));
    assert_eq!(destroy["exact_fraction"], destroyed["exact_fraction"], "{view}");
    assert_eq!(destroy["percent"].as_f64(), Some((exact * 100.0).round()), "{view}");
}
