//! The exact solver: an engagement as a Markov chain over lumped fields.
//!
//! A turn starts from a field lined up ([`Engagement::line_up`]), so units of one
//! entry are interchangeable and a field is kept as how many of an entry's units
//! stand in each condition rather than which: a platoon of three Shermans with one
//! knocked out is one field, not three. Each turn every undecided field branches into
//! the fields [`Battle::turn_exact`] gives, weighted exactly, and equal fields merge.
//!
//! The chain keeps only what the measures need. Every measure is a marginal, so an
//! ending is folded into the tallies the turn it is decided and leaves the chain; the
//! first kill is tallied the turn it happens, and whether it has happened is read off
//! the field (losses only grow). The chain's state is the field alone, and a turn
//! weighed from a field is kept ([`Chain`]) for every later turn played by the same
//! rules ([`Battle::turn_key`]) and for the compiled chain of the same run. Lumping and
//! folding change no probability; the labelled chain of whole endings
//! (`lumping::solve_labelled`) is kept to prove that in tests.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{One, ToPrimitive, Zero};

use super::{Battle, Ending, Engagement, FieldOf, SIDES};
use combat_odds_core::dice::Ratio;
use combat_odds_core::engine::ExactTable;
use combat_odds_core::exact::{Dist, TooLarge, Weight};
use combat_odds_core::run::ExactStage;

/// The most units (both sides together) the solver takes on: every unit's fire
/// multiplies a turn's branches before its fields merge, so beyond this many the
/// Monte Carlo answers alone.
pub(crate) const MAX_UNITS: usize = 12;

/// The most undecided fields a turn may leave.
pub(crate) const MAX_STATES: usize = 20_000;

/// The most lumped fields a battle's [`estimate`] may allow before the solver starts:
/// no more than a turn may leave undecided ([`MAX_STATES`]). Counting only the
/// conditions a stand can reach (one whose weapon never runs dry is on the table or
/// not), the farmhouse (a rifle company against a reinforced platoon) is bounded by
/// 1,200 and five Shermans at a Panther by 5,600, both solved; five Shermans against
/// five Panthers, bounded by 78,400, are refused before any work.
pub(crate) const MAX_ESTIMATE: u128 = 20_000;

/// The most fields one turn may branch into, summed over its states before equal
/// ones merge: a field too large gives up within a turn's work, not after it.
pub(crate) const MAX_BRANCHES: usize = 2_000_000;

/// A lumped field's place among the fields a [`Chain`] has met.
pub(crate) type Id = u32;

/// What the solver reads of a field, worked out once when the field is first met.
#[derive(Debug, Clone, Copy)]
struct Facts {
    /// Units eliminated per side.
    losses: [usize; 2],
    /// A side is out: the engagement is decided.
    decided: bool,
}

/// One turn from one lumped field: its successors lined up and merged, in field
/// order (so a compiled chain draws the same way whichever stage met a field first),
/// weighted over `total`.
pub(crate) struct Step {
    pub total: BigUint,
    /// The successors' fields.
    pub to: Box<[Id]>,
    weights: Weights,
}

/// A step's weights, in the order of its successors: in machine words where every one
/// fits, as most do once reduced. A chain holds hundreds of thousands of these, so a
/// weight in a word (8 bytes, no allocation of its own) rather than a big integer
/// (24 bytes and a heap block) is what keeps a solve within its memory.
enum Weights {
    Words(Box<[u64]>),
    Big(Box<[BigUint]>),
}

impl Step {
    fn new(total: BigUint, next: Vec<(Id, BigUint)>) -> Self {
        let to = next.iter().map(|(id, _)| *id).collect();
        let words: Option<Box<[u64]>> = next.iter().map(|(_, w)| w.to_u64()).collect();
        let weights = match words {
            Some(words) => Weights::Words(words),
            None => Weights::Big(next.into_iter().map(|(_, w)| w).collect()),
        };
        Step { total, to, weights }
    }

