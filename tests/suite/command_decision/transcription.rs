//! The shipped Command Decision tables, checked cell by cell against the General
//! Reference Card (seed `001_b275c1225bd05435.txt`). Every expected value below is a
//! literal copied from the seed text; the comment above it quotes the seed line.

use combat_odds_core::tables::{ModifierEffect, ModifierTable, Side, Source};
use combat_odds_rules::Ruleset;
use combat_odds_rules::command_decision::{CommandDecision, HitResult, Quality, Tables};
use combat_odds_rules::ruleset::Load;

const SEED: &str = "001_b275c1225bd05435.txt";

fn ruleset() -> CommandDecision {
    CommandDecision::load(None).expect("the embedded tables load")
}

/// One expected modifier row: stable name, value as the card prints it, column
/// (target or firer, where the chart has both) and whether it carries the "*".
struct Row {
    name: &'static str,
    value: &'static str,
    side: Option<Side>,
    he_ignores: bool,
}

const fn row(name: &'static str, value: &'static str) -> Row {
    Row { name, value, side: None, he_ignores: false }
}

const fn target(name: &'static str, value: &'static str, he_ignores: bool) -> Row {
    Row { name, value, side: Some(Side::Target), he_ignores }
}

const fn firer(name: &'static str, value: &'static str) -> Row {
    Row { name, value, side: Some(Side::Firer), he_ignores: false }
}

/// Checks a chart holds exactly `expected`, in that order, row by row.
fn assert_chart(chart_name: &str, chart: &ModifierTable, expected: &[Row]) {
    let names: Vec<&str> = chart.rows().iter().map(|m| m.name.as_str()).collect();
    let wanted: Vec<&str> = expected.iter().map(|r| r.name).collect();
    assert_eq!(names, wanted, "{chart_name}: the rows (in card order)");
    for want in expected {
        let got = chart.get(want.name);
        assert_eq!(got.display_value(), want.value, "{chart_name}, row `{}`: value", want.name);
        assert_eq!(got.side, want.side, "{chart_name}, row `{}`: target or firer column", want.name);
        assert_eq!(got.he_ignores, want.he_ignores, "{chart_name}, row `{}`: the \"*\" mark", want.name);
        assert!(!got.label.trim().is_empty(), "{chart_name}, row `{}`: the card's label", want.name);
    }
}

fn assert_source(what: &str, source: &Source, table: &str, rules: Option<&str>) {
    assert_eq!(source.seed, SEED, "{what}: seed file");
    assert!(!source.table.trim().is_empty(), "{what}: table title");
    assert_eq!(source.table, table, "{what}: table title");
    assert_eq!(source.rules.as_deref(), rules, "{what}: rule citation");
}

#[test]
fn hit_results_chart_matches_the_reference_card_cell_by_cell() {
    // "Target Stand's Troop Quality Rating No Effect Forced Back Eliminated *"
    let card: [(Quality, [&str; 3], i32); 6] = [
        // "Green 1 2-5 6+ 10"
        (Quality::Green, ["1", "2-5", "6+"], 10),
        // "Trained 1-2 3-6 7+ 10"
        (Quality::Trained, ["1-2", "3-6", "7+"], 10),
        // "Regular 1-3 4-6 7+ 10"
        (Quality::Regular, ["1-3", "4-6", "7+"], 10),
        // "Experienced 1-4 5-7 8+ 10"
        (Quality::Experienced, ["1-4", "5-7", "8+"], 10),
        // "Veteran 1-5 6-7 8+ 10"
        (Quality::Veteran, ["1-5", "6-7", "8+"], 10),
        // "Elite 1-6 7-8 9+ 10"
        (Quality::Elite, ["1-6", "7-8", "9+"], 10),
    ];
    let cd = ruleset();
    let t = cd.tables();
    for (quality, bands, star) in card {
        let row = t.hit_row(quality);
        let got: Vec<String> = row.bands.ranges().iter().map(|r| r.to_string()).collect();
        assert_eq!(got, bands, "Hit Results Chart, row {quality}: no effect / forced back / eliminated");
        assert_eq!(row.natural, star, "Hit Results Chart, row {quality}: the \"*\" column");
    }
}

