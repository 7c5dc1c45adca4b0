//! Drives the real `combat-odds` binary: runs it, writes scenario and override files, and
//! checks the one-line `error: FILE[:LINE:COLUMN]: what is wrong` every bad input ends with.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use tempfile::TempDir;

/// The binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_combat-odds");

/// Runs the binary with `args`.
pub fn run(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("the binary runs")
}

/// Runs the binary with `args`, checks it succeeded, and returns its stdout.
pub fn stdout_of(args: &[&str]) -> String {
    let out = run(args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("stdout is UTF-8")
}

/// The JSON report's outcome row for `outcome` when the binary runs the experiments/ file
/// `file` (`fire --format json --trials TRIALS --threads 1`), which must succeed.
pub fn experiment_outcome_row(file: &str, trials: u64, outcome: &str) -> serde_json::Value {
    let path = super::experiment_path(file);
    let (path, trials) = (path.to_str().expect("utf-8 path"), trials.to_string());
    let out = run(&["fire", "--format", "json", "--trials", &trials, "--threads", "1", path]);
    assert!(out.status.success(), "{file}: {}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON output");
    json["measures"][0]["outcomes"]
        .as_array()
        .and_then(|rows| rows.iter().find(|r| r["outcome"] == outcome))
        .cloned()
        .unwrap_or_else(|| panic!("{file}: no outcome {outcome} in {json}"))
}

/// `combat-odds fire SCENARIO --trials 1000`, then `extra`.
pub fn fire(scenario: &Path, extra: &[&str]) -> Output {
    let mut args = vec!["fire", scenario.to_str().expect("utf-8 temp path"), "--trials", "1000"];
    args.extend_from_slice(extra);
    run(&args)
}

/// Writes `text` to `dir/name` and returns the path.
pub fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("create folder");
    }
    std::fs::write(&path, text).expect("write temp file");
    path
}

/// Replaces exactly one occurrence of `from`, so a test fails loudly if the text moved.
pub fn replace_once(text: &str, from: &str, to: &str) -> String {
    assert_eq!(text.matches(from).count(), 1, "`{from}` should occur once in:\n{text}");
    text.replacen(from, to, 1)
}

/// "line:column" (1-based) of the first occurrence of `needle` in `text`, plus `skip` chars.
pub fn place(text: &str, needle: &str, skip: usize) -> String {
    let offset = text.find(needle).unwrap_or_else(|| panic!("`{needle}` not in:\n{text}")) + skip;
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    format!("{line}:{column}")
}

/// Checks the failure shape every bad input shares and returns the error line.
pub fn error_line(out: &Output) -> String {
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!stderr.contains("panicked"), "panic:\n{stderr}");
    assert_eq!(out.status.code(), Some(2), "exit code; stderr:\n{stderr}");
    assert!(out.stdout.is_empty(), "nothing on stdout; got:\n{}", String::from_utf8_lossy(&out.stdout));
    assert!(stderr.ends_with('\n'), "stderr ends its line: {stderr:?}");
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 1, "exactly one line on stderr:\n{stderr}");
    assert!(lines[0].starts_with("error: "), "starts with `error: `: {stderr}");
    lines[0].to_string()
}

/// The error names `file` at `place` ("line:column") right after "error: ".
pub fn assert_located(line: &str, file: &Path, place: &str) {
    let want = format!("error: {}:{place}: ", file.display());
    assert!(line.starts_with(&want), "expected `{want}...`, got:\n{line}");
}

/// The error names `file` (no place) right after "error: ".
pub fn assert_names_file(line: &str, file: &Path) {
    let want = format!("error: {}: ", file.display());
    assert!(line.starts_with(&want), "expected `{want}...`, got:\n{line}");
}

/// The error names `file` right after "error: ", with or without a "line:column"
/// (for mistakes that are a combination of several entries rather than one value).
pub fn assert_names_file_maybe_placed(line: &str, file: &Path) {
    let prefix = format!("error: {}", file.display());
    let rest = line.strip_prefix(&prefix).unwrap_or_else(|| panic!("expected `{prefix}...`, got:\n{line}"));
    let unplaced = rest.starts_with(": ");
    let placed = rest.strip_prefix(':').and_then(|r| r.split_once(": ")).is_some_and(|(at, _)| is_place(at));
    assert!(unplaced || placed, "expected `{prefix}: ` or `{prefix}:LINE:COLUMN: `, got:\n{line}");
}

/// The error names `file` at some "line:column" right after "error: ".
pub fn assert_placed_in(line: &str, file: &Path) {
    let prefix = format!("error: {}:", file.display());
    let rest = line.strip_prefix(&prefix).unwrap_or_else(|| panic!("expected `{prefix}LINE:COLUMN: `, got:\n{line}"));
    let placed = rest.split_once(": ").is_some_and(|(at, _)| is_place(at));
    assert!(placed, "expected `{prefix}LINE:COLUMN: `, got:\n{line}");
}

