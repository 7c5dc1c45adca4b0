//! What combat-odds makes of its runs: reports and frames, files written whole,
//! charts, and the analyses over scenarios. No ruleset is named here: everything
//! goes through the rules crate's `Scenario` and `Ruleset`.
//!
//! The modules, lowest first (each imports only those before it):
//! - [`error`]: this layer's error (frames, charts, destinations, merges) over the
//!   engine's.
//! - [`export`]: the one results schema ([`export::Report`]) as a table, JSON and CSV;
//!   polars frames; results directories and files written whole or not at all.
//! - [`charts`]: PNG and SVG charts (plotters) of a study.
//! - [`study`]: a whole engagement study's results directory, with its charts.
//! - [`compare`]: one weapon against one target across rulesets (its files and charts
//!   with the `files` feature).
//! - [`form`]: what a page can offer in place of each value of a scenario file.
//! - [`sensitivity`]: every one-step change of a scenario's tables, ranked (printed
//!   and as CSV with the `files` feature).
//! - [`regress`]: the regression gate over the reference scenarios.
//! - [`sweep`]: one scenario over a grid of its own parameters, for balance.
//! - [`bench`](mod@bench): this machine's speed against the README's targets.
//! - [`cost`]: what a request's work will cost before it starts, priced one way for the
//!   server and the browser's engine.
//! - [`request`]: the one request layer: every endpoint of the page, its request read,
//!   defaulted, validated, priced and run the same way by the server and the browser's
//!   engine.
//!
//! A report is a set-up scenario's exact stage and Monte Carlo run, in the one shape
//! every output (table, JSON, CSV) renders:
//!
//! ```
//! use combat_odds_core::document::Document;
//! use combat_odds_core::engine::{Mode, MonteCarlo};
//! use combat_odds_report::export::{Rendered, Report};
//! use combat_odds_rules::{Rules, Scenario, defaults};
//!
//! let (name, text) = defaults::FIRE;
//! let monte_carlo = MonteCarlo { trials: 10_000, seed: 1, threads: Some(1), mode: Mode::Compiled };
//! let scenario = Scenario::new(&Document::new(name, name, text), &Rules::builtin(), monte_carlo).unwrap();
//! let report = Report::of(scenario).unwrap();
//! assert_eq!(report.p_kill.outcome, "eliminated");
//! assert!(report.to_csv().starts_with("ruleset,scenario,seed,trials,mode,rules_hash,measure,outcome"));
//! ```
#![deny(missing_docs)]

pub mod error;
pub mod export;
#[cfg(feature = "files")]
pub mod charts;
pub mod study;
pub mod compare;
pub mod catalogue;
pub mod form;
pub mod sensitivity;
#[cfg(feature = "files")]
pub mod regress;
pub mod sweep;
#[cfg(feature = "files")]
pub mod bench;
pub mod cost;
pub mod request;

pub use error::{Error, Result};
