//! The command line: [`args`] holds the flags; this module resolves them into a
//! plan (tables loaded, scenario compiled, seeds fixed) and carries it out.

pub mod args;

use std::io::IsTerminal;
use std::path::{Path, PathBuf};

pub use args::Args;
use args::{
    BenchArgs, Command, CompareArgs, DiffTablesArgs, FireArgs, Format, ListArgs, MergeArgs, OutputArgs, RegressArgs,
    RunArgs, SensitivityArgs, TrialArgs, ViewArgs,
};

use crate::document::Document;
use crate::engine::{self, ExactTable, Mode, MonteCarlo, Shard, Study};
use crate::error::{Error, Result};
use crate::export::study::{self, StudyResult};
use crate::export::{Header, PercentView, Rendered, Report, Source, directory, frames};
use crate::rules::{self, Compiled, LoadError, Ruleset};

/// The scenario `fire` resolves when given no file.
pub const DEFAULT_SCENARIO: (&str, &str) =
    ("experiments/cd_tank_duel.toml", include_str!("../../experiments/cd_tank_duel.toml"));

/// The comparison `compare` makes when given no file.
pub const DEFAULT_COMPARISON: (&str, &str) = (
    "experiments/compare_at_gun_vs_medium_tank.toml",
    include_str!("../../experiments/compare_at_gun_vs_medium_tank.toml"),
);

/// The engagement `run` studies when given no file.
pub const DEFAULT_ENGAGEMENT: (&str, &str) =
    ("experiments/cd_engagement_tank_duel.toml", include_str!("../../experiments/cd_engagement_tank_duel.toml"));

/// The hand `command-dice` answers for when given no file.
pub const DEFAULT_HAND: (&str, &str) = (
    "experiments/coc_five_dice_senior_leader.toml",
    include_str!("../../experiments/coc_five_dice_senior_leader.toml"),
);

/// Runs a parsed command line, returning what to print.
pub fn run(args: Args) -> Result<()> {
    match args.command {
        Command::Fire(a) => fire(&a),
        Command::Run(a) => study(&a),
        Command::Merge(a) => merge(&a),
        Command::Compare(a) => compare(&a),
        Command::Regress(a) => regress(&a),
        Command::DiffTables(a) => diff_tables(&a),
        Command::PercentDestroy(a) => percent_destroy(&a),
        Command::Bench(a) => bench(&a),
        Command::CommandDice(a) => command_dice(&a),
        Command::Tables(a) => list(&a, true),
        Command::Modifiers(a) => list(&a, false),
        Command::Sensitivity(a) => sensitivity(&a),
    }
}

/// A fire command resolved: the scenario compiled against loaded tables.
pub struct FirePlan {
    /// The ruleset the scenario names.
    pub ruleset: Box<dyn Ruleset>,
    /// The compiled scenario.
    pub compiled: Compiled,
    /// The report header.
    pub header: Header,
    /// Trials, seed, threads.
    pub monte_carlo: MonteCarlo,
}

#[derive(serde::Deserialize)]
struct ScenarioHeader {
    ruleset: toml::Spanned<String>,
    kind: toml::Spanned<String>,
    name: Option<String>,
    /// Free text for the reader of the file; read here only so that it must be text.
    #[serde(default, rename = "description")]
    _description: Option<String>,
}

impl ScenarioHeader {
    /// The scenario's name, or its file name.
    fn scenario(&self, doc: &Document) -> String {
        self.name.clone().unwrap_or_else(|| doc.name.clone())
    }
}

