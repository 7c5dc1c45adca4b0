//! A comparison's answers as Polars frames (CSV and Parquet), printed tables and
//! charts.

use std::path::Path;

use polars::prelude::*;

use super::{Answer, Compared, Odds};
use crate::charts::{self, Footer, Panel, Point, Series};
use crate::error::{Error, Result};
use combat_odds_core::run::Run;

use crate::export::{invented_line, write_frame, write_whole};

/// Adds `point` to the series `label` in the panel `ruleset`, making either as needed,
/// in the order they first come.
fn add(panels: &mut Vec<Panel>, ruleset: &str, label: &str, point: Point) {
    if !panels.iter().any(|p| p.title == ruleset) {
        panels.push(Panel { title: ruleset.to_string(), series: Vec::new() });
    }
    let Some(panel) = panels.iter_mut().find(|p| p.title == ruleset) else { return };
    match panel.series.iter_mut().find(|s| s.label == label) {
        Some(s) => s.points.push(point),
        None => panel.series.push(Series { label: label.to_string(), points: vec![point] }),
    }
}

/// Each series' first point as a bar named "label (ruleset)", for fire without a range.
fn as_bars(panels: Vec<Panel>) -> Vec<(String, Point)> {
    panels
        .into_iter()
        .flat_map(|p| {
            let ruleset = p.title;
            p.series.into_iter().filter_map(move |s| Some((format!("{} ({ruleset})", s.label), *s.points.first()?)))
        })
        .collect()
}

fn text_column(name: &str, values: Vec<String>) -> Column {
    Column::new(name.into(), values)
}

fn float_column(name: &str, values: Vec<Option<f64>>) -> Column {
    Column::new(name.into(), values)
}

impl Compared {
    /// One row per (ruleset, weapon, range): kill probability over one turn's fire and
    /// for one shot, with intervals and exact values, or why there is none.
    pub fn frame(&self) -> PolarsResult<DataFrame> {
        let c = &self.comparison;
        let rows = &self.cells;
        let odds = |f: &dyn Fn(&Odds) -> Option<f64>, shot: bool| -> Vec<Option<f64>> {
            rows.iter()
                .map(|cell| match &cell.answer {
                    Answer::Odds { turn, shot: s, .. } => {
                        if shot {
                            s.as_ref().and_then(f)
                        } else {
                            f(turn)
                        }
                    }
                    Answer::OutOfRange(_) | Answer::None(_) => None,
                })
                .collect()
        };
        let each = |f: &dyn Fn(&super::Cell) -> String| rows.iter().map(f).collect::<Vec<_>>();
        DataFrame::new_infer_height(vec![
            text_column("ruleset", each(&|r| r.ruleset.clone())),
            text_column("weapon", each(&|r| r.weapon.clone())),
            text_column("target", each(&|_| c.target.clone())),
            text_column("situation", each(&|_| c.situation.clone().unwrap_or_default())),
            text_column("quality", each(&|_| c.quality.clone().unwrap_or_default())),
            float_column("range_m", rows.iter().map(|r| r.range_m).collect()),
            text_column(
                "table_range",
                each(&|r| match &r.answer {
                    Answer::Odds { table_range, .. } => table_range.clone().unwrap_or_default(),
                    Answer::OutOfRange(_) | Answer::None(_) => String::new(),
                }),
            ),
            float_column("p_kill_turn", odds(&|o| Some(o.estimate), false)),
            float_column("turn_ci_low", odds(&|o| Some(o.ci_low), false)),
            float_column("turn_ci_high", odds(&|o| Some(o.ci_high), false)),
            float_column("turn_exact", odds(&|o| o.exact, false)),
            float_column("p_kill_shot", odds(&|o| Some(o.estimate), true)),
            float_column("shot_ci_low", odds(&|o| Some(o.ci_low), true)),
            float_column("shot_ci_high", odds(&|o| Some(o.ci_high), true)),
            float_column("shot_exact", odds(&|o| o.exact, true)),
            Column::new(
                "out_of_range".into(),
                rows.iter().map(|r| matches!(r.answer, Answer::OutOfRange(_))).collect::<Vec<bool>>(),
            ),
            text_column(
                "equivalent_or_why_not",
                each(&|r| match &r.answer {
                    Answer::Odds { equivalent, .. } => equivalent.clone(),
                    Answer::OutOfRange(why) | Answer::None(why) => why.clone(),
                }),
            ),
        ])
    }

