//! `combat-odds sensitivity` through the real binary: the one-step changes that move a
//! scenario's p_kill, checked by hand where the arithmetic is short, deterministic on
//! any number of threads, silent about cells that cannot matter, and refusing bad
//! input with the usual one-line error.

use crate::common::cli::{assert_contains, error_line, run, stdout_of};
use crate::common::experiment_path;
use serde_json::Value;

/// `sensitivity` on an experiments/ file (or the embedded default) as JSON, with `extra`.
fn json(file: Option<&str>, extra: &[&str]) -> Value {
    let path = file.map(|f| experiment_path(f).to_str().expect("utf-8 path").to_string());
    let mut args = vec!["sensitivity", "--format", "json"];
    args.extend(path.as_deref());
    args.extend_from_slice(extra);
    serde_json::from_str(&stdout_of(&args)).expect("JSON output")
}

fn rows(report: &Value) -> &Vec<Value> {
    report["rows"].as_array().expect("rows")
}

/// The listed row for (file, cell, now, changed).
fn row<'a>(report: &'a Value, file: &str, cell: &str, now: &str, changed: &str) -> &'a Value {
    rows(report)
        .iter()
        .find(|r| r["file"] == file && r["cell"] == cell && r["now"] == now && r["changed"] == changed)
        .unwrap_or_else(|| panic!("no row {file}: {cell} {now} -> {changed} in {report:#}"))
}

fn close(a: &Value, b: f64) -> bool {
    (a.as_f64().expect("a number") - b).abs() < 1e-12
}

/// The README's worked example: a veteran Panther hits on 6 in 10 (5 +1 veteran_elite)
/// and each hit eliminates the Sherman on 7 in 10, so p_kill = 1 - (1 - 0.6 x 0.7)^2 =
/// 0.6636. Veteran_elite +2 makes the hit number 7: 1 - (1 - 0.7 x 0.7)^2 = 0.7399. The
/// Regular row's forced back/eliminated boundary moved down one (eliminated on 6+, i.e.
/// natural 3 and up after +8 penetration -5 armour) makes a hit eliminate on 8 in 10:
/// 1 - (1 - 0.6 x 0.8)^2 = 0.7296.
#[test]
fn the_default_duel_moves_as_computed_by_hand() {
    let report = json(None, &["--top", "100"]);
    assert_eq!(report["p_kill"]["exact_fraction"], "1659/2500");
    assert_eq!(report["kill"], "target = eliminated");

    let veteran = row(&report, "direct_fire_modifiers.toml", "modifier[veteran_elite].value", "1", "2");
    assert_eq!(veteran["method"], "exact");
    assert_eq!(veteran["kind"], "value");
    assert_eq!(veteran["exact_before"], "1659/2500");
    assert_eq!(veteran["exact_after"], "7399/10000");
    assert!(close(&veteran["p_kill_before"], 0.6636));
    assert!(close(&veteran["p_kill_after"], 0.7399));
    assert!(close(&veteran["delta"], 0.0763));
    assert_eq!(veteran["source_seed"], "001_b275c1225bd05435.txt");
    assert_eq!(veteran["source_table"], "Direct Fire To-Hit Modifiers");
    assert!(veteran["delta_ci_low"].is_null(), "an exact row has no interval");

    let boundary = row(&report, "hit_results.toml", "row[regular].forced_back/eliminated", "4-6, 7+", "4-5, 6+");
    assert_eq!(boundary["kind"], "boundary");
    assert_eq!(boundary["exact_after"], "456/625");
    assert!(close(&boundary["delta"], 0.7296 - 0.6636));

    // The printed table carries the same row, before -> after.
    let table = stdout_of(&["sensitivity", "--top", "100"]);
    assert_contains(
        &table,
        &[
            "p_kill now: 0.663600 exact (1659/2500)",
            "| direct_fire_modifiers.toml | modifier[veteran_elite].value",
            "| 1 -> 2 ",
            "| 0.663600 -> 0.739900 | +0.076300 | exact |",
        ],
    );
}

