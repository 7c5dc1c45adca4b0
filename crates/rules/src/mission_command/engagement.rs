//! Mission Command engagements: two sides of groups (foot elements or AFVs) fighting
//! turn after turn by the seed's player turns, with point-to-point fire, suppression
//! markers and reaction tests.
//!
//! One engagement turn is one game turn: the side listed first plays its player turn,
//! then the other (seed 004's sequence is IGO-UGO: "enemy turn just ended", "previous
//! friendly turn"; no fire is simultaneous). In a side's player turn (MC-E1):
//! 1. Reaction tests: each group that took a hit in the enemy's player turn, and each
//!    group carrying out a retreat (it "will attempt to rally next turn"), rolls a d10
//!    on Reaction Test adjustments with its quality, command, standing conditions,
//!    -2 for each element eliminated, -1 for each element suppressed and -2 while
//!    retreating (MC-E4). Obey orders and Halt let it shoot; Cease fire and retire
//!    stops its fire this turn; Retreat stops it until a new result applies (a group
//!    fired upon takes only a worse one); Rout takes it out for good (MC-E5). A group
//!    retreating or routing within 5cm of an enemy AFV surrenders (MC-E7).
//! 2. Shoot: each element that may shoot, one after another, fires one point-to-point
//!    shot at the target its side's policy picks: the compiled [`Shot`] of the
//!    point-to-point scenario (Point-to-point Fire to Hit, then Convert Hit to Casualty
//!    for foot or Conversion to KO for AFVs), at -1 to hit for each suppression marker
//!    it carries. A conversion eliminates the target; a hit that does not convert puts
//!    a suppression marker on it (MC-E2).
//! 3. The side's suppression markers come off (setting `suppression_markers`, MC-E3),
//!    and Halt and Cease fire results, which govern one turn, lapse.
//!
//! A side is broken when every group it has left has routed (setting `side_broken`,
//! MC-E8). Readings are MC-E1 to MC-E9 in docs/interpretations.md.

use num_bigint::BigUint;
use serde::Deserialize;
use toml::Spanned;

use super::catalogue::{Catalogue, RawWeapon};
use super::fire::{Shot, effect_by_face};
use super::scenario::{Ctx, MAX_MARKERS, QUALITIES, REACTION_FROM_QUALITY, Target, face_text};
use super::settings::{MarkersCome, RawSettings, Settings, SideBroken};
use super::tables::{CASUALTY_COLUMNS, Reaction, Tables};
use combat_odds_core::dice::{D10, D20};
use combat_odds_core::document::Document;
use crate::engagement::scenario::{self, NamedCompany};
use crate::engagement::schedule::Schedule;
use crate::engagement::target::{Fires, Targeting};
use crate::engagement::{Battle, Engagement, Field, FieldOf, Force, ForceOf, Layout, SIDES, enemy, markov};
use combat_odds_core::engine::Streams;
use combat_odds_core::error::Result;
use combat_odds_core::exact::{Dist, TooLarge};
use crate::ruleset::SetUp;
use crate::setup::{Sum, choice};

/// Ranges are in centimetres on the table (1cm = 20m).
const CM: &str = "cm";
/// "Elements within 5cm of enemy AFV surrender" (Reaction Test effects, Retreat).
const SURRENDER_CM: f64 = 5.0;
/// Reaction rows the engagement counts from the field at each test (the quality rows
/// come from the unit's `quality`, as in a reaction scenario).
const COUNTED_REACTION: [(&str, &str); 3] = [
    ("element_suppressed", "counted at each test from the group's suppressed elements"),
    ("element_eliminated", "counted at each test from the group's eliminated elements"),
    ("retreating", "from the group's own retreat result"),
];
/// Reaction rows an engagement does not track (MC-E6), refused with the reason.
const UNTRACKED_REACTION: [&str; 2] = ["enemy_afv_knocked_out", "friendly_afv_knocked_out"];
/// To-hit rows for opportunity fire, which an engagement does not fight (MC-E9).
const OPPORTUNITY: [&str; 2] = ["opp_fire_foot_moving_fast", "opp_fire_came_into_view"];

