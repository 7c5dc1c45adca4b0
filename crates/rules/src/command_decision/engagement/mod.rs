//! Command Decision engagements: the turn sequence of seed 000 as far as it touches
//! combat, stand by stand and company by company.
//!
//! Each turn (seed 000 "Sequence of Play"):
//! 1. Artillery phase: suppression markers come off; companies under a Rally order
//!    recover a step ("Rally Orders", CD-E4, CD-E10) and fire that turn only in
//!    contact. Each battery (`[[side.battery]]`) calls its mission: an artillery
//!    response roll unless self-observed, then its burst attacks every stand under
//!    it and suppresses them; the results land at the end of the phase (CD-E14).
//! 2. Vehicles within 12 in. of a visible enemy personnel stand in cover are
//!    suppressed ("Suppression" 3), -2 to their hit number.
//! 3. Prep fire, then opportunity fire: stands under a Hold order that the scenario
//!    has fire in one of these phases (`fires_in`) do so unless pinned; H class and HC
//!    fire there suppresses its targets; each phase's results land at its end
//!    (CD-E13).
//! 4. General Fire: every stand that may fire and has not fired this turn picks its
//!    target by the scenario's policy and fires; all fire is simultaneous and its
//!    results apply at the end of the phase ("Combat"). A pinned company fires at
//!    -2; a demoralized one never fires; a stand whose ammunition ran out fires no
//!    more (no resupply is in reach); an order's penalty applies (Orders Summary).
//!    Each fire is the compiled direct fire of `fire` (Hit Results Chart, AP, the
//!    natural-10 footnote, ammo depletion), so a shot here is a shot there.
//! 5. Command and Morale: each company fired at, within 12 in. of the enemy, or that
//!    saw a friendly company lose its last stand checks morale once, with its status,
//!    stands forced back and eliminated this turn and the enemy within 12 in.; the
//!    excess picks pinned, shaken, demoralized or eliminated ("Morale"). A pin comes
//!    off after a morale phase passed or not required.
//!
//! Readings are CD-E1 to CD-E14 in docs/interpretations.md.
//!
//! One module per phase or concern: [`orders`] (orders and Rally), [`batteries`] (the
//! Artillery Phase), [`fire`] (prep, opportunity and general fire), [`close_assault`]
//! (contact), [`morale`] (Command and Morale), and [`compile`] (the scenario read and
//! every shot compiled before the first turn).

mod batteries;
mod close_assault;
mod compile;
mod fire;
mod morale;
mod orders;

pub use morale::Morale;

use super::catalogue::Catalogue;
use super::tables::{HitResult, Tables};
use crate::engagement::schedule::Schedule;
use crate::engagement::target::{Fires, Targeting};
use crate::engagement::{Battle, Field, FieldOf, ForceOf, Layout, SIDES, enemy};
use crate::ruleset::SetUp;
use batteries::Battery;
use combat_odds_core::dice::D10;
use combat_odds_core::document::Document;
use combat_odds_core::engine::Streams;
use combat_odds_core::error::Result;
use combat_odds_core::exact::{Dist, TooLarge, Weight};
use compile::engagement;
use fire::{Shot, Variant};
use morale::{MoraleChart, each_check};
use orders::{FirePhase, Order, Rally};

/// Ranges are in inches (1 in. = 50 yards).
const INCHES: &str = "in.";

/// "Close proximity" (seed 000 "Morale", "Suppression" 3).
const CLOSE_PROXIMITY: f64 = 12.0;

/// The most companies a side may field (checks live in fixed arrays, so a turn
/// allocates nothing).
const MAX_COMPANIES: usize = 16;