/// Dropping the scenario's one named modifier: light cover off both firers' hit numbers
/// (HMG 6 in 10, rifles 4 in 10, three dice each, a hit eliminating on 7+: 4 in 10), so
/// p_kill = 1 - (1 - 0.6 x 0.4)^3 (1 - 0.4 x 0.4)^3 = 1 - (399/625)^3.
#[test]
fn dropping_a_named_modifier_is_computed_by_hand() {
    let report = json(Some("cd_infantry_in_cover.toml"), &["--top", "100"]);
    assert_eq!(report["named_modifiers"], 1);
    let dropped = row(&report, "cd_infantry_in_cover.toml", "target.modifiers", "light_cover", "dropped");
    assert_eq!(dropped["kind"], "drop_modifier");
    assert_eq!(dropped["exact_after"], "180619426/244140625");
    assert!(dropped["source_seed"].is_null(), "a scenario change has no table source");
}

/// The Green and Elite rows of the Hit Results Chart are never read when a veteran fires
/// at a regular: none of their changes is listed, and they are counted as not moving.
#[test]
fn cells_that_cannot_matter_are_counted_not_listed() {
    let report = json(None, &["--top", "100000"]);
    for r in rows(&report) {
        let cell = r["cell"].as_str().unwrap();
        assert!(
            !(r["file"] == "hit_results.toml" && (cell.starts_with("row[green]") || cell.starts_with("row[elite]"))),
            "{r}"
        );
        assert!(r["delta"].as_f64().unwrap() != 0.0, "a listed change moves p_kill: {r}");
    }
    let count = |k: &str| report[k].as_u64().unwrap();
    assert_eq!(count("moving"), rows(&report).len() as u64);
    assert_eq!(count("moving") + count("not_moving") + count("refused"), count("changes"));
    assert!(count("not_moving") > count("moving"), "most cells do not touch this fire");
    // A band edge that leaves a gap is refused by the loader and counted, with its reason.
    let refusal = report["refusals"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["cell"] == "row[regular].no_effect" && r["changed"] == "2-3")
        .expect("the lowest band's edge moved alone is refused");
    assert_contains(refusal["reason"].as_str().unwrap(), &["leaves a gap"]);
}

/// Ranked by |delta|, largest first, ranks 1, 2, ...; `--top` cuts the list.
#[test]
fn rows_are_ranked_by_how_far_they_move_p_kill() {
    let report = json(None, &["--top", "5"]);
    let rows = rows(&report);
    assert_eq!(rows.len(), 5);
    for (i, pair) in rows.windows(2).enumerate() {
        let (a, b) = (pair[0]["delta"].as_f64().unwrap().abs(), pair[1]["delta"].as_f64().unwrap().abs());
        assert!(a >= b, "row {} ({a}) before row {} ({b})", i + 1, i + 2);
        assert_eq!(pair[0]["rank"], i + 1);
    }
    assert!(report["moving"].as_u64().unwrap() > 5);
}

/// The same output on one thread and on several, run after run: exact and estimated.
#[test]
fn results_are_identical_across_runs_and_threads() {
    let one = stdout_of(&["sensitivity", "--format", "json", "--threads", "1"]);
    assert_eq!(one, stdout_of(&["sensitivity", "--format", "json", "--threads", "2"]));
    assert_eq!(one, stdout_of(&["sensitivity", "--format", "json"]));

    let hedge = experiment_path("coc_engagement_sections_at_the_hedge.toml");
    let hedge = hedge.to_str().unwrap();
    let args =
        |threads: &'static str| ["sensitivity", hedge, "--format", "csv", "--trials", "500", "--threads", threads];
    let estimated = stdout_of(&args("1"));
    assert_eq!(estimated, stdout_of(&args("2")));
    assert!(estimated.lines().nth(1).is_some_and(|l| l.contains(",estimate,")), "{estimated}");
}

/// Command Decision (exact): the infantry fire's top row is the Regular row's
/// eliminated band, for every hit of both platoons is read on it.
#[test]
fn command_decision_infantry_in_cover() {
    let report = json(Some("cd_infantry_in_cover.toml"), &[]);
    let top = &rows(&report)[0];
    assert_eq!(top["file"], "hit_results.toml");
    assert_eq!(top["cell"], "row[regular].forced_back/eliminated");
    assert_eq!(top["changed"], "4-7, 8+");
    assert!(top["delta"].as_f64().unwrap() < 0.0);
}

