//! The proof that a ruleset is one folder and one registration: Skirmish (`skirmish/`,
//! invented, never shipped in the binary) is registered as the guide's "Adding a
//! ruleset" says, `Rules::builtin().with::<Skirmish>()`, and answers through fire, run,
//! compare, sweep, balance, regress, tables and the page's API, with no other file of
//! the workspace naming it. The last test holds the guide's chapter to what Skirmish
//! needed: every required method of the traits, and every kind of file in its folder.
//!
//! The hand-computed odds, all from the hit table (3+ out to 6 in, 4+ out to 12, 5+ out
//! to 24): two dice at 7 in hit on 4+, each with chance 3/6 = 1/2; toughness 2 needs
//! both, (1/2)^2 = 1/4. With `sixes = "double"` a six alone scores two: both hit (1/4),
//! or one die shows a six and the other misses, 2 x 1/6 x 1/2 = 1/6, so 1/4 + 1/6 =
//! 5/12. Three dice destroy on two hits or more of three at 1/2: (3 + 1)/8 = 1/2; four
//! dice, 1 - (1 + 4)/16 = 11/16. At 3 in (3+, 2/3 a die) two dice: 4/9; at 20 in (5+,
//! 1/3 a die): 1/9.

mod skirmish;

use std::path::Path;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::{Value, json};
use toml::Value as Toml;

use combat_odds_core::document::Document;
use combat_odds_core::engine::{Mode, MonteCarlo};
use combat_odds_core::interrupt;
use combat_odds_core::run::Run;
use combat_odds_report::compare::{self, Answer, Comparison};
use combat_odds_report::export::{Report, frames};
use combat_odds_report::regress::{Rulesets, Suite, check, evaluate};
use combat_odds_report::study::{self, Plan, StudyResult};
use combat_odds_report::sweep::{self, Sweep, balance};
use combat_odds_rules::{Rules, Scenario};
use combat_odds_web::Config;

use crate::web::{call, get, runtime};
use skirmish::Skirmish;

/// The shipped rulesets and Skirmish: its one registration.
fn rules() -> Rules {
    Rules::builtin().with::<Skirmish>()
}

/// Two dice at 7 in against toughness 2: 1/4 (see the module's arithmetic).
const FIRE: &str = r#"ruleset = "skirmish"
kind = "fire"
name = "rifle section at seven inches"
range = 7

[firer]
dice = 2

[target]
toughness = 2
"#;

fn doc(text: &str) -> Document {
    Document::new("skirmish.toml", "skirmish.toml", text)
}

fn mc(trials: u64) -> MonteCarlo {
    MonteCarlo { trials, seed: 2026, threads: Some(1), mode: Mode::Compiled }
}

fn run() -> Run<'static> {
    Run::new(interrupt::flag(), None)
}

/// Asserts an estimate from `trials` lies within four standard errors of `p`.
fn near(estimate: f64, p: f64, trials: u64) {
    let se = (p * (1.0 - p) / trials as f64).sqrt();
    assert!((estimate - p).abs() < 4.0 * se, "estimate {estimate}, exact {p}, {trials} trials");
}

#[test]
fn fire_and_run_answer_the_hand_computed_odds_exactly_and_by_monte_carlo() {
    let report = Report::of(Scenario::new(&doc(FIRE), &rules(), mc(20_000)).unwrap()).unwrap();
    assert_eq!((report.ruleset.as_str(), report.p_kill.outcome.as_str()), ("skirmish", "destroyed"));
    assert_eq!(report.p_kill.odds.exact, Some(0.25));
    near(report.p_kill.odds.estimate, 0.25, 20_000);
    assert_eq!(report.invented, ["Skirmish hit table"], "invented data is said to be");

    let double = format!("{FIRE}\n[settings]\nsixes = \"double\"\n");
    let report = Report::of(Scenario::new(&doc(&double), &rules(), mc(20_000)).unwrap()).unwrap();
    assert_eq!(report.p_kill.odds.exact, Some(5.0 / 12.0));
    near(report.p_kill.odds.estimate, 5.0 / 12.0, 20_000);

    // `run`: a results directory, its summary read back.
    let text = FIRE.to_string();
    let mut scenario = Scenario::new(&doc(&text), &rules(), mc(10_000)).unwrap();
    let this_run = run();
    let started = this_run.now();
    let exact = scenario.exact(&this_run).unwrap();
    let plan = Plan { scenario, text: &text, shard: None, precision: None };
    let result = StudyResult::run(plan, exact, started, &|_, _| {}, &this_run).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    result.write(&out, false, &crate::common::unstopped()).unwrap();
    assert_eq!(study::read_summary(&out).unwrap().p_kill.exact, Some(0.25));

    // A reading that is not one is refused with the readings, as any ruleset's is.
    let typo = format!("{FIRE}\n[settings]\nsixes = \"dubble\"\n");
    let refused = Scenario::new(&doc(&typo), &rules(), mc(1)).err().expect("refused").to_string();
    assert!(refused.contains("unknown sixes reading `dubble`; did you mean `double`?"), "{refused}");
    // Without its registration, the rules do not know it.
    let unknown = Scenario::new(&doc(FIRE), &Rules::builtin(), mc(1)).err().expect("unknown").to_string();
    assert!(unknown.contains("unknown ruleset `skirmish`"), "{unknown}");
}