    /// One row per paired difference: the estimate with its common-random-numbers
    /// interval, the interval independent runs would have had, and the exact value.
    pub(crate) fn differences_frame(&self) -> PolarsResult<DataFrame> {
        let d = &self.differences;
        let f = |g: &dyn Fn(&super::Difference) -> f64| d.iter().map(|x| Some(g(x))).collect::<Vec<_>>();
        DataFrame::new_infer_height(vec![
            text_column("ruleset", d.iter().map(|x| x.ruleset.clone()).collect()),
            text_column("weapon", d.iter().map(|x| x.weapon.clone()).collect()),
            text_column("against", d.iter().map(|x| x.against.clone()).collect()),
            float_column("range_m", d.iter().map(|x| x.range_m).collect()),
            float_column("difference", f(&|x| x.common.estimate)),
            float_column("crn_ci_low", f(&|x| x.common.low)),
            float_column("crn_ci_high", f(&|x| x.common.high)),
            float_column("independent_ci_low", f(&|x| x.independent.low)),
            float_column("independent_ci_high", f(&|x| x.independent.high)),
            float_column("exact", d.iter().map(|x| x.exact).collect()),
        ])
    }

    /// The Parquet frames' key-value metadata: seed, trials, each ruleset's rules hash
    /// and the version.
    fn metadata(&self) -> Vec<(String, String)> {
        let mut kv = vec![
            ("combat_odds.comparison".to_string(), self.comparison.name.clone()),
            ("combat_odds.seed".to_string(), self.monte_carlo.seed.to_string()),
            ("combat_odds.trials".to_string(), self.monte_carlo.trials.to_string()),
            ("combat_odds.version".to_string(), env!("CARGO_PKG_VERSION").to_string()),
        ];
        kv.extend(self.rules_hashes.iter().map(|(r, h)| (format!("combat_odds.rules_hash.{r}"), h.clone())));
        kv.extend(invented_line(&self.invented).map(|line| ("combat_odds.invented".to_string(), line)));
        kv
    }

    fn footer(&self) -> Footer {
        let hashes: Vec<&str> = self.rules_hashes.iter().map(|(_, h)| h.as_str()).collect();
        Footer::new(self.monte_carlo.seed, self.monte_carlo.trials, &hashes).invented(!self.invented.is_empty())
    }

    /// The kill probability of one turn's fire, one series per (ruleset, weapon):
    /// against range where the comparison has ranges (a panel per ruleset, drawn as
    /// steps, see [`charts::probability_vs_range`]), as bars where it has none.
    fn chart(&self, dir: &Path) -> Result<()> {
        let c = &self.comparison;
        let mut panels: Vec<Panel> = Vec::new();
        for cell in &self.cells {
            let Answer::Odds { turn, .. } = &cell.answer else { continue };
            let x = cell.range_m.unwrap_or(0.0);
            // An exact value has no band; an estimate carries its interval.
            let point = match turn.exact {
                Some(p) => Point { x, p, low: p, high: p },
                None => Point { x, p: turn.estimate, low: turn.ci_low, high: turn.ci_high },
            };
            add(&mut panels, &cell.ruleset, &cell.weapon, point);
        }
        if panels.is_empty() {
            // Nothing any ruleset could answer: the frame says why, and there is no chart.
            return Ok(());
        }
        let title = format!("{}: P(kill) in one turn's fire vs {}", c.name, c.target);
        if c.ranges_m.is_empty() {
            let bars = as_bars(panels);
            charts::bars_with_intervals(&dir.join("p_kill"), &title, "P(kill) in one turn", &bars, &self.footer())?;
        } else {
            charts::probability_vs_range(&dir.join("p_kill_vs_range"), &title, "range (m)", &panels, &self.footer())?;
        }
        Ok(())
    }

