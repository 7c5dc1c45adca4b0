//! One results schema ([`Report`]) and its renderings: a printed table, JSON and CSV.
//! Frames are built once in [`frames`] and every table and file goes through them; a
//! report's CSV alone is written without polars (the `csv` module), as a frame's would
//! be, so the browser's engine writes it too.

#[cfg(feature = "files")]
pub mod directory;
#[cfg(feature = "files")]
pub mod frames;
#[cfg(feature = "files")]
pub use directory::{write_frame, write_whole};
mod csv;
mod exact;
mod mean;
mod percent;

pub use exact::ExactView;
pub use mean::{ExactMean, Mean};
pub use percent::{Basis, Percent, PercentView};

use serde::Serialize;

use combat_odds_core::engine::{self, ExactTable, Measure, Mode, MonteCarlo, Shard, Study, Tally};
use combat_odds_core::run::Run;
use combat_odds_core::stats::{CONFIDENCE, GoodnessOfFit, goodness_of_fit, interval};
use combat_odds_rules::{Header, Scenario};

use crate::error::Result;

/// How intervals are computed, as reports state it.
pub(crate) const INTERVAL: &str = combat_odds_core::stats::INTERVAL_METHOD;
/// The generator behind every stream, as reports state it.
pub(crate) const GENERATOR: &str = "Xoshiro256++ per (seed, purpose, chunk)";

/// One outcome's probability: exact where known, estimated with its interval.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Row {
    /// Outcome label.
    pub outcome: String,
    /// Exact probability, or null.
    pub exact: Option<f64>,
    /// The exact probability as a reduced fraction, or null.
    pub exact_fraction: Option<String>,
    /// Monte Carlo estimate.
    pub estimate: f64,
    /// Lower bound of the interval.
    pub ci_low: f64,
    /// Upper bound of the interval.
    pub ci_high: f64,
    /// Trials with this outcome.
    pub count: u64,
}

/// The kill probability.
#[derive(Debug, Clone, Serialize, serde::Deserialize, PartialEq)]
pub struct Kill {
    /// Exact, or null.
    pub exact: Option<f64>,
    /// Monte Carlo estimate.
    pub estimate: f64,
    /// Lower bound.
    pub ci_low: f64,
    /// Upper bound.
    pub ci_high: f64,
}

/// Chi-square agreement of the Monte Carlo counts with the exact distribution.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Agreement {
    /// Pearson's statistic.
    pub chi_square: f64,
    /// Degrees of freedom.
    pub dof: u32,
    /// Its p-value: small values would mean disagreement.
    pub p_value: f64,
}

impl From<GoodnessOfFit> for Agreement {
    fn from(g: GoodnessOfFit) -> Self {
        Agreement { chi_square: g.chi_square, dof: g.dof, p_value: g.p_value }
    }
}

/// The kill probability with the measure and outcome it is read from.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct KillRow {
    /// The measure that holds the kill (`target`, `company`, `winner`, ...).
    pub measure: String,
    /// Its outcome that counts as the kill (`eliminated`, `destroyed`, ...).
    pub outcome: String,
    /// The probability.
    #[serde(flatten)]
    pub odds: Kill,
}

/// One measure's outcomes.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct MeasureRows {
    /// Measure name.
    pub measure: String,
    /// Its outcomes.
    pub outcomes: Vec<Row>,
    /// Agreement with exact, where exact exists.
    pub agreement: Option<Agreement>,
    /// Its mean, where its outcomes are whole numbers (hits, survivors, turns).
    pub mean: Option<Mean>,
}

/// Everything a fire or morale resolution reports.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Report {
    /// Ruleset name.
    pub ruleset: String,
    /// Scenario name.
    pub scenario: String,
    /// Scenario kind.
    pub kind: String,
    /// Monte Carlo trials.
    pub trials: u64,
    /// Master seed.
    pub seed: u64,
    /// P(target eliminated) (or company eliminated, for morale), naming where it is read.
    pub p_kill: KillRow,
    /// Every measure, each in the same shape, the primary one (`target`, `company`) first.
    pub measures: Vec<MeasureRows>,
    /// How the numbers were reached.
    pub notes: Vec<String>,
    /// Interval method.
    pub interval: String,
    /// Random generator.
    pub generator: String,
    /// How trials were drawn: `literal` or `compiled`.
    pub mode: Mode,
    /// Hash of the loaded table files.
    pub rules_hash: String,
    /// The invented (illustrative) catalogue entries the numbers rest on, by label.
    pub invented: Vec<String>,
    /// combat-odds version.
    pub version: String,
}

