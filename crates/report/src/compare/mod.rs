//! Comparing weapons across rulesets in real units.
//!
//! A comparison file names weapons, a target, ranges in metres, a quality and a
//! situation once, in real-world words. Each ruleset's `equivalents.toml` (a table
//! file like any other: embedded, overridable with `--rules`) says what those words
//! are in its own scenario language, as fragments of a scenario document, and how
//! many metres one of its range units is. Compare builds one ordinary scenario per
//! (ruleset, weapon, range), compiles it with the ruleset's own code, and reads its
//! `p_kill`: exact where the ruleset's exact engine reaches, Monte Carlo otherwise.
//! Where a ruleset has no entry for a word, or refuses the scenario, the row says so
//! and the other rulesets still answer. A range beyond the weapon's reach is one
//! answer in every ruleset, "out of range", whether the ruleset's own fire refuses it
//! or carries it out with no effect (docs/interpretations.md, X5).

mod equivalents;
#[cfg(feature = "files")]
mod report;

use serde::{Deserialize, Serialize};
use toml::Spanned;

pub use equivalents::{Built, Equivalents, Words};

use crate::error::Result;
use combat_odds_core::document::Document;
use combat_odds_core::engine::{self, MonteCarlo};
use combat_odds_core::run::Run;
use combat_odds_core::stats::Estimate;
use combat_odds_rules::Rules;
use combat_odds_rules::Scenario;

/// A comparison as its file gives it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawComparison {
    kind: Spanned<String>,
    name: Option<String>,
    #[serde(default, rename = "description")]
    _description: Option<String>,
    weapons: Spanned<Vec<Spanned<String>>>,
    target: Spanned<String>,
    #[serde(default)]
    situation: Option<Spanned<String>>,
    #[serde(default)]
    quality: Option<Spanned<String>>,
    #[serde(default)]
    ranges_m: Option<Spanned<Vec<Spanned<f64>>>>,
    #[serde(default)]
    rulesets: Option<Vec<Spanned<String>>>,
}

/// A checked comparison.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Comparison {
    /// What the comparison is called.
    pub name: String,
    /// Weapons, the first being the one the others are paired against.
    pub weapons: Vec<String>,
    /// The target, in real-world words.
    pub target: String,
    /// The target's situation (`open`, `cover`, ...), if named.
    pub situation: Option<String>,
    /// The firer's quality, if named.
    pub quality: Option<String>,
    /// Ranges in metres; empty for fire that has no range (an artillery mission).
    pub ranges_m: Vec<f64>,
    /// The rulesets to compare, in order.
    pub rulesets: Vec<String>,
}

/// The longest range a comparison takes, in metres.
const MAX_RANGE_M: f64 = 20_000.0;

impl Comparison {
    /// Reads and checks a comparison file; the rulesets it names must be among `rules`.
    pub fn read(doc: &Document, rules: &Rules) -> Result<Self> {
        let raw: RawComparison = doc.parse()?;
        if raw.kind.get_ref() != "compare" {
            return Err(doc
                .error_at(
                    raw.kind.span().start,
                    format!("kind `{}`: a comparison file says kind = \"compare\"", raw.kind.get_ref()),
                )
                .into());
        }
        if raw.weapons.get_ref().is_empty() {
            return Err(doc.error_at(raw.weapons.span().start, "weapons lists no weapon; name one or more").into());
        }
        let mut ranges_m = Vec::new();
        if let Some(ranges) = &raw.ranges_m {
            if ranges.get_ref().is_empty() {
                return Err(doc
                    .error_at(ranges.span().start, "ranges_m lists no range; give one or more, or leave it out")
                    .into());
            }
            for r in ranges.get_ref() {
                let m = *r.get_ref();
                if !(m.is_finite() && m > 0.0 && m <= MAX_RANGE_M) {
                    return Err(doc
                        .error_at(r.span().start, format!("range {m} m is not from 0 to {MAX_RANGE_M} m"))
                        .into());
                }
                ranges_m.push(m);
            }
        }
        let rulesets = match &raw.rulesets {
            None => rules.names().map(|r| r.to_string()).collect(),
            Some(list) => list
                .iter()
                .map(|r| {
                    rules.names().find(|k| *k == r.get_ref()).map(|k| k.to_string()).ok_or_else(|| {
                        doc.error_at(
                            r.span().start,
                            combat_odds_core::error::unknown("ruleset", r.get_ref(), rules.names()),
                        )
                    })
                })
                .collect::<combat_odds_core::Result<_>>()?,
        };
        Ok(Comparison {
            name: raw.name.unwrap_or_else(|| doc.name.clone()),
            weapons: raw.weapons.into_inner().into_iter().map(Spanned::into_inner).collect(),
            target: raw.target.into_inner(),
            situation: raw.situation.map(Spanned::into_inner),
            quality: raw.quality.map(Spanned::into_inner),
            ranges_m,
            rulesets,
        })
    }
}

