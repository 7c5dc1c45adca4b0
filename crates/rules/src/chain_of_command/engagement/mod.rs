//! Chain of Command engagements: two forces fighting Phase after Phase (CoC-E1).
//!
//! Each engagement turn is one Phase of play (seed 002, 7.2: "At the start of each
//! Phase of play, the active player rolls their hand of Command Dice"). The active
//! side rolls the hand its Force Morale gives (`dice_by_force_morale.toml`, 7.1), the
//! allocation policy of [`PhaseDice`] turns it into Team, Section and Leader
//! activations (7.2-7.5), and each activated Team or Section fires at the enemy
//! ([`Fire`]: to-hit, effect by cover, Shock, Pinned and Broken, chain-of-command-facts.md
//! sections 1-2). Leaders' Orders also rally Shock away, split with fire as the
//! `rally` setting says (7.5.2), so Pinned and Broken last only until rallied. A Team or
//! Section that Breaks or is wiped out makes its force roll on
//! the "Bad Things Happen" table (`setbacks.toml`, section 4), and a force at Force
//! Morale 0 is broken. The hand's 6s decide who is active next (`sixes.toml`). The
//! per-Phase hand, its exact distribution and every fire are set up before the
//! first Phase, so a Phase neither fails nor allocates.
//!
//! The scenario read and every fire set up before the first Phase are in [`compile`].

mod compile;

use std::sync::OnceLock;

use num_bigint::BigUint;

use crate::chain_of_command::command_dice::{Allocation, PhaseDice};
use crate::chain_of_command::dice_tables::Sixes;
use crate::chain_of_command::force_morale::lowered;
use crate::chain_of_command::settings::Rally;
use crate::chain_of_command::shooting::{Fire, Firepower, TARGET_OUTCOMES, Thresholds, Unit, Volley};
use crate::chain_of_command::tables::Tables;
use crate::engagement::schedule::Schedule;
use crate::engagement::target::{Fires, Targeting};
use crate::engagement::{Battle, FieldOf, Force, ForceOf, Layout, SIDES, enemy};
use crate::ruleset::SetUp;
use combat_odds_core::dice::D6;
use combat_odds_core::document::Document;
use combat_odds_core::engine::Streams;
use combat_odds_core::error::Result;
use combat_odds_core::exact::{Dist, TooLarge, Weight};
use compile::engagement;

/// The distance unit of a Chain of Command engagement.
const INCHES: &str = "in.";

/// What a unit entry is: the two kinds of Unit the Command Dice activate (7.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Activated by a 1, or by a Leader's Order.
    Team,
    /// Activated by a 2, or by a Leader's Order.
    Section,
}

const KINDS: [&str; 2] = ["team", "section"];

/// One side's Force Morale and whether it holds the Phase.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ForceState {
    /// Force Morale, floored at 0.
    pub force_morale: u32,
    /// This side is the active player in the coming Phase.
    pub active: bool,
}

/// A unit entry, set up.
#[derive(Debug, Clone)]
struct Entry {
    kind: Kind,
    /// Firepower dice before Shock and Pinning.
    base: u32,
    /// Its units' condition before the first Phase.
    start: Unit,
}

/// The activations one Phase's hand leaves to spend (CoC-E3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Hash, Ord)]
struct Activations {
    teams: u8,
    sections: u8,
    orders: u8,
}

impl Activations {
    fn of(a: &Allocation) -> Self {
        Activations { teams: a.teams, sections: a.sections, orders: a.orders }
    }

    /// Whether a unit of `kind` can still be activated: by its own die, or an Order.
    fn can(&self, kind: Kind) -> bool {
        self.orders > 0 || self.direct(kind) > 0
    }

    fn direct(&self, kind: Kind) -> u8 {
        match kind {
            Kind::Team => self.teams,
            Kind::Section => self.sections,
        }
    }

    /// Spends the unit's own die if one is left, else an Order.
    fn take(&mut self, kind: Kind) {
        let direct = match kind {
            Kind::Team => &mut self.teams,
            Kind::Section => &mut self.sections,
        };
        if *direct > 0 {
            *direct -= 1;
        } else {
            self.orders -= 1;
        }
    }
}

/// The conditions Orders rally a unit out of, the worst first (CoC-E10).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shaken {
    /// Broken: it cannot activate.
    Broken,
    /// Pinned: its firepower is halved.
    Pinned,
    /// Any Shock: a firepower die lost per 2 points.
    Shocked,
}

