//! The one integration-test binary: every test of the real library and the real
//! `combat-odds` binary, linked once.
//!
//! A module per ruleset, each with the same parts where the ruleset has them:
//! `bad_input` (one-line errors through the binary), `transcription` (the tables as
//! loaded against the seed's text), `hand_computed` (exact odds worked by hand),
//! `monte_carlo_agrees` (the statistical grid against the exact engine),
//! `determinism` (threads, shards and seeds) and `engagement`. The other modules test
//! one command or one property across rulesets; `common` holds what they share.
//!
//! `cargo test --release` runs everything; `cargo test --release company_commander::`
//! one ruleset.

mod common;

mod chain_of_command;
mod command_decision;
mod company_commander;
mod mission_command;
// The proof that a ruleset outside the binary is one folder and one registration.
mod fifth_ruleset;

mod bench_command;
mod charts;
mod compare;
mod exact_brute_force;
mod fuzz_regressions;
mod invented;
mod readme;
mod served;
mod regress;
mod run_command;
mod sensitivity;
mod side_order;
mod sweep;
mod value_stability;
mod web;
