//! Sweeps: one base scenario answered over a grid of its own parameters, for scenario
//! balance. A sweep file names the base scenario and the keys to vary (any of the
//! scenario's own keys, by path: `engagement.range`, `side[1].unit[0].count`,
//! `settings.side_broken`), each with a list or a range of values; the design is every
//! combination, or a nearly orthogonal Latin hypercube for many parameters (see
//! [`design`]). Every point is the base scenario with those values written in, set up
//! by its ruleset like any file (a value the rules refuse is named with its point),
//! answered exactly where the engine reaches and by Monte Carlo on the same seed
//! everywhere: trial i of every point draws from the same streams, so neighbouring
//! points differ by the parameter, not by noise.
//!
//! The results directory holds one long frame (`sweep.csv`, `sweep.parquet`: point,
//! the parameters as columns, then measure, outcome, probability, interval, count,
//! exact, trials, seed), the design (`design.csv`), `sweep.json` (everything else, and
//! every point's counts, from which `merge` rebuilds the frames of a sweep split into
//! shards exactly as one machine writes them), and a chart of `p_kill`: a line with its
//! interval band for one parameter, a heat map for two, small multiples beyond.

pub mod design;
pub mod balance;
#[cfg(feature = "files")]
mod charts;
#[cfg(feature = "files")]
mod files;
mod keys;
mod merge;
mod spool;

use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use serde::{Deserialize, Serialize};
use toml::{Spanned, Table, Value};

pub use design::Design;
#[cfg(feature = "files")]
pub use files::{SWEEP_LIMIT, read_summary};
pub use spool::Points;

pub(crate) use keys::quoted;
use keys::set;

use crate::error::{Error, Result};
use crate::export::KillRow;
use crate::study::{Plan, StudyResult, Summary, text_hash};
use combat_odds_core::document::Document;
use combat_odds_core::engine::{self, Mode, MonteCarlo, Shard};
use combat_odds_core::run::Run;
use combat_odds_rules::{Rules, Scenario};

/// Version of the sweep results layout; `merge` refuses another. Version 2 records the
/// sampling mode asked for, so that shards drawn differently never merge.
pub const FORMAT: u32 = 2;

/// The most points one sweep may have: past this, ask for a Latin hypercube.
pub const MAX_POINTS: usize = 10_000;

/// A sweep file as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSweep {
    kind: Spanned<String>,
    name: Option<String>,
    #[serde(default, rename = "description")]
    _description: Option<String>,
    scenario: Spanned<String>,
    vary: Spanned<Vec<Spanned<RawVary>>>,
    #[serde(default)]
    latin_hypercube: Option<Spanned<i64>>,
}

/// One parameter as written: a key and its values, listed or as a range.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawVary {
    key: Spanned<String>,
    values: Option<Vec<Value>>,
    from: Option<f64>,
    to: Option<f64>,
    step: Option<f64>,
}

/// One parameter of a sweep: a key of the base scenario and the values it takes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Parameter {
    /// The key's path in the scenario, e.g. `side[1].unit[0].count`.
    pub key: String,
    /// Its values, in order.
    pub values: Vec<Value>,
}

/// A checked sweep: its base scenario, parameters and points.
#[derive(Debug, Clone)]
pub struct Sweep {
    /// What the sweep is called.
    pub name: String,
    /// The sweep file (for messages and the study hash).
    pub doc: Document,
    /// The base scenario.
    pub base: Document,
    /// The parameters.
    pub parameters: Vec<Parameter>,
    /// How the points were chosen.
    pub design: Design,
    /// Every point, as one value index per parameter.
    pub points: Vec<Vec<usize>>,
}

