//! Command-line flags: clap mirrors what the user typed, nothing more.

use std::path::PathBuf;

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{Parser, Subcommand, ValueEnum};

use combat_odds_core::engine::Mode;

/// Exact and Monte Carlo odds of WW2 wargame fire, KO and morale tables.
#[derive(Debug, Parser)]
#[command(name = "combat-odds", version, about)]
pub struct Args {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Resolve one fire (or morale check) scenario: exact odds and a seeded Monte Carlo estimate.
    Fire(FireArgs),
    /// Run a study (an engagement, or any scenario) and write one frame per measure as
    /// CSV and Parquet, with summary.json, to a results directory.
    Run(RunArgs),
    /// Answer one scenario over a grid of its own parameters (a sweep file's `[[vary]]`
    /// keys): every point exact where the engine reaches, Monte Carlo on common random
    /// numbers otherwise, as one long frame (CSV, Parquet), the design, sweep.json and
    /// a chart.
    Sweep(SweepArgs),
    /// Where does a chance cross a target (P(a side wins) = 0.5, say) as one parameter
    /// of a scenario varies: over listed values, the ones whose interval holds it and
    /// the nearest on each side; over a span of numbers, a bisection on common random
    /// numbers. Says so plainly when nothing in the span crosses, and where the chance
    /// jumps past the target at a band edge, so that no value gives it.
    Balance(BalanceArgs),
    /// Add up the directories of one run's (or sweep's) `--shard K/N` parts into the
    /// result the whole would have written.
    Merge(MergeArgs),
    /// Compare weapons across rulesets in real units: kill probability by ruleset and
    /// range (one turn's fire and one shot), paired differences on common random
    /// numbers, as frames (CSV, Parquet) and a chart.
    Compare(CompareArgs),
    /// The chance a fire destroys its target, as a whole percentage the way a ruleset's
    /// game screen shows it (Company Commander's), with the exact fraction behind it.
    /// Also answers as `percent-destroy`.
    #[command(alias = "percent-destroy")]
    Percent(FireArgs),
    /// A ruleset's own answers about a scenario, exactly, where it has some (a Chain of
    /// Command hand of Command Dice: activations, Orders, Chain of Command points and
    /// the sixes under every allocation policy). Also answers as `command-dice`.
    #[command(alias = "command-dice")]
    Answers(ViewArgs),
    /// Serve the page: a local web server answering in the browser what `fire` and
    /// `tables` answer here. It listens on 127.0.0.1 only unless `--listen` says
    /// otherwise.
    Serve(ServeArgs),
    /// Print a ruleset's loaded tables with their sources.
    Tables(ListArgs),
    /// List a ruleset's modifiers: stable name, value, how applied, source.
    Modifiers(ListArgs),
    /// Which table cells and named modifiers move a scenario's p_kill most: every
    /// one-step change (a number by one, a band boundary by one, a modifier dropped),
    /// ranked by how far it moves p_kill.
    Sensitivity(SensitivityArgs),
    /// The regression gate: evaluate the reference scenarios and compare them with the
    /// baseline (exact values exactly, Monte Carlo by a corrected two-sample test);
    /// exit 1 when anything moved. `--update` rewrites the baseline.
    Regress(RegressArgs),
    /// Which table cells two rules directories differ in, and which reference
    /// scenarios each changed cell reaches.
    DiffTables(DiffTablesArgs),
    /// Measure this machine's speed against the README's targets: dice, one Command
    /// Decision fire resolution literal and compiled, the exact engine, the tank duel,
    /// and `run` on one thread against all of them.
    Bench(BenchArgs),
}

/// The Monte Carlo and table flags `fire` and `run` share.
#[derive(Debug, clap::Args)]
pub struct TrialArgs {
    /// Monte Carlo trials (with `run --precision`, the most).
    #[arg(long, default_value_t = 1_000_000)]
    pub trials: u64,
    /// Master seed: the same seed gives the same numbers on any number of threads.
    #[arg(long, default_value_t = 2026)]
    pub seed: u64,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// `literal` rolls every die in rule order; `compiled` draws each trial from the
    /// exact distribution built once before the first trial (used wherever the exact
    /// engine reaches, literal elsewhere).
    #[arg(long, value_parser = mode(), default_value = "compiled")]
    pub mode: Mode,
    /// Directory of table overrides, laid out like `rulesets/`.
    #[arg(long)]
    pub rules: Option<PathBuf>,
    /// The most seconds an exact stage (a Markov chain solved or compiled) may take;
    /// past it Monte Carlo answers alone and the output says so.
    #[arg(long, default_value_t = 60.0, value_parser = seconds)]
    pub exact_seconds: f64,
}

