//! The regression gate: a suite of reference scenarios evaluated into a baseline
//! (every outcome of every measure: exact fraction where the exact engine reaches,
//! Monte Carlo count and interval always), and a check that evaluates the suite again
//! under the tables in force and says which probabilities moved.
//!
//! Exact values must match exactly, as reduced fractions. Monte Carlo values are
//! compared by a two-sample test of proportions with a Bonferroni correction across
//! every Monte Carlo row of the suite, so unchanged tables fail by chance at most at
//! the stated family-wise level whatever the seed.

mod baseline;
mod report;
mod tables;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Deserialize;
use toml::Spanned;

pub use baseline::{FORMAT, read_baseline, write_baseline};
pub use report::{diff_frame, diff_text};
pub use tables::{CellChange, diff_tables};

use crate::error::{Error, Result};
use combat_odds_core::document::Document;
use combat_odds_core::engine::{self, MonteCarlo};
use combat_odds_core::run::Run;
use combat_odds_rules::{Rules, Ruleset};

/// A suite file: the scenarios to gate, relative to the suite file.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSuite {
    scenarios: Spanned<Vec<Spanned<String>>>,
}

/// The reference scenarios.
#[derive(Debug, Clone, PartialEq)]
pub struct Suite {
    /// Scenario files, as they are named in the baseline.
    pub scenarios: Vec<PathBuf>,
}

/// Kinds the gate leaves out: comparisons and sweeps are made of other scenarios,
/// which the gate holds already.
const NOT_GATED: [&str; 2] = ["compare", "sweep"];

impl Suite {
    /// Every scenario of `experiments/` (comparisons and sweeps aside), in name order.
    pub fn experiments(dir: &Path) -> Result<Self> {
        let entries = std::fs::read_dir(dir)
            .map_err(|e| Error::input(dir.display().to_string(), format!("cannot list the suite ({e})")))?;
        let mut scenarios: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "toml"))
            .collect();
        scenarios.sort();
        let mut gated = Vec::new();
        for path in scenarios {
            let doc = Document::read(&path)?;
            if !NOT_GATED.contains(&doc.parse::<KindOnly>()?.kind.get_ref().as_str()) {
                gated.push(path);
            }
        }
        Ok(Suite { scenarios: gated })
    }

    /// A suite file: `scenarios = ["experiments/a.toml", ...]`, paths relative to it.
    pub fn read(path: &Path) -> Result<Self> {
        let doc = Document::read(path)?;
        let raw: RawSuite = doc.parse()?;
        if raw.scenarios.get_ref().is_empty() {
            return Err(doc
                .error_at(raw.scenarios.span().start, "scenarios lists no scenario; name one or more")
                .into());
        }
        let base = path.parent().unwrap_or(Path::new("."));
        let mut scenarios = Vec::new();
        for s in raw.scenarios.get_ref() {
            let file = base.join(s.get_ref());
            if !file.is_file() {
                return Err(doc
                    .error_at(
                        s.span().start,
                        format!(
                            "scenario `{}` is not a file (looked for {}); fix the path or remove it",
                            s.get_ref(),
                            file.display()
                        ),
                    )
                    .into());
            }
            scenarios.push(file);
        }
        Ok(Suite { scenarios })
    }
}

#[derive(Deserialize)]
struct KindOnly {
    kind: Spanned<String>,
}

#[derive(Deserialize)]
struct Header {
    ruleset: Spanned<String>,
    kind: Spanned<String>,
}

fn header(doc: &Document) -> Result<Header> {
    Ok(doc.parse()?)
}

/// One outcome of one measure of one scenario.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// The scenario file, as the suite names it.
    pub scenario: String,
    /// Its ruleset.
    pub ruleset: String,
    /// Hash of the ruleset's tables it was evaluated with.
    pub rules_hash: String,
    /// The measure.
    pub measure: String,
    /// The outcome.
    pub outcome: String,
    /// The exact probability as a reduced fraction, where the exact engine reaches.
    pub exact: Option<String>,
    /// The Monte Carlo count.
    pub count: u64,
    /// Trials run.
    pub trials: u64,
    /// Master seed.
    pub seed: u64,
}

