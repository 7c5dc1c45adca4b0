//! Direct fire (seed 000 "Combat"): prep, opportunity and General Fire, each stand's
//! compiled shot in every condition that changes it, its choice of target, and the
//! results landed at the end of the phase (CD-E13); vehicles suppressed near personnel
//! in cover ("Suppression" 3).

use super::close_assault::Assaulted;
use super::morale::Morale;
use super::orders::FirePhase;
use super::{CLOSE_PROXIMITY, CdBattle};
use crate::command_decision::fire::{FireResolution, FireState};
use crate::command_decision::tables::HitResult;
use crate::engagement::{FieldOf, SIDES, enemy};
use combat_odds_core::engine::{Resolution, Streams};
use combat_odds_core::exact::{Dist, TooLarge, Weight};

/// One firer's compiled fire at one target at one range, in each condition that
/// changes it: bit 0 the firer is pinned, bit 1 it is suppressed, bit 2 the target is
/// pinned personnel; in close assault, bit 3 the firer is under a Rally order.
pub(super) struct Shot {
    /// General fire, by condition.
    pub(super) general: Vec<Variant>,
    /// Prep or opportunity fire (the firer's `fires_in`), by condition less the pin and
    /// Rally bits (`condition >> 1`): pinned and rallying stands never fire early.
    /// `None` where the firer cannot fire early at this target at this range.
    pub(super) early: Option<Vec<Variant>>,
}

pub(super) struct Variant {
    pub(super) fire: FireResolution,
    /// Its exact result, in machine words (a single fire fits them): a turn
    /// weighed in big integers borrows it as those ([`Weight::of_machine`]).
    pub(super) exact: Dist<(HitResult, bool), u128>,
}

impl Variant {
    pub(super) fn new(fire: FireResolution) -> std::result::Result<Self, TooLarge> {
        let result = |s: &FireState| (s.worst.unwrap_or(HitResult::NoEffect), s.depleted);
        let exact = Dist::from_weights(fire.exact_state()?.iter().map(|(s, w)| (result(s), *w)))?;
        Ok(Variant { fire, exact })
    }

    /// One literal fire: (worst result, ammunition depleted).
    pub(super) fn roll(&self, streams: &mut Streams) -> (HitResult, bool) {
        let s = self.fire.trial(streams);
        (s.worst.unwrap_or(HitResult::NoEffect), s.depleted)
    }
}

impl CdBattle {
    /// Whether `side`'s vehicles are suppressed this turn ("Suppression" 3).
    pub(super) fn suppressed(&self, field: &FieldOf<Self>, side: usize, turn: u32) -> bool {
        let foe = enemy(side);
        self.schedule.range(turn) <= CLOSE_PROXIMITY && self.living(&field.sides[foe], foe, |k| k.personnel_in_cover)
    }