impl FirePlan {
    /// Loads the scenario's ruleset and compiles the scenario.
    pub fn new(doc: &Document, rules_dir: Option<&Path>, monte_carlo: MonteCarlo) -> Result<Self> {
        monte_carlo.validate()?;
        let head: ScenarioHeader = doc.parse()?;
        let ruleset = rules::load(head.ruleset.get_ref(), rules_dir).map_err(|e| match e {
            LoadError::Unknown(m) => doc.error_at(head.ruleset.span().start, m),
            LoadError::Tables(e) => e,
        })?;
        let compiled = ruleset.compile(doc, &head.kind)?;
        let header = Header {
            ruleset: ruleset.name().to_string(),
            scenario: head.scenario(doc),
            kind: head.kind.into_inner(),
            rules_hash: crate::tables::rules_hash(ruleset.files()),
            notes: compiled.notes.clone(),
        };
        Ok(FirePlan { ruleset, compiled, header, monte_carlo })
    }

    /// The percentages a game screen shows: from the exact engine where it reaches,
    /// else from a Monte Carlo run.
    pub fn percent_view(&mut self) -> Result<PercentView> {
        let exact = self.exact()?;
        let experiment = self.compiled.experiment.as_ref();
        let (measures, kill) = (experiment.measures(), experiment.kill());
        Ok(match exact {
            Some(table) => PercentView::new(&self.header, measures, kill, Source::Exact(&table)),
            None => {
                let (tally, mode) = engine::run(experiment, &self.monte_carlo)?;
                let ran = MonteCarlo { mode, ..self.monte_carlo };
                PercentView::new(&self.header, measures, kill, Source::Estimate(&tally, &ran))
            }
        })
    }

    /// Runs the exact engine and Monte Carlo and assembles the report.
    pub fn report(mut self) -> Result<Report> {
        let exact = self.exact()?;
        self.report_with(exact, &|_, _| {})
    }

    /// The report of `exact` (what [`FirePlan::exact`] gave) and a Monte Carlo run;
    /// `progress` hears (trials done, trials planned) after each batch of chunks, and
    /// Ctrl-C stops the run between chunks.
    pub fn report_with(self, exact: Option<ExactTable>, progress: &(dyn Fn(u64, u64) + Sync)) -> Result<Report> {
        let experiment = self.compiled.experiment.as_ref();
        let whole = Study { monte_carlo: self.monte_carlo, shard: Shard::WHOLE, precision: None };
        let ran = engine::run_study(experiment, &whole, progress, crate::interrupt::flag())?;
        Ok(Report::new(
            self.header,
            &MonteCarlo { mode: ran.mode, ..self.monte_carlo },
            experiment.measures(),
            experiment.kill(),
            &ran.tally,
            exact.as_ref(),
        ))
    }
}

impl FirePlan {
    /// The exact distribution where the exact engine reaches it within its budget
    /// (see [`crate::interrupt::set_exact_budget`]); when the budget stops it, the
    /// report's notes say so. Ctrl-C here ends with [`Error::Interrupted`].
    pub fn exact(&mut self) -> Result<Option<ExactTable>> {
        let exact = self.compiled.experiment.exact();
        crate::interrupt::check()?;
        if exact.is_none()
            && let Some(budget) = crate::interrupt::exact_budget_spent()
        {
            self.header.notes.push(format!(
                "the exact solver stopped at its time budget ({} s, --exact-seconds): Monte Carlo answers alone",
                budget.as_secs_f64()
            ));
        }
        Ok(exact)
    }
}

/// The scenario file a command names, or its embedded default (path, text).
fn document(file: Option<&Path>, (path, text): (&str, &str)) -> Result<Document> {
    match file {
        Some(file) => Document::read(file),
        None => {
            let name = Path::new(path).file_name().map_or(path.into(), |n| n.to_string_lossy());
            Ok(Document::new(name, format!("{path} (embedded default)"), text))
        }
    }
}

impl TrialArgs {
    /// The Monte Carlo plan of these flags; sets the exact stage's budget too.
    fn monte_carlo(&self) -> MonteCarlo {
        crate::interrupt::set_exact_budget(std::time::Duration::from_secs_f64(self.exact_seconds));
        MonteCarlo { trials: self.trials, seed: self.seed, threads: self.threads, mode: self.mode }
    }