/// How a cell's kill probability was reached.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Answer {
    /// The ruleset's scenario compiled and ran.
    Odds {
        /// Kill probability over one turn's fire: (exact, estimate, ci_low, ci_high).
        turn: Odds,
        /// Kill probability of one shot, where the turn is independent shots.
        shot: Option<Odds>,
        /// The range in the ruleset's own unit, as the scenario gave it.
        table_range: Option<String>,
        /// What the ruleset's entries are.
        equivalent: String,
    },
    /// The weapon cannot reach the target at this range in this ruleset: why, in the
    /// ruleset's words. No trial is run.
    OutOfRange(String),
    /// The ruleset could not answer: why.
    None(String),
}

/// One probability with its interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Odds {
    /// The exact value, where the exact engine reached it.
    pub exact: Option<f64>,
    /// The Monte Carlo estimate.
    pub estimate: f64,
    /// 95% interval.
    pub ci_low: f64,
    /// 95% interval.
    pub ci_high: f64,
}

impl Odds {
    /// The value to plot or print: exact where known.
    pub fn best(&self) -> f64 {
        self.exact.unwrap_or(self.estimate)
    }

    /// One shot's kill chance when a turn is `shots` independent shots:
    /// P(turn) = 1 - (1 - P(shot))^shots, solved for P(shot); monotone, so the
    /// interval maps through too.
    fn per_shot(&self, shots: u32) -> Odds {
        let f = |p: f64| 1.0 - (1.0 - p).powf(1.0 / f64::from(shots));
        Odds { exact: self.exact.map(f), estimate: f(self.estimate), ci_low: f(self.ci_low), ci_high: f(self.ci_high) }
    }
}

/// One (ruleset, weapon, range) of a comparison.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Cell {
    /// The ruleset.
    pub ruleset: String,
    /// The weapon's real-world name.
    pub weapon: String,
    /// The range in metres (`None` for fire without a range).
    pub range_m: Option<f64>,
    /// What the ruleset said.
    pub answer: Answer,
}

/// The difference in kill probability between a weapon and the first one, at one
/// (ruleset, range), from trials that share their random numbers.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Difference {
    /// The ruleset.
    pub ruleset: String,
    /// The weapon compared.
    pub weapon: String,
    /// The weapon it is compared with (the comparison's first).
    pub against: String,
    /// The range in metres.
    pub range_m: Option<f64>,
    /// The exact difference, where both are exact.
    pub exact: Option<f64>,
    /// The paired estimate and its interval from common random numbers.
    pub common: Estimate,
    /// The same estimate with the interval independent runs would have given.
    pub independent: Estimate,
}

/// A comparison's answers.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Compared {
    /// The comparison.
    pub comparison: Comparison,
    /// Every cell, by ruleset, then weapon, then range.
    pub cells: Vec<Cell>,
    /// Every paired difference against the first weapon.
    pub differences: Vec<Difference>,
    /// Trials and seed (the request that asked for them has them).
    #[serde(skip)]
    pub monte_carlo: MonteCarlo,
    /// Each answering ruleset's name and the hash of the tables it loaded, in
    /// comparison order.
    pub rules_hashes: Vec<(String, String)>,
    /// Each ruleset asked for that can answer no cell, and why: said once, not in
    /// every cell.
    pub left_out: Vec<(String, String)>,
    /// The invented (illustrative) catalogue entries any answered cell rests on, by
    /// label, each once.
    pub invented: Vec<String>,
}

