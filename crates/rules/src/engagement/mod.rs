//! Engagements: two sides fight turn after turn until one is eliminated or broken,
//! or the turns run out.
//!
//! What every ruleset shares lives here: the [`Field`] (each side's units and
//! companies), the [`Layout`] that names them, the turn loop with its end conditions,
//! the outcomes gathered per engagement (winner, turns to decision, first kill,
//! survivors and state per unit entry), target policies ([`target`]), and the exact
//! Markov-chain solver ([`markov`]). A ruleset supplies a [`Battle`]: its unit and
//! company conditions and one turn of its own sequence, literal and exact. An
//! [`Engagement`] is an [`Experiment`] whose trial is one whole engagement, so the
//! seeded, chunked engine, tallies and reports serve it unchanged.

pub mod compiled;
pub mod markov;
pub mod schedule;
pub mod scenario;
pub mod target;

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::Range;

use smallvec::SmallVec;

use combat_odds_core::engine::{ExactTable, Experiment, Measure, Streams, Tally};
use combat_odds_core::exact::{Dist, TooLarge, Weight};
use combat_odds_core::run::{ExactStage, Run};

use crate::ruleset::SetUp;

/// The two sides, by index.
pub const SIDES: [usize; 2] = [0, 1];

/// The other side.
pub fn enemy(side: usize) -> usize {
    1 - side
}

/// The sides in the order they play where a ruleset's sides take turns: `first`
/// (the scenario's `first`, or the side listed first), then the other.
pub(crate) fn turn_order(first: usize) -> [usize; 2] {
    [first, enemy(first)]
}

/// One side's condition: its companies (morale, Force Morale, ...) and its units,
/// laid out entry by entry as the [`Layout`] lists them. Held inline up to the sizes
/// a field the exact solver takes has ([`markov::MAX_UNITS`] units both sides
/// together): a turn clones a field for every branch, and a clone that allocates
/// costs more than the branch.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Force<U, C> {
    /// One condition per company, in [`SideLayout::companies`] order.
    pub companies: SmallVec<[C; 2]>,
    /// One condition per unit, entry by entry.
    pub units: SmallVec<[U; 8]>,
    /// Per off-table fire support entry (Command Decision's batteries), whether it
    /// is out of ammunition; empty where a ruleset or scenario has none.
    pub supports_spent: SmallVec<[bool; 2]>,
}

/// Both sides' condition at a moment: the whole state of an engagement.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Field<U, C> {
    /// Side 0 (listed first) and side 1.
    pub sides: [Force<U, C>; 2],
}

/// The field of a [`Battle`].
pub(crate) type FieldOf<B> = Field<<B as Battle>::Unit, <B as Battle>::Company>;

/// The force of a [`Battle`].
pub(crate) type ForceOf<B> = Force<<B as Battle>::Unit, <B as Battle>::Company>;

/// One unit entry of a side: `count` identical units in one company.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    /// The entry's name as the scenario gives it.
    pub name: String,
    /// Its snake_case form, used in measure names.
    pub slug: String,
    /// How many units.
    pub count: u32,
    /// The company it belongs to (index into [`SideLayout::companies`]).
    pub company: usize,
    /// Its units' indices in [`Force::units`].
    pub units: Range<usize>,
}

/// The names behind one side's [`Force`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SideLayout {
    /// The side's name.
    pub name: String,
    /// Company names, in order.
    pub companies: Vec<String>,
    /// Unit entries, in order.
    pub groups: Vec<Group>,
    /// The entry of every unit.
    pub group_of: Vec<usize>,
}

impl SideLayout {
    /// Number of units.
    pub fn units(&self) -> usize {
        self.group_of.len()
    }

    /// The company of unit `u`.
    pub(crate) fn company_of(&self, u: usize) -> usize {
        self.groups[self.group_of[u]].company
    }
}

/// The names behind a [`Field`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Layout {
    /// Side 0 and side 1.
    pub sides: [SideLayout; 2],
}

/// When an engagement is decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct EndConditions {
    /// A side with every unit eliminated is out.
    pub eliminated: bool,
    /// A side its ruleset calls broken (routed, demoralized, Force Morale 0) is out.
    pub broken: bool,
}