/// A stand's condition between phases.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Stand {
    /// Removed from play.
    pub eliminated: bool,
    /// Out of ammunition (Ammo Depletion): it fires no more.
    pub depleted: bool,
    /// The worst result of fire at it this turn (`None`: not fired at); cleared
    /// after the morale phase.
    pub hit: Option<HitResult>,
    /// Suppressed by prep, opportunity or indirect fire this turn: -2 to its own
    /// fire until the next artillery phase.
    pub suppressed: bool,
    /// Fired at this phase by fire that suppresses; suppressed when the phase ends.
    pub suppression_lands: bool,
    /// Fired in an earlier phase this turn: "may never fire in more than one phase".
    pub fired: bool,
}

impl Stand {
    /// A fire's result on this stand, kept until the end of the phase: the worst
    /// result stands, and fire that suppresses marks it to be suppressed then.
    fn strike(&mut self, v: &Variant, result: HitResult) {
        self.hit = self.hit.max(Some(result));
        self.suppression_lands |= v.fire.suppresses();
    }
}

/// What a stand is, as far as the engagement's own rules ask.
#[derive(Debug, Clone, Copy)]
struct Kind {
    vehicle: bool,
    afv: bool,
    personnel_in_cover: bool,
    /// A personnel stand (mount `personnel`): in contact it close assaults.
    assaults: bool,
    order: Order,
    /// The phase before general fire it fires in (`fires_in`), if any.
    early: Option<FirePhase>,
}

/// A compiled Command Decision engagement.
pub struct CdBattle {
    layout: Layout,
    schedule: Schedule,
    fires: Fires<Shot>,
    targeting: Targeting,
    /// Per side, per unit entry.
    kinds: [Vec<Kind>; 2],
    /// Per side, per company: morale number with its standing modifiers.
    morale: [Vec<i32>; 2],
    chart: MoraleChart,
    rally: Rally,
    /// Per side, its batteries.
    batteries: [Vec<Battery>; 2],
    /// Whether any stand fires before the General Fire Phase.
    early_fire: bool,
}

impl CdBattle {
    fn living(&self, force: &ForceOf<Self>, side: usize, pred: impl Fn(Kind) -> bool) -> bool {
        let layout = &self.layout.sides[side];
        force.units.iter().enumerate().any(|(u, s)| !s.eliminated && pred(self.kinds[side][layout.group_of[u]]))
    }
}

impl Battle for CdBattle {
    type Unit = Stand;
    type Company = Morale;

    fn layout(&self) -> &Layout {
        &self.layout
    }

    fn initial(&self) -> FieldOf<Self> {
        Field {
            sides: SIDES.map(|s| crate::engagement::Force {
                companies: smallvec::smallvec![Morale::Steady; self.layout.sides[s].companies.len()],
                units: smallvec::smallvec![Stand::default(); self.layout.sides[s].units()],
                supports_spent: smallvec::smallvec![false; self.batteries[s].len()],
            }),
        }
    }

    fn eliminated(&self, stand: &Stand) -> bool {
        stand.eliminated
    }

    /// Between turns a stand is on the table or not, with ammunition or not (its
    /// hits, suppression and fire are the turn's alone); a company has its morale.
    fn conditions(&self) -> Option<(u32, u32)> {
        Some((4, Morale::NAMES.len() as u32))
    }

    /// A stand whose fire never runs dry (weapons under 20mm: no Ammo Depletion) is
    /// on the table or not between turns.
    fn entry_conditions(&self, side: usize, group: usize) -> Option<u32> {
        let targets = self.layout.sides[enemy(side)].groups.len();
        let dries = |v: &Variant| v.exact.iter().any(|(&(_, depleted), _)| depleted);
        let runs_dry = (0..targets).flat_map(|t| (0..self.fires.ranges()).map(move |r| (t, r))).any(|(t, r)| {
            self.fires
                .get(side, group, t, r)
                .is_some_and(|shot| shot.general.iter().chain(shot.early.iter().flatten()).any(dries))
        });
        (!runs_dry).then_some(2)
    }

    /// A turn plays by its range alone.
    fn turn_key(&self, turn: u32) -> u32 {
        self.schedule.index(turn) as u32
    }

