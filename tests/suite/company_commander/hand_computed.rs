//! Exact Company Commander odds computed by hand from the seed's tables (seed 003),
//! checked against the exact engine.
//!
//! Every scenario uses the shipped tables (rulesets/company-commander/), the
//! illustrative catalogue, or an inline `[[firer.weapon_data]]` where a test needs a
//! weapon the catalogue does not carry. The arithmetic beside each expectation starts
//! from the printed cells:
//!
//! * To hit ("Find the number of hits"): ballistic score 5 plus modifiers; a d10 at or
//!   under it hits, a natural 1 always hits and a natural 10 always misses, so
//!   P(hit) = clamp(score, 1, 9)/10. Range bands are range / max range in whole hexes.
//! * Armour: AV = penetration at the range; NPV = AV - (armour + d6); > 0 penetrating,
//!   0 glancing, < 0 no effect. Then a d100 against the AP row (2: 17, 3: 33, 4: 66,
//!   5: 83, 6: 100), +1 AP against a vulnerable (suppressed, open topped) target.
//!   Glancing: success suppresses; penetrating: success damages, failure suppresses.
//! * Non-armoured: a d6 at or under the cover save value ignores the hit (front line +1,
//!   soft +1, hard/entrenchment +2, fortification +3), then a d6 against the weapon
//!   strength S (default reading: <= S damaged, S + 1 suppressed, higher no effect).
//! * Suppressed again is damaged; damage at strength 1 destroys; a fire action stops
//!   at destruction.

use crate::common::exact::{Exact, experiment_file, r};

/// A scenario of `kind` at `range` hexes: `firer` is the body of `[firer]` (and any
/// `[[firer.weapon_data]]` tables after it), `target` the body of `[target]`,
/// `settings` the body of `[settings]` (may be empty).
fn fire(kind: &str, range: u32, firer: &str, target: &str, settings: &str) -> String {
    format!(
        "ruleset = \"company-commander\"\nkind = \"{kind}\"\nrange = {range}\n\n[settings]\n{settings}\n\n[firer]\n{firer}\n\n[target]\n{target}\n"
    )
}

/// A direct fire scenario.
fn direct(range: u32, firer: &str, target: &str, settings: &str) -> String {
    fire("direct_fire", range, firer, target, settings)
}

/// A firer with one inline weapon: `mode` is the `direct = { ... }` (or `indirect`)
/// line, `flags` the weapon's flag lines, `extra` more `[firer]` lines.
fn inline(extra: &str, mode: &str, flags: &str) -> String {
    format!("{extra}\n\n[[firer.weapon_data]]\n{mode}\n{flags}\n")
}

/// A close assault by `assault` (the body of `[assault]`) on `target`.
fn assault(assault: &str, target: &str, settings: &str) -> String {
    format!(
        "ruleset = \"company-commander\"\nkind = \"close_assault\"\n\n[settings]\n{settings}\n\n[assault]\n{assault}\n\n[target]\n{target}\n"
    )
}

/// Anti-aircraft fire: `firers` is one or more `[[aa_firer]]` tables.
fn aa(firers: &str, aircraft: &str) -> String {
    format!("ruleset = \"company-commander\"\nkind = \"anti_aircraft\"\n\n{firers}\n[aircraft]\n{aircraft}\n")
}

// ---------------------------------------------------------------------------
// Direct fire at armour
// ---------------------------------------------------------------------------

#[test]
fn one_shot_at_armour_splits_the_defence_d6_into_penetrating_glancing_and_no_effect() {
    // The seed's example weapon (Range 2 8, Penetration 9 5), AP 4, one attack, at 2
    // hexes: AV 9 (the minimum-range value). Range 2/8 = 25%: no band modifier; both
    // units experienced: score 5 -> 1..5 = 5/10.
    let at = |facing: &str, strength: u32| {
        Exact::of(
            &format!("example gun {facing} {strength}"),
            &direct(
                2,
                "weapons = [\"seed_example_gun\"]",
                &format!("armour = {{ front = 6, side = 3, rear = 2 }}\nstrength = {strength}\n{facing}"),
                "",
            ),
        )
    };
    // Front armour 6: NPV = 9 - (6 + d6) = 3 - d6: d6 1-2 penetrating (2/6), 3 glancing
    // (1/6), 4-6 no effect (3/6). AP 4 succeeds on d100 <= 66.
    let front = at("facing = \"front\"", 2);
    assert_eq!(front.kill_names(), ("target", "destroyed"));
    // Damaged: 5/10 * 2/6 * 66/100 = 660/6000 = 11/100.
    assert_eq!(front.p("target", "damaged"), r(11, 100));
    assert_eq!(front.p("final_state", "strength_1"), r(11, 100));
    assert_eq!(front.p("strength_lost", "1"), r(11, 100));
    // Suppressed: penetrating failure 2/6 * 34/100 plus glancing success 1/6 * 66/100,
    // times 5/10: 5/10 * (68 + 66)/600 = 670/6000 = 67/600.
    assert_eq!(front.p("target", "suppressed"), r(67, 600));
    assert_eq!(front.p("final_state", "strength_2_suppressed"), r(67, 600));
    // No effect: miss 300/600 + hit, NPV < 0: 150/600 + glancing failure 5/10 * 1/6 *
    // 34/100 = 17/600: 467/600.
    assert_eq!(front.p("target", "no_effect"), r(467, 600));
    assert_eq!(front.p("target", "destroyed"), r(0, 1));
    assert_eq!(front.p("hits", "1"), r(1, 2));

    // The same shot at a strength 1 target: the damage destroys it, 11/100.
    let one = at("facing = \"front\"", 1);
    assert_eq!(one.p_kill(), r(11, 100));
    assert_eq!(one.p("target", "damaged"), r(0, 1));
    assert_eq!(one.p("target", "suppressed"), r(67, 600));

    // Side armour 3: NPV = 6 - d6: 1-5 penetrating (5/6), 6 glancing (1/6).
    // Damaged: 5/10 * 5/6 * 66/100 = 1650/6000 = 11/40.
    // Suppressed: 5/10 * (5/6 * 34/100 + 1/6 * 66/100) = 5/10 * 236/600 = 59/300.
    let side = at("facing = \"side\"", 2);
    assert_eq!(side.p("target", "damaged"), r(11, 40));
    assert_eq!(side.p("target", "suppressed"), r(59, 300));

    // Rear armour 2: NPV = 7 - d6 >= 1: always penetrating.
    // Damaged: 5/10 * 66/100 = 33/100; suppressed: 5/10 * 34/100 = 17/100.
    // A bearing of 120 degrees off the nose is exactly on the rear arc's edge (180 - 120
    // = 60 = half of 120) and so strikes the rear.
    for facing in ["facing = \"rear\"", "bearing = 120"] {
        let rear = at(facing, 2);
        assert_eq!(rear.p("target", "damaged"), r(33, 100), "{facing}");
        assert_eq!(rear.p("target", "suppressed"), r(17, 100), "{facing}");
    }
}

#[test]
fn heat_penetration_is_the_same_at_every_range_while_the_range_band_changes() {
    // An inline HEAT weapon, range 1-10, penetration 10 at all ranges, AP 5 (83), at a
    // Panther's side armour 6: NPV = 10 - (6 + d6) = 4 - d6: 1-3 penetrating (3/6),
    // 4 glancing (1/6).
    let heat = |range: u32| {
        Exact::of(
            &format!("heat {range}"),
            &direct(
                range,
                &inline(
                    "",
                    "direct = { stationary_rof = 1, moving_rof = 1, range = [1, 10], penetration = 10, ap = 5, strength = 2 }",
                    "heat = true",
                ),
                "vehicle = \"panther\"\nfacing = \"side\"",
                "",
            ),
        )
    };
    // 2 hexes = 20% of 10: +1 -> score 6 -> 6/10.
    // Destroyed (strength 1): 6/10 * 3/6 * 83/100 = 1494/6000 = 249/1000.
    // Suppressed: 6/10 * (3/6 * 17/100 + 1/6 * 83/100) = 6/10 * 134/600 = 804/6000 = 67/500.
    let near = heat(2);
    assert_eq!(near.p_kill(), r(249, 1000));
    assert_eq!(near.p("target", "suppressed"), r(67, 500));
    // 10 hexes = 100% (> 80%): -3 -> score 2 -> 2/10; the same AV 10.
    // Destroyed: 2/10 * 3/6 * 83/100 = 498/6000 = 83/1000; suppressed: 268/6000 = 67/1500.
    let far = heat(10);
    assert_eq!(far.p_kill(), r(83, 1000));
    assert_eq!(far.p("target", "suppressed"), r(67, 1500));

    // The catalogue Bazooka (HEAT, range 1-2, penetration 10, AP 4 = 66) at the same
    // side armour: the same 3/6 penetrating. 1 hex = 50% of 2 (> 40%, <= 60%): -1 -> 4/10;
    // 2 hexes = 100%: -3 -> 2/10.
    // Destroyed at 1: 4/10 * 3/6 * 66/100 = 792/6000 = 33/250; at 2: 396/6000 = 33/500.
    let bazooka = |range: u32| {
        Exact::of(
            &format!("bazooka {range}"),
            // Fired by a unit that cannot close assault: infantry that can may attack
            // adjacent armour only by close assault (CC-19).
            &direct(
                range,
                "weapons = [\"us_bazooka\"]\nclose_assault = \"none\"",
                "vehicle = \"panther\"\nfacing = \"side\"",
                "",
            ),
        )
    };
    assert_eq!(bazooka(1).p_kill(), r(33, 250));
    assert_eq!(bazooka(2).p_kill(), r(33, 500));
}

