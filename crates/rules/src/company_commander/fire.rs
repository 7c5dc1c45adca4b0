//! A Company Commander fire action, set up: every attack of one unit at one target,
//! weapon by weapon, with the target's suppression and strength carried from weapon to
//! weapon (seed 003 "Fire Procedure", "Suppressed and Destruction"; [`Timing`] says
//! when a suppression starts to count).
//!
//! One attack is a [`Chain`] of dice: the to-hit d10, then the defence die and the
//! d100 (armoured targets) or the cover save and the weapon-strength die (others), or
//! close assault's three d6, or the A.A. percentage and the aircraft's save. Each die
//! maps its faces to the next die or to a [`Strike`], so a Monte Carlo trial walks the
//! chain rolling only the dice the rules roll, and the exact engine walks every face of
//! the same chain. Which chain an attack uses depends on whether the target is
//! suppressed at that moment (a suppressed target is harder to hit and vulnerable).

use num_bigint::BigUint;

use combat_odds_core::dice::{Die, Ratio};
use combat_odds_core::engine::{Measure, Resolution, Stream, Streams};
use combat_odds_core::exact::{Dist, TooLarge};

/// Exact weights of this ruleset: a fire action chains enough dice to pass 128 bits.
pub(crate) type Weights<S> = Dist<S, BigUint>;

/// What one attack does to its target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Effect {
    /// Nothing.
    NoEffect,
    /// The target is suppressed (damaged if it already was).
    Suppressed,
    /// The target loses one strength point (destroyed at strength 1).
    Damaged,
    /// The target is destroyed outright (close assault).
    Destroyed,
}

impl Effect {
    /// Result names as the table files write them.
    pub const NAMES: [&'static str; 4] = ["no_effect", "suppressed", "damaged", "destroyed"];

    /// The effect named `name`.
    pub fn named(name: &str) -> Option<Self> {
        let all = [Effect::NoEffect, Effect::Suppressed, Effect::Damaged, Effect::Destroyed];
        Self::NAMES.iter().position(|n| *n == name).map(|i| all[i])
    }

    /// Its name.
    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}

/// The end of one attack: did it hit, and what did it do?
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Strike {
    /// It hit (a miss, and an attack that never rolls to hit, is `false`).
    pub hit: bool,
    /// What it did.
    pub effect: Effect,
}

impl Strike {
    /// A miss.
    pub(crate) const MISS: Strike = Strike { hit: false, effect: Effect::NoEffect };

    /// A hit doing `effect`.
    pub fn hit(effect: Effect) -> Self {
        Strike { hit: true, effect }
    }
}

/// Which stream a die draws from, so that adding a roll of one kind never shifts the
/// rolls of another.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Roll {
    /// To-hit dice (and close assault's hit roll, and A.A. fire).
    ToHit,
    /// Every die after a hit: defence, damage, save, strength, outcome.
    Effect,
}

/// Where a face of a die leads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Next {
    /// Roll the die at this index of the chain.
    Roll(usize),
    /// The attack ends here.
    End(Strike),
}

/// One die of a chain: which stream it draws from and where each face leads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// The die.
    pub die: Die,
    /// Its stream.
    pub roll: Roll,
    /// `faces[face - 1]`: where that face leads.
    pub faces: Vec<Next>,
}

impl Step {
    /// A die whose faces lead where `next(face)` says.
    pub fn new(die: Die, roll: Roll, next: impl Fn(u32) -> Next) -> Self {
        Step { die, roll, faces: (1..=die.sides()).map(next).collect() }
    }
}

/// The dice of one attack, the first die first; a face leads only to a later die, so
/// every walk ends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chain {
    steps: Vec<Step>,
}

impl Chain {
    /// A chain from its steps. Panics if a face leads backwards (a set-up bug).
    pub fn new(steps: Vec<Step>) -> Self {
        for (i, step) in steps.iter().enumerate() {
            assert!(
                step.faces
                    .iter()
                    .all(|n| matches!(n, Next::End(_)) || matches!(n, Next::Roll(j) if *j > i && *j < steps.len())),
                "a chain's faces lead only to later dice"
            );
        }
        Chain { steps }
    }

