//! The sensitivity result: one schema, printed as a ranked table, one JSON object, or
//! CSV (one row per change that moves `p_kill`), the tabular forms through one frame.

#[cfg(feature = "files")]
use polars::prelude::*;
use serde::Serialize;

use super::Moved;
use super::changes::Change;
#[cfg(feature = "files")]
use crate::export::{Rendered, frames};
use combat_odds_core::dice::Ratio;
use combat_odds_core::stats::Estimate;
use combat_odds_core::tables::Source;

/// The unchanged scenario's `p_kill`.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Baseline {
    /// The probability (exact where known, else the estimate).
    pub value: f64,
    /// "exact" or "estimate".
    pub method: String,
    /// The exact fraction, where known.
    pub exact_fraction: Option<String>,
    /// Wilson 95% interval of an estimate.
    pub ci_low: Option<f64>,
    /// Upper bound.
    pub ci_high: Option<f64>,
}

impl Baseline {
    pub(super) fn exact(p: &Ratio) -> Self {
        Baseline {
            value: p.to_f64(),
            method: "exact".into(),
            exact_fraction: Some(p.to_string()),
            ci_low: None,
            ci_high: None,
        }
    }

    pub(super) fn estimate(e: Estimate) -> Self {
        Baseline {
            value: e.estimate,
            method: "estimate".into(),
            exact_fraction: None,
            ci_low: Some(e.low),
            ci_high: Some(e.high),
        }
    }
}

/// One change that moves `p_kill`.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Row {
    /// 1 for the change that moves `p_kill` most.
    pub rank: usize,
    /// The table file changed (or the scenario file, for a dropped modifier).
    pub file: String,
    /// Where in it: `row[regular].eliminated`, `modifier[veteran_elite].value`.
    pub cell: String,
    /// `value`, `boundary` (two bands' shared edge) or `drop_modifier`.
    pub kind: String,
    /// The cell as it is.
    pub now: String,
    /// The cell changed.
    pub changed: String,
    /// `p_kill` unchanged.
    pub p_kill_before: f64,
    /// `p_kill` with the change.
    pub p_kill_after: f64,
    /// after - before.
    pub delta: f64,
    /// "exact", or "estimate" (Monte Carlo paired on common random numbers).
    pub method: String,
    /// 95% interval of the difference, for an estimate.
    pub delta_ci_low: Option<f64>,
    /// Upper bound.
    pub delta_ci_high: Option<f64>,
    /// `p_kill` unchanged as an exact fraction.
    pub exact_before: Option<String>,
    /// `p_kill` with the change as an exact fraction.
    pub exact_after: Option<String>,
    /// The seed file the table was transcribed from (its `[source]`).
    pub source_seed: Option<String>,
    /// The table's title in the seed file.
    pub source_table: Option<String>,
    /// The seed file's title, as a player knows the source.
    pub source_title: Option<String>,
}

impl Row {
    pub(super) fn new(file: String, source: Option<Source>, c: &Change, baseline: &Baseline, moved: Moved) -> Self {
        let exact = moved.exact_after.is_some();
        Row {
            rank: 0,
            file,
            cell: c.cell.clone(),
            kind: c.kind.name().to_string(),
            now: c.now.clone(),
            changed: c.changed.clone(),
            p_kill_before: baseline.value,
            p_kill_after: moved.after,
            delta: moved.delta,
            method: if exact { "exact" } else { "estimate" }.into(),
            delta_ci_low: moved.interval.map(|(low, _)| low),
            delta_ci_high: moved.interval.map(|(_, high)| high),
            exact_before: baseline.exact_fraction.clone().filter(|_| exact),
            exact_after: moved.exact_after,
            source_seed: source.as_ref().map(|s| s.seed.clone()),
            source_title: source.as_ref().map(|s| combat_odds_core::tables::seed_title(&s.seed).to_string()),
            source_table: source.map(|s| s.table),
        }
    }
}

/// A change the loader or the scenario compiler refused.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Refusal {
    /// The file changed.
    pub file: String,
    /// Where in it.
    pub cell: String,
    /// The cell as it is.
    pub now: String,
    /// The change refused.
    pub changed: String,
    /// The loader's or compiler's message.
    pub reason: String,
}

/// Which one-step changes move a scenario's `p_kill`, and by how much.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Sensitivity {
    /// Ruleset name.
    pub ruleset: String,
    /// Scenario name.
    pub scenario: String,
    /// Scenario kind.
    pub kind: String,
    /// What counts as the kill: `measure = outcome`.
    pub kill: String,
    /// Hash of the unchanged table files.
    pub rules_hash: String,
    /// The unchanged `p_kill`.
    pub p_kill: Baseline,
    /// Table files walked.
    pub table_files: usize,
    /// Modifiers the scenario names (each dropped once).
    pub named_modifiers: usize,
    /// One-step changes tried.
    pub changes: usize,
    /// Changes that move `p_kill`.
    pub moving: usize,
    /// Changes that leave it as it is.
    pub not_moving: usize,
    /// Changes the loader or the scenario compiler refused.
    pub refused: usize,
    /// The most rows kept.
    pub top: usize,
    /// Monte Carlo trials per change, where any answer is an estimate.
    pub trials: Option<u64>,
    /// Trials a change runs first, where any answer is an estimate: one that alters none
    /// of them counts as not moving `p_kill`.
    pub pilot_trials: Option<u64>,
    /// Master seed, where any answer is an estimate.
    pub seed: Option<u64>,
    /// The changes that move `p_kill` most, largest first.
    pub rows: Vec<Row>,
    /// Every refused change and why.
    pub refusals: Vec<Refusal>,
    /// combat-odds version.
    pub version: String,
}

