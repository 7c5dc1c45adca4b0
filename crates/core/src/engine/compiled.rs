//! Compiled Monte Carlo: a resolution's exact outcome distribution, built once, then
//! sampled with one alias draw per trial.
//!
//! The literal mode rolls every die the rules roll; the compiled mode draws the
//! state a trial ends in straight from the distribution the exact engine weighed, so
//! both estimate the same numbers and the tests hold them to each other and to the
//! exact answer. A trial adds one to a per-state count; the counts become measure
//! tallies once per chunk, through the same `index` the literal mode uses.

use super::{BLOCK, ExactTable, Experiment, Measure, Resolution, Streams, Tally};
use crate::engine::alias::Alias;
use crate::exact::Weight;
use crate::run::ExactStage;

/// How a run draws its trials.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// Every die rolled in rule order: the reference, easy to audit.
    Literal,
    /// Outcomes drawn from the compiled exact distributions, where they can be built.
    Compiled,
}

impl Mode {
    /// Every mode.
    pub const ALL: [Mode; 2] = [Mode::Literal, Mode::Compiled];

    /// The name the CLI and results use.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Literal => "literal",
            Mode::Compiled => "compiled",
        }
    }
}

/// An experiment as a run will draw it: compiled when asked for and possible, else
/// the literal one it came from.
pub struct Prepared<'a> {
    literal: &'a dyn Experiment,
    compiled: Option<Box<dyn Experiment + 'a>>,
}

impl<'a> Prepared<'a> {
    /// `experiment` prepared for `mode`. A compiled mode falls back to literal where
    /// the exact distribution is out of reach (too many states, or weights past 64
    /// bits).
    pub fn new(experiment: &'a dyn Experiment, mode: Mode, stage: &ExactStage) -> Self {
        let compiled = (mode == Mode::Compiled).then(|| experiment.compiled_in(stage)).flatten();
        Prepared { literal: experiment, compiled }
    }

    /// The experiment to run.
    pub fn experiment(&self) -> &dyn Experiment {
        self.compiled.as_deref().unwrap_or(self.literal)
    }

    /// The mode the run actually uses.
    pub fn mode(&self) -> Mode {
        if self.compiled.is_some() { Mode::Compiled } else { Mode::Literal }
    }
}

/// A chunk's count of trials per state, in four copies: consecutive trials mostly end
/// in the same few states, and an increment that must wait for the previous one to
/// the same counter would set the pace, so trial `t` counts in copy `t % 4` and the
/// copies are added up at the end.
struct Counts(Vec<[u64; 4]>);

impl Counts {
    fn new(states: usize) -> Self {
        Counts(vec![[0; 4]; states])
    }

    /// One trial, the `t`-th of the chunk, that ended in `state`.
    #[inline(always)]
    fn add(&mut self, state: usize, t: usize) {
        self.0[state][t % 4] += 1;
    }

    /// The counts added to `tally`, `outcome` writing a state's outcome of every
    /// measure.
    fn into_tally(self, outcome: impl Fn(usize, &mut [usize]), tally: &mut Tally) {
        record_counts(self.0.iter().map(|copies| copies.iter().sum()), outcome, tally);
    }
}

/// Each state's count (in state order) added to `tally`, `outcome` writing a state's
/// outcome of every measure.
fn record_counts(counts: impl Iterator<Item = u64>, outcome: impl Fn(usize, &mut [usize]), tally: &mut Tally) {
    let mut out = vec![0; tally.measures()];
    for (state, n) in counts.enumerate() {
        if n > 0 {
            outcome(state, &mut out);
            tally.record_n(&out, n);
        }
    }
}

/// Runs `trials` trials, each `draw` giving the index (below `states`) of the state
/// it ends in, and adds them to `tally`, `outcome` writing a state's outcome of every
/// measure.
#[inline(always)]
pub(crate) fn tally_states(
    trials: u64,
    states: usize,
    mut draw: impl FnMut() -> usize,
    outcome: impl Fn(usize, &mut [usize]),
    tally: &mut Tally,
) {
    // One counter a state. The four copies literal blocks count in measured slower
    // here (400 against 455 M/s for the Command Decision fire): a compiled trial is
    // short enough that the copy's arithmetic costs more than the rare wait it saves.
    let mut counts = vec![0u64; states];
    for _ in 0..trials {
        counts[draw()] += 1;
    }
    record_counts(counts.into_iter(), outcome, tally);
}

/// [`tally_states`] a block of trials at a time: `fill` writes the states of whole
/// [`BLOCK`]s, then of the few trials left.
#[inline(always)]
pub(crate) fn tally_blocks(
    trials: u64,
    states: usize,
    mut fill: impl FnMut(&mut [usize]),
    outcome: impl Fn(usize, &mut [usize]),
    tally: &mut Tally,
) {
    let mut counts = Counts::new(states);
    let mut block = [0usize; BLOCK];
    let mut count = |block: &[usize]| {
        // Blocks are a multiple of four trials, so a trial's place in its block picks
        // the same copy as its place in the chunk.
        for (t, &state) in block.iter().enumerate() {
            counts.add(state, t);
        }
    };
    for _ in 0..trials / BLOCK as u64 {
        fill(&mut block);
        count(&block);
    }
    let rest = &mut block[..(trials % BLOCK as u64) as usize];
    if !rest.is_empty() {
        fill(rest);
        count(rest);
    }
    counts.into_tally(outcome, tally);
}

/// `tally_states` where every state's outcomes are listed: `outcomes[s]` for state `s`.
#[inline(always)]
pub fn tally_listed(trials: u64, outcomes: &[Vec<usize>], draw: impl FnMut() -> usize, tally: &mut Tally) {
    tally_states(trials, outcomes.len(), draw, |s, out| out.copy_from_slice(&outcomes[s]), tally);
}

/// A [`Resolution`] compiled to its states' exact distribution.
pub struct CompiledResolution<'a, R: Resolution> {
    resolution: &'a R,
    alias: Alias,
    /// The outcome of every measure, per state.
    outcomes: Vec<Vec<usize>>,
}

impl<'a, R: Resolution> CompiledResolution<'a, R> {
    /// Compiles `resolution`, or `None` where its exact distribution is out of reach
    /// or weighs more than 64 bits.
    pub fn new(resolution: &'a R) -> Option<Self> {
        let dist = resolution.exact_state().ok()?;
        let weights: Option<Vec<u64>> =
            dist.iter().map(|(_, w)| num_traits::ToPrimitive::to_u64(&w.to_big())).collect();
        let alias = Alias::new(&weights?)?;
        let outcomes = dist
            .iter()
            .map(|(state, _)| {
                let mut out = vec![0; resolution.measures().len()];
                resolution.index(state, &mut out);
                out
            })
            .collect();
        Some(CompiledResolution { resolution, alias, outcomes })
    }
}

impl<R: Resolution> Experiment for CompiledResolution<'_, R> {
    fn measures(&self) -> &[Measure] {
        Resolution::measures(self.resolution)
    }

    fn kill(&self) -> (usize, usize) {
        Resolution::kill(self.resolution)
    }

    fn simulate(&self, streams: &mut Streams, trials: u64, tally: &mut Tally) {
        let stream = &mut streams.compiled;
        tally_listed(trials, &self.outcomes, || self.alias.sample(stream), tally);
    }

    fn exact_in(&self, stage: &ExactStage) -> Option<ExactTable> {
        Experiment::exact_in(self.resolution, stage)
    }
}
