//! The command line: [`args`] holds the flags; each subcommand's function turns them
//! into the library's plan (a [`Scenario`] with its tables loaded and its seed
//! fixed), runs it with a progress bar, and prints or writes what it found. Errors
//! come back as a [`Failure`], which alone knows flag names and exit codes.

pub mod args;
mod bar;
mod answers;
mod failure;

use std::path::{Path, PathBuf};

pub use args::Args;
use args::{
    BalanceArgs, BenchArgs, Command, CompareArgs, DiffTablesArgs, FireArgs, Format, ListArgs, MergeArgs, OutputArgs,
    RegressArgs, RunArgs, SensitivityArgs, ServeArgs, SweepArgs, TrialArgs, ViewArgs,
};
use bar::Bar;
use failure::Result;
pub use failure::{Failure, INTERRUPTED};

use combat_odds_core::document::Document;
use combat_odds_core::engine::{self, Mode, MonteCarlo, Shard};
use combat_odds_core::interrupt;
use combat_odds_core::run::Run;
use combat_odds_report::error::Error as ReportError;
use combat_odds_report::export::{PercentView, Rendered, Report, directory, frames, invented_line};
use combat_odds_report::study::{self, StudyResult};
use combat_odds_report::sweep::{Sweep, SweepResult};
use combat_odds_rules::{Rules, Scenario, defaults};

/// Runs a parsed command line, returning what to print.
pub fn run(args: Args) -> Result<()> {
    match args.command {
        Command::Fire(a) => fire(&a),
        Command::Run(a) => study(&a),
        Command::Sweep(a) => sweep(&a),
        Command::Balance(a) => balance(&a),
        Command::Merge(a) => merge(&a),
        Command::Compare(a) => compare(&a),
        Command::Regress(a) => regress(&a),
        Command::DiffTables(a) => diff_tables(&a),
        Command::Percent(a) => percent(&a),
        Command::Bench(a) => bench(&a),
        Command::Answers(a) => answers(&a),
        Command::Serve(a) => serve(&a),
        Command::Tables(a) => list(&a, true),
        Command::Modifiers(a) => list(&a, false),
        Command::Sensitivity(a) => sensitivity(&a),
    }
}

/// The scenario file a command names, or its embedded default (path, text).
fn document(file: Option<&Path>, (path, text): (&str, &str)) -> Result<Document> {
    match file {
        Some(file) => Ok(Document::read(file)?),
        None => {
            let name = Path::new(path).file_name().map_or(path.into(), |n| n.to_string_lossy());
            Ok(Document::new(name, format!("{path} (embedded default)"), text))
        }
    }
}

/// The command's one run where it has no exact budget (merging, writing, the gate, the
/// bench): stopped by Ctrl-C, the one process-wide signal.
fn ctrl_c() -> Run<'static> {
    Run::new(interrupt::flag(), None)
}

impl TrialArgs {
    /// The Monte Carlo plan of these flags.
    fn monte_carlo(&self) -> MonteCarlo {
        MonteCarlo { trials: self.trials, seed: self.seed, threads: self.threads, mode: self.mode }
    }

    /// The command's one run: stopped by Ctrl-C, each exact stage within
    /// `--exact-seconds`.
    fn run(&self) -> Run<'static> {
        Run::new(interrupt::flag(), Some(std::time::Duration::from_secs_f64(self.exact_seconds)))
    }

    /// `doc` set up with these flags.
    fn scenario(&self, doc: &Document) -> Result<Scenario> {
        Ok(Scenario::new(doc, &rules(&self.rules), self.monte_carlo())?)
    }
}

/// The rulesets this binary ships, their tables overridden from `--rules DIR`.
fn rules(dir: &Option<std::path::PathBuf>) -> Rules {
    Rules::builtin().overridden_by(dir.clone())
}