/// A unit entry: a group of `count` identical elements, each firing as a
/// point-to-point `[[firer]]` and fired at as a `[target]`, testing reaction as a
/// `[group]`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawGroup {
    name: Spanned<String>,
    count: Option<Spanned<i64>>,
    company: Option<Spanned<String>>,
    weapon: Option<Spanned<String>>,
    weapon_data: Option<Spanned<RawWeapon>>,
    quality: Option<Spanned<String>>,
    #[serde(default)]
    engineers: bool,
    #[serde(default)]
    out_of_command: bool,
    situation: Option<Spanned<String>>,
    armour_class: Option<Spanned<i64>>,
    #[serde(default)]
    fire_modifiers: Vec<Spanned<String>>,
    #[serde(default)]
    target_modifiers: Vec<Spanned<String>>,
    #[serde(default)]
    reaction_modifiers: Vec<Spanned<String>>,
}

scenario::unit_entry!(RawGroup);

#[derive(Deserialize)]
struct SettingsOnly {
    #[serde(default)]
    settings: RawSettings,
}

/// An element's standing, in rising severity. A group's living elements always share
/// it; Halted and Ceased fire last only through the player turn that gave them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum Status {
    /// Obeying orders.
    #[default]
    InAction,
    /// "Halt or move to cover": it may still shoot.
    Halted,
    /// "Cease fire and retire": it may not shoot this turn.
    CeasedFire,
    /// "Retreat": it does not shoot until a new result applies.
    Retreating,
    /// "Rout": out of the fight; no new reaction test.
    Routed,
    /// Eliminated (a casualty, a KO, or surrendered).
    Eliminated,
}

impl Status {
    /// The standing a reaction result gives (REACTION_RESULTS order).
    const BY_RESULT: [Status; 5] =
        [Status::InAction, Status::Halted, Status::CeasedFire, Status::Retreating, Status::Routed];

    /// Whether an element in this standing may take the Shoot action.
    fn shoots(self) -> bool {
        matches!(self, Status::InAction | Status::Halted)
    }
}

/// One element's condition between steps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Element {
    /// Its standing.
    pub status: Status,
    /// Suppression markers on it.
    pub markers: u8,
    /// It was hit since its group's last reaction test: a trigger for the next.
    pub hit: bool,
}

/// The words for an entry's condition at the end, in rising severity.
const GROUP_STATES: [&str; 5] = ["in_action", "suppressed", "retreating", "routed", "eliminated"];

/// What one entry is, as the engagement's own rules ask.
#[derive(Debug, Clone)]
struct Kind {
    /// An AFV (it has an armour class): foot retreating near it surrender.
    afv: bool,
    /// The reaction test's standing modifiers: quality, command and named conditions.
    reaction: i32,
}

/// The reaction test chart folded to integers before the first turn.
struct ReactionChart {
    /// Modifier for n elements eliminated / suppressed, n = 0..=most elements.
    eliminated: Vec<i32>,
    suppressed: Vec<i32>,
    retreating: i32,
}

/// What one shot did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Outcome {
    Miss,
    /// A hit that did not convert: a suppression marker.
    Suppressed,
    /// Converted: a casualty or a KO.
    Eliminated,
}

/// A compiled Mission Command engagement.
pub struct McBattle {
    layout: Layout,
    schedule: Schedule,
    fires: Fires<Shot>,
    targeting: Targeting,
    /// Per side, per unit entry.
    kinds: [Vec<Kind>; 2],
    chart: ReactionChart,
    /// To-hit modifier for n suppression markers, n = 0..=MAX_MARKERS.
    marker_modifier: Vec<i32>,
    reaction: Reaction,
    settings: Settings,
}

/// A reaction test one group takes: its modifiers and whether it was fired upon.
#[derive(Debug, Clone, Copy)]
struct Test {
    shift: i32,
    fired_upon: bool,
}

impl McBattle {
    /// The standing of group `g` of `side` (that of any living element), or
    /// `Eliminated` when none is left.
    fn standing(&self, force: &ForceOf<Self>, side: usize, g: usize) -> Status {
        let units = self.layout.sides[side].groups[g].units.clone();
        force.units[units].iter().map(|e| e.status).find(|s| *s != Status::Eliminated).unwrap_or(Status::Eliminated)
    }

