//! A sweep's results on disk: the long frame (`sweep.csv`, `sweep.parquet`) written a
//! row group at a time, the design's frame, `sweep.json` and the chart, and
//! `sweep.json` read back for `merge`.

use std::io::Write;
use std::path::Path;

use polars::prelude::*;
use toml::Value;

use super::{SweepResult, SweepSummary, charts, label, number};
use crate::error::{Error, Result};
use crate::export::{Row, directory};
use crate::study::StudyResult;
use combat_odds_core::run::Run;
use combat_odds_core::user_file::{self, Limit};

/// The sweep's long frame and the design's frame.
const FRAME: &str = "sweep";
const DESIGN: &str = "design";

/// The most rows of the long frame written at once: a Parquet row group, and what
/// memory holds of the frame while it is written.
const GROUP_ROWS: usize = 1 << 16;

/// Rows of the long frame waiting to be written: the points they come from, and one
/// line per outcome of each point's measures.
#[derive(Default)]
struct Lines {
    /// Each point's index and values.
    points: Vec<(usize, Vec<Value>)>,
    /// Each line's point (its place in `points`), trials, seed and measure.
    lines: Vec<(usize, u64, u64, String)>,
    /// Each line's outcome.
    rows: Vec<Row>,
}

impl SweepResult {
    /// Writes the long frame, one row per (point, measure, outcome): the point, each
    /// parameter, then the measure's columns as `run` writes them, then trials and seed,
    /// as `sweep.csv` and `sweep.parquet`. Points are read back from disk one at a time
    /// and written [`GROUP_ROWS`] rows at a time (a Parquet row group), so memory holds
    /// one group of the frame, never the whole (a frame of 6,000 points of a company's
    /// engagement took 250 MB).
    fn write_long_frame(&self, dir: &Path, metadata: &[(String, String)], run: &Run) -> Result<()> {
        let polars = Error::frame("a sweep frame");
        let (csv_path, parquet_path) = (dir.join(format!("{FRAME}.csv")), dir.join(format!("{FRAME}.parquet")));
        directory::claim(dir, [format!("{FRAME}.csv").as_str(), &format!("{FRAME}.parquet")])?;
        // Unbuffered: polars writes whole batches and pages, and a write that fails
        // says so at once rather than in a buffer's drop.
        let create = |path: &Path| std::fs::File::create(path).map_err(|e| directory::io(path, e));
        let schema = self.chunk(Lines::default()).map_err(polars)?.schema().clone();
        let mut csv = CsvWriter::new(create(&csv_path)?).include_header(true).batched(&schema).map_err(polars)?;
        let kv = KeyValueMetadata::from_static(metadata.to_vec());
        let mut parquet = ParquetWriter::new(create(&parquet_path)?)
            .with_key_value_metadata(Some(kv))
            .batched(&schema)
            .map_err(polars)?;
        let mut write = |lines: Lines| -> Result<()> {
            let chunk = self.chunk(lines).map_err(polars)?;
            csv.write_batch(&chunk).map_err(polars)?;
            parquet.write_batch(&chunk).map_err(polars)
        };
        let mut lines = Lines::default();
        for p in self.summary.results.iter() {
            let p = p?;
            if p.summary.shard.is_some() {
                continue;
            }
            let result = StudyResult::from_summary(&p.summary)?;
            let (trials, seed) = (result.summary.trials, result.summary.seed);
            let at = lines.points.len();
            for (measure, rows, _) in result.report.all_measures() {
                lines.lines.extend(rows.iter().map(|_| (at, trials, seed, measure.to_string())));
                lines.rows.extend(rows.iter().cloned());
            }
            lines.points.push((p.index, p.values));
            if lines.rows.len() >= GROUP_ROWS {
                run.check()?;
                write(std::mem::take(&mut lines))?;
            }
        }
        if !lines.rows.is_empty() {
            write(lines)?;
        }
        csv.finish().map_err(polars)?;
        parquet.finish().map_err(polars).map(drop)
    }

    /// `lines` as one chunk of the long frame.
    fn chunk(&self, lines: Lines) -> PolarsResult<DataFrame> {
        let mut chunk = crate::study::measure_frame(&lines.rows)?;
        let point = |l: &(usize, u64, u64, String)| &lines.points[l.0];
        let mut front =
            vec![Column::new("point".into(), lines.lines.iter().map(|l| point(l).0 as u32 + 1).collect::<Vec<_>>())];
        for (k, parameter) in self.summary.parameters.iter().enumerate() {
            let values: Vec<&Value> = lines.lines.iter().map(|l| &point(l).1[k]).collect();
            front.push(typed(&parameter.key, &parameter.values, &values));
        }
        front.push(Column::new("measure".into(), lines.lines.iter().map(|l| l.3.as_str()).collect::<Vec<_>>()));
        for (i, c) in front.into_iter().enumerate() {
            chunk.insert_column(i, c)?;
        }
        chunk.with_column(Column::new("trials".into(), lines.lines.iter().map(|l| l.1).collect::<Vec<_>>()))?;
        chunk.with_column(Column::new("seed".into(), lines.lines.iter().map(|l| l.2).collect::<Vec<_>>()))?;
        Ok(chunk)
    }

