//! A compiled engagement: the lumped Markov chain of [`markov`], kept as a
//! graph and walked one alias draw per turn.
//!
//! Every state the engagement can reach at the start of each turn (the field, the
//! turn that decided it, the first kill: an [`Ending`]) is a node. An undecided node
//! holds the exact distribution [`Battle::turn_exact`] gives for that turn from that
//! field, compiled to an [`Alias`] over its successor nodes; a decided node, or any
//! node after the last turn, is where a trial stops. Where a turn's dice weigh more
//! than one draw takes (128 bits), the turn is drawn a phase at a time
//! ([`Battle::phases`]): a node per field a phase can leave, each drawing the next
//! phase's exact distribution from it, the last leading to the next turn's nodes. The
//! phases chained are the turn, so this changes no probability, only the draws a trial
//! makes. The graph is built once per run, before the first trial; a trial is then a
//! handful of draws and a count.

use std::collections::hash_map::Entry;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use num_bigint::BigUint;
use num_traits::ToPrimitive;

use super::markov::{self, Chain, Id};
use super::{Battle, Ending, Engagement, FieldOf};
use combat_odds_core::engine::{Alias, ExactTable, Experiment, Height, Measure, Streams, Tally, tally_listed};
use combat_odds_core::run::ExactStage;

/// Where a trial stands at the start of a turn: an [`Ending`] so far, its field
/// named by its place in the engagement's [`Chain`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct State {
    field: Id,
    decided: Option<u32>,
    first_kill: Option<(u32, [bool; 2])>,
}

/// One state of the chain, or a field a phase of a turn drawn a phase at a time left,
/// its sampler's columns `H` high.
struct Node<H> {
    /// The next turn's (or phase's) successors and their sampler; `None` where the
    /// trial stops. States of one field differ only in what they remember (the first
    /// kill), so they share the samplers of the field's turn.
    next: Option<(Arc<Alias<H>>, Vec<u32>)>,
    /// Where a trial stopping here is counted (an index into `outcomes`).
    ending: u32,
}

/// Compiles `engagement` to its Markov chain, or says why it stands aside: more
/// units or states than the exact solver takes, or a phase of a turn weighing more
/// than 128 bits. Columns are 64 bits high where every draw's weights fit, the
/// one-output draw single resolutions make, else 128 (a field of platoons can weigh a
/// turn's dice in 70-odd bits).
pub(crate) fn compile<'a, B: Battle>(
    engagement: &'a Engagement<B>,
    stage: &ExactStage,
) -> Result<Box<dyn Experiment + 'a>, String> {
    let wide = CompiledEngagement::<B, u128>::new(engagement, stage)?;
    Ok(match wide.narrowed() {
        Ok(narrow) => Box::new(narrow),
        Err(wide) => Box::new(wide),
    })
}

/// The sampler of weights over `total`, or why they cannot be drawn (`what` weighs
/// them: a turn, or a phase of one): the sampler draws heights of at most 128 bits,
/// so the weights must fit.
fn sampler(total: &BigUint, weights: Vec<Option<u128>>, what: &dyn Fn() -> String) -> Result<Alias<u128>, String> {
    let outcomes = weights.len();
    let too_heavy = || {
        format!(
            "{} weighs its dice in {} bits over {outcomes} outcomes, past the 128 the sampler draws \
             (outcomes x weight)",
            what(),
            total.bits()
        )
    };
    let weights = weights.into_iter().collect::<Option<Vec<u128>>>().ok_or_else(too_heavy)?;
    Alias::new(&weights).ok_or_else(too_heavy)
}

/// How one weighed turn from one field is drawn.
#[derive(Clone)]
enum Drawn {
    /// In one draw.
    Whole(Arc<Alias<u128>>),
    /// A phase at a time, its dice too heavy for one draw.
    Phased(Arc<Phased>),
}

