//! The charts a study's results directory gets beside its frames, drawn from
//! `summary.json`'s counts alone, so `merge` draws exactly what one machine would have.

use std::path::{Path, PathBuf};

use super::{Footer, Point, bars_with_intervals, histogram, stacked_outcomes};
use crate::error::Result;
use crate::export::CONFIDENCE;
use crate::export::study::{MeasureCounts, Summary};
use crate::stats::interval;

/// Writes the charts of `summary` into `dir` as PNG and SVG and returns their paths.
/// An engagement gets `winner` (each outcome with its 95% interval), `turns` (a
/// histogram of the turn of the decision, `undecided` included) and `survivors` (one
/// stacked bar per unit entry, segments by the number left); any other study gets
/// `outcomes`, the first measure as one stacked bar. The footer names the ruleset,
/// seed, trials (and shard), never the wall time, so equal counts draw equal files.
pub fn study_charts(dir: &Path, summary: &Summary) -> Result<Vec<PathBuf>> {
    let n = summary.trials;
    if n == 0 {
        return Ok(Vec::new());
    }
    let mut footer = Footer::new(summary.seed, n, &[&summary.rules_hash]);
    footer.0 = match summary.shard {
        Some(shard) => format!("{}, shard {shard}: {}", summary.ruleset, footer.0),
        None => format!("{}: {}", summary.ruleset, footer.0),
    };
    let scenario = &summary.scenario;
    let share = |m: &MeasureCounts| -> Vec<(String, f64)> {
        m.outcomes.iter().zip(&m.counts).map(|(o, &c)| (o.clone(), c as f64 / n as f64)).collect()
    };
    let named = |name: &str| summary.measures.iter().find(|m| m.name == name);
    let survivors: Vec<&MeasureCounts> = summary.measures.iter().filter(|m| m.name.starts_with("survivors_")).collect();

    let mut written = Vec::new();
    if let Some(winner) = named("winner") {
        let bars: Vec<(String, Point)> = winner
            .outcomes
            .iter()
            .zip(&winner.counts)
            .enumerate()
            .map(|(k, (o, &c))| {
                let e = interval(c, n, CONFIDENCE);
                (o.clone(), Point { x: k as f64, p: e.estimate, low: e.low, high: e.high })
            })
            .collect();
        let title = format!("Who wins: {scenario}");
        written.extend(bars_with_intervals(&dir.join("winner"), &title, "probability", &bars, &footer)?);
    }
    if let Some(turns) = named("turns") {
        let title = format!("Turn of the decision: {scenario}");
        let x_label = "game turn when one side won or broke (undecided: the turn limit came first)";
        written.extend(histogram(&dir.join("turns"), &title, x_label, &share(turns), &footer)?);
    }
    if !survivors.is_empty() {
        let bars: Vec<(String, Vec<(String, f64)>)> = survivors
            .iter()
            .map(|m| {
                let entry = m.name.trim_start_matches("survivors_").replace('_', " ");
                (entry, share(m).into_iter().map(|(o, p)| (format!("{o} left"), p)).collect())
            })
            .collect();
        let title = format!("Units left at the end: {scenario}");
        written.extend(stacked_outcomes(&dir.join("survivors"), &title, &bars, &footer)?);
    }
    if written.is_empty()
        && let Some(first) = summary.measures.first()
    {
        let title = format!("{}: {scenario}", first.name.replace('_', " "));
        let bars = vec![(first.name.replace('_', " "), share(first))];
        written.extend(stacked_outcomes(&dir.join("outcomes"), &title, &bars, &footer)?);
    }
    Ok(written)
}
