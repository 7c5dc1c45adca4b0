//! Exact Mission Command odds computed by hand from the seed's tables (seed 004),
//! checked against the exact engine.
//!
//! Every scenario uses the shipped tables (rulesets/mission-command/) and the
//! illustrative catalogue, or an inline `weapon_data` table where a test needs a row
//! the catalogue does not carry. The arithmetic beside each expectation starts from
//! the printed cells:
//!
//! * Point-to-point: a d20 plus modifiers at least the "Point-to-point Fire to Hit"
//!   cell hits, so a natural face of (cell - modifiers) or more hits:
//!   P(hit) = (21 - need)/20, clamped to 0..1. A hit then converts to a casualty or KO
//!   on a second d20 at least the conversion cell: P = (21 - cell)/20; "KO" converts
//!   always, "NE" and "No casualty" never.
//! * Several elements are independent shots; `target` is the worst result of any,
//!   `hits` counts hits and `casualties` counts conversions against a foot target.
//! * Area fire: one d20 per vehicle (rockets +1), at most one KO per template from
//!   rolls; buildings: one d20 read against the S/C/D thresholds.
//! * Reaction test: a d10 plus modifiers read against 6+ obey, 1 to 5 halt, 0 to -4
//!   cease fire, -5 to -10 retreat, -11 or less rout.
//! * Anti-aircraft: d20 plus modifiers at least the to-hit cell, then a d20 at least
//!   the damaged / destroyed numbers.

use crate::common::cli::experiment_outcome_row;
use crate::common::exact::{Exact, experiment_file, r};

/// A point-to-point scenario: `firers` is one or more `[[firer]]` tables, `target` the
/// body of `[target]`, `settings` the body of `[settings]` (may be empty).
fn p2p(range: f64, firers: &str, target: &str, settings: &str) -> String {
    format!(
        "ruleset = \"mission-command\"\nkind = \"point_to_point\"\nrange = {range}\n\n[settings]\n{settings}\n\n{firers}\n[target]\n{target}\n"
    )
}

/// One catalogue firer with extra lines (`quality`, `modifiers`, ...).
fn firer(weapon: &str, extra: &str) -> String {
    format!("[[firer]]\nweapon = \"{weapon}\"\n{extra}\n")
}

/// An area fire scenario of `kind` with the `[fire]` body and the rest (vehicles or a
/// structure, settings).
fn area(kind: &str, range: Option<f64>, fire: &str, rest: &str) -> String {
    let range = range.map_or(String::new(), |r| format!("range = {r}\n"));
    format!("ruleset = \"mission-command\"\nkind = \"{kind}\"\n{range}\n[fire]\n{fire}\n\n{rest}\n")
}

/// A reaction test with the `[group]` body and `[settings]` body.
fn reaction(group: &str, settings: &str) -> String {
    format!("ruleset = \"mission-command\"\nkind = \"reaction_test\"\n\n[settings]\n{settings}\n\n[group]\n{group}\n")
}

// ---------------------------------------------------------------------------
// Point-to-point fire at foot
// ---------------------------------------------------------------------------

#[test]
fn lmg_with_a_suppression_marker_at_foot_in_the_open() {
    let e = Exact::of(
        "lmg suppressed",
        &p2p(12.0, &firer("lmg", "suppression_markers = 1"), "situation = \"no_or_light_cover\"", ""),
    );
    // To hit: LMG at 12cm (band up to 15cm) needs 9, -1 for the suppression marker ->
    // natural 10+ = 11/20. Casualty: 12cm > 5cm, "Small arms or any MG > 5cm" vs
    // "Foot in no cover or in light cover" 16 -> 16..20 = 5/20.
    // P(casualty) = 11/20 * 5/20 = 55/400 = 11/80.
    assert_eq!(e.kill_names(), ("target", "casualty"));
    assert_eq!(e.p_kill(), r(11, 80));
    // P(miss) = 9/20; P(hit, no casualty) = 11/20 * 15/20 = 165/400 = 33/80.
    assert_eq!(e.p("target", "miss"), r(9, 20));
    assert_eq!(e.p("target", "hit_no_effect"), r(33, 80));
    assert_eq!(e.p("hits", "1"), r(11, 20));
    // One shot at a foot target: no `casualties` count.
    assert!(!e.has("casualties"), "{:?}", e.names());
}

#[test]
fn hmg_at_foot_in_good_cover_and_no_casualty_against_the_fortified() {
    // experiments/mc_hmg_good_cover.toml: tripod MG42 at 30cm (band up to 35cm) needs 11
    // -> natural 11+ = 10/20. "Small arms or any MG > 5cm" vs "In good cover" 19 -> 2/20.
    // P(casualty) = 10/20 * 2/20 = 20/400 = 1/20; P(hit, no casualty) = 10/20 * 18/20 = 9/20.
    let cover = Exact::from_doc(&experiment_file("mc_hmg_good_cover.toml"));
    assert_eq!(cover.p_kill(), r(1, 20));
    assert_eq!(cover.p("target", "miss"), r(1, 2));
    assert_eq!(cover.p("target", "hit_no_effect"), r(9, 20));

    // The same MG at a fortified element: "Small arms or any MG > 5cm" vs "Fortified"
    // reads "No casualty", so every hit (10/20) has no effect and P(casualty) = 0.
    let fortified = Exact::of("hmg fortified", &p2p(30.0, &firer("hmg", ""), "situation = \"fortified\"", ""));
    assert_eq!(fortified.p_kill(), r(0, 1));
    assert_eq!(fortified.p("target", "hit_no_effect"), r(1, 2));
    assert_eq!(fortified.p("target", "miss"), r(1, 2));
    assert_eq!(fortified.p("hits", "1"), r(1, 2));
}

