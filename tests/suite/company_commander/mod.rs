//! Company Commander v1.05 (seed 003).

mod bad_input;
mod determinism;
mod engagement;
mod hand_computed;
mod monte_carlo_agrees;
mod transcription;
