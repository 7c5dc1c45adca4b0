//! `combat-odds command-dice`: the exact answers about one hand of Command Dice, for
//! every allocation policy, checked against hand-computed fractions, in each format,
//! and its refusals.

use crate::common::cli::{assert_contains, error_line, run, stdout_of, write};
use tempfile::TempDir;

/// The answer `answer` under `policy` from the JSON of `command-dice ARGS`.
fn answer(json: &serde_json::Value, policy: &str, answer: &str) -> String {
    json["answers"]
        .as_array()
        .and_then(|rows| rows.iter().find(|r| r["policy"] == policy && r["answer"] == answer))
        .and_then(|r| r["exact_fraction"].as_str())
        .unwrap_or_else(|| panic!("no {policy}/{answer} in {json}"))
        .to_string()
}

fn default_answers() -> serde_json::Value {
    serde_json::from_str(&stdout_of(&["command-dice", "--format", "json"])).expect("JSON output")
}

#[test]
fn sixes_of_five_dice_match_the_binomial() {
    let json = default_answers();
    // At least one 6: 1 - (5/6)^5 = 1 - 3125/7776 = 4651/7776.
    assert_eq!(answer(&json, "any", "at_least_one_six"), "4651/7776");
    // Two or more: 1 - 3125/7776 - 5 x 625/7776 = (7776 - 3125 - 3125)/7776 = 1526/7776
    // = 763/3888.
    assert_eq!(answer(&json, "any", "two_or_more_sixes"), "763/3888");
    // Three or more end the Turn: C(5,3) 25 + C(5,4) 5 + 1 = 250 + 25 + 1 = 276 of 7776
    // = 23/648; both sides rolling five dice, a Turn lasts 648/23 Phases on average.
    assert_eq!(answer(&json, "any", "turn_ends"), "23/648");
    assert_eq!(answer(&json, "any", "phases_per_turn_mean_both_sides_this_hand"), "648/23");
    // Each die is a 5 with 1/6: five dice make 5/6 of a point a Phase.
    assert_eq!(answer(&json, "any", "chain_of_command_points_per_phase_mean"), "5/6");
}

#[test]
fn the_senior_leader_activates_as_rolled_only_on_a_four() {
    // No combining: at least one 4 among five dice, 1 - (5/6)^5 = 4651/7776; the same
    // for a 3 (a Junior Leader), a 2 (a Section) and a 1 (a Team).
    let json = default_answers();
    for a in
        ["senior_leader_activates", "junior_leader_activates", "section_activated_by_a_die", "team_activated_by_a_die"]
    {
        assert_eq!(answer(&json, "as_rolled", a), "4651/7776", "{a}");
    }
}

#[test]
fn combining_dice_for_the_senior_leader_fails_only_without_a_four_or_a_sum_of_four() {
    // max_senior fails when no die is a 4 and no set of 1-3s sums to 4 ({1,3}, {2,2},
    // {1,1,2} and {1,1,1,1} do). With c1 ones, c2 twos and c3 threes that leaves: c3 > 0
    // with c1 = 0 and c2 <= 1; or c3 = 0 with c2 = 1 and c1 <= 1; or c3 = c2 = 0 and
    // c1 <= 3. Counting ordered hands of five dice with k dice from 1-3 and 5 - k from
    // {5, 6}:
    //   k = 0: 2^5 = 32
    //   k = 1 ({1}, {2} or {3}): 5 x 3 x 2^4 = 240
    //   k = 2 ({3,3}: 10 x 8 = 80; {1,2}: 10 x 2 x 8 = 160; {2,3}: 160; {1,1}: 80) = 480
    //   k = 3 ({3,3,3}: 10 x 4 = 40; {2,3,3}: 10 x 3 x 4 = 120; {1,1,1}: 40) = 200
    //   k = 4 ({3,3,3,3}: 5 x 2 = 10; {2,3,3,3}: 5 x 4 x 2 = 40) = 50
    //   k = 5 ({3,3,3,3,3}: 1; {2,3,3,3,3}: 5) = 6
    // 32 + 240 + 480 + 200 + 50 + 6 = 1008 of 7776; P = 1 - 1008/7776 = 6768/7776 = 47/54.
    let json = default_answers();
    assert_eq!(answer(&json, "max_senior", "senior_leader_activates"), "47/54");
}

#[test]
fn every_format_carries_the_same_answers() {
    let csv = stdout_of(&["command-dice", "--format", "csv"]);
    assert!(csv.starts_with("policy,answer,value,exact_fraction\n"), "{csv}");
    assert!(csv.contains("any,at_least_one_six,"), "{csv}");
    assert!(csv.contains(",4651/7776\n"), "{csv}");
    let table = stdout_of(&["command-dice"]);
    assert_contains(&table, &["max_senior", "max_orders", "as_rolled", "at_least_one_six", "4651/7776"]);
}

#[test]
fn a_scenario_of_another_kind_or_ruleset_is_refused() {
    let dir = TempDir::new().expect("temp dir");
    let turn = write(
        dir.path(),
        "turn.toml",
        "ruleset = \"chain-of-command\"\nkind = \"turn\"\n[[side]]\ndice = 5\n[[side]]\ndice = 5\n",
    );
    let out = run(&["command-dice", turn.to_str().expect("utf-8")]);
    assert_eq!(out.status.code(), Some(2));
    assert_contains(&error_line(&out), &["turn.toml", "the rules answer of their own about a command_dice scenario"]);
    let cd = write(dir.path(), "cd.toml", "ruleset = \"command-decision\"\nkind = \"direct_fire\"\n");
    let out = run(&["command-dice", cd.to_str().expect("utf-8")]);
    assert_eq!(out.status.code(), Some(2));
    assert_contains(&error_line(&out), &["cd.toml:1:11", "chain-of-command", "`command-decision`"]);
}

#[test]
fn the_mean_phases_to_a_full_die_agree_with_the_horizon_distribution() {
    // The mean solved without a horizon equals sum k P(k) from `fire` at a horizon of
    // 100 Phases, where the rest (P(more than 100) < 1e-30) no longer counts.
    let json = default_answers();
    let mean: f64 = json["answers"]
        .as_array()
        .and_then(|rows| rows.iter().find(|r| r["answer"] == "phases_to_full_chain_of_command_die_mean"))
        .and_then(|r| r["value"].as_f64())
        .expect("the mean is reported");
    let dir = TempDir::new().expect("temp dir");
    let die = write(
        dir.path(),
        "die.toml",
        "ruleset = \"chain-of-command\"\nkind = \"chain_of_command_die\"\nhorizon = 100\n[hand]\ndice = 5\n",
    );
    let fire: serde_json::Value = serde_json::from_str(&stdout_of(&[
        "fire",
        die.to_str().expect("utf-8"),
        "--format",
        "json",
        "--trials",
        "1000",
    ]))
    .expect("JSON output");
    let phases = fire["measures"]
        .as_array()
        .and_then(|ms| ms.iter().find(|m| m["measure"] == "phases"))
        .and_then(|m| m["outcomes"].as_array())
        .expect("a phases measure");
    let by_horizon: f64 =
        phases[..100].iter().enumerate().map(|(k, o)| (k + 1) as f64 * o["exact"].as_f64().expect("exact")).sum();
    assert!((mean - by_horizon).abs() < 1e-9, "{mean} vs {by_horizon}");
}
