//! Exact Command Decision odds computed by hand from the General Reference Card
//! (seed 001) and the rules text (seed 000), checked against the exact engine.
//!
//! Every scenario uses the shipped tables and the illustrative catalogue
//! (rulesets/command-decision/catalogue.toml), or an inline `weapon_data` line where
//! a test needs a value the catalogue does not have. The arithmetic beside each
//! expectation starts from the chart values:
//!
//! * Hit Results Chart, Regular row: 1-3 no effect, 4-6 forced back, 7+ eliminated,
//!   so an unmodified effect d10 gives P(NE) = 3/10, P(FB) = 3/10, P(E) = 4/10.
//! * A die hits on a d10 at or below the modified hit number: P(hit) = n/10.
//! * With k independent dice, P(no elimination) = (1 - P(E per die))^k, and the
//!   worst result over all dice is what the target suffers.

use std::io::Write;

use crate::common::cli::experiment_outcome_row;
use crate::common::exact::{Exact, experiment_file, r};
use combat_odds_core::document::Document;

/// A direct fire scenario: `header` lines (range, phase), then one `[[firer]]` and the
/// `[target]`, each given as the body of its table.
fn one_firer(header: &str, firer: &str, target: &str) -> String {
    format!(
        "ruleset = \"command-decision\"\nkind = \"direct_fire\"\n{header}\n[[firer]]\n{firer}\n[target]\n{target}\n"
    )
}

/// A regular Sherman firing 75mm HE (H class) at 8 in., the medium band (hit 5, ROF 2),
/// at the target described by `target` (the body of a `[target]` table).
fn sherman_he_at(target: &str) -> String {
    one_firer("range = 8", "weapon = \"us_75mm_m3_he\"\nquality = \"regular\"\nmount = \"tank\"", target)
}

// ---------------------------------------------------------------------------
// Direct fire at personnel
// ---------------------------------------------------------------------------

#[test]
fn plain_personnel_target_in_the_open() {
    // Regular rifle platoon at 4 in.: medium band (4 in.), hit 4, ROF 4/3 -> 3 dice.
    let e = Exact::of(
        "open",
        &one_firer("range = 4", "weapon = \"rifle_platoon\"\nquality = \"regular\"", "quality = \"regular\""),
    );
    // Per die: P(hit) = 4/10. P(E) = 4/10 * 4/10 = 0.16; P(FB) = 4/10 * 3/10 = 0.12;
    // P(miss or NE) = 0.6 + 4/10 * 3/10 = 0.72.
    // P(kill) = 1 - 0.84^3 = 1 - 9261/15625 = 6364/15625.
    assert_eq!(e.p_kill(), r(6364, 15625));
    assert_eq!(e.p("target", "eliminated"), r(6364, 15625));
    // P(worst = NE) = 0.72^3 = (18/25)^3 = 5832/15625.
    assert_eq!(e.p("target", "no_effect"), r(5832, 15625));
    // P(worst = FB) = 0.84^3 - 0.72^3 = (9261 - 5832)/15625 = 3429/15625.
    assert_eq!(e.p("target", "forced_back"), r(3429, 15625));
    // Hits ~ Binomial(3, 2/5): 0 -> (3/5)^3 = 27/125; 1 -> 3*(2/5)(3/5)^2 = 54/125;
    // 2 -> 3*(2/5)^2(3/5) = 36/125; 3 -> (2/5)^3 = 8/125.
    assert_eq!(e.p("hits", "0"), r(27, 125));
    assert_eq!(e.p("hits", "1"), r(54, 125));
    assert_eq!(e.p("hits", "2"), r(36, 125));
    assert_eq!(e.p("hits", "3"), r(8, 125));
    // Small arms, no caliber: no ammo, no suppression, no passengers measures.
    assert!(!e.has("ammo") && !e.has("target_suppressed") && !e.has("passengers_eliminated"));
}

#[test]
fn light_cover_is_minus_one_to_small_arms() {
    // Same rifle platoon, target in light cover: hit 4 -1 = 3.
    let e = Exact::of(
        "light cover",
        &one_firer(
            "range = 4",
            "weapon = \"rifle_platoon\"\nquality = \"regular\"",
            "quality = \"regular\"\nmodifiers = [\"light_cover\"]",
        ),
    );
    // Per die: P(E) = 3/10 * 4/10 = 0.12 -> P(kill) = 1 - 0.88^3 = 1 - 10648/15625 = 4977/15625.
    assert_eq!(e.p_kill(), r(4977, 15625));
    // P(miss or NE) = 0.7 + 0.3*0.3 = 0.79 -> P(NE) = 0.79^3 = 493039/1000000.
    assert_eq!(e.p("target", "no_effect"), r(493039, 1_000_000));
    // P(FB) = 0.88^3 - 0.79^3 = 0.681472 - 0.493039 = 0.188433.
    assert_eq!(e.p("target", "forced_back"), r(188433, 1_000_000));
}

