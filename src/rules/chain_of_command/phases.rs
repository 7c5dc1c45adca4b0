//! Across Phases: how many of a player's Phases pass before a full Chain of Command
//! die, and how many Phases a Turn lasts. Both follow only the 5s and 6s of each hand,
//! so each Phase reduces to a small exact distribution of (points, sixes row), and the
//! Phases chain as a Markov process cut at a horizon: the last outcome is "more".

use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{One, Zero};

use super::command_dice::Hand;
use super::tables::DiceRules;
use crate::dice::D6;
use crate::engine::{Measure, Resolution, Stream, Streams};
use crate::exact::{Dist, TooLarge};

/// One hand's Chain of Command points and sixes row, exactly: every (5s, 6s, others)
/// split of the ordinary dice weighted by n! / (f! x! o!) * 4^o over 6^n. The Red
/// Dice's 5s and 6s are discarded, so it plays no part.
fn points_and_sixes(rules: &DiceRules, hand: &Hand) -> Vec<((u8, usize), BigUint)> {
    let n = hand.dice;
    let fact = |k: u8| (1..=k as u32).fold(BigUint::one(), |acc, i| acc * i);
    let mut out = Vec::new();
    for fives in 0..=n {
        for sixes in 0..=n - fives {
            let others = n - fives - sixes;
            let ways = fact(n) / (fact(fives) * fact(sixes) * fact(others)) * BigUint::from(4u32).pow(others as u32);
            let left = hand.sixes_after_elite(sixes);
            out.push(((fives + sixes - left, rules.sixes.row_of(left)), ways));
        }
    }
    out
}

/// Rolls the ordinary dice of a hand: (points, sixes row).
fn roll_points_and_sixes(rules: &DiceRules, hand: &Hand, rng: &mut Stream) -> (u8, usize) {
    let (mut fives, mut sixes) = (0u8, 0u8);
    for _ in 0..hand.dice {
        match D6.roll(rng) {
            f if f == rules.point_face => fives += 1,
            f if f == rules.sequence_face => sixes += 1,
            _ => {}
        }
    }
    // The Red Dice is rolled too, as at the table, though its 5s and 6s are discarded.
    if hand.red_dice {
        D6.roll(rng);
    }
    let left = hand.sixes_after_elite(sixes);
    (fives + sixes - left, rules.sixes.row_of(left))
}

/// `horizon` outcomes "1".."horizon" and a last "more_than_{horizon}".
fn phase_outcomes(horizon: u32) -> Vec<String> {
    (1..=horizon).map(|k| k.to_string()).chain(std::iter::once(format!("more_than_{horizon}"))).collect()
}

/// How many of one player's Phases until a full Chain of Command die: points from 5s
/// accumulate to `points_per_die`, or a hand's sixes row grants a whole die.
#[derive(Debug, Clone)]
pub struct ChainOfCommandDie {
    rules: DiceRules,
    hand: Hand,
    horizon: u32,
    start_points: u32,
    measures: Vec<Measure>,
}

impl ChainOfCommandDie {
    /// Counting from `start_points` already held, up to `horizon` Phases.
    pub fn new(rules: DiceRules, hand: Hand, start_points: u32, horizon: u32) -> Self {
        let measures = vec![
            Measure::new("full_die", ["not_within_horizon", "within_horizon"]),
            Measure::new("phases", phase_outcomes(horizon)),
        ];
        ChainOfCommandDie { rules, hand, horizon, start_points, measures }
    }

    fn full(&self, points: u32, row: usize) -> bool {
        points >= self.rules.points_per_die || self.rules.sixes.rows[row].chain_of_command_dice > 0
    }
}

impl Resolution for ChainOfCommandDie {
    /// The Phase the die was completed in, or `horizon + 1`.
    type State = u32;
    type Weight = BigUint;

    fn measures(&self) -> &[Measure] {
        &self.measures
    }

    fn kill(&self) -> (usize, usize) {
        (0, 1)
    }

    fn trial(&self, streams: &mut Streams) -> u32 {
        let mut points = self.start_points;
        for phase in 1..=self.horizon {
            let (p, row) = roll_points_and_sixes(&self.rules, &self.hand, &mut streams.command);
            points += p as u32;
            if self.full(points, row) {
                return phase;
            }
        }
        self.horizon + 1
    }

    fn index(&self, phase: &u32, out: &mut [usize]) {
        out[0] = usize::from(*phase <= self.horizon);
        out[1] = *phase as usize - 1;
    }

    /// Mass over the points held (below a full die), multiplied through by the Phase's
    /// total each Phase so every weight shares the denominator total^horizon.
    fn exact_state(&self) -> Result<Dist<u32, BigUint>, TooLarge> {
        let per_phase = points_and_sixes(&self.rules, &self.hand);
        let total: BigUint = per_phase.iter().map(|(_, w)| w).sum();
        let per_die = self.rules.points_per_die;
        let mut mass = vec![BigUint::zero(); per_die as usize];
        let mut done: Vec<(u32, BigUint)> = Vec::new();
        if self.start_points >= per_die {
            return Dist::from_weights([(1, BigUint::one())]);
        }
        mass[self.start_points as usize] = BigUint::one();
        for phase in 1..=self.horizon {
            let mut next = vec![BigUint::zero(); per_die as usize];
            let mut completed = BigUint::zero();
            for (held, m) in mass.iter().enumerate().filter(|(_, m)| !m.is_zero()) {
                for ((p, row), w) in &per_phase {
                    let points = held as u32 + *p as u32;
                    if self.full(points, *row) {
                        completed += m * w;
                    } else {
                        next[points as usize] += m * w;
                    }
                }
            }
            // Earlier completions are scaled so all share total^horizon.
            for (_, w) in done.iter_mut() {
                *w *= &total;
            }
            done.push((phase, completed));
            mass = next;
        }
        done.push((self.horizon + 1, mass.into_iter().sum()));
        Dist::from_weights(done)
    }
}

