//! The real binary fed bad Mission Command input: every mistake ends with exit code 2
//! and exactly one line on stderr, `error: FILE[:LINE:COLUMN]: what is wrong`, naming
//! the file (and the place, where the mistake has one), suggesting the nearest name for
//! a misspelling, and never a panic.

use std::path::{Path, PathBuf};

use crate::common::cli::{
    self, assert_contains, assert_located, assert_misspellings_corrected, assert_names_file_maybe_placed,
    assert_placed_in, assert_setting_typos_corrected, error_line, fire_with_rules, p_kill_exact, place, replace_once,
    scenario_error, write,
};
use tempfile::TempDir;

const KO_PART1: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/rulesets/mission-command/ko_part1.toml"));
const TO_HIT: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/rulesets/mission-command/to_hit.toml"));
const CASUALTY: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/rulesets/mission-command/casualty.toml"));

/// A valid point-to-point scenario: a tripod MG at 30cm (needs 11 -> 10/20) at foot in
/// good cover ("Small arms or any MG > 5cm" 19 -> 2/20): P(casualty) = 1/20.
const HMG: &str = r#"ruleset = "mission-command"
kind = "point_to_point"
range = 30

[[firer]]
weapon = "hmg"

[target]
situation = "good_cover"
"#;

/// A valid point-to-point scenario at armour: a 75mm L48 at 40cm (needs 7 -> 14/20) at
/// armour class 6 ("11 at 25-50cm" -> 10/20): P(KO) = 7/20.
const PAK: &str = r#"ruleset = "mission-command"
kind = "point_to_point"
range = 40

[[firer]]
weapon = "ge_75mm_l48"

[target]
armour_class = 6
"#;

/// A valid reaction test: green -1, unlocated -2 = -3 (P(rout) = 0).
const REACTION: &str = r#"ruleset = "mission-command"
kind = "reaction_test"

[group]
quality = "green"
modifiers = ["under_fire_from_unlocated"]
"#;

/// A valid AA scenario: small arms at a low fighter (19 to hit, 18 / - to damage).
const AA: &str = r#"ruleset = "mission-command"
kind = "anti_aircraft"

[[aa_firer]]
weapon = "small_arms_and_mgs"

[aircraft]
altitude = "low_altitude"
size = "fighter_or_light_bomber"
"#;

/// A valid area fire at AFVs: larger artillery, standard, armour 3 (9 -> 12/20 = 3/5).
const AREA_AFV: &str = r#"ruleset = "mission-command"
kind = "area_fire_afv"
range = 100

[fire]
system = "larger_artillery"
weapon = "howitzers_240mm_plus"
intensity = "standard"

[[vehicle]]
armour_front = 3
"#;

/// A valid area fire at a building: 75-110mm standard at a light building
/// ("S5/C7/D9": destroyed on 9+ = 12/20 = 3/5).
const AREA_BUILDING: &str = r#"ruleset = "mission-command"
kind = "area_fire_building"
range = 100

[fire]
system = "gun_mortar_howitzer_75_110mm"
weapon = "mortar_us_81mm"

[structure]
strength = "light"
"#;

/// An override folder `DIR/mission-command/FILE` holding `text`.
fn override_dir(file: &str, text: &str) -> (TempDir, PathBuf) {
    cli::override_dir("mission-command", file, text)
}

/// The same bad override fails the same way under `fire` (of [`HMG`]) and `tables`.
fn override_errors(dir: &Path) -> Vec<String> {
    cli::override_errors(dir, "mission-command", "hmg.toml", HMG)
}

#[test]
fn the_control_scenarios_are_valid() {
    // Each bad input below differs from one of these in one place.
    let dir = tempfile::tempdir().expect("temp dir");
    for (name, text, p_kill) in [
        ("hmg.toml", HMG, 0.05),
        ("pak.toml", PAK, 0.35),
        ("reaction.toml", REACTION, 0.0),
        // Per die: hits 2/20, never destroys.
        ("aa.toml", AA, 0.0),
        ("area_afv.toml", AREA_AFV, 0.6),
        ("area_building.toml", AREA_BUILDING, 0.6),
    ] {
        let path = write(dir.path(), name, text);
        let got = p_kill_exact(&path, &[]);
        assert!((got - p_kill).abs() < 1e-12, "{name}: p_kill {got}, expected {p_kill}");
    }
}