#[test]
fn he_ignores_light_cover() {
    // Regular Sherman firing 75mm HE (H class) at 8 in.: medium band (10 in.), hit 5, ROF 2.
    // Light cover is marked "*": HE ignores it, so the hit number stays 5.
    let e = Exact::of("he light cover", &sherman_he_at("quality = \"regular\"\nmodifiers = [\"light_cover\"]"));
    // Per die: P(E) = 5/10 * 4/10 = 0.2 -> P(kill) = 1 - 0.8^2 = 0.36 = 9/25.
    assert_eq!(e.p_kill(), r(9, 25));
    // P(0 hits) = (1/2)^2 = 1/4.
    assert_eq!(e.p("hits", "0"), r(1, 4));
    // Ammo: natural 1 then d10 <= 75/10 - 1 (tank) = 6: 1/10 * 6/10 = 0.06 per die;
    // P(depleted) = 1 - 0.94^2 = 0.1164 = 291/2500.
    assert_eq!(e.p("ammo", "depleted"), r(291, 2500));
    // General fire with HE does not suppress (only prep and op fire).
    assert!(!e.has("target_suppressed"));
}

#[test]
fn he_does_not_ignore_medium_cover() {
    // Same Sherman HE at 8 in.; medium cover has no "*": hit 5 -2 = 3.
    let e = Exact::of("he medium cover", &sherman_he_at("quality = \"regular\"\nmodifiers = [\"medium_cover\"]"));
    // Per die: P(E) = 3/10 * 4/10 = 0.12 -> P(kill) = 1 - 0.88^2 = 1 - 0.7744 = 0.2256 = 141/625.
    assert_eq!(e.p_kill(), r(141, 625));
    // P(0 hits) = 0.7^2 = 49/100.
    assert_eq!(e.p("hits", "0"), r(49, 100));
}

#[test]
fn two_firers_at_a_stand_in_light_cover() {
    // experiments/cd_infantry_in_cover.toml, range 3 in., light cover -1 to both:
    // HMG close band (4 in.) hit 6 -1 = 5, ROF 3; rifle medium band (4 in.) hit 4 -1 = 3, ROF 3.
    let e = Exact::from_doc(&experiment_file("cd_infantry_in_cover.toml"));
    // HMG die: P(E) = 0.5 * 0.4 = 0.2; rifle die: P(E) = 0.3 * 0.4 = 0.12.
    // P(kill) = 1 - 0.8^3 * 0.88^3 = 1 - (64/125)(10648/15625) = 1 - 681472/1953125 = 1271653/1953125.
    assert_eq!(e.p_kill(), r(1271653, 1953125));
    // P(0 hits) = 0.5^3 * 0.7^3 = 0.125 * 0.343 = 0.042875 = 343/8000.
    assert_eq!(e.p("hits", "0"), r(343, 8000));
    // P(6 hits) = 0.5^3 * 0.3^3 = 0.125 * 0.027 = 27/8000.
    assert_eq!(e.p("hits", "6"), r(27, 8000));
}

#[test]
fn elite_firer_gets_rof_plus_one_and_hit_plus_one() {
    // Elite rifle platoon at 4 in.: ROF 3 +1 elite = 4 dice; hit 4 +1 veteran/elite = 5.
    let e = Exact::of(
        "elite",
        &one_firer("range = 4", "weapon = \"rifle_platoon\"\nquality = \"elite\"", "quality = \"regular\""),
    );
    // Per die: P(E) = 5/10 * 4/10 = 0.2 -> P(kill) = 1 - 0.8^4 = 1 - 0.4096 = 0.5904 = 369/625.
    assert_eq!(e.p_kill(), r(369, 625));
    // Four dice: P(4 hits) = (1/2)^4 = 1/16, and the hits measure runs 0..=4.
    assert_eq!(e.p("hits", "4"), r(1, 16));
}