    /// How many successors the turn leads to.
    pub(crate) fn len(&self) -> usize {
        self.to.len()
    }

    /// Successor `i`'s weight times `scale`.
    fn scaled(&self, i: usize, scale: &BigUint) -> BigUint {
        match &self.weights {
            Weights::Words(w) => scale * w[i],
            Weights::Big(w) => scale * &w[i],
        }
    }

    /// Every weight in 128 bits, or `None` where one does not fit.
    pub(crate) fn weights_u128(&self) -> Vec<Option<u128>> {
        match &self.weights {
            Weights::Words(w) => w.iter().map(|&w| Some(u128::from(w))).collect(),
            Weights::Big(w) => w.iter().map(ToPrimitive::to_u128).collect(),
        }
    }
}

/// The lumped fields an engagement has met, and every turn weighed from them.
pub(crate) struct Chain<B: Battle> {
    fields: Vec<FieldOf<B>>,
    facts: Vec<Facts>,
    ids: BTreeMap<FieldOf<B>, Id>,
    steps: HashMap<(Id, u32), Arc<Step>>,
    /// A turn has outgrown machine words: weigh every later one in big integers.
    wide: AtomicBool,
}

impl<B: Battle> Default for Chain<B> {
    fn default() -> Self {
        Chain {
            fields: Vec::new(),
            facts: Vec::new(),
            ids: BTreeMap::new(),
            steps: HashMap::new(),
            wide: AtomicBool::new(false),
        }
    }
}

impl<B: Battle> Chain<B> {
    /// The id of a lined-up field, met now if not before.
    pub(crate) fn id(&mut self, engagement: &Engagement<B>, field: &FieldOf<B>) -> Id {
        if let Some(&id) = self.ids.get(field) {
            return id;
        }
        let id = self.fields.len() as Id;
        let losses = engagement.losses(field);
        let decided = SIDES.iter().any(|&s| engagement.out(s, &field.sides[s]));
        self.fields.push(field.clone());
        self.facts.push(Facts { losses, decided });
        self.ids.insert(field.clone(), id);
        id
    }

    /// The field of `id`.
    pub(crate) fn field(&self, id: Id) -> &FieldOf<B> {
        &self.fields[id as usize]
    }

    /// Units eliminated per side on field `id`.
    pub(crate) fn losses(&self, id: Id) -> [usize; 2] {
        self.facts[id as usize].losses
    }

    /// Whether field `id` decides the engagement.
    pub(crate) fn decided(&self, id: Id) -> bool {
        self.facts[id as usize].decided
    }

    /// How many fields the chain has met.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.fields.len()
    }

    /// Turn `turn` from field `id`, weighed once per field and [`Battle::turn_key`].
    pub(crate) fn step(&mut self, engagement: &Engagement<B>, id: Id, turn: u32) -> Result<Arc<Step>, TooLarge> {
        let key = (id, engagement.battle().turn_key(turn));
        if let Some(step) = self.steps.get(&key) {
            return Ok(step.clone());
        }
        let weighed = weigh(engagement, self.field(id), turn, &self.wide)?;
        Ok(self.keep(engagement, key, weighed))
    }

    /// Weighs turn `turn` from every field of `ids` not yet weighed for it, on the
    /// run's thread pool, a batch at a time (so a batch's successors are all that is
    /// held at once); stops once `stage` says to. The fields met are numbered in
    /// the order of `ids`, as [`Chain::step`] one by one numbers them, so the chain
    /// and every draw from it are the same on any number of threads.
    pub(crate) fn weigh_all(
        &mut self,
        engagement: &Engagement<B>,
        ids: impl IntoIterator<Item = Id>,
        turn: u32,
        stage: &ExactStage,
    ) -> Result<(), TooLarge> {
        use rayon::prelude::*;
        let turn_key = engagement.battle().turn_key(turn);
        let mut keys: Vec<(Id, u32)> = ids.into_iter().map(|id| (id, turn_key)).collect();
        let mut seen = std::collections::HashSet::new();
        keys.retain(|key| !self.steps.contains_key(key) && seen.insert(*key));
        for batch in keys.chunks(WEIGH_BATCH) {
            let weighed: Vec<Result<Weighed<B>, TooLarge>> = batch
                .par_iter()
                .map(|&(id, _)| {
                    // The run cancelled or its exact budget spent: give up.
                    if stage.should_stop() {
                        return Err(TooLarge);
                    }
                    weigh(engagement, self.field(id), turn, &self.wide)
                })
                .collect();
            for (&key, weighed) in batch.iter().zip(weighed) {
                self.keep(engagement, key, weighed?);
            }
        }
        Ok(())
    }

    /// Numbers a weighed turn's successors and keeps it under `key`.
    fn keep(&mut self, engagement: &Engagement<B>, key: (Id, u32), (total, lumped): Weighed<B>) -> Arc<Step> {
        let next = lumped.into_iter().map(|(field, weight)| (self.id(engagement, &field), weight)).collect();
        let step = Arc::new(Step::new(total, next));
        self.steps.insert(key, step.clone());
        step
    }
}

