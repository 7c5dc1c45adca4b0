//! The Command and Morale phase (seed 000 "Morale"): the Morale chart folded to
//! integers, the turn's losses read off each side, which companies check and against
//! what, and each check's result (CD-E6).

use super::{CLOSE_PROXIMITY, CdBattle, MAX_COMPANIES};
use crate::command_decision::tables::{HitResult, Tables};
use crate::engagement::{FieldOf, SIDES, enemy};
use combat_odds_core::dice::D10;
use combat_odds_core::exact::{Dist, TooLarge, Weight};

/// A company's morale status, in rising severity (seed 000 "Morale"). Shaken and
/// demoralized companies are pinned too.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Morale {
    /// No marker.
    Steady,
    /// Pinned: fires at -2 and checks at -2.
    Pinned,
    /// Shaken and pinned: checks at -3 until rallied.
    Shaken,
    /// Demoralized and pinned: never fires; checks at -4.
    Demoralized,
    /// Eliminated by a morale result.
    Eliminated,
}

impl Morale {
    pub(super) const NAMES: [&'static str; 5] = ["steady", "pinned", "shaken", "demoralized", "eliminated"];

    /// The result of failing by a band of the Morale Results chart (in its order).
    fn of_result(band: usize) -> Morale {
        [Morale::Pinned, Morale::Shaken, Morale::Demoralized, Morale::Eliminated][band]
    }
}

/// The Morale chart folded to integers before the first turn.
pub(super) struct MoraleChart {
    /// Modifier by status (steady, pinned, shaken, demoralized).
    status: [i32; 4],
    /// Modifier for n stands forced back / eliminated, n = 0..=most stands.
    forced_back: Vec<i32>,
    eliminated: Vec<i32>,
    enemy_personnel: i32,
    enemy_afv: i32,
    /// The result of failing by 1, 2, ... (the last repeats beyond).
    by_excess: Vec<Morale>,
}

impl MoraleChart {
    pub(super) fn new(tables: &Tables, most_stands: usize) -> Self {
        let chart = &tables.morale_modifiers;
        let per = |name: &str| (0..=most_stands).map(|n| chart.get(name).value(n as i32)).collect();
        let results = &tables.morale_results;
        MoraleChart {
            status: [0, chart.get("pinned").value(1), chart.get("shaken").value(1), chart.get("demoralized").value(1)],
            forced_back: per("stand_forced_back"),
            eliminated: per("stand_eliminated"),
            enemy_personnel: chart.get("enemy_personnel_within_12").value(1),
            enemy_afv: chart.get("enemy_afv_within_12").value(1),
            // A d10 exceeds a morale number of 0 or more by at most 10; lower numbers
            // by more, which the last band covers.
            by_excess: (1..=30).map(|e| Morale::of_result(results.bands.index(e))).collect(),
        }
    }

    fn result(&self, excess: i32) -> Morale {
        self.by_excess[(excess as usize - 1).min(self.by_excess.len() - 1)]
    }
}

/// The morale number each company checks against this turn (`None`: no check).
pub(super) type Checks = [[Option<i32>; MAX_COMPANIES]; 2];

/// What one side's fire-phase results leave for its morale phase, per company.
#[derive(Default, Clone, Copy)]
pub(super) struct Losses {
    forced_back: [usize; MAX_COMPANIES],
    eliminated: [usize; MAX_COMPANIES],
    fired_at: [bool; MAX_COMPANIES],
    /// A friendly company lost its last stand this turn (every company sees it).
    saw_loss: bool,
}

impl CdBattle {
    /// The Command and Morale phase from `fired` (the last fire phase's field), as a
    /// distribution: the turn's losses come off, each company that must check rolls its
    /// die, and in contact the demoralized are overrun.
    pub(super) fn morale_exact<W: Weight>(
        &self,
        fired: &FieldOf<Self>,
        turn: u32,
    ) -> std::result::Result<Dist<FieldOf<Self>, W>, TooLarge> {
        let mut f = fired.clone();
        let checks = self.checks(&mut f, turn);
        // Stands it took off the table line up behind those left.
        crate::engagement::line_up(self, &mut f);
        let checked = each_check(&checks).try_fold(Dist::certain(f), |acc, (side, c, morale)| {
            let die: Dist<Option<Morale>, W> = Dist::roll(D10, |face| self.morale_outcome(morale, face));
            acc.combine(&die, |f, &outcome| {
                let mut f = f.clone();
                self.morale_result(&mut f, side, c, outcome);
                f
            })
        })?;
        Ok(checked.map(|f| {
            let mut f = f.clone();
            self.overrun(&mut f, turn);
            f
        }))
    }