    /// `doc` compiled with these flags.
    fn plan(&self, doc: &Document) -> Result<FirePlan> {
        FirePlan::new(doc, self.rules.as_deref(), self.monte_carlo())
    }
}

impl FireArgs {
    /// The scenario (or the embedded default) compiled with these flags.
    fn plan(&self) -> Result<FirePlan> {
        self.trials.plan(&document(self.file.as_deref(), DEFAULT_SCENARIO)?)
    }
}

/// `run`: a whole study (or one shard of it) into a results directory.
fn study(a: &RunArgs) -> Result<()> {
    let doc = document(a.file.as_deref(), DEFAULT_ENGAGEMENT)?;
    let shard = a.shard.as_deref().map(|s| Shard::parse(s).map_err(Error::Usage)).transpose()?;
    if let Some(p) = a.precision {
        if !(p > 0.0 && p < 0.5) {
            return Err(Error::Usage(format!(
                "--precision {p}: give an interval half-width between 0 and 0.5, e.g. 0.001"
            )));
        }
        if shard.is_some() {
            return Err(Error::Usage(
                "--precision needs the whole tally to decide when to stop; drop --shard, or drop --precision and give --trials"
                    .into(),
            ));
        }
    }
    let mut plan = a.trials.plan(&doc)?;
    let monte_carlo = a.trials.monte_carlo();
    let chunks = monte_carlo.trials.div_ceil(engine::CHUNK_TRIALS);
    if let Some(s) = shard.filter(|s| s.count > chunks) {
        // A shard with no chunk would run nothing and write an empty result.
        return Err(Error::Usage(format!(
            "--shard {s}: {} trials are {chunks} chunk(s) of {} and each shard needs one at least; split into at most {chunks} shard(s) or raise --trials",
            monte_carlo.trials,
            engine::CHUNK_TRIALS
        )));
    }
    let out = a.results.destination(&doc, shard)?;
    let started = std::time::Instant::now();
    let exact = Bar::solving(|| plan.exact())?;
    let experiment = plan.compiled.experiment.as_ref();
    let spec = Study { monte_carlo, shard: shard.unwrap_or(Shard::WHOLE), precision: a.precision };
    let bar = Bar::new("trials");
    let ran = engine::run_study(experiment, &spec, &|done, planned| bar.show(done, planned), crate::interrupt::flag());
    bar.finish();
    let ran = ran?;
    // Every stage counts: the exact solve, the chain compilation and the trials.
    let wall_time_s = started.elapsed().as_secs_f64();
    let facts = study::RunFacts {
        scenario_hash: study::text_hash(&doc.text),
        monte_carlo: MonteCarlo { mode: ran.mode, ..monte_carlo },
        shard,
        precision: a.precision.map(|p| (p, ran.precise)),
        wall_time_s,
    };
    let result =
        StudyResult::new(plan.header, facts, experiment.measures(), experiment.kill(), &ran.tally, exact.as_ref());
    result.write(&out, a.results.force)?;
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
    let doc = document(a.file.as_deref(), DEFAULT_COMPARISON)?;
    let comparison = crate::compare::Comparison::read(&doc)?;
    let monte_carlo = a.trials.monte_carlo();
    monte_carlo.validate()?;
    let out = a.results.destination(&doc, None)?;
    let bar = Bar::new("runs");
    let compared = crate::compare::compare(comparison, a.trials.rules.as_deref(), monte_carlo, &|done, planned| {
        bar.show(done, planned)
    });
    bar.finish();
    let compared = compared?;
    let written = compared.write(&out, a.results.force)?;
    directory::print(&format!("{}wrote {}: {}\n", compared.text()?, out.display(), written.join(", ")))
}

/// The suite `regress` and `diff-tables` use: `--suite FILE` or experiments/.
fn suite(file: Option<&Path>) -> Result<crate::regress::Suite> {
    match file {
        Some(f) => crate::regress::Suite::read(f),
        None => crate::regress::Suite::experiments(Path::new("experiments")),
    }
}

