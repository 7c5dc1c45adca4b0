//! `sweep`, `merge` of sweep shards and `balance`: every point is its base scenario
//! with the point's values written in; the frame is the same bytes on one thread and
//! two, and through shards merged; a key or value that cannot be is named; the balance
//! finder brackets a crossing, or says plainly there is none; a sweep of many points
//! runs in bounded memory, on any number of threads.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common::cli::{self, assert_contains, error_line, replace_once, stdout_of, write};

const MC_SWEEP: &str = "experiments/sweep_mc_hmg_vs_rifle_sections.toml";
const MC_BASE: &str = "experiments/mc_engagement_hmg_vs_rifle_platoon.toml";

/// Runs `sweep` with 4,000 trials and `extra` flags into `out`, checking it succeeded.
fn sweep(file: &str, out: &Path, extra: &[&str]) {
    sweep_with(file, out, &["--trials", "4000"], extra);
}

/// [`MC_SWEEP`] cut to one to four sections (8 points), written with its base into
/// `dir`: the same sweep for the byte-for-byte checks, whose exact stages take a tenth
/// of the whole sweep's (0.4 s, not 4.9 s: five to eight sections are most of it).
fn small_mc_sweep(dir: &Path) -> String {
    std::fs::copy(MC_BASE, dir.join(Path::new(MC_BASE).file_name().unwrap())).unwrap();
    let text = replace_once(&std::fs::read_to_string(MC_SWEEP).unwrap(), "to = 8\n", "to = 4\n");
    write(dir, "small_sweep.toml", &text).to_str().unwrap().to_string()
}

/// The files of a sweep directory that must match byte for byte: the frames.
const FRAMES: [&str; 4] = ["sweep.csv", "sweep.parquet", "design.csv", "design.parquet"];

/// `sweep.json` without its wall time, which no two runs share, and without how it was
/// split into tasks, which changes no number.
fn summary(dir: &Path) -> Value {
    let mut s: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("sweep.json")).unwrap()).unwrap();
    s["wall_time_s"] = Value::Null;
    s["split"] = Value::Null;
    for point in s["results"].as_array_mut().unwrap() {
        point["summary"]["wall_time_s"] = Value::Null;
    }
    s
}

fn assert_same(a: &Path, b: &Path) {
    for f in FRAMES {
        assert!(std::fs::read(a.join(f)).unwrap() == std::fs::read(b.join(f)).unwrap(), "{f} differs: {a:?} {b:?}");
    }
    assert_eq!(summary(a), summary(b));
}

#[test]
fn a_sweep_is_the_same_bytes_on_one_thread_and_two_and_through_shards_merged() {
    let dir = tempfile::tempdir().unwrap();
    let file = small_mc_sweep(dir.path());
    let (one, two) = (dir.path().join("one"), dir.path().join("two"));
    sweep(&file, &one, &["--threads", "1"]);
    sweep(&file, &two, &["--threads", "2"]);
    assert_same(&one, &two);
    assert!(one.join("sweep.png").exists() && one.join("sweep.svg").exists(), "a heat map of the two parameters");

    let parts: Vec<PathBuf> = (1..=3).map(|k| dir.path().join(format!("part-{k}"))).collect();
    for (k, part) in parts.iter().enumerate() {
        sweep(&file, part, &["--shard", &format!("{}/3", k + 1)]);
        assert!(!part.join("sweep.png").exists(), "a shard draws no chart of its few points");
    }
    let merged = dir.path().join("merged");
    let mut args = vec!["merge"];
    args.extend(parts.iter().rev().map(|p| p.to_str().unwrap()));
    args.extend(["--out", merged.to_str().unwrap()]);
    stdout_of(&args);
    assert_same(&one, &merged);
    assert!(merged.join("sweep.png").exists());

    // A missing shard is named.
    let mut args = vec!["merge", parts[0].to_str().unwrap(), parts[2].to_str().unwrap()];
    let out = dir.path().join("short");
    args.extend(["--out", out.to_str().unwrap()]);
    assert_contains(&error_line(&cli::run(&args)), &["shard(s) 2/3 missing"]);
}

