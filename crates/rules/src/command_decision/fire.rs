//! A compiled Command Decision fire resolution: direct or indirect fire by one or
//! more firing stands at one target, with every threshold folded in before the
//! first trial (seed 000 "Resolving Fire", "Effects of fire", "Passengers"; seed 001
//! Hit Results Chart, AP footnote, Ammo Depletion, Artillery Response).

use super::tables::HitResult;
use combat_odds_core::dice::D10;
use combat_odds_core::engine::{BLOCK, Joint, MAX_MEASURES, Measure, Resolution, Stream, Streams, by_trial};
use combat_odds_core::exact::{Dist, TooLarge};

/// The result of a hit for each natural face 1..=10 of the effect die, with every
/// modifier and the natural-10 footnote already applied.
pub type EffectByFace = [HitResult; 10];

/// The dice one firing stand (or several identical ones) throws.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Volley {
    /// Number of d10 rolled: stands x modified ROF.
    pub dice: u32,
    /// Modified hit number: each die equal or less hits.
    pub hit_at_most: i32,
    /// What a hit does, by effect-die face.
    pub effect: EffectByFace,
    /// Ammo depletion: (natural to-hit face that calls for a check, a d10 at or
    /// below this depletes). `None` for weapons under 20mm.
    pub ammo: Option<(i32, i32)>,
}

/// Which of a fire's dice call for an ammunition depletion check when they come up
/// on the trigger face (seed 001, Ammo Depletion).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AmmoChecks {
    /// The first die only: the one die of a different color.
    FirstDie,
    /// None: another die of the same mission is the one checked.
    None,
}

/// One trial's outcome before it is split into measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Hash, Ord, Default)]
pub struct FireState {
    /// Did the fire arrive (artillery response)? Always true for direct fire.
    pub arrived: bool,
    /// The worst result of any hit (no hit counts as no effect).
    pub worst: Option<HitResult>,
    /// Number of hits.
    pub hits: u32,
    /// Did any firer deplete its ammunition?
    pub depleted: bool,
    /// Passenger stands eliminated.
    pub passengers_eliminated: u32,
    /// Passenger stands forced back: all of them when the vehicle is forced back (they
    /// stay with it), else those forced back by their own roll after it is eliminated.
    pub passengers_forced_back: u32,
}

/// A fire resolution ready to run.
#[derive(Debug, Clone)]
pub struct FireResolution {
    volleys: Vec<Volley>,
    /// Artillery response: success by response-die face; `None` when fire is certain.
    response: Option<[bool; 10]>,
    /// Hit results for each passenger stand hit when the vehicle is eliminated.
    passengers: Vec<EffectByFace>,
    /// Whether a target that is fired at is suppressed (DF H/HC in prep or op fire; IDF).
    suppresses: bool,
    measures: Vec<Measure>,
    slots: Slots,
    /// Per volley, what its dice are compared with, worked out once.
    thresholds: Vec<Thresholds>,
    /// The same, laid out over a block's dice lanes for [`Resolution::block`], where
    /// that applies.
    lanes: Option<Lanes>,
}

/// A volley's hit number and effect row as the literal trial's dice lanes read them.
#[derive(Debug, Clone)]
struct Thresholds {
    /// A face 0..=9 (the natural roll less one) hits below this.
    hits_below: u32,
    /// The severity code of a hit by effect-die face less one: 1 + the [`HitResult`]
    /// (0 stays free for "no hit"), so the worst result of a volley is a plain maximum
    /// with no branch on whether a die hit.
    severity: [u8; 10],
}

/// The worst result of a trial by its severity code (see `Thresholds::severity`).
const WORST: [Option<HitResult>; 4] =
    [None, Some(HitResult::NoEffect), Some(HitResult::ForcedBack), Some(HitResult::Eliminated)];

/// The most packs of four to-hit dice per trial (sixteen dice) the block path takes;
/// a trial of more runs on its own.
const MAX_PACKS: usize = 4;

/// Lanes of the largest block: one per die of [`MAX_PACKS`] packs of [`BLOCK`] trials.
const LANES: usize = BLOCK * 4 * MAX_PACKS;

