//! Criterion benches: dice throughput, one at a time and in blocks; one Command
//! Decision fire resolution (literal trial, literal chunks in blocks and trial by trial,
//! compiled chunk, exact engine); shipped Command Decision, Mission Command, Company
//! Commander and Chain of Command resolutions in both modes; whole engagements; and
//! `run` end to end on 1 to all threads.
//!
//! Run with `cargo bench --bench fire` (add `-- --quick` for a fast pass).

use std::hint::black_box;
use std::time::Duration;

use combat_odds_core::dice::{D6, D10, D20, D100, Die};
use combat_odds_core::document::Document;
use combat_odds_core::engine::{self, Experiment, Mode, MonteCarlo, Stream, Streams};
use combat_odds_core::run::Run;
use combat_odds_rules::ruleset::Peer;
use combat_odds_rules::{Rules, Scenario};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

/// Rolls per iteration of the dice benches (so the loop overhead is amortised).
const ROLLS: u64 = 1024;
/// Trials of the end-to-end engine bench.
const ENGINE_TRIALS: u64 = 1_000_000;

/// The peer comparison's resolution on the shipped tables, as the registry gives it (no
/// ruleset is named outside its folder and the registry), with the same resolution run
/// trial by trial.
fn peer() -> Peer {
    Rules::builtin().peer().expect("embedded tables load")
}

fn dice(c: &mut Criterion) {
    let mut group = c.benchmark_group("dice");
    group.throughput(Throughput::Elements(ROLLS));
    let dice: [(&str, Die); 4] = [("d6", D6), ("d10", D10), ("d20", D20), ("d100", D100)];
    for (name, die) in dice {
        let mut rng = Stream::from_key(2026);
        group.bench_function(BenchmarkId::new("roll", name), |b| {
            b.iter(|| {
                let mut sum = 0u32;
                for _ in 0..ROLLS {
                    sum = sum.wrapping_add(black_box(die).roll(&mut rng));
                }
                sum
            })
        });
    }
    // The literal block path's draw: 16 outputs of four d10 lanes each, a refused block
    // (a lane Lemire rejects, about one in 170) drawn again pack by pack.
    let mut rng = Stream::from_key(2026);
    group.bench_function(BenchmarkId::new("block_of_64", "d10"), |b| {
        let mut packs = [[0u16; 4]; 16];
        b.iter(|| {
            let mut sum = 0u32;
            for _ in 0..ROLLS / 64 {
                rng.packs16(10, &mut packs);
                sum = packs.as_flattened().iter().fold(sum, |s, &d| s.wrapping_add(u32::from(d)));
            }
            sum
        })
    });
    group.finish();
}

/// Compiles a shipped experiment, as the CLI would.
fn experiment(name: &str, text: &str) -> Box<dyn Experiment> {
    let plan = MonteCarlo { trials: 1, seed: 2026, threads: Some(1), mode: Mode::Literal };
    Scenario::new(&Document::new(name, name, text), &Rules::builtin(), plan)
        .expect("the experiment compiles")
        .set_up
        .experiment
}

/// One chunk of trials through the tally, as the engine runs it.
fn chunk(b: &mut criterion::Bencher, experiment: &dyn Experiment) {
    let layout = engine::layout(experiment.measures());
    let mut streams = Streams::for_chunk(1, 0);
    b.iter(|| {
        let mut tally = engine::Tally::new(&layout);
        experiment.simulate(&mut streams, engine::CHUNK_TRIALS, &mut tally);
        tally
    })
}

/// Chunk-sized Monte Carlo batches in both modes, and the exact engine, of shipped
/// experiments, in the bench group `group`.
fn shipped(c: &mut Criterion, group: &str, cases: &[(&str, &str)]) {
    let mut group = c.benchmark_group(group);
    for &(name, text) in cases {
        let literal = experiment(name, text);
        group.throughput(Throughput::Elements(engine::CHUNK_TRIALS));
        group.bench_function(BenchmarkId::new("literal_chunk", name), |b| chunk(b, literal.as_ref()));
        if let Some(compiled) = literal.compiled() {
            group.bench_function(BenchmarkId::new("compiled_chunk", name), |b| chunk(b, compiled.as_ref()));
        }
        group.throughput(Throughput::Elements(1));
        group.bench_function(BenchmarkId::new("exact", name), |b| b.iter(|| black_box(&literal).exact()));
    }
    group.finish();
}

fn cd_resolution(c: &mut Criterion) {
    let Peer { fire, by_trial } = peer();
    let mut group = c.benchmark_group("cd_fire");
    group.throughput(Throughput::Elements(1));
    group.bench_function("exact_rof3_hit5_regular", |b| b.iter(|| black_box(&fire).exact()));
    group.throughput(Throughput::Elements(engine::CHUNK_TRIALS));
    group.bench_function("literal_chunk_rof3_hit5_regular", |b| chunk(b, fire.as_ref()));
    group.bench_function("literal_by_trial_chunk_rof3_hit5_regular", |b| chunk(b, by_trial.as_ref()));
    let compiled = fire.compiled().expect("a single fire compiles");
    group.bench_function("compiled_chunk_rof3_hit5_regular", |b| chunk(b, compiled.as_ref()));
    group.finish();
}