// ---- point to point: ranges and rows ---------------------------------------------

#[test]
fn range_beyond_the_firers_to_hit_row_is_refused() {
    // The LMG row stops at the 25cm band; 30cm is in the 35cm band.
    let text = replace_once(HMG, "\"hmg\"", "\"lmg\"");
    let (_dir, path, line) = scenario_error("lmg_30cm.toml", &text);
    assert_names_file_maybe_placed(&line, &path);
    assert_contains(&line, &["30cm", "beyond", "LMG, any bipod or pivot-mounted MG", "reaches 25cm"]);
}

#[test]
fn range_beyond_every_to_hit_row_is_located() {
    let text = replace_once(HMG, "range = 30", "range = 300");
    let (_dir, path, line) = scenario_error("range_300.toml", &text);
    assert_located(&line, &path, &place(&text, "300", 0));
    assert_contains(&line, &["300cm", "250cm"]);
}

#[test]
fn armour_class_outside_one_to_ten_is_located() {
    for (ac, name) in [("0", "ac0.toml"), ("11", "ac11.toml"), ("-4294967295", "ac_wraps.toml")] {
        // -4294967295 wraps to 1 in a 32-bit cast: it must be refused, not read as class 1.
        let text = replace_once(PAK, "armour_class = 6", &format!("armour_class = {ac}"));
        let (_dir, path, line) = scenario_error(name, &text);
        assert_located(&line, &path, &place(&text, &format!("= {ac}"), 2));
        assert_contains(&line, &[&format!("armour class {ac}"), "1 to 10"]);
    }
}

#[test]
fn a_not_applicable_to_hit_cell_is_refused() {
    // 2" mortar at 3cm: the first band (up to 5cm) reads "N/A".
    let text = replace_once(
        &replace_once(HMG, "range = 30", "range = 3"),
        "weapon = \"hmg\"",
        "[firer.weapon_data]\nlabel = \"2-inch mortar\"\nto_hit = \"mortar_2in_5cm\"\ncasualty = [{ row = \"mortar_light\" }]",
    );
    let (_dir, path, line) = scenario_error("mortar_3cm.toml", &text);
    assert_names_file_maybe_placed(&line, &path);
    assert_contains(&line, &["N/A", "3cm"]);
}

#[test]
fn an_area_fire_casualty_cell_is_refused_point_to_point() {
    // 81mm mortar vs fortified reads "Area Fire" in Foot: Convert Hit to Casualty.
    let text = replace_once(
        &replace_once(HMG, "situation = \"good_cover\"", "situation = \"fortified\""),
        "weapon = \"hmg\"",
        "[firer.weapon_data]\nlabel = \"81mm mortar\"\nto_hit = \"short_guns_and_howitzers\"\ncasualty = [{ row = \"mortar_medium\" }]",
    );
    let (_dir, path, line) = scenario_error("mortar_fortified.toml", &text);
    assert_names_file_maybe_placed(&line, &path);
    assert_contains(&line, &["Area Fire", "Fortified", "area_fire_building"]);
}

#[test]
fn a_casualty_row_that_does_not_reach_the_range_is_refused() {
    // The Boys AT rifle reaches 50cm to hit, but its casualty row is "within 15cm".
    let text = replace_once(HMG, "\"hmg\"", "\"boys_at_rifle\"");
    let (_dir, path, line) = scenario_error("boys_30cm.toml", &text);
    assert_names_file_maybe_placed(&line, &path);
    assert_contains(&line, &["no casualty row beyond 15cm", "30cm"]);
}