/// Mission Command (exact): to hit on 7+ of a d20 (14 in 20) at 40cm, KO on 11+ (10 in
/// 20) against armour class 6: p_kill = 0.7 x 0.5. The KO score one lower: 0.7 x 0.55.
#[test]
fn mission_command_kos_move_most() {
    let report = json(Some("mc_75l48_vs_ac6_40cm.toml"), &["--top", "2"]);
    assert_eq!(report["p_kill"]["exact_fraction"], "7/20");
    let top = &rows(&report)[0];
    assert_eq!(top["file"], "ko_part2.toml");
    assert_eq!(top["cell"], "weapon[ge_75mm_l43_l48].cells[5]");
    assert_eq!((top["now"].as_str(), top["changed"].as_str()), (Some("11 at 25-50cm"), Some("10 at 25-50cm")));
    assert_eq!(top["exact_after"], "77/200");
    assert_eq!(top["source_table"], "Point-to-point Conversion to KO: Part 2 of 2");
}

/// Company Commander (exact): a Sherman with a second strength point survives far
/// more often, the largest move of all.
#[test]
fn company_commander_strength_moves_most() {
    let report = json(Some("cc_panther_vs_sherman.toml"), &["--top", "3"]);
    let top = &rows(&report)[0];
    assert_eq!(
        (top["file"].as_str(), top["cell"].as_str()),
        (Some("catalogue.toml"), Some("vehicle.m4_sherman.strength"))
    );
    assert_eq!(top["changed"], "2");
    assert!(top["delta"].as_f64().unwrap() < -0.4);
}

/// Chain of Command, exact (a Markov chain over Phases) and estimated (a whole
/// engagement, which the exact solver does not reach): the Chain of Command die that
/// four sixes give is the one cell the Phases to a full die depend on; a rifle's second
/// firepower die is the hedge fight's largest gain.
#[test]
fn chain_of_command_exact_and_estimated() {
    let report = json(Some("coc_phases_to_chain_of_command_die.toml"), &["--top", "1"]);
    let top = &rows(&report)[0];
    assert_eq!(
        (top["file"].as_str(), top["cell"].as_str()),
        (Some("sixes.toml"), Some("sixes[count=4].chain_of_command_dice"))
    );
    assert_eq!((top["now"].as_str(), top["changed"].as_str()), (Some("1"), Some("0")));
    assert_eq!(top["method"], "exact");
    assert!(top["delta"].as_f64().unwrap() < 0.0);
    assert_eq!(top["source_table"], "3. Command dice: Sixes on the command dice");

    let report = json(Some("coc_engagement_sections_at_the_hedge.toml"), &["--top", "1", "--trials", "500"]);
    assert_eq!(report["p_kill"]["method"], "estimate");
    assert_eq!(report["trials"], 500);
    let top = &rows(&report)[0];
    assert_eq!((top["file"].as_str(), top["cell"].as_str()), (Some("weapons.toml"), Some("weapon[rifle].firepower")));
    assert_eq!(top["method"], "estimate");
    let (low, delta, high) =
        (top["delta_ci_low"].as_f64().unwrap(), top["delta"].as_f64().unwrap(), top["delta_ci_high"].as_f64().unwrap());
    assert!(0.0 < low && low < delta && delta < high, "{top}");
}

/// Bad input ends with exit code 2 and one line on stderr.
#[test]
fn bad_input_is_one_line_and_exit_two() {
    let line = error_line(&run(&["sensitivity", "no/such/scenario.toml"]));
    assert_contains(&line, &["no/such/scenario.toml", "cannot read the file"]);
    let line = error_line(&run(&["sensitivity", "--top", "0"]));
    assert_contains(&line, &["--top must be at least 1"]);
    let line = error_line(&run(&["sensitivity", "--trials", "0"]));
    assert_contains(&line, &["--trials must be at least 1"]);
}

/// `--output` writes the file whole and will not replace one without `--force`.
#[test]
fn output_files_are_written_whole_and_kept() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sensitivity.csv");
    let out = path.to_str().unwrap();
    assert!(stdout_of(&["sensitivity", "--format", "csv", "--top", "3", "--output", out]).is_empty());
    let csv = std::fs::read_to_string(&path).unwrap();
    assert!(csv.starts_with("rank,file,cell,kind,now,changed,p_kill_before,p_kill_after,delta,method,"), "{csv}");
    assert_eq!(csv.lines().count(), 4);
    let line = error_line(&run(&["sensitivity", "--format", "csv", "--output", out]));
    assert_contains(&line, &["already exists", "--force"]);
    assert!(run(&["sensitivity", "--format", "csv", "--output", out, "--force"]).status.success());
}
