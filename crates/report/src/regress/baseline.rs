//! The baseline on disk: `baseline.csv` for people and diffs in review, and
//! `baseline.parquet` beside it, which the check reads back.

use std::path::{Path, PathBuf};

use polars::prelude::*;

use super::Row;
use crate::error::{Error, Result};
use combat_odds_core::run::Run;

use crate::export::directory::{frame_bytes, write_file_whole};
use combat_odds_core::user_file::{self, Limit};

/// Version of the baseline's columns; a baseline of another format is refused.
pub const FORMAT: u32 = 1;

fn frame(rows: &[Row]) -> PolarsResult<DataFrame> {
    let text = |f: &dyn Fn(&Row) -> String| rows.iter().map(f).collect::<Vec<_>>();
    let estimates: Vec<_> = rows.iter().map(Row::estimate).collect();
    DataFrame::new_infer_height(vec![
        Column::new("format".into(), vec![FORMAT; rows.len()]),
        Column::new("scenario".into(), text(&|r| r.scenario.clone())),
        Column::new("ruleset".into(), text(&|r| r.ruleset.clone())),
        Column::new("rules_hash".into(), text(&|r| r.rules_hash.clone())),
        Column::new("measure".into(), text(&|r| r.measure.clone())),
        Column::new("outcome".into(), text(&|r| r.outcome.clone())),
        Column::new("exact".into(), rows.iter().map(|r| r.exact.clone()).collect::<Vec<_>>()),
        Column::new("exact_value".into(), rows.iter().map(Row::exact_value).collect::<Vec<_>>()),
        Column::new("estimate".into(), estimates.iter().map(|e| e.estimate).collect::<Vec<_>>()),
        Column::new("ci_low".into(), estimates.iter().map(|e| e.low).collect::<Vec<_>>()),
        Column::new("ci_high".into(), estimates.iter().map(|e| e.high).collect::<Vec<_>>()),
        Column::new("count".into(), rows.iter().map(|r| r.count).collect::<Vec<_>>()),
        Column::new("trials".into(), rows.iter().map(|r| r.trials).collect::<Vec<_>>()),
        Column::new("seed".into(), rows.iter().map(|r| r.seed).collect::<Vec<_>>()),
    ])
}

/// The Parquet file beside a baseline's CSV.
fn parquet_of(csv: &Path) -> PathBuf {
    csv.with_extension("parquet")
}

/// Writes `rows` to `csv` and the Parquet beside it, each whole or not at all
/// (see [`write_file_whole`]).
pub fn write_baseline(csv: &Path, rows: &[Row], run: &Run) -> Result<()> {
    let polars = Error::frame("the baseline frame");
    let (text, parquet) = frame_bytes(&mut frame(rows).map_err(polars)?, &[]).map_err(polars)?;
    write_file_whole(&parquet_of(csv), true, &parquet, run)?;
    write_file_whole(csv, true, &text, run)
}

/// How large a baseline's Parquet may be: a row per reference outcome, tens of KB.
const BASELINE_LIMIT: Limit = Limit { bytes: 64 << 20, what: "a regression baseline" };

/// Reads a baseline back (from its Parquet), refusing one of another format.
pub fn read_baseline(csv: &Path) -> Result<Vec<Row>> {
    let parquet = parquet_of(csv);
    let name = parquet.display().to_string();
    let bytes = user_file::read(&parquet, BASELINE_LIMIT).map_err(|e| match e {
        combat_odds_core::Error::Io { source, .. } => {
            Error::Baseline { file: name.clone(), problem: format!("no baseline to check against ({source})") }
        }
        refused => refused.into(),
    })?;
    let bad = |what: String| Error::Baseline {
        file: name.clone(),
        problem: format!("{what}; it is not a baseline this version writes"),
    };
    let df = ParquetReader::new(std::io::Cursor::new(bytes)).finish().map_err(|e| bad(format!("unreadable ({e})")))?;
    let column =
        |n: &str| df.column(n).map(|c| c.as_materialized_series().clone()).map_err(|_| bad(format!("no `{n}` column")));
    let texts = |n: &str| -> Result<Vec<Option<String>>> {
        let s = column(n)?;
        let s = s.str().map_err(|_| bad(format!("`{n}` is not text")))?;
        Ok((0..s.len()).map(|i| s.get(i).map(str::to_string)).collect())
    };
    let numbers = |n: &str| -> Result<Vec<u64>> {
        let s = column(n)?.cast(&DataType::UInt64).map_err(|_| bad(format!("`{n}` is not a number")))?;
        let s = s.u64().map_err(|_| bad(format!("`{n}` is not a number")))?;
        (0..s.len()).map(|i| s.get(i).ok_or_else(|| bad(format!("`{n}` has an empty cell")))).collect()
    };
    let formats = numbers("format")?;
    if let Some(f) = formats.iter().find(|&&f| f != u64::from(FORMAT)) {
        return Err(bad(format!("format {f}, not {FORMAT}")));
    }
    let required = |n: &str| -> Result<Vec<String>> {
        texts(n)?.into_iter().map(|v| v.ok_or_else(|| bad(format!("`{n}` has an empty cell")))).collect()
    };
    let (scenario, ruleset, rules_hash) = (required("scenario")?, required("ruleset")?, required("rules_hash")?);
    let (measure, outcome, exact) = (required("measure")?, required("outcome")?, texts("exact")?);
    let (count, trials, seed) = (numbers("count")?, numbers("trials")?, numbers("seed")?);
    Ok((0..df.height())
        .map(|i| Row {
            scenario: scenario[i].clone(),
            ruleset: ruleset[i].clone(),
            rules_hash: rules_hash[i].clone(),
            measure: measure[i].clone(),
            outcome: outcome[i].clone(),
            exact: exact[i].clone(),
            count: count[i],
            trials: trials[i],
            seed: seed[i],
        })
        .collect())
}
