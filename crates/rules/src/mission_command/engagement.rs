//! Mission Command engagements: two sides of groups (foot elements or AFVs) fighting
//! turn after turn by the seed's player turns, with point-to-point and area fire,
//! suppression markers and reaction tests.
//!
//! One engagement turn is one game turn: the side named `first` (or listed first)
//! plays its player turn, then the other (seed 004's sequence is IGO-UGO: "enemy turn just ended", "previous
//! friendly turn"; no fire is simultaneous). In a side's player turn (MC-E1):
//! 1. Reaction tests: each group that took a hit in the enemy's player turn, and each
//!    group carrying out a retreat (it "will attempt to rally next turn"), rolls a d10
//!    on Reaction Test adjustments with its quality, command, standing conditions,
//!    -2 for each element eliminated, -1 for each element suppressed and -2 while
//!    retreating (MC-E4), and the rows the fight itself gives: -3 under fire from an
//!    AFV within 15cm, +1 an enemy seen retreating, -1 friendly elements moved away
//!    from the enemy (MC-E10). Obey orders and Halt let it shoot; Cease fire and
//!    retire stops its fire this turn; Retreat stops it until a new result applies (a
//!    group fired upon takes only a worse one); Rout takes it out for good (MC-E5). A
//!    group retreating or routing within 5cm of an enemy AFV surrenders (MC-E7).
//! 2. Shoot: each element that may shoot, one after another, fires at the target its
//!    side's policy picks. Point-to-point fire is the compiled [`Shot`] of the
//!    point-to-point scenario (Point-to-point Fire to Hit, then Convert Hit to Casualty
//!    for foot or Conversion to KO for AFVs), at -1 to hit for each suppression marker
//!    it carries and -2 after lying under HE area fire. A conversion eliminates the
//!    target; a hit that does not convert puts a suppression marker on it (MC-E2). An
//!    entry firing area fire places a template on the entry aimed at: the area fire
//!    scenarios' own [`Fire`], its KOs, casualties and suppressions landing on the
//!    elements under it (MC-E11).
//! 3. The side's suppression markers come off (setting `suppression_markers`, MC-E3),
//!    and Halt and Cease fire results, which govern one turn, lapse; elements that
//!    ceased fire, retreated or routed within 15cm have moved away from the enemy.
//!
//! A side is broken when every group it has left has routed (setting `side_broken`,
//! MC-E8). Readings are MC-E1 to MC-E11 in docs/interpretations.md.

use std::ops::Range;

use serde::Deserialize;
use toml::Spanned;

use super::catalogue::{Catalogue, RawWeapon, Weapon};
use super::fire::{Counts, Fire, FireState, Shot, effect_by_face};
use super::scenario::{AreaAim, Ctx, MAX_MARKERS, QUALITIES, REACTION_FROM_QUALITY, RawAreaFire, Target, face_text};
use super::settings::{MarkersCome, RawSettings, Settings, SideBroken, TemplateCovers};
use super::tables::{BUILDING_RESULTS, CASUALTY_COLUMNS, Reaction, Tables};
use crate::engagement::scenario::{self, NamedCompany, NoSupport};
use crate::engagement::schedule::Schedule;
use crate::engagement::target::{Fires, Targeting};
use crate::engagement::{Battle, Engagement, Field, FieldOf, Force, ForceOf, Layout, SIDES, enemy, markov, turn_order};
use crate::ruleset::SetUp;
use crate::setup::{Sum, choice};
use combat_odds_core::dice::{D10, D20};
use combat_odds_core::document::Document;
use combat_odds_core::engine::Streams;
use combat_odds_core::engine::{Measure, Resolution};
use combat_odds_core::error::Result;
use combat_odds_core::exact::{Dist, TooLarge, Weight};

