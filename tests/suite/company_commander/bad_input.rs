//! The real binary fed bad Company Commander input: every mistake ends with exit code 2
//! and exactly one line on stderr, `error: FILE[:LINE:COLUMN]: what is wrong`, naming
//! the file (and the place, where the mistake has one), suggesting the nearest name for
//! a misspelling, and never a panic.

use std::path::{Path, PathBuf};

use crate::common::cli::{
    self, assert_contains, assert_located, assert_misspellings_corrected, assert_names_file,
    assert_names_file_maybe_placed, assert_setting_typos_corrected, error_line, fire, fire_with_rules, p_kill_exact,
    place, replace_once, run, scenario_error, write,
};
use tempfile::TempDir;

const CATALOGUE: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/rulesets/company-commander/catalogue.toml"));
const TO_HIT: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/rulesets/company-commander/to_hit.toml"));
const HIT_DAMAGE: &str =
    include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/rulesets/company-commander/hit_damage.toml"));

/// A valid direct fire at armour: a veteran Panther's 75mm KwK 42 at a Sherman's front,
/// 8 hexes (the weapon reaches 20).
const PANTHER: &str = r#"ruleset = "company-commander"
kind = "direct_fire"
range = 8

[firer]
quality = "veteran"
weapons = ["ge_75mm_kwk42"]

[target]
quality = "trained"
vehicle = "m4_sherman"
facing = "front"
"#;

/// A valid direct fire at a non-armoured unit: a two-point MG 42 team at a cautious
/// two-point squad, front line in soft cover.
const MG42: &str = r#"ruleset = "company-commander"
kind = "direct_fire"
range = 4

[firer]
quality = "experienced"
strength = 2
weapons = ["ge_mg42"]
modifiers = ["low_ammo"]

[target]
quality = "trained"
strength = 2
status = "cautious"
front_line = true
cover = "soft"
"#;

/// A valid direct fire by an inline weapon at a Pz IV's side.
const INLINE: &str = r#"ruleset = "company-commander"
kind = "direct_fire"
range = 4

[firer]
quality = "trained"

[[firer.weapon_data]]
label = "Test gun"
stabiliser = "first"
direct = { stationary_rof = 2, moving_rof = 1, range = [1, 10], penetration = [10, 6], ap = 4, strength = 3 }

[target]
vehicle = "pz_iv_h"
facing = "side"
"#;

/// A valid indirect fire: two 81mm mortars at a visible squad in soft cover.
const MORTAR: &str = r#"ruleset = "company-commander"
kind = "indirect_fire"
range = 10

[firer]
quality = "trained"
strength = 2
weapons = ["us_81mm_mortar"]

[target]
strength = 2
cover = "soft"
visible = true
"#;

/// A valid close assault: a veteran bazooka team at a Panther.
const CLOSE_ASSAULT: &str = r#"ruleset = "company-commander"
kind = "close_assault"

[assault]
quality = "veteran"
weapon_class = "bazooka_piat"

[target]
vehicle = "panther"
"#;

/// A valid barrage: a 105mm battery on a dug-in squad, two more squads and a Sherman
/// within the blast radius.
const BARRAGE: &str = r#"ruleset = "company-commander"
kind = "barrage"
range = 40

[firer]
quality = "trained"
strength = 4
weapons = ["us_105mm_howitzer"]

[target]
strength = 2
front_line = true
cover = "entrenchment"
visible = false

[[nearby]]
strength = 2
cover = "entrenchment"
visible = false
count = 2

[[nearby]]
vehicle = "m4_sherman"
visible = true
"#;

/// A valid A.A. fire: two quad .50 half-tracks at a fighter-bomber with save 3.
const AA: &str = r#"ruleset = "company-commander"
kind = "anti_aircraft"

[[aa_firer]]
level = "hmg"
mount = "quad"
units = 2

[aircraft]
save = 3
"#;

/// An override folder `DIR/company-commander/FILE` holding `text`.
fn override_dir(file: &str, text: &str) -> (TempDir, PathBuf) {
    cli::override_dir("company-commander", file, text)
}

/// The same bad override fails the same way under `fire` (of [`PANTHER`]) and `tables`.
fn override_errors(dir: &Path) -> Vec<String> {
    cli::override_errors(dir, "company-commander", "panther.toml", PANTHER)
}

/// The override folder holding `file`, the shipped `table` with `from` replaced by
/// `to`: the folder, the file's path, the new text and both error lines.
fn bad_override(file: &str, table: &str, from: &str, to: &str) -> (TempDir, PathBuf, String, Vec<String>) {
    cli::bad_override("company-commander", (file, table), (from, to), ("panther.toml", PANTHER))
}

#[test]
fn the_control_scenarios_are_valid() {
    // Each bad input below differs from one of these in one place.
    let dir = tempfile::tempdir().expect("temp dir");
    for (name, text) in [
        ("panther.toml", PANTHER),
        ("mg42.toml", MG42),
        ("inline.toml", INLINE),
        ("mortar.toml", MORTAR),
        ("close_assault.toml", CLOSE_ASSAULT),
        ("barrage.toml", BARRAGE),
        ("aa.toml", AA),
    ] {
        let path = write(dir.path(), name, text);
        let p = p_kill_exact(&path, &[]);
        assert!(p > 0.0 && p < 1.0, "{name}: p_kill {p} should be a real chance");
    }
}

// ---- strength 0 ----------------------------------------------------------------------

