//! A study's results on disk: one Polars frame per measure (probability, count, 95%
//! interval, exact where known) as CSV and Parquet, and `summary.json` with the seed,
//! trials, shard, rules hash, wall time and every count, from which `merge` rebuilds
//! the frames (and charts) of shards exactly as one machine would have written them.
//! Without the `files` feature (the browser's engine) a study runs and its result is
//! assembled, but nothing is written.

#[cfg(feature = "files")]
mod charts;

#[cfg(feature = "files")]
use std::path::Path;
use std::path::PathBuf;

#[cfg(feature = "files")]
use polars::prelude::*;
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
#[cfg(feature = "files")]
use crate::export::directory;
#[cfg(feature = "files")]
pub use crate::export::directory::check_free;
use crate::export::{GENERATOR, INTERVAL, Kill, Report};
#[cfg(feature = "files")]
use crate::export::{Row, invented_line};
use combat_odds_core::dice::Ratio;
use combat_odds_core::engine::{self, ExactTable, Measure, Mode, MonteCarlo, Shard, Study, Tally};
use combat_odds_core::run::Run;
#[cfg(feature = "files")]
use combat_odds_core::user_file::{self, Limit};
use combat_odds_rules::{Header, Scenario};

/// Version of the results layout; `merge` refuses another.
pub const FORMAT: u32 = 1;

/// One measure as a results file keeps it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct MeasureCounts {
    /// Measure name (the frame's file name).
    pub name: String,
    /// Outcome labels.
    pub outcomes: Vec<String>,
    /// Trials with each outcome.
    pub counts: Vec<u64>,
    /// Exact probability of each outcome as a reduced fraction, where known.
    pub exact: Option<Vec<String>>,
}

/// `summary.json`: everything about a run but its frames, and the counts behind them.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Summary {
    /// Results layout version.
    pub format: u32,
    /// Ruleset name.
    pub ruleset: String,
    /// Scenario name.
    pub scenario: String,
    /// Scenario kind.
    pub kind: String,
    /// Hash of the scenario file's text, so shards of different scenarios never merge.
    pub scenario_hash: String,
    /// Master seed.
    pub seed: u64,
    /// Trials asked for (the most, with a precision target).
    pub trials_requested: u64,
    /// Trials run (by this shard, or in all).
    pub trials: u64,
    /// The shard this directory holds, or `null` for a whole study.
    pub shard: Option<Shard>,
    /// The precision target, if one was set.
    pub precision: Option<f64>,
    /// Whether every interval's half-width came under the target.
    pub precision_reached: Option<bool>,
    /// Widest 95% interval half-width of any outcome.
    pub widest_half_width: f64,
    /// Hash of the loaded table files.
    pub rules_hash: String,
    /// combat-odds version.
    pub version: String,
    /// Random generator.
    pub generator: String,
    /// How trials were drawn: `literal` or `compiled`.
    pub mode: Mode,
    /// Interval method.
    pub interval: String,
    /// Seconds from the exact stage's start to the last trial (summed over shards after
    /// a merge).
    pub wall_time_s: f64,
    /// P(first side wins) or the scenario's kill outcome.
    pub p_kill: Kill,
    /// Which (measure, outcome) `p_kill` is.
    pub kill: (usize, usize),
    /// Every measure's counts.
    pub measures: Vec<MeasureCounts>,
    /// How the numbers were reached.
    pub notes: Vec<String>,
    /// The invented (illustrative) catalogue entries the numbers rest on, by label.
    #[serde(default)]
    pub invented: Vec<String>,
}

/// What a run produced, ready to write.
pub struct StudyResult {
    /// The summary.
    pub summary: Summary,
    /// The report (rows with intervals) behind the frames.
    pub report: Report,
    /// Where the exact engine or the compiled sampler stood aside, and why (for the
    /// terminal; the summary's notes hold them too).
    pub aside: Vec<String>,
}

/// Scenario identity for merging: FNV-1a of the text (as the rules hash).
pub fn text_hash(text: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// The run's parts that are not counts.
pub struct RunFacts {
    /// Hash of the scenario text.
    pub scenario_hash: String,
    /// Trials, seed, threads.
    pub monte_carlo: MonteCarlo,
    /// Which shard, if sharded.
    pub shard: Option<Shard>,
    /// Precision target and whether it was met.
    pub precision: Option<(f64, bool)>,
    /// Seconds.
    pub wall_time_s: f64,
}

/// A study to run: the scenario set up, its file's text (whose hash keeps shards of
/// different scenarios apart), the shard this process runs and the precision target.
pub struct Plan<'a> {
    /// The scenario, with its Monte Carlo plan.
    pub scenario: Scenario,
    /// The scenario file's text.
    pub text: &'a str,
    /// The shard, when one was asked for.
    pub shard: Option<Shard>,
    /// Stop once every interval's half-width is below this.
    pub precision: Option<f64>,
}

