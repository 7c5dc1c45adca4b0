//! The real binary fed bad input: every mistake ends with exit code 2 and exactly one
//! line on stderr, `error: FILE:LINE:COLUMN: what is wrong`, suggesting the nearest
//! name for a misspelling, and never a panic.

use std::path::{Path, PathBuf};

use crate::common::cli::{
    self, assert_contains, assert_located, assert_names_file, error_line, fire, p_kill_exact, place, replace_once, run,
    scenario_error, write,
};
use tempfile::TempDir;

const HIT_RESULTS: &str =
    include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/rulesets/command-decision/hit_results.toml"));
const DIRECT_FIRE: &str =
    include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/rulesets/command-decision/direct_fire_modifiers.toml"));

/// A valid direct fire scenario: a regular rifle platoon (ROF 3, hit number 5 at
/// close range) fires at a regular stand in the open, 2 in. away.
const RIFLES: &str = r#"ruleset = "command-decision"
kind = "direct_fire"
range = 2

[[firer]]
weapon = "rifle_platoon"
quality = "regular"

[target]
quality = "regular"
"#;

/// An override folder `DIR/command-decision/FILE` holding `text`.
fn override_dir(file: &str, text: &str) -> (TempDir, PathBuf) {
    cli::override_dir("command-decision", file, text)
}

/// The same bad override fails the same way under `fire` (of [`RIFLES`]) and `tables`.
fn override_errors(dir: &Path) -> Vec<String> {
    cli::override_errors(dir, "command-decision", "rifles.toml", RIFLES)
}

// ---- scenario files -------------------------------------------------------------

#[test]
fn misspelt_ruleset_in_a_scenario_is_located_and_corrected() {
    let text = replace_once(RIFLES, "\"command-decision\"", "\"comand-decision\"");
    let (_dir, path, line) = scenario_error("typo_ruleset.toml", &text);
    assert_located(&line, &path, &place(&text, "\"comand-decision\"", 0));
    assert_contains(&line, &["unknown ruleset `comand-decision`", "did you mean `command-decision`?"]);
}

#[test]
fn unknown_scenario_kind_is_located_and_corrected() {
    let text = replace_once(RIFLES, "\"direct_fire\"", "\"direct_fir\"");
    let (_dir, path, line) = scenario_error("typo_kind.toml", &text);
    assert_located(&line, &path, &place(&text, "\"direct_fir\"", 0));
    assert_contains(&line, &["unknown scenario kind `direct_fir`", "did you mean `direct_fire`?", "`morale`"]);
}

#[test]
fn misspelt_catalogue_weapon_is_located_and_corrected() {
    let text = replace_once(RIFLES, "\"rifle_platoon\"", "\"de_75mm_kwk24\"");
    let (_dir, path, line) = scenario_error("typo_weapon.toml", &text);
    assert_located(&line, &path, &place(&text, "\"de_75mm_kwk24\"", 0));
    assert_contains(&line, &["unknown weapon `de_75mm_kwk24`", "did you mean `de_75mm_kwk42`?"]);
}

#[test]
fn misspelt_troop_quality_is_located_and_corrected() {
    let text = replace_once(
        RIFLES,
        "weapon = \"rifle_platoon\"\nquality = \"regular\"",
        "weapon = \"rifle_platoon\"\nquality = \"veteren\"",
    );
    let (_dir, path, line) = scenario_error("typo_quality.toml", &text);
    assert_located(&line, &path, &place(&text, "\"veteren\"", 0));
    assert_contains(&line, &["unknown troop quality `veteren`", "did you mean `veteran`?"]);
}

#[test]
fn misspelt_target_modifier_is_located_and_corrected() {
    let text = format!("{RIFLES}modifiers = [\"light_covr\"]\n");
    let (_dir, path, line) = scenario_error("typo_modifier.toml", &text);
    assert_located(&line, &path, &place(&text, "\"light_covr\"", 0));
    assert_contains(&line, &["unknown modifier `light_covr`", "did you mean `light_cover`?"]);
}