/// `run`: a whole study (or one shard of it) into a results directory.
fn study(a: &RunArgs) -> Result<()> {
    let doc = document(a.file.as_deref(), defaults::ENGAGEMENT)?;
    let shard = a.shard.as_deref().map(|s| Shard::parse(s).map_err(Failure::Usage)).transpose()?;
    if let Some(p) = a.precision {
        if !(p > 0.0 && p < 0.5) {
            return Err(Failure::Usage(format!(
                "--precision {p}: give an interval half-width between 0 and 0.5, e.g. 0.001"
            )));
        }
        if shard.is_some() {
            return Err(Failure::Usage(
                "--precision needs the whole tally to decide when to stop; drop --shard, or drop --precision and give --trials"
                    .into(),
            ));
        }
    }
    let mut scenario = a.trials.scenario(&doc)?;
    let monte_carlo = scenario.monte_carlo;
    let chunks = monte_carlo.trials.div_ceil(engine::CHUNK_TRIALS);
    if let Some(s) = shard.filter(|s| s.count > chunks) {
        // A shard with no chunk would run nothing and write an empty result.
        return Err(Failure::Usage(format!(
            "--shard {s}: {} trials are {chunks} chunk(s) of {} and each shard needs one at least; split into at most {chunks} shard(s) or raise --trials",
            monte_carlo.trials,
            engine::CHUNK_TRIALS
        )));
    }
    let out = a.results.destination(&doc, shard)?;
    let run = a.trials.run();
    let started = run.now();
    let exact = Bar::solving(|| scenario.exact(&run))?;
    let plan = study::Plan { scenario, text: &doc.text, shard, precision: a.precision };
    let bar = Bar::new("trials");
    let result = StudyResult::run(plan, exact, started, &|done, planned| bar.show(done, planned), &run);
    bar.finish();
    let result = result?;
    result.write(&out, a.results.force, &run)?;
    print_study(&result, &out)
}

/// Where generated results go when `--out` is not given: never `results/`, which
/// holds the committed reference results.
const DEFAULT_RESULTS: &str = "runs";

impl args::ResultsArgs {
    /// The results directory, checked before any work starts: `--out` as given, or a
    /// new directory `runs/<file stem>` (`-shard-K-of-N` for a shard), numbered `-2`,
    /// `-3`, ... when that name is taken, so a command run twice never fails on its
    /// own earlier results and never replaces them.
    fn destination(&self, doc: &Document, shard: Option<Shard>) -> Result<PathBuf> {
        if let Some(out) = &self.out {
            study::check_free(out, self.force)?;
            return Ok(out.clone());
        }
        let stem = Path::new(&doc.name).file_stem().map_or("run".into(), |s| s.to_string_lossy().into_owned());
        let name = match shard {
            Some(s) => format!("{stem}-shard-{}-of-{}", s.index, s.count),
            None => stem,
        };
        let base = Path::new(DEFAULT_RESULTS);
        let free = (1..)
            .map(|n| base.join(if n == 1 { name.clone() } else { format!("{name}-{n}") }))
            .find(|p| std::fs::symlink_metadata(p).is_err())
            .expect("some numbered name is free");
        study::check_free(&free, false)?;
        Ok(free)
    }
}

/// `compare`: one comparison across rulesets into a results directory.
fn compare(a: &CompareArgs) -> Result<()> {
    let doc = document(a.file.as_deref(), defaults::COMPARISON)?;
    let rules = rules(&a.trials.rules);
    let comparison = combat_odds_report::compare::Comparison::read(&doc, &rules)?;
    let monte_carlo = a.trials.monte_carlo();
    monte_carlo.validate()?;
    let out = a.results.destination(&doc, None)?;
    let bar = Bar::new("runs");
    let progress = |done, planned| bar.show(done, planned);
    let run = a.trials.run();
    let compared = combat_odds_report::compare::compare(comparison, &rules, monte_carlo, &progress, &run);
    bar.finish();
    let compared = compared?;
    let written = compared.write(&out, a.results.force, &run)?;
    Ok(directory::print(&format!("{}wrote {}: {}\n", compared.text()?, out.display(), written.join(", ")))?)
}

