//! Seeded, chunked, parallel Monte Carlo.
//!
//! Trials are cut into fixed-size chunks. Chunk `c` draws from streams that are a
//! pure function of (master seed, purpose, c), never of the thread that runs it, and
//! each chunk fills its own [`Tally`]; tallies are integer counts merged by addition,
//! so the result is bit-identical on any number of threads and memory does not grow
//! with the number of trials.

mod alias;
mod compiled;
mod tally;

pub use crate::streams::{Purpose, Stream, Streams};
pub use alias::{Alias, Height};
pub(crate) use compiled::tally_blocks;
pub use compiled::tally_listed;
pub use compiled::{CompiledResolution, Mode, Prepared};
pub use tally::Tally;

use rayon::prelude::*;

use crate::dice::Ratio;
use crate::error::{Error, Result, Setting};
use crate::exact::{Dist, TooLarge, Weight, marginals};
use crate::run::{Clock, ExactStage, Run};
use crate::stats::Paired;

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

/// How many outcomes each measure has, in measure order: the layout of a [`Tally`].
pub fn layout(measures: &[Measure]) -> Vec<usize> {
    measures.iter().map(|m| m.outcomes.len()).collect()
}

/// The exact probability of every outcome of every measure, in measure order.
pub type ExactTable = Vec<Vec<Ratio>>;

/// A compiled resolution the engine can run: one trial is one resolution.
///
/// Implementations are immutable and hold every threshold precomputed, so trials
/// cannot fail and allocate nothing.
pub trait Experiment: Sync + Send {
    /// What a trial reports, in order; the first measure is the primary one.
    fn measures(&self) -> &[Measure];

    /// The (measure, outcome) that counts as a kill for `p_kill`.
    fn kill(&self) -> (usize, usize);

    /// Run `trials` trials drawing from `streams`, adding each to `tally`.
    fn simulate(&self, streams: &mut Streams, trials: u64, tally: &mut Tally);

    /// The exact distribution of every measure, or `None` where it is out of reach or
    /// `stage` stops it (its run cancelled, or its budget spent).
    fn exact_in(&self, stage: &ExactStage) -> Option<ExactTable>;

    /// [`Experiment::exact_in`] with no budget and no cancellation: for tests and
    /// tools that want the answer however long it takes. A run's own work passes its
    /// stage.
    fn exact(&self) -> Option<ExactTable> {
        self.exact_in(&ExactStage::unbounded())
    }

    /// Why [`Experiment::exact`] gave `None`, in a line the output carries, where the
    /// experiment can say (its field too large for the solver, say).
    fn why_not_exact(&self) -> Option<String> {
        None
    }

    /// This experiment compiled to exact distributions sampled one draw at a time
    /// (see [`Mode::Compiled`]), or `None` where that is out of reach or `stage` stops
    /// the compilation.
    fn compiled_in(&self, _stage: &ExactStage) -> Option<Box<dyn Experiment + '_>> {
        None
    }

    /// [`Experiment::compiled_in`] with no budget and no cancellation.
    fn compiled(&self) -> Option<Box<dyn Experiment + '_>> {
        self.compiled_in(&ExactStage::unbounded())
    }

    /// Why [`Experiment::compiled`] last gave `None`, in a line the output carries,
    /// where the experiment can say (a turn weighing more than the sampler draws).
    fn why_not_compiled(&self) -> Option<String> {
        None
    }

    /// Whether an exact or compiled stage of this experiment may take as long as its
    /// budget allows (a Markov chain over fields), rather than a single resolution's
    /// dice enumerated at once: what work is priced at before it starts.
    fn exact_stage_is_long(&self) -> bool {
        true
    }

    /// Seconds of one core an exact or compiled stage of this experiment is expected
    /// to take, from what it knows before it starts (a Markov chain's bound on its
    /// states), or from a pilot of the stage run within `pilot`'s exact budget: what
    /// work is priced at, each stage still at most its own budget. `None`: as long as
    /// its budget allows (a pilot that ran out of it). By default, nothing for a stage
    /// that is not long ([`Experiment::exact_stage_is_long`]), else `None`.
    fn exact_stage_seconds(&self, _pilot: &Run) -> Option<f64> {
        (!self.exact_stage_is_long()).then_some(0.0)
    }
}

