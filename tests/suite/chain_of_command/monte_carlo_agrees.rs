//! Monte Carlo agrees with the exact engine on a grid of Chain of Command resolutions.
//!
//! Every scenario kind is covered: one Phase's hand of Command Dice (`command_dice`)
//! for hands of 1 to 8 dice and of 12 under each allocation policy, with the Red Dice,
//! Elite forces, Superior Junior and Inferior Senior Leaders, two Senior Leaders, a
//! hand read from a Force Morale level and small platoons that cap the activations;
//! the Phases until a full Chain of Command die (`chain_of_command_die`) and the length
//! of a Turn (`turn`) at small horizons, with Elite and Red Dice hands; one fire
//! (`shooting`) in every cover, on every to-hit column and range band, under every
//! reading of every setting, by firers with Shock, moving or Pinned, at targets whose
//! starting Shock Pins them (so the Pinned cover rule applies) or leaves them one
//! point from Breaking; the same fire Phase after Phase (`shooting_phases`) at small
//! horizons; and Force Morale (`force_morale`) rolled for each quality or given, then
//! several setbacks, down to the floor at 0. No setback with a "?" cell is used: those
//! are refused (see `coc_bad_input.rs`).
//!
//! The method is that of the Company Commander grid (`cc_monte_carlo_agrees.rs`),
//! shared in `tests/common/grid.rs` (nothing of it is copied here): each case compiles
//! through the real plan, runs [`TRIALS`] trials at a fixed seed (the grid's seed plus
//! the case's index) and tests every measure's counts against the exact distribution
//! with Pearson's chi-square, outcomes expected under `MIN_EXPECTED` times pooled (with
//! a Poisson test of the pool) and outcomes of probability 0 left out and asserted
//! never observed. The family-wise significance is 1% with a Bonferroni correction over
//! every test in the grid: at this fixed seed the outcome is deterministic, not flaky.

use crate::common::grid::{Family, grid_trials, settings};

const TRIALS: u64 = 4_000_000;
const SEED: u64 = 20_261_207;
const FAMILY_ALPHA: f64 = 0.01;

const HEADER: &str = "ruleset = \"chain-of-command\"\n";

// ---------------------------------------------------------------- scenario text

/// A hand's body: `dice`, the Red Dice and Elite flags.
fn hand(dice: u32, red: bool, elite: bool) -> String {
    format!("dice = {dice}\nred_dice = {red}\nelite = {elite}\n")
}

/// A `command_dice` scenario; `platoon` is a `[platoon]` body, or empty for the default.
fn command_dice(policy: &str, hand: &str, platoon: &str) -> String {
    let platoon = if platoon.is_empty() { String::new() } else { format!("[platoon]\n{platoon}\n") };
    format!("{HEADER}kind = \"command_dice\"\npolicy = \"{policy}\"\n[hand]\n{hand}\n{platoon}")
}

/// A `chain_of_command_die` scenario; `points` and `horizon` are whole lines or empty.
fn die(hand: &str, points: &str, horizon: &str) -> String {
    format!("{HEADER}kind = \"chain_of_command_die\"\n{points}\n{horizon}\n[hand]\n{hand}\n")
}

/// A `turn` scenario: the first side's hand, then the second's.
fn turn(first: &str, second: &str, horizon: u32) -> String {
    format!("{HEADER}kind = \"turn\"\nhorizon = {horizon}\n[[side]]\n{first}\n[[side]]\n{second}\n")
}

/// A `shooting` scenario (`horizon` 0) or a `shooting_phases` one; `firer` and
/// `target` are table bodies.
fn shooting(range: &str, firer: &str, target: &str, settings: &str, horizon: u32) -> String {
    let (kind, horizon) =
        if horizon == 0 { ("shooting", String::new()) } else { ("shooting_phases", format!("horizon = {horizon}\n")) };
    format!(
        "{HEADER}kind = \"{kind}\"\nrange = \"{range}\"\n{horizon}[settings]\n{settings}\n[firer]\n{firer}\n[target]\n{target}\n"
    )
}