#[test]
fn automatic_modifier_named_by_the_user_is_refused_with_the_reason() {
    let text = replace_once(
        RIFLES,
        "quality = \"regular\"\n\n[target]",
        "quality = \"veteran\"\nmodifiers = [\"veteran_elite\"]\n\n[target]",
    );
    let (_dir, path, line) = scenario_error("automatic_modifier.toml", &text);
    assert_located(&line, &path, &place(&text, "\"veteran_elite\"", 0));
    assert_contains(&line, &["`veteran_elite`", "applied automatically", "firer's quality", "remove it"]);
}

#[test]
fn negative_range_is_refused() {
    let text = replace_once(RIFLES, "range = 2", "range = -3");
    let (_dir, path, line) = scenario_error("negative_range.toml", &text);
    assert_located(&line, &path, &place(&text, "-3", 0));
    assert_contains(&line, &["range -3", "0 or more", "inches"]);
}

#[test]
fn absurd_range_is_refused() {
    let text = replace_once(RIFLES, "range = 2", "range = 5000");
    let (_dir, path, line) = scenario_error("absurd_range.toml", &text);
    assert_located(&line, &path, &place(&text, "5000", 0));
    assert_contains(&line, &["range 5000", "beyond any weapon", "inches"]);
}

const INLINE_WEAPON: &str = r#"ruleset = "command-decision"
kind = "direct_fire"
range = 2

[[firer]]
name = "home-made"
quality = "regular"

[firer.weapon_data]
rof = 3
close = { range = 2, hit = 5, anti_armour = "-" }
medium = { range = 4, hit = 4, anti_armour = "-" }
long = { range = 6, hit = 3, anti_armour = "-" }
extreme = { range = 8, hit = 2, anti_armour = "-" }

[target]
quality = "regular"
"#;

#[test]
fn inline_weapon_control_scenario_is_valid() {
    // The bad inline weapons below each differ from this one in one place.
    let dir = tempfile::tempdir().expect("temp dir");
    let path = write(dir.path(), "inline.toml", INLINE_WEAPON);
    assert!((p_kill_exact(&path, &[]) - 0.488).abs() < 1e-12);
}

#[test]
fn inline_weapon_with_rof_zero_is_refused() {
    let text = replace_once(INLINE_WEAPON, "rof = 3", "rof = 0");
    let (_dir, path, line) = scenario_error("rof_zero.toml", &text);
    assert_located(&line, &path, &place(&text, "rof = 0", "rof = ".len()));
    assert_contains(&line, &["ROF 0 cannot fire", "at least 1"]);
}

#[test]
fn inline_weapon_missing_the_medium_band_is_refused() {
    let text = replace_once(INLINE_WEAPON, "medium = { range = 4, hit = 4, anti_armour = \"-\" }\n", "");
    let (_dir, path, line) = scenario_error("no_medium.toml", &text);
    // Located at the weapon_data table, the thing that lacks the band.
    assert_located(&line, &path, &place(&text, "[firer.weapon_data]", 0));
    assert_contains(&line, &["no medium range band", "close, medium, long, extreme"]);
}

#[test]
fn toml_syntax_error_reports_line_and_column() {
    let text = replace_once(RIFLES, "range = 2", "range = = 2");
    let (_dir, path, line) = scenario_error("syntax.toml", &text);
    // The second "=" on line 3, column 9.
    assert_located(&line, &path, "3:9");
    assert_contains(&line, &["="]);
}

// ---- table overrides (--rules DIR) ------------------------------------------------

const GREEN: &str = "quality = \"green\"\nno_effect = \"1\"\nforced_back = \"2-5\"";

#[test]
fn override_with_a_gap_between_bands_is_located() {
    let text = replace_once(HIT_RESULTS, GREEN, "quality = \"green\"\nno_effect = \"1\"\nforced_back = \"3-5\"");
    let (dir, path) = override_dir("hit_results.toml", &text);
    for line in override_errors(dir.path()) {
        assert_located(&line, &path, &place(&text, "forced_back = \"3-5\"", "forced_back = ".len()));
        assert_contains(&line, &["row `green`", "forced_back", "`3-5`", "gap", "start at 2"]);
    }
}

