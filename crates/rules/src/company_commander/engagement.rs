//! Company Commander engagements: the player turns of seed 003 ("Game Turn Sequence of
//! Play") as far as they touch shooting, unit by unit.
//!
//! Each game turn:
//! 1. First player turn (the side named `first`, or listed first): each of its units in order, unless
//!    destroyed or suppressed ("A suppressed is temporarily immobilised and may not
//!    move, shoot or melee attack"), picks a target by the scenario's policy and fires
//!    every direct fire weapon that reaches and can harm it ("either all its direct
//!    fire weapons ... will attack"). The fire is this ruleset's set-up
//!    [`FireAction`] (ballistic score, penetration against armour + d6 and the d100 hit
//!    damage, or cover save and weapon strength), attacks = rate of fire x the firer's
//!    strength points left ("multiplied by the hit points remaining"), resolved at
//!    once: the target's new state stands for the next unit's fire (CC-E1).
//!    Infantry able to close assault attacks an adjacent (1 hex) armoured target only
//!    by close assault ("Infantry units that are capable of a close assault may only
//!    attack adjacent armoured units by a close assault"): the close assault
//!    scenario's three d6, with its numbers (CC-E9, CC-19).
//!    A unit that did not shoot is cautious; one that shot is not ("A unit that does
//!    not move or shoot is cautious") (CC-E2).
//! 2. At the end of that player turn its suppressed units attempt to recover ("remain
//!    suppressed until the end of its next player turn when it will automatically
//!    attempt to recover"); a recovered unit is cautious (CC-E3).
//! 3. Second player turn: the same for the other side.
//!
//! Overwatch fire, whose targets the seed leaves to a threshold it does not give, is
//! not played (CC-E10). Readings are
//! CC-E1 to CC-E10 in docs/interpretations.md.

use num_bigint::BigUint;
use serde::Deserialize;
use serde::de::IgnoredAny;
use toml::Spanned;

use super::catalogue::{self, Catalogue, RawArmour, RawWeapon, WeaponRef};
use super::fire::{FireAction, TargetState};
use super::scenario::{Ctx, Firer, RawFirer, RawTarget, ScenarioFile, Target};
use super::settings::{ArmourZoc, Recovery, Settings, SideBroken};
use super::tables::{Facing, Tables};
use crate::engagement::markov::MAX_STATES;
use crate::engagement::scenario::{self, NamedCompany, NoSupport};
use crate::engagement::schedule::Schedule;
use crate::engagement::target::{Fires, Targeting};
use crate::engagement::{Battle, Engagement, Field, FieldOf, Force, ForceOf, Layout, SIDES, enemy, turn_order};
use crate::ruleset::SetUp;
use combat_odds_core::dice::Die;
use combat_odds_core::document::Document;
use combat_odds_core::engine::Streams;
use combat_odds_core::error::Result;
use combat_odds_core::exact::{Dist, TooLarge, Weight};

/// Ranges are in hexes (1 hex = 100 m).
const HEXES: &str = "hexes";

/// A unit entry: units that fire as a `[firer]` and are fired at as a `[target]` of a
/// direct fire scenario, with the same keys.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawUnit {
    name: Spanned<String>,
    count: Option<Spanned<i64>>,
    company: Option<Spanned<String>>,
    quality: Option<Spanned<String>>,
    strength: Option<Spanned<u32>>,
    status: Option<Spanned<String>>,
    #[serde(default)]
    weapons: Vec<Spanned<WeaponRef>>,
    #[serde(default)]
    weapon_data: Vec<Spanned<RawWeapon>>,
    #[serde(default)]
    moved: bool,
    #[serde(default)]
    modifiers: Vec<Spanned<String>>,
    vehicle: Option<Spanned<String>>,
    armour: Option<Spanned<RawArmour>>,
    open_topped: Option<bool>,
    #[serde(default)]
    vulnerable: bool,
    hull_down: Option<Spanned<bool>>,
    cover: Option<Spanned<String>>,
    front_line: Option<Spanned<bool>>,
    facing: Option<Spanned<String>>,
    bearing: Option<Spanned<f64>>,
    close_assault: Option<Spanned<String>>,
}