/// A firer's body rolling `firepower` dice, then further keys.
fn firer(quality: &str, firepower: u32, extra: &str) -> String {
    format!("quality = \"{quality}\"\nfirepower = {firepower}\n{extra}\n")
}

/// A firer's body with catalogue weapons (name, count).
fn armed(quality: &str, weapons: &[(&str, u32)], extra: &str) -> String {
    let list: Vec<String> = weapons.iter().map(|(w, n)| format!("{{ weapon = \"{w}\", count = {n} }}")).collect();
    format!("quality = \"{quality}\"\nweapons = [{}]\n{extra}\n", list.join(", "))
}

/// A target's body.
fn target(quality: &str, figures: u32, shock: u32, cover: &str) -> String {
    format!("quality = \"{quality}\"\nfigures = {figures}\nshock = {shock}\ncover = \"{cover}\"\n")
}

/// A `force_morale` scenario: `start` is `quality = ...` or `starting = N` (or empty).
fn force_morale(start: &str, setbacks: &[&str]) -> String {
    let list: Vec<String> = setbacks.iter().map(|s| format!("\"{s}\"")).collect();
    format!("{HEADER}kind = \"force_morale\"\n[force]\n{start}\nsetbacks = [{}]\n", list.join(", "))
}

// ---------------------------------------------------------------- the grid

const POLICIES: [&str; 3] = ["max_senior", "max_orders", "as_rolled"];
const COVERS: [&str; 3] = ["open", "light", "hard"];
const QUALITIES: [&str; 3] = ["green", "regular", "elite"];
const BANDS: [&str; 2] = ["close", "effective"];
const THRESHOLDS: [&str; 2] = ["second_edition", "first_edition"];

type Cases = Vec<(String, String)>;

fn command_dice_hands(cases: &mut Cases) {
    // Every hand size 1 to 8 under every policy, the default platoon.
    for dice in 1..=8 {
        for policy in POLICIES {
            cases.push((format!("cd {dice} dice, {policy}"), command_dice(policy, &hand(dice, false, false), "")));
        }
    }
    // Twelve dice, the most a hand holds, with and without the Red Dice and Elite.
    cases.push(("cd 12 dice, as_rolled".into(), command_dice("as_rolled", &hand(12, false, false), "")));
    cases.push(("cd 12 dice, red, elite, max_orders".into(), command_dice("max_orders", &hand(12, true, true), "")));
    // The Red Dice (its 5s and 6s discarded) under each policy.
    for (dice, policy) in [(1, "max_orders"), (2, "max_senior"), (5, "max_orders"), (3, "as_rolled")] {
        cases.push((format!("cd {dice} dice + red, {policy}"), command_dice(policy, &hand(dice, true, false), "")));
    }
    // Elite: a single 6 becomes a 5 (a one-die hand converts every 6).
    for (dice, policy) in [(1, "max_senior"), (2, "max_orders"), (5, "as_rolled"), (6, "max_senior")] {
        cases.push((format!("cd {dice} dice elite, {policy}"), command_dice(policy, &hand(dice, false, true), "")));
    }
    cases.push(("cd 4 dice + red, elite, max_senior".into(), command_dice("max_senior", &hand(4, true, true), "")));
    // A hand read from a Force Morale level (five dice at every level shipped).
    cases.push((
        "cd force_morale 9, max_senior".into(),
        command_dice(
            "max_senior",
            "force_morale = 9\n",
            "senior_leader = 1\njunior_leader = 2\nsections = 2\nteams = 4",
        ),
    ));
}

