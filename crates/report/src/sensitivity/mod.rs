//! Sensitivity: which table cells and scenario modifiers move `p_kill` most, and by how
//! much one step of each moves it.
//!
//! Every table file the scenario's ruleset loads is walked for one-step changes
//! ([`changes`]: each number up and down by one, each boundary between two bands moved
//! by one), whatever the ruleset. Each change is made in memory and the ruleset
//! reloaded through its own validation ([`combat_odds_rules::Rules::with_file`], the in-memory form of
//! `--rules`), the scenario compiled again and its `p_kill` computed exactly. Where the
//! exact engine does not reach, the changed and the unchanged scenario are run trial
//! by trial on the same random numbers (trial `t` of either draws from
//! [`Streams::for_paired_trial`]`(seed, t)`), so their difference is measured far
//! tighter than two separate runs would measure it; the unchanged scenario's kills are
//! counted once and kept. A change that alters none of the first `PILOT_TRIALS`
//! trials is counted as not moving `p_kill` without running the rest: with common
//! random numbers an unchanged resolution changes no trial at all, and a change that
//! alters fewer than about 3 in `PILOT_TRIALS` trials moves `p_kill` by less than
//! that. A change the loader or the scenario compiler refuses is counted, not an
//! error. Dropping each modifier the scenario names is a change of the scenario itself.

pub mod changes;
mod report;

pub use report::{Baseline, Refusal, Row, Sensitivity};

use std::cmp::Ordering;
use std::ops::Range;
use std::sync::OnceLock;
use std::sync::atomic::{self, AtomicU64};

use rayon::prelude::*;
use serde::Deserialize;
use toml::Spanned;

use combat_odds_core::dice::Ratio;
use combat_odds_core::document::Document;
use combat_odds_core::engine::{Experiment, MonteCarlo, Streams, Tally};
use combat_odds_core::error::Setting;
use combat_odds_core::run::Run;
use combat_odds_rules::Scenario;

use crate::error::Result;
use changes::Change;
use combat_odds_core::stats::CONFIDENCE;
use combat_odds_core::stats::{Paired, interval};
use combat_odds_core::tables::{Source, TableFile};
use combat_odds_rules::{Rules, Ruleset};

/// Which document a change is made in.
#[derive(Debug, Clone, Copy)]
enum Target {
    /// The ruleset's table file at this index of [`Ruleset::files`].
    Table(usize),
    /// The scenario.
    Scenario,
}

/// A change and where it is made.
struct Variant {
    target: Target,
    change: Change,
}

/// Trials every change runs first on common random numbers; a change that alters none
/// of them is counted as not moving `p_kill`.
pub(crate) const PILOT_TRIALS: u64 = 10_000;

/// Trials per parallel block of a paired run.
const BLOCK_TRIALS: u64 = 4096;

/// What one change does to `p_kill`.
enum Outcome {
    /// The changed scenario's exact `p_kill`.
    Exact(Ratio),
    /// The changed scenario (first) paired with the unchanged one (second).
    Estimate(Paired),
    /// The changed scenario killed in exactly the pilot trials the unchanged one did.
    Unchanged,
    /// The loader or the compiler refused the change: why.
    Refused(String),
}

#[derive(Deserialize)]
struct Head {
    kind: Spanned<String>,
}

#[derive(Deserialize)]
struct Provenance {
    source: Option<Source>,
}

/// The measure and outcome labels of an experiment's kill.
fn kill_labels(e: &dyn Experiment) -> (String, String) {
    let (m, o) = e.kill();
    let measure = &e.measures()[m];
    (measure.name.clone(), measure.outcomes[o].clone())
}

/// What `sensitivity` lists and how it measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// List this many of the changes that move `p_kill` most (at least 1).
    pub top: usize,
    /// Run every change's pilot trials first, also where the exact engine reaches:
    /// much faster where each exact answer is a long Markov-chain solve (whole
    /// engagements), at the price of counting a change that alters none of the pilot
    /// trials as not moving.
    pub screen: bool,
}