#[test]
fn three_rifle_elements_give_a_binomial_casualty_count() {
    let e = Exact::of(
        "three rifles",
        &p2p(10.0, &firer("rifle_section", "elements = 3"), "situation = \"no_or_light_cover\"", ""),
    );
    // Per element: small arms at 10cm (band up to 15cm) need 10 -> natural 10+ = 11/20;
    // at 10cm > 5cm the "Small arms or any MG > 5cm" row vs no cover needs 16 -> 5/20.
    // P(casualty per element) = 11/20 * 5/20 = 11/80; P(none) = 69/80.
    // Casualties ~ Binomial(3, 11/80), over 80^3 = 512000:
    //   0: 69^3 = 328509;  1: 3 * 11 * 69^2 = 157113;  2: 3 * 11^2 * 69 = 25047;  3: 11^3 = 1331.
    assert_eq!(e.p("casualties", "0"), r(328509, 512000));
    assert_eq!(e.p("casualties", "1"), r(157113, 512000));
    assert_eq!(e.p("casualties", "2"), r(25047, 512000));
    assert_eq!(e.p("casualties", "3"), r(1331, 512000));
    // The target's worst result: at least one casualty = 1 - 328509/512000 = 183491/512000.
    assert_eq!(e.p_kill(), r(183491, 512000));
    // All three miss: (9/20)^3 = 729/8000 = 46656/512000; hit but no casualty is the rest:
    // 328509/512000 - 46656/512000 = 281853/512000.
    assert_eq!(e.p("target", "miss"), r(729, 8000));
    assert_eq!(e.p("target", "hit_no_effect"), r(281853, 512000));
    // Hits ~ Binomial(3, 11/20) over 8000: 0: 729; 1: 3*11*81 = 2673; 2: 3*121*9 = 3267; 3: 1331.
    assert_eq!(e.p("hits", "0"), r(729, 8000));
    assert_eq!(e.p("hits", "1"), r(2673, 8000));
    assert_eq!(e.p("hits", "2"), r(3267, 8000));
    assert_eq!(e.p("hits", "3"), r(1331, 8000));
}

#[test]
fn opportunity_fire_at_foot_moving_fast_counts_casualties_across_firers() {
    let firers = format!("{}{}", firer("rifle_section", "elements = 2"), firer("lmg", ""));
    let text =
        p2p(12.0, &firers, "situation = \"moving_in_no_cover\"\nmodifiers = [\"opp_fire_foot_moving_fast\"]", "")
            .replace("range = 12\n", "range = 12\nopportunity_fire = true\n");
    let e = Exact::of("opp fire", &text);
    // Rifles: small arms at 12cm need 10, +2 "Opportunity fire: Target is foot moving fast"
    // -> natural 8+ = 13/20; "Small arms or any MG > 5cm" vs "Moving in no cover" 11 ->
    // 10/20: 13/40 each. LMG: needs 9, +2 -> 7+ = 14/20; the same casualty row: 14/40.
    // Over 40^3 = 64000, with q = 27 (rifle spared) and 26 (LMG spared):
    //   0: 27^2 * 26 = 18954;  3: 13^2 * 14 = 2366;
    //   1: 2 * 13 * 27 * 26 + 27^2 * 14 = 18252 + 10206 = 28458;
    //   2: 13^2 * 26 + 2 * 13 * 27 * 14 = 4394 + 9828 = 14222.
    assert_eq!(e.p("casualties", "0"), r(18954, 64000));
    assert_eq!(e.p("casualties", "1"), r(28458, 64000));
    assert_eq!(e.p("casualties", "2"), r(14222, 64000));
    assert_eq!(e.p("casualties", "3"), r(2366, 64000));
    // At least one casualty: 1 - 18954/64000 = 45046/64000.
    assert_eq!(e.p_kill(), r(45046, 64000));
    // No hits at all: (7/20)^2 * 6/20 = 294/8000.
    assert_eq!(e.p("hits", "0"), r(294, 8000));
}

#[test]
fn casualty_rows_split_by_range_take_the_nearer_row_on_the_edge() {
    let at = |weapon: &str, range: f64| {
        Exact::of(
            &format!("{weapon} {range}"),
            &p2p(range, &firer(weapon, ""), "situation = \"no_or_light_cover\"", ""),
        )
    };
    // Rifles at exactly 5cm: to hit (band up to 5cm) 4 -> 17/20; "Small arms up to 5cm"
    // vs no cover 4 -> 17/20. P = 289/400.
    assert_eq!(at("rifle_section", 5.0).p_kill(), r(289, 400));
    // 75mm L48 at exactly 15cm: to hit (band up to 15cm) 4 -> 17/20; "Other gun/how'r up
    // to 110mm < 15cm range" vs no cover 12 -> 9/20. P = 153/400.
    assert_eq!(at("ge_75mm_l48", 15.0).p_kill(), r(153, 400));
    // At 16cm: to hit (band up to 25cm) 5 -> 16/20; the "> 15cm range" row 15 -> 6/20.
    // P = 96/400 = 6/25.
    assert_eq!(at("ge_75mm_l48", 16.0).p_kill(), r(6, 25));
}