    /// One literal attack: roll from the first die until a face ends it.
    #[inline]
    pub(crate) fn strike(&self, streams: &mut Streams) -> Strike {
        let mut at = 0;
        loop {
            let step = &self.steps[at];
            let face = step.die.roll(stream(streams, step.roll));
            match step.faces[face as usize - 1] {
                Next::Roll(next) => at = next,
                Next::End(strike) => return strike,
            }
        }
    }

    /// The exact distribution of an attack's strike.
    pub fn exact(&self) -> Weights<Strike> {
        self.exact_from(0)
    }

    fn exact_from(&self, at: usize) -> Weights<Strike> {
        let step = &self.steps[at];
        Dist::roll(step.die, |face| step.faces[face as usize - 1])
            .then(|next| match *next {
                Next::Roll(i) => self.exact_from(i),
                Next::End(strike) => Dist::certain(strike),
            })
            .expect("arbitrary-precision weights do not overflow")
    }
}

fn stream(streams: &mut Streams, roll: Roll) -> &mut Stream {
    match roll {
        Roll::ToHit => &mut streams.fire,
        Roll::Effect => &mut streams.effect,
    }
}

/// What a second suppression does ("Suppressed and Destruction" says destroyed; "Fire
/// Procedure" says damaged).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SuppressedAgain {
    /// Lose one strength point.
    Damaged,
    /// Destroyed outright.
    Destroyed,
}

/// When a suppression inflicted during a fire action changes the attacks after it
/// (CC-6).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Timing {
    /// Weapon by weapon, as the Fire Procedure's steps run: all of one weapon's attacks
    /// roll against the target as it stood when that weapon began (one to-hit row, one
    /// vulnerability), their effects are applied together, and the next weapon sees
    /// the target as they left it (`later_weapons`).
    LaterWeapons,
    /// Attack by attack: each attack sees the suppressions of the ones before it, and
    /// attacks stop once the target is destroyed (`later_attacks`).
    LaterAttacks,
    /// Not within the action: every attack sees the target as it stood when the action
    /// began (`next_fire_action`).
    NextFireAction,
}

/// Attacks made with one weapon (or one close assault, or one A.A. unit).
#[derive(Debug, Clone)]
pub struct Volley {
    /// How many attacks.
    pub attacks: u32,
    /// Whether the volley is made at all (a barrage reaching a unit).
    pub made: Made,
    /// The attack's chain against the target as it is: `[not suppressed, suppressed]`.
    pub chains: [Chain; 2],
    /// The group of weapons this one cannot fire together with, if any: of the
    /// volleys sharing a group exactly one is made, chosen by [`FireAction::choosing`].
    pub one_of: Option<usize>,
}

/// Which of a firer's weapons that cannot fire together fires (seed 003 "How to select
/// the weapon or weapons to fire", 5, and the coaxial MG of "Rate of Fire"; CC-18).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WeaponChoice {
    /// The one most likely to destroy the target; then the one most likely to damage
    /// it (`most_likely_to_destroy`).
    MostLikelyToDestroy,
    /// The one most likely to damage it (cost it a strength point or more); then the
    /// one most likely to destroy it (`most_likely_to_damage`).
    MostLikelyToDamage,
}

/// One weapon of a group as the choice weighed it, against the target as the action
/// found it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Candidate {
    /// Its volley's index in the action.
    pub volley: usize,
    /// The chance that its attacks alone destroy the target.
    pub destroy: Ratio,
    /// The chance that its attacks alone cost the target a strength point or more.
    pub damage: Ratio,
}

/// The weapons of one group and the one chosen to fire.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Chosen {
    /// Every member, in the action's order.
    pub candidates: Vec<Candidate>,
    /// The volley that fires.
    pub volley: usize,
}