/// Every one-step change [`analyse`] tries on the scenario of `plan` (read from
/// `doc`): each table cell and modifier of its ruleset's files, then each modifier the
/// scenario names dropped (how many of those is the second number).
fn variants(doc: &Document, plan: &Scenario) -> Result<(Vec<Variant>, usize)> {
    let mut variants = Vec::new();
    for (i, file) in plan.ruleset.files().iter().enumerate() {
        let found = changes::table_changes(&file.text).map_err(|m| file.error(m))?;
        variants.extend(found.into_iter().map(|change| Variant { target: Target::Table(i), change }));
    }
    let drops = changes::modifier_drops(&doc.text).map_err(|m| doc.error(m))?;
    let named_modifiers = drops.len();
    variants.extend(drops.into_iter().map(|change| Variant { target: Target::Scenario, change }));
    Ok((variants, named_modifiers))
}

/// How many changes [`analyse`] would try on the scenario: what its work is priced by
/// before it starts.
pub fn changes_to_try(doc: &Document, plan: &Scenario) -> Result<usize> {
    Ok(variants(doc, plan)?.0.len())
}

/// The scenario of `plan` (read from `doc`, its ruleset one of `rules`) under every one-step change, the
/// changes that move `p_kill` most first. `progress` hears (changes evaluated,
/// changes in all) as each change is done; stopping `run` (Ctrl-C, or a page's request
/// gone) ends it within a block of trials with [`combat_odds_core::Error::Interrupted`],
/// and each exact answer is one of the run's exact stages.
pub fn analyse(
    doc: &Document,
    (plan, rules): (&Scenario, &Rules),
    options: Options,
    progress: &(dyn Fn(u64, u64) + Sync),
    run: &Run,
) -> Result<Sensitivity> {
    let top = options.top;
    if top == 0 {
        return Err(combat_odds_core::Error::setting(Setting::Top, "must be at least 1").into());
    }
    let head: Head = doc.parse()?;
    let ruleset = plan.ruleset.as_ref();
    let base = plan.set_up.experiment.as_ref();
    let (km, ko) = base.kill();
    let (variants, named_modifiers) = variants(doc, plan)?;

    let study = Study {
        doc,
        kind: &head.kind,
        ruleset,
        rules,
        base,
        kill: kill_labels(base),
        monte_carlo: plan.monte_carlo,
        screen: options.screen,
        base_kills: OnceLock::new(),
        run,
    };
    let (base_exact, outcomes) = combat_odds_core::engine::in_pool(plan.monte_carlo.threads, || {
        let base_exact = base.exact_in(&run.exact_stage()).map(|t| t[km][ko].clone());
        let done = AtomicU64::new(0);
        let planned = variants.len() as u64;
        progress(0, planned);
        let outcomes = variants
            .par_iter()
            .map(|v| {
                run.check()?;
                let outcome = study.evaluate(v, base_exact.is_some());
                // A change cut short by the run's stop counted nothing: it is not reported.
                run.check()?;
                progress(done.fetch_add(1, atomic::Ordering::Relaxed) + 1, planned);
                Ok(outcome)
            })
            .collect::<combat_odds_core::Result<Vec<Outcome>>>();
        outcomes.map(|outcomes| (base_exact, outcomes))
    })??;
    let baseline = match &base_exact {
        Some(exact) => Baseline::exact(exact),
        None => {
            let kills = combat_odds_core::engine::in_pool(plan.monte_carlo.threads, || study.base_kills())?;
            let killed = kills.iter().filter(|&&k| k).count() as u64;
            Baseline::estimate(interval(killed, plan.monte_carlo.trials, CONFIDENCE))
        }
    };

    let provenance: Vec<Option<Source>> =
        ruleset.files().iter().map(|f| toml::from_str::<Provenance>(&f.text).ok().and_then(|p| p.source)).collect();
    let mut rows = Vec::new();
    let mut refusals = Vec::new();
    let mut still = 0;
    for (variant, outcome) in variants.iter().zip(outcomes) {
        let (file, source) = match variant.target {
            Target::Table(i) => (ruleset.files()[i].name.clone(), provenance[i].clone()),
            Target::Scenario => (doc.name.clone(), None),
        };
        let c = &variant.change;
        let moved = match outcome {
            Outcome::Refused(reason) => {
                refusals.push(Refusal {
                    file,
                    cell: c.cell.clone(),
                    now: c.now.clone(),
                    changed: c.changed.clone(),
                    reason,
                });
                continue;
            }
            Outcome::Exact(after) => {
                let before = base_exact.as_ref().expect("exact outcomes only beside an exact baseline");
                (after != *before).then(|| Moved::exact(before, &after))
            }
            Outcome::Estimate(paired) => {
                (paired.first_only + paired.second_only > 0).then(|| Moved::estimate(&baseline, &paired))
            }
            Outcome::Unchanged => None,
        };
        let Some(moved) = moved else {
            still += 1;
            continue;
        };
        rows.push((moved.magnitude, Row::new(file, source, c, &baseline, moved)));
    }
    let moving = rows.len();
    // Largest move first; equal moves in the order of file, cell and change.
    rows.sort_by(|(ma, a), (mb, b)| {
        mb.total_cmp(ma)
            .then_with(|| (&a.file, &a.cell, &a.now, &a.changed).cmp(&(&b.file, &b.cell, &b.now, &b.changed)))
    });
    let rows: Vec<Row> =
        rows.into_iter().take(top).enumerate().map(|(i, (_, row))| Row { rank: i + 1, ..row }).collect();
    let estimated = rows.iter().any(|r| r.method == "estimate") || base_exact.is_none();
    Ok(Sensitivity {
        ruleset: plan.header.ruleset.clone(),
        scenario: plan.header.scenario.clone(),
        kind: plan.header.kind.clone(),
        kill: format!("{} = {}", study.kill.0, study.kill.1),
        rules_hash: plan.header.rules_hash.clone(),
        p_kill: baseline,
        table_files: ruleset.files().len(),
        named_modifiers,
        changes: variants.len(),
        moving,
        not_moving: still,
        refused: refusals.len(),
        top,
        trials: estimated.then_some(plan.monte_carlo.trials),
        pilot_trials: (estimated || options.screen).then_some(plan.monte_carlo.trials.min(PILOT_TRIALS)),
        seed: estimated.then_some(plan.monte_carlo.seed),
        rows,
        refusals,
        version: env!("CARGO_PKG_VERSION").to_string(),
    })
}