/// Ranges are in centimetres on the table (1cm = 20m).
const CM: &str = "cm";
/// "Elements within 5cm of enemy AFV surrender" (Reaction Test effects, Retreat).
const SURRENDER_CM: f64 = 5.0;
/// "Under fire from AFV within 15cm" and "moved away from any enemy within 15cm"
/// (Reaction Test adjustments).
const WITHIN_15CM: f64 = 15.0;
/// Reaction rows the fight's own state gives (MC-E10), counted from it unless the
/// setting `derived_reaction_rows = "named"` lets a unit name them for the whole fight.
const DERIVED_REACTION: [(&str, &str); 3] = [
    ("under_fire_from_afv_within_15cm", "an enemy AFV fired at the group at 15cm or less in the enemy turn just ended"),
    ("enemy_seen_retreating", "an enemy group is retreating or routed at the test"),
    (
        "friendly_moved_away_from_enemy",
        "an element of the side took a Cease fire, Retreat or Rout result at 15cm or less in its last turn",
    ),
];
/// Reaction rows that stay standing conditions in an engagement, noted when named:
/// the fight does not track who has located whom, nor salvo, flame or air attacks.
const STANDING_REACTION: [&str; 2] = ["under_fire_from_unlocated", "under_salvo_flame_or_air_attack"];
/// Reaction rows the engagement counts from the field at each test (the quality rows
/// come from the unit's `quality`, as in a reaction scenario).
const COUNTED_REACTION: [(&str, &str); 3] = [
    ("element_suppressed", "counted at each test from the group's suppressed elements"),
    ("element_eliminated", "counted at each test from the group's eliminated elements"),
    ("retreating", "from the group's own retreat result"),
];
/// Reaction rows an engagement does not track (MC-E6), refused with the reason.
const UNTRACKED_REACTION: [&str; 2] = ["enemy_afv_knocked_out", "friendly_afv_knocked_out"];
/// "Firer has been under HE area fire in the previous enemy turn" (-2 to hit): set by
/// the templates of the fight (MC-E11).
const UNDER_HE: &str = "under_he_area_fire";
/// A structure's strengths in Area Fire Convert to Casualties and KO - Buildings
/// and Fortifications are read for entries in this casualty column.
const FORTIFIED: &str = "fortified";
/// Casualties a "D" result (structural level destroyed) takes from the entry under
/// the template: "1 casualty vulnerable, 1 casualty non-vulnerable", every element of
/// a fortified entry read as vulnerable (MC-E11).
const DESTROYED_CASUALTIES: u32 = 1;
/// Suppression markers on each element under a template, by building result
/// (BUILDING_RESULTS order): "S = 1 suppression each vulnerable element", C likewise,
/// "D = ... 2 suppressions each vulnerable element".
const BUILDING_MARKERS: [u8; 4] = [0, 1, 1, 2];
/// Casualties by building result: C "1 casualty to single vulnerable element", D as
/// [`DESTROYED_CASUALTIES`].
const BUILDING_CASUALTIES: [u32; 4] = [0, 0, 1, DESTROYED_CASUALTIES];
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
    /// Area fire instead of point-to-point fire (MC-E11).
    area_fire: Option<Spanned<RawAreaFire>>,
    /// The strength of the structure a fortified entry holds (MC-E11).
    structure: Option<Spanned<String>>,
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
    /// An enemy AFV fired at its group at 15cm or less since the group's last
    /// reaction test (MC-E10). Every element of the group carries it alike, so it
    /// tells no two elements apart.
    pub afv_fire: bool,
    /// An element of its side moved away from the enemy within 15cm in the side's
    /// last player turn, by a Cease fire, Retreat or Rout result (MC-E10). Every
    /// element of the side carries it alike.
    pub moved: bool,
    /// It lay under an HE template in the enemy's player turn just ended: -2 on its
    /// next shot (MC-E11).
    pub under_he: bool,
}

impl Element {
    /// Eliminated: out for good, with no markers left; it counts toward its group's
    /// next test as hit, and a move it made this turn still happened.
    fn eliminate(&mut self) {
        *self = Element { status: Status::Eliminated, markers: 0, hit: true, under_he: false, ..*self };
    }
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
    /// The rows counted from the fight (MC-E10), each 0 where the setting
    /// `derived_reaction_rows = "named"` leaves them to the units.
    afv_fire: i32,
    enemy_retreating: i32,
    moved_away: i32,
}

/// What one element's Shoot does to one enemy entry at one range.
pub(super) enum Attack {
    /// Point-to-point fire: one shot at one element.
    Point(Shot),
    /// Area fire at AFVs: the template over 1, 2, ... of the entry's AFVs (the
    /// index is the number under it, less one), with its one-KO cap.
    Afv(Vec<Fire>),
    /// Area fire at the structure a fortified entry holds: one d20 for the template.
    Building(Fire),
}

