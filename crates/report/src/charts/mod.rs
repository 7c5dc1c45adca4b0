//! Charts of results, each written as a PNG and an SVG from one drawing: kill
//! probability (or a paired difference of it) against range as step lines, in one plot
//! or a grid of panels, a cumulative probability as a step line, stacked outcome bars
//! with a whisker at each edge, bars with error bars, and histograms with error bars.
//!
//! Every chart carries its title, axis labels with units, a legend wherever colours
//! stand for something, the 95% intervals the footer names wherever a value was
//! estimated, and a footer naming the seed, trials and rules hash, so it reads without
//! the text around it. Series are told apart by marker and dash as well as colour.
//! No text is cut short: a label that does not fit shrinks, wraps at spaces, or turns
//! to read upwards, and the area under the axis grows to hold it. Text is set in
//! DejaVu Sans, embedded in the binary (plotters' `ab_glyph` text), so no system font
//! is needed and a chart's bytes depend only on its inputs: two runs of one study
//! write identical PNG and SVG files.
//!
//! Inputs are checked before anything is drawn: nothing to chart, a probability
//! outside 0..1 (a difference outside -1..1), a value outside its interval or a
//! cumulative probability that falls is a one-line usage error, never a panic or an
//! empty picture.

mod bars;
mod draw;
mod heat;
mod histogram;
mod stacked;
mod steps;

use std::path::{Path, PathBuf};
use std::sync::Once;

use plotters::prelude::*;
use plotters::style::register_font;

use crate::error::{Error, Result};

/// Every chart's size in pixels (the SVG's view box too).
pub const SIZE: (u32, u32) = (1024, 640);

/// One line of a chart with its interval band.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// What the line is, as the legend names it.
    pub label: String,
    /// Its points, in any order (drawn sorted by `x`).
    pub points: Vec<Point>,
}

/// A probability with its interval, at `x`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Point {
    /// Where along the x axis (ignored by [`bars_with_intervals`], [`difference_bars`]
    /// and [`histogram`], whose bars stand in order).
    pub x: f64,
    /// The probability, 0..1 (or the difference, -1..1, or another estimate, where the
    /// chart says so).
    pub p: f64,
    /// Lower end of its interval.
    pub low: f64,
    /// Upper end of its interval.
    pub high: f64,
}

/// What every chart says at its foot: e.g. "seed 2026, 1,000,000 trials, rules
/// 1f2e3d4c, Wilson 95% intervals (Clopper-Pearson on small counts), combat-odds 0.1.0".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Footer(pub String);

impl Footer {
    /// "seed SEED, TRIALS trials, rules HASH, ... intervals, combat-odds VERSION", the
    /// trials grouped in thousands and each rules hash shortened to its first eight
    /// digits (the summary keeps it whole). Nothing that differs between two runs of
    /// one study (such as wall time) belongs here: identical inputs draw identical files.
    pub fn new(seed: u64, trials: u64, rules_hashes: &[&str]) -> Self {
        let rules: Vec<&str> = rules_hashes.iter().map(|h| h.get(..8).unwrap_or(h)).collect();
        Footer(format!(
            "seed {seed}, {} trials, rules {}, Wilson 95% intervals (Clopper-Pearson on small counts), combat-odds {}",
            thousands(trials),
            rules.join("/"),
            env!("CARGO_PKG_VERSION")
        ))
    }

    /// The footer of a chart whose numbers rest on invented catalogue data: said
    /// first, so a chart shared alone still says it.
    pub fn invented(self, invented: bool) -> Self {
        match invented {
            true => Footer(format!(
                "INVENTED DATA (an illustrative catalogue, not the published rules' values). {}",
                self.0
            )),
            false => self,
        }
    }
}

/// Above this many series in all, [`probability_vs_range`] and [`difference_vs_range`]
/// draw one small panel per [`Panel`] (a grid with shared axes) instead of one crowded
/// plot.
pub const PANELS_ABOVE: usize = 4;

/// Series that belong together, e.g. one ruleset's weapons: they share a panel when
/// there are many series (see [`PANELS_ABOVE`]), and are named `label (title)` when
/// every series shares one plot.
#[derive(Debug, Clone, PartialEq)]
pub struct Panel {
    /// What the panel holds, e.g. the ruleset (empty for a lone panel with no title).
    pub title: String,
    /// Its series.
    pub series: Vec<Series>,
}

