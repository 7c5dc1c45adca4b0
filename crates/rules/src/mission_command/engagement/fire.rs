//! Point-to-point fire (seed 004, Point-to-point Fire to Hit, Convert Hit to Casualty
//! and Conversion to KO): each element's aim, its shot's outcome by the natural faces,
//! and a hit that does not convert landing as a suppression marker (MC-E2, MC-E10).

use super::{McBattle, Status, WITHIN_15CM};
use crate::engagement::{FieldOf, enemy};
use crate::mission_command::fire::{Fire, Shot};
use crate::mission_command::scenario::MAX_MARKERS;

/// What one element's Shoot does to one enemy entry at one range.
pub(super) enum Attack {
    /// Point-to-point fire: one shot at one element.
    Point(Shot),
    /// Area fire at AFVs: the template over 1, 2, ... of the entry's AFVs (the
    /// index is the number under it, less one), with its one-KO cap.
    Afv(Vec<Fire>),
    /// Area fire at the structure a fortified entry holds: one d20 for the template.
    Building(Fire),
}

/// What one shot did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Outcome {
    Miss,
    /// A hit that did not convert: a suppression marker.
    Suppressed,
    /// Converted: a casualty or a KO.
    Eliminated,
}

impl McBattle {
    /// The fire element `u` of `side` makes at range index `r`, if it may shoot and
    /// has a target: (target element, natural d20 a point-to-point shot hits from,
    /// the attack). Routed enemies are fired at only when no other is left in reach
    /// (MC-E5).
    pub(super) fn aim(&self, field: &FieldOf<Self>, side: usize, u: usize, r: usize) -> Option<(usize, i32, &Attack)> {
        let element = field.sides[side].units[u];
        if !element.status.shoots() {
            return None;
        }
        let foe = enemy(side);
        let enemies = &field.sides[foe].units;
        let group = self.layout.sides[side].group_of[u];
        let choose = |alive: &dyn Fn(usize) -> bool| self.targeting.choose(&self.layout, side, group, u, r, alive);
        let t = choose(&|t| enemies[t].status < Status::Routed)
            .or_else(|| choose(&|t| enemies[t].status != Status::Eliminated))?;
        let attack = self.fires.get(side, group, self.layout.sides[foe].group_of[t], r).expect("targets are in reach");
        let from = match attack {
            // Markers and HE fire cost the to-hit roll; area fire rolls none.
            Attack::Point(shot) => {
                shot.hit_from.expect("point-to-point fire rolls to hit")
                    - self.marker_modifier[element.markers as usize]
                    - if element.under_he { self.he_modifier } else { 0 }
            }
            Attack::Afv(_) | Attack::Building(_) => 0,
        };
        Some((t, from, attack))
    }

    /// Whether fire by element `u` of `side` at `range` is "fire from AFV within
    /// 15cm" for the elements it lands on, where the fight counts that row (MC-E10).
    pub(super) fn afv_close(&self, side: usize, u: usize, range: f64) -> bool {
        self.chart.afv_fire != 0 && range <= WITHIN_15CM && self.kinds[side][self.layout.sides[side].group_of[u]].afv
    }

    /// Marks the group of enemy element `t` as under fire from an AFV within 15cm.
    pub(super) fn under_afv_fire(&self, field: &mut FieldOf<Self>, side: usize, t: usize) {
        let foe = &self.layout.sides[enemy(side)];
        let group = foe.groups[foe.group_of[t]].units.clone();
        field.sides[enemy(side)].units[group].iter_mut().for_each(|e| e.afv_fire = true);
    }

    /// One shot's result on its target (MC-E2); `afv_close` as [`Self::afv_close`].
    pub(super) fn land(&self, field: &mut FieldOf<Self>, side: usize, t: usize, outcome: Outcome, afv_close: bool) {
        if afv_close {
            self.under_afv_fire(field, side, t);
        }
        let target = &mut field.sides[enemy(side)].units[t];
        match outcome {
            Outcome::Miss => {}
            Outcome::Suppressed => {
                target.markers = (target.markers + 1).min(MAX_MARKERS as u8);
                target.hit = true;
            }
            Outcome::Eliminated => target.eliminate(),
        }
    }
}

/// Shot outcomes by the natural faces of the to-hit and conversion d20s.
pub(super) fn outcome(shot: &Shot, from: i32, to_hit: u32, convert: u32) -> Outcome {
    if (to_hit as i32) < from {
        Outcome::Miss
    } else if shot.effect[convert as usize - 1] == 2 {
        Outcome::Eliminated
    } else {
        Outcome::Suppressed
    }
}
