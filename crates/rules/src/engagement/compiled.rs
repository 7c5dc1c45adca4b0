//! A compiled engagement: the lumped Markov chain of [`markov`], kept as a
//! graph and walked one alias draw per turn.
//!
//! Every state the engagement can reach at the start of each turn (the field, the
//! turn that decided it, the first kill: an [`Ending`]) is a node. An undecided node
//! holds the exact distribution [`Battle::turn_exact`] gives for that turn from that
//! field, compiled to an [`Alias`] over its successor nodes; a decided node, or any
//! node after the last turn, is where a trial stops. The graph is built once per run,
//! before the first trial; a trial is then a handful of draws and a count.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use num_traits::ToPrimitive;

use super::markov::{self, Chain, Id};
use super::{Battle, Ending, Engagement};
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

/// One state of the chain, its sampler's columns `H` high.
struct Node<H> {
    /// The next turn's successors and their sampler; `None` where the trial stops.
    /// States of one field differ only in what they remember (the first kill), so
    /// they share the sampler of the field's turn.
    next: Option<(Arc<Alias<H>>, Vec<u32>)>,
    /// Where a trial stopping here is counted (an index into `outcomes`).
    ending: u32,
}

/// Compiles `engagement` to its Markov chain, or says why it stands aside: more
/// units or states than the exact solver takes, or a turn weighing more than 128
/// bits. Columns are 64 bits high where every turn's weights fit, the one-output draw
/// single resolutions make, else 128 (a field of platoons can weigh a turn's dice in
/// 70-odd bits).
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

/// The sampler of a weighed turn, or why it cannot be drawn: the sampler draws
/// heights of at most 128 bits, so a turn's weights must fit.
fn sampler(step: &markov::Step, turn: u32) -> Result<Alias<u128>, String> {
    let weights = step
        .next
        .iter()
        .map(|(_, weight)| {
            weight.to_u128().ok_or_else(|| {
                format!("turn {turn} weighs its dice in {} bits, past the 128 the sampler draws", weight.bits())
            })
        })
        .collect::<Result<Vec<u128>, String>>()?;
    Alias::new(&weights).ok_or_else(|| {
        format!(
            "turn {turn} weighs its dice in {} bits over {} outcomes, past the 128 bits the sampler draws \
             (outcomes x weight)",
            step.total.bits(),
            weights.len()
        )
    })
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
        // The sampler of each turn weighed, by the weighed turn.
        let mut samplers: HashMap<*const markov::Step, Arc<Alias<u128>>> = HashMap::new();
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
                let before = chain.losses(state.field);
                branches += step.next.len();
                if branches > markov::MAX_BRANCHES {
                    return Err(too_large());
                }
                let mut successors = Vec::with_capacity(step.next.len());
                for (to, _) in &step.next {
                    let after = State {
                        field: *to,
                        decided: chain.decided(*to).then_some(turn),
                        first_kill: state.first_kill.or_else(|| {
                            // A side "kills" when its enemy loses a unit.
                            let after = chain.losses(*to);
                            let by = [after[1] > before[1], after[0] > before[0]];
                            by.contains(&true).then_some((turn, by))
                        }),
                    };
                    let fresh = compiled.nodes.len() as u32;
                    let successor = *next_layer.entry(after).or_insert(fresh);
                    if successor == fresh {
                        compiled.nodes.push(Node { next: None, ending: 0 });
                    }
                    successors.push(successor);
                }
                let alias = match samplers.get(&Arc::as_ptr(&step)) {
                    Some(alias) => alias.clone(),
                    None => {
                        let alias = Arc::new(sampler(&step, turn).map_err(literally)?);
                        samplers.insert(Arc::as_ptr(&step), alias.clone());
                        alias
                    }
                };
                compiled.nodes[*id as usize].next = Some((alias, successors));
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
