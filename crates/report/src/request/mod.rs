//! The one request layer: what the page asks (the same JSON whether the server or the
//! static site's engine answers it) turned into a run, every front door through the same
//! functions, so that limits, defaults, errors and answers cannot drift between them.
//!
//! A request goes through three steps, and a front door adds only its transport around
//! them:
//! 1. [`prepare`]: the body read and validated (its defaults written once, here), the
//!    scenario set up against the rules and the player's own tables, and its work priced
//!    ([`Cost`]) before any of it starts: a [`Job`].
//! 2. [`Limits::admit`]: the job refused past the trials or the work one request may ask
//!    for, in the same words wherever it is refused ([`Front`] names where).
//! 3. [`Job::run`]: the work itself, on the run the front door made (its cancellation,
//!    the job's exact budget, its clock), hearing progress; the answer is the JSON both
//!    front doors send, byte for byte.
//!
//! The server adds admission by slots, server-sent events and headers; the browser's
//! engine adds the tab's pricing pace and the worker's messages. Neither defines a
//! request type, a default or a message of its own.

mod endpoints;
mod own_tables;

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use serde::Deserialize;

use combat_odds_core::document::Document;
use combat_odds_core::engine::{Mode, MonteCarlo};
use combat_odds_core::error::Error as CoreError;
use combat_odds_core::run::Run;
use combat_odds_rules::Rules;

use crate::cost::{Cost, Pace, duration};
use crate::error::Error as ReportError;

pub use endpoints::prepare;
pub use own_tables::{OwnTables, rules_for};

/// The master seed of a request that names none, as on the command line.
pub const DEFAULT_SEED: u64 = 2026;

/// The file name a request's scenario is read as when it names none: what messages
/// and reports call it.
pub const DEFAULT_NAME: &str = "page.toml";

/// Every endpoint the page asks work of, declared once: the server's router, the
/// browser worker's dispatch and the WebAssembly engine's one export are made from
/// (or checked against) this list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Endpoint {
    /// One scenario's report, exact beside Monte Carlo: what `fire --format json` prints.
    Fire,
    /// The same report as the CSV `fire --format csv` prints (a JSON string).
    FireCsv,
    /// A scenario's exact stage alone: what a link opens with, drawing no trial.
    Exact,
    /// What the page can offer in place of each value of a scenario file.
    Form,
    /// A ruleset's catalogue for the page's editor, an edit made on it, and the
    /// loader's verdict.
    Catalogue,
    /// The destroy chance as a game screen shows it, a whole percentage.
    Percent,
    /// A ruleset's own answers about a file (every allocation policy of a hand of
    /// Command Dice, where the ruleset has one).
    Answers,
    /// Which table cells and modifiers move the kill chance most.
    Sensitivity,
    /// An engagement's study, as `combat-odds run` makes it.
    Run,
    /// A comparison across rulesets.
    Compare,
    /// A sweep file's points.
    Sweep,
    /// Where a key balances a chance.
    Balance,
}

impl Endpoint {
    /// Every endpoint, in the order the page's tabs meet them.
    pub const ALL: [Endpoint; 12] = [
        Endpoint::Fire,
        Endpoint::FireCsv,
        Endpoint::Exact,
        Endpoint::Form,
        Endpoint::Catalogue,
        Endpoint::Percent,
        Endpoint::Answers,
        Endpoint::Sensitivity,
        Endpoint::Run,
        Endpoint::Compare,
        Endpoint::Sweep,
        Endpoint::Balance,
    ];