#[test]
fn hit_results_rows_run_from_green_to_elite_like_the_card() {
    // Rows of the card, top to bottom: Green, Trained, Regular, Experienced, Veteran, Elite.
    assert_eq!(Quality::NAMES, ["green", "trained", "regular", "experienced", "veteran", "elite"]);
    let cd = ruleset();
    for (i, q) in Quality::ALL.iter().enumerate() {
        assert_eq!(*q as usize, i);
        assert_eq!(q.to_string(), Quality::NAMES[i]);
        assert_eq!(&cd.tables().hit_results[i], cd.tables().hit_row(*q));
    }
}

#[test]
fn hit_results_lookup_gives_the_card_result_for_every_die_face() {
    use HitResult::{Eliminated as E, ForcedBack as F, NoEffect as N};
    // The same six rows as above, spelt out face by face (d10 faces 1..=10).
    let card: [(Quality, [HitResult; 10]); 6] = [
        // "Green 1 2-5 6+"
        (Quality::Green, [N, F, F, F, F, E, E, E, E, E]),
        // "Trained 1-2 3-6 7+"
        (Quality::Trained, [N, N, F, F, F, F, E, E, E, E]),
        // "Regular 1-3 4-6 7+"
        (Quality::Regular, [N, N, N, F, F, F, E, E, E, E]),
        // "Experienced 1-4 5-7 8+"
        (Quality::Experienced, [N, N, N, N, F, F, F, E, E, E]),
        // "Veteran 1-5 6-7 8+"
        (Quality::Veteran, [N, N, N, N, N, F, F, E, E, E]),
        // "Elite 1-6 7-8 9+"
        (Quality::Elite, [N, N, N, N, N, N, F, F, E, E]),
    ];
    let cd = ruleset();
    for (quality, faces) in card {
        let row = cd.tables().hit_row(quality);
        let got: Vec<HitResult> = (1..=10).map(|face| row.result(face)).collect();
        assert_eq!(got, faces, "Hit Results Chart, row {quality}, faces 1 to 10");
        // Modified rolls below 1 stay "No Effect"; above 10 stay "Eliminated".
        assert_eq!(row.result(-4), N, "row {quality}: a roll modified below 1");
        assert_eq!(row.result(15), E, "row {quality}: a roll modified above 10");
    }
}

#[test]
fn ap_footnote_natural_ten_matches_the_card() {
    // "*A natural (unmodified) 10 for Penetration (numeric anti-armor value) roll,
    //  Elimination at Close Range or at least Forced Back at other ranges."
    let cd = ruleset();
    // The natural face is the Hit Results Chart's "*" column, 10 on every row.
    let n = &cd.tables().natural;
    assert!(Quality::ALL.iter().all(|q| cd.tables().hit_row(*q).natural == 10));
    assert_eq!(n.close_range, HitResult::Eliminated);
    assert_eq!(n.other_ranges, HitResult::ForcedBack);
}

#[test]
fn ap_modifiers_match_the_card() {
    // "Bonuses Modifier Penalties Modifier"
    // "Armor Value -AV Wpn. Pen. +/- Pen."
    let card = [row("armour_value", "-1 x armour"), row("weapon_penetration", "+1 x penetration")];
    let cd = ruleset();
    let ap = &cd.tables().ap;
    assert_chart("AP modifiers", ap, &card);
    // -AV: armour 5 gives -5; +/- Pen.: penetration 8 gives +8, -2 gives -2.
    assert_eq!(ap.get("armour_value").value(5), -5);
    assert_eq!(ap.get("weapon_penetration").value(8), 8);
    assert_eq!(ap.get("weapon_penetration").value(-2), -2);
}

#[test]
fn morale_results_match_the_reference_card() {
    // "Exceed Morale Result"
    let card: [(&str, &str, bool); 4] = [
        // "1-2 Pinned (no op/prep fire or move toward enemy)"
        ("1-2", "pinned", false),
        // "3-4 Forced Back, Shaken (as pinned)"
        ("3-4", "shaken", true),
        // "5-6 Forced Back, Demoralized (as pinned, no fire)"
        ("5-6", "demoralized", true),
        // "7+ Eliminated or Surrenders"
        ("7+", "eliminated", false),
    ];
    let cd = ruleset();
    let m = &cd.tables().morale_results;
    let bands: Vec<String> = m.bands.ranges().iter().map(|r| r.to_string()).collect();
    assert_eq!(bands, card.map(|(b, ..)| b), "Morale Results: exceed bands");
    let results: Vec<(&str, bool)> = m.results.iter().map(|(r, f)| (r.as_str(), *f)).collect();
    assert_eq!(results, card.map(|(_, r, f)| (r, f)), "Morale Results: result and forced back");
    // Looking up how far the roll exceeded: 1..=10 and beyond.
    let idx: Vec<usize> = (1..=10).map(|e| m.bands.index(e)).collect();
    assert_eq!(idx, [0, 0, 1, 1, 2, 2, 3, 3, 3, 3]);
}