impl Sweep {
    /// Reads and checks a sweep file; `base` reads the scenario file it names (a path
    /// relative to the sweep file, on the command line). The design's seed is `seed`.
    pub fn read(doc: &Document, base: impl FnOnce(&str) -> Result<Document>, seed: u64) -> Result<Self> {
        let raw: RawSweep = doc.parse()?;
        if raw.kind.get_ref() != "sweep" {
            let at = raw.kind.span().start;
            return Err(doc
                .error_at(at, format!("kind `{}`: a sweep file says kind = \"sweep\"", raw.kind.get_ref()))
                .into());
        }
        let base = base(raw.scenario.get_ref())?;
        let table: Table = base.parse()?;
        if raw.vary.get_ref().is_empty() {
            return Err(doc.error_at(raw.vary.span().start, "no [[vary]]: name one parameter or more").into());
        }
        let mut parameters = Vec::new();
        for vary in raw.vary.into_inner() {
            let at = vary.span().start;
            let vary = vary.into_inner();
            let key = vary.key.get_ref().clone();
            let values = match (vary.values, vary.from, vary.to, vary.step) {
                (Some(values), None, None, None) => values,
                (None, Some(from), Some(to), step) => {
                    span_values(from, to, step.unwrap_or(1.0)).map_err(|m| doc.error_at(at, format!("`{key}`: {m}")))?
                }
                _ => {
                    return Err(doc
                        .error_at(at, format!("`{key}`: give `values = [...]`, or `from`, `to` and an optional `step`"))
                        .into());
                }
            };
            if values.is_empty() {
                return Err(doc.error_at(at, format!("`{key}` takes no value; give one or more")).into());
            }
            if parameters.iter().any(|p: &Parameter| p.key == key) {
                return Err(doc.error_at(vary.key.span().start, format!("`{key}` is varied twice")).into());
            }
            // Every value must have a place to go, before anything runs.
            set(&mut table.clone(), &key, values[0].clone())
                .map_err(|m| doc.error_at(vary.key.span().start, format!("{}: {m}", quoted(&key))))?;
            parameters.push(Parameter { key, values });
        }
        let levels: Vec<usize> = parameters.iter().map(|p| p.values.len()).collect();
        let design = match raw.latin_hypercube {
            None => Design::FullFactorial,
            Some(n) if (2..=MAX_POINTS as i64).contains(n.get_ref()) => Design::LatinHypercube(*n.get_ref() as usize),
            Some(n) => {
                return Err(doc
                    .error_at(
                        n.span().start,
                        format!("latin_hypercube takes 2 to {MAX_POINTS} points, not {}", n.get_ref()),
                    )
                    .into());
            }
        };
        let size = levels.iter().try_fold(1usize, |a, &n| a.checked_mul(n)).filter(|_| design == Design::FullFactorial);
        if design == Design::FullFactorial && size.is_none_or(|n| n > MAX_POINTS) {
            return Err(doc
                .error(format!(
                    "every combination of {} values is more than {MAX_POINTS} points; add `latin_hypercube = N` for N well-spread points",
                    levels.iter().map(usize::to_string).collect::<Vec<_>>().join(" x ")
                ))
                .into());
        }
        let points = design.points(&levels, seed);
        Ok(Sweep {
            name: raw.name.unwrap_or_else(|| doc.name.clone()),
            doc: doc.clone(),
            base,
            parameters,
            design,
            points,
        })
    }

    /// The values of point `i`, one per parameter.
    pub fn values(&self, i: usize) -> Vec<Value> {
        self.points[i].iter().zip(&self.parameters).map(|(&v, p)| p.values[v].clone()).collect()
    }

    /// "key = value, ..." for point `i`.
    pub fn describe(&self, i: usize) -> String {
        let values = self.values(i);
        let parts: Vec<String> = self.parameters.iter().zip(&values).map(|(p, v)| format!("{} = {v}", p.key)).collect();
        parts.join(", ")
    }

    /// The scenario of point `i`: the base with the point's values written in.
    pub fn scenario(&self, i: usize) -> Result<Document> {
        let mut table: Table = self.base.parse()?;
        for (p, v) in self.parameters.iter().zip(self.values(i)) {
            set(&mut table, &p.key, v)
                .map_err(|m| self.doc.error(format!("point {} ({}): {m}", i + 1, self.describe(i))))?;
        }
        let text = toml::to_string(&table).map_err(|e| self.doc.error(format!("cannot write point {}: {e}", i + 1)))?;
        let name = format!("{} point {} ({})", self.doc.name, i + 1, self.describe(i));
        Ok(Document::new(name.clone(), name, text))
    }

