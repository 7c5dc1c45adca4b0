//! What the server admits of a request's work, by what it will cost before it starts
//! (priced by the report crate's [`combat_odds_report::cost`], as the browser's engine
//! prices a tab's work). A request over [`crate::config::Limits::max_cost`] is refused
//! with what to reduce; one over [`crate::config::Limits::long_work`] holds a long-run
//! slot until its work has stopped, whichever endpoint it came through.

use std::sync::Arc;

use axum::http::StatusCode;

pub(crate) use combat_odds_report::cost::Cost;
use combat_odds_report::cost::duration;

use crate::refused::Refused;
use crate::state::{Slot, State};

/// Admits `cost`'s work within the server's limits: refused, with what to reduce, past
/// the trials or the cost one request may ask for; holding a slot (refused when every
/// one is taken) when it is long work.
pub(crate) fn admit(cost: &Cost, state: &Arc<State>) -> Result<Option<Slot>, Refused> {
    let limits = &state.config.limits;
    let (runs, what) = cost.runs();
    let most = limits.max_trials;
    if cost.total_trials() > most {
        return Err(Refused::new(
            StatusCode::BAD_REQUEST,
            format!(
                "trials {}: {runs} {what} of them are {} trials, and this server takes at most {most} per request; ask for {}",
                cost.trials(),
                cost.total_trials(),
                cost.reduce()
            ),
        ));
    }
    let seconds = cost.core_seconds();
    let budget = limits.max_cost.as_secs_f64();
    if seconds > budget {
        return Err(Refused::new(
            StatusCode::BAD_REQUEST,
            format!(
                "this is about {} of work for one core ({}), and this server takes at most {} per request; ask for {}",
                duration(seconds),
                cost.parts(),
                duration(budget),
                cost.reduce()
            ),
        ));
    }
    if seconds > limits.long_work.as_secs_f64() { slot(state).map(Some) } else { Ok(None) }
}

/// A long-run slot, or the message saying every one is taken.
pub(crate) fn slot(state: &Arc<State>) -> Result<Slot, Refused> {
    Slot::take(state).ok_or_else(|| {
        Refused::new(
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "busy: {} long runs are under way, the most this server takes at once; try again when one ends, or ask for fewer trials",
                state.config.limits.max_runs
            ),
        )
    })
}
