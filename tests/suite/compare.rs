//! `compare`: one vocabulary in real units mapped onto each ruleset, hand-computed
//! cells, common random numbers narrowing a difference, rulesets without an
//! equivalent saying so, and bad input.

use crate::common::cli::{self, assert_contains, error_line, write};
use combat_odds_core::document::Document;
use combat_odds_core::engine::{Mode, MonteCarlo};
use combat_odds_report::compare::{Answer, Compared, Comparison, Odds, compare};
use combat_odds_rules::Rules;

/// A stop flag nobody sets.
static NO_STOP: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
/// A run never stopped, with no exact budget.
const UNBOUNDED: combat_odds_core::run::Run<'static> = combat_odds_core::run::Run::new(&NO_STOP, None);

fn comparison(text: &str) -> Comparison {
    Comparison::read(&Document::new("test.toml", "test.toml", text), &Rules::builtin()).expect("a valid comparison")
}

fn run(text: &str, trials: u64, threads: Option<usize>) -> Compared {
    compare(
        comparison(text),
        &Rules::builtin(),
        MonteCarlo { trials, seed: 7, threads, mode: Mode::Compiled },
        &|_, _| {},
        &UNBOUNDED,
    )
    .expect("the comparison runs")
}

const AT_GUNS: &str = "kind = \"compare\"\nname = \"AT guns\"\nweapons = [\"pak40\", \"17pdr\"]\n\
                       target = \"medium_tank\"\nquality = \"regular\"\nranges_m = [100, 300, 2000]\n";

/// The turn's odds of (ruleset, weapon, range), which must have been answered.
fn turn(c: &Compared, ruleset: &str, weapon: &str, range: f64) -> Odds {
    let cell = c
        .cells
        .iter()
        .find(|x| x.ruleset == ruleset && x.weapon == weapon && x.range_m == Some(range))
        .unwrap_or_else(|| panic!("no cell {ruleset} / {weapon} / {range}"));
    match &cell.answer {
        Answer::Odds { turn, .. } => *turn,
        other => panic!("{ruleset} / {weapon} / {range} has no answer: {other:?}"),
    }
}

/// The answer of (ruleset, weapon, range), which must not be odds.
fn answer(c: &Compared, ruleset: &str, weapon: &str, range: Option<f64>) -> Answer {
    let cell = c.cells.iter().find(|x| x.ruleset == ruleset && x.weapon == weapon && x.range_m == range);
    let answer = cell.expect("a cell").answer.clone();
    assert!(!matches!(answer, Answer::Odds { .. }), "{ruleset} / {weapon} answered");
    answer
}

fn why_not(c: &Compared, ruleset: &str, weapon: &str, range: Option<f64>) -> String {
    match answer(c, ruleset, weapon, range) {
        Answer::None(why) => why,
        other => panic!("{ruleset} / {weapon}: {other:?}, not a reason it cannot answer"),
    }
}

fn out_of_range(c: &Compared, ruleset: &str, weapon: &str, range: f64) -> String {
    match answer(c, ruleset, weapon, Some(range)) {
        Answer::OutOfRange(why) => why,
        other => panic!("{ruleset} / {weapon} at {range} m: {other:?}, not out of range"),
    }
}

#[test]
fn command_decision_cells_match_the_hand_computed_odds() {
    let c = run(AT_GUNS, 20_000, None);
    // 100 m = 2.19 in.: the PaK 40's close band, hit 6, anti-armour 8 against the
    // Sherman's front 5: d10 + 3 on the regular row eliminates on 7+, faces 4-9, and
    // a natural 10 eliminates at close range: 7/10 a hit. Each of its two dice kills
    // with 6/10 x 7/10 = 0.42, so the turn kills with 1 - 0.58^2 = 0.6636.
    let close = turn(&c, "command-decision", "pak40", 100.0);
    assert_eq!(close.exact, Some(0.6636));
    // 300 m = 6.56 in.: medium band, hit 5, anti-armour 7: d10 + 2 eliminates on faces
    // 5-10 (6/10), so a die kills with 0.5 x 0.6 = 0.3 and the turn with 1 - 0.7^2.
    let medium = turn(&c, "command-decision", "pak40", 300.0);
    assert!((medium.exact.expect("exact") - 0.51).abs() < 1e-12);
    // One shot of two independent dice: 1 - (1 - 0.51)^(1/2) = 0.3.
    let shot = match &c.cells.iter().find(|x| x.range_m == Some(300.0) && x.weapon == "pak40").expect("cell").answer {
        Answer::Odds { shot, .. } => shot.expect("CD dice are independent shots"),
        other => panic!("{other:?}"),
    };
    assert!((shot.exact.expect("exact") - 0.3).abs() < 1e-12);
    // Every answered cell's interval holds its exact value at this seed.
    for cell in &c.cells {
        if let Answer::Odds { turn: t, .. } = &cell.answer
            && let Some(p) = t.exact
        {
            assert!(t.ci_low <= p && p <= t.ci_high, "{cell:?}");
        }
    }
}