#[test]
fn at_close_assault_at_2cm_or_more_is_refused() {
    for range in ["3", "2"] {
        let text = replace_once(
            &replace_once(PAK, "range = 40", &format!("range = {range}")),
            "\"ge_75mm_l48\"",
            "\"at_close_assault\"",
        );
        let (_dir, path, line) = scenario_error("close_assault.toml", &text);
        assert_names_file_maybe_placed(&line, &path);
        assert_contains(&line, &["under 2cm", &format!("{range}cm")]);
    }
}

// ---- point to point: situations and modifiers -----------------------------------

#[test]
fn moving_in_no_cover_without_opportunity_fire_is_located() {
    let text = replace_once(HMG, "\"good_cover\"", "\"moving_in_no_cover\"");
    let (_dir, path, line) = scenario_error("moving.toml", &text);
    assert_located(&line, &path, &place(&text, "\"moving_in_no_cover\"", 0));
    assert_contains(&line, &["opportunity"]);
}

#[test]
fn opportunity_fire_modifier_without_opportunity_fire_is_located() {
    for modifier in ["opp_fire_came_into_view", "opp_fire_foot_moving_fast"] {
        let text = format!("{HMG}modifiers = [\"{modifier}\"]\n");
        let (_dir, path, line) = scenario_error("opp_modifier.toml", &text);
        assert_located(&line, &path, &place(&text, &format!("\"{modifier}\""), 0));
        assert_contains(&line, &[modifier, "opportunity fire"]);
    }
}

#[test]
fn hull_down_on_a_foot_target_is_located() {
    let text = format!("{HMG}modifiers = [\"hull_down\"]\n");
    let (_dir, path, line) = scenario_error("hull_down_foot.toml", &text);
    assert_located(&line, &path, &place(&text, "\"hull_down\"", 0));
    assert_contains(&line, &["hull_down", "vehicles"]);
}

#[test]
fn firer_will_move_on_artillery_is_located() {
    let text = replace_once(
        &replace_once(PAK, "range = 40", "range = 10"),
        "weapon = \"ge_75mm_l48\"",
        "weapon = \"howitzer_105mm\"\nmodifiers = [\"firer_will_move\"]",
    );
    let (_dir, path, line) = scenario_error("howitzer_moves.toml", &text);
    assert_located(&line, &path, &place(&text, "\"firer_will_move\"", 0));
    assert_contains(&line, &["firer_will_move", "artillery"]);
}

#[test]
fn automatic_modifiers_named_by_hand_are_refused_with_the_reason() {
    // suppression_marker comes from suppression_markers = N.
    let text = replace_once(HMG, "weapon = \"hmg\"", "weapon = \"hmg\"\nmodifiers = [\"suppression_marker\"]");
    let (_dir, path, line) = scenario_error("suppression_by_hand.toml", &text);
    assert_located(&line, &path, &place(&text, "\"suppression_marker\"", 0));
    assert_contains(&line, &["`suppression_marker`", "applied automatically", "suppression_markers"]);

    // With auto_cannon_bonus = "every_auto_cannon", multi_barrel is automatic for auto-cannon.
    let text = format!(
        "{}\n[settings]\nauto_cannon_bonus = \"every_auto_cannon\"\n",
        replace_once(PAK, "weapon = \"ge_75mm_l48\"", "weapon = \"autocannon_20mm\"\nmodifiers = [\"multi_barrel\"]")
    );
    let (_dir, path, line) = scenario_error("multi_barrel_twice.toml", &text);
    assert_located(&line, &path, &place(&text, "\"multi_barrel\"", 0));
    assert_contains(&line, &["`multi_barrel`", "applied automatically"]);

    // Green is taken from the group's quality.
    let text = replace_once(REACTION, "[\"under_fire_from_unlocated\"]", "[\"under_fire_from_unlocated\", \"green\"]");
    let (_dir, path, line) = scenario_error("green_by_hand.toml", &text);
    assert_located(&line, &path, &place(&text, "\"green\"]", 0));
    assert_contains(&line, &["`green`", "applied automatically", "quality"]);
}