/// What every change is measured against.
struct Study<'a> {
    doc: &'a Document,
    kind: &'a Spanned<String>,
    ruleset: &'a dyn Ruleset,
    /// Where a changed table file reloads the ruleset from.
    rules: &'a Rules,
    base: &'a dyn Experiment,
    kill: (String, String),
    monte_carlo: MonteCarlo,
    /// Screen every change with the pilot trials, also before an exact answer.
    screen: bool,
    /// The unchanged scenario's kill in each trial, counted once when first needed.
    base_kills: OnceLock<Vec<bool>>,
    /// The run the analysis belongs to: its stop and exact budget.
    run: &'a Run<'a>,
}

impl Study<'_> {
    /// The changed scenario's `p_kill`: exact when the baseline is and the exact engine
    /// reaches, else paired with the baseline on common random numbers.
    fn evaluate(&self, variant: &Variant, exact: bool) -> Outcome {
        let change = &variant.change;
        let compiled = match variant.target {
            Target::Table(i) => {
                let file = &self.ruleset.files()[i];
                let changed = TableFile::new(file.name.clone(), file.origin.clone(), change.apply(&file.text));
                self.rules.with_file(self.ruleset, changed).and_then(|r| r.set_up(self.doc, self.kind))
            }
            Target::Scenario => {
                let doc = Document::new(self.doc.name.clone(), self.doc.origin.clone(), change.apply(&self.doc.text));
                self.ruleset.set_up(&doc, self.kind)
            }
        };
        let compiled = match compiled {
            Ok(c) => c,
            Err(e) => return Outcome::Refused(e.to_string()),
        };
        let e = compiled.experiment.as_ref();
        if kill_labels(e) != self.kill {
            let (m, o) = kill_labels(e);
            return Outcome::Refused(format!(
                "the change makes the kill {m} = {o}, not {} = {}",
                self.kill.0, self.kill.1
            ));
        }
        let (trials, seed) = (self.monte_carlo.trials, self.monte_carlo.seed);
        let pilot = trials.min(PILOT_TRIALS);
        let mut kills = Vec::new();
        if self.screen || !exact {
            kills = kill_flags(e, seed, 0..pilot, self.run);
            if kills[..] == self.base_kills()[..pilot as usize] {
                return Outcome::Unchanged;
            }
        }
        if exact && let Some(table) = e.exact_in(&self.run.exact_stage()) {
            let (m, o) = e.kill();
            return Outcome::Exact(table[m][o].clone());
        }
        if kills.is_empty() {
            kills = kill_flags(e, seed, 0..pilot, self.run);
        }
        let base = self.base_kills();
        kills.extend(kill_flags(e, self.monte_carlo.seed, pilot..trials, self.run));
        let mut paired = Paired { trials, ..Paired::default() };
        for (&changed, &unchanged) in kills.iter().zip(base) {
            match (changed, unchanged) {
                (true, true) => paired.both += 1,
                (true, false) => paired.first_only += 1,
                (false, true) => paired.second_only += 1,
                (false, false) => {}
            }
        }
        Outcome::Estimate(paired)
    }

    /// The unchanged scenario's kill in each trial.
    fn base_kills(&self) -> &[bool] {
        self.base_kills
            .get_or_init(|| kill_flags(self.base, self.monte_carlo.seed, 0..self.monte_carlo.trials, self.run))
    }
}

