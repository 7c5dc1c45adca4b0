//! Mission Command engagements: Monte Carlo against the Markov solution on a grid of
//! duels, hand-computed duels, determinism, the exact solver's size limit, bad input
//! through the binary, and the shipped engagement experiments.
//!
//! The grid runs each duel at a fixed seed (the grid's seed plus the case's index)
//! and tests every measure's counts against the exact distribution with Pearson's
//! chi-square, rare outcomes pooled (tests/common/grid.rs). The family-wise level is
//! 1% with a Bonferroni correction over every test, so a correct engine fails with
//! probability under 1% for a random seed; at this fixed seed the result is
//! deterministic, not flaky.

use crate::common::cli::{assert_contains, assert_located, assert_placed_in, place, replace_once, run, scenario_error};
use crate::common::determinism::{assert_seed_matters, assert_thread_independent};
use crate::common::exact::{Exact, r};
use crate::common::grid::{Family, grid_trials};
use crate::common::{experiment_path, plan};

const TRIALS: u64 = 100_000;
const SEED: u64 = 20_261_123;
const FAMILY_ALPHA: f64 = 0.01;

/// One side of a duel: a single group entry.
struct Group<'a> {
    name: &'a str,
    count: u32,
    /// The entry's own keys (weapon, quality, situation or armour_class, modifiers).
    keys: &'a str,
}

/// An engagement of two one-entry sides. `engagement` holds the `[engagement]` keys
/// besides `turns`; `settings` the body of `[settings]`.
fn duel(engagement: &str, turns: u32, a: &Group, b: &Group, settings: &str) -> String {
    let side = |name: &str, g: &Group| {
        format!("[[side]]\nname = \"{name}\"\n[[side.unit]]\nname = \"{}\"\ncount = {}\n{}\n", g.name, g.count, g.keys)
    };
    format!(
        "ruleset = \"mission-command\"\nkind = \"engagement\"\n[settings]\n{settings}\n[engagement]\n{engagement}\nturns = {turns}\n{}{}",
        side("Attackers", a),
        side("Defenders", b)
    )
}

const RIFLES: &str = "weapon = \"rifle_section\"\nquality = \"regular\"\nsituation = \"no_or_light_cover\"";
const HMG_IN_COVER: &str = "weapon = \"hmg\"\nquality = \"veteran\"\nsituation = \"good_cover\"\nreaction_modifiers = [\"good_cover_or_field_fortifications\"]";
const GREEN_LMG: &str = "weapon = \"lmg\"\nquality = \"green\"\nsituation = \"no_or_light_cover\"";
/// Raw, out of command and under fire from an AFV within 15cm (a standing
/// condition): -11 before losses, so a suppressed test can rout.
const SHAKY_LMG: &str = "weapon = \"lmg\"\nquality = \"raw\"\nout_of_command = true\nsituation = \"no_or_light_cover\"\nreaction_modifiers = [\"under_fire_from_afv_within_15cm\"]";
const PANZER_IV: &str = "weapon = \"ge_75mm_l48\"\nquality = \"veteran\"\narmour_class = 6";
const HULL_DOWN_PANZER_IV: &str = "weapon = \"ge_75mm_l48\"\nquality = \"veteran\"\narmour_class = 6\ntarget_modifiers = [\"hull_down\"]\nreaction_modifiers = [\"hull_down_afvs\"]";
const FIREFLY: &str = "weapon = \"br_17pdr\"\nquality = \"raw\"\narmour_class = 5\nout_of_command = true";
const SIX_POUNDER: &str = "weapon = \"br_6pdr\"\nquality = \"elite\"\nsituation = \"heavy_weapons\"";