/// How many fields [`Chain::weigh_all`] weighs at once.
const WEIGH_BATCH: usize = 64;

/// A turn weighed from one field: its total and its successors lined up, merged and
/// in field order.
type Weighed<B> = (BigUint, Vec<(FieldOf<B>, BigUint)>);

/// Turn `turn` from `field`: the successors lined up and merged, their weights and
/// total divided by their greatest common divisor. Reduced, a step is the same
/// numbers however the battle's own turn merged fields before lining them up, and
/// its weights as small as its odds allow (the compiled sampler takes at most 128
/// bits). The turn is weighed in machine words, and again in big integers only where
/// it outgrows them; once one field's turn has (`wide`), every later one goes
/// straight to big integers: the fields of one engagement weigh alike.
fn weigh<B: Battle>(
    engagement: &Engagement<B>,
    field: &FieldOf<B>,
    turn: u32,
    wide: &AtomicBool,
) -> Result<Weighed<B>, TooLarge> {
    if !wide.load(Ordering::Relaxed) {
        match engagement.battle().turn_exact::<u128>(field, turn) {
            Ok(labelled) => return Ok(lump(engagement, &labelled)),
            Err(TooLarge) => wide.store(true, Ordering::Relaxed),
        }
    }
    Ok(lump(engagement, &engagement.battle().turn_exact::<BigUint>(field, turn)?))
}

/// A turn's fields lined up, merged and reduced (see [`weigh`]).
fn lump<B: Battle, W: Weight>(engagement: &Engagement<B>, labelled: &Dist<FieldOf<B>, W>) -> Weighed<B> {
    let mut lumped: BTreeMap<FieldOf<B>, W> = BTreeMap::new();
    for (field, weight) in labelled.iter() {
        let mut field = field.clone();
        engagement.line_up(&mut field);
        // Merged weights never pass the turn's total, so this cannot overflow.
        let slot = lumped.entry(field).or_insert_with(W::zero);
        *slot = std::mem::replace(slot, W::zero()) + weight.clone();
    }
    let mut g = labelled.total().clone();
    for w in lumped.values() {
        if g.is_one() {
            break;
        }
        g = g.gcd(w);
    }
    let total = (labelled.total().clone() / g.clone()).to_big();
    (total, lumped.into_iter().map(|(field, w)| (field, (w / g.clone()).to_big())).collect())
}

