//! The Artillery Phase's batteries off the table (CD-E14): each battery's response roll,
//! its mission's attacks on every stand under its burst, and its ammunition (seed 001,
//! Ammo Depletion).

use super::CdBattle;
use super::fire::Variant;
use crate::command_decision::fire::{AmmoChecks, FireResolution};
use crate::command_decision::tables::HitResult;
use crate::engagement::{FieldOf, SIDES, enemy};
use combat_odds_core::dice::D10;
use combat_odds_core::engine::Streams;
use combat_odds_core::exact::{Dist, TooLarge, Weight};

/// The most batteries a side may call on.
pub(super) const MAX_BATTERIES: usize = 8;

/// A battery off the table, compiled (CD-E14).
pub(super) struct Battery {
    /// Success by artillery response die face; `None` when self-observed.
    pub(super) response: Option<[bool; 10]>,
    /// Each enemy entry under the burst, with the mission's attacks on one of its stands.
    pub(super) under_burst: Vec<(usize, Attacks)>,
}

/// A mission's attacks on one stand under a burst, by how its ammunition is checked:
/// on every die where the burst covers that stand alone (reading 13), and "only 1 of
/// dice" where it covers several (seed 001, Ammo Depletion): the first die at the
/// first stand attacked, none at the rest.
pub(super) struct Attacks {
    alone: Variant,
    first: Variant,
    rest: Variant,
}

impl Attacks {
    pub(super) fn new(fire: FireResolution) -> std::result::Result<Self, TooLarge> {
        Ok(Attacks {
            first: Variant::new(fire.with_ammo_checks(AmmoChecks::FirstDie))?,
            rest: Variant::new(fire.with_ammo_checks(AmmoChecks::None))?,
            alone: Variant::new(fire)?,
        })
    }
}

impl CdBattle {
    /// Every enemy stand under battery `b` of `side` still on the table in `field`,
    /// each with the mission's attacks on it: its ammunition checked on every die where
    /// the burst covers one stand, on the first die of the first stand where it covers
    /// several (seed 001, Ammo Depletion: "multiple targets in template requires only 1
    /// of dice (different color) to deplete"). Read from the phase's start: hits land
    /// at its end.
    fn missions(&self, field: &FieldOf<Self>, side: usize, b: usize) -> Vec<(usize, &Variant)> {
        let foe = enemy(side);
        let living: Vec<(usize, &Attacks)> = self.batteries[side][b]
            .under_burst
            .iter()
            .flat_map(|(g, attacks)| self.layout.sides[foe].groups[*g].units.clone().map(move |t| (t, attacks)))
            .filter(|(t, _)| !field.sides[foe].units[*t].eliminated)
            .collect();
        let alone = living.len() == 1;
        living
            .into_iter()
            .enumerate()
            .map(|(i, (t, attacks))| match (alone, i) {
                (true, _) => (t, &attacks.alone),
                (false, 0) => (t, &attacks.first),
                (false, _) => (t, &attacks.rest),
            })
            .collect()
    }

    /// Whether battery `b` of `side` calls a mission this turn: it has ammunition and a
    /// stand under its burst is still on the table.
    fn calls_mission(&self, field: &FieldOf<Self>, side: usize, b: usize) -> bool {
        !field.sides[side].supports_spent[b] && !self.missions(field, side, b).is_empty()
    }

    /// The Artillery Phase's missions, rolled (CD-E14): each battery with a stand under
    /// its burst rolls its response, and on arrival attacks every such stand.
    pub(super) fn artillery(&self, field: &mut FieldOf<Self>, streams: &mut Streams) {
        for side in SIDES {
            for (b, battery) in self.batteries[side].iter().enumerate() {
                if !self.calls_mission(field, side, b) {
                    continue;
                }
                if battery.response.is_some_and(|ok| !ok[D10.roll(&mut streams.response) as usize - 1]) {
                    continue;
                }
                // Hits land at the end of the phase: no stand leaves the table meanwhile.
                for (t, v) in self.missions(field, side, b) {
                    let result = v.roll(streams);
                    Self::burst(field, (side, b, t), v, result);
                }
            }
        }
        Self::end_of_phase(field);
    }

    /// The Artillery Phase's missions from `start`, as a distribution.
    pub(super) fn artillery_exact<W: Weight>(
        &self,
        start: &FieldOf<Self>,
    ) -> std::result::Result<Dist<FieldOf<Self>, W>, TooLarge> {
        let mut fired = Dist::certain(start.clone());
        for side in SIDES {
            for (b, battery) in self.batteries[side].iter().enumerate() {
                if !self.calls_mission(start, side, b) {
                    continue;
                }
                let mission = |f: &FieldOf<Self>| {
                    self.missions(start, side, b).into_iter().try_fold(Dist::certain(f.clone()), |acc, (t, v)| {
                        acc.combine(&W::of_machine(&v.exact), |f, r| {
                            let mut f = f.clone();
                            Self::burst(&mut f, (side, b, t), v, *r);
                            f
                        })
                    })
                };
                fired = match battery.response {
                    None => fired.try_then(mission)?,
                    Some(ok) => fired.try_then(|f| {
                        Dist::roll(D10, |face| ok[face as usize - 1])
                            .try_then(|&arrived| if arrived { mission(f) } else { Ok(Dist::certain(f.clone())) })
                    })?,
                };
            }
        }
        Ok(fired.map(|f| {
            let mut f = f.clone();
            Self::end_of_phase(&mut f);
            f
        }))
    }

    /// A mission's attacks on one stand under the burst of battery `b` of `side`: as
    /// [`Self::land`], every stand in the template suppressed, and an ammunition
    /// depletion taking the battery out for the rest of the fight (CD-E14).
    fn burst(
        field: &mut FieldOf<Self>,
        (side, b, t): (usize, usize, usize),
        v: &Variant,
        (result, depleted): (HitResult, bool),
    ) {
        field.sides[enemy(side)].units[t].strike(v, result);
        field.sides[side].supports_spent[b] |= depleted;
    }
}