#[test]
fn mission_command_reads_metres_as_centimetres_of_twenty_metres() {
    let c = run(AT_GUNS, 2_000, None);
    let cell = c.cells.iter().find(|x| x.ruleset == "mission-command" && x.range_m == Some(300.0)).expect("a cell");
    match &cell.answer {
        Answer::Odds { table_range, .. } => assert_eq!(table_range.as_deref(), Some("15 cm")),
        other => panic!("{other:?}"),
    }
    // Company Commander rounds to whole hexes of 100 m.
    let cell = c.cells.iter().find(|x| x.ruleset == "company-commander" && x.range_m == Some(300.0)).expect("a cell");
    match &cell.answer {
        Answer::Odds { table_range, .. } => assert_eq!(table_range.as_deref(), Some("3 hexes")),
        other => panic!("{other:?}"),
    }
}

#[test]
fn common_random_numbers_give_a_narrower_interval_on_a_difference() {
    let c = run(AT_GUNS, 50_000, None);
    let mut checked = 0;
    for d in c.differences.iter().filter(|d| d.common.estimate != 0.0) {
        let common = d.common.high - d.common.low;
        let independent = d.independent.high - d.independent.low;
        assert!(common < independent, "{d:?}");
        assert_eq!(d.common.estimate, d.independent.estimate);
        // Both intervals hold the exact difference where the exact engines reach.
        if let Some(exact) = d.exact {
            assert!(d.common.low <= exact && exact <= d.common.high, "{d:?}");
        }
        checked += 1;
    }
    assert!(checked >= 6, "only {checked} differences checked");
    // In Command Decision the 17-pounder's dice are the PaK 40's with better
    // penetration: on common dice it kills whenever the PaK 40 does, so the pair
    // disagree only one way and the paired interval is well under the independent one.
    let d = c.differences.iter().find(|d| d.ruleset == "command-decision" && d.range_m == Some(100.0)).expect("a row");
    assert!((d.common.high - d.common.low) < 0.75 * (d.independent.high - d.independent.low), "{d:?}");
}

#[test]
fn rulesets_without_an_equivalent_say_so_and_the_others_still_answer() {
    let c = run(AT_GUNS, 2_000, None);
    // Chain of Command has no ground scale (its band distances are not in any source):
    // it is left out once, with why, rather than n/a in every cell.
    let [(ruleset, why)] = c.left_out.as_slice() else { panic!("{:?}", c.left_out) };
    assert_eq!(ruleset, "chain-of-command");
    assert_contains(why, &["no ground scale", "equivalents.toml"]);
    assert!(c.cells.iter().all(|cell| cell.ruleset != "chain-of-command"), "no cell of a ruleset left out");
    // Company Commander's PaK 40 reaches 18 hexes; 2,000 m is 20.
    assert_contains(&out_of_range(&c, "company-commander", "pak40", 2000.0), &["20 hexes", "beyond", "18 hexes"]);
    // ... while its 17-pounder, which reaches 20, answers there.
    turn(&c, "company-commander", "17pdr", 2000.0);
    // A weapon with no entry in one ruleset.
    let text = AT_GUNS.replace("\"pak40\", \"17pdr\"", "\"pak40\", \"pak_40\"");
    let c = run(&text, 1_000, None);
    assert_contains(
        &why_not(&c, "mission-command", "pak_40", Some(100.0)),
        &["no equivalent", "weapon `pak_40`", "did you mean `pak40`?"],
    );
    turn(&c, "mission-command", "pak40", 100.0);
}