/// One-on-one duels: foot and armour, fixed and closing range, both end conditions,
/// each quality and both readings of the engagement settings.
fn grid() -> Vec<(String, String)> {
    let g = |name, keys| Group { name, count: 1, keys };
    let cases = [
        (
            "rifles vs rifles, 10cm, eliminated",
            duel("range = 10\nend = [\"eliminated\"]", 8, &g("a", RIFLES), &g("b", RIFLES), ""),
        ),
        (
            "hmg vs rifles, closing 25 to 5cm",
            duel("range = 25\nclosing = 5\nmin_range = 5", 8, &g("hmg", HMG_IN_COVER), &g("rifles", RIFLES), ""),
        ),
        (
            "green lmg vs hmg, broken only, markers kept",
            duel(
                "range = 15\nend = [\"broken\"]",
                6,
                &g("lmg", GREEN_LMG),
                &g("hmg", HMG_IN_COVER),
                "suppression_markers = \"kept\"",
            ),
        ),
        (
            "hmg vs shaky lmg, 15cm, routs break",
            duel("range = 15\nend = [\"broken\"]", 6, &g("hmg", HMG_IN_COVER), &g("shaky", SHAKY_LMG), ""),
        ),
        ("panzer iv vs firefly, 40cm", duel("range = 40", 10, &g("panzer", PANZER_IV), &g("firefly", FIREFLY), "")),
        (
            "firefly vs hull-down panzer, closing 80 to 20cm, retreat breaks",
            duel(
                "range = 80\nclosing = 20\nmin_range = 20",
                8,
                &g("firefly", FIREFLY),
                &g("panzer", HULL_DOWN_PANZER_IV),
                "side_broken = \"all_retreating_or_routed\"",
            ),
        ),
        (
            "6 pdr vs panzer iv at 5cm, surrender",
            duel("range = 5", 6, &g("six_pounder", SIX_POUNDER), &g("panzer", PANZER_IV), ""),
        ),
        (
            "rifles vs lmg, spread, markers kept",
            duel(
                "range = 5\ntargets = \"spread\"",
                10,
                &g("rifles", RIFLES),
                &g("lmg", GREEN_LMG),
                "suppression_markers = \"kept\"",
            ),
        ),
    ];
    cases.into_iter().map(|(n, t)| (n.to_string(), t)).collect()
}

#[test]
fn monte_carlo_agrees_with_the_markov_solution_on_a_grid_of_duels() {
    let family = Family::run_all(&grid(), grid_trials(TRIALS), SEED);
    // Each duel reaches both sides winning somewhere, and some end undecided.
    for outcome in ["Attackers", "Defenders", "undecided"] {
        assert!(family.reached.contains(outcome), "no duel reaches `{outcome}`: {:?}", family.reached);
    }
    family.assert_agrees(FAMILY_ALPHA, 10);
}

#[test]
fn the_grid_reaches_every_group_state() {
    let cases = grid();
    let mut reached = std::collections::BTreeSet::new();
    for (name, text) in &cases {
        let e = Exact::of(name, text);
        for measure in e.names().into_iter().filter(|m| m.starts_with("state_")) {
            for state in ["in_action", "suppressed", "retreating", "routed", "eliminated"] {
                if !e.p(measure, state).is_zero() {
                    reached.insert(state);
                }
            }
        }
    }
    assert_eq!(reached.len(), 5, "group states reached: {reached:?}");
}

/// A regular rifle section against another at 5cm, one turn, ended by elimination.
/// Small arms to hit at 5cm: 4 (17 faces of 20); "Small arms up to 5cm" vs foot in no or
/// light cover: 4 (17 of 20).
fn rifles_at_5cm(defender: &str, end: &str) -> String {
    let a = Group { name: "a", count: 1, keys: RIFLES };
    let b = Group { name: "b", count: 1, keys: defender };
    duel(&format!("range = 5\nend = [\"{end}\"]"), 1, &a, &b, "")
}

#[test]
fn a_one_turn_rifle_duel_matches_hand_computation() {
    // Attackers fire first: kill 17/20 x 17/20 = 289/400; a hit that does not convert
    // (17/20 x 3/20 = 51/400) suppresses; a miss is 60/400. The defenders then test
    // only if hit: d10 -1 (one element suppressed), regular: face 1 scores 0, "Cease
    // fire and retire" (no fire); faces 2-10 score 1 to 9 and fire, at -1 for the
    // marker: to hit 5+ (16/20), kill 16/20 x 17/20 = 272/400. Unhit, they kill with
    // 289/400.
    let e = Exact::of("rifles", &rifles_at_5cm(RIFLES, "eliminated"));
    assert_eq!(e.p("winner", "Attackers"), r(289, 400));
    // Over 400 x 400 x 10: 60 x 289 x 10 + 51 x 9 x 272.
    let defenders = 60 * 289 * 10 + 51 * 9 * 272;
    assert_eq!(e.p("winner", "Defenders"), r(defenders, 1_600_000));
    assert_eq!(e.p("winner", "Defenders"), r(298_248, 1_600_000));
    assert_eq!(e.p("winner", "undecided"), r(1_600_000 - 289 * 4000 - defenders, 1_600_000));
    assert_eq!(e.p("first_kill_by", "Attackers"), r(289, 400));
    assert_eq!(e.p("survivors_b", "1"), r(111, 400));
}