    /// Point `i`'s scenario set up by its ruleset: a value the rules refuse is named with
    /// its point.
    pub fn set_up(&self, i: usize, rules: &Rules, monte_carlo: MonteCarlo) -> Result<(Document, Scenario)> {
        let doc = self.scenario(i)?;
        let scenario = Scenario::new(&doc, rules, monte_carlo).map_err(|e| match e {
            combat_odds_core::Error::Input { message, .. } => {
                self.doc.error(format!("point {} ({}): {message}", i + 1, self.describe(i)))
            }
            other => other,
        })?;
        Ok((doc, scenario))
    }

    /// Sets up every point and drops it, before any runs: a value the rules refuse is
    /// named with the first point that has it and no trial has been spent, in the
    /// memory of one point a thread (a sweep's points set up all at once took 0.85 MB
    /// each, 7.4 GB at the most points a sweep may have).
    pub fn check(&self, rules: &Rules, monte_carlo: MonteCarlo, run: &Run) -> Result<()> {
        let refused = (0..self.points.len())
            .into_par_iter()
            .map(|i| {
                run.check()?;
                self.set_up(i, rules, monte_carlo).map(drop)
            })
            .find_first(Result::is_err);
        refused.unwrap_or(Ok(()))
    }

    /// Text hash of the sweep and its base, so only parts of one sweep merge.
    pub fn hash(&self) -> String {
        text_hash(&format!("{}\n{}", self.doc.text, self.base.text))
    }
}

/// `from`, `from + step`, ... up to `to` (within a millionth of a step), as integers
/// when every one is whole.
pub fn span_values(from: f64, to: f64, step: f64) -> std::result::Result<Vec<Value>, String> {
    let (from_, to_, step_) = (short(from), short(to), short(step));
    if !(from.is_finite() && to.is_finite() && step.is_finite() && step > 0.0 && to >= from) {
        return Err(format!("from {from_} to {to_} by {step_}: give from <= to and a step above 0"));
    }
    // Counted as a float first: a span of 1e300 steps is too many, not a wrapped-around
    // count of none.
    let count = ((to - from) / step + 1e-6).floor() + 1.0;
    if count > MAX_POINTS as f64 {
        let count = match count {
            c if c.is_infinite() => "more values than can be counted".to_string(),
            c if c < 1e15 => format!("{c:.0} values"),
            c => format!("{c:e} values"),
        };
        return Err(format!("from {from_} to {to_} by {step_} is {count}, more than {MAX_POINTS}; give a larger step"));
    }
    let n = count as usize;
    let xs: Vec<f64> = (0..n).map(|k| from + k as f64 * step).collect();
    // Whole numbers only where an integer holds them (`1e19 as i64` would saturate).
    // Rounding to a billionth tidies the sums' float noise (0.1 + 0.2 is
    // 0.30000000000000004), but only where it moves a value by a millionth of a step:
    // a span of tiny numbers keeps them, rather than becoming 0, outside the span.
    let tidy = |x: f64| {
        let rounded = (x * 1e9).round() / 1e9;
        if x.abs() < 1e9 && (rounded - x).abs() <= step * 1e-6 { rounded } else { x }
    };
    let values: Vec<f64> = match xs.iter().all(|x| x.fract() == 0.0 && x.abs() <= WHOLE_MAX) {
        true => xs,
        false => xs.into_iter().map(tidy).collect(),
    };
    // A step below the numbers' precision (1 at 1e17) would repeat values: a sweep of
    // the same point over and over.
    if values.windows(2).any(|w| w[0] >= w[1]) {
        return Err(format!(
            "from {from_} to {to_} by {step_}: a step this small repeats values at this size; give a larger step"
        ));
    }
    Ok(match values.iter().all(|x| x.fract() == 0.0 && x.abs() <= WHOLE_MAX) {
        true => values.into_iter().map(|x| Value::Integer(x as i64)).collect(),
        false => values.into_iter().map(Value::Float).collect(),
    })
}

/// The largest whole number a float holds exactly (2^53): past it a span's values are
/// floats, and the balance finder bisects over whole numbers only below it.
const WHOLE_MAX: f64 = 9_007_199_254_740_992.0;

/// A number as a person writes it: `1e300`, not three hundred digits.
pub(crate) fn short(x: f64) -> String {
    if x.is_finite() && x.abs() >= 1e15 { format!("{x:e}") } else { x.to_string() }
}