#[test]
fn each_point_is_its_base_scenario_with_the_values_written_in() {
    let dir = tempfile::tempdir().unwrap();
    let file = small_mc_sweep(dir.path());
    let out = dir.path().join("sweep");
    sweep(&file, &out, &[]);
    let frame = std::fs::read_to_string(out.join("sweep.csv")).unwrap();
    let header: Vec<&str> = frame.lines().next().unwrap().split(',').collect();
    assert_eq!(&header[..4], ["point", "side[1].unit[0].count", "side[0].unit[0].situation", "measure"]);
    // Point 3 is two sections against the HMG in good cover: the base file with
    // `count = 2` written in, run by `run`, gives the same exact odds.
    let base = std::fs::read_to_string(MC_BASE).unwrap();
    let edited = base.replacen("count = 3", "count = 2", 1);
    assert_ne!(edited, base);
    let file = write(dir.path(), "two_sections.toml", &edited);
    let run_out = dir.path().join("run");
    stdout_of(&["run", file.to_str().unwrap(), "--trials", "4000", "--out", run_out.to_str().unwrap()]);
    let run_summary: Value =
        serde_json::from_str(&std::fs::read_to_string(run_out.join("summary.json")).unwrap()).unwrap();
    let sweep_summary = summary(&out);
    let point = &sweep_summary["results"][2];
    assert_eq!(point["values"], serde_json::json!([2, "good_cover"]));
    assert_eq!(point["summary"]["measures"], run_summary["measures"], "the same counts and exact fractions");
}

#[test]
fn a_key_or_value_that_cannot_be_is_named_with_its_place() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(MC_BASE, dir.path().join("base.toml")).unwrap();
    let study = |vary: &str| {
        let text = format!("kind = \"sweep\"\nscenario = \"base.toml\"\n\n[[vary]]\n{vary}\n");
        let path = write(dir.path(), "study.toml", &text);
        let out = dir.path().join("out");
        error_line(&cli::run(&["sweep", path.to_str().unwrap(), "--trials", "100", "--out", out.to_str().unwrap()]))
    };
    let line = study("key = \"side[5].unit[0].count\"\nvalues = [1]");
    assert_contains(&line, &["study.toml:5:7", "`side[5]`: the list has 2 entries, counted from 0"]);
    let line = study("key = \"side[1].unit[0].count\"\nvalues = [0, 2]");
    assert_contains(&line, &["study.toml", "point 1 (side[1].unit[0].count = 0)"]);
    let line = study("key = \"engagement.range\"\nfrom = 30\nto = 10");
    assert_contains(&line, &["give from <= to and a step above 0"]);
    let line = study("key = \"engagement.range\"");
    assert_contains(&line, &["give `values = [...]`, or `from`, `to` and an optional `step`"]);
}

#[test]
fn balance_brackets_the_crossing_over_listed_values() {
    let out = stdout_of(&[
        "balance",
        MC_BASE,
        "--vary",
        "side[1].unit[0].count",
        "--from",
        "1",
        "--to",
        "6",
        "--step",
        "1",
        "--trials",
        "4000",
        "--format",
        "json",
    ]);
    let found: Value = serde_json::from_str(&out).unwrap();
    // P(Germans win) is exact 0.619277 with two sections and 0.325003 with three: no
    // count lies between two and three, so no count gives 50%, and the answer says where
    // the chance jumps past it, in percent as the page's tables give it.
    assert_eq!(found["bracket"], serde_json::json!([2, 3]));
    assert_eq!(found["crosses"], true);
    assert_eq!(found["jumps"], true);
    assert_eq!(found["tried"][1]["exact"], true);
    assert!((found["tried"][1]["p"].as_f64().unwrap() - 0.619277).abs() < 1e-6, "{found}");
    assert_eq!(
        found["answer"].as_str().unwrap(),
        "no value of side[1].unit[0].count gives 50%: P(winner = Germans) jumps from 61.93% at 2 to 32.50% at 3"
    );
}