#[test]
fn penetration_between_the_two_ranges_shown_under_each_rounding_setting() {
    // The seed's example weapon: 9 at 2 hexes, 5 at 8 hexes, AP 4 (66), at front armour 5
    // (strength 1). Linear: 9 - 4 * (range - 2)/6.
    let gun = |range: u32, setting: &str| {
        Exact::of(
            &format!("example gun {range} {setting}"),
            &direct(range, "weapons = [\"seed_example_gun\"]", "armour = { front = 5, side = 5, rear = 5 }", setting),
        )
    };
    let down = "penetration_between_ranges = \"linear_down\"";
    let up = "penetration_between_ranges = \"linear_up\"";
    let nearest = "penetration_between_ranges = \"linear_nearest\"";

    // 4 hexes: 9 - 8/6 = 7.67; 4/8 = 50%: -1 -> score 4 -> 4/10.
    // Nearest (the default) and up: AV 8, NPV = 3 - d6: 2/6 penetrating, 1/6 glancing.
    //   Destroyed: 4/10 * 2/6 * 66/100 = 528/6000 = 11/125.
    //   Suppressed: 4/10 * (2/6 * 34/100 + 1/6 * 66/100) = 4/10 * 134/600 = 67/750.
    for setting in ["", nearest, up] {
        let e = gun(4, setting);
        assert_eq!(e.p_kill(), r(11, 125), "{setting:?}");
        assert_eq!(e.p("target", "suppressed"), r(67, 750), "{setting:?}");
    }
    // Down: AV 7, NPV = 2 - d6: 1/6 penetrating, 1/6 glancing.
    //   Destroyed: 4/10 * 1/6 * 66/100 = 264/6000 = 11/250.
    //   Suppressed: 4/10 * (1/6 * 34/100 + 1/6 * 66/100) = 4/10 * 1/6 = 1/15.
    let e = gun(4, down);
    assert_eq!(e.p_kill(), r(11, 250));
    assert_eq!(e.p("target", "suppressed"), r(1, 15));

    // 3 hexes: 9 - 4/6 = 8.33; 3/8 = 37.5%: no band modifier -> 5/10.
    // Nearest and down: AV 8: destroyed 5/10 * 2/6 * 66/100 = 660/6000 = 11/100.
    assert_eq!(gun(3, "").p_kill(), r(11, 100));
    assert_eq!(gun(3, down).p_kill(), r(11, 100));
    // Up: AV 9, NPV = 4 - d6: 3/6 penetrating, 1/6 glancing.
    //   Destroyed: 5/10 * 3/6 * 66/100 = 990/6000 = 33/200.
    //   Suppressed: 5/10 * (3/6 * 34/100 + 1/6 * 66/100) = 5/10 * 168/600 = 7/50.
    let e = gun(3, up);
    assert_eq!(e.p_kill(), r(33, 200));
    assert_eq!(e.p("target", "suppressed"), r(7, 50));

    // 5 hexes: 9 - 12/6 = 7 exactly under every reading; 5/8 = 62.5%: -2 -> 3/10.
    // NPV = 2 - d6: destroyed 3/10 * 1/6 * 66/100 = 198/6000 = 33/1000.
    for setting in ["", down, up] {
        assert_eq!(gun(5, setting).p_kill(), r(33, 1000), "{setting:?}");
    }

    // A half: penetration 10 at 1 hex, 8 at 5 hexes, at 2 hexes = 10 - 2/4 = 9.5.
    // 2/5 = 40%: no band modifier -> 5/10. Front armour 8.
    let half = |setting: &str| {
        Exact::of(
            &format!("half {setting}"),
            &direct(
                2,
                &inline(
                    "",
                    "direct = { stationary_rof = 1, moving_rof = 1, range = [1, 5], penetration = [10, 8], ap = 4, strength = 3 }",
                    "",
                ),
                "armour = { front = 8, side = 8, rear = 8 }",
                setting,
            ),
        )
    };
    // Nearest rounds the half toward the shooter: AV 10, NPV = 2 - d6: 1/6 penetrating,
    // 1/6 glancing. Destroyed: 5/10 * 1/6 * 66/100 = 330/6000 = 11/200.
    assert_eq!(half("").p_kill(), r(11, 200));
    assert_eq!(half(up).p_kill(), r(11, 200));
    // Down: AV 9, NPV = 1 - d6: only d6 = 1 glances; nothing penetrates.
    // Destroyed 0; suppressed 5/10 * 1/6 * 66/100 = 11/200.
    let e = half(down);
    assert_eq!(e.p_kill(), r(0, 1));
    assert_eq!(e.p("target", "suppressed"), r(11, 200));
}

#[test]
fn a_suppressed_target_is_harder_to_hit_vulnerable_and_damaged_by_a_second_suppression() {
    // The seed's example weapon at 2 hexes (AV 9, AP 4, no band modifier) at front armour
    // 6 (NPV = 3 - d6: 2/6 penetrating, 1/6 glancing), strength 2, already suppressed.
    // To hit: 5, -1 target suppressed = 4 -> 4/10. Vulnerable: AP 4 + 1 = 5 -> 83.
    let e = Exact::of(
        "suppressed target",
        &direct(
            2,
            "weapons = [\"seed_example_gun\"]",
            "armour = { front = 6, side = 3, rear = 2 }\nstrength = 2\nstatus = \"suppressed\"",
            "",
        ),
    );
    // Penetrating: success damages, failure suppresses again = damaged: all 2/6 lose a
    // point. Glancing: success suppresses again = damaged (1/6 * 83/100).
    // Lose one: 4/10 * (2/6 + 1/6 * 83/100) = 4/10 * 283/600 = 1132/6000 = 283/1500.
    assert_eq!(e.p("target", "damaged"), r(283, 1500));
    assert_eq!(e.p("final_state", "strength_1_suppressed"), r(283, 1500));
    // Anything else leaves it as it was: 1217/1500. It was suppressed already, so no
    // attack counts as newly suppressing it.
    assert_eq!(e.p("target", "no_effect"), r(1217, 1500));
    assert_eq!(e.p("final_state", "strength_2_suppressed"), r(1217, 1500));
    assert_eq!(e.p("target", "suppressed"), r(0, 1));
    assert_eq!(e.p("hits", "1"), r(2, 5));

    // The same target, not suppressed but `vulnerable` (prone to critical damage): to
    // hit 5/10, AP 5 (83).
    // Damaged: 5/10 * 2/6 * 83/100 = 830/6000 = 83/600.
    // Suppressed: 5/10 * (2/6 * 17/100 + 1/6 * 83/100) = 5/10 * 117/600 = 585/6000 = 39/400.
    let v = Exact::of(
        "vulnerable target",
        &direct(
            2,
            "weapons = [\"seed_example_gun\"]",
            "armour = { front = 6, side = 3, rear = 2 }\nstrength = 2\nvulnerable = true",
            "",
        ),
    );
    assert_eq!(v.p("target", "damaged"), r(83, 600));
    assert_eq!(v.p("target", "suppressed"), r(39, 400));
}