/// A positive, finite number of seconds.
fn seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 && s <= 1e9 => Ok(s),
        _ => Err(format!("`{text}` is not a number of seconds above 0 (e.g. 60, or 0.5)")),
    }
}

/// A host name as `--allow-host` takes it: letters, digits, `-` and `.`, no port.
fn host_name(text: &str) -> Result<String, String> {
    let name = !text.is_empty() && text.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '.');
    if name {
        Ok(text.to_ascii_lowercase())
    } else {
        Err(format!("`{text}` is not a host name (letters, digits, `-` and `.`, without a port, e.g. mybox.lan)"))
    }
}

/// Flags of `fire`.
#[derive(Debug, clap::Args)]
pub struct FireArgs {
    /// Scenario TOML file; without one, the embedded Command Decision tank duel.
    pub file: Option<PathBuf>,
    /// Trials, seed, threads and tables.
    #[command(flatten)]
    pub trials: TrialArgs,
    /// Format and destination.
    #[command(flatten)]
    pub out: OutputArgs,
}

/// Flags of `run`.
#[derive(Debug, clap::Args)]
pub struct RunArgs {
    /// Scenario TOML file; without one, the embedded Command Decision tank duel engagement.
    pub file: Option<PathBuf>,
    /// Trials, seed, threads and tables.
    #[command(flatten)]
    pub trials: TrialArgs,
    /// Stop once every reported probability's 95% interval half-width is below this
    /// (checked after fixed batches of trials, so the result stays reproducible).
    #[arg(long)]
    pub precision: Option<f64>,
    /// Run only part K of N of the study (e.g. 3/8), for a batch scheduler's job
    /// array; `combat-odds merge` adds the parts up.
    #[arg(long)]
    pub shard: Option<String>,
    /// Where the results go.
    #[command(flatten)]
    pub results: ResultsArgs,
}

/// The results directory of `run` and `compare`.
#[derive(Debug, clap::Args)]
pub struct ResultsArgs {
    /// Results directory (default: a new directory `runs/<file name>`, with
    /// -shard-K-of-N for a shard of a run and -2, -3, ... when that name is taken).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Allow --out to replace an existing results directory that combat-odds wrote
    /// (never one holding other files).
    #[arg(long)]
    pub force: bool,
}

/// Flags of `sweep`.
#[derive(Debug, clap::Args)]
pub struct SweepArgs {
    /// Sweep TOML file (`kind = "sweep"`), naming its base scenario relative to itself.
    pub file: PathBuf,
    /// Trials at every point, seed, threads and tables.
    #[command(flatten)]
    pub trials: TrialArgs,
    /// Run only the tasks K, K+N, K+2N, ... of the sweep (e.g. 3/8), for a batch
    /// scheduler's job array; `combat-odds merge` adds the parts up. A task is a point,
    /// or with --split one part of a point's trials.
    #[arg(long)]
    pub shard: Option<String>,
    /// Split each point's trials into this many tasks, so that a sweep of few points
    /// still spreads over many (every task of a point gives the same --split).
    #[arg(long, default_value_t = 1)]
    pub split: u64,
    /// Where the results go.
    #[command(flatten)]
    pub results: ResultsArgs,
}