#[test]
fn opportunity_fire_gets_rof_plus_one() {
    // Regular rifle platoon at 4 in. in the Opportunity Fire phase: ROF 3 +1 op fire = 4, hit 4.
    let e = Exact::of(
        "op fire",
        &one_firer(
            "phase = \"opportunity\"\nrange = 4",
            "weapon = \"rifle_platoon\"\nquality = \"regular\"",
            "quality = \"regular\"",
        ),
    );
    // Per die P(E) = 0.16 -> P(kill) = 1 - 0.84^4 = 1 - (21/25)^4 = 1 - 194481/390625 = 196144/390625.
    assert_eq!(e.p_kill(), r(196144, 390625));
    // P(0 hits) = 0.6^4 = 0.1296 = 81/625.
    assert_eq!(e.p("hits", "0"), r(81, 625));
    // Small arms ("-") in op fire do not suppress: only H class or HC.
    assert!(!e.has("target_suppressed"));
}

#[test]
fn opportunity_fire_with_he_suppresses_the_target() {
    // experiments/cd_op_fire_he.toml: Sherman HE at 8 in. in op fire, target in light cover.
    // Hit 5 (light cover ignored by HE), ROF 2 +1 op fire = 3.
    let e = Exact::from_doc(&experiment_file("cd_op_fire_he.toml"));
    // Per die P(E) = 0.5 * 0.4 = 0.2 -> P(kill) = 1 - 0.8^3 = 0.488 = 61/125.
    assert_eq!(e.p_kill(), r(61, 125));
    // P(worst NE) = (0.5 + 0.5*0.3)^3 = 0.65^3 = 0.274625 = 2197/8000.
    assert_eq!(e.p("target", "no_effect"), r(2197, 8000));
    // H class in op fire: the target is suppressed, hit or not -> P(yes) = 1.
    assert_eq!(e.p("target_suppressed", "yes"), r(1, 1));
    // Ammo: 0.06 per die over 3 dice: 1 - 0.94^3 = 1 - 0.830584 = 0.169416 = 21177/125000.
    assert_eq!(e.p("ammo", "depleted"), r(21177, 125000));
}

#[test]
fn out_of_range_beyond_extreme_has_no_effect() {
    // Rifle platoon extreme band ends at 8 in.; at 9 in. the fire is carried out with no effect.
    let beyond = Exact::of(
        "beyond extreme",
        &one_firer("range = 9", "weapon = \"rifle_platoon\"\nquality = \"regular\"", "quality = \"regular\""),
    );
    // No die can hit: P(kill) = 0, P(0 hits) = 1.
    assert_eq!(beyond.p_kill(), r(0, 1));
    assert_eq!(beyond.p("hits", "0"), r(1, 1));
    assert_eq!(beyond.p("target", "no_effect"), r(1, 1));
    // At exactly 8 in. the extreme band applies: hit 2, ROF 3.
    let at_extreme = Exact::of(
        "at extreme",
        &one_firer("range = 8", "weapon = \"rifle_platoon\"\nquality = \"regular\"", "quality = \"regular\""),
    );
    // Per die P(E) = 0.2 * 0.4 = 0.08 -> 1 - 0.92^3 = 1 - 12167/15625 = 3458/15625.
    assert_eq!(at_extreme.p_kill(), r(3458, 15625));
}

#[test]
fn op_fire_with_he_out_of_range_neither_hits_nor_suppresses_but_still_checks_ammo() {
    // Seed 000, Range and Line of Sight: "If the weapon is out of range, then the fire is
    // carried out, but has no effect on the intended target." The Sherman's HE reaches
    // 40 in.; at 41 in. in op fire no die hits and the target is not suppressed.
    let e = Exact::of(
        "HE op fire beyond extreme",
        &one_firer(
            "range = 41\nphase = \"opportunity\"",
            "weapon = \"us_75mm_m3_he\"\nquality = \"regular\"\nmount = \"tank\"",
            "quality = \"regular\"",
        ),
    );
    assert_eq!(e.p("hits", "0"), r(1, 1));
    assert_eq!(e.p("target", "no_effect"), r(1, 1));
    assert!(!e.has("target_suppressed"), "no effect on the target: not suppressed either");
    // The firer's ammunition is still spent: ROF 2 +1 op fire = 3 dice, each a natural 1
    // (1/10) then a d10 at or below 75/10 = 7 -1 tank = 6 (6/10): 0.06 a die.
    // 1 - 0.94^3 = 0.169416 = 21177/125000.
    assert_eq!(e.p("ammo", "depleted"), r(21177, 125000));
}

// ---------------------------------------------------------------------------
// Fire at AFVs
// ---------------------------------------------------------------------------

