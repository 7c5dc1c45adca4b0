//! Company Commander engagements (seed 003; src/rules/company_commander/engagement.rs):
//! Monte Carlo held to the Markov solution on a grid of duels, hand-computed duels,
//! determinism, the exact solver's refusal of a big engagement, bad input through the
//! binary, and the experiment files.

use std::time::Instant;

use crate::common::cli::{
    assert_contains, assert_located, assert_misspellings_corrected, assert_setting_typos_corrected, place, run,
    scenario_error,
};
use crate::common::determinism::{assert_cli_thread_independent, assert_seed_matters, assert_thread_independent};
use crate::common::exact::{Exact, r};
use crate::common::grid::{Family, grid_trials, settings};
use crate::common::{experiment_path, plan};

/// A test weapon: ROF 1, range 1-10 (3 hexes is 30% of the maximum: no range modifier),
/// no penetration, weapon strength `s`.
fn gun(s: u32) -> String {
    format!("weapon_data = [{{ direct = {{ stationary_rof = 1, moving_rof = 1, range = [1, 10], strength = {s} }} }}]")
}

/// An engagement: `settings` and `engagement` bodies, then side A's and side B's unit
/// entries (each a list of `[[side.unit]]` bodies).
fn engagement(settings: &str, engagement: &str, a: &[&str], b: &[&str]) -> String {
    let units = |list: &[&str]| list.iter().map(|u| format!("[[side.unit]]\n{u}\n")).collect::<String>();
    format!(
        "ruleset = \"company-commander\"\nkind = \"engagement\"\n\n[settings]\n{settings}\n[engagement]\n{engagement}\n\n[[side]]\nname = \"A\"\n{}\n[[side]]\nname = \"B\"\n{}",
        units(a),
        units(b)
    )
}

// ---------------------------------------------------------------------------------
// 1. Monte Carlo against the Markov solution.

/// A grid case: name, `[settings]` body, `[engagement]` body, side A's and side B's units.
type Case = (&'static str, String, &'static str, Vec<String>, Vec<String>);