#[test]
fn open_topped_adds_one_to_the_shooters_ap() {
    // Inline weapon: penetration 4 at all ranges, AP 2, range 1-10, one attack at 2
    // hexes (20%: +1 -> score 6 -> 6/10). M3 Half-track front armour 2: NPV = 2 - d6:
    // d6 = 1 penetrating, 2 glancing.
    let halftrack = |target: &str| {
        Exact::of(
            target,
            &direct(
                2,
                &inline(
                    "",
                    "direct = { stationary_rof = 1, moving_rof = 1, range = [1, 10], penetration = 4, ap = 2, strength = 2 }",
                    "",
                ),
                target,
                "",
            ),
        )
    };
    // Open topped (the catalogue's half-track): AP 2 + 1 = 3 -> 33.
    // Destroyed: 6/10 * 1/6 * 33/100 = 198/6000 = 33/1000.
    // Suppressed: 6/10 * (1/6 * 67/100 + 1/6 * 33/100) = 6/10 * 1/6 = 1/10.
    let open = halftrack("vehicle = \"m3_halftrack\"");
    assert_eq!(open.p_kill(), r(33, 1000));
    assert_eq!(open.p("target", "suppressed"), r(1, 10));
    assert_eq!(open.p("target", "no_effect"), r(867, 1000));
    // Not open topped: AP 2 -> 17. Destroyed: 6/10 * 1/6 * 17/100 = 102/6000 = 17/1000;
    // suppressed still 6/10 * (1/6 * 83/100 + 1/6 * 17/100) = 1/10.
    let closed = halftrack("vehicle = \"m3_halftrack\"\nopen_topped = false");
    assert_eq!(closed.p_kill(), r(17, 1000));
    assert_eq!(closed.p("target", "suppressed"), r(1, 10));
    // `vulnerable` on the closed vehicle is the same +1 as open topped: 33/1000.
    let vulnerable = halftrack("vehicle = \"m3_halftrack\"\nopen_topped = false\nvulnerable = true");
    assert_eq!(vulnerable.p_kill(), r(33, 1000));
}

#[test]
fn two_glancing_suppressions_in_one_fire_action_damage_a_two_point_target() {
    // Inline weapon: 2 attacks (stationary ROF 2 x strength 1), penetration 6, AP 3, at
    // 3 hexes of 10 (30%: no band modifier) at front armour 5, strength 2.
    // NPV = 6 - (5 + d6) = 1 - d6: only d6 = 1 glances (1/6); nothing penetrates.
    let two = |setting: &str| {
        Exact::of(
            &format!("two glances {setting}"),
            &direct(
                3,
                &inline(
                    "",
                    "direct = { stationary_rof = 2, moving_rof = 1, range = [1, 10], penetration = 6, ap = 3, strength = 1 }",
                    "",
                ),
                "armour = { front = 5, side = 5, rear = 5 }\nstrength = 2",
                setting,
            ),
        )
    };
    // Each attack against the unsuppressed target: to hit 5/10, glancing 1/6, AP 3 -> 33:
    // suppresses with 5/10 * 1/6 * 33/100 = 11/400.
    // Default (later_weapons): both attacks are one weapon's, so both roll at those odds
    // and land together: two suppressions in one batch damage. Damaged (both suppress):
    // (11/400)^2 = 121/160000; suppressed once: 2 * 11 * 389/160000 = 8558/160000;
    // hits ~ Binomial(2, 1/2).
    let weapon = two("");
    assert_eq!(weapon.p("target", "damaged"), r(121, 160000));
    assert_eq!(weapon.p("final_state", "strength_1_suppressed"), r(121, 160000));
    assert_eq!(weapon.p("target", "suppressed"), r(8558, 160000));
    assert_eq!(weapon.p("target", "no_effect"), r(151321, 160000));
    assert_eq!(weapon.p("hits", "2"), r(1, 4));

    // later_attacks: an attack after a suppression sees it suppressed: to hit 4/10,
    // AP 3 + 1 = 4 -> 66: 4/10 * 1/6 * 66/100 = 11/250 suppresses it again = damaged.
    let e = two("suppression_during_fire = \"later_attacks\"");
    // Damaged: 11/400 * 11/250 = 121/100000 (still suppressed, one point left).
    assert_eq!(e.p("target", "damaged"), r(121, 100000));
    assert_eq!(e.p("final_state", "strength_1_suppressed"), r(121, 100000));
    assert_eq!(e.p("target", "destroyed"), r(0, 1));
    // Suppressed once: 11/400 * 239/250 + 389/400 * 11/400
    //   = 21032/800000 + 21395/800000 = 42427/800000.
    assert_eq!(e.p("target", "suppressed"), r(42427, 800000));
    // Nothing: (389/400)^2 = 151321/160000.
    assert_eq!(e.p("target", "no_effect"), r(151321, 160000));
    // Hits: none = 1/2 * 1/2 = 1/4 (a miss never suppresses). Both: first hits without
    // suppressing (1/2 - 11/400 = 189/400) then 1/2, or first suppresses then 4/10:
    // 189/800 + 44/4000 = 945/4000 + 44/4000 = 989/4000; one: the rest, 2011/4000.
    assert_eq!(e.p("hits", "0"), r(1, 4));
    assert_eq!(e.p("hits", "1"), r(2011, 4000));
    assert_eq!(e.p("hits", "2"), r(989, 4000));

    // next_fire_action: both attacks use the start-of-action odds, 11/400 each.
    // Damaged (both suppress): 121/160000; suppressed: 2 * 11 * 389/160000 = 8558/160000;
    // hits ~ Binomial(2, 1/2).
    let fixed = two("suppression_during_fire = \"next_fire_action\"");
    assert_eq!(fixed.p("target", "damaged"), r(121, 160000));
    assert_eq!(fixed.p("target", "suppressed"), r(8558, 160000));
    assert_eq!(fixed.p("target", "no_effect"), r(151321, 160000));
    assert_eq!(fixed.p("hits", "2"), r(1, 4));

    // suppressed_again = destroyed: the same 121/160000 destroys the two-point target.
    let destroyed = two("suppressed_again = \"destroyed\"");
    assert_eq!(destroyed.p_kill(), r(121, 160000));
    assert_eq!(destroyed.p("target", "damaged"), r(0, 1));
    assert_eq!(destroyed.p("strength_lost", "2"), r(121, 160000));
}

#[test]
fn damage_at_strength_one_destroys_and_ends_the_fire_action() {
    // Inline weapon: 2 attacks, penetration 12, AP 6 (100: every roll succeeds), at 3
    // hexes of 10 (no band modifier: 5/10) at armour 5: NPV = 7 - d6 >= 1, so every hit
    // penetrates and damages.
    let at = |strength: u32, settings: &str| {
        Exact::of(
            &format!("sure damage {strength} {settings}"),
            &direct(
                3,
                &inline(
                    "",
                    "direct = { stationary_rof = 2, moving_rof = 1, range = [1, 10], penetration = 12, ap = 6, strength = 1 }",
                    "",
                ),
                &format!("armour = {{ front = 5, side = 5, rear = 5 }}\nstrength = {strength}"),
                settings,
            ),
        )
    };
    // Strength 1: destroyed unless both miss: 1 - (1/2)^2 = 3/4. By default both attacks
    // are one weapon's, rolled before any effect (Fire Procedure steps 3 and 6), so
    // hits ~ Binomial(2, 1/2): one 1/2, two 1/4.
    let one = at(1, "");
    assert_eq!(one.p_kill(), r(3, 4));
    assert_eq!(one.p("target", "no_effect"), r(1, 4));
    assert_eq!(one.p("hits", "1"), r(1, 2));
    assert_eq!(one.p("hits", "2"), r(1, 4));
    // Attack by attack, a first hit destroys it and the second attack is not made, so
    // two hits never happen.
    let one = at(1, "suppression_during_fire = \"later_attacks\"");
    assert_eq!(one.p_kill(), r(3, 4));
    assert_eq!(one.p("hits", "1"), r(3, 4));
    assert_eq!(one.p("hits", "2"), r(0, 1));
    // Strength 2: each hit costs a point; points lost ~ Binomial(2, 1/2): destroyed 1/4,
    // damaged 1/2 (one point left, not suppressed), no effect 1/4.
    let two = at(2, "");
    assert_eq!(two.p_kill(), r(1, 4));
    assert_eq!(two.p("target", "damaged"), r(1, 2));
    assert_eq!(two.p("final_state", "strength_1"), r(1, 2));
    assert_eq!(two.p("hits", "2"), r(1, 4));
}

