//! Chain of Command (seed section 7 and the reference sheet).

mod bad_input;
mod command_dice;
mod determinism;
mod engagement;
mod hand_computed;
mod monte_carlo_agrees;
mod transcription;