#[test]
fn strength_zero_units_are_located() {
    // (base, the right text, the same with strength 0)
    let cases = [
        (PANTHER, "weapons = [\"ge_75mm_kwk42\"]", "weapons = [\"ge_75mm_kwk42\"]\nstrength = 0"),
        (PANTHER, "facing = \"front\"", "facing = \"front\"\nstrength = 0"),
        (MG42, "quality = \"experienced\"\nstrength = 2", "quality = \"experienced\"\nstrength = 0"),
        (MG42, "quality = \"trained\"\nstrength = 2", "quality = \"trained\"\nstrength = 0"),
        (CLOSE_ASSAULT, "weapon_class = \"bazooka_piat\"", "weapon_class = \"bazooka_piat\"\nstrength = 0"),
        (BARRAGE, "[[nearby]]\nstrength = 2", "[[nearby]]\nstrength = 0"),
        (AA, "save = 3", "save = 3\nstrength = 0"),
    ];
    for (base, from, to) in cases {
        let text = replace_once(base, from, to);
        let (_dir, path, line) = scenario_error("strength_0.toml", &text);
        assert_located(&line, &path, &place(&text, "strength = 0", "strength = ".len()));
        assert_contains(&line, &["strength 0", "destroyed unit", "1 or more"]);
    }
}

#[test]
fn inline_weapon_strength_zero_is_located() {
    let direct = replace_once(INLINE, "ap = 4, strength = 3", "ap = 4, strength = 0");
    let indirect = replace_once(
        MORTAR,
        "weapons = [\"us_81mm_mortar\"]",
        "weapon_data = [{ indirect = { range = [2, 30], strength = 0 } }]",
    );
    for text in [direct, indirect] {
        let (_dir, path, line) = scenario_error("weapon_strength_0.toml", &text);
        assert_located(&line, &path, &place(&text, "strength = 0", "strength = ".len()));
        assert_contains(&line, &["weapon `inline weapon 1`", "strength 0", "from 1 to 6"]);
    }
}

// ---- AP outside 2-6 --------------------------------------------------------------------

#[test]
fn inline_weapon_ap_outside_two_to_six_is_located() {
    for ap in ["0", "1", "7"] {
        let text = replace_once(INLINE, "ap = 4,", &format!("ap = {ap},"));
        let (_dir, path, line) = scenario_error("inline_ap.toml", &text);
        assert_located(&line, &path, &place(&text, &format!("ap = {ap},"), "ap = ".len()));
        assert_contains(&line, &["weapon `inline weapon 1`", &format!("AP {ap}"), "hit damage table", "2 to 6"]);
    }
    // The indirect part is checked alike.
    let text = replace_once(
        MORTAR,
        "weapons = [\"us_81mm_mortar\"]",
        "weapon_data = [{ indirect = { range = [2, 30], strength = 3, penetration = 2, ap = 7, barrage = \"large\" } }]",
    );
    let (_dir, path, line) = scenario_error("inline_indirect_ap.toml", &text);
    assert_located(&line, &path, &place(&text, "ap = 7", "ap = ".len()));
    assert_contains(&line, &["weapon `inline weapon 1`", "AP 7", "2 to 6"]);
}

#[test]
fn override_catalogue_with_ap_outside_two_to_six_is_located() {
    let cases = [
        ("penetration = [16, 11], ap = 5,", "penetration = [16, 11], ap = 7,", "ap = 7", "ge_75mm_kwk42", "AP 7"),
        ("penetration = [9, 5], ap = 4,", "penetration = [9, 5], ap = 1,", "ap = 1", "seed_example_gun", "AP 1"),
    ];
    for (from, to, at, weapon, ap) in cases {
        let (_dir, path, text, lines) = bad_override("catalogue.toml", CATALOGUE, from, to);
        for line in lines {
            assert_located(&line, &path, &place(&text, at, "ap = ".len()));
            assert_contains(&line, &[&format!("weapon `{weapon}`"), ap, "2 to 6"]);
        }
    }
}

#[test]
fn override_catalogue_with_weapon_strength_zero_is_located() {
    let (_dir, path, text, lines) = bad_override(
        "catalogue.toml",
        CATALOGUE,
        "ap = 5, strength = 3 }\n\n[weapon.ge_88mm_kwk36]",
        "ap = 5, strength = 0 }\n\n[weapon.ge_88mm_kwk36]",
    );
    for line in lines {
        assert_located(&line, &path, &place(&text, "strength = 0", "strength = ".len()));
        assert_contains(&line, &["weapon `ge_75mm_kwk42`", "strength 0", "from 1 to 6"]);
    }
}

#[test]
fn inline_weapon_with_half_of_penetration_and_ap_is_located() {
    // AP without penetration, at the AP.
    let text = replace_once(INLINE, "penetration = [10, 6], ", "");
    let (_dir, path, line) = scenario_error("ap_alone.toml", &text);
    assert_located(&line, &path, &place(&text, "ap = 4", "ap = ".len()));
    assert_contains(&line, &["`ap` without `penetration`", "give both or neither"]);
    // Penetration without AP, at the penetration.
    let text = replace_once(INLINE, "ap = 4, ", "");
    let (_dir, path, line) = scenario_error("penetration_alone.toml", &text);
    assert_located(&line, &path, &place(&text, "[10, 6]", 0));
    assert_contains(&line, &["penetration needs an `ap` value", "2 to 6"]);
}