#[test]
fn override_with_overlapping_bands_is_located() {
    let text = replace_once(HIT_RESULTS, GREEN, "quality = \"green\"\nno_effect = \"1\"\nforced_back = \"1-5\"");
    let (dir, path) = override_dir("hit_results.toml", &text);
    for line in override_errors(dir.path()) {
        assert_located(&line, &path, &place(&text, "forced_back = \"1-5\"", "forced_back = ".len()));
        assert_contains(&line, &["row `green`", "forced_back", "`1-5`", "overlap", "start at 2"]);
    }
}

#[test]
fn override_missing_a_quality_row_is_refused() {
    let veteran = "[[row]]\nquality = \"veteran\"\nno_effect = \"1-5\"\nforced_back = \"6-7\"\neliminated = \"8+\"\nnatural = 10\n";
    let text = replace_once(HIT_RESULTS, veteran, "");
    let (dir, path) = override_dir("hit_results.toml", &text);
    for line in override_errors(dir.path()) {
        assert_names_file(&line, &path);
        assert_contains(&line, &["missing row `veteran`", "one row per troop quality"]);
    }
}

#[test]
fn override_missing_a_direct_fire_modifier_row_is_refused() {
    let hasty = "[[modifier]]\nname = \"hasty_advance\"\nlabel = \"Hasty Advance\"\nside = \"firer\"\nvalue = -2\n\n";
    let text = replace_once(DIRECT_FIRE, hasty, "");
    let (dir, path) = override_dir("direct_fire_modifiers.toml", &text);
    for line in override_errors(dir.path()) {
        assert_names_file(&line, &path);
        assert_contains(&line, &["missing modifier row `hasty_advance`"]);
    }
}

#[test]
fn override_with_an_unknown_table_file_name_is_corrected() {
    let (dir, path) = override_dir("hit_result.toml", HIT_RESULTS);
    for line in override_errors(dir.path()) {
        assert_names_file(&line, &path);
        assert_contains(&line, &["unknown table file `hit_result.toml`", "did you mean `hit_results.toml`?"]);
    }
}

#[test]
fn override_that_changes_one_hit_results_cell_changes_the_exact_p_kill() {
    let dir = tempfile::tempdir().expect("temp dir");
    let scenario = write(dir.path(), "rifles.toml", RIFLES);
    // Three dice, each hitting on 5 or less (1/2); the card's Regular row eliminates
    // on 7+ (4/10): P(kill) = 1 - (1 - 1/2 * 4/10)^3 = 0.488.
    let card = p_kill_exact(&scenario, &[]);
    assert!((card - 0.488).abs() < 1e-12, "p_kill with the card's table: {card}");
    // Move the Regular row one band down (1-2 / 3-5 / 6+): eliminated on 6+ (5/10),
    // P(kill) = 1 - (1 - 1/2 * 5/10)^3 = 0.578125.
    let regular = "quality = \"regular\"\nno_effect = \"1-3\"\nforced_back = \"4-6\"\neliminated = \"7+\"";
    let changed = "quality = \"regular\"\nno_effect = \"1-2\"\nforced_back = \"3-5\"\neliminated = \"6+\"";
    let rules = tempfile::tempdir().expect("temp dir");
    write(rules.path(), "command-decision/hit_results.toml", &replace_once(HIT_RESULTS, regular, changed));
    let overridden = p_kill_exact(&scenario, &["--rules", rules.path().to_str().expect("utf-8 temp path")]);
    assert!((overridden - 0.578125).abs() < 1e-12, "p_kill with the override: {overridden}");
}

// ---- command line -----------------------------------------------------------------