/// The suite `regress` and `diff-tables` use: `--suite FILE` or experiments/.
fn suite(file: Option<&Path>) -> Result<combat_odds_report::regress::Suite> {
    match file {
        Some(f) => Ok(combat_odds_report::regress::Suite::read(f)?),
        // Without --suite, the suite is experiments/ where the command runs.
        None => combat_odds_report::regress::Suite::experiments(Path::new("experiments"))
            .map_err(|e| Failure::Usage(format!("{}; give --suite FILE", Failure::from(e).message()))),
    }
}

/// `regress`: the gate, or with `--update` a new baseline. Exit 1 when anything moved.
fn regress(a: &RegressArgs) -> Result<()> {
    use combat_odds_report::regress::{Rulesets, check, evaluate, read_baseline, write_baseline};
    if !(a.alpha > 0.0 && a.alpha < 1.0) {
        return Err(Failure::Usage(format!("--alpha {}: give a significance between 0 and 1, e.g. 0.001", a.alpha)));
    }
    let monte_carlo = a.trials.monte_carlo();
    monte_carlo.validate()?;
    let suite = suite(a.suite.as_deref())?;
    let baseline = if a.update { None } else { Some(read_baseline(&a.baseline)?) };
    if let Some(diff) = a.diff.as_deref().filter(|_| !a.update) {
        // Checked before the suite runs, so a long run never ends in this error.
        directory::check_file_free(diff, a.force)?;
    }
    let rulesets = Rulesets::load(&rules(&a.trials.rules))?;
    let now = evaluate(&suite, &rulesets, &monte_carlo, &ctrl_c())?;
    let Some(baseline) = baseline else {
        write_baseline(&a.baseline, &now, &ctrl_c())?;
        directory::print(&format!(
            "wrote {} and its Parquet: {} rows from {} scenarios\n",
            a.baseline.display(),
            now.len(),
            suite.scenarios.len()
        ))?;
        return Ok(());
    };
    let diffs = check(&baseline, &now, a.alpha, &a.baseline.display().to_string())?;
    let polars = ReportError::frame("the diff table");
    if let Some(diff) = &a.diff {
        let csv = frames::csv(&mut combat_odds_report::regress::diff_frame(&diffs).map_err(polars)?).map_err(polars)?;
        emit(&csv, Some(diff), a.force)?;
    }
    directory::print(&combat_odds_report::regress::diff_text(&diffs, a.alpha).map_err(polars)?)?;
    let moved = diffs.iter().filter(|d| d.verdict.moved()).count();
    let stale = baseline.iter().zip(&now).find(|(b, n)| b.rules_hash != n.rules_hash && a.trials.rules.is_none());
    if let Some((b, n)) = stale {
        directory::print(&format!(
            "the baseline was made from {} tables with hash {}; the embedded tables now hash to {}: a change to the shipped tables needs `combat-odds regress --update` in the same commit\n",
            b.ruleset, b.rules_hash, n.rules_hash
        ))?;
    }
    if moved > 0 || stale.is_some() {
        return Err(Failure::Moved(moved));
    }
    Ok(())
}

/// `diff-tables`: changed cells and the scenarios each reaches.
fn diff_tables(a: &DiffTablesArgs) -> Result<()> {
    let suite = suite(a.suite.as_deref())?;
    let monte_carlo = MonteCarlo { trials: a.trials, seed: a.seed, threads: None, mode: Mode::Compiled };
    monte_carlo.validate()?;
    let changes = combat_odds_report::regress::diff_tables(
        &Rules::builtin(),
        (&a.old, &a.new),
        &suite,
        (&monte_carlo, &ctrl_c()),
    )?;
    let mut text = String::new();
    if changes.is_empty() {
        text += &format!("no table cell differs between {} and {}\n", a.old.display(), a.new.display());
    }
    for c in &changes {
        text += &format!("{} {}: {}: {} -> {}\n", c.ruleset, c.file, c.cell, c.old, c.new);
        if c.reaches.is_empty() {
            text += "  reaches no reference scenario\n";
        }
        for s in &c.reaches {
            text += &format!("  reaches {s}\n");
        }
        if let Some(note) = &c.note {
            text += &format!("  ({note})\n");
        }
    }
    Ok(directory::print(&text)?)
}