#[test]
fn hull_down_and_the_auto_cannon_bonus_setting() {
    // 20mm auto-cannon at 10cm vs a hull-down armour class 2 ("15 at 0-15cm" -> 6/20).
    let cannon = |setting: &str| {
        Exact::of(
            &format!("20mm hull-down {setting}"),
            &p2p(10.0, &firer("autocannon_20mm", ""), "armour_class = 2\nmodifiers = [\"hull_down\"]", setting),
        )
    };
    // Default (multi_barrel_only): to hit 7 (band up to 15cm), -4 hull-down -> natural 11+
    // = 10/20; P(KO) = 10/20 * 6/20 = 60/400 = 3/20.
    assert_eq!(cannon("").p_kill(), r(3, 20));
    // every_auto_cannon: +2 multi-barrel as well -> natural 9+ = 12/20;
    // P(KO) = 12/20 * 6/20 = 72/400 = 9/50.
    assert_eq!(cannon("auto_cannon_bonus = \"every_auto_cannon\"").p_kill(), r(9, 50));
}

#[test]
fn to_hit_needs_beyond_the_d20_never_or_always_hit() {
    // Small arms at 20cm (band up to 25cm) need 18; two suppression markers -2 and
    // "Firer is to move" -2 -> natural 22+: no face of a d20 hits.
    let never = Exact::of(
        "never hits",
        &p2p(
            20.0,
            &firer("rifle_section", "suppression_markers = 2\nmodifiers = [\"firer_will_move\"]"),
            "situation = \"no_or_light_cover\"",
            "",
        ),
    );
    assert_eq!(never.p("target", "miss"), r(1, 1));
    assert_eq!(never.p("hits", "0"), r(1, 1));
    assert_eq!(never.p_kill(), r(0, 1));

    // A multi-barrel tripod MG at 5cm (band up to 5cm) needs 4; multi-barrel +2 and
    // target in wire +2 -> natural 0+: every face hits. Casualty at 5cm: "Any MG up to
    // 5cm" vs no cover 9 -> 9..20 = 12/20 = 3/5, so P(casualty) = 1 * 3/5.
    let quad_mg = "[[firer]]\nname = \"quad MG\"\nmodifiers = [\"multi_barrel\"]\n[firer.weapon_data]\n\
                   to_hit = \"tripod_mg_hmg\"\nmulti_barrel = true\n\
                   casualty = [{ row = \"mg_to_5cm\", up_to_cm = 5 }, { row = \"small_arms_or_mg_over_5cm\" }]\n";
    let always = Exact::of(
        "always hits",
        &p2p(5.0, quad_mg, "situation = \"no_or_light_cover\"\nmodifiers = [\"target_in_wire\"]", ""),
    );
    assert_eq!(always.p("hits", "1"), r(1, 1));
    assert_eq!(always.p("target", "miss"), r(0, 1));
    assert_eq!(always.p_kill(), r(3, 5));
    assert_eq!(always.p("target", "hit_no_effect"), r(2, 5));
}

// ---------------------------------------------------------------------------
// Point-to-point fire at armour
// ---------------------------------------------------------------------------

#[test]
fn at_close_assault_splits_elite_and_veteran_engineers_from_other_troops() {
    // AT close assault at 1cm (< 2cm): the cell "8/11*". KO: "AT close assault fire at
    // < 2cm" vs armour class 3 is 14 -> 14..20 = 7/20.
    let assault = |extra: &str| {
        Exact::of(
            &format!("close assault {extra}"),
            &p2p(1.0, &firer("at_close_assault", extra), "armour_class = 3", ""),
        )
    };
    // Elite or veteran engineers need 8 -> 13/20; P(KO) = 13/20 * 7/20 = 91/400.
    for extra in ["quality = \"elite\"\nengineers = true", "quality = \"veteran\"\nengineers = true"] {
        let e = assault(extra);
        assert_eq!(e.kill_names(), ("target", "ko"));
        assert_eq!(e.p_kill(), r(91, 400), "{extra}");
        assert_eq!(e.p("hits", "1"), r(13, 20), "{extra}");
    }
    // Anyone else (regular engineers, elite non-engineers, default troops) needs 11 ->
    // 10/20; P(KO) = 10/20 * 7/20 = 70/400 = 7/40.
    for extra in ["quality = \"regular\"\nengineers = true", "quality = \"elite\"", ""] {
        let e = assault(extra);
        assert_eq!(e.p_kill(), r(7, 40), "{extra:?}");
        assert_eq!(e.p("hits", "1"), r(1, 2), "{extra:?}");
    }
    // Armour class 7 reads "NE": elite engineers still hit 13/20, but never KO.
    let ne = Exact::of(
        "close assault ac7",
        &p2p(1.0, &firer("at_close_assault", "quality = \"elite\"\nengineers = true"), "armour_class = 7", ""),
    );
    assert_eq!(ne.p_kill(), r(0, 1));
    assert_eq!(ne.p("target", "hit_no_effect"), r(13, 20));
}