#[test]
fn veteran_panther_at_a_shermans_front_two_attacks() {
    // experiments/cc_panther_vs_sherman.toml: 75mm KwK 42 (range 1-20, penetration 16 to
    // 11, AP 5), 2 attacks at 8 hexes. To hit: 5 +1 veteran shooter +1 trained target;
    // 8/20 = 40%: no band modifier -> 7/10; once suppressed, -1 -> 6/10.
    // AV at 8: 16 - 5 * 7/19 = 14.16 -> 14; front 7: NPV = 7 - d6 >= 1: always
    // penetrating. AP 5: 83; vulnerable (suppressed) AP 6: 100.
    // Each attack at the unsuppressed Sherman: destroyed 7/10 * 83/100 = 581/1000;
    // suppressed 7/10 * 17/100 = 119/1000; miss 3/10.
    // Default (later_weapons): both attacks are the gun's, rolled at those odds and
    // applied together; two suppressions damage, and at strength 1 that destroys. So
    // the Sherman survives only two misses (9/100) or one suppression and one miss
    // (2 * 119/1000 * 3/10 = 714/10000): destroyed 1 - 900/10000 - 714/10000 = 8386/10000.
    let text = std::fs::read_to_string(crate::common::experiment_path("cc_panther_vs_sherman.toml")).unwrap();
    let weapon = Exact::from_doc(&experiment_file("cc_panther_vs_sherman.toml"));
    assert_eq!(weapon.p_kill(), r(8386, 10000));
    assert_eq!(weapon.p("target", "suppressed"), r(714, 10000));
    assert_eq!(weapon.p("target", "no_effect"), r(9, 100));
    // Both attacks rolled: two hits with (7/10)^2 = 49/100.
    assert_eq!(weapon.p("hits", "2"), r(49, 100));

    // later_attacks: the second attack after a suppression sees a suppressed, vulnerable
    // target: any hit destroys (6/10); after a miss, as the first.
    let e = Exact::of(
        "panther later_attacks",
        &format!("{text}\n[settings]\nsuppression_during_fire = \"later_attacks\"\n"),
    );
    // Destroyed: 581/1000 + 119/1000 * 6/10 + 3/10 * 581/1000 = (5810 + 714 + 1743)/10000.
    assert_eq!(e.p_kill(), r(8267, 10000));
    // Suppressed: 119/1000 * 4/10 + 3/10 * 119/1000 = (476 + 357)/10000 = 833/10000.
    assert_eq!(e.p("target", "suppressed"), r(833, 10000));
    assert_eq!(e.p("target", "no_effect"), r(9, 100));
    // Two hits only if the first suppresses: 119/1000 * 6/10 = 714/10000.
    assert_eq!(e.p("hits", "2"), r(714, 10000));

    // next_fire_action: the second attack keeps 7/10 and AP 5, but any hit on the
    // suppressed Sherman still destroys it (success damages; failure suppresses again).
    // Destroyed: 581/1000 + 119/1000 * 7/10 + 3/10 * 581/1000 = 8386/10000.
    let fixed = Exact::of(
        "panther next_fire_action",
        &format!("{text}\n[settings]\nsuppression_during_fire = \"next_fire_action\"\n"),
    );
    assert_eq!(fixed.p_kill(), r(8386, 10000));
    // Suppressed: 119/1000 * 3/10 + 3/10 * 119/1000 = 714/10000.
    assert_eq!(fixed.p("target", "suppressed"), r(714, 10000));
}

// ---------------------------------------------------------------------------
// Direct fire at non-armoured targets
// ---------------------------------------------------------------------------

#[test]
fn front_line_squad_in_woods_under_each_weapon_strength_reading() {
    // Inline weapon strength 3, one attack at 4 hexes of 10 (40%: no band modifier).
    // To hit: 5 +1 trained target -1 in cover = 5 -> 5/10. Cover save: front line 1 +
    // soft cover 1 = 2: a d6 of 1-2 ignores the hit, 4/6 go on.
    let squad = |target: &str, settings: &str| {
        Exact::of(
            &format!("{target} {settings}"),
            &direct(
                4,
                &inline("", "direct = { stationary_rof = 1, moving_rof = 1, range = [1, 10], strength = 3 }", ""),
                &format!("quality = \"trained\"\nfront_line = true\n{target}"),
                settings,
            ),
        )
    };
    let woods = "cover = \"soft\"\nstrength = 2";
    // Default reading (suppressed_on_strength_plus_one): d6 1-3 damaged, 4 suppressed.
    // Damaged: 5/10 * 4/6 * 3/6 = 60/360 = 1/6; suppressed: 5/10 * 4/6 * 1/6 = 1/18;
    // no effect: 1 - 3/18 - 1/18 = 7/9.
    let e = squad(woods, "");
    assert_eq!(e.p("target", "damaged"), r(1, 6));
    assert_eq!(e.p("target", "suppressed"), r(1, 18));
    assert_eq!(e.p("target", "no_effect"), r(7, 9));
    // A saved hit is still a hit: 5/10.
    assert_eq!(e.p("hits", "1"), r(1, 2));
    // suppressed_on_strength: 1-2 damaged, 3 suppressed.
    // Damaged: 5/10 * 4/6 * 2/6 = 1/9; suppressed 1/18; no effect 5/6.
    let e = squad(woods, "weapon_strength_outcome = \"suppressed_on_strength\"");
    assert_eq!(e.p("target", "damaged"), r(1, 9));
    assert_eq!(e.p("target", "suppressed"), r(1, 18));
    assert_eq!(e.p("target", "no_effect"), r(5, 6));
    // suppressed_otherwise: 1-3 damaged, 4-6 suppressed.
    // Damaged 1/6; suppressed 5/10 * 4/6 * 3/6 = 1/6; no effect 2/3.
    let e = squad(woods, "weapon_strength_outcome = \"suppressed_otherwise\"");
    assert_eq!(e.p("target", "damaged"), r(1, 6));
    assert_eq!(e.p("target", "suppressed"), r(1, 6));
    assert_eq!(e.p("target", "no_effect"), r(2, 3));
    // cover_save_values = highest_only: save max(1, 1) = 1, 5/6 go on.
    // Damaged: 5/10 * 5/6 * 3/6 = 75/360 = 5/24; suppressed 25/360 = 5/72.
    let e = squad(woods, "cover_save_values = \"highest_only\"");
    assert_eq!(e.p("target", "damaged"), r(5, 24));
    assert_eq!(e.p("target", "suppressed"), r(5, 72));
    // Strength 1 in woods: the damage destroys it, 1/6.
    let e = squad("cover = \"soft\"\nstrength = 1", "");
    assert_eq!(e.p_kill(), r(1, 6));
    assert_eq!(e.p("target", "suppressed"), r(1, 18));
    // An entrenchment saves as hard cover: 1 + 2 = 3, 3/6 go on.
    // Damaged: 5/10 * 3/6 * 3/6 = 45/360 = 1/8.
    assert_eq!(squad("cover = \"entrenchment\"\nstrength = 2", "").p("target", "damaged"), r(1, 8));
    // A fortification: 1 + 3 = 4, 2/6 go on. Damaged: 5/10 * 2/6 * 3/6 = 1/12;
    // suppressed: 5/10 * 2/6 * 1/6 = 1/36.
    let e = squad("cover = \"fortification\"\nstrength = 2", "");
    assert_eq!(e.p("target", "damaged"), r(1, 12));
    assert_eq!(e.p("target", "suppressed"), r(1, 36));
}

