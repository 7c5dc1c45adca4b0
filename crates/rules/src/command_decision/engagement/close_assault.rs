//! Physical contact (CD-E12): at range 0 personnel stands close assault, one to an
//! AFV, and demoralized companies in contact with unpinned enemy personnel or AFVs are
//! eliminated at the end of the morale phase (seed 000 "Demoralized").

use super::CdBattle;
use super::morale::Morale;
use crate::engagement::{FieldOf, SIDES, enemy};

/// The most stands a side may field in an engagement that reaches contact (the AFVs
/// close assaulted in a phase live in a fixed bit set).
pub(super) const MAX_CONTACT_STANDS: usize = 256;

/// The enemy AFVs a side's personnel have close assaulted this phase, a bit a stand.
#[derive(Default)]
pub(super) struct Assaulted([u64; MAX_CONTACT_STANDS / 64]);

impl Assaulted {
    pub(super) fn taken(&self, t: usize) -> bool {
        self.0[t / 64] & (1 << (t % 64)) != 0
    }

    pub(super) fn take(&mut self, t: usize) {
        self.0[t / 64] |= 1 << (t % 64);
    }
}

impl CdBattle {
    /// Whether the sides are in physical contact this turn: the range is 0 (CD-E12).
    pub(super) fn in_contact(&self, turn: u32) -> bool {
        self.schedule.range(turn) == 0.0
    }

    /// The end of the morale phase in contact: "Any demoralized stand(s) in contact
    /// with unpinned enemy personnel or AFV stands at the end of ... the morale phase
    /// are automatically eliminated" (seed 000 "Demoralized"). Both sides are read
    /// from the same field, so neither goes first.
    pub(super) fn overrun(&self, field: &mut FieldOf<Self>, turn: u32) {
        if !self.in_contact(turn) {
            return;
        }
        let unpinned = SIDES.map(|side| {
            let layout = &self.layout.sides[side];
            let force = &field.sides[side];
            force.units.iter().enumerate().any(|(u, s)| {
                let kind = self.kinds[side][layout.group_of[u]];
                !s.eliminated && force.companies[layout.company_of(u)] == Morale::Steady && (!kind.vehicle || kind.afv)
            })
        });
        for side in SIDES {
            if !unpinned[enemy(side)] {
                continue;
            }
            for c in 0..self.layout.sides[side].companies.len() {
                if field.sides[side].companies[c] == Morale::Demoralized {
                    self.eliminate_company(field, side, c);
                }
            }
        }
    }
}