/// One answered point, as far as a sweep keeps it in memory: its frame rows are
/// rebuilt from its counts (in [`SweepSummary::results`], on disk) as they are written.
pub struct PointResult {
    /// Its index in the design, from 0.
    pub index: usize,
    /// Its parameter values.
    pub values: Vec<Value>,
    /// Its `p_kill`, exact beside Monte Carlo.
    pub p_kill: KillRow,
    /// The invented (illustrative) catalogue entries its numbers rest on, by label.
    pub invented: Vec<String>,
}

/// A point as `sweep.json` keeps it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct PointSummary {
    /// Its index in the design, from 0.
    pub index: usize,
    /// Its parameter values.
    pub values: Vec<Value>,
    /// Its study's summary (counts, exact fractions).
    pub summary: Summary,
}

/// `sweep.json`: everything about a sweep but its frames, and every point's counts:
/// read whole (`R` a list) by `merge`, written from disk ([`Points`]) by a sweep.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct SweepSummary<R = Vec<PointSummary>> {
    /// Sweep results layout version.
    pub format: u32,
    /// The sweep's name.
    pub name: String,
    /// Hash of the sweep file and its base scenario.
    pub sweep_hash: String,
    /// The parameters.
    pub parameters: Vec<Parameter>,
    /// How the points were chosen.
    pub design: Design,
    /// Points in the whole design.
    pub points: usize,
    /// The shard this directory holds (tasks K, K+N, ...), or `null` for the whole.
    pub shard: Option<Shard>,
    /// Each point's trials in this many parts (tasks), so that a sweep of few points
    /// still spreads over many tasks.
    pub split: u64,
    /// Master seed, the same at every point.
    pub seed: u64,
    /// Trials at every point.
    pub trials: u64,
    /// The sampling mode asked for (a point may still have fallen back to `literal`:
    /// its own summary says so).
    pub mode: Mode,
    /// combat-odds version.
    pub version: String,
    /// Seconds from the first set-up to the last trial (summed over shards).
    pub wall_time_s: f64,
    /// Every point this directory holds, in design order.
    pub results: R,
}

impl SweepSummary {
    /// The same summary over other points.
    fn over<R>(self, results: R) -> SweepSummary<R> {
        let SweepSummary {
            format,
            name,
            sweep_hash,
            parameters,
            design,
            points,
            shard,
            split,
            seed,
            trials,
            mode,
            version,
            wall_time_s,
            results: _,
        } = self;
        SweepSummary {
            format,
            name,
            sweep_hash,
            parameters,
            design,
            points,
            shard,
            split,
            seed,
            trials,
            mode,
            version,
            wall_time_s,
            results,
        }
    }
}

/// A sweep's answers, ready to write: every point's counts (on disk), and its `p_kill`
/// to show.
pub struct SweepResult {
    /// Everything but the frames.
    pub summary: SweepSummary<Points>,
    /// Every whole point held, in design order.
    pub points: Vec<PointResult>,
}

/// A finished sweep as the page shows it: each point's values and `p_kill`, and the
/// files kept for download. The server and the browser's engine answer with it; a
/// browser keeps no files and gives no `id`.
#[derive(Serialize)]
pub struct Answer {
    /// The server's handle on the kept files.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<u64>,
    /// The sweep's name.
    pub name: String,
    /// What varies.
    pub parameters: Vec<Parameter>,
    /// How the points were chosen.
    pub design: Design,
    /// Trials per point.
    pub trials: u64,
    /// The master seed.
    pub seed: u64,
    /// Each point: its index, its values and its `p_kill`.
    pub points: Vec<(usize, Vec<Value>, KillRow)>,
    /// The files kept for download, by name and size.
    pub files: Vec<(String, u64)>,
}

impl SweepResult {
    /// What the page is told of this sweep, with the files kept of it (`id` and
    /// their list) where any were.
    pub fn answer(self, id: Option<u64>, files: Vec<(String, u64)>) -> Answer {
        let s = self.summary;
        let points = self.points.into_iter().map(|p| (p.index, p.values, p.p_kill)).collect();
        Answer {
            id,
            name: s.name,
            parameters: s.parameters,
            design: s.design,
            trials: s.trials,
            seed: s.seed,
            points,
            files,
        }
    }

