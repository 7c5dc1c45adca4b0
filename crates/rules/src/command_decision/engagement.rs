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

use serde::Deserialize;
use toml::Spanned;

use super::catalogue::{Afv, AntiArmour, Catalogue, RawVehicle, RawWeapon, Weapon};
use super::fire::{AmmoChecks, FireResolution, FireState};
use super::quality::Quality;
use super::scenario::{
    RawArtillery, RawFirer, RawTarget, ScenarioFile, direct_fire_resolution, indirect_fire_resolution,
};
use super::settings::{DemoralizedCompanies, RawSettings, Settings, ShakenCompanies, StationaryPersonnel};
use super::tables::{HitResult, Tables};
use crate::engagement::scenario::{self};
use crate::engagement::schedule::Schedule;
use crate::engagement::target::{Fires, Targeting};
use crate::engagement::{Battle, Engagement, Field, FieldOf, ForceOf, Layout, SIDES, enemy};
use crate::ruleset::SetUp;
use crate::setup::{choice, entry, named};
use combat_odds_core::dice::D10;
use combat_odds_core::document::Document;
use combat_odds_core::engine::{Resolution, Streams};
use combat_odds_core::error::Result;
use combat_odds_core::error::unknown;
use combat_odds_core::exact::{Dist, TooLarge, Weight};
use combat_odds_core::tables::Side;

/// Ranges are in inches (1 in. = 50 yards).
const INCHES: &str = "in.";
/// "Close proximity" (seed 000 "Morale", "Suppression" 3).
const CLOSE_PROXIMITY: f64 = 12.0;
/// The target modifiers that put personnel in cover, for suppression of vehicles.
const COVERS: [&str; 4] = ["light_cover", "medium_cover", "hard_cover", "fortification"];
/// The target modifiers a stand moving in cover loses to opportunity fire unless
/// under a Cautious Advance order (seed 000 "Opportunity Fire").
const MOVING_LOSES: [&str; 5] = ["light_cover", "medium_cover", "hard_cover", "fortification", "afv_hull_down_or_bua"];
/// Modifiers the engagement sets from a stand's condition, never named by the user.
const FROM_CONDITION: [(&str, &str); 8] = [
    ("pinned", "the company's morale status"),
    ("suppressed", "close proximity to enemy personnel in cover, and prep, opportunity and indirect fire"),
    ("pinned_personnel", "the target company's morale status"),
    ("rally_regroup", "the Rally orders of the `demoralized_companies` and `shaken_companies` settings"),
    ("hasty_advance", "the unit's `order`"),
    ("disengage", "the unit's `order`"),
    ("take_command", "the unit's `order`"),
    ("op_fire", "the unit's `fires_in`"),
];
/// The most batteries a side may call on.
const MAX_BATTERIES: usize = 8;
/// Morale rows the engagement applies by itself.
const AUTOMATIC_MORALE: [(&str, &str); 7] = [
    ("pinned", "the company's status"),
    ("shaken", "the company's status"),
    ("demoralized", "the company's status"),
    ("stand_forced_back", "stands forced back this turn"),
    ("stand_eliminated", "stands eliminated this turn"),
    ("enemy_personnel_within_12", "the range and the enemy's stands"),
    ("enemy_afv_within_12", "the range and the enemy's stands"),
];

/// A unit entry: stands that fire as a `[[firer]]` and are fired at as a `[target]`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawStand {
    name: Spanned<String>,
    count: Option<Spanned<i64>>,
    company: Option<Spanned<String>>,
    quality: Spanned<String>,
    weapon: Option<Spanned<String>>,
    weapon_data: Option<Spanned<RawWeapon>>,
    mount: Option<Spanned<String>>,
    role: Option<Spanned<String>>,
    #[serde(default)]
    firing_modifiers: Vec<Spanned<String>>,
    vehicle: Option<Spanned<String>>,
    vehicle_data: Option<RawVehicle>,
    aspect: Option<Spanned<String>>,
    #[serde(default)]
    target_modifiers: Vec<Spanned<String>>,
    order: Option<Spanned<String>>,
    fires_in: Option<Spanned<String>>,
}

scenario::unit_entry!(RawStand);

/// A company: its morale number and the morale modifiers that hold all engagement.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawCompany {
    name: Spanned<String>,
    morale: Spanned<i64>,
    #[serde(default)]
    modifiers: Vec<Spanned<String>>,
}

scenario::company_entry!(RawCompany);

#[derive(Deserialize)]
struct SettingsOnly {
    #[serde(default)]
    settings: RawSettings,
}

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

/// A stand's order (seed 001 "Orders Summary"), held for the whole fight (CD-E13).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Order {
    Hold,
    CautiousAdvance,
    HastyAdvance,
    Disengage,
    TakeCommand,
}

impl Order {
    const NAMES: [&'static str; 5] = ["hold", "cautious_advance", "hasty_advance", "disengage", "take_command"];
    const ALL: [Order; 5] =
        [Order::Hold, Order::CautiousAdvance, Order::HastyAdvance, Order::Disengage, Order::TakeCommand];

    /// The order as a scenario writes it.
    fn name(self) -> &'static str {
        Self::NAMES[Self::ALL.iter().position(|o| *o == self).expect("every order is listed")]
    }

    /// Whether the order moves the stand (the chart's "Basic Move Allowance"): a
    /// moving stand is not stationary (CD-E11), loses its cover to opportunity fire
    /// unless advancing cautiously, and a battery attacks it once a stand.
    fn moves(self) -> bool {
        matches!(self, Order::CautiousAdvance | Order::HastyAdvance | Order::Disengage)
    }

    /// The chart's General Fire penalty, as the card that gives it names it: "Yes
    /// (-2)" for Hasty Advance (Direct Fire To-Hit Modifiers), "Yes(-2)*" for the rest.
    fn general_fire_modifier(self) -> Option<&'static str> {
        match self {
            Order::HastyAdvance => Some("hasty_advance"),
            Order::Disengage => Some("disengage"),
            Order::TakeCommand => Some("take_command"),
            Order::Hold | Order::CautiousAdvance => None,
        }
    }

    /// The "*": "May only fire if in physical contact".
    fn contact_only(self) -> bool {
        matches!(self, Order::Disengage | Order::TakeCommand)
    }
}

/// The direct fire phases of a turn, in order (seed 000 "Combat").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum FirePhase {
    Prep,
    Opportunity,
    General,
}