/// A volley's thresholds laid out over the dice lanes of a whole block, for
/// [`Resolution::block`] to compare sixteen trials' dice with at once. Pack `p` of a
/// trial is the trial's `p`-th output of the fire stream (four to-hit dice) and of the
/// effect stream (the effect die beside each), as in `trial`: the volleys' dice in
/// order, four to a pack, a volley starting a fresh pack. The compared arrays hold one
/// entry per lane of the block, trial by trial, pack by pack, die by die (the first
/// `BLOCK * 4 * packs` of them used); their fixed length lets the compiler run every
/// comparison over whole vector registers.
#[derive(Debug, Clone)]
struct Lanes {
    /// Packs per trial, 1 to [`MAX_PACKS`].
    packs: usize,
    /// A face (natural roll less one) below this hits; 0 on lanes past a volley's last
    /// die, which never hit.
    hits_below: Box<[u16; LANES]>,
    /// What a hit adds to its trial's [`Hits`] word, by effect face `e`: the sum of `by`
    /// over the steps with `e >= at` (see [`steps`]). Comparisons and adds run on every
    /// lane at once, where a table lookup would be one lane at a time.
    steps: Vec<Step>,
    /// Per lane of one trial: the face (less one) that calls for an ammo check;
    /// `u16::MAX`, no face, where the volley checks none or the lane has no die.
    trigger: Vec<u16>,
    /// Per lane of one trial: its volley's ammo check, a d10 at or below this depleting.
    depletes_at_most: Vec<i32>,
}

/// One step of every lane's table (see [`Lanes::steps`]).
#[derive(Debug, Clone)]
struct Step {
    at: Box<[u16; LANES]>,
    by: Box<[u16; LANES]>,
}

/// A table by face as steps (face, by): `table[e]` is the sum of `by` over the steps at
/// or below `e`, wrapping, so any table is exact; a chart row (no effect, then forced
/// back, then eliminated as the face rises) is three steps.
fn steps(table: [u16; 10]) -> Vec<(u16, u16)> {
    let mut last = 0u16;
    (0..10u16)
        .filter_map(|face| {
            let value = table[usize::from(face)];
            let by = value.wrapping_sub(last);
            last = value;
            (by != 0).then_some((face, by))
        })
        .collect()
}

/// A trial's hits in the block path, counted in one 16-bit word: each die that hits
/// adds [`Hits::of`] its result, so the sum over a trial's dice holds its hits, its
/// hits forced back or worse, and its hits eliminated, five bits each (a trial in the
/// block path rolls at most sixteen dice). Sums are what vector lanes add cheaply;
/// the worst result is read back from the counts.
#[derive(Debug, Clone, Copy)]
struct Hits(u16);

impl Hits {
    const FIELD: u32 = 5;

    /// What one hit of result `r` adds.
    fn of(r: HitResult) -> u16 {
        1 + (u16::from(r >= HitResult::ForcedBack) << Self::FIELD)
            + (u16::from(r == HitResult::Eliminated) << (2 * Self::FIELD))
    }

    /// The sum of a trial's words, pack by pack. The four 16-bit lanes of a pack are
    /// added as one 64-bit word (no lane carries into the next: a trial's sum fits
    /// 16 bits), then folded: lanes 2 and 3 onto 0 and 1, then 1 onto 0.
    #[inline(always)]
    fn sum<const P: usize>(packs: &[[u16; 4]; P]) -> Self {
        let word = packs
            .iter()
            .fold(0u64, |sum, pack| sum + pack.iter().rev().fold(0, |word, &lane| word << 16 | u64::from(lane)));
        let word = word + (word >> 32);
        Hits((word + (word >> 16)) as u16)
    }

    /// Hits.
    #[inline(always)]
    fn hits(self) -> u32 {
        u32::from(self.0) & ((1 << Self::FIELD) - 1)
    }

    /// The worst result's outcome index in the target measure, as `index` reads it (no
    /// hit and no effect are both 0), times `stride`: one stride for any hit forced
    /// back or worse, one more for any eliminated. (Two masks, where a product would
    /// be a multiply SSE2 lacks.)
    #[inline(always)]
    fn target(self, stride: usize) -> usize {
        let forced_back = self.0 >> Self::FIELD & ((1 << Self::FIELD) - 1) != 0;
        let eliminated = self.0 >> (2 * Self::FIELD) != 0;
        (usize::from(forced_back).wrapping_neg() & stride) + (usize::from(eliminated).wrapping_neg() & stride)
    }

