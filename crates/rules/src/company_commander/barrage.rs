//! A barrage: the attack on the original target, then every unit within the blast
//! radius becoming a target with the barrage type's chance (seed 003 "Find the target
//! (indirect fire only)", Barrage Type). Each unit's attacks are independent of the
//! others', so the exact distribution is the product of each unit's own.

use num_bigint::BigUint;

use super::fire::{FireAction, TARGET_OUTCOMES, TargetState, Weights};
use combat_odds_core::engine::{Measure, Resolution, Streams};
use combat_odds_core::exact::{Dist, TooLarge};

/// The original target's fire action and one gated fire action per nearby unit.
#[derive(Debug, Clone)]
pub struct Barrage {
    original: FireAction,
    nearby: Vec<FireAction>,
    measures: Vec<Measure>,
}

/// What a barrage trial ends in: the original target's outcome, and how many nearby
/// units were reached and destroyed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Hash, Ord)]
pub struct BarrageState {
    /// The original target's `target` outcome.
    pub original: usize,
    /// Nearby units that became targets.
    pub reached: u32,
    /// Nearby units destroyed.
    pub destroyed: u32,
}

impl Barrage {
    /// A barrage on `original`, reaching for each of `nearby` (their volleys gated).
    pub fn new(original: FireAction, nearby: Vec<FireAction>) -> Self {
        let n = nearby.len() as u32;
        let mut measures = vec![Measure::new("target", TARGET_OUTCOMES)];
        if n > 0 {
            measures.push(Measure::counts("nearby_reached", n));
            measures.push(Measure::counts("nearby_destroyed", n));
            measures.push(Measure::counts("units_destroyed", n + 1));
        }
        Barrage { original, nearby, measures }
    }

    fn add(&self, s: &BarrageState, unit: &FireAction, t: &TargetState) -> BarrageState {
        BarrageState {
            reached: s.reached + u32::from(t.reached > 0),
            destroyed: s.destroyed + u32::from(unit.destroyed(t)),
            ..*s
        }
    }
}

impl Resolution for Barrage {
    type State = BarrageState;
    type Weight = BigUint;

    fn measures(&self) -> &[Measure] {
        &self.measures
    }

    fn kill(&self) -> (usize, usize) {
        (0, 3)
    }

    #[inline(always)]
    fn trial(&self, streams: &mut Streams) -> BarrageState {
        let first = self.original.trial_target(streams);
        let start = BarrageState { original: self.original.target_outcome(&first), reached: 0, destroyed: 0 };
        self.nearby.iter().fold(start, |s, unit| self.add(&s, unit, &unit.trial_target(streams)))
    }

    #[inline(always)]
    fn index(&self, s: &BarrageState, out: &mut [usize]) {
        out[0] = s.original;
        if out.len() > 1 {
            out[1] = s.reached as usize;
            out[2] = s.destroyed as usize;
            out[3] = s.destroyed as usize + usize::from(s.original == 3);
        }
    }

    fn exact_state(&self) -> Result<Weights<BarrageState>, TooLarge> {
        let start = self.original.exact_target().map(|t| BarrageState {
            original: self.original.target_outcome(t),
            reached: 0,
            destroyed: 0,
        });
        self.nearby.iter().try_fold(start, |acc: Dist<BarrageState, BigUint>, unit| {
            acc.combine(&unit.exact_target(), |s, t| self.add(s, unit, t))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::company_commander::fire::{
        Chain, Effect, Made, Next, Roll, Step, Strike, SuppressedAgain, Timing, Volley,
    };
    use combat_odds_core::dice::{D6, Ratio};
    use combat_odds_core::engine::Experiment;

    fn sure_kill(made: Made) -> FireAction {
        let chain = Chain::new(vec![Step::new(D6, Roll::Effect, |_| Next::End(Strike::hit(Effect::Damaged)))]);
        FireAction::new(
            vec![Volley { attacks: 1, made, chains: [chain.clone(), chain], one_of: None }],
            1,
            false,
            SuppressedAgain::Damaged,
            Timing::LaterWeapons,
        )
    }

    #[test]
    fn each_nearby_unit_is_reached_independently() {
        // Two nearby units at 50% each, every attack destroying: P(both reached) = 1/4,
        // and units destroyed = 1 (the original) + those reached.
        let barrage =
            Barrage::new(sure_kill(Made::Always), vec![sure_kill(Made::OnChance(50)), sure_kill(Made::OnChance(50))]);
        let exact = barrage.exact().unwrap();
        assert_eq!(exact[1], vec![Ratio::new(1, 4), Ratio::new(1, 2), Ratio::new(1, 4)]);
        assert_eq!(exact[3][3], Ratio::new(1, 4));
        assert_eq!(exact[0][3], Ratio::new(1, 1));
    }
}
