//! The regression gate: one edited cell fails exactly the scenarios it reaches,
//! unchanged tables pass at many seeds, and bad baselines and suites get clear errors.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::common::cli::{self, assert_contains, error_line, replace_once, write};
use combat_odds_core::engine::{Mode, MonteCarlo};
use combat_odds_report::regress::{Rulesets, Suite, check, diff_tables, evaluate, write_baseline};
use combat_odds_rules::Rules;

fn experiments(names: &[&str]) -> Suite {
    Suite { scenarios: names.iter().map(|n| PathBuf::from("experiments").join(n)).collect() }
}

fn mc(trials: u64, seed: u64) -> MonteCarlo {
    MonteCarlo { trials, seed, threads: None, mode: Mode::Compiled }
}

/// A rules directory whose Command Decision Hit Results Chart makes an experienced
/// stand harder to eliminate (8+ becomes 9+, its forced-back band taking the 8).
fn edited_rules(dir: &Path) -> PathBuf {
    let text = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/rulesets/command-decision/hit_results.toml"));
    let edited = replace_once(
        text,
        "quality = \"experienced\"\nno_effect = \"1-4\"\nforced_back = \"5-7\"\neliminated = \"8+\"",
        "quality = \"experienced\"\nno_effect = \"1-4\"\nforced_back = \"5-8\"\neliminated = \"9+\"",
    );
    write(dir, "command-decision/hit_results.toml", &edited);
    dir.to_path_buf()
}

/// Scenarios from every ruleset: Command Decision fire at regular and experienced
/// targets, engagements that are Monte Carlo only, and other rulesets' fire.
const SUITE: [&str; 6] = [
    "cd_tank_duel.toml",
    "cd_engagement_company_at_the_farmhouse.toml",
    "cd_infantry_in_cover.toml",
    "mc_hmg_good_cover.toml",
    "cc_panther_vs_sherman.toml",
    "coc_lmg_phases_to_break_section.toml",
];

fn moved_scenarios(diffs: &[combat_odds_report::regress::Diff]) -> BTreeSet<String> {
    diffs.iter().filter(|d| d.verdict.moved()).map(|d| d.old.scenario.clone()).collect()
}

#[test]
fn one_edited_cell_fails_the_gate_on_exactly_the_scenarios_it_reaches() {
    let dir = tempfile::tempdir().expect("temp dir");
    let rules = edited_rules(dir.path());
    let suite = experiments(&SUITE);
    let plan = mc(100_000, 2026);
    let baseline =
        evaluate(&suite, &Rulesets::load(&Rules::builtin()).unwrap(), &plan, &crate::common::unstopped()).unwrap();
    // Checked at another seed, so the Monte Carlo rows differ by chance everywhere.
    let now = evaluate(
        &suite,
        &Rulesets::load(&Rules::builtin().overridden_by(Some(rules.clone()))).unwrap(),
        &mc(100_000, 99),
        &crate::common::unstopped(),
    )
    .unwrap();
    let diffs = check(&baseline, &now, 0.001, "baseline.csv").unwrap();
    let moved = moved_scenarios(&diffs);
    // Only the farmhouse has experienced stands (its defenders), and its odds are
    // Monte Carlo only: the two-sample test catches the move.
    assert_eq!(moved, BTreeSet::from(["experiments/cd_engagement_company_at_the_farmhouse.toml".to_string()]));
    // diff-tables finds the two changed cells and says each reaches the same scenario.
    let changes = diff_tables(
        &Rules::builtin(),
        (Path::new("rulesets"), &rules),
        &suite,
        (&mc(20_000, 5), &crate::common::unstopped()),
    )
    .unwrap();
    let cells: Vec<&str> = changes.iter().map(|c| c.cell.as_str()).collect();
    assert_eq!(cells, ["row[quality=experienced].eliminated", "row[quality=experienced].forced_back"]);
    for c in &changes {
        assert_eq!(c.reaches.iter().cloned().collect::<BTreeSet<_>>(), moved, "{c:?}");
        // Moved alone, either band leaves a gap or an overlap: judged with the other.
        assert_contains(c.note.as_deref().unwrap_or(""), &["judged with the file's other changes"]);
    }
}