    /// A stand that still has ammunition ahead of one that has run out: fire goes to
    /// the stands still firing (E4). Stands carry no other damage between turns.
    fn ahead(&self, a: &Stand, b: &Stand) -> std::cmp::Ordering {
        let line = |s: &Stand| (!s.eliminated, !s.depleted, s.hit);
        line(b).cmp(&line(a))
    }

    /// Broken: no company of the side can fire, each demoralized or gone (CD-E6).
    fn broken(&self, _side: usize, force: &ForceOf<Self>) -> bool {
        force.companies.iter().all(|m| *m >= Morale::Demoralized)
    }

    fn group_states(&self) -> &[&'static str] {
        &Morale::NAMES
    }

    /// The entry's company status, or eliminated when none of its stands is left.
    fn group_state(&self, side: usize, group: usize, force: &ForceOf<Self>) -> usize {
        let g = &self.layout.sides[side].groups[group];
        if force.units[g.units.clone()].iter().all(|s| s.eliminated) {
            Morale::Eliminated as usize
        } else {
            force.companies[g.company] as usize
        }
    }

    fn turn(&self, field: &mut FieldOf<Self>, turn: u32, streams: &mut Streams) {
        let rallying = self.rally(field);
        let suppressing = SIDES.map(|side| self.suppressed(field, side, turn));
        self.artillery(field, streams);
        for &phase in self.fire_phases() {
            self.fire_phase(field, (turn, phase), suppressing, rallying, streams);
        }
        let checks = self.checks(field, turn);
        for (side, c, morale) in each_check(&checks) {
            let face = D10.roll(&mut streams.morale);
            self.morale_result(field, side, c, self.morale_outcome(morale, face));
        }
        self.overrun(field, turn);
    }

    fn turn_exact<W: Weight>(
        &self,
        field: &FieldOf<Self>,
        turn: u32,
    ) -> std::result::Result<Dist<FieldOf<Self>, W>, TooLarge> {
        crate::engagement::by_phases(self, field, turn)
    }

    /// The Artillery Phase (after Rally orders), each direct fire phase the turn plays
    /// a side at a time, then Command and Morale.
    fn phases(&self, _turn: u32) -> usize {
        2 * self.fire_phases().len() + 2
    }

    fn phase_exact<W: Weight>(
        &self,
        start: &FieldOf<Self>,
        now: &FieldOf<Self>,
        turn: u32,
        phase: usize,
    ) -> std::result::Result<Dist<FieldOf<Self>, W>, TooLarge> {
        let fire_phases = self.fire_phases();
        if phase > 2 * fire_phases.len() {
            return self.morale_exact(now, turn);
        }
        // What the turn carries from its start: the companies that rally, and the
        // sides whose vehicles are suppressed (read once the rally is made).
        let mut rallied = start.clone();
        let rallying = self.rally(&mut rallied);
        if phase == 0 {
            return self.artillery_exact(&rallied);
        }
        let suppressing = SIDES.map(|side| self.suppressed(&rallied, side, turn));
        let (fire_phase, side) = ((phase - 1) / 2, SIDES[(phase - 1) % 2]);
        let when = ((turn, fire_phases[fire_phase]), side);
        let fired = self.side_fire_exact(now, when, suppressing, rallying)?;
        if phase < 2 * fire_phases.len() {
            return Ok(fired);
        }
        // The morale phase reads companies and counts an entry's stands alike, so
        // fields that differ only by the order within entries check as one.
        Ok(fired.map(|f| {
            let mut f = f.clone();
            crate::engagement::line_up(self, &mut f);
            f
        }))
    }
}

/// Compiles a Command Decision engagement scenario.
pub(super) fn set_up(doc: &Document, tables: &Tables, catalogue: &Catalogue) -> Result<SetUp> {
    engagement(doc, tables, catalogue).map(crate::engagement::set_up)
}

#[cfg(test)]
mod tests;