impl StudyResult {
    /// Runs `plan`'s trials, its exact stage (`exact`) already solved, and assembles
    /// the result; `started` is when the exact stage began by `run`'s clock
    /// ([`Run::now`]), so the wall time counts every stage. `progress` hears (trials done, trials planned); stopping `run` ends
    /// it at its next batch with [`combat_odds_core::error::Error::Interrupted`].
    pub fn run(
        plan: Plan,
        exact: Option<ExactTable>,
        started: std::time::Duration,
        progress: &(dyn Fn(u64, u64) + Sync),
        run: &Run,
    ) -> Result<Self> {
        let Plan { scenario, text, shard, precision } = plan;
        let monte_carlo = scenario.monte_carlo;
        let experiment = scenario.set_up.experiment.as_ref();
        let spec = Study { monte_carlo, shard: shard.unwrap_or(Shard::WHOLE), precision };
        let ran = engine::run_study(experiment, &spec, progress, run)?;
        let mut header = scenario.header;
        if let Some(why) = ran.why_literal {
            header.stand_aside(why);
        }
        let facts = RunFacts {
            scenario_hash: text_hash(text),
            monte_carlo: MonteCarlo { mode: ran.mode, ..monte_carlo },
            shard,
            precision: precision.map(|p| (p, ran.precise)),
            wall_time_s: (run.now() - started).as_secs_f64(),
        };
        Ok(StudyResult::new(header, facts, experiment.measures(), experiment.kill(), &ran.tally, exact.as_ref()))
    }

    /// Assembles a result from a tally.
    pub fn new(
        header: Header,
        facts: RunFacts,
        measures: &[Measure],
        kill: (usize, usize),
        tally: &Tally,
        exact: Option<&ExactTable>,
    ) -> Self {
        let aside = header.aside.clone();
        let report = Report::new(header.clone(), &facts.monte_carlo, measures, kill, tally, exact);
        let summary = Summary {
            format: FORMAT,
            ruleset: header.ruleset,
            scenario: header.scenario,
            kind: header.kind,
            scenario_hash: facts.scenario_hash,
            seed: facts.monte_carlo.seed,
            trials_requested: facts.monte_carlo.trials,
            trials: tally.trials(),
            shard: facts.shard,
            precision: facts.precision.map(|(p, _)| p),
            precision_reached: facts.precision.map(|(_, reached)| reached),
            widest_half_width: combat_odds_core::engine::widest_half_width(
                tally,
                measures,
                combat_odds_core::stats::CONFIDENCE,
            ),
            rules_hash: header.rules_hash,
            version: env!("CARGO_PKG_VERSION").to_string(),
            generator: GENERATOR.to_string(),
            mode: facts.monte_carlo.mode,
            interval: INTERVAL.to_string(),
            wall_time_s: facts.wall_time_s,
            p_kill: report.p_kill.odds.clone(),
            kill,
            measures: measures
                .iter()
                .enumerate()
                .map(|(m, measure)| MeasureCounts {
                    name: measure.name.clone(),
                    outcomes: measure.outcomes.clone(),
                    counts: tally.counts(m).to_vec(),
                    exact: exact.map(|e| e[m].iter().map(Ratio::to_string).collect()),
                })
                .collect(),
            notes: header.notes,
            invented: header.invented,
        };
        StudyResult { summary, report, aside }
    }

