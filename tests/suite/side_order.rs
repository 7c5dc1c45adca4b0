//! The order a scenario lists its sides never changes a probability (rule 4, and
//! seed 000 "Combat": fire is simultaneous and its results apply at the end of the
//! phase). An engagement written with its sides swapped must give the mirrored
//! distributions: every measure, read by its name and outcome label (side names,
//! entry names), exactly equal, and its Monte Carlo counts must fit the original's
//! exact answer. The rulesets whose sides take turns (Company Commander, Mission
//! Command, Chain of Command) name which side plays first (`first`), so the swapped
//! file keeps that side first.

use std::collections::BTreeMap;

use combat_odds_core::dice::Ratio;
use combat_odds_core::engine::Mode;
use combat_odds_report::export::Report;

use crate::common::exact::Exact;
use crate::common::grid::{grid_trials, pooled_fit};
use crate::common::plan_in;

/// The scenario with its `[[side]]` tables in the other order. Where sides take
/// turns, the side that played first is named `first`, so it still does.
pub fn swapped(text: &str) -> String {
    let mut doc: toml::Table = text.parse().expect("a scenario parses as TOML");
    let simultaneous = doc.get("ruleset").and_then(toml::Value::as_str) == Some("command-decision");
    let sides = doc.get_mut("side").and_then(toml::Value::as_array_mut).expect("an engagement lists [[side]]s");
    let listed_first = sides[0].get("name").cloned().expect("a side has a name");
    sides.reverse();
    let engagement = doc.get_mut("engagement").and_then(toml::Value::as_table_mut).expect("an [engagement]");
    if !simultaneous && !engagement.contains_key("first") {
        engagement.insert("first".into(), listed_first);
    }
    toml::to_string(&doc).expect("a TOML table serializes")
}

/// Holds the exact answers of a scenario and its swapped twin to each other: the
/// same measures with the same outcomes, each with the same probability.
fn assert_exactly_mirrored(name: &str, text: &str) -> BTreeMap<(String, String), Ratio> {
    let listed = Exact::of(name, text).by_label();
    let twin = Exact::of(&format!("{name} (sides swapped)"), &swapped(text)).by_label();
    assert_eq!(
        listed.keys().collect::<Vec<_>>(),
        twin.keys().collect::<Vec<_>>(),
        "{name}: the swapped scenario has other measures"
    );
    for (key, p) in &listed {
        assert_eq!(&twin[key], p, "{name}: P({} = {}) changes with the order of the sides", key.0, key.1);
    }
    listed
}

/// Runs the swapped twin by Monte Carlo and tests each measure's counts against the
/// original's exact distribution (Pearson's chi-square, rare outcomes pooled); returns
/// the p-values.
fn monte_carlo_fits(
    name: &str,
    text: &str,
    exact: &BTreeMap<(String, String), Ratio>,
    seed: u64,
) -> Vec<(String, f64)> {
    let trials = grid_trials(200_000);
    let plan = plan_in(Mode::Literal, name, &swapped(text), trials, seed, 2);
    let report = Report::of(plan).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut fits = Vec::new();
    for (measure, rows, _) in report.all_measures() {
        let counts: Vec<u64> = rows.iter().map(|r| r.count).collect();
        let probabilities: Vec<Ratio> =
            rows.iter().map(|r| exact[&(measure.to_string(), r.outcome.clone())].clone()).collect();
        for (r, p) in rows.iter().zip(&probabilities) {
            assert!(!(p.is_zero() && r.count > 0), "{name}: `{measure}` = `{}` is impossible but was seen", r.outcome);
        }
        fits.push((format!("{name} / {measure}"), pooled_fit(&counts, &probabilities).p_value));
    }
    fits
}

/// Two Shermans (regular, one platoon) against a veteran Panther at `range` in., the
/// US listed first.
fn shermans_vs_panther(range: f64, turns: u32) -> String {
    format!(
        r#"ruleset = "command-decision"
kind = "engagement"

[engagement]
range = {range}
turns = {turns}

[[side]]
name = "US"

[[side.company]]
name = "Sherman platoon"
morale = 7

[[side.unit]]
name = "Sherman"
count = 2
quality = "regular"
weapon = "us_75mm_m3"
mount = "tank"
vehicle = "m4_sherman"

[[side]]
name = "German"

[[side.company]]
name = "Panther"
morale = 8

[[side.unit]]
name = "Panther"
quality = "veteran"
weapon = "de_75mm_kwk42"
mount = "tank"
vehicle = "panther_g"
"#
    )
}

