//! Chain of Command engagements: two forces fighting Phase after Phase (one engagement
//! turn is one Phase). Monte Carlo agrees with the exact Markov solution on a grid of
//! one-on-one duels, under every way of splitting Orders between fire and rallying;
//! tiny duels match hand-computed odds, a Broken Team rallied among them; tallies do not depend on
//! the thread count, and a big engagement is refused by the exact solver at once; bad
//! input is refused through the binary in one located line; and the experiment files
//! run.

use crate::common::cli::{
    assert_contains, assert_located, assert_misspellings_corrected, assert_names_file, assert_placed_in,
    assert_setting_typos_corrected, place, replace_once, scenario_error, stdout_of,
};
use crate::common::exact::{Exact, r};
use crate::common::grid::{Family, grid_trials};

/// A duel scenario: one unit a side. `a` and `b` are `[[side.unit]]` bodies after
/// `name`; `fm` the two Force Morale levels; `engagement` the `[engagement]` body.
fn duel(engagement: &str, a: &str, b: &str, fm: [u32; 2], settings: &str) -> String {
    format!(
        r#"ruleset = "chain-of-command"
kind = "engagement"
[settings]
{settings}
[engagement]
{engagement}
[[side]]
name = "British"
[[side.company]]
name = "Platoon"
force_morale = {}
[[side.unit]]
name = "Tommies"
{a}
[[side]]
name = "Germans"
[[side.company]]
name = "Zug"
force_morale = {}
[[side.unit]]
name = "Landser"
{b}
"#,
        fm[0], fm[1]
    )
}

/// A Team's body: figures, firepower, cover, quality, Shock, bands close/effective.
fn team(figures: u32, firepower: u32, cover: &str, quality: &str, shock: u32, bands: (u32, u32)) -> String {
    format!(
        "kind = \"team\"\nfigures = {figures}\nfirepower = {firepower}\ncover = \"{cover}\"\nquality = \"{quality}\"\nshock = {shock}\nrange_bands = {{ close = {}, effective = {} }}\n",
        bands.0, bands.1
    )
}

// ------------------------------------------------------------------- 1. the grid

/// Duels over weapons, ranges, qualities, cover, Shock, closing and fixed range, both
/// end conditions and the settings an engagement reads, rallying included: short
/// enough for the exact solver, since a unit that rallies keeps every point of Shock.
fn grid() -> Vec<(String, String)> {
    let fixed = |range: u32, turns: u32| format!("range = {range}\nturns = {turns}\n");
    let closing =
        |turns: u32, end: &str| format!("range = 24\nclosing = 6\nmin_range = 6\nturns = {turns}\nend = [{end}]\n");
    vec![
        (
            "lmg vs rifles, fixed close".into(),
            duel(
                &fixed(10, 8),
                &team(3, 4, "light", "regular", 0, (12, 36)),
                &team(3, 3, "open", "regular", 0, (12, 30)),
                [9, 8],
                "rally = \"never\"\n",
            ),
        ),
        (
            "closing, eliminated only".into(),
            duel(
                &closing(8, "\"eliminated\""),
                &team(2, 3, "open", "green", 0, (12, 30)),
                &team(3, 2, "light", "elite", 1, (12, 30)),
                [8, 9],
                "",
            ),
        ),
        (
            "closing, broken only, first edition".into(),
            duel(
                &closing(8, "\"broken\""),
                &team(2, 2, "hard", "regular", 0, (12, 30)),
                &team(2, 3, "open", "regular", 0, (12, 30)),
                [2, 1],
                "shock_thresholds = \"first_edition\"\nbroken_then_wiped_out = \"break_only\"\n",
            ),
        ),
        (
            "effective range, firer's column, round up".into(),
            duel(
                &fixed(20, 8),
                &team(3, 3, "light", "elite", 2, (12, 30)),
                &team(2, 3, "light", "green", 0, (12, 30)),
                [3, 2],
                "to_hit_quality = \"firer\"\nhalved_firepower = \"round_up\"\nhard_cover_four = \"shock\"\n",
            ),
        ),
        (
            "one side out of reach at first".into(),
            duel(
                &closing(8, "\"eliminated\", \"broken\""),
                &team(2, 3, "open", "regular", 0, (12, 30)),
                &team(2, 2, "open", "regular", 0, (6, 12)),
                [1, 1],
                "",
            ),
        ),
        (
            "sections, no pinning effects".into(),
            duel(
                &fixed(8, 6),
                &team(3, 3, "light", "regular", 0, (12, 30)).replace("\"team\"", "\"section\""),
                &team(2, 2, "open", "regular", 3, (12, 30)).replace("\"team\"", "\"section\""),
                [2, 2],
                "pinned_effects = \"none\"\n",
            ),
        ),
        (
            "both Pinned at the start, Broken rallied first".into(),
            duel(
                &fixed(10, 6),
                &team(2, 3, "light", "regular", 3, (12, 30)),
                &team(2, 2, "open", "regular", 4, (12, 30)),
                [2, 2],
                "rally = \"broken_first\"\n",
            ),
        ),
        (
            "Pinned rallied before fire, sections".into(),
            duel(
                &fixed(8, 5),
                &team(3, 3, "open", "regular", 4, (12, 30)).replace("\"team\"", "\"section\""),
                &team(2, 3, "light", "regular", 0, (12, 30)),
                [2, 1],
                "rally = \"pinned_first\"\n",
            ),
        ),
        (
            "leftover Orders rally, first edition".into(),
            duel(
                &closing(6, "\"eliminated\", \"broken\""),
                &team(2, 3, "open", "regular", 2, (12, 30)),
                &team(2, 2, "light", "regular", 3, (12, 30)),
                [2, 2],
                "rally = \"leftover\"\nshock_thresholds = \"first_edition\"\n",
            ),
        ),
    ]
}