#[test]
fn ko_and_ne_cells_and_a_range_band_cell_inside_its_band() {
    // German 75mm L48 at 40cm: "Longer guns up to 85mm calibre", band up to 50cm, needs 7
    // -> natural 7+ = 14/20.
    let at = |ac: u32| {
        Exact::of(&format!("l48 ac{ac}"), &p2p(40.0, &firer("ge_75mm_l48", ""), &format!("armour_class = {ac}"), ""))
    };
    // Armour class 2 reads "KO": every hit knocks out. P(KO) = 14/20 = 7/10.
    let ko = at(2);
    assert_eq!(ko.p_kill(), r(7, 10));
    assert_eq!(ko.p("target", "hit_no_effect"), r(0, 1));
    // Armour class 9 reads "NE": every hit has no effect. P(KO) = 0, P(hit, NE) = 7/10.
    let ne = at(9);
    assert_eq!(ne.p_kill(), r(0, 1));
    assert_eq!(ne.p("target", "hit_no_effect"), r(7, 10));
    // Armour class 6 reads "11 at 25-50cm"; 40cm is inside: 11..20 = 10/20.
    // P(KO) = 14/20 * 10/20 = 140/400 = 7/20.
    assert_eq!(at(6).p_kill(), r(7, 20));
    // experiments/mc_75l48_vs_ac6_40cm.toml is the same shot.
    let file = Exact::from_doc(&experiment_file("mc_75l48_vs_ac6_40cm.toml"));
    assert_eq!(file.p_kill(), r(7, 20));
    // Armour class 7 reads "7 at 0-25cm 15 at 25-50cm": at 40cm the second clause,
    // 15..20 = 6/20. P(KO) = 14/20 * 6/20 = 84/400 = 21/100.
    assert_eq!(at(7).p_kill(), r(21, 100));
}

#[test]
fn a_range_band_edge_belongs_to_the_nearer_band() {
    // Boys AT rifle vs armour class 2: "11 at 0-25cm 19 at 25-50cm".
    let boys = |range: f64| {
        Exact::of(&format!("boys {range}"), &p2p(range, &firer("boys_at_rifle", ""), "armour_class = 2", ""))
    };
    // 25cm: to hit (band up to 25cm) 11 -> 10/20; 25cm is the first clause's upper edge,
    // inclusive: KO 11 -> 10/20. P(KO) = 100/400 = 1/4.
    assert_eq!(boys(25.0).p_kill(), r(1, 4));
    // 26cm: to hit (band up to 35cm) 15 -> 6/20; second clause, KO 19 -> 2/20.
    // P(KO) = 12/400 = 3/100.
    assert_eq!(boys(26.0).p_kill(), r(3, 100));
    // 50cm: to hit (band up to 50cm) 19 -> 2/20; the second clause's upper edge: KO 19
    // -> 2/20. P(KO) = 4/400 = 1/100.
    assert_eq!(boys(50.0).p_kill(), r(1, 100));
    // 0cm: to hit (band up to 5cm) 3 -> 18/20; "0-25cm" includes 0: KO 11 -> 10/20.
    // P(KO) = 180/400 = 9/20.
    assert_eq!(boys(0.0).p_kill(), r(9, 20));
}

#[test]
fn a_ko_cell_outside_its_listed_bands_under_each_setting() {
    // 20mm auto-cannon vs armour class 1: "11 at 15-25cm", nothing else listed.
    let cannon = |range: f64, setting: &str| {
        Exact::of(
            &format!("20mm {range} {setting}"),
            &p2p(range, &firer("autocannon_20mm", ""), "armour_class = 1", setting),
        )
    };
    let closer_takes_nearest = "ko_outside_listed_ranges = \"closer_takes_nearest\"";
    let no_effect = "ko_outside_listed_ranges = \"no_effect\"";
    let nearest = "ko_outside_listed_ranges = \"nearest\"";

    // 10cm, nearer than the band: to hit (band up to 15cm) 7 -> 14/20.
    // closer_takes_nearest (the default) takes 11 -> 10/20: P(KO) = 140/400 = 7/20.
    assert_eq!(cannon(10.0, "").p_kill(), r(7, 20));
    assert_eq!(cannon(10.0, closer_takes_nearest).p_kill(), r(7, 20));
    // no_effect: nothing listed at 10cm, P(KO) = 0 (hits still land: 14/20).
    let ne = cannon(10.0, no_effect);
    assert_eq!(ne.p_kill(), r(0, 1));
    assert_eq!(ne.p("target", "hit_no_effect"), r(7, 10));
    // nearest: the nearest band, 11 -> 7/20.
    assert_eq!(cannon(10.0, nearest).p_kill(), r(7, 20));

    // 40cm, beyond the band: to hit (band up to 50cm) 15 -> 6/20.
    // closer_takes_nearest: farther than the last band is NE -> 0; no_effect -> 0.
    assert_eq!(cannon(40.0, "").p_kill(), r(0, 1));
    assert_eq!(cannon(40.0, closer_takes_nearest).p_kill(), r(0, 1));
    assert_eq!(cannon(40.0, no_effect).p_kill(), r(0, 1));
    // nearest: 11 -> 10/20; P(KO) = 6/20 * 10/20 = 60/400 = 3/20.
    assert_eq!(cannon(40.0, nearest).p_kill(), r(3, 20));

    // 20cm is inside the band whatever the setting: to hit (band up to 25cm) 10 -> 11/20,
    // KO 11 -> 10/20: P(KO) = 110/400 = 11/40.
    for setting in ["", closer_takes_nearest, no_effect, nearest] {
        assert_eq!(cannon(20.0, setting).p_kill(), r(11, 40), "{setting:?}");
    }

    // The experiment files: 75mm L48 vs armour class 6 ("11 at 25-50cm").
    // 20cm (nearer): to hit (band up to 25cm) 5 -> 16/20; closer takes 11 -> 10/20:
    // P(KO) = 160/400 = 2/5. 70cm (beyond): to hit (band up to 75cm) 10 -> 11/20, NE.
    assert_eq!(Exact::from_doc(&experiment_file("mc_75l48_vs_ac6_20cm.toml")).p_kill(), r(2, 5));
    let far = Exact::from_doc(&experiment_file("mc_75l48_vs_ac6_70cm.toml"));
    assert_eq!(far.p_kill(), r(0, 1));
    assert_eq!(far.p("target", "hit_no_effect"), r(11, 20));
}