// ---- misspellings ------------------------------------------------------------------

#[test]
fn misspellings_are_located_and_corrected() {
    // (base, the right text, the misspelt text, what the error calls it, the correction)
    let cases = [
        (HMG, "\"point_to_point\"", "\"point_to_pont\"", "unknown scenario kind `point_to_pont`", "point_to_point"),
        (HMG, "\"mission-command\"", "\"mision-command\"", "unknown ruleset `mision-command`", "mission-command"),
        (HMG, "\"hmg\"", "\"boys_at_rifel\"", "unknown weapon `boys_at_rifel`", "boys_at_rifle"),
        (HMG, "\"good_cover\"", "\"good_covr\"", "unknown target situation `good_covr`", "good_cover"),
        (
            REACTION,
            "\"under_fire_from_unlocated\"",
            "\"under_fire_from_unlocatd\"",
            "unknown modifier `under_fire_from_unlocatd`",
            "under_fire_from_unlocated",
        ),
        (REACTION, "\"green\"", "\"gren\"", "unknown quality `gren`", "green"),
        (AA, "\"low_altitude\"", "\"low_altitud\"", "unknown altitude `low_altitud`", "low_altitude"),
        (AA, "\"small_arms_and_mgs\"", "\"small_arms_and_mg\"", "`small_arms_and_mg`", "small_arms_and_mgs"),
        (
            AREA_AFV,
            "\"larger_artillery\"",
            "\"larger_artilery\"",
            "unknown firing system `larger_artilery`",
            "larger_artillery",
        ),
        (AREA_AFV, "\"standard\"", "\"standrad\"", "unknown intensity `standrad`", "standard"),
        (AREA_BUILDING, "\"light\"", "\"lihgt\"", "unknown structure strength `lihgt`", "light"),
        (AREA_BUILDING, "\"mortar_us_81mm\"", "\"mortar_us_81\"", "`mortar_us_81`", "mortar_us_81mm"),
    ];
    assert_misspellings_corrected(&cases);
}

#[test]
fn misspelt_target_modifier_is_located_and_corrected() {
    let text = format!("{PAK}modifiers = [\"hull_dwon\"]\n");
    let (_dir, path, line) = scenario_error("typo_modifier.toml", &text);
    assert_located(&line, &path, &place(&text, "\"hull_dwon\"", 0));
    assert_contains(&line, &["unknown modifier `hull_dwon`", "did you mean `hull_down`?"]);
}

#[test]
fn misspelt_setting_values_are_located_and_corrected() {
    assert_setting_typos_corrected(
        PAK,
        &[
            ("ko_outside_listed_ranges", "nearst", "nearest"),
            ("all_cell", "within_cp", "within_cap"),
            ("friendly_afv_knocked_out", "ignord", "ignored"),
        ],
    );
}

#[test]
fn an_unknown_setting_name_is_located() {
    let text = format!("{PAK}\n[settings]\nko_outside_listed_range = \"nearest\"\n");
    let (_dir, path, line) = scenario_error("unknown_setting.toml", &text);
    assert_located(&line, &path, &place(&text, "ko_outside_listed_range =", 0));
    assert_contains(&line, &["ko_outside_listed_range", "ko_outside_listed_ranges"]);
}

// ---- reaction tests ----------------------------------------------------------------

#[test]
fn two_cover_modifiers_in_a_reaction_test_are_located() {
    let text = replace_once(
        REACTION,
        "[\"under_fire_from_unlocated\"]",
        "[\"partial_cover_or_concealed\", \"good_cover_or_field_fortifications\"]",
    );
    let (_dir, path, line) = scenario_error("two_covers.toml", &text);
    assert_located(&line, &path, &place(&text, "\"good_cover_or_field_fortifications\"", 0));
    assert_contains(&line, &["partial_cover_or_concealed", "already named"]);
}