#[test]
fn balance_says_a_band_edge_is_a_jump_and_where_it_is() {
    // The designer: at what range does the Shermans' chance fall to 30%? It is
    // 42.87% up to 5 in. and 12.63% past it (the guns' next band): no range gives 30%,
    // and the bisection finds the edge at 5 in., a millionth either side.
    let out = stdout_of(&[
        "balance",
        "experiments/cd_engagement_shermans_vs_panther.toml",
        "--vary",
        "engagement.range",
        "--from",
        "2",
        "--to",
        "12",
        "--target",
        "0.3",
        "--trials",
        "1000",
    ]);
    assert_contains(
        &out,
        &[
            "where P(winner = US) meets 30%",
            "no value of engagement.range gives 30%: P(winner = US) jumps from 42.87% to 12.63% at 5 in.",
        ],
    );
    // A bracket that is not a neighbour's still crosses, in the same percent: the
    // listed ranges 4 and 6 lie either side of the edge, with 5.5 untried between.
    let out = stdout_of(&[
        "balance",
        "experiments/cd_engagement_shermans_vs_panther.toml",
        "--vary",
        "engagement.range",
        "--values",
        "2,4,6",
        "--target",
        "0.3",
        "--trials",
        "1000",
    ]);
    assert_contains(&out, &["P(winner = US) crosses 30% between engagement.range = 4 and engagement.range = 6"]);
}

#[test]
fn balance_says_plainly_when_nothing_in_the_span_crosses() {
    let out = stdout_of(&[
        "balance",
        MC_BASE,
        "--vary",
        "side[1].unit[0].count",
        "--values",
        "5,6",
        "--target",
        "0.9",
        "--trials",
        "2000",
    ]);
    assert_contains(
        &out,
        &["no value of side[1].unit[0].count tried crosses 90%: P(winner = Germans) stays between 1.44% and 4.26%"],
    );
}

#[test]
fn balance_bisects_a_span_of_range_to_its_tolerance() {
    // The embedded duel's p_kill falls as the range grows through the gun's bands
    // (0.9216 at 1 in., 0.51 at 40 in.):
    // exact at every range, so the bisection's bracket is exact too.
    let dir = tempfile::tempdir().unwrap();
    let duel = write(dir.path(), "duel.toml", include_str!("../../experiments/cd_tank_duel.toml"));
    let out = stdout_of(&[
        "balance",
        duel.to_str().unwrap(),
        "--vary",
        "range",
        "--from",
        "1",
        "--to",
        "40",
        "--tolerance",
        "0.5",
        "--target",
        "0.6",
        "--trials",
        "1000",
        "--format",
        "json",
    ]);
    let found: Value = serde_json::from_str(&out).unwrap();
    let (a, b) = (found["bracket"][0].as_f64().unwrap(), found["bracket"][1].as_f64().unwrap());
    assert!(b > a && b - a <= 0.5, "bracketed within the tolerance: {a} to {b}");
    let tried = found["tried"].as_array().unwrap();
    let p_at = |x: f64| tried.iter().find(|t| t["value"].as_f64() == Some(x)).unwrap()["p"].as_f64().unwrap();
    assert!(p_at(a) >= 0.6 && p_at(b) < 0.6, "{found}");
    assert!(tried.iter().all(|t| t["exact"] == true));
}

/// A three-parameter sweep of Company Commander's Panther against a Sherman, with
/// `design` added (empty for every combination).
fn three_parameters(dir: &Path, design: &str) -> PathBuf {
    std::fs::copy("experiments/cc_panther_vs_sherman.toml", dir.join("base.toml")).unwrap();
    let text = format!(
        "kind = \"sweep\"\nscenario = \"base.toml\"\n{design}\n\
         [[vary]]\nkey = \"range\"\nvalues = [2, 4, 8, 12]\n\
         [[vary]]\nkey = \"firer.quality\"\nvalues = [\"trained\", \"veteran\"]\n\
         [[vary]]\nkey = \"target.facing\"\nvalues = [\"front\", \"side\"]\n"
    );
    write(dir, "study.toml", &text)
}

