//! Polars frames: the one tabular form of reports and table listings.

use polars::prelude::*;

use super::Row;
use combat_odds_rules::Ruleset;
use combat_odds_rules::ruleset::{ModifierInfo, TableView};

/// Sets polars' printing so that tables show in full, without dtype rows or shapes.
/// Call before any thread starts: it sets process environment variables.
pub fn configure_printing() {
    for (key, value) in [
        ("POLARS_FMT_MAX_ROWS", "-1"),
        ("POLARS_FMT_MAX_COLS", "-1"),
        ("POLARS_FMT_STR_LEN", "120"),
        ("POLARS_TABLE_WIDTH", "250"),
        ("POLARS_FMT_TABLE_HIDE_COLUMN_DATA_TYPES", "1"),
        ("POLARS_FMT_TABLE_HIDE_DATAFRAME_SHAPE_INFORMATION", "1"),
        ("POLARS_FMT_TABLE_FORMATTING", "ASCII_MARKDOWN"),
    ] {
        if std::env::var_os(key).is_none() {
            // SAFETY: called from main before any other thread exists, so nothing reads
            // the environment concurrently.
            unsafe { std::env::set_var(key, value) };
        }
    }
}

pub(crate) fn frame(columns: Vec<Column>) -> PolarsResult<DataFrame> {
    DataFrame::new_infer_height(columns)
}

/// One measure's rows.
pub(crate) fn rows_frame(rows: &[Row]) -> PolarsResult<DataFrame> {
    frame(vec![
        Column::new("outcome".into(), rows.iter().map(|r| r.outcome.clone()).collect::<Vec<_>>()),
        Column::new("exact".into(), rows.iter().map(|r| r.exact).collect::<Vec<_>>()),
        Column::new("exact_fraction".into(), rows.iter().map(|r| r.exact_fraction.clone()).collect::<Vec<_>>()),
        Column::new("estimate".into(), rows.iter().map(|r| r.estimate).collect::<Vec<_>>()),
        Column::new("ci_low".into(), rows.iter().map(|r| r.ci_low).collect::<Vec<_>>()),
        Column::new("ci_high".into(), rows.iter().map(|r| r.ci_high).collect::<Vec<_>>()),
        Column::new("count".into(), rows.iter().map(|r| r.count).collect::<Vec<_>>()),
    ])
}

/// A table listing.
pub fn table_frame(view: &TableView) -> PolarsResult<DataFrame> {
    frame(view.columns.iter().map(|(name, cells)| Column::new(name.as_str().into(), cells)).collect())
}

/// The modifier listing.
pub fn modifiers_frame(infos: &[ModifierInfo]) -> PolarsResult<DataFrame> {
    let col = |name: &str, f: &dyn Fn(&ModifierInfo) -> &str| {
        Column::new(name.into(), infos.iter().map(|m| f(m).to_string()).collect::<Vec<_>>())
    };
    frame(vec![
        col("chart", &|m| &m.chart),
        col("name", &|m| &m.name),
        col("value", &|m| &m.value),
        col("label", &|m| &m.label),
        col("applied", &|m| &m.applied),
        col("source", &|m| &m.source),
    ])
}

/// One column of a listing the report layer has no type for: text or numbers.
pub enum Cells {
    /// Text cells.
    Text(Vec<String>),
    /// Numeric cells.
    Numbers(Vec<f64>),
}

/// A frame of named columns, for listings built elsewhere (a ruleset's own answers).
pub fn columns_frame(columns: Vec<(&str, Cells)>) -> PolarsResult<DataFrame> {
    frame(
        columns
            .into_iter()
            .map(|(name, cells)| match cells {
                Cells::Text(v) => Column::new(name.into(), v),
                Cells::Numbers(v) => Column::new(name.into(), v),
            })
            .collect(),
    )
}

/// Every table of `ruleset` as one JSON object: the ruleset, its rules hash, and per
/// table its file, source and rows as objects keyed by column.
pub fn tables_json(ruleset: &dyn Ruleset) -> serde_json::Value {
    let tables: Vec<serde_json::Value> = ruleset
        .listing()
        .iter()
        .map(|view| {
            let height = view.columns.first().map_or(0, |(_, cells)| cells.len());
            let rows: Vec<serde_json::Map<String, serde_json::Value>> = (0..height)
                .map(|i| view.columns.iter().map(|(name, cells)| (name.clone(), cells[i].clone().into())).collect())
                .collect();
            serde_json::json!({
                "file": view.file,
                "seed": view.source.seed,
                "seed_title": combat_odds_core::tables::seed_title(&view.source.seed),
                "table": view.source.table,
                "rules": view.source.rules,
                "invented": view.source.invented,
                "rows": rows,
            })
        })
        .collect();
    serde_json::json!({
        "ruleset": ruleset.name(),
        "rules_hash": combat_odds_core::tables::rules_hash(ruleset.files()),
        "tables": tables,
    })
}

/// A frame as CSV text.
pub fn csv(frame: &mut DataFrame) -> PolarsResult<String> {
    let mut out = Vec::new();
    CsvWriter::new(&mut out).include_header(true).finish(frame)?;
    Ok(String::from_utf8(out).expect("CSV of UTF-8 strings is UTF-8"))
}