/// What one hand comes to in an engagement: the activations and the sixes row.
type PhaseOutcome = (Activations, usize);

/// The hand of one size for every count of Sections and Teams able to act.
struct HandSize {
    /// Sections and Teams counted up to this (a hand can activate no more by dice).
    s_max: usize,
    t_max: usize,
    phases: Vec<PhaseDice>,
    exact: Vec<OnceLock<Result<Dist<PhaseOutcome, BigUint>, TooLarge>>>,
}

impl HandSize {
    fn slot(&self, sections: usize, teams: usize) -> usize {
        sections.min(self.s_max) * (self.t_max + 1) + teams.min(self.t_max)
    }
}

/// One side's Command Dice: the hand at each Force Morale level.
struct Command {
    /// Index into `sizes` by Force Morale (none where the table lists no dice).
    by_level: Vec<Option<usize>>,
    sizes: Vec<HandSize>,
}

impl Command {
    fn hand(&self, force_morale: u32) -> Option<&HandSize> {
        self.by_level.get(force_morale as usize).copied().flatten().map(|i| &self.sizes[i])
    }
}

/// A Chain of Command engagement's rules, set up.
pub struct Skirmish {
    layout: Layout,
    schedule: Schedule,
    entries: [Vec<Entry>; 2],
    start: [u32; 2],
    command: [Command; 2],
    fires: Fires<Fire>,
    targeting: Targeting,
    firepower: Firepower,
    thresholds: Thresholds,
    sixes: Sixes,
    /// Setback changes by face: [kind][0 breaks, 1 wiped out].
    setbacks: [[[i32; 6]; 2]; 2],
    wiped_out_after_breaking: bool,
    /// How Orders are split between fire and rallying (CoC-E10).
    rally: Rally,
    /// The bound on distinct fields (CoC-E9): the exact solver is tried only within
    /// [`EXACT_FIELDS`].
    bound: u64,
    /// The side that takes Phase 1.
    first: usize,
}

/// The most distinct fields an engagement may be able to reach for the exact solver
/// to be tried: past it Monte Carlo answers alone, at once rather than after the
/// solver has spent minutes finding the states too many.
pub(crate) const EXACT_FIELDS: u64 = 1_000_000;

/// An upper bound on the fields an engagement can reach: per unit, every (figures,
/// Shock) up to the most Shock it can hold, plus wiped out, counted per entry as the
/// exact chain lumps them (how many of its units stand in each, not which: n units over
/// k conditions make C(n + k - 1, n) lines); per side every Force Morale from the start
/// down to 0; and who is active. Where no one rallies the most Shock is the capped
/// Shock of a Broken unit. Where units rally no Shock is forgotten, and a unit holds at
/// most its start plus, in each of the `turns` Phases, one point per firepower die the
/// enemy has: a bound that grows with the fight, so only short ones stay exact.
fn field_bound(
    entries: &[Vec<Entry>; 2],
    layout: &Layout,
    start: &[u32; 2],
    thresholds: &Thresholds,
    rallies: bool,
    turns: u32,
) -> u64 {
    let line =
        |t: &crate::chain_of_command::shooting::Threshold, f: u32| u64::from(f * t.multiple + u32::from(!t.at_least));
    let dice = SIDES.map(|s| layout.sides[s].group_of.iter().map(|&g| u64::from(entries[s][g].base)).sum::<u64>());
    let mut bound: u64 = 2;
    for s in SIDES {
        bound = bound.saturating_mul(u64::from(start[s]) + 1);
        for (g, group) in layout.sides[s].groups.iter().enumerate() {
            let entry = &entries[s][g].start;
            let most_shock = u64::from(entry.shock).saturating_add(u64::from(turns).saturating_mul(dice[enemy(s)]));
            // Every Shock from 0 to the most held, at each count of figures, and wiped out.
            let k: u64 = (1..=entry.figures)
                .map(|f| match rallies {
                    true => most_shock.saturating_add(1),
                    false => 1 + line(&thresholds.broken, f).max(line(&thresholds.pinned, f)),
                })
                .fold(1, u64::saturating_add);
            bound = bound.saturating_mul(multisets(k, u64::from(group.count)));
        }
    }
    bound
}