/// What a template did to the elements under it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Template {
    /// AFVs knocked out.
    Kos(u32),
    /// The building result (BUILDING_RESULTS index).
    Building(u8),
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
    fires: Fires<Attack>,
    targeting: Targeting,
    /// Per side, per unit entry.
    kinds: [Vec<Kind>; 2],
    chart: ReactionChart,
    /// To-hit modifier for n suppression markers, n = 0..=MAX_MARKERS.
    marker_modifier: Vec<i32>,
    /// To-hit modifier for a firer under HE area fire in the enemy turn just ended.
    he_modifier: i32,
    reaction: Reaction,
    settings: Settings,
    /// The sides in the order they play their player turns.
    order: [usize; 2],
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

    /// Clears group `g`'s triggers and says whether it tests and with what (MC-E4):
    /// a living, unrouted group that was hit, or is retreating. `moved_away` says
    /// whether an element of the side moved away from the enemy in its last turn.
    fn test_of(&self, field: &mut FieldOf<Self>, side: usize, g: usize, moved_away: bool) -> Option<Test> {
        let standing = self.standing(&field.sides[side], side, g);
        let ch = &self.chart;
        // "Any enemy can be seen retreating (Reaction Test result of -5 or worse)":
        // a Retreat or a Rout (MC-E10).
        let enemy_retreating =
            field.sides[enemy(side)].units.iter().any(|e| matches!(e.status, Status::Retreating | Status::Routed));
        let units = self.layout.sides[side].groups[g].units.clone();
        let group = &mut field.sides[side].units[units];
        let fired_upon = group.iter().any(|e| e.hit);
        let afv_fire = group.iter().any(|e| e.afv_fire);
        group.iter_mut().for_each(|e| (e.hit, e.afv_fire) = (false, false));
        if standing >= Status::Routed || !(fired_upon || standing == Status::Retreating) {
            return None;
        }
        let eliminated = group.iter().filter(|e| e.status == Status::Eliminated).count();
        let suppressed = group.iter().filter(|e| e.status != Status::Eliminated && e.markers > 0).count();
        let shift = self.kinds[side][g].reaction
            + ch.eliminated[eliminated]
            + ch.suppressed[suppressed]
            + if standing == Status::Retreating { ch.retreating } else { 0 }
            + if afv_fire { ch.afv_fire } else { 0 }
            + if enemy_retreating { ch.enemy_retreating } else { 0 }
            + if moved_away { ch.moved_away } else { 0 };
        Some(Test { shift, fired_upon })
    }

    /// The start of `side`'s player turn: whether an element of it moved away from
    /// the enemy in its last turn (the "friendly element(s) moved away" row), those
    /// moves then forgotten.
    fn start_of_turn(field: &mut FieldOf<Self>, side: usize) -> bool {
        let units = &mut field.sides[side].units;
        let moved = units.iter().any(|e| e.moved);
        units.iter_mut().for_each(|e| e.moved = false);
        moved
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
            if status == Status::Eliminated {
                // A surrender: hit or not, the group never tests again.
                *e = Element { status, markers: 0, under_he: false, ..*e };
            } else {
                e.status = status;
            }
        }
    }

    /// The fire element `u` of `side` makes at range index `r`, if it may shoot and
    /// has a target: (target element, natural d20 a point-to-point shot hits from,
    /// the attack). Routed enemies are fired at only when no other is left in reach
    /// (MC-E5).
    fn aim(&self, field: &FieldOf<Self>, side: usize, u: usize, r: usize) -> Option<(usize, i32, &Attack)> {
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
        let attack = self.fires.get(side, group, self.layout.sides[foe].group_of[t], r).expect("targets are in reach");
        let from = match attack {
            // Markers and HE fire cost the to-hit roll; area fire rolls none.
            Attack::Point(shot) => {
                shot.hit_from.expect("point-to-point fire rolls to hit")
                    - self.marker_modifier[element.markers as usize]
                    - if element.under_he { self.he_modifier } else { 0 }
            }
            Attack::Afv(_) | Attack::Building(_) => 0,
        };
        Some((t, from, attack))
    }

    /// Whether fire by element `u` of `side` at `range` is "fire from AFV within
    /// 15cm" for the elements it lands on, where the fight counts that row (MC-E10).
    fn afv_close(&self, side: usize, u: usize, range: f64) -> bool {
        self.chart.afv_fire != 0 && range <= WITHIN_15CM && self.kinds[side][self.layout.sides[side].group_of[u]].afv
    }

    /// Marks the group of enemy element `t` as under fire from an AFV within 15cm.
    fn under_afv_fire(&self, field: &mut FieldOf<Self>, side: usize, t: usize) {
        let foe = &self.layout.sides[enemy(side)];
        let group = foe.groups[foe.group_of[t]].units.clone();
        field.sides[enemy(side)].units[group].iter_mut().for_each(|e| e.afv_fire = true);
    }

    /// One shot's result on its target (MC-E2); `afv_close` as [`Self::afv_close`].
    fn land(&self, field: &mut FieldOf<Self>, side: usize, t: usize, outcome: Outcome, afv_close: bool) {
        if afv_close {
            self.under_afv_fire(field, side, t);
        }
        let target = &mut field.sides[enemy(side)].units[t];
        match outcome {
            Outcome::Miss => {}
            Outcome::Suppressed => {
                target.markers = (target.markers + 1).min(MAX_MARKERS as u8);
                target.hit = true;
            }
            Outcome::Eliminated => target.eliminate(),
        }
    }

    /// The template an area attack at enemy element `t` rolls, and the enemy elements
    /// under it: the living ones of `t`'s entry, or `t` alone (setting
    /// `template_covers`, MC-E11).
    fn template<'f>(
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
    fn template_result(attack: &Attack, fire: &Fire, state: &FireState) -> Template {
        match attack {
            Attack::Afv(_) => Template::Kos(fire.kills(state)),
            _ => Template::Building(state.worst),
        }
    }

    /// A template's result on the living elements under it (MC-E11): KOs and
    /// casualties to the first in line, suppression markers to the rest, and every
    /// one of them under HE fire for its next shot.
    fn land_template(
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

    /// The end of `side`'s player turn at `range`: elements that ceased fire and
    /// retired, retreated or routed moved away from the enemy (MC-E10), one-turn
    /// results lapse, markers come off (MC-E3), and HE fire taken in the enemy's turn
    /// has cost its shot.
    fn end_of_turn(&self, field: &mut FieldOf<Self>, side: usize, range: f64) {
        let units = &mut field.sides[side].units;
        let moved = self.chart.moved_away != 0
            && range <= WITHIN_15CM
            && units.iter().any(|e| matches!(e.status, Status::CeasedFire | Status::Retreating | Status::Routed));
        for e in units {
            e.moved = moved;
            if matches!(e.status, Status::Halted | Status::CeasedFire) {
                e.status = Status::InAction;
            }
            if self.settings.suppression_markers == MarkersCome::OffAfterOwnTurn {
                e.markers = 0;
            }
            e.under_he = false;
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
                companies: smallvec::smallvec![(); self.layout.sides[s].companies.len()],
                units: smallvec::smallvec![Element::default(); self.layout.sides[s].units()],
                supports_spent: smallvec::SmallVec::new(),
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
        for side in self.order {
            let moved_away = Self::start_of_turn(field, side);
            for g in 0..self.layout.sides[side].groups.len() {
                if let Some(test) = self.test_of(field, side, g, moved_away) {
                    let face = D10.roll(&mut streams.morale);
                    self.react(field, side, g, test, face, range);
                }
            }
            for u in 0..field.sides[side].units.len() {
                let Some((t, from, attack)) = self.aim(field, side, u, r) else { continue };
                let close = self.afv_close(side, u, range);
                match attack {
                    Attack::Point(shot) => {
                        let to_hit = D20.roll(&mut streams.fire);
                        // The conversion d20 is rolled only for a hit, as in point-to-point fire.
                        let convert = if to_hit as i32 >= from { D20.roll(&mut streams.effect) } else { 1 };
                        self.land(field, side, t, outcome(shot, from, to_hit, convert), close);
                    }
                    Attack::Afv(_) | Attack::Building(_) => {
                        // The area fire scenarios' own literal trial of the template.
                        let (fire, under) = self.template(field, side, t, attack);
                        let result = Self::template_result(attack, fire, &fire.trial(streams));
                        self.land_template(field, side, under, result, close);
                    }
                }
            }
            self.end_of_turn(field, side, range);
        }
    }

    fn turn_exact<W: Weight>(
        &self,
        field: &FieldOf<Self>,
        turn: u32,
    ) -> std::result::Result<Dist<FieldOf<Self>, W>, TooLarge> {
        let (r, range) = (self.schedule.index(turn), self.schedule.range(turn));
        let mut dist: Dist<FieldOf<Self>, W> = Dist::certain(field.clone());
        for side in self.order {
            // Whether the side moved away in its last turn, kept for its tests.
            let mut started = dist.map(|f| {
                let mut f = f.clone();
                let moved_away = Self::start_of_turn(&mut f, side);
                (f, moved_away)
            });
            for g in 0..self.layout.sides[side].groups.len() {
                started = started.then_within(markov::MAX_STATES, |(f, moved_away)| {
                    let mut f = f.clone();
                    match self.test_of(&mut f, side, g, *moved_away) {
                        None => Dist::certain((f, *moved_away)),
                        Some(test) => Dist::roll(D10, |face| {
                            let mut f = f.clone();
                            self.react(&mut f, side, g, test, face, range);
                            (f, *moved_away)
                        }),
                    }
                })?;
            }
            dist = started.map(|(f, _)| f.clone());
            for u in 0..field.sides[side].units.len() {
                dist = dist.try_then_within(markov::MAX_STATES, |f| {
                    let Some((t, from, attack)) = self.aim(f, side, u, r) else { return Ok(Dist::certain(f.clone())) };
                    let close = self.afv_close(side, u, range);
                    let Attack::Point(shot) = attack else {
                        // The area fire scenarios' own exact distribution of the template.
                        let (fire, under) = self.template(f, side, t, attack);
                        let rolled = fire.exact_state()?;
                        return Dist::from_weights(rolled.iter().map(|(state, w)| {
                            let mut f = f.clone();
                            self.land_template(
                                &mut f,
                                side,
                                under.clone(),
                                Self::template_result(attack, fire, state),
                                close,
                            );
                            (f, W::from(*w))
                        }));
                    };
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
                        self.land(&mut f, side, t, o, close);
                        (f, W::from(w))
                    }))
                })?;
            }
            dist = dist.map(|f| {
                let mut f = f.clone();
                self.end_of_turn(&mut f, side, range);
                f
            });
        }
        Ok(dist)
    }
}