#[test]
fn output_to_an_existing_file_without_force_leaves_it_alone() {
    let dir = tempfile::tempdir().expect("temp dir");
    let scenario = write(dir.path(), "rifles.toml", RIFLES);
    let precious = write(dir.path(), "results.txt", "precious results\n");
    let line = error_line(&fire(&scenario, &["--output", precious.to_str().expect("utf-8 temp path")]));
    assert_contains(&line, &[&precious.display().to_string(), "already exists", "--force"]);
    assert_eq!(std::fs::read_to_string(&precious).expect("still there"), "precious results\n");
    // No temporary file left beside it either.
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .expect("list")
        .map(|e| e.expect("entry").file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, ["results.txt", "rifles.toml"]);
}

#[test]
fn tables_of_an_unknown_ruleset_is_refused() {
    let line = error_line(&run(&["tables", "nosuchruleset"]));
    assert_contains(&line, &["unknown ruleset `nosuchruleset`", "`command-decision`"]);
}

#[test]
fn tables_of_a_misspelt_ruleset_is_corrected() {
    let line = error_line(&run(&["tables", "comand-decision"]));
    assert_contains(&line, &["unknown ruleset `comand-decision`", "did you mean `command-decision`?"]);
}

// ---- inputs that once slipped through -------------------------------------------

#[test]
fn override_dir_with_a_misspelt_ruleset_folder_is_corrected() {
    let dir = tempfile::tempdir().expect("temp dir");
    let text = replace_once(HIT_RESULTS, GREEN, "quality = \"green\"\nno_effect = \"1\"\nforced_back = \"3-5\"");
    write(dir.path(), "comand-decision/hit_results.toml", &text);
    let line = error_line(&run(&["tables", "command-decision", "--rules", dir.path().to_str().unwrap()]));
    assert_contains(&line, &["comand-decision", "did you mean `command-decision`?"]);
}

#[test]
fn override_with_a_natural_roll_beyond_the_d10_is_refused() {
    let text = replace_once(
        HIT_RESULTS,
        "forced_back = \"2-5\"\neliminated = \"6+\"\nnatural = 10",
        "forced_back = \"2-5\"\neliminated = \"6+\"\nnatural = 11",
    );
    let (dir, path) = override_dir("hit_results.toml", &text);
    for line in override_errors(dir.path()) {
        assert_located(&line, &path, &place(&text, "natural = 11", "natural = ".len()));
        assert_contains(&line, &["11"]);
    }
}

#[test]
fn inline_vehicle_with_absurd_armour_is_refused() {
    let text = r#"ruleset = "command-decision"
kind = "direct_fire"
range = 2

[[firer]]
weapon = "us_75mm_m3"
quality = "regular"

[target]
quality = "regular"
vehicle_data = { armour = { front = -2147483648, flank = 0 }, afv = "strong", weight_class = 3 }
"#;
    let (_dir, path, line) = scenario_error("absurd_armour.toml", text);
    assert_contains(&line, &[&path.display().to_string(), "armour"]);
}

#[test]
fn inline_weapon_with_absurd_hit_number_is_refused() {
    let text = replace_once(
        INLINE_WEAPON,
        "quality = \"regular\"\n\n[firer.weapon_data]",
        "quality = \"green\"\n\n[firer.weapon_data]",
    );
    let text = replace_once(&text, "hit = 5", "hit = -2147483648");
    let (_dir, path, line) = scenario_error("absurd_hit.toml", &text);
    assert_contains(&line, &[&path.display().to_string(), "hit"]);
}

#[test]
fn a_section_of_another_kind_is_refused_where_it_stands() {
    // A morale check with a [target] table left over from a fire scenario.
    let text =
        "ruleset = \"command-decision\"\nkind = \"morale\"\n[company]\nmorale = 6\n[target]\nquality = \"regular\"\n";
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mixed.toml");
    std::fs::write(&path, text).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_combat-odds")).arg("fire").arg(&path).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("mixed.toml:5:1") && err.contains("`target` does not belong in a morale scenario"), "{err}");
}