#[test]
fn beyond_its_reach_a_weapon_is_out_of_range_in_every_ruleset_alike() {
    let c = run(AT_GUNS, 2_000, None);
    // 2,000 m is 43.74 in. (1 in. = 50 yd = 45.72 m): past the PaK 40's and the
    // 17-pounder's extreme band of 40 in. Command Decision's own fire there is carried
    // out with no effect (a kill chance of 0), but the comparison shows what the
    // others show: out of range, with the ruleset's reason, and no trial run.
    for weapon in ["pak40", "17pdr"] {
        assert_contains(&out_of_range(&c, "command-decision", weapon, 2000.0), &["beyond", "extreme range (40 in.)"]);
    }
    // Company Commander refuses its own fire there; the cell reads the same.
    assert_contains(&out_of_range(&c, "company-commander", "pak40", 2000.0), &["beyond", "18 hexes"]);
    // No difference is paired at a range where a weapon cannot fire.
    assert!(c.differences.iter().all(|d| !(d.ruleset == "command-decision" && d.range_m == Some(2000.0))));
    // The frame marks the cells in a column of their own, every ruleset alike.
    let frame = c.frame().expect("the frame");
    let column = frame.column("out_of_range").expect("a column").bool().expect("bools").clone();
    let marked: Vec<bool> = (0..column.len()).map(|i| column.get(i) == Some(true)).collect();
    // Mission Command's guns reach 100 cm (2,000 m at 20 m a cm), and Company
    // Commander's 17-pounder 20 hexes: they answer there.
    let expected: Vec<bool> = c
        .cells
        .iter()
        .map(|cell| {
            cell.range_m == Some(2000.0)
                && (cell.ruleset == "command-decision"
                    || (cell.ruleset.as_str(), cell.weapon.as_str()) == ("company-commander", "pak40"))
        })
        .collect();
    assert_eq!(marked, expected);
}

#[test]
fn a_comparison_without_ranges_fires_once_in_each_ruleset() {
    let text = std::fs::read_to_string(crate::common::experiment_path("compare_artillery_mission.toml")).expect("file");
    let c = run(&text, 20_000, None);
    // Command Decision's observed supporting battery and Company Commander's barrage
    // both answer; Mission Command has no area fire table for infantry.
    for ruleset in ["command-decision", "company-commander"] {
        let cell = c.cells.iter().find(|x| x.ruleset == ruleset).expect("a cell");
        assert!(matches!(cell.answer, Answer::Odds { table_range: None, .. }), "{cell:?}");
    }
    assert_contains(&why_not(&c, "mission-command", "105mm_battery", None), &["no equivalent"]);
}

#[test]
fn the_same_seed_gives_the_same_comparison_on_any_thread_count() {
    let one = run(AT_GUNS, 70_000, Some(1));
    let two = run(AT_GUNS, 70_000, Some(2));
    assert_eq!(one.cells, two.cells);
    assert_eq!(one.differences, two.differences);
}

#[test]
fn an_override_adds_an_equivalent() {
    let dir = tempfile::tempdir().expect("temp dir");
    let embedded = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/rulesets/mission-command/equivalents.toml"));
    let extra = "\n[weapon.pak38]\nlabel = \"50mm PaK 38 class (br_6pdr here for the test)\"\nshots_per_turn = 1\n\
                 [weapon.pak38.scenario]\nkind = \"point_to_point\"\n[[weapon.pak38.scenario.firer]]\nweapon = \"br_6pdr\"\n";
    write(dir.path(), "mission-command/equivalents.toml", &(embedded.to_string() + extra));
    let text =
        AT_GUNS.replace("\"pak40\", \"17pdr\"", "\"pak38\"").replace("ranges_m = [100, 300, 2000]", "ranges_m = [400]");
    let c = compare(
        comparison(&text),
        &Rules::builtin().overridden_by(Some(dir.path().to_path_buf())),
        MonteCarlo { trials: 1_000, seed: 7, threads: None, mode: Mode::Compiled },
        &|_, _| {},
        &UNBOUNDED,
    )
    .expect("the comparison runs");
    turn(&c, "mission-command", "pak38", 400.0);
    assert_contains(&why_not(&c, "command-decision", "pak38", Some(400.0)), &["no equivalent"]);
}

