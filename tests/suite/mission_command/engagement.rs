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
    battle(engagement, turns, &[a], &[b], settings)
}

/// An engagement of two sides of any entries, as [`duel`].
fn battle(engagement: &str, turns: u32, a: &[&Group], b: &[&Group], settings: &str) -> String {
    let side = |name: &str, groups: &[&Group]| {
        let mut text = format!("[[side]]\nname = \"{name}\"\n");
        for g in groups {
            text += &format!("[[side.unit]]\nname = \"{}\"\ncount = {}\n{}\n", g.name, g.count, g.keys);
        }
        text
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
/// Raw, out of command and under fire from an AFV within 15cm (a standing condition,
/// with `derived_reaction_rows = "named"`): -11 before losses, so a suppressed test
/// can rout.
const SHAKY_LMG: &str = "weapon = \"lmg\"\nquality = \"raw\"\nout_of_command = true\nsituation = \"no_or_light_cover\"\nreaction_modifiers = [\"under_fire_from_afv_within_15cm\"]";
const PANZER_IV: &str = "weapon = \"ge_75mm_l48\"\nquality = \"veteran\"\narmour_class = 6";
const HULL_DOWN_PANZER_IV: &str = "weapon = \"ge_75mm_l48\"\nquality = \"veteran\"\narmour_class = 6\ntarget_modifiers = [\"hull_down\"]\nreaction_modifiers = [\"hull_down_afvs\"]";
const FIREFLY: &str = "weapon = \"br_17pdr\"\nquality = \"raw\"\narmour_class = 5\nout_of_command = true";
const SIX_POUNDER: &str = "weapon = \"br_6pdr\"\nquality = \"elite\"\nsituation = \"heavy_weapons\"";
/// Standing conditions the fight would otherwise count itself (MC-E10).
const NAMED_ROWS: &str = "derived_reaction_rows = \"named\"";
/// Raw and out of command (-8): the rows the fight gives decide how often it holds.
const RAW_RIFLES: &str =
    "weapon = \"rifle_section\"\nquality = \"raw\"\nout_of_command = true\nsituation = \"no_or_light_cover\"";
/// A 155mm battery bombarding (area fire, MC-E11).
const BATTERY_155: &str = "area_fire = { system = \"gun_mortar_howitzer_110_155mm\", weapon = \"guns_152_155mm\", intensity = \"bombardment\" }\nsituation = \"heavy_weapons\"";
/// A 105mm battery's area fire against AFVs, standard or bombardment.
const BATTERY_105: &str = "area_fire = { system = \"gun_howitzer_75_110mm\", weapon = \"howitzers_25pdr_105_122mm\" }\nsituation = \"heavy_weapons\"";
const BATTERY_105_BOMBARDING: &str =
    "area_fire = { system = \"gun_howitzer_75_110mm\", intensity = \"bombardment\" }\nsituation = \"heavy_weapons\"";
/// 3-inch mortars firing direct at their targets: bombardment up to 15cm.
const MORTARS_DIRECT: &str = "area_fire = { system = \"gun_mortar_howitzer_75_110mm\", weapon = \"mortar_br_3in\", intensity = \"direct_fire\" }\nquality = \"green\"\nsituation = \"heavy_weapons\"";
/// MG 42s holding a medium building.
const HMG_IN_BUILDING: &str = "weapon = \"hmg\"\nquality = \"veteran\"\nsituation = \"fortified\"\nstructure = \"medium\"\nreaction_modifiers = [\"good_cover_or_field_fortifications\"]";
/// Rifles holding a light building.
const RIFLES_IN_HUT: &str =
    "weapon = \"rifle_section\"\nquality = \"green\"\nsituation = \"fortified\"\nstructure = \"light\"";

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
            duel("range = 15\nend = [\"broken\"]", 6, &g("hmg", HMG_IN_COVER), &g("shaky", SHAKY_LMG), NAMED_ROWS),
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
    let mut cases: Vec<(String, String)> = cases.into_iter().map(|(n, t)| (n.to_string(), t)).collect();
    cases.extend(fights_with_the_new_phases());
    cases
}

/// Fights that play the rows of the reaction test the fight gives (MC-E10) and area
/// fire (MC-E11), under both readings of their settings.
fn fights_with_the_new_phases() -> Vec<(String, String)> {
    let g = |name, count, keys| Group { name, count, keys };
    let (panzer, rifles) = (g("panzer", 1, PANZER_IV), g("rifles", 1, RIFLES));
    let raw = g("raw", 2, RAW_RIFLES);
    let cases = [
        (
            "panzer and rifles vs raw rifles, 15 to 5cm, rows from the fight",
            battle("range = 15\nclosing = 5\nmin_range = 5", 5, &[&panzer, &rifles], &[&raw], ""),
        ),
        (
            "raw rifles vs rifles at 10cm, spread, rows from the fight, retreats break",
            battle(
                "range = 10\ntargets = \"spread\"",
                6,
                &[&raw],
                &[&g("rifles", 2, RIFLES)],
                "side_broken = \"all_retreating_or_routed\"",
            ),
        ),
        (
            "155mm battery vs hmgs in a building, markers kept",
            battle(
                "range = 40",
                5,
                &[&g("battery", 1, BATTERY_155)],
                &[&g("hmgs", 2, HMG_IN_BUILDING)],
                "suppression_markers = \"kept\"",
            ),
        ),
        (
            "105mm battery vs panzers, 40 to 20cm, one roll per template",
            battle(
                "range = 40\nclosing = 10\nmin_range = 20",
                5,
                &[&g("battery", 1, BATTERY_105)],
                &[&g("panzers", 2, PANZER_IV)],
                "area_fire_roll = \"one_per_template\"",
            ),
        ),
        (
            "panzers vs bombarding 105mm battery, aimed element only",
            battle(
                "range = 30",
                5,
                &[&g("panzers", 2, PANZER_IV)],
                &[&g("battery", 1, BATTERY_105_BOMBARDING)],
                "template_covers = \"aimed_element\"",
            ),
        ),
        (
            "mortars and rifles vs rifles in a hut, 25 to 5cm, direct fire",
            battle(
                "range = 25\nclosing = 10\nmin_range = 5",
                5,
                &[&g("mortars", 1, MORTARS_DIRECT), &g("rifles", 1, RIFLES)],
                &[&g("hut", 2, RIFLES_IN_HUT)],
                "",
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
    let text = rifles_at_5cm(broken, "broken").replace("[settings]\n", &format!("[settings]\n{NAMED_ROWS}\n"));
    let e = Exact::of("rout", &text);
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
    // from an AFV within 15cm (-3, counted from the fight: the Panzer fired at it at
    // 5cm) and from an unlocated one (-2, a standing condition), and suppressed (-1):
    // -14. Faces 1-3 score -13 to -11 (Rout) and 4-9 score -10 to -5 (Retreat): within
    // 5cm of an AFV, 9 faces in 10 surrender. Face 10 (-4) ceases fire. Either way the
    // team never fires back. Eliminated: 162/400 + 198/400 x 9/10 = 3402/4000.
    let team = "weapon = \"panzerfaust\"\nquality = \"raw\"\nout_of_command = true\nsituation = \"no_or_light_cover\"\nreaction_modifiers = [\"under_fire_from_unlocated\"]";
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
    // Named as a standing condition instead, the row gives the same odds here.
    let named = text.replace("[settings]\n", &format!("[settings]\n{NAMED_ROWS}\n")).replace(
        "[\"under_fire_from_unlocated\"]",
        "[\"under_fire_from_afv_within_15cm\", \"under_fire_from_unlocated\"]",
    );
    assert_eq!(Exact::of("named", &named).p("state_team", "eliminated"), r(3402, 4000));
    // At 20cm the Panzer is not within 15cm. Against a raw, out-of-command 6 pdr crew
    // (heavy weapons; standing: unlocated): to hit 5 (16 of 20), casualty 12 ("Other
    // gun/how'r up to 110mm > 15cm range" vs heavy weapons: 9 of 20): kill 144/400,
    // suppress 16 x 11 = 176/400. The crew tests at -11 (raw, out of command,
    // unlocated, suppressed), not -14: face 1 (-10) to face 6 (-5) retreat, 7 to 10
    // cease fire; it never routs, and nothing surrenders at 20cm.
    let crew = "weapon = \"br_6pdr\"\nquality = \"raw\"\nout_of_command = true\nsituation = \"heavy_weapons\"\nreaction_modifiers = [\"under_fire_from_unlocated\"]";
    let far = duel(
        "range = 20\nend = [\"eliminated\"]",
        1,
        &Group { name: "panzer", count: 1, keys: PANZER_IV },
        &Group { name: "crew", count: 1, keys: crew },
        "",
    );
    let e = Exact::of("far", &far);
    assert_eq!(e.p("state_crew", "eliminated"), r(144, 400));
    assert_eq!(e.p("state_crew", "retreating"), r(176 * 6, 4000));
    assert!(e.p("state_crew", "routed").is_zero());
}

#[test]
fn a_bombarded_building_loses_and_shoots_back_as_hand_computed() {
    // A 155mm battery bombards two MG 42s in a medium building at 40cm: "S6/C10/D12",
    // one d20 for the template over both. Faces 1-5 (5/20) do nothing; 6-9 (4/20) S,
    // a marker on each; 10-11 (2/20) C, a marker each and one casualty; 12-20 (9/20) D,
    // two markers each and one casualty (MC-E11). Markers are kept.
    let text = battle(
        "range = 40\nend = [\"eliminated\"]",
        1,
        &[&Group { name: "battery", count: 1, keys: BATTERY_155 }],
        &[&Group { name: "hmgs", count: 2, keys: HMG_IN_BUILDING }],
        "suppression_markers = \"kept\"",
    );
    let e = Exact::of("building", &text);
    assert_eq!(e.p("survivors_hmgs", "1"), r(11, 20));
    assert_eq!(e.p("survivors_hmgs", "2"), r(9, 20));
    assert_eq!(e.p("state_hmgs", "suppressed"), r(15, 20));
    // The MG 42s shoot back at the battery (heavy weapons): to hit 15 at 40cm, +2 for
    // lying under HE area fire and +1 a marker; casualty 14+ (7 of 20). A suppressed or
    // hit group tests at veteran +2, good cover +2, -1 a suppressed element, -2 an
    // eliminated one: +2 or +1, never worse than Halt, so it shoots.
    // - no effect: two shots from 17 (4 of 20): 28/400 each, 1 - (372/400)^2;
    // - S: two shots from 18 (3 of 20): 21/400 each, 1 - (379/400)^2;
    // - C: one shot from 18: 21/400; D: one shot from 19 (2 of 20): 14/400.
    // Over 20 x 400 x 400: 5 x 21,616 + 4 x 16,359 + 2 x 21 x 400 + 9 x 14 x 400.
    let battery_lost = 5 * (160_000 - 372 * 372) + 4 * (160_000 - 379 * 379) + 2 * 21 * 400 + 9 * 14 * 400;
    assert_eq!(battery_lost, 240_716);
    assert_eq!(e.p("winner", "Defenders"), r(battery_lost, 3_200_000));
    assert!(e.p("winner", "Attackers").is_zero(), "one casualty a template cannot destroy two");
}

#[test]
fn a_template_over_two_panzers_knocks_out_at_most_one_as_hand_computed() {
    // A 105mm battery's standard fire on two Panzer IVs (armour 6, band 5-7): "20", one
    // d20 per AFV, "Max 1 KO per template": a KO with 1 - (19/20)^2 = 39/400.
    let text = |battery: &str, settings: &str| {
        battle(
            "range = 40\nend = [\"eliminated\"]",
            1,
            &[&Group { name: "battery", count: 1, keys: battery }],
            &[&Group { name: "panzers", count: 2, keys: PANZER_IV }],
            settings,
        )
    };
    let e = Exact::of("standard", &text(BATTERY_105, ""));
    assert_eq!(e.p("survivors_panzers", "1"), r(39, 400));
    assert!(e.p("survivors_panzers", "0").is_zero());
    // The Panzers shoot back: to hit 7 at 40cm, +2 under HE (9+, 12 of 20); casualty 12
    // (9 of 20): 108/400 a shot. A KO makes the group test at veteran +2, -2 for the
    // loss: never worse than Halt. Two shots after no KO, one after a KO:
    // (361 x (160,000 - 292^2) + 39 x 108 x 400) / (400 x 160,000).
    assert_eq!(e.p("winner", "Defenders"), r(361 * (160_000 - 292 * 292) + 39 * 108 * 400, 64_000_000));
    // One d20 for the template: a KO on 20 alone, 1/20.
    let e = Exact::of("one roll", &text(BATTERY_105, "area_fire_roll = \"one_per_template\""));
    assert_eq!(e.p("survivors_panzers", "1"), r(1, 20));
    // Bombardment: "15", 1 - (14/20)^2 = 204/400.
    let e = Exact::of("bombardment", &text(BATTERY_105_BOMBARDING, ""));
    assert_eq!(e.p("survivors_panzers", "1"), r(204, 400));
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
    // Six rifle sections against four HMGs is now solved exactly (lumped fields); a
    // company against a company still is not.
    let a = Group { name: "platoon", count: 30, keys: RIFLES };
    let b = Group { name: "hmgs", count: 20, keys: HMG_IN_COVER };
    let text = duel("range = 25\nclosing = 5\nmin_range = 5", 20, &a, &b, "suppression_markers = \"kept\"");
    let p = plan("big", &text, 1000, 1, 1);
    // The solver's state bounds stop it (how soon is a benchmark's business, rule 9).
    assert!(p.set_up.experiment.exact().is_none(), "a 50-element engagement should be too large");
    let why = p.set_up.experiment.why_not_exact().expect("the report says why");
    assert!(why.contains("no exact odds"), "{why}");
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
        // Rows the fight gives are not named (MC-E10).
        (
            "situation = \"no_or_light_cover\"",
            "situation = \"no_or_light_cover\"\nreaction_modifiers = [\"enemy_seen_retreating\"]",
            "\"enemy_seen_retreating\"",
            &["counted from the fight", "MC-E10", "derived_reaction_rows = \"named\""][..],
        ),
        // Templates set "under HE area fire" (MC-E11).
        (
            "situation = \"no_or_light_cover\"",
            "situation = \"no_or_light_cover\"\nfire_modifiers = [\"under_he_area_fire\"]",
            "\"under_he_area_fire\"",
            &["area fire", "MC-E11"][..],
        ),
        // One kind of fire per entry.
        (
            "situation = \"no_or_light_cover\"",
            "situation = \"no_or_light_cover\"\narea_fire = { system = \"larger_artillery\" }",
            "{ system",
            &["unit `Rifles`", "not both"][..],
        ),
        // A structure is held by a fortified entry.
        (
            "situation = \"no_or_light_cover\"",
            "situation = \"no_or_light_cover\"\nstructure = \"medium\"",
            "\"medium\"",
            &["unit `Rifles`", "`structure`", "fortified"][..],
        ),
        (
            "situation = \"no_or_light_cover\"",
            "situation = \"fortified\"\nstructure = \"medum\"",
            "\"medum\"",
            &["structure strength", "did you mean `medium`?"][..],
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
    // Area fire rolls no to-hit d20.
    let battery = base().replace(
        "[[side]]\nname = \"Defenders\"",
        &format!("[[side.unit]]\nname = \"Battery\"\n{BATTERY_105}\nfire_modifiers = [\"multi_barrel\"]\n[[side]]\nname = \"Defenders\""),
    );
    let (_d, path, line) = scenario_error("battery.toml", &battery);
    assert_located(&line, &path, &place(&battery, "\"multi_barrel\"", 0));
    assert_contains(&line, &["unit `Battery`", "no to-hit d20", "fire_modifiers"]);
    // A misspelt system names the nearest of both area fire tables.
    let text = battery
        .replace("\nfire_modifiers = [\"multi_barrel\"]", "")
        .replace("gun_howitzer_75_110mm", "gun_howitzer_75_110");
    let (_d, path, line) = scenario_error("system.toml", &text);
    assert_located(&line, &path, &place(&text, "\"gun_howitzer_75_110\"", 0));
    assert_contains(&line, &["firing system", "did you mean `gun_howitzer_75_110mm`?"]);
    // A unit that is both foot and armour.
    let text = replace_once(&ok, "armour_class = 6", "armour_class = 6\nsituation = \"good_cover\"");
    let (_d, path, line) = scenario_error("both.toml", &text);
    assert_placed_in(&line, &path);
    assert_contains(&line, &["unit `Panzer` needs exactly one of `situation`"]);
}

#[test]
fn the_engagement_experiments_run() {
    for file in [
        "mc_engagement_panzer_iv_vs_shermans.toml",
        "mc_engagement_hmg_vs_rifle_platoon.toml",
        "mc_engagement_mortars_vs_farmhouse.toml",
    ] {
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
