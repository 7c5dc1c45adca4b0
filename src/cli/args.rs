//! Command-line flags: clap mirrors what the user typed, nothing more.

use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

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
    /// Add up the directories of one run's `--shard K/N` parts into the result the
    /// whole run would have written.
    Merge(MergeArgs),
    /// The chance a fire destroys its target, as a whole percentage the way Company
    /// Commander's screen shows it, with the exact fraction behind it.
    PercentDestroy(FireArgs),
    /// What a Chain of Command hand of Command Dice gives, exactly, under every
    /// allocation policy: activations, Orders, Chain of Command points, the sixes.
    CommandDice(ViewArgs),
    /// Print a ruleset's loaded tables with their sources.
    Tables(ListArgs),
    /// List a ruleset's modifiers: stable name, value, how applied, source.
    Modifiers(ListArgs),
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
    /// Directory of table overrides, laid out like `rulesets/`.
    #[arg(long)]
    pub rules: Option<PathBuf>,
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
    /// Results directory (default: results/<scenario file name>, with
    /// -shard-K-of-N for a shard).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Allow --out to replace an existing directory.
    #[arg(long)]
    pub force: bool,
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
    /// Allow --out to replace an existing directory.
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

/// Flags of `command-dice`: exact answers only, so no trials or seed.
#[derive(Debug, clap::Args)]
pub struct ViewArgs {
    /// A chain-of-command `command_dice` scenario; without one, the embedded five-dice hand.
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
    /// Output format (json is for `fire`; listings print as table or csv).
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
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