/// How an entry fires.
enum Firing<'t> {
    /// Point to point, with this weapon and these to-hit modifiers.
    Point(super::catalogue::Weapon, Sum),
    /// Area fire, aimed by the system it names in the table against AFVs and in the
    /// one against buildings (`None` where that table has no such system).
    Area(Option<AreaAim<'t>>, Option<AreaAim<'t>>),
}

/// One entry compiled: what it fires, how it is fired at.
struct Entry<'t> {
    who: String,
    /// Where the entry is written, for a refusal.
    at: usize,
    count: u32,
    firing: Firing<'t>,
    quality: &'static str,
    engineers: bool,
    target: Target,
    target_modifiers: Vec<(String, i32)>,
    /// The strength of the structure a fortified entry holds (an index into the
    /// buildings table's structures).
    structure: Option<usize>,
}

/// Compiles a Mission Command engagement scenario.
pub(super) fn set_up(doc: &Document, tables: &Tables, catalogue: &Catalogue) -> Result<SetUp> {
    engagement(doc, tables, catalogue).map(crate::engagement::set_up)
}

/// The engagement a scenario sets up, with the notes its set-up wrote.
fn engagement(doc: &Document, tables: &Tables, catalogue: &Catalogue) -> Result<(Engagement<McBattle>, Vec<String>)> {
    let mut setup = scenario::read::<RawGroup, NamedCompany, NoSupport>(doc, CM)?;
    let settings = Settings::resolve(doc, &doc.parse::<SettingsOnly>()?.settings, "engagement")?;
    let mut cx = Ctx { doc, tables, settings, notes: Vec::new() };
    let broken = match settings.side_broken {
        SideBroken::AllRouted => "every group left routed",
        SideBroken::AllRetreatingOrRouted => "every group left retreating or routed",
    };
    let mut notes = vec![format!(
        "{} turns at most, range {}; targets: {}; ends when a side is {}; {} plays first",
        setup.turns,
        setup.schedule.describe(CM),
        setup.targets,
        match (setup.end.eliminated, setup.end.broken) {
            (true, true) => format!("eliminated or broken ({broken})"),
            (true, false) => "eliminated".to_string(),
            _ => format!("broken ({broken})"),
        },
        setup.layout.sides[setup.first].name
    )];
    let mut entries: [Vec<Entry>; 2] = [Vec::new(), Vec::new()];
    let mut kinds: [Vec<Kind>; 2] = [Vec::new(), Vec::new()];
    for side in SIDES {
        for (g, raw) in setup.units[side].iter_mut().enumerate() {
            let at = raw.span().start;
            let raw = raw.get_mut();
            let who = format!("unit `{}`", raw.name.get_ref());
            refuse_conditions(doc, &settings, raw)?;
            let quality = choice(doc, raw.quality.as_ref(), "quality", &QUALITIES, "regular")?;
            let (firing, label) = match &raw.area_fire {
                Some(area) => {
                    let (afv, building) = cx.area_aims(area.get_ref())?;
                    let label =
                        afv.as_ref().or(building.as_ref()).expect("one table has the system").system.label.clone();
                    (Firing::Area(afv, building), format!("area fire: {label}"))
                }
                None => {
                    let weapon = cx.weapon(catalogue, &who, (&raw.weapon, raw.weapon_data.take()))?;
                    let fire = cx.firer_modifiers(&who, &weapon, 0, &raw.fire_modifiers)?;
                    let label = weapon.label.clone();
                    (Firing::Point(weapon, fire), label)
                }
            };
            let (target, target_modifiers) =
                cx.target((&raw.situation, &raw.armour_class), &raw.target_modifiers, false, (Some(at), &who))?;
            let structure = structure_held(doc, tables, raw, target)?;
            let mut reaction = Sum::new(0);
            cx.reaction_quality(&mut reaction, quality, raw.out_of_command);
            let automatic: Vec<_> = REACTION_FROM_QUALITY.iter().chain(&COUNTED_REACTION).copied().collect();
            cx.reaction_named(&mut reaction, &raw.reaction_modifiers, &automatic)?;
            notes.push(format!(
                "{}: {label}, {quality}{}, {}{}; reaction modifiers {}",
                raw.name.get_ref(),
                if raw.engineers { " engineers" } else { "" },
                match target {
                    Target::Casualty(c) => format!("fired at as {}", CASUALTY_COLUMNS[c]),
                    Target::Armour(ac) => format!("an AFV of armour class {ac}"),
                },
                structure
                    .map_or(String::new(), |si| format!(" in a {} structure", tables.area_buildings.structures[si])),
                reaction.describe_modifiers()
            ));
            for m in raw.reaction_modifiers.iter().filter(|m| STANDING_REACTION.contains(&m.get_ref().as_str())) {
                notes.push(format!(
                    "{}: `{}` applies at every test: the fight does not track who has located whom, nor salvo, flame or air attacks (MC-E10)",
                    raw.name.get_ref(),
                    m.get_ref()
                ));
            }
            kinds[side].push(Kind { afv: matches!(target, Target::Armour(_)), reaction: reaction.modifiers() });
            entries[side].push(Entry {
                who,
                at,
                count: setup.layout.sides[side].groups[g].count,
                firing,
                quality,
                engineers: raw.engineers,
                target,
                target_modifiers,
                structure,
            });
        }
    }
    let shot_notes_from = notes.len();
    let fires = Fires::build(
        doc,
        (&setup.layout, &setup.schedule),
        CM,
        (|side, g| setup.units[side][g].span().start, |_, _| false),
        |side, firer, target, r| {
            let range = setup.schedule.ranges[r];
            let (f, t) = (&entries[side][firer], &entries[enemy(side)][target]);
            let quiet = cx.notes.len();
            let compiled = match &f.firing {
                Firing::Point(weapon, fire) => shot(&mut cx, f, (weapon, fire), t, range),
                Firing::Area(afv, building) => area_attack(&mut cx, (afv, building), f.at, t, range)?,
            };
            cx.notes.truncate(quiet);
            let Some((attack, p_kill, how)) = compiled else { return Ok(None) };
            notes.push(format!(
                "  {} at {}, {range}cm: {how}",
                setup.layout.sides[side].groups[firer].name,
                setup.layout.sides[enemy(side)].groups[target].name,
            ));
            Ok(Some((attack, p_kill)))
        },
    )?;
    notes[shot_notes_from..].sort();
    let targeting = Targeting::new(setup.targets, &fires);
    let most = setup.layout.sides.iter().flat_map(|s| &s.groups).map(|g| g.count as usize).max().unwrap_or(1);
    let chart = &tables.reaction.modifiers;
    let per = |name: &str| (0..=most).map(|n| chart.get(name).value(n as i32)).collect();
    let derived = |name: &str| if settings.reaction_rows_from_the_fight { chart.get(name).value(1) } else { 0 };
    let reaction_chart = ReactionChart {
        eliminated: per("element_eliminated"),
        suppressed: per("element_suppressed"),
        retreating: chart.get("retreating").value(1),
        afv_fire: derived(DERIVED_REACTION[0].0),
        enemy_retreating: derived(DERIVED_REACTION[1].0),
        moved_away: derived(DERIVED_REACTION[2].0),
    };
    if settings.reaction_rows_from_the_fight {
        for (name, how) in DERIVED_REACTION {
            notes.push(format!("reaction row `{name}` ({:+}) counted from the fight: {how}", chart.get(name).value(1)));
        }
    }
    let marker = tables.to_hit.modifiers.get("suppression_marker");
    let he_modifier = tables.to_hit.modifiers.get(UNDER_HE).value(1);
    notes.push(format!(
        "each suppression marker {:+} to hit; markers {}",
        marker.value(1),
        match settings.suppression_markers {
            MarkersCome::OffAfterOwnTurn => "come off at the end of the side's own turn",
            MarkersCome::Never => "stay on",
        }
    ));
    if entries.iter().flatten().any(|e| matches!(e.firing, Firing::Area(..))) {
        notes.push(format!(
            "area fire: a template covers {}; an element under it shoots at {he_modifier:+} in its next turn; a structure's destroyed level and the displacement of a D result are not tracked (MC-E11)",
            match settings.template_covers {
                TemplateCovers::WholeEntry => "every element left of the entry aimed at",
                TemplateCovers::AimedElement => "the element aimed at",
            }
        ));
    }
    let battle = McBattle {
        order: turn_order(setup.first),
        layout: setup.layout,
        schedule: setup.schedule,
        fires,
        targeting,
        kinds,
        chart: reaction_chart,
        marker_modifier: (0..=MAX_MARKERS as i32).map(|n| marker.value(n)).collect(),
        he_modifier,
        reaction: tables.reaction.clone(),
        settings,
    };
    notes.extend(cx.notes);
    Ok((Engagement::new(battle, setup.turns, setup.end), notes))
}