/// `sweep`: a scenario over a grid of its parameters, into a results directory.
fn sweep(a: &SweepArgs) -> Result<()> {
    let doc = Document::read(&a.file)?;
    let shard = a.shard.as_deref().map(|s| Shard::parse(s).map_err(Failure::Usage)).transpose()?;
    let monte_carlo = a.trials.monte_carlo();
    monte_carlo.validate()?;
    let folder = a.file.parent().unwrap_or(Path::new("."));
    let sweep = Sweep::read(&doc, |name| Ok(Document::read(&folder.join(name))?), monte_carlo.seed)?;
    let tasks = sweep.points.len() * a.split.max(1) as usize;
    if let Some(s) = shard.filter(|s| s.count as usize > tasks) {
        return Err(Failure::Usage(format!(
            "--shard {s}: the sweep has {tasks} task(s) and each shard needs one at least; split into at most {tasks} shard(s), or raise --split"
        )));
    }
    let out = a.results.destination(&doc, shard)?;
    let bar = Bar::new("trials");
    let progress = |done, planned| bar.show(done, planned);
    let (rules, run) = (rules(&a.trials.rules), a.trials.run());
    let ran = combat_odds_report::sweep::run(&sweep, &rules, monte_carlo, (shard, a.split), &progress, &run);
    bar.finish();
    let result = ran?;
    result.write(&out, a.results.force, &run)?;
    print_sweep(&result, &out)
}

/// `balance`: where one parameter makes a chance meet its target.
fn balance(a: &BalanceArgs) -> Result<()> {
    use combat_odds_report::sweep::balance::{self, Span, Target};
    a.out.check()?;
    let doc = Document::read(&a.file)?;
    let monte_carlo = a.trials.monte_carlo();
    monte_carlo.validate()?;
    let span = match (a.values.is_empty(), a.from, a.to, a.step) {
        (false, ..) => Span::Values(a.values.iter().map(|v| value_of(v)).collect()),
        (true, Some(from), Some(to), Some(step)) => Span::Values(
            combat_odds_report::sweep::span_values(from, to, step)
                .map_err(|m| Failure::Usage(format!("--from, --to, --step: {m}")))?,
        ),
        (true, Some(from), Some(to), None) => {
            Span::Numbers { from, to, tolerance: a.tolerance.unwrap_or((to - from) / 64.0) }
        }
        _ => return Err(Failure::Usage("give --values, or --from and --to (with --step to try every step)".into())),
    };
    let target = Target { outcome: a.measure.clone().zip(a.outcome.clone()), p: a.target };
    let bar = Bar::new("values");
    let progress = |done, planned| bar.show(done, planned);
    let (rules, run) = (rules(&a.trials.rules), a.trials.run());
    let found = balance::balance(&doc, (&a.vary, &span), &target, &rules, monte_carlo, &progress, &run);
    bar.finish();
    write(&found?, &a.out)
}

/// A value as TOML reads it (a number, `true`), else as text.
fn value_of(text: &str) -> toml::Value {
    format!("v = {text}")
        .parse::<toml::Table>()
        .ok()
        .and_then(|mut t| t.remove("v"))
        .unwrap_or_else(|| toml::Value::String(text.to_string()))
}