#[test]
fn target_modifiers_are_refused_for_targets_their_row_does_not_describe() {
    // Seed 001, Direct Fire To-Hit Modifiers: "AFV hull down or in BUA -2*" is a
    // vehicle's row; personnel in a BUA take the "Pers. in Cover" rows.
    let hull_down = format!("{}modifiers = [\"afv_hull_down_or_bua\"]\n", RIFLES);
    let (_dir, path, line) = scenario_error("hull_down.toml", &hull_down);
    assert_located(&line, &path, &place(&hull_down, "\"afv_hull_down_or_bua\"", 0));
    assert_contains(
        &line,
        &["`afv_hull_down_or_bua`", "afv or soft vehicle targets", "this target is personnel", "medium_cover"],
    );
    // "Pers. in Cover: Medium" describes personnel, not a tank.
    let tank = format!("{}vehicle = \"m4_sherman\"\nmodifiers = [\"medium_cover\"]\n", RIFLES);
    let (_dir, path, line) = scenario_error("tank_in_cover.toml", &tank);
    assert_located(&line, &path, &place(&tank, "\"medium_cover\"", 0));
    assert_contains(&line, &["`medium_cover`", "personnel targets", "this target is afv", "afv_hull_down_or_bua"]);
}

#[test]
fn w_class_fire_at_a_strong_afv_is_refused() {
    // The card gives only "W class vs Weak AFV -3"; rolling on the plain row would let W
    // hit a Strong AFV more easily than a Weak one.
    let w = INLINE_WEAPON.replace("anti_armour = \"-\"", "anti_armour = \"W\"");
    let strong = format!("{w}vehicle = \"m4_sherman\"\n");
    let (_dir, _path, line) = scenario_error("w_vs_strong.toml", &strong);
    assert_contains(&line, &["W class fire only against a Weak AFV", "Strong AFV"]);
}

#[test]
fn orders_that_fire_only_in_contact_are_refused_elsewhere() {
    // Orders Summary: "Yes(-2)*", "* May only fire if in physical contact"; and no
    // prep or op fire under these orders or Hasty Advance.
    let rally = RIFLES.replace(
        "quality = \"regular\"\n\n[target]",
        "quality = \"regular\"\nmodifiers = [\"rally_regroup\"]\n\n[target]",
    );
    let (_dir, path, line) = scenario_error("rally_at_range.toml", &rally);
    assert_located(&line, &path, &place(&rally, "\"rally_regroup\"", 0));
    assert_contains(&line, &["`rally_regroup`", "physical contact", "close_assault = true"]);
    let hasty_op = RIFLES.replace("range = 2", "range = 2\nphase = \"opportunity\"").replace(
        "quality = \"regular\"\n\n[target]",
        "quality = \"regular\"\nmodifiers = [\"hasty_advance\"]\n\n[target]",
    );
    let (_dir, path, line) = scenario_error("hasty_op.toml", &hasty_op);
    assert_located(&line, &path, &place(&hasty_op, "\"hasty_advance\"", 0));
    assert_contains(&line, &["`hasty_advance`", "general fire phase only", "set phase = \"general\""]);
}

#[test]
fn an_engagement_setting_outside_an_engagement_is_refused_where_it_stands() {
    // Only engagements read who rallies and how stands in the open are fired at; set
    // in a single fire or a morale check they would silently do nothing.
    let morale = "ruleset = \"command-decision\"\nkind = \"morale\"\n\n[company]\nmorale = 10\n";
    for base in [RIFLES, morale] {
        for (setting, reading) in [
            ("demoralized_companies", "stay_demoralized"),
            ("shaken_companies", "keep_firing"),
            ("stationary_personnel", "in_the_open"),
        ] {
            let text = format!("{base}\n[settings]\n{setting} = \"{reading}\"\n");
            let (_dir, path, line) = scenario_error("fire.toml", &text);
            assert_located(&line, &path, &place(&text, &format!("\"{reading}\""), 0));
            assert_contains(&line, &[&format!("setting `{setting}` is for engagement scenarios"), "remove it"]);
        }
    }
}