/// Conditions the engagement sets from the field, refused where a unit names them,
/// and keys that do not go together.
fn refuse_conditions(doc: &Document, settings: &Settings, raw: &RawGroup) -> Result<()> {
    let derived = |name: &str| DERIVED_REACTION.iter().find(|(n, _)| *n == name).map(|(_, how)| how);
    for m in raw.fire_modifiers.iter().chain(&raw.target_modifiers).chain(&raw.reaction_modifiers) {
        let name = m.get_ref().as_str();
        let why = if name == "suppression_marker" {
            "comes from the hits the element takes in an engagement".to_string()
        } else if name == UNDER_HE {
            "comes from the area fire the element lies under in an engagement (MC-E11)".to_string()
        } else if OPPORTUNITY.contains(&name) {
            "is for opportunity fire, which an engagement does not fight (MC-E9)".to_string()
        } else if UNTRACKED_REACTION.contains(&name) {
            "is not tracked in an engagement (MC-E6); leave it out".to_string()
        } else if let Some(how) = derived(name).filter(|_| settings.reaction_rows_from_the_fight) {
            format!(
                "is counted from the fight (MC-E10): {how}; leave it out, or set derived_reaction_rows = \"named\" to name it for the whole fight"
            )
        } else {
            continue;
        };
        return Err(doc.error_at(m.span().start, format!("modifier `{name}` {why}")));
    }
    if let Some(s) = &raw.situation
        && s.get_ref() == "moving_in_no_cover"
    {
        return Err(doc.error_at(
            s.span().start,
            "the \"Moving in no cover\" column is for opportunity fire, which an engagement does not fight (MC-E9); pick another situation",
        ));
    }
    if let Some(area) = &raw.area_fire {
        let who = raw.name.get_ref();
        if raw.weapon.is_some() || raw.weapon_data.is_some() {
            return Err(doc.error_at(
                area.span().start,
                format!("unit `{who}`: an element fires point to point (`weapon`) or area fire (`area_fire`), not both; drop one, or give each fire its own unit entry"),
            ));
        }
        if let Some(m) = raw.fire_modifiers.first() {
            return Err(doc.error_at(
                m.span().start,
                format!("unit `{who}`: area fire rolls no to-hit d20, so `fire_modifiers` do not apply; drop them"),
            ));
        }
    }
    Ok(())
}