/// How many ways `n` interchangeable units can stand over `k` conditions:
/// C(n + k - 1, n), saturating at `u64::MAX`.
fn multisets(k: u64, n: u64) -> u64 {
    // Each partial product C(k - 1 + i, i) is whole, so the division is exact.
    (1..=n).try_fold(1u64, |acc, i| acc.checked_mul(k - 1 + i).map(|p| p / i)).unwrap_or(u64::MAX)
}

/// Which setback a hit brings: none, Breaking (0) or being wiped out (1).
fn event(thresholds: &Thresholds, before: &Unit, after: &Unit, wiped_after_breaking: bool) -> Option<usize> {
    let was_broken = before.figures > 0 && thresholds.broken.reached(before.figures, before.shock);
    if after.figures == 0 && before.figures > 0 {
        (!was_broken || wiped_after_breaking).then_some(1)
    } else if after.figures > 0 && !was_broken && thresholds.broken.reached(after.figures, after.shock) {
        Some(0)
    } else {
        None
    }
}

impl Skirmish {
    fn pinned(&self, u: &Unit) -> bool {
        u.figures > 0 && self.thresholds.pinned.reached(u.figures, u.shock)
    }

    fn is_broken(&self, u: &Unit) -> bool {
        u.figures > 0 && self.thresholds.broken.reached(u.figures, u.shock)
    }

    /// A unit with its Shock capped where more changes nothing: where no one rallies,
    /// a Broken unit neither fires nor recovers, and stays Pinned and Broken as figures
    /// fall, so Shock past both lines is forgotten; a wiped out unit keeps none
    /// (2e: "When a Team is wiped out, its Shock is removed"). This keeps the exact
    /// solver's states few (CoC-E5). Where units rally every point counts: each is an
    /// Order to rally away.
    fn settle(&self, u: Unit) -> Unit {
        if u.figures == 0 {
            return Unit { figures: 0, shock: 0 };
        }
        if self.rally != Rally::Never || !self.is_broken(&u) {
            return u;
        }
        let line = |t: &crate::chain_of_command::shooting::Threshold| u.figures * t.multiple + u32::from(!t.at_least);
        Unit {
            figures: u.figures,
            shock: u.shock.min(line(&self.thresholds.broken).max(line(&self.thresholds.pinned))),
        }
    }

    /// Whether `u` stands in condition `c`, the worst first of the order rallying
    /// works down through.
    fn shaken(&self, u: &Unit, c: Shaken) -> bool {
        match c {
            Shaken::Broken => self.is_broken(u),
            Shaken::Pinned => self.pinned(u),
            Shaken::Shocked => u.figures > 0 && u.shock > 0,
        }
    }

    /// Spends `orders` rallying `force` (7.5.2: "removing one point of Shock for each
    /// Order they use"): for each condition of `passes` in turn, every unit in it, in
    /// the order the field lines them up, loses a point of Shock per Order until it is
    /// out of that condition or the Orders run out. Pinned and Broken are read afresh
    /// after every point, so a unit rallied below the Broken line before fire may be
    /// activated in this Phase (a rally is not an activation, 7.5.2).
    fn rally(&self, force: &mut ForceOf<Self>, orders: &mut u8, passes: &[Shaken]) {
        for &c in passes {
            for u in &mut force.units {
                while *orders > 0 && self.shaken(u, c) {
                    u.shock -= 1;
                    *orders -= 1;
                }
            }
        }
    }

    /// The rallies made before anyone fires, then those made with the Orders left
    /// after firing (CoC-E10).
    fn rallies(&self) -> (&'static [Shaken], &'static [Shaken]) {
        const AFTER: &[Shaken] = &[Shaken::Broken, Shaken::Pinned, Shaken::Shocked];
        match self.rally {
            Rally::BrokenFirst => (&[Shaken::Broken], AFTER),
            Rally::PinnedFirst => (&[Shaken::Broken, Shaken::Pinned], AFTER),
            Rally::Leftover => (&[], AFTER),
            Rally::Never => (&[], &[]),
        }
    }

    fn active(field: &FieldOf<Self>) -> usize {
        usize::from(!field.sides[0].companies[0].active)
    }

