//! Orders (seed 001 "Orders Summary"): a stand's order, held for the whole fight, and
//! the fire phases of a turn (CD-E13); the data line it fires with under that order
//! (seed 000, Restrictions); the battalion's Rally orders (seed 000 "Rally Orders",
//! CD-E4, CD-E10).

use super::morale::Morale;
use super::{CdBattle, Kind};
use crate::command_decision::catalogue::Weapon;
use crate::engagement::{FieldOf, SIDES};

/// A stand's order (seed 001 "Orders Summary"), held for the whole fight (CD-E13).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Order {
    Hold,
    CautiousAdvance,
    HastyAdvance,
    Disengage,
    TakeCommand,
}

impl Order {
    pub(super) const NAMES: [&'static str; 5] =
        ["hold", "cautious_advance", "hasty_advance", "disengage", "take_command"];
    pub(super) const ALL: [Order; 5] =
        [Order::Hold, Order::CautiousAdvance, Order::HastyAdvance, Order::Disengage, Order::TakeCommand];

    /// The order as a scenario writes it.
    pub(super) fn name(self) -> &'static str {
        Self::NAMES[Self::ALL.iter().position(|o| *o == self).expect("every order is listed")]
    }

    /// Whether the order moves the stand (the chart's "Basic Move Allowance"): a
    /// moving stand is not stationary (CD-E11), loses its cover to opportunity fire
    /// unless advancing cautiously, and a battery attacks it once a stand.
    pub(super) fn moves(self) -> bool {
        matches!(self, Order::CautiousAdvance | Order::HastyAdvance | Order::Disengage)
    }

    /// The chart's General Fire penalty, as the card that gives it names it: "Yes
    /// (-2)" for Hasty Advance (Direct Fire To-Hit Modifiers), "Yes(-2)*" for the rest.
    pub(super) fn general_fire_modifier(self) -> Option<&'static str> {
        match self {
            Order::HastyAdvance => Some("hasty_advance"),
            Order::Disengage => Some("disengage"),
            Order::TakeCommand => Some("take_command"),
            Order::Hold | Order::CautiousAdvance => None,
        }
    }

    /// The "*": "May only fire if in physical contact".
    pub(super) fn contact_only(self) -> bool {
        matches!(self, Order::Disengage | Order::TakeCommand)
    }
}

/// The direct fire phases of a turn, in order (seed 000 "Combat").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum FirePhase {
    Prep,
    Opportunity,
    General,
}

impl FirePhase {
    pub(super) const ALL: [FirePhase; 3] = [FirePhase::Prep, FirePhase::Opportunity, FirePhase::General];
    pub(super) const NAMES: [&'static str; 3] = ["prep", "opportunity", "general"];

    /// The `phase` of a `fire` scenario.
    pub(super) fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}

/// Which companies the battalion issues Rally orders to (settings
/// `demoralized_companies` and `shaken_companies`).
#[derive(Debug, Clone, Copy)]
pub(super) struct Rally {
    pub(super) demoralized: bool,
    pub(super) shaken: bool,
}

impl CdBattle {
    /// Companies under a Rally order recover a step (CD-E4, CD-E10): demoralized
    /// becomes shaken, shaken becomes pinned ("Rally orders do not remove pin
    /// markers"), and a rallying company does not fire this turn. Returns which
    /// companies rally, as a bit per company per side.
    pub(super) fn rally(&self, field: &mut FieldOf<Self>) -> [u16; 2] {
        let mut rallying = [0u16; 2];
        for side in SIDES {
            for (c, m) in field.sides[side].companies.iter_mut().enumerate() {
                let recovered = match *m {
                    Morale::Demoralized if self.rally.demoralized => Morale::Shaken,
                    Morale::Shaken if self.rally.shaken => Morale::Pinned,
                    _ => continue,
                };
                *m = recovered;
                rallying[side] |= 1 << c;
            }
        }
        rallying
    }
}

/// The data line a stand fires with under its order: a personnel stand with a heavy
/// infantry weapon whose order moves it more than a cautious advance fires its "other"
/// line (seed 000, Restrictions), as the single fire under that order's modifier does.
pub(super) fn weapon_line(weapon: Weapon, kind: Kind) -> Weapon {
    let moved = kind
        .order
        .general_fire_modifier()
        .is_some_and(|m| crate::command_decision::scenario::MOVED_BEYOND_CAUTIOUS.contains(&m));
    match weapon.other {
        Some(other) if moved && kind.assaults => *other,
        _ => weapon,
    }
}