    /// Clears group `g`'s trigger and says whether it tests and with what (MC-E4):
    /// a living, unrouted group that was hit, or is retreating.
    fn test_of(&self, field: &mut FieldOf<Self>, side: usize, g: usize) -> Option<Test> {
        let standing = self.standing(&field.sides[side], side, g);
        let units = self.layout.sides[side].groups[g].units.clone();
        let group = &mut field.sides[side].units[units];
        let fired_upon = group.iter().any(|e| e.hit);
        group.iter_mut().for_each(|e| e.hit = false);
        if standing >= Status::Routed || !(fired_upon || standing == Status::Retreating) {
            return None;
        }
        let eliminated = group.iter().filter(|e| e.status == Status::Eliminated).count();
        let suppressed = group.iter().filter(|e| e.status != Status::Eliminated && e.markers > 0).count();
        let ch = &self.chart;
        let shift = self.kinds[side][g].reaction
            + ch.eliminated[eliminated]
            + ch.suppressed[suppressed]
            + if standing == Status::Retreating { ch.retreating } else { 0 };
        Some(Test { shift, fired_upon })
    }

    /// The reaction result of a d10 `face` for group `g` (MC-E5, MC-E7).
    fn react(&self, field: &mut FieldOf<Self>, side: usize, g: usize, test: Test, face: u32, range: f64) {
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
            e.status = status;
            if status == Status::Eliminated {
                e.markers = 0;
            }
        }
    }

    /// The shot element `u` of `side` takes at range index `r`, if it may shoot and
    /// has a target: (target element, natural d20 it hits from, compiled shot).
    /// Routed enemies are fired at only when no other is left in reach (MC-E5).
    fn aim(&self, field: &FieldOf<Self>, side: usize, u: usize, r: usize) -> Option<(usize, i32, &Shot)> {
        let element = field.sides[side].units[u];
        if !element.status.shoots() {
            return None;
        }
        let foe = enemy(side);
        let enemies = &field.sides[foe].units;
        let group = self.layout.sides[side].group_of[u];
        let choose = |alive: &dyn Fn(usize) -> bool| self.targeting.choose(&self.layout, side, group, u, r, alive);
        let t = choose(&|t| enemies[t].status < Status::Routed)
            .or_else(|| choose(&|t| enemies[t].status != Status::Eliminated))?;
        let shot = self.fires.get(side, group, self.layout.sides[foe].group_of[t], r).expect("targets are in reach");
        let from =
            shot.hit_from.expect("point-to-point fire rolls to hit") - self.marker_modifier[element.markers as usize];
        Some((t, from, shot))
    }

    /// One shot's result on its target (MC-E2).
    fn land(field: &mut FieldOf<Self>, side: usize, t: usize, outcome: Outcome) {
        let target = &mut field.sides[enemy(side)].units[t];
        match outcome {
            Outcome::Miss => {}
            Outcome::Suppressed => {
                target.markers = (target.markers + 1).min(MAX_MARKERS as u8);
                target.hit = true;
            }
            Outcome::Eliminated => *target = Element { status: Status::Eliminated, markers: 0, hit: true },
        }
    }

    /// The end of `side`'s player turn: one-turn results lapse, markers come off (MC-E3).
    fn end_of_turn(&self, field: &mut FieldOf<Self>, side: usize) {
        for e in &mut field.sides[side].units {
            if matches!(e.status, Status::Halted | Status::CeasedFire) {
                e.status = Status::InAction;
            }
            if self.settings.suppression_markers == MarkersCome::OffAfterOwnTurn {
                e.markers = 0;
            }
        }
    }
}

/// Shot outcomes by the natural faces of the to-hit and conversion d20s.
fn outcome(shot: &Shot, from: i32, to_hit: u32, convert: u32) -> Outcome {
    if (to_hit as i32) < from {
        Outcome::Miss
    } else if shot.effect[convert as usize - 1] == 2 {
        Outcome::Eliminated
    } else {
        Outcome::Suppressed
    }
}

impl Battle for McBattle {
    type Unit = Element;
    type Company = ();

    fn layout(&self) -> &Layout {
        &self.layout
    }

    fn initial(&self) -> FieldOf<Self> {
        Field {
            sides: SIDES.map(|s| Force {
                companies: vec![(); self.layout.sides[s].companies.len()],
                units: vec![Element::default(); self.layout.sides[s].units()],
            }),
        }
    }

