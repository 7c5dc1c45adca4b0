//! The gate's diff table: every row in the CSV, the moved ones printed.

use polars::prelude::*;

use super::Diff;

/// One row per baseline row: scenario, measure, outcome, old, new, change, p-value
/// (Monte Carlo rows), verdict.
pub fn diff_frame(diffs: &[Diff]) -> PolarsResult<DataFrame> {
    let text = |f: &dyn Fn(&Diff) -> String| diffs.iter().map(f).collect::<Vec<_>>();
    let number = |f: &dyn Fn(&Diff) -> f64| diffs.iter().map(f).collect::<Vec<_>>();
    DataFrame::new_infer_height(vec![
        Column::new("scenario".into(), text(&|d| d.old.scenario.clone())),
        Column::new("measure".into(), text(&|d| d.old.measure.clone())),
        Column::new("outcome".into(), text(&|d| d.old.outcome.clone())),
        Column::new("old".into(), number(&|d| d.old_value())),
        Column::new("new".into(), number(&|d| d.new_value())),
        Column::new("change".into(), number(&|d| d.new_value() - d.old_value())),
        Column::new("p_value".into(), diffs.iter().map(|d| d.p_value).collect::<Vec<_>>()),
        Column::new("verdict".into(), text(&|d| d.verdict.name().to_string())),
    ])
}

/// What the gate prints: a line of counts, then the moved rows as a table.
pub fn diff_text(diffs: &[Diff], alpha: f64) -> PolarsResult<String> {
    let moved: Vec<Diff> = diffs.iter().filter(|d| d.verdict.moved()).cloned().collect();
    let exact = diffs.iter().filter(|d| d.p_value.is_none()).count();
    let mut s = format!(
        "{} rows: {exact} compared exactly, {} by two-sample tests at family-wise alpha {alpha} (Bonferroni); {} moved\n",
        diffs.len(),
        diffs.len() - exact,
        moved.len()
    );
    if !moved.is_empty() {
        s += &format!("{}\n", diff_frame(&moved)?);
    }
    Ok(s)
}