/// Flags of `balance`.
#[derive(Debug, clap::Args)]
pub struct BalanceArgs {
    /// Scenario TOML file whose parameter is varied.
    pub file: PathBuf,
    /// The key to vary, by its path in the scenario (e.g. `engagement.range`,
    /// `side[0].unit[0].count`).
    #[arg(long)]
    pub vary: String,
    /// The chance sought (0 to 1): where does P cross it?
    #[arg(long, default_value_t = 0.5)]
    pub target: f64,
    /// The values to try, comma-separated (e.g. 1,2,3,4 or veteran,regular); each is
    /// answered.
    #[arg(long, value_delimiter = ',', conflicts_with_all = ["from", "to", "step"])]
    pub values: Vec<String>,
    /// The low end of a span of numbers.
    #[arg(long, requires = "to")]
    pub from: Option<f64>,
    /// The high end of a span of numbers.
    #[arg(long, requires = "from")]
    pub to: Option<f64>,
    /// Try every step from --from to --to (whole units, say); without it, a bisection
    /// narrows the crossing to --tolerance.
    #[arg(long)]
    pub step: Option<f64>,
    /// How narrowly the bisection brackets the crossing (default: a 64th of the span).
    #[arg(long)]
    pub tolerance: Option<f64>,
    /// The measure whose outcome is balanced (default: the scenario's p_kill).
    #[arg(long, requires = "outcome")]
    pub measure: Option<String>,
    /// The outcome of --measure.
    #[arg(long, requires = "measure")]
    pub outcome: Option<String>,
    /// Trials at each value, seed, threads and tables.
    #[command(flatten)]
    pub trials: TrialArgs,
    /// How and where the answer is written.
    #[command(flatten)]
    pub out: OutputArgs,
}

/// Flags of `compare`.
#[derive(Debug, clap::Args)]
pub struct CompareArgs {
    /// Comparison TOML file; without one, the embedded AT gun vs medium tank comparison.
    pub file: Option<PathBuf>,
    /// Trials, seed, threads and tables.
    #[command(flatten)]
    pub trials: TrialArgs,
    /// Where the results go.
    #[command(flatten)]
    pub results: ResultsArgs,
}

/// Flags of `regress`.
#[derive(Debug, clap::Args)]
pub struct RegressArgs {
    /// Evaluate the suite and rewrite the baseline instead of checking against it.
    #[arg(long)]
    pub update: bool,
    /// Trials, seed, threads and tables (`--rules DIR`: the tables to check).
    #[command(flatten)]
    pub trials: TrialArgs,
    /// A suite file (`scenarios = [...]`); default: every scenario in experiments/.
    #[arg(long)]
    pub suite: Option<PathBuf>,
    /// The baseline's CSV (its Parquet sits beside it).
    #[arg(long, default_value = "results/baseline.csv")]
    pub baseline: PathBuf,
    /// Family-wise significance of the Monte Carlo tests (Bonferroni-corrected).
    #[arg(long, default_value_t = 0.001)]
    pub alpha: f64,
    /// Also write the diff table as CSV to this file (it is always printed).
    #[arg(long)]
    pub diff: Option<PathBuf>,
    /// Allow --diff to replace an existing file.
    #[arg(long)]
    pub force: bool,
}

/// Flags of `diff-tables`.
#[derive(Debug, clap::Args)]
pub struct DiffTablesArgs {
    /// The old rules directory, laid out like `rulesets/`.
    pub old: PathBuf,
    /// The new rules directory.
    pub new: PathBuf,
    /// A suite file (`scenarios = [...]`); default: every scenario in experiments/.
    #[arg(long)]
    pub suite: Option<PathBuf>,
    /// Monte Carlo trials per scenario (reach is exact at any count: unreached
    /// scenarios repeat their counts).
    #[arg(long, default_value_t = 20_000)]
    pub trials: u64,
    /// Master seed.
    #[arg(long, default_value_t = 2026)]
    pub seed: u64,
}

/// Flags of `merge`.
#[derive(Debug, clap::Args)]
pub struct MergeArgs {
    /// The shards' results directories.
    #[arg(required = true)]
    pub dirs: Vec<PathBuf>,
    /// Where to write the merged results.
    #[arg(long)]
    pub out: PathBuf,
    /// Allow --out to replace an existing results directory that combat-odds wrote
    /// (never one holding other files).
    #[arg(long)]
    pub force: bool,
}

/// How and where a command writes its answer.
#[derive(Debug, clap::Args)]
pub struct OutputArgs {
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
    /// Write to this file (whole or not at all) instead of standard output.
    #[arg(long)]
    pub output: Option<PathBuf>,
    /// Allow --output to replace an existing file.
    #[arg(long)]
    pub force: bool,
}

/// Flags of `bench`.
#[derive(Debug, clap::Args)]
pub struct BenchArgs {
    /// Trials per timed repeat (more is steadier, slower).
    #[arg(long, default_value_t = 20_000_000)]
    pub trials: u64,
    /// Timed repeats of each figure; the best counts.
    #[arg(long, default_value_t = 3)]
    pub repeats: u32,
    /// The NumPy peer's resolutions per second (`benches/peer/run.sh` prints it), for
    /// the ratios.
    #[arg(long)]
    pub peer_rate: Option<f64>,
    /// Format and destination.
    #[command(flatten)]
    pub out: OutputArgs,
}