#[test]
fn weapon_with_no_anti_armour_value_cannot_harm_an_afv() {
    // Regular HMG platoon at 4 in. (close band, hit 6, anti-armour "-") at a Sherman.
    let e = Exact::of(
        "hmg vs sherman",
        &one_firer(
            "range = 4",
            "weapon = \"hmg_platoon\"\nquality = \"regular\"",
            "vehicle = \"m4_sherman\"\nquality = \"regular\"",
        ),
    );
    // Hits happen (ROF 3 at 6/10) but do nothing: P(kill) = 0, P(no effect) = 1.
    assert_eq!(e.p_kill(), r(0, 1));
    assert_eq!(e.p("target", "forced_back"), r(0, 1));
    assert_eq!(e.p("target", "no_effect"), r(1, 1));
    // P(3 hits) = 0.6^3 = 27/125; P(0 hits) = 0.4^3 = 8/125.
    assert_eq!(e.p("hits", "3"), r(27, 125));
    assert_eq!(e.p("hits", "0"), r(8, 125));
}

#[test]
fn h_class_against_a_strong_afv_pays_its_weight_class() {
    // Regular Sherman HE at 8 in.: medium band hit 5, H class.
    // vs a Sherman (strong, weight class 3): 5 - 3 = 2.
    let sherman = Exact::of("he vs sherman", &sherman_he_at("vehicle = \"m4_sherman\"\nquality = \"regular\""));
    // H class is not a numeric anti-armour value: the effect d10 is unmodified on the
    // Regular row, P(E | hit) = 4/10. Per die P(E) = 2/10 * 4/10 = 0.08;
    // P(kill) = 1 - 0.92^2 = 1 - 0.8464 = 0.1536 = 96/625.
    assert_eq!(sherman.p_kill(), r(96, 625));
    // P(0 hits) = 0.8^2 = 16/25.
    assert_eq!(sherman.p("hits", "0"), r(16, 25));
    // vs a Panther (strong, weight class 4): 5 - 4 = 1. Per die 0.1 * 0.4 = 0.04;
    // P(kill) = 1 - 0.96^2 = 0.0784 = 49/625.
    let panther = Exact::of("he vs panther", &sherman_he_at("vehicle = \"panther_g\"\nquality = \"regular\""));
    assert_eq!(panther.p_kill(), r(49, 625));
    // vs the M3 half-track (weak, weight class 1): 5 +1 H vs weak AFV -1 weight = 5.
    // Per die 0.5 * 0.4 = 0.2 -> 1 - 0.8^2 = 9/25.
    let halftrack = Exact::of("he vs halftrack", &sherman_he_at("vehicle = \"m3_halftrack\"\nquality = \"regular\""));
    assert_eq!(halftrack.p_kill(), r(9, 25));
}

#[test]
fn natural_ten_on_a_penetration_roll_close_range_vs_other_ranges() {
    // An inline light AT gun with penetration 2 on every band, against a Panther's front
    // armour 9: effect d10 + 2 - 9 = d10 - 7, so faces 1..10 read -6..3, all "no effect"
    // on the Regular row (1-3). Only the natural-10 footnote can do anything.
    let scenario = |range: u32| {
        format!(
            r#"
ruleset = "command-decision"
kind = "direct_fire"
range = {range}
[[firer]]
quality = "regular"
mount = "towed"
[firer.weapon_data]
label = "light AT gun (test)"
rof = 1
close = {{ range = 2, hit = 6, anti_armour = 2 }}
medium = {{ range = 10, hit = 5, anti_armour = 2 }}
long = {{ range = 20, hit = 4, anti_armour = 2 }}
extreme = {{ range = 30, hit = 3, anti_armour = 2 }}
[target]
vehicle = "panther_g"
quality = "regular"
aspect = "front"
"#
        )
    };
    // Close range (2 in.): hit 6; a natural 10 eliminates: P(E) = 6/10 * 1/10 = 6/100 = 3/50.
    let close = Exact::of("natural 10 close", &scenario(2));
    assert_eq!(close.p_kill(), r(3, 50));
    assert_eq!(close.p("target", "forced_back"), r(0, 1));
    assert_eq!(close.p("target", "no_effect"), r(47, 50));
    // Medium range (8 in.): hit 5; a natural 10 is at least forced back, and the modified
    // roll (3) is no effect, so it is exactly forced back: P(FB) = 5/10 * 1/10 = 1/20, P(E) = 0.
    let medium = Exact::of("natural 10 medium", &scenario(8));
    assert_eq!(medium.p_kill(), r(0, 1));
    assert_eq!(medium.p("target", "forced_back"), r(1, 20));
    assert_eq!(medium.p("target", "no_effect"), r(19, 20));
}