scenario::unit_entry!(RawUnit);

/// Where the shared `[engagement]` keys stand, for this ruleset's own messages.
#[derive(Deserialize)]
struct At {
    engagement: AtKeys,
}

#[derive(Deserialize)]
struct AtKeys {
    range: Spanned<IgnoredAny>,
    end: Option<Spanned<IgnoredAny>>,
}

/// One unit's condition (seed 003 "Suppressed and Destruction", "Cautious(C)").
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Unit {
    /// Strength points left; 0 is destroyed.
    pub left: u32,
    /// Suppressed (S): it may not shoot, is harder to hit and vulnerable.
    pub suppressed: bool,
    /// Cautious (C): it did not shoot in its last player turn, or recovered from
    /// suppression; harder to hit.
    pub cautious: bool,
}

/// One firer entry's fire, set up, at one target entry at one range, by the firer's
/// strength points left and whether the target is cautious: `by[(left - 1) * 2 +
/// cautious]`. A suppressed target is the action's own business (its start state).
pub(super) struct Shot {
    by: Vec<FireAction>,
}

/// How one entry's suppressed units recover.
#[derive(Debug, Clone, Copy)]
enum Recover {
    Always,
    Never,
    /// A roll of `die` at or over `score`.
    AtLeast(Die, u32),
}

/// A Company Commander engagement, set up.
pub struct CcBattle {
    layout: Layout,
    schedule: Schedule,
    fires: Fires<Shot>,
    targeting: Targeting,
    /// Per side, per unit entry: each unit's condition before the first turn.
    start: [Vec<Unit>; 2],
    /// Per side, per unit entry.
    recover: [Vec<Recover>; 2],
    broken: SideBroken,
    /// Per side, per unit entry: infantry able to close assault (CC-19).
    assaults: [Vec<bool>; 2],
    /// Per side, per unit entry: armoured.
    armoured: [Vec<bool>; 2],
    /// Per range index: the sides are adjacent (1 hex).
    adjacent: Vec<bool>,
    /// What infantry beside enemy armour may attack (CC-E9).
    armour_zoc: ArmourZoc,
    /// Whether the field's conditions are few enough for the exact solver (CC-E8).
    exact_in_reach: bool,
    /// The sides in the order they play their player turns.
    order: [usize; 2],
}

/// The target's state as a fire action starts from it.
fn start_of(target: Unit, full: u32) -> TargetState {
    TargetState { lost: full - target.left, suppressed: target.suppressed, ..TargetState::default() }
}

/// The target after a fire action: a destroyed unit keeps no markers.
fn land(target: Unit, full: u32, after: &TargetState) -> Unit {
    let left = full - after.lost;
    if left == 0 { Unit::default() } else { Unit { left, suppressed: after.suppressed, cautious: target.cautious } }
}

impl CcBattle {
    /// Who unit `u` of `side` fires at (or close assaults) in range index `r`, and with
    /// which set-up action, as the field stands: `None` when it is destroyed,
    /// suppressed, or has nothing in reach. Under `infantry_beside_armour =
    /// "close_assault_only"` adjacent infantry able to close assault attacks only
    /// armour while any enemy armour is left (CC-E9).
    fn aim(&self, field: &FieldOf<Self>, side: usize, u: usize, r: usize) -> Option<(usize, &FireAction)> {
        let me = field.sides[side].units[u];
        if me.left == 0 || me.suppressed {
            return None;
        }
        let g = self.layout.sides[side].group_of[u];
        let foe = &field.sides[enemy(side)];
        let armoured = |t: usize| self.armoured[enemy(side)][self.layout.sides[enemy(side)].group_of[t]];
        let assault_only = self.armour_zoc == ArmourZoc::AssaultOnly
            && self.adjacent[r]
            && self.assaults[side][g]
            && (0..foe.units.len()).any(|t| foe.units[t].left > 0 && armoured(t));
        let t = self
            .targeting
            .choose(&self.layout, side, g, u, r, |t| foe.units[t].left > 0 && (!assault_only || armoured(t)))?;
        let tg = self.layout.sides[enemy(side)].group_of[t];
        let shot = self.fires.get(side, g, tg, r).expect("targets are chosen within reach");
        let target = foe.units[t];
        let variant = (me.left as usize - 1) * 2 + usize::from(target.cautious && !target.suppressed);
        Some((t, &shot.by[variant]))
    }

