//! One function per endpoint: its request's body read, its scenario set up and its work
//! priced, and the work itself, as every front door runs it.

use serde::{Deserialize, Serialize};
use toml::Value;

use combat_odds_core::document::Document;
use combat_odds_core::engine::{Mode, MonteCarlo};
use combat_odds_core::run::Run;
use combat_odds_rules::{Rules, Scenario};

use super::{Context, Endpoint, Job, Kind, OwnTables, Refused, Sampling, document, json, read, rules_for};
use crate::catalogue::{self, CatalogueForm};
use crate::compare::{self, Comparison};
use crate::cost::{Cost, Pricing};
use crate::export::{ExactView, PercentView, Rendered, Report};
use crate::form::Form;
use crate::sensitivity::{self, Options};
use crate::study::{Plan, StudyResult};
use crate::sweep::balance::{self, Span, Target};
use crate::sweep::{self, Sweep};

/// A request type that samples: its own fields, then those every sampling request
/// takes, declared once here (serde cannot flatten fields into a type that refuses
/// unknown ones): `trials`, `seed`, `mode` (`compiled`, the default, or `literal`),
/// `exact_seconds` (the most each exact stage may take, up to the front door's own
/// bound) and `tables` (table files of the player's own, read in place of the rules'
/// files of the same names for this request).
macro_rules! sampling_request {
    ($(#[$meta:meta])* struct $name:ident { $($(#[$field_meta:meta])* $field:ident: $kind:ty,)* }) => {
        $(#[$meta])*
        #[derive(Debug, Deserialize)]
        #[serde(deny_unknown_fields)]
        struct $name {
            $($(#[$field_meta])* $field: $kind,)*
            trials: Option<u64>,
            seed: Option<u64>,
            mode: Option<String>,
            exact_seconds: Option<f64>,
            #[serde(default)]
            tables: OwnTables,
        }
    };
}

sampling_request! {
    /// A scenario (or comparison) file, with how to sample it: the body of fire, its
    /// CSV, exact, percent, answers, run and compare.
    struct ScenarioRequest {
        /// The file's text.
        scenario: String,
        /// The file name messages and reports use ([`super::DEFAULT_NAME`] when not
        /// given).
        name: Option<String>,
    }
}

/// The body of the form: a file's text, its name and the player's own tables.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FormRequest {
    scenario: String,
    name: Option<String>,
    #[serde(default)]
    tables: OwnTables,
}

/// The body of the catalogue editor: the ruleset, the player's catalogue text (the
/// rules' own when not given) and the edit to make on it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CatalogueRequest {
    ruleset: String,
    text: Option<String>,
    edit: Option<catalogue::Edit>,
}

/// The body of sensitivity: a scenario and how to look for what moves it. Always
/// sampled literal: each change is paired with the unchanged tables on common random
/// numbers.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SensitivityRequest {
    scenario: String,
    name: Option<String>,
    trials: Option<u64>,
    seed: Option<u64>,
    /// How many of the changes that move `p_kill` most to list (20 when not given).
    top: Option<usize>,
    /// Screen every change with pilot trials first (see `sensitivity --screen`).
    #[serde(default)]
    screen: bool,
    exact_seconds: Option<f64>,
    /// The player's own tables: their cells are the ones changed.
    #[serde(default)]
    tables: OwnTables,
}

sampling_request! {
    /// The body of sweep: a sweep file, its base scenario (the shipped one it names
    /// when not given), and how to sample every point.
    struct SweepRequest {
        sweep: String,
        /// The base scenario's text.
        base: Option<String>,
    }
}

sampling_request! {
    /// The body of balance: a scenario, the key to vary and where, and the chance
    /// sought.
    struct BalanceRequest {
        scenario: String,
        name: Option<String>,
        /// The key to vary, by its path.
        vary: String,
        /// Values to try, each answered.
        values: Option<Vec<Value>>,
        /// A span of numbers: its low end, high end, and step (without one, a
        /// bisection).
        from: Option<f64>,
        to: Option<f64>,
        step: Option<f64>,
        /// The bisection's tolerance (a 64th of the span when not given).
        tolerance: Option<f64>,
        /// The chance sought (0.5 when not given).
        target: Option<f64>,
        /// The measure and outcome balanced (the scenario's `p_kill` when not given).
        measure: Option<String>,
        outcome: Option<String>,
    }
}

/// What a finished engagement answers: its report, and the files kept for download
/// where the front door keeps any (a browser tab keeps none; its page offers its own).
#[derive(Serialize)]
struct Finished {
    /// The number its files are fetched by, where they were kept.
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<u64>,
    /// Every measure, exact beside Monte Carlo.
    report: Report,
    /// Seconds from the exact stage's start to the last trial.
    wall_time_s: f64,
    /// (file name, bytes) of every file kept.
    files: Vec<(String, u64)>,
}

/// How a request of any endpoint's type asks to sample: its trials, seed, mode and
/// exact budget, moved out of it.
macro_rules! sampling {
    ($r:expr) => {
        Sampling { trials: $r.trials, seed: $r.seed, mode: $r.mode, exact_seconds: $r.exact_seconds }
    };
}

/// The files a finished run keeps, where its front door keeps any ([`kept`]): none in a
/// browser tab, whose engine is built without writing files at all (the `write` is
/// not even compiled there).
macro_rules! kept {
    ($downloads:expr, $write:expr) => {{
        #[cfg(feature = "files")]
        let kept = kept($downloads.as_deref(), $write)?;
        #[cfg(not(feature = "files"))]
        let kept = {
            drop($downloads);
            (None, Vec::new())
        };
        kept
    }};
}

/// What each of one run's work can be asked for less of, as a refusal says it.
const ONE_RUN: &str = "fewer trials, or a smaller exact_seconds";

/// `endpoint`'s request in `body`, read and validated, its scenario set up against the
/// context's rules and the player's own tables, and its work priced: refused with the
/// one line that says why, before any of the work starts. Pricing runs on `run`, the
/// request's own: stopped (its client gone), it stops too, and the request is refused
/// as interrupted.
pub fn prepare(endpoint: Endpoint, body: &str, context: &Context, run: &Run) -> Result<Job, Refused> {
    let job = prepared(endpoint, body, context, run)?;
    run.check()?;
    Ok(job)
}

fn prepared(endpoint: Endpoint, body: &str, context: &Context, run: &Run) -> Result<Job, Refused> {
    let limits = &context.limits;
    match endpoint {
        Endpoint::Fire | Endpoint::FireCsv | Endpoint::Exact | Endpoint::Percent | Endpoint::Run => {
            let r: ScenarioRequest = read(body)?;
            let (monte_carlo, exact_budget) = sampling!(r).plan(endpoint, limits)?;
            let doc = document(r.name, r.scenario);
            let scenario = Scenario::new(&doc, &rules_for(context.rules, &r.tables)?, monte_carlo)?;
            let experiment = scenario.set_up.experiment.as_ref();
            let pricing = Pricing { exact_budget, pace: limits.pace, run };
            let cost = match endpoint {
                // One exact stage and no trial: no link, whatever trials it names, starts
                // long work by being opened.
                Endpoint::Exact => Cost::exact_stage(experiment, pricing),
                _ => Cost::of(experiment, (1, "run"), &monte_carlo, pricing, ONE_RUN),
            };
            let downloads = context.downloads.clone();
            Ok(Job::new(cost, exact_budget, move |run, heard| match endpoint {
                Endpoint::Exact => json(&ExactView::of(scenario, run)?),
                Endpoint::Percent => {
                    let mut scenario = scenario;
                    json(&PercentView::of(&doc, &mut scenario, run)?)
                }
                Endpoint::Run => {
                    // From the exact stage's start, as `combat-odds run` times it.
                    let started = run.now();
                    let mut scenario = scenario;
                    let exact = scenario.exact(run)?;
                    let plan = Plan { scenario, text: &doc.text, shard: None, precision: None };
                    let study = StudyResult::run(plan, exact, started, heard, run)?;
                    let (id, files) = kept!(downloads, |dir| study.write(dir, false, run));
                    json(&Finished { id, report: study.report, wall_time_s: study.summary.wall_time_s, files })
                }
                _ => {
                    let mut scenario = scenario;
                    let exact = scenario.exact(run)?;
                    let report = Report::run(scenario, exact, heard, run)?;
                    match endpoint {
                        // The very text `fire --format json` prints, but its last newline.
                        Endpoint::Fire => Ok(report.to_json()),
                        _ => json(&report.csv()),
                    }
                }
            }))
        }
        Endpoint::Form => {
            let r: FormRequest = read(body)?;
            let (doc, rules) = (document(r.name, r.scenario), rules_for(context.rules, &r.tables)?);
            Ok(Job::new(Cost::nothing((1, "form"), ""), limits.exact_budget, move |_, _| json(&Form::of(&doc, &rules))))
        }
        Endpoint::Catalogue => {
            let r: CatalogueRequest = read(body)?;
            let (shape, shipped) = catalogue::shipped(context.rules, &r.ruleset)?;
            let said = format!("your {} ({})", shape.file, r.ruleset);
            let text = r.text.unwrap_or_else(|| shipped.clone());
            let text = match &r.edit {
                Some(edit) => catalogue::edited(&text, shape, &said, edit)?,
                None => text,
            };
            // Read as `--rules DIR` reads the exported file: the same loader, the same
            // refusal.
            let own = OwnTables::from([(r.ruleset.clone(), [(shape.file.to_string(), text.clone())].into())]);
            let loaded = rules_for(context.rules, &own).and_then(|rules| Ok(rules.load(&r.ruleset).map(|_| ())?));
            let form = CatalogueForm::of(&r.ruleset, shape, text, &shipped, loaded)?;
            Ok(Job::new(Cost::nothing((1, "catalogue"), ""), limits.exact_budget, move |_, _| json(&form)))
        }
        Endpoint::Answers => {
            let r: ScenarioRequest = read(body)?;
            let (doc, rules) = (document(r.name, r.scenario), rules_for(context.rules, &r.tables)?);
            Ok(Job::new(Cost::nothing((1, "answer"), ""), limits.exact_budget, move |_, _| {
                json(&combat_odds_rules::scenario::answers(&doc, &rules)?)
            }))
        }
        Endpoint::Sensitivity => sensitivity(body, context, run),
        Endpoint::Compare => comparison(body, context, run),
        Endpoint::Sweep => sweep(body, context, run),
        Endpoint::Balance => balance(body, context, run),
    }
}

/// Which cells and modifiers move `p_kill` most: every change its own exact stage, and
/// its own paired trials where the exact engine does not reach.
fn sensitivity(body: &str, context: &Context, run: &Run) -> Result<Job, Refused> {
    let r: SensitivityRequest = read(body)?;
    let options = Options { top: r.top.unwrap_or(20), screen: r.screen };
    let mode = Some(Mode::Literal.name().to_string());
    let sampling = Sampling { trials: r.trials, seed: r.seed, mode, exact_seconds: r.exact_seconds };
    let (monte_carlo, exact_budget) = sampling.plan(Endpoint::Sensitivity, &context.limits)?;
    let (doc, rules) = (document(r.name, r.scenario), rules_for(context.rules, &r.tables)?);
    let pricing = Pricing { exact_budget, pace: context.limits.pace, run };
    // Each change sets up its own scenario, as the unchanged one was.
    let (plan, set_up) = pricing.timed(|| Scenario::new(&doc, &rules, monte_carlo));
    let plan = plan?;
    let changes = sensitivity::changes_to_try(&doc, &plan)? as u64;
    let reduce = "fewer trials, or a smaller exact_seconds (every change of every table is tried)";
    let experiment = plan.set_up.experiment.as_ref();
    let cost = Cost::of(experiment, (changes, "changes"), &monte_carlo, pricing, reduce).with_set_up(set_up);
    // A single resolution the exact engine answers (its dice enumerated at once) has
    // every change answered exactly, drawing no trial.
    let exactly = !experiment.exact_stage_is_long() && experiment.exact().is_some();
    let cost = if exactly { cost.exactly() } else { cost };
    Ok(Job::new(cost, exact_budget, move |run, heard| {
        json(&sensitivity::analyse(&doc, (&plan, &rules), options, heard, run)?)
    }))
}

/// A comparison file's answers across rulesets, priced by the first scenario a ruleset
/// answers: every one is a single resolution.
fn comparison(body: &str, context: &Context, run: &Run) -> Result<Job, Refused> {
    let r: ScenarioRequest = read(body)?;
    let (monte_carlo, exact_budget) = sampling!(r).plan(Endpoint::Compare, &context.limits)?;
    let (doc, rules) = (document(r.name, r.scenario), rules_for(context.rules, &r.tables)?);
    let comparison = Comparison::read(&doc, &rules)?;
    let runs = (comparison.runs(), "runs");
    let reduce = "fewer trials, ranges or weapons";
    let pricing = Pricing { exact_budget, pace: context.limits.pace, run };
    // Every run sets up its own scenario, answers its single resolution exactly and,
    // sampled compiled, compiles its dice, as the sample is here: what its trials do
    // not count (a run's exact dice took two thirds of a comparison's time, and the
    // comparison was priced at a third of it; without the compilation, at 0.31 of it).
    let (sample, set_up) = pricing.timed(|| {
        let sample = comparison.sample(&rules, monte_carlo);
        if let Ok(Some(s)) = &sample {
            s.set_up.experiment.exact();
            if monte_carlo.mode == Mode::Compiled {
                s.set_up.experiment.compiled();
            }
        }
        sample
    });
    // Its trials at the literal pace: a paired difference (nearly half the runs) draws
    // both its resolutions literally, one trial at a time on common random numbers.
    let literal = MonteCarlo { mode: Mode::Literal, ..monte_carlo };
    let cost = match sample? {
        Some(s) => Cost::of(s.set_up.experiment.as_ref(), runs, &literal, pricing, reduce),
        None => Cost::nothing(runs, reduce),
    }
    .with_set_up(set_up);
    Ok(Job::new(cost, exact_budget, move |run, heard| {
        json(&compare::compare(comparison, &rules, monte_carlo, heard, run)?)
    }))
}

/// A sweep file's points, each answered on common random numbers; its base is the
/// request's own text, or the shipped scenario it names. No path is ever opened.
fn sweep(body: &str, context: &Context, run: &Run) -> Result<Job, Refused> {
    let r: SweepRequest = read(body)?;
    let (monte_carlo, exact_budget) = sampling!(r).plan(Endpoint::Sweep, &context.limits)?;
    let rules = rules_for(context.rules, &r.tables)?;
    let doc = Document::new("page-sweep.toml", "page-sweep.toml", r.sweep);
    let base = r.base;
    let found = Sweep::read(
        &doc,
        |name| match base.or_else(|| (context.shipped)(name)) {
            Some(text) => Ok(Document::new(name, name, text)),
            None => Err(doc
                .error(format!("scenario `{name}` is not a shipped scenario; give its text as the sweep's base"))
                .into()),
        },
        monte_carlo.seed,
    )?;
    let points = (found.points.len() as u64, "points");
    let reduce = "fewer points or trials, or a smaller exact_seconds";
    let pricing = Pricing { exact_budget, pace: context.limits.pace, run };
    let cost = of_base(&found.base, (Some(&found), &rules), (monte_carlo, pricing), points, reduce)?;
    let downloads = context.downloads.clone();
    Ok(Job::new(cost, exact_budget, move |run, heard| {
        let result = sweep::run(&found, &rules, monte_carlo, (None, 1), heard, run)?;
        let (id, files) = kept!(downloads, |dir| result.write(dir, false, run));
        json(&result.answer(id, files))
    }))
}

/// Where a key of a scenario balances a chance, over listed values, a stepped span or a
/// bisection.
fn balance(body: &str, context: &Context, run: &Run) -> Result<Job, Refused> {
    let r: BalanceRequest = read(body)?;
    let (monte_carlo, exact_budget) = sampling!(r).plan(Endpoint::Balance, &context.limits)?;
    let span =
        Span::of_request(r.values, (r.from, r.to, r.step), r.tolerance).map_err(|m| Refused::new(Kind::Invalid, m))?;
    let target = Target { outcome: r.measure.zip(r.outcome), p: r.target.unwrap_or(0.5) };
    let (doc, rules) = (document(r.name, r.scenario), rules_for(context.rules, &r.tables)?);
    let values = (span.most_tries(), "values");
    let reduce = "fewer values or trials, a coarser tolerance, or a smaller exact_seconds";
    let pricing = Pricing { exact_budget, pace: context.limits.pace, run };
    let cost = of_base(&doc, (None, &rules), (monte_carlo, pricing), values, reduce)?;
    let key = r.vary;
    Ok(Job::new(cost, exact_budget, move |run, heard| {
        json(&balance::balance(&doc, (&key, &span), &target, &rules, monte_carlo, heard, run)?)
    }))
}

/// The price of `runs` runs of the scenario `base` (a sweep's points, where given, each
/// priced as itself and its set-up: [`Cost::of_base`]; else each run set up as the
/// base was).
fn of_base(
    base: &Document,
    (points, rules): (Option<&Sweep>, &Rules),
    (monte_carlo, pricing): (MonteCarlo, Pricing),
    runs: (u64, &'static str),
    reduce: &'static str,
) -> Result<Cost, Refused> {
    let (scenario, set_up) = pricing.timed(|| Scenario::new(base, rules, monte_carlo));
    let experiment = scenario?.set_up.experiment;
    Ok(match points {
        Some(sweep) => Cost::of_base(experiment.as_ref(), Some((sweep, rules)), runs, &monte_carlo, pricing, reduce),
        None => Cost::of(experiment.as_ref(), runs, &monte_carlo, pricing, reduce).with_set_up(set_up),
    })
}

/// Keeps a finished run's files where the front door keeps any: (the number they are
/// fetched by, each file's name and size); none in a browser tab.
#[cfg(feature = "files")]
fn kept(
    downloads: Option<&dyn super::Downloads>,
    write: impl FnOnce(&std::path::Path) -> crate::Result<Vec<String>>,
) -> Result<(Option<u64>, super::Listed), Refused> {
    let Some(downloads) = downloads else { return Ok((None, Vec::new())) };
    let mut write = Some(write);
    let mut once = |dir: &std::path::Path| match write.take() {
        Some(write) => write(dir),
        None => Ok(Vec::new()),
    };
    let (id, files) = downloads.keep(&mut once)?;
    Ok((Some(id), files))
}