// ---------------------------------------------------------------------------
// Area fire against AFVs
// ---------------------------------------------------------------------------

#[test]
fn area_fire_on_a_tank_platoon_with_an_open_topped_half_track() {
    // experiments/mc_area_fire_105mm_vs_panzers.toml: 105mm standard, "Gun or howitzer
    // 75mm to 110mm". Two Panzer IVs, front armour 6 (guns strike front armour): armour
    // 5-7 standard 20 -> 1/20 each. The open-topped half-track is struck on its side
    // armour 2: armour 1-4 standard 18 -> 3/20.
    let e = Exact::from_doc(&experiment_file("mc_area_fire_105mm_vs_panzers.toml"));
    // P(no KO) = (19/20)^2 * 17/20 = 361 * 17 / 8000 = 6137/8000.
    assert_eq!(e.kill_names(), ("template", "ko"));
    assert_eq!(e.p("template", "no_ko"), r(6137, 8000));
    assert_eq!(e.p_kill(), r(1863, 8000));
    // Max 1 KO per template: however many rolls succeed, `kos` stops at 1.
    assert_eq!(e.p("kos", "1"), r(1863, 8000));
    assert_eq!(e.p("kos", "2"), r(0, 1));
    assert_eq!(e.p("kos", "3"), r(0, 1));
}

#[test]
fn rockets_side_armour_and_the_one_ko_cap() {
    // Three vehicles, front armour 8, side armour 5.
    let vehicles = "[[vehicle]]\narmour_front = 8\narmour_side = 5\ncount = 3";
    let open_topped = "[[vehicle]]\narmour_front = 8\narmour_side = 5\nopen_topped = true\ncount = 3";
    // Fighter aircraft (always standard, strike side armour) with rockets: side 5 ->
    // armour 5-7 standard 20, +1 rockets -> natural 19+ = 2/20 each.
    // P(no KO) = (18/20)^3 = 729/1000; P(KO) = 271/1000, all of it exactly one KO (cap).
    let rockets = Exact::of(
        "fighters rockets",
        &area("area_fire_afv", None, "system = \"fighter_aircraft\"\nrockets = true", vehicles),
    );
    assert_eq!(rockets.p("template", "no_ko"), r(729, 1000));
    assert_eq!(rockets.p_kill(), r(271, 1000));
    assert_eq!(rockets.p("kos", "1"), r(271, 1000));
    assert_eq!(rockets.p("kos", "2"), r(0, 1));
    assert_eq!(rockets.p("kos", "3"), r(0, 1));
    // Without rockets: 20 -> 1/20 each; P(KO) = 1 - (19/20)^3 = 1 - 6859/8000 = 1141/8000.
    let plain = Exact::of("fighters", &area("area_fire_afv", None, "system = \"fighter_aircraft\"", vehicles));
    assert_eq!(plain.p_kill(), r(1141, 8000));
    // A 105mm gun strikes front armour 8: armour 8+ standard "No effect" -> P(KO) = 0.
    let front = Exact::of(
        "105mm front",
        &area("area_fire_afv", None, "system = \"gun_howitzer_75_110mm\"\nintensity = \"standard\"", vehicles),
    );
    assert_eq!(front.p_kill(), r(0, 1));
    // Open-topped, the gun strikes side armour 5: armour 5-7 standard 20 -> 1/20 each,
    // P(KO) = 1141/8000 as for the aircraft without rockets.
    let open =
        Exact::of("105mm open-topped", &area("area_fire_afv", None, "system = \"gun_howitzer_75_110mm\"", open_topped));
    assert_eq!(open.p_kill(), r(1141, 8000));
}

#[test]
fn an_all_cell_beyond_and_within_the_one_ko_cap() {
    // Larger artillery, bombardment: two armour 3 vehicles (armour 1-4 reads "all") and
    // one armour 6 vehicle (armour 5-7 reads 9 -> natural 9+ = 12/20 = 3/5).
    let scenario = |setting: &str| {
        area(
            "area_fire_afv",
            None,
            "system = \"larger_artillery\"\nintensity = \"bombardment\"",
            &format!(
                "[[vehicle]]\narmour_front = 3\ncount = 2\n\n[[vehicle]]\narmour_front = 6\n\n[settings]\n{setting}"
            ),
        )
    };
    // Default (all_cell = every_afv_beyond_cap): both armour 3 vehicles are knocked out
    // outside the cap; the armour 6 roll adds one (the cap's one) on 3/5.
    // P(kos = 3) = 3/5, P(kos = 2) = 2/5, and the template always has a KO.
    for setting in ["", "all_cell = \"every_afv_beyond_cap\""] {
        let beyond = Exact::of("all beyond cap", &scenario(setting));
        assert_eq!(beyond.p("kos", "3"), r(3, 5), "{setting:?}");
        assert_eq!(beyond.p("kos", "2"), r(2, 5), "{setting:?}");
        assert_eq!(beyond.p("kos", "1"), r(0, 1), "{setting:?}");
        assert_eq!(beyond.p_kill(), r(1, 1), "{setting:?}");
    }
    // all_cell = "within_cap": the "all" KOs count against the cap of one, so exactly one
    // vehicle is knocked out whatever the armour 6 roll.
    let within = Exact::of("all within cap", &scenario("all_cell = \"within_cap\""));
    assert_eq!(within.p("kos", "1"), r(1, 1));
    assert_eq!(within.p("kos", "2"), r(0, 1));
    assert_eq!(within.p("kos", "3"), r(0, 1));
    assert_eq!(within.p_kill(), r(1, 1));
}