    /// The fire of stand `u` of `side` in `phase`, if it may fire and has a target:
    /// (target stand, compiled variant). Fire is simultaneous, and nothing a fire
    /// changes (the target's hit and pending suppression, the firer's own ammunition)
    /// is read here, so each stand's choice is the one it makes from the field as the
    /// phase began. A stand fires in one phase a turn: a Hold stand in its `fires_in`
    /// phase unless pinned ("Pinned stands may never conduct Prep Fire", "Pinned
    /// units may never fire in the opportunity fire phase"), else in general fire
    /// (CD-E13). In contact (CD-E12) a rallying stand fires too, and only one
    /// personnel stand close assaults each AFV: `assaulted` marks the enemy AFVs
    /// already taken. `suppressing`: the side's vehicles are suppressed this turn.
    #[allow(clippy::too_many_arguments)]
    fn shot(
        &self,
        field: &FieldOf<Self>,
        (side, u): (usize, usize),
        (turn, phase): (u32, FirePhase),
        suppressing: bool,
        rallying: [u16; 2],
        assaulted: &mut Assaulted,
    ) -> Option<(usize, &Variant)> {
        let r = self.schedule.index(turn);
        let contact = self.in_contact(turn);
        let layout = &self.layout.sides[side];
        let force = &field.sides[side];
        let stand = force.units[u];
        let group = layout.group_of[u];
        let kind = self.kinds[side][group];
        let company = layout.groups[group].company;
        let morale = force.companies[company];
        let rallies = rallying[side] & (1 << company) != 0;
        let assaults = contact && kind.assaults;
        if stand.eliminated || stand.depleted || stand.fired || morale >= Morale::Demoralized || (rallies && !assaults)
        {
            return None;
        }
        let early = phase != FirePhase::General;
        if early && (kind.early != Some(phase) || morale >= Morale::Pinned || rallies) {
            return None;
        }
        let foe = enemy(side);
        let enemy_force = &field.sides[foe];
        let group_of = &self.layout.sides[foe].group_of;
        let afv = |t: usize| self.kinds[foe][group_of[t]].afv;
        let shot_at = |t: usize| self.fires.get(side, group, group_of[t], r);
        // An AFV another of the side's stands close assaults is not this one's to take;
        // in an early phase only targets it can fire at early are in reach.
        let taken = |t: usize| assaults && afv(t) && assaulted.taken(t);
        let reach = |t: usize| !early || shot_at(t).is_some_and(|s| s.early.is_some());
        let t = self
            .targeting
            .choose(&self.layout, side, group, u, r, |t| !(enemy_force.units[t].eliminated || taken(t)) && reach(t))?;
        if assaults && afv(t) {
            assaulted.take(t);
        }
        let target_pinned = enemy_force.companies[self.layout.sides[foe].company_of(t)] >= Morale::Pinned;
        let v = usize::from(morale >= Morale::Pinned)
            | usize::from((suppressing && kind.vehicle) || stand.suppressed) << 1
            | usize::from(target_pinned) << 2
            | usize::from(rallies) << 3;
        let shot = shot_at(t).expect("targets are chosen within reach");
        match &shot.early {
            Some(early_fire) if early => Some((t, &early_fire[v >> 1])),
            _ => Some((t, &shot.general[v])),
        }
    }

    /// One phase of direct fire, rolled: every stand's choice is made and its fire
    /// landed stand by stand, then the phase's results apply.
    pub(super) fn fire_phase(
        &self,
        field: &mut FieldOf<Self>,
        when: (u32, FirePhase),
        suppressing: [bool; 2],
        rallying: [u16; 2],
        streams: &mut Streams,
    ) {
        for side in SIDES {
            let mut assaulted = Assaulted::default();
            for u in 0..field.sides[side].units.len() {
                if let Some((t, v)) = self.shot(field, (side, u), when, suppressing[side], rallying, &mut assaulted) {
                    let result = v.roll(streams);
                    Self::land(field, (side, u, t), v, result);
                }
            }
        }
        Self::end_of_phase(field);
    }

