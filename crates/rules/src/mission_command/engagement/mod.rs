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
//!
//! One module per step or concern: [`reaction`] (reaction tests and their results),
//! [`fire`] (point-to-point fire), [`area_fire`] (templates), and [`compile`] (the
//! scenario read and every entry's fire compiled before the first turn).

mod area_fire;
mod compile;
mod fire;
mod reaction;

use super::catalogue::Catalogue;
use super::settings::{MarkersCome, Settings, SideBroken};
use super::tables::{Reaction, Tables};
use crate::engagement::schedule::Schedule;
use crate::engagement::target::{Fires, Targeting};
use crate::engagement::{Battle, Field, FieldOf, Force, ForceOf, Layout, SIDES, markov};
use crate::ruleset::SetUp;
use combat_odds_core::dice::{D10, D20};
use combat_odds_core::document::Document;
use combat_odds_core::engine::Resolution;
use combat_odds_core::engine::Streams;
use combat_odds_core::error::Result;
use combat_odds_core::exact::{Dist, TooLarge, Weight};
use compile::engagement;
use fire::{Attack, Outcome, outcome};
use reaction::ReactionChart;

/// Ranges are in centimetres on the table (1cm = 20m).
const CM: &str = "cm";

/// "Under fire from AFV within 15cm" and "moved away from any enemy within 15cm"
/// (Reaction Test adjustments).
const WITHIN_15CM: f64 = 15.0;

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

impl McBattle {
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

/// Compiles a Mission Command engagement scenario.
pub(super) fn set_up(doc: &Document, tables: &Tables, catalogue: &Catalogue) -> Result<SetUp> {
    engagement(doc, tables, catalogue).map(crate::engagement::set_up)
}

#[cfg(test)]
mod tests;