/// Whether a volley is made: always, on its own d100 chance, or exactly when the
/// volley before it was. A barrage reaches a unit once ("has this chance of becoming
/// a target"), so a firer's second weapon rides on the first weapon's roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Made {
    /// Always made.
    Always,
    /// Made when a d100 rolls at or under this percentage.
    OnChance(u32),
    /// Made when the volley before it was.
    WithPrevious,
}

/// The target's state after some attacks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Hash, Ord, Default)]
pub struct TargetState {
    /// Strength points lost (the strength itself when destroyed).
    pub lost: u32,
    /// Suppressed now.
    pub suppressed: bool,
    /// Attacks that hit.
    pub hits: u32,
    /// Gated volleys that were made.
    pub reached: u32,
}

/// Every attack of one fire action at one target.
#[derive(Debug, Clone)]
pub struct FireAction {
    volleys: Vec<Volley>,
    strength: u32,
    start: TargetState,
    suppressed_again: SuppressedAgain,
    /// When a suppression takes effect for the attacks after it in the same action.
    timing: Timing,
    /// Whether each volley is made, by the target's state when the action begins
    /// ([`FireAction::start_index`]); empty when every volley is.
    fires: Vec<Vec<bool>>,
    measures: Vec<Measure>,
}

/// The target's final condition: `no_effect`, `suppressed`, `damaged`, `destroyed`.
pub const TARGET_OUTCOMES: [&str; 4] = ["no_effect", "suppressed", "damaged", "destroyed"];

impl FireAction {
    /// A fire action of `volleys`, in order, at a target of `strength` points
    /// (`suppressed` at the start or not).
    pub fn new(
        volleys: Vec<Volley>,
        strength: u32,
        suppressed: bool,
        suppressed_again: SuppressedAgain,
        timing: Timing,
    ) -> Self {
        assert!(strength >= 1, "a target has at least one strength point");
        let attacks: u32 = volleys.iter().map(|v| v.attacks).sum();
        let mut final_states: Vec<String> =
            (1..=strength).rev().flat_map(|s| [format!("strength_{s}"), format!("strength_{s}_suppressed")]).collect();
        final_states.push("destroyed".into());
        let measures = vec![
            Measure::new("target", TARGET_OUTCOMES),
            Measure::new("final_state", final_states),
            Measure::counts("strength_lost", strength),
            Measure::counts("hits", attacks),
        ];
        let start = TargetState { suppressed, ..TargetState::default() };
        FireAction { volleys, strength, start, suppressed_again, timing, fires: Vec::new(), measures }
    }

    /// The same action with `more` volleys made after it (a barrage's second attack).
    pub(crate) fn then_also(self, more: Vec<Volley>) -> Self {
        assert!(self.fires.is_empty(), "a barrage's indirect fire has no weapon choice");
        let mut volleys = self.volleys;
        volleys.extend(more);
        FireAction::new(volleys, self.strength, self.start.suppressed, self.suppressed_again, self.timing)
    }

    /// The same action with one weapon of each group ([`Volley::one_of`]) chosen `by`
    /// for every state the target may be in when the action begins: the fire is aimed
    /// at the target as it stands (seed 003 "This choice is made by the computer based
    /// upon the target selected"). Each member is weighed by what its own attacks alone
    /// would do from that state; ties go to the member listed first.
    pub fn choosing(mut self, by: WeaponChoice) -> Self {
        if self.volleys.iter().all(|v| v.one_of.is_none()) {
            return self;
        }
        let states = (0..self.strength).flat_map(|lost| [false, true].map(|suppressed| (lost, suppressed)));
        self.fires = states
            .map(|(lost, suppressed)| {
                let start = TargetState { lost, suppressed, ..TargetState::default() };
                let mut fires = vec![true; self.volleys.len()];
                for chosen in self.weigh(start, by) {
                    for c in &chosen.candidates {
                        fires[c.volley] = c.volley == chosen.volley;
                    }
                }
                fires
            })
            .collect();
        let attacks = self.made_from(&self.start).map(|(_, v)| v.attacks).sum();
        self.measures[3] = Measure::counts("hits", attacks);
        self
    }