    /// Its path, as the page posts to it.
    pub fn path(self) -> &'static str {
        match self {
            Endpoint::Fire => "/api/fire",
            Endpoint::FireCsv => "/api/fire.csv",
            Endpoint::Exact => "/api/exact",
            Endpoint::Form => "/api/form",
            Endpoint::Catalogue => "/api/catalogue",
            Endpoint::Percent => "/api/percent",
            Endpoint::Answers => "/api/answers",
            Endpoint::Sensitivity => "/api/sensitivity",
            Endpoint::Run => "/api/run",
            Endpoint::Compare => "/api/compare",
            Endpoint::Sweep => "/api/sweep",
            Endpoint::Balance => "/api/balance",
        }
    }

    /// Paths it also answers at: the names a page or script of an earlier version
    /// posted to.
    pub fn aliases(self) -> &'static [&'static str] {
        match self {
            Endpoint::Answers => &["/api/command-dice"],
            _ => &[],
        }
    }

    /// The endpoint at `path` (or one of its aliases).
    pub fn at(path: &str) -> Option<Endpoint> {
        Endpoint::ALL.into_iter().find(|e| e.path() == path || e.aliases().contains(&path))
    }

    /// Whether its work is long enough to be answered with progress (server-sent events
    /// on the server, progress messages from the worker) and to be cancelled by the
    /// page; the others answer at once as one JSON body.
    pub fn streamed(self) -> bool {
        matches!(self, Endpoint::Sensitivity | Endpoint::Run | Endpoint::Compare | Endpoint::Sweep | Endpoint::Balance)
    }

    /// Monte Carlo trials it draws when the request names none: a single fire's
    /// hundred thousand answer at every change; an engagement draws what `combat-odds
    /// run` draws; a comparison's runs and a sweep's points or a balance's values each
    /// draw fewer, so a whole grid answers in seconds.
    pub fn default_trials(self) -> u64 {
        match self {
            Endpoint::Run => 1_000_000,
            Endpoint::Compare | Endpoint::Sweep | Endpoint::Balance => 20_000,
            _ => 100_000,
        }
    }
}

/// Where a request is answered, as a refusal names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Front {
    /// `combat-odds serve`.
    Server,
    /// The static site's engine, in a browser tab's worker.
    Tab,
}

impl Front {
    /// Who takes the work, as a refusal for weight says it.
    fn who(self) -> &'static str {
        match self {
            Front::Server => "this server",
            Front::Tab => "a browser tab",
        }
    }

    /// What else the user can do, as a refusal for weight ends.
    fn instead(self) -> &'static str {
        match self {
            Front::Server => "",
            Front::Tab => "; or run it with every core on the command line",
        }
    }
}

/// What one request may ask for and cost. A front door may lower them (a tab takes
/// two minutes of one core's work, a server an hour), never skip them.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Where requests are answered, as refusals name it.
    pub front: Front,
    /// The most Monte Carlo trials one request may ask for, in all its runs.
    pub max_trials: u64,
    /// The most work one request may be estimated at, in seconds of one core.
    pub max_cost: Duration,
    /// The most one exact stage of a request may take; a request may ask for less.
    pub exact_budget: Duration,
    /// How the front door's engine runs: pilots timed on its clock, exact stages at its
    /// pace against the native engine.
    pub pace: Pace,
}

impl Limits {
    /// The server's: ten million trials and an hour of one core per request, ten
    /// seconds per exact stage, at the native engine's pace.
    pub const SERVER: Limits = Limits {
        front: Front::Server,
        max_trials: 10_000_000,
        max_cost: Duration::from_secs(3600),
        exact_budget: Duration::from_secs(10),
        pace: crate::cost::NATIVE,
    };

    /// A browser tab's: the server's, but two minutes of its one thread per request
    /// (long enough for every shipped sweep at the page's trials, short enough that a
    /// person watching the progress bar does not give up on it), at `pace`.
    pub const fn tab(pace: Pace) -> Limits {
        Limits { front: Front::Tab, max_cost: Duration::from_secs(120), pace, ..Limits::SERVER }
    }

    /// Admits `job`'s work: refused, with what to reduce, past the trials or the work
    /// one request may ask for.
    pub fn admit(&self, job: &Job) -> Result<(), Refused> {
        let cost = &job.cost;
        let (runs, what) = cost.runs();
        let (most, who) = (self.max_trials, self.front.who());
        if cost.total_trials() > most {
            let message = match runs {
                1 => self.too_many_trials(cost.trials()).message,
                _ => format!(
                    "trials {}: {runs} {what} of them are {} trials, and {who} takes at most {most} per request; ask for {}{}",
                    cost.trials(),
                    cost.total_trials(),
                    cost.reduce(),
                    self.front.instead()
                ),
            };
            return Err(Refused::new(Kind::TooMuch, message));
        }
        let (seconds, budget) = (cost.core_seconds(), self.max_cost.as_secs_f64());
        if seconds > budget {
            let price = price(seconds, budget);
            return Err(Refused::new(
                Kind::TooMuch,
                format!(
                    "this is {price} of work for one core ({}), and {who} takes at most {} per request; ask for {}{}",
                    cost.parts(),
                    duration(budget),
                    cost.reduce(),
                    self.front.instead()
                ),
            ));
        }
        Ok(())
    }