/// An upper bound on the lumped fields the chain can reach, from the battle's
/// [`Battle::conditions`]: per entry, the ways its units can share the conditions
/// (a multiset), times each company's conditions, times each battery's ammunition.
/// `None` where the battle gives no bound.
pub(crate) fn estimate<B: Battle>(engagement: &Engagement<B>) -> Option<u128> {
    let (unit, company) = engagement.battle().conditions()?;
    let initial = engagement.battle().initial();
    let mut states: u128 = 1;
    for (s, (side, layout)) in initial.sides.iter().zip(&engagement.battle().layout().sides).enumerate() {
        for (group, g) in layout.groups.iter().enumerate() {
            let unit = engagement.battle().entry_conditions(s, group).unwrap_or(unit);
            // Units of one entry spread over `unit` conditions: C(count + unit - 1, unit - 1).
            let ways = (1..unit).fold(1u128, |n, k| n * u128::from(g.count + k) / u128::from(k));
            states = states.saturating_mul(ways);
        }
        states = states.saturating_mul(u128::from(company).saturating_pow(side.companies.len() as u32));
        states = states.saturating_mul(1u128 << side.supports_spent.len().min(64));
    }
    Some(states)
}

/// Seconds of one native core the solver takes for one lumped field's turn (weighed,
/// or carried on), by [`estimate`]'s bound, measured over every shipped Command
/// Decision engagement and sweep point on this 2-core machine: most took 2e-6 to 8e-6,
/// the most 1.4e-5 (five Shermans at a Panther at 4 in., under a load of 5). Priced at
/// that most, the shipped Shermans sweep came to 3.07 times the processor time it took
/// (its smaller points take a fifth of their bound); at 1e-5, between, every point is
/// within twice its time either way. Measured by `cargo run --release --example
/// pricing_calibration`.
pub(crate) const SECONDS_PER_STATE_TURN: f64 = 1.0e-5;

/// What a solve of up to `states` lumped fields over `turns` turns is expected to take
/// before it starts, in seconds of one native core: every field every turn at
/// [`SECONDS_PER_STATE_TURN`].
pub(crate) fn seconds(states: u128, turns: u32) -> f64 {
    states as f64 * f64::from(turns) * SECONDS_PER_STATE_TURN
}

/// Per-measure weights over one common total: the tallies endings fold into.
struct Tallies(Vec<Vec<BigUint>>);

impl Tallies {
    fn scale(&mut self, factor: &BigUint) {
        self.0.iter_mut().flatten().for_each(|w| *w *= factor);
    }
}

/// Measure indices [`Engagement::index`] gives the first kill: the turn, and by whom.
const FIRST_KILL_TURN: usize = 2;
const FIRST_KILL_BY: usize = 3;
/// `first_kill_by`'s outcome for no kill.
const NO_KILL: usize = 3;