#[test]
fn an_exact_cell_change_is_caught_exactly() {
    let dir = tempfile::tempdir().expect("temp dir");
    // The regular row: the Sherman of the tank duel and the stand in cover are regular.
    let text = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/rulesets/command-decision/hit_results.toml"));
    let edited = replace_once(
        text,
        "quality = \"regular\"\nno_effect = \"1-3\"\nforced_back = \"4-6\"\neliminated = \"7+\"",
        "quality = \"regular\"\nno_effect = \"1-3\"\nforced_back = \"4-7\"\neliminated = \"8+\"",
    );
    write(dir.path(), "command-decision/hit_results.toml", &edited);
    let suite = experiments(&["cd_tank_duel.toml", "mc_hmg_good_cover.toml"]);
    let baseline =
        evaluate(&suite, &Rulesets::load(&Rules::builtin()).unwrap(), &mc(10_000, 1), &crate::common::unstopped())
            .unwrap();
    let now = evaluate(
        &suite,
        &Rulesets::load(&Rules::builtin().overridden_by(Some(dir.path().to_path_buf()))).unwrap(),
        &mc(10_000, 1),
        &crate::common::unstopped(),
    )
    .unwrap();
    let diffs = check(&baseline, &now, 0.001, "baseline.csv").unwrap();
    let elim = diffs.iter().find(|d| d.old.measure == "target" && d.old.outcome == "eliminated").unwrap();
    // p_kill = 1 - (1 - 0.6 x 0.7)^2 = 0.6636 before. With 8+ a hit (d10 + 3 on the
    // regular row) eliminates on faces 5-9, and a natural 10 makes 13: 6/10 a hit,
    // 0.6 x 0.6 = 0.36 a die, so 1 - (1 - 0.36)^2 = 0.5904.
    assert_eq!((elim.old_value(), elim.new_value()), (0.6636, 0.5904));
    assert_eq!(elim.verdict.name(), "MOVED (exact)");
    assert_eq!(moved_scenarios(&diffs), BTreeSet::from(["experiments/cd_tank_duel.toml".to_string()]));
}

#[test]
fn unchanged_tables_pass_the_gate_at_twenty_seeds() {
    // Monte Carlo-only engagements in three rulesets, where every row is a test.
    let suite = experiments(&[
        "cd_engagement_company_at_the_farmhouse.toml",
        "mc_engagement_hmg_vs_rifle_platoon.toml",
        "coc_engagement_sections_at_the_hedge.toml",
    ]);
    let rulesets = Rulesets::load(&Rules::builtin()).unwrap();
    let baseline = evaluate(&suite, &rulesets, &mc(20_000, 2026), &crate::common::unstopped()).unwrap();
    let tested = baseline.iter().filter(|r| r.exact.is_none()).count();
    assert!(tested > 50, "only {tested} Monte Carlo rows");
    for seed in 1..=20 {
        let now = evaluate(&suite, &rulesets, &mc(20_000, seed), &crate::common::unstopped()).unwrap();
        let diffs = check(&baseline, &now, 0.001, "baseline.csv").unwrap();
        let moved: Vec<_> = diffs.iter().filter(|d| d.verdict.moved()).collect();
        assert!(moved.is_empty(), "seed {seed}: false alarm {moved:?}");
    }
}