/// Where an outcome of one phase of a [`Phased`] turn leads.
#[derive(Debug, Clone, Copy)]
enum Lead {
    /// To the next phase's draw (an index into [`Phased::draws`]).
    Draw(u32),
    /// To the end of the turn, at this lined-up field.
    Field(Id),
}

/// One turn from one field drawn a phase at a time: its draws, the first phase's
/// first, each over the fields its phase can leave. A phase that can leave only one
/// field is no draw: its field goes straight on to the next phase.
struct Phased {
    draws: Vec<(Arc<Alias<u128>>, Vec<Lead>)>,
}

impl Phased {
    /// Turn `turn` from field `id` a phase at a time, or why a phase cannot be drawn.
    /// `budget` is what is left of the turn's [`markov::MAX_BRANCHES`]; every
    /// outcome of every draw counts against it.
    fn new<B: Battle>(
        engagement: &Engagement<B>,
        chain: &mut Chain<B>,
        id: Id,
        turn: u32,
        budget: &mut usize,
    ) -> Result<Self, String> {
        let start = chain.field(id).clone();
        let mut phased = Phased { draws: Vec::new() };
        // The draws already made, by phase and the field it starts from: a field two
        // outcomes reach is drawn from once.
        let mut met: HashMap<(usize, FieldOf<B>), Lead> = HashMap::new();
        let mut walk = Walk { engagement, chain, start: &start, turn, budget, met: &mut met };
        match walk.lead(&mut phased, start.clone(), 0)? {
            Lead::Draw(0) => Ok(phased),
            // Every phase certain: the turn would have been one draw of one outcome.
            _ => Err(format!("turn {turn} has no phase to draw")),
        }
    }
}

/// The walk [`Phased::new`] makes through a turn's phases.
struct Walk<'w, B: Battle> {
    engagement: &'w Engagement<B>,
    chain: &'w mut Chain<B>,
    start: &'w FieldOf<B>,
    turn: u32,
    budget: &'w mut usize,
    met: &'w mut HashMap<(usize, FieldOf<B>), Lead>,
}

impl<B: Battle> Walk<'_, B> {
    /// Where `now`, the field phase `phase` begins from, leads.
    fn lead(&mut self, phased: &mut Phased, mut now: FieldOf<B>, phase: usize) -> Result<Lead, String> {
        let battle = self.engagement.battle();
        if phase == battle.phases(self.turn) {
            self.engagement.line_up(&mut now);
            return Ok(Lead::Field(self.chain.id(self.engagement, &now)));
        }
        if let Some(&lead) = self.met.get(&(phase, now.clone())) {
            return Ok(lead);
        }
        let too_large = || "the chain outgrew the exact solver's states or time".to_string();
        let dist = battle.phase_exact::<BigUint>(self.start, &now, self.turn, phase).map_err(|_| too_large())?;
        let lead = if dist.len() == 1 {
            let (only, _) = dist.iter().next().expect("one field");
            self.lead(phased, only.clone(), phase + 1)?
        } else {
            *self.budget = self.budget.checked_sub(dist.len()).ok_or_else(too_large)?;
            let (turn, phases) = (self.turn, battle.phases(self.turn));
            let what = || format!("phase {} of {phases} of turn {turn}", phase + 1);
            let alias = Arc::new(sampler(dist.total(), dist.iter().map(|(_, w)| w.to_u128()).collect(), &what)?);
            let draw = phased.draws.len();
            phased.draws.push((alias, Vec::new()));
            let leads = dist
                .iter()
                .map(|(field, _)| self.lead(phased, field.clone(), phase + 1))
                .collect::<Result<Vec<Lead>, String>>()?;
            phased.draws[draw].1 = leads;
            Lead::Draw(draw as u32)
        };
        self.met.insert((phase, now), lead);
        Ok(lead)
    }
}

/// An [`Engagement`] compiled to its Markov chain.
pub(crate) struct CompiledEngagement<'a, B: Battle, H> {
    engagement: &'a Engagement<B>,
    nodes: Vec<Node<H>>,
    /// The outcome of every measure, per ending a trial can stop in.
    outcomes: Vec<Vec<usize>>,
}