// ---------------------------------------------------------------------------
// Area fire against buildings
// ---------------------------------------------------------------------------

#[test]
fn area_fire_on_a_light_building_d_auto_and_s5_c7_d9() {
    let fired_by = |system: &str, range: Option<f64>, fire: &str, settings: &str| {
        Exact::of(
            "light building",
            &area(
                "area_fire_building",
                range,
                &format!("system = \"{system}\"\n{fire}"),
                &format!("[structure]\nstrength = \"light\"\n\n[settings]\n{settings}"),
            ),
        )
    };
    let light = |range: Option<f64>, fire: &str, settings: &str| {
        fired_by("gun_mortar_howitzer_75_110mm", range, fire, settings)
    };
    // Fighters with rockets read the same class (always standard).
    let rockets = |settings: &str| fired_by("fighter_aircraft", None, "rockets = true", settings);
    // Bombardment vs light reads "D auto": destroyed without a roll.
    let auto = light(None, "intensity = \"bombardment\"", "");
    assert_eq!(auto.kill_names(), ("structure", "destroyed"));
    assert_eq!(auto.p_kill(), r(1, 1));
    // Direct fire at 15cm counts as bombardment: "D auto" again.
    assert_eq!(light(Some(15.0), "intensity = \"direct_fire\"", "").p_kill(), r(1, 1));

    // Standard vs light reads "S5/C7/D9": faces 1-4 no effect (4/20 = 1/5), 5-6 S (1/10),
    // 7-8 C (1/10), 9-20 D (12/20 = 3/5).
    let check_s5 = |e: &Exact| {
        assert_eq!(e.p("structure", "no_effect"), r(1, 5));
        assert_eq!(e.p("structure", "suppression"), r(1, 10));
        assert_eq!(e.p("structure", "casualty"), r(1, 10));
        assert_eq!(e.p("structure", "destroyed"), r(3, 5));
    };
    check_s5(&light(None, "intensity = \"standard\"", ""));
    // Direct fire at 16cm (beyond 15cm) reads the standard column.
    check_s5(&light(Some(16.0), "intensity = \"direct_fire\"", ""));
    // Rockets take no bonus against buildings by default.
    check_s5(&rockets(""));
    // With rockets_vs_buildings = "plus_one": +1 to the d20 -> S4/C6/D8 on natural faces:
    // 1-3 no effect 3/20, 4-5 S 2/20, 6-7 C 2/20, 8-20 D 13/20.
    let plus = rockets("rockets_vs_buildings = \"plus_one\"");
    assert_eq!(plus.p("structure", "no_effect"), r(3, 20));
    assert_eq!(plus.p("structure", "suppression"), r(1, 10));
    assert_eq!(plus.p("structure", "casualty"), r(1, 10));
    assert_eq!(plus.p("structure", "destroyed"), r(13, 20));
    // Harassing fire has no effect.
    assert_eq!(light(None, "intensity = \"harassing\"", "").p("structure", "no_effect"), r(1, 1));
}

#[test]
fn a_155mm_bombardment_of_a_medium_building() {
    // experiments/mc_area_fire_155mm_vs_building.toml: over 110mm to 155mm, bombardment,
    // medium: "S6/C10/D12". Faces 1-5 no effect 5/20 = 1/4; 6-9 S 4/20 = 1/5;
    // 10-11 C 2/20 = 1/10; 12-20 D 9/20.
    let e = Exact::from_doc(&experiment_file("mc_area_fire_155mm_vs_building.toml"));
    assert_eq!(e.p("structure", "no_effect"), r(1, 4));
    assert_eq!(e.p("structure", "suppression"), r(1, 5));
    assert_eq!(e.p("structure", "casualty"), r(1, 10));
    assert_eq!(e.p("structure", "destroyed"), r(9, 20));
    assert_eq!(e.p_kill(), r(9, 20));
}

// ---------------------------------------------------------------------------
// Reaction tests
// ---------------------------------------------------------------------------

#[test]
fn reaction_test_with_two_elements_eliminated() {
    // Regular group, 2 elements eliminated: -2 each = -4. d10 faces 1..10 -> -3..6.
    // 6+ obey: face 10 -> 1/10; 1 to 5 halt: faces 5..9 -> 5/10; 0 to -4 cease fire:
    // faces 1..4 -> 4/10; retreat and rout impossible.
    let e = Exact::of("two eliminated", &reaction("elements_eliminated = 2", ""));
    assert_eq!(e.p("reaction", "obey_orders"), r(1, 10));
    assert_eq!(e.p("reaction", "halt_or_move_to_cover"), r(1, 2));
    assert_eq!(e.p("reaction", "cease_fire_and_retire"), r(2, 5));
    assert_eq!(e.p("reaction", "retreat"), r(0, 1));
    assert_eq!(e.kill_names(), ("reaction", "rout"));
    assert_eq!(e.p_kill(), r(0, 1));
}

