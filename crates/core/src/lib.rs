//! The engine of combat-odds: everything that computes odds without knowing a
//! ruleset, a file format or a command line.
//!
//! The modules, lowest first (each imports only those before it):
//! - [`error`]: the typed error (input with file and place, I/O, interrupted).
//! - [`interrupt`]: the process's stop flag (Ctrl-C) and the exact stage's budget.
//! - [`user_file`]: a user's file, read only when it is a regular file of at most
//!   a stated size.
//! - [`document`]: TOML text with its file name, for errors that name the place.
//! - [`tables`]: table files with provenance, embedded or overridden, validated.
//! - [`streams`]: counter-based random streams keyed by (seed, purpose, chunk).
//! - [`dice`]: dice and exact probabilities as ratios.
//! - [`stats`]: intervals and tests for Monte Carlo estimates.
//! - [`exact`]: exact distributions over outcomes.
//! - [`engine`]: the `Experiment` and `Resolution` traits, tallies, the literal and
//!   compiled sampling modes, shards and the seeded parallel run.
//!
//! Exact odds come from integer distributions; dice for Monte Carlo come from a
//! stream that is a pure function of (seed, purpose, chunk), so a result never
//! depends on which thread drew it:
//!
//! ```
//! use combat_odds_core::dice::D10;
//! use combat_odds_core::streams::{Purpose, stream};
//!
//! // Exactly: two d10 summing to 15 or more is 21 of the 100 faces.
//! let p = D10.sum_of(2).probability(|total| total >= 15);
//! assert_eq!(p.to_string(), "21/100");
//!
//! // By Monte Carlo, from chunk 0 of the fire stream of seed 2026.
//! let mut fire = stream(2026, Purpose::Fire, 0);
//! let hits = (0..100_000).filter(|_| D10.roll(&mut fire) + D10.roll(&mut fire) >= 15).count();
//! assert!((hits as f64 / 100_000.0 - 0.21).abs() < 0.01);
//! ```
#![deny(missing_docs)]

pub mod error;
pub mod interrupt;
pub mod run;
pub mod user_file;
pub mod document;
pub mod tables;
pub mod streams;
pub mod dice;
pub mod stats;
pub mod exact;
pub mod engine;

pub use error::{Error, Result};