/// The exact table of every measure after the turn limit, or [`TooLarge`] past
/// [`MAX_STATES`] undecided fields or [`MAX_BRANCHES`] a turn, or once `stage` (the
/// run's exact stage) says to stop.
pub fn solve<B: Battle>(engagement: &Engagement<B>, stage: &ExactStage) -> Result<ExactTable, TooLarge> {
    let mut chain = engagement.chain.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let layout = combat_odds_core::engine::layout(&engagement.measures);
    let mut start = engagement.battle().initial();
    engagement.line_up(&mut start);
    let no_losses = engagement.losses(&start);
    let start = chain.id(engagement, &start);
    // Every weight below is over `total`.
    let mut tallies = Tallies(layout.iter().map(|&n| vec![BigUint::zero(); n]).collect());
    let mut total = BigUint::one();
    let mut states: Vec<(Id, BigUint)> = vec![(start, BigUint::one())];
    let mut out = vec![0; layout.len()];
    // An ending's measures, but the first kill's (tallied as it happens).
    let mut fold = |tallies: &mut Tallies, chain: &Chain<B>, id: Id, decided: Option<u32>, w: &BigUint| {
        let ending = Ending { field: chain.field(id).clone(), decided, first_kill: None };
        engagement.index(&ending, &mut out);
        for (m, &o) in out.iter().enumerate() {
            if m != FIRST_KILL_TURN && m != FIRST_KILL_BY {
                tallies.0[m][o] += w;
            }
        }
        if chain.facts[id as usize].losses == no_losses {
            tallies.0[FIRST_KILL_TURN][0] += w;
            tallies.0[FIRST_KILL_BY][NO_KILL] += w;
        }
    };
    for turn in 1..=engagement.turns() {
        // This turn's weights, over `total` times `common` (the lcm of its steps' totals).
        let mut common = BigUint::one();
        let mut next: HashMap<Id, BigUint> = HashMap::new();
        let mut decided: HashMap<Id, BigUint> = HashMap::new();
        let mut killed = BigUint::zero();
        let mut killed_by = [BigUint::zero(), BigUint::zero(), BigUint::zero()];
        let mut branches = 0;
        chain.weigh_all(engagement, states.iter().map(|(id, _)| *id), turn, stage)?;
        for (id, w) in &states {
            // The run cancelled or its exact budget spent: give up, and Monte Carlo
            // answers alone.
            if stage.should_stop() {
                return Err(TooLarge);
            }
            let step = chain.step(engagement, *id, turn)?;
            branches += step.len();
            if branches > MAX_BRANCHES {
                return Err(TooLarge);
            }
            let grown = common.lcm(&step.total);
            if grown != common {
                let factor = &grown / &common;
                next.values_mut().chain(decided.values_mut()).chain(&mut killed_by).for_each(|v| *v *= &factor);
                killed *= &factor;
                common = grown;
            }
            let scale = w * (&common / &step.total);
            let before = chain.facts[*id as usize].losses;
            for (i, to) in step.to.iter().enumerate() {
                let x = step.scaled(i, &scale);
                let facts = chain.facts[*to as usize];
                if before == no_losses && facts.losses != no_losses {
                    // A side "kills" when its enemy loses a unit.
                    let by = [facts.losses[1] > before[1], facts.losses[0] > before[0]];
                    killed += &x;
                    killed_by[match by {
                        [true, true] => 2,
                        [a, _] => usize::from(!a),
                    }] += &x;
                }
                let into = if facts.decided { &mut decided } else { &mut next };
                *into.entry(*to).or_insert_with(BigUint::zero) += x;
            }
        }
        total *= &common;
        tallies.scale(&common);
        tallies.0[FIRST_KILL_TURN][turn as usize] += killed;
        for (o, w) in killed_by.into_iter().enumerate() {
            tallies.0[FIRST_KILL_BY][o] += w;
        }
        for (id, w) in &decided {
            fold(&mut tallies, &chain, *id, Some(turn), w);
        }
        if next.len() > MAX_STATES {
            return Err(TooLarge);
        }
        states = next.into_iter().collect();
        states.sort_unstable_by_key(|(id, _)| *id);
        reduce(&mut total, &mut tallies, &mut states);
    }
    for (id, w) in &states {
        fold(&mut tallies, &chain, *id, None, w);
    }
    Ok(tallies.0.into_iter().map(|ws| ws.into_iter().map(|w| Ratio::from_big(w, total.clone())).collect()).collect())
}

/// Divides the total and every weight by their greatest common divisor, stopping as
/// soon as it is 1: weights stay as small as the chain's odds allow.
fn reduce(total: &mut BigUint, tallies: &mut Tallies, states: &mut [(Id, BigUint)]) {
    let mut g = total.clone();
    for w in tallies.0.iter().flatten().chain(states.iter().map(|(_, w)| w)) {
        if g.is_one() {
            return;
        }
        g = g.gcd(w);
    }
    if g.is_one() {
        return;
    }
    *total /= &g;
    tallies.0.iter_mut().flatten().chain(states.iter_mut().map(|(_, w)| w)).for_each(|w| *w /= &g);
}

/// What every ruleset's engagement tests ask of lumping and folding.
#[cfg(test)]
pub(crate) mod lumping {
    use super::super::EndingOf;
    use super::*;
    use combat_odds_core::document::Document;
    use combat_odds_core::engine::{Experiment, layout};
    use combat_odds_core::exact::marginals;