    /// The hand the active side rolls this Phase, if its Force Morale lists dice.
    fn phase_dice(&self, side: usize, force: &ForceOf<Self>) -> Option<(&HandSize, usize)> {
        let hand = self.command[side].hand(force.companies[0].force_morale)?;
        let (mut sections, mut teams) = (0, 0);
        for (u, unit) in force.units.iter().enumerate() {
            // Broken units cannot be activated (facts 2: "cannot activate").
            if unit.figures > 0 && !self.is_broken(unit) {
                match self.entries[side][self.layout.sides[side].group_of[u]].kind {
                    Kind::Team => teams += 1,
                    Kind::Section => sections += 1,
                }
            }
        }
        Some((hand, hand.slot(sections, teams)))
    }

    /// Whether unit `u` of `side` fires with the activations left, and if so at which
    /// enemy unit and with how many dice (one at least); spends the activation.
    fn pick(
        &self,
        side: usize,
        u: usize,
        range: usize,
        own: &ForceOf<Self>,
        foe: &ForceOf<Self>,
        act: &mut Activations,
    ) -> Option<(usize, &Fire, u32)> {
        let firer = &own.units[u];
        let g = self.layout.sides[side].group_of[u];
        let kind = self.entries[side][g].kind;
        if firer.figures == 0 || self.is_broken(firer) || !act.can(kind) {
            return None;
        }
        let target = self.targeting.choose(&self.layout, side, g, u, range, |v| foe.units[v].figures > 0)?;
        let t = self.layout.sides[enemy(side)].group_of[target];
        let fire = self.fires.get(side, g, t, range)?;
        // A unit its Shock leaves no dice is not activated: the Order can rally instead.
        let dice = self.firepower.dice(self.entries[side][g].base, firer.shock, false, self.pinned(firer));
        if dice == 0 {
            return None;
        }
        act.take(kind);
        Some((target, fire, dice))
    }

    /// The setback a hit on enemy unit `target` of `side`'s enemy brings, as a row.
    fn setback(&self, side: usize, target: usize, before: &Unit, after: &Unit) -> Option<&[i32; 6]> {
        let e = enemy(side);
        let kind = self.entries[e][self.layout.sides[e].group_of[target]].kind as usize;
        event(&self.thresholds, before, after, self.wiped_out_after_breaking).map(|ev| &self.setbacks[kind][ev])
    }

    /// The active flags after a Phase whose hand fell on sixes row `row`.
    fn pass(&self, field: &mut FieldOf<Self>, side: usize, row: usize) {
        let next = if self.sixes.rows[row].keeps_phase { side } else { enemy(side) };
        for s in SIDES {
            field.sides[s].companies[0].active = s == next;
        }
    }
}

impl Battle for Skirmish {
    type Unit = Unit;
    type Company = ForceState;

    fn layout(&self) -> &Layout {
        &self.layout
    }

    fn out_of_reach(&self) -> Option<String> {
        (self.bound > EXACT_FIELDS).then(|| {
            format!(
                "up to {} distinct fields, past the exact solver's {EXACT_FIELDS}: Monte Carlo answers alone",
                self.bound
            )
        })
    }

    fn initial(&self) -> FieldOf<Self> {
        crate::engagement::Field {
            sides: SIDES.map(|s| Force {
                companies: smallvec::smallvec![ForceState { force_morale: self.start[s], active: s == self.first }],
                units: self.layout.sides[s].group_of.iter().map(|&g| self.settle(self.entries[s][g].start)).collect(),
                supports_spent: smallvec::SmallVec::new(),
            }),
        }
    }

    fn eliminated(&self, unit: &Unit) -> bool {
        unit.figures == 0
    }

    /// Fewer figures left ahead (none left the worst), then more Shock (E4).
    fn ahead(&self, a: &Unit, b: &Unit) -> std::cmp::Ordering {
        let severity = |u: &Unit| (std::cmp::Reverse(u.figures), u.shock);
        severity(b).cmp(&severity(a))
    }

    /// Force Morale 0 (CoC-E2).
    fn broken(&self, _side: usize, force: &ForceOf<Self>) -> bool {
        force.companies[0].force_morale == 0
    }

    fn group_states(&self) -> &[&'static str] {
        &TARGET_OUTCOMES
    }

    /// The least severe condition among the entry's units (CoC-E8).
    fn group_state(&self, side: usize, group: usize, force: &ForceOf<Self>) -> usize {
        let units = self.layout.sides[side].groups[group].units.clone();
        force.units[units]
            .iter()
            .map(|u| {
                if u.figures == 0 {
                    3
                } else if self.is_broken(u) {
                    2
                } else {
                    usize::from(self.pinned(u))
                }
            })
            .min()
            .unwrap_or(3)
    }