/// One line per point: its values and `p_kill`, then where the files are.
fn print_sweep(result: &SweepResult, out: &Path) -> Result<()> {
    let s = &result.summary;
    let mut text = format!(
        "{}: {} of {} point(s), {} trials each, seed {}\n",
        s.name,
        result.points.len(),
        s.points,
        s.trials,
        s.seed
    );
    if let Some(line) = invented_line(&result.invented()) {
        text += &format!("{line}\n");
    }
    for p in &result.points {
        let values: Vec<String> = s.parameters.iter().zip(&p.values).map(|(q, v)| format!("{} = {v}", q.key)).collect();
        let k = &p.p_kill;
        let answer = match k.odds.exact {
            Some(e) => format!("{e:.6} (exact)"),
            None => format!("{:.6} [{:.6}, {:.6}]", k.odds.estimate, k.odds.ci_low, k.odds.ci_high),
        };
        text += &format!("  {:>4}  {}: {} = {} {answer}\n", p.index + 1, values.join(", "), k.measure, k.outcome);
    }
    text += &format!(
        "wrote {} (sweep.csv and .parquet, design.csv and .parquet, sweep.json, and a chart where the design draws one)\n",
        out.display()
    );
    Ok(directory::print(&text)?)
}

/// `merge`: shards of one run (or sweep) into the whole's results.
fn merge(a: &MergeArgs) -> Result<()> {
    study::check_free(&a.out, a.force)?;
    if let Some(first) = a.dirs.first()
        && combat_odds_report::sweep::read_summary(first)?.is_some()
    {
        let parts = a
            .dirs
            .iter()
            .map(|d| {
                let summary = combat_odds_report::sweep::read_summary(d)?.ok_or_else(|| {
                    Failure::Usage(format!(
                        "{}: not a sweep directory (no sweep.json), unlike {}",
                        d.display(),
                        first.display()
                    ))
                })?;
                Ok((d.clone(), summary))
            })
            .collect::<Result<Vec<_>>>()?;
        let result = SweepResult::merge(parts)?;
        result.write(&a.out, a.force, &ctrl_c())?;
        return print_sweep(&result, &a.out);
    }
    let parts = a.dirs.iter().map(|d| Ok((d.clone(), study::read_summary(d)?))).collect::<Result<Vec<_>>>()?;
    let result = StudyResult::merge(parts)?;
    result.write(&a.out, a.force, &ctrl_c())?;
    print_study(&result, &a.out)
}

/// A few lines saying what a study found and where its files are.
fn print_study(result: &StudyResult, out: &Path) -> Result<()> {
    let s = &result.summary;
    let k = &s.p_kill;
    let (km, ko) = s.kill;
    let exact = k.exact.map_or(String::new(), |e| format!(" (exact {e:.6})"));
    let mut text = format!(
        "{} -- {} ({}), {} trials, seed {}{}
{} = {}: {:.6} [{:.6}, {:.6}]{exact}
",
        s.scenario,
        s.ruleset,
        s.kind,
        s.trials,
        s.seed,
        s.shard.map_or(String::new(), |sh| format!(", shard {sh}")),
        s.measures[km].name,
        s.measures[km].outcomes[ko],
        k.estimate,
        k.ci_low,
        k.ci_high,
    );
    if let Some(line) = invented_line(&s.invented) {
        text += &format!("{line}\n");
    }
    for why in &result.aside {
        text += &format!("{why}\n");
    }
    if let Some(p) = s.precision {
        text += &format!(
            "precision {p}: {} (widest half-width {:.6})
",
            if s.precision_reached == Some(true) { "reached" } else { "not reached within --trials" },
            s.widest_half_width
        );
    }
    text += &format!(
        "wrote {} (one CSV and Parquet frame per measure, summary.json, charts as PNG and SVG)
",
        out.display()
    );
    Ok(directory::print(&text)?)
}

impl OutputArgs {
    /// Refuses an `--output` file that cannot be written, before any work starts.
    fn check(&self) -> Result<()> {
        self.output.as_deref().map_or(Ok(()), |path| Ok(directory::check_file_free(path, self.force)?))
    }
}

