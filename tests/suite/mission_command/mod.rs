//! Mission Command (seed 001).

mod bad_input;
mod determinism;
mod engagement;
mod hand_computed;
mod monte_carlo_agrees;
mod transcription;