#[test]
fn the_same_reaction_modifier_twice_is_located() {
    let text = replace_once(
        REACTION,
        "[\"under_fire_from_unlocated\"]",
        "[\"under_fire_from_unlocated\", \"under_fire_from_unlocated\"]",
    );
    let (_dir, path, line) = scenario_error("twice.toml", &text);
    assert_located(&line, &path, &place(&text, ", \"under_fire_from_unlocated\"", 2));
    assert_contains(&line, &["`under_fire_from_unlocated`", "twice"]);
}

#[test]
fn a_negative_count_in_a_reaction_test_is_located() {
    let text = format!("{REACTION}elements_eliminated = -1\n");
    let (_dir, path, line) = scenario_error("negative_count.toml", &text);
    assert_located(&line, &path, &place(&text, "-1", 0));
    assert_contains(&line, &["elements_eliminated", "-1"]);
}

// ---- anti-aircraft and area fire -------------------------------------------------------

#[test]
fn an_aa_firer_at_a_not_applicable_altitude_is_located() {
    // Small arms and MGs read "N/A" at medium and high altitude.
    let text = replace_once(AA, "\"low_altitude\"", "\"high_altitude\"");
    let (_dir, path, line) = scenario_error("aa_high.toml", &text);
    assert_located(&line, &path, &place(&text, "\"small_arms_and_mgs\"", 0));
    assert_contains(&line, &["Small arms and MGs", "high_altitude", "N/A"]);
}

#[test]
fn area_fire_beyond_the_weapons_maximum_range_is_located() {
    // Ranges for Area Fire: US 81mm mortar, 150cm.
    let text = replace_once(AREA_BUILDING, "range = 100", "range = 200");
    let (_dir, path, line) = scenario_error("mortar_200cm.toml", &text);
    assert_located(&line, &path, &place(&text, "\"mortar_us_81mm\"", 0));
    assert_contains(&line, &["150cm", "200cm"]);
}

#[test]
fn intensity_conflicting_with_a_systems_fixed_intensity_is_located() {
    let text = replace_once(AREA_AFV, "\"larger_artillery\"", "\"heavy_bombers\"");
    let (_dir, path, line) = scenario_error("heavy_bombers_standard.toml", &text);
    assert_located(&line, &path, &place(&text, "\"standard\"", 0));
    assert_contains(&line, &["Heavy bomber aircraft", "bombardment", "intensity"]);
}

#[test]
fn an_area_fire_armour_class_outside_one_to_ten_is_located() {
    let text = replace_once(AREA_AFV, "armour_front = 3", "armour_front = 3\narmour_side = 0");
    let (_dir, path, line) = scenario_error("area_side_0.toml", &text);
    assert_located(&line, &path, &place(&text, "armour_side = 0", "armour_side = ".len()));
    assert_contains(&line, &["armour class 0", "1 to 10"]);
}

// ---- sections of another kind ----------------------------------------------------------

#[test]
fn sections_of_another_kind_are_refused_where_they_stand() {
    let cases = [
        (
            format!("{HMG}\n[group]\nquality = \"green\"\n"),
            "[group]",
            "`group` does not belong in a point_to_point scenario",
        ),
        (
            format!("{REACTION}\n[target]\nsituation = \"good_cover\"\n"),
            "[target]",
            "`target` does not belong in a reaction_test",
        ),
        (format!("{AREA_BUILDING}\n[[vehicle]]\narmour_front = 3\n"), "[[vehicle]]", "`vehicle` does not belong"),
        (format!("{AA}\n[structure]\nstrength = \"light\"\n"), "[structure]", "`structure` does not belong"),
    ];
    for (text, section, message) in cases {
        let (_dir, path, line) = scenario_error("mixed.toml", &text);
        assert_located(&line, &path, &place(&text, section, 0));
        assert_contains(&line, &[message]);
    }
}

// ---- table overrides (--rules DIR) -------------------------------------------------

