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
//! - [`compare`]: one weapon against one target across rulesets.
//! - [`sensitivity`]: every one-step change of a scenario's tables, ranked.
//! - [`regress`]: the regression gate over the reference scenarios.
//! - [`bench`]: this machine's speed against the README's targets.
#![deny(missing_docs)]

pub mod error;
pub mod export;
pub mod charts;
pub mod study;
pub mod compare;
pub mod sensitivity;
pub mod regress;
pub mod bench;

pub use error::{Error, Result};