#[test]
fn ammo_depletion_for_a_75mm_tank_gun() {
    // Regular Sherman 75mm AP at 8 in. at a regular Pz IV front: medium band hit 5, pen 5,
    // ROF 2. Effect d10 + 5 - 6 = d10 - 1: faces 1-4 -> 0-3 NE, 5-7 -> 4-6 FB, 8-10 -> 7-9 E.
    let tank = Exact::of(
        "75mm tank",
        &one_firer(
            "range = 8",
            "weapon = \"us_75mm_m3\"\nquality = \"regular\"\nmount = \"tank\"",
            "vehicle = \"pz_iv_h\"\nquality = \"regular\"",
        ),
    );
    // Per die P(E) = 5/10 * 3/10 = 0.15 -> P(kill) = 1 - 0.85^2 = 1 - 0.7225 = 0.2775 = 111/400.
    assert_eq!(tank.p_kill(), r(111, 400));
    // Ammo: a natural 1 (1/10) then a d10 <= 75/10 = 7, -1 tank = 6 (6/10): 0.06 per die;
    // two dice: P(depleted) = 1 - 0.94^2 = 1 - 0.8836 = 0.1164 = 291/2500.
    assert_eq!(tank.p("ammo", "depleted"), r(291, 2500));
    assert_eq!(tank.p("ammo", "not_depleted"), r(2209, 2500));
    // The same gun on an armoured car: 7 +1 = 8 -> 0.08 per die; 1 - 0.92^2 = 0.1536 = 96/625.
    let car = Exact::of(
        "75mm armoured car",
        &one_firer(
            "range = 8",
            "weapon = \"us_75mm_m3\"\nquality = \"regular\"\nmount = \"armoured_car\"",
            "vehicle = \"pz_iv_h\"\nquality = \"regular\"",
        ),
    );
    assert_eq!(car.p("ammo", "depleted"), r(96, 625));
}

#[test]
fn passengers_of_an_eliminated_vehicle_each_take_a_hit() {
    // Regular Sherman 75mm AP at 8 in. at an M3 half-track (front armour 1) carrying two
    // regular stands. Medium band hit 5, pen 5, ROF 2. Effect d10 + 5 - 1 = d10 + 4:
    // faces 1-2 -> 5-6 FB, faces 3-10 -> 7-14 E.
    let e = Exact::of(
        "passengers",
        r#"
ruleset = "command-decision"
kind = "direct_fire"
range = 8
[[firer]]
weapon = "us_75mm_m3"
quality = "regular"
mount = "tank"
[target]
vehicle = "m3_halftrack"
quality = "regular"
[[target.passengers]]
quality = "regular"
stands = 2
"#,
    );
    // Per die: P(E) = 0.5 * 0.8 = 0.4, P(FB) = 0.5 * 0.2 = 0.1, P(miss) = 0.5.
    // P(vehicle E) = 1 - 0.6^2 = 0.64 = 16/25; P(worst FB) = 0.6^2 - 0.5^2 = 0.11; P(NE) = 0.25.
    assert_eq!(e.p_kill(), r(16, 25));
    assert_eq!(e.p("target", "forced_back"), r(11, 100));
    assert_eq!(e.p("target", "no_effect"), r(1, 4));
    // Only on elimination, each passenger rolls on the Regular row: E 4/10, FB 3/10, NE 3/10.
    // 2 eliminated: 0.64 * 0.4^2 = 0.1024 = 64/625.
    // 1 eliminated: 0.64 * 2 * 0.4 * 0.6 = 0.3072 = 192/625.
    // 0 eliminated: 1 - 0.1024 - 0.3072 = 0.5904 = 369/625 (includes the vehicle surviving).
    assert_eq!(e.p("passengers_eliminated", "2"), r(64, 625));
    assert_eq!(e.p("passengers_eliminated", "1"), r(192, 625));
    assert_eq!(e.p("passengers_eliminated", "0"), r(369, 625));
    // Forced back by their own roll after the vehicle is eliminated: 2 with 0.64 * 0.3^2 =
    // 0.0576 = 36/625; 1 with 0.64 * 2 * 0.3 * 0.7 = 0.2688 = 168/625. And both are
    // carried back whenever the vehicle is forced back (seed 000, Passengers: "the
    // passengers stay with the vehicle and are forced back with the vehicle"):
    // 2 forced back = 0.0576 + 0.11 = 0.1676 = 419/2500.
    assert_eq!(e.p("passengers_forced_back", "2"), r(419, 2500));
    assert_eq!(e.p("passengers_forced_back", "1"), r(168, 625));
    // None forced back: 1 - 0.1676 - 0.2688 = 0.5636 = 1409/2500.
    assert_eq!(e.p("passengers_forced_back", "0"), r(1409, 2500));
}