    /// The refusal of `trials` trials in one run, past [`Limits::max_trials`]: the same
    /// words from every front door.
    fn too_many_trials(&self, trials: u64) -> Refused {
        Refused::new(Kind::TooMuch, format!("trials {trials}: at most {} per request", self.max_trials))
    }
}

/// What `seconds` of work past a limit of `budget` seconds is said to cost: work just
/// past the limit reads as the limit when rounded, and "about 2 minutes of work ... takes
/// at most 2 minutes" would say nothing is wrong.
fn price(seconds: f64, budget: f64) -> String {
    match duration(seconds) {
        said if said == duration(budget) => format!("over {said}"),
        said => format!("about {said}"),
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits::SERVER
    }
}

/// Files kept for download: each one's name and size in bytes.
pub type Listed = Vec<(String, u64)>;

/// A finished run's files, kept by the front door that can keep them (the server's
/// downloads; a browser tab keeps none).
pub trait Downloads: Send + Sync {
    /// Keeps the files `write` writes, whole or not at all, into the folder it is
    /// given; gives the number they are fetched by and each file's name and size.
    fn keep(
        &self,
        write: &mut dyn FnMut(&Path) -> Result<Vec<String>, ReportError>,
    ) -> Result<(u64, Listed), ReportError>;
}

/// What every request of one front door is answered with.
#[derive(Clone)]
pub struct Context<'a> {
    /// The rules, with the front door's own overrides (`--rules DIR`).
    pub rules: &'a Rules,
    /// What one request may ask for.
    pub limits: Limits,
    /// The text of the shipped file of a name: where a sweep finds the base scenario it
    /// names when the request gives none.
    pub shipped: &'a dyn Fn(&str) -> Option<String>,
    /// Where finished runs' files are kept, where they can be.
    pub downloads: Option<Arc<dyn Downloads>>,
}

/// What a refusal is, as a front door answers it (the server's status code).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// The request, or a file in it, is wrong: the message says where and how.
    Invalid,
    /// More than one request may ask for: the message says what to reduce.
    TooMuch,
    /// A ruleset or table it names is not there.
    NotFound,
    /// The run was stopped before it ended.
    Interrupted,
    /// The work failed for a reason of the machine's, not the request's.
    Failed,
}

/// A request refused, before or during its work: what kind, and the one line that
/// says why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused {
    /// What kind of refusal.
    pub kind: Kind,
    /// The one line that says why, in the library's words.
    pub message: String,
}

impl Refused {
    /// A refusal of `kind`.
    pub fn new(kind: Kind, message: impl Into<String>) -> Self {
        Refused { kind, message: message.into() }
    }

    /// The refusal as every front door sends it: `{"error":"..."}`.
    pub fn to_json(&self) -> String {
        serde_json::json!({ "error": self.message }).to_string()
    }
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Refused {}

impl From<ReportError> for Refused {
    fn from(e: ReportError) -> Self {
        let kind = match &e {
            ReportError::Core(CoreError::Input { .. } | CoreError::Setting { .. }) => Kind::Invalid,
            ReportError::Core(CoreError::Unknown { .. }) => Kind::NotFound,
            ReportError::Core(CoreError::Interrupted) => Kind::Interrupted,
            _ => Kind::Failed,
        };
        Refused::new(kind, e.to_string())
    }
}

impl From<CoreError> for Refused {
    fn from(e: CoreError) -> Self {
        ReportError::from(e).into()
    }
}

/// What a job's work hears as it goes: (steps done, steps planned).
pub type Heard<'a> = dyn Fn(u64, u64) + Sync + 'a;

/// The work a request asks for, set up and priced, not yet begun.
pub struct Job {
    /// What it will cost, estimated before it starts.
    pub cost: Cost,
    /// The most each of its exact stages may take: the run it is given is made with it.
    pub exact_budget: Duration,
    work: Work,
}

/// A job's work: on the front door's run, hearing progress, to the answer's JSON.
type Work = Box<dyn FnOnce(&Run, &Heard) -> Result<String, Refused> + Send>;

impl Job {
    fn new(
        cost: Cost,
        exact_budget: Duration,
        work: impl FnOnce(&Run, &Heard) -> Result<String, Refused> + Send + 'static,
    ) -> Self {
        Job { cost, exact_budget, work: Box::new(work) }
    }