impl Row {
    /// The Monte Carlo estimate with its 95% Wilson interval.
    pub fn estimate(&self) -> combat_odds_core::stats::Estimate {
        combat_odds_core::stats::interval(self.count, self.trials, combat_odds_core::stats::CONFIDENCE)
    }

    /// The exact probability as a number.
    pub fn exact_value(&self) -> Option<f64> {
        self.exact.as_deref().and_then(combat_odds_core::dice::Ratio::parse).map(|r| r.to_f64())
    }

    fn key(&self) -> (&str, &str, &str) {
        (&self.scenario, &self.measure, &self.outcome)
    }
}

/// The rulesets the suite needs, loaded once: by name, with their overrides applied.
#[derive(Clone)]
pub struct Rulesets {
    loaded: Vec<Arc<dyn Ruleset>>,
}

impl Rulesets {
    /// Loads every ruleset of `rules`, with its overrides.
    pub fn load(rules: &Rules) -> Result<Self> {
        let loaded = rules.names().map(|name| rules.load(name).map(Arc::from)).collect::<Result<_, _>>()?;
        Ok(Rulesets { loaded })
    }

    /// These rulesets with one of them replaced.
    pub fn with(&self, ruleset: Box<dyn Ruleset>) -> Self {
        let mut loaded = self.loaded.clone();
        if let Some(slot) = loaded.iter_mut().find(|r| r.name() == ruleset.name()) {
            *slot = Arc::from(ruleset);
        }
        Rulesets { loaded }
    }

    /// The names of the rulesets, in listing order.
    fn names(&self) -> impl Iterator<Item = &'static str> + Clone + '_ {
        self.loaded.iter().map(|r| r.name())
    }

    /// The ruleset called `name`.
    pub fn get(&self, name: &str) -> Option<&dyn Ruleset> {
        self.loaded.iter().find(|r| r.name() == name).map(|r| r.as_ref())
    }
}

/// Evaluates every scenario of `suite`: exact where the engine reaches, and
/// `monte_carlo` trials.
/// The gate is one run (the CLI's, stopped by Ctrl-C); its exact values are the
/// baseline's, so `run` gives them no time budget.
pub fn evaluate(suite: &Suite, rulesets: &Rulesets, monte_carlo: &MonteCarlo, run: &Run) -> Result<Vec<Row>> {
    let mut rows = Vec::new();
    for path in &suite.scenarios {
        rows.extend(evaluate_one(path, rulesets, monte_carlo, run)?);
    }
    Ok(rows)
}

/// The rows of one scenario.
pub(crate) fn evaluate_one(path: &Path, rulesets: &Rulesets, monte_carlo: &MonteCarlo, run: &Run) -> Result<Vec<Row>> {
    let doc = Document::read(path)?;
    let head = header(&doc)?;
    let ruleset = rulesets.get(head.ruleset.get_ref()).ok_or_else(|| {
        doc.error_at(
            head.ruleset.span().start,
            combat_odds_core::error::unknown("ruleset", head.ruleset.get_ref(), rulesets.names()),
        )
    })?;
    let compiled = ruleset.set_up(&doc, &head.kind)?;
    let experiment = compiled.experiment.as_ref();
    let (tally, _) = engine::run(experiment, monte_carlo, run)?;
    let exact = experiment.exact_in(&run.exact_stage());
    let rules_hash = combat_odds_core::tables::rules_hash(ruleset.files());
    let scenario = path.to_string_lossy().replace('\\', "/");
    let mut rows = Vec::new();
    for (m, measure) in experiment.measures().iter().enumerate() {
        for (o, outcome) in measure.outcomes.iter().enumerate() {
            rows.push(Row {
                scenario: scenario.clone(),
                ruleset: ruleset.name().to_string(),
                rules_hash: rules_hash.clone(),
                measure: measure.name.clone(),
                outcome: outcome.clone(),
                exact: exact.as_ref().map(|t| t[m][o].to_string()),
                count: tally.counts(m)[o],
                trials: tally.trials(),
                seed: monte_carlo.seed,
            });
        }
    }
    Ok(rows)
}

