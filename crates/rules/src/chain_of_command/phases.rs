//! Across Phases: a process followed Phase by Phase until an event, as a Markov chain
//! cut at a horizon ([`Horizon`]; the last outcome is "more"): how many of a player's
//! Phases pass before a full Chain of Command die, and how many Phases a Turn lasts.
//! Both follow only the 5s and 6s of each hand, so each Phase reduces to a small exact
//! distribution of (points, sixes row).

use std::collections::BTreeMap;

use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{One, Zero};

use super::command_dice::Hand;
use super::dice_tables::DiceRules;
use combat_odds_core::dice::D6;
use combat_odds_core::engine::{Measure, Resolution, Stream, Streams};
use combat_odds_core::exact::{Dist, TooLarge};

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

/// One Phase's outcome: the state carried on, or the event and what it reports.
pub type Step<P> = Result<<P as Phases>::Held, <P as Phases>::End>;

/// The outcome index of a [`Horizon`]'s extra measure for an event (or for none
/// within the horizon).
pub type EndOutcome<E> = fn(Option<&E>) -> usize;

/// A process followed Phase by Phase until an event: a Chain of Command die filled,
/// a Turn ended, a target Broken. `Held` is what carries from one Phase to the next
/// while the event has not happened; `End` is what the event reports (the side whose
/// roll ended a Turn; `()` where nothing more).
pub trait Phases: Sync + Send {
    /// The state between Phases.
    type Held: Ord + Clone + std::hash::Hash;
    /// What the event reports.
    type End: Ord + Clone + std::hash::Hash;

    /// The state before the first Phase, or the event if it has already happened.
    fn start(&self) -> Result<Self::Held, Self::End>;

    /// One literal Phase from `held`.
    fn phase(&self, held: &Self::Held, streams: &mut Streams) -> Result<Self::Held, Self::End>;

    /// Every outcome of one Phase from `held`, weighted over [`Phases::phase_total`].
    fn phase_exact(&self, held: &Self::Held) -> Vec<(Step<Self>, BigUint)>;

    /// The common total of every Phase's weights.
    fn phase_total(&self) -> BigUint;

    /// About how many weight products one exact Phase costs; past `EXACT_BUDGET`
    /// over the horizon the exact engine stands aside and Monte Carlo answers alone.
    fn phase_cost(&self) -> u64 {
        0
    }
}

/// The most weight products an exact multi-Phase answer may cost (about a second).
pub(crate) const EXACT_BUDGET: u64 = 20_000_000;

/// A [`Phases`] process cut at a horizon: reports whether the event came within it,
/// the Phase it came in (or `more_than_N`), and optionally what it reported.
pub struct Horizon<P: Phases> {
    process: P,
    horizon: u32,
    measures: Vec<Measure>,
    /// The outcome index of the extra measure for an event (or none within the
    /// horizon), where the process reports one.
    end_outcome: Option<EndOutcome<P::End>>,
}

/// How a [`Horizon`] trial ends: the Phase of the event (or `horizon + 1`), and what
/// it reported.
pub type HorizonState<E> = (u32, Option<E>);

impl<P: Phases> Horizon<P> {
    /// Follows `process` for `horizon` Phases; `event` names the first measure, and
    /// `end` adds a measure of what the event reports.
    pub fn new(process: P, horizon: u32, event: &str, end: Option<(Measure, EndOutcome<P::End>)>) -> Self {
        let phases = (1..=horizon).map(|k| k.to_string()).chain(std::iter::once(format!("more_than_{horizon}")));
        let mut measures = vec![
            Measure::new(event, ["not_within_horizon", "within_horizon"]),
            Measure::new("phases", phases.collect::<Vec<_>>()),
        ];
        let end_outcome = end.map(|(m, f)| {
            measures.push(m);
            f
        });
        Horizon { process, horizon, measures, end_outcome }
    }
}

impl<P: Phases> Horizon<P> {
    /// The process followed.
    pub fn process(&self) -> &P {
        &self.process
    }
}

impl<P: Phases> Resolution for Horizon<P> {
    type State = HorizonState<P::End>;
    type Weight = BigUint;

    fn measures(&self) -> &[Measure] {
        &self.measures
    }

    /// The event within the horizon.
    fn kill(&self) -> (usize, usize) {
        (0, 1)
    }

    #[inline(always)]
    fn trial(&self, streams: &mut Streams) -> Self::State {
        let mut held = match self.process.start() {
            Ok(h) => h,
            Err(end) => return (1, Some(end)),
        };
        for phase in 1..=self.horizon {
            match self.process.phase(&held, streams) {
                Ok(h) => held = h,
                Err(end) => return (phase, Some(end)),
            }
        }
        (self.horizon + 1, None)
    }