/// The structure a fortified entry holds, from its `structure` (MC-E11); refused on
/// an entry that is not fortified.
fn structure_held(doc: &Document, tables: &Tables, raw: &RawGroup, target: Target) -> Result<Option<usize>> {
    let Some(s) = &raw.structure else { return Ok(None) };
    if target != Target::Casualty(CASUALTY_COLUMNS.iter().position(|c| *c == FORTIFIED).expect("a column")) {
        return Err(doc.error_at(
            s.span().start,
            format!(
                "unit `{}`: `structure` is the strength of the building or fortification a `situation = \"{FORTIFIED}\"` entry holds; set that situation or drop `structure`",
                raw.name.get_ref()
            ),
        ));
    }
    let names: Vec<&str> = tables.area_buildings.structures.iter().map(String::as_str).collect();
    let strength = choice(doc, Some(s), "structure strength", &names, "")?;
    Ok(names.iter().position(|n| *n == strength))
}

/// The point-to-point shot of entry `f` (its weapon and to-hit modifiers) at entry
/// `t` at `range`, through the same compilation as a point-to-point scenario, with
/// its kill chance and how it reads; `None` where the rules let it do nothing there
/// (out of reach, an N/A or "Area Fire" cell, no casualty row, or no effect on that
/// target).
fn shot(
    cx: &mut Ctx,
    f: &Entry,
    (weapon, fire): (&Weapon, &Sum),
    t: &Entry,
    range: f64,
) -> Option<(Attack, f64, String)> {
    let score = cx.score(&f.who, weapon, (f.quality, f.engineers), range).ok()?;
    let convert = cx.conversion(&f.who, weapon, &t.target, range).ok()??;
    let from = score - fire.modifiers() - t.target_modifiers.iter().map(|(_, v)| v).sum::<i32>();
    let effect = effect_by_face(1, &[(2, convert)]);
    let p_hit = f64::from((21 - from).clamp(0, 20)) / 20.0;
    let p_convert = f64::from((21 - convert).clamp(0, 20)) / 20.0;
    let how = format!("hits on {}, converts on {}", face_text(from), face_text(convert));
    Some((Attack::Point(Shot { hit_from: Some(from), effect, capped: true }), p_hit * p_convert, how))
}