    /// Every group's members weighed from `start`, and the one chosen `by`.
    fn weigh(&self, start: TargetState, by: WeaponChoice) -> Vec<Chosen> {
        let mut groups: Vec<usize> = self.volleys.iter().filter_map(|v| v.one_of).collect();
        groups.sort_unstable();
        groups.dedup();
        groups
            .into_iter()
            .map(|group| {
                let candidates: Vec<Candidate> = (0..self.volleys.len())
                    .filter(|&i| self.volleys[i].one_of == Some(group))
                    .map(|i| {
                        let alone = FireAction {
                            volleys: vec![Volley { one_of: None, ..self.volleys[i].clone() }],
                            fires: Vec::new(),
                            ..self.clone()
                        };
                        let after = alone.exact_from(start);
                        Candidate {
                            volley: i,
                            destroy: after.probability(|s| alone.destroyed(s)),
                            damage: after.probability(|s| s.lost > start.lost),
                        }
                    })
                    .collect();
                let key = |c: &Candidate| match by {
                    WeaponChoice::MostLikelyToDestroy => (c.destroy.clone(), c.damage.clone()),
                    WeaponChoice::MostLikelyToDamage => (c.damage.clone(), c.destroy.clone()),
                };
                // The first of the best: `max_by` keeps the last of equals, so compare
                // reversed over the reversed list.
                let volley = candidates.iter().rev().max_by(|a, b| key(a).cmp(&key(b))).map(|c| c.volley);
                Chosen { volley: volley.expect("a group has a member"), candidates }
            })
            .collect()
    }

    /// The choice made `by` when the action begins with the target in its starting
    /// state, group by group (empty without groups), for the notes: only that one
    /// state is weighed, where [`FireAction::choosing`] weighs them all.
    pub(crate) fn choices(&self, by: WeaponChoice) -> Vec<Chosen> {
        self.weigh(self.start, by)
    }

    /// Where `start` is in [`FireAction::fires`]: strength lost, then suppressed.
    fn start_index(start: &TargetState) -> usize {
        2 * start.lost as usize + usize::from(start.suppressed)
    }