    fn recover_of(&self, side: usize, u: usize) -> Recover {
        self.recover[side][self.layout.sides[side].group_of[u]]
    }
}

/// A recovered unit is cautious ("changes its status from 'suppressed' to 'cautious'").
fn recovered(unit: &mut Unit) {
    unit.suppressed = false;
    unit.cautious = true;
}

impl Battle for CcBattle {
    type Unit = Unit;
    type Company = ();

    fn layout(&self) -> &Layout {
        &self.layout
    }

    fn initial(&self) -> FieldOf<Self> {
        Field {
            sides: SIDES.map(|s| {
                let layout = &self.layout.sides[s];
                Force {
                    companies: smallvec::smallvec![(); layout.companies.len()],
                    units: layout.group_of.iter().map(|&g| self.start[s][g]).collect(),
                    supports_spent: smallvec::SmallVec::new(),
                }
            }),
        }
    }

    fn eliminated(&self, unit: &Unit) -> bool {
        unit.left == 0
    }

    /// Fewer strength points left ahead (none left the worst), then suppressed, then
    /// cautious (E4).
    fn ahead(&self, a: &Unit, b: &Unit) -> std::cmp::Ordering {
        let severity = |u: &Unit| (std::cmp::Reverse(u.left), u.suppressed, u.cautious);
        severity(b).cmp(&severity(a))
    }

    /// CC-E5: the seed has no side morale; under `side_broken = "all_suppressed"` a side
    /// whose every surviving unit is suppressed (so none may shoot) is broken.
    fn broken(&self, _side: usize, force: &ForceOf<Self>) -> bool {
        match self.broken {
            SideBroken::Never => false,
            SideBroken::AllSuppressed => force.units.iter().all(|u| u.left == 0 || u.suppressed),
        }
    }

    fn group_states(&self) -> &[&'static str] {
        &["intact", "suppressed", "damaged", "destroyed"]
    }

    /// Destroyed when no unit is left; damaged when a unit lost a strength point or
    /// was destroyed; suppressed when a survivor is; else intact.
    fn group_state(&self, side: usize, group: usize, force: &ForceOf<Self>) -> usize {
        let g = &self.layout.sides[side].groups[group];
        let units = &force.units[g.units.clone()];
        let full = self.start[side][group].left;
        if units.iter().all(|u| u.left == 0) {
            3
        } else if units.iter().any(|u| u.left < full) {
            2
        } else if units.iter().any(|u| u.suppressed) {
            1
        } else {
            0
        }
    }

    fn turn(&self, field: &mut FieldOf<Self>, turn: u32, streams: &mut Streams) {
        let r = self.schedule.index(turn);
        for side in self.order {
            for u in 0..field.sides[side].units.len() {
                if field.sides[side].units[u].left == 0 {
                    continue;
                }
                match self.aim(field, side, u, r) {
                    None => field.sides[side].units[u].cautious = true,
                    Some((t, action)) => {
                        let target = field.sides[enemy(side)].units[t];
                        let after = action.trial_from(start_of(target, action.strength()), streams);
                        field.sides[enemy(side)].units[t] = land(target, action.strength(), &after);
                        field.sides[side].units[u].cautious = false;
                    }
                }
            }
            for u in 0..field.sides[side].units.len() {
                let unit = &mut field.sides[side].units[u];
                if unit.left == 0 || !unit.suppressed {
                    continue;
                }
                match self.recover_of(side, u) {
                    Recover::Always => recovered(unit),
                    Recover::Never => {}
                    Recover::AtLeast(die, score) => {
                        if die.roll(&mut streams.morale) >= score {
                            recovered(unit);
                        }
                    }
                }
            }
        }
    }

