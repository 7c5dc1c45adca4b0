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

use std::collections::BTreeMap;
use std::sync::OnceLock;

use num_bigint::BigUint;
use num_traits::Zero;
use serde::Deserialize;
use toml::Spanned;

use super::command_dice::{Allocation, Hand, PhaseDice, Policy};
use super::dice_tables::Sixes;
use super::force_morale::lowered;
use super::scenario::{MOST_DICE, MOST_FIGURES, RawWeaponUse, base_firepower, fire_at, platoon};
use super::settings::{Rally, RawSettings, Settings};
use super::shooting::{Fire, Firepower, QUALITIES, TARGET_OUTCOMES, Thresholds, Unit, Volley};
use super::tables::Tables;
use crate::engagement::scenario::{self, NoSupport, read};
use crate::engagement::schedule::Schedule;
use crate::engagement::target::{Fires, Targeting};
use crate::engagement::{Battle, Engagement, FieldOf, Force, ForceOf, Layout, SIDES, enemy};
use crate::ruleset::SetUp;
use crate::setup::{choice, count};
use combat_odds_core::dice::{D6, Ratio};
use combat_odds_core::document::Document;
use combat_odds_core::engine::Streams;
use combat_odds_core::error::{Result, unknown};
use combat_odds_core::exact::{Dist, TooLarge, Weight};

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

/// A unit entry as a scenario writes it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawUnit {
    name: Spanned<String>,
    count: Option<Spanned<i64>>,
    company: Option<Spanned<String>>,
    kind: Spanned<String>,
    quality: Option<Spanned<String>>,
    figures: Spanned<i64>,
    shock: Option<Spanned<i64>>,
    cover: Spanned<String>,
    firepower: Option<Spanned<i64>>,
    #[serde(default)]
    weapons: Vec<RawWeaponUse>,
    range_bands: Spanned<BTreeMap<String, Spanned<f64>>>,
}

scenario::unit_entry!(RawUnit);

/// A side's force: its Force Morale and its hand of Command Dice.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawForce {
    name: Spanned<String>,
    force_morale: Option<Spanned<i64>>,
    #[serde(default)]
    red_dice: bool,
    #[serde(default)]
    elite: bool,
    policy: Option<Spanned<String>>,
    leaders: Option<BTreeMap<String, Spanned<i64>>>,
}

scenario::company_entry!(RawForce);

/// The rest of the document an engagement reads: the settings.
#[derive(Deserialize)]
struct RawRest {
    #[serde(default)]
    settings: RawSettings,
}

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
    let line = |t: &super::shooting::Threshold, f: u32| u64::from(f * t.multiple + u32::from(!t.at_least));
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
        let line = |t: &super::shooting::Threshold| u.figures * t.multiple + u32::from(!t.at_least);
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