#[test]
fn a_rout_breaks_the_side_as_hand_computed() {
    // The defenders are raw (-4), out of command (-4) and under fire from an AFV
    // within 15cm (-3, a standing condition); suppressed, -1 more: -12. A d10 scores
    // -11 (face 1, "Rout"), -10 to -5 (faces 2-7, "Retreat") or -4 to -2 (faces 8-10,
    // "Cease fire and retire"): a hit defender never fires back, and routs 1 time in
    // 10. Ended by "broken" alone: a side with every element left routed (none left
    // counts) is out. Attackers: kill 289/400, or suppress 51/400 and rout 1/10.
    // Defenders win only unhit (60/400), killing 289/400.
    let broken = "weapon = \"rifle_section\"\nquality = \"raw\"\nout_of_command = true\nsituation = \"no_or_light_cover\"\nreaction_modifiers = [\"under_fire_from_afv_within_15cm\"]";
    let e = Exact::of("rout", &rifles_at_5cm(broken, "broken"));
    assert_eq!(e.p("winner", "Attackers"), r(2941, 4000));
    assert_eq!(e.p("winner", "Defenders"), r(60 * 289, 160_000));
    assert_eq!(e.p("state_b", "routed"), r(51, 4000));
    // Faces 2-7 of 10 after a non-converting hit leave the defenders retreating.
    assert_eq!(e.p("state_b", "retreating"), r(51 * 6, 4000));
}

#[test]
fn foot_retreating_within_5cm_of_an_afv_surrender_as_hand_computed() {
    // A Panzer IV (75mm L48) fires first at a Panzerfaust team at 5cm: to hit 3 ("Longer
    // guns up to 85mm", up to 5cm: 18 faces of 20), casualty 12 ("Other gun/how'r up to
    // 110mm < 15cm range" vs no or light cover: 9 of 20). Kill 162/400; suppress
    // 18/20 x 11/20 = 198/400. The team is raw (-4), out of command (-4), under fire
    // from an AFV within 15cm (-3) and from an unlocated one (-2), and suppressed (-1):
    // -14. Faces 1-3 score -13 to -11 (Rout) and 4-9 score -10 to -5 (Retreat): within
    // 5cm of an AFV, 9 faces in 10 surrender. Face 10 (-4) ceases fire. Either way the
    // team never fires back. Eliminated: 162/400 + 198/400 x 9/10 = 3402/4000.
    let team = "weapon = \"panzerfaust\"\nquality = \"raw\"\nout_of_command = true\nsituation = \"no_or_light_cover\"\nreaction_modifiers = [\"under_fire_from_afv_within_15cm\", \"under_fire_from_unlocated\"]";
    let text = duel(
        "range = 5\nend = [\"eliminated\"]",
        1,
        &Group { name: "panzer", count: 1, keys: PANZER_IV },
        &Group { name: "team", count: 1, keys: team },
        "",
    );
    let e = Exact::of("surrender", &text);
    assert_eq!(e.p("state_team", "eliminated"), r(3402, 4000));
    assert_eq!(e.p("winner", "Attackers"), r(3402, 4000));
    assert_eq!(e.p("state_team", "in_action"), r(4000 - 3402, 4000));
}

#[test]
fn engagements_are_thread_independent_and_the_seed_matters() {
    let cases = grid();
    let scenarios: Vec<(&str, &str)> = [0, 4].iter().map(|&i| (cases[i].0.as_str(), cases[i].1.as_str())).collect();
    assert_thread_independent(&scenarios);
    assert_seed_matters(&scenarios);
}

#[test]
fn a_big_engagement_is_too_large_for_the_exact_solver_rather_than_hanging() {
    let a = Group { name: "platoon", count: 6, keys: RIFLES };
    let b = Group { name: "hmgs", count: 4, keys: HMG_IN_COVER };
    let text = duel("range = 25\nclosing = 5\nmin_range = 5", 20, &a, &b, "suppression_markers = \"kept\"");
    let started = std::time::Instant::now();
    let p = plan("big", &text, 1000, 1, 1);
    assert!(p.set_up.experiment.exact().is_none(), "a 10-element engagement should be too large");
    assert!(started.elapsed().as_secs() < 20, "giving up took {:?}", started.elapsed());
}