impl FirePhase {
    const ALL: [FirePhase; 3] = [FirePhase::Prep, FirePhase::Opportunity, FirePhase::General];
    const NAMES: [&'static str; 3] = ["prep", "opportunity", "general"];

    /// The `phase` of a `fire` scenario.
    fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}

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
    const NAMES: [&'static str; 5] = ["steady", "pinned", "shaken", "demoralized", "eliminated"];

    /// The result of failing by a band of the Morale Results chart (in its order).
    fn of_result(band: usize) -> Morale {
        [Morale::Pinned, Morale::Shaken, Morale::Demoralized, Morale::Eliminated][band]
    }
}

/// One firer's compiled fire at one target at one range, in each condition that
/// changes it: bit 0 the firer is pinned, bit 1 it is suppressed, bit 2 the target is
/// pinned personnel; in close assault, bit 3 the firer is under a Rally order.
pub(super) struct Shot {
    /// General fire, by condition.
    general: Vec<Variant>,
    /// Prep or opportunity fire (the firer's `fires_in`), by condition less the pin and
    /// Rally bits (`condition >> 1`): pinned and rallying stands never fire early.
    /// `None` where the firer cannot fire early at this target at this range.
    early: Option<Vec<Variant>>,
}

struct Variant {
    fire: FireResolution,
    /// Its exact result, in machine words (a single fire fits them): a turn
    /// weighed in big integers borrows it as those ([`Weight::of_machine`]).
    exact: Dist<(HitResult, bool), u128>,
}

impl Variant {
    fn new(fire: FireResolution) -> std::result::Result<Self, TooLarge> {
        let result = |s: &FireState| (s.worst.unwrap_or(HitResult::NoEffect), s.depleted);
        let exact = Dist::from_weights(fire.exact_state()?.iter().map(|(s, w)| (result(s), *w)))?;
        Ok(Variant { fire, exact })
    }

