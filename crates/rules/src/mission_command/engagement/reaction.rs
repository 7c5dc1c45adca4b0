//! Reaction tests (seed 004, Reaction Test adjustments and effects): which groups test
//! and with what shift, the die read against the chart folded to integers, and each
//! result's standing, surrender near an AFV included (MC-E4, MC-E5, MC-E7, MC-E10).

use super::{Element, McBattle, Status};
use crate::engagement::{FieldOf, ForceOf, enemy};

/// "Elements within 5cm of enemy AFV surrender" (Reaction Test effects, Retreat).
pub(super) const SURRENDER_CM: f64 = 5.0;

/// The reaction test chart folded to integers before the first turn.
pub(super) struct ReactionChart {
    /// Modifier for n elements eliminated / suppressed, n = 0..=most elements.
    pub(super) eliminated: Vec<i32>,
    pub(super) suppressed: Vec<i32>,
    pub(super) retreating: i32,
    /// The rows counted from the fight (MC-E10), each 0 where the setting
    /// `derived_reaction_rows = "named"` leaves them to the units.
    pub(super) afv_fire: i32,
    pub(super) enemy_retreating: i32,
    pub(super) moved_away: i32,
}

/// A reaction test one group takes: its modifiers and whether it was fired upon.
#[derive(Debug, Clone, Copy)]
pub(super) struct Test {
    pub(super) shift: i32,
    fired_upon: bool,
}

impl McBattle {
    /// The standing of group `g` of `side` (that of any living element), or
    /// `Eliminated` when none is left.
    pub(super) fn standing(&self, force: &ForceOf<Self>, side: usize, g: usize) -> Status {
        let units = self.layout.sides[side].groups[g].units.clone();
        force.units[units].iter().map(|e| e.status).find(|s| *s != Status::Eliminated).unwrap_or(Status::Eliminated)
    }

    /// Clears group `g`'s triggers and says whether it tests and with what (MC-E4):
    /// a living, unrouted group that was hit, or is retreating. `moved_away` says
    /// whether an element of the side moved away from the enemy in its last turn.
    pub(super) fn test_of(&self, field: &mut FieldOf<Self>, side: usize, g: usize, moved_away: bool) -> Option<Test> {
        let standing = self.standing(&field.sides[side], side, g);
        let ch = &self.chart;
        // "Any enemy can be seen retreating (Reaction Test result of -5 or worse)":
        // a Retreat or a Rout (MC-E10).
        let enemy_retreating =
            field.sides[enemy(side)].units.iter().any(|e| matches!(e.status, Status::Retreating | Status::Routed));
        let units = self.layout.sides[side].groups[g].units.clone();
        let group = &mut field.sides[side].units[units];
        let fired_upon = group.iter().any(|e| e.hit);
        let afv_fire = group.iter().any(|e| e.afv_fire);
        group.iter_mut().for_each(|e| (e.hit, e.afv_fire) = (false, false));
        if standing >= Status::Routed || !(fired_upon || standing == Status::Retreating) {
            return None;
        }
        let eliminated = group.iter().filter(|e| e.status == Status::Eliminated).count();
        let suppressed = group.iter().filter(|e| e.status != Status::Eliminated && e.markers > 0).count();
        let shift = self.kinds[side][g].reaction
            + ch.eliminated[eliminated]
            + ch.suppressed[suppressed]
            + if standing == Status::Retreating { ch.retreating } else { 0 }
            + if afv_fire { ch.afv_fire } else { 0 }
            + if enemy_retreating { ch.enemy_retreating } else { 0 }
            + if moved_away { ch.moved_away } else { 0 };
        Some(Test { shift, fired_upon })
    }

    /// The start of `side`'s player turn: whether an element of it moved away from
    /// the enemy in its last turn (the "friendly element(s) moved away" row), those
    /// moves then forgotten.
    pub(super) fn start_of_turn(field: &mut FieldOf<Self>, side: usize) -> bool {
        let units = &mut field.sides[side].units;
        let moved = units.iter().any(|e| e.moved);
        units.iter_mut().for_each(|e| e.moved = false);
        moved
    }

    /// The reaction result of a d10 `face` for group `g` (MC-E5, MC-E7).
    pub(super) fn react(&self, field: &mut FieldOf<Self>, side: usize, g: usize, test: Test, face: u32, range: f64) {
        let standing = self.standing(&field.sides[side], side, g);
        let result = Status::BY_RESULT[self.reaction.result(face as i32 + test.shift)];
        // "If they are fired upon, affected elements will ignore Reaction Test effects
        // except for worse ones"; otherwise the retreat continues "until a new
        // reaction result applies".
        if standing == Status::Retreating && test.fired_upon && result <= standing {
            return;
        }
        let foe = enemy(side);
        let enemy_afv = field.sides[foe]
            .units
            .iter()
            .enumerate()
            .any(|(u, e)| e.status < Status::Routed && self.kinds[foe][self.layout.sides[foe].group_of[u]].afv);
        let status = if result >= Status::Retreating && range <= SURRENDER_CM && enemy_afv {
            Status::Eliminated
        } else {
            result
        };
        let units = self.layout.sides[side].groups[g].units.clone();
        for e in field.sides[side].units[units].iter_mut().filter(|e| e.status != Status::Eliminated) {
            if status == Status::Eliminated {
                // A surrender: hit or not, the group never tests again.
                *e = Element { status, markers: 0, under_he: false, ..*e };
            } else {
                e.status = status;
            }
        }
    }
}