    #[inline(always)]
    fn index(&self, (phase, end): &Self::State, out: &mut [usize]) {
        out[0] = usize::from(*phase <= self.horizon);
        out[1] = *phase as usize - 1;
        if let Some(f) = self.end_outcome {
            out[2] = f(end.as_ref());
        }
    }

    /// Mass over the held states, multiplied through by the Phase total each Phase so
    /// every weight shares the denominator total^horizon.
    fn exact_state(&self) -> Result<Dist<Self::State, BigUint>, TooLarge> {
        if self.process.phase_cost().saturating_mul(u64::from(self.horizon)) > EXACT_BUDGET {
            return Err(TooLarge);
        }
        let mut mass: BTreeMap<P::Held, BigUint> = match self.process.start() {
            Ok(h) => BTreeMap::from([(h, BigUint::one())]),
            Err(end) => return Dist::from_weights([((1, Some(end)), BigUint::one())]),
        };
        let total = self.process.phase_total();
        let mut done: Vec<(Self::State, BigUint)> = Vec::new();
        for phase in 1..=self.horizon {
            let mut next: BTreeMap<P::Held, BigUint> = BTreeMap::new();
            let mut ended: BTreeMap<P::End, BigUint> = BTreeMap::new();
            for (held, m) in &mass {
                for (outcome, w) in self.process.phase_exact(held) {
                    let slot = match outcome {
                        Ok(h) => next.entry(h),
                        Err(end) => {
                            *ended.entry(end).or_insert_with(BigUint::zero) += m * &w;
                            continue;
                        }
                    };
                    *slot.or_insert_with(BigUint::zero) += m * w;
                }
            }
            for (_, w) in done.iter_mut() {
                *w *= &total;
            }
            done.extend(ended.into_iter().map(|(end, w)| ((phase, Some(end)), w)));
            mass = next;
        }
        done.push(((self.horizon + 1, None), mass.into_values().sum()));
        Dist::from_weights(done)
    }
}

/// How many of one player's Phases until a full Chain of Command die: points from 5s
/// accumulate to `points_per_die`, or a hand's sixes row grants a whole die.
#[derive(Debug, Clone)]
pub struct ChainOfCommandDie {
    rules: DiceRules,
    hand: Hand,
    start_points: u32,
    per_phase: Vec<((u8, usize), BigUint)>,
}

impl ChainOfCommandDie {
    /// Counting from `start_points` already held, up to `horizon` Phases.
    pub fn new(rules: DiceRules, hand: Hand, start_points: u32, horizon: u32) -> Horizon<Self> {
        let per_phase = points_and_sixes(&rules, &hand);
        Horizon::new(ChainOfCommandDie { rules, hand, start_points, per_phase }, horizon, "full_die", None)
    }

    /// The mean number of Phases to a full die, exactly, as (numerator, denominator),
    /// with no horizon. With E(s) the mean from `s` points held and w the weights of
    /// one Phase over their total T: E(s) = (T + sum of w E(s + p) over the Phases
    /// that add p > 0 points without filling the die) / (T - the weight of Phases that
    /// add nothing), solved from the most points held down.
    pub(crate) fn mean_phases(&self) -> (BigUint, BigUint) {
        let per_die = self.rules.points_per_die;
        let total: BigUint = self.per_phase.iter().map(|(_, w)| w).sum();
        let mut mean: Vec<(BigUint, BigUint)> = vec![(BigUint::zero(), BigUint::one()); per_die as usize];
        for held in (self.start_points..per_die).rev() {
            let (mut numer, mut denom) = (BigUint::zero(), BigUint::one());
            let mut stay = BigUint::zero();
            for ((points, row), w) in &self.per_phase {
                match self.after(held, *points, *row) {
                    Ok(next) if next == held => stay += w,
                    Ok(next) => {
                        let (n, d) = &mean[next as usize];
                        numer = numer * d + w * n * &denom;
                        denom *= d;
                    }
                    Err(()) => {}
                }
            }
            let numer = &total * &denom + numer;
            let denom = denom * (&total - stay);
            let g = numer.gcd(&denom);
            mean[held as usize] = (numer / &g, denom / g);
        }
        mean[self.start_points as usize].clone()
    }

    /// Points held after a Phase that added `points` with sixes row `row`, or the die.
    fn after(&self, held: u32, points: u8, row: usize) -> Result<u32, ()> {
        let points = held + points as u32;
        let full = points >= self.rules.points_per_die || self.rules.sixes.rows[row].chain_of_command_dice > 0;
        if full { Err(()) } else { Ok(points) }
    }
}

impl Phases for ChainOfCommandDie {
    /// Points held.
    type Held = u32;
    type End = ();

    fn start(&self) -> Result<u32, ()> {
        if self.start_points >= self.rules.points_per_die { Err(()) } else { Ok(self.start_points) }
    }