#[test]
fn strength_one_rifle_fire_can_only_suppress_under_suppressed_on_strength() {
    // The catalogue rifle squad (range 1-5, strength 1), 2 attacks (stationary ROF 2);
    // here with next_fire_action so the attacks are independent. At 1 hex of 5 (20%: +1):
    // score 6 -> 6/10, at a non-front-line experienced unit in the open (save 0).
    let rifles = |reading: &str| {
        Exact::of(
            reading,
            &direct(
                1,
                "weapons = [\"rifle_squad\"]",
                "strength = 2",
                &format!("weapon_strength_outcome = \"{reading}\"\nsuppression_during_fire = \"next_fire_action\""),
            ),
        )
    };
    // suppressed_on_strength: a d6 below 1 damages (never), 1 suppresses: 6/10 * 1/6 =
    // 1/10 per attack. Two suppressions damage: (1/10)^2 = 1/100; one: 2 * 1/10 * 9/10 =
    // 18/100.
    let e = rifles("suppressed_on_strength");
    assert_eq!(e.p("target", "damaged"), r(1, 100));
    assert_eq!(e.p("target", "suppressed"), r(18, 100));
    assert_eq!(e.p("target", "no_effect"), r(81, 100));
    // The default: 1 damages (1/10 per attack), 2 suppresses (1/10 per attack).
    // Per attack: d = 1/10, s = 1/10, n = 8/10. Points lost 2: d d = 1/100 (destroyed).
    // Lost 1: d n, n d (2 * 8/100), d s, s d (2/100), s s (1/100) = 19/100.
    // Suppressed only: s n, n s = 16/100; nothing: 64/100.
    let e = rifles("suppressed_on_strength_plus_one");
    assert_eq!(e.p_kill(), r(1, 100));
    assert_eq!(e.p("target", "damaged"), r(19, 100));
    assert_eq!(e.p("target", "suppressed"), r(16, 100));
    assert_eq!(e.p("target", "no_effect"), r(64, 100));
}

#[test]
fn range_bands_as_a_share_of_maximum_range_and_the_natural_one_and_ten() {
    // One attack of an inline weapon with range 1-20; P(hit) is the `hits` measure.
    let p_hit = |range: u32, firer: &str, flags: &str, target: &str| {
        Exact::of(
            &format!("range {range} {firer} {flags} {target}"),
            &direct(
                range,
                &inline(firer, "direct = { stationary_rof = 1, moving_rof = 1, range = [1, 20], strength = 1 }", flags),
                target,
                "",
            ),
        )
        .p("hits", "1")
    };
    // Score 5 plus the band: <= 20% +1, 20-40% none, > 40% to 60% -1, > 60% to 80% -2,
    // > 80% -3. Each band's upper edge belongs to it (4/20 = 20%, 8/20 = 40%, ...).
    for (range, hit) in [
        (1, 6),  // 5%: +1 -> 6/10
        (4, 6),  // 20%: +1 -> 6/10
        (5, 5),  // 25%: 0 -> 5/10
        (8, 5),  // 40%: 0 -> 5/10
        (9, 4),  // 45%: -1 -> 4/10
        (12, 4), // 60%: -1 -> 4/10
        (13, 3), // 65%: -2 -> 3/10
        (16, 3), // 80%: -2 -> 3/10
        (17, 2), // 85%: -3 -> 2/10
        (20, 2), // 100%: -3 -> 2/10
    ] {
        assert_eq!(p_hit(range, "", "", ""), r(hit, 10), "range {range}");
    }
    // A weapon without range modifiers keeps 5 at 20 hexes: 5/10.
    let no_bands = Exact::of(
        "no range modifiers",
        &direct(
            20,
            &inline(
                "",
                "direct = { stationary_rof = 1, moving_rof = 1, range = [1, 20], strength = 1, range_modifiers = false }",
                "",
            ),
            "",
            "",
        ),
    );
    assert_eq!(no_bands.p("hits", "1"), r(1, 2));
    // Elite shooter +2, green target +2, 4 hexes +1: score 10, but a natural 10 always
    // misses -> 9/10.
    assert_eq!(p_hit(4, "quality = \"elite\"", "", "quality = \"green\""), r(9, 10));
    // Green shooter -2, elite target -2, 20 hexes -3, cautious -1, in cover -1: score -4,
    // but a natural 1 always hits -> 1/10.
    assert_eq!(
        p_hit(20, "quality = \"green\"", "", "quality = \"elite\"\nstatus = \"cautious\"\ncover = \"soft\""),
        r(1, 10)
    );
    // Veteran shooter +1, trained target +1, rangefinder 2 (+2), 17 hexes -3, low ammo -1,
    // smoke -2: 5 + 1 + 1 + 2 - 3 - 1 - 2 = 3 -> 3/10.
    assert_eq!(
        p_hit(
            17,
            "quality = \"veteran\"\nmodifiers = [\"low_ammo\", \"smoke\"]",
            "rangefinder = 2",
            "quality = \"trained\""
        ),
        r(3, 10)
    );
    // Trained shooter -1, veteran target -1, 10 hexes (50%) -1, Smart weapon +2: 4/10.
    assert_eq!(p_hit(10, "quality = \"trained\"", "smart = true", "quality = \"veteran\""), r(4, 10));
}

#[test]
fn moving_costs_two_and_stabilisers_give_back_one_or_two() {
    // Inline weapon: stationary ROF 3, moving ROF 1, range 1-10, penetration 12, AP 6,
    // at armour 5 (strength 1): every hit penetrates (NPV = 7 - d6 >= 1) and AP 6 always
    // succeeds, so P(destroyed) = P(at least one hit). 5 hexes of 10 = 50%: -1.
    let shot = |firer: &str, flags: &str| {
        Exact::of(
            &format!("{firer} {flags}"),
            &direct(
                5,
                &inline(
                    firer,
                    "direct = { stationary_rof = 3, moving_rof = 1, range = [1, 10], penetration = 12, ap = 6, strength = 3 }",
                    flags,
                ),
                "armour = { front = 5, side = 5, rear = 5 }",
                "",
            ),
        )
    };
    // Stationary: score 4 -> 4/10, 3 attacks: 1 - (6/10)^3 = 1 - 216/1000 = 98/125.
    // A stabiliser does nothing for a stationary shooter.
    for flags in ["", "stabiliser = \"second\""] {
        let e = shot("", flags);
        assert_eq!(e.p_kill(), r(98, 125), "{flags:?}");
        // All three attacks are the one weapon's, rolled before any effect lands (Fire
        // Procedure steps 3 and 6): hits ~ Binomial(3, 4/10); one hit 3 * 4/10 *
        // (6/10)^2 = 432/1000 = 54/125, three (4/10)^3 = 8/125.
        assert_eq!(e.p("hits", "1"), r(54, 125), "{flags:?}");
        assert_eq!(e.p("hits", "3"), r(8, 125), "{flags:?}");
    }
    // Moved: moving ROF 1 = 1 attack; score 5 - 1 - 2 = 2 -> 2/10.
    assert_eq!(shot("moved = true", "").p_kill(), r(2, 10));
    // 1st generation stabiliser +1 -> 3/10; 2nd generation +2 -> 4/10.
    assert_eq!(shot("moved = true", "stabiliser = \"first\"").p_kill(), r(3, 10));
    assert_eq!(shot("moved = true", "stabiliser = \"second\"").p_kill(), r(4, 10));
    // 2nd generation and overworked (-1 when moved): 5 - 1 - 2 + 2 - 1 = 3 -> 3/10.
    assert_eq!(shot("moved = true", "stabiliser = \"second\"\noverworked = true").p_kill(), r(3, 10));
    // Overworked without moving costs nothing: 98/125.
    assert_eq!(shot("", "overworked = true").p_kill(), r(98, 125));
    // Changed facing: the moving to-hit (2/10) at the stationary ROF (3 attacks):
    // 1 - (8/10)^3 = 1 - 512/1000 = 61/125.
    let turned = shot("changed_facing = true", "");
    assert_eq!(turned.p_kill(), r(61, 125));
    assert_eq!(turned.p("hits", "0"), r(64, 125));

    // experiments/cc_sherman_vs_tiger_flank.toml: a trained, moving Sherman (75mm M3,
    // 1st generation stabiliser, range 1-15, penetration 9 to 6, AP 4) at a veteran,
    // cautious Tiger in woods, 100 degrees off its nose (side armour 8), 3 hexes.
    // To hit: 5 -1 trained shooter -1 veteran target +1 (3/15 = 20%) -2 moved +1
    // stabiliser -1 cover -1 cautious = 1 -> 1/10. Moving ROF 1: one attack.
    // AV at 3: 9 - 3 * 2/14 = 8.57 -> 9; NPV = 9 - (8 + d6) = 1 - d6: d6 = 1 glances.
    // Suppressed: 1/10 * 1/6 * 66/100 = 66/6000 = 11/1000; never destroyed.
    let tiger = Exact::from_doc(&experiment_file("cc_sherman_vs_tiger_flank.toml"));
    assert_eq!(tiger.p("target", "suppressed"), r(11, 1000));
    assert_eq!(tiger.p_kill(), r(0, 1));
    assert_eq!(tiger.p("hits", "1"), r(1, 10));
}

// ---------------------------------------------------------------------------
// Indirect fire
// ---------------------------------------------------------------------------