    /// The volleys made in an action that begins with the target in `start`, with
    /// their indices.
    fn made_from<'a>(&'a self, start: &TargetState) -> impl Iterator<Item = (usize, &'a Volley)> + 'a {
        let fires = self.fires.get(Self::start_index(start));
        self.volleys.iter().enumerate().filter(move |(i, _)| fires.is_none_or(|f| f[*i]))
    }

    /// Is the target destroyed in `s`?
    pub fn destroyed(&self, s: &TargetState) -> bool {
        s.lost == self.strength
    }

    /// Which of a volley's chains an attack uses: 1 if it sees the target suppressed.
    /// `action` is the target when the action began, `weapon` when this weapon began,
    /// `now` before this attack.
    fn status(&self, action: &TargetState, weapon: &TargetState, now: &TargetState) -> usize {
        usize::from(match self.timing {
            Timing::LaterWeapons => weapon.suppressed,
            Timing::LaterAttacks => now.suppressed,
            Timing::NextFireAction => action.suppressed,
        })
    }

    /// The target's full strength in points.
    pub fn strength(&self) -> u32 {
        self.strength
    }

    /// A strike's effect on the target ("A target that is already suppressed and is
    /// suppressed again is damaged. Otherwise, a damaged target loses a strength point
    /// and is destroyed if already at strength 1").
    fn apply(&self, s: &TargetState, strike: &Strike) -> TargetState {
        let mut next = TargetState { hits: s.hits + u32::from(strike.hit), ..*s };
        let lose = |n: &mut TargetState, points: u32| n.lost = (n.lost + points).min(self.strength);
        match strike.effect {
            Effect::NoEffect => {}
            Effect::Suppressed if !s.suppressed => next.suppressed = true,
            Effect::Suppressed => match self.suppressed_again {
                SuppressedAgain::Damaged => lose(&mut next, 1),
                SuppressedAgain::Destroyed => lose(&mut next, self.strength),
            },
            Effect::Damaged => lose(&mut next, 1),
            Effect::Destroyed => lose(&mut next, self.strength),
        }
        next
    }

    /// The exact distribution of the target's state after the whole action.
    pub(crate) fn exact_target(&self) -> Weights<TargetState> {
        self.exact_from(self.start)
    }

    /// The exact distribution of the target's state after the whole action, the
    /// target starting in `start` (an engagement's target already damaged or
    /// suppressed by earlier fire).
    pub(crate) fn exact_from(&self, start: TargetState) -> Weights<TargetState> {
        let overflow = "arbitrary-precision weights do not overflow";
        // (state, is the current volley being made?)
        let mut dist: Weights<(TargetState, bool)> = Dist::certain((start, true));
        for (_, volley) in self.made_from(&start) {
            let strikes = [volley.chains[0].exact(), volley.chains[1].exact()];
            dist = match volley.made {
                Made::Always => dist.map(|&(s, _)| (s, true)),
                Made::WithPrevious => dist,
                Made::OnChance(percent) => {
                    let gate: Weights<bool> =
                        Dist::from_weights([(true, BigUint::from(percent)), (false, BigUint::from(100 - percent))])
                            .expect("a gate has some weight");
                    dist.combine(&gate, |&(s, _), &made| {
                        (TargetState { reached: s.reached + u32::from(made), ..s }, made)
                    })
                    .expect(overflow)
                }
            };
            if self.timing == Timing::LaterWeapons {
                // The Fire Procedure's steps 2-6 for one weapon: every attack rolls
                // against the target as the weapon found it, and all its effects land.
                dist = dist
                    .then(|&(weapon, made)| {
                        if !made || self.destroyed(&weapon) {
                            return Dist::certain((weapon, made));
                        }
                        let chain = &strikes[self.status(&start, &weapon, &weapon)];
                        (0..volley.attacks)
                            .try_fold(Dist::certain(weapon), |acc, _| acc.then(|s| chain.map(|k| self.apply(s, k))))
                            .expect(overflow)
                            .map(|&s| (s, true))
                    })
                    .expect(overflow);
                continue;
            }
            for _ in 0..volley.attacks {
                dist = dist
                    .then(|&(s, made)| {
                        if !made || self.destroyed(&s) {
                            return Dist::certain((s, made));
                        }
                        strikes[self.status(&start, &s, &s)].map(|k| (self.apply(&s, k), true))
                    })
                    .expect(overflow);
            }
        }
        dist.map(|&(s, _)| s)
    }

    /// One literal fire action: every attack in order, weapon by weapon, until the
    /// target is destroyed (checked between weapons, or between attacks when
    /// suppression counts attack by attack).
    #[inline]
    pub(crate) fn trial_target(&self, streams: &mut Streams) -> TargetState {
        self.trial_from(self.start, streams)
    }

    /// One literal fire action at a target starting in `start`.
    #[inline]
    pub(crate) fn trial_from(&self, start: TargetState, streams: &mut Streams) -> TargetState {
        let mut s = start;
        let mut made = true;
        for (_, volley) in self.made_from(&start) {
            match volley.made {
                Made::Always => made = true,
                Made::WithPrevious => {}
                Made::OnChance(percent) => {
                    made = combat_odds_core::dice::D100.roll(&mut streams.scatter) <= percent;
                    s.reached += u32::from(made);
                }
            }
            if !made {
                continue;
            }
            if self.destroyed(&s) {
                return s;
            }
            let weapon = s;
            for _ in 0..volley.attacks {
                if self.timing != Timing::LaterWeapons && self.destroyed(&s) {
                    return s;
                }
                let strike = volley.chains[self.status(&start, &weapon, &s)].strike(streams);
                s = self.apply(&s, &strike);
            }
        }
        s
    }

    /// The outcome of the `target` measure for a final state.
    pub(crate) fn target_outcome(&self, s: &TargetState) -> usize {
        if self.destroyed(s) {
            3
        } else if s.lost > 0 {
            2
        } else if s.suppressed && !self.start.suppressed {
            1
        } else {
            0
        }
    }
}