impl Comparison {
    /// How many runs [`compare`] makes: at every ruleset and range, each weapon's odds,
    /// and each weapon after the first paired with the first.
    pub fn runs(&self) -> u64 {
        let weapons = self.weapons.len() as u64;
        (self.rulesets.len() * self.ranges_m.len().max(1)) as u64 * (2 * weapons).saturating_sub(1)
    }

    /// The scenario `weapon` fires in `ruleset` (with its words) at `range`, set up, or
    /// the answer that takes its place: out of range, or why that ruleset cannot answer.
    fn plan(
        &self,
        (ruleset, equivalents): (&str, &Equivalents),
        weapon: &str,
        range: Option<f64>,
        rules: &Rules,
        monte_carlo: MonteCarlo,
    ) -> std::result::Result<(Scenario, Built), Box<Answer>> {
        let built = equivalents.scenario(self, weapon, range).map_err(|why| Box::new(Answer::None(why)))?;
        let doc = Document::new(
            format!("{ruleset}/{weapon}"),
            format!("compare: {} in {ruleset}", self.name),
            built.text.clone(),
        );
        // The scenario is compare's, not the user's: its line numbers mean nothing to them.
        let plan = Scenario::new(&doc, rules, monte_carlo);
        // Out of reach is one answer whatever the ruleset's fire made of it: refused, or
        // carried out with no effect.
        if let Some(why) = doc.out_of_range() {
            return Err(Box::new(Answer::OutOfRange(why)));
        }
        let plan = plan.map_err(|e| {
            Box::new(Answer::None(match e {
                combat_odds_core::Error::Input { message, .. } => message,
                other => other.to_string(),
            }))
        })?;
        Ok((plan, built))
    }

    /// The first of its scenarios that a ruleset answers, set up: what its work is
    /// priced by before it starts (every one is a single resolution). `None` where no
    /// ruleset answers any.
    pub fn sample(&self, rules: &Rules, monte_carlo: MonteCarlo) -> Result<Option<Scenario>> {
        let range = self.ranges_m.first().copied();
        for ruleset in &self.rulesets {
            let Some(equivalents) = Equivalents::of(rules.load(ruleset)?.as_ref())? else { continue };
            for weapon in &self.weapons {
                if let Ok((plan, _)) = self.plan((ruleset, &equivalents), weapon, range, rules, monte_carlo) {
                    return Ok(Some(plan));
                }
            }
        }
        Ok(None)
    }
}

/// The compiled plans of one (ruleset, range) for every weapon.
type Plans = Vec<std::result::Result<(Scenario, Built), Box<Answer>>>;