#[test]
fn two_shermans_against_a_panther_have_the_same_odds_whichever_side_is_listed_first() {
    // The symptom as a new user met it: at 10 in. the US side first gave P(US wins)
    // 0.5729 and the German side first 0.6941, because the side listed first still
    // counted the enemy stands it had just destroyed as "within 12 in." at its
    // morale check.
    assert_exactly_mirrored("two shermans at 10 in.", &shermans_vs_panther(10.0, 8));
}

/// Small Command Decision fights in which the side listed first and the side listed
/// second differ in every way the turn reads: vehicles, personnel, cover, companies.
fn command_decision_grid() -> Vec<(String, String)> {
    let mut cases = Vec::new();
    for (range, turns) in [(10.0, 6), (4.0, 4), (20.0, 6)] {
        cases.push((format!("two shermans vs panther at {range} in."), shermans_vs_panther(range, turns)));
    }
    let infantry = r#"ruleset = "command-decision"
kind = "engagement"

[engagement]
range = 10
turns = 5

[[side]]
name = "Attackers"

[[side.company]]
name = "Rifle company"
morale = 6

[[side.company]]
name = "Weapons company"
morale = 5

[[side.unit]]
name = "Rifles"
company = "Rifle company"
quality = "regular"
weapon = "hmg_platoon"

[[side.unit]]
name = "MG"
company = "Weapons company"
quality = "green"
weapon = "hmg_platoon"

[[side]]
name = "Defenders"

[[side.company]]
name = "Defenders"
morale = 7

[[side.unit]]
name = "Dug-in MG"
quality = "experienced"
weapon = "hmg_platoon"
target_modifiers = ["medium_cover"]
"#;
    cases.push(("two companies against an MG in cover".into(), infantry.into()));
    cases
}

#[test]
fn command_decision_fights_are_mirrored_exactly_and_by_monte_carlo() {
    let mut fits = Vec::new();
    for (i, (name, text)) in command_decision_grid().iter().enumerate() {
        let exact = assert_exactly_mirrored(name, text);
        fits.extend(monte_carlo_fits(name, text, &exact, 20_261_126 + i as u64));
    }
    // Family-wise alpha 0.01, Bonferroni over every measure of every case.
    let per_test = 0.01 / fits.len() as f64;
    let failures: Vec<_> = fits.iter().filter(|(_, p)| p.is_nan() || *p < per_test).collect();
    assert!(failures.is_empty(), "Monte Carlo of the swapped scenarios disagrees: {failures:?}");
}

#[test]
fn every_shipped_engagement_is_mirrored() {
    let mut fits = Vec::new();
    let mut shipped: Vec<_> = std::fs::read_dir(crate::common::experiment_path(""))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_string_lossy().contains("_engagement_"))
        .collect();
    shipped.sort();
    for (i, path) in shipped.iter().enumerate() {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(path).unwrap();
        if plan_in(Mode::Literal, &name, &text, 1, 1, 1).set_up.experiment.exact().is_some() {
            assert_exactly_mirrored(&name, &text);
        } else {
            fits.extend(monte_carlo_twins(&name, &text, 20_261_127 + i as u64));
        }
    }
    let per_test = 0.01 / fits.len().max(1) as f64;
    let failures: Vec<_> = fits.iter().filter(|(_, p)| p.is_nan() || *p < per_test).collect();
    assert!(failures.is_empty(), "Monte Carlo of a swapped shipped engagement disagrees: {failures:?}");
}