#[test]
fn three_parameters_draw_small_multiples_and_a_hypercube_writes_its_design() {
    let dir = tempfile::tempdir().unwrap();
    let study = three_parameters(dir.path(), "");
    let out = dir.path().join("grid");
    sweep(study.to_str().unwrap(), &out, &[]);
    // 4 ranges x 2 qualities x 2 facings: 16 points, one panel per quality and facing.
    let design = std::fs::read_to_string(out.join("design.csv")).unwrap();
    assert_eq!(design.lines().count(), 1 + 16);
    assert!(out.join("sweep.png").exists(), "small multiples of p_kill against range");

    let study = three_parameters(dir.path(), "latin_hypercube = 8");
    let out = dir.path().join("hypercube");
    sweep(study.to_str().unwrap(), &out, &[]);
    let design = std::fs::read_to_string(out.join("design.csv")).unwrap();
    assert_eq!(design.lines().next(), Some("point,range,firer.quality,target.facing"));
    assert_eq!(design.lines().count(), 1 + 8);
    // 8 points over 4 ranges: each range twice.
    for range in ["2", "4", "8", "12"] {
        assert_eq!(design.lines().filter(|l| l.split(',').nth(1) == Some(range)).count(), 2, "{design}");
    }
    assert!(!out.join("sweep.png").exists(), "a hypercube's points fill no grid: the frame alone answers");
}

#[test]
fn a_point_split_into_parts_over_shards_merges_to_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let file = small_mc_sweep(dir.path());
    let trials = ["--trials", "200000"]; // 4 chunks of 65,536 trials each point
    let whole = dir.path().join("whole");
    sweep_with(&file, &whole, &trials, &[]);
    // The same sweep with every point in 2 parts, all in one process.
    let halves = dir.path().join("halves");
    sweep_with(&file, &halves, &trials, &["--split", "2"]);
    assert_same(&whole, &halves);
    // 8 points x 3 parts = 24 tasks over 5 shards, so most points' parts land in
    // different shards.
    let parts: Vec<PathBuf> = (1..=5).map(|k| dir.path().join(format!("part-{k}"))).collect();
    for (k, part) in parts.iter().enumerate() {
        sweep_with(&file, part, &trials, &["--split", "3", "--shard", &format!("{}/5", k + 1)]);
    }
    let merged = dir.path().join("merged");
    let mut args = vec!["merge"];
    args.extend(parts.iter().map(|p| p.to_str().unwrap()));
    args.extend(["--out", merged.to_str().unwrap()]);
    stdout_of(&args);
    assert_same(&whole, &merged);
    // A split finer than the trials' chunks is refused.
    let refused = cli::run(&[
        "sweep",
        MC_SWEEP,
        "--trials",
        "1000",
        "--split",
        "2",
        "--out",
        dir.path().join("no").to_str().unwrap(),
    ]);
    assert_contains(&error_line(&refused), &["split 2: 1000 trials are 1 chunk(s)"]);
}

/// Runs `sweep` with `trials` and `extra` flags into `out`, checking it succeeded.
fn sweep_with(file: &str, out: &Path, trials: &[&str], extra: &[&str]) {
    let out = out.to_str().unwrap();
    let mut args = vec!["sweep", file, "--out", out];
    args.extend_from_slice(trials);
    args.extend_from_slice(extra);
    let ran = cli::run(&args);
    assert!(ran.status.success(), "{}", String::from_utf8_lossy(&ran.stderr));
}

/// `merge DIRS... --out OUT`, which must be refused; returns its error line.
fn merge_refused(dirs: &[&Path], out: &Path) -> String {
    let mut args = vec!["merge"];
    args.extend(dirs.iter().map(|d| d.to_str().unwrap()));
    args.extend(["--out", out.to_str().unwrap()]);
    let line = error_line(&cli::run(&args));
    assert!(!out.exists(), "nothing written for a refused merge");
    line
}

