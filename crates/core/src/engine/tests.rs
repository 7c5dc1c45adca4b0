//! Unit tests of the engine: nested pools, the pilot's price of a trial, batches, and
//! shards of the chunk list.

use super::*;
use std::time::Duration;

#[test]
fn nested_phases_run_on_the_pool_their_run_entered() {
    let inner = in_pool(Some(2), || {
        let outer = rayon::current_num_threads();
        let inner = (0..64).into_par_iter().map(|_| in_pool(Some(3), rayon::current_num_threads).unwrap()).max();
        (outer, inner)
    })
    .unwrap();
    assert_eq!(inner, (2, Some(2)), "no pool of its own inside the run's pool");
}

/// A clock the tests move by hand (a pilot's clock is a plain function).
mod hand_clock {
    use std::cell::Cell;
    use std::time::Duration;
    thread_local!(static NOW: Cell<Duration> = const { Cell::new(Duration::ZERO) });
    pub fn now() -> Duration {
        NOW.with(Cell::get)
    }
    pub fn advance(by: Duration) {
        NOW.with(|now| now.set(now.get() + by));
    }
}

/// Trials of exactly one microsecond each on the hand clock, one of whose batches
/// (`paused`: the call, and for how long) takes longer.
struct Timed {
    measures: Vec<Measure>,
    paused: Option<(u32, Duration)>,
    calls: std::sync::atomic::AtomicU32,
}

impl Timed {
    fn new(paused: Option<(u32, Duration)>) -> Self {
        let measures = vec![Measure::new("target", ["no_effect", "eliminated"])];
        Timed { measures, paused, calls: Default::default() }
    }
}

impl Experiment for Timed {
    fn measures(&self) -> &[Measure] {
        &self.measures
    }
    fn kill(&self) -> (usize, usize) {
        (0, 1)
    }
    fn simulate(&self, _: &mut Streams, trials: u64, _: &mut Tally) {
        let call = self.calls.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        hand_clock::advance(Duration::from_micros(trials));
        if let Some((_, pause)) = self.paused.filter(|&(paused, _)| paused == call) {
            hand_clock::advance(pause);
        }
    }
    fn exact_in(&self, _: &ExactStage) -> Option<ExactTable> {
        None
    }
}

#[test]
fn a_pilot_prices_a_trial_at_its_own_time_not_a_pause_of_the_machine() {
    // Batches of 64, 128, 256 and 512 trials (µs) only find the size; the fifth, of
    // 1024 (1.024 ms), is timed at 1 µs a trial; the sixth, 1024 more, is paused
    // 50 ms, and the seventh ends the pilot. The pilot that read its whole run, its
    // batches doubling on, read 54,032 µs over 4,032 trials: 13.4 µs a trial.
    let price = seconds_per_trial(&Timed::new(Some((5, Duration::from_millis(50)))), hand_clock::now);
    assert!((price - 1e-6).abs() < 1e-12, "a trial is 1 µs, read {price}");
}

#[test]
fn a_pilot_prices_a_trial_past_its_first_batch_which_pays_for_compiling_the_code() {
    // The first 64 trials take 30 ms more, as a browser compiling the code on its
    // first call: timed alone, 30,064 µs / 64 = 470 µs a trial. Batches of 64 to
    // 512 more find the size again, and two of 1024 are timed at 1 µs a trial.
    let price = seconds_per_trial(&Timed::new(Some((0, Duration::from_millis(30)))), hand_clock::now);
    assert!((price - 1e-6).abs() < 1e-12, "a trial is 1 µs, read {price}");
}

fn frozen() -> Duration {
    Duration::ZERO
}

#[test]
fn a_pilot_on_a_clock_that_never_moves_ends_and_prices_a_trial_at_nothing() {
    assert_eq!(seconds_per_trial(&Timed::new(None), frozen), 0.0);
}

#[test]
fn batches_double_up_to_the_cap_and_end_at_the_last_chunk() {
    assert_eq!(batch_ends(5).collect::<Vec<_>>(), [1, 2, 4, 5]);
    assert_eq!(batch_ends(0).count(), 0);
    // 1, 2, 4, ..., 64 (seven doublings), then steps of 64 to 200.
    assert_eq!(batch_ends(200).collect::<Vec<_>>(), [1, 2, 4, 8, 16, 32, 64, 128, 192, 200]);
}

#[test]
fn shards_split_the_chunks_without_overlap_or_gap() {
    let all: Vec<u64> = (0..10).collect();
    let mut seen: Vec<u64> = (1..=4).flat_map(|k| Shard { index: k, count: 4 }.chunks(10)).collect();
    seen.sort();
    assert_eq!(seen, all);
    assert_eq!(Shard { index: 2, count: 4 }.chunks(10).collect::<Vec<_>>(), [1, 5, 9]);
    assert_eq!(Shard::WHOLE.chunks(3).collect::<Vec<_>>(), [0, 1, 2]);
}

#[test]
fn shard_counts_and_positions_match_its_chunk_list() {
    for count in 1..=5 {
        for index in 1..=count {
            let shard = Shard { index, count };
            for chunks in 0..12 {
                let listed: Vec<u64> = shard.chunks(chunks).collect();
                assert_eq!(shard.chunk_count(chunks), listed.len() as u64);
                let by_position: Vec<u64> = (0..shard.chunk_count(chunks)).map(|k| shard.chunk(k)).collect();
                assert_eq!(by_position, listed);
            }
            // 3 chunks and 5 trials: 65,536 + 65,536 + 5 trials in all.
            let trials = 2 * CHUNK_TRIALS + 5;
            let listed: u64 = shard.chunks(3).map(|c| chunk_trials(trials, c)).sum();
            assert_eq!(shard.trials(trials), listed);
        }
    }
}

#[test]
fn the_largest_study_is_counted_without_listing_its_chunks() {
    // 2^53 trials are 2^37 chunks; shard 1 of 3 holds ceil(2^37 / 3) of them, all whole.
    let shard = Shard { index: 1, count: 3 };
    let chunks = MAX_TRIALS / CHUNK_TRIALS;
    assert_eq!(shard.chunk_count(chunks), chunks.div_ceil(3));
    assert_eq!(shard.trials(MAX_TRIALS), chunks.div_ceil(3) * CHUNK_TRIALS);
}

#[test]
fn shard_specs_are_read_and_refused() {
    assert_eq!(Shard::parse("3/8"), Ok(Shard { index: 3, count: 8 }));
    for bad in ["3/2", "0/4", "4", "a/b", "1/0", ""] {
        assert!(Shard::parse(bad).is_err(), "{bad}");
    }
}