/// Where no exact answer is in reach: the scenario and its swapped twin by Monte
/// Carlo (independent seeds), each measure's counts tested for one distribution
/// (Pearson's chi-square of homogeneity over outcomes seen at least 10 times in all,
/// the rest pooled).
fn monte_carlo_twins(name: &str, text: &str, seed: u64) -> Vec<(String, f64)> {
    use statrs::distribution::{ChiSquared, ContinuousCDF};
    let trials = grid_trials(200_000);
    let counts = |text: &str, seed: u64| -> BTreeMap<(String, String), u64> {
        let report = Report::of(plan_in(Mode::Literal, name, text, trials, seed, 2)).unwrap();
        report
            .all_measures()
            .flat_map(|(m, rows, _)| rows.iter().map(move |r| ((m.to_string(), r.outcome.clone()), r.count)))
            .collect()
    };
    let (a, b) = (counts(text, seed), counts(&swapped(text), seed + 1_000));
    let mut fits = Vec::new();
    let measures: std::collections::BTreeSet<&String> = a.keys().map(|(m, _)| m).collect();
    for m in measures {
        // Cells: (count in a, count in b), small ones pooled.
        let mut cells: Vec<(f64, f64)> = Vec::new();
        let mut pool = (0.0, 0.0);
        for ((_, o), &x) in a.range((m.clone(), String::new())..).take_while(|((n, _), _)| n == m) {
            let y = b[&(m.clone(), o.clone())] as f64;
            if x as f64 + y < 10.0 {
                pool = (pool.0 + x as f64, pool.1 + y);
            } else {
                cells.push((x as f64, y));
            }
        }
        if pool.0 + pool.1 > 0.0 {
            cells.push(pool);
        }
        let chi: f64 = cells
            .iter()
            .map(|&(x, y)| {
                let e = (x + y) / 2.0;
                (x - e).powi(2) / e + (y - e).powi(2) / e
            })
            .sum();
        let dof = cells.len().saturating_sub(1) as f64;
        let p = if dof == 0.0 { 1.0 } else { ChiSquared::new(dof).unwrap().sf(chi) };
        fits.push((format!("{name} / {m}"), p));
    }
    fits
}

#[test]
fn first_names_a_side_and_is_refused_where_fire_is_simultaneous() {
    use crate::common::cli::{assert_contains, assert_located, place, scenario_error};
    // A misspelt side.
    let mc =
        std::fs::read_to_string(crate::common::experiment_path("mc_engagement_panzer_iv_vs_shermans.toml")).unwrap();
    let text = mc.replacen("[engagement]\n", "[engagement]\nfirst = \"Germnas\"\n", 1);
    let (_d, path, line) = scenario_error("first.toml", &text);
    assert_located(&line, &path, &place(&text, "\"Germnas\"", 0));
    assert_contains(&line, &["unknown side `Germnas`"]);
    // Command Decision has no first side.
    let text = shermans_vs_panther(10.0, 2).replacen("[engagement]\n", "[engagement]\nfirst = \"US\"\n", 1);
    let (_d, path, line) = scenario_error("first_cd.toml", &text);
    assert_located(&line, &path, &place(&text, "\"US\"", 0));
    assert_contains(&line, &["simultaneous", "leave `first` out"]);
}

#[test]
fn the_side_named_first_plays_first_whatever_the_listing() {
    // Mission Command's shipped Panzer IVs against Shermans: played with the other side
    // first, the odds move (the side that shoots first hits first).
    let mc =
        std::fs::read_to_string(crate::common::experiment_path("mc_engagement_panzer_iv_vs_shermans.toml")).unwrap();
    let doc: toml::Table = mc.parse().unwrap();
    let second = doc["side"].as_array().unwrap()[1]["name"].as_str().unwrap().to_string();
    let listed = Exact::of("listed first plays first", &mc).by_label();
    let other = mc.replacen("[engagement]\n", &format!("[engagement]\nfirst = \"{second}\"\n"), 1);
    let other = Exact::of("second side plays first", &other).by_label();
    assert_ne!(listed, other, "who plays first should matter in a fight of player turns");
    // And it matters the way the rules say: each side makes the first kill more often
    // when it plays first (any change of odds would have passed the line above).
    let first_kill = |odds: &BTreeMap<(String, String), Ratio>, side: &str| {
        odds[&("first_kill_by".to_string(), side.to_string())].clone()
    };
    let listed_first = doc["side"].as_array().unwrap()[0]["name"].as_str().unwrap();
    assert!(first_kill(&listed, listed_first) > first_kill(&other, listed_first), "{listed_first}");
    assert!(first_kill(&other, &second) > first_kill(&listed, &second), "{second}");
}