/// One-on-one duels (and two small two-on-one fights) over weapons, armour, ranges,
/// qualities, closing and fixed range, both end conditions and every engagement setting.
fn grid() -> Vec<(String, String)> {
    let sherman = "name = \"Sherman\"\nquality = \"trained\"\nvehicle = \"m4_sherman\"\nweapons = [\"us_75mm_m3\"]";
    let panther_side = "name = \"Panther\"\nquality = \"veteran\"\nvehicle = \"panther\"\nfacing = \"side\"\nweapons = [\"ge_75mm_kwk42\"]";
    let pz4 = "name = \"Pz IV\"\nquality = \"experienced\"\nvehicle = \"pz_iv_h\"\nbearing = 70\nweapons = [\"ge_75mm_pak40\"]";
    let tiger =
        "name = \"Tiger\"\nquality = \"elite\"\nvehicle = \"tiger_i\"\nhull_down = true\nweapons = [\"ge_88mm_kwk36\"]";
    let squad = |name: &str, q: &str, cover: &str| {
        format!(
            "name = \"{name}\"\nquality = \"{q}\"\nstrength = 2\nfront_line = true\ncover = \"{cover}\"\nweapons = [\"rifle_squad\"]"
        )
    };
    let mg42 = "name = \"MG 42\"\nquality = \"veteran\"\nstrength = 2\nfront_line = true\ncover = \"entrenchment\"\nweapons = [\"ge_mg42\"]";
    let bazooka = "name = \"Bazooka\"\nquality = \"green\"\nfront_line = true\nweapons = [\"us_bazooka\"]";
    let halftrack =
        "name = \"Half-track\"\nquality = \"trained\"\nvehicle = \"m3_halftrack\"\nweapons = [\"us_50cal_hmg\"]";
    let s = |pairs: &[(&str, &str)]| settings(pairs);
    let cases: Vec<Case> = vec![
        ("tank duel, fixed 8 hexes", s(&[]), "range = 8\nturns = 8", vec![panther_side.into()], vec![sherman.into()]),
        (
            "tank duel closing 14 to 2, broken or eliminated",
            s(&[("side_broken", "all_suppressed")]),
            "range = 14\nclosing = 3\nmin_range = 2\nturns = 8",
            vec![sherman.into()],
            vec![pz4.into()],
        ),
        (
            "elite hull-down Tiger, recovery always",
            s(&[("suppression_recovery", "always"), ("suppressed_again", "destroyed")]),
            "range = 6\nturns = 10\nend = [\"eliminated\"]",
            vec![format!("{sherman}\nmoved = true")],
            vec![tiger.into()],
        ),
        (
            "squads in soft cover, fixed 3 hexes",
            s(&[]),
            "range = 3\nturns = 12",
            vec![squad("Rangers", "veteran", "soft")],
            vec![squad("Volksgrenadiers", "green", "none")],
        ),
        (
            "MG 42 against a squad, closing, broken only",
            s(&[("side_broken", "all_suppressed"), ("suppression_during_fire", "next_fire_action")]),
            "range = 8\nclosing = 2\nmin_range = 2\nturns = 8\nend = [\"broken\"]",
            vec![mg42.into()],
            vec![squad("GIs", "trained", "soft")],
        ),
        (
            "squads, no recovery, cautious start",
            s(&[("suppression_recovery", "never"), ("weapon_strength_outcome", "suppressed_otherwise")]),
            "range = 4\nturns = 6",
            vec![format!("{}\nstatus = \"cautious\"", squad("Paras", "elite", "hard"))],
            vec![format!("{}\nmoved = true", squad("Riflemen", "experienced", "none"))],
        ),
        (
            "bazooka against an open-topped half-track",
            s(&[("cover_save_values", "highest_only")]),
            "range = 2\nturns = 10",
            vec![bazooka.into()],
            vec![halftrack.into()],
        ),
        (
            "test guns, suppressed start, strength 5",
            s(&[("suppressed_again", "destroyed")]),
            "range = 3\nturns = 5",
            vec![format!("name = \"Gun A\"\nstatus = \"suppressed\"\n{}", gun(5))],
            vec![format!("name = \"Gun B\"\nquality = \"green\"\nstrength = 2\n{}", gun(1))],
        ),
        (
            "two Shermans against a Panther's side, spread",
            s(&[]),
            "range = 10\nclosing = 2\nmin_range = 4\nturns = 6\ntargets = \"spread\"",
            vec![panther_side.into()],
            vec![format!("{sherman}\ncount = 2")],
        ),
        (
            "a squad and an MG against one squad, most vulnerable",
            s(&[("side_broken", "all_suppressed")]),
            "range = 5\nclosing = 1\nmin_range = 1\nturns = 6\ntargets = \"most_vulnerable\"",
            vec![
                squad("Squad", "experienced", "soft"),
                format!("{}\nstrength = 1", mg42.replace("strength = 2\n", "")),
            ],
            vec![squad("Defenders", "veteran", "hard")],
        ),
        (
            "a Sherman choosing between gun and coax, hull MG in arc, against a squad with a bazooka",
            s(&[("weapon_choice", "most_likely_to_damage")]),
            "range = 2\nturns = 6",
            vec![format!(
                "{}\nfacing = \"front\"",
                sherman.replace(
                    "weapons = [\"us_75mm_m3\"]",
                    "weapons = [{ weapon = \"us_75mm_m3\", one_of = \"turret\" }, { weapon = \"us_30cal_mg\", one_of = \"turret\" }, { weapon = \"us_30cal_mg\", front_arc = true }]"
                )
            )],
            vec![squad("Grenadiers", "veteran", "soft").replace("[\"rifle_squad\"]", "[\"rifle_squad\", \"us_bazooka\"]")],
        ),
        (
            "a bazooka team closing on a Panther to 1 hex, where it close assaults",
            s(&[]),
            "range = 3\nclosing = 1\nmin_range = 1\nturns = 6",
            vec![bazooka.replace("green", "veteran")],
            vec![panther_side.into()],
        ),
        (
            "a Sherman and a squad against a rifle squad at 1 hex, close assault only, one per point",
            s(&[("infantry_beside_armour", "close_assault_only"), ("close_assault_attacks", "per_strength_point")]),
            "range = 1\nturns = 5\ntargets = \"most_vulnerable\"",
            vec![format!("{sherman}\nfacing = \"side\""), squad("Volksgrenadiers", "green", "soft")],
            vec![squad("GIs", "trained", "none")],
        ),
        (
            "Panzerschreck squad against an open-topped half-track and a squad at 1 hex",
            s(&[("side_broken", "all_suppressed")]),
            "range = 1\nturns = 6",
            vec![
                squad("Grenadiers", "experienced", "soft")
                    .replace("[\"rifle_squad\"]", "[\"rifle_squad\", \"ge_panzerschreck\"]"),
            ],
            vec![halftrack.into(), format!("{}\nclose_assault = \"none\"", squad("Engineers", "trained", "none"))],
        ),
    ];
    cases
        .into_iter()
        .map(|(name, set, e, a, b)| {
            let a: Vec<&str> = a.iter().map(String::as_str).collect();
            let b: Vec<&str> = b.iter().map(String::as_str).collect();
            (name.to_string(), engagement(&set, e, &a, &b))
        })
        .collect()
}