/// Whether `e` kills in each of `trials`, trial `t` drawing from its own streams
/// ([`Streams::for_paired_trial`]), so two resolutions see the same numbers in every
/// trial however many dice each rolls. Blocks run in parallel and are joined in order.
fn kill_flags(e: &dyn Experiment, seed: u64, trials: Range<u64>, run: &Run) -> Vec<bool> {
    let layout = combat_odds_core::engine::layout(e.measures());
    let (m, o) = e.kill();
    let blocks: Vec<Range<u64>> = trials
        .clone()
        .step_by(BLOCK_TRIALS as usize)
        .map(|start| start..(start + BLOCK_TRIALS).min(trials.end))
        .collect();
    let parts: Vec<Vec<bool>> = blocks
        .into_par_iter()
        .map(|block| {
            // Once the run is stopped the blocks left count nothing (the analysis ends
            // as interrupted), keeping every flag vector its full length.
            if run.stopped() {
                return vec![false; block.count()];
            }
            let mut tally = Tally::new(&layout);
            block
                .map(|t| {
                    let before = tally.counts(m)[o];
                    e.simulate(&mut Streams::for_paired_trial(seed, t), 1, &mut tally);
                    tally.counts(m)[o] > before
                })
                .collect()
        })
        .collect();
    parts.concat()
}

/// How far a change moved `p_kill`.
struct Moved {
    /// |delta|, the ranking key: for exact answers the exact difference converted once,
    /// so equal differences rank as equal.
    magnitude: f64,
    /// after - before.
    delta: f64,
    /// The changed `p_kill`.
    after: f64,
    /// Exactly, as a fraction.
    exact_after: Option<String>,
    /// The 95% interval of the difference, for an estimate.
    interval: Option<(f64, f64)>,
}

impl Moved {
    fn exact(before: &Ratio, after: &Ratio) -> Self {
        let (x, y) = (after.numer() * before.denom(), before.numer() * after.denom());
        let den = after.denom() * before.denom();
        let (magnitude, sign) = match x.cmp(&y) {
            Ordering::Less => (Ratio::from_big(&y - &x, den).to_f64(), -1.0),
            _ => (Ratio::from_big(&x - &y, den).to_f64(), 1.0),
        };
        Moved {
            magnitude,
            delta: sign * magnitude,
            after: after.to_f64(),
            exact_after: Some(after.to_string()),
            interval: None,
        }
    }

    fn estimate(baseline: &Baseline, paired: &Paired) -> Self {
        let (d, _) = paired.difference(CONFIDENCE);
        Moved {
            magnitude: d.estimate.abs(),
            delta: d.estimate,
            after: baseline.value + d.estimate,
            exact_after: None,
            interval: Some((d.low, d.high)),
        }
    }
}