/// A ruleset's turn sequence over its own unit and company conditions.
///
/// Implementations hold every table lookup made before the first turn, so turns
/// cannot fail. `turn` and `turn_exact` must describe the same rules: the first rolls
/// the dice, the second weighs every way they can fall, and tests hold them to each
/// other through [`Engagement`]'s Monte Carlo and [`markov`] solutions.
pub(crate) trait Battle: Sync + Send {
    /// One unit's condition (status, strength, markers); small and copyable.
    type Unit: Copy + Ord + Hash + Debug + Send + Sync;
    /// One company's condition (morale status, Force Morale); `()` where none.
    type Company: Copy + Ord + Hash + Debug + Send + Sync;

    /// The names of sides, companies and unit entries.
    fn layout(&self) -> &Layout;

    /// The field before the first turn.
    fn initial(&self) -> FieldOf<Self>;

    /// Why the exact solver is not tried at all, where the battle knows at once (a
    /// bound on its fields past the solver's reach).
    fn out_of_reach(&self) -> Option<String> {
        None
    }

    /// How many conditions a unit, and a company, can stand in at the start of a turn:
    /// the exact solver's estimate of its lumped fields before it starts. `None`
    /// where the battle gives no bound, and the solver's budgets alone decide.
    fn conditions(&self) -> Option<(u32, u32)> {
        None
    }

    /// How many conditions a unit of entry `group` of `side` can stand in at the start
    /// of a turn, where fewer than [`Battle::conditions`] gives every unit (a stand
    /// whose weapon never runs dry is on the table or not). `None`: as every unit.
    fn entry_conditions(&self, _side: usize, _group: usize) -> Option<u32> {
        None
    }

    /// Turns with one key play by one set of rules (their range, contact, ...): the
    /// exact solver weighs a field's turn once per key and reuses it. The default
    /// tells every turn apart.
    fn turn_key(&self, turn: u32) -> u32 {
        turn
    }

    /// Whether a unit is gone for good (it counts as killed and not as a survivor).
    fn eliminated(&self, unit: &Self::Unit) -> bool;

    /// Which of two units of one entry stands ahead of the other in its line: the one
    /// fired at first and the first to act (E4). Identical units are told apart by
    /// their condition alone, so every turn starts with each entry lined up in this
    /// order. The default puts the worse off ahead, reading `Self::Unit`'s order as
    /// rising severity: fire stays on the unit it has already hurt.
    fn ahead(&self, a: &Self::Unit, b: &Self::Unit) -> std::cmp::Ordering {
        b.cmp(a)
    }

    /// Whether a side is broken by its ruleset's morale rules.
    fn broken(&self, side: usize, force: &ForceOf<Self>) -> bool;