#[test]
fn override_with_a_backwards_ko_range_is_located() {
    let text = replace_once(KO_PART1, "\"11 at 0-25cm 19 at 25-50cm\"", "\"11 at 50-25cm 19 at 25-50cm\"");
    let (dir, path) = override_dir("ko_part1.toml", &text);
    for line in override_errors(dir.path()) {
        assert_located(&line, &path, &place(&text, "\"11 at 50-25cm", 0));
        assert_contains(&line, &["at_rifle", "50-25cm", "backwards"]);
    }
}

#[test]
fn override_with_a_to_hit_row_of_eleven_cells_is_located() {
    let row = "cells = [\"3\", \"4\", \"6\", \"8\", \"10\", \"12\", \"15\", \"17\"]";
    let text = replace_once(
        TO_HIT,
        row,
        "cells = [\"3\", \"4\", \"6\", \"8\", \"10\", \"12\", \"15\", \"17\", \"19\", \"20\", \"20\"]",
    );
    let (dir, path) = override_dir("to_hit.toml", &text);
    // At the row (its name) or at its cells: both name the row that is too long.
    let at_name = place(&text, "\"long_guns_to_57mm\"", 0);
    let at_cells =
        place(&text, "cells = [\"3\", \"4\", \"6\", \"8\", \"10\", \"12\", \"15\", \"17\", \"19\"", "cells = ".len());
    for line in override_errors(dir.path()) {
        let located =
            [&at_name, &at_cells].iter().any(|p| line.starts_with(&format!("error: {}:{p}: ", path.display())));
        assert!(located, "expected {} at {at_name} or {at_cells}, got:\n{line}", path.display());
        assert_contains(&line, &["long_guns_to_57mm", "11 cells", "10"]);
    }
}

#[test]
fn override_with_a_casualty_cell_that_is_not_a_score_is_located() {
    let text = replace_once(
        CASUALTY,
        "cells = [\"17\", \"9\", \"4\", \"2\", \"3\", \"5\"]",
        "cells = [\"17\", \"9\", \"maybe\", \"2\", \"3\", \"5\"]",
    );
    let (dir, path) = override_dir("casualty.toml", &text);
    for line in override_errors(dir.path()) {
        assert_located(&line, &path, &place(&text, "\"maybe\"", 0));
        assert_contains(&line, &["small_arms_to_5cm", "`maybe`"]);
    }
}

#[test]
fn override_with_an_unknown_table_file_name_is_corrected() {
    let (dir, path) = override_dir("ko_part_1.toml", KO_PART1);
    for line in override_errors(dir.path()) {
        assert_names_file_maybe_placed(&line, &path);
        assert_contains(&line, &["unknown table file `ko_part_1.toml`", "did you mean `ko_part1.toml`?"]);
    }
}

// ---- counts and numbers ------------------------------------------------------------

#[test]
fn counts_and_ranges_out_of_bounds_are_located() {
    // (base, from, to, the value's text in the new file, message parts)
    let cases: [(&str, &str, &str, &str, &[&str]); 5] = [
        (HMG, "weapon = \"hmg\"", "weapon = \"hmg\"\nelements = 0", "0", &["elements", "1 to 50", "0"]),
        (HMG, "weapon = \"hmg\"", "weapon = \"hmg\"\nsuppression_markers = 11", "11", &["suppression_markers", "11"]),
        (HMG, "range = 30", "range = nan", "nan", &["range", "NaN"]),
        (HMG, "range = 30", "range = -3", "-3", &["range -3", "0 or more"]),
        (AREA_AFV, "range = 100", "range = 2500", "2500", &["2500cm", "Ranges for Area Fire"]),
    ];
    for (base, from, to, value, parts) in cases {
        let text = replace_once(base, from, to);
        let (_dir, path, line) = scenario_error("numbers.toml", &text);
        let at = place(&text, to, to.len() - value.len());
        assert_located(&line, &path, &at);
        assert_contains(&line, parts);
    }
}

// ---- absurd numbers in table overrides ----------------------------------------------
//
// Values no table prints (a modifier of 2^31, a NaN distance) must be refused at load
// with their place: accepted, they would overflow the sums or silently read a wrong cell.

