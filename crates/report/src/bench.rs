//! `combat-odds bench`: the speed figures the README sets targets for, measured on
//! whatever machine runs it, so users can check their own hardware.
//!
//! Criterion (`cargo bench`) gives the careful numbers with their spread; this gives
//! one table in a few seconds from the installed binary. Each figure is the best of a
//! few timed repeats of real work through the engine: d10s one at a time and in blocks,
//! the single Command Decision fire resolution of the peer comparison (ROF 3, hit
//! number 5, Regular target) literal (in blocks of trials, and trial by trial) and
//! compiled on one thread, the exact engine on it, the embedded tank duel compiled on
//! one thread, and `run` on one thread against all of them.

use std::hint::black_box;
use std::time::Instant;

use polars::prelude::*;
use serde::Serialize;

use combat_odds_core::engine::{self, Experiment, Mode, MonteCarlo, Stream};
use combat_odds_core::run::Run;

use crate::error::Result;
use crate::export::{Rendered, frames};

/// How long to measure.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// Trials per timed repeat of each single-thread figure.
    pub trials: u64,
    /// Timed repeats per figure; the best counts.
    pub repeats: u32,
    /// The NumPy peer's resolutions per second (from `benches/peer/run.sh`), if known.
    pub peer: Option<f64>,
}

/// One measured figure against its target.
#[derive(Debug, Clone, Serialize)]
pub struct Figure {
    /// What was measured.
    pub measure: String,
    /// The figure.
    pub value: f64,
    /// Its unit.
    pub unit: &'static str,
    /// The README's target, in the same unit.
    pub target: Option<f64>,
    /// Whether a larger figure is better (rates) or a smaller one (times).
    pub higher_is_better: bool,
}

impl Figure {
    /// Whether the figure meets its target (`None` without one).
    pub fn met(&self) -> Option<bool> {
        self.target.map(|t| if self.higher_is_better { self.value >= t } else { self.value <= t })
    }
}

/// Every figure, with the machine's thread count.
#[derive(Debug, Clone, Serialize)]
pub struct Bench {
    /// Threads the `run` figures used at most.
    pub threads: usize,
    /// The figures, in the README's order.
    pub figures: Vec<Figure>,
}