/// Trials per grid case, the first case's seed, and the family-wise level.
const TRIALS: u64 = 100_000;
const SEED: u64 = 6_003;
const FAMILY_ALPHA: f64 = 0.001;

#[test]
fn monte_carlo_agrees_with_the_markov_solution_on_a_grid_of_duels() {
    let started = Instant::now();
    let family = Family::run_all(&grid(), grid_trials(TRIALS), SEED);
    for outcome in ["A", "B", "undecided"] {
        assert!(family.reached.contains(outcome), "no case reaches winner = {outcome}");
    }
    family.assert_agrees(FAMILY_ALPHA, 30);
    eprintln!("grid: {} tests in {:?}", family.tests.len(), started.elapsed());
}

#[test]
fn the_grid_spans_every_engagement_setting_and_both_end_conditions() {
    let cases = grid();
    let with = |s: &str| cases.iter().filter(|(_, t)| t.contains(s)).count();
    for (setting, readings) in combat_odds_rules::company_commander::ENGAGEMENT_SETTINGS {
        for reading in readings.iter().skip(1) {
            assert!(with(&format!("{setting} = \"{reading}\"")) >= 1, "no case reads {setting} = {reading}");
        }
    }
    for key in [
        "end = [\"broken\"]",
        "end = [\"eliminated\"]",
        "closing = ",
        "status = \"cautious\"",
        "moved = true",
        "range = 1\n",
        "min_range = 1\n",
        "close_assault = \"none\"",
    ] {
        assert!(with(key) >= 1, "no case with {key}");
    }
    assert!(cases.iter().any(|(_, t)| !t.contains("closing")), "no fixed-range case");
}

// ---------------------------------------------------------------------------------
// 2. Hand-computed duels.
//
// Both units are experienced (no quality rows), the test gun reaches 10 hexes and fires
// at 3 (30%: no range row), targets have no cover and are not front line (no save), so
// an attack hits on 1-5 of a d10: 1/2. Weapon strength 6 damages on every d6 (6 or
// less), so a hit destroys a one-point unit; strength 5 damages on 1-5 and suppresses
// on 6 (CC-3, "suppressed_on_strength_plus_one"). A fires first (CC-E1).