#[test]
fn close_assault_by_engineers_destroys_without_an_effect_roll() {
    // experiments/cd_close_assault.toml: veteran engineers in contact with a Panther.
    // Close band hit 6, A class; ROF 4 (close assault) capped at 1 for personnel CA vs AFV.
    // Hit 6 +1 veteran -2 A class vs strong AFV = 5.
    let engineers = Exact::from_doc(&experiment_file("cd_close_assault.toml"));
    // Engineer hit destroys the AFV: P(kill) = P(hit) = 5/10 = 1/2; never forced back.
    assert_eq!(engineers.p_kill(), r(1, 2));
    assert_eq!(engineers.p("target", "forced_back"), r(0, 1));
    assert_eq!(engineers.p("hits", "1"), r(1, 2));
    // The same stand without the engineer role rolls the effect normally on the crew's
    // Regular row (A class has no numeric penetration): 1/2 * 4/10 = 1/5 eliminated,
    // 1/2 * 3/10 = 3/20 forced back.
    let infantry = Exact::of(
        "close assault, no role",
        &one_firer(
            "close_assault = true",
            "weapon = \"engineer_platoon\"\nquality = \"veteran\"",
            "vehicle = \"panther_g\"\nquality = \"regular\"",
        ),
    );
    assert_eq!(infantry.p_kill(), r(1, 5));
    assert_eq!(infantry.p("target", "forced_back"), r(3, 20));
}

// ---------------------------------------------------------------------------
// Indirect fire
// ---------------------------------------------------------------------------

#[test]
fn idf_organic_veteran_mortars_at_a_moving_target() {
    // Two veteran 81mm mortar stands, organic, observed (not self-observed), at a regular
    // stand moving in the open. Response: organic 5 +1 veteran = 6 -> d10 <= 6: 6/10.
    // Moving target: one attack per stand (not ROF 2) -> 2 attacks at HE 4 (no modifiers).
    let e = Exact::of(
        "idf moving",
        r#"
ruleset = "command-decision"
kind = "indirect_fire"
[artillery]
weapon = "us_81mm_mortar"
quality = "veteran"
artillery = "organic"
stands = 2
[target]
quality = "regular"
moving = true
"#,
    );
    assert_eq!(e.p("mission", "arrived"), r(3, 5));
    // Suppressed whenever the mission arrives: 3/5.
    assert_eq!(e.p("target_suppressed", "yes"), r(3, 5));
    // Per attack P(E) = 4/10 * 4/10 = 0.16; P(kill) = 0.6 * (1 - 0.84^2) = 0.6 * 0.2944
    // = 0.17664 = 552/3125.
    assert_eq!(e.p_kill(), r(552, 3125));
    // Hits: P(2) = 0.6 * 0.4^2 = 0.096 = 12/125; P(1) = 0.6 * 2 * 0.4 * 0.6 = 0.288 = 36/125;
    // P(0) = 0.4 + 0.6 * 0.36 = 0.616 = 77/125 (the 2-attack measure proves one attack per stand).
    assert_eq!(e.p("hits", "2"), r(12, 125));
    assert_eq!(e.p("hits", "1"), r(36, 125));
    assert_eq!(e.p("hits", "0"), r(77, 125));
    // Ammo (81mm, not a tank or armoured car): natural 1 then d10 <= 8: 0.08 per attack;
    // P(depleted) = 0.6 * (1 - 0.92^2) = 0.6 * 0.1536 = 0.09216 = 288/3125.
    assert_eq!(e.p("ammo", "depleted"), r(288, 3125));

    // The same mission at a stationary target: 2 stands x ROF 2 = 4 attacks.
    // P(kill) = 0.6 * (1 - 0.84^4) = 3/5 * 196144/390625 = 588432/1953125.
    let stationary = Exact::of(
        "idf stationary",
        r#"
ruleset = "command-decision"
kind = "indirect_fire"
[artillery]
weapon = "us_81mm_mortar"
quality = "veteran"
artillery = "organic"
stands = 2
[target]
quality = "regular"
"#,
    );
    assert_eq!(stationary.p_kill(), r(588432, 1953125));
}