/// The best of `repeats` timings of `work`, in seconds.
fn best_seconds(repeats: u32, mut work: impl FnMut()) -> f64 {
    (0..repeats.max(1))
        .map(|_| {
            let start = Instant::now();
            work();
            start.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

/// Trials per second of `experiment` run as given through the engine.
fn rate(experiment: &dyn Experiment, (trials, threads): (u64, usize), repeats: u32, run: &Run) -> Result<f64> {
    let plan = MonteCarlo { trials, seed: 2026, threads: Some(threads), mode: Mode::Literal };
    let mut failed = None;
    let seconds = best_seconds(repeats, || {
        if let Err(e) = engine::run_as_given(experiment, &plan, run) {
            failed = Some(e);
        }
    });
    failed.map_or(Ok(trials as f64 / seconds), |e| Err(e.into()))
}

/// What the figures are measured on: the peer comparison's single fire resolution
/// (the Command Decision one the README's targets are set for) and two whole
/// engagements (the embedded tank duel, and a platoon compiled over lumped states).
pub struct Work<'a> {
    /// One fire resolution, with an exact distribution and a compiled form.
    pub fire: &'a dyn Experiment,
    /// The same resolution run trial by trial (`engine::ByTrial`): the literal
    /// reference its blocks of trials are measured against.
    pub fire_by_trial: &'a dyn Experiment,
    /// A whole engagement, with a compiled form.
    pub duel: &'a dyn Experiment,
    /// A platoon-sized engagement, compiled over lumped states (Mission Command's
    /// HMG position against a rifle platoon).
    pub platoon: &'a dyn Experiment,
}

/// Measures every figure.
/// The bench is one run (the CLI's, stopped by Ctrl-C).
pub fn measure(options: Options, work: Work, run: &Run) -> Result<Bench> {
    let Options { trials, repeats, peer } = options;
    let all = std::thread::available_parallelism().map_or(1, usize::from);
    let fire = work.fire;
    let compiled_fire = fire.compiled().expect("a single fire compiles");
    let duel = work.duel.compiled().expect("the embedded duel compiles");
    let platoon = work.platoon.compiled().expect("the HMG position compiles over lumped states");

    let mut stream = Stream::from_key(2026);
    let rolls = trials * 4;
    let d10 = rolls as f64
        / best_seconds(repeats, || {
            let sum = (0..rolls).fold(0u32, |s, _| s.wrapping_add(combat_odds_core::dice::D10.roll(&mut stream)));
            black_box(sum);
        });
    // As the literal block path draws them: 16 outputs of four d10 lanes a block, a
    // refused block (a lane Lemire rejects) drawn again pack by pack.
    let mut packs = [[0u16; 4]; 16];
    let d10_blocks = rolls as f64
        / best_seconds(repeats, || {
            let sum = (0..rolls / 64).fold(0u32, |s, _| {
                stream.packs16(10, &mut packs);
                packs.as_flattened().iter().fold(s, |s, &d| s.wrapping_add(u32::from(d)))
            });
            black_box(sum);
        });
    let literal = rate(fire, (trials, 1), repeats, run)?;
    let by_trial = rate(work.fire_by_trial, (trials, 1), repeats, run)?;
    let compiled = rate(compiled_fire.as_ref(), (trials * 4, 1), repeats, run)?;
    let solves = 200;
    let exact_us =
        best_seconds(repeats, || (0..solves).for_each(|_| drop(black_box(fire.exact())))) * 1e6 / f64::from(solves);
    let duel_rate = rate(duel.as_ref(), (trials, 1), repeats, run)?;
    let platoon_rate = rate(platoon.as_ref(), (trials, 1), repeats, run)?;
    let run_one = rate(fire, (trials * 2, 1), repeats, run)?;
    let run_all = rate(fire, (trials * 2, all), repeats, run)?;

    let per_core = |measure: &str, value: f64, target: Option<f64>| Figure {
        measure: measure.to_string(),
        value,
        unit: "M/s",
        target,
        higher_is_better: true,
    };
    let mut figures = vec![
        per_core("d10 rolls, one core", d10 / 1e6, None),
        per_core("d10 rolls in blocks of 64, one core", d10_blocks / 1e6, None),
        per_core("CD single resolution, literal, one core", literal / 1e6, Some(150.0)),
        per_core("CD single resolution, trial by trial, one core", by_trial / 1e6, None),
        per_core("CD single resolution, compiled, one core", compiled / 1e6, Some(450.0)),
        per_core("CD tank duel engagements, compiled, one core", duel_rate / 1e6, Some(20.0)),
        per_core("MC HMG vs rifle platoon, compiled, one core", platoon_rate / 1e6, Some(10.0)),
        Figure {
            measure: "exact engine, one CD resolution".into(),
            value: exact_us,
            unit: "us",
            target: Some(100.0),
            higher_is_better: false,
        },
        Figure {
            measure: format!("run (literal CD resolution), {all} threads vs 1"),
            value: run_all / run_one,
            unit: "x",
            target: (all >= 2).then_some(1.8),
            higher_is_better: true,
        },
    ];
    if let Some(peer) = peer {
        figures.push(per_core("NumPy peer, CD single resolution, one core", peer / 1e6, None));
        figures.push(Figure {
            measure: "literal vs peer".into(),
            value: literal / peer,
            unit: "x",
            target: Some(12.0),
            higher_is_better: true,
        });
        figures.push(Figure {
            measure: "compiled vs peer".into(),
            value: compiled / peer,
            unit: "x",
            target: Some(20.0),
            higher_is_better: true,
        });
    }
    Ok(Bench { threads: all, figures })
}

impl Bench {
    fn frame(&self) -> PolarsResult<DataFrame> {
        let f = &self.figures;
        df! {
            "measure" => f.iter().map(|x| x.measure.clone()).collect::<Vec<_>>(),
            "value" => f.iter().map(|x| x.value).collect::<Vec<_>>(),
            "unit" => f.iter().map(|x| x.unit).collect::<Vec<_>>(),
            "target" => f.iter().map(|x| x.target).collect::<Vec<_>>(),
            "met" => f.iter().map(Figure::met).collect::<Vec<_>>(),
        }
    }
}

impl Rendered for Bench {
    fn to_table(&self) -> String {
        let mut s =
            format!("combat-odds {} speed on this machine ({} threads)\n\n", env!("CARGO_PKG_VERSION"), self.threads);
        s += &format!("| {:<48} | {:>10} | {:<4} | {:>8} | {:<4} |\n", "measure", "figure", "unit", "target", "met");
        s += &format!("|{:-<50}|{:->12}|{:-<6}|{:->10}|{:-<6}|\n", "", "", "", "", "");
        for f in &self.figures {
            let target =
                f.target.map_or(String::new(), |t| format!("{}{t}", if f.higher_is_better { ">= " } else { "<= " }));
            let met = f.met().map_or("", |m| if m { "yes" } else { "NO" });
            s += &format!("| {:<48} | {:>10.2} | {:<4} | {:>8} | {:<4} |\n", f.measure, f.value, f.unit, target, met);
        }
        s
    }

    fn to_csv(&self) -> String {
        self.frame().and_then(|mut f| frames::csv(&mut f)).expect("a bench frame always writes")
    }
}