/// A scenario `name` with `text`, run with an override folder whose `file` is the
/// shipped `table` with `from` replaced by `to`: the override's path and the error line.
fn fire_with_override(file: &str, table: &str, from: &str, to: &str, name: &str, text: &str) -> (PathBuf, String) {
    let (dir, path) = override_dir(file, &replace_once(table, from, to));
    (path, error_line(&fire_with_rules(dir.path(), name, text, &[]).2))
}

const TO_HIT_MODIFIERS: &str =
    include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/rulesets/mission-command/to_hit_modifiers.toml"));
const AREA_FIRE_AFV: &str =
    include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/rulesets/mission-command/area_fire_afv.toml"));
const AA_TO_HIT: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/rulesets/mission-command/aa_to_hit.toml"));

#[test]
fn override_with_an_absurd_to_hit_modifier_value_is_refused() {
    let hull_down = "name = \"hull_down\"\nlabel = \"Target is hull-down vehicle.\"\nside = \"target\"\nvalue = -4";
    for (value, modifiers) in
        [("-2147483648", "[\"hull_down\"]"), ("2147483647", "[\"hull_down\", \"target_in_wire\"]")]
    {
        let scenario = format!("{PAK}modifiers = {modifiers}\n");
        let (path, line) = fire_with_override(
            "to_hit_modifiers.toml",
            TO_HIT_MODIFIERS,
            hull_down,
            &hull_down.replace("value = -4", &format!("value = {value}")),
            "hull_down.toml",
            &scenario,
        );
        assert_placed_in(&line, &path);
        assert_contains(&line, &["hull_down", value]);
    }
}

#[test]
fn override_with_an_absurd_rockets_bonus_is_refused() {
    let scenario = "ruleset = \"mission-command\"\nkind = \"area_fire_afv\"\n\n[fire]\nsystem = \"fighter_aircraft\"\nrockets = true\n\n[[vehicle]]\narmour_front = 3\n";
    let (path, line) = fire_with_override(
        "area_fire_afv.toml",
        AREA_FIRE_AFV,
        "rockets_bonus = 1",
        "rockets_bonus = -2147483648",
        "rockets.toml",
        scenario,
    );
    assert_placed_in(&line, &path);
    assert_contains(&line, &["rockets_bonus"]);
}

#[test]
fn override_with_an_absurd_aa_modifier_value_is_refused() {
    let scenario = replace_once(
        AA,
        "weapon = \"small_arms_and_mgs\"",
        "weapon = \"small_arms_and_mgs\"\nmodifiers = [\"multi_barrel\"]",
    );
    let (path, line) = fire_with_override(
        "aa_to_hit.toml",
        AA_TO_HIT,
        "value = 2",
        "value = -2147483648",
        "aa_multi_barrel.toml",
        &scenario,
    );
    assert_placed_in(&line, &path);
    assert_contains(&line, &["multi_barrel"]);
}

#[test]
fn override_with_nan_in_the_to_hit_ranges_is_refused() {
    let text = replace_once(
        TO_HIT,
        "ranges_cm = [5, 15, 25, 35, 50, 60, 75, 100, 150, 250]",
        "ranges_cm = [5, 15, nan, 35, 50, 60, 75, 100, 150, 250]",
    );
    let (dir, path) = override_dir("to_hit.toml", &text);
    for line in override_errors(dir.path()) {
        assert_names_file_maybe_placed(&line, &path);
        assert_contains(&line, &["ranges_cm"]);
    }
}

#[test]
fn override_with_a_nan_ko_distance_is_refused() {
    let text = replace_once(KO_PART1, "\"11 at 0-15cm\", \"NE\"", "\"11 at 0-nancm\", \"NE\"");
    let (dir, path) = override_dir("ko_part1.toml", &text);
    for line in override_errors(dir.path()) {
        assert_located(&line, &path, &place(&text, "\"11 at 0-nancm\"", 0));
        assert_contains(&line, &["hmg_heavy", "0-nancm"]);
    }
}