fn command_dice_platoons(cases: &mut Cases) {
    // Superior Junior Leaders: a 3 gives two Orders, a 4 three.
    let superior = "senior_leader = 1\njunior_leader = 1\nsuperior_junior_leader = 2\nsections = 3\nteams = 6";
    for policy in POLICIES {
        cases.push((
            format!("cd 5 dice, superior juniors, {policy}"),
            command_dice(policy, &hand(5, false, false), superior),
        ));
    }
    cases.push((
        "cd 5 dice + red, elite, superior juniors, max_orders".into(),
        command_dice("max_orders", &hand(5, true, true), superior),
    ));
    // An Inferior Senior Leader (two Orders on a 4).
    let inferior = "inferior_senior_leader = 1\njunior_leader = 2\nsections = 2\nteams = 4";
    for policy in ["max_senior", "max_orders"] {
        cases.push((
            format!("cd 4 dice, inferior senior, {policy}"),
            command_dice(policy, &hand(4, false, false), inferior),
        ));
    }
    // Two Senior Leaders, one Inferior: up to two Senior activations.
    cases.push((
        "cd 6 dice, two seniors, max_senior".into(),
        command_dice(
            "max_senior",
            &hand(6, false, false),
            "senior_leader = 1\ninferior_senior_leader = 1\njunior_leader = 1\nsections = 1\nteams = 2",
        ),
    ));
    // Small platoons that cap the activations: one Team, no Section or Junior Leader.
    let tiny = "senior_leader = 1\nteams = 1";
    for policy in ["max_orders", "as_rolled"] {
        cases.push((
            format!("cd 6 dice, senior and one team, {policy}"),
            command_dice(policy, &hand(6, false, false), tiny),
        ));
    }
    let small = "senior_leader = 1\njunior_leader = 1\nsections = 1\nteams = 2";
    cases.push((
        "cd 8 dice + red, small platoon, max_senior".into(),
        command_dice("max_senior", &hand(8, true, false), small),
    ));
    cases.push((
        "cd 7 dice elite, small superior platoon, max_orders".into(),
        command_dice("max_orders", &hand(7, false, true), "senior_leader = 1\nsuperior_junior_leader = 1\nteams = 1"),
    ));
}

fn chain_of_command_dice(cases: &mut Cases) {
    let grid: [(u32, bool, bool, &str, &str); 7] = [
        (5, false, false, "points = 0", "horizon = 12"),
        (1, false, false, "points = 5", "horizon = 4"),
        (3, false, true, "points = 2", "horizon = 8"),
        (6, true, false, "points = 0", "horizon = 6"),
        (8, true, true, "points = 3", "horizon = 5"),
        (4, false, false, "", ""),
        (12, false, false, "points = 5", "horizon = 3"),
    ];
    for (dice, red, elite, points, horizon) in grid {
        cases.push((
            format!("die {dice} dice red {red} elite {elite}, {points}, {horizon}"),
            die(&hand(dice, red, elite), points, horizon),
        ));
    }
}

fn turns(cases: &mut Cases) {
    let grid: [(&str, &str, u32); 7] = [
        ("dice = 5", "dice = 6", 10),
        // One die never rolls three 6s: the Turn never ends (impossible outcomes).
        ("dice = 1", "dice = 1", 6),
        ("dice = 3\nelite = true", "dice = 4", 12),
        ("dice = 4\nred_dice = true", "dice = 5\nelite = true", 8),
        ("dice = 8", "dice = 2", 5),
        ("force_morale = 10", "dice = 7\nred_dice = true\nelite = true", 15),
        ("dice = 12", "dice = 12", 4),
    ];
    for (first, second, horizon) in grid {
        let label = |s: &str| s.replace('\n', " ");
        cases.push((
            format!("turn [{}] v [{}], horizon {horizon}", label(first), label(second)),
            turn(first, second, horizon),
        ));
    }
}