/// `regress`: the gate, or with `--update` a new baseline. Exit 1 when anything moved.
fn regress(a: &RegressArgs) -> Result<()> {
    use crate::regress::{Rulesets, check, evaluate, read_baseline, write_baseline};
    if !(a.alpha > 0.0 && a.alpha < 1.0) {
        return Err(Error::Usage(format!("--alpha {}: give a significance between 0 and 1, e.g. 0.001", a.alpha)));
    }
    let monte_carlo = a.trials.monte_carlo();
    monte_carlo.validate()?;
    let suite = suite(a.suite.as_deref())?;
    let baseline = if a.update { None } else { Some(read_baseline(&a.baseline)?) };
    if let Some(diff) = a.diff.as_deref().filter(|_| !a.update) {
        // Checked before the suite runs, so a long run never ends in this error.
        directory::check_file_free(diff, a.force)?;
    }
    let rulesets = Rulesets::load(a.trials.rules.as_deref())?;
    let now = evaluate(&suite, &rulesets, &monte_carlo)?;
    let Some(baseline) = baseline else {
        write_baseline(&a.baseline, &now)?;
        directory::print(&format!(
            "wrote {} and its Parquet: {} rows from {} scenarios\n",
            a.baseline.display(),
            now.len(),
            suite.scenarios.len()
        ))?;
        return Ok(());
    };
    let diffs = check(&baseline, &now, a.alpha, &a.baseline.display().to_string())?;
    let polars = |e: polars::prelude::PolarsError| Error::Usage(format!("cannot make the diff table: {e}"));
    if let Some(diff) = &a.diff {
        let csv = frames::csv(&mut crate::regress::diff_frame(&diffs).map_err(polars)?).map_err(polars)?;
        emit(&csv, Some(diff), a.force)?;
    }
    directory::print(&crate::regress::diff_text(&diffs, a.alpha).map_err(polars)?)?;
    let moved = diffs.iter().filter(|d| d.verdict.moved()).count();
    let stale = baseline.iter().zip(&now).find(|(b, n)| b.rules_hash != n.rules_hash && a.trials.rules.is_none());
    if let Some((b, n)) = stale {
        directory::print(&format!(
            "the baseline was made from {} tables with hash {}; the embedded tables now hash to {}: a change to the shipped tables needs `combat-odds regress --update` in the same commit\n",
            b.ruleset, b.rules_hash, n.rules_hash
        ))?;
    }
    if moved > 0 || stale.is_some() {
        return Err(Error::Moved(moved));
    }
    Ok(())
}

/// `diff-tables`: changed cells and the scenarios each reaches.
fn diff_tables(a: &DiffTablesArgs) -> Result<()> {
    let suite = suite(a.suite.as_deref())?;
    let monte_carlo = MonteCarlo { trials: a.trials, seed: a.seed, threads: None, mode: Mode::Compiled };
    monte_carlo.validate()?;
    let changes = crate::regress::diff_tables(&a.old, &a.new, &suite, &monte_carlo)?;
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
    directory::print(&text)
}

/// `merge`: shards of one run into the run's results.
fn merge(a: &MergeArgs) -> Result<()> {
    study::check_free(&a.out, a.force)?;
    let parts = a.dirs.iter().map(|d| Ok((d.clone(), study::read_summary(d)?))).collect::<Result<Vec<_>>>()?;
    let result = StudyResult::merge(parts)?;
    result.write(&a.out, a.force)?;
    print_study(&result, &a.out)
}

/// A few lines saying what a study found and where its files are.
/// A progress bar on standard error while it is a terminal, and nothing otherwise, so
/// that piped and captured output stays clean.
struct Bar(Option<indicatif::ProgressBar>);

