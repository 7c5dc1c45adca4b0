//! A compiled engagement: the lumped Markov chain of [`markov`], kept as a
//! graph and walked one alias draw per turn.
//!
//! Every state the engagement can reach at the start of each turn (the field, the
//! turn that decided it, the first kill: an [`Ending`]) is a node. An undecided node
//! holds the exact distribution [`Battle::turn_exact`] gives for that turn from that
//! field, compiled to an [`Alias`] over its successor nodes; a decided node, or any
//! node after the last turn, is where a trial stops. The graph is built once per run,
//! before the first trial; a trial is then a handful of draws and a count.

use std::collections::BTreeMap;

use num_traits::ToPrimitive;

use super::markov::{self, States};
use super::{Battle, Ending, EndingOf, Engagement, SideLayout};
use combat_odds_core::engine::{Alias, ExactTable, Experiment, Measure, Streams, Tally, tally_listed};

/// One state of the chain.
struct Node {
    /// The next turn's successors and their sampler; `None` where the trial stops.
    next: Option<(Alias, Vec<u32>)>,
    /// Where a trial stopping here is counted (an index into `outcomes`).
    ending: u32,
}

/// An [`Engagement`] compiled to its Markov chain.
pub(crate) struct CompiledEngagement<'a, B: Battle> {
    engagement: &'a Engagement<B>,
    nodes: Vec<Node>,
    /// The outcome of every measure, per ending a trial can stop in.
    outcomes: Vec<Vec<usize>>,
}

impl<'a, B: Battle> CompiledEngagement<'a, B> {
    /// Compiles `engagement`, or `None` where its chain is out of reach: more units
    /// or states than the exact solver takes, or a turn weighing more than 64 bits.
    pub fn new(engagement: &'a Engagement<B>) -> Option<Self> {
        let battle = engagement.battle();
        let units: usize = battle.layout().sides.iter().map(SideLayout::units).sum();
        if units > markov::MAX_UNITS {
            return None;
        }
        let mut compiled = CompiledEngagement { engagement, nodes: Vec::new(), outcomes: Vec::new() };
        let mut start = Ending { field: battle.initial(), decided: None, first_kill: None };
        engagement.line_up(&mut start.field);
        // The nodes of the layer about to play turn `turn`, by state.
        let mut layer: Vec<(EndingOf<B>, u32)> = vec![(start, 0)];
        compiled.nodes.push(Node { next: None, ending: 0 });
        combat_odds_core::interrupt::begin_exact_stage();
        for turn in 1..=engagement.turns() {
            let mut next_layer: BTreeMap<EndingOf<B>, u32> = BTreeMap::new();
            for (ending, id) in &layer {
                // Ctrl-C or the exact budget: stay literal.
                if combat_odds_core::interrupt::exact_should_stop() {
                    return None;
                }
                if ending.decided.is_some() {
                    continue;
                }
                let dist = engagement.turn_from(ending, turn).ok()?;
                let mut weights = Vec::with_capacity(dist.len());
                let mut successors = Vec::with_capacity(dist.len());
                for (field, weight) in dist.iter() {
                    let after = engagement.successor(ending, field, turn, States::Lumped);
                    let fresh = compiled.nodes.len() as u32;
                    let successor = *next_layer.entry(after).or_insert(fresh);
                    if successor == fresh {
                        compiled.nodes.push(Node { next: None, ending: 0 });
                    }
                    weights.push(weight.to_u64()?);
                    successors.push(successor);
                }
                compiled.nodes[*id as usize].next = Some((Alias::new(&weights)?, successors));
            }
            if next_layer.len() > markov::MAX_STATES {
                return None;
            }
            // Nodes that stop (decided ones of this layer) get their outcomes now.
            compiled.close(layer.iter().filter(|(e, _)| e.decided.is_some()));
            layer = next_layer.into_iter().collect();
        }
        compiled.close(layer.iter());
        Some(compiled)
    }

    /// Gives each node where a trial stops its slot in `outcomes`.
    fn close<'e>(&mut self, stops: impl Iterator<Item = &'e (EndingOf<B>, u32)>)
    where
        B: 'e,
    {
        for (ending, id) in stops {
            let mut out = vec![0; self.engagement.measures.len()];
            self.engagement.index(ending, &mut out);
            self.nodes[*id as usize].ending = self.outcomes.len() as u32;
            self.outcomes.push(out);
        }
    }
}

impl<B: Battle> Experiment for CompiledEngagement<'_, B> {
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

    fn exact(&self) -> Option<ExactTable> {
        self.engagement.exact()
    }
}