#[test]
fn compare_offers_it_a_row_read_through_its_equivalents() {
    let text = "kind = \"compare\"\nweapons = [\"rifle_section\", \"hmg\"]\ntarget = \"infantry_squad\"\n\
                ranges_m = [175.0]\nrulesets = [\"skirmish\"]\n";
    let comparison = Comparison::read(&doc(text), &rules()).unwrap();
    let all = Comparison::read(&doc(&text.replace("rulesets = [\"skirmish\"]\n", "")), &rules()).unwrap();
    assert_eq!(all.rulesets.last().map(String::as_str), Some("skirmish"), "offered by default");
    let compared = compare::compare(comparison, &rules(), mc(2_000), &|_, _| {}, &run()).unwrap();
    let exact: Vec<(&str, Option<f64>)> = compared
        .cells
        .iter()
        .map(|c| match &c.answer {
            Answer::Odds { turn, .. } => (c.weapon.as_str(), turn.exact),
            other => panic!("{other:?}"),
        })
        .collect();
    // 175 m at 25 m an inch is 7 in.
    assert_eq!(exact, [("rifle_section", Some(0.25)), ("hmg", Some(11.0 / 16.0))]);
}

#[test]
fn sweep_and_balance_vary_its_scenario() {
    let dir = tempfile::tempdir().unwrap();
    let text = "kind = \"sweep\"\nscenario = \"base.toml\"\n\n[[vary]]\nkey = \"range\"\nvalues = [3, 7, 20]\n";
    let sweep = Sweep::read(&doc(text), |_| Ok(doc(FIRE)), 1).unwrap();
    let swept = sweep::run(&sweep, &rules(), mc(2_000), (None, 1), &|_, _| {}, &run()).unwrap();
    let out = dir.path().join("sweep");
    swept.write(&out, false, &crate::common::unstopped()).unwrap();
    let summary = sweep::read_summary(&out).unwrap().expect("a sweep summary");
    let exact: Vec<Option<f64>> = summary.results.iter().map(|p| p.summary.p_kill.exact).collect();
    assert_eq!(exact, [Some(4.0 / 9.0), Some(0.25), Some(1.0 / 9.0)]);

    let values = balance::Span::Values((1..=4).map(Toml::Integer).collect());
    let target = balance::Target { outcome: None, p: 0.5 };
    let found = balance::balance(&doc(FIRE), ("firer.dice", &values), &target, &rules(), mc(2_000), &|_, _| {}, &run())
        .unwrap();
    assert_eq!(found.balanced, [Toml::Integer(3)], "three dice destroy exactly half the time: {}", found.answer);
}

#[test]
fn regress_and_tables_know_it() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("skirmish_fire.toml"), FIRE).unwrap();
    let suite = Suite::experiments(dir.path()).unwrap();
    let rulesets = Rulesets::load(&rules()).unwrap();
    let baseline = evaluate(&suite, &rulesets, &mc(2_000), &crate::common::unstopped()).unwrap();
    let destroyed = baseline.iter().find(|r| r.outcome == "destroyed").expect("a destroyed row");
    assert_eq!((destroyed.ruleset.as_str(), destroyed.exact.as_deref()), ("skirmish", Some("1/4")));
    let now = evaluate(&suite, &rulesets, &MonteCarlo { seed: 7, ..mc(2_000) }, &crate::common::unstopped()).unwrap();
    assert!(check(&baseline, &now, 0.001, "baseline.csv").unwrap().iter().all(|d| !d.verdict.moved()));

    let loaded = rules().load("skirmish").unwrap();
    let listing = frames::tables_json(loaded.as_ref());
    assert_eq!(listing["tables"][0]["file"], "hits.toml", "{listing}");
    assert_eq!(listing["tables"][0]["invented"], true, "{listing}");
    assert_eq!(rules().names().last(), Some("skirmish"));
    // Its settings come from its one declaration.
    assert_eq!(skirmish::SETTINGS, [("sixes", &["plain", "double"][..])]);
    assert!(skirmish::ENGAGEMENT_SETTINGS.is_empty());
}