impl Bar {
    /// A bar counting `unit` (trials, cases, changes).
    fn new(unit: &str) -> Self {
        Bar(std::io::stderr().is_terminal().then(|| {
            let bar = indicatif::ProgressBar::new(0);
            bar.set_style(
                indicatif::ProgressStyle::with_template(&format!(
                    "{{elapsed_precise}} [{{bar:40}}] {{pos}}/{{len}} {unit} ({{per_sec}}, {{eta}} left)"
                ))
                .expect("a valid template")
                .progress_chars("=> "),
            );
            bar
        }))
    }

    /// `done` of `planned` finished.
    fn show(&self, done: u64, planned: u64) {
        if let Some(bar) = &self.0 {
            bar.set_length(planned);
            bar.set_position(done);
        }
    }

    /// Clears the bar, whatever the work's outcome.
    fn finish(self) {
        if let Some(bar) = self.0 {
            bar.finish_and_clear();
        }
    }

    /// Runs the exact stage with a spinner on a terminal: it can take minutes, and
    /// Ctrl-C and `--exact-seconds` are the ways out, which the spinner says.
    fn solving<T>(solve: impl FnOnce() -> T) -> T {
        let spinner = std::io::stderr().is_terminal().then(|| {
            let spinner = indicatif::ProgressBar::new_spinner();
            spinner.set_message("solving exactly (Ctrl-C stops; --exact-seconds bounds it)");
            spinner.enable_steady_tick(std::time::Duration::from_millis(200));
            spinner
        });
        let solved = solve();
        if let Some(spinner) = spinner {
            spinner.finish_and_clear();
        }
        solved
    }
}

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
    directory::print(&text)
}