    /// The worst result, as `trial` finds it.
    fn worst(self) -> Option<HitResult> {
        WORST[usize::from(self.hits() != 0) + self.target(1)]
    }
}

impl Lanes {
    /// The lanes of `volleys`, or `None` where the block path does not apply: an
    /// artillery response roll decides whether a trial rolls any dice at all, and a
    /// trial of no dice or more than [`MAX_PACKS`] packs gains nothing from it.
    fn new(volleys: &[Volley], thresholds: &[Thresholds], response: bool) -> Option<Self> {
        // One trial's lanes: (volley, die in the volley or None past its last die).
        let trial: Vec<(usize, Option<u32>)> = volleys
            .iter()
            .enumerate()
            .flat_map(|(v, volley)| {
                (0..volley.dice.div_ceil(4) * 4).map(move |die| (v, (die < volley.dice).then_some(die)))
            })
            .collect();
        let packs = trial.len() / 4;
        if response || packs == 0 || packs > MAX_PACKS {
            return None;
        }
        let block = |lane: &dyn Fn(usize, Option<u32>) -> u16| -> Box<[u16; LANES]> {
            let mut lanes = Box::new([0; LANES]);
            let every = (0..BLOCK).flat_map(|_| trial.iter().map(|&(v, die)| lane(v, die)));
            lanes.iter_mut().zip(every).for_each(|(l, value)| *l = value);
            lanes
        };
        let hits_below = block(&|v, die| die.map_or(0, |_| thresholds[v].hits_below as u16));
        let trigger = trial
            .iter()
            .map(|&(v, die)| match (die, volleys[v].ammo) {
                (Some(_), Some((trigger, _))) if (1..=10).contains(&trigger) => (trigger - 1) as u16,
                _ => u16::MAX,
            })
            .collect();
        let depletes_at_most =
            trial.iter().map(|&(v, _)| volleys[v].ammo.map_or(i32::MIN, |(_, at_most)| at_most)).collect();
        // Every volley's table padded to the most steps any has (a step of 0 adds nothing).
        let tables: Vec<Vec<(u16, u16)>> = volleys.iter().map(|v| steps(v.effect.map(Hits::of))).collect();
        let most = tables.iter().map(Vec::len).max().unwrap_or(0);
        let steps = (0..most)
            .map(|k| Step {
                at: block(&|v, _| tables[v].get(k).map_or(0, |s| s.0)),
                by: block(&|v, _| tables[v].get(k).map_or(0, |s| s.1)),
            })
            .collect();
        Some(Lanes { packs, hits_below, steps, trigger, depletes_at_most })
    }
}

/// Which optional measures this resolution reports, and where.
#[derive(Debug, Clone, Copy, Default)]
struct Slots {
    mission: Option<usize>,
    ammo: Option<usize>,
    suppressed: Option<usize>,
    passengers: Option<usize>,
}

impl FireResolution {
    /// Assembles a resolution and decides which measures it reports.
    pub fn new(
        volleys: Vec<Volley>,
        response: Option<[bool; 10]>,
        passengers: Vec<EffectByFace>,
        suppresses: bool,
    ) -> Self {
        let total_dice = volleys.iter().map(|v| v.dice).sum();
        let mut measures = vec![Measure::new("target", HitResult::NAMES), Measure::counts("hits", total_dice)];
        let mut slot = |m: Measure| {
            measures.push(m);
            Some(measures.len() - 1)
        };
        let mut slots = Slots::default();
        if response.is_some() {
            slots.mission = slot(Measure::new("mission", ["no_response", "arrived"]));
        }
        if volleys.iter().any(|v| v.ammo.is_some()) {
            slots.ammo = slot(Measure::new("ammo", ["not_depleted", "depleted"]));
        }
        if suppresses {
            slots.suppressed = slot(Measure::new("target_suppressed", ["no", "yes"]));
        }
        if !passengers.is_empty() {
            let n = passengers.len() as u32;
            slots.passengers = slot(Measure::counts("passengers_eliminated", n));
            measures.push(Measure::counts("passengers_forced_back", n));
        }
        let thresholds: Vec<Thresholds> = volleys
            .iter()
            .map(|v| Thresholds {
                hits_below: v.hit_at_most.clamp(0, 10) as u32,
                severity: v.effect.map(|r| r as u8 + 1),
            })
            .collect();
        let lanes = Lanes::new(&volleys, &thresholds, response.is_some());
        FireResolution { volleys, response, passengers, suppresses, measures, slots, thresholds, lanes }
    }
}