#[test]
fn the_binary_writes_a_baseline_checks_it_and_exits_1_on_a_move() {
    let dir = tempfile::tempdir().expect("temp dir");
    let d = dir.path();
    let suite = write(
        d,
        "suite.toml",
        &format!("scenarios = [\"{}\", \"{}\"]\n", abs("cd_tank_duel.toml"), abs("mc_hmg_good_cover.toml")),
    );
    let baseline = d.join("base/baseline.csv");
    let common = ["--suite", suite.to_str().unwrap(), "--baseline", baseline.to_str().unwrap(), "--trials", "5000"];
    let update = cli::run(&[&["regress", "--update"], &common[..]].concat());
    assert!(update.status.success(), "{}", String::from_utf8_lossy(&update.stderr));
    assert!(baseline.is_file() && baseline.with_extension("parquet").is_file());
    let csv = std::fs::read_to_string(&baseline).unwrap();
    assert!(csv.starts_with("format,scenario,ruleset,rules_hash,measure,outcome,exact,exact_value,estimate"), "{csv}");

    let diff = d.join("diff.csv");
    let pass = cli::run(&[&["regress", "--diff", diff.to_str().unwrap()], &common[..]].concat());
    assert!(pass.status.success(), "{}", String::from_utf8_lossy(&pass.stderr));
    assert_contains(&String::from_utf8_lossy(&pass.stdout), &["0 moved"]);
    assert!(
        std::fs::read_to_string(&diff).unwrap().starts_with("scenario,measure,outcome,old,new,change,p_value,verdict")
    );

    let rules = edited_rules(&d.join("rules"));
    let text = replace_once(
        include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/rulesets/command-decision/hit_results.toml")),
        "quality = \"regular\"\nno_effect = \"1-3\"\nforced_back = \"4-6\"\neliminated = \"7+\"",
        "quality = \"regular\"\nno_effect = \"1-3\"\nforced_back = \"4-7\"\neliminated = \"8+\"",
    );
    write(&rules, "command-decision/hit_results.toml", &text);
    let diff2 = d.join("diff2.csv");
    let args =
        [&["regress", "--rules", rules.to_str().unwrap(), "--diff", diff2.to_str().unwrap()], &common[..]].concat();
    let failed = cli::run(&args);
    assert_eq!(failed.status.code(), Some(1), "{}", String::from_utf8_lossy(&failed.stderr));
    assert_contains(&String::from_utf8_lossy(&failed.stdout), &["MOVED (exact)", "cd_tank_duel.toml"]);
    assert_contains(&String::from_utf8_lossy(&failed.stderr), &["regress --update"]);
    // The diff file is kept unless --force.
    let line = error_line(&cli::run(&args));
    assert_contains(&line, &["already exists", "--force"]);
}

fn abs(name: &str) -> String {
    std::fs::canonicalize(Path::new("experiments").join(name)).unwrap().to_string_lossy().into_owned()
}

#[test]
fn a_missing_baseline_or_scenario_is_a_clear_error_naming_the_fix() {
    let dir = tempfile::tempdir().expect("temp dir");
    let d = dir.path();
    let missing = d.join("none/baseline.csv");
    let line = error_line(&cli::run(&["regress", "--baseline", missing.to_str().unwrap(), "--trials", "10"]));
    assert_contains(&line, &["baseline.parquet", "regress --update"]);

    let suite = write(d, "suite.toml", "scenarios = [\"gone.toml\"]\n");
    let line = error_line(&cli::run(&["regress", "--update", "--suite", suite.to_str().unwrap(), "--trials", "10"]));
    assert_contains(&line, &["suite.toml:1:14", "scenario `gone.toml` is not a file"]);

    // A suite that gained a scenario since the baseline.
    let one = write(d, "one.toml", &format!("scenarios = [\"{}\"]\n", abs("cd_tank_duel.toml")));
    let two = write(
        d,
        "two.toml",
        &format!("scenarios = [\"{}\", \"{}\"]\n", abs("cd_tank_duel.toml"), abs("cd_idf_mission.toml")),
    );
    let base = d.join("b/baseline.csv");
    let rows = evaluate(
        &Suite::read(&one).unwrap(),
        &Rulesets::load(&Rules::builtin()).unwrap(),
        &mc(1000, 1),
        &crate::common::unstopped(),
    )
    .unwrap();
    write_baseline(&base, &rows, &crate::common::unstopped()).unwrap();
    let line = error_line(&cli::run(&[
        "regress",
        "--suite",
        two.to_str().unwrap(),
        "--baseline",
        base.to_str().unwrap(),
        "--trials",
        "1000",
        "--diff",
        d.join("x.csv").to_str().unwrap(),
    ]));
    assert_contains(&line, &["cd_idf_mission.toml", "is not in the baseline", "regress --update"]);
}