fn single_fire(cases: &mut Cases) {
    // Every cover x to-hit column x range band, the settings turned over so each
    // reading meets several situations.
    let mut i = 0;
    for cover in COVERS {
        for quality in QUALITIES {
            for band in BANDS {
                let other = QUALITIES[(i + 1) % 3];
                let s = settings(&[
                    ("to_hit_quality", ["target", "firer"][i % 2]),
                    ("hard_cover_four", ["miss", "shock"][(i / 2) % 2]),
                    ("shock_thresholds", THRESHOLDS[(i / 3) % 2]),
                    ("pinned_effects", ["second_edition", "none"][(i / 6) % 2]),
                    ("halved_firepower", ["round_down", "round_up"][(i / 9) % 2]),
                ]);
                // The quality under test sits on whichever side the column reads.
                let (f, t) = if i % 2 == 0 { (other, quality) } else { (quality, other) };
                let dice = 3 + (i as u32 % 5);
                let figures = 2 + (i as u32 % 4);
                cases.push((
                    format!("fire {dice} dice, {band}, {quality} column, {cover} cover, {figures} figures (#{i})"),
                    shooting(band, &firer(f, dice, ""), &target(t, figures, 0, cover), &s, 0),
                ));
                i += 1;
            }
        }
    }
    // The lost face of hard cover under each reading, with enough hits to tell.
    for four in ["miss", "shock"] {
        cases.push((
            format!("fire 10 dice at hard cover, hard_cover_four {four}"),
            shooting(
                "close",
                &firer("elite", 10, ""),
                &target("green", 6, 0, "hard"),
                &settings(&[("hard_cover_four", four), ("to_hit_quality", "firer")]),
                0,
            ),
        ));
    }
    // Firer Shock costs dice; moving halves them, and a Pinned firer halves them again
    // (second edition) or not (none), rounded down or up.
    for (extra, pinned, halves) in [
        ("shock = 3", "second_edition", "round_down"),
        ("shock = 4\nmoved = true", "second_edition", "round_up"),
        ("moved = true", "second_edition", "round_down"),
        ("pinned = true", "second_edition", "round_up"),
        ("pinned = true", "none", "round_down"),
        ("moved = true\npinned = true\nshock = 1", "second_edition", "round_up"),
    ] {
        cases.push((
            format!("fire 7 dice, firer {}, pinned_effects {pinned}, {halves}", extra.replace('\n', " ")),
            shooting(
                "close",
                &firer("regular", 7, extra),
                &target("regular", 4, 0, "open"),
                &settings(&[("pinned_effects", pinned), ("halved_firepower", halves)]),
                0,
            ),
        ));
    }
    // A target Pinned by its starting Shock fights from better cover under the second
    // edition's Pinned effects, not under `none`; by each source's thresholds.
    for (thresholds, shock) in [("second_edition", 5), ("first_edition", 4)] {
        for pinned in ["second_edition", "none"] {
            cases.push((
                format!(
                    "fire 8 dice at 4 figures with {shock} Shock in the open, {thresholds}, pinned_effects {pinned}"
                ),
                shooting(
                    "effective",
                    &firer("elite", 8, ""),
                    &target("green", 4, shock, "open"),
                    &settings(&[("shock_thresholds", thresholds), ("pinned_effects", pinned)]),
                    0,
                ),
            ));
        }
    }
    // Pinned in light cover moves to hard, where the lost face reads as a Shock.
    cases.push((
        "fire 6 dice at a Pinned target in light cover (fights from hard, four = shock)".into(),
        shooting(
            "close",
            &firer("regular", 6, ""),
            &target("regular", 3, 4, "light"),
            &settings(&[("hard_cover_four", "shock")]),
            0,
        ),
    ));
    // One point of Shock from Breaking, and a Pinned target in hard cover (no better).
    cases.push((
        "fire 4 dice at 2 figures with 3 Shock (one from Broken)".into(),
        shooting("close", &firer("green", 4, ""), &target("elite", 2, 3, "light"), "", 0),
    ));
    cases.push((
        "fire 5 dice at a Pinned target already in hard cover".into(),
        shooting("close", &firer("elite", 5, ""), &target("regular", 3, 4, "hard"), "", 0),
    ));
    // Catalogue weapons, many dice and a lone figure that can be wiped out.
    cases.push((
        "fire LMG + 2 rifles at 10 figures in light cover".into(),
        shooting(
            "effective",
            &armed("regular", &[("lmg", 1), ("rifle", 2)], ""),
            &target("regular", 10, 0, "light"),
            "",
            0,
        ),
    ));
    cases.push((
        "fire MMG + 2 SMG + pistol, first_edition, at 6 figures in the open".into(),
        shooting(
            "close",
            &armed("elite", &[("mmg", 1), ("smg", 2), ("pistol", 1)], ""),
            &target("green", 6, 1, "open"),
            &settings(&[("shock_thresholds", "first_edition"), ("to_hit_quality", "firer")]),
            0,
        ),
    ));
    cases.push((
        "fire 20 dice at 10 figures in the open".into(),
        shooting("close", &firer("green", 20, ""), &target("green", 10, 0, "open"), "", 0),
    ));
    cases.push((
        "fire 3 dice at a lone figure in the open".into(),
        shooting("close", &firer("regular", 3, ""), &target("green", 1, 0, "open"), "", 0),
    ));
}