#[test]
fn a_one_turn_duel_of_sure_kills_favours_the_first_player() {
    let text = engagement(
        "",
        "range = 3\nturns = 1",
        &[&format!("name = \"A gun\"\n{}", gun(6))],
        &[&format!("name = \"B gun\"\n{}", gun(6))],
    );
    let exact = Exact::of("sure kills", &text);
    // A kills with 1/2 before B fires; else B kills with 1/2: 1/2 x 1/2 = 1/4; else
    // nobody: 1/4.
    assert_eq!(exact.p("winner", "A"), r(1, 2));
    assert_eq!(exact.p("winner", "B"), r(1, 4));
    assert_eq!(exact.p("winner", "undecided"), r(1, 4));
    assert_eq!(exact.p("first_kill_turn", "1"), r(3, 4));
}

#[test]
fn a_cautious_target_is_harder_to_hit_until_it_shoots() {
    // B starts cautious: -1 (score 4, 4 in 10) for A's shot. B then shoots, so it is
    // no longer cautious in turn 2: A hits it on 5 in 10 again.
    let b = format!("name = \"B gun\"\nstatus = \"cautious\"\n{}", gun(6));
    let text = engagement("", "range = 3\nturns = 2", &[&format!("name = \"A gun\"\n{}", gun(6))], &[&b]);
    let exact = Exact::of("cautious", &text);
    // Turn 1: A wins 2/5; B wins 3/5 x 1/2 = 3/10; on 3/10 both stand.
    // Turn 2: A wins 3/10 x 1/2 = 3/20, B 3/10 x 1/4 = 3/40.
    // A: 2/5 + 3/20 = 11/20; B: 3/10 + 3/40 = 3/8; undecided 3/10 x 1/4 = 3/40.
    assert_eq!(exact.p("winner", "A"), r(11, 20));
    assert_eq!(exact.p("winner", "B"), r(3, 8));
    assert_eq!(exact.p("winner", "undecided"), r(3, 40));
}

#[test]
fn a_suppressed_unit_may_not_shoot_and_recovers_by_its_quality() {
    let a = format!("name = \"A gun\"\n{}", gun(5));
    let b = format!("name = \"B gun\"\n{}", gun(5));
    // A hits 1/2: destroys B 5/12, suppresses it 1/12, else nothing 1/2. A suppressed B
    // may not shoot; otherwise B destroys A with 5/12 and suppresses it with 1/12.
    // A wins 5/12; B wins 1/2 x 5/12 = 5/24; undecided 1/12 + 1/2 x 7/12 = 9/24.
    for (recovery, b_suppressed) in [("never", r(1, 12)), ("quality_hit_score", r(1, 24)), ("always", r(0, 1))] {
        let text = engagement(&settings(&[("suppression_recovery", recovery)]), "range = 3\nturns = 1", &[&a], &[&b]);
        let exact = Exact::of(recovery, &text);
        assert_eq!(exact.p("winner", "A"), r(5, 12), "{recovery}");
        assert_eq!(exact.p("winner", "B"), r(5, 24), "{recovery}");
        assert_eq!(exact.p("winner", "undecided"), r(9, 24), "{recovery}");
        // B rolls to recover at the end of its own player turn: an experienced unit on
        // 4+ of a d6 (the close assault hit score), 1/2; so 1/12 x 1/2 = 1/24 stays
        // suppressed.
        assert_eq!(exact.p("state_b_gun", "suppressed"), b_suppressed, "{recovery}");
        // A, suppressed by B's fire (1/2 x 1/12), rolls only at the end of its next
        // player turn, in turn 2: still suppressed whatever the setting.
        assert_eq!(exact.p("state_a_gun", "suppressed"), r(1, 24), "{recovery}");
    }
}