#[test]
#[ignore = "long tier: 200,000 engagements a case, about 20 s on two cores; run by .ci/run with --include-ignored"]
fn monte_carlo_agrees_with_the_markov_solution_on_duels() {
    // 200,000 engagements a case at seed 20261123 + case; every measure chi-square
    // tested against exact, family-wise alpha 1% with Bonferroni. The long tier's:
    // solving the grid's eight-to-ten-Phase duels exactly once took 178 s of a plain
    // `cargo test` on two cores (22 s at the full trials on 2026-12-06), which the
    // plain run's 90 s cannot spare (CI runs it, as it runs every `monte_carlo_agrees`
    // test with the long tier set).
    let family = Family::run_all(&grid(), grid_trials(200_000), 20_261_123);
    family.assert_agrees(0.01, 10);
    for outcome in ["British", "Germans", "undecided"] {
        assert!(family.reached.contains(outcome), "no case reaches `{outcome}`");
    }
}

// ------------------------------------------------------------ 2. hand-computed

/// One Phase (the British one) of a single die at 1 figure in the open, close range.
fn one_phase(end: &str, target_shock: u32, fm: u32) -> String {
    duel(
        &format!("range = 6\nturns = 1\nend = [{end}]\n"),
        &team(1, 1, "open", "regular", 0, (12, 24)),
        &team(1, 1, "open", "regular", target_shock, (12, 24)),
        [9, fm],
        "",
    )
}

#[test]
fn a_single_die_kills_in_the_first_phase_as_hand_computed() {
    // The British Team fires if the five Command Dice activate it: a 1 (a Team), or a
    // Senior Leader's Order (a 4, two 2s combined, or a 1 and a 3). It is not activated
    // only when the hand has no 1, no 4 and at most one 2: faces {3,5,6}^5 + 5 x one 2
    // and {3,5,6}^4 = 243 + 405 = 648 of 7776 = 1/12, so it fires with 11/12. Its one
    // die hits the Regular target at Close on 4-6 (1/2), and a hit kills in the open on
    // 5-6 (1/3): 1/6. The one-figure Team is wiped out with 11/12 x 1/6 = 11/72.
    let e = Exact::of("one die", &one_phase("\"eliminated\"", 0, 9));
    assert_eq!(e.p("winner", "British"), r(11, 72));
    assert_eq!(e.p("first_kill_turn", "1"), r(11, 72));
    assert_eq!(e.p("state_landser", "wiped_out"), r(11, 72));
    assert_eq!(e.p("winner", "undecided"), r(61, 72));
}