/// Kill probability (y, 0..1) against range (x, with the unit in `x_label`, e.g.
/// "range (m)"), one step line per series. Writes `<stem>.png` and `<stem>.svg`; returns
/// the paths.
///
/// # Reading the steps
/// Rulesets' tables are banded: kill probability is constant within a range band and
/// jumps at the band's edge. The data holds only the measured ranges, so each value is
/// held from its range to the next measured range, where the line steps to that
/// range's value: the table's own edge lies somewhere after the last range at the old
/// value and no later than the first at the new one, which is as close as the
/// measurements place it. The line ends at the last measured range. The 95% interval
/// is a band that steps with the line and a whisker at each measured range (an exact
/// value has neither).
///
/// Series are told apart by colour, marker and dash pattern together, all shown in the
/// legend. With more than [`PANELS_ABOVE`] series in all, each panel gets its own small
/// plot in a grid (shared axes; a series keeps its look in every panel, so the legend
/// names each label once); otherwise every series shares one plot.
pub fn probability_vs_range(
    stem: &Path,
    title: &str,
    x_label: &str,
    panels: &[Panel],
    footer: &Footer,
) -> Result<Vec<PathBuf>> {
    check_panels(title, panels, &|what, p| check_point(title, what, p))?;
    let chart = steps::Steps {
        title,
        x_label,
        y_label: "kill probability",
        panels,
        scale: steps::Scale::Probability,
        note: None,
        footer,
    };
    render(stem, &chart)
}

/// Differences of probabilities (y, -1..1, read in percentage points, with a line at
/// zero) against range, drawn as [`probability_vs_range`] draws probabilities: steps
/// held from each measured range to the next, interval bands and whiskers, colour,
/// marker and dash per series, and panels when there are many series.
pub fn difference_vs_range(
    stem: &Path,
    title: &str,
    x_label: &str,
    y_label: &str,
    panels: &[Panel],
    footer: &Footer,
) -> Result<Vec<PathBuf>> {
    check_panels(title, panels, &|what, p| check_difference(title, what, p))?;
    let chart = steps::Steps { title, x_label, y_label, panels, scale: steps::Scale::Difference, note: None, footer };
    render(stem, &chart)
}

/// A cumulative probability against a count (e.g. P(decided by turn N) against N): one
/// step line, each value held from its `x` to the next (nothing happens between whole
/// turns), with its interval as a band and whiskers, `label` naming it on the y axis and
/// in the legend, and the last value written out in a corner away from the line as
/// "by `x_name` X: P (LOW to HIGH)". The values must not fall as `x` grows.
pub fn cumulative_probability(
    stem: &Path,
    title: &str,
    x_label: &str,
    x_name: &str,
    label: &str,
    points: &[Point],
    footer: &Footer,
) -> Result<Vec<PathBuf>> {
    let panels =
        [Panel { title: String::new(), series: vec![Series { label: label.into(), points: points.to_vec() }] }];
    check_panels(title, &panels, &|what, p| check_point(title, what, p))?;
    let mut sorted = points.to_vec();
    sorted.sort_by(|a, b| a.x.total_cmp(&b.x));
    for pair in sorted.windows(2) {
        if pair[1].p < pair[0].p - 1e-12 {
            return Err(bad(
                title,
                &format!(
                    "`{label}` falls from {} at x = {} to {} at x = {}: a cumulative probability never falls",
                    pair[0].p, pair[0].x, pair[1].p, pair[1].x
                ),
            ));
        }
    }
    let last = sorted[sorted.len() - 1];
    let note = format!(
        "by {x_name} {}: {} ({} to {})",
        draw::number(last.x),
        percent(last.p),
        percent(last.low),
        percent(last.high)
    );
    let chart = steps::Steps {
        title,
        x_label,
        y_label: label,
        panels: &panels,
        scale: steps::Scale::Probability,
        note: Some(&note),
        footer,
    };
    render(stem, &chart)
}

