//! The charts: each kind drawn from realistic numbers to a PNG that decodes at the
//! chart size with many colours (not a blank canvas) and an SVG that is well-formed
//! enough to open and carries the title, axis labels, legend and footer as text; the
//! same inputs draw the same bytes; nothing to chart is a one-line error and writes
//! nothing; `run` writes an engagement's charts beside its frames, and a fire
//! scenario's outcome chart.

mod common;

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use combat_odds::charts::{
    Footer, Point, SIZE, Series, bars_with_intervals, histogram, percent, probability_vs_range, stacked_outcomes,
};
use combat_odds::stats::wilson;
use common::cli;

const PNG_SIGNATURE: [u8; 8] = [0x89, b'P', b'N', b'G', b'\r', b'\n', 0x1a, b'\n'];

/// Trials behind every made-up estimate here.
const TRIALS: u64 = 1_000_000;

fn footer() -> Footer {
    Footer::new(2026, TRIALS, &["0123456789abcdef"])
}

/// A Monte Carlo estimate of `p` from `TRIALS` trials, with its Wilson 95% interval.
fn estimate(x: f64, p: f64) -> Point {
    let e = wilson((p * TRIALS as f64).round() as u64, TRIALS, 0.95);
    Point { x, p: e.estimate, low: e.low, high: e.high }
}

/// Two guns' kill probability falling off with range, 100 m to 2,000 m.
fn guns() -> Vec<Series> {
    let curve = |label: &str, half: f64| Series {
        label: label.to_string(),
        points: (1..=20)
            .map(|k| {
                let range = 100.0 * f64::from(k);
                estimate(range, 0.9 / (1.0 + (range / half).powi(2)))
            })
            .collect(),
    };
    vec![curve("Panther 75mm L/70 at a Sherman", 1400.0), curve("Sherman 75mm M3 at a Panther", 450.0)]
}

/// Checks a PNG: signature, decodes, the chart's size, and far from blank.
fn assert_real_png(path: &Path) {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert_eq!(bytes[..8], PNG_SIGNATURE, "{} is a PNG", path.display());
    let image = image::load_from_memory_with_format(&bytes, image::ImageFormat::Png)
        .unwrap_or_else(|e| panic!("{} decodes: {e}", path.display()))
        .to_rgb8();
    assert_eq!(image.dimensions(), SIZE, "{}", path.display());
    let colours: HashSet<[u8; 3]> = image.pixels().map(|p| p.0).collect();
    assert!(colours.len() >= 40, "{}: only {} distinct colours", path.display(), colours.len());
    let inked = image.pixels().filter(|p| p.0 != [255, 255, 255]).count();
    let share = inked as f64 / f64::from(SIZE.0 * SIZE.1);
    assert!(share > 0.03, "{}: only {:.1}% of pixels drawn", path.display(), share * 100.0);
}