// ---- no penetration at the range asked ---------------------------------------------------

#[test]
fn range_beyond_the_weapons_maximum_is_located() {
    // (base, the range, the new range, message parts)
    let cases: [(&str, &str, &str, &[&str]); 3] = [
        (
            PANTHER,
            "range = 8",
            "range = 25",
            &["range 25 hexes", "beyond the direct reach of the 75mm KwK 42 L/70 (Panther)", "20 hexes at most"],
        ),
        (
            MORTAR,
            "range = 10",
            "range = 31",
            &["range 31 hexes", "beyond the indirect reach of the 81mm mortar", "30 hexes at most"],
        ),
        (
            BARRAGE,
            "range = 40",
            "range = 200",
            &["range 200 hexes", "beyond the indirect reach of the 105mm howitzer battery", "110 hexes at most"],
        ),
    ];
    for (base, from, to, parts) in cases {
        let text = replace_once(base, from, to);
        let (_dir, path, line) = scenario_error("too_far.toml", &text);
        assert_located(&line, &path, &place(&text, to, "range = ".len()));
        assert_contains(&line, parts);
    }
}

#[test]
fn range_inside_the_minimum_when_it_cannot_fire_is_located() {
    let text = format!(
        "{}\n[settings]\ninside_minimum_range = \"cannot_fire\"\n",
        replace_once(INLINE, "range = [1, 10]", "range = [5, 10]")
    );
    let (_dir, path, line) = scenario_error("too_close.toml", &text);
    assert_located(&line, &path, &place(&text, "range = 4", "range = ".len()));
    assert_contains(&line, &["range 4 hexes", "inside", "`inline weapon 1`", "minimum range of 5", "cannot_fire"]);
}

#[test]
fn a_weapon_without_penetration_at_armour_is_refused() {
    // A catalogue machine gun at a Sherman.
    let text = replace_once(PANTHER, "\"ge_75mm_kwk42\"", "\"ge_mg42\"");
    let (_dir, path, line) = scenario_error("mg_at_armour.toml", &text);
    assert_names_file_maybe_placed(&line, &path);
    assert_contains(&line, &["`ge_mg42` has no penetration", "M4 Sherman", "`penetration` and `ap`"]);
    // An inline weapon with neither penetration nor AP at a Pz IV.
    let text = replace_once(INLINE, "penetration = [10, 6], ap = 4, ", "");
    let (_dir, path, line) = scenario_error("inline_at_armour.toml", &text);
    assert_names_file_maybe_placed(&line, &path);
    assert_contains(&line, &["`inline weapon 1` has no penetration", "PzKpfw IV Ausf. H", "`penetration` and `ap`"]);
}

#[test]
fn ranged_fire_by_infantry_at_adjacent_armour_is_refused() {
    // Seed 003: "Infantry units that are capable of a close assault may only attack
    // adjacent armoured units by a close assault." A bazooka team (its catalogue weapon
    // is a Bazooka team's) at range 1 from a Sherman: a close_assault scenario asks it.
    let text =
        replace_once(replace_once(PANTHER, "range = 8", "range = 1").as_str(), "\"ge_75mm_kwk42\"", "\"us_bazooka\"");
    let (_dir, path, line) = scenario_error("bazooka_adjacent.toml", &text);
    assert_located(&line, &path, &place(&text, "range = 1", "range = ".len()));
    assert_contains(
        &line,
        &[
            "range 1",
            "adjacent",
            "close assault",
            "kind = \"close_assault\"",
            "weapon_class = \"bazooka_piat\"",
            "close_assault = \"none\"",
        ],
    );
}