/// The engagement a scenario sets up, with the notes its set-up wrote.
fn engagement(doc: &Document, tables: &Tables) -> Result<(Engagement<Skirmish>, Vec<String>)> {
    let setup = read::<RawUnit, RawForce, NoSupport>(doc, INCHES)?;
    let rest: RawRest = doc.parse()?;
    let settings = Settings::resolve(doc, &rest.settings, "engagement", &tables.shooting)?;
    let Settings { wiped_out_after_breaking, rally, .. } = settings;
    let t = &tables.shooting;
    let mut notes = vec![format!(
        "one turn is one Phase: the active side rolls its Command Dice, its activated Teams and Sections fire in the order listed, and its 6s say who takes the next Phase; the {} side takes Phase 1; range {}",
        setup.layout.sides[setup.first].name,
        setup.schedule.describe(INCHES)
    )];
    let bands: Vec<&str> = t.to_hit.iter().map(|(b, ..)| b.as_str()).collect();
    let covers: Vec<&str> = t.effect.iter().map(|(c, ..)| c.as_str()).collect();

    // Unit entries: kind, figures, firepower, quality, cover and range bands.
    let mut entries: [Vec<Entry>; 2] = [Vec::new(), Vec::new()];
    let mut quality = [Vec::new(), Vec::new()];
    let mut cover = [Vec::new(), Vec::new()];
    let mut edges: [Vec<Vec<f64>>; 2] = [Vec::new(), Vec::new()];
    for s in SIDES {
        for raw in &setup.units[s] {
            let (at, u) = (raw.span().start, raw.get_ref());
            let name = u.name.get_ref();
            let kind =
                if choice(doc, Some(&u.kind), "unit kind", &KINDS, "")? == "team" { Kind::Team } else { Kind::Section };
            let q = choice(doc, u.quality.as_ref(), "troop quality", &QUALITIES, "regular")?;
            let c = choice(doc, Some(&u.cover), "cover", &covers, "")?;
            let figures = count(doc, &Some(u.figures.clone()), "figures", 1, MOST_FIGURES, 1)?;
            let shock = count(doc, &u.shock, "shock", 0, MOST_DICE, 0)?;
            let mut weapon_notes = Vec::new();
            let base = base_firepower(doc, t, Some(at), &u.firepower, &u.weapons, &mut weapon_notes)?;
            let mut edge = vec![f64::NAN; bands.len()];
            for (key, value) in u.range_bands.get_ref() {
                let Some(b) = bands.iter().position(|b| b == key) else {
                    return Err(doc.error_at(value.span().start, unknown("range band", key, bands.iter().copied())));
                };
                let v = *value.get_ref();
                if !(v.is_finite() && v >= 0.0) {
                    return Err(
                        doc.error_at(value.span().start, format!("range band `{key}` must reach 0 {INCHES} or more"))
                    );
                }
                edge[b] = v;
            }
            if let Some(missing) = edge.iter().position(|e| e.is_nan()) {
                return Err(doc.error_at(
                    u.range_bands.span().start,
                    format!(
                        "unit `{name}`: `range_bands` gives no `{}`; give the outer edge in inches of every to-hit band ({}), none being found in any source",
                        bands[missing],
                        bands.join(", ")
                    ),
                ));
            }
            if let Some(w) = edge.windows(2).position(|w| w[1] < w[0]) {
                return Err(doc.error_at(
                    u.range_bands.span().start,
                    format!(
                        "unit `{name}`: range band `{}` ends at {} {INCHES}, short of `{}` at {} {INCHES}; each band must reach at least as far as the one before",
                        bands[w + 1],
                        edge[w + 1],
                        bands[w],
                        edge[w]
                    ),
                ));
            }
            notes.push(format!(
                "{}: {} x {} ({kind:?}), {figures} figures, {shock} Shock, {q}, {} cover, {base} firepower dice; {}",
                setup.layout.sides[s].name,
                u.count.as_ref().map_or(1, |c| *c.get_ref()),
                name,
                t.effect[covers.iter().position(|x| *x == c).expect("a listed cover")].1,
                bands.iter().zip(&edge).map(|(b, e)| format!("{b} to {e} {INCHES}")).collect::<Vec<_>>().join(", ")
            ));
            notes.extend(weapon_notes);
            entries[s].push(Entry { kind, base, start: Unit { figures, shock } });
            quality[s].push(QUALITIES.iter().position(|x| *x == q).expect("a listed quality"));
            cover[s].push(covers.iter().position(|x| *x == c).expect("a listed cover"));
            edges[s].push(edge);
        }
    }

    // Each (firer, target, range): the band the range falls in, the to-hit column by
    // the setting, and the target's cover; ranked by the chance one volley from fresh
    // firers Breaks or wipes out a fresh target.
    let firepower = Firepower::new(t, settings.pinned_effects, settings.halves_round_up);
    let thresholds = t.thresholds[settings.thresholds];
    let fires = Fires::build(
        doc,
        (&setup.layout, &setup.schedule),
        INCHES,
        (|s, g| setup.units[s][g].span().start, |_, _| false),
        |s, g, tg, r| {
            let range = setup.schedule.ranges[r];
            let Some(band) = edges[s][g].iter().position(|e| range <= *e) else { return Ok(None) };
            let e = enemy(s);
            let column = if settings.to_hit_by_target { quality[e][tg] } else { quality[s][g] };
            let target = entries[e][tg].start;
            let fire =
                fire_at(t, &settings, band, column, entries[s][g].base, cover[e][tg], target.figures, target.shock);
            let weights = fire.effect_dist_of(entries[s][g].base, fire.cover_of(&target));
            let (mut out, mut total) = (BigUint::zero(), BigUint::zero());
            for ((shock, kills), w) in weights {
                let after = Fire::after(&target, &Volley { hits: shock + kills, shock, kills });
                if after.figures == 0 || thresholds.broken.reached(after.figures, after.shock) {
                    out += &w;
                }
                total += w;
            }
            Ok(Some((fire, Ratio::from_big(out, total).to_f64())))
        },
    )?;
    let targeting = Targeting::new(setup.targets, &fires);

    // Forces: Force Morale, hand, leaders, policy.
    let levels = &tables.dice_by_force_morale;
    let highest = levels.levels.iter().map(|(fm, _)| *fm).max().expect("the dice table lists levels");
    let mut start = [0; 2];
    let mut command = Vec::new();
    for s in SIDES {
        let side = &setup.layout.sides[s];
        let force = match setup.companies[s].as_slice() {
            [] => {
                return Err(doc.error(format!(
                    "side `{}` has no force: add one [[side.company]] with its `force_morale` (1 to {highest}) and Command Dice",
                    side.name
                )));
            }
            [one] => one,
            [_, second, ..] => {
                return Err(doc.error_at(
                    second.get_ref().name.span().start,
                    format!(
                        "side `{}`: a Chain of Command side is one force with one Force Morale and one hand of Command Dice; list one [[side.company]]",
                        side.name
                    ),
                ));
            }
        };
        let (at, f) = (force.span().start, force.get_ref());
        let Some(fm) = &f.force_morale else {
            return Err(doc.error_at(at, format!("force `{}` needs `force_morale` (1 to {highest})", f.name.get_ref())));
        };
        let fm_value = *fm.get_ref();
        let level = u32::try_from(fm_value).ok().filter(|l| levels.dice_at(*l).is_some()).ok_or_else(|| {
            let lowest = levels.levels.iter().map(|(fm, _)| *fm).min().expect("listed");
            doc.error_at(
                fm.span().start,
                format!("force_morale = {fm_value}: dice_by_force_morale.toml lists levels {lowest} to {highest}"),
            )
        })?;
        let policy = choice(doc, f.policy.as_ref(), "allocation policy", &Policy::NAMES, "max_senior")?;
        let policy = Policy::named(policy).expect("a listed policy");
        let units = &entries[s];
        let n_of = |k: Kind| side.group_of.iter().filter(|&&g| units[g].kind == k).count();
        let (sections, teams) = (n_of(Kind::Section), n_of(Kind::Team));
        let mut leaders = match &f.leaders {
            None => {
                let defaults = [("senior_leader", 1), ("junior_leader", sections as i64)];
                let raw = defaults.iter().map(|(k, n)| (k.to_string(), Spanned::new(0..0, *n))).collect();
                platoon(doc, tables, Some(raw))?
            }
            Some(raw) => {
                if let Some((key, v)) = raw.iter().find(|(k, _)| k.as_str() == "sections" || k.as_str() == "teams") {
                    return Err(doc.error_at(
                        v.span().start,
                        format!("`{key}` in `leaders`: the force's Sections and Teams are its [[side.unit]] entries; list only Leaders here"),
                    ));
                }
                platoon(doc, tables, Some(raw.clone()))?
            }
        };
        let described: Vec<String> =
            leaders.leaders.iter().filter(|(_, n)| *n > 0).map(|(k, n)| format!("{n} {k}")).collect();
        notes.push(format!(
            "{}: Force Morale {level}; {}{}{}; policy {}; leaders {} (never hit: no source gives Leader casualties)",
            side.name,
            describe_dice(levels, level),
            if f.red_dice { ", the Red Dice" } else { "" },
            if f.elite { ", Elite" } else { "" },
            policy.name(),
            described.join(", ")
        ));
        // One hand per distinct size at the levels this force can reach (Force Morale
        // only falls), each for every count of Sections and Teams able to act.
        let mut by_level = vec![None; level as usize + 1];
        let mut sizes: Vec<(u32, HandSize)> = Vec::new();
        for l in 0..=level {
            let Some(dice) = levels.dice_at(l) else { continue };
            let i = match sizes.iter().position(|(d, _)| *d == dice) {
                Some(i) => i,
                None => {
                    let cap = dice as usize + usize::from(f.red_dice);
                    let (s_max, t_max) = (sections.min(cap), teams.min(cap));
                    let hand = Hand { dice: dice as u8, red_dice: f.red_dice, elite: f.elite };
                    let mut phases = Vec::new();
                    for sc in 0..=s_max {
                        for tc in 0..=t_max {
                            leaders.sections = sc as u32;
                            leaders.teams = tc as u32;
                            phases.push(PhaseDice::new(tables.dice.clone(), hand, &leaders, policy));
                        }
                    }
                    let exact = phases.iter().map(|_| OnceLock::new()).collect();
                    sizes.push((dice, HandSize { s_max, t_max, phases, exact }));
                    sizes.len() - 1
                }
            };
            by_level[l as usize] = Some(i);
        }
        start[s] = level;
        command.push(Command { by_level, sizes: sizes.into_iter().map(|(_, h)| h).collect() });
    }

    // Setbacks: a Team or Section Breaking or wiped out (setbacks.toml).
    let rows = &tables.force_morale.setbacks.rows;
    let row = |event: &str| -> Result<[i32; 6]> {
        let r = rows.iter().find(|r| r.event == event).ok_or_else(|| {
            doc.error(format!("an engagement needs setback `{event}` of setbacks.toml, which the tables in use lack"))
        })?;
        r.known().ok_or_else(|| {
            doc.error(format!(
                "an engagement rolls setback `{event}`, and a cell of its row is \"?\" (cut off in the source); supply it through a table override of chain-of-command/setbacks.toml"
            ))
        })
    };
    let setbacks = [[row("team_breaks")?, row("team_wiped_out")?], [row("section_breaks")?, row("section_wiped_out")?]];
    notes.push(format!(
        "a Team or Section that Breaks or is wiped out rolls its setback on its force's Force Morale{}; a force at Force Morale 0 is broken",
        if wiped_out_after_breaking { " (a Broken one wiped out later rolls again)" } else { " (once: a Broken one wiped out later rolls nothing more)" }
    ));
    notes.push(match rally {
        Rally::Never => "no Leader rallies (rally = \"never\"): Shock stays, so Pinned and Broken last".to_string(),
        r => format!(
            "Leaders' Orders rally one point of Shock each (7.5.2), {}; Orders left after firing rally the rest, Broken units first, then Pinned, then any Shock",
            match r {
                Rally::BrokenFirst => "Broken units first, before anyone fires, until no longer Broken",
                Rally::PinnedFirst => "Broken then Pinned units first, before anyone fires, until no longer Pinned",
                _ => "only with Orders no unit needed to fire",
            }
        ),
    });
    notes.push(
        "not played: Teams sharing a Section's Shock (no Team is placed in a Section: write a Section as one `kind = \"section\"` unit), Overwatch, grenades and Section anti-tank weapons, transferring figures, Scout Teams, moving (CoC-E11)".to_string(),
    );
    let [c0, c1]: [Command; 2] = command.try_into().unwrap_or_else(|_| unreachable!("two sides"));
    let bound = field_bound(&entries, &setup.layout, &start, &thresholds, rally != Rally::Never, setup.turns);
    let battle = Skirmish {
        first: setup.first,
        layout: setup.layout,
        schedule: setup.schedule,
        entries,
        start,
        command: [c0, c1],
        fires,
        targeting,
        firepower,
        thresholds,
        sixes: tables.dice.sixes.clone(),
        setbacks,
        wiped_out_after_breaking,
        rally,
        bound,
    };
    Ok((Engagement::new(battle, setup.turns, setup.end), notes))
}