#[test]
fn rate_of_fire_modifiers_match_the_card_including_the_two_one_max_caps() {
    // "Bonuses Modifier Penalties Modifier"
    let card = [
        // "Elite +1 Passenger* -1"
        row("elite", "+1"),
        // "Op. Fire +1 Multiple Targets -1#"
        row("op_fire", "+1"),
        // "Human Wave +1 (CA) Pers. CA vs AFV 1 max."
        row("human_wave", "+1"),
        // "Elite +1 Passenger* -1"
        row("passenger", "-1"),
        // "Op. Fire +1 Multiple Targets -1#"
        row("multiple_targets", "-1"),
        // "Human Wave +1 (CA) Pers. CA vs AFV 1 max."
        row("personnel_close_assault_vs_afv", "1 max"),
        // "CA = Close Assault Bn. Gun 1 max."
        row("battalion_gun", "1 max"),
    ];
    let cd = ruleset();
    let rof = &cd.tables().rate_of_fire;
    assert_chart("ROF modifiers", rof, &card);
    for cap in ["personnel_close_assault_vs_afv", "battalion_gun"] {
        assert_eq!(rof.get(cap).effect, ModifierEffect::Max(1), "`{cap}` caps the ROF at 1");
        assert_eq!(rof.get(cap).value(1), 0, "`{cap}` adds nothing, it caps");
    }
    for (name, value) in [("elite", 1), ("op_fire", 1), ("human_wave", 1), ("passenger", -1), ("multiple_targets", -1)]
    {
        assert_eq!(rof.get(name).value(1), value, "ROF `{name}`");
    }
}

#[test]
fn direct_fire_to_hit_modifiers_match_the_card_with_star_marks_and_sides() {
    // "Target + Modifier Firer Modifier"; "*HE (H & W) ignores".
    let card = [
        // "Patrol [24] -1* H class vs Weak AFV +1"
        target("patrol", "-1", true),
        // "Pinned Pers. -1* Veteran/Elite +1"
        target("pinned_personnel", "-1", true),
        // "Light Cover -1* Trained/Green -1"
        target("light_cover", "-1", true),
        // "AFV hull down or in BUA -2* Suppressed -2"
        target("afv_hull_down_or_bua", "-2", true),
        // "Pers. in Cover: Hasty Advance -2" / "Medium -2 Pinned -2"
        target("medium_cover", "-2", false),
        // "Hard -3 A class vs Strong AFV -2"
        target("hard_cover", "-3", false),
        // "Fortification -5 W class vs Weak AFV -3"
        target("fortification", "-5", false),
        // "Patrol [24] -1* H class vs Weak AFV +1"
        firer("h_class_vs_weak_afv", "+1"),
        // "Pinned Pers. -1* Veteran/Elite +1"
        firer("veteran_elite", "+1"),
        // "Light Cover -1* Trained/Green -1"
        firer("trained_green", "-1"),
        // "AFV hull down or in BUA -2* Suppressed -2"
        firer("suppressed", "-2"),
        // "Pers. in Cover: Hasty Advance -2"
        firer("hasty_advance", "-2"),
        // "Medium -2 Pinned -2"
        firer("pinned", "-2"),
        // "Hard -3 A class vs Strong AFV -2"
        firer("a_class_vs_strong_afv", "-2"),
        // "Fortification -5 W class vs Weak AFV -3"
        firer("w_class_vs_weak_afv", "-3"),
        // "... H class vs All AFV -Weight Class"
        firer("h_class_vs_all_afv", "-1 x weight_class"),
    ];
    let cd = ruleset();
    let df = &cd.tables().direct_fire;
    assert_chart("Direct fire to-hit modifiers", df, &card);
    // "-Weight Class": a weight class 3 AFV gives -3.
    assert_eq!(df.get("h_class_vs_all_afv").value(3), -3);
    assert_eq!(df.get("fortification").value(1), -5);
}

