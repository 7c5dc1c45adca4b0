//! Command Decision: Test of Battle (seed 000).

mod bad_input;
mod determinism;
mod engagement;
mod hand_computed;
mod monte_carlo_agrees;
mod transcription;