/// "5 Command Dice (4 below Force Morale 6)": the dice of a level and below.
fn describe_dice(levels: &super::dice_tables::DiceByForceMorale, level: u32) -> String {
    let at = levels.dice_at(level).unwrap_or(0);
    let fewer: Vec<String> =
        levels.levels.iter().filter(|(fm, d)| *fm < level && *d != at).map(|(fm, d)| format!("{d} at {fm}")).collect();
    if fewer.is_empty() { format!("{at} Command Dice") } else { format!("{at} Command Dice ({})", fewer.join(", ")) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engagement::markov::lumping;
    use crate::ruleset::Load;

    /// Two rifle teams against two LMG teams at 12 in., each side spreading its
    /// fire, for two Phases.
    const PAIRS: &str = include_str!("../../fixtures/lumping_coc.toml");

    #[test]
    fn interchangeable_units_count_as_multisets_of_conditions() {
        // Two units over 3 conditions: {aa, ab, ac, bb, bc, cc} = C(4, 2) = 6, not 3^2.
        assert_eq!(multisets(3, 2), 6);
        // One unit: its k conditions; none: the one empty line.
        assert_eq!(multisets(7, 1), 7);
        assert_eq!(multisets(7, 0), 1);
        // Five over 20: C(24, 5) = 24 x 23 x 22 x 21 x 20 / 120 = 42,504.
        assert_eq!(multisets(20, 5), 42_504);
        assert_eq!(multisets(u64::MAX / 2, 3), u64::MAX, "saturates");
    }

    #[test]
    fn lumped_states_give_the_labelled_chains_odds() {
        let m = super::super::ChainOfCommand::load(None).expect("embedded tables load");
        let never = format!("{PAIRS}\n[settings]\nrally = \"never\"\n");
        // Rallying keeps every point of Shock: with Force Morale 1 and 2-dice LMG teams
        // the field stays within the exact solver's bound.
        let rallying = PAIRS.replace("force_morale = 8", "force_morale = 1").replace("firepower = 4", "firepower = 2");
        for text in [never, rallying] {
            let e = lumping::engagement::<Skirmish>(&text, |doc| engagement(doc, m.tables()));
            lumping::assert_lumping_changes_nothing(&e);
        }
    }
    use crate::chain_of_command::shooting::Threshold;

    #[test]
    fn setbacks_come_once_on_breaking_and_again_when_wiped_out() {
        let second = Thresholds {
            pinned: Threshold { at_least: false, multiple: 1 },
            broken: Threshold { at_least: true, multiple: 2 },
        };
        let u = |figures, shock| Unit { figures, shock };
        assert_eq!(event(&second, &u(2, 0), &u(2, 3), true), None, "3 Shock on 2 figures: Pinned only");
        assert_eq!(event(&second, &u(2, 0), &u(2, 4), true), Some(0), "4 Shock breaks a 2-figure team");
        assert_eq!(event(&second, &u(2, 0), &u(1, 2), true), Some(0), "a kill lowers the line");
        assert_eq!(event(&second, &u(2, 0), &u(0, 0), true), Some(1), "wiped out unbroken: one setback");
        assert_eq!(event(&second, &u(1, 2), &u(0, 0), true), Some(1));
        assert_eq!(event(&second, &u(1, 2), &u(0, 0), false), None, "break_only");
        assert_eq!(event(&second, &u(1, 2), &u(1, 3), true), None, "already Broken");
    }

    #[test]
    fn rallying_works_down_from_broken_to_pinned_to_any_shock() {
        let m = super::super::ChainOfCommand::load(None).expect("embedded tables load");
        let e = lumping::engagement::<Skirmish>(PAIRS, |doc| engagement(doc, m.tables()));
        let battle = e.battle();
        let mut force = battle.initial().sides[0].clone();
        // Two figures each (2e): Broken at 4 Shock, Pinned past 2.
        force.units = smallvec::smallvec![Unit { figures: 2, shock: 4 }, Unit { figures: 2, shock: 3 }];
        let (before, after) = battle.rallies();
        assert_eq!(battle.rally, Rally::BrokenFirst, "the default");
        // Before fire, 3 Orders: only the Broken unit, 4 -> 3, no longer Broken.
        let mut orders = 3;
        battle.rally(&mut force, &mut orders, before);
        assert_eq!((force.units[0].shock, force.units[1].shock, orders), (3, 3, 2));
        // After fire, 2 Orders: both Pinned, 3 -> 2 each, in listed order.
        battle.rally(&mut force, &mut orders, after);
        assert_eq!((force.units[0].shock, force.units[1].shock, orders), (2, 2, 0));
        // With Orders to spare, any Shock goes; an Order with nothing to rally is unspent.
        let mut orders = 5;
        battle.rally(&mut force, &mut orders, after);
        assert_eq!((force.units[0].shock, force.units[1].shock, orders), (0, 0, 1));
    }

    #[test]
    fn activations_spend_a_units_own_die_before_an_order() {
        let mut a = Activations { teams: 1, sections: 0, orders: 1 };
        assert!(a.can(Kind::Section));
        a.take(Kind::Team);
        assert_eq!(a, Activations { teams: 0, sections: 0, orders: 1 });
        a.take(Kind::Team);
        assert!(!a.can(Kind::Team) && !a.can(Kind::Section));
    }
}