/// What the check found for one row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// The exact probability is the same fraction.
    ExactSame,
    /// The exact probability changed.
    ExactMoved,
    /// The Monte Carlo estimates agree at the corrected level.
    Same,
    /// The Monte Carlo estimates differ beyond chance at the corrected level.
    Moved,
}

impl Verdict {
    /// Whether this row fails the gate.
    pub fn moved(self) -> bool {
        matches!(self, Verdict::ExactMoved | Verdict::Moved)
    }

    /// How the diff table says it.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::ExactSame => "same (exact)",
            Verdict::ExactMoved => "MOVED (exact)",
            Verdict::Same => "same",
            Verdict::Moved => "MOVED",
        }
    }
}

/// One row of the diff.
#[derive(Debug, Clone, PartialEq)]
pub struct Diff {
    /// The baseline row.
    pub old: Row,
    /// The row now.
    pub new: Row,
    /// Two-sample p-value (Monte Carlo rows only).
    pub p_value: Option<f64>,
    /// The verdict.
    pub verdict: Verdict,
}

impl Diff {
    /// The probability the row stands for: exact where known, else the estimate.
    fn value(row: &Row) -> f64 {
        row.exact_value().unwrap_or_else(|| row.estimate().estimate)
    }

    /// Old probability.
    pub fn old_value(&self) -> f64 {
        Self::value(&self.old)
    }

    /// New probability.
    pub fn new_value(&self) -> f64 {
        Self::value(&self.new)
    }
}

/// Compares the suite now with its baseline. Every baseline row must still exist and
/// no new one may appear (a changed suite or measure needs a new baseline). Rows with an
/// exact value on both sides compare exactly; the rest by a two-sided two-sample
/// z-test of proportions at `alpha` divided by their number (Bonferroni).
pub fn check(baseline: &[Row], now: &[Row], alpha: f64, baseline_name: &str) -> Result<Vec<Diff>> {
    let stale = |what: String| Error::Baseline {
        file: baseline_name.to_string(),
        problem: format!("{what}; if the suite changed on purpose"),
    };
    if baseline.len() != now.len() || baseline.iter().zip(now).any(|(a, b)| a.key() != b.key()) {
        let missing = now.iter().find(|r| !baseline.iter().any(|b| b.key() == r.key()));
        let gone = baseline.iter().find(|b| !now.iter().any(|r| r.key() == b.key()));
        let what = match (missing, gone) {
            (Some(r), _) => format!("{} / {} = {} is not in the baseline", r.scenario, r.measure, r.outcome),
            (None, Some(b)) => format!("{} / {} = {} is no longer in the suite", b.scenario, b.measure, b.outcome),
            (None, None) => "the suite's rows come in another order than the baseline's".to_string(),
        };
        return Err(stale(what));
    }
    let tested = baseline.iter().zip(now).filter(|(a, b)| a.exact.is_none() || b.exact.is_none()).count();
    let per_test = alpha / tested.max(1) as f64;
    Ok(baseline
        .iter()
        .zip(now)
        .map(|(old, new)| {
            let (verdict, p_value) = match (&old.exact, &new.exact) {
                (Some(a), Some(b)) => (if a == b { Verdict::ExactSame } else { Verdict::ExactMoved }, None),
                _ => {
                    let p = combat_odds_core::stats::two_proportion_p(old.count, old.trials, new.count, new.trials);
                    (if p < per_test { Verdict::Moved } else { Verdict::Same }, Some(p))
                }
            };
            Diff { old: old.clone(), new: new.clone(), p_value, verdict }
        })
        .collect())
}
