//! Determinism checks shared by every ruleset: the same seed gives bit-identical
//! tallies on any number of threads, for trial counts that do and do not fill whole
//! chunks, through the library and through `combat-odds fire --threads`; a different
//! seed gives different ones; and one scenario's counts can be pinned.

use combat_odds_core::engine::{self, CHUNK_TRIALS, Mode, Tally};
use combat_odds_report::export::Report;

use super::cli::{stdout_of, write};
use super::{plan, plan_in};

/// The merged tally of `trials` literal trials from `seed` on `threads` threads.
pub fn tally(name: &str, text: &str, trials: u64, seed: u64, threads: usize) -> Tally {
    tally_in(Mode::Literal, name, text, trials, seed, threads)
}

/// The merged tally of `trials` trials in `mode` from `seed` on `threads` threads.
pub fn tally_in(mode: Mode, name: &str, text: &str, trials: u64, seed: u64, threads: usize) -> Tally {
    let p = plan_in(mode, name, text, trials, seed, threads);
    let stop = std::sync::atomic::AtomicBool::new(false);
    let run = combat_odds_core::run::Run::new(&stop, None);
    engine::run(p.set_up.experiment.as_ref(), &p.monte_carlo, &run).unwrap_or_else(|e| panic!("{name}: {e}")).0
}

/// Every measure's counts, in measure order.
pub fn counts(name: &str, text: &str, trials: u64, seed: u64, threads: usize) -> Vec<Vec<u64>> {
    let measures = plan(name, text, 1, seed, 1).set_up.experiment.measures().len();
    let t = tally(name, text, trials, seed, threads);
    (0..measures).map(|m| t.counts(m).to_vec()).collect()
}

/// Identical tallies on 1, 2 and 8 threads for each (name, scenario), in both modes: at
/// trial counts of less than a chunk, a chunk and one trial, three chunks and a part
/// (a partial last chunk always in play), and exactly one and two whole chunks.
pub fn assert_thread_independent(scenarios: &[(&str, &str)]) {
    let partial = [1, 1_000, CHUNK_TRIALS + 1, 3 * CHUNK_TRIALS + 4_321];
    let whole = [CHUNK_TRIALS, 2 * CHUNK_TRIALS];
    for (mode, &(name, text)) in
        [Mode::Literal, Mode::Compiled].into_iter().flat_map(|m| scenarios.iter().map(move |s| (m, s)))
    {
        let measures = plan(name, text, 1, 1, 1).set_up.experiment.measures().len();
        for trials in partial.into_iter().chain(whole) {
            let one = tally_in(mode, name, text, trials, 7, 1);
            assert_eq!(one.trials(), trials, "{name}: {trials} trials");
            for m in 0..measures {
                assert_eq!(one.counts(m).iter().sum::<u64>(), trials, "{name}: measure {m}, {trials} trials");
            }
            for threads in [2, 8] {
                let other = tally_in(mode, name, text, trials, 7, threads);
                assert_eq!(one, other, "{name} ({}): {trials} trials on {threads} threads", mode.name());
            }
        }
    }
}

/// Guards [`assert_thread_independent`] against a generator that ignores its seed.
pub fn assert_seed_matters(scenarios: &[(&str, &str)]) {
    for &(name, text) in scenarios {
        let trials = CHUNK_TRIALS + 1;
        assert_ne!(tally(name, text, trials, 7, 2), tally(name, text, trials, 8, 2), "{name}");
    }
}

/// Each scenario's first measure spreads over at least two outcomes: one that always
/// read the same would pass the thread checks without exercising the dice.
pub fn assert_every_scenario_varies(scenarios: &[(&str, &str)]) {
    for &(name, text) in scenarios {
        let got = counts(name, text, 20_000, 3, 2);
        let spread = got[0].iter().filter(|c| **c > 0).count();
        assert!(spread >= 2, "{name}: first measure's counts {:?}", got[0]);
    }
}

/// `combat-odds fire FILE --format json` gives identical output on 1, 2 and 8 threads
/// at 200,001 trials (three full chunks and a partial one), naming `ruleset`.
pub fn assert_cli_thread_independent(scenarios: &[(&str, &str)], ruleset: &str) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let fire_json = |file: &std::path::Path, threads: usize| {
        let (file, threads) = (file.to_str().expect("utf-8 temp path"), threads.to_string());
        stdout_of(&["fire", file, "--format", "json", "--trials", "200001", "--seed", "11", "--threads", &threads])
    };
    for &(name, text) in scenarios {
        let file = write(dir.path(), &format!("{name}.toml"), text);
        let one = fire_json(&file, 1);
        let v: serde_json::Value = serde_json::from_str(&one).expect("JSON");
        assert_eq!(v["ruleset"], ruleset, "{name}");
        assert_eq!(v["trials"], 200_001, "{name}");
        assert_eq!(one, fire_json(&file, 2), "{name}: 2 threads");
        assert_eq!(one, fire_json(&file, 8), "{name}: 8 threads");
    }
}

/// The counts of `text` at seed 1, 1,000 trials, one thread are `want`, through the
/// tally and through the report the CLI prints. `what` names the constant to update.
pub fn assert_pinned(name: &str, text: &str, want: &[&[u64]], what: &str) {
    let want: Vec<Vec<u64>> = want.iter().map(|m| m.to_vec()).collect();
    assert_eq!(counts(name, text, 1_000, 1, 1), want, "pinned counts changed: see {what}");
    let report = Report::of(plan(name, text, 1_000, 1, 1)).expect("a report");
    let reported: Vec<Vec<u64>> =
        report.all_measures().map(|(_, rows, _)| rows.iter().map(|r| r.count).collect()).collect();
    assert_eq!(reported, want, "the report's counts differ from the tally's");
}