/// One bar of [`stacked_outcomes`].
#[derive(Debug, Clone, PartialEq)]
pub struct Stack {
    /// What the bar is, written under it (e.g. a unit entry).
    pub label: String,
    /// Each outcome and its share, bottom up.
    pub segments: Vec<(String, f64)>,
    /// The 95% interval of each segment's top edge, one per segment, or empty to draw
    /// none. A top edge stands at the running total of the shares up to it (the share of
    /// trials in that outcome or one below it), a binomial count like any other, so its
    /// whisker is that count's interval; the first edge's is the first outcome's own.
    pub tops: Vec<(f64, f64)>,
}

/// Stacked bars of outcome distributions: one bar per [`Stack`] (e.g. per ruleset or
/// per unit entry), segments per outcome (consistent colours, legend), y = probability
/// 0..1, and a whisker at each segment's top edge where the stack gives its interval.
/// An outcome keeps one colour in every bar, in the order outcomes first appear.
pub fn stacked_outcomes(stem: &Path, title: &str, bars: &[Stack], footer: &Footer) -> Result<Vec<PathBuf>> {
    if bars.is_empty() {
        return Err(nothing(title, "no bars"));
    }
    for Stack { label, segments, tops } in bars {
        if segments.is_empty() {
            return Err(nothing(title, &format!("bar `{label}` has no outcomes")));
        }
        for (outcome, p) in segments {
            check_probability(title, &format!("bar `{label}`, outcome `{outcome}`"), *p)?;
        }
        let total: f64 = segments.iter().map(|(_, p)| p).sum();
        if total > 1.0 + 1e-9 {
            return Err(bad(title, &format!("bar `{label}` adds up to {total}, more than 1")));
        }
        if !tops.is_empty() && tops.len() != segments.len() {
            return Err(bad(
                title,
                &format!("bar `{label}` has {} outcomes but {} intervals", segments.len(), tops.len()),
            ));
        }
        let mut running = 0.0;
        for ((outcome, p), &(low, high)) in segments.iter().zip(tops) {
            running += p;
            let top = Point { x: 0.0, p: running.min(1.0), low, high };
            check_point(title, &format!("bar `{label}`, the top of `{outcome}`"), &top)?;
        }
    }
    render(stem, &stacked::Stacked { title, bars, footer })
}

/// Bars with error bars (e.g. winner probabilities with their 95% intervals): one bar
/// per label, in order, its height `p` and its whisker `low..high`; `x` is ignored.
/// The y axis reads 0..1 as percentages when every value is a probability.
pub fn bars_with_intervals(
    stem: &Path,
    title: &str,
    y_label: &str,
    bars: &[(String, Point)],
    footer: &Footer,
) -> Result<Vec<PathBuf>> {
    check_bars(title, bars)?;
    render(stem, &bars::Bars { title, y_label, bars, scale: bars::BarScale::Auto, footer })
}

/// Bars of differences of probabilities (-1..1, e.g. one weapon's kill probability
/// minus another's), each with its interval as a whisker, on a signed axis read in
/// percentage points with a line at zero; `x` is ignored.
pub fn difference_bars(
    stem: &Path,
    title: &str,
    y_label: &str,
    bars: &[(String, Point)],
    footer: &Footer,
) -> Result<Vec<PathBuf>> {
    check_bars(title, bars)?;
    for (label, p) in bars {
        check_difference(title, &format!("bar `{label}`"), p)?;
    }
    render(stem, &bars::Bars { title, y_label, bars, scale: bars::BarScale::Difference, footer })
}

/// A histogram (e.g. turns to decision): one bar per bin, in order, its height the
/// share of trials (0..1) in that bin and its whisker that share's interval (`x` is
/// ignored). Bins whose label is not a number (`undecided`, `none`) are drawn grey,
/// apart from the numbered scale. Numbered bins too narrow for every number are
/// labelled every 2nd, 5th, 10th... bin; a label that is not a number is never cut
/// short: it is turned to read upwards when its bin is too narrow for it.
pub fn histogram(
    stem: &Path,
    title: &str,
    x_label: &str,
    bins: &[(String, Point)],
    footer: &Footer,
) -> Result<Vec<PathBuf>> {
    if bins.is_empty() {
        return Err(nothing(title, "no bins"));
    }
    for (label, p) in bins {
        check_point(title, &format!("bin `{label}`"), p)?;
    }
    render(stem, &histogram::Histogram { title, x_label, bins, footer })
}