    fn eliminated(&self, e: &Element) -> bool {
        e.status == Status::Eliminated
    }

    /// Every element left has routed (or, by `side_broken`, is retreating) (MC-E8).
    fn broken(&self, _side: usize, force: &ForceOf<Self>) -> bool {
        let out = match self.settings.side_broken {
            SideBroken::AllRouted => Status::Routed,
            SideBroken::AllRetreatingOrRouted => Status::Retreating,
        };
        force.units.iter().all(|e| e.status >= out)
    }

    fn group_states(&self) -> &[&'static str] {
        &GROUP_STATES
    }

    fn group_state(&self, side: usize, group: usize, force: &ForceOf<Self>) -> usize {
        match self.standing(force, side, group) {
            Status::Eliminated => 4,
            Status::Routed => 3,
            Status::Retreating => 2,
            _ => {
                let units = self.layout.sides[side].groups[group].units.clone();
                usize::from(force.units[units].iter().any(|e| e.status != Status::Eliminated && e.markers > 0))
            }
        }
    }

    fn turn(&self, field: &mut FieldOf<Self>, turn: u32, streams: &mut Streams) {
        let (r, range) = (self.schedule.index(turn), self.schedule.range(turn));
        for side in SIDES {
            for g in 0..self.layout.sides[side].groups.len() {
                if let Some(test) = self.test_of(field, side, g) {
                    let face = D10.roll(&mut streams.morale);
                    self.react(field, side, g, test, face, range);
                }
            }
            for u in 0..field.sides[side].units.len() {
                if let Some((t, from, shot)) = self.aim(field, side, u, r) {
                    let to_hit = D20.roll(&mut streams.fire);
                    // The conversion d20 is rolled only for a hit, as in point-to-point fire.
                    let convert = if to_hit as i32 >= from { D20.roll(&mut streams.effect) } else { 1 };
                    Self::land(field, side, t, outcome(shot, from, to_hit, convert));
                }
            }
            self.end_of_turn(field, side);
        }
    }

    fn turn_exact(
        &self,
        field: &FieldOf<Self>,
        turn: u32,
    ) -> std::result::Result<Dist<FieldOf<Self>, BigUint>, TooLarge> {
        let (r, range) = (self.schedule.index(turn), self.schedule.range(turn));
        let mut dist: Dist<FieldOf<Self>, BigUint> = Dist::certain(field.clone());
        for side in SIDES {
            for g in 0..self.layout.sides[side].groups.len() {
                dist = dist.then_within(markov::MAX_STATES, |f| {
                    let mut f = f.clone();
                    match self.test_of(&mut f, side, g) {
                        None => Dist::certain(f),
                        Some(test) => Dist::roll(D10, |face| {
                            let mut f = f.clone();
                            self.react(&mut f, side, g, test, face, range);
                            f
                        }),
                    }
                })?;
            }
            for u in 0..field.sides[side].units.len() {
                dist = dist.try_then_within(markov::MAX_STATES, |f| {
                    let Some((t, from, shot)) = self.aim(f, side, u, r) else { return Ok(Dist::certain(f.clone())) };
                    // 20 x 20 equally likely pairs of faces, by outcome.
                    let mut weights = [0u32; 3];
                    for to_hit in 1..=20 {
                        for convert in 1..=20 {
                            weights[outcome(shot, from, to_hit, convert) as usize] += 1;
                        }
                    }
                    let outcomes = [Outcome::Miss, Outcome::Suppressed, Outcome::Eliminated];
                    Dist::from_weights(outcomes.iter().zip(weights).map(|(&o, w)| {
                        let mut f = f.clone();
                        Self::land(&mut f, side, t, o);
                        (f, BigUint::from(w))
                    }))
                })?;
            }
            dist = dist.map(|f| {
                let mut f = f.clone();
                self.end_of_turn(&mut f, side);
                f
            });
        }
        Ok(dist)
    }
}

/// One entry compiled: what it fires, how it is fired at.
struct Entry {
    who: String,
    weapon: super::catalogue::Weapon,
    quality: &'static str,
    engineers: bool,
    fire: Sum,
    target: Target,
    target_modifiers: Vec<(String, i32)>,
}