    /// Adds up shards of one study into the result one machine would have produced.
    /// `dirs` name each summary, for messages.
    pub fn merge(parts: Vec<(PathBuf, Summary)>) -> Result<Self> {
        let Some((first_dir, first)) = parts.first().cloned() else {
            return Err(Error::Results("merge needs at least one results directory".into()));
        };
        let shard_count = first.shard.map_or(1, |s| s.count);
        let mut seen = std::collections::BTreeSet::new();
        for (dir, s) in &parts {
            let differs = |what: &str, a: &dyn std::fmt::Display, b: &dyn std::fmt::Display| {
                Error::input(
                    dir.join("summary.json").display().to_string(),
                    format!("{what} {a} differs from {b} in {}: only shards of one run merge", first_dir.display()),
                )
            };
            if s.format != FORMAT {
                return Err(Error::input(
                    dir.join("summary.json").display().to_string(),
                    format!("results format {} is not {FORMAT}; re-run it with this version", s.format),
                ));
            }
            if s.scenario_hash != first.scenario_hash {
                let named = |s: &Summary| format!("`{}` (text hash {})", s.scenario, s.scenario_hash);
                return Err(differs("scenario", &named(s), &named(&first)));
            }
            if s.rules_hash != first.rules_hash {
                return Err(differs("rules hash", &s.rules_hash, &first.rules_hash));
            }
            if s.seed != first.seed {
                return Err(differs("seed", &s.seed, &first.seed));
            }
            if s.mode != first.mode {
                return Err(differs("sampling mode", &s.mode.name(), &first.mode.name()));
            }
            if s.trials_requested != first.trials_requested {
                return Err(differs("trials", &s.trials_requested, &first.trials_requested));
            }
            let (km, ko) = s.kill;
            if s.measures.get(km).is_none_or(|m| ko >= m.outcomes.len()) {
                return Err(Error::input(
                    dir.join("summary.json").display().to_string(),
                    "its kill outcome is no measure's outcome; the file was edited or damaged, re-run that shard",
                ));
            }
            if let Some(why) = uneven_exact(s) {
                return Err(Error::input(
                    dir.join("summary.json").display().to_string(),
                    format!("{why}; the file was edited or damaged, re-run that shard"),
                ));
            }
            let shard = s.shard.ok_or_else(|| {
                Error::input(
                    dir.join("summary.json").display().to_string(),
                    "a whole run, not a shard: merge the directories of one run's shards K/N",
                )
            })?;
            if shard.count != shard_count {
                return Err(differs("shard count", &shard.count, &shard_count));
            }
            if !(1..=shard.count).contains(&shard.index) {
                return Err(Error::input(
                    dir.join("summary.json").display().to_string(),
                    format!(
                        "shard {shard} is not K/N with 1 <= K <= N; the file was edited or damaged, re-run that shard"
                    ),
                ));
            }
            if !seen.insert(shard.index) {
                return Err(Error::input(
                    dir.join("summary.json").display().to_string(),
                    format!("shard {shard} is given twice"),
                ));
            }
        }
        all_shards(&seen, shard_count)?;
        // Added with a check: edited counts past 2^64 would wrap round to a plausible
        // total and be written as a run's.
        let past = || {
            Error::Results(
                "the shards' counts add up past 2^64: a summary.json was edited or damaged; re-run the shards".into(),
            )
        };
        let mut counts: Vec<Vec<u64>> = first.measures.iter().map(|m| vec![0; m.counts.len()]).collect();
        let mut trials = 0u64;
        for (_, s) in &parts {
            trials = trials.checked_add(s.trials).ok_or_else(past)?;
            for (sum, m) in counts.iter_mut().zip(&s.measures) {
                for (a, b) in sum.iter_mut().zip(&m.counts) {
                    *a = a.checked_add(*b).ok_or_else(past)?;
                }
            }
        }
        let wall_time_s = parts.iter().map(|(_, s)| s.wall_time_s).sum();
        Self::assemble(&first, trials, &counts, wall_time_s)
    }

    /// The whole result a summary of a whole study (a sweep's point) was written from.
    pub fn from_summary(summary: &Summary) -> Result<Self> {
        let counts: Vec<Vec<u64>> = summary.measures.iter().map(|m| m.counts.clone()).collect();
        Self::assemble(summary, summary.trials, &counts, summary.wall_time_s)
    }

    /// A whole result from `first`'s description and these counts over `trials`.
    fn assemble(first: &Summary, trials: u64, counts: &[Vec<u64>], wall_time_s: f64) -> Result<Self> {
        let measures: Vec<Measure> =
            first.measures.iter().map(|m| Measure::new(&m.name, m.outcomes.iter().cloned())).collect();
        let layout = combat_odds_core::engine::layout(&measures);
        let tally = Tally::from_counts(&layout, trials, counts)
            .ok_or_else(|| Error::Results("the shards' counts do not add up; re-run them".into()))?;
        let (km, ko) = first.kill;
        if first.measures.get(km).is_none_or(|m| ko >= m.outcomes.len()) {
            return Err(Error::Results(format!(
                "the kill outcome ({km}, {ko}) is no measure's outcome: the summary was edited or damaged; re-run it"
            )));
        }
        if let Some(why) = uneven_exact(first) {
            return Err(Error::Results(format!("{why}: the summary was edited or damaged; re-run it")));
        }
        // Exact odds are known for every measure or for none.
        let exact: Option<ExactTable> = match first.measures.iter().all(|m| m.exact.is_some()) {
            true => {
                Some(first.measures.iter().flat_map(|m| m.exact.as_deref()).map(parse_ratios).collect::<Result<_>>()?)
            }
            false => None,
        };
        let header = Header {
            ruleset: first.ruleset.clone(),
            scenario: first.scenario.clone(),
            kind: first.kind.clone(),
            rules_hash: first.rules_hash.clone(),
            notes: first.notes.clone(),
            aside: Vec::new(),
            invented: first.invented.clone(),
        };
        let facts = RunFacts {
            scenario_hash: first.scenario_hash.clone(),
            monte_carlo: MonteCarlo {
                trials: first.trials_requested,
                seed: first.seed,
                threads: None,
                mode: first.mode,
            },
            shard: None,
            precision: None,
            wall_time_s,
        };
        Ok(StudyResult::new(header, facts, &measures, first.kill, &tally, exact.as_ref()))
    }