#[test]
fn indirect_fire_at_an_entrenched_squad_visible_and_not_visible() {
    // The catalogue 81mm mortar (indirect, strength 3) at 10 hexes, at a trained front
    // line squad (strength 2) in an entrenchment. Indirect to hit: 5 +1 trained target
    // -1 in cover, and -2 visible or -3 not visible. No range bands.
    // Cover save: front line 1 + entrenchment (hard) 2 = 3: 3/6 go on. Strength 3:
    // 1-3 damaged (3/6), 4 suppressed (1/6).
    let mortar = |strength: u32, visible: bool, settings: &str| {
        Exact::of(
            &format!("mortar {strength} {visible} {settings}"),
            &fire(
                "indirect_fire",
                10,
                &format!("weapons = [\"us_81mm_mortar\"]\nstrength = {strength}"),
                &format!(
                    "quality = \"trained\"\nstrength = 2\nfront_line = true\ncover = \"entrenchment\"\nvisible = {visible}"
                ),
                settings,
            ),
        )
    };
    // Visible: score 3 -> 3/10. Damaged 3/10 * 3/6 * 3/6 = 3/40; suppressed
    // 3/10 * 3/6 * 1/6 = 1/40; no effect 9/10.
    let seen = mortar(1, true, "");
    assert_eq!(seen.p("target", "damaged"), r(3, 40));
    assert_eq!(seen.p("target", "suppressed"), r(1, 40));
    assert_eq!(seen.p("target", "no_effect"), r(9, 10));
    assert_eq!(seen.p("hits", "1"), r(3, 10));
    // Not visible: score 2 -> 2/10. Damaged 1/20; suppressed 1/60; no effect 14/15.
    let unseen = mortar(1, false, "");
    assert_eq!(unseen.p("target", "damaged"), r(1, 20));
    assert_eq!(unseen.p("target", "suppressed"), r(1, 60));
    assert_eq!(unseen.p("target", "no_effect"), r(14, 15));

    // A two-point mortar unit: 1 attack per strength point = 2 attacks. Per attack at an
    // unsuppressed target: d = 1/20, s = 1/60, n = 14/15.
    // Default (later_weapons): both attacks are the mortar's, at those odds, applied
    // together. Destroyed: d, d = 1/400. Damaged (one point): d with s or n,
    // 2 * 1/20 * 57/60 = 342/3600, or s, s (a second suppression damages) = 1/3600:
    // 343/3600. Suppressed: one s, one n: 2 * 1/60 * 14/15 = 112/3600. Hits ~
    // Binomial(2, 2/10): none 16/25, one 192/600, two 24/600.
    let weapon = mortar(2, false, "");
    assert_eq!(weapon.p_kill(), r(1, 400));
    assert_eq!(weapon.p("target", "damaged"), r(343, 3600));
    assert_eq!(weapon.p("target", "suppressed"), r(112, 3600));
    assert_eq!(weapon.p("target", "no_effect"), r(196, 225));
    assert_eq!(weapon.p("hits", "1"), r(192, 600));
    assert_eq!(weapon.p("hits", "2"), r(24, 600));

    // later_attacks: at a suppressed target the second attack hits on 1/10, and any
    // unsaved result loses a point: 1/10 * 3/6 * 4/6 = 1/30.
    let two = mortar(2, false, "suppression_during_fire = \"later_attacks\"");
    // Destroyed: d then d = 1/400 = 9/3600.
    assert_eq!(two.p_kill(), r(1, 400));
    // Damaged: d then not d (19/400) + s then loses (1/60 * 1/30) + n then d (14/15 *
    // 1/20) = (171 + 2 + 168)/3600 = 341/3600.
    assert_eq!(two.p("target", "damaged"), r(341, 3600));
    // Suppressed: s then nothing (1/60 * 29/30) + n then s (14/15 * 1/60) =
    // (58 + 56)/3600 = 114/3600.
    assert_eq!(two.p("target", "suppressed"), r(114, 3600));
    assert_eq!(two.p("target", "no_effect"), r(196, 225));
    // Hits: none (8/10)^2 = 16/25; both: (2/10 - 1/60) * 2/10 + 1/60 * 1/10 = 23/600.
    assert_eq!(two.p("hits", "0"), r(16, 25));
    assert_eq!(two.p("hits", "2"), r(23, 600));
    assert_eq!(two.p("hits", "1"), r(193, 600));
}

#[test]
fn indirect_fire_strikes_the_rear_armour_whatever_the_facing() {
    // The catalogue 105mm battery (indirect: penetration 4, AP 4) at 40 hexes, one
    // strength point, at an M3 Half-track (open topped, rear armour 1) it cannot see,
    // given as facing front (front armour 2) to show the facing is not read.
    // To hit: 5 - 3 not visible = 2 -> 2/10.
    // Rear: NPV = 4 - (1 + d6) = 3 - d6: 1-2 penetrating (2/6), 3 glancing (1/6).
    // Open topped: AP 4 + 1 = 5 -> 83.
    let e = Exact::of(
        "105mm at a half-track",
        &fire(
            "indirect_fire",
            40,
            "weapons = [\"us_105mm_howitzer\"]",
            "vehicle = \"m3_halftrack\"\nfacing = \"front\"\nvisible = false",
            "",
        ),
    );
    // Destroyed: 2/10 * 2/6 * 83/100 = 332/6000 = 83/1500.
    assert_eq!(e.p_kill(), r(83, 1500));
    // Suppressed: 2/10 * (2/6 * 17/100 + 1/6 * 83/100) = 2/10 * 117/600 = 39/1000.
    assert_eq!(e.p("target", "suppressed"), r(39, 1000));
}

// ---------------------------------------------------------------------------
// Close assault
// ---------------------------------------------------------------------------

#[test]
fn close_assault_hit_score_weapon_effectiveness_and_outcome() {
    // Three d6: hit score by quality (+1 to the roll against open topped), weapon class
    // "or less", then 1-2 suppressed, 3-6 destroyed (4/6).
    // experiments/cc_bazooka_close_assault.toml: veteran 3+ (4/6), Bazooka 3 or less
    // (3/6) at a Panther. Destroyed 4/6 * 3/6 * 4/6 = 48/216 = 2/9; suppressed 4/6 * 3/6 *
    // 2/6 = 1/9; no effect 2/3; hit 4/6.
    let e = Exact::from_doc(&experiment_file("cc_bazooka_close_assault.toml"));
    assert_eq!(e.kill_names(), ("target", "destroyed"));
    assert_eq!(e.p_kill(), r(2, 9));
    assert_eq!(e.p("target", "suppressed"), r(1, 9));
    assert_eq!(e.p("target", "no_effect"), r(2, 3));
    assert_eq!(e.p("hits", "1"), r(2, 3));

    let ca = |quality: &str, class: &str, target: &str| {
        Exact::of(
            &format!("{quality} {class} {target}"),
            &assault(&format!("quality = \"{quality}\"\nweapon_class = \"{class}\""), target, ""),
        )
    };
    // Trained (C) 5+ (2/6) with a Panzerfaust (4 or less, 4/6) at a Sherman:
    // destroyed 2/6 * 4/6 * 4/6 = 32/216 = 4/27; suppressed 2/6 * 4/6 * 2/6 = 2/27.
    let e = ca("trained", "law_maw_panzerfaust_panzerschreck", "vehicle = \"m4_sherman\"");
    assert_eq!(e.p_kill(), r(4, 27));
    assert_eq!(e.p("target", "suppressed"), r(2, 27));
    // Experienced (D) 4+ (3/6), other infantry (1 or less, 1/6):
    // destroyed 3/6 * 1/6 * 4/6 = 12/216 = 1/18; suppressed 6/216 = 1/36.
    let e = ca("experienced", "other_infantry", "vehicle = \"m4_sherman\"");
    assert_eq!(e.p_kill(), r(1, 18));
    assert_eq!(e.p("target", "suppressed"), r(1, 36));
    // Green 6+, +1 against the open topped half-track: 5-6 (2/6); other infantry 1/6:
    // destroyed 2/6 * 1/6 * 4/6 = 8/216 = 1/27; suppressed 4/216 = 1/54.
    let e = ca("green", "other_infantry", "vehicle = \"m3_halftrack\"");
    assert_eq!(e.p_kill(), r(1, 27));
    assert_eq!(e.p("target", "suppressed"), r(1, 54));
    assert_eq!(e.p("hits", "1"), r(1, 3));
    // Elite 2+, +1 against open topped: every roll (6/6); anti-tank rifle 2 or less (2/6):
    // destroyed 2/6 * 4/6 = 2/9; suppressed 2/6 * 2/6 = 1/9.
    let e = ca("elite", "anti_tank_rifle_suicide_assault", "vehicle = \"m3_halftrack\"");
    assert_eq!(e.p_kill(), r(2, 9));
    assert_eq!(e.p("target", "suppressed"), r(1, 9));
    assert_eq!(e.p("hits", "1"), r(1, 1));
    // "Target Destroyed" destroys a two-point target outright (2/9 as the experiment);
    // against one already suppressed, "Target Suppressed" damages it (1/9).
    let e = ca(
        "veteran",
        "bazooka_piat",
        "armour = { front = 12, side = 6, rear = 5 }\nstrength = 2\nstatus = \"suppressed\"",
    );
    assert_eq!(e.p_kill(), r(2, 9));
    assert_eq!(e.p("target", "damaged"), r(1, 9));
    assert_eq!(e.p("final_state", "strength_1_suppressed"), r(1, 9));
}