#[test]
fn merge_refuses_sweep_shards_run_on_other_tables_or_in_another_sampling_mode() {
    let dir = tempfile::tempdir().unwrap();
    let file = small_mc_sweep(dir.path());
    let first = dir.path().join("first");
    sweep(&file, &first, &["--shard", "1/2"]);
    let literal = dir.path().join("literal");
    sweep(&file, &literal, &["--shard", "2/2", "--mode", "literal"]);
    let line = merge_refused(&[&first, &literal], &dir.path().join("mixed"));
    assert_contains(
        &line,
        &[
            &format!("{}/sweep.json", literal.display()),
            "sampling mode literal differs from compiled",
            &first.display().to_string(),
        ],
    );

    // The HMG hits more often under these tables: the same sweep, other numbers.
    let tables = std::fs::read_to_string("rulesets/mission-command/to_hit.toml").unwrap();
    let hits_more = cli::replace_once(
        &tables,
        "cells = [\"4\", \"6\", \"9\", \"11\", \"15\"]",
        "cells = [\"2\", \"3\", \"5\", \"7\", \"9\"]",
    );
    let rules = dir.path().join("rules");
    write(&rules, "mission-command/to_hit.toml", &hits_more);
    let other = dir.path().join("other");
    sweep(&file, &other, &["--shard", "2/2", "--rules", rules.to_str().unwrap()]);
    let line = merge_refused(&[&first, &other], &dir.path().join("mixed"));
    assert_contains(
        &line,
        &[
            &format!("{}/sweep.json", other.display()),
            "mission-command tables (rules hash",
            "differ from those",
            &format!("{}/sweep.json", first.display()),
        ],
    );
}

/// An edit made by hand to a `sweep.json`.
type Edit = fn(&mut Value);

/// A copy of the sweep directory `from` at `to`, with `edit` made to its `sweep.json`.
fn damaged(from: &Path, to: &Path, edit: impl FnOnce(&mut Value)) -> PathBuf {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
    }
    let mut s: Value = serde_json::from_str(&std::fs::read_to_string(to.join("sweep.json")).unwrap()).unwrap();
    edit(&mut s);
    std::fs::write(to.join("sweep.json"), serde_json::to_string_pretty(&s).unwrap()).unwrap();
    to.to_path_buf()
}

#[test]
fn merge_refuses_a_damaged_shard_index_or_point_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let (first, second) = (dir.path().join("first"), dir.path().join("second"));
    sweep(MC_SWEEP, &first, &["--shard", "1/2"]);
    sweep(MC_SWEEP, &second, &["--shard", "2/2"]);
    let out = dir.path().join("merged");
    let cases: [(&str, Edit, &str); 7] = [
        ("zero", |s| s["shard"]["index"] = 0.into(), "shard 0/2 is not K/N with 1 <= K <= N"),
        ("past", |s| s["shard"]["index"] = 3.into(), "shard 3/2 is not K/N with 1 <= K <= N"),
        ("no-count", |s| s["shard"] = serde_json::json!({"index": 1, "count": 0}), "shard 1/0 is not K/N"),
        ("far-point", |s| s["results"][0]["index"] = 999.into(), "point 1000 is not one of shard 1/2's 16 point(s)"),
        ("no-split", |s| s["split"] = 0.into(), "split 0 way(s)"),
        (
            "far-kill",
            |s| s["results"][0]["summary"]["kill"] = serde_json::json!([99, 0]),
            "point 1 names no measure's outcome",
        ),
        (
            "no-measures",
            |s| s["results"][0]["summary"]["measures"] = serde_json::json!([]),
            "point 1 names no measure's outcome",
        ),
    ];
    for (name, edit, why) in cases {
        let bad = damaged(&first, &dir.path().join(name), edit);
        let line = merge_refused(&[&bad, &second], &out);
        assert_contains(&line, &[&format!("{}/sweep.json", bad.display()), why]);
    }
    // A count of shards no one could run is not counted out either.
    let huge = damaged(&first, &dir.path().join("huge"), |s| s["shard"]["count"] = u64::MAX.into());
    let line = merge_refused(&[&huge], &out);
    assert_contains(&line, &["sweep.json", "edited or damaged"]);
    stdout_of(&["merge", first.to_str().unwrap(), second.to_str().unwrap(), "--out", out.to_str().unwrap()]);
}