    /// The words for a unit entry's condition at the end, in rising severity.
    fn group_states(&self) -> &[&'static str];

    /// The condition of unit entry `group` of `side` (an index into
    /// [`Battle::group_states`]).
    fn group_state(&self, side: usize, group: usize, force: &ForceOf<Self>) -> usize;

    /// Plays turn `turn` (from 1) of the ruleset's sequence, rolling every die.
    fn turn(&self, field: &mut FieldOf<Self>, turn: u32, streams: &mut Streams);

    /// Every field turn `turn` can lead to from `field`, with its exact weight: in
    /// machine words (`u128`) where they fit, [`TooLarge`] where they do not, and in
    /// big integers (`BigUint`) always.
    fn turn_exact<W: Weight>(&self, field: &FieldOf<Self>, turn: u32) -> Result<Dist<FieldOf<Self>, W>, TooLarge>;

    /// How many phases turn `turn` is weighed in, one after another ([`Battle::phase_exact`]).
    /// The compiled chain draws a turn a phase at a time where the whole turn's dice
    /// weigh more than one draw of its sampler takes (a company's fire and its morale
    /// dice together); each phase weighs only its own. One by default: the whole turn.
    fn phases(&self, _turn: u32) -> usize {
        1
    }

    /// Phase `phase` (from 0) of turn `turn` begun from `start` (lined up), played from
    /// `now`, the field the phases before it left (`start` itself for the first): every
    /// field it can lead to, with its exact weight. A battle of more than one phase
    /// weighs its [`Battle::turn_exact`] as its phases chained ([`by_phases`]), so the
    /// two are one distribution by construction. By default the one phase is the turn.
    fn phase_exact<W: Weight>(
        &self,
        _start: &FieldOf<Self>,
        now: &FieldOf<Self>,
        turn: u32,
        _phase: usize,
    ) -> Result<Dist<FieldOf<Self>, W>, TooLarge> {
        self.turn_exact(now, turn)
    }
}

/// Turn `turn` from `start` as its [`Battle::phases`] chained, each from the fields the
/// one before it left: the [`Battle::turn_exact`] of a battle played in phases.
pub(crate) fn by_phases<B: Battle + ?Sized, W: Weight>(
    battle: &B,
    start: &FieldOf<B>,
    turn: u32,
) -> Result<Dist<FieldOf<B>, W>, TooLarge> {
    (0..battle.phases(turn)).try_fold(Dist::certain(start.clone()), |now, phase| {
        now.try_then(|field| battle.phase_exact(start, field, turn, phase))
    })
}

/// Lines every entry's units up in [`Battle::ahead`] order (see
/// [`Engagement::line_up`]); a battle's own exact turn may line up a field midway
/// where what remains of the turn treats an entry's units alike.
pub(crate) fn line_up<B: Battle + ?Sized>(battle: &B, field: &mut FieldOf<B>) {
    for (side, layout) in field.sides.iter_mut().zip(&battle.layout().sides) {
        for group in layout.groups.iter().filter(|g| g.count > 1) {
            side.units[group.units.clone()].sort_unstable_by(|a, b| battle.ahead(a, b));
        }
    }
}

/// How an engagement stood when it ended: the field, and what happened on the way.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Ending<U, C> {
    /// The field (frozen once decided).
    pub field: Field<U, C>,
    /// The turn that decided it, if any.
    pub decided: Option<u32>,
    /// The first turn a unit was eliminated, and which sides lost one then.
    pub first_kill: Option<(u32, [bool; 2])>,
}

/// The ending of a [`Battle`].
pub(crate) type EndingOf<B> = Ending<<B as Battle>::Unit, <B as Battle>::Company>;

/// Fixed outcome labels of the `winner` measure after the two side names.
const DRAW: usize = 2;
const UNDECIDED: usize = 3;

/// An engagement set up: a battle, a turn limit and end conditions.
pub(crate) struct Engagement<B: Battle> {
    battle: B,
    turns: u32,
    end: EndConditions,
    measures: Vec<Measure>,
    /// Why the chain did not compile, the last time it was asked to.
    why_not_compiled: std::sync::Mutex<Option<String>>,
    /// The lumped fields met so far and the turns weighed from them, shared by the
    /// exact solution and the compiled chain of one run.
    chain: std::sync::Mutex<markov::Chain<B>>,
}

/// An engagement set up as every ruleset's engagement ends: the experiment and the
/// notes its set-up wrote.
pub(crate) fn set_up<B: Battle + 'static>((engagement, notes): (Engagement<B>, Vec<String>)) -> SetUp {
    SetUp { experiment: Box::new(engagement), notes }
}

impl<B: Battle> Engagement<B> {
    /// An engagement of at most `turns` turns. Measures: `winner` (side names, draw,
    /// undecided), `turns` to decision, `first_kill_turn`, `first_kill_by` (the side
    /// that killed first), then per unit entry `survivors_<entry>` and `state_<entry>`.
    pub fn new(battle: B, turns: u32, end: EndConditions) -> Self {
        let layout = battle.layout();
        let [a, b] = [&layout.sides[0].name, &layout.sides[1].name];
        let turn_labels = || (1..=turns).map(|t| t.to_string());
        let mut measures = vec![
            Measure::new("winner", [a.as_str(), b.as_str(), "draw", "undecided"]),
            Measure::new("turns", turn_labels().chain(["undecided".to_string()])),
            Measure::new("first_kill_turn", std::iter::once("none".to_string()).chain(turn_labels())),
            Measure::new("first_kill_by", [a.as_str(), b.as_str(), "both", "none"]),
        ];
        for side in &layout.sides {
            for g in &side.groups {
                measures.push(Measure::counts(&format!("survivors_{}", g.slug), g.count));
                measures.push(Measure::new(&format!("state_{}", g.slug), battle.group_states().iter().copied()));
            }
        }
        Engagement {
            battle,
            turns,
            end,
            measures,
            why_not_compiled: std::sync::Mutex::new(None),
            chain: std::sync::Mutex::new(markov::Chain::default()),
        }
    }