#[test]
fn a_break_at_force_morale_one_breaks_the_force_as_hand_computed() {
    // As above, but the target carries 1 Shock and its force stands at Force Morale 1,
    // and only "broken" ends it. A hit's Shock (3-4, 1/6 in all) makes 2 Shock on 1
    // figure: Broken (2e: twice the figures), and "Team breaks" costs 1 or 2 on faces
    // 2-6 (5/6). A kill (1/6) wipes it out: "Team wiped out" costs 1 on faces 3-6 (4/6).
    // Force Morale 0 with 11/12 x (1/6 x 5/6 + 1/6 x 4/6) = 11/12 x 1/4 = 11/48.
    let e = Exact::of("break at 1", &one_phase("\"broken\"", 1, 1));
    assert_eq!(e.p("winner", "British"), r(11, 48));
    assert_eq!(e.p("state_landser", "broken"), r(11, 72));
    assert_eq!(e.p("state_landser", "wiped_out"), r(11, 72));
}

/// One British Phase with the British Team Broken at the start: 2 figures and 4 Shock
/// (2e: Broken at twice the figures), 3 firepower dice, at a one-figure German Team in
/// the open at Close range; `rally` as given, or the default where `None`.
fn broken_at_the_start(rally: Option<&str>) -> String {
    duel(
        "range = 6\nturns = 1\nend = [\"eliminated\"]\n",
        &team(2, 3, "open", "regular", 4, (12, 24)),
        &team(1, 1, "open", "regular", 0, (12, 24)),
        [9, 9],
        &rally.map_or(String::new(), |r| format!("rally = \"{r}\"\n")),
    )
}

#[test]
fn a_broken_team_is_rallied_and_fires_again_as_hand_computed() {
    // Broken, the Team cannot activate, so the hand's only use is its one Senior Leader
    // (max_senior): 3 Orders when the five dice make a 4 (a 4, 1+3, 2+2, 1+1+2 or
    // 1+1+1+1). They make none with no 4 and, of 1s (a), 2s (b), 3s (c): a = 0 and
    // b <= 1 (3^5 + 5 x 3^4 = 648 hands), or c = 0, b = 0, 1 <= a <= 3 (3^5 - 2^5 - 10 - 1
    // = 200), or a = 1, b = 1, c = 0 (5 x 4 x 2^3 = 160): 1008 of 7776 = 7/54. So 3 Orders
    // come with 47/54 and none with 7/54.
    //
    // broken_first (the default): one Order rallies 4 -> 3 Shock, below the Broken line
    // of 4. The Team now activates with the second Order: 3 dice, one lost to 3 Shock,
    // halved while Pinned (3 > 2 figures) to 1. It hits the Regular target at Close on
    // 4-6 (1/2) and kills in the open on 5-6 (1/3): 1/6. The third Order rallies 3 -> 2:
    // no longer Pinned, so steady. The German Team is wiped out with 47/54 x 1/6 = 47/324.
    let e = Exact::of("broken first", &broken_at_the_start(None));
    assert_eq!(e.p("state_tommies", "steady"), r(47, 54));
    assert_eq!(e.p("state_tommies", "broken"), r(7, 54));
    assert_eq!(e.p("winner", "British"), r(47, 324));
    // pinned_first: Orders rally 4 -> 3 (no longer Broken) and 3 -> 2 (no longer
    // Pinned) before fire; the third activates the Team at full firepower less a die
    // for 2 Shock: 2 dice, each killing with 1/6, so 1 - (5/6)^2 = 11/36 wipe the
    // one-figure Team out: 47/54 x 11/36 = 517/1944.
    let e = Exact::of("pinned first", &broken_at_the_start(Some("pinned_first")));
    assert_eq!(e.p("state_tommies", "steady"), r(47, 54));
    assert_eq!(e.p("winner", "British"), r(517, 1944));
    // leftover: no unit can fire, so all 3 Orders rally after the fire: 4 -> 1 Shock.
    let e = Exact::of("leftover", &broken_at_the_start(Some("leftover")));
    assert_eq!(e.p("state_tommies", "steady"), r(47, 54));
    assert_eq!(e.p("winner", "undecided"), r(1, 1));
    // never: Broken for good, as engagements played before rallying.
    let e = Exact::of("never", &broken_at_the_start(Some("never")));
    assert_eq!(e.p("state_tommies", "broken"), r(1, 1));
}