#[test]
fn balance_bisects_a_count_of_units_over_whole_numbers() {
    let out = stdout_of(&[
        "balance",
        MC_BASE,
        "--vary",
        "side[1].unit[0].count",
        "--from",
        "1",
        "--to",
        "8",
        "--trials",
        "4000",
        "--format",
        "json",
    ]);
    let found: Value = serde_json::from_str(&out).unwrap();
    // Exact 0.619277 with two sections, about 0.33 with three: the neighbours bracket it.
    assert_eq!(found["bracket"], serde_json::json!([2, 3]));
    let tried = found["tried"].as_array().unwrap();
    assert!(tried.iter().all(|t| t["value"].is_u64()), "whole numbers only: {found}");
}

#[test]
fn a_span_too_long_to_count_is_refused_with_the_count_it_would_make() {
    let line = error_line(&cli::run(&[
        "balance",
        MC_BASE,
        "--vary",
        "side[1].unit[0].count",
        "--from",
        "1",
        "--to",
        "1e300",
        "--step",
        "1",
    ]));
    assert_contains(&line, &["--from, --to, --step", "from 1 to 1e300 by 1 is 1e300 values, more than 10000"]);

    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(MC_BASE, dir.path().join("base.toml")).unwrap();
    let text = "kind = \"sweep\"\nscenario = \"base.toml\"\n\n[[vary]]\nkey = \"side[1].unit[0].count\"\nfrom = 1\nto = 1e300\n";
    let study = write(dir.path(), "study.toml", text);
    let out = dir.path().join("out");
    let line = error_line(&cli::run(&["sweep", study.to_str().unwrap(), "--out", out.to_str().unwrap()]));
    assert_contains(&line, &["study.toml:4:1", "is 1e300 values, more than 10000"]);
}

#[cfg(unix)]
#[test]
fn a_base_scenario_or_sweep_json_that_is_not_a_regular_file_is_refused_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let file = small_mc_sweep(dir.path());
    let made = std::process::Command::new("mkfifo").arg(dir.path().join("base.toml")).status().unwrap();
    assert!(made.success());
    let text =
        "kind = \"sweep\"\nscenario = \"base.toml\"\n\n[[vary]]\nkey = \"side[1].unit[0].count\"\nvalues = [1, 2]\n";
    let study = write(dir.path(), "study.toml", text);
    let out = dir.path().join("out");
    // Opening the FIFO used to wait for a writer for ever.
    let child = std::process::Command::new(cli::BIN)
        .args(["sweep", study.to_str().unwrap(), "--out", out.to_str().unwrap()])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let line = error_line(&within(child, 30));
    assert_contains(&line, &["base.toml: is a FIFO (named pipe), not a regular file"]);

    // A merge input too.
    let first = dir.path().join("first");
    sweep(&file, &first, &["--shard", "1/2"]);
    let second = dir.path().join("second");
    std::fs::create_dir(&second).unwrap();
    let made = std::process::Command::new("mkfifo").arg(second.join("sweep.json")).status().unwrap();
    assert!(made.success());
    let child = std::process::Command::new(cli::BIN)
        .args(["merge", first.to_str().unwrap(), second.to_str().unwrap(), "--out", out.to_str().unwrap()])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let line = error_line(&within(child, 30));
    assert_contains(&line, &["sweep.json: is a FIFO (named pipe), not a regular file", "a sweep.json"]);
}

/// `child`'s output once it ends, which must be within `seconds`.
fn within(mut child: std::process::Child, seconds: u64) -> std::process::Output {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(seconds);
    while child.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("still running after {seconds} s");
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    child.wait_with_output().unwrap()
}

/// The names in `dir`, hidden ones included, sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    names
}