impl FireResolution {
    /// Whether a target fired at is suppressed (DF H/HC in prep or op fire; IDF).
    pub fn suppresses(&self) -> bool {
        self.suppresses
    }

    /// The artillery response roll taken out, and the fire as it lands once the
    /// mission has arrived: an engagement rolls a battery's response once a turn for
    /// every stand under its burst.
    pub fn split_response(self) -> (Option<[bool; 10]>, FireResolution) {
        let landed = FireResolution::new(self.volleys, None, self.passengers, self.suppresses);
        (self.response, landed)
    }

    /// The same fire with its ammunition checked on `checks` of its dice only: a
    /// battery whose burst covers several stands "requires only 1 of dice (different
    /// color) to deplete" (seed 001, Ammo Depletion), which is the first die at the
    /// first stand it attacks (`AmmoChecks::FirstDie`) and no die at the others
    /// (`AmmoChecks::None`). The dice, their hits and effects are unchanged: the die
    /// checked becomes a volley of its own.
    pub fn with_ammo_checks(&self, checks: AmmoChecks) -> FireResolution {
        let mut volleys = Vec::with_capacity(self.volleys.len() + 1);
        let mut checked = matches!(checks, AmmoChecks::None);
        for v in &self.volleys {
            if checked || v.ammo.is_none() || v.dice == 0 {
                volleys.push(Volley { ammo: None, ..v.clone() });
                continue;
            }
            checked = true;
            volleys.push(Volley { dice: 1, ..v.clone() });
            if v.dice > 1 {
                volleys.push(Volley { dice: v.dice - 1, ammo: None, ..v.clone() });
            }
        }
        FireResolution::new(volleys, self.response, self.passengers.clone(), self.suppresses)
    }

    /// A block of trials of `P` packs each, side by side (see [`Lanes`]).
    ///
    /// The block's outputs are drawn first, every to-hit and effect die of every trial
    /// at once ([`Stream::fill16`]); where one of them would have redrawn a rejected
    /// lane, the block rewinds and runs trial by trial, so each trial still takes
    /// exactly the dice `trial` takes. Then every lane is compared and looked up at
    /// once, and only the ammo checks and passengers, whose dice some trials roll and
    /// others do not, go trial by trial, in trial order, each from its own stream.
    #[inline(always)]
    fn block_of<const P: usize>(&self, lanes: &Lanes, st: &mut Streams, joint: &Joint, numbers: &mut [usize; BLOCK]) {
        let mut faces = [[[0u16; 4]; P]; BLOCK];
        let mut effects = [[[0u16; 4]; P]; BLOCK];
        let fire = st.fire.clone();
        if !st.fire.fill16(10, faces.as_flattened_mut()) {
            return by_trial(self, st, joint, numbers);
        }
        if !st.effect.fill16(10, effects.as_flattened_mut()) {
            st.fire = fire;
            return by_trial(self, st, joint, numbers);
        }
        // Each die's `Hits` word if it hits, 0 if it misses.
        let mut words = [[[0u16; 4]; P]; BLOCK];
        let flat = words.as_flattened_mut().as_flattened_mut();
        for step in &lanes.steps {
            let effects = effects.as_flattened().as_flattened();
            for ((word, &effect), (&at, &by)) in flat.iter_mut().zip(effects).zip(step.at.iter().zip(step.by.iter())) {
                *word = word.wrapping_add(if effect >= at { by } else { 0 });
            }
        }
        for ((word, &face), &below) in
            flat.iter_mut().zip(faces.as_flattened().as_flattened()).zip(lanes.hits_below.iter())
        {
            *word = if face < below { *word } else { 0 };
        }
        // Each trial's number: what a trial that hits nothing reports, plus its worst
        // result and its hits in their places (ammo and passengers are added below).
        let mut plain = [0usize; MAX_MEASURES];
        self.index(&FireState { arrived: true, ..FireState::default() }, &mut plain[..self.measures.len()]);
        let (plain, target) = (joint.of(&plain), joint.stride(0));
        // Joint numbers are below `MAX_JOINT`, so this stride is a 32-bit value, and its
        // product with a trial's hits one multiply of 32-bit halves, which SSE2 does
        // two at a time.
        let hits = u64::from(joint.stride(1) as u32);
        let mut sums = [Hits(0); BLOCK];
        for ((number, sum), trial) in numbers.iter_mut().zip(&mut sums).zip(&words) {
            *sum = Hits::sum(trial);
            *number = plain + sum.target(target) + (u64::from(sum.hits()) * hits) as usize;
        }
        if let Some(slot) = self.slots.ammo {
            for (number, trial) in numbers.iter_mut().zip(&faces) {
                let depleted = self.ammo_checks(lanes, trial.as_flattened(), &mut st.supply);
                *number += usize::from(depleted) * joint.stride(slot);
            }
        }
        if let Some(slot) = self.slots.passengers {
            for (number, sum) in numbers.iter_mut().zip(&sums) {
                let (eliminated, forced_back) = self.passengers(sum.worst(), &mut st.passengers);
                *number += eliminated as usize * joint.stride(slot) + forced_back as usize * joint.stride(slot + 1);
            }
        }
    }