    /// One literal fire: (worst result, ammunition depleted).
    fn roll(&self, streams: &mut Streams) -> (HitResult, bool) {
        let s = self.fire.trial(streams);
        (s.worst.unwrap_or(HitResult::NoEffect), s.depleted)
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

/// A battery off the table, compiled (CD-E14).
struct Battery {
    /// Success by artillery response die face; `None` when self-observed.
    response: Option<[bool; 10]>,
    /// Each enemy entry under the burst, with the mission's attacks on one of its stands.
    under_burst: Vec<(usize, Attacks)>,
}

/// A mission's attacks on one stand under a burst, by how its ammunition is checked:
/// on every die where the burst covers that stand alone (reading 13), and "only 1 of
/// dice" where it covers several (seed 001, Ammo Depletion): the first die at the
/// first stand attacked, none at the rest.
struct Attacks {
    alone: Variant,
    first: Variant,
    rest: Variant,
}

impl Attacks {
    fn new(fire: FireResolution) -> std::result::Result<Self, TooLarge> {
        Ok(Attacks {
            first: Variant::new(fire.with_ammo_checks(AmmoChecks::FirstDie))?,
            rest: Variant::new(fire.with_ammo_checks(AmmoChecks::None))?,
            alone: Variant::new(fire)?,
        })
    }
}

/// The Morale chart folded to integers before the first turn.
struct MoraleChart {
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
    fn new(tables: &Tables, most_stands: usize) -> Self {
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

/// Which companies the battalion issues Rally orders to (settings
/// `demoralized_companies` and `shaken_companies`).
#[derive(Debug, Clone, Copy)]
struct Rally {
    demoralized: bool,
    shaken: bool,
}

/// The most companies a side may field (checks live in fixed arrays, so a turn
/// allocates nothing).
const MAX_COMPANIES: usize = 16;

/// The most stands a side may field in an engagement that reaches contact (the AFVs
/// close assaulted in a phase live in a fixed bit set).
const MAX_CONTACT_STANDS: usize = 256;

/// The morale number each company checks against this turn (`None`: no check).
type Checks = [[Option<i32>; MAX_COMPANIES]; 2];

/// What one side's fire-phase results leave for its morale phase, per company.
#[derive(Default, Clone, Copy)]
struct Losses {
    forced_back: [usize; MAX_COMPANIES],
    eliminated: [usize; MAX_COMPANIES],
    fired_at: [bool; MAX_COMPANIES],
    /// A friendly company lost its last stand this turn (every company sees it).
    saw_loss: bool,
}

impl CdBattle {
    /// Companies under a Rally order recover a step (CD-E4, CD-E10): demoralized
    /// becomes shaken, shaken becomes pinned ("Rally orders do not remove pin
    /// markers"), and a rallying company does not fire this turn. Returns which
    /// companies rally, as a bit per company per side.
    fn rally(&self, field: &mut FieldOf<Self>) -> [u16; 2] {
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

    fn living(&self, force: &ForceOf<Self>, side: usize, pred: impl Fn(Kind) -> bool) -> bool {
        let layout = &self.layout.sides[side];
        force.units.iter().enumerate().any(|(u, s)| !s.eliminated && pred(self.kinds[side][layout.group_of[u]]))
    }

    /// Whether `side`'s vehicles are suppressed this turn ("Suppression" 3).
    fn suppressed(&self, field: &FieldOf<Self>, side: usize, turn: u32) -> bool {
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
    fn fire_phase(
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
    fn side_fire_exact<W: Weight>(
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

    /// Every enemy stand under battery `b` of `side` still on the table in `field`,
    /// each with the mission's attacks on it: its ammunition checked on every die where
    /// the burst covers one stand, on the first die of the first stand where it covers
    /// several (seed 001, Ammo Depletion: "multiple targets in template requires only 1
    /// of dice (different color) to deplete"). Read from the phase's start: hits land
    /// at its end.
    fn missions(&self, field: &FieldOf<Self>, side: usize, b: usize) -> Vec<(usize, &Variant)> {
        let foe = enemy(side);
        let living: Vec<(usize, &Attacks)> = self.batteries[side][b]
            .under_burst
            .iter()
            .flat_map(|(g, attacks)| self.layout.sides[foe].groups[*g].units.clone().map(move |t| (t, attacks)))
            .filter(|(t, _)| !field.sides[foe].units[*t].eliminated)
            .collect();
        let alone = living.len() == 1;
        living
            .into_iter()
            .enumerate()
            .map(|(i, (t, attacks))| match (alone, i) {
                (true, _) => (t, &attacks.alone),
                (false, 0) => (t, &attacks.first),
                (false, _) => (t, &attacks.rest),
            })
            .collect()
    }

    /// Whether battery `b` of `side` calls a mission this turn: it has ammunition and a
    /// stand under its burst is still on the table.
    fn calls_mission(&self, field: &FieldOf<Self>, side: usize, b: usize) -> bool {
        !field.sides[side].supports_spent[b] && !self.missions(field, side, b).is_empty()
    }

    /// The Artillery Phase's missions, rolled (CD-E14): each battery with a stand under
    /// its burst rolls its response, and on arrival attacks every such stand.
    fn artillery(&self, field: &mut FieldOf<Self>, streams: &mut Streams) {
        for side in SIDES {
            for (b, battery) in self.batteries[side].iter().enumerate() {
                if !self.calls_mission(field, side, b) {
                    continue;
                }
                if battery.response.is_some_and(|ok| !ok[D10.roll(&mut streams.response) as usize - 1]) {
                    continue;
                }
                // Hits land at the end of the phase: no stand leaves the table meanwhile.
                for (t, v) in self.missions(field, side, b) {
                    let result = v.roll(streams);
                    Self::burst(field, (side, b, t), v, result);
                }
            }
        }
        Self::end_of_phase(field);
    }

    /// The Artillery Phase's missions from `start`, as a distribution.
    fn artillery_exact<W: Weight>(
        &self,
        start: &FieldOf<Self>,
    ) -> std::result::Result<Dist<FieldOf<Self>, W>, TooLarge> {
        let mut fired = Dist::certain(start.clone());
        for side in SIDES {
            for (b, battery) in self.batteries[side].iter().enumerate() {
                if !self.calls_mission(start, side, b) {
                    continue;
                }
                let mission = |f: &FieldOf<Self>| {
                    self.missions(start, side, b).into_iter().try_fold(Dist::certain(f.clone()), |acc, (t, v)| {
                        acc.combine(&W::of_machine(&v.exact), |f, r| {
                            let mut f = f.clone();
                            Self::burst(&mut f, (side, b, t), v, *r);
                            f
                        })
                    })
                };
                fired = match battery.response {
                    None => fired.try_then(mission)?,
                    Some(ok) => fired.try_then(|f| {
                        Dist::roll(D10, |face| ok[face as usize - 1])
                            .try_then(|&arrived| if arrived { mission(f) } else { Ok(Dist::certain(f.clone())) })
                    })?,
                };
            }
        }
        Ok(fired.map(|f| {
            let mut f = f.clone();
            Self::end_of_phase(&mut f);
            f
        }))
    }

    /// The direct fire phases a turn plays: prep and opportunity fire only when some
    /// stand fires in them.
    fn fire_phases(&self) -> &'static [FirePhase] {
        if self.early_fire { &FirePhase::ALL } else { &[FirePhase::General] }
    }

    /// Whether the sides are in physical contact this turn: the range is 0 (CD-E12).
    fn in_contact(&self, turn: u32) -> bool {
        self.schedule.range(turn) == 0.0
    }

    /// The end of the morale phase in contact: "Any demoralized stand(s) in contact
    /// with unpinned enemy personnel or AFV stands at the end of ... the morale phase
    /// are automatically eliminated" (seed 000 "Demoralized"). Both sides are read
    /// from the same field, so neither goes first.
    fn overrun(&self, field: &mut FieldOf<Self>, turn: u32) {
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

    /// The Command and Morale phase from `fired` (the last fire phase's field), as a
    /// distribution: the turn's losses come off, each company that must check rolls its
    /// die, and in contact the demoralized are overrun.
    fn morale_exact<W: Weight>(
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

    /// A mission's attacks on one stand under the burst of battery `b` of `side`: as
    /// [`Self::land`], every stand in the template suppressed, and an ammunition
    /// depletion taking the battery out for the rest of the fight (CD-E14).
    fn burst(
        field: &mut FieldOf<Self>,
        (side, b, t): (usize, usize, usize),
        v: &Variant,
        (result, depleted): (HitResult, bool),
    ) {
        field.sides[enemy(side)].units[t].strike(v, result);
        field.sides[side].supports_spent[b] |= depleted;
    }

    /// The end of a fire phase: eliminated stands come off the table and suppression
    /// lands ("The results of fire do not apply to a stand until the end of the fire
    /// phase in which it received the fire"). The turn's hits stay on the stands for
    /// the morale phase.
    fn end_of_phase(field: &mut FieldOf<Self>) {
        for stand in field.sides.iter_mut().flat_map(|f| f.units.iter_mut()) {
            stand.eliminated |= stand.hit == Some(HitResult::Eliminated);
            stand.suppressed |= std::mem::take(&mut stand.suppression_lands);
        }
    }

    /// The end of the fire phase: eliminated stands come off, a company that lost its
    /// last stand is gone, unrequired morale phases take pins off, and the companies
    /// that must check get their number.
    ///
    /// Fire is simultaneous and "the results of fire do not apply to a stand until the
    /// end of the fire phase" (seed 000 "Combat"): every side's results land before
    /// any company looks across at the enemy, so neither side sees stands it has just
    /// destroyed, whichever the scenario lists first.
    fn checks(&self, field: &mut FieldOf<Self>, turn: u32) -> Checks {
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
    fn morale_outcome(&self, morale: i32, face: u32) -> Option<Morale> {
        let excess = face as i32 - morale;
        (excess > 0).then(|| self.chart.result(excess))
    }

    /// A company's morale die read ([`Self::morale_outcome`]): a pass takes a pin
    /// off; a failure worsens the status to the result; eliminated removes every
    /// stand of the company.
    fn morale_result(&self, field: &mut FieldOf<Self>, side: usize, company: usize, outcome: Option<Morale>) {
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
    fn eliminate_company(&self, field: &mut FieldOf<Self>, side: usize, company: usize) {
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

/// The enemy AFVs a side's personnel have close assaulted this phase, a bit a stand.
#[derive(Default)]
struct Assaulted([u64; MAX_CONTACT_STANDS / 64]);

impl Assaulted {
    fn taken(&self, t: usize) -> bool {
        self.0[t / 64] & (1 << (t % 64)) != 0
    }

    fn take(&mut self, t: usize) {
        self.0[t / 64] |= 1 << (t % 64);
    }
}

/// Every (side, company, morale number) that checks.
fn each_check(checks: &Checks) -> impl Iterator<Item = (usize, usize, i32)> + '_ {
    SIDES.into_iter().flat_map(move |s| checks[s].iter().enumerate().filter_map(move |(c, m)| m.map(|m| (s, c, m))))
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

/// The engagement a scenario sets up, with the notes its set-up wrote.
fn engagement(doc: &Document, tables: &Tables, catalogue: &Catalogue) -> Result<(Engagement<CdBattle>, Vec<String>)> {
    let setup = scenario::read::<RawStand, RawCompany, RawArtillery>(doc, INCHES)?;
    if let Some(at) = setup.first_at {
        return Err(doc.error_at(
            at,
            "Command Decision fire is simultaneous (seed 000 \"Combat\"): no side plays first; leave `first` out",
        ));
    }
    let raw_settings = doc.parse::<SettingsOnly>()?.settings;
    let settings = Settings::resolve(doc, &raw_settings, "engagement")?;
    let mut notes = vec![format!(
        "{} turns at most, range {}; targets: {}; ends when a side is {}",
        setup.turns,
        setup.schedule.describe(INCHES),
        setup.targets,
        match (setup.end.eliminated, setup.end.broken) {
            (true, true) => "eliminated or broken (every company demoralized or gone)",
            (true, false) => "eliminated",
            _ => "broken (every company demoralized or gone)",
        }
    )];
    notes.push(
        "not played (CD-E1): movement (the range schedule stands for it) and small-arms hits spread over the \
         4-inch target area (each stand fires at one stand)"
            .to_string(),
    );
    let chart = &tables.morale_modifiers;
    let automatic: Vec<(&str, &str)> = AUTOMATIC_MORALE.to_vec();
    let mut morale: [Vec<i32>; 2] = [Vec::new(), Vec::new()];
    for side in SIDES {
        let name = &setup.layout.sides[side].name;
        if setup.companies[side].is_empty() {
            return Err(doc.error(format!(
                "side `{name}`: Command Decision companies check morale; add a [[side.company]] with `name` and `morale`"
            )));
        }
        if setup.companies[side].len() > MAX_COMPANIES {
            return Err(doc.error(format!("side `{name}` has more than {MAX_COMPANIES} companies")));
        }
        for c in &setup.companies[side] {
            let c = c.get_ref();
            let base = *c.morale.get_ref();
            if !(0..=20).contains(&base) {
                return Err(doc.error_at(
                    c.morale.span().start,
                    format!("morale {base} is not a company morale number (0 to 20)"),
                ));
            }
            let mut total = base as i32;
            crate::setup::distinct(doc, &c.modifiers)?;
            for m in &c.modifiers {
                total += named(doc, m, &[chart], &automatic, None)?.value(1);
            }
            morale[side].push(total);
        }
    }
    let mut kinds: [Vec<Kind>; 2] = [Vec::new(), Vec::new()];
    for side in SIDES {
        for raw in &setup.units[side] {
            let raw = raw.get_ref();
            for m in raw.firing_modifiers.iter().chain(&raw.target_modifiers) {
                if let Some((_, from)) = FROM_CONDITION.iter().find(|(n, _)| n == m.get_ref()) {
                    return Err(doc.error_at(
                        m.span().start,
                        format!("`{}` is set by the engagement from {from}; leave it out", m.get_ref()),
                    ));
                }
            }
            let vehicle = vehicle_of(doc, catalogue, raw)?;
            let covered = raw.target_modifiers.iter().any(|m| COVERS.contains(&m.get_ref().as_str()));
            let assaults = vehicle.is_none() && raw.mount.as_ref().is_none_or(|m| m.get_ref() == "personnel");
            let (order, early) = order_of(doc, catalogue, raw, assaults)?;
            kinds[side].push(Kind {
                vehicle: vehicle.is_some(),
                afv: vehicle.is_some_and(|a| a != Afv::Soft),
                personnel_in_cover: vehicle.is_none() && covered,
                assaults,
                order,
                early,
            });
        }
    }
    let early_fire = kinds.iter().flatten().any(|k| k.early.is_some());
    // Prep, opportunity and indirect fire suppress; without them only vehicles are.
    let suppressible = SIDES.map(|side| {
        let foe = enemy(side);
        kinds[foe].iter().any(|k| k.early.is_some()) || !setup.supports[foe].is_empty()
    });
    let range_at = doc.parse::<RangeAt>()?.engagement.range.span();
    let mut shot_notes = Vec::new();
    // A stand under an order that fires only in contact, in an engagement that never
    // closes to it, holds its fire: said, not refused.
    let contact = setup.schedule.ranges.contains(&0.0);
    // A weapon with an asterisk after its ROF under an order that moves it is never
    // stationary in the previous Movement Phase: it never fires (seed 000, Restrictions).
    let mut towed_moving = [Vec::new(), Vec::new()];
    for side in SIDES {
        for (g, kind) in kinds[side].iter().enumerate() {
            let asterisk = weapon_of(doc, catalogue, setup.units[side][g].get_ref())?.stationary_only;
            towed_moving[side].push(asterisk && kind.order.moves());
        }
    }
    let holds_fire = |side: usize, g: usize| (kinds[side][g].order.contact_only() && !contact) || towed_moving[side][g];
    for side in SIDES {
        for (g, kind) in kinds[side].iter().enumerate().filter(|&(g, _)| holds_fire(side, g)) {
            let name = &setup.layout.sides[side].groups[g].name;
            notes.push(if towed_moving[side][g] {
                format!(
                    "{name} has an asterisk after its weapon's ROF, so it may not fire unless stationary in the \
                     previous Movement Phase (seed 000, Restrictions), and its `{}` order moves it: it holds its fire",
                    kind.order.name()
                )
            } else {
                format!(
                    "{name} fires only in physical contact under its `{}` order (Orders Summary \"*\"), and this \
                     engagement never closes to contact: it holds its fire",
                    kind.order.name()
                )
            });
        }
    }
    let fires = Fires::build(
        doc,
        (&setup.layout, &setup.schedule),
        INCHES,
        (|side, g| setup.units[side][g].span().start, holds_fire),
        |side, firer, target, r| {
            let range = setup.schedule.ranges[r];
            let f = setup.units[side][firer].get_ref();
            let t = setup.units[enemy(side)][target].get_ref();
            let (kind, aim) = (kinds[side][firer], kinds[enemy(side)][target]);
            // "May only fire if in physical contact" (Orders Summary "*").
            if (kind.order.contact_only() && range > 0.0) || towed_moving[side][firer] {
                return Ok(None);
            }
            let weapon = weapon_line(weapon_of(doc, catalogue, f)?, kind);
            // In contact, personnel stands close assault with their "C" or closest band
            // (CD-E12); vehicles fire at range 0 as at any other.
            let close_assault = range == 0.0 && kind.assaults;
            let band = match close_assault {
                true => weapon.bands.first(),
                // Beyond extreme range the fire has no effect: the stand cannot engage.
                false => weapon.bands.iter().find(|b| b.range.is_some_and(|max| range <= max)),
            };
            let Some(band) = band else {
                return Ok(None);
            };
            // A class hits AFVs only in close assault (CD-E8).
            if band.anti_armour == AntiArmour::A && kinds[enemy(side)][target].afv && !close_assault {
                return Ok(None);
            }
            // Conditions that do not apply to this pair (suppression of personnel, a
            // pinned vehicle target) are set up as the same fire without them.
            let applies = 1 | usize::from(kind.vehicle || suppressible[side]) << 1 | usize::from(!aim.vehicle) << 2;
            // The fire in one phase under one condition (see [`Shot`]).
            let compile = |phase: FirePhase, variant: usize| -> Result<(Variant, Vec<String>)> {
                let v = variant & applies;
                let at = f.name.span();
                let mark = |name: &str| Spanned::new(at.clone(), name.to_string());
                let mut firer = firer_of(f);
                firer.modifiers.extend((v & 1 != 0).then(|| mark("pinned")));
                firer.modifiers.extend((v & 2 != 0).then(|| mark("suppressed")));
                // A rallying stand fires only in contact, at the Orders Summary's -2,
                // which stands in for its own order's.
                match variant & 8 != 0 {
                    true => firer.modifiers.push(mark("rally_regroup")),
                    false => firer.modifiers.extend(kind.order.general_fire_modifier().map(mark)),
                }
                let mut aim = target_of(t, aim.order, phase, settings.stationary_personnel);
                aim.modifiers.extend((v & 4 != 0).then(|| mark("pinned_personnel")));
                let file = ScenarioFile {
                    settings: raw_settings.clone(),
                    phase: Some(Spanned::new(at.clone(), phase.name().to_string())),
                    range: (!close_assault).then(|| Spanned::new(range_at.clone(), range)),
                    close_assault: close_assault.then(|| Spanned::new(range_at.clone(), true)),
                    firer: Some(Spanned::new(at.clone(), vec![firer])),
                    target: Some(Spanned::new(t.name.span(), aim)),
                    ..ScenarioFile::default()
                };
                let (fire, lines) = direct_fire_resolution(doc, "engagement", file, tables, catalogue)?;
                let variant = Variant::new(fire).map_err(|_| {
                    doc.error_at(
                        f.name.span().start,
                        format!("unit `{}`: too many dice for one fire", f.name.get_ref()),
                    )
                })?;
                Ok((variant, lines))
            };
            let note = |phase: FirePhase, lines: Vec<String>, notes: &mut Vec<String>| {
                let at = if close_assault { "close assault".to_string() } else { format!("{range} {INCHES}") };
                let phase =
                    if phase == FirePhase::General { String::new() } else { format!(", {} fire", phase.name()) };
                notes.push(format!("{} at {}, {at}{phase}:", f.name.get_ref(), t.name.get_ref()));
                notes.extend(lines.into_iter().skip(1).map(|l| format!("  {l}")));
            };
            let conditions = if close_assault { 16 } else { 8 };
            let mut general = Vec::with_capacity(conditions);
            for variant in 0..conditions {
                let (fire, lines) = compile(FirePhase::General, variant)?;
                if variant == 0 {
                    note(FirePhase::General, lines, &mut shot_notes);
                }
                general.push(fire);
            }
            // Early fire (CD-E13): never in contact (close assault is general fire), prep
            // fire only with H class or HC, and no opportunity fire at a disengaging stand.
            let early = match kind.early {
                Some(phase)
                    if range > 0.0
                        && (phase != FirePhase::Prep || band.anti_armour.suppresses())
                        && !(phase == FirePhase::Opportunity && aim.order == Order::Disengage) =>
                {
                    let mut fires = Vec::with_capacity(4);
                    for variant in (0..8).step_by(2) {
                        let (fire, lines) = compile(phase, variant)?;
                        if variant == 0 {
                            note(phase, lines, &mut shot_notes);
                        }
                        fires.push(fire);
                    }
                    Some(fires)
                }
                _ => None,
            };
            let p_kill = general[0].exact.probability(|(r, _)| *r == HitResult::Eliminated).to_f64();
            Ok(Some((Shot { general, early }, p_kill)))
        },
    )?;
    notes.extend(shot_notes);
    if setup.schedule.ranges.contains(&0.0) {
        notes.push(
            "at 0 in. the sides are in contact: personnel stands close assault, one to an AFV, and demoralized \
             companies in contact with unpinned enemy personnel or AFVs are eliminated (CD-E12)"
                .to_string(),
        );
        if let Some(side) = setup.layout.sides.iter().find(|s| s.units() > MAX_CONTACT_STANDS) {
            return Err(doc.error(format!(
                "side `{}` has {} stands; a fight that reaches contact (range 0) takes at most {MAX_CONTACT_STANDS} a side",
                side.name,
                side.units()
            )));
        }
    }
    let batteries = SIDES.map(|side| {
        setup.supports[side]
            .iter()
            .map(|b| battery(doc, (tables, catalogue, &raw_settings), (&setup, &kinds), side, b, &mut notes))
            .collect::<Result<Vec<_>>>()
    });
    let [a, b] = batteries;
    let batteries = [a?, b?];
    for side in SIDES {
        if batteries[side].len() > MAX_BATTERIES {
            return Err(doc.error(format!(
                "side `{}` calls on {} batteries; an engagement takes at most {MAX_BATTERIES} a side",
                setup.layout.sides[side].name,
                batteries[side].len()
            )));
        }
    }
    let targeting = Targeting::new(setup.targets, &fires);
    let most = setup.layout.sides.iter().map(|s| s.units()).max().unwrap_or(0);
    let battle = CdBattle {
        chart: MoraleChart::new(tables, most),
        layout: setup.layout,
        schedule: setup.schedule,
        fires,
        targeting,
        kinds,
        morale,
        rally: Rally {
            demoralized: settings.demoralized_companies == DemoralizedCompanies::Rally,
            shaken: settings.shaken_companies == ShakenCompanies::Rally,
        },
        batteries,
        early_fire,
    };
    Ok((Engagement::new(battle, setup.turns, setup.end), notes))
}

#[derive(Deserialize)]
struct RangeAt {
    engagement: RangeKey,
}

#[derive(Deserialize)]
struct RangeKey {
    range: Spanned<f64>,
}

/// The stand as a `[[firer]]` of one stand.
fn firer_of(s: &RawStand) -> RawFirer {
    RawFirer {
        name: Some(s.name.get_ref().clone()),
        weapon: s.weapon.clone(),
        weapon_data: s.weapon_data.clone(),
        quality: s.quality.clone(),
        stands: None,
        mount: s.mount.clone(),
        role: s.role.clone(),
        modifiers: s.firing_modifiers.clone(),
    }
}

/// The stand as a `[target]` of fire in `phase`. A personnel stand whose order holds
/// it still and whose modifiers name no cover is fired at in light cover under the
/// `light_cover` reading (CD-E11); it still does not suppress vehicles ([`Kind`] reads
/// the scenario's own modifiers). A stand moving in cover keeps its cover against
/// opportunity fire only under a Cautious Advance order (seed 000 "Opportunity Fire").
fn target_of(s: &RawStand, order: Order, phase: FirePhase, stationary: StationaryPersonnel) -> RawTarget {
    let mut modifiers = s.target_modifiers.clone();
    // A towed weapon is not a personnel stand (seed 000, Fundamentals: "Each vehicle or
    // towed weapon represents four to six actual vehicles or towed weapons. Each full
    // personnel stand represents from 40 to 60 men"): no light cover of its own (CD-E11).
    let towed = s.mount.as_ref().is_some_and(|m| m.get_ref() == "towed");
    let personnel = s.vehicle.is_none() && s.vehicle_data.is_none() && !towed;
    if phase == FirePhase::Opportunity && order.moves() && order != Order::CautiousAdvance {
        modifiers.retain(|m| !MOVING_LOSES.contains(&m.get_ref().as_str()));
    }
    let in_the_open = !modifiers.iter().any(|m| COVERS.contains(&m.get_ref().as_str()));
    if stationary == StationaryPersonnel::LightCover && personnel && in_the_open && !order.moves() {
        modifiers.push(Spanned::new(s.name.span(), "light_cover".to_string()));
    }
    as_target(s, false, modifiers)
}

/// The stand as the `[target]` of an indirect fire mission: moving when its order
/// moves it (one attack a battery stand), with those of its modifiers the Indirect
/// Fire To-Hit Modifiers list (light cover and hull down change no burst value).
fn mission_target_of(s: &RawStand, order: Order, tables: &Tables) -> RawTarget {
    let idf = &tables.indirect_fire;
    let mut modifiers = s.target_modifiers.clone();
    modifiers.retain(|m| idf.rows().iter().any(|r| r.name == *m.get_ref() && r.side == Some(Side::Target)));
    as_target(s, order.moves(), modifiers)
}

/// The stand as a `[target]`, `moving` or not, with `modifiers`.
fn as_target(s: &RawStand, moving: bool, modifiers: Vec<Spanned<String>>) -> RawTarget {
    RawTarget {
        name: Some(s.name.get_ref().clone()),
        quality: s.quality.clone(),
        vehicle: s.vehicle.clone(),
        vehicle_data: s.vehicle_data.clone(),
        aspect: s.aspect.clone(),
        moving,
        modifiers,
        passengers: Vec::new(),
    }
}

/// The stand's weapon: from the catalogue or its inline data line.
fn weapon_of(doc: &Document, catalogue: &Catalogue, s: &RawStand) -> Result<Weapon> {
    match (&s.weapon, &s.weapon_data) {
        (Some(n), None) => Ok(entry(doc, n, "weapon", &catalogue.weapons, &catalogue.source)?.clone()),
        (None, Some(d)) => {
            d.get_ref().clone().resolve(&format!("{} weapon_data", s.name.get_ref()), doc, d.span().start)
        }
        _ => Err(doc.error_at(
            s.name.span().start,
            format!(
                "unit `{}`: give either `weapon` from the catalogue or a `weapon_data` table, not both or neither",
                s.name.get_ref()
            ),
        )),
    }
}

/// The data line a stand fires with under its order: a personnel stand with a heavy
/// infantry weapon whose order moves it more than a cautious advance fires its "other"
/// line (seed 000, Restrictions), as the single fire under that order's modifier does.
fn weapon_line(weapon: Weapon, kind: Kind) -> Weapon {
    let moved = kind.order.general_fire_modifier().is_some_and(|m| super::scenario::MOVED_BEYOND_CAUTIOUS.contains(&m));
    match weapon.other {
        Some(other) if moved && kind.assaults => *other,
        _ => weapon,
    }
}

/// The stand's order and the phase before general fire it fires in (CD-E13), checked
/// against the Orders Summary and the prep fire rule.
fn order_of(doc: &Document, catalogue: &Catalogue, s: &RawStand, assaults: bool) -> Result<(Order, Option<FirePhase>)> {
    let name = choice(doc, s.order.as_ref(), "order", &Order::NAMES, "hold")?;
    let order = Order::ALL[Order::NAMES.iter().position(|n| *n == name).expect("a listed order")];
    let who = s.name.get_ref();
    if order.contact_only() && !assaults {
        let at = s.order.as_ref().map_or(0, |o| o.span().start);
        return Err(doc.error_at(
            at,
            format!(
                "unit `{who}`: a stand under `{name}` fires only in physical contact (Orders Summary \"Yes(-2)*\"), \
                 which an engagement plays as close assault by personnel stands; give it another order"
            ),
        ));
    }
    let phase = choice(doc, s.fires_in.as_ref(), "fires_in", &FirePhase::NAMES, "general")?;
    let phase = FirePhase::ALL[FirePhase::NAMES.iter().position(|n| *n == phase).expect("a listed phase")];
    let at = s.fires_in.as_ref().map_or(0, |f| f.span().start);
    if phase != FirePhase::General && order != Order::Hold {
        return Err(doc.error_at(
            at,
            format!(
                "unit `{who}`: only stands under a Hold order fire in prep or opportunity fire (Orders Summary); \
                 set order = \"hold\" or leave `fires_in` out"
            ),
        ));
    }
    if phase == FirePhase::Opportunity && weapon_of(doc, catalogue, s)?.stationary_only {
        return Err(doc.error_at(
            at,
            format!(
                "unit `{who}`: its weapon has an asterisk after its ROF, so it never fires in the Opportunity Fire \
                 Phase (seed 000, Restrictions); set fires_in = \"prep\" or leave it out"
            ),
        ));
    }
    if phase == FirePhase::Prep && !weapon_of(doc, catalogue, s)?.bands.iter().any(|b| b.anti_armour.suppresses()) {
        return Err(doc.error_at(
            at,
            format!(
                "unit `{who}`: prep fire always consists of H class or HC ammunition [13.1.1], and its weapon has \
                 none; set fires_in = \"opportunity\" or \"general\""
            ),
        ));
    }
    Ok((order, (phase != FirePhase::General).then_some(phase)))
}

/// Compiles a `[[side.battery]]` of `side`: the `[artillery]` of an `indirect_fire`
/// scenario with `under_burst`, its mission at each enemy entry under its burst,
/// through the one path every indirect fire takes (CD-E14).
fn battery(
    doc: &Document,
    (tables, catalogue, settings): (&Tables, &Catalogue, &RawSettings),
    (setup, kinds): (&scenario::Setup<RawStand, RawCompany, RawArtillery>, &[Vec<Kind>; 2]),
    side: usize,
    raw: &Spanned<RawArtillery>,
    notes: &mut Vec<String>,
) -> Result<Battery> {
    let foe = enemy(side);
    let entries = &setup.layout.sides[foe];
    let name = raw.get_ref().name.clone().unwrap_or_else(|| "battery".into());
    let Some(under) = &raw.get_ref().under_burst else {
        return Err(doc.error_at(
            raw.span().start,
            format!(
                "battery `{name}`: say which stands its burst covers with `under_burst`, the entries of side `{}`",
                entries.name
            ),
        ));
    };
    if under.get_ref().is_empty() {
        return Err(doc.error_at(
            under.span().start,
            format!(
                "battery `{name}`: `under_burst` names no unit entry; list the entries of side `{}` its burst covers",
                entries.name
            ),
        ));
    }
    let under = under.get_ref();
    for (i, n) in under.iter().enumerate() {
        if under[..i].iter().any(|m| m.get_ref() == n.get_ref()) {
            return Err(
                doc.error_at(n.span().start, format!("`{}` is under the burst once; name it once", n.get_ref()))
            );
        }
    }
    let artillery = RawArtillery { under_burst: None, ..raw.get_ref().clone() };
    let mut response = None;
    let mut under_burst = Vec::with_capacity(under.len());
    for entry in under {
        let names = entries.groups.iter().map(|g| g.name.as_str());
        let g = entries.groups.iter().position(|g| g.name == *entry.get_ref()).ok_or_else(|| {
            doc.error_at(
                entry.span().start,
                unknown(&format!("unit entry of side `{}`", entries.name), entry.get_ref(), names),
            )
        })?;
        let t = setup.units[foe][g].get_ref();
        let file = ScenarioFile {
            settings: settings.clone(),
            artillery: Some(Spanned::new(raw.span(), artillery.clone())),
            target: Some(Spanned::new(t.name.span(), mission_target_of(t, kinds[foe][g].order, tables))),
            ..ScenarioFile::default()
        };
        let (fire, lines) = indirect_fire_resolution(doc, "engagement", file, tables, catalogue)?;
        notes.push(format!("battery {name} at {}, under its burst:", t.name.get_ref()));
        notes.extend(lines.into_iter().map(|l| format!("  {l}")));
        let (arrives, fire) = fire.split_response();
        response = arrives;
        let fire = Attacks::new(fire)
            .map_err(|_| doc.error_at(raw.span().start, format!("battery `{name}`: too many dice for one mission")))?;
        under_burst.push((g, fire));
    }
    Ok(Battery { response, under_burst })
}

/// The stand's vehicle class, or `None` for personnel; checks its quality and aspect
/// too, so a typo is reported once, where it stands.
fn vehicle_of(doc: &Document, catalogue: &Catalogue, s: &RawStand) -> Result<Option<Afv>> {
    Quality::read(doc, &s.quality)?;
    choice(doc, s.aspect.as_ref(), "aspect", &["front", "flank"], "front")?;
    Ok(match (&s.vehicle, &s.vehicle_data) {
        (Some(n), None) => Some(entry(doc, n, "vehicle", &catalogue.vehicles, &catalogue.source)?.afv),
        (None, Some(d)) => Some(d.clone().resolve(&format!("{} vehicle_data", s.name.get_ref()), doc)?.afv),
        (None, None) => None,
        (Some(n), Some(_)) => {
            return Err(doc.error_at(
                n.span().start,
                format!("unit `{}`: give `vehicle` or `vehicle_data`, not both", s.name.get_ref()),
            ));
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engagement::markov::lumping;
    use crate::ruleset::Load;
    use combat_odds_core::dice::Ratio;

    /// Two Shermans against two Panthers closing from 24 in. to 8 in., each side
    /// spreading its fire.
    const PAIRS: &str = include_str!("../../fixtures/lumping_cd.toml");

    /// Two regular HMG stands facing each other at 16 in., one company a side,
    /// with `settings` under `[settings]`.
    fn hmg_duel(settings: &str) -> String {
        let side = |name: &str| {
            format!(
                "[[side]]\nname = \"{name}\"\n[[side.company]]\nname = \"{name}\"\nmorale = 20\n\
                 [[side.unit]]\nname = \"MG {name}\"\nquality = \"regular\"\nweapon = \"hmg_platoon\"\n"
            )
        };
        format!(
            "ruleset = \"command-decision\"\nkind = \"engagement\"\n[engagement]\nrange = 16\nturns = 1\n\
             [settings]\n{settings}\n{}{}",
            side("A"),
            side("B")
        )
    }

    fn duel(settings: &str) -> Engagement<CdBattle> {
        let m = super::super::CommandDecision::load(None).expect("embedded tables load");
        lumping::engagement::<CdBattle>(&hmg_duel(settings), |doc| engagement(doc, m.tables(), m.catalogue()))
    }

    /// P(B's stand is eliminated) in turn 1 from `field`.
    fn p_b_eliminated(e: &Engagement<CdBattle>, field: &FieldOf<CdBattle>) -> Ratio {
        let next = e.battle().turn_exact::<num_bigint::BigUint>(field, 1).expect("a turn of two stands");
        next.probability(|f| f.sides[1].units[0].eliminated)
    }

    #[test]
    fn a_shaken_company_given_a_rally_order_is_pinned_and_holds_its_fire() {
        // Seed 000 "Rally Orders": a Rally order recovers a company "from shaken to
        // pinned", and a rallying stand fires only in contact. A is shaken at the
        // start of the turn: under `rally` it ends the turn pinned at worst (its check
        // can only pin it again) and B is never eliminated; under `keep_firing` A fires.
        for (setting, a_fires) in [("rally", false), ("keep_firing", true)] {
            let e = duel(&format!("shaken_companies = \"{setting}\"\nstationary_personnel = \"in_the_open\""));
            let mut field = e.battle().initial();
            field.sides[0].companies[0] = Morale::Shaken;
            assert_eq!(!p_b_eliminated(&e, &field).is_zero(), a_fires, "{setting}");
            if !a_fires {
                let next = e.battle().turn_exact::<num_bigint::BigUint>(&field, 1).expect("a turn of two stands");
                // A's check (morale 20 - 2 pinned - 2 per stand lost) always passes,
                // and a pass takes the pin off: steady or gone.
                assert!(
                    next.iter().all(|(f, _)| f.sides[0].companies[0] <= Morale::Steady
                        || f.sides[0].companies[0] == Morale::Eliminated)
                );
            }
        }
    }

    #[test]
    fn personnel_in_the_open_are_fired_at_in_light_cover_by_default() {
        // One HMG fire at 16 in.: three dice, each hitting on the long band's 4 (in the
        // open) or 4 - 1 = 3 (light cover), a hit eliminating a regular stand on 7+
        // (4/10). In the open: 1 - (1 - 16/100)^3 = 6364/15625; in light cover:
        // 1 - (1 - 12/100)^3 = 1 - 10648/15625 = 4977/15625.
        for (setting, kill) in [("", 4977), ("stationary_personnel = \"in_the_open\"", 6364)] {
            let e = duel(setting);
            let p = p_b_eliminated(&e, &e.battle().initial());
            assert_eq!(p, Ratio::new(kill, 15625), "{setting:?}");
        }
    }

    #[test]
    fn a_towed_weapon_is_not_a_personnel_stand_and_takes_no_light_cover() {
        // B's stand a towed weapon, stationary in the open: A's HMG fire as in the open
        // under the default `light_cover`, 1 - (1 - 16/100)^3 = 6364/15625 (it was
        // 4977/15625, the light cover of stationary personnel).
        let m = super::super::CommandDecision::load(None).expect("embedded tables load");
        let text = hmg_duel("").replacen(
            "name = \"MG B\"\nquality = \"regular\"\nweapon = \"hmg_platoon\"\n",
            "name = \"MG B\"\nquality = \"regular\"\nweapon = \"hmg_platoon\"\nmount = \"towed\"\n",
            1,
        );
        assert!(text.contains("mount = \"towed\""));
        let e = lumping::engagement::<CdBattle>(&text, |doc| engagement(doc, m.tables(), m.catalogue()));
        assert_eq!(p_b_eliminated(&e, &e.battle().initial()), Ratio::new(6364, 15625));
    }

    #[test]
    fn a_pinned_stand_holds_its_opportunity_fire_for_the_general_phase() {
        // Both MGs hold for opportunity fire; A starts pinned, so it fires in the
        // General Fire Phase, after B's op fire has landed. B's op fire: ROF 3 +1 = 4
        // dice at 4 -1 pinned personnel = 3, a hit eliminating on 7+: 3/25 a die, A
        // left with (22/25)^4 = 234256/390625. A's general fire: 3 dice at 4 -2 pinned
        // = 2: 1 - (23/25)^3 = 3458/15625. Both fired in one phase, B would fall with
        // 3458/15625 alone.
        let e = duel("stationary_personnel = \"in_the_open\"");
        let text = hmg_duel("stationary_personnel = \"in_the_open\"")
            .replace("weapon = \"hmg_platoon\"\n", "weapon = \"hmg_platoon\"\nfires_in = \"opportunity\"\n");
        let m = super::super::CommandDecision::load(None).expect("embedded tables load");
        let op = lumping::engagement::<CdBattle>(&text, |doc| engagement(doc, m.tables(), m.catalogue()));
        for (e, want) in [(&op, Ratio::new(234_256 * 3458, 390_625 * 15_625)), (&e, Ratio::new(3458, 15_625))] {
            let mut field = e.battle().initial();
            field.sides[0].companies[0] = Morale::Pinned;
            assert_eq!(p_b_eliminated(e, &field), want);
        }
    }

    #[test]
    fn lumped_states_give_the_labelled_chains_odds() {
        let m = super::super::CommandDecision::load(None).expect("embedded tables load");
        let e = lumping::engagement::<CdBattle>(PAIRS, |doc| engagement(doc, m.tables(), m.catalogue()));
        lumping::assert_lumping_changes_nothing(&e);
    }

    #[test]
    fn five_shermans_at_a_panther_fold_to_the_labelled_chains_odds() {
        // The shipped platoon grown to five and closed to 4 in., two turns (the
        // labelled reference grows fast): endings decided in the first turn are folded
        // into the tallies at once, and five Shermans make one field per count.
        let shipped = include_str!("../../../../experiments/cd_engagement_shermans_vs_panther.toml");
        let text = shipped.replacen("range = 17.5", "range = 4", 1).replacen("turns = 8", "turns = 2", 1).replacen(
            "count = 3",
            "count = 5",
            1,
        );
        let m = super::super::CommandDecision::load(None).expect("embedded tables load");
        let e = lumping::engagement::<CdBattle>(&text, |doc| engagement(doc, m.tables(), m.catalogue()));
        lumping::assert_lumping_changes_nothing(&e);
    }
}