/// Writes a result in the chosen format.
fn write(result: &impl Rendered, out: &OutputArgs) -> Result<()> {
    let text = match out.format {
        Format::Table => result.to_table(),
        Format::Json => result.to_json() + "\n",
        Format::Csv => result.to_csv(),
    };
    emit(&text, out.output.as_deref(), out.force)
}

fn fire(a: &FireArgs) -> Result<()> {
    a.out.check()?;
    let mut scenario = a.trials.scenario(&document(a.file.as_deref(), defaults::FIRE)?)?;
    // The exact stage first, with its own sign of life, so the bar counts trials only.
    let run = a.trials.run();
    let exact = Bar::solving(|| scenario.exact(&run))?;
    let bar = Bar::new("trials");
    let report = Report::run(scenario, exact, &|done, planned| bar.show(done, planned), &run);
    bar.finish();
    write(&report?, &a.out)
}

/// What a game screen shows for a fire: the chance of destroying the target, and of at
/// least the mildest effect, each as a whole percentage (exact where the exact engine
/// reaches, else the Monte Carlo estimate).
fn percent(a: &FireArgs) -> Result<()> {
    a.out.check()?;
    let doc = document(a.file.as_deref(), defaults::FIRE)?;
    let mut scenario = a.trials.scenario(&doc)?;
    write(&PercentView::of(&doc, &mut scenario, &a.trials.run())?, &a.out)
}

/// This machine's speed against the README's targets.
fn bench(a: &BenchArgs) -> Result<()> {
    a.out.check()?;
    if a.trials == 0 || a.repeats == 0 {
        return Err(Failure::Usage("--trials and --repeats must be at least 1".into()));
    }
    if a.peer_rate.is_some_and(|r| !(r.is_finite() && r > 0.0)) {
        return Err(Failure::Usage("--peer-rate is resolutions per second, a positive number".into()));
    }
    let options = combat_odds_report::bench::Options { trials: a.trials, repeats: a.repeats, peer: a.peer_rate };
    let rules = Rules::builtin();
    let peer = rules.peer()?;
    let (path, text) = defaults::ENGAGEMENT;
    let monte_carlo = MonteCarlo { trials: a.trials, seed: 2026, threads: Some(1), mode: Mode::Compiled };
    let duel = Scenario::new(&Document::new(path, path, text), &rules, monte_carlo)?;
    let (path, text) = defaults::PLATOON;
    let platoon = Scenario::new(&Document::new(path, path, text), &rules, monte_carlo)?;
    let work = combat_odds_report::bench::Work {
        fire: peer.fire.as_ref(),
        fire_by_trial: peer.by_trial.as_ref(),
        duel: duel.set_up.experiment.as_ref(),
        platoon: platoon.set_up.experiment.as_ref(),
    };
    write(&combat_odds_report::bench::measure(options, work, &ctrl_c())?, &a.out)
}

/// Every one-step change of the scenario's tables and named modifiers, ranked by how
/// far it moves `p_kill`.
fn sensitivity(a: &SensitivityArgs) -> Result<()> {
    a.out.check()?;
    let doc = document(a.file.as_deref(), defaults::FIRE)?;
    // Literal: each change is paired with the unchanged tables on common random numbers.
    let monte_carlo = MonteCarlo { trials: a.trials, seed: a.seed, threads: a.threads, mode: Mode::Literal };
    let rules = rules(&a.rules);
    let scenario = Scenario::new(&doc, &rules, monte_carlo)?;
    let options = combat_odds_report::sensitivity::Options { top: a.top, screen: a.screen };
    let bar = Bar::new("changes");
    let progress = |done, planned| bar.show(done, planned);
    // No exact budget: each change's exact answer is what the ranking compares.
    let run = ctrl_c();
    let found = combat_odds_report::sensitivity::analyse(&doc, (&scenario, &rules), options, &progress, &run);
    bar.finish();
    write(&found?, &a.out)
}