/// Compiles a Mission Command engagement scenario.
pub(super) fn set_up(doc: &Document, tables: &Tables, catalogue: &Catalogue) -> Result<SetUp> {
    engagement(doc, tables, catalogue).map(crate::engagement::set_up)
}

/// The engagement a scenario sets up, with the notes its set-up wrote.
fn engagement(doc: &Document, tables: &Tables, catalogue: &Catalogue) -> Result<(Engagement<McBattle>, Vec<String>)> {
    let mut setup = scenario::read::<RawGroup, NamedCompany>(doc, CM)?;
    let settings = Settings::resolve(doc, &doc.parse::<SettingsOnly>()?.settings)?;
    let mut cx = Ctx { doc, tables, settings, notes: Vec::new() };
    let broken = match settings.side_broken {
        SideBroken::AllRouted => "every group left routed",
        SideBroken::AllRetreatingOrRouted => "every group left retreating or routed",
    };
    let mut notes = vec![format!(
        "{} turns at most, range {}; targets: {:?}; ends when a side is {}; the side listed first plays first",
        setup.turns,
        setup.schedule.describe(CM),
        setup.targets,
        match (setup.end.eliminated, setup.end.broken) {
            (true, true) => format!("eliminated or broken ({broken})"),
            (true, false) => "eliminated".to_string(),
            _ => format!("broken ({broken})"),
        }
    )];
    let mut entries: [Vec<Entry>; 2] = [Vec::new(), Vec::new()];
    let mut kinds: [Vec<Kind>; 2] = [Vec::new(), Vec::new()];
    for side in SIDES {
        for raw in &mut setup.units[side] {
            let at = raw.span().start;
            let raw = raw.get_mut();
            let who = format!("unit `{}`", raw.name.get_ref());
            refuse_conditions(doc, raw)?;
            let weapon = cx.weapon(catalogue, &who, (&raw.weapon, raw.weapon_data.take()))?;
            let quality = choice(doc, raw.quality.as_ref(), "quality", &QUALITIES, "regular")?;
            let fire = cx.firer_modifiers(&who, &weapon, 0, &raw.fire_modifiers)?;
            let (target, target_modifiers) =
                cx.target((&raw.situation, &raw.armour_class), &raw.target_modifiers, false, (Some(at), &who))?;
            let mut reaction = Sum::new(0);
            cx.reaction_quality(&mut reaction, quality, raw.out_of_command);
            let automatic: Vec<_> = REACTION_FROM_QUALITY.iter().chain(&COUNTED_REACTION).copied().collect();
            cx.reaction_named(&mut reaction, &raw.reaction_modifiers, &automatic)?;
            notes.push(format!(
                "{}: {}, {quality}{}, {}; reaction modifiers {}",
                raw.name.get_ref(),
                weapon.label,
                if raw.engineers { " engineers" } else { "" },
                match target {
                    Target::Casualty(c) => format!("fired at as {}", CASUALTY_COLUMNS[c]),
                    Target::Armour(ac) => format!("an AFV of armour class {ac}"),
                },
                reaction.describe_modifiers()
            ));
            kinds[side].push(Kind { afv: matches!(target, Target::Armour(_)), reaction: reaction.modifiers() });
            entries[side].push(Entry {
                who,
                weapon,
                quality,
                engineers: raw.engineers,
                fire,
                target,
                target_modifiers,
            });
        }
    }
    let shot_notes_from = notes.len();
    let fires = Fires::build(
        doc,
        &setup.layout,
        &setup.schedule,
        CM,
        |side, g| setup.units[side][g].span().start,
        |side, firer, target, r| {
            let range = setup.schedule.ranges[r];
            let (f, t) = (&entries[side][firer], &entries[enemy(side)][target]);
            let quiet = cx.notes.len();
            let compiled = shot(&mut cx, f, t, range);
            cx.notes.truncate(quiet);
            let Some((shot, convert)) = compiled else { return Ok(None) };
            let from = shot.hit_from.expect("point-to-point fire rolls to hit");
            let p_hit = f64::from((21 - from).clamp(0, 20)) / 20.0;
            let p_convert = f64::from((21 - convert).clamp(0, 20)) / 20.0;
            notes.push(format!(
                "  {} at {}, {range}cm: hits on {}, converts on {}",
                setup.layout.sides[side].groups[firer].name,
                setup.layout.sides[enemy(side)].groups[target].name,
                face_text(from),
                face_text(convert)
            ));
            Ok(Some((shot, p_hit * p_convert)))
        },
    )?;
    notes[shot_notes_from..].sort();
    let targeting = Targeting::new(setup.targets, &fires);
    let most = setup.layout.sides.iter().flat_map(|s| &s.groups).map(|g| g.count as usize).max().unwrap_or(1);
    let chart = &tables.reaction.modifiers;
    let per = |name: &str| (0..=most).map(|n| chart.get(name).value(n as i32)).collect();
    let reaction_chart = ReactionChart {
        eliminated: per("element_eliminated"),
        suppressed: per("element_suppressed"),
        retreating: chart.get("retreating").value(1),
    };
    let marker = tables.to_hit.modifiers.get("suppression_marker");
    notes.push(format!(
        "each suppression marker {:+} to hit; markers {}",
        marker.value(1),
        match settings.suppression_markers {
            MarkersCome::OffAfterOwnTurn => "come off at the end of the side's own turn",
            MarkersCome::Never => "stay on",
        }
    ));
    let battle = McBattle {
        layout: setup.layout,
        schedule: setup.schedule,
        fires,
        targeting,
        kinds,
        chart: reaction_chart,
        marker_modifier: (0..=MAX_MARKERS as i32).map(|n| marker.value(n)).collect(),
        reaction: tables.reaction.clone(),
        settings,
    };
    notes.extend(cx.notes);
    Ok((Engagement::new(battle, setup.turns, setup.end), notes))
}