/// Which side is active, as the `ended_by` measure names them.
pub const SIDES: [&str; 2] = ["first", "second"];

/// How many Phases one Turn lasts: the active side rolls; a sixes row that keeps the
/// Phase gives it the next one, one that ends the Turn ends it, any other passes the
/// Phase to the opponent.
#[derive(Debug, Clone)]
pub struct TurnLength {
    rules: DiceRules,
    hands: [Hand; 2],
    horizon: u32,
    measures: Vec<Measure>,
}

/// How a Turn trial ends: the Phase it ended in (or `horizon + 1`) and the side whose
/// roll ended it (2 for none).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct TurnEnd {
    /// Phases played.
    pub phases: u32,
    /// Side index, or 2.
    pub ended_by: usize,
}

impl TurnLength {
    /// The first side's hand starts the Turn.
    pub fn new(rules: DiceRules, hands: [Hand; 2], horizon: u32) -> Self {
        let measures = vec![
            Measure::new("turn_ends", ["not_within_horizon", "within_horizon"]),
            Measure::new("phases", phase_outcomes(horizon)),
            Measure::new("ended_by", [SIDES[0], SIDES[1], "not_within_horizon"]),
        ];
        TurnLength { rules, hands, horizon, measures }
    }

    /// The side active after `side` rolled row `row`, or `None` when the Turn ends.
    fn next(&self, side: usize, row: usize) -> Option<usize> {
        let r = &self.rules.sixes.rows[row];
        match (r.turn_ends, r.keeps_phase) {
            (true, _) => None,
            (false, true) => Some(side),
            (false, false) => Some(1 - side),
        }
    }
}

impl Resolution for TurnLength {
    type State = TurnEnd;
    type Weight = BigUint;

    fn measures(&self) -> &[Measure] {
        &self.measures
    }

    fn kill(&self) -> (usize, usize) {
        (0, 1)
    }

    fn trial(&self, streams: &mut Streams) -> TurnEnd {
        let mut side = 0;
        for phase in 1..=self.horizon {
            let (_, row) = roll_points_and_sixes(&self.rules, &self.hands[side], &mut streams.command);
            match self.next(side, row) {
                None => return TurnEnd { phases: phase, ended_by: side },
                Some(s) => side = s,
            }
        }
        TurnEnd { phases: self.horizon + 1, ended_by: 2 }
    }

    fn index(&self, t: &TurnEnd, out: &mut [usize]) {
        out[0] = usize::from(t.phases <= self.horizon);
        out[1] = t.phases as usize - 1;
        out[2] = t.ended_by;
    }

    /// Mass over the active side; each side's rows are scaled to a common Phase total
    /// (the least common multiple of the two hands' totals).
    fn exact_state(&self) -> Result<Dist<TurnEnd, BigUint>, TooLarge> {
        let rows: Vec<Vec<(usize, BigUint)>> = self
            .hands
            .iter()
            .map(|h| points_and_sixes(&self.rules, h).into_iter().map(|((_, row), w)| (row, w)).collect())
            .collect();
        let totals: Vec<BigUint> = rows.iter().map(|r| r.iter().map(|(_, w)| w).sum()).collect();
        let common = totals[0].lcm(&totals[1]);
        let scaled: Vec<Vec<(usize, BigUint)>> = rows
            .into_iter()
            .zip(&totals)
            .map(|(r, t)| {
                let k = &common / t;
                r.into_iter().map(|(row, w)| (row, w * &k)).collect()
            })
            .collect();
        let mut mass = [BigUint::one(), BigUint::zero()];
        let mut done: Vec<(TurnEnd, BigUint)> = Vec::new();
        for phase in 1..=self.horizon {
            let mut next = [BigUint::zero(), BigUint::zero()];
            let mut ended = [BigUint::zero(), BigUint::zero()];
            for side in 0..2 {
                if mass[side].is_zero() {
                    continue;
                }
                for (row, w) in &scaled[side] {
                    let m = &mass[side] * w;
                    match self.next(side, *row) {
                        None => ended[side] += m,
                        Some(s) => next[s] += m,
                    }
                }
            }
            for (_, w) in done.iter_mut() {
                *w *= &common;
            }
            for (side, w) in ended.into_iter().enumerate() {
                done.push((TurnEnd { phases: phase, ended_by: side }, w));
            }
            mass = next;
        }
        let [a, b] = mass;
        done.push((TurnEnd { phases: self.horizon + 1, ended_by: 2 }, a + b));
        Dist::from_weights(done)
    }
}