#[test]
fn close_assault_attacks_one_or_per_strength_point() {
    // A two-point veteran Bazooka team at a Panther. Per attack (as the experiment):
    // destroyed 2/9, suppressed 1/9, nothing 2/3.
    let team = |settings: &str| {
        Exact::of(
            settings,
            &assault(
                "quality = \"veteran\"\nweapon_class = \"bazooka_piat\"\nstrength = 2",
                "vehicle = \"panther\"",
                settings,
            ),
        )
    };
    // Default `one`: one attack whatever the strength: 2/9.
    assert_eq!(team("").p_kill(), r(2, 9));
    // per_strength_point: two attacks; a second suppression destroys the one-point Panther.
    // Survives: n n (4/9) + n s (2/27) + s n (2/27) = 16/27; destroyed 11/27.
    let two = team("close_assault_attacks = \"per_strength_point\"");
    assert_eq!(two.p_kill(), r(11, 27));
    assert_eq!(two.p("target", "suppressed"), r(4, 27));
    assert_eq!(two.p("target", "no_effect"), r(4, 9));
    // Both attacks are the team's one weapon, rolled before either lands (Fire Procedure
    // steps 3 and 6): hits ~ Binomial(2, 2/3): none 1/9, one 4/9, two 4/9.
    assert_eq!(two.p("hits", "0"), r(1, 9));
    assert_eq!(two.p("hits", "1"), r(4, 9));
    assert_eq!(two.p("hits", "2"), r(4, 9));
    // Attack by attack, the second is made only if the first did not destroy: two hits
    // = first hits without destroying (2/3 - 2/9 = 4/9) then hits (2/3) = 8/27.
    let one_by_one =
        team("close_assault_attacks = \"per_strength_point\"\nsuppression_during_fire = \"later_attacks\"");
    assert_eq!(one_by_one.p_kill(), r(11, 27));
    assert_eq!(one_by_one.p("hits", "2"), r(8, 27));
    assert_eq!(one_by_one.p("hits", "1"), r(16, 27));
}

// ---------------------------------------------------------------------------
// Barrages
// ---------------------------------------------------------------------------

#[test]
fn a_large_barrage_reaches_each_nearby_unit_and_the_original_target_again_half_the_time() {
    // The 81mm mortar (Large barrage: 50%), one strength point, 10 hexes, at an
    // experienced strength 1 unit in the open, visible (not front line: save 0); two more
    // like it nearby. Strength 3: 1-3 damaged, 4 suppressed.
    // Per attack at an unsuppressed unit: to hit 5 - 2 = 3 -> 3/10: destroyed 3/10 * 3/6
    // = 3/20, suppressed 3/10 * 1/6 = 1/20, nothing 4/5. At a suppressed unit: to hit
    // 2/10, and damage or suppression both destroy: 2/10 * 4/6 = 2/15.
    let unit = "strength = 1\nvisible = true";
    let barrage = |settings: &str| {
        Exact::of(
            &format!("mortar barrage {settings}"),
            &format!(
                "{}\n[[nearby]]\n{unit}\ncount = 2\n",
                fire("barrage", 10, "weapons = [\"us_81mm_mortar\"]", unit, settings)
            ),
        )
    };
    let e = barrage("");
    // Original target (chance_of_second_attack): after the first attack, a second with
    // 1/2. Destroyed: 3/20 + 1/2 * (1/20 * 2/15 + 4/5 * 3/20) = 3/20 + 19/300 = 64/300.
    assert_eq!(e.p_kill(), r(16, 75));
    // Suppressed: 1/20 * (1 - 1/2 * 2/15) + 4/5 * 1/2 * 1/20 = 14/300 + 6/300 = 1/15.
    assert_eq!(e.p("target", "suppressed"), r(1, 15));
    assert_eq!(e.p("target", "no_effect"), r(18, 25));
    // Nearby units reached ~ Binomial(2, 1/2).
    assert_eq!(e.p("nearby_reached", "0"), r(1, 4));
    assert_eq!(e.p("nearby_reached", "1"), r(1, 2));
    assert_eq!(e.p("nearby_reached", "2"), r(1, 4));
    // Each nearby unit destroyed: 1/2 * 3/20 = 3/40. Over 1600:
    //   0: 37^2 = 1369; 1: 2 * 3 * 37 = 222; 2: 9.
    assert_eq!(e.p("nearby_destroyed", "0"), r(1369, 1600));
    assert_eq!(e.p("nearby_destroyed", "1"), r(222, 1600));
    assert_eq!(e.p("nearby_destroyed", "2"), r(9, 1600));
    // All three destroyed: 16/75 * 9/1600 = 144/120000 = 3/2500; none: 59/75 * 1369/1600.
    assert_eq!(e.p("units_destroyed", "3"), r(3, 2500));
    assert_eq!(e.p("units_destroyed", "0"), r(59 * 1369, 75 * 1600));

    // attacked_once: the original target has only the first attack: 3/20, 1/20.
    let once = barrage("barrage_original_target = \"attacked_once\"");
    assert_eq!(once.p_kill(), r(3, 20));
    assert_eq!(once.p("target", "suppressed"), r(1, 20));
    assert_eq!(once.p("nearby_destroyed", "2"), r(9, 1600));
}

#[test]
fn a_massive_barrage_reaches_each_nearby_unit_a_quarter_of_the_time() {
    // experiments/cc_105mm_barrage.toml: a Massive barrage (25%) with three nearby units
    // (two rifle squads and a Sherman): units reached ~ Binomial(3, 1/4), over 64:
    //   0: 27; 1: 3 * 9 = 27; 2: 3 * 3 = 9; 3: 1.
    let e = Exact::from_doc(&experiment_file("cc_105mm_barrage.toml"));
    assert_eq!(e.p("nearby_reached", "0"), r(27, 64));
    assert_eq!(e.p("nearby_reached", "1"), r(27, 64));
    assert_eq!(e.p("nearby_reached", "2"), r(9, 64));
    assert_eq!(e.p("nearby_reached", "3"), r(1, 64));
}

// ---------------------------------------------------------------------------
// A.A. fire
// ---------------------------------------------------------------------------