    /// The design: one row per point held, its parameter values.
    pub fn design_frame(&self) -> PolarsResult<DataFrame> {
        let mut columns =
            vec![Column::new("point".into(), self.points.iter().map(|p| p.index as u32 + 1).collect::<Vec<_>>())];
        for (k, parameter) in self.summary.parameters.iter().enumerate() {
            let values: Vec<&Value> = self.points.iter().map(|p| &p.values[k]).collect();
            columns.push(typed(&parameter.key, &parameter.values, &values));
        }
        DataFrame::new_infer_height(columns)
    }

    /// What every frame carries as Parquet key-value metadata.
    fn metadata(&self) -> Vec<(String, String)> {
        let s = &self.summary;
        [
            ("combat_odds.sweep", s.name.clone()),
            ("combat_odds.sweep_hash", s.sweep_hash.clone()),
            ("combat_odds.seed", s.seed.to_string()),
            ("combat_odds.trials", s.trials.to_string()),
            ("combat_odds.version", s.version.clone()),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect()
    }

    /// Writes the sweep's directory whole or not at all (see [`crate::export::directory`]):
    /// the long frame and `sweep.json` as their points are read back from disk (83 MB
    /// of JSON for 6,000 points of a company's engagement), then the design and the
    /// chart. Returns the names of the files written.
    pub fn write(&self, dir: &Path, force: bool, run: &Run) -> Result<Vec<String>> {
        directory::write_whole(dir, force, run, |tmp| {
            let metadata = self.metadata();
            self.write_long_frame(tmp, &metadata, run)?;
            let mut design = self.design_frame().map_err(Error::frame("a sweep frame"))?;
            directory::write_frame(tmp, DESIGN, &mut design, (&metadata, run))?;
            directory::claim(tmp, ["sweep.json"])?;
            let path = tmp.join("sweep.json");
            let file = std::fs::File::create(&path).map_err(|e| directory::io(&path, e))?;
            let mut out = std::io::BufWriter::new(file);
            serde_json::to_writer_pretty(&mut out, &self.summary)
                .map_err(std::io::Error::from)
                .and_then(|()| out.write_all(b"\n"))
                .and_then(|()| out.flush())
                .map_err(|e| directory::io(&path, e))?;
            // A shard's chart would show only its points: the merged sweep draws it.
            if self.summary.shard.is_none() {
                charts::draw(tmp, self)?;
            }
            Ok(())
        })
    }
}

/// How large a `sweep.json` may be: [`MAX_POINTS`](super::MAX_POINTS) points of the
/// largest shipped engagement's counts (under 40 KB a point) and room to spare.
pub const SWEEP_LIMIT: Limit = Limit { bytes: 512 << 20, what: "a sweep.json" };

/// Reads a sweep directory's `sweep.json`, or `None` when the directory holds none.
pub fn read_summary(dir: &Path) -> Result<Option<SweepSummary>> {
    let path = dir.join("sweep.json");
    if std::fs::symlink_metadata(&path).is_err() {
        return Ok(None);
    }
    let text = user_file::read_to_string(&path, SWEEP_LIMIT)?;
    serde_json::from_str(&text).map(Some).map_err(|e| {
        Error::input(
            path.display().to_string(),
            format!("line {} column {}: {e}; not a sweep this version writes", e.line(), e.column()),
        )
    })
}

/// A parameter's column: whole numbers when every value of it is one, numbers when
/// every one is a number, switches when every one is, else the values as TOML text.
fn typed(key: &str, all: &[Value], values: &[&Value]) -> Column {
    if all.iter().all(Value::is_integer) {
        Column::new(key.into(), values.iter().map(|v| v.as_integer()).collect::<Vec<_>>())
    } else if all.iter().all(|v| v.is_integer() || v.is_float()) {
        Column::new(key.into(), values.iter().map(|v| number(v)).collect::<Vec<_>>())
    } else if all.iter().all(Value::is_bool) {
        Column::new(key.into(), values.iter().map(|v| v.as_bool()).collect::<Vec<_>>())
    } else {
        Column::new(key.into(), values.iter().map(|v| label(v)).collect::<Vec<_>>())
    }
}