#[test]
fn attacks_are_the_rate_of_fire_times_the_strength_left() {
    // A (one point) hits B (two points) with 1/2, costing B a point. B then makes one
    // attack per point left ("multiplied by the hit points remaining"): after the
    // damage 1 attack, 1/2 to kill A; undamaged 2 attacks, 1 - (1/2)^2 = 3/4.
    // B wins 1/2 x 1/2 + 1/2 x 3/4 = 5/8; A cannot destroy two points with one attack.
    let a = format!("name = \"A gun\"\n{}", gun(6));
    let b = format!("name = \"B guns\"\nstrength = 2\n{}", gun(6));
    let exact = Exact::of("strength left", &engagement("", "range = 3\nturns = 1", &[&a], &[&b]));
    assert_eq!(exact.p("winner", "B"), r(5, 8));
    assert_eq!(exact.p("winner", "A"), r(0, 1));
    assert_eq!(exact.p("state_b_guns", "damaged"), r(1, 2));
}

#[test]
fn a_unit_with_nothing_in_reach_holds_its_fire_and_is_cautious() {
    // Turn 1 at 4 hexes: A's 2-hex weapon reaches nothing, so A does not shoot and is
    // cautious when B fires (CC-E2): B's gun (4 of 10 hexes, 40%: no range row) hits on
    // 5 - 1 = 4 in 10, and a hit of strength 6 destroys: B wins 2/5.
    // Turn 2 at 2 hexes: A fires (2 of 2 hexes is over 80%: 5 - 3 = 2 in 10) and wins
    // 3/5 x 1/5 = 3/25; then B, at 20% (+1: 6 in 10) against A, no longer cautious as it
    // shot: 3/5 x 4/5 x 3/5 = 36/125. B wins 2/5 + 36/125 = 86/125; undecided
    // 3/5 x 4/5 x 2/5 = 24/125.
    let a = "name = \"Short\"\nweapon_data = [{ direct = { stationary_rof = 1, moving_rof = 1, range = [1, 2], strength = 6 } }]";
    let b = format!("name = \"Long\"\n{}", gun(6));
    let text = engagement("", "range = 4\nclosing = 2\nmin_range = 2\nturns = 2", &[a], &[&b]);
    let exact = Exact::of("out of reach", &text);
    assert_eq!(exact.p("first_kill_turn", "1"), r(2, 5));
    assert_eq!(exact.p("winner", "A"), r(3, 25));
    assert_eq!(exact.p("winner", "B"), r(86, 125));
    assert_eq!(exact.p("winner", "undecided"), r(24, 125));
}

#[test]
fn a_side_all_suppressed_is_broken_only_under_its_setting() {
    let a = format!("name = \"A gun\"\n{}", gun(5));
    let b = format!("name = \"B gun\"\n{}", gun(5));
    let set = settings(&[("side_broken", "all_suppressed"), ("suppression_recovery", "never")]);
    let text = engagement(&set, "range = 3\nturns = 1", &[&a], &[&b]);
    let exact = Exact::of("broken", &text);
    // B is broken when suppressed (1/12) as well as destroyed (5/12): A wins 1/2. A is
    // broken when B suppresses it (1/2 x 1/12): B wins 5/24 + 1/24 = 1/4.
    assert_eq!(exact.p("winner", "A"), r(1, 2));
    assert_eq!(exact.p("winner", "B"), r(1, 4));
}