    /// The paired differences (each weapon's kill probability minus the first
    /// weapon's, `differences.csv`'s rows), one series per (ruleset, weapon): against
    /// range as `differences_vs_range` beside `p_kill_vs_range`, or as bars in
    /// `differences` where the comparison has no ranges. Exact where both weapons are
    /// exact (no interval), else the common-random-numbers estimate and its interval,
    /// kept within -1..1 where a difference of probabilities lies.
    fn differences_chart(&self, dir: &Path) -> Result<()> {
        let c = &self.comparison;
        let mut panels: Vec<Panel> = Vec::new();
        for d in &self.differences {
            let x = d.range_m.unwrap_or(0.0);
            let point = match d.exact {
                Some(p) => Point { x, p, low: p, high: p },
                None => {
                    let e = &d.common;
                    Point { x, p: e.estimate, low: e.low.max(-1.0), high: e.high.min(1.0) }
                }
            };
            add(&mut panels, &d.ruleset, &format!("{} minus {}", d.weapon, d.against), point);
        }
        if panels.is_empty() {
            return Ok(());
        }
        let first = self.differences.first().map_or("the first weapon", |d| d.against.as_str());
        let title = format!("{}: each weapon's P(kill) minus {first}'s vs {}", c.name, c.target);
        let y_label = format!("P(kill) minus {first}'s (percentage points)");
        if c.ranges_m.is_empty() {
            let bars = as_bars(panels);
            charts::difference_bars(&dir.join("differences"), &title, &y_label, &bars, &self.footer())?;
        } else {
            let stem = dir.join("differences_vs_range");
            charts::difference_vs_range(&stem, &title, "range (m)", &y_label, &panels, &self.footer())?;
        }
        Ok(())
    }

    /// Writes the frames (`compare`, and `differences` where weapons were paired) as
    /// CSV and Parquet, and their charts, into `dir`, whole or not at all. Returns the
    /// names of the files written.
    pub fn write(&self, dir: &Path, force: bool, run: &Run) -> Result<Vec<String>> {
        let polars = Error::frame("the comparison frame");
        write_whole(dir, force, run, |tmp| {
            write_frame(tmp, "compare", &mut self.frame().map_err(polars)?, (&self.metadata(), run))?;
            if !self.differences.is_empty() {
                write_frame(
                    tmp,
                    "differences",
                    &mut self.differences_frame().map_err(polars)?,
                    (&self.metadata(), run),
                )?;
            }
            self.chart(tmp)?;
            self.differences_chart(tmp)
        })
    }

    /// The tables as printed.
    pub fn text(&self) -> Result<String> {
        let polars = Error::frame("the comparison frame");
        let c = &self.comparison;
        let mut s = format!(
            "{}: {} vs {}{}{}\n{} trials a cell, seed {}; exact where the ruleset's engine reaches\n\n",
            c.name,
            c.weapons.join(", "),
            c.target,
            c.situation.as_ref().map_or(String::new(), |s| format!(" ({s})")),
            c.quality.as_ref().map_or(String::new(), |q| format!(", {q} firer")),
            self.monte_carlo.trials,
            self.monte_carlo.seed,
        );
        let frame = self.frame().map_err(polars)?;
        // Rows no ruleset could answer are said once each below, not printed empty.
        let shown = frame
            .filter(&frame.column("p_kill_turn").map_err(polars)?.is_not_null())
            .and_then(|f| {
                f.select(["ruleset", "weapon", "range_m", "table_range", "p_kill_turn", "turn_exact", "p_kill_shot"])
            })
            .map_err(polars)?;
        s += &format!("{shown}\n");
        for (ruleset, why) in &self.left_out {
            s += &format!("{ruleset} is left out: {why}\n");
        }
        let mut said: Vec<String> = Vec::new();
        for cell in &self.cells {
            let line = match &cell.answer {
                Answer::Odds { .. } => continue,
                Answer::OutOfRange(why) => format!(
                    "{} / {}: out of range{} ({why})\n",
                    cell.ruleset,
                    cell.weapon,
                    cell.range_m.map_or(String::new(), |m| format!(" at {m} m"))
                ),
                Answer::None(why) => format!("{} / {}: {why}\n", cell.ruleset, cell.weapon),
            };
            if !said.contains(&line) {
                s += &line;
                said.push(line);
            }
        }
        if !self.differences.is_empty() {
            let d = self.differences_frame().map_err(polars)?;
            s += &format!("\nPaired differences (common random numbers vs independent runs):\n{d}\n");
        }
        if let Some(line) = invented_line(&self.invented) {
            s += &format!("\n{line}\n");
        }
        Ok(s)
    }
}