/// The most outcome combinations (every measure at once) a literal chunk counts in
/// one flat array; beyond it, each measure is counted on its own.
pub(crate) const MAX_JOINT: usize = 4096;

/// The most measures one resolution reports (a trial's outcome indices live on the
/// stack).
pub const MAX_MEASURES: usize = 10;

/// Trials the literal engine hands a resolution at once (see [`Resolution::block`]):
/// sixteen trials of four 16-bit dice lanes each fill eight vector registers per
/// stream, and a multiple of four keeps each trial on its own copy of the tally's
/// counters (see `tally_blocks`).
pub const BLOCK: usize = 16;

/// A trial's outcome of every measure as one mixed-radix number: measure `m` counts
/// `stride(m)` times its outcome index, the last measure once. Every combination of
/// outcomes then has its own number below [`Joint::states`], and a chunk counts one
/// number per trial, spread into the measures once at its end.
#[derive(Debug, Clone)]
pub struct Joint {
    /// Outcomes per measure.
    sizes: [usize; MAX_MEASURES],
    /// Place values, zero past the last measure: the number is then a sum of
    /// independent products over a fixed length, which unrolls, rather than a chain of
    /// multiplies as long as the measures.
    stride: [usize; MAX_MEASURES],
    states: usize,
}

impl Joint {
    /// The numbering for measures of `sizes` outcomes (at most [`MAX_MEASURES`]
    /// measures), or `None` when the combinations pass `MAX_JOINT`.
    pub(crate) fn new(sizes: &[usize]) -> Option<Self> {
        let states = sizes.iter().try_fold(1usize, |acc, &n| acc.checked_mul(n)).filter(|&j| j <= MAX_JOINT)?;
        let mut joint = Joint { sizes: [1; MAX_MEASURES], stride: [0; MAX_MEASURES], states };
        joint.sizes[..sizes.len()].copy_from_slice(sizes);
        let mut place = 1;
        for (s, &n) in joint.stride[..sizes.len()].iter_mut().zip(sizes).rev() {
            *s = place;
            place *= n;
        }
        Some(joint)
    }

    /// How many numbers there are: the product of every measure's outcome count.
    pub fn states(&self) -> usize {
        self.states
    }

    /// What one outcome of measure `m` adds to the number.
    #[inline(always)]
    pub fn stride(&self, m: usize) -> usize {
        self.stride[m]
    }

    /// The number of a trial that ended in `outcome` (an outcome index per measure).
    #[inline(always)]
    pub fn of(&self, outcome: &[usize; MAX_MEASURES]) -> usize {
        outcome.iter().zip(&self.stride).map(|(o, s)| o * s).sum()
    }

    /// The outcome index of every measure back from a number.
    fn outcome(&self, number: usize, out: &mut [usize]) {
        for ((o, &n), &s) in out.iter_mut().zip(&self.sizes).zip(&self.stride) {
            *o = number / s % n;
        }
    }
}

/// A resolution described by the state one trial ends in: every ruleset's fire and
/// test is one. It runs one literal trial, maps a state to the outcome of every
/// measure, and gives the state's exact distribution; the blanket [`Experiment`]
/// impl turns that into Monte Carlo tallies and exact marginals through the same
/// `index`, so the two can only disagree by chance.
pub trait Resolution: Sync + Send {
    /// What a trial ends in.
    type State: Ord + Clone + std::hash::Hash;

    /// The exact engine's integer weights: `u128`, or `BigUint` for resolutions that
    /// chain more rolls than 128 bits can weigh.
    type Weight: Weight;

    /// What a trial reports, in order (at most [`MAX_MEASURES`]).
    fn measures(&self) -> &[Measure];

    /// The (measure, outcome) that counts as a kill for `p_kill`.
    fn kill(&self) -> (usize, usize);