    fn turn_exact<W: Weight>(
        &self,
        field: &FieldOf<Self>,
        turn: u32,
    ) -> std::result::Result<Dist<FieldOf<Self>, W>, TooLarge> {
        if !self.exact_in_reach {
            return Err(TooLarge);
        }
        let r = self.schedule.index(turn);
        // Weighed in big integers: a fire's own distribution is (`Weights`).
        let mut dist: Dist<FieldOf<Self>, BigUint> = Dist::certain(field.clone());
        for side in self.order {
            for u in 0..field.sides[side].units.len() {
                dist = dist.then_within(MAX_STATES, |f| {
                    let mut g = f.clone();
                    if g.sides[side].units[u].left == 0 {
                        return Dist::certain(g);
                    }
                    match self.aim(f, side, u, r) {
                        None => {
                            g.sides[side].units[u].cautious = true;
                            Dist::certain(g)
                        }
                        Some((t, action)) => {
                            g.sides[side].units[u].cautious = false;
                            let target = f.sides[enemy(side)].units[t];
                            let full = action.strength();
                            action.exact_from(start_of(target, full)).map(|after| {
                                let mut h = g.clone();
                                h.sides[enemy(side)].units[t] = land(target, full, after);
                                h
                            })
                        }
                    }
                })?;
            }
            for u in 0..field.sides[side].units.len() {
                dist = dist.try_then_within(MAX_STATES, |f| {
                    let unit = f.sides[side].units[u];
                    let mut up = f.clone();
                    recovered(&mut up.sides[side].units[u]);
                    if unit.left == 0 || !unit.suppressed {
                        return Ok(Dist::certain(f.clone()));
                    }
                    match self.recover_of(side, u) {
                        Recover::Always => Ok(Dist::certain(up)),
                        Recover::Never => Ok(Dist::certain(f.clone())),
                        Recover::AtLeast(die, score) => {
                            let ok = (1..=die.sides()).filter(|&face| face >= score).count() as u32;
                            match ok {
                                0 => Ok(Dist::certain(f.clone())),
                                n if n == die.sides() => Ok(Dist::certain(up)),
                                n => Dist::from_weights([
                                    (up, BigUint::from(n)),
                                    (f.clone(), BigUint::from(die.sides() - n)),
                                ]),
                            }
                        }
                    }
                })?;
            }
        }
        dist.to_weights()
    }
}

/// The parts of a unit entry read by the direct fire set-up, as a firer and as a target.
fn split(unit: Spanned<RawUnit>) -> (Spanned<RawFirer>, Spanned<RawTarget>) {
    let span = unit.span();
    let u = unit.into_inner();
    let name = u.name.get_ref().clone();
    let firer = RawFirer {
        name: Some(name.clone()),
        quality: u.quality.clone(),
        strength: u.strength.clone(),
        weapons: u.weapons,
        weapon_data: u.weapon_data,
        moved: u.moved,
        changed_facing: false,
        modifiers: u.modifiers,
        target_in_front_arc: None,
        front_arc_from_facing: true,
        close_assault: u.close_assault,
    };
    let target = RawTarget {
        name: Some(name),
        quality: u.quality,
        strength: u.strength,
        status: u.status,
        vehicle: u.vehicle,
        armour: u.armour,
        open_topped: u.open_topped,
        vulnerable: u.vulnerable,
        hull_down: u.hull_down,
        cover: u.cover,
        front_line: u.front_line,
        facing: u.facing,
        bearing: u.bearing,
        visible: None,
        count: None,
    };
    (Spanned::new(span.clone(), firer), Spanned::new(span, target))
}