#[test]
fn aa_fire_levels_by_mount_and_the_aircraft_save() {
    let one = |level: &str, mount: &str, save: u32| {
        Exact::of(
            &format!("{level} {mount} save {save}"),
            &aa(&format!("[[aa_firer]]\nlevel = \"{level}\"\nmount = \"{mount}\"\n"), &format!("save = {save}")),
        )
    };
    // Save 1: a d6 less than 1 never saves, so P = the level's percentage.
    // Single light MG and rifles: 1%; single HMG: 2%.
    assert_eq!(one("lmg_and_rifles", "single", 1).p_kill(), r(1, 100));
    assert_eq!(one("hmg", "single", 1).p_kill(), r(2, 100));
    // Twin raises one level (1% -> 2%), quad two (1% -> 3%).
    assert_eq!(one("lmg_and_rifles", "twin", 1).p_kill(), r(2, 100));
    assert_eq!(one("lmg_and_rifles", "quad", 1).p_kill(), r(3, 100));
    // Twin 20mm: 3% -> 4%; save 4: a d6 of 1-3 ignores the hit: 4/100 * 3/6 = 1/50.
    let twin = one("aa_gun_15_to_29mm", "twin", 4);
    assert_eq!(twin.p_kill(), r(1, 50));
    assert_eq!(twin.p("hits", "1"), r(4, 100));
    // Quad 40mm: 4% raised two levels stops at the top, 5%; save 7 ignores every hit.
    let quad = one("gun_30_to_49mm", "quad", 7);
    assert_eq!(quad.p_kill(), r(0, 1));
    assert_eq!(quad.p("hits", "1"), r(5, 100));

    // experiments/cc_quad_50_vs_fighter.toml: two quad .50s (HMG 2%, two levels up: 3%,
    // then 4%) and a single 40mm Bofors (4%), save 3 (1-2 ignore, 4/6 damage a one-point
    // aircraft). Each of the three destroys 4/100 * 4/6 = 2/75.
    // Survives: (73/75)^3 = 389017/421875; destroyed 32858/421875.
    let e = Exact::from_doc(&experiment_file("cc_quad_50_vs_fighter.toml"));
    assert_eq!(e.p_kill(), r(32858, 421875));
    // No hit at all: (96/100)^3 = 884736/1000000 = 13824/15625.
    assert_eq!(e.p("hits", "0"), r(13824, 15625));

    // A two-point aircraft, save 0, two quad 50mm+ units (5% each): destroyed only by
    // both, 1/400; damaged by exactly one, 2 * 5/100 * 95/100 = 19/200.
    let e = Exact::of(
        "two 50mm quads",
        &aa("[[aa_firer]]\nlevel = \"gun_50mm_up\"\nmount = \"quad\"\nunits = 2\n", "save = 0\nstrength = 2"),
    );
    assert_eq!(e.p_kill(), r(1, 400));
    assert_eq!(e.p("target", "damaged"), r(19, 200));
}

#[test]
fn inside_the_minimum_range_the_range_band_reads_the_actual_range() {
    // The seed's example weapon (range 2-8, penetration 9 at 2) fires at 1 hex: CC-8's
    // default fires at the minimum-range penetration, but the to-hit band reads the
    // real range: 1 of 8 hexes is 12.5%, up to 20%: +1 -> score 6 -> 6/10 (reading the
    // 2-hex minimum instead would give 25%, no modifier, 5/10).
    // Armour front 6: NPV = 9 - 6 - d6 = 3 - d6: penetrating on 1-2 (2/6), glancing on 3.
    // Damaged: 6/10 x 2/6 x 66/100 = 792/6000 = 33/250.
    let e = Exact::of(
        "inside minimum range",
        &direct(1, "weapons = [\"seed_example_gun\"]", "armour = { front = 6, side = 3, rear = 2 }\nstrength = 2", ""),
    );
    assert_eq!(e.p("hits", "1"), r(3, 5));
    assert_eq!(e.p("target", "damaged"), r(33, 250));
}

// ---------------------------------------------------------------------------
// Weapons that cannot fire together, and the hull MG's arc (CC-18)
// ---------------------------------------------------------------------------

/// A firer of two inline weapons in one `one_of` group: a `gun` line and a `coax` line
/// (the `direct = { ... }` of each), at a trained `strength`-point squad in the open
/// (not front line: no cover save), 4 hexes away.
fn turret(gun: &str, coax: &str, strength: u32, settings: &str) -> Exact {
    let weapon = |mode: &str| format!("[[firer.weapon_data]]\n{mode}\none_of = \"turret\"\n");
    Exact::of(
        &format!("{gun} | {coax} | {strength} | {settings}"),
        &format!(
            "{}{}{}",
            direct(4, "", &format!("quality = \"trained\"\nstrength = {strength}"), settings),
            weapon(gun),
            weapon(coax)
        ),
    )
}

#[test]
fn of_two_weapons_that_cannot_fire_together_only_the_likelier_to_destroy_fires() {
    // Both weapons reach 10 hexes: 4 of 10 is 40%, no band modifier; to hit 5 +1
    // trained target = 6 -> 6/10. One-point squad: damage destroys it.
    let gun = "direct = { stationary_rof = 1, moving_rof = 1, range = [1, 10], strength = 3 }";
    let coax = "direct = { stationary_rof = 4, moving_rof = 2, range = [1, 10], strength = 1 }";
    // The gun alone, one attack of strength 3: d6 1-3 damages, so destroys
    // 6/10 * 3/6 = 3/10.
    // The coax alone, four attacks of strength 1: each damages 6/10 * 1/6 = 1/10,
    // suppresses 1/10 (d6 of 2), else 8/10. Their effects land together (CC-6), so the
    // squad survives only with no damage and at most one suppression:
    // (8/10)^4 + 4 * (1/10) * (8/10)^3 = 0.4096 + 0.2048 = 0.6144, destroyed 0.3856
    // = 241/625 > 3/10: the coax fires, the gun does not.
    let e = turret(gun, coax, 1, "");
    assert_eq!(e.p_kill(), r(241, 625));
    // Suppressed and alive: exactly one suppression, no damage: 4 * 1/10 * (8/10)^3
    // = 2048/10000 = 128/625.
    assert_eq!(e.p("target", "suppressed"), r(128, 625));
    // Only the coax's four attacks are rolled: hits run to 4, all four 6^4/10^4.
    assert_eq!(e.p("hits", "4"), r(81, 625));
    // A gun of strength 6 (every hit damages: destroys 6/10 > 241/625) fires alone:
    // one attack, which hits 6/10.
    let strong = "direct = { stationary_rof = 1, moving_rof = 1, range = [1, 10], strength = 6 }";
    let e = turret(strong, coax, 1, "");
    assert_eq!(e.p_kill(), r(3, 5));
    assert_eq!(e.p("hits", "1"), r(3, 5));
}

#[test]
fn the_weapon_choice_setting_weighs_destruction_or_damage_of_a_two_point_squad() {
    // Two-point trained squad in the open, 4 hexes. Every hit damages (strength 6).
    // Gun: range 20, 4 of 20 = 20% +1, to hit 5 +1 +1 = 7 -> 7/10, one attack: damages
    // 7/10, never destroys (one point of two).
    // Coax: range 5, 4 of 5 = 80% -2, to hit 5 +1 -2 = 4 -> 4/10, two attacks landing
    // together: destroys (4/10)^2 = 4/25, damages 1 - (6/10)^2 = 16/25 < 7/10.
    let gun = "direct = { stationary_rof = 1, moving_rof = 1, range = [1, 20], strength = 6 }";
    let coax = "direct = { stationary_rof = 2, moving_rof = 1, range = [1, 5], strength = 6 }";
    // most_likely_to_destroy (the default): the coax, 4/25 > 0. Damaged and alive:
    // one hit of two, 2 * 4/10 * 6/10 = 12/25.
    let e = turret(gun, coax, 2, "");
    assert_eq!(e.p_kill(), r(4, 25));
    assert_eq!(e.p("target", "damaged"), r(12, 25));
    // most_likely_to_damage: the gun, 7/10 > 16/25; it cannot destroy.
    let e = turret(gun, coax, 2, "weapon_choice = \"most_likely_to_damage\"");
    assert_eq!(e.p_kill(), r(0, 1));
    assert_eq!(e.p("target", "damaged"), r(7, 10));
}

#[test]
fn a_hull_mg_fires_only_at_a_target_in_the_front_arc() {
    // A main gun and a hull MG (front_arc), both at a trained one-point squad in the
    // open, 4 hexes, both ranging 10 (40%): to hit 6/10.
    // Gun: one attack of strength 6, destroys 6/10.
    // Hull MG: one attack of strength 6 too.
    let scenario = |in_arc: bool| {
        Exact::of(
            &format!("hull mg {in_arc}"),
            &format!(
                "{}[[firer.weapon_data]]\ndirect = {{ stationary_rof = 1, moving_rof = 1, range = [1, 10], strength = 6 }}\n\n[[firer.weapon_data]]\ndirect = {{ stationary_rof = 1, moving_rof = 1, range = [1, 10], strength = 6 }}\nfront_arc = true\n",
                direct(4, &format!("target_in_front_arc = {in_arc}"), "quality = \"trained\"\nstrength = 1", ""),
            ),
        )
    };
    // Outside the arc the gun fires alone: 6/10.
    assert_eq!(scenario(false).p_kill(), r(3, 5));
    // In the arc both fire: survives only if both miss, 1 - (4/10)^2 = 84/100 = 21/25.
    assert_eq!(scenario(true).p_kill(), r(21, 25));
}