/// The rows as one frame: every field, numbers as numbers.
#[cfg(feature = "files")]
pub(crate) fn rows_frame(rows: &[Row]) -> PolarsResult<DataFrame> {
    let text =
        |name: &str, f: &dyn Fn(&Row) -> String| Column::new(name.into(), rows.iter().map(f).collect::<Vec<_>>());
    let number = |name: &str, f: &dyn Fn(&Row) -> f64| Column::new(name.into(), rows.iter().map(f).collect::<Vec<_>>());
    let maybe =
        |name: &str, f: &dyn Fn(&Row) -> Option<f64>| Column::new(name.into(), rows.iter().map(f).collect::<Vec<_>>());
    let maybe_text = |name: &str, f: &dyn Fn(&Row) -> Option<String>| {
        Column::new(name.into(), rows.iter().map(f).collect::<Vec<_>>())
    };
    DataFrame::new_infer_height(vec![
        Column::new("rank".into(), rows.iter().map(|r| r.rank as u64).collect::<Vec<_>>()),
        text("file", &|r| r.file.clone()),
        text("cell", &|r| r.cell.clone()),
        text("kind", &|r| r.kind.clone()),
        text("now", &|r| r.now.clone()),
        text("changed", &|r| r.changed.clone()),
        number("p_kill_before", &|r| r.p_kill_before),
        number("p_kill_after", &|r| r.p_kill_after),
        number("delta", &|r| r.delta),
        text("method", &|r| r.method.clone()),
        maybe("delta_ci_low", &|r| r.delta_ci_low),
        maybe("delta_ci_high", &|r| r.delta_ci_high),
        maybe_text("exact_before", &|r| r.exact_before.clone()),
        maybe_text("exact_after", &|r| r.exact_after.clone()),
        maybe_text("source_seed", &|r| r.source_seed.clone()),
        maybe_text("source_table", &|r| r.source_table.clone()),
    ])
}

/// The frame as printed: the same rows, the numbers written out.
#[cfg(feature = "files")]
fn printed_frame(rows: &[Row]) -> PolarsResult<DataFrame> {
    let col = |name: &str, f: &dyn Fn(&Row) -> String| Column::new(name.into(), rows.iter().map(f).collect::<Vec<_>>());
    DataFrame::new_infer_height(vec![
        Column::new("#".into(), rows.iter().map(|r| r.rank as u64).collect::<Vec<_>>()),
        col("file", &|r| r.file.clone()),
        col("cell", &|r| r.cell.clone()),
        col("change", &|r| format!("{} -> {}", r.now, r.changed)),
        col("p_kill", &|r| format!("{:.6} -> {:.6}", r.p_kill_before, r.p_kill_after)),
        col("delta", &|r| format!("{:+.6}", r.delta)),
        col("how", &|r| match (r.delta_ci_low, r.delta_ci_high) {
            (Some(low), Some(high)) => format!("estimate [{low:+.6}, {high:+.6}]"),
            _ => r.method.clone(),
        }),
        col("source", &|r| match (&r.source_seed, &r.source_table) {
            (Some(seed), Some(table)) => format!("{seed}, \"{table}\""),
            _ => "scenario".into(),
        }),
    ])
}

#[cfg(feature = "files")]
impl Rendered for Sensitivity {
    fn to_table(&self) -> String {
        let p = &self.p_kill;
        let now = match (&p.exact_fraction, p.ci_low, p.ci_high) {
            // A long fight's fraction runs to hundreds of digits: JSON and CSV keep it.
            (Some(f), ..) if f.len() <= 40 => format!("{:.6} exact ({f})", p.value),
            (Some(_), ..) => format!("{:.6} exact", p.value),
            (None, Some(low), Some(high)) => format!("{:.6} estimate [{low:.6}, {high:.6}]", p.value),
            _ => format!("{:.6}", p.value),
        };
        let mut s = format!(
            "Sensitivity of p_kill ({}) -- {} -- {} ({})\np_kill now: {now}\n",
            self.kill, self.scenario, self.ruleset, self.kind
        );
        s += &format!(
            "{} one-step changes ({} table files, {} named modifier(s) dropped): {} move p_kill, {} do not, {} refused by the loader or the scenario compiler\n",
            self.changes, self.table_files, self.named_modifiers, self.moving, self.not_moving, self.refused
        );
        match (self.trials, self.pilot_trials, self.seed) {
            (Some(trials), Some(pilot), Some(seed)) => {
                s += &format!(
                    "estimates: {trials} trials per change, seed {seed}, trial by trial beside the unchanged scenario on the same random numbers (a change that alters none of the first {pilot} trials counts as not moving); intervals of the difference: normal, 95%\n"
                )
            }
            (None, Some(pilot), _) => {
                s += &format!(
                    "screened: a change that alters none of the first {pilot} trials beside the unchanged scenario counts as not moving; every other is solved exactly\n"
                )
            }
            _ => {}
        }
        if self.rows.is_empty() {
            s += "\nno one-step change moves p_kill\n";
            return s;
        }
        s += &format!("\ntop {} by |delta|\n", self.rows.len());
        s += &printed_frame(&self.rows).map(|f| f.to_string()).unwrap_or_default();
        s += "\n";
        if self.moving > self.rows.len() {
            s += &format!(
                "{} more change(s) move p_kill; a top of {} lists them all\n",
                self.moving - self.rows.len(),
                self.moving
            );
        }
        s
    }

    /// One row per listed change, every field.
    fn to_csv(&self) -> String {
        rows_frame(&self.rows).and_then(|mut f| frames::csv(&mut f)).expect("a sensitivity frame always writes")
    }
}