#[cfg(unix)]
#[test]
fn ctrl_c_while_a_sweep_is_written_leaves_no_temporary_directory() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy("experiments/cc_panther_vs_sherman.toml", dir.path().join("base.toml")).unwrap();
    // 640 points: answered in a second or two, their frames written in seconds more.
    let text = "kind = \"sweep\"\nscenario = \"base.toml\"\n\
                [[vary]]\nkey = \"range\"\nfrom = 1\nto = 20\n\
                [[vary]]\nkey = \"target.facing\"\nvalues = [\"front\", \"side\"]\n\
                [[vary]]\nkey = \"firer.quality\"\nvalues = [\"green\", \"trained\", \"veteran\", \"elite\"]\n\
                [[vary]]\nkey = \"target.quality\"\nvalues = [\"green\", \"trained\", \"veteran\", \"elite\"]\n";
    let study = write(dir.path(), "study.toml", text);
    let out = dir.path().join("out");
    let child = std::process::Command::new(cli::BIN)
        .args(["sweep", study.to_str().unwrap(), "--trials", "1000", "--out", out.to_str().unwrap()])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // The temporary directory appears when writing starts: Ctrl-C then.
    let tmp = format!(".out.tmp-{}", child.id());
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    while !dir.path().join(&tmp).exists() {
        assert!(std::time::Instant::now() < deadline, "writing never started");
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let kill = std::process::Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(kill.success());
    let ended = within(child, 30);
    let stderr = String::from_utf8_lossy(&ended.stderr);
    let left = listing(dir.path());
    // Interrupted, it wrote nothing; a write that finished first is whole.
    match ended.status.code() {
        Some(130) => assert_eq!(left, ["base.toml", "study.toml"], "{stderr}"),
        Some(0) => assert_eq!(left, ["base.toml", "out", "study.toml"], "{stderr}"),
        other => panic!("exit {other:?}: {stderr}"),
    }
}

/// A sweep file of `points` points (a multiple of 50) in `dir`: the HMG's fire at every
/// range from 1 to 50 over as many listed covers as it takes, each point cheap.
fn many_points(dir: &Path, points: usize) -> PathBuf {
    std::fs::copy("experiments/mc_hmg_good_cover.toml", dir.join("base.toml")).unwrap();
    let covers: Vec<&str> = (0..points / 50).map(|i| ["\"good_cover\"", "\"no_or_light_cover\""][i % 2]).collect();
    let text = format!(
        "kind = \"sweep\"\nscenario = \"base.toml\"\n[[vary]]\nkey = \"range\"\nfrom = 1\nto = 50\n\
         [[vary]]\nkey = \"target.situation\"\nvalues = [{}]\n",
        covers.join(", ")
    );
    write(dir, "many.toml", &text)
}

/// Runs `combat-odds ARGS` in `dir` with what it may allocate capped at `mib` MiB
/// (`ulimit -d`: its heap and anonymous mappings), and returns whether it succeeded
/// (or its standard error) and its peak resident memory in MiB, read from /proc as it
/// ran.
#[cfg(target_os = "linux")]
fn capped(dir: &Path, mib: u64, args: &[&str]) -> (Result<(), String>, u64) {
    use std::process::{Command, Stdio};
    let err = dir.join("stderr.txt");
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -d {} && exec \"$0\" \"$@\"", mib * 1024))
        .arg(cli::BIN)
        .args(args)
        // Files, not pipes: ten thousand points print more than a pipe holds unread.
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&err).unwrap())
        .spawn()
        .unwrap();
    // `exec` makes the shell the sweep: its high-water mark only rises.
    let status = format!("/proc/{}/status", child.id());
    let mut peak_kib = 0;
    let ended = loop {
        if let Some(ended) = child.try_wait().unwrap() {
            break ended;
        }
        let hwm = std::fs::read_to_string(&status).ok().and_then(|s| {
            let line = s.lines().find(|l| l.starts_with("VmHWM:"))?.to_string();
            line.split_whitespace().nth(1)?.parse::<u64>().ok()
        });
        peak_kib = peak_kib.max(hwm.unwrap_or(0));
        std::thread::sleep(std::time::Duration::from_millis(5));
    };
    let outcome = match ended.success() {
        true => Ok(()),
        false => Err(format!("{ended}: {}", std::fs::read_to_string(&err).unwrap_or_default())),
    };
    (outcome, peak_kib / 1024)
}