    /// One side's fire in one phase of direct fire from `now`, as a distribution: the
    /// first side's from the phase's start, then the second's from the field the first
    /// side's fire marked, which ends the phase. Fire is simultaneous, and nothing the
    /// first side's fire marks (its targets' hits and pending suppression, its firers'
    /// ammunition and fire) is read by the second side's choice of targets: its results
    /// land at the phase's end, as [`Self::fire_phase`] rolls them. Weighed a side at a
    /// time, a phase of a company's fire stays within one draw of the compiled sampler.
    ///
    /// In General Fire, the turn's last fire phase, stands of one entry alike, not fired
    /// at, that fire the same fire at the same target are rolled as one volley: the
    /// target takes the volley's worst result, and the volley's depletions fall on its
    /// first stands. Which of them ran dry is lost, and nothing after reads it: the
    /// morale phase counts an entry's stands alike and the next turn lines them up, so
    /// the chain's lumped fields and odds are those of firing stand by stand, in a
    /// fraction of the branches (four Shermans: 5 depletion counts against 16 patterns).
    pub(super) fn side_fire_exact<W: Weight>(
        &self,
        now: &FieldOf<Self>,
        (when, side): ((u32, FirePhase), usize),
        suppressing: [bool; 2],
        rallying: [u16; 2],
    ) -> std::result::Result<Dist<FieldOf<Self>, W>, TooLarge> {
        let shots_of = |side: usize| {
            let mut assaulted = Assaulted::default();
            (0..now.sides[side].units.len())
                .filter_map(|u| {
                    self.shot(now, (side, u), when, suppressing[side], rallying, &mut assaulted).map(|(t, v)| (u, t, v))
                })
                .collect::<Vec<(usize, usize, &Variant)>>()
        };
        let shots = shots_of(side);
        let first = side == SIDES[0];
        // The side's stands the enemy fires at this phase: the first side's, those the
        // enemy chooses from the phase's start; the second side's, those the first
        // side's fire marked (or a fire earlier this turn did: such a stand fires on
        // its own, the same odds in more branches).
        let fired_at: Vec<bool> = if first {
            let targets: Vec<usize> = shots_of(enemy(side)).into_iter().map(|(_, t, _)| t).collect();
            (0..now.sides[side].units.len()).map(|u| targets.contains(&u)).collect()
        } else {
            now.sides[side].units.iter().map(|s| s.hit.is_some()).collect()
        };
        let layout = &self.layout.sides[side];
        let alike = |a: usize, b: usize| {
            layout.group_of[a] == layout.group_of[b] && now.sides[side].units[a] == now.sides[side].units[b]
        };
        // Volleys in the order their first stand fires: (target, fire, stands).
        let mut volleys: Vec<(usize, &Variant, Vec<usize>)> = Vec::new();
        for &(u, t, v) in &shots {
            let volley = (when.1 == FirePhase::General && !fired_at[u])
                .then(|| {
                    volleys.iter_mut().find(|(vt, vv, stands)| {
                        *vt == t && std::ptr::eq(*vv, v) && !fired_at[stands[0]] && alike(stands[0], u)
                    })
                })
                .flatten();
            match volley {
                Some((_, _, stands)) => stands.push(u),
                None => volleys.push((t, v, vec![u])),
            }
        }
        let mut fired = Dist::certain(now.clone());
        for (t, v, stands) in volleys {
            if let [u] = stands[..] {
                fired = fired.combine(&W::of_machine(&v.exact), |f, r| {
                    let mut f = f.clone();
                    Self::land(&mut f, (side, u, t), v, *r);
                    f
                })?;
                continue;
            }
            // The volley's worst result and how many of its stands ran dry.
            let each = Dist::certain((HitResult::NoEffect, 0));
            let volley = W::of_machine(&v.exact)
                .fold_n(stands.len() as u32, each, |&(worst, dry), &(r, d)| (worst.max(r), dry + usize::from(d)))?;
            fired = fired.combine(&volley, |f, &(worst, dry)| {
                let mut f = f.clone();
                for (i, &u) in stands.iter().enumerate() {
                    Self::land(&mut f, (side, u, t), v, (worst, i < dry));
                }
                f
            })?;
        }
        if first {
            return Ok(fired);
        }
        Ok(fired.map(|f| {
            let mut f = f.clone();
            Self::end_of_phase(&mut f);
            f
        }))
    }

    /// The direct fire phases a turn plays: prep and opportunity fire only when some
    /// stand fires in them.
    pub(super) fn fire_phases(&self) -> &'static [FirePhase] {
        if self.early_fire { &FirePhase::ALL } else { &[FirePhase::General] }
    }

    /// One fire's result, applied at the end of the phase: the target keeps its worst,
    /// and fire that suppresses marks it to be suppressed when the phase ends.
    fn land(
        field: &mut FieldOf<Self>,
        (side, u, t): (usize, usize, usize),
        v: &Variant,
        (result, depleted): (HitResult, bool),
    ) {
        field.sides[enemy(side)].units[t].strike(v, result);
        let firer = &mut field.sides[side].units[u];
        firer.depleted |= depleted;
        firer.fired = true;
    }

    /// The end of a fire phase: eliminated stands come off the table and suppression
    /// lands ("The results of fire do not apply to a stand until the end of the fire
    /// phase in which it received the fire"). The turn's hits stay on the stands for
    /// the morale phase.
    pub(super) fn end_of_phase(field: &mut FieldOf<Self>) {
        for stand in field.sides.iter_mut().flat_map(|f| f.units.iter_mut()) {
            stand.eliminated |= stand.hit == Some(HitResult::Eliminated);
            stand.suppressed |= std::mem::take(&mut stand.suppression_lands);
        }
    }
}