    /// Does the work on `run` (made by the front door with [`Job::exact_budget`]),
    /// `heard` hearing its progress: the answer's JSON, as both front doors send it.
    pub fn run(self, run: &Run, heard: &Heard) -> Result<String, Refused> {
        (self.work)(run, heard)
    }
}

/// Reads a request's JSON body: a field of the wrong type or an unknown one is named by
/// its path, as the page places it beside its field.
fn read<T: for<'de> Deserialize<'de>>(body: &str) -> Result<T, Refused> {
    let mut json = serde_json::Deserializer::from_str(body);
    let read: T = serde_path_to_error::deserialize(&mut json).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        let data = inner.classify() == serde_json::error::Category::Data;
        // A value of the wrong type is its field's fault; JSON cut short or malformed,
        // or a field it does not take (whose path is the field itself), the request's.
        match path.as_str() {
            "." | "" => Refused::new(Kind::Invalid, format!("the request: {inner}")),
            _ if !data || inner.to_string().starts_with("unknown field") => {
                Refused::new(Kind::Invalid, format!("the request: {inner}"))
            }
            _ => Refused::new(Kind::Invalid, format!("{path}: {inner}")),
        }
    })?;
    json.end().map_err(|e| Refused::new(Kind::Invalid, format!("the request: {e}")))?;
    Ok(read)
}

/// How a request asks to sample: its trials, seed, mode and exact budget, each
/// defaulted here and checked against the front door's limits.
#[derive(Debug, Default, Deserialize)]
struct Sampling {
    trials: Option<u64>,
    seed: Option<u64>,
    mode: Option<String>,
    exact_seconds: Option<f64>,
}

impl Sampling {
    /// The Monte Carlo plan and the exact budget asked for, each within the front
    /// door's limits.
    fn plan(&self, endpoint: Endpoint, limits: &Limits) -> Result<(MonteCarlo, Duration), Refused> {
        Ok((self.monte_carlo(endpoint, limits)?, self.exact_budget(limits)?))
    }

    /// The Monte Carlo plan asked for (`endpoint`'s default trials where it names
    /// none), refused past the trials one run may draw before anything is set up.
    fn monte_carlo(&self, endpoint: Endpoint, limits: &Limits) -> Result<MonteCarlo, Refused> {
        let mode = match self.mode.as_deref() {
            None => Mode::Compiled,
            Some(name) => Mode::ALL
                .into_iter()
                .find(|m| m.name() == name)
                .ok_or_else(|| Refused::new(Kind::Invalid, format!("mode `{name}`: give `compiled` or `literal`")))?,
        };
        let trials = self.trials.unwrap_or(endpoint.default_trials());
        if trials > limits.max_trials {
            return Err(limits.too_many_trials(trials));
        }
        let monte_carlo = MonteCarlo { trials, seed: self.seed.unwrap_or(DEFAULT_SEED), threads: None, mode };
        monte_carlo.validate()?;
        Ok(monte_carlo)
    }

    /// The exact budget asked for, within the front door's (its own where the request
    /// asks for none).
    fn exact_budget(&self, limits: &Limits) -> Result<Duration, Refused> {
        match self.exact_seconds {
            None => Ok(limits.exact_budget),
            // Compared before it becomes a Duration: one of 1.9e19 seconds or more has
            // none.
            Some(s) if s.is_finite() && s >= 0.0 => Ok(if s >= limits.exact_budget.as_secs_f64() {
                limits.exact_budget
            } else {
                Duration::from_secs_f64(s)
            }),
            Some(s) => Err(Refused::new(
                Kind::Invalid,
                format!("exact_seconds {s}: give the most seconds an exact stage may take, 0 or more"),
            )),
        }
    }
}

/// A file a request gives, named [`DEFAULT_NAME`] where it names none.
fn document(name: Option<String>, text: String) -> Document {
    let name = name.unwrap_or_else(|| DEFAULT_NAME.into());
    Document::new(name.clone(), name, text)
}

/// The JSON of an answer, compact, as every front door sends it.
fn json(answer: &impl serde::Serialize) -> Result<String, Refused> {
    serde_json::to_string(answer).map_err(|e| Refused::new(Kind::Failed, format!("the answer: {e}")))
}

#[cfg(test)]
mod tests;