impl OutputArgs {
    /// Refuses an `--output` file that cannot be written, before any work starts.
    fn check(&self) -> Result<()> {
        self.output.as_deref().map_or(Ok(()), |path| directory::check_file_free(path, self.force))
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
    let mut plan = a.plan()?;
    // The exact stage first, with its own sign of life, so the bar counts trials only.
    let exact = Bar::solving(|| plan.exact())?;
    let bar = Bar::new("trials");
    let report = plan.report_with(exact, &|done, planned| bar.show(done, planned));
    bar.finish();
    write(&report?, &a.out)
}

/// What a game screen shows for a fire: the chance of destroying the target, and of at
/// least the mildest effect, each as a whole percentage (exact where the exact engine
/// reaches, else the Monte Carlo estimate).
fn percent_destroy(a: &FireArgs) -> Result<()> {
    a.out.check()?;
    let doc = document(a.file.as_deref(), DEFAULT_SCENARIO)?;
    let mut plan = a.trials.plan(&doc)?;
    let experiment = plan.compiled.experiment.as_ref();
    let (km, ko) = experiment.kill();
    let measures = experiment.measures();
    // "Destroying" is a fire's result on its target; a morale test, a hand of dice or a
    // whole engagement has a p_kill of another kind, which this view would mislabel.
    if !FIRED_AT.contains(&measures[0].name.as_str()) {
        return Err(doc.error(format!(
            "percent-destroy answers a fire at a target; this {} scenario's p_kill is `{} = {}`, not a destruction: use `combat-odds fire` for its odds",
            plan.header.kind, measures[km].name, measures[km].outcomes[ko]
        )));
    }
    write(&plan.percent_view()?, &a.out)
}

/// The primary measures of fires at a target, whose worst outcome is a destruction.
const FIRED_AT: [&str; 4] = ["target", "template", "structure", "aircraft"];

/// This machine's speed against the README's targets.
fn bench(a: &BenchArgs) -> Result<()> {
    a.out.check()?;
    if a.trials == 0 || a.repeats == 0 {
        return Err(Error::Usage("--trials and --repeats must be at least 1".into()));
    }
    if a.peer_rate.is_some_and(|r| !(r.is_finite() && r > 0.0)) {
        return Err(Error::Usage("--peer-rate is resolutions per second, a positive number".into()));
    }
    let options = crate::bench::Options { trials: a.trials, repeats: a.repeats, peer: a.peer_rate };
    write(&crate::bench::measure(options)?, &a.out)
}

/// Every one-step change of the scenario's tables and named modifiers, ranked by how
/// far it moves `p_kill`.
fn sensitivity(a: &SensitivityArgs) -> Result<()> {
    a.out.check()?;
    let doc = document(a.file.as_deref(), DEFAULT_SCENARIO)?;
    // Literal: each change is paired with the unchanged tables on common random numbers.
    let monte_carlo = MonteCarlo { trials: a.trials, seed: a.seed, threads: a.threads, mode: Mode::Literal };
    let plan = FirePlan::new(&doc, a.rules.as_deref(), monte_carlo)?;
    let options = crate::sensitivity::Options { top: a.top, screen: a.screen };
    let bar = Bar::new("changes");
    let found = crate::sensitivity::analyse(&doc, &plan, options, &|done, planned| bar.show(done, planned));
    bar.finish();
    write(&found?, &a.out)
}

/// Every answer about one hand of Command Dice, exactly, for every allocation policy.
fn command_dice(a: &ViewArgs) -> Result<()> {
    a.out.check()?;
    let doc = document(a.file.as_deref(), DEFAULT_HAND)?;
    let head: ScenarioHeader = doc.parse()?;
    let coc = "chain-of-command";
    if head.ruleset.get_ref() != coc {
        return Err(doc.error_at(
            head.ruleset.span().start,
            format!("command-dice reads a {coc} scenario of kind command_dice, not `{}`", head.ruleset.get_ref()),
        ));
    }
    let ruleset = rules::chain_of_command::ChainOfCommand::load(a.rules.as_deref())?;
    let (hand, platoon, notes) = rules::chain_of_command::command_dice_setup(&doc, &head.kind, ruleset.tables())?;
    let answers = rules::chain_of_command::Answers::new(head.scenario(&doc), notes, ruleset.tables(), hand, &platoon);
    write(&answers, &a.out)
}

fn list(a: &ListArgs, tables: bool) -> Result<()> {
    let ruleset = rules::load(&a.ruleset, a.rules.as_deref()).map_err(|e| match e {
        LoadError::Unknown(m) => Error::Usage(m),
        LoadError::Tables(e) => e,
    })?;
    let polars_error = |e: polars::prelude::PolarsError| Error::Usage(format!("cannot build the listing: {e}"));
    let mut text = String::new();
    if tables && a.format == Format::Json {
        // One object per table: its file, source and rows as objects keyed by column.
        let listing: Vec<serde_json::Value> = ruleset
            .tables()
            .iter()
            .map(|view| {
                let height = view.columns.first().map_or(0, |(_, cells)| cells.len());
                let rows: Vec<serde_json::Map<String, serde_json::Value>> = (0..height)
                    .map(|i| view.columns.iter().map(|(name, cells)| (name.clone(), cells[i].clone().into())).collect())
                    .collect();
                serde_json::json!({
                    "file": view.file,
                    "seed": view.source.seed,
                    "table": view.source.table,
                    "rules": view.source.rules,
                    "rows": rows,
                })
            })
            .collect();
        text = serde_json::to_string_pretty(&serde_json::json!({
            "ruleset": ruleset.name(),
            "rules_hash": crate::tables::rules_hash(ruleset.files()),
            "tables": listing,
        }))
        .expect("a listing always serializes")
            + "\n";
    } else if tables {
        for view in ruleset.tables() {
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
    directory::print(&text)
}

/// Prints to standard output, or writes a file whole (see
/// [`directory::write_file_whole`]).
fn emit(text: &str, output: Option<&Path>, force: bool) -> Result<()> {
    match output {
        Some(path) => directory::write_file_whole(path, force, text.as_bytes()),
        None => directory::print(text),
    }
}