/// The area fire of an entry aimed by `aims` (against AFVs, against buildings) at
/// entry `t` at `range` (the firer written at `firer_at`), through the same tables and [`Fire`] as the area fire
/// scenarios (MC-E11): at AFVs, a template over every AFV left of the entry; at a
/// fortified entry's structure, one d20 for the template. `None` where it cannot
/// reach or has no effect there, or `t` is neither (the seed gives area fire no
/// numbers against elements in the open).
fn area_attack(
    cx: &mut Ctx,
    (afv, building): (&Option<AreaAim>, &Option<AreaAim>),
    firer_at: usize,
    t: &Entry,
    range: f64,
) -> Result<Option<(Attack, f64, String)>> {
    let aim = match (t.target, t.structure) {
        (Target::Armour(_), _) => afv,
        (Target::Casualty(_), Some(_)) => building,
        _ => &None,
    };
    let Some(aim) = aim else { return Ok(None) };
    if aim.reach.is_some_and(|row| range > row.max_cm) {
        return Ok(None);
    }
    let (column, _) = aim.column(Some(range)).map_err(|(at, m)| cx.doc.error_at(at.unwrap_or(firer_at), m))?;
    let faces = |effect: &[u8; 20], level: u8| f64::from(effect.iter().filter(|&&l| l >= level).count() as u32) / 20.0;
    Ok(match (t.target, t.structure) {
        (Target::Armour(ac), _) => {
            let (effect, capped, text) = cx.afv_effect(column, ac, aim.bonus);
            if effect == [0; 20] {
                return Ok(None);
            }
            let cap = cx.tables.area_afv.max_kos_per_template;
            let one_roll = cx.settings.area_fire_one_roll_per_template;
            let shot = Shot { hit_from: None, effect, capped };
            let by_count = (1..=t.count as usize)
                .map(|n| {
                    let counts = Counts { hits: false, kills: Some(("kos", Some(cap))), one_roll };
                    Fire::new(Measure::new("template", ["no_ko", "ko"]), vec![shot.clone(); n], counts)
                })
                .collect();
            // At least one KO among the entry's AFVs, for ranking targets.
            let one = faces(&effect, 1);
            let p = if one_roll { one } else { 1.0 - (1.0 - one).powi(t.count as i32) };
            Some((Attack::Afv(by_count), p, format!("area fire, {text}; at most {cap} rolled KO per template")))
        }
        (_, Some(si)) => {
            let (effect, text) = cx.building_effect(column, si, aim.bonus);
            if effect == [0; 20] {
                return Ok(None);
            }
            let shot = Shot { hit_from: None, effect, capped: true };
            let counts = Counts { hits: false, kills: None, one_roll: false };
            let fire = Fire::new(Measure::new("structure", BUILDING_RESULTS), vec![shot], counts);
            // A casualty: C or D.
            Some((Attack::Building(fire), faces(&effect, 2), format!("area fire at the structure, {text}")))
        }
        _ => unreachable!("only AFVs and structures are aimed at"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engagement::markov::lumping;
    use crate::ruleset::Load;

    /// Two rifle sections against two MG 42s closing from 15cm to 5cm, each side
    /// spreading its fire.
    const PAIRS: &str = include_str!("../../fixtures/lumping_mc.toml");

    /// Mortars and rifles against rifles holding a hut: area fire and the reaction
    /// rows the fight gives.
    const AREA: &str = include_str!("../../fixtures/lumping_mc_area.toml");

    #[test]
    fn lumped_states_give_the_labelled_chains_odds() {
        let m = super::super::MissionCommand::load(None).expect("embedded tables load");
        for text in [PAIRS, AREA] {
            let e = lumping::engagement::<McBattle>(text, |doc| engagement(doc, m.tables(), m.catalogue()));
            lumping::assert_lumping_changes_nothing(&e);
        }
    }

    #[test]
    fn the_fights_own_rows_reach_the_reaction_test() {
        let m = super::super::MissionCommand::load(None).expect("embedded tables load");
        let set_up =
            |text: &str| lumping::engagement::<McBattle>(text, |doc| engagement(doc, m.tables(), m.catalogue()));
        let e = set_up(AREA);
        let b = e.battle();
        // The Germans' hut: green (-1). Its first element is hit with a marker (-1 for
        // a suppressed element) and fired at from within 15cm by an AFV (-3); a British
        // rifle section is retreating (+1, an enemy seen retreating); the second hut
        // element moved away last turn (-1): -1 - 1 - 3 + 1 - 1 = -5.
        let mut field = b.initial();
        field.sides[1].units[0] = Element { markers: 1, hit: true, afv_fire: true, ..Element::default() };
        field.sides[1].units[1].moved = true;
        field.sides[0].units[1].status = Status::Retreating;
        let ready = field.clone();
        let moved_away = McBattle::start_of_turn(&mut field, 1);
        assert!(moved_away && !field.sides[1].units[1].moved, "the move is read once, then forgotten");
        let test = b.test_of(&mut field, 1, 0, moved_away).expect("a hit group tests");
        assert_eq!(test.shift, -5);
        assert!(!field.sides[1].units[0].hit && !field.sides[1].units[0].afv_fire, "triggers are cleared");
        // Named instead (derived_reaction_rows = "named"), the fight counts none of
        // them: green and one suppressed element, -2.
        let named =
            set_up(&AREA.replace("[engagement]", "[settings]\nderived_reaction_rows = \"named\"\n[engagement]"));
        let mut field = ready;
        let moved_away = McBattle::start_of_turn(&mut field, 1);
        assert_eq!(named.battle().test_of(&mut field, 1, 0, moved_away).expect("tests").shift, -2);
    }
}