/// Checks an SVG: one `<svg>` element, every text in `texts` (as XML escapes it), and
/// at least `shapes` drawn elements.
fn assert_real_svg(path: &Path, texts: &[&str], shapes: usize) {
    let svg = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let svg = svg.trim();
    assert!(svg.starts_with("<svg") || svg.starts_with("<?xml"), "{} opens an svg: {}", path.display(), &svg[..40]);
    assert!(svg.ends_with("</svg>"), "{} closes its svg", path.display());
    assert_eq!(svg.matches("<svg").count(), 1, "{}", path.display());
    assert!(svg.contains(&format!(r#"width="{}" height="{}""#, SIZE.0, SIZE.1)), "{} is {SIZE:?}", path.display());
    for text in texts {
        let escaped = text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;");
        // plotters writes each text on a line of its own inside its element.
        assert!(svg.contains(&format!(">\n{escaped}\n</text>")), "{} shows the text `{text}`", path.display());
    }
    let drawn: usize = ["<path", "<rect", "<polyline", "<polygon", "<circle", "<line"]
        .iter()
        .map(|tag| svg.matches(tag).count())
        .sum();
    assert!(drawn >= shapes, "{}: {drawn} shapes, expected at least {shapes}", path.display());
}

/// The two files a chart wrote, checked, with `texts` in the SVG.
fn assert_chart(paths: &[PathBuf], stem: &Path, texts: &[&str], shapes: usize) {
    let png = PathBuf::from(format!("{}.png", stem.display()));
    let svg = PathBuf::from(format!("{}.svg", stem.display()));
    assert_eq!(paths, [png.clone(), svg.clone()]);
    assert_real_png(&png);
    assert_real_svg(&svg, texts, shapes);
}

#[test]
fn kill_probability_against_range_draws_lines_bands_legend_and_footer() {
    let dir = tempfile::tempdir().expect("temp dir");
    let stem = dir.path().join("kill_vs_range");
    let title = "Kill probability against range: Panther & Sherman, frontal armour";
    let paths = probability_vs_range(&stem, title, "range (m)", &guns(), &footer()).expect("draws");
    let texts = [
        title,
        "range (m)",
        "kill probability",
        "Panther 75mm L/70 at a Sherman",
        "Sherman 75mm M3 at a Panther",
        "95% interval",
        &footer().0,
    ];
    // Two bands, two lines, forty markers.
    assert_chart(&paths, &stem, &texts, 44);
}

#[test]
fn a_series_of_one_point_still_draws() {
    let dir = tempfile::tempdir().expect("temp dir");
    let stem = dir.path().join("one");
    let series = vec![Series { label: "at 800 m".into(), points: vec![estimate(800.0, 0.66)] }];
    let paths = probability_vs_range(&stem, "One range", "range (yd)", &series, &footer()).expect("draws");
    assert_chart(&paths, &stem, &["One range", "range (yd)", "at 800 m"], 3);
}

#[test]
fn stacked_outcomes_keep_one_colour_per_outcome_across_bars() {
    let dir = tempfile::tempdir().expect("temp dir");
    let stem = dir.path().join("outcomes");
    let outcome = |pairs: &[(&str, f64)]| pairs.iter().map(|(o, p)| (o.to_string(), *p)).collect::<Vec<_>>();
    let bars = vec![
        (
            "Command Decision".to_string(),
            outcome(&[("no effect", 0.157), ("forced back", 0.160), ("eliminated", 0.683)]),
        ),
        ("Mission Command".to_string(), outcome(&[("no effect", 0.41), ("suppressed", 0.22), ("eliminated", 0.37)])),
        ("Company Commander".to_string(), outcome(&[("no effect", 0.52), ("eliminated", 0.48)])),
        ("Chain of Command".to_string(), outcome(&[("no effect", 0.3), ("pinned", 0.45), ("eliminated", 0.25)])),
    ];
    let title = "Panther at a Sherman, 800 m, one round of fire";
    let paths = stacked_outcomes(&stem, title, &bars, &footer()).expect("draws");
    let texts = [
        title,
        "probability",
        "Command Decision",
        "Chain of Command",
        "no effect",
        "forced back",
        "suppressed",
        "pinned",
        "eliminated",
        &footer().0,
    ];
    // Eleven segments (filled and outlined) and five legend swatches.
    assert_chart(&paths, &stem, &texts, 27);
    // "eliminated" is the third outcome to appear: one colour in the legend and in
    // every bar, so its fill shows up once per bar plus once in the legend.
    let svg = std::fs::read_to_string(stem.with_extension("svg")).expect("the svg");
    let third = r##"fill="#009E73""##;
    assert!(svg.matches(third).count() >= 5, "eliminated keeps its colour:\n{svg}");
}

#[test]
fn many_outcomes_get_distinct_colours() {
    let dir = tempfile::tempdir().expect("temp dir");
    let stem = dir.path().join("company");
    // A nine-stand company: 0 to 9 stands left, ten segments, more than the palette's eight.
    let shares: Vec<(String, f64)> = (0..10).map(|k| (format!("{k} left"), 0.1)).collect();
    let bars = vec![("rifle company".to_string(), shares)];
    let paths = stacked_outcomes(&stem, "Stands left", &bars, &footer()).expect("draws");
    assert_chart(&paths, &stem, &["Stands left", "0 left", "9 left", "rifle company"], 30);
    let svg = std::fs::read_to_string(stem.with_extension("svg")).expect("the svg");
    let fills: HashSet<&str> = svg.match_indices(r##"fill="#"##).map(|(i, _)| &svg[i..i + 14]).collect();
    assert!(fills.len() >= 11, "ten segment colours and white: {fills:?}");
}

#[test]
fn bars_with_intervals_show_each_value_and_its_whiskers() {
    let dir = tempfile::tempdir().expect("temp dir");
    let stem = dir.path().join("winner");
    let bars: Vec<(String, Point)> = [("German", 0.9717), ("US", 0.0187), ("draw", 0.0078), ("undecided", 0.0019)]
        .iter()
        .enumerate()
        .map(|(k, (side, p))| (side.to_string(), estimate(k as f64, *p)))
        .collect();
    let title = "Who wins: Panther vs Sherman duel";
    let paths = bars_with_intervals(&stem, title, "probability", &bars, &footer()).expect("draws");
    // Each value under its bar, near 100% with the decimals that keep it off 100%.
    let german = &bars[0].1;
    let value = format!("{} ({} to {})", percent(german.p), percent(german.low), percent(german.high));
    assert!(value.starts_with("97.17% (97.1"), "{value}");
    let texts = [title, "probability", "German", "US", "draw", "undecided", &value, &footer().0];
    // Four bars and three whisker strokes each.
    assert_chart(&paths, &stem, &texts, 16);
}

#[test]
fn bars_of_other_quantities_get_a_numeric_axis() {
    let dir = tempfile::tempdir().expect("temp dir");
    let stem = dir.path().join("turns");
    let bars = vec![
        ("Command Decision".to_string(), Point { x: 0.0, p: 2.4, low: 2.3, high: 2.5 }),
        ("Mission Command".to_string(), Point { x: 1.0, p: 5.1, low: 4.9, high: 5.3 }),
    ];
    let paths = bars_with_intervals(&stem, "Mean turns to a decision", "turns", &bars, &footer()).expect("draws");
    assert_chart(&paths, &stem, &["Mean turns to a decision", "turns", "2.4 (2.3 to 2.5)"], 8);
}

#[test]
fn a_histogram_shows_every_bin_and_sets_undecided_apart() {
    let dir = tempfile::tempdir().expect("temp dir");
    let stem = dir.path().join("turns");
    let shares = [0.51, 0.23, 0.107, 0.051, 0.029, 0.024, 0.016, 0.011, 0.007, 0.004, 0.003, 0.0015];
    let mut bins: Vec<(String, f64)> = (1..).zip(shares).map(|(turn, p)| (format!("{turn}"), p)).collect();
    bins.push(("undecided".into(), 0.0175));
    let title = "Turn of the decision: Panther vs Sherman duel";
    let paths = histogram(&stem, title, "game turn", &bins, &footer()).expect("draws");
    let texts = [title, "game turn", "share of trials", "1", "12", "undecided", "51.0%", &footer().0];
    assert_chart(&paths, &stem, &texts, 13);
    let svg = std::fs::read_to_string(stem.with_extension("svg")).expect("the svg");
    assert!(svg.contains(r##"fill="#A0A0A0""##), "the undecided bin is grey");
}

#[test]
fn the_same_inputs_draw_the_same_bytes() {
    let dirs = [tempfile::tempdir().expect("temp dir"), tempfile::tempdir().expect("temp dir")];
    let drawn: Vec<Vec<Vec<u8>>> = dirs
        .iter()
        .map(|dir| {
            let stem = dir.path().join("kill");
            let paths = probability_vs_range(&stem, "Kill", "range (m)", &guns(), &footer()).expect("draws");
            paths.iter().map(|p| std::fs::read(p).expect("a chart")).collect()
        })
        .collect();
    assert!(drawn[0][0] == drawn[1][0], "the PNGs are identical");
    assert!(drawn[0][1] == drawn[1][1], "the SVGs are identical");
}

#[test]
fn nothing_to_chart_is_a_one_line_error_and_writes_nothing() {
    let dir = tempfile::tempdir().expect("temp dir");
    let stem = dir.path().join("empty");
    let no_points = vec![Series { label: "Panther".into(), points: vec![] }];
    let empty_bar = vec![("Panther".to_string(), vec![])];
    let cases = [
        (probability_vs_range(&stem, "Kill", "range (m)", &[], &footer()), "`Kill` has no series"),
        (probability_vs_range(&stem, "Kill", "range (m)", &no_points, &footer()), "series `Panther` has no points"),
        (stacked_outcomes(&stem, "Outcomes", &[], &footer()), "`Outcomes` has no bars"),
        (stacked_outcomes(&stem, "Outcomes", &empty_bar, &footer()), "bar `Panther` has no outcomes"),
        (bars_with_intervals(&stem, "Winner", "probability", &[], &footer()), "`Winner` has no bars"),
        (histogram(&stem, "Turns", "game turn", &[], &footer()), "`Turns` has no bins"),
    ];
    for (result, what) in cases {
        let e = result.expect_err("nothing to chart");
        let line = e.to_string();
        assert!(line.starts_with("nothing to chart: "), "{line}");
        assert!(line.contains(what), "`{what}` in: {line}");
        assert!(!line.contains('\n'), "one line: {line}");
        assert_eq!(e.exit_code(), 2);
    }
    assert_eq!(std::fs::read_dir(dir.path()).expect("the folder").count(), 0, "nothing written");
}

#[test]
fn probabilities_outside_zero_to_one_are_refused_by_name() {
    let dir = tempfile::tempdir().expect("temp dir");
    let stem = dir.path().join("bad");
    let wild = vec![Series { label: "Panther".into(), points: vec![Point { x: 100.0, p: 1.5, low: 1.4, high: 1.6 }] }];
    let line = probability_vs_range(&stem, "Kill", "range (m)", &wild, &footer()).expect_err("refused").to_string();
    assert!(line.starts_with("cannot chart `Kill`: series `Panther` at x = 100 has probability 1.5"), "{line}");
    let outside = vec![("US".to_string(), Point { x: 0.0, p: 0.5, low: 0.6, high: 0.7 })];
    let line = bars_with_intervals(&stem, "Winner", "probability", &outside, &footer()).expect_err("refused");
    assert!(line.to_string().contains("bar `US` is 0.5 in [0.6, 0.7]"), "{line}");
    let line = histogram(&stem, "Turns", "turn", &[("1".into(), f64::NAN)], &footer()).expect_err("refused");
    assert!(line.to_string().contains("bin `1` has probability NaN"), "{line}");
    assert_eq!(std::fs::read_dir(dir.path()).expect("the folder").count(), 0, "nothing written");
}

#[test]
fn run_writes_an_engagements_charts_beside_its_frames() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("duel");
    let o = cli::run(&["run", "--trials", "2000", "--seed", "7", "--out", out.to_str().expect("utf-8 temp path")]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).expect("summary")).expect("JSON");
    let hash = summary["rules_hash"].as_str().expect("a rules hash");
    let foot = format!(
        "command-decision: seed 7, 2,000 trials, rules {}, Wilson 95% intervals (Clopper-Pearson on small counts), combat-odds {}",
        &hash[..8],
        env!("CARGO_PKG_VERSION")
    );
    let scenario = "Panther vs Sherman duel, closing from 40 in. (2,000 yd)";
    let charts: [(&str, Vec<&str>, usize); 3] = [
        ("winner", vec!["German", "US", "draw", "undecided", "probability"], 16),
        ("turns", vec!["1", "12", "undecided", "share of trials"], 13),
        ("survivors", vec!["panther", "sherman", "0 left", "1 left"], 6),
    ];
    for (name, mut texts, shapes) in charts {
        let title = format!(
            "{}: {scenario}",
            match name {
                "winner" => "Who wins",
                "turns" => "Turn of the decision",
                _ => "Units left at the end",
            }
        );
        texts.extend([title.as_str(), foot.as_str()]);
        assert_real_png(&out.join(format!("{name}.png")));
        assert_real_svg(&out.join(format!("{name}.svg")), &texts, shapes);
    }
    assert!(!out.join("outcomes.png").exists(), "an engagement has no single-measure chart");
}

#[test]
fn run_of_a_fire_scenario_charts_its_first_measure() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("fire");
    let scenario = common::experiment_path("cd_tank_duel.toml");
    let args =
        ["run", scenario.to_str().expect("utf-8 path"), "--trials", "2000", "--out", out.to_str().expect("utf-8")];
    let o = cli::run(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_real_png(&out.join("outcomes.png"));
    assert_real_svg(&out.join("outcomes.svg"), &["target", "no_effect", "forced_back", "eliminated"], 4);
    assert!(!out.join("winner.png").exists(), "a fire scenario has no winner");
}