// ------------------------------------------------------------------ bad input

fn base() -> String {
    let a = Group { name: "Rifles", count: 2, keys: RIFLES };
    let b = Group { name: "Panzer", count: 1, keys: PANZER_IV };
    duel("range = 10", 5, &a, &b, "")
}

#[test]
fn bad_engagements_are_refused_with_one_located_line() {
    // A side with no units.
    let text = "ruleset = \"mission-command\"\nkind = \"engagement\"\n[engagement]\nrange = 10\nturns = 3\n[[side]]\nname = \"A\"\n[[side.unit]]\nname = \"x\"\nweapon = \"lmg\"\nsituation = \"good_cover\"\n[[side]]\nname = \"B\"\n";
    let (_d, path, line) = scenario_error("empty.toml", text);
    assert_contains(&line, &["side `B` has no units"]);
    assert!(line.starts_with(&format!("error: {}:", path.display())), "{line}");

    // turns = 0.
    let text = replace_once(&base(), "turns = 5", "turns = 0");
    let (_d, path, line) = scenario_error("turns.toml", &text);
    assert_located(&line, &path, &place(&text, "turns = 0", 8));
    assert_contains(&line, &["turns must be from 1"]);

    // Rifles cannot harm a Panzer (no KO row) and the Panzer is all there is.
    let (_d, path, line) = scenario_error("reach.toml", &base());
    assert_placed_in(&line, &path);
    assert_contains(&line, &["unit `Rifles`", "cannot reach any enemy"]);

    // A 75mm L48 beyond its last band (150cm) at 200cm.
    let a = Group { name: "p1", count: 1, keys: PANZER_IV };
    let b = Group { name: "p2", count: 1, keys: PANZER_IV };
    let text = duel("range = 200", 3, &a, &b, "");
    let (_d, _path, line) = scenario_error("far.toml", &text);
    assert_contains(&line, &["unit `p1`", "cannot reach any enemy", "200 cm"]);
}