#[test]
fn adjacent_infantry_close_assaults_armour_instead_of_firing_at_it() {
    // Seed 003, ZOC's and Close assault: "Infantry units that are capable of a close
    // assault may only attack adjacent armoured units by a close assault." A veteran
    // bazooka team (the catalogue's `us_bazooka` is a Bazooka team's weapon) adjacent
    // to a Panther's front. Fired, the bazooka's penetration 10 against 12 + d6 could
    // never even glance. Close assaulted: hit on 3+ (4/6), "Bazooka and PIAT teams" 3
    // or less (3/6), then 3-6 destroys (4/6) and 1-2 suppresses (2/6):
    // destroyed 4/6 x 3/6 x 4/6 = 2/9; suppressed 4/6 x 3/6 x 2/6 = 1/9.
    let team = "name = \"Bazooka team\"\nquality = \"veteran\"\nfront_line = true\nweapons = [\"us_bazooka\"]";
    let panther = "name = \"Panther\"\nquality = \"veteran\"\nvehicle = \"panther\"\nweapons = [\"ge_75mm_kwk42\"]";
    let text = engagement("", "range = 1\nturns = 1", &[team], &[panther]);
    let exact = Exact::of("close assault", &text);
    assert_eq!(exact.p("winner", "A"), r(2, 9));
    // The suppressed Panther may not shoot, and rolls to recover at the end of its own
    // player turn: veteran, 3+ on a d6 (CC-E3), so 1/9 x 2/6 = 1/27 stays suppressed.
    assert_eq!(exact.p("state_panther", "suppressed"), r(1, 27));

    // A team that cannot close assault (CC-19) fires its bazooka, and never harms it.
    let text = engagement("", "range = 1\nturns = 1", &[&format!("{team}\nclose_assault = \"none\"")], &[panther]);
    assert_eq!(Exact::of("no close assault", &text).p("winner", "A"), r(0, 1));
}

#[test]
fn beside_armour_infantry_attacks_only_armour_under_close_assault_only() {
    // B lists a squad, then a Sherman; A's experienced rifle squad (two points, an
    // "Other infantry teams" weapon) picks the first listed it may attack. One turn.
    // Default (close_assault_armour): it fires at the squad, so the Sherman is never
    // destroyed. close_assault_only: while the Sherman is left it may only close
    // assault it: hit 4+ (1/2), other infantry 1 or less (1/6), 3-6 destroys (4/6):
    // 1/2 x 1/6 x 4/6 = 1/18; and B's squad is never fired at.
    let a = "name = \"Riflemen\"\nstrength = 2\nfront_line = true\nweapons = [\"rifle_squad\"]";
    let squad = "name = \"Squad\"\nstrength = 2\nfront_line = true\nweapons = [\"rifle_squad\"]";
    let sherman = "name = \"Sherman\"\nvehicle = \"m4_sherman\"\nweapons = [\"us_75mm_m3\"]";
    let fight = |reading: &str| {
        let text = engagement(
            &settings(&[("infantry_beside_armour", reading)]),
            "range = 1\nturns = 1\ntargets = \"first_listed\"",
            &[a],
            &[squad, sherman],
        );
        Exact::of(reading, &text)
    };
    let default = fight("close_assault_armour");
    assert_eq!(default.p("state_sherman", "destroyed"), r(0, 1));
    // The squad takes A's fire, as the exact solution of the one turn gives it (was
    // only "not always intact", which fire at the Sherman instead would also pass).
    assert_eq!(default.p("state_squad", "intact"), r(125, 216));
    assert_eq!(default.p("state_squad", "destroyed"), r(13, 288));
    let only = fight("close_assault_only");
    assert_eq!(only.p("state_sherman", "destroyed"), r(1, 18));
    assert_eq!(only.p("state_squad", "intact"), r(1, 1));
}

// ---------------------------------------------------------------------------------
// 3. Determinism, and the exact solver's limit.

fn small_engagements() -> Vec<(String, String)> {
    let g = grid();
    vec![g[0].clone(), g[9].clone()]
}

#[test]
fn engagements_are_thread_independent_and_seeded() {
    let cases = small_engagements();
    let refs: Vec<(&str, &str)> = cases.iter().map(|(n, t)| (n.as_str(), t.as_str())).collect();
    assert_thread_independent(&refs);
    assert_seed_matters(&refs);
    assert_cli_thread_independent(&refs[..1], "company-commander");
}