fn fire_phases(cases: &mut Cases) {
    let grid: [(&str, String, String, String, u32); 7] = [
        (
            "LMG + 2 rifles at 10 figures, light cover",
            armed("regular", &[("lmg", 1), ("rifle", 2)], ""),
            target("regular", 10, 0, "light"),
            String::new(),
            5,
        ),
        (
            "4 dice at 4 figures in the open, first_edition",
            firer("regular", 4, ""),
            target("regular", 4, 0, "open"),
            settings(&[("shock_thresholds", "first_edition")]),
            8,
        ),
        (
            "3 dice at 3 figures in hard cover, four = shock",
            firer("elite", 3, ""),
            target("green", 3, 0, "hard"),
            settings(&[("hard_cover_four", "shock"), ("to_hit_quality", "firer")]),
            10,
        ),
        (
            "6 dice at a Pinned target in the open, second_edition effects",
            firer("regular", 6, ""),
            target("regular", 4, 5, "open"),
            String::new(),
            5,
        ),
        (
            "6 dice at a Pinned target in the open, no Pinned effects",
            firer("regular", 6, ""),
            target("regular", 4, 5, "open"),
            settings(&[("pinned_effects", "none")]),
            5,
        ),
        (
            "5 dice at a target already Broken",
            firer("green", 5, ""),
            target("regular", 4, 8, "light"),
            String::new(),
            4,
        ),
        (
            "5 dice moved and Pinned, round_up, at 3 figures in light cover",
            firer("green", 5, "moved = true\npinned = true"),
            target("elite", 3, 0, "light"),
            settings(&[("halved_firepower", "round_up")]),
            12,
        ),
    ];
    for (label, f, t, s, horizon) in grid {
        let range = if horizon % 2 == 0 { "close" } else { "effective" };
        cases.push((format!("phases {label}, {range}, horizon {horizon}"), shooting(range, &f, &t, &s, horizon)));
    }
}

fn force_morales(cases: &mut Cases) {
    let grid: [(&str, &[&str]); 8] = [
        ("quality = \"green\"", &["section_breaks", "senior_leader_killed"]),
        ("", &[]),
        ("quality = \"elite\"", &["team_breaks", "junior_leader_wounded", "support_unit_killed"]),
        ("starting = 3", &["section_wiped_out", "junior_leader_killed", "team_wiped_out", "jump_off_point_lost"]),
        ("starting = 1", &["team_wiped_out", "team_wiped_out"]),
        (
            "quality = \"green\"",
            &[
                "team_breaks",
                "team_breaks",
                "section_breaks",
                "junior_leader_routs",
                "senior_leader_wounded",
                "support_unit_routs",
            ],
        ),
        (
            "quality = \"regular\"",
            &[
                "friendly_loses_command_dice",
                "jump_off_point_lost",
                "platoon_destroyed_or_breaks",
                "support_unit_routs",
            ],
        ),
        ("starting = 11", &["senior_leader_routs", "senior_leader_routs", "senior_leader_routs"]),
    ];
    for (start, setbacks) in grid {
        let label = if start.is_empty() { "quality default" } else { start };
        cases.push((format!("fm {label}, {} setbacks", setbacks.len()), force_morale(start, setbacks)));
    }
}