// ------------------------------------------------------------------ 3. determinism

#[test]
fn tallies_do_not_depend_on_threads_and_big_engagements_are_not_solved() {
    let cases = grid();
    // The grid's first duel cut to three Phases: the chunks, seeds and threads it
    // checks are the same in both modes, and each compiled run builds its exact
    // distribution in 0.2 s, not the eight Phases' 2 s (77 s over the test's 36 runs).
    let short = replace_once(&cases[0].1, "turns = 8\n", "turns = 3\n");
    crate::common::determinism::assert_thread_independent(&[(&cases[0].0, &short)]);
    crate::common::determinism::assert_seed_matters(&[(&cases[1].0, &cases[1].1)]);
    // Four Teams of 3 to 5 figures: past the exact bound, answered by Monte Carlo alone
    // (at once: the solver is not tried).
    let doc = crate::common::exact::experiment_file("coc_engagement_sections_at_the_hedge.toml");
    let started = std::time::Instant::now();
    let p = crate::common::plan_doc(&doc, 1000, 1, 1);
    assert!(p.set_up.experiment.exact().is_none());
    assert!(started.elapsed().as_secs() < 5, "refused at once");
}

// -------------------------------------------------------------------- 4. bad input

fn base() -> String {
    duel(
        "range = 10\nturns = 5\n",
        &team(3, 2, "open", "regular", 0, (12, 24)),
        &team(3, 2, "open", "regular", 0, (12, 24)),
        [9, 9],
        "",
    )
}

/// The scenario with `from` replaced by `to` is refused where `at` first occurs (plus
/// `skip` characters), or somewhere placed when `at` is empty, with every part.
fn refused_at(from: &str, to: &str, (at, skip): (&str, usize), parts: &[&str]) {
    let text = replace_once(&base(), from, to);
    let (_dir, path, line) = scenario_error("bad.toml", &text);
    if at.is_empty() {
        assert_placed_in(&line, &path);
    } else {
        assert_located(&line, &path, &place(&text, at, skip));
    }
    assert_contains(&line, parts);
}