#[test]
fn a_big_engagement_has_no_exact_solution_and_says_so_at_once() {
    let squad = |name: &str| {
        format!("name = \"{name}\"\ncount = 4\nstrength = 2\nfront_line = true\nweapons = [\"rifle_squad\"]")
    };
    let text = engagement("", "range = 4\nturns = 20", &[&squad("Attackers")], &[&squad("Defenders")]);
    let started = Instant::now();
    let p = plan("big", &text, 2_000, 1, 2);
    assert!(p.set_up.experiment.exact().is_none(), "a 4 x 4 squad fight should be out of exact reach");
    assert!(p.set_up.notes.iter().any(|n| n.contains("Monte Carlo only")), "{:?}", p.set_up.notes);
    assert!(started.elapsed().as_secs() < 5, "took {:?}", started.elapsed());
    // Monte Carlo still answers it.
    let report = combat_odds_report::export::Report::of(p).expect("a report");
    assert_eq!(report.trials, 2_000);
}

// ---------------------------------------------------------------------------------
// 4. Bad input through the binary.

/// A valid engagement to break: a Panther against two Shermans closing.
const VALID: &str = r#"ruleset = "company-commander"
kind = "engagement"

[engagement]
range = 10
closing = 2
min_range = 2
turns = 6

[[side]]
name = "Germans"

[[side.unit]]
name = "Panther"
quality = "veteran"
vehicle = "panther"
weapons = ["ge_75mm_kwk42"]

[[side]]
name = "Americans"

[[side.unit]]
name = "Shermans"
count = 2
quality = "trained"
vehicle = "m4_sherman"
weapons = ["us_75mm_m3"]
"#;

fn replace(from: &str, to: &str) -> String {
    crate::common::cli::replace_once(VALID, from, to)
}