#[test]
fn multi_barrel_is_refused_for_a_single_barrelled_weapon() {
    // Seed 004: "+2 Firer is multi-barrel MG or auto-cannon". A Pak 40 has one barrel.
    let text =
        replace_once(PAK, "weapon = \"ge_75mm_l48\"", "weapon = \"ge_75mm_l48\"\nmodifiers = [\"multi_barrel\"]");
    let (_dir, path, line) = scenario_error("pak_multi_barrel.toml", &text);
    assert_located(&line, &path, &place(&text, "\"multi_barrel\"", 0));
    assert_contains(&line, &["`multi_barrel`", "several barrels", "`ge_75mm_l48` has one"]);
    // The Flakvierling has four: accepted.
    let quad =
        replace_once(PAK, "weapon = \"ge_75mm_l48\"", "weapon = \"flakvierling_20mm\"\nmodifiers = [\"multi_barrel\"]");
    let dir = tempfile::tempdir().expect("temp dir");
    let out = cli::fire(&write(dir.path(), "quad.toml", &quad), &[]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // Weapon data may not call a gun multi-barrel.
    let gun = replace_once(
        PAK,
        "weapon = \"ge_75mm_l48\"",
        "[firer.weapon_data]\nto_hit = \"long_guns_to_85mm\"\nmulti_barrel = true\ncasualty = [{ row = \"gun_37_57mm_he_17pdr\" }]",
    );
    let (_dir, path, line) = scenario_error("gun_multi_barrel.toml", &gun);
    assert_located(&line, &path, &place(&gun, "multi_barrel = true", "multi_barrel = ".len()));
    assert_contains(&line, &["`multi_barrel = true` is for an MG or auto-cannon", "long_guns_to_85mm"]);
}

#[test]
fn infantry_dice_are_refused_for_a_flak_gun() {
    // Seed 004, AA adjustments: "integrated or coherent infantry elements, use 2d20 as
    // if 2 MGs were firing": infantry fire small arms and MGs, not flak.
    let text = replace_once(AA, "weapon = \"small_arms_and_mgs\"", "weapon = \"flak_31_57mm\"\ninfantry = true");
    let (_dir, path, line) = scenario_error("flak_infantry.toml", &text);
    assert_located(&line, &path, &place(&text, "\"flak_31_57mm\"", 0));
    assert_contains(&line, &["`infantry = true`", "infantry elements", "small_arms_and_mgs"]);
}

#[test]
fn rockets_are_refused_for_a_system_that_fires_none() {
    // Seed 004: "+1 to dice roll with rockets"; a 105mm howitzer fires shells.
    let text = AREA_AFV.replace("[fire]\n", "[fire]\nrockets = true\n");
    let text = text.replace("system = \"larger_artillery\"", "system = \"gun_howitzer_75_110mm\"");
    let (_dir, path, line) = scenario_error("howitzer_rockets.toml", &text);
    assert_located(&line, &path, &place(&text, "\"gun_howitzer_75_110mm\"", 0));
    assert_contains(&line, &["`rockets = true`", "fighter_aircraft", "larger_artillery", "gun_howitzer_75_110mm"]);
}

#[test]
fn an_engagement_setting_outside_an_engagement_is_refused_where_it_stands() {
    // Only engagements read when markers come off, what breaks a side, where reaction
    // rows come from and what a template covers; set in a single fire they would
    // silently do nothing.
    for (setting, reading) in [
        ("suppression_markers", "kept"),
        ("side_broken", "all_retreating_or_routed"),
        ("derived_reaction_rows", "named"),
        ("template_covers", "aimed_element"),
    ] {
        let text = format!("{HMG}\n[settings]\n{setting} = \"{reading}\"\n");
        let (_dir, path, line) = scenario_error("fire.toml", &text);
        assert_located(&line, &path, &place(&text, &format!("\"{reading}\""), 0));
        assert_contains(&line, &[&format!("setting `{setting}` is for engagement scenarios"), "remove it"]);
    }
}