/// A ruleset's own answers about a scenario, exactly (every allocation policy of a hand
/// of Command Dice).
fn answers(a: &ViewArgs) -> Result<()> {
    a.out.check()?;
    let doc = document(a.file.as_deref(), defaults::HAND)?;
    write(&answers::answers(&doc, &rules(&a.rules))?, &a.out)
}

/// `serve`: the page on a local web server, until Ctrl-C.
fn serve(a: &ServeArgs) -> Result<()> {
    if a.max_trials == 0 || a.max_runs == 0 {
        return Err(Failure::Usage("--max-trials and --max-runs must be at least 1".into()));
    }
    let address = a.listen.unwrap_or(std::net::SocketAddr::from(([127, 0, 0, 1], a.port)));
    let config = combat_odds_web::Config {
        rules: rules(&a.rules),
        limits: combat_odds_web::Limits {
            max_trials: a.max_trials,
            max_runs: a.max_runs,
            max_cost: std::time::Duration::from_secs_f64(a.max_core_seconds),
            exact_budget: std::time::Duration::from_secs_f64(a.exact_seconds),
            ..combat_odds_web::Limits::default()
        },
        hosts: a.allow_host.clone(),
        connections: combat_odds_web::Connections::default(),
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure::Usage(format!("cannot start the server's runtime: {e}")))?;
    runtime.block_on(async {
        let listener = combat_odds_web::bind(address).map_err(|e| {
            Failure::Usage(format!("--listen {address}: cannot listen there ({e}); choose another --port or --listen"))
        })?;
        let bound = listener.local_addr().map_err(|e| Failure::Usage(format!("--listen {address}: {e}")))?;
        directory::print(&format!("combat-odds serves its page on http://{bound}/ (Ctrl-C stops it)\n"))?;
        // Ctrl-C ends the process from its handler (see main.rs); runs under way see
        // the same flag and stop at their next chunk.
        combat_odds_web::serve(listener, config, std::future::pending()).await.map_err(|e| {
            Failure::Report(combat_odds_core::Error::Io { path: bound.to_string().into(), source: e }.into())
        })
    })
}

fn list(a: &ListArgs, tables: bool) -> Result<()> {
    let ruleset = rules(&a.rules).load(&a.ruleset)?;
    let polars_error = ReportError::frame("the listing");
    let mut text = String::new();
    if tables && a.format == Format::Json {
        text = serde_json::to_string_pretty(&frames::tables_json(ruleset.as_ref()))
            .expect("a listing always serializes")
            + "\n";
    } else if tables {
        for view in ruleset.listing() {
            let mut f = frames::table_frame(&view).map_err(polars_error)?;
            match a.format {
                Format::Csv => text += &frames::csv(&mut f).map_err(polars_error)?,
                _ => {
                    let rules = view.source.rules.as_deref().map_or(String::new(), |r| format!(" [{r}]"));
                    text +=
                        &format!("{} -- {}, \"{}\"{rules}\n{f}\n\n", view.file, view.source.seed, view.source.table);
                }
            }
        }
    } else {
        let modifiers = ruleset.modifiers();
        let mut f = frames::modifiers_frame(&modifiers).map_err(polars_error)?;
        text = match a.format {
            Format::Json => {
                serde_json::to_string_pretty(&serde_json::json!({ "ruleset": ruleset.name(), "modifiers": modifiers }))
                    .expect("a listing always serializes")
                    + "\n"
            }
            Format::Csv => frames::csv(&mut f).map_err(polars_error)?,
            _ => format!("{f}\n"),
        };
    }
    Ok(directory::print(&text)?)
}

/// Prints to standard output, or writes a file whole (see
/// [`directory::write_file_whole`]).
fn emit(text: &str, output: Option<&Path>, force: bool) -> Result<()> {
    match output {
        Some(path) => Ok(directory::write_file_whole(path, force, text.as_bytes(), &ctrl_c())?),
        None => Ok(directory::print(text)?),
    }
}