    /// One literal trial: every die the rules roll, in rule order.
    ///
    /// Implementations mark this and [`Resolution::index`] `#[inline(always)]`: called
    /// apart, the state goes through memory as narrow stores read back by a wider load,
    /// which the processor cannot forward, and every trial stalls on it (perf annotate
    /// of the Command Decision literal chunk: 32 M trials/s apart, 56 M/s inlined).
    fn trial(&self, streams: &mut Streams) -> Self::State;

    /// The outcome index of every measure for a state.
    fn index(&self, state: &Self::State, out: &mut [usize]);

    /// `numbers.len()` literal trials (at most [`BLOCK`]; the engine hands whole blocks
    /// but for a chunk's last few trials), each trial's outcomes written as its
    /// [`Joint`] number in its place.
    ///
    /// By default the trials run one after another ([`by_trial`]). An override
    /// evaluates a block's trials side by side, but must give exactly what the default
    /// gives and leave every stream where the default leaves it: it is a faster reading
    /// of the same literal trials, never another sampler, and its tests hold the two
    /// equal count for count.
    #[inline(always)]
    fn block(&self, streams: &mut Streams, joint: &Joint, numbers: &mut [usize]) {
        by_trial(self, streams, joint, numbers);
    }

    /// The exact distribution of a trial's state.
    fn exact_state(&self) -> std::result::Result<Dist<Self::State, Self::Weight>, TooLarge>;
}

/// [`Resolution::block`] one trial after another: the default, and an override's cold
/// path.
#[inline(always)]
pub fn by_trial<R: Resolution + ?Sized>(resolution: &R, streams: &mut Streams, joint: &Joint, numbers: &mut [usize]) {
    let mut out = [0usize; MAX_MEASURES];
    let measures = Resolution::measures(resolution).len();
    for number in numbers {
        let state = resolution.trial(streams);
        resolution.index(&state, &mut out[..measures]);
        *number = joint.of(&out);
    }
}

/// A resolution run trial by trial: `R` in every [`Resolution`] method but
/// [`Resolution::block`], left to its default. The literal reference a block path is
/// held to, count for count, and the speed it is measured against. It borrows the
/// resolution (`ByTrial(&fire)`) or owns it in a box, so that a ruleset can hand one
/// out through its trait object (`bench`'s peer resolution).
pub struct ByTrial<P>(pub P);

impl<P> Resolution for ByTrial<P>
where
    P: std::ops::Deref + Sync + Send,
    P::Target: Resolution,
{
    type State = <P::Target as Resolution>::State;
    type Weight = <P::Target as Resolution>::Weight;

    fn measures(&self) -> &[Measure] {
        self.0.measures()
    }

    fn kill(&self) -> (usize, usize) {
        self.0.kill()
    }

    #[inline(always)]
    fn trial(&self, streams: &mut Streams) -> Self::State {
        self.0.trial(streams)
    }

    #[inline(always)]
    fn index(&self, state: &Self::State, out: &mut [usize]) {
        self.0.index(state, out)
    }

    fn exact_state(&self) -> std::result::Result<Dist<Self::State, Self::Weight>, TooLarge> {
        self.0.exact_state()
    }
}

impl<R: Resolution> Experiment for R {
    fn measures(&self) -> &[Measure] {
        Resolution::measures(self)
    }

    fn kill(&self) -> (usize, usize) {
        Resolution::kill(self)
    }

    /// Literal trials. Where every measure's outcomes together make at most
    /// `MAX_JOINT` combinations, a trial's outcomes are counted as one [`Joint`] number
    /// (one increment a trial, spread into the measures once per chunk), and trials
    /// run a [`Resolution::block`] at a time.
    fn simulate(&self, streams: &mut Streams, trials: u64, tally: &mut Tally) {
        let sizes = layout(Resolution::measures(self));
        let Some(joint) = Joint::new(&sizes) else {
            let mut out = [0usize; MAX_MEASURES];
            for _ in 0..trials {
                let state = self.trial(streams);
                self.index(&state, &mut out[..sizes.len()]);
                tally.record(&out[..sizes.len()]);
            }
            return;
        };
        let fill = |numbers: &mut [usize]| self.block(streams, &joint, numbers);
        tally_blocks(trials, joint.states(), fill, |j, out| joint.outcome(j, out), tally);
    }

