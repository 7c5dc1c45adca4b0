//! The rulesets of combat-odds behind one trait, and the plan that turns a scenario
//! file into something the engine runs.
//!
//! The modules, lowest first (each imports only those before it, and the engine
//! crate below):
//! - [`setup`]: what every ruleset's scenario set-up shares (required sections,
//!   closed choices, counts, named modifiers, the audit-trail sum).
//! - [`settings`](mod@settings): the [`settings!`] declaration each ruleset's settings are made from.
//!
//! These two, the trait and [`SetUp`] are what a ruleset outside this crate builds
//! on (the test suite's fifth, `tests/suite/fifth_ruleset/`), beside the core crate.
//! - [`ruleset`]: the [`Ruleset`] trait, a scenario's [`SetUp`], and table listings.
//! - `test_roll`: a test decided by one die (morale checks, reaction tests).
//! - `engagement`: forces fighting turn by turn to an end, as a Markov chain where
//!   it is small enough; every ruleset's engagement is built on it.
//! - one folder per ruleset: [`command_decision`], [`mission_command`],
//!   [`company_commander`], [`chain_of_command`]; each ruleset's quirks stay there.
//! - [`registry`]: every ruleset by name, loaded with its tables: the [`Rules`] a
//!   command is handed.
//! - [`scenario`]: a scenario file set up against its ruleset: the [`Scenario`]
//!   every command, analysis and page runs.
//! - [`defaults`]: the scenarios shipped in the binary.
//!
//! ```
//! use combat_odds_core::document::Document;
//! use combat_odds_core::engine::{self, Mode, MonteCarlo};
//! use combat_odds_core::{interrupt, run::Run};
//! use combat_odds_rules::{Rules, Scenario, defaults};
//! use std::time::Duration;
//!
//! // The embedded tank duel, set up against the embedded Command Decision tables.
//! let (name, text) = defaults::FIRE;
//! let doc = Document::new(name, name, text);
//! let monte_carlo = MonteCarlo { trials: 20_000, seed: 7, threads: Some(1), mode: Mode::Compiled };
//! let mut scenario = Scenario::new(&doc, &Rules::builtin(), monte_carlo).unwrap();
//! // One run: stopped by Ctrl-C, each exact stage within a minute.
//! let run = Run::new(interrupt::flag(), Some(Duration::from_secs(60)));
//! // Exact where the dice allow...
//! let exact = scenario.exact(&run).unwrap().expect("a single fire is exact");
//! // ...and Monte Carlo everywhere, from the same set-up.
//! let (tally, _) = engine::run(scenario.set_up.experiment.as_ref(), &monte_carlo, &run).unwrap();
//! let (measure, outcome) = scenario.set_up.experiment.kill();
//! let estimate = tally.counts(measure)[outcome] as f64 / tally.trials() as f64;
//! assert!((estimate - exact[measure][outcome].to_f64()).abs() < 0.02);
//! ```
#![deny(missing_docs)]

pub mod setup;
pub mod settings;
pub mod ruleset;
pub(crate) mod test_roll;
pub(crate) mod engagement;

/// Declares each ruleset's module and its line in [`registry::Rules::builtin`]: the
/// module's type implements [`Ruleset`] and [`ruleset::Load`].
macro_rules! rulesets {
    ($($module:ident::$ruleset:ident),* $(,)?) => {
        $(pub mod $module;)*

        /// Every ruleset this build ships, in listing order.
        fn builtin() -> Vec<registry::Registered> {
            vec![$(registry::Registered::of::<$module::$ruleset>()),*]
        }
    };
}

// One line per ruleset.
rulesets! {
    command_decision::CommandDecision,
    mission_command::MissionCommand,
    company_commander::CompanyCommander,
    chain_of_command::ChainOfCommand,
}

pub mod defaults;
pub mod registry;
pub mod scenario;

pub use registry::Rules;
pub use ruleset::{Ruleset, SetUp};
pub use scenario::{Header, Scenario};