#[test]
fn idf_supporting_battery_at_a_stand_in_medium_cover() {
    // experiments/cd_idf_mission.toml: regular supporting 105mm battery, observed.
    // Response: supporting 3, no quality modifier -> d10 <= 3: 3/10.
    // HE 5 -2 medium cover = 3; stationary target: ROF 2 attacks.
    let e = Exact::from_doc(&experiment_file("cd_idf_mission.toml"));
    assert_eq!(e.p("mission", "arrived"), r(3, 10));
    assert_eq!(e.p("mission", "no_response"), r(7, 10));
    // Per attack P(E) = 3/10 * 4/10 = 0.12; P(kill) = 0.3 * (1 - 0.88^2) = 0.3 * 0.2256
    // = 0.06768 = 423/6250.
    assert_eq!(e.p_kill(), r(423, 6250));
    // Ammo: 105/10 = 10, so any natural 1 depletes: 0.1 per attack;
    // P(depleted) = 0.3 * (1 - 0.9^2) = 0.3 * 0.19 = 0.057 = 57/1000.
    assert_eq!(e.p("ammo", "depleted"), r(57, 1000));
    assert_eq!(e.p("target_suppressed", "yes"), r(3, 10));
}

#[test]
fn idf_trained_self_observed_needs_no_response_roll() {
    // A self-observed mortar has no Artillery Response roll, so quality does not matter to
    // arrival and no mission measure is reported. 81mm HE 4 at a regular stand, ROF 2.
    let e = Exact::of(
        "idf self-observed",
        r#"
ruleset = "command-decision"
kind = "indirect_fire"
[artillery]
weapon = "us_81mm_mortar"
quality = "trained"
artillery = "organic"
self_observed = true
[target]
quality = "regular"
"#,
    );
    assert!(!e.has("mission"));
    // P(kill) = 1 - 0.84^2 = 0.2944 = 184/625; suppressed with certainty.
    assert_eq!(e.p_kill(), r(184, 625));
    assert_eq!(e.p("target_suppressed", "yes"), r(1, 1));
}

// ---------------------------------------------------------------------------
// Morale
// ---------------------------------------------------------------------------

#[test]
fn company_morale_with_losses_and_an_enemy_afv_near() {
    // experiments/cd_company_morale.toml: morale 7 -1 (1 forced back) -2 (1 eliminated)
    // -2 (AFV within 12") +2 (in cover) = 4.
    let e = Exact::from_doc(&experiment_file("cd_company_morale.toml"));
    // d10 <= 4 passes: 4/10. Exceed 1-2 (5, 6) pinned 2/10; 3-4 (7, 8) shaken 2/10;
    // 5-6 (9, 10) demoralized 2/10; 7+ impossible (at most 10 - 4 = 6).
    assert_eq!(e.p("company", "passed"), r(2, 5));
    assert_eq!(e.p("company", "pinned"), r(1, 5));
    assert_eq!(e.p("company", "shaken"), r(1, 5));
    assert_eq!(e.p("company", "demoralized"), r(1, 5));
    assert_eq!(e.p("company", "eliminated"), r(0, 1));
    assert_eq!(e.p_kill(), r(0, 1));
    // Shaken and demoralized force the company back: 4/10.
    assert_eq!(e.p("forced_back", "yes"), r(2, 5));
}

#[test]
fn shaken_company_morale_spans_every_result() {
    // Morale 5, status shaken -3 (the card's -3 includes the pin) = 2.
    let e = Exact::of(
        "shaken",
        r#"
ruleset = "command-decision"
kind = "morale"
[company]
morale = 5
status = "shaken"
"#,
    );
    // Faces 1-2 pass (2/10); 3-4 exceed by 1-2 pinned; 5-6 exceed 3-4 shaken;
    // 7-8 exceed 5-6 demoralized; 9-10 exceed 7-8 eliminated: 2/10 each.
    assert_eq!(e.p("company", "passed"), r(1, 5));
    assert_eq!(e.p("company", "pinned"), r(1, 5));
    assert_eq!(e.p("company", "shaken"), r(1, 5));
    assert_eq!(e.p("company", "demoralized"), r(1, 5));
    assert_eq!(e.p("company", "eliminated"), r(1, 5));
    // The kill outcome of a morale check is "eliminated": 1/5.
    assert_eq!(e.p_kill(), r(1, 5));
    // Forced back: shaken + demoralized = 4/10.
    assert_eq!(e.p("forced_back", "yes"), r(2, 5));
}