    /// The battle behind it.
    pub(crate) fn battle(&self) -> &B {
        &self.battle
    }

    /// The turn limit.
    pub fn turns(&self) -> u32 {
        self.turns
    }

    /// Whether a side is out of the fight.
    fn out(&self, side: usize, force: &ForceOf<B>) -> bool {
        (self.end.eliminated && force.units.iter().all(|u| self.battle.eliminated(u)))
            || (self.end.broken && self.battle.broken(side, force))
    }

    fn losses(&self, field: &FieldOf<B>) -> [usize; 2] {
        SIDES.map(|s| field.sides[s].units.iter().filter(|u| self.battle.eliminated(u)).count())
    }

    /// Records what turn `turn` did, going from a field with `before` losses to
    /// `ending.field`: the first kill, and whether the engagement is decided.
    fn after_turn(&self, ending: &mut EndingOf<B>, before: [usize; 2], turn: u32) {
        if ending.first_kill.is_none() {
            let after = self.losses(&ending.field);
            // A side "kills" when its enemy loses a unit.
            let by = [after[1] > before[1], after[0] > before[0]];
            if by.iter().any(|&k| k) {
                ending.first_kill = Some((turn, by));
            }
        }
        if SIDES.iter().any(|&s| self.out(s, &ending.field.sides[s])) {
            ending.decided = Some(turn);
        }
    }

    /// Lines every entry's units up in [`Battle::ahead`] order. A turn starts from
    /// a field lined up, so what it does depends on how many units of an entry stand
    /// in each condition and not on which: fields that differ only by the order within
    /// entries are one state of the exact chain ([`markov`]'s lumped states).
    pub(crate) fn line_up(&self, field: &mut FieldOf<B>) {
        line_up(&self.battle, field);
    }

    /// Plays one engagement into `ending` (reset from `start`).
    fn play(&self, start: &FieldOf<B>, ending: &mut EndingOf<B>, streams: &mut Streams) {
        ending.field.clone_from(start);
        ending.decided = None;
        ending.first_kill = None;
        for turn in 1..=self.turns {
            self.line_up(&mut ending.field);
            let before = self.losses(&ending.field);
            self.battle.turn(&mut ending.field, turn, streams);
            self.after_turn(ending, before, turn);
            if ending.decided.is_some() {
                break;
            }
        }
    }

    /// The outcome of every measure for an ending: the one mapping Monte Carlo and
    /// the exact solver share.
    pub fn index(&self, e: &EndingOf<B>, out: &mut [usize]) {
        out[0] = match e.decided {
            None => UNDECIDED,
            Some(_) => match SIDES.map(|s| self.out(s, &e.field.sides[s])) {
                [true, true] => DRAW,
                [false, true] => 0,
                [true, false] => 1,
                [false, false] => unreachable!("decided means a side is out"),
            },
        };
        out[1] = e.decided.map_or(self.turns as usize, |t| t as usize - 1);
        out[2] = e.first_kill.map_or(0, |(t, _)| t as usize);
        out[3] = match e.first_kill {
            None => 3,
            Some((_, [true, true])) => 2,
            Some((_, [a, _])) => usize::from(!a),
        };
        let mut m = 4;
        for (s, side) in self.battle.layout().sides.iter().enumerate() {
            let force = &e.field.sides[s];
            for (g, group) in side.groups.iter().enumerate() {
                out[m] = force.units[group.units.clone()].iter().filter(|u| !self.battle.eliminated(u)).count();
                out[m + 1] = self.battle.group_state(s, g, force);
                m += 2;
            }
        }
    }