    fn turn(&self, field: &mut FieldOf<Self>, turn: u32, streams: &mut Streams) {
        let side = Self::active(field);
        let range = self.schedule.index(turn);
        let (mut act, row) = match self.phase_dice(side, &field.sides[side]) {
            Some((hand, slot)) => {
                let roll = hand.phases[slot].roll(&mut streams.command);
                (Activations::of(&roll.allocation), roll.sixes as usize)
            }
            // A level the dice table does not list rolls no dice: no activation, no 6.
            None => (Activations::of(&Allocation::default()), 0),
        };
        let (before, after) = self.rallies();
        let [a, b] = &mut field.sides;
        let (own, foe) = if side == 0 { (a, b) } else { (b, a) };
        self.rally(own, &mut act.orders, before);
        for u in 0..own.units.len() {
            let Some((target, fire, dice)) = self.pick(side, u, range, own, foe, &mut act) else { continue };
            let before = foe.units[target];
            let after = self.settle(Fire::after(&before, &fire.roll_dice(dice, &before, streams)));
            foe.units[target] = after;
            if let Some(change) = self.setback(side, target, &before, &after) {
                let fm = &mut foe.companies[0].force_morale;
                *fm = lowered(*fm, change[D6.roll(&mut streams.morale) as usize - 1]);
            }
        }
        self.rally(own, &mut act.orders, after);
        self.pass(field, side, row);
    }

    fn turn_exact<W: Weight>(&self, field: &FieldOf<Self>, turn: u32) -> Result<Dist<FieldOf<Self>, W>, TooLarge> {
        if self.bound > EXACT_FIELDS {
            return Err(TooLarge);
        }
        let side = Self::active(field);
        let range = self.schedule.index(turn);
        let hands = match self.phase_dice(side, &field.sides[side]) {
            Some((hand, slot)) => hand.exact[slot]
                .get_or_init(|| {
                    Ok(hand.phases[slot].distribution()?.map(|r| (Activations::of(&r.allocation), r.sixes as usize)))
                })
                .clone()?,
            None => Dist::certain((Activations::of(&Allocation::default()), 0)),
        };
        let (before, after) = self.rallies();
        // Weighed in big integers: a hand of Command Dice is (`distribution`).
        let weighed: Dist<FieldOf<Self>, BigUint> = hands.try_then(|&(mut act, row)| {
            // Rallying rolls no dice: the force the active side fires with is one field.
            let mut own = field.sides[side].clone();
            self.rally(&mut own, &mut act.orders, before);
            let own = &own;
            let mut foes: Dist<(ForceOf<Self>, Activations), BigUint> =
                Dist::certain((field.sides[enemy(side)].clone(), act));
            for u in 0..own.units.len() {
                foes = foes.try_then(|(foe, act)| {
                    let mut act = *act;
                    let Some((target, fire, dice)) = self.pick(side, u, range, own, foe, &mut act) else {
                        return Ok(Dist::certain((foe.clone(), act)));
                    };
                    let before = foe.units[target];
                    let volleys = Dist::from_weights(fire.effect_dist_of(dice, fire.cover_of(&before)))?;
                    volleys.try_then(|&(shock, kills)| {
                        let after = self.settle(Fire::after(&before, &Volley { hits: shock + kills, shock, kills }));
                        let mut next = foe.clone();
                        next.units[target] = after;
                        Ok(match self.setback(side, target, &before, &after) {
                            None => Dist::certain((next, act)),
                            Some(change) => Dist::roll(D6, |f| {
                                let mut n = next.clone();
                                n.companies[0].force_morale =
                                    lowered(n.companies[0].force_morale, change[f as usize - 1]);
                                (n, act)
                            }),
                        })
                    })
                })?;
            }
            Ok(foes.map(|(foe, act)| {
                let mut f = field.clone();
                f.sides[side] = own.clone();
                f.sides[enemy(side)] = foe.clone();
                let mut orders = act.orders;
                self.rally(&mut f.sides[side], &mut orders, after);
                self.pass(&mut f, side, row);
                f
            }))
        })?;
        weighed.to_weights()
    }
}

/// Compiles an engagement scenario.
pub fn set_up(doc: &Document, tables: &Tables) -> Result<SetUp> {
    engagement(doc, tables).map(crate::engagement::set_up)
}

#[cfg(test)]
mod tests;
