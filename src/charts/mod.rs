//! Charts of results, each written as a PNG and an SVG from one drawing: kill
//! probability against range with interval bands, stacked outcome bars, bars with
//! error bars, and histograms; and [`study_charts`], the charts `run` and `merge`
//! write beside a study's frames.
//!
//! Every chart carries its title, axis labels with units, a legend wherever colours
//! stand for something, and a footer naming the seed and trials, so it reads without
//! the text around it. Text is set in DejaVu Sans, embedded in the binary (plotters'
//! `ab_glyph` text), so no system font is needed and a chart's bytes depend only on
//! its inputs: two runs of one study write identical PNG and SVG files.
//!
//! Inputs are checked before anything is drawn: nothing to chart, or a probability
//! outside 0..1, is a one-line usage error, never a panic or an empty picture.

mod draw;
mod study;

pub use study::study_charts;

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
    /// Where along the x axis (ignored by [`bars_with_intervals`], whose bars stand in order).
    pub x: f64,
    /// The probability (or estimate), 0..1.
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
}

/// Kill probability (y, 0..1) against range (x, with the unit in `x_label`, e.g.
/// "range (m)"), one line per series with a translucent interval band, legend, title,
/// axis labels, footer. Writes `<stem>.png` and `<stem>.svg`; returns the paths.
pub fn probability_vs_range(
    stem: &Path,
    title: &str,
    x_label: &str,
    series: &[Series],
    footer: &Footer,
) -> Result<Vec<PathBuf>> {
    if series.is_empty() {
        return Err(nothing(title, "no series"));
    }
    for s in series {
        if s.points.is_empty() {
            return Err(nothing(title, &format!("series `{}` has no points", s.label)));
        }
        for p in &s.points {
            if !p.x.is_finite() {
                return Err(bad(title, &format!("series `{}` has a point at x = {}", s.label, p.x)));
            }
            check_point(title, &format!("series `{}` at x = {}", s.label, p.x), p)?;
        }
    }
    let chart = draw::Lines { title, x_label, series, footer };
    render(stem, &chart)
}

/// Stacked bars of outcome distributions: one bar per label (e.g. per ruleset or per
/// scenario), segments per outcome (consistent colours, legend), y = probability 0..1.
/// An outcome keeps one colour in every bar, in the order outcomes first appear.
pub fn stacked_outcomes(
    stem: &Path,
    title: &str,
    bars: &[(String, Vec<(String, f64)>)],
    footer: &Footer,
) -> Result<Vec<PathBuf>> {
    if bars.is_empty() {
        return Err(nothing(title, "no bars"));
    }
    for (label, segments) in bars {
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
    }
    render(stem, &draw::Stacked { title, bars, footer })
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
    render(stem, &draw::Bars { title, y_label, bars, footer })
}

/// A histogram (e.g. turns to decision): one bar per bin, in order, its height the
/// share of trials (0..1) in that bin. Bins whose label is not a number (`undecided`,
/// `none`) are drawn grey, apart from the numbered scale.
pub fn histogram(
    stem: &Path,
    title: &str,
    x_label: &str,
    bins: &[(String, f64)],
    footer: &Footer,
) -> Result<Vec<PathBuf>> {
    if bins.is_empty() {
        return Err(nothing(title, "no bins"));
    }
    for (label, p) in bins {
        check_probability(title, &format!("bin `{label}`"), *p)?;
    }
    render(stem, &draw::Histogram { title, x_label, bins, footer })
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
        std::fs::create_dir_all(parent).map_err(|source| Error::Io { path: parent.to_path_buf(), source })?;
    }
    let drawn = draw_both(chart, &png, &svg);
    if drawn.is_err() {
        let _ = std::fs::remove_file(&png);
        let _ = std::fs::remove_file(&svg);
    }
    drawn.map(|()| vec![png, svg])
}

fn draw_both(chart: &impl Chart, png: &Path, svg: &Path) -> Result<()> {
    let failed = |path: &Path, e: &dyn std::fmt::Display| Error::Io {
        path: path.to_path_buf(),
        source: std::io::Error::other(format!("cannot draw the chart: {e}")),
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
    std::fs::write(svg, text).map_err(|source| Error::Io { path: svg.to_path_buf(), source })
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
    Error::Usage(format!("nothing to chart: `{title}` has {what}"))
}

fn bad(title: &str, what: &str) -> Error {
    Error::Usage(format!("cannot chart `{title}`: {what}"))
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
pub fn thousands(n: u64) -> String {
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