/// A probability (0..1) over a grid of two parameters' values: `cells[row][column]`,
/// `None` where the grid has no answer, coloured from white to deep blue and written in
/// each cell as a percentage.
pub fn heat_map(
    stem: &Path,
    title: &str,
    (x_label, columns): (&str, &[String]),
    (y_label, rows): (&str, &[String]),
    cells: &[Vec<Option<f64>>],
    footer: &Footer,
) -> Result<Vec<PathBuf>> {
    if columns.is_empty() || rows.is_empty() {
        return Err(nothing(title, "no cells"));
    }
    if cells.len() != rows.len() || cells.iter().any(|r| r.len() != columns.len()) {
        return Err(bad(title, "a grid whose cells do not match its rows and columns"));
    }
    for p in cells.iter().flatten().flatten() {
        check_probability(title, "a cell", *p)?;
    }
    render(stem, &heat::Heat { title, x_label, y_label, columns, rows, cells, footer })
}

/// A chart that draws itself on any plotters backend, so one drawing makes both files.
trait Chart {
    /// Draws the whole chart on `root`.
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, plotters::coord::Shift>) -> draw::Drawn<DB>;
}

/// Draws `chart` into `<stem>.png` and `<stem>.svg` (creating the folder) and returns
/// both paths; on failure neither file is left behind.
fn render(stem: &Path, chart: &impl Chart) -> Result<Vec<PathBuf>> {
    fonts();
    let (png, svg) = (with_extension(stem, "png"), with_extension(stem, "svg"));
    if let Some(parent) = stem.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(|source| Error::io(parent.to_path_buf(), source))?;
        let names = [&png, &svg].map(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default());
        crate::export::directory::claim(parent, names.iter().map(String::as_str))?;
    }
    let drawn = draw_both(chart, &png, &svg);
    if drawn.is_err() {
        let _ = std::fs::remove_file(&png);
        let _ = std::fs::remove_file(&svg);
    }
    drawn.map(|()| vec![png, svg])
}

fn draw_both(chart: &impl Chart, png: &Path, svg: &Path) -> Result<()> {
    let failed = |path: &Path, e: &dyn std::fmt::Display| {
        Error::io(path, std::io::Error::other(format!("cannot draw the chart: {e}")))
    };
    {
        let root = BitMapBackend::new(png, SIZE).into_drawing_area();
        chart.draw(&root).map_err(|e| failed(png, &e))?;
        root.present().map_err(|e| failed(png, &e))?;
    }
    // Drawn into memory and written in one go, so an I/O error names the file plainly.
    let mut text = String::new();
    {
        let root = SVGBackend::with_string(&mut text, SIZE).into_drawing_area();
        chart.draw(&root).map_err(|e| failed(svg, &e))?;
        root.present().map_err(|e| failed(svg, &e))?;
    }
    std::fs::write(svg, text).map_err(|source| Error::io(svg.to_path_buf(), source))
}

/// Registers the embedded DejaVu Sans as plotters' "sans-serif", once per process.
fn fonts() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let normal = register_font("sans-serif", FontStyle::Normal, dejavu::sans::regular());
        let bold = register_font("sans-serif", FontStyle::Bold, dejavu::sans::bold());
        assert!(normal.is_ok() && bold.is_ok(), "the embedded DejaVu Sans fonts parse");
    });
}

/// `stem` with `.ext` appended (not replacing a dot already in the name).
fn with_extension(stem: &Path, ext: &str) -> PathBuf {
    let mut name = stem.as_os_str().to_owned();
    name.push(".");
    name.push(ext);
    PathBuf::from(name)
}

fn nothing(title: &str, what: &str) -> Error {
    Error::Results(format!("nothing to chart: `{title}` has {what}"))
}

fn bad(title: &str, what: &str) -> Error {
    Error::Results(format!("cannot chart `{title}`: {what}"))
}