#[test]
fn indirect_fire_to_hit_modifiers_match_the_card() {
    // "Target is Pers. in... Modifier Firer Modifier"
    let card = [
        // "Med. cover -2 Pinned -2"
        target("medium_cover", "-2", false),
        // "Hard cover -3 vs Weak AFV +1"
        target("hard_cover", "-3", false),
        // "Fortifications -5 vs All AFV -Weight"
        target("fortification", "-5", false),
        // "Med. cover -2 Pinned -2"
        firer("pinned", "-2"),
        // "Hard cover -3 vs Weak AFV +1"
        firer("vs_weak_afv", "+1"),
        // "Fortifications -5 vs All AFV -Weight"
        firer("vs_all_afv", "-1 x weight_class"),
    ];
    let cd = ruleset();
    let idf = &cd.tables().indirect_fire;
    assert_chart("Indirect fire to-hit modifiers", idf, &card);
    assert_eq!(idf.get("vs_all_afv").value(4), -4);
}

#[test]
fn artillery_response_success_numbers_and_modifiers_match_the_card() {
    let cd = ruleset();
    let r = &cd.tables().artillery_response;
    // "Organic Artillery 5"
    assert_eq!(r.organic, 5);
    // "Supporting Arty. 3"
    assert_eq!(r.supporting, 3);
    // "Modifiers, firing unit:"
    let card = [
        // "Dedicated Battery +2"
        row("dedicated_battery", "+2"),
        // "Elite/Veteran +1"
        row("elite_veteran", "+1"),
        // "Trained/Green -1"
        row("trained_green", "-1"),
        // "Suppressed -2"
        row("suppressed", "-2"),
    ];
    assert_chart("Artillery response modifiers", &r.modifiers, &card);
}

#[test]
fn ammo_depletion_parameters_and_modifiers_match_the_card() {
    // "a natural 1 for 20mm+ To Hit roll requires a ammo depletion roll: depletes if
    //  less than or equal to the caliber/10 (drop fractions e.g. 75mm = roll of 1-7)
    //  with Modifiers: Armored Cars +1; Tanks -1"
    let cd = ruleset();
    let a = &cd.tables().ammo;
    assert_eq!(a.trigger, 1, "a natural 1");
    assert_eq!(a.min_caliber_mm, 20, "20mm+");
    assert_eq!(a.divisor, 10, "caliber/10");
    assert_eq!(75 / a.divisor, 7, "75mm = roll of 1-7");
    assert_chart("Ammo depletion modifiers", &a.modifiers, &[row("armoured_car", "+1"), row("tank", "-1")]);
}

#[test]
fn morale_modifiers_match_the_card_all_eleven_rows() {
    // "Stand Modifier Enemy Modifier"
    let card = [
        // "In Cover [14.2.2] +2* Pers. within 12" & LOS -1"
        row("in_cover", "+2"),
        // "Each stand/vehicle Forced Back -1** AFV within 12" & LOS -2"
        row("stand_forced_back", "-1 x stands_forced_back"),
        // "Each stand/vehicle Eliminated -2** Air Attack within 12" -2"
        row("stand_eliminated", "-2 x stands_eliminated"),
        // "In Road March [Adv. 23.1.2] -2"
        row("road_march", "-2"),
        // "Targeted by TOT Mission [Adv 28.3.1] -2"
        row("tot_mission", "-2"),
        // "Pinned [21.3.2] -2"
        row("pinned", "-2"),
        // "Shaken [21.3.3] -3"
        row("shaken", "-3"),
        // "Demoralized [21.3.4] # -4"
        row("demoralized", "-4"),
        // "In Cover [14.2.2] +2* Pers. within 12" & LOS -1"
        row("enemy_personnel_within_12", "-1"),
        // "Each stand/vehicle Forced Back -1** AFV within 12" & LOS -2"
        row("enemy_afv_within_12", "-2"),
        // "Each stand/vehicle Eliminated -2** Air Attack within 12" -2"
        row("air_attack_within_12", "-2"),
    ];
    assert_eq!(card.len(), 11);
    let cd = ruleset();
    let m = &cd.tables().morale_modifiers;
    assert_chart("Morale modifiers", m, &card);
    // "Each stand/vehicle ...": two stands forced back give -2, two eliminated -4.
    assert_eq!(m.get("stand_forced_back").value(2), -2);
    assert_eq!(m.get("stand_eliminated").value(2), -4);
}