    /// One trial's ammo checks, die by die in rule order (each face that calls for one
    /// rolls it): whether any depleted.
    #[inline(always)]
    fn ammo_checks(&self, lanes: &Lanes, faces: &[u16], supply: &mut Stream) -> bool {
        let mut depleted = false;
        for ((&face, &trigger), &at_most) in faces.iter().zip(&lanes.trigger).zip(&lanes.depletes_at_most) {
            if face == trigger && D10.roll(supply) as i32 <= at_most {
                depleted = true;
            }
        }
        depleted
    }

    /// The passengers' fate given the vehicle's worst result: (eliminated, forced back).
    ///
    /// Seed 000, Passengers: "If a vehicle suffers a Force Back result from fire, the
    /// passengers stay with the vehicle and are forced back with the vehicle." "If the
    /// vehicle is eliminated by fire, the passenger stands each suffer a hit": a d10 each,
    /// in order, on their own stream.
    #[inline(always)]
    fn passengers(&self, worst: Option<HitResult>, stream: &mut Stream) -> (u32, u32) {
        match worst {
            Some(HitResult::ForcedBack) => (0, self.passengers.len() as u32),
            Some(HitResult::Eliminated) => {
                self.passengers.iter().fold((0, 0), |(e, b), p| match p[D10.roll(stream) as usize - 1] {
                    HitResult::Eliminated => (e + 1, b),
                    HitResult::ForcedBack => (e, b + 1),
                    HitResult::NoEffect => (e, b),
                })
            }
            _ => (0, 0),
        }
    }
}

/// One die of a volley: (the hit's result if it hit, whether it depleted ammo).
fn volley_die(v: &Volley) -> Dist<(Option<HitResult>, bool)> {
    Dist::roll(D10, |face| face as i32)
        .then(|&face| {
            let effect = if face <= v.hit_at_most {
                Dist::roll(D10, |e| Some(v.effect[e as usize - 1]))
            } else {
                Dist::certain(None)
            };
            let depletes = match v.ammo {
                Some((trigger, at_most)) if face == trigger => Dist::roll(D10, |a| a as i32 <= at_most),
                _ => Dist::certain(false),
            };
            effect.combine(&depletes, |&e, &d| (e, d)).expect("two d10 fit easily")
        })
        .expect("three d10 fit easily")
}

fn add_die(s: &FireState, &(hit, depleted): &(Option<HitResult>, bool)) -> FireState {
    FireState {
        worst: s.worst.max(hit),
        hits: s.hits + u32::from(hit.is_some()),
        depleted: s.depleted || depleted,
        ..*s
    }
}

impl Resolution for FireResolution {
    type State = FireState;
    type Weight = u128;

    fn measures(&self) -> &[Measure] {
        &self.measures
    }

    fn kill(&self) -> (usize, usize) {
        (0, HitResult::Eliminated as usize)
    }