impl<'a, B: Battle> CompiledEngagement<'a, B, u128> {
    /// Compiles `engagement` with 128-bit columns, or says why its chain is out of
    /// reach; `stage` is the run's exact stage, whose cancellation or budget stops it.
    fn new(engagement: &'a Engagement<B>, stage: &ExactStage) -> Result<Self, String> {
        let battle = engagement.battle();
        let literally = |why: String| format!("compiled sampling stands aside: {why}; every trial is played literally");
        if let Some(why) = engagement.refusal() {
            return Err(format!("compiled sampling stands aside: {why}"));
        }
        // The fields and turns the exact solution met, or meets after: one chain a run.
        let mut chain = engagement.chain.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let too_large = || literally("the chain outgrew the exact solver's states or time".to_string());
        let mut compiled = CompiledEngagement { engagement, nodes: Vec::new(), outcomes: Vec::new() };
        let mut start = battle.initial();
        engagement.line_up(&mut start);
        let start = State { field: chain.id(engagement, &start), decided: None, first_kill: None };
        // The nodes of the layer about to play turn `turn`, by state.
        let mut layer: Vec<(State, u32)> = vec![(start, 0)];
        compiled.nodes.push(Node { next: None, ending: 0 });
        // How each turn weighed is drawn, by the weighed turn.
        let mut samplers: HashMap<*const markov::Step, Drawn> = HashMap::new();
        for turn in 1..=engagement.turns() {
            let mut next_layer: BTreeMap<State, u32> = BTreeMap::new();
            let mut branches = 0;
            let undecided = layer.iter().filter(|(s, _)| s.decided.is_none()).map(|(s, _)| s.field);
            chain.weigh_all(engagement, undecided, turn, stage).map_err(|_| too_large())?;
            for (state, id) in &layer {
                // The run cancelled or its exact budget spent: stay literal.
                if stage.should_stop() {
                    return Err(too_large());
                }
                if state.decided.is_some() {
                    continue;
                }
                let step = chain.step(engagement, state.field, turn).map_err(|_| too_large())?;
                branches += step.len();
                if branches > markov::MAX_BRANCHES {
                    return Err(too_large());
                }
                let key = Arc::as_ptr(&step);
                let drawn = match samplers.entry(key) {
                    Entry::Occupied(drawn) => drawn.get().clone(),
                    Entry::Vacant(slot) => {
                        let what = || format!("turn {turn}");
                        let drawn = match sampler(&step.total, step.weights_u128(), &what) {
                            Ok(alias) => Drawn::Whole(Arc::new(alias)),
                            // Too heavy for one draw: a phase at a time.
                            Err(_) if engagement.battle().phases(turn) > 1 => {
                                let mut budget = markov::MAX_BRANCHES - branches;
                                let phased = Phased::new(engagement, &mut chain, state.field, turn, &mut budget);
                                branches = markov::MAX_BRANCHES - budget;
                                Drawn::Phased(Arc::new(phased.map_err(literally)?))
                            }
                            Err(why) => return Err(literally(why)),
                        };
                        slot.insert(drawn).clone()
                    }
                };
                // A turn drawn a phase at a time: its first draw is this node's, each
                // later one a node of its own, numbered from `later`.
                let later = compiled.nodes.len() as u32;
                if let Drawn::Phased(phased) = &drawn {
                    compiled.nodes.extend((1..phased.draws.len()).map(|_| Node { next: None, ending: 0 }));
                }
                let node_of = |draw: u32| if draw == 0 { *id } else { later + draw - 1 };
                let before = chain.losses(state.field);
                // The node a trial goes to when this turn leaves field `to`.
                let mut successor = |to: Id| {
                    let after = State {
                        field: to,
                        decided: chain.decided(to).then_some(turn),
                        first_kill: state.first_kill.or_else(|| {
                            // A side "kills" when its enemy loses a unit.
                            let after = chain.losses(to);
                            let by = [after[1] > before[1], after[0] > before[0]];
                            by.contains(&true).then_some((turn, by))
                        }),
                    };
                    let fresh = compiled.nodes.len() as u32;
                    let successor = *next_layer.entry(after).or_insert(fresh);
                    if successor == fresh {
                        compiled.nodes.push(Node { next: None, ending: 0 });
                    }
                    successor
                };
                let mut draws = Vec::new();
                match &drawn {
                    Drawn::Whole(alias) => {
                        let successors = step.to.iter().map(|&to| successor(to)).collect();
                        draws.push((alias.clone(), successors));
                    }
                    Drawn::Phased(phased) => {
                        for (alias, leads) in &phased.draws {
                            let mut successors = Vec::with_capacity(leads.len());
                            for lead in leads {
                                successors.push(match *lead {
                                    Lead::Draw(d) => node_of(d),
                                    Lead::Field(to) => successor(to),
                                });
                            }
                            draws.push((alias.clone(), successors));
                        }
                    }
                }
                for (d, next) in draws.into_iter().enumerate() {
                    compiled.nodes[node_of(d as u32) as usize].next = Some(next);
                }
            }
            if next_layer.len() > markov::MAX_STATES {
                return Err(too_large());
            }
            // Nodes that stop (decided ones of this layer) get their outcomes now.
            compiled.close(&chain, layer.iter().filter(|(s, _)| s.decided.is_some()));
            layer = next_layer.into_iter().collect();
        }
        compiled.close(&chain, layer.iter());
        Ok(compiled)
    }