#[test]
fn close_assault_keys_are_checked() {
    // A firer that says it cannot close assault fires at adjacent armour as asked.
    let adjacent = replace_once(PANTHER, "range = 8", "range = 1");
    let text = replace_once(
        &adjacent,
        "weapons = [\"ge_75mm_kwk42\"]",
        "weapons = [\"us_bazooka\"]\nclose_assault = \"none\"",
    );
    let dir = tempfile::tempdir().unwrap();
    let out = fire(&write(dir.path(), "none.toml", &text), &[]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // A gun (no infantry team's weapon) fires at adjacent armour as before.
    let out = fire(&write(dir.path(), "gun.toml", &adjacent), &[]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // A misspelt class, on the firer and on an inline weapon.
    let text = replace_once(&text, "close_assault = \"none\"", "close_assault = \"bazoka_piat\"");
    let (_dir, path, line) = scenario_error("class.toml", &text);
    assert_located(&line, &path, &place(&text, "\"bazoka_piat\"", 0));
    assert_contains(&line, &["unknown close assault weapon class `bazoka_piat`", "did you mean `bazooka_piat`?"]);
    let text = replace_once(INLINE, "stabiliser = \"first\"", "close_assault = \"other_infantri\"");
    let (_dir, path, line) = scenario_error("inline_class.toml", &text);
    assert_located(&line, &path, &place(&text, "\"other_infantri\"", 0));
    assert_contains(&line, &["`inline weapon 1`", "unknown weapon class `other_infantri`", "other_infantry"]);
    // On the firer of indirect fire, which never closes with its target.
    let text = replace_once(MORTAR, "[firer]\n", "[firer]\nclose_assault = \"none\"\n");
    let (_dir, path, line) = scenario_error("indirect.toml", &text);
    assert_located(&line, &path, &place(&text, "\"none\"", 0));
    assert_contains(&line, &["close_assault", "an indirect_fire scenario never asks", "remove it"]);
}

#[test]
fn a_weapon_without_the_part_the_fire_needs_is_refused() {
    // (base, the right weapon, the wrong one, message parts)
    let cases: [(&str, &str, &str, &[&str]); 3] = [
        (PANTHER, "\"ge_75mm_kwk42\"", "\"us_81mm_mortar\"", &["`us_81mm_mortar`", "no direct fire part"]),
        (MORTAR, "\"us_81mm_mortar\"", "\"ge_mg42\"", &["`ge_mg42`", "no indirect fire part"]),
        (BARRAGE, "\"us_105mm_howitzer\"", "\"ge_mg42\"", &["barrage needs", "`indirect` part", "`barrage` type"]),
    ];
    for (base, from, to, parts) in cases {
        let text = replace_once(base, from, to);
        let (_dir, path, line) = scenario_error("wrong_part.toml", &text);
        assert_names_file_maybe_placed(&line, &path);
        assert_contains(&line, parts);
    }
}

// ---- quality letters -------------------------------------------------------------------

#[test]
fn a_quality_letter_is_refused_with_what_each_list_means_by_it() {
    // The seed's lists disagree on C and D: the error says what each means by the letter.
    let c: &[&str] = &["experienced in unit_quality", "trained in shooter_modifier", "trained in close_assault"];
    let d: &[&str] = &[
        "trained in unit_quality",
        "green in shooter_modifier",
        "trained in target_modifier",
        "experienced in close_assault",
    ];
    // (base, the quality as written, the letter, what each list means by it)
    let cases = [
        (PANTHER, "\"veteran\"", "C", c),
        (PANTHER, "\"trained\"", "D", d),
        (MG42, "\"experienced\"", "c", c),
        (CLOSE_ASSAULT, "\"veteran\"", "D", d),
    ];
    for (base, from, letter, meanings) in cases {
        let text = replace_once(base, from, &format!("\"{letter}\""));
        let (_dir, path, line) = scenario_error("letter.toml", &text);
        assert_located(&line, &path, &place(&text, &format!("\"{letter}\""), 0));
        assert_contains(&line, &[&format!("quality letter `{letter}`"), "disagree", "write the name instead"]);
        assert_contains(&line, meanings);
        assert_contains(&line, &["`green`", "`trained`", "`experienced`", "`veteran`", "`elite`"]);
    }
}

// ---- misspellings ------------------------------------------------------------------------

#[test]
fn misspellings_are_located_and_corrected() {
    // (base, the right text, the misspelt text, what the error calls it, the correction)
    let cases = [
        (PANTHER, "\"direct_fire\"", "\"direct_fir\"", "unknown scenario kind `direct_fir`", "direct_fire"),
        (
            PANTHER,
            "\"company-commander\"",
            "\"company-comander\"",
            "unknown ruleset `company-comander`",
            "company-commander",
        ),
        (PANTHER, "\"ge_75mm_kwk42\"", "\"ge_75mm_kwk24\"", "unknown weapon `ge_75mm_kwk24`", "ge_75mm_kwk42"),
        (PANTHER, "\"m4_sherman\"", "\"m4_sherma\"", "unknown vehicle `m4_sherma`", "m4_sherman"),
        (BARRAGE, "\"m4_sherman\"", "\"m4_shreman\"", "unknown vehicle `m4_shreman`", "m4_sherman"),
        (PANTHER, "\"veteran\"", "\"veteren\"", "unknown quality `veteren`", "veteran"),
        (MG42, "\"trained\"", "\"traned\"", "unknown quality `traned`", "trained"),
        (CLOSE_ASSAULT, "\"veteran\"", "\"veteren\"", "unknown quality `veteren`", "veteran"),
        (PANTHER, "\"front\"", "\"frnt\"", "unknown facing `frnt`", "front"),
        (MG42, "\"cautious\"", "\"cautios\"", "unknown target status `cautios`", "cautious"),
        (MG42, "\"soft\"", "\"sofft\"", "unknown cover `sofft`", "soft"),
        (MG42, "\"low_ammo\"", "\"low_amo\"", "unknown modifier `low_amo`", "low_ammo"),
        (CLOSE_ASSAULT, "\"bazooka_piat\"", "\"bazoka_piat\"", "unknown weapon class `bazoka_piat`", "bazooka_piat"),
        (AA, "\"hmg\"", "\"hmgg\"", "unknown A.A. level `hmgg`", "hmg"),
        (AA, "\"quad\"", "\"quadd\"", "unknown mount `quadd`", "quad"),
        (INLINE, "\"first\"", "\"frist\"", "unknown stabiliser `frist`", "first"),
    ];
    assert_misspellings_corrected(&cases);
}

#[test]
fn misspelt_barrage_type_of_an_inline_weapon_is_located_and_corrected() {
    let text = replace_once(
        MORTAR,
        "weapons = [\"us_81mm_mortar\"]",
        "weapon_data = [{ indirect = { range = [2, 30], strength = 3, barrage = \"larg\" } }]",
    );
    let (_dir, path, line) = scenario_error("typo_barrage.toml", &text);
    assert_located(&line, &path, &place(&text, "\"larg\"", 0));
    assert_contains(&line, &["unknown barrage type `larg`", "did you mean `large`?"]);
}

#[test]
fn misspelt_setting_values_are_located_and_corrected() {
    assert_setting_typos_corrected(
        PANTHER,
        &[
            ("weapon_strength_outcome", "suppressed_on_strenght", "suppressed_on_strength"),
            ("suppressed_again", "destroyd", "destroyed"),
            ("suppression_during_fire", "later_attack", "later_attacks"),
            ("penetration_between_ranges", "linear_neerest", "linear_nearest"),
            ("inside_minimum_range", "cannot_fir", "cannot_fire"),
            ("close_assault_attacks", "per_strength_pont", "per_strength_point"),
            ("barrage_original_target", "attacked_onse", "attacked_once"),
            ("cover_save_values", "highest_onl", "highest_only"),
        ],
    );
}

#[test]
fn an_unknown_setting_name_is_located() {
    let text = format!("{PANTHER}\n[settings]\nsuppresed_again = \"destroyed\"\n");
    let (_dir, path, line) = scenario_error("unknown_setting.toml", &text);
    assert_located(&line, &path, &place(&text, "suppresed_again =", 0));
    assert_contains(&line, &["unknown key `suppresed_again`", "did you mean `suppressed_again`?"]);
}

#[test]
fn a_key_given_twice_is_named() {
    let text = replace_once(PANTHER, "facing = \"front\"", "facing = \"front\"\nfacing = \"side\"");
    let (_dir, path, line) = scenario_error("twice.toml", &text);
    assert_located(&line, &path, &place(&text, "facing = \"side\"", 0));
    assert_contains(&line, &["duplicate key `facing`"]);
}

#[test]
fn a_letter_every_list_agrees_on_is_refused_without_claiming_a_conflict() {
    // B is veteran in every list; letters are refused alike because C, D and E are not.
    let text = replace_once(PANTHER, "\"veteran\"", "\"B\"");
    let (_dir, _path, line) = scenario_error("letter_b.toml", &text);
    assert_contains(&line, &["quality letter `B` means veteran in every list", "write the name instead"]);
    assert!(!line.contains("which disagree"), "{line}");
}

// ---- the target ------------------------------------------------------------------------

#[test]
fn count_on_the_target_is_located() {
    // (base, a line of the target, to follow it with `count`)
    let cases = [
        (PANTHER, "facing = \"front\""),
        (MORTAR, "visible = true"),
        (CLOSE_ASSAULT, "vehicle = \"panther\""),
        (BARRAGE, "front_line = true"),
    ];
    for (base, at) in cases {
        let text = replace_once(base, at, &format!("{at}\ncount = 3"));
        let (_dir, path, line) = scenario_error("target_count.toml", &text);
        assert_located(&line, &path, &place(&text, "count = 3", "count = ".len()));
        assert_contains(&line, &["`count` is for `[[nearby]]` units", "the target is one unit"]);
    }
}

#[test]
fn visible_missing_for_indirect_fire_is_located() {
    // (base, the text without `visible`, the section it is missing from, what it is)
    let cases = [
        (replace_once(MORTAR, "visible = true\n", ""), "[target]", "target"),
        (
            replace_once(
                BARRAGE,
                "cover = \"entrenchment\"\nvisible = false\n\n[[nearby]]",
                "cover = \"entrenchment\"\n\n[[nearby]]",
            ),
            "[target]",
            "target",
        ),
        (replace_once(BARRAGE, "visible = false\ncount = 2", "count = 2"), "[[nearby]]", "nearby unit"),
    ];
    for (text, section, what) in cases {
        let (_dir, path, line) = scenario_error("no_visible.toml", &text);
        assert_located(&line, &path, &place(&text, section, 0));
        assert_contains(&line, &[&format!("{what}: indirect fire needs `visible = true` or `false`")]);
    }
}

#[test]
fn visible_on_a_target_of_direct_fire_is_located() {
    for (base, at) in [(PANTHER, "facing = \"front\""), (CLOSE_ASSAULT, "vehicle = \"panther\"")] {
        let text = replace_once(base, at, &format!("{at}\nvisible = true"));
        let (_dir, path, line) = scenario_error("visible.toml", &text);
        assert_located(&line, &path, &place(&text, "visible = true", "visible = ".len()));
        assert_contains(&line, &["`visible` is for indirect fire"]);
    }
}

#[test]
fn target_entries_that_contradict_each_other_are_located() {
    // (base, a line of the target, the line added after it, where, message parts)
    let cases: [(&str, &str, &str, &str, &[&str]); 5] = [
        (MG42, "cover = \"soft\"", "hull_down = true", "true", &["hull_down is for armoured targets", "`cover`"]),
        (PANTHER, "facing = \"front\"", "front_line = true", "true", &["front_line is for non-armoured units"]),
        (MG42, "cover = \"soft\"", "facing = \"side\"", "\"side\"", &["facing matters only for armour"]),
        (
            PANTHER,
            "facing = \"front\"",
            "armour = { front = 7, side = 4, rear = 3 }",
            "{ front = 7",
            &["give `vehicle` or `armour`, not both"],
        ),
        (PANTHER, "facing = \"front\"", "bearing = 90", "90", &["give `facing` or `bearing`, not both"]),
    ];
    for (base, at, added, value, parts) in cases {
        let text = replace_once(base, at, &format!("{at}\n{added}"));
        let (_dir, path, line) = scenario_error("contradiction.toml", &text);
        assert_located(&line, &path, &place(&text, added, added.find(value).expect("the value in the line")));
        assert_contains(&line, parts);
    }
}

// ---- the firer ---------------------------------------------------------------------------

#[test]
fn firer_modifiers_that_do_not_apply_are_located() {
    // Applied by the rules themselves.
    let text = replace_once(MG42, "[\"low_ammo\"]", "[\"shooter_moved\"]");
    let (_dir, path, line) = scenario_error("automatic.toml", &text);
    assert_located(&line, &path, &place(&text, "\"shooter_moved\"", 0));
    assert_contains(&line, &["`shooter_moved`", "applied automatically", "moved", "remove it"]);
    // Named twice.
    let text = replace_once(MG42, "[\"low_ammo\"]", "[\"low_ammo\", \"low_ammo\"]");
    let (_dir, path, line) = scenario_error("twice.toml", &text);
    assert_located(&line, &path, &place(&text, ", \"low_ammo\"", 2));
    assert_contains(&line, &["`low_ammo`", "twice"]);
    // A Smart-weapon row without a Smart weapon.
    let text = replace_once(MG42, "[\"low_ammo\"]", "[\"smart_weapon_vs_ew\"]");
    let (_dir, path, line) = scenario_error("not_smart.toml", &text);
    assert_located(&line, &path, &place(&text, "\"smart_weapon_vs_ew\"", 0));
    assert_contains(&line, &["smart_weapon_vs_ew", "Smart weapons"]);
}

#[test]
fn a_firer_without_weapons_is_located() {
    let text = replace_once(PANTHER, "weapons = [\"ge_75mm_kwk42\"]", "weapons = []");
    let (_dir, path, line) = scenario_error("no_weapons.toml", &text);
    assert_located(&line, &path, &place(&text, "[firer]", 0));
    assert_contains(&line, &["`weapons = [", "`[[firer.weapon_data]]`"]);
}

#[test]
fn a_moving_firer_of_indirect_fire_is_refused() {
    let text = replace_once(MORTAR, "weapons = [\"us_81mm_mortar\"]", "weapons = [\"us_81mm_mortar\"]\nmoved = true");
    let (_dir, path, line) = scenario_error("moving_mortar.toml", &text);
    assert_names_file_maybe_placed(&line, &path);
    assert_contains(&line, &["only direct fire", "moves", "remove `moved`"]);
}

// ---- sections of another kind ------------------------------------------------------------

#[test]
fn sections_of_another_kind_are_refused_where_they_stand() {
    // (the text, the stray section, message parts)
    let cases: [(String, &str, &[&str]); 8] = [
        (
            format!("{PANTHER}\n[assault]\nweapon_class = \"bazooka_piat\"\n"),
            "[assault]",
            &["`assault` does not belong in a direct_fire scenario", "range, firer, target"],
        ),
        (
            format!("{PANTHER}\n[aircraft]\nsave = 3\n"),
            "[aircraft]",
            &["`aircraft` does not belong in a direct_fire scenario"],
        ),
        (
            format!("{PANTHER}\n[[nearby]]\nstrength = 1\n"),
            "[[nearby]]",
            &["`nearby` does not belong in a direct_fire scenario"],
        ),
        (format!("{MORTAR}\n[[aa_firer]]\nlevel = \"hmg\"\n"), "[[aa_firer]]", &["`aa_firer` does not belong"]),
        (
            format!("{CLOSE_ASSAULT}\n[firer]\nweapons = [\"us_bazooka\"]\n"),
            "[firer]",
            &["`firer` does not belong in a close_assault scenario", "assault, target"],
        ),
        (
            replace_once(CLOSE_ASSAULT, "\n[assault]", "range = 1\n\n[assault]"),
            // A key is placed at its value.
            "1\n\n[assault]",
            &["`range` does not belong in a close_assault scenario"],
        ),
        (
            format!("{BARRAGE}\n[aircraft]\nsave = 3\n"),
            "[aircraft]",
            &["`aircraft` does not belong in a barrage scenario", "range, firer, target, nearby"],
        ),
        (format!("{AA}\n[target]\nstrength = 1\n"), "[target]", &["`target` does not belong", "aa_firer, aircraft"]),
    ];
    for (text, section, parts) in cases {
        let (_dir, path, line) = scenario_error("mixed.toml", &text);
        assert_located(&line, &path, &place(&text, section, 0));
        assert_contains(&line, parts);
    }
}

// ---- counts and numbers ------------------------------------------------------------------

#[test]
fn counts_and_ranges_out_of_bounds_are_located() {
    // (base, from, to, the value's text in the new file, message parts)
    let cases: [(&str, &str, &str, &str, &[&str]); 8] = [
        (PANTHER, "range = 8", "range = 0", "0", &["range 0", "from 1 (adjacent) to 500"]),
        (PANTHER, "range = 8", "range = 501", "501", &["range 501", "from 1 (adjacent) to 500"]),
        (
            MG42,
            "quality = \"experienced\"\nstrength = 2",
            "quality = \"experienced\"\nstrength = 13",
            "13",
            &["strength 13", "at most 12"],
        ),
        (BARRAGE, "count = 2", "count = 0", "0", &["count must be from 1 to 20, not 0"]),
        (BARRAGE, "count = 2", "count = 21", "21", &["count must be from 1 to 20, not 21"]),
        (AA, "units = 2", "units = 0", "0", &["units must be from 1 to 20, not 0"]),
        (AA, "save = 3", "save = 8", "8", &["save 8", "from 0 to 7"]),
        (INLINE, "ap = 4, strength = 3", "ap = 4, strength = 7", "7", &["strength 7", "from 1 to 6"]),
    ];
    for (base, from, to, value, parts) in cases {
        let text = replace_once(base, from, to);
        let (_dir, path, line) = scenario_error("numbers.toml", &text);
        assert_located(&line, &path, &place(&text, to, to.len() - value.len()));
        assert_contains(&line, parts);
    }
}

// ---- malformed override tables (--rules DIR) -----------------------------------------------

#[test]
fn override_with_a_to_hit_row_that_is_not_a_number_is_located() {
    let low_ammo = "name = \"low_ammo\"\nlabel = \"Shooter is at Low Ammo\"\nside = \"firer\"\nvalue = -1";
    let (_dir, path, text, lines) =
        bad_override("to_hit.toml", TO_HIT, low_ammo, &low_ammo.replace("value = -1", "value = \"minus one\""));
    for line in lines {
        assert_located(&line, &path, &place(&text, "\"minus one\"", 0));
        assert_contains(&line, &["\"minus one\""]);
    }
    let (_dir, path, text, lines) =
        bad_override("to_hit.toml", TO_HIT, "ballistic_score = 5", "ballistic_score = \"five\"");
    for line in lines {
        assert_located(&line, &path, &place(&text, "\"five\"", 0));
        assert_contains(&line, &["\"five\""]);
    }
}

#[test]
fn override_with_a_hit_damage_score_that_is_not_a_score_is_located() {
    let (_dir, path, text, lines) =
        bad_override("hit_damage.toml", HIT_DAMAGE, "success = \"66 or less\"", "success = \"sixty-six\"");
    for line in lines {
        assert_located(&line, &path, &place(&text, "\"sixty-six\"", 0));
        assert_contains(&line, &["`sixty-six`", "d100", "`N or less`"]);
    }
}

#[test]
fn override_without_provenance_is_refused() {
    let cases = [
        ("to_hit.toml", TO_HIT, "[source]\nseed = \"003_4209dbf3d2b9cbd0.txt\"\ntable = \"Find the number of hits\"\n"),
        (
            "hit_damage.toml",
            HIT_DAMAGE,
            "[source]\nseed = \"003_4209dbf3d2b9cbd0.txt\"\ntable = \"Hit damage\"\nrules = \"Glancing hit; Penetrating hit\"\n",
        ),
        (
            "catalogue.toml",
            CATALOGUE,
            "[source]\nseed = \"003_4209dbf3d2b9cbd0.txt\"\n# Illustrative values: the seed prints one example weapon display under this heading.\ntable = \"Weapon Information\"\n# Every answer that reads an entry of this file says its values are invented.\ninvented = true\n",
        ),
    ];
    for (file, table, source) in cases {
        let (_dir, path, _text, lines) = bad_override(file, table, source, "");
        for line in lines {
            assert_names_file_maybe_placed(&line, &path);
            assert_contains(&line, &["missing `[source]`", "`seed", "`table"]);
        }
    }
}

#[test]
fn override_hit_damage_missing_an_ap_level_is_refused() {
    let ap3 = "[[ap]]\nap = 3\nsuccess = \"33 or less\"\n\n";
    let (_dir, path, _text, lines) = bad_override("hit_damage.toml", HIT_DAMAGE, ap3, "");
    for line in lines {
        assert_names_file_maybe_placed(&line, &path);
        assert_contains(&line, &["missing the row for AP 3"]);
    }
    // The row renumbered past the table instead: located at the AP.
    let (_dir, path, text, lines) =
        bad_override("hit_damage.toml", HIT_DAMAGE, ap3, "[[ap]]\nap = 7\nsuccess = \"33 or less\"\n\n");
    for line in lines {
        assert_located(&line, &path, &place(&text, "ap = 7", "ap = ".len()));
        assert_contains(&line, &["AP 7", "2 to 6"]);
    }
}

#[test]
fn override_with_an_unknown_table_file_name_is_corrected() {
    let (dir, path) = override_dir("hit_dammage.toml", HIT_DAMAGE);
    for line in override_errors(dir.path()) {
        assert_names_file_maybe_placed(&line, &path);
        assert_contains(&line, &["unknown table file `hit_dammage.toml`", "did you mean `hit_damage.toml`?"]);
    }
}

// ---- percent-destroy -----------------------------------------------------------------------

/// `combat-odds percent-destroy FILE --trials 1000`, then `extra`.
fn percent_destroy(file: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec!["percent-destroy", file.to_str().expect("utf-8 temp path"), "--trials", "1000"];
    args.extend_from_slice(extra);
    run(&args)
}

#[test]
fn percent_destroy_with_a_bad_scenario_fails_as_fire_does() {
    let dir = tempfile::tempdir().expect("temp dir");
    // (the text, the place of the mistake where the check names one, message parts)
    let cases: [(String, Option<&str>, &[&str]); 5] = [
        (
            replace_once(PANTHER, "\"m4_sherman\"", "\"m4_sherma\""),
            Some("\"m4_sherma\""),
            &["unknown vehicle `m4_sherma`", "did you mean `m4_sherman`?"],
        ),
        (replace_once(PANTHER, "range = 8", "range = 25"), Some("25"), &["range 25 hexes", "beyond"]),
        (
            replace_once(PANTHER, "\"veteran\"", "\"C\""),
            Some("\"C\""),
            &["quality letter `C`", "write the name instead"],
        ),
        (replace_once(PANTHER, "\"ge_75mm_kwk42\"", "\"ge_mg42\""), None, &["`ge_mg42` has no penetration"]),
        // Not TOML at all: the reader's own message, in the same one-line shape.
        (replace_once(PANTHER, "range = 8", "range = [8"), Some("[firer]"), &["array"]),
    ];
    for (text, at, parts) in cases {
        let path = write(dir.path(), "bad.toml", &text);
        for format in ["table", "json", "csv"] {
            let line = error_line(&percent_destroy(&path, &["--format", format]));
            assert_eq!(line, error_line(&fire(&path, &[])), "percent-destroy and fire report alike");
            match at {
                Some(at) => assert_located(&line, &path, &place(&text, at, 0)),
                None => assert_names_file_maybe_placed(&line, &path),
            }
            assert_contains(&line, parts);
        }
    }
}

#[test]
fn percent_destroy_of_a_missing_file_is_refused() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("no_such_scenario.toml");
    let line = error_line(&percent_destroy(&path, &["--format", "json"]));
    assert_names_file(&line, &path);
    assert_contains(&line, &["cannot read the file"]);
}

#[test]
fn percent_destroy_with_a_bad_override_fails_as_fire_does() {
    let text = replace_once(CATALOGUE, "penetration = [16, 11], ap = 5,", "penetration = [16, 11], ap = 7,");
    let (dir, path) = override_dir("catalogue.toml", &text);
    let (_scenario_dir, scenario, by_fire) = fire_with_rules(dir.path(), "panther.toml", PANTHER, &[]);
    let rules = dir.path().to_str().expect("utf-8 temp path");
    let line = error_line(&percent_destroy(&scenario, &["--rules", rules, "--format", "json"]));
    assert_eq!(line, error_line(&by_fire));
    assert_located(&line, &path, &place(&text, "ap = 7", "ap = ".len()));
    assert_contains(&line, &["weapon `ge_75mm_kwk42`", "AP 7", "2 to 6"]);
}

#[test]
fn a_rate_of_fire_of_zero_is_named_for_the_rate_that_is_zero() {
    // A stationary firer with stationary_rof = 0 is refused for its stationary rate.
    let halted = replace_once(INLINE, "stationary_rof = 2", "stationary_rof = 0");
    let (_dir, _path, line) = scenario_error("halted.toml", &halted);
    assert_contains(&line, &["cannot fire from a halt", "stationary rate of fire is 0", "moved = true"]);
    assert!(!line.contains("after moving"), "{line}");
    // A moving firer with moving_rof = 0, for its moving rate.
    let moving = replace_once(
        &replace_once(INLINE, "moving_rof = 1", "moving_rof = 0"),
        "quality = \"trained\"",
        "quality = \"trained\"\nmoved = true",
    );
    let (_dir, _path, line) = scenario_error("moving.toml", &moving);
    assert_contains(&line, &["cannot fire after moving", "moving rate of fire is 0"]);
}

#[test]
fn target_in_front_arc_without_a_front_arc_weapon_is_refused_where_it_stands() {
    let text = replace_once(PANTHER, "quality = \"veteran\"", "quality = \"veteran\"\ntarget_in_front_arc = true");
    let (_dir, path, line) = scenario_error("arc.toml", &text);
    assert_located(&line, &path, &place(&text, "target_in_front_arc = true", "target_in_front_arc = ".len()));
    assert_contains(&line, &["target_in_front_arc", "front_arc = true", "remove it"]);
}

#[test]
fn a_front_arc_weapon_needs_to_know_where_the_target_is() {
    let text = replace_once(
        MG42,
        "weapons = [\"ge_mg42\"]",
        "weapons = [\"ge_mg42\", { weapon = \"us_30cal_mg\", front_arc = true }]",
    );
    let (_dir, path, line) = scenario_error("hull_mg.toml", &text);
    assert_names_file_maybe_placed(&line, &path);
    assert_contains(&line, &["`us_30cal_mg`", "front arc", "target_in_front_arc = true"]);
}

#[test]
fn a_mount_in_the_catalogue_is_refused_for_the_firers_list() {
    // `one_of` says how a firer carries a weapon: the catalogue entry cannot.
    let text = replace_once(
        CATALOGUE,
        "label = \".30 cal. machine gun\"",
        "label = \".30 cal. machine gun\"\none_of = \"turret\"",
    );
    let (dir, path) = override_dir("catalogue.toml", &text);
    for line in override_errors(dir.path()) {
        // The key's own line (the file's header comment shows the firer's form).
        assert_located(&line, &path, &place(&text, "\none_of = \"turret\"", "\none_of = ".len()));
        assert_contains(&line, &["weapon `us_30cal_mg`", "firer's list", "one_of = \"turret\""]);
    }
}

#[test]
fn a_firers_weapon_entry_of_the_wrong_shape_is_located() {
    // A number, and a table with an unknown key.
    for (entry, words) in [
        ("42", &["a catalogue weapon name, or a table"][..]),
        ("{ weapon = \"ge_mg42\", coax = true }", &["unknown key `coax`", "one_of", "front_arc"][..]),
    ] {
        let text = replace_once(MG42, "weapons = [\"ge_mg42\"]", &format!("weapons = [{entry}]"));
        let (_dir, path, line) = scenario_error("entry.toml", &text);
        assert_names_file_maybe_placed(&line, &path);
        assert_contains(&line, words);
    }
}
