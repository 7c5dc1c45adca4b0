//! A scenario file set up against its ruleset: the one plan every command, analysis
//! and page runs. The file's header names the ruleset and kind; the ruleset's tables
//! (embedded, or overridden from a directory) set it up; the Monte Carlo settings say
//! how it is sampled.

use combat_odds_core::document::Document;
use combat_odds_core::engine::{ExactTable, MonteCarlo};
use combat_odds_core::error::Result;
use combat_odds_core::run::Run;
use combat_odds_core::tables;
use toml::Spanned;

use crate::registry::Rules;
use crate::ruleset::{Answers, Ruleset, SetUp};

/// What a result is about, besides the numbers.
#[derive(Debug, Clone)]
pub struct Header {
    /// Ruleset name.
    pub ruleset: String,
    /// Scenario name.
    pub scenario: String,
    /// Scenario kind.
    pub kind: String,
    /// Hash of the loaded tables.
    pub rules_hash: String,
    /// How the numbers were reached.
    pub notes: Vec<String>,
    /// Where the exact engine or the compiled sampler stood aside, and why: among the
    /// notes too, and the notes a terminal shows.
    pub aside: Vec<String>,
    /// The invented (illustrative) catalogue entries the numbers rest on, by label:
    /// every output says so plainly, since they are not the published rules' values.
    pub invented: Vec<String>,
}

impl Header {
    /// Records that the exact engine or the compiled sampler stood aside, and why.
    pub fn stand_aside(&mut self, why: String) {
        self.notes.push(why.clone());
        self.aside.push(why);
    }
}

/// The keys every scenario file opens with.
#[derive(serde::Deserialize)]
pub struct FileHeader {
    /// The ruleset's name, where it stands in the file.
    pub ruleset: Spanned<String>,
    /// The scenario's kind, where it stands in the file.
    pub kind: Spanned<String>,
    /// The scenario's name, when it gives one.
    pub name: Option<String>,
    /// Free text for the reader of the file; read here only so that it must be text.
    #[serde(default, rename = "description")]
    _description: Option<String>,
}

impl FileHeader {
    /// The scenario's name, or its file name.
    pub fn scenario(&self, doc: &Document) -> String {
        self.name.clone().unwrap_or_else(|| doc.name.clone())
    }
}

/// A scenario set up against its ruleset's tables, ready to run.
pub struct Scenario {
    /// The ruleset the scenario names.
    pub ruleset: Box<dyn Ruleset>,
    /// What the ruleset made of the scenario.
    pub set_up: SetUp,
    /// What results are about.
    pub header: Header,
    /// Trials, seed, threads and sampling mode.
    pub monte_carlo: MonteCarlo,
}

impl Scenario {
    /// Loads the scenario's ruleset from `rules` (with its tables as they say) and sets
    /// the scenario up.
    pub fn new(doc: &Document, rules: &Rules, monte_carlo: MonteCarlo) -> Result<Self> {
        monte_carlo.validate()?;
        let head: FileHeader = doc.parse()?;
        let ruleset = rules.load_named(doc, &head.ruleset)?;
        let set_up = ruleset.set_up(doc, &head.kind)?;
        let header = Header {
            ruleset: ruleset.name().to_string(),
            scenario: head.scenario(doc),
            kind: head.kind.into_inner(),
            rules_hash: tables::rules_hash(ruleset.files()),
            notes: set_up.notes.clone(),
            aside: Vec::new(),
            invented: doc.invented(),
        };
        Ok(Scenario { ruleset, set_up, header, monte_carlo })
    }

    /// The exact distribution where the exact engine reaches it within `run`'s exact
    /// budget; when the budget stops it, the header's notes say so. A stopped run ends
    /// here with an interrupted error. The solver weighs a turn's fields on the run's
    /// thread pool (`--threads`), or on the pool it is already in (a sweep's).
    pub fn exact(&mut self, run: &Run) -> Result<Option<ExactTable>> {
        let stage = run.exact_stage();
        let experiment = self.set_up.experiment.as_ref();
        let exact = combat_odds_core::engine::in_pool(self.monte_carlo.threads, || experiment.exact_in(&stage))?;
        run.check()?;
        if exact.is_none() {
            let why = match stage.spent() {
                Some(budget) => Some(format!(
                    "the exact solver stopped at its time budget of {} s (exact-seconds): Monte Carlo answers alone",
                    budget.as_secs_f64()
                )),
                None => self.set_up.experiment.why_not_exact(),
            };
            if let Some(why) = why {
                self.header.stand_aside(why);
            }
        }
        Ok(exact)
    }
}

/// A ruleset's own answers about the scenario `doc` (Chain of Command's about a hand of
/// Command Dice), exactly, from `rules`. A scenario of a ruleset
/// with no answers of its own is refused at its `ruleset` key, naming those that have.
pub fn answers(doc: &Document, rules: &Rules) -> Result<Answers> {
    let head: FileHeader = doc.parse()?;
    let ruleset = rules.load_named(doc, &head.ruleset)?;
    if ruleset.answers_kind().is_none() {
        let offered: Vec<String> =
            rules.answering()?.into_iter().map(|(name, kind)| format!("a {name} scenario of kind {kind}")).collect();
        return Err(doc.error_at(
            head.ruleset.span().start,
            format!("the rules answer of their own about {}, not `{}`", offered.join(" or "), head.ruleset.get_ref()),
        ));
    }
    ruleset.answers(doc, &head.kind, head.scenario(doc))
}