    #[cfg(feature = "files")]
    /// Every measure's frame: outcome, probability, 95% interval, count, exact.
    pub fn frames(&self) -> PolarsResult<Vec<(String, DataFrame)>> {
        self.report.all_measures().map(|(name, rows, _)| Ok((name.to_string(), measure_frame(rows)?))).collect()
    }

    #[cfg(feature = "files")]
    /// Writes the frames (CSV and Parquet), `summary.json` and the charts (PNG and SVG,
    /// see the `charts` submodule) into `dir`, whole or not at all: into a
    /// temporary directory beside it, then renamed into place. An existing `dir` is
    /// replaced only with `force`. Returns the names of the files written.
    pub fn write(&self, dir: &Path, force: bool, run: &Run) -> Result<Vec<String>> {
        directory::write_whole(dir, force, run, |tmp| self.write_into(tmp, run))
    }

    #[cfg(feature = "files")]
    /// What every Parquet frame of the study carries as key-value metadata, so a frame
    /// loaded alone still says where its numbers came from.
    pub fn metadata(&self) -> Vec<(String, String)> {
        let s = &self.summary;
        let mut kv = vec![
            ("combat_odds.ruleset", s.ruleset.clone()),
            ("combat_odds.scenario", s.scenario.clone()),
            ("combat_odds.kind", s.kind.clone()),
            ("combat_odds.scenario_hash", s.scenario_hash.clone()),
            ("combat_odds.seed", s.seed.to_string()),
            ("combat_odds.trials", s.trials.to_string()),
            ("combat_odds.mode", s.mode.name().to_string()),
            ("combat_odds.rules_hash", s.rules_hash.clone()),
            ("combat_odds.version", s.version.clone()),
            ("combat_odds.generator", s.generator.clone()),
            ("combat_odds.interval", s.interval.clone()),
        ];
        if let Some(shard) = s.shard {
            kv.push(("combat_odds.shard", shard.to_string()));
        }
        if let Some(line) = invented_line(&s.invented) {
            kv.push(("combat_odds.invented", line));
        }
        kv.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
    }

    #[cfg(feature = "files")]
    /// Every measure's rows in one long frame, `measure` first.
    pub(crate) fn long_frame(&self) -> PolarsResult<DataFrame> {
        let (mut names, mut rows) = (Vec::new(), Vec::new());
        for (name, measure_rows, _) in self.report.all_measures() {
            names.extend(std::iter::repeat_n(name.to_string(), measure_rows.len()));
            rows.extend(measure_rows.iter().cloned());
        }
        let mut frame = measure_frame(&rows)?;
        frame.insert_column(0, Column::new("measure".into(), names))?;
        Ok(frame)
    }

    #[cfg(feature = "files")]
    /// Every file of the results directory but the charts, in memory, as (file name,
    /// bytes): each measure's frame and the long frame as CSV and Parquet, then
    /// `summary.json`: what [`StudyResult::write`] writes beside the charts.
    fn files(&self) -> Result<Vec<(String, Vec<u8>)>> {
        let polars = Error::frame("a results frame");
        let metadata = self.metadata();
        let mut frames = self.frames().map_err(polars)?;
        frames.push((LONG_FRAME.to_string(), self.long_frame().map_err(polars)?));
        let mut files = Vec::with_capacity(2 * frames.len() + 1);
        for (name, mut frame) in frames {
            let (csv, parquet) = directory::frame_bytes(&mut frame, &metadata).map_err(polars)?;
            files.extend([(format!("{name}.csv"), csv), (format!("{name}.parquet"), parquet)]);
        }
        let summary = serde_json::to_string_pretty(&self.summary).expect("a summary always serializes") + "\n";
        files.push(("summary.json".to_string(), summary.into_bytes()));
        Ok(files)
    }