/// Compiles a Company Commander engagement scenario.
pub(super) fn set_up(doc: &Document, tables: &Tables, catalogue: &Catalogue) -> Result<SetUp> {
    engagement(doc, tables, catalogue).map(crate::engagement::set_up)
}

/// The engagement a scenario sets up, with the notes its set-up wrote.
fn engagement(doc: &Document, tables: &Tables, catalogue: &Catalogue) -> Result<(Engagement<CcBattle>, Vec<String>)> {
    let file: ScenarioFile = doc.parse()?;
    let settings = Settings::resolve(doc, &file.settings, "engagement", &tables.weapon_strength)?;
    // What only the engagement reads, kept as `settings` goes on to the fires' context.
    let Settings { recovery, broken, armour_zoc, .. } = settings;
    let setup = scenario::read::<RawUnit, NamedCompany, NoSupport>(doc, HEXES)?;
    let at = doc.parse::<At>()?.engagement;
    let range_at = at.range.span().start;
    if setup.end == (crate::engagement::EndConditions { eliminated: false, broken: true })
        && broken == SideBroken::Never
    {
        return Err(doc.error_at(
            at.end.map_or(range_at, |e| e.span().start),
            "a Company Commander side never breaks under side_broken = \"never\" (the seed has no side morale), so end = [\"broken\"] could never end it; add \"eliminated\" or set side_broken = \"all_suppressed\"",
        ));
    }
    let mut ranges = Vec::with_capacity(setup.schedule.ranges.len());
    for &r in &setup.schedule.ranges {
        if r.fract() != 0.0 || !(1.0..=f64::from(catalogue::MAX_RANGE_HEXES)).contains(&r) {
            return Err(doc.error_at(
                range_at,
                format!(
                    "the engagement is fought at {r} hexes, but ranges are whole hexes from 1 (adjacent) to {}; make range, closing and min_range whole numbers and min_range at least 1",
                    catalogue::MAX_RANGE_HEXES
                ),
            ));
        }
        ranges.push(r as u32);
    }
    let mut ctx = Ctx { doc, tables, catalogue, settings, notes: Vec::new() };
    let mut units: [Vec<(Firer, Target)>; 2] = [Vec::new(), Vec::new()];
    let mut spans: [Vec<usize>; 2] = [Vec::new(), Vec::new()];
    let mut start: [Vec<Unit>; 2] = [Vec::new(), Vec::new()];
    let mut recover: [Vec<Recover>; 2] = [Vec::new(), Vec::new()];
    let [a, b] = setup.units;
    for (side, entries) in [a, b].into_iter().enumerate() {
        for entry in entries {
            let at = entry.span().start;
            let name = entry.get_ref().name.get_ref().clone();
            let assault_key = entry.get_ref().close_assault.clone();
            if entry.get_ref().weapons.is_empty() && entry.get_ref().weapon_data.is_empty() {
                return Err(doc.error_at(
                    at,
                    format!("unit `{name}` has no weapons; give `weapons = [\"name\", ...]` from the catalogue or `[[side.unit.weapon_data]]` entries"),
                ));
            }
            let (raw_firer, raw_target) = split(entry);
            let mut target = ctx.target(raw_target, false, &format!("unit `{name}`"))?;
            // One strength for both roles: the target's, which a `vehicle` supplies.
            // The enemy is in the unit's front arc when the unit shows it its front
            // (CC-18); only a unit with armour has a facing.
            let mut firer = Firer {
                strength: target.strength,
                target_in_front_arc: target.armour.map(|_| target.facing == Facing::Front),
                ..ctx.firer(raw_firer)?
            };
            // Only infantry close assaults: an armoured unit never does, whatever it
            // carries (CC-19).
            if target.armour.is_some() {
                if let Some(k) = assault_key.filter(|k| k.get_ref() != "none") {
                    return Err(doc.error_at(
                        k.span().start,
                        format!("unit `{name}` is armoured, and only infantry close assaults (seed 003 \"Close assault\"); remove close_assault or the unit's `vehicle`/`armour`"),
                    ));
                }
                firer.close_assault = None;
            }
            if firer.target_in_front_arc.is_none()
                && let Some(w) = firer.weapons.iter().find(|w| w.mount.front_arc)
            {
                return Err(doc.error_at(
                    at,
                    format!("unit `{name}`: `{}` fires only into the front arc, which follows from the facing the unit shows the enemy; give it `vehicle` or `armour` and `facing`, or drop front_arc", w.name),
                ));
            }
            let full = target.strength;
            start[side].push(Unit {
                left: full,
                suppressed: target.suppressed,
                cautious: target.cautious || target.suppressed,
            });
            // The unit's condition is the engagement's to track from here on.
            (target.cautious, target.suppressed) = (false, false);
            let ca = &tables.close_assault;
            recover[side].push(match recovery {
                Recovery::QualityHitScore => Recover::AtLeast(ca.die, ca.hit_score[target.quality]),
                Recovery::Always => Recover::Always,
                Recovery::Never => Recover::Never,
            });
            spans[side].push(at);
            units[side].push((firer, target));
        }
    }
    let assaults = units.each_ref().map(|side| side.iter().map(|(f, _)| f.close_assault.is_some()).collect::<Vec<_>>());
    let armoured = units.each_ref().map(|side| side.iter().map(|(_, t)| t.armour.is_some()).collect::<Vec<_>>());
    let adjacent: Vec<bool> = ranges.iter().map(|&r| r == 1).collect();
    let mut notes = vec![format!(
        "{} turns at most, range {}; targets: {}; ends when a side is {}; suppressed units recover: {}; {} plays first",
        setup.turns,
        setup.schedule.describe(HEXES),
        setup.targets,
        match (setup.end.eliminated, setup.end.broken && broken == SideBroken::AllSuppressed) {
            (true, true) => "destroyed or has every surviving unit suppressed",
            (false, true) => "has every surviving unit suppressed",
            _ => "destroyed",
        },
        match recovery {
            Recovery::QualityHitScore =>
                format!("on a d{} at or over the quality's close assault hit score", tables.close_assault.die.sides()),
            Recovery::Always => "always".into(),
            Recovery::Never => "never".into(),
        },
        setup.layout.sides[setup.first].name
    )];
    // "A unit on overwatch can fire at enemy units, during the enemy player turn ...
    // The A.I. will not shoot at all enemy targets, but at ones with a high degree of a
    // probability of success": moving or not, but at which the seed does not say
    // (CC-E10).
    notes.push(
        "overwatch fire is not played: it fires in the enemy's player turn at targets with \"a high degree of a \
         probability of success\", a degree the seed does not give (CC-E10)"
            .into(),
    );
    let meets = |side: usize| assaults[side].iter().any(|&a| a) && armoured[enemy(side)].iter().any(|&a| a);
    if adjacent.iter().any(|&a| a) && SIDES.into_iter().any(meets) {
        notes.push(format!(
            "at 1 hex, infantry able to close assault attacks armour only by close assault{} (CC-E9)",
            match armour_zoc {
                ArmourZoc::AssaultArmourFireOthers => ", and fires at other units as usual",
                ArmourZoc::AssaultOnly => ", and nothing else while any enemy armour is left",
            }
        ));
    }
    let last = ranges.len() - 1;
    let fires = Fires::build(
        doc,
        (&setup.layout, &setup.schedule),
        HEXES,
        (|side, g| spans[side][g], |_, _| false),
        |side, g, tg, r| {
            let range = ranges[r];
            let (firer, _) = &units[side][g];
            let (_, target) = &units[enemy(side)][tg];
            // Infantry able to close assault "may only attack adjacent armoured units
            // by a close assault" (seed 003 "Close assault"; CC-E9).
            let assault = firer.close_assault.filter(|_| range == 1 && target.armour.is_some());
            let weapons: Vec<_> =
                firer.weapons.iter().filter(|w| ctx.can_fire(firer, w, target, range)).cloned().collect();
            if weapons.is_empty() && assault.is_none() {
                return Ok(None);
            }
            let full = firer.strength;
            let mut by = Vec::with_capacity(2 * full as usize);
            for left in 1..=full {
                for cautious in [false, true] {
                    let keep = ctx.notes.len();
                    let shooter = Firer { strength: left, weapons: weapons.clone(), ..firer.clone() };
                    let aim = Target { cautious, ..target.clone() };
                    by.push(match assault {
                        Some(class) => {
                            ctx.assault(&format!("{} (close assault)", firer.label), firer.quality, class, left, &aim)
                        }
                        None => {
                            let volleys = ctx.volleys(&shooter, &aim, (range, range_at), false, None)?;
                            ctx.action(volleys, &aim)
                        }
                    });
                    let shown = left == full && !cautious && (r == 0 || r == last);
                    if shown {
                        ctx.notes.insert(keep, format!("{} at {}, {range} hexes:", firer.label, target.label));
                    } else {
                        ctx.notes.truncate(keep);
                    }
                }
            }
            let fresh = &by[(full as usize - 1) * 2];
            let p_kill = fresh.exact_target().probability(|s| fresh.destroyed(s)).to_f64();
            Ok(Some((Shot { by }, p_kill)))
        },
    )?;
    notes.append(&mut ctx.notes);
    let targeting = Targeting::new(setup.targets, &fires);
    // Each unit can be destroyed, or alive at any strength left, suppressed or not,
    // cautious or not: the fields a turn can reach are at most the product. Past
    // MAX_STATES the solver's work (states x the fields each can reach) is out of
    // reach, so it is not started and the engagement is Monte Carlo alone (CC-E8).
    let conditions = SIDES
        .iter()
        .flat_map(|&s| setup.layout.sides[s].group_of.iter().map(move |&g| (s, g)))
        .try_fold(1usize, |n, (s, g)| n.checked_mul(4 * start[s][g].left as usize + 1))
        .filter(|&n| n <= MAX_STATES);
    if conditions.is_none() {
        notes.push(format!(
            "exact solution out of reach: the units' conditions combine in more than {MAX_STATES} ways; Monte Carlo only"
        ));
    }
    let battle = CcBattle {
        order: turn_order(setup.first),
        exact_in_reach: conditions.is_some(),
        layout: setup.layout,
        schedule: setup.schedule,
        fires,
        targeting,
        start,
        recover,
        broken,
        assaults,
        armoured,
        adjacent,
        armour_zoc,
    };
    Ok((Engagement::new(battle, setup.turns, setup.end), notes))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engagement::markov::lumping;
    use crate::ruleset::Load;

    /// Two Shermans against two Panthers closing from 10 hexes to 2, each side
    /// spreading its fire.
    const PAIRS: &str = include_str!("../../fixtures/lumping_cc.toml");

    #[test]
    fn lumped_states_give_the_labelled_chains_odds() {
        let m = super::super::CompanyCommander::load(None).expect("embedded tables load");
        let e = lumping::engagement::<CcBattle>(PAIRS, |doc| engagement(doc, m.tables(), m.catalogue()));
        lumping::assert_lumping_changes_nothing(&e);
    }

    /// Infantry close assaulting adjacent armour, and held to it (CC-E9).
    const ASSAULTS: &str = include_str!("../../fixtures/lumping_cc_close_assault.toml");

    #[test]
    fn lumped_states_give_the_labelled_chains_odds_with_close_assault() {
        let m = super::super::CompanyCommander::load(None).expect("embedded tables load");
        let e = lumping::engagement::<CcBattle>(ASSAULTS, |doc| engagement(doc, m.tables(), m.catalogue()));
        lumping::assert_lumping_changes_nothing(&e);
    }
}
