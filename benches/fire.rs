//! Criterion benches: dice throughput, one Command Decision fire resolution (Monte
//! Carlo trial and exact engine), Mission Command, Company Commander and Chain of
//! Command resolutions compiled from shipped experiments, and the chunked parallel
//! engine end to end.
//!
//! Run with `cargo bench --bench fire` (add `-- --quick` for a fast pass).

use std::hint::black_box;
use std::time::Duration;

use combat_odds::cli::FirePlan;
use combat_odds::dice::{D6, D10, D20, D100, Die};
use combat_odds::document::Document;
use combat_odds::engine::{self, Experiment, MonteCarlo, Resolution, Streams};
use combat_odds::rules::command_decision::{CommandDecision, EffectByFace, FireResolution, Quality, Volley};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// Rolls per iteration of the dice benches (so the loop overhead is amortised).
const ROLLS: u64 = 1024;
/// Trials of the end-to-end engine bench.
const ENGINE_TRIALS: u64 = 1_000_000;

/// The Regular row of the Hit Results Chart, unmodified, read from the shipped tables.
fn regular_row() -> EffectByFace {
    let cd = CommandDecision::load(None).expect("embedded tables load");
    let row = cd.tables().hit_row(Quality::Regular);
    std::array::from_fn(|i| row.result(i as i32 + 1))
}

/// ROF 3 at hit number 5 against a Regular stand: one resolution is 3 to-hit dice
/// and an effect die per hit.
fn resolution() -> FireResolution {
    let volley = Volley { dice: 3, hit_at_most: 5, effect: regular_row(), ammo: None };
    FireResolution::new(vec![volley], None, vec![], false)
}

fn dice(c: &mut Criterion) {
    let mut group = c.benchmark_group("dice");
    group.throughput(Throughput::Elements(ROLLS));
    let dice: [(&str, Die); 4] = [("d6", D6), ("d10", D10), ("d20", D20), ("d100", D100)];
    for (name, die) in dice {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(2026);
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
    group.finish();
}

fn cd_resolution(c: &mut Criterion) {
    let fire = resolution();
    let mut group = c.benchmark_group("cd_fire");
    group.throughput(Throughput::Elements(1));
    let mut streams = Streams::for_chunk(1, 0);
    group.bench_function("trial_rof3_hit5_regular", |b| b.iter(|| black_box(&fire).trial(&mut streams)));
    group.bench_function("exact_rof3_hit5_regular", |b| b.iter(|| black_box(&fire).exact()));
    group.finish();
}

/// Compiles a shipped experiment, as the CLI would.
fn experiment(name: &str, text: &str) -> Box<dyn Experiment> {
    let plan = MonteCarlo { trials: 1, seed: 2026, threads: Some(1) };
    FirePlan::new(&Document::new(name, name, text), None, plan).expect("the experiment compiles").compiled.experiment
}

/// Chunk-sized Monte Carlo batches and the exact engine of shipped experiments, in the
/// bench group `group`.
fn shipped(c: &mut Criterion, group: &str, cases: &[(&str, &str)]) {
    let mut group = c.benchmark_group(group);
    for &(name, text) in cases {
        let fire = experiment(name, text);
        // Chunk-sized batches through the tally, as the engine runs them.
        group.throughput(Throughput::Elements(engine::CHUNK_TRIALS));
        let layout: Vec<usize> = fire.measures().iter().map(|m| m.outcomes.len()).collect();
        let mut streams = Streams::for_chunk(1, 0);
        group.bench_function(BenchmarkId::new("chunk", name), |b| {
            b.iter(|| {
                let mut tally = engine::Tally::new(&layout);
                fire.simulate(&mut streams, engine::CHUNK_TRIALS, &mut tally);
                tally
            })
        });
        group.throughput(Throughput::Elements(1));
        group.bench_function(BenchmarkId::new("exact", name), |b| b.iter(|| black_box(&fire).exact()));
    }
    group.finish();
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

fn cd_engine(c: &mut Criterion) {
    let fire = resolution();
    let mut group = c.benchmark_group("cd_engine");
    group.throughput(Throughput::Elements(ENGINE_TRIALS));
    // One iteration is ~30 ms on one thread; criterion's smallest sample count keeps the
    // group inside its 3 s budget (20 linear samples would need 210 iterations, ~6 s).
    group.sample_size(10);
    for threads in [1usize, 2] {
        let plan = MonteCarlo { trials: ENGINE_TRIALS, seed: 2026, threads: Some(threads) };
        group.bench_function(BenchmarkId::new("run_1M_trials", format!("{threads}_threads")), |b| {
            b.iter(|| engine::run(black_box(&fire as &dyn Experiment), &plan).expect("engine runs"))
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .measurement_time(Duration::from_secs(3))
        .warm_up_time(Duration::from_secs(1))
        .sample_size(20);
    targets = dice, cd_resolution, mc_resolution, cc_resolution, coc_resolution, cd_engine
}
criterion_main!(benches);