#[test]
fn the_valid_engagement_runs() {
    let dir = tempfile::tempdir().unwrap();
    let path = crate::common::cli::write(dir.path(), "valid.toml", VALID);
    let out = crate::common::cli::fire(&path, &[]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn a_side_with_no_units_is_refused() {
    let text = replace(
        "[[side.unit]]\nname = \"Shermans\"\ncount = 2\nquality = \"trained\"\nvehicle = \"m4_sherman\"\nweapons = [\"us_75mm_m3\"]\n",
        "",
    );
    let (_d, path, line) = scenario_error("no_units.toml", &text);
    crate::common::cli::assert_placed_in(&line, &path);
    assert_contains(&line, &["side `Americans` has no units", "[[side.unit]]"]);
}

#[test]
fn a_weapon_that_cannot_reach_is_refused() {
    let text =
        replace("weapons = [\"us_75mm_m3\"]", "weapons = [\"us_bazooka\"]").replace("min_range = 2", "min_range = 4");
    let (_d, path, line) = scenario_error("reach.toml", &text);
    crate::common::cli::assert_placed_in(&line, &path);
    assert_contains(&line, &["unit `Shermans`", "cannot reach any enemy", "10 to 4 hexes"]);
}

#[test]
fn zero_turns_are_refused() {
    let text = replace("turns = 6", "turns = 0");
    let (_d, path, line) = scenario_error("turns.toml", &text);
    assert_located(&line, &path, &place(&text, "turns = 0", 8));
    assert_contains(&line, &["turns must be from 1", "not 0"]);
}

#[test]
fn misspellings_are_corrected() {
    assert_misspellings_corrected(&[
        (VALID, "\"veteran\"", "\"veteren\"", "quality", "veteran"),
        (VALID, "\"ge_75mm_kwk42\"", "\"ge_75mm_kwk24\"", "weapon", "ge_75mm_kwk42"),
        (VALID, "\"panther\"", "\"panter\"", "vehicle", "panther"),
        (VALID, "quality = \"trained\"", "qualty = \"trained\"", "qualty", "quality"),
    ]);
    let squad = VALID.replace(
        "vehicle = \"m4_sherman\"\nweapons = [\"us_75mm_m3\"]",
        "close_assault = \"bazooka_piat\"\nweapons = [\"us_bazooka\"]",
    );
    assert_misspellings_corrected(&[(
        &squad,
        "\"bazooka_piat\"",
        "\"bazoka_piat\"",
        "close assault weapon class",
        "bazooka_piat",
    )]);
    assert_setting_typos_corrected(
        VALID,
        &[
            ("side_broken", "all_supressed", "all_suppressed"),
            ("suppression_recovery", "alway", "always"),
            ("infantry_beside_armour", "close_assault_onyl", "close_assault_only"),
        ],
    );
}

#[test]
fn company_commander_refusals() {
    // A side that can never break, asked to end only when one does.
    let text = replace("turns = 6", "turns = 6\nend = [\"broken\"]");
    let (_d, path, line) = scenario_error("broken.toml", &text);
    assert_located(&line, &path, &place(&text, "[\"broken\"]", 0));
    assert_contains(&line, &["side_broken", "never breaks", "all_suppressed"]);

    // Ranges are whole hexes, 1 or more.
    let text = replace("range = 10", "range = 10.5");
    let (_d, path, line) = scenario_error("half_hex.toml", &text);
    assert_located(&line, &path, &place(&text, "10.5", 0));
    assert_contains(&line, &["10.5 hexes", "whole hexes"]);
    let text = replace("min_range = 2", "min_range = 0");
    let (_d, _path, line) = scenario_error("zero_range.toml", &text);
    assert_contains(&line, &["0 hexes", "min_range at least 1"]);

    // A unit with no weapons.
    let text = replace("weapons = [\"ge_75mm_kwk42\"]\n", "");
    let (_d, path, line) = scenario_error("unarmed.toml", &text);
    crate::common::cli::assert_placed_in(&line, &path);
    assert_contains(&line, &["unit `Panther` has no weapons"]);

    // An engagement setting in a direct fire scenario.
    let direct = "ruleset = \"company-commander\"\nkind = \"direct_fire\"\nrange = 4\n\n[settings]\nside_broken = \"all_suppressed\"\n\n[firer]\nweapons = [\"ge_mg42\"]\n\n[target]\nstrength = 2\n";
    let (_d, path, line) = scenario_error("direct.toml", direct);
    assert_located(&line, &path, &place(direct, "\"all_suppressed\"", 0));
    assert_contains(&line, &["side_broken", "engagement scenarios", "a direct_fire scenario"]);

    // close_assault on an armoured unit: only infantry close assaults (CC-19).
    let text = replace("vehicle = \"panther\"", "vehicle = \"panther\"\nclose_assault = \"other_infantry\"");
    let (_d, path, line) = scenario_error("armoured_assault.toml", &text);
    assert_located(&line, &path, &place(&text, "\"other_infantry\"", 0));
    assert_contains(&line, &["unit `Panther` is armoured", "only infantry close assaults", "remove close_assault"]);

    // A target key that only applies to armour, on a unit without it; and `visible`,
    // which is for indirect fire the engagement does not fight.
    let text = replace("quality = \"trained\"\nvehicle = \"m4_sherman\"", "quality = \"trained\"\nhull_down = true");
    let (_d, path, line) = scenario_error("hull_down.toml", &text);
    assert_located(&line, &path, &place(&text, "true", 0));
    assert_contains(&line, &["unit `Shermans`", "hull_down is for armoured targets"]);
    let text = replace("vehicle = \"panther\"", "vehicle = \"panther\"\nvisible = true");
    let (_d, path, line) = scenario_error("visible.toml", &text);
    assert_located(&line, &path, &place(&text, "visible", 0));
    assert_contains(&line, &["visible"]);
}

// ---------------------------------------------------------------------------------
// 5. The experiment files.

#[test]
fn every_engagement_experiment_runs_through_the_binary() {
    let dir = experiment_path("");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("cc_engagement_")))
        .collect();
    files.sort();
    assert!(files.len() >= 2, "{files:?}");
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        assert!(text.starts_with('#'), "{}: opens with a comment saying what it asks", file.display());
        let out = run(&["fire", file.to_str().unwrap(), "--trials", "20000"]);
        assert!(out.status.success(), "{}: {}", file.display(), String::from_utf8_lossy(&out.stderr));
    }
}
