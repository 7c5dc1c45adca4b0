//! `combat-odds run` and `combat-odds merge` through the real binary: the shards of a
//! run merge, in any order, into exactly the files the unsharded run writes; the
//! number of threads never changes a frame; an existing results directory is kept
//! unless `--force`; bad shard specs and mismatched shards are refused in one line;
//! Ctrl-C writes nothing and exits 130; a precision target stops at the same trial
//! count every time, with every interval under it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::common::cli::{self, assert_contains, assert_names_file, error_line};
use combat_odds_core::engine::{CHUNK_TRIALS, batch_ends};
use serde_json::Value;
use tempfile::TempDir;

/// The master seed of every study here.
const SEED: &str = "2718";

/// The engagement file the shard tests cover beside the embedded default (a different
/// ruleset, with no exact odds).
const PANZERS: &str = "mc_engagement_panzer_iv_vs_shermans.toml";

/// The header every measure's CSV frame opens with.
const FRAME_HEADER: &str = "outcome,value,probability,ci_low,ci_high,count,exact,exact_fraction";

fn tempdir() -> TempDir {
    tempfile::tempdir().expect("temp dir")
}

fn utf8(path: &Path) -> &str {
    path.to_str().expect("utf-8 temp path")
}

/// `PANZERS` in experiments/, as a command-line argument.
fn panzers() -> String {
    crate::common::experiment_path(PANZERS).to_str().expect("utf-8 path").to_string()
}

/// `run ARGS --out OUT`, which must succeed; returns OUT.
fn study(out: &Path, args: &[&str]) -> PathBuf {
    let o = cli::run(&[&["run"], args, &["--out", utf8(out)]].concat());
    assert!(o.status.success(), "run {args:?}:\n{}", String::from_utf8_lossy(&o.stderr));
    out.to_path_buf()
}

/// `merge DIRS... --out OUT` then `extra`.
fn merge(dirs: &[&Path], out: &Path, extra: &[&str]) -> Output {
    let dirs: Vec<&str> = dirs.iter().map(|d| utf8(d)).collect();
    cli::run(&[&["merge"], &dirs[..], &["--out", utf8(out)], extra].concat())
}

/// The names in `dir`, hidden ones included, sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("read {}: {e}", dir.display()))
        .map(|entry| entry.expect("a directory entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// A results directory's files, name to bytes.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    listing(dir)
        .into_iter()
        .map(|name| (name.clone(), std::fs::read(dir.join(&name)).expect("read a result")))
        .collect()
}

/// A results directory's `summary.json`.
fn summary(dir: &Path) -> Value {
    let text = std::fs::read_to_string(dir.join("summary.json")).expect("summary.json");
    serde_json::from_str(&text).expect("summary.json is JSON")
}

/// The summary without its wall time, the one field two runs of one study may differ in.
fn timeless(dir: &Path) -> Value {
    let mut s = summary(dir);
    s.as_object_mut().expect("a JSON object").remove("wall_time_s").expect("a wall time");
    s
}

/// The measure names a summary lists.
fn measure_names(summary: &Value) -> Vec<String> {
    let measures = summary["measures"].as_array().expect("measures");
    measures.iter().map(|m| m["name"].as_str().expect("a measure name").to_string()).collect()
}

/// `b` holds exactly the results `a` does: the same files, every CSV and Parquet frame
/// and every PNG and SVG chart byte for byte (the marker too), and the same summary but
/// for the wall time.
fn assert_same_results(a: &Path, b: &Path) {
    let (fa, fb) = (files(a), files(b));
    assert_eq!(fa.keys().collect::<Vec<_>>(), fb.keys().collect::<Vec<_>>(), "{} and {}", a.display(), b.display());
    // One CSV and one Parquet frame per measure, an engagement's three charts as PNG
    // and SVG, and the summary: nothing else.
    let mut expected: Vec<String> =
        measure_names(&summary(a)).iter().flat_map(|m| [format!("{m}.csv"), format!("{m}.parquet")]).collect();
    expected.extend(
        ["winner", "turns", "decided_by_turn", "survivors"]
            .iter()
            .flat_map(|c| [format!("{c}.png"), format!("{c}.svg")]),
    );
    expected.push("summary.json".into());
    // Every measure in one long frame too.
    expected.extend(["all_measures.csv".into(), "all_measures.parquet".into()]);
    // The marker that lets --force recognise the directory as combat-odds's.
    expected.push(".combat-odds-results".into());
    expected.sort();
    assert_eq!(fa.keys().cloned().collect::<Vec<_>>(), expected, "{}", a.display());
    for (name, bytes) in fa.iter().filter(|(name, _)| *name != "summary.json") {
        assert!(bytes == &fb[name], "{name} differs between {} and {}", a.display(), b.display());
    }
    assert_eq!(timeless(a), timeless(b), "summary.json of {} and {}", a.display(), b.display());
}

/// One CSV frame's rows: (outcome, ci_low, ci_high, count).
fn frame_rows(csv: &Path) -> Vec<(String, f64, f64, u64)> {
    let text = std::fs::read_to_string(csv).expect("a CSV frame");
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some(FRAME_HEADER), "{}", csv.display());
    let number = |field: &str| field.parse::<f64>().unwrap_or_else(|e| panic!("{}: `{field}`: {e}", csv.display()));
    lines
        .map(|line| {
            // From the right, so an outcome label may hold a comma.
            let fields: Vec<&str> = line.rsplitn(8, ',').collect();
            assert_eq!(fields.len(), 8, "{}: {line}", csv.display());
            let count = fields[2].parse().unwrap_or_else(|e| panic!("{}: count in {line}: {e}", csv.display()));
            (fields[7].to_string(), number(fields[4]), number(fields[3]), count)
        })
        .collect()
}