    /// The invented catalogue entries any point's numbers rest on, by label, in the
    /// order first met.
    pub fn invented(&self) -> Vec<String> {
        crate::export::invented_of(self.points.iter().map(|p| p.invented.as_slice()))
    }
}

/// Runs `shard`'s tasks of `sweep` (every task when `None`) side by side. A task is a
/// point, or with `split` above 1 one part of a point's trials (its chunks, as
/// `run --shard` divides them), numbered point by point; shard K of N takes tasks K,
/// K+N, ... `progress` hears (trials done, trials planned) over the whole shard;
/// stopping `run` ends it, in the set-up of a point or at a point's next batch.
///
/// Points stream: every point is first set up and dropped (see [`Sweep::check`]), then
/// each task sets its point up again, answers it, writes its counts to disk
/// ([`Points`]) and drops it, so memory holds a point per thread and each point's
/// `p_kill`, whatever the number of points.
pub fn run(
    sweep: &Sweep,
    rules: &Rules,
    monte_carlo: MonteCarlo,
    (shard, split): (Option<Shard>, u64),
    progress: &(dyn Fn(u64, u64) + Sync),
    run: &Run,
) -> Result<SweepResult> {
    let started = run.now();
    let chunks = monte_carlo.trials.div_ceil(engine::CHUNK_TRIALS);
    if split == 0 || split > chunks {
        return Err(Error::Results(format!(
            "split {split}: {} trials are {chunks} chunk(s) of {} and each part needs one at least; split into 1 to {chunks} parts",
            monte_carlo.trials,
            engine::CHUNK_TRIALS
        )));
    }
    let whole = shard.unwrap_or(Shard::WHOLE);
    let tasks = sweep.points.len() * split as usize;
    let mine: Vec<(usize, u64)> = (0..tasks)
        .filter(|t| (t % whole.count as usize) + 1 == whole.index as usize)
        .map(|t| (t / split as usize, (t % split as usize) as u64 + 1))
        .collect();
    let part = |s: u64| (split > 1).then_some(Shard { index: s, count: split });
    let planned: u64 = mine.iter().map(|&(_, s)| trials_in(monte_carlo.trials, part(s))).sum();
    let answered = Points::new()?;
    // Tasks side by side (an exact stage is one thread's work), each task's trials on
    // every thread of the same pool: a task's numbers depend on its seed and chunks
    // alone, never on which thread ran it or when.
    let total = AtomicU64::new(0);
    engine::in_pool(monte_carlo.threads, || {
        sweep.check(rules, monte_carlo, run)?;
        mine.into_par_iter().try_for_each(|(i, s)| {
            run.check()?;
            let (doc, mut scenario) = sweep.set_up(i, rules, monte_carlo)?;
            let point_started = run.now();
            let exact = scenario.exact(run)?;
            let plan = Plan { scenario, text: &doc.text, shard: part(s), precision: None };
            // What this task has done, so the total moves by its steps alone.
            let done_here = AtomicU64::new(0);
            let heard = |d, _| {
                let before = done_here.swap(d, Ordering::Relaxed);
                progress(total.fetch_add(d - before, Ordering::Relaxed) + d - before, planned);
            };
            let result = StudyResult::run(plan, exact, point_started, &heard, run)?;
            answered.push(&PointSummary { index: i, values: sweep.values(i), summary: result.summary })
        })
    })??;
    progress(planned, planned);
    let summary = SweepSummary {
        format: FORMAT,
        name: sweep.name.clone(),
        sweep_hash: sweep.hash(),
        parameters: sweep.parameters.clone(),
        design: sweep.design,
        points: sweep.points.len(),
        shard,
        split,
        seed: monte_carlo.seed,
        trials: monte_carlo.trials,
        mode: monte_carlo.mode,
        version: env!("CARGO_PKG_VERSION").to_string(),
        wall_time_s: (run.now() - started).as_secs_f64(),
        results: answered,
    };
    SweepResult::assemble(summary)
}