#[test]
fn every_table_carries_provenance_from_the_reference_card() {
    let cd = ruleset();
    let t: &Tables = cd.tables();
    // "## Hit Results Chart Roll for each hit [19.1, 19.1.1-19.1.2]"
    assert_source("hit results", &t.hit_results_source, "Hit Results Chart", Some("19.1, 19.1.1-19.1.2"));
    // "## AP\* Modifiers to Hit Results Die Roll"
    assert_source("AP modifiers", &t.ap.source, "AP* Modifiers to Hit Results Die Roll", Some("19.1"));
    // "### Direct Fire, Rate of Fire Mod. [13.5-13.5.11]"
    assert_source("ROF", &t.rate_of_fire.source, "Direct Fire, Rate of Fire Mod.", Some("13.5-13.5.11"));
    // "### Direct Fire To-Hit Modifiers [14.2.1, 17.6.2]"
    assert_source("direct fire", &t.direct_fire.source, "Direct Fire To-Hit Modifiers", Some("14.2.1, 17.6.2"));
    // "### Indirect Fire To-Hit Modifiers [14.2.1, 17.6.2]"
    assert_source("indirect fire", &t.indirect_fire.source, "Indirect Fire To-Hit Modifiers", Some("14.2.1, 17.6.2"));
    // "### Artillery Response [Rules 17.4 & 17.4.1]"
    let response = &t.artillery_response;
    assert_source("artillery response", &response.source, "Artillery Response", Some("17.4, 17.4.1"));
    assert_source(
        "artillery response modifiers",
        &response.modifiers.source,
        "Artillery Response",
        Some("17.4, 17.4.1"),
    );
    // "**C) Ammo Depletion** [Adv. 27.1]"
    assert_source("ammo depletion", &t.ammo.source, "C) Ammo Depletion", Some("Adv. 27.1"));
    assert_source("ammo depletion modifiers", &t.ammo.modifiers.source, "C) Ammo Depletion", Some("Adv. 27.1"));
    // "### Morale Modifiers [14.2.2, 21.1.1, 21.2, 21.3]"
    assert_source(
        "morale modifiers",
        &t.morale_modifiers.source,
        "Morale Modifiers",
        Some("14.2.2, 21.1.1, 21.2, 21.3"),
    );
    // "### Morale Results [19.1.1, 21.3.1-21.3.4]"
    assert_source("morale results", &t.morale_results_source, "Morale Results", Some("19.1.1, 21.3.1-21.3.4"));
}

#[test]
fn every_listed_card_table_names_seed_001_and_a_title() {
    let cd = ruleset();
    let views = Ruleset::listing(&cd);
    let card: Vec<_> = views.iter().filter(|v| !v.file.starts_with("catalogue.toml")).collect();
    // Hit results, natural-10 footnote, morale results, artillery response, ammo
    // depletion, the seven modifier charts and the Orders Summary.
    assert_eq!(card.len(), 13, "tables listed: {:?}", views.iter().map(|v| &v.file).collect::<Vec<_>>());
    for v in card {
        assert_eq!(v.source.seed, SEED, "{}: seed file", v.file);
        assert!(!v.source.table.trim().is_empty(), "{}: table title", v.file);
    }
    // The catalogue is the one table not from the card, and says so.
    for v in views.iter().filter(|v| v.file.starts_with("catalogue.toml")) {
        assert_ne!(v.source.seed, SEED, "{}: the catalogue is illustrative, not from the card", v.file);
        assert!(v.source.seed.contains("illustrative"), "{}: {}", v.file, v.source.seed);
    }
}

#[test]
fn every_modifier_listing_cites_seed_001() {
    let cd = ruleset();
    let infos = Ruleset::modifiers(&cd);
    // 7 + 16 + 6 + 4 + 2 + 2 + 11 rows across the seven charts, and the Orders
    // Summary's three "Yes(-2)*" orders.
    assert_eq!(infos.len(), 51);
    for m in &infos {
        assert!(m.source.starts_with(SEED), "{} `{}`: source {}", m.chart, m.name, m.source);
        assert!(m.source.len() > SEED.len() + 2, "{} `{}`: source names a table", m.chart, m.name);
    }
}

#[test]
fn orders_summary_rows_match_the_card() {
    // Seed 001, Orders Summary: "Disengage+ 1x-2x^ No Yes(-2)*", "Take Command None No
    // Yes(-2)*", "Rally/Regroup [Adv] None No Yes(-2)*".
    let cd = ruleset();
    let orders = &cd.tables().orders;
    assert_eq!(orders.source.table, "Orders Summary");
    for (name, label) in
        [("disengage", "Disengage"), ("take_command", "Take Command"), ("rally_regroup", "Rally/Regroup [Adv]")]
    {
        let row = orders.get(name);
        assert_eq!((row.label.as_str(), row.value(1)), (label, -2), "{name}");
    }
}
