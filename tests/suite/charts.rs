//! The charts: each kind drawn from realistic numbers to a PNG that decodes at the
//! chart size with many colours (not a blank canvas) and an SVG that is well-formed
//! enough to open and carries the title, axis labels, legend and footer as text; the
//! same inputs draw the same bytes; nothing to chart is a one-line error and writes
//! nothing; `run` writes an engagement's charts beside its frames (every interval
//! drawn, the cumulative chart never falling), and a fire scenario's outcome chart;
//! `compare` writes its differences chart beside the kill probability chart.
//!
//! The SVG is read for what was drawn: plotters writes each stroke as a `<polyline>`
//! with its colour, width and pixel points, each marker as a `<circle>` or `<polygon>`,
//! and each text on a line of its own inside its `<text>` element.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use crate::common::cli;
use combat_odds_core::stats::{interval, wilson};
use combat_odds_report::charts::{
    Footer, PANELS_ABOVE, Panel, Point, SIZE, Series, Stack, bars_with_intervals, cumulative_probability,
    difference_bars, difference_vs_range, histogram, percent, probability_vs_range, stacked_outcomes,
};

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

/// `series` as the one panel of a chart without panel titles.
fn one_panel(series: Vec<Series>) -> Vec<Panel> {
    vec![Panel { title: String::new(), series }]
}

/// A stroke as the SVG draws it: colour, width and pixel points.
#[derive(Debug)]
struct Stroke {
    colour: String,
    width: String,
    points: Vec<(i32, i32)>,
}

/// The value of `name="..."` in one element's text.
fn attribute<'a>(element: &'a str, name: &str) -> Option<&'a str> {
    let start = element.find(&format!(" {name}=\""))? + name.len() + 3;
    element[start..].split('"').next()
}

/// "1,2 3,4 " as pixel points.
fn pixel_points(text: &str) -> Vec<(i32, i32)> {
    text.split_whitespace()
        .map(|pair| {
            let (x, y) = pair.split_once(',').expect("x,y");
            (x.parse().expect("an x"), y.parse().expect("a y"))
        })
        .collect()
}

/// Every `<tag ...>` element of `svg`, as its text.
fn elements<'a>(svg: &'a str, tag: &str) -> Vec<&'a str> {
    svg.match_indices(&format!("<{tag} ")).map(|(i, _)| &svg[i..i + svg[i..].find('>').expect("closed")]).collect()
}

/// Every stroke (`<polyline>`) of `svg`.
fn strokes(svg: &str) -> Vec<Stroke> {
    elements(svg, "polyline")
        .into_iter()
        .map(|e| Stroke {
            colour: attribute(e, "stroke").unwrap_or_default().to_string(),
            width: attribute(e, "stroke-width").unwrap_or_default().to_string(),
            points: pixel_points(attribute(e, "points").unwrap_or_default()),
        })
        .collect()
}

/// The dark (#212121) two-pixel vertical strokes of `svg`: the whiskers of error bars.
fn whiskers(svg: &str) -> Vec<Stroke> {
    strokes(svg)
        .into_iter()
        .filter(|s| s.colour == "#212121" && s.width == "2" && s.points.len() == 2)
        .filter(|s| s.points[0].0 == s.points[1].0 && s.points[0].1 != s.points[1].1)
        .collect()
}

/// The texts `svg` writes, in order, with XML's escapes undone.
fn svg_texts(svg: &str) -> Vec<String> {
    svg.split("<text ")
        .skip(1)
        .map(|t| t[t.find(">\n").expect("text body") + 2..].split("\n</text>").next().unwrap_or(""))
        .map(|t| {
            t.replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&quot;", "\"")
                .replace("&apos;", "'")
                .replace("&amp;", "&")
        })
        .collect()
}

/// Whether `svg` writes `text` as one whole text.
fn has_text(svg: &str, text: &str) -> bool {
    svg_texts(svg).iter().any(|t| t == text)
}