#[test]
fn bad_engagements_are_refused_in_one_located_line() {
    // A side with no units.
    let text = base();
    let cut = text.find("[[side.unit]]\nname = \"Landser\"").unwrap();
    let (_dir, path, line) = scenario_error("no_units.toml", &text[..cut]);
    assert_contains(&line, &["side `Germans` has no units"]);
    assert!(line.starts_with(&format!("error: {}:", path.display())), "{line}");
    // A weapon that cannot reach at any range of the engagement.
    refused_at(
        "range_bands = { close = 12, effective = 24 }\n\n[[side]]",
        "range_bands = { close = 4, effective = 8 }\n\n[[side]]",
        ("", 0),
        &["unit `Tommies`", "cannot reach any enemy"],
    );
    // turns = 0.
    refused_at("turns = 5", "turns = 0", ("turns = 0", 8), &["turns must be from 1"]);
    // A range below nothing, its unit spelled out (it read "a distance in in.").
    refused_at("range = 10", "range = -3", ("-3", 0), &["range must be a distance in inches, 0 or more"]);
    // Chain of Command's own refusals.
    refused_at(
        "force_morale = 9\n[[side.unit]]\nname = \"Tommies\"",
        "force_morale = 12\n[[side.unit]]\nname = \"Tommies\"",
        ("12", 0),
        &["force_morale = 12", "dice_by_force_morale.toml lists levels 1 to 11"],
    );
    refused_at(
        "name = \"Tommies\"\nkind = \"team\"",
        "name = \"Tommies\"\nkind = \"squad\"",
        ("\"squad\"", 0),
        &["unknown unit kind `squad`"],
    );
    let bands = "range_bands = { close = 12, effective = 24 }\n\n[[side]]";
    refused_at(bands, "range_bands = { close = 12 }\n\n[[side]]", ("{ close = 12 }", 0), &["gives no `effective`"]);
    refused_at(
        bands,
        "range_bands = { close = 30, effective = 24 }\n\n[[side]]",
        ("{ close = 30", 0),
        &["`effective` ends at 24", "short of `close`"],
    );
    refused_at(
        bands,
        "range_bands = { clse = 12, effective = 24 }\n\n[[side]]",
        ("12, eff", 0),
        &["did you mean `close`?"],
    );
    refused_at(
        "force_morale = 9\n[[side.unit]]\nname = \"Landser\"",
        "force_morale = 9\nleaders = { senior_leader = 1, teams = 2 }\n[[side.unit]]\nname = \"Landser\"",
        ("2 }", 0),
        &["`teams` in `leaders`"],
    );
    refused_at(
        "name = \"Zug\"\nforce_morale = 9\n[[side.unit]]\nname = \"Landser\"\n",
        "name = \"Zug\"\nforce_morale = 9\n[[side.company]]\nname = \"Zug 2\"\nforce_morale = 9\n[[side.unit]]\nname = \"Landser\"\ncompany = \"Zug\"\n",
        ("\"Zug 2\"", 0),
        &["one force"],
    );
    refused_at(
        "name = \"Zug\"\nforce_morale = 9\n",
        "name = \"Zug\"\nforce_morale = 9\npolicy = \"max_seniors\"\n",
        ("\"max_seniors\"", 0),
        &["did you mean `max_senior`?"],
    );
    // A side with no force at all: named by file.
    let text = replace_once(&base(), "[[side.company]]\nname = \"Zug\"\nforce_morale = 9\n", "");
    let (_dir, path, line) = scenario_error("no_force.toml", &text);
    assert_names_file(&line, &path);
    assert_contains(&line, &["side `Germans` has no force", "[[side.company]]"]);
    // Misspellings, with the nearest name.
    let b = base();
    let armed = replace_once(
        &b,
        "firepower = 2\ncover = \"open\"\nquality = \"regular\"\nshock = 0\nrange_bands = { close = 12, effective = 24 }\n\n[[side]]",
        "weapons = [{ weapon = \"rifle\", count = 2 }]\ncover = \"open\"\nquality = \"regular\"\nshock = 0\nrange_bands = { close = 12, effective = 24 }\n\n[[side]]",
    );
    let green = replace_once(
        &b,
        "quality = \"regular\"\nshock = 0\nrange_bands = { close = 12, effective = 24 }\n\n[[side]]",
        "quality = \"green\"\nshock = 0\nrange_bands = { close = 12, effective = 24 }\n\n[[side]]",
    );
    assert_misspellings_corrected(&[
        (
            &b,
            "figures = 3\nfirepower = 2\ncover = \"open\"\nquality = \"regular\"\nshock = 0\nrange_bands = { close = 12, effective = 24 }\n\n[[side]]",
            "figure = 3\nfirepower = 2\ncover = \"open\"\nquality = \"regular\"\nshock = 0\nrange_bands = { close = 12, effective = 24 }\n\n[[side]]",
            "unknown key `figure`",
            "figures",
        ),
        (&armed, "\"rifle\"", "\"rfle\"", "unknown weapon `rfle`", "rifle"),
        (&green, "\"green\"", "\"gren\"", "unknown troop quality `gren`", "green"),
    ]);
    assert_setting_typos_corrected(
        &b.replace("[settings]\n\n", ""),
        &[("broken_then_wiped_out", "break_onyl", "break_only"), ("rally", "brokn_first", "broken_first")],
    );
}

// ---------------------------------------------------------------- 5. experiments

#[test]
fn the_experiment_files_run() {
    for file in [
        "coc_engagement_lmg_team_duel.toml",
        "coc_engagement_sections_at_the_hedge.toml",
        "coc_engagement_rally_under_fire.toml",
    ] {
        let path = crate::common::experiment_path(file);
        let out = stdout_of(&["fire", path.to_str().unwrap(), "--trials", "20000"]);
        assert!(out.contains("winner"), "{file}: {out}");
    }
}