/// Whether `at` is a place: two whole numbers, "line:column".
fn is_place(at: &str) -> bool {
    at.split_once(':').is_some_and(|(l, c)| l.parse::<u32>().is_ok() && c.parse::<u32>().is_ok())
}

/// The error line contains every one of `parts`.
pub fn assert_contains(line: &str, parts: &[&str]) {
    for part in parts {
        assert!(line.contains(part), "expected `{part}` in:\n{line}");
    }
}

/// A scenario file with `text`, its failure, and the error line.
pub fn scenario_error(name: &str, text: &str) -> (TempDir, PathBuf, String) {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = write(dir.path(), name, text);
    let line = error_line(&fire(&path, &[]));
    (dir, path, line)
}

/// An override folder `DIR/RULESET/FILE` holding `text`: the folder and the file's path.
pub fn override_dir(ruleset: &str, file: &str, text: &str) -> (TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = write(dir.path(), &format!("{ruleset}/{file}"), text);
    (dir, path)
}

/// `fire SCENARIO --rules DIR` then `extra`, the scenario `text` written as `name` in a
/// folder of its own: that folder, the scenario's path and the outcome.
pub fn fire_with_rules(dir: &Path, name: &str, text: &str, extra: &[&str]) -> (TempDir, PathBuf, Output) {
    let scenario_dir = tempfile::tempdir().expect("temp dir");
    let path = write(scenario_dir.path(), name, text);
    let mut args = vec!["--rules", dir.to_str().expect("utf-8 temp path")];
    args.extend_from_slice(extra);
    let out = fire(&path, &args);
    (scenario_dir, path, out)
}

/// The override folder `DIR/RULESET/FILE` holding the shipped `table` with `from`
/// replaced by `to`, and the error lines of `fire` (of `scenario`, written as `name`)
/// and `tables` with it: the folder, the file's path, the new text and both lines.
pub fn bad_override(
    ruleset: &str,
    (file, table): (&str, &str),
    (from, to): (&str, &str),
    (name, scenario): (&str, &str),
) -> (TempDir, PathBuf, String, Vec<String>) {
    let text = replace_once(table, from, to);
    let (dir, path) = override_dir(ruleset, file, &text);
    let lines = override_errors(dir.path(), ruleset, name, scenario);
    (dir, path, text, lines)
}

/// The same bad override folder `dir` of `ruleset` fails the same way under `fire` (of the
/// valid scenario `text`, written as `name`) and `tables`: both error lines.
pub fn override_errors(dir: &Path, ruleset: &str, name: &str, text: &str) -> Vec<String> {
    let by_fire = error_line(&fire_with_rules(dir, name, text, &[]).2);
    let by_tables = error_line(&run(&["tables", ruleset, "--rules", dir.to_str().expect("utf-8 temp path")]));
    assert_eq!(by_fire, by_tables, "fire and tables report a bad override alike");
    vec![by_fire, by_tables]
}

/// The exact P(kill) of `scenario` (`fire --format json --seed 7`, then `extra`), which
/// must succeed.
pub fn p_kill_exact(scenario: &Path, extra: &[&str]) -> f64 {
    let out = fire(scenario, &[&["--format", "json", "--seed", "7"][..], extra].concat());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "stderr:\n{stderr}");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("--format json prints JSON");
    report["p_kill"]["exact"].as_f64().unwrap_or_else(|| panic!("p_kill.exact in {report}"))
}

/// One misspelling in a valid scenario: (the scenario, the right text, the misspelt
/// text, what the error calls it, the correction it suggests).
pub type Misspelling<'a> = (&'a str, &'a str, &'a str, &'a str, &'a str);

/// Each misspelling is refused where it stands, named, with the nearest valid name.
pub fn assert_misspellings_corrected(cases: &[Misspelling]) {
    for &(base, from, to, what, correction) in cases {
        let text = replace_once(base, from, to);
        let (_dir, path, line) = scenario_error("typo.toml", &text);
        assert_located(&line, &path, &place(&text, to, 0));
        assert_contains(&line, &[what, &format!("did you mean `{correction}`?")]);
    }
}

/// Each (setting, misspelt reading, correction) in `base`'s `[settings]` is refused
/// where it stands, with the nearest reading.
pub fn assert_setting_typos_corrected(base: &str, cases: &[(&str, &str, &str)]) {
    for &(setting, value, correction) in cases {
        let text = format!("{base}\n[settings]\n{setting} = \"{value}\"\n");
        let (_dir, path, line) = scenario_error("typo_setting.toml", &text);
        assert_located(&line, &path, &place(&text, &format!("\"{value}\""), 0));
        assert_contains(&line, &[&format!("`{value}`"), setting, &format!("did you mean `{correction}`?")]);
    }
}