fn read_svg(stem: &Path) -> String {
    std::fs::read_to_string(format!("{}.svg", stem.display())).expect("the svg")
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
        assert!(has_text(svg, text), "{} shows the text `{text}`: {:?}", path.display(), svg_texts(svg));
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

/// Checks that `stroke` is a step line: every segment level or upright, never a slope.
fn assert_steps(stroke: &Stroke) {
    for pair in stroke.points.windows(2) {
        let ((x0, y0), (x1, y1)) = (pair[0], pair[1]);
        assert!(x0 == x1 || y0 == y1, "a sloping segment from {:?} to {:?} in {stroke:?}", pair[0], pair[1]);
    }
}

/// The strokes of width 3 in `colour`: a series' line (and its legend sample).
fn lines_in(svg: &str, colour: &str) -> Vec<Stroke> {
    strokes(svg).into_iter().filter(|s| s.colour == colour && s.width == "3").collect()
}

const BLUE: &str = "#0072B2";
const ORANGE: &str = "#E69F00";
const GREEN: &str = "#009E73";

#[test]
fn kill_probability_against_range_draws_steps_bands_legend_and_footer() {
    let dir = tempfile::tempdir().expect("temp dir");
    let stem = dir.path().join("kill_vs_range");
    let title = "Kill probability against range: Panther & Sherman, frontal armour";
    let paths = probability_vs_range(&stem, title, "range (m)", &one_panel(guns()), &footer()).expect("draws");
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
    // The first series is solid: one stroke in the plot with a step (two points) per
    // range after the first, 1 + 2 x 19 = 39 points, level or upright throughout.
    let svg = read_svg(&stem);
    let line = lines_in(&svg, BLUE).into_iter().max_by_key(|s| s.points.len()).expect("the first line");
    assert_eq!(line.points.len(), 39, "{line:?}");
    assert_steps(&line);
    // Its band steps with it: 2 x 39 corners.
    let band = elements(&svg, "polygon").into_iter().find(|e| e.contains(r##"opacity="0.15" fill="#0072B2""##));
    let band = pixel_points(attribute(band.expect("the first band"), "points").expect("points"));
    assert_eq!(band.len(), 78);
}

#[test]
fn series_differ_by_marker_and_dash_in_the_plot_and_in_the_legend() {
    let dir = tempfile::tempdir().expect("temp dir");
    let stem = dir.path().join("three");
    let series: Vec<Series> = [("pak40", 0.7), ("17pdr", 0.8), ("6pdr", 0.5)]
        .iter()
        .map(|(gun, p)| Series {
            label: gun.to_string(),
            points: [100.0, 500.0, 1000.0].iter().map(|&r| estimate(r, p * 100.0 / (100.0 + r / 4.0))).collect(),
        })
        .collect();
    probability_vs_range(&stem, "Three guns", "range (m)", &one_panel(series), &footer()).expect("draws");
    let svg = read_svg(&stem);
    // Markers: circles for the first series, squares (four corners) for the second,
    // triangles (three) for the third; three in the plot and one in the legend each.
    let filled = |tag: &str, colour: &str, corners: Option<usize>| {
        elements(&svg, tag)
            .into_iter()
            .filter(|e| attribute(e, "fill") == Some(colour) && attribute(e, "opacity") == Some("1"))
            .filter(|e| corners.is_none_or(|n| pixel_points(attribute(e, "points").unwrap_or("")).len() == n))
            .count()
    };
    assert_eq!(filled("circle", BLUE, None), 4, "circles");
    assert_eq!(filled("polygon", ORANGE, Some(4)), 4, "squares");
    assert_eq!(filled("polygon", GREEN, Some(3)), 4, "triangles");
    // Dashes: the first line is one stroke in the plot and one in the legend; the
    // second is dashed into many short strokes, and the third's dots are shorter still.
    let (solid, dashed, dotted) = (lines_in(&svg, BLUE), lines_in(&svg, ORANGE), lines_in(&svg, GREEN));
    assert_eq!(solid.len(), 2, "{solid:?}");
    assert!(dashed.len() > 10 && dotted.len() > dashed.len(), "{} dashes, {} dots", dashed.len(), dotted.len());
    // The legend's samples (at its left, past the plot) are dashed too.
    let legend_x = 760;
    assert!(dashed.iter().filter(|s| s.points[0].0 >= legend_x).count() >= 2, "a dashed legend sample");
    assert!(dotted.iter().filter(|s| s.points[0].0 >= legend_x).count() >= 3, "a dotted legend sample");
}

/// Three rulesets' two guns each: more series than one plot holds.
fn three_rulesets() -> Vec<Panel> {
    ["command-decision", "mission-command", "company-commander"]
        .iter()
        .enumerate()
        .map(|(k, ruleset)| {
            let guns = guns();
            Panel {
                title: ruleset.to_string(),
                series: guns
                    .into_iter()
                    .zip(["pak40", "17pdr"])
                    .map(|(mut s, gun)| {
                        s.label = gun.into();
                        s.points.iter_mut().for_each(|p| *p = estimate(p.x, p.p * (1.0 - 0.2 * k as f64)));
                        s
                    })
                    .collect(),
            }
        })
        .collect()
}

#[test]
fn many_series_split_into_one_panel_per_group_with_shared_axes() {
    let dir = tempfile::tempdir().expect("temp dir");
    let stem = dir.path().join("panels");
    let panels = three_rulesets();
    assert!(panels.iter().map(|p| p.series.len()).sum::<usize>() > PANELS_ABOVE);
    let paths = probability_vs_range(&stem, "Guns by ruleset", "range (m)", &panels, &footer()).expect("draws");
    let texts = ["Guns by ruleset", "command-decision", "mission-command", "company-commander", "pak40", "17pdr"];
    assert_chart(&paths, &stem, &texts, 40);
    let svg = read_svg(&stem);
    let written = svg_texts(&svg);
    // One legend for all panels: each gun named once, each ruleset once (as its panel's title).
    for name in ["pak40", "17pdr", "command-decision", "95% interval", "range (m)", "kill probability"] {
        assert_eq!(written.iter().filter(|t| *t == name).count(), 1, "`{name}` once in {written:?}");
    }
    // A gun keeps its look in every panel: three blue (first gun) lines in the plots.
    let blue_lines = lines_in(&svg, BLUE).into_iter().filter(|s| s.points.len() > 2).count();
    assert_eq!(blue_lines, 3);
    // Shared axes: the y ticks are written once per row of panels (two rows), not per panel.
    assert_eq!(written.iter().filter(|t| *t == "100%").count(), 2, "{written:?}");

    // Four series or fewer share one plot, each named with its group.
    let stem = dir.path().join("one_plot");
    let two: Vec<Panel> = panels.into_iter().take(2).collect();
    probability_vs_range(&stem, "Guns in two rulesets", "range (m)", &two, &footer()).expect("draws");
    let svg = read_svg(&stem);
    assert!(has_text(&svg, "17pdr (mission-command)"), "{:?}", svg_texts(&svg));
}

#[test]
fn differences_against_range_read_in_signed_points_around_a_zero_line() {
    let dir = tempfile::tempdir().expect("temp dir");
    let stem = dir.path().join("differences");
    // The 17-pounder's advantage shrinking from +12.5 pp to -2 pp, each +-0.4 pp.
    let point = |x: f64, d: f64| Point { x, p: d, low: d - 0.004, high: d + 0.004 };
    let series = Series {
        label: "17pdr minus pak40".into(),
        points: vec![point(100.0, 0.125), point(500.0, 0.06), point(1000.0, -0.02)],
    };
    let y_label = "P(kill) minus pak40's (percentage points)";
    let paths =
        difference_vs_range(&stem, "Paired differences", "range (m)", y_label, &one_panel(vec![series]), &footer())
            .expect("draws");
    assert_chart(&paths, &stem, &["Paired differences", y_label, "17pdr minus pak40", "0", "95% interval"], 10);
    let svg = read_svg(&stem);
    let written = svg_texts(&svg);
    assert!(written.iter().any(|t| t.starts_with('+') && t.ends_with(" pp")), "a positive tick: {written:?}");
    assert!(written.iter().any(|t| t.starts_with('\u{2212}') && t.ends_with(" pp")), "a negative tick: {written:?}");
    // The zero line: a dark level stroke across the plot.
    let zero = strokes(&svg).into_iter().filter(|s| s.colour == "#212121" && s.width == "1" && s.points.len() == 2);
    assert!(zero.into_iter().any(|s| s.points[0].1 == s.points[1].1 && s.points[1].0 - s.points[0].0 > 500));
    // A difference beyond -1..1 is refused by name.
    let wild = Series { label: "17pdr".into(), points: vec![point(100.0, 1.2)] };
    let line = difference_vs_range(&stem, "Wild", "range (m)", "pp", &one_panel(vec![wild]), &footer())
        .expect_err("refused")
        .to_string();
    assert!(
        line.starts_with("cannot chart `Wild`: series `17pdr` at x = 100 has difference 1.2, not in -1..1"),
        "{line}"
    );
}

#[test]
fn difference_bars_stand_on_zero_and_read_in_points() {
    let dir = tempfile::tempdir().expect("temp dir");
    let stem = dir.path().join("difference_bars");
    let bars = vec![
        ("17pdr minus pak40 (command-decision)".to_string(), Point { x: 0.0, p: 0.1248, low: 0.1244, high: 0.1252 }),
        ("17pdr minus pak40 (mission-command)".to_string(), Point { x: 1.0, p: -0.03, low: -0.034, high: -0.026 }),
    ];
    let paths = difference_bars(&stem, "No range", "pp", &bars, &footer()).expect("draws");
    // 0.1248 is +12.48 pp, its interval +12.44 to +12.52 pp.
    assert_chart(&paths, &stem, &["No range", "+12.48 pp (+12.44 pp to +12.52 pp)"], 6);
}

/// A cumulative count's estimate with the project's interval, at turn `x`.
fn running(x: f64, count: u64, trials: u64) -> Point {
    let e = interval(count, trials, 0.95);
    Point { x, p: e.estimate, low: e.low, high: e.high }
}

#[test]
fn a_cumulative_chart_steps_up_and_writes_its_last_value() {
    let dir = tempfile::tempdir().expect("temp dir");
    let stem = dir.path().join("decided");
    // 400 trials decided 200, 100, 60, 20 on turns 1 to 4: running 200, 300, 360, 380.
    let points: Vec<Point> =
        [200, 300, 360, 380].iter().enumerate().map(|(k, &c)| running(k as f64 + 1.0, c, 400)).collect();
    let paths = cumulative_probability(
        &stem,
        "Decided by turn N",
        "game turn N",
        "turn",
        "P(decided by turn N)",
        &points,
        &footer(),
    )
    .expect("draws");
    // 380/400 = 95.0%, with its Wilson interval.
    let last = &points[3];
    let note = format!("by turn 4: {} ({} to {})", percent(last.p), percent(last.low), percent(last.high));
    assert!(note.starts_with("by turn 4: 95.00% ("), "{note}");
    assert_chart(&paths, &stem, &["Decided by turn N", "P(decided by turn N)", "game turn N", &note], 8);
    let svg = read_svg(&stem);
    let line = lines_in(&svg, BLUE).into_iter().max_by_key(|s| s.points.len()).expect("the line");
    assert_steps(&line);
    // Up (smaller pixel y) or level, left to right.
    assert!(line.points.windows(2).all(|w| w[1].0 >= w[0].0 && w[1].1 <= w[0].1), "{line:?}");

    // A falling "cumulative" line is refused, naming where it falls.
    let falling = [running(1.0, 300, 400), running(2.0, 200, 400)];
    let e = cumulative_probability(&stem, "Bad", "turn", "turn", "P", &falling, &footer()).expect_err("refused");
    assert!(e.to_string().contains("falls from 0.75 at x = 1 to 0.5 at x = 2"), "{e}");
}

#[test]
fn stacked_outcomes_keep_one_colour_per_outcome_across_bars() {
    let dir = tempfile::tempdir().expect("temp dir");
    let stem = dir.path().join("outcomes");
    let stack = |label: &str, pairs: &[(&str, f64)]| Stack {
        label: label.to_string(),
        segments: pairs.iter().map(|(o, p)| (o.to_string(), *p)).collect(),
        tops: Vec::new(),
    };
    let bars = vec![
        stack("Command Decision", &[("no effect", 0.157), ("forced back", 0.160), ("eliminated", 0.683)]),
        stack("Mission Command", &[("no effect", 0.41), ("suppressed", 0.22), ("eliminated", 0.37)]),
        stack("Company Commander", &[("no effect", 0.52), ("eliminated", 0.48)]),
        stack("Chain of Command", &[("no effect", 0.3), ("pinned", 0.45), ("eliminated", 0.25)]),
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
    let svg = read_svg(&stem);
    let third = r##"fill="#009E73""##;
    assert!(svg.matches(third).count() >= 5, "eliminated keeps its colour:\n{svg}");
    // No intervals given, none drawn.
    assert!(whiskers(&svg).is_empty());
}

#[test]
fn stacked_bars_draw_a_whisker_at_each_uncertain_edge() {
    let dir = tempfile::tempdir().expect("temp dir");
    let stem = dir.path().join("survivors");
    // 200 trials: 60 with 0 left, 100 with 1, 40 with 2. Edges at the running counts
    // 60 and 160 of 200 carry intervals; the top (200 of 200) is certain.
    let edge = |c: u64| {
        let e = interval(c, 200, 0.95);
        (e.low, e.high)
    };
    let bars = vec![Stack {
        label: "rifle platoon".into(),
        segments: vec![("0 left".into(), 0.3), ("1 left".into(), 0.5), ("2 left".into(), 0.2)],
        tops: vec![edge(60), edge(160), (1.0, 1.0)],
    }];
    let paths = stacked_outcomes(&stem, "Units left", &bars, &footer()).expect("draws");
    assert_chart(&paths, &stem, &["Units left", "rifle platoon", "95% interval of each edge"], 8);
    // Two edges in the bar and the legend's sample.
    assert_eq!(whiskers(&read_svg(&stem)).len(), 3);
    // Intervals that miss their edge, or do not match the outcomes, are refused.
    let mut wrong = bars.clone();
    wrong[0].tops[1] = (0.9, 0.95);
    let e = stacked_outcomes(&stem, "Units left", &wrong, &footer()).expect_err("refused");
    assert!(e.to_string().contains("bar `rifle platoon`, the top of `1 left` has p = 0.8 outside"), "{e}");
    wrong[0].tops.pop();
    let e = stacked_outcomes(&stem, "Units left", &wrong, &footer()).expect_err("refused");
    assert!(e.to_string().contains("has 3 outcomes but 2 intervals"), "{e}");
}

#[test]
fn many_outcomes_get_distinct_colours() {
    let dir = tempfile::tempdir().expect("temp dir");
    let stem = dir.path().join("company");
    // A nine-stand company: 0 to 9 stands left, ten segments, more than the palette's eight.
    let shares: Vec<(String, f64)> = (0..10).map(|k| (format!("{k} left"), 0.1)).collect();
    let bars = vec![Stack { label: "rifle company".to_string(), segments: shares, tops: Vec::new() }];
    let paths = stacked_outcomes(&stem, "Stands left", &bars, &footer()).expect("draws");
    assert_chart(&paths, &stem, &["Stands left", "0 left", "9 left", "rifle company"], 30);
    let svg = read_svg(&stem);
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
    // Out of a million trials only the German whisker is a pixel high or more; out of
    // two thousand, every bar's is.
    assert_eq!(whiskers(&read_svg(&stem)).len(), 1);
    let fewer: Vec<(String, Point)> =
        bars.iter().map(|(s, p)| (s.clone(), running(0.0, (p.p * 2000.0).round() as u64, 2000))).collect();
    bars_with_intervals(&stem, title, "probability", &fewer, &footer()).expect("draws");
    assert_eq!(whiskers(&read_svg(&stem)).len(), 4);
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

/// The bins of a histogram from shares of `trials`, each with its interval.
fn bins(labelled: &[(&str, f64)], trials: u64) -> Vec<(String, Point)> {
    labelled.iter().map(|(l, p)| (l.to_string(), running(0.0, (p * trials as f64).round() as u64, trials))).collect()
}

#[test]
fn a_histogram_shows_every_bin_with_its_whisker_and_sets_undecided_apart() {
    let dir = tempfile::tempdir().expect("temp dir");
    let stem = dir.path().join("turns");
    let shares = [0.51, 0.23, 0.107, 0.051, 0.029, 0.024, 0.016, 0.011, 0.007, 0.004, 0.003, 0.0015];
    let names: Vec<String> = (1..=12).map(|t| t.to_string()).collect();
    let mut labelled: Vec<(&str, f64)> = names.iter().map(String::as_str).zip(shares).collect();
    labelled.push(("undecided", 0.0175));
    let title = "Turn of the decision: Panther vs Sherman duel";
    let paths = histogram(&stem, title, "game turn", &bins(&labelled, 2000), &footer()).expect("draws");
    let texts =
        [title, "game turn", "share of trials, with 95% intervals", "1", "12", "undecided", "51.0%", &footer().0];
    assert_chart(&paths, &stem, &texts, 13);
    let svg = read_svg(&stem);
    assert!(svg.contains(r##"fill="#A0A0A0""##), "the undecided bin is grey");
    // A whisker per bin: out of 2,000 trials every one has a visible interval.
    assert_eq!(whiskers(&svg).len(), 13);
}

#[test]
fn labels_too_long_for_their_bins_turn_upright_and_are_never_cut() {
    let dir = tempfile::tempdir().expect("temp dir");
    let stem = dir.path().join("forty");
    // Forty turns and `undecided`: each bin about 21 px wide, too narrow for the word.
    let names: Vec<String> = (1..=40).map(|t| t.to_string()).collect();
    let mut labelled: Vec<(&str, f64)> = names.iter().map(|t| (t.as_str(), 0.015)).collect();
    labelled.push(("undecided", 0.4));
    histogram(&stem, "Forty turns", "game turn", &bins(&labelled, 20_000), &footer()).expect("draws");
    let svg = read_svg(&stem);
    assert!(!svg.contains('…'), "nothing cut short");
    let undecided = svg.split("<text ").find(|t| t.contains(">\nundecided\n</text>")).expect("undecided, whole");
    assert!(undecided.contains("transform=\"rotate(270"), "turned to read upwards: {undecided}");
    assert!(has_text(&svg, "40"), "the last turn is numbered");

    // Long category names wrap onto two lines rather than shrink away or lose letters.
    let stem = dir.path().join("long");
    let long = "rifle platoon in the farmhouse at the crossroads";
    let bars: Vec<Stack> = (0..4)
        .map(|k| Stack {
            label: format!("{long} {k}"),
            segments: vec![("0 left".into(), 0.5), ("1 left".into(), 0.5)],
            tops: Vec::new(),
        })
        .collect();
    stacked_outcomes(&stem, "Long names", &bars, &footer()).expect("draws");
    let svg = read_svg(&stem);
    assert!(!svg.contains('…'), "nothing cut short");
    let written = svg_texts(&svg).join(" ");
    assert!(written.contains(&format!("{long} 3")), "every word of the label: {written}");
}

#[test]
fn a_long_legend_label_wraps_whole() {
    let dir = tempfile::tempdir().expect("temp dir");
    let stem = dir.path().join("legend");
    let mut series = guns();
    series[0].label = "Panther Ausf. G 75mm KwK 42 L/70 firing APCBC at a Sherman M4A3(75)W front".into();
    probability_vs_range(&stem, "Long legend", "range (m)", &one_panel(series.clone()), &footer()).expect("draws");
    let svg = read_svg(&stem);
    assert!(!svg.contains('…'), "nothing cut short");
    assert!(svg_texts(&svg).join(" ").contains(&series[0].label), "{:?}", svg_texts(&svg));
}

#[test]
fn the_same_inputs_draw_the_same_bytes() {
    let draw = |dir: &Path| -> Vec<Vec<u8>> {
        let points: Vec<Point> = [1.0, 2.0, 3.0].iter().map(|&t| running(t, 100 * t as u64, 400)).collect();
        let mut paths = Vec::new();
        paths.extend(
            probability_vs_range(&dir.join("kill"), "Kill", "range (m)", &one_panel(guns()), &footer()).expect("draws"),
        );
        paths.extend(
            probability_vs_range(&dir.join("panels"), "Kill", "range (m)", &three_rulesets(), &footer())
                .expect("draws"),
        );
        paths.extend(
            cumulative_probability(&dir.join("decided"), "Decided", "turn N", "turn", "P", &points, &footer())
                .expect("draws"),
        );
        paths.iter().map(|p| std::fs::read(p).expect("a chart")).collect()
    };
    let dirs = [tempfile::tempdir().expect("temp dir"), tempfile::tempdir().expect("temp dir")];
    let drawn: Vec<Vec<Vec<u8>>> = dirs.iter().map(|d| draw(d.path())).collect();
    assert_eq!(drawn[0].len(), 6);
    for (k, (a, b)) in drawn[0].iter().zip(&drawn[1]).enumerate() {
        assert!(a == b, "file {k} is identical");
    }
}

#[test]
fn nothing_to_chart_is_a_one_line_error_and_writes_nothing() {
    let dir = tempfile::tempdir().expect("temp dir");
    let stem = dir.path().join("empty");
    let no_points = one_panel(vec![Series { label: "Panther".into(), points: vec![] }]);
    let empty_bar = vec![Stack { label: "Panther".to_string(), segments: vec![], tops: vec![] }];
    let cases = [
        (probability_vs_range(&stem, "Kill", "range (m)", &[], &footer()), "`Kill` has no series"),
        (probability_vs_range(&stem, "Kill", "range (m)", &one_panel(vec![]), &footer()), "`Kill` has no series"),
        (probability_vs_range(&stem, "Kill", "range (m)", &no_points, &footer()), "series `Panther` has no points"),
        (difference_vs_range(&stem, "Diff", "range (m)", "pp", &[], &footer()), "`Diff` has no series"),
        (cumulative_probability(&stem, "Cum", "turn", "turn", "P", &[], &footer()), "series `P` has no points"),
        (stacked_outcomes(&stem, "Outcomes", &[], &footer()), "`Outcomes` has no bars"),
        (stacked_outcomes(&stem, "Outcomes", &empty_bar, &footer()), "bar `Panther` has no outcomes"),
        (bars_with_intervals(&stem, "Winner", "probability", &[], &footer()), "`Winner` has no bars"),
        (difference_bars(&stem, "Diff", "pp", &[], &footer()), "`Diff` has no bars"),
        (histogram(&stem, "Turns", "game turn", &[], &footer()), "`Turns` has no bins"),
    ];
    for (result, what) in cases {
        let e = result.expect_err("nothing to chart");
        let line = e.to_string();
        assert!(line.starts_with("nothing to chart: "), "{line}");
        assert!(line.contains(what), "`{what}` in: {line}");
        assert!(!line.contains('\n'), "one line: {line}");
        assert!(
            matches!(e, combat_odds_report::Error::Results(_)),
            "a results error, which the binary ends with 2: {e:?}"
        );
    }
    assert_eq!(std::fs::read_dir(dir.path()).expect("the folder").count(), 0, "nothing written");
}

#[test]
fn probabilities_outside_zero_to_one_are_refused_by_name() {
    let dir = tempfile::tempdir().expect("temp dir");
    let stem = dir.path().join("bad");
    let wild = one_panel(vec![Series {
        label: "Panther".into(),
        points: vec![Point { x: 100.0, p: 1.5, low: 1.4, high: 1.6 }],
    }]);
    let line = probability_vs_range(&stem, "Kill", "range (m)", &wild, &footer()).expect_err("refused").to_string();
    assert!(line.starts_with("cannot chart `Kill`: series `Panther` at x = 100 has probability 1.5"), "{line}");
    let outside = vec![("US".to_string(), Point { x: 0.0, p: 0.5, low: 0.6, high: 0.7 })];
    let line = bars_with_intervals(&stem, "Winner", "probability", &outside, &footer()).expect_err("refused");
    assert!(line.to_string().contains("bar `US` is 0.5 in [0.6, 0.7]"), "{line}");
    let nan = vec![("1".to_string(), Point { x: 0.0, p: f64::NAN, low: 0.0, high: 1.0 })];
    let line = histogram(&stem, "Turns", "turn", &nan, &footer()).expect_err("refused");
    assert!(line.to_string().contains("bin `1` has probability NaN"), "{line}");
    let beside = vec![("1".to_string(), Point { x: 0.0, p: 0.5, low: 0.1, high: 0.2 })];
    let line = histogram(&stem, "Turns", "turn", &beside, &footer()).expect_err("refused");
    assert!(line.to_string().contains("bin `1` has p = 0.5 outside its interval [0.1, 0.2]"), "{line}");
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
    // The duel's tanks and guns come from the illustrative catalogue: the footer says so first.
    let foot = format!(
        "INVENTED DATA (an illustrative catalogue, not the published rules' values). command-decision: seed 7, 2,000 trials, rules {}, Wilson 95% intervals (Clopper-Pearson on small counts), combat-odds {}",
        &hash[..8],
        env!("CARGO_PKG_VERSION")
    );
    let scenario = "Panther vs Sherman duel, closing from 40 in. (2,000 yd)";
    let charts: [(&str, &str, Vec<&str>, usize); 4] = [
        ("winner", "Who wins", vec!["German", "US", "draw", "undecided", "probability"], 16),
        ("turns", "Turn of the decision", vec!["1", "12", "undecided", "share of trials, with 95% intervals"], 13),
        ("decided_by_turn", "Decided by turn N", vec!["P(decided by turn N)", "95% interval"], 12),
        ("survivors", "Units left at the end", vec!["panther", "sherman", "0 left", "1 left"], 6),
    ];
    for (name, title, mut texts, shapes) in charts {
        let title = format!("{title}: {scenario}");
        texts.extend([title.as_str(), foot.as_str()]);
        assert_real_png(&out.join(format!("{name}.png")));
        assert_real_svg(&out.join(format!("{name}.svg")), &texts, shapes);
    }
    assert!(!out.join("outcomes.png").exists(), "an engagement has no single-measure chart");
    let svg = |name: &str| read_svg(&out.join(name));

    // Every bin of the turns histogram has its whisker: out of 2,000 trials even an
    // empty bin has an interval above zero (Clopper-Pearson: 0 to 1 - 0.025^(1/2000)).
    let turns = summary["measures"].as_array().expect("measures").iter().find(|m| m["name"] == "turns");
    let bins = turns.expect("a turns measure")["outcomes"].as_array().expect("outcomes").len();
    assert_eq!(whiskers(&svg("turns")).len(), bins);
    // A unit's first edge (0 left) gets a whisker where it was seen in some trials and
    // not all (the Panther is destroyed in about 3 of 10,000 duels, so often in none
    // of these 2,000), its top edge is certain; and the legend has one.
    let uncertain = summary["measures"]
        .as_array()
        .expect("measures")
        .iter()
        .filter(|m| m["name"].as_str().is_some_and(|n| n.starts_with("survivors_")))
        .filter(|m| (1..2000).contains(&m["counts"][0].as_u64().expect("a count")))
        .count();
    assert_eq!(whiskers(&svg("survivors")).len(), uncertain + 1);
    assert!(has_text(&svg("survivors"), "95% interval of each edge"));

    // The cumulative line steps up, never down, left to right, one step per turn.
    let decided = svg("decided_by_turn");
    let line = lines_in(&decided, BLUE).into_iter().max_by_key(|s| s.points.len()).expect("the line");
    assert_steps(&line);
    assert_eq!(line.points.len(), 2 * (bins - 1) - 1, "one point per numbered turn and a step between each");
    assert!(line.points.windows(2).all(|w| w[1].0 >= w[0].0 && w[1].1 <= w[0].1), "monotone: {line:?}");
}

#[test]
fn run_of_a_fire_scenario_charts_its_first_measure() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("fire");
    let scenario = crate::common::experiment_path("cd_tank_duel.toml");
    let args =
        ["run", scenario.to_str().expect("utf-8 path"), "--trials", "2000", "--out", out.to_str().expect("utf-8")];
    let o = cli::run(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_real_png(&out.join("outcomes.png"));
    assert_real_svg(&out.join("outcomes.svg"), &["target", "no_effect", "forced_back", "eliminated"], 4);
    assert!(!out.join("winner.png").exists(), "a fire scenario has no winner");
}

#[test]
fn compare_writes_its_differences_chart_beside_the_kill_probability_chart() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("guns");
    let comparison = crate::common::experiment_path("compare_at_gun_vs_medium_tank.toml");
    let args =
        ["compare", comparison.to_str().expect("utf-8"), "--trials", "2000", "--out", out.to_str().expect("utf-8")];
    let stdout = cli::stdout_of(&args);
    for name in ["p_kill_vs_range", "differences_vs_range"] {
        assert!(stdout.contains(&format!("{name}.png, {name}.svg")), "{name} reported: {stdout}");
        assert_real_png(&out.join(format!("{name}.png")));
    }
    // Every answering ruleset's rules hash stays in the footer (Chain of Command, with no
    // ground scale, is left out of a comparison at ranges).
    let csv = std::fs::read_to_string(out.join("differences.csv")).expect("the differences frame");
    let svg = read_svg(&out.join("differences_vs_range"));
    // The footer opens by saying Command Decision's and Company Commander's guns are
    // invented; the seed and the hashes follow.
    let footer = svg_texts(&svg).into_iter().find(|t| t.contains("seed ")).expect("a footer");
    assert!(footer.starts_with("INVENTED DATA") && footer.contains("2,000 trials, rules "), "{footer}");
    assert_eq!(footer.split("rules ").nth(1).expect("hashes").split(',').next().expect("").split('/').count(), 3);
    // One line per (ruleset, weapon) paired against the PaK 40, named so in the legend.
    let rulesets: HashSet<&str> = csv.lines().skip(1).filter_map(|l| l.split(',').next()).collect();
    let written = svg_texts(&svg);
    for ruleset in &rulesets {
        assert!(written.contains(&format!("17pdr minus pak40 ({ruleset})")), "{ruleset}: {written:?}");
    }
    assert!(has_text(&svg, "P(kill) minus pak40's (percentage points)"), "{written:?}");
}
