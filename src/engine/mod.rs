//! Seeded, chunked, parallel Monte Carlo.
//!
//! Trials are cut into fixed-size chunks. Chunk `c` draws from streams that are a
//! pure function of (master seed, purpose, c), never of the thread that runs it, and
//! each chunk fills its own [`Tally`]; tallies are integer counts merged by addition,
//! so the result is bit-identical on any number of threads and memory does not grow
//! with the number of trials.

mod streams;
mod tally;

pub use streams::{Purpose, Stream, Streams};
pub use tally::Tally;

use rayon::prelude::*;

use crate::dice::Ratio;
use crate::error::{Error, Result};
use crate::exact::{Dist, TooLarge, Weight, marginals};

/// Trials per chunk: large enough to amortise stream seeding, small enough to
/// balance across threads.
pub const CHUNK_TRIALS: u64 = 1 << 16;

/// One named family of mutually exclusive outcomes of a trial.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Measure {
    /// snake_case name, e.g. `target` or `hits`.
    pub name: String,
    /// Outcome labels in report order.
    pub outcomes: Vec<String>,
}

impl Measure {
    /// A measure from its name and outcome labels.
    pub fn new(name: &str, outcomes: impl IntoIterator<Item = impl Into<String>>) -> Self {
        Measure { name: name.to_string(), outcomes: outcomes.into_iter().map(Into::into).collect() }
    }

    /// A measure counting 0..=max of something, labelled "0", "1", ...
    pub fn counts(name: &str, max: u32) -> Self {
        Measure::new(name, (0..=max).map(|n| n.to_string()))
    }
}

/// The exact probability of every outcome of every measure, in measure order.
pub type ExactTable = Vec<Vec<Ratio>>;

/// A compiled resolution the engine can run: one trial is one resolution.
///
/// Implementations are immutable and hold every threshold precomputed, so trials
/// cannot fail and allocate nothing.
pub trait Experiment: Sync {
    /// What a trial reports, in order; the first measure is the primary one.
    fn measures(&self) -> &[Measure];

    /// The (measure, outcome) that counts as a kill for `p_kill`.
    fn kill(&self) -> (usize, usize);

    /// Run `trials` trials drawing from `streams`, adding each to `tally`.
    fn simulate(&self, streams: &mut Streams, trials: u64, tally: &mut Tally);

    /// The exact distribution of every measure, or `None` where it is out of reach.
    fn exact(&self) -> Option<ExactTable>;
}

/// The most measures one resolution reports (a trial's outcome indices live on the
/// stack).
pub const MAX_MEASURES: usize = 10;

/// A resolution described by the state one trial ends in: every ruleset's fire and
/// test is one. It runs one literal trial, maps a state to the outcome of every
/// measure, and gives the state's exact distribution; the blanket [`Experiment`]
/// impl turns that into Monte Carlo tallies and exact marginals through the same
/// `index`, so the two can only disagree by chance.
pub trait Resolution: Sync {
    /// What a trial ends in.
    type State: Ord + Clone;

    /// The exact engine's integer weights: `u128`, or `BigUint` for resolutions that
    /// chain more rolls than 128 bits can weigh.
    type Weight: Weight;

    /// What a trial reports, in order (at most [`MAX_MEASURES`]).
    fn measures(&self) -> &[Measure];

    /// The (measure, outcome) that counts as a kill for `p_kill`.
    fn kill(&self) -> (usize, usize);

    /// One literal trial: every die the rules roll, in rule order.
    fn trial(&self, streams: &mut Streams) -> Self::State;

    /// The outcome index of every measure for a state.
    fn index(&self, state: &Self::State, out: &mut [usize]);

    /// The exact distribution of a trial's state.
    fn exact_state(&self) -> std::result::Result<Dist<Self::State, Self::Weight>, TooLarge>;
}

impl<R: Resolution> Experiment for R {
    fn measures(&self) -> &[Measure] {
        Resolution::measures(self)
    }

    fn kill(&self) -> (usize, usize) {
        Resolution::kill(self)
    }

    fn simulate(&self, streams: &mut Streams, trials: u64, tally: &mut Tally) {
        let mut out = [0usize; MAX_MEASURES];
        let out = &mut out[..Resolution::measures(self).len()];
        for _ in 0..trials {
            let state = self.trial(streams);
            self.index(&state, out);
            tally.record(out);
        }
    }

    fn exact(&self) -> Option<ExactTable> {
        let layout: Vec<usize> = Resolution::measures(self).iter().map(|m| m.outcomes.len()).collect();
        let dist = self.exact_state().ok()?;
        Some(marginals(&dist, &layout, |s, out| self.index(s, out)))
    }
}

/// How many trials to run, from which seed, on how many threads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MonteCarlo {
    /// Number of trials (at least 1).
    pub trials: u64,
    /// Master seed.
    pub seed: u64,
    /// Worker threads; `None` uses rayon's default (all cores).
    pub threads: Option<usize>,
}

/// Runs the experiment and returns the merged tally.
pub fn run(experiment: &dyn Experiment, plan: &MonteCarlo) -> Result<Tally> {
    let layout: Vec<usize> = experiment.measures().iter().map(|m| m.outcomes.len()).collect();
    let chunks = plan.trials.div_ceil(CHUNK_TRIALS);
    let work = || {
        (0..chunks)
            .into_par_iter()
            .map(|chunk| {
                let trials = CHUNK_TRIALS.min(plan.trials - chunk * CHUNK_TRIALS);
                let mut streams = Streams::for_chunk(plan.seed, chunk);
                let mut tally = Tally::new(&layout);
                experiment.simulate(&mut streams, trials, &mut tally);
                tally
            })
            .reduce(|| Tally::new(&layout), Tally::merge)
    };
    match plan.threads {
        None => Ok(work()),
        Some(threads) => {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .map_err(|e| Error::Usage(format!("--threads {threads}: cannot start the thread pool: {e}")))?;
            Ok(pool.install(work))
        }
    }
}