#[test]
fn compare_writes_frames_and_a_chart_whole() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = write(dir.path(), "guns.toml", AT_GUNS);
    let out = dir.path().join("out");
    let stdout =
        cli::stdout_of(&["compare", file.to_str().unwrap(), "--trials", "2000", "--out", out.to_str().unwrap()]);
    assert_contains(&stdout, &["command-decision", "0.6636", "Paired differences", "no ground scale"]);
    let mut names: Vec<String> =
        std::fs::read_dir(&out).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    let want = [
        ".combat-odds-results",
        "compare.csv",
        "compare.parquet",
        "differences.csv",
        "differences.parquet",
        "differences_vs_range.png",
        "differences_vs_range.svg",
        "p_kill_vs_range.png",
        "p_kill_vs_range.svg",
    ];
    assert_eq!(names, want);
    // It says exactly what it wrote.
    assert_contains(&stdout, &[&format!("wrote {}: {}", out.display(), want[1..].join(", "))]);
    let csv = std::fs::read_to_string(out.join("compare.csv")).unwrap();
    assert!(csv.starts_with("ruleset,weapon,target,situation,quality,range_m,table_range,p_kill_turn"), "{csv}");
    // 3 ranges x 2 weapons x 3 rulesets (Chain of Command, with no ground scale, is
    // left out), and the header.
    assert_eq!(csv.lines().count(), 19);
    // The directory is kept unless --force.
    let line =
        error_line(&cli::run(&["compare", file.to_str().unwrap(), "--trials", "10", "--out", out.to_str().unwrap()]));
    assert_contains(&line, &["already exists", "--force"]);
}

#[test]
fn bad_comparisons_get_one_line_errors() {
    let dir = tempfile::tempdir().expect("temp dir");
    for (from, to, want) in [
        ("kind = \"compare\"", "kind = \"comparison\"", "a comparison file says kind"),
        ("weapons = [\"pak40\", \"17pdr\"]", "weapons = []", "weapons lists no weapon"),
        ("ranges_m = [100, 300, 2000]", "ranges_m = [100, -3]", "range -3 m is not from 0"),
        (
            "quality = \"regular\"",
            "quality = \"regular\"\nrulesets = [\"mision-command\"]",
            "did you mean `mission-command`?",
        ),
        ("target = \"medium_tank\"", "targets = \"medium_tank\"", "targets"),
    ] {
        let file = write(dir.path(), "bad.toml", &AT_GUNS.replacen(from, to, 1));
        let line = error_line(&cli::run(&["compare", file.to_str().unwrap(), "--trials", "10"]));
        assert!(line.contains(file.to_str().unwrap()), "names the file: {line}");
        assert!(line.contains(want), "{to}: {line}");
    }
}

#[test]
fn a_comparison_no_ruleset_asked_for_can_answer_is_refused_before_any_trial_saying_why() {
    let dir = tempfile::tempdir().unwrap();
    // Chain of Command has no ground scale, so it answers no cell at a range: once it
    // wrote a frame of empty rows and said so in every one.
    let text = "kind = \"compare\"\nname = \"CoC only\"\nrulesets = [\"chain-of-command\"]\n\
                weapons = [\"pak40\", \"17pdr\"]\ntarget = \"medium_tank\"\nranges_m = [100]\n";
    let file = write(dir.path(), "coc.toml", text);
    let out = dir.path().join("out");
    let ran = cli::run(&["compare", file.to_str().unwrap(), "--trials", "1000", "--out", out.to_str().unwrap()]);
    assert_eq!(ran.status.code(), Some(2));
    assert_contains(
        &error_line(&ran),
        &[
            "comparison `CoC only`: no ruleset asked for can answer it",
            "chain-of-command: its rules give no ground scale",
        ],
    );
    assert!(!out.exists(), "nothing written");
}