/// The invented entries of several answers, each once, in the order first met.
pub fn invented_of<'a>(answers: impl IntoIterator<Item = &'a [String]>) -> Vec<String> {
    let mut all: Vec<String> = Vec::new();
    for label in answers.into_iter().flatten() {
        if !all.contains(label) {
            all.push(label.clone());
        }
    }
    all
}

/// The one sentence every output gives when its numbers rest on invented catalogue
/// entries (`labels`), or `None` when they rest on the rules' own tables alone.
pub fn invented_line(labels: &[String]) -> Option<String> {
    let (last, rest) = labels.split_last()?;
    let named = match rest {
        [] => last.clone(),
        _ => format!("{} and {last}", rest.join(", ")),
    };
    let verb = if rest.is_empty() { "is" } else { "are" };
    Some(format!(
        "Invented data: {named} {verb} from an illustrative catalogue, made up to show the format, not the published rules' values."
    ))
}

impl Report {
    /// Builds the report from the tally and the exact table.
    pub fn new(
        header: Header,
        plan: &MonteCarlo,
        measures: &[Measure],
        kill: (usize, usize),
        tally: &Tally,
        exact: Option<&ExactTable>,
    ) -> Self {
        let n = tally.trials();
        let all: Vec<MeasureRows> = measures
            .iter()
            .enumerate()
            .map(|(m, measure)| {
                let counts = tally.counts(m);
                let exact_m = exact.map(|e| &e[m]);
                let outcomes = measure
                    .outcomes
                    .iter()
                    .enumerate()
                    .map(|(o, label)| {
                        let e = interval(counts[o], n, CONFIDENCE);
                        let x = exact_m.map(|row| &row[o]);
                        Row {
                            outcome: label.clone(),
                            exact: x.map(|r| r.to_f64()),
                            exact_fraction: x.map(|r| r.to_string()),
                            estimate: e.estimate,
                            ci_low: e.low,
                            ci_high: e.high,
                            count: counts[o],
                        }
                    })
                    .collect();
                let agreement = exact_m.map(|row| goodness_of_fit(counts, row).into());
                let mean = mean::of(&measure.outcomes, counts, exact_m.map(Vec::as_slice));
                MeasureRows { measure: measure.name.clone(), outcomes, agreement, mean }
            })
            .collect();
        let (km, ko) = kill;
        let kill_row = &all[km].outcomes[ko];
        let p_kill = KillRow {
            measure: all[km].measure.clone(),
            outcome: kill_row.outcome.clone(),
            odds: Kill {
                exact: kill_row.exact,
                estimate: kill_row.estimate,
                ci_low: kill_row.ci_low,
                ci_high: kill_row.ci_high,
            },
        };
        Report {
            ruleset: header.ruleset,
            scenario: header.scenario,
            kind: header.kind,
            trials: n,
            seed: plan.seed,
            p_kill,
            measures: all,
            notes: header.notes,
            interval: INTERVAL.to_string(),
            generator: GENERATOR.to_string(),
            mode: plan.mode,
            rules_hash: header.rules_hash,
            invented: header.invented,
            version: env!("CARGO_PKG_VERSION").to_string(),
        }
    }

    /// The whole report of `scenario`: its exact stage, with no time budget, then its
    /// Monte Carlo run, on a run of its own that nothing stops: for a library caller
    /// that wants the answer however long it takes ([`Report::run`] takes a run that
    /// can be stopped).
    pub fn of(mut scenario: Scenario) -> Result<Report> {
        let stop = std::sync::atomic::AtomicBool::new(false);
        let run = Run::new(&stop, None);
        let exact = scenario.exact(&run)?;
        Report::run(scenario, exact, &|_, _| {}, &run)
    }