/// Flags of `sensitivity`.
#[derive(Debug, clap::Args)]
pub struct SensitivityArgs {
    /// Scenario TOML file; without one, the embedded Command Decision tank duel.
    pub file: Option<PathBuf>,
    /// List the N changes that move p_kill most.
    #[arg(long, default_value_t = 20)]
    pub top: usize,
    /// Run every change's first 10,000 paired trials before solving it exactly, and
    /// count one that alters none of them as not moving: much faster for whole
    /// engagements, whose exact answers are long Markov-chain solves.
    #[arg(long)]
    pub screen: bool,
    /// Monte Carlo trials per change, where the exact engine does not reach (each run
    /// beside the unchanged scenario on the same random numbers).
    #[arg(long, default_value_t = 100_000)]
    pub trials: u64,
    /// Master seed: the same seed gives the same numbers on any number of threads.
    #[arg(long, default_value_t = 2026)]
    pub seed: u64,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Directory of table overrides, laid out like `rulesets/`; changes are made on top.
    #[arg(long)]
    pub rules: Option<PathBuf>,
    /// Format and destination.
    #[command(flatten)]
    pub out: OutputArgs,
}

/// Flags of `answers`: exact answers only, so no trials or seed.
#[derive(Debug, clap::Args)]
pub struct ViewArgs {
    /// A scenario of the kind its ruleset answers of its own; without one, the embedded
    /// five-dice hand of Command Dice.
    pub file: Option<PathBuf>,
    /// Directory of table overrides, laid out like `rulesets/`.
    #[arg(long)]
    pub rules: Option<PathBuf>,
    /// Format and destination.
    #[command(flatten)]
    pub out: OutputArgs,
}

/// Flags of `tables` and `modifiers`.
#[derive(Debug, clap::Args)]
pub struct ListArgs {
    /// Ruleset name, e.g. command-decision.
    pub ruleset: String,
    /// Directory of table overrides, laid out like `rulesets/`.
    #[arg(long)]
    pub rules: Option<PathBuf>,
    /// Output format: a printed table, JSON (one object) or CSV.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
}

/// `serve`'s flags.
#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    /// The port on 127.0.0.1 (this machine only).
    #[arg(long, default_value_t = 8070)]
    pub port: u16,
    /// Listen on this address instead, e.g. 0.0.0.0:8070 to share the page with
    /// every machine that can reach this one: anyone there can run work on it.
    #[arg(long)]
    pub listen: Option<std::net::SocketAddr>,
    /// A name the page may be opened by besides localhost and the address listened
    /// on, e.g. this machine's name on the network with --listen (repeat for more).
    /// Requests naming any other host are refused, so that no other site's name can
    /// be pointed at this server (DNS rebinding).
    #[arg(long, value_name = "NAME", value_parser = host_name)]
    pub allow_host: Vec<String>,
    /// Directory of table overrides, laid out like `rulesets/`.
    #[arg(long)]
    pub rules: Option<PathBuf>,
    /// The most Monte Carlo trials one request may ask for.
    #[arg(long, default_value_t = 10_000_000)]
    pub max_trials: u64,
    /// How many pieces of long work may be under way at once: any request estimated at
    /// more than two seconds of one core (a fight, or a long run of fire).
    #[arg(long, default_value_t = 4)]
    pub max_runs: usize,
    /// The most work one request may be estimated at, in seconds of one core: its
    /// trials in all at its scenario's pace, and the most its exact stages may take.
    #[arg(long, default_value_t = 3600.0, value_parser = seconds)]
    pub max_core_seconds: f64,
    /// Seconds the exact solver may take on one request before the answer is Monte
    /// Carlo alone.
    #[arg(long, default_value_t = 10.0, value_parser = seconds)]
    pub exact_seconds: f64,
}

/// How results are printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Human-readable tables.
    Table,
    /// One JSON object.
    Json,
    /// Comma-separated values.
    Csv,
}

/// `--mode` takes the names reports and summaries use.
fn mode() -> impl TypedValueParser<Value = Mode> {
    PossibleValuesParser::new(Mode::ALL.map(Mode::name))
        .map(|name| Mode::ALL.into_iter().find(|m| m.name() == name).expect("one of the listed names"))
}