    /// One literal trial: every die the rules roll, in rule order.
    #[inline(always)]
    fn trial(&self, st: &mut Streams) -> FireState {
        let mut s = FireState { arrived: true, ..FireState::default() };
        if let Some(succeeds) = &self.response {
            s.arrived = succeeds[D10.roll(&mut st.response) as usize - 1];
            if !s.arrived {
                return s;
            }
        }
        // Dice are rolled four at a time: the to-hit dice from one output of the fire
        // stream, and beside them the effect die each would roll if it hits, from one
        // output of the effect stream. Lane i of the effect pack is die i's effect die,
        // read only when die i hits; every lane is an independent die, so this is the
        // same as rolling effect dice for the hits one by one.
        let mut worst = 0u8;
        for (v, Thresholds { hits_below, severity }) in self.volleys.iter().zip(&self.thresholds) {
            let mut left = v.dice;
            while left > 0 {
                let (faces, effects) = (st.fire.pack16(10), st.effect.pack16(10));
                // All four lanes, branch-free; lanes past the volley's last die are dead.
                for i in 0..4 {
                    let hit = ((i as u32) < left) & (faces[i] < *hits_below);
                    s.hits += u32::from(hit);
                    worst = worst.max(severity[effects[i] as usize] * u8::from(hit));
                }
                if let Some((trigger, depletes_at_most)) = v.ammo {
                    for &face in faces.iter().take(left.min(4) as usize) {
                        if face as i32 + 1 == trigger && D10.roll(&mut st.supply) as i32 <= depletes_at_most {
                            s.depleted = true;
                        }
                    }
                }
                left = left.saturating_sub(4);
            }
        }
        // By lookup, not a branch: which result came up is the coin toss being simulated.
        s.worst = WORST[worst as usize];
        // Most fires carry no passengers: ask that (predictable) before the outcome.
        if !self.passengers.is_empty() {
            (s.passengers_eliminated, s.passengers_forced_back) = self.passengers(s.worst, &mut st.passengers);
        }
        s
    }

    /// Sixteen trials side by side for fires of one to four packs of four dice a trial
    /// and no artillery response roll; others trial by trial. Either way the same
    /// trials `trial` rolls, die for die from the same streams, and so the same numbers.
    #[inline(always)]
    fn block(&self, st: &mut Streams, joint: &Joint, numbers: &mut [usize]) {
        if let (Some(lanes), Some(numbers)) = (&self.lanes, numbers.as_mut_array::<BLOCK>()) {
            return match lanes.packs {
                1 => self.block_of::<1>(lanes, st, joint, numbers),
                2 => self.block_of::<2>(lanes, st, joint, numbers),
                3 => self.block_of::<3>(lanes, st, joint, numbers),
                _ => self.block_of::<4>(lanes, st, joint, numbers),
            };
        }
        by_trial(self, st, joint, numbers)
    }

    /// The exact joint distribution of a trial's state.
    fn exact_state(&self) -> Result<Dist<FireState>, TooLarge> {
        let start = Dist::certain(FireState { arrived: true, ..FireState::default() });
        let fired = self.volleys.iter().try_fold(start, |acc, v| volley_die(v).fold_n(v.dice, acc, add_die))?;
        let passengers = self.passengers.iter().try_fold(Dist::certain((0u32, 0u32)), |acc, p| {
            acc.combine(&Dist::roll(D10, |f| p[f as usize - 1]), |&(e, b), r| match r {
                HitResult::Eliminated => (e + 1, b),
                HitResult::ForcedBack => (e, b + 1),
                HitResult::NoEffect => (e, b),
            })
        })?;
        let carried = self.passengers.len() as u32;
        let landed = fired.then(|s| match s.worst {
            Some(HitResult::Eliminated) => {
                passengers.map(|&(e, b)| FireState { passengers_eliminated: e, passengers_forced_back: b, ..*s })
            }
            // Carried back with the vehicle (seed 000, Passengers); no roll of their own.
            Some(HitResult::ForcedBack) => Dist::certain(FireState { passengers_forced_back: carried, ..*s }),
            _ => Dist::certain(*s),
        })?;
        match &self.response {
            None => Ok(landed),
            Some(succeeds) => Dist::roll(D10, |f| succeeds[f as usize - 1])
                .then(|&arrived| if arrived { landed.clone() } else { Dist::certain(FireState::default()) }),
        }
    }