/// Waits up to `limit` for `child` to exit, killing it and failing if it does not.
fn finish(mut child: Child, limit: Duration) -> Output {
    let deadline = Instant::now() + limit;
    while child.try_wait().expect("poll the child").is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("still running after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    child.wait_with_output().expect("collect the child's output")
}

/// The binary with `args`, its output captured.
fn spawn(args: &[&str]) -> Child {
    Command::new(cli::BIN).args(args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("the binary starts")
}

// ---- shards and threads -----------------------------------------------------------

/// Runs `scenario` (the embedded default when `None`) whole and as shards 1/4..4/4,
/// and merges the shards in two orders: each merge writes exactly the whole run's files.
fn assert_shards_merge_to_the_whole_run(scenario: Option<&str>) {
    let dir = tempdir();
    // 200,000 trials are four chunks, the last one short: each shard runs one.
    let base: Vec<&str> = scenario.into_iter().chain(["--trials", "200000", "--seed", SEED]).collect();
    let whole = study(&dir.path().join("whole"), &base);
    let shards: Vec<PathBuf> = (1..=4)
        .map(|k| {
            let spec = format!("{k}/4");
            study(&dir.path().join(format!("shard-{k}")), &[&base[..], &["--shard", &spec]].concat())
        })
        .collect();

    let whole_trials = summary(&whole)["trials"].as_u64().expect("trials");
    assert_eq!(whole_trials, 200_000);
    let mut shard_trials = 0;
    for (k, shard) in (1..).zip(&shards) {
        let s = summary(shard);
        assert_eq!(s["shard"], serde_json::json!({ "index": k, "count": 4 }), "{}", shard.display());
        let trials = s["trials"].as_u64().expect("trials");
        assert!(trials > 0, "shard {k}/4 ran no trials");
        shard_trials += trials;
    }
    assert_eq!(shard_trials, whole_trials, "the shards' trials add up to the whole run's");

    for (name, order) in [("merged-in-order", [0, 1, 2, 3]), ("merged-4-2-1-3", [3, 1, 0, 2])] {
        let merged = dir.path().join(name);
        let dirs: Vec<&Path> = order.iter().map(|&i| shards[i].as_path()).collect();
        let out = merge(&dirs, &merged, &[]);
        assert!(out.status.success(), "merge {order:?}:\n{}", String::from_utf8_lossy(&out.stderr));
        assert_same_results(&whole, &merged);
        // The wall time is the shards' summed, whatever the order.
        let summed: f64 = shards.iter().map(|s| summary(s)["wall_time_s"].as_f64().expect("wall time")).sum();
        let merged_time = summary(&merged)["wall_time_s"].as_f64().expect("wall time");
        assert!((merged_time - summed).abs() < 1e-9, "merged wall time {merged_time}, shards' sum {summed}");
    }
}

#[test]
fn shards_of_the_default_engagement_merge_in_any_order_into_the_unsharded_run() {
    assert_shards_merge_to_the_whole_run(None);
}

#[test]
fn shards_of_an_engagement_file_merge_in_any_order_into_the_unsharded_run() {
    assert_shards_merge_to_the_whole_run(Some(&panzers()));
}

#[test]
fn the_same_seed_writes_the_same_frames_on_one_two_and_eight_threads() {
    let dir = tempdir();
    // Five chunks: more than one per thread on two threads, fewer than eight.
    let runs: Vec<PathBuf> = ["1", "2", "8"]
        .iter()
        .map(|t| {
            study(&dir.path().join(format!("threads-{t}")), &["--trials", "300000", "--seed", SEED, "--threads", t])
        })
        .collect();
    for other in &runs[1..] {
        assert_same_results(&runs[0], other);
    }
}

// ---- where results go ---------------------------------------------------------------

#[test]
fn without_out_a_run_writes_a_new_directory_under_runs_and_never_reuses_one() {
    let cwd = tempdir();
    let panzers = panzers();
    // Each case run twice: the second run takes the next free name, so a command run
    // again never fails on, or replaces, what it wrote before.
    let cases: [(&[&str], &str); 3] = [
        (&["--trials", "1000"], "cd_engagement_tank_duel"),
        // 200,000 trials are four chunks, enough for three shards.
        (&["--trials", "200000", "--shard", "2/3"], "cd_engagement_tank_duel-shard-2-of-3"),
        (&[&panzers, "--trials", "1000"], "mc_engagement_panzer_iv_vs_shermans"),
    ];
    let mut expected = Vec::new();
    for (args, name) in cases {
        for wrote in [name.to_string(), format!("{name}-2")] {
            let out =
                Command::new(cli::BIN).arg("run").args(args).current_dir(cwd.path()).output().expect("the binary runs");
            assert!(out.status.success(), "run {args:?}:\n{}", String::from_utf8_lossy(&out.stderr));
            let stdout = String::from_utf8_lossy(&out.stdout);
            let wrote_path = Path::new("runs").join(&wrote);
            assert!(
                stdout.contains(&format!("wrote {}", wrote_path.display())),
                "run {args:?} says where it wrote:\n{stdout}"
            );
            assert!(cwd.path().join(&wrote_path).join("summary.json").is_file(), "{}", wrote_path.display());
            expected.push(wrote);
        }
    }
    assert_eq!(listing(cwd.path()), ["runs"]);
    expected.sort();
    assert_eq!(listing(&cwd.path().join("runs")), expected);
}

#[test]
fn an_existing_directory_is_refused_before_the_run_and_left_untouched() {
    let dir = tempdir();
    let out = dir.path().join("mine");
    let notes = cli::write(&out, "notes.txt", "my notes\n");
    // Ten billion trials: the refusal must come before the study runs, not after it.
    for force in [&[][..], &["--force"]] {
        let args = [&["run", "--trials", "10000000000", "--out", utf8(&out)], force].concat();
        let line = error_line(&finish(spawn(&args), Duration::from_secs(30)));
        assert!(line.starts_with(&format!("error: {}", out.display())), "{line}");
        if force.is_empty() {
            assert_contains(&line, &["already exists", "--force"]);
        } else {
            // --force replaces only what combat-odds wrote: a directory without its
            // marker is someone else's.
            assert_contains(&line, &["combat-odds did not write it", "nothing was touched"]);
        }
        assert_eq!(std::fs::read_to_string(&notes).expect("the user's file"), "my notes\n");
        assert_eq!(listing(&out), ["notes.txt"]);
        assert_eq!(listing(dir.path()), ["mine"], "no temporary sibling left");
    }
}

#[test]
fn force_replaces_a_results_directory_only_while_it_holds_nothing_but_results() {
    let dir = tempdir();
    let out = study(&dir.path().join("duel"), &["--trials", "1000", "--seed", SEED]);
    let first = files(&out);
    assert!(first.contains_key(".combat-odds-results"), "the marker is written: {:?}", first.keys());

    // Replaced in place by a run of other trials, with no sibling left behind.
    study(&out, &["--trials", "2000", "--seed", SEED, "--force"]);
    assert_eq!(summary(&out)["trials"], 2000);
    assert_eq!(listing(dir.path()), ["duel"], "no temporary or old sibling left");

    // A file of the user's inside it, or a folder, makes it theirs: refused, untouched.
    for (extra, shown) in [("analysis.ipynb", "analysis.ipynb"), ("plots/mine.png", "plots/")] {
        let added = cli::write(&out, extra, "mine\n");
        let before = listing(&out);
        let line = error_line(&cli::run(&["run", "--trials", "1000", "--out", utf8(&out), "--force"]));
        assert_contains(&line, &[&format!("it holds `{shown}`"), "combat-odds did not write there"]);
        assert_eq!(listing(&out), before, "nothing changed");
        assert_eq!(summary(&out)["trials"], 2000);
        assert_eq!(std::fs::read_to_string(&added).expect("the user's file"), "mine\n");
        std::fs::remove_dir_all(out.join("plots")).ok();
        std::fs::remove_file(out.join("analysis.ipynb")).ok();
    }
    assert_eq!(listing(dir.path()), ["duel"]);
}

#[test]
fn force_on_the_working_directory_is_refused_and_leaves_nothing_behind() {
    let cwd = tempdir();
    cli::write(cwd.path(), "scenario.toml", "# mine\n");
    let out = Command::new(cli::BIN)
        .args(["run", "--trials", "1000", "--out", ".", "--force"])
        .current_dir(cwd.path())
        .output()
        .expect("the binary runs");
    let line = error_line(&out);
    assert_contains(&line, &["combat-odds did not write it"]);
    assert_eq!(listing(cwd.path()), ["scenario.toml"], "no hidden temporary directory left");
}

#[test]
fn a_destination_under_a_file_is_refused_before_the_study_runs() {
    let dir = tempdir();
    let file = cli::write(dir.path(), "plain.txt", "text\n");
    let out = file.join("sub");
    let refused = finish(spawn(&["run", "--trials", "10000000000", "--out", utf8(&out)]), Duration::from_secs(30));
    let line = error_line(&refused);
    assert_contains(&line, &["is a file, not a directory", "--out"]);
    assert_eq!(listing(dir.path()), ["plain.txt"]);
}

#[test]
fn leftovers_of_a_killed_run_are_put_right_by_the_next_run() {
    let dir = tempdir();
    // A process that has ended: its id names the leftovers of a "killed" run.
    let dead = Command::new("true").spawn().expect("true runs");
    let pid = dead.id();
    dead.wait_with_output().expect("true ends");
    let marker = ".combat-odds-results";
    // A partial temporary directory (the marker is written first, and names each file
    // before it is written) ...
    let tmp = dir.path().join(format!(".out.tmp-{pid}"));
    cli::write(&tmp, marker, "{\"tool\": \"combat-odds\", \"version\": \"0\", \"files\": [\"winner.csv\"]}\n");
    cli::write(&tmp, "winner.csv", "partial");
    // ... a complete earlier result moved aside by a --force that died mid-swap ...
    let old = dir.path().join(format!(".out.old-{pid}"));
    let earlier = study(&dir.path().join("earlier"), &["--trials", "1000", "--seed", SEED]);
    std::fs::rename(&earlier, &old).expect("move aside");
    // ... and a folder of the user's that only looks like one: kept.
    let lookalike = dir.path().join(format!(".out.tmp-{pid}x"));
    cli::write(&lookalike, "keep.txt", "mine\n");

    // The next run to `out` removes the partial one and puts the complete one back,
    // which it then refuses to replace without --force.
    let line = error_line(&cli::run(&["run", "--trials", "1000", "--out", utf8(&dir.path().join("out"))]));
    assert_contains(&line, &["already exists"]);
    assert_eq!(listing(dir.path()), [format!(".out.tmp-{pid}x"), "out".to_string()]);
    assert_eq!(summary(&dir.path().join("out"))["trials"], 1000);
    assert_eq!(std::fs::read_to_string(lookalike.join("keep.txt")).expect("kept"), "mine\n");
}

#[test]
fn leftovers_are_cleaned_of_the_files_this_tool_wrote_and_nothing_else() {
    let dir = tempdir();
    let dead = Command::new("true").spawn().expect("true runs");
    let pid = dead.id();
    dead.wait_with_output().expect("true ends");
    let marker = ".combat-odds-results";
    let names = "{\"tool\": \"combat-odds\", \"version\": \"0\", \"files\": [\"winner.csv\"]}\n";
    // A temporary and an old directory of a killed run, each holding a file the user
    // put there beside the one the marker names.
    let tmp = dir.path().join(format!(".out.tmp-{pid}"));
    cli::write(&tmp, marker, names);
    cli::write(&tmp, "winner.csv", "partial");
    cli::write(&tmp, "mine.txt", "mine\n");
    let old = dir.path().join(format!(".out.old-{pid}"));
    cli::write(&old, marker, names);
    cli::write(&old, "winner.csv", "earlier");
    cli::write(&old, "notes.txt", "notes\n");
    let out = study(&dir.path().join("out"), &["--trials", "1000", "--seed", SEED]);

    // A command refused for its own reasons still cleans up, but only what it wrote.
    let line = error_line(&cli::run(&["run", "--trials", "1000", "--out", utf8(&out)]));
    assert_contains(&line, &["already exists"]);
    assert_eq!(listing(&tmp), ["mine.txt"]);
    assert_eq!(listing(&old), ["notes.txt"]);
    assert_eq!(std::fs::read_to_string(tmp.join("mine.txt")).expect("kept"), "mine\n");
    assert_eq!(std::fs::read_to_string(old.join("notes.txt")).expect("kept"), "notes\n");
}

#[test]
fn a_link_named_like_a_leftover_is_never_followed_and_what_it_points_to_is_kept() {
    let dir = tempdir();
    let dead = Command::new("true").spawn().expect("true runs");
    let pid = dead.id();
    dead.wait_with_output().expect("true ends");
    // The user's own results, which this tool wrote (marker and all), and a link to
    // them named like a dead run's leftover beside another destination.
    let keep = study(&dir.path().join("keepme"), &["--trials", "1000", "--seed", SEED]);
    let before = listing(&keep);
    let link = dir.path().join(format!(".res.tmp-{pid}"));
    std::os::unix::fs::symlink(&keep, &link).expect("a link");
    // A command refused for its own reasons (res exists) cleans up leftovers first.
    let res = study(&dir.path().join("res"), &["--trials", "1000", "--seed", SEED]);
    let line = error_line(&cli::run(&["run", "--trials", "1000", "--out", utf8(&res)]));
    assert_contains(&line, &["already exists"]);
    assert_eq!(listing(&keep), before, "the linked results are whole");
    assert!(std::fs::symlink_metadata(&link).is_ok_and(|m| m.file_type().is_symlink()), "the link is the user's");
}

#[test]
fn a_file_of_the_user_s_named_like_a_leftover_is_kept_and_a_marked_leftover_removed() {
    let dir = tempdir();
    let dead = Command::new("true").spawn().expect("true runs");
    let pid = dead.id();
    dead.wait_with_output().expect("true ends");
    // A file of the user's named like a killed write's temporary, with no marker ...
    let mine = cli::write(dir.path(), &format!(".out.json.tmp-{pid}"), "mine\n");
    // ... and a real leftover of another killed write, with the marker it writes first.
    let theirs = cli::write(dir.path(), &format!(".other.json.tmp-{pid}"), "partial");
    cli::write(
        dir.path(),
        &format!(".other.json.tmp-{pid}.combat-odds"),
        "combat-odds: the file beside this one is a temporary it is writing\n",
    );
    let out = dir.path().join("out.json");
    let done = cli::run(&["fire", "--trials", "1000", "--format", "json", "--output", utf8(&out)]);
    assert!(done.status.success(), "{}", error_line(&done));
    assert_eq!(std::fs::read_to_string(&mine).expect("kept"), "mine\n");
    let other = dir.path().join("other.json");
    let done = cli::run(&["fire", "--trials", "1000", "--format", "json", "--output", utf8(&other)]);
    assert!(done.status.success(), "{}", error_line(&done));
    assert!(!theirs.exists(), "a marked leftover is removed");
    assert!(!dir.path().join(format!(".other.json.tmp-{pid}.combat-odds")).exists(), "and its marker");
}

#[test]
fn merge_refuses_an_existing_directory_unless_forced_and_then_only_its_own() {
    let dir = tempdir();
    let shard = study(&dir.path().join("only"), &["--trials", "1000", "--seed", SEED, "--shard", "1/1"]);
    let out = dir.path().join("mine");
    let notes = cli::write(&out, "notes.txt", "my notes\n");
    let line = error_line(&merge(&[&shard], &out, &[]));
    assert!(line.starts_with(&format!("error: {} already exists", out.display())), "{line}");
    assert_contains(&line, &["--force"]);
    let line = error_line(&merge(&[&shard], &out, &["--force"]));
    assert_contains(&line, &["combat-odds did not write it"]);
    assert_eq!(std::fs::read_to_string(&notes).expect("the user's file"), "my notes\n");
    assert_eq!(listing(&out), ["notes.txt"]);

    std::fs::remove_dir_all(&out).expect("the user clears it");
    for extra in [&[][..], &["--force"]] {
        let merged = merge(&[&shard], &out, extra);
        assert!(merged.status.success(), "{}", String::from_utf8_lossy(&merged.stderr));
    }
    assert_eq!(summary(&out)["trials"], 1000);
    assert_eq!(summary(&out)["shard"], Value::Null, "a merge is a whole run");
    assert_eq!(listing(dir.path()), ["mine", "only"], "no temporary or old sibling left");
}

// ---- refusals -------------------------------------------------------------------------

#[test]
fn shard_specs_outside_one_to_n_are_refused() {
    let dir = tempdir();
    let out = dir.path().join("never");
    for spec in ["3/2", "0/4", "x"] {
        let line = error_line(&cli::run(&["run", "--trials", "1000", "--shard", spec, "--out", utf8(&out)]));
        assert_contains(&line, &[&format!("shard `{spec}`"), "K/N", "1 <= K <= N"]);
    }
    assert_eq!(listing(dir.path()), Vec::<String>::new(), "nothing written");
}

#[test]
fn more_shards_than_chunks_are_refused_before_anything_runs() {
    let dir = tempdir();
    let out = dir.path().join("never");
    // 200,000 trials are four chunks of 65,536: a fifth shard would run nothing.
    let line = error_line(&cli::run(&["run", "--trials", "200000", "--shard", "2/5", "--out", utf8(&out)]));
    assert_contains(&line, &["--shard 2/5", "4 chunk(s)", "at most 4 shard(s)"]);
    assert_eq!(listing(dir.path()), Vec::<String>::new(), "nothing written");
}

#[test]
fn a_precision_target_with_a_shard_is_refused() {
    let dir = tempdir();
    let out = dir.path().join("never");
    let line = error_line(&cli::run(&["run", "--precision", "0.01", "--shard", "1/2", "--out", utf8(&out)]));
    assert_contains(&line, &["--precision", "--shard"]);
    assert_eq!(listing(dir.path()), Vec::<String>::new(), "nothing written");
}

#[test]
fn merge_refuses_shards_of_different_runs_repeats_gaps_and_whole_runs() {
    let dir = tempdir();
    let d = dir.path();
    let panzers = panzers();
    // 200,000 trials are four chunks: enough for two shards or three.
    let shard = |name: &str, args: &[&str]| study(&d.join(name), &[&["--trials", "200000"], args].concat());
    let first = shard("first", &["--seed", SEED, "--shard", "1/2"]);
    let other_seed = shard("other-seed", &["--seed", "1", "--shard", "2/2"]);
    let other_scenario = shard("other-scenario", &[&panzers, "--seed", SEED, "--shard", "2/2"]);
    let other_trials = study(&d.join("other-trials"), &["--trials", "120000", "--seed", SEED, "--shard", "2/2"]);
    let of_three = shard("of-three", &["--seed", SEED, "--shard", "2/3"]);
    let other_mode = shard("other-mode", &["--seed", SEED, "--shard", "2/2", "--mode", "literal"]);
    let whole = shard("whole", &["--seed", SEED]);
    let empty = d.join("empty");
    std::fs::create_dir(&empty).expect("create a folder");

    let out = d.join("merged");
    let refused = |dirs: &[&Path]| {
        let line = error_line(&merge(dirs, &out, &[]));
        assert!(!out.exists(), "nothing written for {dirs:?}");
        line
    };
    // Each mismatch names the summary that does not fit.
    let cases: [(&Path, &[&str]); 6] = [
        (&other_seed, &["seed 1 differs from 2718", "only shards of one run merge"]),
        (
            &other_scenario,
            &["scenario `Panzer IVs hull-down", "differs from `Panther vs Sherman", "only shards of one run merge"],
        ),
        (&other_trials, &["trials 120000 differs from 200000", "only shards of one run merge"]),
        (&of_three, &["shard count 3 differs from 2"]),
        (&other_mode, &["sampling mode literal differs from compiled", "only shards of one run merge"]),
        (&whole, &["a whole run, not a shard"]),
    ];
    for (misfit, parts) in cases {
        let line = refused(&[&first, misfit]);
        assert_names_file(&line, &misfit.join("summary.json"));
        assert_contains(&line, parts);
    }
    let line = refused(&[&first, &first]);
    assert_names_file(&line, &first.join("summary.json"));
    assert_contains(&line, &["shard 1/2 is given twice"]);

    let line = refused(&[&first]);
    assert_contains(&line, &["shard(s) 2/2 missing", "merge needs all 2"]);

    // A summary edited by hand to a shard outside its count is refused, not a crash.
    let edited = shard("edited", &["--seed", SEED, "--shard", "2/2"]);
    let path = edited.join("summary.json");
    let text = std::fs::read_to_string(&path).expect("the summary");
    std::fs::write(&path, text.replacen("\"index\": 2", "\"index\": 5", 1)).expect("edit the summary");
    let line = refused(&[&first, &edited]);
    assert_names_file(&line, &path);
    assert_contains(&line, &["shard 5/2 is not K/N", "re-run that shard"]);
    // ... and so is a count of shards no one could run: the missing ones are named,
    // not counted out one by one into memory.
    let mut damaged = summary(&edited);
    damaged["shard"] = serde_json::json!({"index": 2, "count": u64::MAX});
    std::fs::write(&path, serde_json::to_string_pretty(&damaged).expect("JSON")).expect("edit the summary");
    let line = refused(&[&edited]);
    assert_contains(&line, &["shard(s) 1/18446744073709551615, 3/18446744073709551615", "more missing"]);
    // A kill outcome past the measures used to index out of bounds.
    damaged["shard"] = serde_json::json!({"index": 2, "count": 2});
    damaged["kill"] = serde_json::json!([99, 0]);
    std::fs::write(&path, serde_json::to_string_pretty(&damaged).expect("JSON")).expect("edit the summary");
    let line = refused(&[&first, &edited]);
    assert_names_file(&line, &path);
    assert_contains(&line, &["its kill outcome is no measure's outcome", "re-run that shard"]);

    let line = refused(&[&first, &empty]);
    assert_names_file(&line, &empty.join("summary.json"));
    assert_contains(&line, &["cannot read it", "combat-odds run"]);

    let mut left = listing(d);
    left.retain(|name| name.starts_with('.'));
    assert_eq!(left, Vec::<String>::new(), "no temporary sibling left");
}

// ---- Ctrl-C -------------------------------------------------------------------------------

/// Waits until `child` catches SIGINT, i.e. its Ctrl-C handler is installed (read from
/// /proc on Linux; elsewhere, a second's grace), so the signal reaches the handler
/// rather than killing the process outright.
#[cfg(unix)]
fn wait_for_ctrl_c_handler(child: &mut Child) {
    // SigCgt sets bit n-1 for each caught signal n; SIGINT is 2.
    const SIGINT_BIT: u64 = 1 << (2 - 1);
    let status = PathBuf::from(format!("/proc/{}/status", child.id()));
    if !status.exists() {
        std::thread::sleep(Duration::from_secs(1));
        return;
    }
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Some(exit) = child.try_wait().expect("poll the child") {
            panic!("the run ended ({exit}) before it could be interrupted");
        }
        let text = std::fs::read_to_string(&status).unwrap_or_default();
        let caught =
            text.lines().find_map(|l| l.strip_prefix("SigCgt:")).and_then(|m| u64::from_str_radix(m.trim(), 16).ok());
        if caught.is_some_and(|mask| mask & SIGINT_BIT != 0) {
            return;
        }
        assert!(Instant::now() < deadline, "the run never installed its Ctrl-C handler");
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[cfg(unix)]
#[test]
fn ctrl_c_stops_a_run_writes_nothing_and_exits_130() {
    let dir = tempdir();
    let out = dir.path().join("never");
    let mut child = spawn(&["run", "--trials", "10000000000", "--seed", SEED, "--out", utf8(&out)]);
    wait_for_ctrl_c_handler(&mut child);
    // Let the study get under way.
    std::thread::sleep(Duration::from_millis(300));
    assert!(child.try_wait().expect("poll the child").is_none(), "ten billion trials take longer than this");
    let kill = Command::new("kill").args(["-INT", &child.id().to_string()]).status().expect("kill runs");
    assert!(kill.success(), "kill -INT failed");

    let output = finish(child, Duration::from_secs(30));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(130), "exit code; stderr:\n{stderr}");
    assert!(output.stdout.is_empty(), "nothing on stdout:\n{}", String::from_utf8_lossy(&output.stdout));
    assert_eq!(
        stderr.lines().collect::<Vec<_>>(),
        ["error: interrupted: the run stopped before it finished and wrote no result files"]
    );
    assert_eq!(listing(dir.path()), Vec::<String>::new(), "neither the results nor a temporary directory");
}

// ---- precision ----------------------------------------------------------------------------

/// Runs the default engagement to `precision` (at most `trials`) on two threads and
/// on eight: both stop at the same batch boundary with the same frames, and every
/// outcome of every measure has a 95% interval half-width under the target. Returns
/// the trials run.
fn assert_precision_stops_deterministically(precision: &str, trials: &str) -> u64 {
    let dir = tempdir();
    let runs: Vec<PathBuf> = ["2", "8"]
        .iter()
        .map(|t| {
            let args = ["--precision", precision, "--trials", trials, "--seed", SEED, "--threads", t];
            study(&dir.path().join(format!("threads-{t}")), &args)
        })
        .collect();
    assert_same_results(&runs[0], &runs[1]);

    let s = summary(&runs[0]);
    let target: f64 = precision.parse().expect("a number");
    assert_eq!(s["precision"].as_f64(), Some(target));
    assert_eq!(s["precision_reached"], true);
    let ran = s["trials"].as_u64().expect("trials");
    assert!(ran < trials.parse().expect("a number"), "stopped before --trials {trials}: ran {ran}");
    assert!(
        batch_ends(u64::MAX / CHUNK_TRIALS)
            .take_while(|&end| end * CHUNK_TRIALS <= ran)
            .any(|end| end * CHUNK_TRIALS == ran),
        "stopped at a batch boundary: ran {ran}"
    );

    let mut widest: f64 = 0.0;
    for measure in measure_names(&s) {
        let csv = runs[0].join(format!("{measure}.csv"));
        let rows = frame_rows(&csv);
        assert_eq!(rows.iter().map(|r| r.3).sum::<u64>(), ran, "{measure}: counts add up to the trials");
        for (outcome, low, high, _) in rows {
            let half = (high - low) / 2.0;
            assert!(half < target, "{measure} = {outcome}: half-width {half} is not under {target}");
            widest = widest.max(half);
        }
    }
    let reported = s["widest_half_width"].as_f64().expect("widest half-width");
    assert!((reported - widest).abs() < 1e-12, "summary says {reported}, the frames {widest}");
    ran
}

#[test]
fn a_precision_target_stops_at_the_same_trial_count_with_every_interval_under_it() {
    // 0.01 needs n > 1.96^2 x 0.25 / 0.01^2 = 9,604 trials at worst (p = 1/2): the
    // first batch, one chunk, meets it.
    assert_eq!(assert_precision_stops_deterministically("0.01", "1000000"), CHUNK_TRIALS, "met by the first chunk");
    // A target the first batch does not meet: the stop moves to a later boundary.
    let ran = assert_precision_stops_deterministically("0.001", "4000000");
    assert!(ran > CHUNK_TRIALS, "0.001 needs more than one batch; ran {ran}");
}

// ---- bounded resources and write errors ---------------------------------------------

#[test]
fn trials_past_two_to_the_fifty_third_and_threads_past_eight_per_core_are_refused() {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let too_many_threads = (8 * cores + 1).to_string();
    let cases: [(&[&str], &str); 4] = [
        (&["fire", "--trials", "18446744073709551615"], "at most 9007199254740992 (2^53)"),
        (&["run", "--trials", "9007199254740993"], "at most 9007199254740992 (2^53)"),
        (&["fire", "--threads", &too_many_threads], "more threads only slow the run"),
        (&["run", "--threads", "100000", "--trials", "1000"], "per core"),
    ];
    for (args, says) in cases {
        let out = finish(spawn(args), Duration::from_secs(30));
        let line = error_line(&out);
        assert_contains(&line, &[says]);
    }
    // Eight per core is still accepted.
    let most = (8 * cores).to_string();
    let ok = cli::run(&["fire", "--trials", "1000", "--threads", &most]);
    assert!(ok.status.success(), "{}", String::from_utf8_lossy(&ok.stderr));
}

/// Resident memory of a running process in KiB, from /proc.
#[cfg(target_os = "linux")]
fn resident_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("the process is running");
    let line = status.lines().find_map(|l| l.strip_prefix("VmRSS:")).expect("VmRSS");
    line.trim().trim_end_matches("kB").trim().parse().expect("a number of kB")
}

#[cfg(target_os = "linux")]
#[test]
fn the_largest_study_streams_its_chunks_in_bounded_memory_and_stops_on_ctrl_c() {
    let dir = tempdir();
    let out = dir.path().join("never");
    // 2^53 trials are 2^37 chunks: listing them would take 1 TiB.
    let mut child = spawn(&["run", "--trials", "9007199254740992", "--out", utf8(&out)]);
    wait_for_ctrl_c_handler(&mut child);
    std::thread::sleep(Duration::from_millis(500));
    let kib = resident_kib(child.id());
    assert!(kib < 200 * 1024, "resident memory {kib} KiB: the chunks are being held, not streamed");
    let kill = Command::new("kill").args(["-INT", &child.id().to_string()]).status().expect("kill runs");
    assert!(kill.success());
    let output = finish(child, Duration::from_secs(10));
    assert_eq!(output.status.code(), Some(130), "{}", String::from_utf8_lossy(&output.stderr));
    assert_eq!(listing(dir.path()), Vec::<String>::new());
}

/// A Chain of Command fight whose exact Markov solution runs for minutes: two sections
/// of six over 30 Phases (under the solver's field count, so it is attempted).
const SLOW_EXACT: &str = r#"
ruleset = "chain-of-command"
kind = "engagement"
name = "two sections, thirty Phases"

[engagement]
range = 30
closing = 0
min_range = 6
turns = 30
end = ["eliminated"]

# Without rallying, Shock is bounded and the exact solver is tried (CoC-E9).
[settings]
rally = "never"

[[side]]
name = "British"
[[side.company]]
name = "British platoon"
force_morale = 11

[[side.unit]]
name = "British section"
kind = "section"
figures = 6
cover = "open"
weapons = [{ weapon = "rifle", count = 5 }, { weapon = "lmg", count = 1 }]
range_bands = { close = 12, effective = 36 }

[[side]]
name = "Germans"
[[side.company]]
name = "German platoon"
force_morale = 11

[[side.unit]]
name = "German section"
kind = "section"
figures = 6
cover = "open"
weapons = [{ weapon = "rifle", count = 5 }, { weapon = "lmg", count = 1 }]
range_bands = { close = 12, effective = 36 }
"#;

#[cfg(unix)]
#[test]
fn ctrl_c_stops_the_exact_stage_within_a_second_or_two_and_writes_nothing() {
    let dir = tempdir();
    let scenario = cli::write(dir.path(), "slow.toml", SLOW_EXACT);
    let out = dir.path().join("never");
    let mut child = spawn(&["run", utf8(&scenario), "--trials", "1000", "--out", utf8(&out)]);
    wait_for_ctrl_c_handler(&mut child);
    // A thousand trials take milliseconds: still running after this, it is solving.
    std::thread::sleep(Duration::from_millis(1500));
    assert!(child.try_wait().expect("poll").is_none(), "the exact stage ended too soon to test");
    let sent = Instant::now();
    let kill = Command::new("kill").args(["-INT", &child.id().to_string()]).status().expect("kill runs");
    assert!(kill.success());
    let output = finish(child, Duration::from_secs(10));
    assert!(sent.elapsed() < Duration::from_secs(3), "stopped after {:?}", sent.elapsed());
    assert_eq!(output.status.code(), Some(130), "{}", String::from_utf8_lossy(&output.stderr));
    assert_eq!(listing(dir.path()), ["slow.toml"], "neither results nor a temporary directory");
}

#[cfg(target_os = "linux")]
#[test]
fn a_write_error_on_standard_output_is_reported_with_exit_1() {
    for args in [
        &["fire", "--trials", "1000"][..],
        &["fire", "--trials", "1000", "--format", "json"],
        &["tables", "command-decision"],
    ] {
        let full = std::fs::File::create("/dev/full").expect("/dev/full opens");
        let out = Command::new(cli::BIN).args(args).stdout(full).output().expect("the binary runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: exit code; stderr:\n{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert_contains(&stderr, &["error: standard output", "No space left on device"]);
    }
}

#[test]
fn an_output_file_that_cannot_be_written_is_refused_before_the_work_and_leaves_nothing() {
    let dir = tempdir();
    let file = cli::write(dir.path(), "plain.txt", "text\n");
    let output = file.join("report.json");
    let line = error_line(&cli::run(&["fire", "--trials", "1000", "--output", utf8(&output)]));
    assert_contains(&line, &["is a file, not a directory", "--output"]);
    let taken = cli::write(dir.path(), "report.json", "mine\n");
    let line = error_line(&cli::run(&["fire", "--trials", "1000", "--output", utf8(&taken)]));
    assert_contains(&line, &["already exists", "--force"]);
    assert_eq!(listing(dir.path()), ["plain.txt", "report.json"]);
    let forced = cli::run(&["fire", "--trials", "1000", "--output", utf8(&taken), "--force", "--format", "json"]);
    assert!(forced.status.success(), "{}", String::from_utf8_lossy(&forced.stderr));
    assert!(std::fs::read_to_string(&taken).expect("written").contains("\"p_kill\""));
    assert_eq!(listing(dir.path()), ["plain.txt", "report.json"], "no temporary file left");
}

#[test]
fn the_exact_stage_stops_at_its_budget_says_so_and_counts_in_the_wall_time() {
    let dir = tempdir();
    let scenario = cli::write(dir.path(), "slow.toml", SLOW_EXACT);
    let out = dir.path().join("budget");
    let started = Instant::now();
    study(&out, &[utf8(&scenario), "--trials", "1000", "--exact-seconds", "0.5"]);
    // Two exact stages (the solve and the chain compilation) of half a second each.
    assert!(started.elapsed() < Duration::from_secs(20), "took {:?}", started.elapsed());
    let s = summary(&out);
    assert_eq!(s["p_kill"]["exact"], Value::Null);
    let notes: Vec<&str> = s["notes"].as_array().expect("notes").iter().filter_map(Value::as_str).collect();
    assert!(
        notes.iter().any(|n| n.contains("stopped at its time budget of 0.5 s (exact-seconds)")),
        "the output says why there is no exact answer: {notes:?}"
    );
    assert_eq!(s["mode"], "literal", "the chain could not be compiled either");
    assert!(s["wall_time_s"].as_f64().expect("seconds") >= 0.5, "the exact stage counts in the wall time");
}

// ---- frames people can load without cleaning -----------------------------------------

#[test]
fn frames_carry_their_provenance_numbers_as_numbers_and_every_measure_in_one_long_frame() {
    use polars::prelude::*;
    let dir = tempdir();
    let out = study(&dir.path().join("duel"), &["--trials", "2000", "--seed", SEED]);
    let s = summary(&out);

    // Parquet key-value metadata: a frame loaded alone still says where it came from.
    let mut reader = ParquetReader::new(std::fs::File::open(out.join("turns.parquet")).expect("turns.parquet"));
    let metadata = reader.get_metadata().expect("Parquet metadata").clone();
    let kv: BTreeMap<String, String> = metadata
        .key_value_metadata()
        .iter()
        .flatten()
        .map(|kv| (kv.key.clone(), kv.value.clone().unwrap_or_default()))
        .collect();
    assert_eq!(kv["combat_odds.seed"], SEED);
    assert_eq!(kv["combat_odds.trials"], "2000");
    assert_eq!(kv["combat_odds.rules_hash"], s["rules_hash"].as_str().expect("hash"));
    assert_eq!(kv["combat_odds.mode"], s["mode"].as_str().expect("mode"));
    assert_eq!(kv["combat_odds.version"], env!("CARGO_PKG_VERSION"));

    // Turns are numbers, and `undecided` has a null value rather than spoiling the column.
    let turns = reader.finish().expect("read turns.parquet");
    assert_eq!(turns.column("value").expect("value").dtype(), &DataType::Int64);
    assert_eq!(turns.column("exact").expect("exact").dtype(), &DataType::Float64);
    let outcomes = turns.column("outcome").expect("outcome").str().expect("text").clone();
    let values = turns.column("value").expect("value").i64().expect("whole numbers").clone();
    for (o, v) in outcomes.iter().zip(values.iter()) {
        match o.expect("an outcome") {
            "undecided" => assert_eq!(v, None),
            n => assert_eq!(v, Some(n.parse().expect("a turn number"))),
        }
    }
    // Small exact fractions are kept beside the float: the duel's are.
    let fractions = turns.column("exact_fraction").expect("exact_fraction").str().expect("text").clone();
    assert!(fractions.iter().flatten().all(|f| f.contains('/')));

    // One long frame with a measure column holds every measure's rows.
    let long = ParquetReader::new(std::fs::File::open(out.join("all_measures.parquet")).expect("long frame"))
        .finish()
        .expect("read the long frame");
    let rows: usize = measure_names(&s).iter().map(|m| frame_rows(&out.join(format!("{m}.csv"))).len()).sum();
    assert_eq!(long.height(), rows);
    assert_eq!(long.get_column_names()[0].as_str(), "measure");
}

#[test]
fn fire_csv_rows_say_where_they_came_from() {
    let csv = cli::stdout_of(&["fire", "--trials", "1000", "--seed", SEED, "--format", "csv"]);
    let json: Value =
        serde_json::from_str(&cli::stdout_of(&["fire", "--trials", "1000", "--seed", SEED, "--format", "json"]))
            .expect("JSON");
    let mut lines = csv.lines();
    let header = lines.next().expect("a header");
    assert!(header.starts_with("ruleset,scenario,seed,trials,mode,rules_hash,measure,outcome,"), "{header}");
    let hash = json["rules_hash"].as_str().expect("hash");
    for line in lines {
        assert!(line.starts_with("command-decision,"), "{line}");
        assert_contains(line, &[&format!(",{SEED},1000,compiled,{hash},")]);
    }
}

#[test]
fn tables_and_modifiers_list_as_json_when_asked() {
    let tables: Value =
        serde_json::from_str(&cli::stdout_of(&["tables", "command-decision", "--format", "json"])).expect("JSON");
    assert_eq!(tables["ruleset"], "command-decision");
    let hit = tables["tables"]
        .as_array()
        .expect("tables")
        .iter()
        .find(|t| t["file"] == "hit_results.toml")
        .expect("the Hit Results Chart");
    assert!(hit["seed"].as_str().expect("a seed file").starts_with("001_"), "{hit}");
    let regular = hit["rows"].as_array().expect("rows").iter().find(|r| r["quality"] == "regular").expect("regular");
    // Seed 001, Hit Results Chart: Regular 1-3 no effect, 4-6 forced back, 7+ eliminated.
    assert_eq!(
        (&regular["no_effect"], &regular["forced_back"], &regular["eliminated"]),
        (&"1-3".into(), &"4-6".into(), &"7+".into())
    );

    let modifiers: Value =
        serde_json::from_str(&cli::stdout_of(&["modifiers", "mission-command", "--format", "json"])).expect("JSON");
    let rows = modifiers["modifiers"].as_array().expect("modifiers");
    assert!(rows.iter().any(|m| m["name"] == "multi_barrel" && m["value"] == "+2"), "{modifiers}");
}

#[test]
fn percent_destroy_is_refused_where_destroying_has_no_meaning() {
    for (file, says) in [
        ("coc_five_dice_senior_leader.toml", "`senior_leaders = 1`"),
        ("cd_company_morale.toml", "`company = eliminated`"),
        ("cd_engagement_tank_duel.toml", "`winner = German`"),
    ] {
        let path = crate::common::experiment_path(file);
        let line = error_line(&cli::run(&["percent-destroy", utf8(&path), "--trials", "1000"]));
        assert_contains(&line, &["percent-destroy answers a fire at a target", says, "combat-odds fire"]);
    }
    // A fire at a target keeps its screen: experiments/cc_panther_vs_sherman.toml,
    // 4193/5000 = 83.86% rounds to 84% (company_commander::hand_computed works it out).
    let path = crate::common::experiment_path("cc_panther_vs_sherman.toml");
    let out = cli::stdout_of(&["percent-destroy", utf8(&path)]);
    assert_contains(&out, &["destroy", "84%", "4193/5000"]);
}

/// `combat-odds ARGS` on a pseudo-terminal (util-linux `script`, run from a scratch
/// directory so that nothing lands in the work tree): everything the terminal showed.
fn on_a_terminal(args: &[&str]) -> String {
    let scratch = tempdir();
    let command = std::iter::once(cli::BIN).chain(args.iter().copied()).collect::<Vec<_>>().join(" ");
    let out = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .current_dir(scratch.path())
        .stdin(Stdio::null())
        .output()
        .expect("script(1) runs");
    assert!(out.status.success(), "{command}: {}", String::from_utf8_lossy(&out.stdout));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn fire_compare_and_sensitivity_show_progress_on_a_terminal_and_only_there() {
    let cover = Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments/cd_infantry_in_cover.toml");
    let cover = cover.to_str().expect("utf-8 path");
    let out = tempdir();
    let [shown_dir, piped_dir] =
        ["shown", "piped"].map(|d| out.path().join(d).to_str().expect("utf-8 path").to_string());
    // (arguments, then --out DIR for compare, and what the bar counts)
    let cases: [(Vec<&str>, &str); 3] = [
        (vec!["fire", "--mode", "literal", "--trials", "3000000"], "/3000000 trials"),
        (vec!["compare", "--trials", "20000", "--out"], " runs ("),
        (vec!["sensitivity", cover, "--trials", "20000", "--top", "3"], " changes ("),
    ];
    for (args, bar) in &cases {
        let with_out = |dir: &str| {
            let mut all = args.clone();
            if all.last() == Some(&"--out") {
                all.push(dir);
            }
            all.iter().map(|a| a.to_string()).collect::<Vec<_>>()
        };
        let shown_args = with_out(&shown_dir);
        let shown = on_a_terminal(&shown_args.iter().map(String::as_str).collect::<Vec<_>>());
        assert!(shown.contains(bar), "{args:?}: no `{bar}` bar on the terminal:\n{shown}");
        // Piped, standard error carries no bar: captured output stays clean.
        let piped_args = with_out(&piped_dir);
        let piped = cli::run(&piped_args.iter().map(String::as_str).collect::<Vec<_>>());
        assert!(piped.status.success(), "{args:?}: {}", String::from_utf8_lossy(&piped.stderr));
        assert!(
            piped.stderr.is_empty(),
            "{args:?} wrote to a piped stderr: {}",
            String::from_utf8_lossy(&piped.stderr)
        );
    }
}

// ---- the files it reads ---------------------------------------------------------------

/// A FIFO (named pipe) at `path`: opening it for reading waits for a writer forever.
#[cfg(unix)]
fn fifo(path: &Path) -> PathBuf {
    let made = Command::new("mkfifo").arg(path).status().expect("mkfifo runs");
    assert!(made.success(), "mkfifo {}", path.display());
    path.to_path_buf()
}

/// `run ARGS --out OUT` within 30 s, which must be refused; returns its error line.
fn refused_in_time(args: &[&str], out: &Path) -> String {
    let line = error_line(&finish(spawn(&[&["run"], args, &["--out", utf8(out)]].concat()), Duration::from_secs(30)));
    assert!(!out.exists(), "nothing written");
    line
}

#[cfg(unix)]
#[test]
fn a_scenario_or_table_that_is_not_a_regular_file_or_too_large_is_refused_naming_it() {
    let dir = tempdir();
    let out = dir.path().join("out");
    // A FIFO used to hang the command for ever, waiting for a writer.
    let pipe = fifo(&dir.path().join("scenario.toml"));
    let line = refused_in_time(&[utf8(&pipe)], &out);
    assert_names_file(&line, &pipe);
    assert_contains(&line, &["is a FIFO (named pipe), not a regular file"]);

    // So is a table of a --rules override.
    let rules = dir.path().join("rules");
    std::fs::create_dir_all(rules.join("command-decision")).expect("the override folder");
    let table = fifo(&rules.join("command-decision/hit_results.toml"));
    let line = refused_in_time(&["--trials", "1000", "--rules", utf8(&rules)], &out);
    assert_names_file(&line, &table);
    assert_contains(&line, &["is a FIFO (named pipe), not a regular file"]);

    // A file past the stated size is refused with both sizes.
    let big = cli::write(dir.path(), "big.toml", &"#".repeat(3 << 20));
    let line = refused_in_time(&[utf8(&big)], &out);
    assert_names_file(&line, &big);
    assert_contains(&line, &["is 3 MiB, more than the 1 MiB a scenario, sweep or table file may hold"]);

    // A device used to be read until memory ran out.
    let line = refused_in_time(&["/dev/zero"], &out);
    assert_contains(&line, &["/dev/zero: is a device, not a regular file"]);
}

#[cfg(unix)]
#[test]
fn merge_refuses_a_summary_that_is_not_a_regular_file() {
    let dir = tempdir();
    let first = study(&dir.path().join("first"), &["--trials", "200000", "--seed", SEED, "--shard", "1/2"]);
    let second = dir.path().join("second");
    std::fs::create_dir(&second).expect("a folder");
    let pipe = fifo(&second.join("summary.json"));
    let out = dir.path().join("merged");
    let dirs = [utf8(&first), utf8(&second)];
    let line =
        error_line(&finish(spawn(&[&["merge"], &dirs[..], &["--out", utf8(&out)]].concat()), Duration::from_secs(30)));
    assert_names_file(&line, &pipe);
    assert_contains(&line, &["is a FIFO (named pipe), not a regular file", "a results summary.json"]);
}

/// `name`'s shipped engagement with its first side's first unit entry copied `n` times.
fn with_entries(name: &str, n: usize) -> String {
    let text = std::fs::read_to_string(crate::common::experiment_path(name)).expect("a shipped engagement");
    crate::common::crowded::crowded(&text, n)
}

#[test]
fn a_side_of_hundreds_of_unit_entries_is_refused_at_once_in_little_memory_in_every_ruleset() {
    let dir = tempdir();
    let engagements = [
        "cd_engagement_tank_duel.toml",
        "mc_engagement_hmg_vs_rifle_platoon.toml",
        "cc_engagement_squads_in_woods.toml",
        "coc_engagement_sections_at_the_hedge.toml",
    ];
    for name in engagements {
        for n in [200, 2000] {
            let file = cli::write(dir.path(), &format!("{n}_{name}"), &with_entries(name, n));
            // Under a memory cap of 1 GiB: 200 entries a side once took past 3 GB.
            let out = Command::new("sh")
                .args(["-c", "ulimit -v 1048576 && exec \"$0\" \"$@\"", cli::BIN, "fire", utf8(&file)])
                .output()
                .expect("the binary runs");
            assert_eq!(out.status.code(), Some(2), "{name} at {n}: {}", error_line(&out));
            let line = error_line(&out);
            assert_contains(&line, &["unit entries; an engagement takes at most 16 a side"]);
        }
    }
}

#[test]
fn every_exact_fraction_reaches_the_csvs_whole_however_long() {
    // The shipped tank duel's odds after eight turns are fractions past 64 bits; the
    // page tells players the CSVs keep every digit, and they did only below 64 bits.
    let dir = tempdir();
    let out = dir.path().join("duel");
    crate::common::cli::stdout_of(&[
        "run",
        "experiments/cd_engagement_tank_duel.toml",
        "--trials",
        "1000",
        "--out",
        out.to_str().expect("a UTF-8 path"),
    ]);
    let text = std::fs::read_to_string(out.join("all_measures.csv")).expect("all_measures.csv");
    let mut long = 0;
    for line in text.lines().skip(1) {
        let cells: Vec<&str> = line.split(',').collect();
        let (exact, fraction) = (cells[7], cells[8]);
        assert!(!exact.is_empty(), "the duel is exact: {line}");
        let (n, d) = fraction.split_once('/').unwrap_or_else(|| panic!("no fraction: {line}"));
        if n.parse::<u64>().is_err() || d.parse::<u64>().is_err() {
            long += 1;
        }
        // The fraction is the float's: their leading digits agree.
        // n is its first 15 digits times 10 to the digits left over, and so is d.
        let lead = |s: &str| s[..s.len().min(15)].parse::<f64>().unwrap();
        let rest = |s: &str| s.len() as i32 - s.len().min(15) as i32;
        let ratio = lead(n) / lead(d) * 10f64.powi(rest(n) - rest(d));
        assert!((ratio - exact.parse::<f64>().unwrap()).abs() < 1e-9, "{line}");
    }
    assert!(long > 0, "no fraction past 64 bits was tried");
}