    /// The same chain with 64-bit columns where every turn's weights fit in them, else
    /// itself.
    fn narrowed(self) -> Result<CompiledEngagement<'a, B, u64>, Self> {
        // Each shared sampler narrowed once, or `None` overall as soon as one turn
        // does not fit.
        let mut narrow: HashMap<*const Alias<u128>, Arc<Alias<u64>>> = HashMap::new();
        for node in &self.nodes {
            if let Some((alias, _)) = &node.next
                && !narrow.contains_key(&Arc::as_ptr(alias))
            {
                let Some(n) = alias.narrowed() else { return Err(self) };
                narrow.insert(Arc::as_ptr(alias), Arc::new(n));
            }
        }
        let nodes = self.nodes.into_iter().map(|node| Node {
            next: node.next.map(|(alias, successors)| (narrow[&Arc::as_ptr(&alias)].clone(), successors)),
            ending: node.ending,
        });
        Ok(CompiledEngagement { engagement: self.engagement, nodes: nodes.collect(), outcomes: self.outcomes })
    }

    /// Gives each node where a trial stops its slot in `outcomes`.
    fn close<'e>(&mut self, chain: &Chain<B>, stops: impl Iterator<Item = &'e (State, u32)>) {
        for (state, id) in stops {
            let ending = Ending {
                field: chain.field(state.field).clone(),
                decided: state.decided,
                first_kill: state.first_kill,
            };
            let mut out = vec![0; self.engagement.measures.len()];
            self.engagement.index(&ending, &mut out);
            self.nodes[*id as usize].ending = self.outcomes.len() as u32;
            self.outcomes.push(out);
        }
    }
}

impl<B: Battle, H: Height> Experiment for CompiledEngagement<'_, B, H> {
    fn measures(&self) -> &[Measure] {
        self.engagement.measures()
    }

    fn kill(&self) -> (usize, usize) {
        self.engagement.kill()
    }

    fn simulate(&self, streams: &mut Streams, trials: u64, tally: &mut Tally) {
        let stream = &mut streams.compiled;
        let walk = || {
            let mut node = &self.nodes[0];
            while let Some((alias, successors)) = &node.next {
                node = &self.nodes[successors[alias.sample(stream)] as usize];
            }
            node.ending as usize
        };
        tally_listed(trials, &self.outcomes, walk, tally);
    }

    fn exact_in(&self, stage: &ExactStage) -> Option<ExactTable> {
        self.engagement.exact_in(stage)
    }
}