impl Resolution for FireAction {
    type State = TargetState;
    type Weight = BigUint;

    fn measures(&self) -> &[Measure] {
        &self.measures
    }

    fn kill(&self) -> (usize, usize) {
        (0, 3)
    }

    #[inline(always)]
    fn trial(&self, streams: &mut Streams) -> TargetState {
        self.trial_target(streams)
    }

    #[inline(always)]
    fn index(&self, s: &TargetState, out: &mut [usize]) {
        out[0] = self.target_outcome(s);
        out[1] = if self.destroyed(s) {
            2 * self.strength as usize
        } else {
            2 * s.lost as usize + usize::from(s.suppressed)
        };
        out[2] = s.lost as usize;
        out[3] = s.hits as usize;
    }

    fn exact_state(&self) -> Result<Weights<TargetState>, TooLarge> {
        Ok(self.exact_target())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use combat_odds_core::dice::{D6, D10, Ratio};
    use combat_odds_core::engine::Experiment;

    /// Hit on 1-5 of a d10; a hit does `effect` on 1-3 of a d6, else nothing.
    fn half_hit(effect: Effect) -> Chain {
        Chain::new(vec![
            Step::new(D10, Roll::ToHit, |f| if f <= 5 { Next::Roll(1) } else { Next::End(Strike::MISS) }),
            Step::new(D6, Roll::Effect, |f| Next::End(Strike::hit(if f <= 3 { effect } else { Effect::NoEffect }))),
        ])
    }

    fn action(attacks: u32, effect: Effect, strength: u32, again: SuppressedAgain) -> FireAction {
        let chain = half_hit(effect);
        let volley = Volley { attacks, made: Made::Always, chains: [chain.clone(), chain], one_of: None };
        FireAction::new(vec![volley], strength, false, again, Timing::LaterAttacks)
    }

    /// Hit on 1-5 of a d10 against an unsuppressed target, 1-2 against a suppressed
    /// one; a hit always suppresses.
    fn suppressing_weapon(attacks: u32) -> Volley {
        let chain = |hit_at_most: u32| {
            Chain::new(vec![Step::new(D10, Roll::ToHit, move |f| {
                if f <= hit_at_most { Next::End(Strike::hit(Effect::Suppressed)) } else { Next::End(Strike::MISS) }
            })])
        };
        Volley { attacks, made: Made::Always, chains: [chain(5), chain(2)], one_of: None }
    }

    #[test]
    fn weapon_by_weapon_one_weapons_attacks_see_the_target_as_it_began_and_land_together() {
        // Seed 003, Fire Procedure: one weapon's attacks are found, rolled and applied
        // as a batch. Two attacks at 1/2 each against the unsuppressed row: both hit
        // with 1/4, and the two suppressions in one batch still damage (a 1-point
        // target is destroyed): P(destroyed) = 1/4.
        let fire = |timing| {
            FireAction::new(vec![suppressing_weapon(2)], 1, false, SuppressedAgain::Damaged, timing).exact().unwrap()
        };
        assert_eq!(fire(Timing::LaterWeapons)[0][3], Ratio::new(1, 4));
        // Attack by attack, the second attack rolls on the suppressed row (1/5) after a
        // first hit: 1/2 x 1/5 = 1/10.
        assert_eq!(fire(Timing::LaterAttacks)[0][3], Ratio::new(1, 10));
    }

    #[test]
    fn weapon_by_weapon_the_next_weapon_sees_the_suppression_of_the_one_before() {
        // Two weapons of one attack each. The second fires at a suppressed target after
        // a first hit (1/2), and then hits on 1-2 (1/5): destroyed 1/10. Fixed for the
        // whole action (next_fire_action) it would hit on 1-5: 1/4.
        let fire = |timing| {
            FireAction::new(
                vec![suppressing_weapon(1), suppressing_weapon(1)],
                1,
                false,
                SuppressedAgain::Damaged,
                timing,
            )
            .exact()
            .unwrap()
        };
        assert_eq!(fire(Timing::LaterWeapons)[0][3], Ratio::new(1, 10));
        assert_eq!(fire(Timing::NextFireAction)[0][3], Ratio::new(1, 4));
    }

    #[test]
    fn weapon_by_weapon_counts_every_attack_of_a_weapon_that_destroys() {
        // Three attacks of one weapon, each sure to damage a 1-point target: step 3
        // finds all three hits before step 6 applies them, so hits = 3 (attack by
        // attack, the first destroys and the other two are never made).
        let sure = Chain::new(vec![Step::new(D6, Roll::Effect, |_| Next::End(Strike::hit(Effect::Damaged)))]);
        let volley = Volley { attacks: 3, made: Made::Always, chains: [sure.clone(), sure], one_of: None };
        let hits = |timing| {
            FireAction::new(vec![volley.clone()], 1, false, SuppressedAgain::Damaged, timing).exact().unwrap()[3]
                .clone()
        };
        assert_eq!(hits(Timing::LaterWeapons)[3], Ratio::new(1, 1));
        assert_eq!(hits(Timing::LaterAttacks)[1], Ratio::new(1, 1));
    }

    #[test]
    fn every_timing_agrees_with_its_literal_trials() {
        // Two weapons of two attacks on a 2-point target: literal counts against exact.
        for timing in [Timing::LaterWeapons, Timing::LaterAttacks, Timing::NextFireAction] {
            let fire = FireAction::new(
                vec![suppressing_weapon(2), suppressing_weapon(2)],
                2,
                false,
                SuppressedAgain::Damaged,
                timing,
            );
            let exact = fire.exact().unwrap();
            let mut streams = combat_odds_core::engine::Streams::for_chunk(11, 0);
            let n = 200_000u32;
            let mut destroyed = 0u32;
            for _ in 0..n {
                destroyed += u32::from(fire.destroyed(&fire.trial_target(&mut streams)));
            }
            let p = exact[0][3].to_f64();
            let sd = (p * (1.0 - p) / f64::from(n)).sqrt();
            let seen = f64::from(destroyed) / f64::from(n);
            // Five standard deviations at a fixed seed: a wrong procedure is off by far more.
            assert!((seen - p).abs() < 5.0 * sd + 1e-9, "{timing:?}: {seen} vs exact {p}");
        }
    }

    #[test]
    fn a_chain_weighs_each_leaf_by_its_path() {
        // Hit 1/2, then effect 1/2: suppressed 1/4, hit without effect 1/4, miss 1/2.
        let d = half_hit(Effect::Suppressed).exact();
        assert_eq!(d.probability(|s| *s == Strike::hit(Effect::Suppressed)), Ratio::new(1, 4));
        assert_eq!(d.probability(|s| *s == Strike::MISS), Ratio::new(1, 2));
    }

    #[test]
    fn a_second_suppression_damages_and_damage_at_strength_one_destroys() {
        // Two attacks, each suppressing with p = 1/4, on a 1-point target: destroyed
        // only if both suppress, 1/16; suppressed if exactly one does, 2 x 1/4 x 3/4 = 3/8.
        let exact = action(2, Effect::Suppressed, 1, SuppressedAgain::Damaged).exact().unwrap();
        assert_eq!(exact[0][3], Ratio::new(1, 16));
        assert_eq!(exact[0][1], Ratio::new(3, 8));
        assert_eq!(exact[0][0], Ratio::new(9, 16));
    }

    #[test]
    fn suppressed_again_can_destroy_a_strong_target_outright() {
        // Strength 3: two suppressions destroy under `destroyed`, cost one point under
        // `damaged`. Both happen with p = 1/16.
        let exact = action(2, Effect::Suppressed, 3, SuppressedAgain::Destroyed).exact().unwrap();
        assert_eq!(exact[0][3], Ratio::new(1, 16));
        let exact = action(2, Effect::Suppressed, 3, SuppressedAgain::Damaged).exact().unwrap();
        assert_eq!(exact[0][3], Ratio::new(0, 1));
        assert_eq!(exact[2][1], Ratio::new(1, 16));
    }

    #[test]
    fn attacks_stop_at_destruction_and_hits_count_only_until_then() {
        // One damaging attack at p = 1/4 twice on strength 1: the second attack is only
        // made if the first did not destroy. P(2 hits) = P(first hits, no effect, second
        // hits) = 1/4 x 1/2 = 1/8.
        let exact = action(2, Effect::Damaged, 1, SuppressedAgain::Damaged).exact().unwrap();
        assert_eq!(exact[3][2], Ratio::new(1, 8));
        // Destroyed: 1 - (3/4)^2 = 7/16.
        assert_eq!(exact[0][3], Ratio::new(7, 16));
    }

    #[test]
    fn a_gated_volley_is_made_with_its_chance() {
        // A 25% gate in front of one attack that always damages a 1-point target.
        let sure = Chain::new(vec![Step::new(D6, Roll::Effect, |_| Next::End(Strike::hit(Effect::Damaged)))]);
        let volley = Volley { attacks: 1, made: Made::OnChance(25), chains: [sure.clone(), sure], one_of: None };
        let fire = FireAction::new(vec![volley], 1, false, SuppressedAgain::Damaged, Timing::LaterAttacks);
        let exact = fire.exact_target();
        assert_eq!(exact.probability(|s| s.lost == 1 && s.reached == 1), Ratio::new(1, 4));
        assert_eq!(exact.probability(|s| s.reached == 0), Ratio::new(3, 4));
    }

    #[test]
    fn a_second_weapon_is_made_exactly_when_the_first_is() {
        // Two weapons at a 25% barrage chance, each attack sure to damage a 3-point
        // target: one roll decides both, so 2 points are lost with 1/4 and none with
        // 3/4 (two independent rolls would give 1/16, 6/16, 9/16).
        let sure = Chain::new(vec![Step::new(D6, Roll::Effect, |_| Next::End(Strike::hit(Effect::Damaged)))]);
        let volleys = vec![
            Volley { attacks: 1, made: Made::OnChance(25), chains: [sure.clone(), sure.clone()], one_of: None },
            Volley { attacks: 1, made: Made::WithPrevious, chains: [sure.clone(), sure], one_of: None },
        ];
        let fire = FireAction::new(volleys, 3, false, SuppressedAgain::Damaged, Timing::LaterAttacks);
        let exact = fire.exact_target();
        assert_eq!(exact.probability(|s| s.lost == 2 && s.reached == 1), Ratio::new(1, 4));
        assert_eq!(exact.probability(|s| s.lost == 0 && s.reached == 0), Ratio::new(3, 4));
        let mut streams = combat_odds_core::engine::Streams::for_chunk(7, 0);
        for _ in 0..200 {
            let s = fire.trial_target(&mut streams);
            assert!(s.lost == 2 * s.reached, "both volleys or neither: {s:?}");
        }
    }

    #[test]
    fn exact_weights_pass_128_bits_without_loss() {
        // 60 attacks, each resolved on a d10 and a d6: a denominator up to 60^60.
        let exact = action(60, Effect::Damaged, 6, SuppressedAgain::Damaged).exact().unwrap();
        for row in &exact {
            let sum: Ratio = row.iter().sum();
            assert_eq!(sum, Ratio::new(1, 1));
        }
    }
}