#[test]
fn the_page_s_api_lists_offers_and_fires_it() {
    let config = || Config { rules: rules(), ..Config::default() };
    let post = |path: &str, body: Value| {
        Request::post(path).header("content-type", "application/json").body(Body::from(body.to_string())).unwrap()
    };
    let rt = runtime();
    let (status, names) = rt.block_on(call(config(), get("/api/rulesets")));
    assert_eq!((status, names.as_array().and_then(|n| n.last())), (StatusCode::OK, Some(&json!("skirmish"))));
    let (status, tables) = rt.block_on(call(config(), get("/api/tables/skirmish")));
    assert_eq!(status, StatusCode::OK, "{tables}");
    assert_eq!(tables["tables"][0]["table"], "To hit by range band");
    let (status, form) = rt.block_on(call(config(), post("/api/form", json!({ "scenario": FIRE }))));
    assert_eq!(status, StatusCode::OK, "{form}");
    assert_eq!(form["settings"][0]["key"], "sixes", "the setting left at its default is offered: {form}");
    let (status, fired) = rt.block_on(call(config(), post("/api/fire", json!({ "scenario": FIRE, "trials": 2000 }))));
    assert_eq!(status, StatusCode::OK, "{fired}");
    assert_eq!(fired["p_kill"]["exact"], json!(0.25));
    // The server given the shipped rulesets alone does not know it.
    let (status, body) = rt.block_on(call(Config::default(), get("/api/tables/skirmish")));
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    assert!(body["error"].as_str().is_some_and(|e| e.starts_with("unknown ruleset `skirmish`")), "{body}");
}

/// The guide's "Adding a ruleset" chapter (the guide's chapter until the guide took
/// the reference).
fn guide_chapter() -> String {
    let chapter = std::fs::read_to_string("docs/src/adding-a-ruleset.md").expect("the guide's chapter");
    assert!(chapter.starts_with("# Adding a ruleset"), "{chapter}");
    chapter
}

/// The items of `trait name` in `source` that have no default: methods whose signature
/// ends in `;`, and associated consts without a value.
fn required_items(source: &str, name: &str) -> Vec<String> {
    let start = source.find(&format!("pub trait {name}")).expect("the trait");
    let body = &source[start..];
    let body = &body[..body.find("\n}").expect("the trait's end")];
    let mut required = Vec::new();
    for (i, _) in body.match_indices("fn ").chain(body.match_indices("const ")) {
        let item = &body[i..];
        let ends = item.find([';', '{', '=']).expect("an item's end");
        if item.as_bytes()[ends] == b';' {
            let ident = item.split([' ', '(', ':', '<']).nth(1).expect("a name");
            required.push(ident.to_string());
        }
    }
    required
}

#[test]
fn the_guide_lists_every_step_skirmish_needed() {
    let section = guide_chapter();
    let traits = std::fs::read_to_string("crates/rules/src/ruleset.rs").unwrap();
    let mut required = required_items(&traits, "Ruleset");
    required.extend(required_items(&traits, "Load"));
    assert!(required.len() >= 7, "the traits' required items were read: {required:?}");
    for item in &required {
        assert!(section.contains(&format!("`{item}`")), "the guide's chapter does not name `{item}`:\n{section}");
    }
    // Every file of Skirmish's folder is of a kind the section lists.
    let folder = Path::new("tests/suite/fifth_ruleset/skirmish");
    let mut files = vec![folder.join("mod.rs")];
    files.extend(std::fs::read_dir(folder.join("tables")).unwrap().map(|e| e.unwrap().path()));
    for entry in std::fs::read_dir(folder).unwrap().map(|e| e.unwrap().path()) {
        assert!(
            entry == folder.join("mod.rs") || entry == folder.join("tables"),
            "{} is of no listed kind",
            entry.display()
        );
    }
    for file in files {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let kind = match file.extension().and_then(|e| e.to_str()) {
            Some("rs") => "module",
            Some("toml") if name == "equivalents.toml" => "`equivalents.toml`",
            Some("toml") => "`[source]`",
            _ => panic!("{} is of no kind a ruleset's folder holds", file.display()),
        };
        assert!(section.contains(kind), "the guide's chapter lists no {kind}, as {name} is:\n{section}");
    }
    for step in ["`settings!`", "`Rules::builtin().with::<", "`rulesets!`", "`SetUp`", "`setup`"] {
        assert!(section.contains(step), "the guide's chapter does not say {step}:\n{section}");
    }
}