/// Shipped Command Decision fires beside the peer's: ammo and passengers (the tank
/// duel), two firers' volleys (infantry in cover), and an artillery response roll,
/// which keeps literal trials one at a time (the IDF mission).
fn cd_shipped(c: &mut Criterion) {
    let cases = [
        ("tank_duel", include_str!("../experiments/cd_tank_duel.toml")),
        ("infantry_in_cover", include_str!("../experiments/cd_infantry_in_cover.toml")),
        ("idf_mission", include_str!("../experiments/cd_idf_mission.toml")),
    ];
    shipped(c, "cd_shipped", &cases);
}

fn mc_resolution(c: &mut Criterion) {
    let cases = [
        ("hmg_good_cover", include_str!("../experiments/mc_hmg_good_cover.toml")),
        ("75l48_vs_ac6", include_str!("../experiments/mc_75l48_vs_ac6_40cm.toml")),
        ("area_105mm_3_afvs", include_str!("../experiments/mc_area_fire_105mm_vs_panzers.toml")),
        ("reaction_test", include_str!("../experiments/mc_reaction_green_unlocated_afv.toml")),
    ];
    shipped(c, "mc_fire", &cases);
}

/// Company Commander: one attack at armour, many attacks at a multi-strength squad (the
/// suppression-then-damage chain), and a barrage over several units.
fn cc_resolution(c: &mut Criterion) {
    let cases = [
        ("panther_vs_sherman", include_str!("../experiments/cc_panther_vs_sherman.toml")),
        ("mg42_vs_squad_in_woods", include_str!("../experiments/cc_mg42_vs_squad_in_woods.toml")),
        ("105mm_barrage", include_str!("../experiments/cc_105mm_barrage.toml")),
    ];
    shipped(c, "cc_fire", &cases);
}

/// Chain of Command: one hand of Command Dice (the allocation read from the table
/// solved once per pool), a Turn of Phases, and a fire repeated until a Section breaks.
fn coc_resolution(c: &mut Criterion) {
    let cases = [
        ("five_dice_senior_leader", include_str!("../experiments/coc_five_dice_senior_leader.toml")),
        ("turn_length", include_str!("../experiments/coc_turn_length.toml")),
        ("lmg_phases_to_break", include_str!("../experiments/coc_lmg_phases_to_break_section.toml")),
    ];
    shipped(c, "coc_fire", &cases);
}

/// Whole engagements (engagements/s): the Command Decision tank duel and a Mission
/// Command platoon under HMG fire, literal and compiled.
fn engagements(c: &mut Criterion) {
    let cases = [
        ("cd_tank_duel", include_str!("../experiments/cd_engagement_tank_duel.toml")),
        ("mc_hmg_vs_rifle_platoon", include_str!("../experiments/mc_engagement_hmg_vs_rifle_platoon.toml")),
    ];
    shipped(c, "engagement", &cases);
}

/// `run` end to end (chunks, streams, merge) on 1 to all threads, in both modes: the
/// literal single fire and the compiled tank duel.
fn run_threads(c: &mut Criterion) {
    let fire = peer().fire;
    let duel = experiment("cd_tank_duel", include_str!("../experiments/cd_engagement_tank_duel.toml"));
    let all = std::thread::available_parallelism().map_or(1, usize::from);
    let mut group = c.benchmark_group("run");
    group.throughput(Throughput::Elements(ENGINE_TRIALS));
    // One iteration is ~30 ms on one thread; criterion's smallest sample count keeps the
    // group inside its budget.
    group.sample_size(10);
    let cases: [(&str, &dyn Experiment, Mode); 2] =
        [("cd_fire_literal", fire.as_ref(), Mode::Literal), ("cd_tank_duel_compiled", duel.as_ref(), Mode::Compiled)];
    for (name, experiment, mode) in cases {
        for threads in 1..=all {
            let plan = MonteCarlo { trials: ENGINE_TRIALS, seed: 2026, threads: Some(threads), mode };
            let stop = std::sync::atomic::AtomicBool::new(false);
            let run = Run::new(&stop, None);
            group.bench_function(BenchmarkId::new(name, format!("{threads}_threads")), |b| {
                b.iter(|| engine::run(black_box(experiment), &plan, &run).expect("engine runs"))
            });
        }
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .measurement_time(Duration::from_secs(3))
        .warm_up_time(Duration::from_secs(1))
        .sample_size(20);
    targets = dice, cd_resolution, cd_shipped, mc_resolution, cc_resolution, coc_resolution, engagements, run_threads
}
criterion_main!(benches);