    #[cfg(feature = "files")]
    fn write_into(&self, dir: &Path, run: &Run) -> Result<()> {
        run.check()?;
        directory::write_files(dir, &self.files()?)?;
        // Inside the temporary directory too, so the charts arrive with the frames or not at all.
        charts::study_charts(dir, &self.summary).map(drop)
    }
}

/// `Ok` when `seen` holds every shard 1..=`count`, else an error naming the missing
/// ones: the first few by number, never counted out one by one, since a damaged count
/// may be any number.
pub(crate) fn all_shards(seen: &std::collections::BTreeSet<u64>, count: u64) -> Result<()> {
    let absent = count.saturating_sub(seen.len() as u64);
    if absent == 0 {
        return Ok(());
    }
    const SHOWN: usize = 10;
    let mut missing: Vec<String> =
        (1..=count).filter(|k| !seen.contains(k)).take(SHOWN).map(|k| format!("{k}/{count}")).collect();
    if absent > SHOWN as u64 {
        missing.push(format!("and {} more", absent - SHOWN as u64));
    }
    Err(Error::Results(format!("shard(s) {} missing: merge needs all {count}", missing.join(", "))))
}

#[cfg(feature = "files")]
/// How large a `summary.json` may be: the largest shipped study's is under 40 KB, its
/// counts growing with outcomes, not trials.
pub const SUMMARY_LIMIT: Limit = Limit { bytes: 16 << 20, what: "a results summary.json" };

#[cfg(feature = "files")]
/// Reads a results directory's `summary.json`.
pub fn read_summary(dir: &Path) -> Result<Summary> {
    let path = dir.join("summary.json");
    let text = user_file::read_to_string(&path, SUMMARY_LIMIT).map_err(|e| match e {
        combat_odds_core::Error::Io { source, .. } => Error::input(
            path.display().to_string(),
            format!("cannot read it ({source}); is this a `combat-odds run` directory?"),
        ),
        refused => refused.into(),
    })?;
    serde_json::from_str(&text).map_err(|e| {
        Error::input(
            path.display().to_string(),
            format!("line {} column {}: {e}; it is not a summary this version writes", e.line(), e.column()),
        )
    })
}

/// The first measure whose exact odds do not match its outcomes one for one, said so.
fn uneven_exact(summary: &Summary) -> Option<String> {
    summary.measures.iter().find_map(|m| {
        let exact = m.exact.as_ref().filter(|e| e.len() != m.outcomes.len())?;
        Some(format!(
            "measure `{}` has {} exact probabilities for its {} outcomes",
            m.name,
            exact.len(),
            m.outcomes.len()
        ))
    })
}

fn parse_ratios(fractions: &[String]) -> Result<Vec<Ratio>> {
    fractions
        .iter()
        .map(|f| {
            Ratio::parse(f).ok_or_else(|| {
                Error::Results(format!("exact probability `{f}` in a summary is not a fraction from 0 to 1"))
            })
        })
        .collect()
}

#[cfg(feature = "files")]
/// The name of the frame holding every measure, with a `measure` column.
pub(crate) const LONG_FRAME: &str = "all_measures";

#[cfg(feature = "files")]
/// One measure's frame: `outcome` as labelled; `value`, the outcome as a whole number
/// where it is one (a turn, a count of survivors) and null where it is a name
/// (`undecided`, `eliminated`); the estimate with its interval and count; `exact` as a
/// float and `exact_fraction` as text, every digit of it, however long: the frames
/// are where a player takes the exact answer to a spreadsheet.
pub(crate) fn measure_frame(rows: &[Row]) -> PolarsResult<DataFrame> {
    DataFrame::new_infer_height(vec![
        Column::new("outcome".into(), rows.iter().map(|r| r.outcome.clone()).collect::<Vec<_>>()),
        Column::new("value".into(), rows.iter().map(|r| r.outcome.parse::<i64>().ok()).collect::<Vec<_>>()),
        Column::new("probability".into(), rows.iter().map(|r| r.estimate).collect::<Vec<_>>()),
        Column::new("ci_low".into(), rows.iter().map(|r| r.ci_low).collect::<Vec<_>>()),
        Column::new("ci_high".into(), rows.iter().map(|r| r.ci_high).collect::<Vec<_>>()),
        Column::new("count".into(), rows.iter().map(|r| r.count).collect::<Vec<_>>()),
        Column::new("exact".into(), rows.iter().map(|r| r.exact).collect::<Vec<_>>()),
        Column::new("exact_fraction".into(), rows.iter().map(|r| r.exact_fraction.clone()).collect::<Vec<_>>()),
    ])
}