/// Trials in one part of a point (all of them when it is whole).
fn trials_in(trials: u64, part: Option<Shard>) -> u64 {
    let chunks = trials.div_ceil(engine::CHUNK_TRIALS);
    match part {
        None => trials,
        Some(p) => p.chunks(chunks).map(|c| engine::chunk_trials(trials, c)).sum(),
    }
}

/// A number value as f64.
pub(crate) fn number(v: &Value) -> Option<f64> {
    v.as_float().or_else(|| v.as_integer().map(|i| i as f64))
}

#[cfg(feature = "files")]
/// A value as a reader names it: strings without their quotes.
pub(crate) fn label(v: &Value) -> String {
    v.as_str().map_or_else(|| v.to_string(), str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(text: &str) -> Table {
        text.parse().expect("a TOML table")
    }

    /// A shipped single resolution at three ranges, 1,000 trials each.
    pub(super) fn three_ranges() -> SweepResult {
        let base = include_str!("../../../../experiments/mc_hmg_good_cover.toml");
        let text = "kind = \"sweep\"\nscenario = \"base.toml\"\n[[vary]]\nkey = \"range\"\nvalues = [4, 12, 20]\n";
        let doc = Document::new("three.toml", "three.toml", text.to_string());
        let sweep = Sweep::read(&doc, |name| Ok(Document::new(name, name, base.to_string())), 7).unwrap();
        let monte_carlo = MonteCarlo { trials: 1000, seed: 7, threads: None, mode: Mode::Compiled };
        let stop = std::sync::atomic::AtomicBool::new(false);
        run(&sweep, &Rules::builtin(), monte_carlo, (None, 1), &|_, _| {}, &Run::new(&stop, None)).unwrap()
    }

    #[test]
    fn a_key_path_reaches_into_lists_and_makes_missing_tables() {
        let mut t = table("[[side]]\n[[side.unit]]\ncount = 1\n[[side]]\n[[side.unit]]\ncount = 2\n");
        set(&mut t, "side[1].unit[0].count", Value::Integer(5)).unwrap();
        set(&mut t, "settings.side_broken", Value::String("all_suppressed".into())).unwrap();
        assert_eq!(t["side"][1]["unit"][0]["count"].as_integer(), Some(5));
        assert_eq!(t["settings"]["side_broken"].as_str(), Some("all_suppressed"));
        assert_eq!(
            set(&mut t, "side[2].unit[0].count", Value::Integer(1)).unwrap_err(),
            "`side[2]`: the list has 2 entries, counted from 0"
        );
        assert_eq!(set(&mut t, "side.name", Value::Integer(1)).unwrap_err(), "`side` is not a table");
        // A key deeper than any scenario is refused before a table is made: 100,000
        // parts once nested a table as deep, whose writing overflowed the stack.
        let deep = vec!["a"; 100_000].join(".");
        let refused = set(&mut t, &deep, Value::Integer(1)).unwrap_err();
        assert!(refused.starts_with("a key of 100000 parts; a scenario's values are at most 16 deep"), "{refused}");
        assert!(!t.contains_key("a"), "nothing was made");
    }

    #[test]
    fn a_range_of_values_is_whole_numbers_when_it_can_be() {
        let ints: Vec<i64> = span_values(10.0, 20.0, 5.0).unwrap().iter().filter_map(Value::as_integer).collect();
        assert_eq!(ints, [10, 15, 20]);
        let floats: Vec<f64> = span_values(1.0, 2.0, 0.5).unwrap().iter().filter_map(Value::as_float).collect();
        assert_eq!(floats, [1.0, 1.5, 2.0]);
        assert!(span_values(2.0, 1.0, 1.0).is_err());
    }

    #[test]
    fn a_span_too_long_to_count_is_refused_with_its_count() {
        assert_eq!(
            span_values(1.0, 1e300, 1.0).unwrap_err(),
            "from 1 to 1e300 by 1 is 1e300 values, more than 10000; give a larger step"
        );
        assert_eq!(
            span_values(0.0, 1.0, 1e-5).unwrap_err(),
            "from 0 to 1 by 0.00001 is 100001 values, more than 10000; give a larger step"
        );
        assert!(span_values(-1e308, 1e308, 1.0).unwrap_err().contains("more values than can be counted"));
    }
}