#[test]
fn reaction_test_out_of_command_elite_and_not_elite() {
    // Elite +4, "Group is elite and out of command" -1 = +3: faces -> 4..13.
    // Obey (6+): faces 3..10 = 8/10; halt (4, 5): faces 1, 2 = 2/10.
    let elite = Exact::of("elite ooc", &reaction("quality = \"elite\"\nout_of_command = true", ""));
    assert_eq!(elite.p("reaction", "obey_orders"), r(4, 5));
    assert_eq!(elite.p("reaction", "halt_or_move_to_cover"), r(1, 5));
    // Veteran +2, "Group is not elite & is out of command" -4 = -2: faces -> -1..8.
    // Obey: faces 8..10 = 3/10; halt (1..5): faces 3..7 = 5/10; cease fire (-1, 0): 2/10.
    let veteran = Exact::of("veteran ooc", &reaction("quality = \"veteran\"\nout_of_command = true", ""));
    assert_eq!(veteran.p("reaction", "obey_orders"), r(3, 10));
    assert_eq!(veteran.p("reaction", "halt_or_move_to_cover"), r(1, 2));
    assert_eq!(veteran.p("reaction", "cease_fire_and_retire"), r(1, 5));
    // Regular, in command: no modifier, faces 1..10: halt 1..5 = 1/2, obey 6..10 = 1/2.
    let regular = Exact::of("regular", &reaction("quality = \"regular\"", ""));
    assert_eq!(regular.p("reaction", "obey_orders"), r(1, 2));
    assert_eq!(regular.p("reaction", "halt_or_move_to_cover"), r(1, 2));
}

#[test]
fn reaction_test_friendly_afvs_knocked_out_under_both_settings() {
    let group = "friendly_afvs_knocked_out = 3\nenemy_afvs_knocked_out = 2";
    // minus_one_each (default): -1 x 3 friendly +1 x 2 enemy = -1: faces -> 0..9.
    // Obey (6+): faces 7..10 = 4/10; halt (1..5): faces 2..6 = 5/10; cease fire: face 1.
    for setting in ["", "friendly_afv_knocked_out = \"minus_one_each\""] {
        let e = Exact::of("friendly afvs", &reaction(group, setting));
        assert_eq!(e.p("reaction", "obey_orders"), r(2, 5), "{setting:?}");
        assert_eq!(e.p("reaction", "halt_or_move_to_cover"), r(1, 2), "{setting:?}");
        assert_eq!(e.p("reaction", "cease_fire_and_retire"), r(1, 10), "{setting:?}");
    }
    // ignored: only the enemy AFVs count, +2: faces -> 3..12. Obey: faces 4..10 = 7/10;
    // halt: faces 1..3 = 3/10.
    let ignored = Exact::of("friendly afvs ignored", &reaction(group, "friendly_afv_knocked_out = \"ignored\""));
    assert_eq!(ignored.p("reaction", "obey_orders"), r(7, 10));
    assert_eq!(ignored.p("reaction", "halt_or_move_to_cover"), r(3, 10));
    assert_eq!(ignored.p("reaction", "cease_fire_and_retire"), r(0, 1));
}

#[test]
fn reaction_test_down_to_a_rout() {
    // Raw -4, orders permit withdrawal -3, 3 elements eliminated -6 = -13: faces -> -12..-3.
    // Rout (-11 or less): faces 1, 2 = 2/10; retreat (-5 to -10): faces 3..8 = 6/10;
    // cease fire (0 to -4): faces 9, 10 = 2/10.
    let e = Exact::of(
        "rout",
        &reaction("quality = \"raw\"\nelements_eliminated = 3\nmodifiers = [\"orders_permit_withdrawal\"]", ""),
    );
    assert_eq!(e.p("reaction", "rout"), r(1, 5));
    assert_eq!(e.p("reaction", "retreat"), r(3, 5));
    assert_eq!(e.p("reaction", "cease_fire_and_retire"), r(1, 5));
    assert_eq!(e.p_kill(), r(1, 5));
    // experiments/mc_reaction_green_unlocated_afv.toml: green -1, unlocated -2, AFV within
    // 15cm -3 = -6: faces -> -5..4. Halt: faces 7..10 = 4/10; cease fire: faces 2..6 =
    // 5/10; retreat: face 1 = 1/10.
    let green = Exact::from_doc(&experiment_file("mc_reaction_green_unlocated_afv.toml"));
    assert_eq!(green.p("reaction", "obey_orders"), r(0, 1));
    assert_eq!(green.p("reaction", "halt_or_move_to_cover"), r(2, 5));
    assert_eq!(green.p("reaction", "cease_fire_and_retire"), r(1, 2));
    assert_eq!(green.p("reaction", "retreat"), r(1, 10));
    assert_eq!(green.p("reaction", "rout"), r(0, 1));
}

// ---------------------------------------------------------------------------
// Anti-aircraft fire
// ---------------------------------------------------------------------------

#[test]
fn anti_aircraft_infantry_roll_two_d20_each() {
    // An infantry element (integrated): 2d20 "as if 2 MGs were firing". Small arms and
    // MGs at low altitude need 19 -> 2/20 per die; vs a fighter "18 / -": damaged on
    // 18+ (3/20), never destroyed.
    let e = Exact::of(
        "aa infantry",
        "ruleset = \"mission-command\"\nkind = \"anti_aircraft\"\n\n[[aa_firer]]\nweapon = \"small_arms_and_mgs\"\ninfantry = true\n\n[aircraft]\naltitude = \"low_altitude\"\nsize = \"fighter_or_light_bomber\"\n",
    );
    // Per die over 400: miss 360, hit no effect 2 * 17 = 34, damaged 2 * 3 = 6.
    // Worst of two dice: P(damaged) = 1 - (394/400)^2 = 1 - 38809/40000 = 1191/40000;
    // P(miss) = (360/400)^2 = 81/100; P(hit no effect) = (38809 - 32400)/40000 = 6409/40000.
    assert_eq!(e.p("aircraft", "damaged"), r(1191, 40000));
    assert_eq!(e.p("aircraft", "miss"), r(81, 100));
    assert_eq!(e.p("aircraft", "hit_no_effect"), r(6409, 40000));
    assert_eq!(e.p("aircraft", "destroyed"), r(0, 1));
    assert_eq!(e.kill_names(), ("aircraft", "destroyed"));
    // Hits ~ Binomial(2, 1/10): 0: 81/100; 1: 18/100; 2: 1/100.
    assert_eq!(e.p("hits", "0"), r(81, 100));
    assert_eq!(e.p("hits", "1"), r(9, 50));
    assert_eq!(e.p("hits", "2"), r(1, 100));
}