#[test]
fn pinned_company_with_personnel_near() {
    // Morale 8, pinned -2, enemy personnel within 12" -1, 2 stands forced back -2 = 3.
    let e = Exact::of(
        "pinned",
        r#"
ruleset = "command-decision"
kind = "morale"
[company]
morale = 8
status = "pinned"
stands_forced_back = 2
modifiers = ["enemy_personnel_within_12"]
"#,
    );
    // Faces 1-3 pass 3/10; 4-5 pinned 2/10; 6-7 shaken 2/10; 8-9 demoralized 2/10;
    // 10 exceeds by 7: eliminated 1/10.
    assert_eq!(e.p("company", "passed"), r(3, 10));
    assert_eq!(e.p("company", "pinned"), r(1, 5));
    assert_eq!(e.p("company", "shaken"), r(1, 5));
    assert_eq!(e.p("company", "demoralized"), r(1, 5));
    assert_eq!(e.p("company", "eliminated"), r(1, 10));
}

// ---------------------------------------------------------------------------
// The experiment files run through the binary, with a scenario file on disk.
// ---------------------------------------------------------------------------

#[test]
fn every_experiment_file_runs_through_the_binary() {
    // (file, hand-computed exact p_kill fraction of the primary measure's "eliminated")
    let cases = [
        ("cd_infantry_in_cover.toml", "eliminated", "1271653/1953125"),
        ("cd_idf_mission.toml", "eliminated", "423/6250"),
        ("cd_company_morale.toml", "passed", "2/5"),
        ("cd_close_assault.toml", "eliminated", "1/2"),
        ("cd_op_fire_he.toml", "eliminated", "61/125"),
    ];
    for (file, outcome, fraction) in cases {
        let row = experiment_outcome_row(file, 20_000, outcome);
        assert_eq!(row["exact_fraction"], fraction, "{file}");
    }
}

#[test]
fn a_scenario_written_to_a_temporary_file() {
    // Regular HMG platoon at 6 in. (medium band, hit 5, ROF 3) at a green stand:
    // Green row 1 NE, 2-5 FB, 6+ E -> P(E | hit) = 5/10. Per die 0.5 * 0.5 = 0.25;
    // P(kill) = 1 - 0.75^3 = 1 - 27/64 = 37/64.
    let mut file = tempfile::Builder::new().suffix(".toml").tempfile().expect("temp file");
    write!(
        file,
        "{}",
        one_firer("range = 6", "weapon = \"hmg_platoon\"\nquality = \"regular\"", "quality = \"green\"")
    )
    .expect("write");
    let e = Exact::from_doc(&Document::read(file.path()).expect("read back"));
    assert_eq!(e.p_kill(), r(37, 64));
    // P(worst NE) = (0.5 + 0.5 * 0.1)^3 = 0.55^3 = 0.166375 = 1331/8000.
    assert_eq!(e.p("target", "no_effect"), r(1331, 8000));
}

#[test]
fn disengage_take_command_and_rally_orders_fire_only_in_contact_at_minus_two() {
    // Seed 001, Orders Summary: Disengage, Take Command and Rally/Regroup fire "Yes(-2)*"
    // in general fire, "* May only fire if in physical contact". A regular rifle
    // platoon in close assault: ROF 4 (4/3), the closest band's hit number 5.
    let assault = |order: &str| {
        Exact::of(
            &format!("close assault {order}"),
            &one_firer(
                "close_assault = true",
                &format!("weapon = \"rifle_platoon\"\nquality = \"regular\"\nmodifiers = [{order}]"),
                "quality = \"regular\"",
            ),
        )
    };
    // No order: per die 5/10 hits x 4/10 eliminates (Regular 7+) = 1/5;
    // 1 - (4/5)^4 = 1 - 256/625 = 369/625.
    assert_eq!(assault("").p_kill(), r(369, 625));
    // Under orders: hit 5 - 2 = 3: per die 3/10 x 4/10 = 3/25; 1 - (22/25)^4 =
    // 1 - 234256/390625 = 156369/390625.
    for order in ["\"disengage\"", "\"take_command\"", "\"rally_regroup\""] {
        assert_eq!(assault(order).p_kill(), r(156369, 390625), "{order}");
    }
}