/// Conditions the engagement sets from the field, refused where a unit names them.
fn refuse_conditions(doc: &Document, raw: &RawGroup) -> Result<()> {
    let reason = |name: &str| -> Option<&str> {
        if name == "suppression_marker" {
            Some("comes from the hits the element takes in an engagement")
        } else if OPPORTUNITY.contains(&name) {
            Some("is for opportunity fire, which an engagement does not fight (MC-E9)")
        } else if UNTRACKED_REACTION.contains(&name) {
            Some("is not tracked in an engagement (MC-E6); leave it out")
        } else {
            None
        }
    };
    for m in raw.fire_modifiers.iter().chain(&raw.target_modifiers).chain(&raw.reaction_modifiers) {
        if let Some(why) = reason(m.get_ref()) {
            return Err(doc.error_at(m.span().start, format!("modifier `{}` {why}", m.get_ref())));
        }
    }
    if let Some(s) = &raw.situation
        && s.get_ref() == "moving_in_no_cover"
    {
        return Err(doc.error_at(
            s.span().start,
            "the \"Moving in no cover\" column is for opportunity fire, which an engagement does not fight (MC-E9); pick another situation",
        ));
    }
    Ok(())
}

/// The point-to-point shot of entry `f` at entry `t` at `range`, through the same
/// compilation as a point-to-point scenario, with the face its hit converts from;
/// `None` where the rules let it do nothing there (out of reach, an N/A or "Area
/// Fire" cell, no casualty row, or no effect on that target).
fn shot(cx: &mut Ctx, f: &Entry, t: &Entry, range: f64) -> Option<(Shot, i32)> {
    let score = cx.score(&f.who, &f.weapon, (f.quality, f.engineers), range).ok()?;
    let convert = cx.conversion(&f.who, &f.weapon, &t.target, range).ok()??;
    let hit_from = score - f.fire.modifiers() - t.target_modifiers.iter().map(|(_, v)| v).sum::<i32>();
    let effect = effect_by_face(1, &[(2, convert)]);
    Some((Shot { hit_from: Some(hit_from), effect, capped: true }, convert))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engagement::markov::lumping;
    use crate::ruleset::Load;

    /// Two rifle sections against two MG 42s closing from 15cm to 5cm, each side
    /// spreading its fire.
    const PAIRS: &str = include_str!("../../fixtures/lumping_mc.toml");

    #[test]
    fn lumped_states_give_the_labelled_chains_odds() {
        let m = super::super::MissionCommand::load(None).expect("embedded tables load");
        let e = lumping::engagement::<McBattle>(PAIRS, |doc| engagement(doc, m.tables(), m.catalogue()));
        lumping::assert_lumping_changes_nothing(&e);
    }
}