    fn phase(&self, held: &u32, streams: &mut Streams) -> Result<u32, ()> {
        let (points, row) = roll_points_and_sixes(&self.rules, &self.hand, &mut streams.command);
        self.after(*held, points, row)
    }

    fn phase_exact(&self, held: &u32) -> Vec<(Result<u32, ()>, BigUint)> {
        self.per_phase.iter().map(|((points, row), w)| (self.after(*held, *points, *row), w.clone())).collect()
    }

    fn phase_total(&self) -> BigUint {
        self.per_phase.iter().map(|(_, w)| w).sum()
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
    /// Each side's sixes rows, scaled to the common Phase total.
    rows: [Vec<(usize, BigUint)>; 2],
    total: BigUint,
}

impl TurnLength {
    /// The first side's hand starts the Turn; `ended_by` reports whose roll ended it.
    pub fn new(rules: DiceRules, hands: [Hand; 2], horizon: u32) -> Horizon<Self> {
        // Each side's rows over its own 6^dice, brought to the least common multiple.
        let rows =
            hands.map(|h| points_and_sixes(&rules, &h).into_iter().map(|((_, row), w)| (row, w)).collect::<Vec<_>>());
        let totals = rows.clone().map(|r| r.into_iter().map(|(_, w)| w).sum::<BigUint>());
        let total = totals[0].lcm(&totals[1]);
        let mut side = 0;
        let rows = rows.map(|r| {
            let k = &total / &totals[side];
            side += 1;
            r.into_iter().map(|(row, w)| (row, w * &k)).collect()
        });
        let ended_by = Measure::new("ended_by", [SIDES[0], SIDES[1], "not_within_horizon"]);
        let turn = TurnLength { rules, hands, rows, total };
        Horizon::new(turn, horizon, "turn_ends", Some((ended_by, |end: Option<&usize>| end.copied().unwrap_or(2))))
    }

    /// The side active after `side` rolled row `row`, or the side that ended the Turn.
    fn next(&self, side: usize, row: usize) -> Result<usize, usize> {
        let r = &self.rules.sixes.rows[row];
        match (r.turn_ends, r.keeps_phase) {
            (true, _) => Err(side),
            (false, true) => Ok(side),
            (false, false) => Ok(1 - side),
        }
    }
}

impl Phases for TurnLength {
    /// The active side.
    type Held = usize;
    /// The side whose roll ended the Turn.
    type End = usize;

    fn start(&self) -> Result<usize, usize> {
        Ok(0)
    }

    fn phase(&self, side: &usize, streams: &mut Streams) -> Result<usize, usize> {
        let (_, row) = roll_points_and_sixes(&self.rules, &self.hands[*side], &mut streams.command);
        self.next(*side, row)
    }

    fn phase_exact(&self, side: &usize) -> Vec<(Result<usize, usize>, BigUint)> {
        self.rows[*side].iter().map(|(row, w)| (self.next(*side, *row), w.clone())).collect()
    }

    fn phase_total(&self) -> BigUint {
        self.total.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use combat_odds_core::dice::Ratio;
    use combat_odds_core::engine::Experiment;

    /// A coin flipped each Phase until heads; `cost` is what it claims a Phase costs.
    struct Coin {
        cost: u64,
    }

    impl Phases for Coin {
        type Held = ();
        type End = ();

        fn start(&self) -> Result<(), ()> {
            Ok(())
        }

        fn phase(&self, _: &(), streams: &mut Streams) -> Result<(), ()> {
            if D6.roll(&mut streams.command) <= 3 { Err(()) } else { Ok(()) }
        }

        fn phase_exact(&self, _: &()) -> Vec<(Step<Self>, BigUint)> {
            vec![(Err(()), BigUint::one()), (Ok(()), BigUint::one())]
        }

        fn phase_total(&self) -> BigUint {
            BigUint::from(2u32)
        }

        fn phase_cost(&self) -> u64 {
            self.cost
        }
    }

    #[test]
    fn a_horizon_ends_in_each_phase_with_the_chance_left_over() {
        // Heads with 1/2 each Phase: ends in Phase 1, 2, 3 with 1/2, 1/4, 1/8; more
        // than 3 Phases with 1/8.
        let exact = Horizon::new(Coin { cost: 1 }, 3, "heads", None).exact().expect("small");
        let halves = [Ratio::new(1, 2), Ratio::new(1, 4), Ratio::new(1, 8), Ratio::new(1, 8)];
        assert_eq!(exact[1], halves);
        assert_eq!(exact[0], [Ratio::new(1, 8), Ratio::new(7, 8)]);
    }

    #[test]
    fn past_the_budget_only_monte_carlo_answers() {
        // 10 Phases at a claimed cost of EXACT_BUDGET / 5 each: twice the budget.
        let horizon = Horizon::new(Coin { cost: EXACT_BUDGET / 5 }, 10, "heads", None);
        assert!(horizon.exact().is_none());
    }
}