#[test]
fn anti_aircraft_flak_damage_and_destruction() {
    // experiments/mc_aa_flak_vs_fighter_bomber.toml: Flakvierling, "20mm to 30mm cannon"
    // at low altitude 17, multi-barrelled +2 -> natural 15+ = 6/20. vs a fighter
    // "15 / 18": damaged 15..17 (3/20), destroyed 18+ (3/20).
    let flak = Exact::from_doc(&experiment_file("mc_aa_flak_vs_fighter_bomber.toml"));
    // P(destroyed) = 6/20 * 3/20 = 18/400 = 9/200 = P(damaged); P(hit, no effect) =
    // 6/20 * 14/20 = 84/400 = 21/100; P(miss) = 14/20 = 7/10.
    assert_eq!(flak.p_kill(), r(9, 200));
    assert_eq!(flak.p("aircraft", "damaged"), r(9, 200));
    assert_eq!(flak.p("aircraft", "hit_no_effect"), r(21, 100));
    assert_eq!(flak.p("aircraft", "miss"), r(7, 10));
    // Heavy flak at high altitude needs 19 -> 2/20; vs a heavy aircraft "15 / 18":
    // damaged 15..17 (3/20), destroyed 18+ (3/20). Two guns, independent:
    // per gun: destroyed 6/400, damaged 6/400, hit NE 2*14 = 28/400, miss 360/400.
    // P(destroyed) = 1 - (394/400)^2 = 1191/40000;
    // P(worst damaged) = (394/400)^2 - (388/400)^2 = (155236 - 150544)/160000 = 4692/160000 = 1173/40000.
    let heavy = Exact::of(
        "heavy flak",
        "ruleset = \"mission-command\"\nkind = \"anti_aircraft\"\n\n[[aa_firer]]\nweapon = \"flak_over_57mm\"\nelements = 2\n\n[aircraft]\naltitude = \"high_altitude\"\nsize = \"heavy_aircraft\"\n",
    );
    assert_eq!(heavy.p_kill(), r(1191, 40000));
    assert_eq!(heavy.p("aircraft", "damaged"), r(1173, 40000));
    assert_eq!(heavy.p("aircraft", "miss"), r(81, 100));
}

// ---------------------------------------------------------------------------
// The experiment files run through the binary.
// ---------------------------------------------------------------------------

#[test]
fn every_mission_command_experiment_file_runs_through_the_binary() {
    // (file, outcome of the primary measure, hand-computed exact fraction; see above)
    let cases = [
        ("mc_75l48_vs_ac6_20cm.toml", "ko", "2/5"),
        ("mc_75l48_vs_ac6_40cm.toml", "ko", "7/20"),
        ("mc_75l48_vs_ac6_70cm.toml", "hit_no_effect", "11/20"),
        ("mc_hmg_good_cover.toml", "casualty", "1/20"),
        ("mc_area_fire_105mm_vs_panzers.toml", "no_ko", "6137/8000"),
        ("mc_area_fire_155mm_vs_building.toml", "destroyed", "9/20"),
        ("mc_reaction_green_unlocated_afv.toml", "cease_fire_and_retire", "1/2"),
        ("mc_aa_flak_vs_fighter_bomber.toml", "destroyed", "9/200"),
    ];
    for (file, outcome, fraction) in cases {
        let row = experiment_outcome_row(file, 2_000, outcome);
        assert_eq!(row["exact_fraction"], fraction, "{file}");
    }
}

#[test]
fn the_report_says_when_the_exact_engine_stands_aside() {
    // 30 elements at foot: 30 shots of a to-hit and a conversion d20 weigh up to 400^30
    // = 2^259, and past 128 bits even after the engine reduces the weights. 10 weigh at
    // most 400^10 = 2^86.4 and stay exact.
    let foot = |elements: u32| {
        combat_odds_core::document::Document::new(
            "foot",
            "tests/suite/mission_command/hand_computed.rs (foot)",
            p2p(
                10.0,
                &firer("rifle_section", &format!("elements = {elements}")),
                "situation = \"no_or_light_cover\"",
                "",
            ),
        )
    };
    let far = crate::common::plan_doc(&foot(30), 1000, 1, 1);
    assert!(far.set_up.experiment.exact().is_none());
    assert!(
        far.set_up
            .notes
            .iter()
            .any(|n| n.contains("pass the exact engine's 128-bit integers") && n.contains("30 d20 shots")),
        "{:?}",
        far.set_up.notes
    );
    let near = crate::common::plan_doc(&foot(10), 1000, 1, 1);
    assert!(near.set_up.experiment.exact().is_some());
    assert!(!near.set_up.notes.iter().any(|n| n.contains("exact engine")), "{:?}", near.set_up.notes);
}
