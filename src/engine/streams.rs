//! Counter-based random streams: one Xoshiro256++ per (seed, purpose, chunk).

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// The generator behind every stream: named and portable, recorded in results.
pub type Stream = Xoshiro256PlusPlus;

/// What a stream is used for. Each purpose has its own stream so that adding a roll
/// of one kind (say an ammo check) does not shift the rolls of another.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u64)]
pub enum Purpose {
    /// To-hit dice and artillery attacks.
    Fire = 1,
    /// Effect rolls on a hit results table.
    Effect = 2,
    /// Ammunition depletion checks.
    Supply = 3,
    /// Morale checks.
    Morale = 4,
    /// Artillery response rolls.
    Response = 5,
    /// Hits on passengers of an eliminated vehicle.
    Passengers = 6,
    /// Which units a barrage reaches.
    Scatter = 7,
    /// Hands of Command Dice.
    Command = 8,
}

/// The streams of one chunk, one per [`Purpose`].
#[derive(Debug, Clone)]
pub struct Streams {
    /// To-hit dice.
    pub fire: Stream,
    /// Effect rolls.
    pub effect: Stream,
    /// Ammunition checks.
    pub supply: Stream,
    /// Morale checks.
    pub morale: Stream,
    /// Artillery response.
    pub response: Stream,
    /// Passenger hits.
    pub passengers: Stream,
    /// Barrage reach.
    pub scatter: Stream,
    /// Command Dice.
    pub command: Stream,
}

impl Streams {
    /// The streams of chunk `chunk` under master seed `seed`.
    pub fn for_chunk(seed: u64, chunk: u64) -> Self {
        let s = |p: Purpose| stream(seed, p, chunk);
        Streams {
            fire: s(Purpose::Fire),
            effect: s(Purpose::Effect),
            supply: s(Purpose::Supply),
            morale: s(Purpose::Morale),
            response: s(Purpose::Response),
            passengers: s(Purpose::Passengers),
            scatter: s(Purpose::Scatter),
            command: s(Purpose::Command),
        }
    }
}

impl Streams {
    /// The streams of trial `trial` of a paired run. Each trial has its own, so two
    /// resolutions that roll different numbers of dice still start every trial from
    /// the same numbers (common random numbers). The seed is mixed with a constant of
    /// its own so paired streams never coincide with a chunk's.
    pub fn for_paired_trial(seed: u64, trial: u64) -> Self {
        // "PAIRED" in ASCII.
        const PAIRED: u64 = 0x5041_4952_4544;
        Streams::for_chunk(mix(seed ^ PAIRED), trial)
    }
}

/// The stream for (seed, purpose, chunk): the three words are mixed through
/// SplitMix64 finalisers into one 64-bit seed, which `seed_from_u64` expands into
/// the full 256-bit state (again by SplitMix64), as rand recommends for
/// per-task streams.
pub fn stream(seed: u64, purpose: Purpose, chunk: u64) -> Stream {
    let key = mix(mix(mix(seed) ^ purpose as u64) ^ chunk);
    Stream::seed_from_u64(key)
}

/// SplitMix64's finaliser: a bijection on u64 with good avalanche.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng;

    #[test]
    fn streams_are_a_pure_function_of_seed_purpose_and_chunk() {
        let a = stream(42, Purpose::Fire, 3).next_u64();
        assert_eq!(a, stream(42, Purpose::Fire, 3).next_u64());
        assert_ne!(a, stream(42, Purpose::Fire, 4).next_u64());
        assert_ne!(a, stream(42, Purpose::Effect, 3).next_u64());
        assert_ne!(a, stream(43, Purpose::Fire, 3).next_u64());
    }

    #[test]
    fn value_stability_of_the_first_fire_stream() {
        // Pinned so that any change in how streams are derived is a deliberate diff.
        let mut s = stream(1, Purpose::Fire, 0);
        let first: Vec<u64> = (0..2).map(|_| s.next_u64()).collect();
        assert_eq!(first, PINNED_FIRST_OUTPUTS);
    }

    const PINNED_FIRST_OUTPUTS: [u64; 2] = [4768342884129243497, 6886254094158327724];
}
