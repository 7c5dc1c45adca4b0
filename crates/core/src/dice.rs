//! Dice and their exact distributions.
//!
//! A [`Die`] rolls unbiased faces with Lemire's multiply-shift method (rejecting the
//! few low products that would bias the result), and hands the exact engine its
//! distribution as a [`Pmf`]: integer weights over integer values, which compose by
//! convolution (sums of dice) and answer threshold questions as exact [`Ratio`]s.

use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{ToPrimitive, Zero};

use crate::streams::Stream;

/// A fair die numbered 1..=sides. A d10 reads its "0" as 10, so it is a 1..=10 die.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Die {
    sides: u32,
}

/// Six-sided die.
pub const D6: Die = Die { sides: 6 };
/// Ten-sided die, "0" read as 10 (CD:TOB Die Rolls; Company Commander).
pub const D10: Die = Die { sides: 10 };
/// Twenty-sided die (Mission Command).
pub const D20: Die = Die { sides: 20 };
/// Percentile die, 1..=100 (Company Commander hit damage).
pub const D100: Die = Die { sides: 100 };

impl Die {
    /// A die with `sides` faces (2 to 65,536: a roll is drawn from 16 bits).
    pub const fn new(sides: u32) -> Self {
        assert!(sides >= 2 && sides <= 1 << 16);
        Die { sides }
    }

    /// Number of faces.
    pub const fn sides(self) -> u32 {
        self.sides
    }

    /// One unbiased roll in 1..=sides, from a 16-bit lane of the stream (four dice
    /// per generator output; see `Stream::below16` for why it stays unbiased).
    #[inline(always)]
    pub fn roll(self, stream: &mut Stream) -> u32 {
        stream.below16(self.sides) + 1
    }

    /// The exact distribution of one roll.
    pub fn pmf(self) -> Pmf {
        Pmf { min: 1, weights: vec![1; self.sides as usize] }
    }

    /// The exact distribution of the sum of `n` rolls.
    pub fn sum_of(self, n: u32) -> Pmf {
        (0..n).fold(Pmf::constant(0), |acc, _| acc.convolve(&self.pmf()))
    }
}

/// An exact probability as a reduced fraction of arbitrary precision: a Company
/// Commander fire of dozens of attacks has denominators far past 128 bits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ratio {
    num: BigUint,
    den: BigUint,
}

impl Ratio {
    /// `num / den`, reduced. `den` must be positive and `num <= den`.
    pub fn new(num: u128, den: u128) -> Self {
        Self::from_big(BigUint::from(num), BigUint::from(den))
    }

    /// `num / den` from arbitrary-precision parts, reduced.
    pub fn from_big(num: BigUint, den: BigUint) -> Self {
        assert!(!den.is_zero() && num <= den, "a probability is a fraction in [0, 1]");
        let g = num.gcd(&den);
        Ratio { num: num / &g, den: den / g }
    }

    /// Numerator of the reduced fraction.
    pub fn numer(&self) -> &BigUint {
        &self.num
    }

    /// Denominator of the reduced fraction.
    pub fn denom(&self) -> &BigUint {
        &self.den
    }

    /// Reads `num/den` (or a whole number) as `Display` writes it; `None` for
    /// anything else, a zero denominator, or a fraction past 1 (no probability).
    pub fn parse(text: &str) -> Option<Ratio> {
        let (n, d) = text.split_once('/').unwrap_or((text, "1"));
        match (n.parse::<BigUint>(), d.parse::<BigUint>()) {
            (Ok(n), Ok(d)) if !d.is_zero() && n <= d => Some(Ratio::from_big(n, d)),
            _ => None,
        }
    }

    /// Is this probability exactly 0?
    pub fn is_zero(&self) -> bool {
        self.num.is_zero()
    }

    /// For display and statistics only. Each part is cut to its top 64 bits and the
    /// difference of the cuts goes back in as a power of two, so fractions whose parts
    /// are past the range of f64 still convert.
    pub fn to_f64(&self) -> f64 {
        let top = |n: &BigUint| {
            let cut = n.bits().saturating_sub(64);
            ((n >> cut).to_f64().expect("64 bits fit in f64"), cut as i32)
        };
        let ((num, a), (den, b)) = (top(&self.num), top(&self.den));
        num / den * 2f64.powi(a - b)
    }
}

impl Ord for Ratio {
    /// Compares `a/b` with `c/d` as `a*d` with `c*b` (denominators are positive).
    fn cmp(&self, other: &Ratio) -> std::cmp::Ordering {
        (&self.num * &other.den).cmp(&(&other.num * &self.den))
    }
}

impl PartialOrd for Ratio {
    fn partial_cmp(&self, other: &Ratio) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl std::fmt::Display for Ratio {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.num, self.den)
    }
}

impl std::ops::Add for &Ratio {
    type Output = Ratio;

    /// The sum of two probabilities of disjoint events (so it stays within 1).
    fn add(self, other: &Ratio) -> Ratio {
        Ratio::from_big(&self.num * &other.den + &other.num * &self.den, &self.den * &other.den)
    }
}

impl Ratio {
    /// The probability of the event not happening: 1 - p.
    pub fn complement(&self) -> Ratio {
        Ratio::from_big(&self.den - &self.num, self.den.clone())
    }
}