    /// The engagement a scenario `text` sets up with `set_up` (a ruleset's own).
    pub(crate) fn engagement<B: Battle>(
        text: &str,
        set_up: impl Fn(&Document) -> combat_odds_core::error::Result<(Engagement<B>, Vec<String>)>,
    ) -> Engagement<B> {
        set_up(&Document::new("lumping.toml", "lumping.toml", text)).expect("the scenario sets up").0
    }

    /// The ending `turn` leads to from `from`, when it left the field `field`
    /// (labelled: every unit in its place), with the first kill and the decision
    /// recorded.
    fn successor<B: Battle>(
        engagement: &Engagement<B>,
        from: &EndingOf<B>,
        field: &FieldOf<B>,
        turn: u32,
    ) -> EndingOf<B> {
        let mut after = Ending { field: field.clone(), ..from.clone() };
        engagement.after_turn(&mut after, engagement.losses(&from.field), turn);
        after
    }

    /// The reference chain: every ending whole (the field, the turn that decided it,
    /// the first kill), decided endings carried to the last turn, and each unit kept
    /// in its place, lined up only before a turn plays.
    pub(crate) fn solve_labelled<B: Battle>(engagement: &Engagement<B>) -> Dist<EndingOf<B>, BigUint> {
        let mut start = Ending { field: engagement.battle().initial(), decided: None, first_kill: None };
        engagement.line_up(&mut start.field);
        let mut dist: Dist<EndingOf<B>, BigUint> = Dist::certain(start);
        for turn in 1..=engagement.turns() {
            dist = dist
                .try_then(|e| {
                    if e.decided.is_some() {
                        return Ok(Dist::certain(e.clone()));
                    }
                    let mut field = e.field.clone();
                    engagement.line_up(&mut field);
                    let next = engagement.battle().turn_exact::<BigUint>(&field, turn)?;
                    Ok(next.map(|field| successor(engagement, e, field, turn)))
                })
                .expect("the labelled chain is solved");
        }
        dist
    }

    /// The lumped, folded chain gives every measure exactly the probabilities the
    /// labelled one gives, in fewer states: lumping and folding change nothing but
    /// the work.
    pub(crate) fn assert_lumping_changes_nothing<B: Battle>(engagement: &Engagement<B>) {
        let labelled = solve_labelled(engagement);
        let reference = marginals(&labelled, &layout(engagement.measures()), |e, out| engagement.index(e, out));
        let folded = solve(engagement, &ExactStage::unbounded()).expect("the chain is solved");
        assert_eq!(folded, reference, "lumping or folding changed a probability");
        let fields = engagement.chain.lock().expect("no solve panicked").len();
        assert!(
            fields < labelled.len(),
            "lumping merged no state: {fields} lumped fields, {} labelled endings",
            labelled.len()
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_step_keeps_weights_in_machine_words_where_all_fit_and_scales_them_alike() {
        let big = BigUint::from(u64::MAX) + 1u32; // 2^64: one past a word
        let words = Step::new(BigUint::from(10u32), vec![(3, BigUint::from(7u32)), (5, BigUint::from(3u32))]);
        assert!(matches!(words.weights, Weights::Words(_)));
        let wide = Step::new(&big + 7u32, vec![(3, big.clone()), (5, BigUint::from(7u32))]);
        assert!(matches!(wide.weights, Weights::Big(_)));
        // Either way a weight times the scale is the same number: 7 x 6 = 42, 2^64 x 6.
        let six = BigUint::from(6u32);
        assert_eq!((words.len(), &*words.to), (2, &[3, 5][..]));
        assert_eq!(words.scaled(0, &six), BigUint::from(42u32));
        assert_eq!(wide.scaled(0, &six), &big * 6u32);
        assert_eq!(words.weights_u128(), vec![Some(7), Some(3)]);
        assert_eq!(wide.weights_u128(), vec![Some(1u128 << 64), Some(7)]);
    }
}