fn grid() -> Cases {
    let mut cases = Vec::new();
    command_dice_hands(&mut cases);
    command_dice_platoons(&mut cases);
    chain_of_command_dice(&mut cases);
    turns(&mut cases);
    single_fire(&mut cases);
    fire_phases(&mut cases);
    force_morales(&mut cases);
    cases
}

// ---------------------------------------------------------------- the test

#[test]
fn monte_carlo_agrees_with_exact_on_a_chain_of_command_grid() {
    let cases = grid();
    assert!(cases.len() >= 60, "grid has {} cases", cases.len());
    let family = Family::run_all(&cases, grid_trials(TRIALS), SEED);
    // Every condition of a fired-at target and both ends of every horizon are reached
    // somewhere, and the zero-probability assertion is exercised, not vacuous.
    for outcome in ["steady", "pinned", "broken", "wiped_out", "within_horizon", "not_within_horizon"] {
        assert!(family.reached.contains(outcome), "no case reaches {outcome} in its first measure");
    }
    family.assert_agrees(FAMILY_ALPHA, 100);
}

#[test]
fn the_grid_spans_every_kind_reading_and_situation() {
    let cases = grid();
    let with = |s: &str| cases.iter().filter(|(_, t)| t.contains(s)).count();
    let both = |a: &str, b: &str| cases.iter().any(|(_, t)| t.contains(a) && t.contains(b));
    for kind in ["command_dice", "chain_of_command_die", "turn", "shooting", "shooting_phases", "force_morale"] {
        assert!(with(&format!("kind = \"{kind}\"")) >= 5, "fewer than 5 cases of kind {kind}");
    }
    for dice in (1..=8).chain([12]) {
        assert!(both("kind = \"command_dice\"", &format!("dice = {dice}\n")), "no command_dice hand of {dice} dice");
    }
    for policy in POLICIES {
        assert!(with(&format!("policy = \"{policy}\"")) >= 8, "too few hands under {policy}");
    }
    let mut readings: Vec<(&str, &[&str])> = vec![("shock_thresholds", &THRESHOLDS)];
    readings.extend(combat_odds_rules::chain_of_command::SETTINGS);
    for (setting, values) in readings {
        for value in values {
            assert!(with(&format!("{setting} = \"{value}\"")) >= 3, "too few cases read {setting} = {value}");
        }
    }
    for cover in COVERS {
        assert!(with(&format!("cover = \"{cover}\"")) >= 6, "too few fires at {cover} cover");
    }
    for band in BANDS {
        assert!(with(&format!("range = \"{band}\"")) >= 9, "too few fires at {band} range");
    }
    for quality in QUALITIES {
        assert!(with(&format!("quality = \"{quality}\"\nfirepower")) >= 3, "too few {quality} firers");
    }
    for key in [
        "red_dice = true",
        "elite = true",
        "force_morale = ",
        "superior_junior_leader = ",
        "inferior_senior_leader = ",
        "shock = 3\n",
        "moved = true",
        "pinned = true",
        "weapons = [",
        "starting = ",
        "quality = \"green\"\nsetbacks",
        "quality = \"elite\"\nsetbacks",
    ] {
        assert!(with(key) >= 1, "no case uses {key}");
    }
    // A target Pinned at the start under each Pinned-effects reading.
    for pinned in ["second_edition", "none"] {
        assert!(both("figures = 4\nshock = 5", &format!("pinned_effects = \"{pinned}\"")), "pinned target, {pinned}");
    }
}