/// Runs a comparison; `progress` hears (runs done, runs in all) as each weapon's odds
/// and each paired difference is found; stopping `run` (Ctrl-C, or a page's request
/// gone) ends it between chunks with [`combat_odds_core::Error::Interrupted`].
pub fn compare(
    comparison: Comparison,
    rules: &Rules,
    monte_carlo: MonteCarlo,
    progress: &dyn Fn(u64, u64),
    run: &Run,
) -> Result<Compared> {
    let ranges: Vec<Option<f64>> = if comparison.ranges_m.is_empty() {
        vec![None]
    } else {
        comparison.ranges_m.iter().copied().map(Some).collect()
    };
    // Each (ruleset, range) runs every weapon, then every weapon after the first paired
    // with it; a ruleset that cannot answer counts as done at once.
    let planned = comparison.runs();
    let mut done = 0;
    let step = |done: u64| {
        progress(done, planned);
        run.check()
    };
    step(done)?;
    let mut cells = Vec::new();
    let mut invented = Vec::new();
    let mut differences = Vec::new();
    let mut rules_hashes = Vec::new();
    // Every ruleset that can answer, with its words; the others are said once, and
    // refused before any trial when none is left.
    let mut answering = Vec::new();
    let mut left_out = Vec::new();
    for ruleset in &comparison.rulesets {
        let loaded = rules.load(ruleset)?;
        match Equivalents::of(loaded.as_ref())? {
            None => left_out.push((
                ruleset.clone(),
                format!("it has no {}: no word of a comparison has a meaning in its rules", equivalents::FILE),
            )),
            Some(e) => match e.cannot_answer(&comparison.ranges_m) {
                Some(why) => left_out.push((ruleset.clone(), why)),
                None => answering.push((ruleset, loaded, e)),
            },
        }
    }
    if answering.is_empty() {
        let why: Vec<String> = left_out.iter().map(|(r, why)| format!("{r}: {why}")).collect();
        return Err(crate::error::Error::Results(format!(
            "comparison `{}`: no ruleset asked for can answer it ({}); ask for another ruleset",
            comparison.name,
            why.join("; ")
        )));
    }
    done += comparison.runs() / comparison.rulesets.len() as u64 * left_out.len() as u64;
    step(done)?;
    for (ruleset, loaded, equivalents) in answering {
        rules_hashes.push((ruleset.clone(), combat_odds_core::tables::rules_hash(loaded.files())));
        for &range in &ranges {
            let plans: Plans = comparison
                .weapons
                .iter()
                .map(|weapon| comparison.plan((ruleset, &equivalents), weapon, range, rules, monte_carlo))
                .collect();
            for (weapon, plan) in comparison.weapons.iter().zip(&plans) {
                let answer = match plan {
                    Ok((plan, built)) => {
                        invented = crate::export::invented_of([invented.as_slice(), plan.header.invented.as_slice()]);
                        odds(plan, built, run)?
                    }
                    Err(instead) => (**instead).clone(),
                };
                cells.push(Cell { ruleset: ruleset.clone(), weapon: weapon.clone(), range_m: range, answer });
                done += 1;
                step(done)?;
            }
            for (weapon, plan) in comparison.weapons.iter().zip(&plans).skip(1) {
                if let (Some(Ok((first, ..))), Ok((plan, ..))) = (plans.first(), plan) {
                    differences.push(difference(
                        first,
                        plan,
                        &monte_carlo,
                        (ruleset, weapon, &comparison.weapons[0]),
                        range,
                        run,
                    )?);
                }
                done += 1;
                step(done)?;
            }
        }
    }
    Ok(Compared { comparison, cells, differences, monte_carlo, rules_hashes, left_out, invented })
}

/// A compiled scenario's kill probability, exact where the ruleset's engine reaches.
fn odds(plan: &Scenario, built: &Built, run: &Run) -> Result<Answer> {
    let experiment = plan.set_up.experiment.as_ref();
    let (tally, _) = engine::run(experiment, &plan.monte_carlo, run)?;
    let (m, o) = experiment.kill();
    let estimate =
        combat_odds_core::stats::interval(tally.counts(m)[o], tally.trials(), combat_odds_core::stats::CONFIDENCE);
    let exact = experiment.exact_in(&run.exact_stage()).map(|table| table[m][o].to_f64());
    let turn = Odds { exact, estimate: estimate.estimate, ci_low: estimate.low, ci_high: estimate.high };
    Ok(Answer::Odds {
        turn,
        shot: built.shots_per_turn.map(|n| turn.per_shot(n)),
        table_range: built.table_range.clone(),
        equivalent: built.equivalent.clone(),
    })
}

/// The paired difference of `plan` minus `first` on common random numbers, with the
/// interval independent runs would have given for comparison.
fn difference(
    first: &Scenario,
    plan: &Scenario,
    monte_carlo: &MonteCarlo,
    (ruleset, weapon, against): (&str, &str, &str),
    range_m: Option<f64>,
    run: &Run,
) -> Result<Difference> {
    let (a, b) = (first.set_up.experiment.as_ref(), plan.set_up.experiment.as_ref());
    let (common, independent) =
        engine::run_paired(b, a, monte_carlo, run)?.difference(combat_odds_core::stats::CONFIDENCE);
    let exact = match (a.exact_in(&run.exact_stage()), b.exact_in(&run.exact_stage())) {
        (Some(ta), Some(tb)) => {
            let (m, o) = a.kill();
            let (mb, ob) = b.kill();
            Some(tb[mb][ob].to_f64() - ta[m][o].to_f64())
        }
        _ => None,
    };
    Ok(Difference {
        ruleset: ruleset.to_string(),
        weapon: weapon.to_string(),
        against: against.to_string(),
        range_m,
        exact,
        common,
        independent,
    })
}
