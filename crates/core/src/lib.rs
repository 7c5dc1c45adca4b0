//! The engine of combat-odds: everything that computes odds without knowing a
//! ruleset, a file format or a command line.
//!
//! The modules, lowest first (each imports only those before it):
//! - [`error`]: the typed error (input with file and place, I/O, interrupted).
//! - [`interrupt`]: the process's stop flag (Ctrl-C) and the exact stage's budget.
//! - [`document`]: TOML text with its file name, for errors that name the place.
//! - [`tables`]: table files with provenance, embedded or overridden, validated.
//! - [`streams`]: counter-based random streams keyed by (seed, purpose, chunk).
//! - [`dice`]: dice and exact probabilities as ratios.
//! - [`stats`]: intervals and tests for Monte Carlo estimates.
//! - [`exact`]: exact distributions over outcomes.
//! - [`engine`]: the `Experiment` and `Resolution` traits, tallies, the literal and
//!   compiled sampling modes, shards and the seeded parallel run.
#![deny(missing_docs)]

pub mod error;
pub mod interrupt;
pub mod document;
pub mod tables;
pub mod streams;
pub mod dice;
pub mod stats;
pub mod exact;
pub mod engine;

pub use error::{Error, Result};
