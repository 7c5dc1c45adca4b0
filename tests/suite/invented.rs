//! Answers that rest on invented data say so plainly: the Command Decision and Company
//! Commander catalogues and Chain of Command's firepower per weapon are illustrative
//! (the seeds hold no such charts), and every output that reads them names what was
//! read, as one line in a printed answer, a list in JSON and `summary.json`, and the
//! first words of each chart's footer. Answers from the rules' own tables (or from
//! a scenario's inline data) carry no such line.

use std::path::Path;

use crate::common::cli::{self, stdout_of};
use crate::common::experiment_path;
use serde_json::Value;

/// The sentence's opening, as every printed answer gives it.
const LINE: &str = "Invented data: ";

fn json(args: &[&str]) -> Value {
    serde_json::from_str(&stdout_of(args)).expect("JSON output")
}

fn utf8(path: &Path) -> &str {
    path.to_str().expect("utf-8 path")
}

#[test]
fn the_default_fire_names_the_invented_tank_and_gun_it_rests_on() {
    // The embedded default: a Panther's 75mm KwK 42 at a Sherman, both from Command
    // Decision's illustrative catalogue.
    let text = stdout_of(&["fire", "--trials", "1000"]);
    let line = text.lines().find(|l| l.starts_with(LINE)).unwrap_or_else(|| panic!("no invented line in:\n{text}"));
    assert!(line.contains("M4 Sherman") && line.contains("75mm KwK 42 L/70 tank gun, AP"), "{line}");
    assert!(line.contains("not the published rules' values"), "{line}");
    // Said once, without the listing's "(illustrative)" tag doubling it.
    assert!(!line.contains("(illustrative)"), "{line}");
    let report = json(&["fire", "--trials", "1000", "--format", "json"]);
    assert_eq!(report["invented"], serde_json::json!(["M4 Sherman", "75mm KwK 42 L/70 tank gun, AP"]));
}

#[test]
fn an_answer_from_the_rules_own_tables_or_inline_data_says_nothing_invented() {
    // Mission Command's catalogue only points each weapon at the seed's own rows.
    let mc = experiment_path("mc_hmg_good_cover.toml");
    let text = stdout_of(&["fire", utf8(&mc), "--trials", "1000"]);
    assert!(!text.contains(LINE), "{text}");
    assert_eq!(json(&["fire", utf8(&mc), "--trials", "1000", "--format", "json"])["invented"], serde_json::json!([]));

    // Command Decision with the firer's data line and the target's armour written out.
    let dir = tempfile::tempdir().expect("temp dir");
    let inline = cli::write(
        dir.path(),
        "inline.toml",
        r#"ruleset = "command-decision"
kind = "direct_fire"
range = 8
[[firer]]
quality = "regular"
mount = "towed"
[firer.weapon_data]
label = "light AT gun (test)"
rof = 1
close = { range = 2, hit = 6, anti_armour = 2 }
medium = { range = 10, hit = 5, anti_armour = 2 }
long = { range = 20, hit = 4, anti_armour = 2 }
extreme = { range = 30, hit = 3, anti_armour = 2 }
[target]
quality = "regular"
[target.vehicle_data]
label = "a tank of the player's own (test)"
armour = { front = 4, flank = 2 }
afv = "strong"
weight_class = 3
"#,
    );
    let text = stdout_of(&["fire", utf8(&inline), "--trials", "1000"]);
    assert!(!text.contains(LINE), "{text}");
}

#[test]
fn chain_of_command_weapons_are_invented_and_a_bare_firepower_is_not() {
    // An LMG and two rifles: firepower dice per weapon are illustrative values.
    let lmg = experiment_path("coc_lmg_phases_to_break_section.toml");
    let report = json(&["fire", utf8(&lmg), "--trials", "1000", "--format", "json"]);
    assert_eq!(report["invented"], serde_json::json!(["LMG", "Rifle"]), "{}", report["notes"]);

    // The same team with its dice given outright: the player's own number, nothing read.
    let text = std::fs::read_to_string(&lmg).expect("the experiment");
    let dice =
        cli::replace_once(&text, r#"weapons = [{ weapon = "lmg" }, { weapon = "rifle", count = 2 }]"#, "firepower = 8");
    let dir = tempfile::tempdir().expect("temp dir");
    let own = cli::write(dir.path(), "own_dice.toml", &dice);
    let report = json(&["fire", utf8(&own), "--trials", "1000", "--format", "json"]);
    assert_eq!(report["invented"], serde_json::json!([]));
}

#[test]
fn a_run_on_invented_data_says_so_in_its_summary_its_terminal_line_and_its_charts() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("duel");
    let text = stdout_of(&["run", "--trials", "2000", "--out", utf8(&out)]);
    assert!(text.lines().any(|l| l.starts_with(LINE) && l.contains("PzKpfw V Panther G")), "{text}");
    let summary: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).expect("summary")).expect("JSON");
    let invented = summary["invented"].as_array().expect("a list");
    assert!(invented.iter().any(|l| l == "M4 Sherman"), "{invented:?}");
    let svg = std::fs::read_to_string(out.join("winner.svg")).expect("the winner chart");
    assert!(svg.contains("INVENTED DATA"), "the chart's footer does not say it");
}