    /// The outcome index of every measure for a trial's state.
    #[inline(always)]
    fn index(&self, s: &FireState, out: &mut [usize]) {
        out[0] = s.worst.map_or(0, |r| r as usize);
        out[1] = s.hits as usize;
        if let Some(i) = self.slots.mission {
            out[i] = usize::from(s.arrived);
        }
        if let Some(i) = self.slots.ammo {
            out[i] = usize::from(s.depleted);
        }
        if let Some(i) = self.slots.suppressed {
            out[i] = usize::from(s.arrived && self.suppresses);
        }
        if let Some(i) = self.slots.passengers {
            out[i] = s.passengers_eliminated as usize;
            out[i + 1] = s.passengers_forced_back as usize;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use HitResult::{Eliminated as E, ForcedBack as F, NoEffect as N};
    use combat_odds_core::engine::{ByTrial, CHUNK_TRIALS, Experiment, Tally, layout};

    /// A chunk's tally, and where it leaves every stream (the next rolls of each).
    fn chunk(experiment: &dyn Experiment, trials: u64) -> (Tally, Vec<u32>) {
        let mut streams = Streams::for_chunk(7, 3);
        let mut tally = Tally::new(&layout(experiment.measures()));
        experiment.simulate(&mut streams, trials, &mut tally);
        let Streams { fire, effect, supply, response, passengers, .. } = &mut streams;
        let next = [fire, effect, supply, response, passengers].into_iter().flat_map(|s| (0..9).map(|_| D10.roll(s)));
        (tally, next.collect())
    }

    fn volley(dice: u32, hit_at_most: i32, effect: EffectByFace, ammo: Option<(i32, i32)>) -> Volley {
        Volley { dice, hit_at_most, effect, ammo }
    }

    /// Every path through the block: one to four packs a trial (and more, trial by
    /// trial), volleys of different rows, ammo, passengers, suppression, a response roll,
    /// and a row whose results do not rise with the face.
    fn cases() -> Vec<(&'static str, FireResolution)> {
        let regular = [N, N, N, F, F, F, E, E, E, E];
        let veteran = [N, N, N, N, F, F, F, E, E, E];
        let ap = [F, F, F, E, E, E, E, E, E, E];
        let uneven = [E, N, F, N, E, F, N, N, E, F];
        let ammo = Some((1, 6));
        let fire = |volleys, response, passengers: &[EffectByFace], suppresses| {
            FireResolution::new(volleys, response, passengers.to_vec(), suppresses)
        };
        let mut response = [true; 10];
        response[..3].fill(false);
        vec![
            ("peer", fire(vec![volley(3, 5, regular, None)], None, &[], false)),
            ("ammo and passengers", fire(vec![volley(2, 6, ap, ammo)], None, &[veteran, regular], false)),
            ("two packs, suppressing", fire(vec![volley(6, 4, regular, ammo)], None, &[], true)),
            (
                "two volleys, three packs",
                fire(vec![volley(3, 7, veteran, None), volley(5, 3, ap, ammo)], None, &[regular], false),
            ),
            ("four packs", fire(vec![volley(16, 2, regular, None)], None, &[], false)),
            ("five packs", fire(vec![volley(17, 2, regular, ammo)], None, &[], false)),
            ("response", fire(vec![volley(3, 5, regular, ammo)], Some(response), &[regular], true)),
            ("uneven row", fire(vec![volley(4, 9, uneven, None), volley(1, 10, regular, None)], None, &[], false)),
            ("no dice", fire(vec![volley(0, 5, regular, ammo)], None, &[regular], false)),
        ]
    }

    #[test]
    fn blocks_give_what_trial_by_trial_gives_count_for_count_and_leave_every_stream_where_it_does() {
        for (name, fire) in cases() {
            // A whole chunk (dozens of blocks redraw a lane and rewind), and chunks that
            // end inside a block.
            for trials in [1, 15, 16, 1000, CHUNK_TRIALS] {
                assert_eq!(chunk(&fire, trials), chunk(&ByTrial(&fire), trials), "{name}, {trials} trials");
            }
        }
    }

    #[test]
    fn the_block_path_takes_one_to_four_packs_without_a_response_roll() {
        let packs: Vec<usize> = cases().iter().map(|(_, fire)| fire.lanes.as_ref().map_or(0, |l| l.packs)).collect();
        assert_eq!(packs, [1, 1, 2, 3, 4, 0, 0, 2, 0]);
    }
}