/// Points in a sweep directory's design.
fn design_points(out: &Path) -> usize {
    std::fs::read_to_string(out.join("design.csv")).unwrap().lines().count() - 1
}

#[cfg(target_os = "linux")]
#[test]
fn a_sweep_of_a_thousand_points_on_two_threads_runs_in_bounded_memory() {
    // Every point set up before the first ran took 171 MB here, and on two threads a
    // pool built per point inside the sweep's own overflowed the stack.
    let dir = tempfile::tempdir().unwrap();
    let file = many_points(dir.path(), 1000);
    let out = dir.path().join("out");
    let args = ["sweep", file.to_str().unwrap(), "--trials", "1000", "--threads", "2", "--out", out.to_str().unwrap()];
    let (ran, peak) = capped(dir.path(), 100, &args);
    ran.unwrap();
    println!("1,000 points on two threads: peak resident memory {peak} MiB");
    assert_eq!(design_points(&out), 1000);
}

#[cfg(target_os = "linux")]
#[test]
#[ignore = "long tier: about a minute and a half on two cores; run by .ci/run with --ignored"]
fn the_most_points_a_sweep_may_have_run_in_under_500_mb() {
    let dir = tempfile::tempdir().unwrap();
    let file = many_points(dir.path(), combat_odds_report::sweep::MAX_POINTS);
    let out = dir.path().join("out");
    let started = std::time::Instant::now();
    let (ran, peak) =
        capped(dir.path(), 500, &["sweep", file.to_str().unwrap(), "--trials", "1000", "--out", out.to_str().unwrap()]);
    ran.unwrap();
    println!("10,000 points: peak resident memory {peak} MiB, {:.1} s", started.elapsed().as_secs_f64());
    assert!(peak < 500, "peak resident memory {peak} MiB");
    assert_eq!(design_points(&out), 10_000);
}

#[cfg(target_os = "linux")]
#[test]
#[ignore = "long tier: half a minute on two cores; run by .ci/run with --ignored"]
fn a_sweep_of_a_company_s_engagement_keeps_its_points_on_disk_not_in_memory() {
    // A company's engagement counts every turn's outcomes: about 12 KB of JSON a
    // point. Held in memory and made into one frame, 540 points peaked at 72 MB and
    // 6,000 at 455 MB; on disk, 540 points peak at 27 MB.
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy("experiments/cd_engagement_company_at_the_farmhouse.toml", dir.path().join("base.toml")).unwrap();
    let text = "kind = \"sweep\"\nscenario = \"base.toml\"\nlatin_hypercube = 2000\n\
                [[vary]]\nkey = \"engagement.range\"\nfrom = 2\nto = 10\n\
                [[vary]]\nkey = \"engagement.closing\"\nfrom = 1\nto = 10\n\
                [[vary]]\nkey = \"engagement.turns\"\nfrom = 3\nto = 8\n\
                [[vary]]\nkey = \"side[0].company[0].morale\"\nfrom = 4\nto = 9\n";
    let file = write(dir.path(), "company.toml", text);
    let out = dir.path().join("out");
    // A hundredth of a second for each exact stage: most points are Monte Carlo's,
    // whose counts are the largest.
    let args =
        ["sweep", file.to_str().unwrap(), "--trials", "200", "--exact-seconds", "0.01", "--out", out.to_str().unwrap()];
    let (ran, peak) = capped(dir.path(), 500, &args);
    ran.unwrap();
    println!("2,000 points of a company's engagement: peak resident memory {peak} MiB");
    assert_eq!(design_points(&out), 2000);
    let summary: Value = serde_json::from_str(&std::fs::read_to_string(out.join("sweep.json")).unwrap()).unwrap();
    assert_eq!(summary["results"].as_array().unwrap().len(), 2000, "every point's counts, read back from disk");
    assert!(peak < 100, "peak resident memory {peak} MiB");
}