    /// The end of the fire phase: eliminated stands come off, a company that lost its
    /// last stand is gone, unrequired morale phases take pins off, and the companies
    /// that must check get their number.
    ///
    /// Fire is simultaneous and "the results of fire do not apply to a stand until the
    /// end of the fire phase" (seed 000 "Combat"): every side's results land before
    /// any company looks across at the enemy, so neither side sees stands it has just
    /// destroyed, whichever the scenario lists first.
    pub(super) fn checks(&self, field: &mut FieldOf<Self>, turn: u32) -> Checks {
        let close = self.schedule.range(turn) <= CLOSE_PROXIMITY;
        let losses = SIDES.map(|side| self.remove_losses(field, side));
        let mut checks = [[None; MAX_COMPANIES]; 2];
        for side in SIDES {
            let Losses { forced_back, eliminated, fired_at, saw_loss } = losses[side];
            let foe = enemy(side);
            let near_personnel = close && self.living(&field.sides[foe], foe, |k| !k.vehicle);
            let near_afv = close && self.living(&field.sides[foe], foe, |k| k.afv);
            for c in 0..self.layout.sides[side].companies.len() {
                let status = &mut field.sides[side].companies[c];
                if *status == Morale::Eliminated {
                    continue;
                }
                if !(fired_at[c] || near_personnel || near_afv || saw_loss) {
                    // An unrequired morale phase takes a pin off (shaken and demoralized keep theirs).
                    if *status == Morale::Pinned {
                        *status = Morale::Steady;
                    }
                    continue;
                }
                let ch = &self.chart;
                checks[side][c] = Some(
                    self.morale[side][c]
                        + ch.status[*status as usize]
                        + ch.forced_back[forced_back[c]]
                        + ch.eliminated[eliminated[c]]
                        + if near_personnel { ch.enemy_personnel } else { 0 }
                        + if near_afv { ch.enemy_afv } else { 0 },
                );
            }
        }
        checks
    }

    /// Reads the turn's fire off `side`'s stands (their hits, suppression and who
    /// fired are the turn's alone): a company left with no stand is eliminated at once
    /// (CD-E6: a side whose other companies are demoralized is broken the same turn).
    /// Returns what its morale phase reads.
    fn remove_losses(&self, field: &mut FieldOf<Self>, side: usize) -> Losses {
        let layout = &self.layout.sides[side];
        let force = &mut field.sides[side];
        let mut losses = Losses::default();
        let mut left = [false; MAX_COMPANIES];
        for (u, stand) in force.units.iter_mut().enumerate() {
            let c = layout.company_of(u);
            losses.fired_at[c] |= stand.hit.is_some();
            stand.suppressed = false;
            stand.fired = false;
            match stand.hit.take() {
                Some(HitResult::Eliminated) => {
                    stand.eliminated = true;
                    losses.eliminated[c] += 1;
                }
                Some(HitResult::ForcedBack) => losses.forced_back[c] += 1,
                _ => {}
            }
            left[c] |= !stand.eliminated;
        }
        for (c, status) in force.companies.iter_mut().enumerate() {
            if !left[c] {
                // A company that lost its last stand this turn is seen eliminated by the rest.
                losses.saw_loss |= losses.eliminated[c] > 0;
                *status = Morale::Eliminated;
            }
        }
        losses
    }

    /// What a company's morale die reads: `None` for a pass, else the result the
    /// excess picks. The exact turn weighs these, not the die's ten faces.
    pub(super) fn morale_outcome(&self, morale: i32, face: u32) -> Option<Morale> {
        let excess = face as i32 - morale;
        (excess > 0).then(|| self.chart.result(excess))
    }

    /// A company's morale die read ([`Self::morale_outcome`]): a pass takes a pin
    /// off; a failure worsens the status to the result; eliminated removes every
    /// stand of the company.
    pub(super) fn morale_result(
        &self,
        field: &mut FieldOf<Self>,
        side: usize,
        company: usize,
        outcome: Option<Morale>,
    ) {
        let force = &mut field.sides[side];
        let status = &mut force.companies[company];
        let Some(result) = outcome else {
            if *status == Morale::Pinned {
                *status = Morale::Steady;
            }
            return;
        };
        *status = (*status).max(result);
        if *status == Morale::Eliminated {
            self.eliminate_company(field, side, company);
        }
    }

    /// Removes every stand of a company, and the company with them.
    pub(super) fn eliminate_company(&self, field: &mut FieldOf<Self>, side: usize, company: usize) {
        let layout = &self.layout.sides[side];
        let force = &mut field.sides[side];
        force.companies[company] = Morale::Eliminated;
        for (u, stand) in force.units.iter_mut().enumerate() {
            if layout.company_of(u) == company {
                stand.eliminated = true;
            }
        }
    }
}

/// Every (side, company, morale number) that checks.
pub(super) fn each_check(checks: &Checks) -> impl Iterator<Item = (usize, usize, i32)> + '_ {
    SIDES.into_iter().flat_map(move |s| checks[s].iter().enumerate().filter_map(move |(c, m)| m.map(|m| (s, c, m))))
}