#[test]
fn the_tables_listing_marks_each_invented_file() {
    let invented = |ruleset: &str| -> Vec<(String, bool)> {
        let listing = json(&["tables", ruleset, "--format", "json"]);
        listing["tables"]
            .as_array()
            .expect("tables")
            .iter()
            .map(|t| (t["file"].as_str().unwrap_or_default().to_string(), t["invented"] == true))
            .collect()
    };
    let cd = invented("command-decision");
    assert!(cd.iter().filter(|(f, _)| f.starts_with("catalogue.toml")).all(|(_, i)| *i), "{cd:?}");
    assert!(cd.iter().filter(|(f, _)| f.starts_with("hit_results")).all(|(_, i)| !*i), "{cd:?}");
    let mc = invented("mission-command");
    assert!(mc.iter().all(|(_, i)| !*i), "{mc:?}");
}

#[test]
fn a_sweep_and_a_balance_over_invented_data_say_so_once() {
    let dir = tempfile::tempdir().expect("temp dir");
    let duel = experiment_path("cd_tank_duel.toml");
    std::fs::copy(&duel, dir.path().join("cd_tank_duel.toml")).expect("copy the duel");
    let sweep = cli::write(
        dir.path(),
        "sweep.toml",
        "kind = \"sweep\"\nscenario = \"cd_tank_duel.toml\"\n[[vary]]\nkey = \"range\"\nvalues = [8, 16]\n",
    );
    let out = dir.path().join("swept");
    let text = stdout_of(&["sweep", utf8(&sweep), "--trials", "1000", "--out", utf8(&out)]);
    assert_eq!(text.lines().filter(|l| l.starts_with(LINE)).count(), 1, "{text}");

    let text = stdout_of(&["balance", utf8(&duel), "--vary", "range", "--from", "4", "--to", "20", "--trials", "1000"]);
    assert!(text.lines().any(|l| l.trim_start().starts_with(LINE) && l.contains("M4 Sherman")), "{text}");
}

#[test]
fn a_comparison_says_which_rulesets_answers_rest_on_invented_data() {
    let dir = tempfile::tempdir().expect("temp dir");
    let comparison = |rulesets: &str| {
        format!(
            "kind = \"compare\"\nname = \"AT guns\"\nweapons = [\"pak40\", \"17pdr\"]\ntarget = \"medium_tank\"\nquality = \"regular\"\n\
             ranges_m = [300, 800]\nrulesets = [{rulesets}]\n"
        )
    };
    // Command Decision's guns and Sherman come from its illustrative catalogue.
    let file = cli::write(dir.path(), "cd.toml", &comparison("\"command-decision\", \"mission-command\""));
    let out = dir.path().join("cd");
    let text = stdout_of(&["compare", utf8(&file), "--trials", "1000", "--out", utf8(&out)]);
    let line = text.lines().find(|l| l.starts_with(LINE)).unwrap_or_else(|| panic!("no invented line in:\n{text}"));
    assert!(line.contains("PaK 40") && line.contains("M4 Sherman"), "{line}");
    let svg = std::fs::read_to_string(out.join("p_kill_vs_range.svg")).expect("the chart");
    assert!(svg.contains("INVENTED DATA"), "the chart's footer does not say it");
    // Mission Command's equivalents only point at the seed's own rows: nothing to say.
    let file = cli::write(dir.path(), "mc.toml", &comparison("\"mission-command\""));
    let out = dir.path().join("mc");
    let text = stdout_of(&["compare", utf8(&file), "--trials", "1000", "--out", utf8(&out)]);
    assert!(!text.contains(LINE), "{text}");
    let svg = std::fs::read_to_string(out.join("p_kill_vs_range.svg")).expect("the chart");
    assert!(!svg.contains("INVENTED DATA"), "Mission Command's answer is the rules' own");
}