    /// A single resolution enumerates its dice at once, well inside any budget.
    fn exact_in(&self, _stage: &ExactStage) -> Option<ExactTable> {
        let dist = self.exact_state().ok()?;
        Some(marginals(&dist, &layout(Resolution::measures(self)), |s, out| self.index(s, out)))
    }

    fn compiled_in(&self, _stage: &ExactStage) -> Option<Box<dyn Experiment + '_>> {
        CompiledResolution::new(self).map(|c| Box::new(c) as Box<dyn Experiment + '_>)
    }

    fn exact_stage_is_long(&self) -> bool {
        false
    }
}

/// The most trials one study may ask for: 2^53, past which a count no longer has an
/// exact `f64` and estimates (count / trials) would silently round.
pub(crate) const MAX_TRIALS: u64 = 1 << 53;

/// The most worker threads per core: more only adds switching (a fire of 1,000 trials
/// took 30 s on 4,000 threads).
pub(crate) const MAX_THREADS_PER_CORE: usize = 8;

/// The most worker threads this machine takes: [`MAX_THREADS_PER_CORE`] per core.
pub(crate) fn max_threads() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get) * MAX_THREADS_PER_CORE
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
    /// Literal dice or compiled distributions (see [`Prepared`]).
    pub mode: Mode,
}

impl MonteCarlo {
    /// Refuses what the engine cannot run: no trials, more than `MAX_TRIALS`, no
    /// threads or more than `max_threads`.
    pub fn validate(&self) -> Result<()> {
        if self.trials == 0 {
            return Err(Error::setting(Setting::Trials, "must be at least 1"));
        }
        if self.trials > MAX_TRIALS {
            return Err(Error::setting(
                Setting::Trials,
                format!(
                    "{}: at most {MAX_TRIALS} (2^53), past which counts lose exactness as probabilities; ask for a precision instead, to stop at the accuracy you need",
                    self.trials
                ),
            ));
        }
        match self.threads {
            Some(0) => Err(Error::setting(Setting::Threads, "must be at least 1")),
            Some(n) if n > max_threads() => Err(Error::setting(
                Setting::Threads,
                format!(
                    "{n}: at most {} on this machine ({MAX_THREADS_PER_CORE} per core); more threads only slow the run, and leaving the thread count out uses every core",
                    max_threads()
                ),
            )),
            _ => Ok(()),
        }
    }
}

/// Which chunks a process runs: shard `index` of `count` takes the chunks whose
/// number is `index - 1` modulo `count`. The shards of a study share its chunk
/// numbering and streams, so their tallies add up to exactly the unsharded one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Shard {
    /// From 1.
    pub index: u64,
    /// How many shards the study is split into.
    pub count: u64,
}