impl<'a> std::iter::Sum<&'a Ratio> for Ratio {
    /// The sum of the probabilities of disjoint events.
    fn sum<I: Iterator<Item = &'a Ratio>>(ps: I) -> Ratio {
        ps.fold(Ratio::new(0, 1), |acc, p| &acc + p)
    }
}

/// Integer weights over the consecutive integer values `min..min + weights.len()`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pmf {
    min: i64,
    weights: Vec<u128>,
}

impl Pmf {
    /// The value `v` with certainty.
    pub fn constant(v: i64) -> Self {
        Pmf { min: v, weights: vec![1] }
    }

    /// Smallest possible value.
    pub fn min(&self) -> i64 {
        self.min
    }

    /// Largest possible value.
    pub fn max(&self) -> i64 {
        self.min + self.weights.len() as i64 - 1
    }

    /// Sum of all weights (the denominator of every probability).
    pub fn total(&self) -> u128 {
        self.weights.iter().sum()
    }

    /// Weight of value `v`.
    pub fn weight(&self, v: i64) -> u128 {
        usize::try_from(v - self.min).ok().and_then(|i| self.weights.get(i)).copied().unwrap_or(0)
    }

    /// Distribution of the sum of two independent values.
    pub fn convolve(&self, other: &Pmf) -> Pmf {
        let mut weights = vec![0u128; self.weights.len() + other.weights.len() - 1];
        for (i, a) in self.weights.iter().enumerate() {
            for (j, b) in other.weights.iter().enumerate() {
                weights[i + j] += a * b;
            }
        }
        Pmf { min: self.min + other.min, weights }
    }

    /// Distribution of `value + k`.
    pub fn shift(&self, k: i64) -> Pmf {
        Pmf { min: self.min + k, weights: self.weights.clone() }
    }

    /// P(value <= t): the "roll equal to or less than" threshold.
    pub fn at_most(&self, t: i64) -> Ratio {
        self.probability(|v| v <= t)
    }

    /// P(value >= t): the "roll this or more" threshold.
    pub fn at_least(&self, t: i64) -> Ratio {
        self.probability(|v| v >= t)
    }

    /// P(pred(value)).
    pub fn probability(&self, pred: impl Fn(i64) -> bool) -> Ratio {
        let hit = (self.min..=self.max()).filter(|&v| pred(v)).map(|v| self.weight(v)).sum();
        Ratio::new(hit, self.total())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_die_rolls_only_its_faces_and_all_of_them() {
        let mut rng = Stream::from_key(7);
        for die in [D6, D10, D20, D100] {
            let mut seen = vec![0u32; die.sides() as usize + 1];
            for _ in 0..20_000 {
                let r = die.roll(&mut rng);
                assert!((1..=die.sides()).contains(&r), "{r} off a d{}", die.sides());
                seen[r as usize] += 1;
            }
            assert!(seen[1..].iter().all(|&c| c > 0), "some face of d{} never came up", die.sides());
        }
    }

    #[test]
    fn a_d10_roll_is_uniform_by_chi_square() {
        // 100_000 rolls, 9 degrees of freedom: the 0.999 quantile is 27.88.
        let mut rng = Stream::from_key(2026);
        let mut counts = [0f64; 10];
        for _ in 0..100_000 {
            counts[D10.roll(&mut rng) as usize - 1] += 1.0;
        }
        let chi2: f64 = counts.iter().map(|c| (c - 10_000.0).powi(2) / 10_000.0).sum();
        assert!(chi2 < 27.88, "chi-square {chi2}");
    }

    #[test]
    fn two_d6_sum_is_the_triangle() {
        let two = D6.sum_of(2);
        assert_eq!((two.min(), two.max(), two.total()), (2, 12, 36));
        // 7 comes up 6 ways in 36; 2 and 12 one way each.
        assert_eq!(two.weight(7), 6);
        assert_eq!(two.at_most(2), Ratio::new(1, 36));
        assert_eq!(two.at_least(12), Ratio::new(1, 36));
        // P(2d6 <= 4) = (1 + 2 + 3) / 36 = 1/6.
        assert_eq!(two.at_most(4), Ratio::new(1, 6));
    }

    #[test]
    fn thresholds_on_shifted_dice() {
        // d20 + 3 >= 15 means d20 >= 12: 9 faces of 20.
        assert_eq!(D20.pmf().shift(3).at_least(15), Ratio::new(9, 20));
        // d100 <= 83: 83 in 100.
        assert_eq!(D100.pmf().at_most(83), Ratio::new(83, 100));
    }

    #[test]
    fn ratios_past_128_bits_still_convert_to_f64() {
        // (1/6000)^40: numerator 1, denominator about 10^151, far past u128 and
        // within f64's range only after the common shift.
        let den = BigUint::from(6000u32).pow(40);
        let r = Ratio::from_big(BigUint::from(1u32), den.clone());
        assert!((r.to_f64() - 6000f64.powi(-40)).abs() < 1e-160);
        let half = Ratio::from_big(den.clone(), den * 2u32);
        assert_eq!(half.to_f64(), 0.5);
    }

    #[test]
    fn ratios_reduce() {
        let r = Ratio::new(250, 1000);
        assert_eq!((r.numer(), r.denom()), (&BigUint::from(1u32), &BigUint::from(4u32)));
        assert_eq!(r.to_string(), "1/4");
        assert_eq!(&r + &Ratio::new(1, 2), Ratio::new(3, 4));
    }
}