    /// Why the exact solver is not started on this field, known before it starts:
    /// the battle's own bound, more units than [`markov::MAX_UNITS`], or more lumped
    /// fields than [`markov::MAX_ESTIMATE`] by [`markov::estimate`].
    pub(crate) fn refusal(&self) -> Option<String> {
        if let Some(why) = self.battle.out_of_reach() {
            return Some(why);
        }
        let units: usize = self.battle.layout().sides.iter().map(SideLayout::units).sum();
        if units > markov::MAX_UNITS {
            return Some(format!(
                "{units} units on the field, more than the {} the exact Markov-chain solver takes: no exact odds, and every trial is played literally",
                markov::MAX_UNITS
            ));
        }
        match markov::estimate(self) {
            Some(states) if states > markov::MAX_ESTIMATE => Some(format!(
                "the field's lumped Markov chain would need up to {states} states (units of each entry counted by \
                 condition), more than the exact solver's {}: no exact odds, Monte Carlo answers alone",
                markov::MAX_ESTIMATE
            )),
            _ => None,
        }
    }

    /// The exact table of every measure, from the [`markov`] solver, where
    /// [`Engagement::refusal`] lets it start.
    pub(crate) fn exact_table(&self, stage: &ExactStage) -> Result<ExactTable, TooLarge> {
        if self.refusal().is_some() {
            return Err(TooLarge);
        }
        markov::solve(self, stage)
    }
}

impl<B: Battle> Experiment for Engagement<B> {
    fn measures(&self) -> &[Measure] {
        &self.measures
    }

    /// `p_kill` is the first side's win.
    fn kill(&self) -> (usize, usize) {
        (0, 0)
    }

    fn simulate(&self, streams: &mut Streams, trials: u64, tally: &mut Tally) {
        let start = self.battle.initial();
        let mut ending = Ending { field: start.clone(), decided: None, first_kill: None };
        let mut out = vec![0; self.measures.len()];
        for _ in 0..trials {
            self.play(&start, &mut ending, streams);
            self.index(&ending, &mut out);
            tally.record(&out);
        }
    }

    fn exact_in(&self, stage: &ExactStage) -> Option<ExactTable> {
        self.exact_table(stage).ok()
    }

    /// The field's size against the solver's: its units, or the states its chain
    /// reaches (rule 4: the output says why the exact engine stands aside).
    fn why_not_exact(&self) -> Option<String> {
        Some(self.refusal().unwrap_or_else(|| {
            format!(
                "the field's Markov chain reaches more than the exact solver's {} undecided states a turn \
                 or {} branches a turn: no exact odds, Monte Carlo answers alone",
                markov::MAX_STATES,
                markov::MAX_BRANCHES
            )
        }))
    }

    /// Nothing where the solver is refused at once ([`Engagement::refusal`]); where
    /// the battle bounds its fields, the solver's bound weighed every turn
    /// ([`markov::seconds`]); else the time a pilot of the solve itself took, where it
    /// finished within the pilot's budget (the turns it weighed are kept in the chain,
    /// for this engagement's own solve).
    fn exact_stage_seconds(&self, pilot: &Run) -> Option<f64> {
        if self.refusal().is_some() {
            return Some(0.0);
        }
        if let Some(states) = markov::estimate(self) {
            return Some(markov::seconds(states, self.turns));
        }
        let started = pilot.now();
        let stage = pilot.exact_stage();
        // Solved, or too large for the solver (it would stand aside as soon): what it
        // took. Out of the pilot's budget: as long as the stage's own allows.
        let _ = markov::solve(self, &stage);
        stage.spent().is_none().then(|| (pilot.now() - started).as_secs_f64())
    }

    fn compiled_in(&self, stage: &ExactStage) -> Option<Box<dyn Experiment + '_>> {
        let compiled = compiled::compile(self, stage);
        let mut why = self.why_not_compiled.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        *why = compiled.as_ref().err().cloned();
        compiled.ok()
    }

    fn why_not_compiled(&self) -> Option<String> {
        self.why_not_compiled.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone()
    }
}
