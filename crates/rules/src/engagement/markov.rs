//! The exact solver: an engagement as a Markov chain over whole fields.
//!
//! The state is the [`Ending`] so far: the field, the turn that decided it (decided
//! states are absorbing) and the first kill. Each turn every undecided state branches
//! into the fields [`Battle::turn_exact`] gives, weighted exactly; equal states merge,
//! so a duel (one unit a side) stays at a handful of states however many turns it
//! lasts. A field that grows past a state budget reports [`TooLarge`] and the
//! engagement is answered by Monte Carlo alone.

use num_bigint::BigUint;

use super::{Battle, Ending, EndingOf, Engagement};
use combat_odds_core::exact::{Dist, TooLarge};

/// The most units (both sides together) the solver takes on: every unit's fire
/// multiplies a turn's branches, so beyond a few the Monte Carlo answers alone.
pub(crate) const MAX_UNITS: usize = 4;

/// The most distinct states a turn may hold before exact solution is given up.
pub(crate) const MAX_STATES: usize = 20_000;

/// The exact distribution of endings after the turn limit.
pub fn solve<B: Battle>(engagement: &Engagement<B>, max_states: usize) -> Result<Dist<EndingOf<B>, BigUint>, TooLarge> {
    let battle = engagement.battle();
    let start = Ending { field: battle.initial(), decided: None, first_kill: None };
    let mut dist: Dist<EndingOf<B>, BigUint> = Dist::certain(start);
    combat_odds_core::interrupt::begin_exact_stage();
    for turn in 1..=engagement.turns() {
        dist = dist.try_then(|e| {
            // Ctrl-C or the exact budget: give up, and Monte Carlo answers alone.
            if combat_odds_core::interrupt::exact_should_stop() {
                return Err(TooLarge);
            }
            if e.decided.is_some() {
                return Ok(Dist::certain(e.clone()));
            }
            let before = engagement.losses(&e.field);
            let next = battle.turn_exact(&e.field, turn)?;
            Ok(next.map(|field| {
                let mut ending = Ending { field: field.clone(), ..e.clone() };
                engagement.after_turn(&mut ending, before, turn);
                ending
            }))
        })?;
        if dist.len() > max_states {
            return Err(TooLarge);
        }
    }
    Ok(dist)
}