    /// Runs `scenario`'s Monte Carlo and reports it beside `exact` (what
    /// [`Scenario::exact`] gave); `progress` hears (trials done, trials planned)
    /// after each batch of chunks, and stopping `run` (the CLI's Ctrl-C, or a request's
    /// own flag) stops it between chunks.
    pub fn run(
        scenario: Scenario,
        exact: Option<ExactTable>,
        progress: &(dyn Fn(u64, u64) + Sync),
        run: &Run,
    ) -> Result<Report> {
        let experiment = scenario.set_up.experiment.as_ref();
        let whole = Study { monte_carlo: scenario.monte_carlo, shard: Shard::WHOLE, precision: None };
        let ran = engine::run_study(experiment, &whole, progress, run)?;
        let mut header = scenario.header;
        if let Some(why) = ran.why_literal {
            header.stand_aside(why);
        }
        Ok(Report::new(
            header,
            &MonteCarlo { mode: ran.mode, ..scenario.monte_carlo },
            experiment.measures(),
            experiment.kill(),
            &ran.tally,
            exact.as_ref(),
        ))
    }

    /// Every (measure, outcome) as one CSV row under a header, each saying where it
    /// came from (ruleset, scenario, seed, trials, mode, rules hash): what
    /// `fire --format csv` prints, byte for byte in the browser too.
    pub fn csv(&self) -> String {
        csv::report(self)
    }

    /// Every measure's rows, the primary first: (measure, rows, agreement).
    pub fn all_measures(&self) -> impl Iterator<Item = (&str, &[Row], Option<&Agreement>)> {
        self.measures.iter().map(|m| (m.measure.as_str(), m.outcomes.as_slice(), m.agreement.as_ref()))
    }
}

/// A result the CLI prints as a human-readable table, one JSON object, or CSV.
pub trait Rendered: Serialize {
    /// As a human-readable table.
    #[cfg(feature = "files")]
    fn to_table(&self) -> String;

    /// As CSV, through a polars frame.
    #[cfg(feature = "files")]
    fn to_csv(&self) -> String;

    /// As one JSON object.
    fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a result always serializes")
    }
}

/// The longest exact fraction a printed mean line writes out.
#[cfg(feature = "files")]
const SHORT_FRACTION: usize = 24;

/// A measure's mean as the printed report gives it, under its table.
#[cfg(feature = "files")]
fn mean_line(m: &Mean) -> String {
    // An engagement's fraction can run to hundreds of digits: the JSON keeps it whole.
    let exact = match (&m.exact, &m.exact_fraction) {
        (Some(e), Some(f)) if f.len() <= SHORT_FRACTION => format!("exact {e:.6} ({f}), "),
        (Some(e), _) => format!("exact {e:.6}, "),
        _ => String::new(),
    };
    let over = if m.leaves_out.is_empty() {
        String::new()
    } else {
        format!(" (the {} trials whose outcome is a number; left out: {})", m.count, m.leaves_out.join(", "))
    };
    format!("mean: {exact}estimate {:.6} [{:.6}, {:.6}]{over}\n", m.estimate, m.ci_low, m.ci_high)
}

impl Rendered for Report {
    #[cfg(feature = "files")]
    fn to_table(&self) -> String {
        let mut s = format!("{} -- {} ({})\n", self.scenario, self.ruleset, self.kind);
        if let Some(line) = invented_line(&self.invented) {
            s += &format!("{line}\n");
        }
        for note in &self.notes {
            s += &format!("  {note}\n");
        }
        s += &format!(
            "\n{} trials ({}), seed {}, {}; intervals: {}\n",
            self.trials,
            self.mode.name(),
            self.seed,
            self.generator,
            self.interval
        );
        for m in &self.measures {
            let rows = frames::rows_frame(&m.outcomes).map(|f| f.to_string()).unwrap_or_default();
            s += &format!("\n{}\n{rows}\n", m.measure);
            if let Some(a) = &m.agreement {
                s += &format!(
                    "Monte Carlo vs exact: chi-square {:.2} on {} dof, p = {:.3}\n",
                    a.chi_square, a.dof, a.p_value
                );
            }
            if let Some(mean) = &m.mean {
                s += &mean_line(mean);
            }
        }
        let k = &self.p_kill.odds;
        let exact = k.exact.map_or("n/a".to_string(), |e| format!("{e:.6}"));
        s += &format!("\np_kill: exact {exact}, estimate {:.6} [{:.6}, {:.6}]\n", k.estimate, k.ci_low, k.ci_high);
        s
    }

    /// One row per (measure, outcome).
    #[cfg(feature = "files")]
    fn to_csv(&self) -> String {
        self.csv()
    }
}
