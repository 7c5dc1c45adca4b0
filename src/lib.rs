//! combat-odds: exact probabilities and seeded Monte Carlo estimates for the fire,
//! KO and morale tables of WW2 tabletop rulesets.
//!
//! The pieces: [`dice`] and [`exact`] give exact distributions; [`tables`] loads
//! and validates table data; [`rules`] holds one module per ruleset behind one
//! trait; [`engine`] runs seeded, chunked, parallel Monte Carlo; [`stats`] gives
//! intervals and tests; [`export`] renders one report schema; [`charts`] draws it as
//! PNG and SVG; [`cli`] ties them to the command line.
#![deny(missing_docs)]

pub mod bench;
pub mod charts;
pub mod cli;
pub mod compare;
pub mod dice;
pub mod document;
pub mod engagement;
pub mod engine;
pub mod error;
pub mod exact;
pub mod export;
pub mod interrupt;
pub mod regress;
pub mod rules;
pub mod sensitivity;
pub mod stats;
pub mod tables;