#[test]
fn misspellings_are_refused_with_the_nearest_name() {
    let ok = {
        let a = Group { name: "Rifles", count: 2, keys: RIFLES };
        let b = Group { name: "HMG", count: 1, keys: HMG_IN_COVER };
        duel("range = 10", 5, &a, &b, "")
    };
    let out = run(&["fire", write_tmp("ok.toml", &ok).1.to_str().unwrap(), "--trials", "100"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    for (from, to, what, fix) in [
        ("\"hmg\"", "\"hgm\"", "weapon", "hmg"),
        ("\"veteran\"", "\"veteren\"", "quality", "veteran"),
        ("\"good_cover\"", "\"good_covr\"", "target situation", "good_cover"),
        (
            "\"good_cover_or_field_fortifications\"",
            "\"good_cover_or_field_fortification\"",
            "modifier",
            "good_cover_or_field_fortifications",
        ),
    ] {
        let text = replace_once(&ok, from, to);
        let (_d, path, line) = scenario_error("typo.toml", &text);
        assert_located(&line, &path, &place(&text, to, 0));
        assert_contains(&line, &[what, &format!("did you mean `{fix}`?")]);
    }
    // A misspelt key of a unit entry.
    let text = replace_once(&ok, "quality = \"veteran\"", "qualty = \"veteran\"");
    let (_d, path, line) = scenario_error("key.toml", &text);
    assert_placed_in(&line, &path);
    assert_contains(&line, &["qualty"]);
    // A misspelt engagement setting.
    let text = ok.replace("[settings]\n", "[settings]\nside_broken = \"all_rooted\"\n");
    let (_d, path, line) = scenario_error("setting.toml", &text);
    assert_located(&line, &path, &place(&text, "\"all_rooted\"", 0));
    assert_contains(&line, &["did you mean `all_routed`?"]);
}

fn write_tmp(name: &str, text: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = crate::common::cli::write(dir.path(), name, text);
    (dir, path)
}

#[test]
fn mission_command_refusals_name_the_rule() {
    let ok = base();
    for (from, to, needle, parts) in [
        // Markers come from hits, not from the scenario.
        (
            "situation = \"no_or_light_cover\"",
            "situation = \"no_or_light_cover\"\nfire_modifiers = [\"suppression_marker\"]",
            "\"suppression_marker\"",
            &["comes from the hits"][..],
        ),
        // No opportunity fire in an engagement.
        (
            "situation = \"no_or_light_cover\"",
            "situation = \"no_or_light_cover\"\ntarget_modifiers = [\"opp_fire_came_into_view\"]",
            "\"opp_fire_came_into_view\"",
            &["opportunity fire", "MC-E9"][..],
        ),
        (
            "situation = \"no_or_light_cover\"",
            "situation = \"moving_in_no_cover\"",
            "\"moving_in_no_cover\"",
            &["Moving in no cover", "MC-E9"][..],
        ),
        // AFVs seen knocked out are not tracked.
        (
            "situation = \"no_or_light_cover\"",
            "situation = \"no_or_light_cover\"\nreaction_modifiers = [\"enemy_afv_knocked_out\"]",
            "\"enemy_afv_knocked_out\"",
            &["not tracked", "MC-E6"][..],
        ),
        // Counted from the field at each test.
        (
            "situation = \"no_or_light_cover\"",
            "situation = \"no_or_light_cover\"\nreaction_modifiers = [\"element_eliminated\"]",
            "\"element_eliminated\"",
            &["applied automatically", "eliminated elements"][..],
        ),
        // Hull-down is for vehicles.
        (
            "situation = \"no_or_light_cover\"",
            "situation = \"no_or_light_cover\"\ntarget_modifiers = [\"hull_down\"]",
            "\"hull_down\"",
            &["is for vehicles"][..],
        ),
    ] {
        let text = replace_once(&ok, from, to);
        let (_d, path, line) = scenario_error("refused.toml", &text);
        assert_located(&line, &path, &place(&text, needle, 0));
        assert_contains(&line, parts);
    }
    // A unit that is both foot and armour.
    let text = replace_once(&ok, "armour_class = 6", "armour_class = 6\nsituation = \"good_cover\"");
    let (_d, path, line) = scenario_error("both.toml", &text);
    assert_placed_in(&line, &path);
    assert_contains(&line, &["unit `Panzer` needs exactly one of `situation`"]);
}

#[test]
fn the_engagement_experiments_run() {
    for file in ["mc_engagement_panzer_iv_vs_shermans.toml", "mc_engagement_hmg_vs_rifle_platoon.toml"] {
        let path = experiment_path(file);
        let out = run(&["fire", path.to_str().expect("utf-8 path"), "--trials", "20000"]);
        assert!(out.status.success(), "{file}: {}", String::from_utf8_lossy(&out.stderr));
        let text = String::from_utf8(out.stdout).expect("UTF-8");
        assert!(text.contains("winner"), "{file}: {text}");
    }
}

/// The notes and the exact `p_kill` of `fire --format json` on a scenario file.
fn notes_and_exact(path: &str) -> (Vec<String>, serde_json::Value) {
    let out = crate::common::cli::stdout_of(&["fire", path, "--trials", "1000", "--format", "json"]);
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    let notes = report["notes"].as_array().unwrap().iter().filter_map(|n| n.as_str().map(String::from)).collect();
    (notes, report["p_kill"]["exact"].clone())
}

#[test]
fn the_hmg_position_is_solved_exactly_with_its_sections_counted() {
    // The MG 42, the German section and three British sections are 5 units: the three
    // sections are one entry, so the chain counts how many stand in each condition.
    let (notes, exact) = notes_and_exact("experiments/mc_engagement_hmg_vs_rifle_platoon.toml");
    assert!(exact.is_number(), "no exact odds: {notes:?}");
    assert!(!notes.iter().any(|n| n.contains("no exact odds")), "{notes:?}");
}

#[test]
fn a_field_too_large_for_the_exact_solver_says_so_and_why() {
    // Seven rifle sections against six HMGs: 13 units, one more than the solver takes.
    let a = Group { name: "platoon", count: 7, keys: RIFLES };
    let b = Group { name: "hmgs", count: 6, keys: HMG_IN_COVER };
    let (_dir, path) = write_tmp("big.toml", &duel("range = 10", 3, &a, &b, ""));
    let (notes, exact) = notes_and_exact(path.to_str().unwrap());
    assert_eq!(exact, serde_json::Value::Null);
    let why = "13 units on the field, more than the 12 the exact Markov-chain solver takes: no exact odds, and every trial is played literally";
    assert!(notes.iter().any(|n| n == why), "{notes:?}");
}
