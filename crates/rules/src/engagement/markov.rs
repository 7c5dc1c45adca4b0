//! The exact solver: an engagement as a Markov chain over whole fields.
//!
//! The state is the [`Ending`] so far: the field, the turn that decided it (decided
//! states are absorbing) and the first kill. Each turn every undecided state branches
//! into the fields [`Battle::turn_exact`] gives, weighted exactly; equal states merge,
//! so a duel (one unit a side) stays at a handful of states however many turns it
//! lasts. A field that grows past a state budget reports [`TooLarge`] and the
//! engagement is answered by Monte Carlo alone.
//!
//! States are lumped: a turn starts from a field lined up ([`Engagement::line_up`]),
//! so units of one entry are interchangeable and a field is kept lined up too, as how
//! many of an entry's units stand in each condition rather than which. A platoon of
//! three Shermans with one knocked out is one state, not three. Every measure counts
//! an entry's units without naming them, so lumping changes no probability; the
//! labelled chain ([`States::Labelled`]) is kept to prove that in tests.

use num_bigint::BigUint;

use super::{Battle, Ending, EndingOf, Engagement};
use combat_odds_core::exact::{Dist, TooLarge};
use combat_odds_core::run::ExactStage;

/// The most units (both sides together) the solver takes on: every unit's fire
/// multiplies a turn's branches before its fields merge, so beyond this many the
/// Monte Carlo answers alone.
pub(crate) const MAX_UNITS: usize = 12;

/// The most undecided states a turn may leave before exact solution is given up.
/// Decided states only wait for the last turn, so they count toward
/// [`MAX_ENDINGS`] alone: three Shermans closing on a Panther at 4 in. leave at most
/// 1,692 fields undecided but 26,396 endings in all.
pub(crate) const MAX_STATES: usize = 20_000;

/// The most states, decided or not, a turn may hold; the turn gives up as soon as it
/// holds more. This bounds the solver's memory: four Shermans at a Panther at 4 in.
/// end in 43,336 states and take 78 MB; five end in 63,528 and are refused.
pub(crate) const MAX_ENDINGS: usize = 50_000;

/// The most fields one turn may branch into, summed over its states before equal
/// ones merge: a field too large gives up within a turn's work, not after it.
pub(crate) const MAX_BRANCHES: usize = 2_000_000;

/// How the chain keeps the fields a turn leads to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum States {
    /// Lined up, so fields differing only in which unit of an entry is which merge.
    Lumped,
    /// As the turn left them: every unit keeps its place (the tests' reference).
    #[cfg(test)]
    Labelled,
}

impl<B: Battle> Engagement<B> {
    /// The ending `turn` leads to from `from`, when it left the field `field`: the
    /// first kill and the decision recorded, and the field lined up where `states`
    /// lumps.
    pub(crate) fn successor(
        &self,
        from: &EndingOf<B>,
        field: &super::FieldOf<B>,
        turn: u32,
        states: States,
    ) -> EndingOf<B> {
        let mut after = Ending { field: field.clone(), ..from.clone() };
        if states == States::Lumped {
            self.line_up(&mut after.field);
        }
        self.after_turn(&mut after, self.losses(&from.field), turn);
        after
    }

    /// Every field turn `turn` leads to from an undecided ending's field, lined up.
    pub(crate) fn turn_from(
        &self,
        from: &EndingOf<B>,
        turn: u32,
    ) -> Result<Dist<super::FieldOf<B>, BigUint>, TooLarge> {
        let mut field = from.field.clone();
        self.line_up(&mut field);
        self.battle().turn_exact(&field, turn)
    }
}

/// The exact distribution of endings after the turn limit, or [`TooLarge`] past
/// [`MAX_STATES`] undecided states, [`MAX_ENDINGS`] in all or [`MAX_BRANCHES`] a turn,
/// or once `stage` (the run's exact stage) says to stop.
pub fn solve<B: Battle>(
    engagement: &Engagement<B>,
    states: States,
    stage: &ExactStage,
) -> Result<Dist<EndingOf<B>, BigUint>, TooLarge> {
    let battle = engagement.battle();
    let mut start = Ending { field: battle.initial(), decided: None, first_kill: None };
    engagement.line_up(&mut start.field);
    let mut dist: Dist<EndingOf<B>, BigUint> = Dist::certain(start);
    for turn in 1..=engagement.turns() {
        let branches = std::cell::Cell::new(0);
        dist = dist.try_then_within(MAX_ENDINGS, |e| {
            // The run cancelled or its exact budget spent: give up, and Monte Carlo
            // answers alone.
            if stage.should_stop() {
                return Err(TooLarge);
            }
            if e.decided.is_some() {
                return Ok(Dist::certain(e.clone()));
            }
            let next = engagement.turn_from(e, turn)?;
            branches.set(branches.get() + next.len());
            if branches.get() > MAX_BRANCHES {
                return Err(TooLarge);
            }
            Ok(next.map(|field| engagement.successor(e, field, turn, states)))
        })?;
        if dist.iter().filter(|(e, _)| e.decided.is_none()).count() > MAX_STATES {
            return Err(TooLarge);
        }
    }
    Ok(dist)
}

/// What every ruleset's engagement tests ask of lumping.
#[cfg(test)]
pub(crate) mod lumping {
    use super::*;
    use combat_odds_core::document::Document;
    use combat_odds_core::engine::{Experiment, layout};
    use combat_odds_core::exact::marginals;

    /// The engagement a scenario `text` sets up with `set_up` (a ruleset's own).
    pub(crate) fn engagement<B: Battle>(
        text: &str,
        set_up: impl Fn(&Document) -> combat_odds_core::error::Result<(Engagement<B>, Vec<String>)>,
    ) -> Engagement<B> {
        set_up(&Document::new("lumping.toml", "lumping.toml", text)).expect("the scenario sets up").0
    }

    /// The lumped chain gives every measure exactly the probabilities the labelled one
    /// gives, in fewer states: lumping changes nothing but the work.
    pub(crate) fn assert_lumping_changes_nothing<B: Battle>(engagement: &Engagement<B>) {
        let solved = |states| solve(engagement, states, &ExactStage::unbounded()).expect("the chain is solved");
        let (lumped, labelled) = (solved(States::Lumped), solved(States::Labelled));
        let table = |dist: &Dist<EndingOf<B>, BigUint>| {
            marginals(dist, &layout(engagement.measures()), |e, out| engagement.index(e, out))
        };
        assert_eq!(table(&lumped), table(&labelled), "lumping changed a probability");
        assert!(
            lumped.len() < labelled.len(),
            "lumping merged no state: {} lumped, {} labelled",
            lumped.len(),
            labelled.len()
        );
    }
}