impl Shard {
    /// The whole study in one process.
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// Reads `K/N` with 1 <= K <= N.
    pub fn parse(text: &str) -> std::result::Result<Self, String> {
        let bad = || format!("shard `{text}` is not K/N with 1 <= K <= N (e.g. 3/8, the third of eight shards)");
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let (index, count): (u64, u64) = (k.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
        if index == 0 || count == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// The chunks of a study of `chunks` chunks this shard runs, in order.
    pub fn chunks(self, chunks: u64) -> impl Iterator<Item = u64> + Clone {
        (self.index - 1..chunks).step_by(self.count as usize)
    }

    /// How many chunks of a study of `chunks` chunks this shard runs.
    pub(crate) fn chunk_count(self, chunks: u64) -> u64 {
        chunks.saturating_sub(self.index - 1).div_ceil(self.count)
    }

    /// Trials this shard runs of a study of `trials` trials: whole chunks, less what
    /// the study's last chunk lacks if it is this shard's.
    pub fn trials(self, trials: u64) -> u64 {
        let chunks = trials.div_ceil(CHUNK_TRIALS);
        let last = chunks.saturating_sub(1);
        let short = if chunks > 0 && last % self.count == self.index - 1 {
            CHUNK_TRIALS - chunk_trials(trials, last)
        } else {
            0
        };
        self.chunk_count(chunks) * CHUNK_TRIALS - short
    }

    /// This shard's `k`-th chunk (from 0) in the study's numbering.
    pub fn chunk(self, k: u64) -> u64 {
        self.index - 1 + k * self.count
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// A whole Monte Carlo study: trials, seed and threads, the shard this process runs,
/// and an optional precision at which to stop early.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Study {
    /// Trials (the most, with a precision target), seed and threads.
    pub monte_carlo: MonteCarlo,
    /// The chunks this process runs.
    pub shard: Shard,
    /// Stop once every outcome's interval half-width is below this.
    pub precision: Option<f64>,
}

/// The most chunks between two progress reports and precision checks.
pub(crate) const MAX_BATCH_CHUNKS: usize = 64;

/// Where a study's batches end, counted in the shard's chunks done: after 1, 2, 4, ...
/// chunks (each batch doubles what is done) until batches reach
/// `MAX_BATCH_CHUNKS`, then every `MAX_BATCH_CHUNKS`, and at the last chunk. A
/// precision target is thus met within twice the trials it needs (or one batch more),
/// and since the ends depend on nothing but the chunk count, it stops at the same
/// trial count on any machine.
pub fn batch_ends(chunks: u64) -> impl Iterator<Item = u64> {
    let mut done = 0;
    std::iter::from_fn(move || {
        (done < chunks).then(|| {
            done = (done + done.clamp(1, MAX_BATCH_CHUNKS as u64)).min(chunks);
            done
        })
    })
}

/// What a study ran to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ran {
    /// The merged tally.
    pub tally: Tally,
    /// The mode it ran in (literal where compiled was asked for but out of reach).
    pub mode: Mode,
    /// Why it ran literal where compiled was asked for, where the experiment says.
    pub why_literal: Option<String>,
    /// Whether the precision target (if any) was met.
    pub precise: bool,
}

/// The widest interval half-width over every outcome of every measure.
pub fn widest_half_width(tally: &Tally, measures: &[Measure], confidence: f64) -> f64 {
    (0..measures.len())
        .flat_map(|m| tally.counts(m).iter().map(|&c| crate::stats::interval(c, tally.trials(), confidence)))
        .map(|e| (e.high - e.low) / 2.0)
        .fold(0.0, f64::max)
}

/// Runs a study in the batches of [`batch_ends`]. After each batch it reports (trials
/// done, trials planned) to `progress`, and with a precision target stops as soon as
/// every outcome's 95% interval is narrower than it. Once `run` is stopped no further
/// chunk starts and the study ends with [`Error::Interrupted`]; compiling the
/// experiment is one of the run's exact stages.
pub fn run_study(
    experiment: &dyn Experiment,
    study: &Study,
    progress: &(dyn Fn(u64, u64) + Sync),
    run: &Run,
) -> Result<Ran> {
    let plan = &study.monte_carlo;
    let prepared = Prepared::new(experiment, plan.mode, &run.exact_stage());
    let (experiment, mode) = (prepared.experiment(), prepared.mode());
    let why_literal =
        (plan.mode == Mode::Compiled && mode == Mode::Literal).then(|| experiment.why_not_compiled()).flatten();
    let layout = layout(experiment.measures());
    let chunks = plan.trials.div_ceil(CHUNK_TRIALS);
    // This shard's chunks are walked by position, never collected: a study of 2^53
    // trials holds no more memory than one of a thousand.
    let mine = study.shard.chunk_count(chunks);
    let planned = study.shard.trials(plan.trials);
    let stopped = || run.stopped();
    let precise = |tally: &Tally| {
        study.precision.is_none_or(|p| widest_half_width(tally, experiment.measures(), crate::stats::CONFIDENCE) < p)
    };
    let work = || -> Result<Ran> {
        let mut tally = Tally::new(&layout);
        let mut start = 0;
        for end in batch_ends(mine) {
            let part = (start..end)
                .into_par_iter()
                .map(|k| (!stopped()).then(|| run_chunk(experiment, plan, &layout, study.shard.chunk(k))))
                .reduce(|| Some(Tally::new(&layout)), |a, b| Some(a?.merge(b?)));
            tally = tally.merge(part.filter(|_| !stopped()).ok_or(Error::Interrupted)?);
            start = end;
            progress(tally.trials(), planned);
            if study.precision.is_some() && precise(&tally) {
                return Ok(Ran { tally, mode, why_literal, precise: true });
            }
        }
        Ok(Ran { precise: precise(&tally), mode, why_literal, tally })
    };
    in_pool(plan.threads, work)?
}

/// Trials in chunk `chunk` of a study of `trials` trials.
pub fn chunk_trials(trials: u64, chunk: u64) -> u64 {
    CHUNK_TRIALS.min(trials - chunk * CHUNK_TRIALS)
}

/// One chunk: its own streams, its own tally.
fn run_chunk(experiment: &dyn Experiment, plan: &MonteCarlo, layout: &[usize], chunk: u64) -> Tally {
    let mut streams = Streams::for_chunk(plan.seed, chunk);
    let mut tally = Tally::new(layout);
    experiment.simulate(&mut streams, chunk_trials(plan.trials, chunk), &mut tally);
    tally
}

/// Seconds of one core that one literal trial of `experiment` takes, timed on this
/// thread: what work is priced at before it starts. Batches double from 64 trials
/// until one runs for [`PILOT_ROUND`]; batches of that size then run until the pilot
/// has run for [`PILOT_TIME`] and timed at least [`PILOT_LEAST_ROUNDS`] of them (or
/// [`PILOT_ROUNDS`] in all), and the fastest batch gives the price. The fastest, not
/// the mean, and never the first alone: a first batch pays for what runs once (a
/// browser compiles WebAssembly a function at a time, on its first call), and a batch
/// the scheduler paused reads slow; neither is the work's. Priced from whatever batches
/// a 5 ms pilot ran, the browser's engine (in Node, on the V8 a tab runs) read a trial
/// of the Shermans sweep at 3.9 to 162 µs on a loaded machine, and refused the sweep
/// as too heavy for a tab; now at 3.9 to 12. Its streams are a pilot's own, so no
/// study's numbers depend on it. Timed on `clock` (a browser's is the page's: it has
/// no `Instant`).
pub fn seconds_per_trial(experiment: &dyn Experiment, clock: Clock) -> f64 {
    let layout = layout(experiment.measures());
    let mut tally = Tally::new(&layout);
    let started = clock();
    let (mut ran, mut batch, mut rounds, mut fastest) = (0, 64, 0, f64::INFINITY);
    loop {
        let mut streams = Streams::for_chunk(PILOT_SEED, ran);
        let before = clock();
        experiment.simulate(&mut streams, batch, &mut tally);
        let took = clock() - before;
        ran += batch;
        // Shorter batches are a clock's tick or two (a browser's ticks are 0.1 ms):
        // they only find the size worth timing.
        if took < PILOT_ROUND && batch < PILOT_BATCH {
            batch *= 2;
            continue;
        }
        fastest = fastest.min(took.as_secs_f64() / batch as f64);
        rounds += 1;
        if rounds == PILOT_ROUNDS || (rounds >= PILOT_LEAST_ROUNDS && clock() - started >= PILOT_TIME) {
            return fastest;
        }
    }
}

/// How long a timed batch of a pilot runs at least: ten ticks of a browser's clock.
pub const PILOT_ROUND: std::time::Duration = std::time::Duration::from_millis(1);

/// How long a pilot of [`seconds_per_trial`] runs at least: long enough to see a
/// trial of a whole fight (tens of microseconds) a hundred times over, and a fast one
/// in several batches, one of which the scheduler leaves alone.
pub const PILOT_TIME: std::time::Duration = std::time::Duration::from_millis(10);

/// The fewest batches a pilot times: one after the first, which may pay for compiling
/// the code, and one more in case the scheduler paused that.
pub const PILOT_LEAST_ROUNDS: u32 = 3;

/// The most batches a pilot times: it ends on a clock that does not move.
pub const PILOT_ROUNDS: u32 = 16;

/// The largest batch a pilot runs: a single fire's trials take nanoseconds.
const PILOT_BATCH: u64 = 1 << 20;

/// The pilot's seed, apart from any study's (a study's seed is the user's).
const PILOT_SEED: u64 = 0x9e37_79b9_7f4a_7c15;

/// Runs `work` on a pool of `threads` threads (rayon's default pool when `None`), or,
/// called from inside a pool, on that pool: one run, one pool, however its phases nest
/// (a sweep's points or sensitivity's changes, each running its own chunks). A pool
/// built per nested call leaves its caller's worker, while it waits, stealing the next
/// point into yet another pool, until the stack overflows.
pub fn in_pool<T: Send>(threads: Option<usize>, work: impl FnOnce() -> T + Send) -> Result<T> {
    match threads {
        None => Ok(work()),
        Some(_) if rayon::current_thread_index().is_some() => Ok(work()),
        Some(threads) => {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().map_err(|e| {
                Error::setting(Setting::Threads, format!("{threads}: cannot start the thread pool: {e}"))
            })?;
            Ok(pool.install(work))
        }
    }
}

/// Runs the experiment in `plan.mode` and returns the merged tally and the mode it
/// ran in (literal where compiled was asked for but is out of reach).
pub fn run(experiment: &dyn Experiment, plan: &MonteCarlo, run: &Run) -> Result<(Tally, Mode)> {
    let prepared = Prepared::new(experiment, plan.mode, &run.exact_stage());
    Ok((run_as_given(prepared.experiment(), plan, run)?, prepared.mode()))
}

/// Runs the experiment exactly as given, whatever `plan.mode` says. Stopping `run`
/// stops it between chunks with [`Error::Interrupted`].
pub fn run_as_given(experiment: &dyn Experiment, plan: &MonteCarlo, run: &Run) -> Result<Tally> {
    let layout = layout(experiment.measures());
    let chunks = plan.trials.div_ceil(CHUNK_TRIALS);
    in_pool(plan.threads, || {
        (0..chunks)
            .into_par_iter()
            .map(|chunk| {
                run.check()?;
                Ok(run_chunk(experiment, plan, &layout, chunk))
            })
            .try_reduce(|| Tally::new(&layout), |a, b| Ok(a.merge(b)))
    })?
}

/// Runs `first` and `second` trial by trial on common random numbers and counts
/// their kills jointly, for the difference between them. Chunks and their merge are
/// as in [`run`], so the result does not depend on the thread count.
pub fn run_paired(first: &dyn Experiment, second: &dyn Experiment, plan: &MonteCarlo, run: &Run) -> Result<Paired> {
    let chunks = plan.trials.div_ceil(CHUNK_TRIALS);
    in_pool(plan.threads, || {
        (0..chunks)
            .into_par_iter()
            .map(|chunk| {
                run.check()?;
                let pair = [first, second];
                let mut tallies = pair.map(|e| Tally::new(&layout(e.measures())));
                let mut paired = Paired::default();
                for i in 0..chunk_trials(plan.trials, chunk) {
                    let streams = Streams::for_paired_trial(plan.seed, chunk * CHUNK_TRIALS + i);
                    let mut killed = [false; 2];
                    for ((e, tally), k) in pair.iter().zip(&mut tallies).zip(&mut killed) {
                        let (m, o) = e.kill();
                        let before = tally.counts(m)[o];
                        e.simulate(&mut streams.clone(), 1, tally);
                        *k = tally.counts(m)[o] > before;
                    }
                    paired.trials += 1;
                    match killed {
                        [true, true] => paired.both += 1,
                        [true, false] => paired.first_only += 1,
                        [false, true] => paired.second_only += 1,
                        [false, false] => {}
                    }
                }
                Ok(paired)
            })
            .try_reduce(Paired::default, |a, b| Ok(a.merge(b)))
    })?
}

#[cfg(test)]
mod tests;
