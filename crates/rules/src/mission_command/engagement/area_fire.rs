//! Area fire (seed 004, Area Fire Convert to Casualties and KO, and its Buildings and
//! Fortifications table): a template on the entry aimed at, and its KOs, casualties
//! and suppressions landing on the elements under it (MC-E11).

use std::ops::Range;

use super::fire::Attack;
use super::{McBattle, Status};
use crate::engagement::{FieldOf, enemy};
use crate::mission_command::fire::{Fire, FireState};
use crate::mission_command::scenario::MAX_MARKERS;
use crate::mission_command::settings::TemplateCovers;

/// Casualties a "D" result (structural level destroyed) takes from the entry under
/// the template: "1 casualty vulnerable, 1 casualty non-vulnerable", every element of
/// a fortified entry read as vulnerable (MC-E11).
pub(super) const DESTROYED_CASUALTIES: u32 = 1;

/// Suppression markers on each element under a template, by building result
/// (BUILDING_RESULTS order): "S = 1 suppression each vulnerable element", C likewise,
/// "D = ... 2 suppressions each vulnerable element".
pub(super) const BUILDING_MARKERS: [u8; 4] = [0, 1, 1, 2];

/// Casualties by building result: C "1 casualty to single vulnerable element", D as
/// [`DESTROYED_CASUALTIES`].
pub(super) const BUILDING_CASUALTIES: [u32; 4] = [0, 0, 1, DESTROYED_CASUALTIES];

/// What a template did to the elements under it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Template {
    /// AFVs knocked out.
    Kos(u32),
    /// The building result (BUILDING_RESULTS index).
    Building(u8),
}

impl McBattle {
    /// The template an area attack at enemy element `t` rolls, and the enemy elements
    /// under it: the living ones of `t`'s entry, or `t` alone (setting
    /// `template_covers`, MC-E11).
    pub(super) fn template<'f>(
        &'f self,
        field: &FieldOf<Self>,
        side: usize,
        t: usize,
        attack: &'f Attack,
    ) -> (&'f Fire, Range<usize>) {
        let foe = enemy(side);
        let under = match self.settings.template_covers {
            TemplateCovers::WholeEntry => {
                self.layout.sides[foe].groups[self.layout.sides[foe].group_of[t]].units.clone()
            }
            TemplateCovers::AimedElement => t..t + 1,
        };
        let fire = match attack {
            Attack::Afv(by_count) => {
                let living = field.sides[foe].units[under.clone()].iter().filter(|e| e.status != Status::Eliminated);
                &by_count[living.count() - 1]
            }
            Attack::Building(fire) => fire,
            Attack::Point(_) => unreachable!("point-to-point fire places no template"),
        };
        (fire, under)
    }

    /// What a template's roll did, by the attack it belongs to.
    pub(super) fn template_result(attack: &Attack, fire: &Fire, state: &FireState) -> Template {
        match attack {
            Attack::Afv(_) => Template::Kos(fire.kills(state)),
            _ => Template::Building(state.worst),
        }
    }

    /// A template's result on the living elements under it (MC-E11): KOs and
    /// casualties to the first in line, suppression markers to the rest, and every
    /// one of them under HE fire for its next shot.
    pub(super) fn land_template(
        &self,
        field: &mut FieldOf<Self>,
        side: usize,
        under: Range<usize>,
        result: Template,
        afv_close: bool,
    ) {
        if afv_close {
            self.under_afv_fire(field, side, under.start);
        }
        let (mut casualties, markers) = match result {
            Template::Kos(kos) => (kos, 0),
            Template::Building(level) => (BUILDING_CASUALTIES[level as usize], BUILDING_MARKERS[level as usize]),
        };
        for e in field.sides[enemy(side)].units[under].iter_mut().filter(|e| e.status != Status::Eliminated) {
            e.under_he = true;
            if casualties > 0 {
                casualties -= 1;
                e.eliminate();
            } else if markers > 0 {
                e.markers = (e.markers + markers).min(MAX_MARKERS as u8);
                e.hit = true;
            }
        }
    }
}