/// Every panel has series, every series points at finite `x`, each point passing `check`.
fn check_panels(title: &str, panels: &[Panel], check: &dyn Fn(&str, &Point) -> Result<()>) -> Result<()> {
    if panels.iter().all(|p| p.series.is_empty()) {
        return Err(nothing(title, "no series"));
    }
    for s in panels.iter().flat_map(|p| &p.series) {
        if s.points.is_empty() {
            return Err(nothing(title, &format!("series `{}` has no points", s.label)));
        }
        for p in &s.points {
            if !p.x.is_finite() {
                return Err(bad(title, &format!("series `{}` has a point at x = {}", s.label, p.x)));
            }
            check(&format!("series `{}` at x = {}", s.label, p.x), p)?;
        }
    }
    Ok(())
}

fn check_bars(title: &str, bars: &[(String, Point)]) -> Result<()> {
    if bars.is_empty() {
        return Err(nothing(title, "no bars"));
    }
    for (label, p) in bars {
        let finite = [p.p, p.low, p.high].iter().all(|v| v.is_finite());
        if !finite || p.low > p.p + 1e-12 || p.p > p.high + 1e-12 {
            return Err(bad(
                title,
                &format!("bar `{label}` is {} in [{}, {}]: it needs low <= value <= high", p.p, p.low, p.high),
            ));
        }
    }
    Ok(())
}

/// A difference of two probabilities and its interval: all in -1..1, the value inside.
fn check_difference(title: &str, what: &str, p: &Point) -> Result<()> {
    for v in [p.p, p.low, p.high] {
        if !(-1.0..=1.0).contains(&v) {
            return Err(bad(title, &format!("{what} has difference {v}, not in -1..1")));
        }
    }
    if p.low > p.p + 1e-12 || p.p > p.high + 1e-12 {
        return Err(bad(title, &format!("{what} has {} outside its interval [{}, {}]", p.p, p.low, p.high)));
    }
    Ok(())
}

fn check_probability(title: &str, what: &str, p: f64) -> Result<()> {
    if !(0.0..=1.0).contains(&p) {
        return Err(bad(title, &format!("{what} has probability {p}, not in 0..1")));
    }
    Ok(())
}

fn check_point(title: &str, what: &str, p: &Point) -> Result<()> {
    for v in [p.p, p.low, p.high] {
        check_probability(title, what, v)?;
    }
    // Wilson intervals always hold their estimate; a little slack for rounding.
    if p.low > p.p + 1e-12 || p.p > p.high + 1e-12 {
        return Err(bad(title, &format!("{what} has p = {} outside its interval [{}, {}]", p.p, p.low, p.high)));
    }
    Ok(())
}

/// 1234567 as "1,234,567".
pub(crate) fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A probability as a percentage to three significant figures (two below 1%), counted
/// from the nearer end, so 99.98% never reads as 100.0%.
pub fn percent(p: f64) -> String {
    let v = p * 100.0;
    if v <= 0.0 {
        return "0%".into();
    }
    if v >= 100.0 {
        return "100%".into();
    }
    // Three figures from 1% up; below 1% (or within 1% of 100%) two are plenty.
    let closest = v.min(100.0 - v);
    let figures = if closest < 1.0 { 1 } else { 2 };
    let decimals = (figures - closest.log10().floor() as i32).clamp(1, 4) as usize;
    format!("{v:.decimals$}%")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_group_by_three() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1_000_000), "1,000,000");
        assert_eq!(thousands(65_536), "65,536");
    }

    #[test]
    fn percentages_keep_three_figures_and_never_round_to_the_ends() {
        assert_eq!(percent(0.0), "0%");
        assert_eq!(percent(1.0), "100%");
        assert_eq!(percent(0.508), "50.8%");
        assert_eq!(percent(0.9735), "97.35%");
        assert_eq!(percent(0.0185), "1.85%");
        assert_eq!(percent(0.00186), "0.19%");
        assert_eq!(percent(0.000012), "0.0012%");
        assert_eq!(percent(0.9998), "99.980%");
    }

    #[test]
    fn the_footer_names_seed_trials_rules_intervals_and_version() {
        let f = Footer::new(2026, 1_000_000, &["0123456789abcdef", "fedcba9876543210"]);
        assert_eq!(
            f.0,
            format!(
                "seed 2026, 1,000,000 trials, rules 01234567/fedcba98, Wilson 95% intervals (Clopper-Pearson on small counts), combat-odds {}",
                env!("CARGO_PKG_VERSION")
            )
        );
    }
}
