//! Intervals and tests for Monte Carlo estimates (statrs).
//!
//! Intervals ([`interval`]) are Wilson score intervals: unlike the normal (Wald)
//! interval they stay inside [0, 1] and keep close to nominal coverage for most
//! probabilities. Where fewer than `EXACT_INTERVAL_BELOW` trials fall on one side,
//! the Wilson interval under-covers (its coverage at p = 0.00064 with 200 trials is
//! 0.878: a single success puts its lower bound above p), so there the Clopper-Pearson
//! interval, which never covers less than its nominal level, takes over.

use statrs::distribution::{Beta, ContinuousCDF, Normal};

use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{One, ToPrimitive, Zero};

use crate::dice::Ratio;

/// A probability estimate with its confidence interval.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Estimate {
    /// successes / trials.
    pub estimate: f64,
    /// Lower bound of the interval.
    pub low: f64,
    /// Upper bound of the interval.
    pub high: f64,
}

/// The Wilson score interval for `successes` out of `trials` at `confidence` (e.g. 0.95).
pub fn wilson(successes: u64, trials: u64, confidence: f64) -> Estimate {
    if trials == 0 {
        return Estimate { estimate: f64::NAN, low: 0.0, high: 1.0 };
    }
    let z = z_score(confidence);
    let n = trials as f64;
    let p = successes as f64 / n;
    let z2n = z * z / n;
    let centre = (p + z2n / 2.0) / (1.0 + z2n);
    let half = z / (1.0 + z2n) * (p * (1.0 - p) / n + z2n / (4.0 * n)).sqrt();
    Estimate { estimate: p, low: (centre - half).max(0.0), high: (centre + half).min(1.0) }
}

/// Below this many successes (or failures) [`interval`] gives the Clopper-Pearson
/// interval. Computed coverage (every count weighed by its binomial probability) at
/// trials from 20 to 5,000 and p from 10^-6 to 1/2: this hybrid never covers less than
/// 94.4%, where Wilson alone falls to 84% (tests below check the small-count end).
pub(crate) const EXACT_INTERVAL_BELOW: u64 = 50;

/// Confidence level of every reported interval.
pub const CONFIDENCE: f64 = 0.95;

/// How [`interval`] is described in reports.
pub const INTERVAL_METHOD: &str = "Wilson score, 95% (Clopper-Pearson where fewer than 50 trials fall on one side)";

/// The interval reports give for `successes` out of `trials` at `confidence`: Wilson,
/// or Clopper-Pearson where the counts are small (see `EXACT_INTERVAL_BELOW`).
pub fn interval(successes: u64, trials: u64, confidence: f64) -> Estimate {
    if trials > 0 && successes.min(trials - successes) < EXACT_INTERVAL_BELOW {
        clopper_pearson(successes, trials, confidence)
    } else {
        wilson(successes, trials, confidence)
    }
}

/// The Clopper-Pearson ("exact") interval: the bounds are the Beta quantiles at which
/// the observed count would be just significant at each tail.
pub(crate) fn clopper_pearson(successes: u64, trials: u64, confidence: f64) -> Estimate {
    if trials == 0 {
        return Estimate { estimate: f64::NAN, low: 0.0, high: 1.0 };
    }
    let (x, n) = (successes as f64, trials as f64);
    let tail = (1.0 - confidence) / 2.0;
    // An outcome never (or always) seen has its far bound in closed form: (1 - p)^n =
    // tail, so p = 1 - tail^(1/n), exact where the distribution function loses digits.
    let never = |n: f64| -(tail.ln() / n).exp_m1();
    let low = match successes {
        0 => 0.0,
        s if s == trials => 1.0 - never(n),
        _ => beta_quantile(x, n - x + 1.0, tail),
    };
    let high = match successes {
        s if s == trials => 1.0,
        0 => never(n),
        _ => beta_quantile(x + 1.0, n - x, 1.0 - tail),
    };
    Estimate { estimate: x / n, low, high }
}

/// The `q` quantile of Beta(a, b), by bisection on its distribution function.
///
/// statrs's own inverse (AS 64 with Newton steps) never returns for shapes such as
/// Beta(1, 8,000,000): every bound of a rare outcome in a run of 8 M trials or more
/// hung the report. Where it does return it can stop early (the 0-of-a-million bound
/// off by 1 part in 10^4). Halving [0, 1] until the midpoint no longer moves takes
/// at most a few hundred evaluations and is as accurate as the distribution function.
fn beta_quantile(a: f64, b: f64, q: f64) -> f64 {
    let Ok(beta) = Beta::new(a, b) else { return f64::NAN };
    let (mut low, mut high) = (0.0f64, 1.0f64);
    for _ in 0..BISECTIONS {
        let mid = 0.5 * (low + high);
        if mid <= low || mid >= high {
            break;
        }
        if beta.cdf(mid) < q {
            low = mid;
        } else {
            high = mid;
        }
    }
    0.5 * (low + high)
}

/// Halvings of [0, 1] at most: 2^-200 is far below any bound a count of trials gives.
const BISECTIONS: u32 = 200;

/// The two-sided standard normal quantile for `confidence` (1.96 at 0.95).
fn z_score(confidence: f64) -> f64 {
    Normal::standard().inverse_cdf(0.5 + confidence / 2.0)
}

/// The two-sided p-value of a two-sample z-test that `a` of `n` and `b` of `m` come
/// from one probability (pooled variance). Samples that cannot differ (both all or
/// nothing) give 1.
pub fn two_proportion_p(a: u64, n: u64, b: u64, m: u64) -> f64 {
    let (nf, mf) = (n as f64, m as f64);
    let pooled = (a + b) as f64 / (nf + mf);
    let variance = pooled * (1.0 - pooled) * (1.0 / nf + 1.0 / mf);
    if variance <= 0.0 {
        return if a as f64 / nf == b as f64 / mf { 1.0 } else { 0.0 };
    }
    let z = (a as f64 / nf - b as f64 / mf).abs() / variance.sqrt();
    2.0 * (1.0 - Normal::standard().cdf(z))
}

/// Joint kill counts of two resolutions run trial by trial on the same random numbers.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Paired {
    /// Trials run.
    pub trials: u64,
    /// Trials where both killed.
    pub both: u64,
    /// Trials where only the first killed.
    pub first_only: u64,
    /// Trials where only the second killed.
    pub second_only: u64,
}

impl Paired {
    /// Adds another tally of the same pair (merging is addition, so associative).
    pub fn merge(self, o: Paired) -> Paired {
        Paired {
            trials: self.trials + o.trials,
            both: self.both + o.both,
            first_only: self.first_only + o.first_only,
            second_only: self.second_only + o.second_only,
        }
    }

    /// P(first kills) - P(second kills), with two normal intervals at `confidence`:
    /// the paired one, from the variance of the per-trial differences (each -1, 0 or
    /// 1: E(D^2) - E(D)^2 = discordant share - d^2), and the one independent runs of
    /// the same size would give (the two binomial variances added). Common random
    /// numbers make the pair agree more often than chance, which narrows the first.
    pub fn difference(&self, confidence: f64) -> (Estimate, Estimate) {
        let n = self.trials as f64;
        let first = (self.both + self.first_only) as f64 / n;
        let second = (self.both + self.second_only) as f64 / n;
        let d = first - second;
        let discordant = (self.first_only + self.second_only) as f64 / n;
        let z = z_score(confidence);
        let paired = z * ((discordant - d * d).max(0.0) / n).sqrt();
        let independent = z * ((first * (1.0 - first) + second * (1.0 - second)) / n).sqrt();
        let around = |half: f64| Estimate { estimate: d, low: d - half, high: d + half };
        (around(paired), around(independent))
    }
}

/// The mean of whole-number outcomes `values` seen `counts` times, with its normal
/// interval at `confidence`: x̄ ± z s/√m over the m trials counted, s² the sample
/// variance (m - 1 in its denominator), kept within the smallest and largest value (the
/// mean of such trials can lie nowhere else). None under two trials: one gives no
/// spread to size an interval by.
pub fn mean_interval(values: &[u64], counts: &[u64], confidence: f64) -> Option<Estimate> {
    let m: u64 = counts.iter().sum();
    if m < 2 {
        return None;
    }
    let n = m as f64;
    let pairs = || values.iter().zip(counts).map(|(&v, &c)| (v as f64, c as f64));
    let mean = pairs().map(|(v, c)| v * c).sum::<f64>() / n;
    let variance = pairs().map(|(v, c)| c * (v - mean).powi(2)).sum::<f64>() / (n - 1.0);
    let half = z_score(confidence) * (variance / n).sqrt();
    let seen = || pairs().filter(|&(_, c)| c > 0.0).map(|(v, _)| v);
    let (least, most) = (seen().fold(f64::INFINITY, f64::min), seen().fold(f64::NEG_INFINITY, f64::max));
    Some(Estimate { estimate: mean, low: (mean - half).max(least), high: (mean + half).min(most) })
}

/// The exact mean of whole-number outcomes `values` with exact chances `chances`, among
/// those outcomes alone (the chances may add to less than 1: the rest fell on outcomes
/// that are no number): the reduced fraction's numerator and denominator, and the
/// mean as a float for display. None when those outcomes have no chance at all.
pub fn exact_mean(values: &[u64], chances: &[&Ratio]) -> Option<(BigUint, BigUint, f64)> {
    // Over the chances' least common denominator L, each chance n/d is n * (L / d), so
    // the mean (sum of v n/d) / (sum of n/d) is (sum of v n L/d) / (sum of n L/d).
    let lcm = chances.iter().fold(BigUint::one(), |l, r| l.lcm(r.denom()));
    let scaled = |r: &Ratio| r.numer() * (&lcm / r.denom());
    let total: BigUint = chances.iter().map(|r| scaled(r)).sum();
    if total.is_zero() {
        return None;
    }
    let sum: BigUint = values.iter().zip(chances).map(|(&v, r)| scaled(r) * v).sum();
    let g = sum.gcd(&total);
    let (num, den) = (sum / &g, total / g);
    // The whole part exactly, the rest through `Ratio`, which converts parts past the
    // range of f64.
    let (whole, rest) = num.div_rem(&den);
    let float = whole.to_f64().unwrap_or(f64::INFINITY) + Ratio::from_big(rest, den.clone()).to_f64();
    Some((num, den, float))
}

/// Pearson's chi-square goodness-of-fit of observed counts against exact probabilities.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GoodnessOfFit {
    /// The statistic.
    pub chi_square: f64,
    /// Degrees of freedom: outcomes with positive probability, minus one.
    pub dof: u32,
    /// P(X >= chi_square) under the exact distribution.
    pub p_value: f64,
}

/// Tests `counts` against `exact`. An outcome the exact engine calls impossible but
/// that was observed makes the p-value 0: no sampling noise explains it.
pub fn goodness_of_fit(counts: &[u64], exact: &[Ratio]) -> GoodnessOfFit {
    let n: u64 = counts.iter().sum();
    let mut chi_square = 0.0;
    let mut cells = 0u32;
    for (&observed, p) in counts.iter().zip(exact) {
        let expected = p.to_f64() * n as f64;
        if expected == 0.0 {
            if observed > 0 {
                return GoodnessOfFit { chi_square: f64::INFINITY, dof: cells, p_value: 0.0 };
            }
            continue;
        }
        cells += 1;
        chi_square += (observed as f64 - expected).powi(2) / expected;
    }
    let dof = cells.saturating_sub(1);
    let p_value = if dof == 0 { 1.0 } else { chi_square_sf(dof, chi_square) };
    GoodnessOfFit { chi_square, dof, p_value }
}

/// P(X >= x) for X chi-square with `dof` degrees of freedom: Q(dof / 2, x / 2), the
/// regularised upper incomplete gamma function.
///
/// statrs computes the same with `f64::exp` and `ln`, which are glibc's natively and
/// Rust's own libm in WebAssembly: their last bits differ, so the browser's p-value
/// did too. Here every transcendental step is the `libm` crate's, pure Rust on every
/// target, so the p-value is the same bits wherever the engine runs. The method is
/// statrs's own (Cephes `igam`/`igamc`, S. L. Moshier), so the two agree but for
/// the last bits of exp, ln and ln-gamma (a test below holds them together).
fn chi_square_sf(dof: u32, x: f64) -> f64 {
    let (a, x) = (f64::from(dof) / 2.0, x / 2.0);
    if x.is_nan() {
        f64::NAN
    } else if x <= 0.0 {
        1.0
    } else if x.is_infinite() {
        0.0
    } else {
        upper_gamma(a, x)
    }
}

/// Below this `ln` of the prefactor `x^a e^-x / Gamma(a)`, its `exp` is 0 (ln of the
/// smallest normal f64): the series and the fraction have nothing left to scale.
const LN_SMALLEST: f64 = -709.782_712_893_384;

/// Relative change at which the series and the continued fraction stop (Cephes).
const SETTLED: f64 = 1e-15;

/// `ln(x^a e^-x / Gamma(a))`, the prefactor both expansions share.
fn ln_prefactor(a: f64, x: f64) -> f64 {
    a * libm::log(x) - x - libm::lgamma(a)
}

/// Q(a, x) for a > 0 and finite x > 0. Where x < 1 or x <= a, 1 - P(a, x) by the
/// series; elsewhere the continued fraction of Abramowitz and Stegun 6.5.31,
/// Gamma(a, x) = e^-x x^a (1/(x+) (1-a)/(1+) 1/(x+) (2-a)/(1+) 2/(x+) ...), evaluated
/// as convergents p_k / q_k (rescaled when they grow past 2^52, which leaves their
/// ratio alone).
fn upper_gamma(a: f64, x: f64) -> f64 {
    if x < 1.0 || x <= a {
        return 1.0 - lower_gamma(a, x);
    }
    let ln_ax = ln_prefactor(a, x);
    if ln_ax < LN_SMALLEST {
        return 0.0;
    }
    const BIG: f64 = 4_503_599_627_370_496.0;
    const BIG_INV: f64 = 2.220_446_049_250_313e-16;
    let (mut y, mut c) = (1.0 - a, 0.0);
    let mut z = x + y + 1.0;
    let (mut pkm2, mut qkm2, mut pkm1) = (1.0, x, x + 1.0);
    let mut qkm1 = z * x;
    let mut ans = pkm1 / qkm1;
    loop {
        y += 1.0;
        z += 2.0;
        c += 1.0;
        let yc = y * c;
        let pk = pkm1 * z - pkm2 * yc;
        let qk = qkm1 * z - qkm2 * yc;
        (pkm2, pkm1, qkm2, qkm1) = (pkm1, pk, qkm1, qk);
        if pk.abs() > BIG {
            pkm2 *= BIG_INV;
            pkm1 *= BIG_INV;
            qkm2 *= BIG_INV;
            qkm1 *= BIG_INV;
        }
        if qk != 0.0 {
            let r = pk / qk;
            let change = ((ans - r) / r).abs();
            ans = r;
            if change <= SETTLED {
                return ans * libm::exp(ln_ax);
            }
        }
    }
}

/// P(a, x) for a > 0 and 0 < x where x <= 1 or x <= a, by the series of Abramowitz
/// and Stegun 6.5.29: P(a, x) = x^a e^-x / Gamma(a + 1) * sum over n >= 0 of
/// x^n / ((a + 1) ... (a + n)).
fn lower_gamma(a: f64, x: f64) -> f64 {
    let ln_ax = ln_prefactor(a, x);
    if ln_ax < LN_SMALLEST {
        return if a < x { 1.0 } else { 0.0 };
    }
    let (mut r, mut term, mut sum) = (a, 1.0, 1.0);
    loop {
        r += 1.0;
        term *= x / r;
        sum += term;
        if term / sum <= SETTLED {
            return libm::exp(ln_ax) * sum / a;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mean_has_its_normal_interval_within_the_values_seen() {
        // Values 0, 1, 2 seen 1, 2, 1 times: mean (0 + 2 + 2) / 4 = 1; s^2 = (1 + 0 +
        // 1) / 3 = 2/3; half-width 1.959964 * sqrt((2/3) / 4) = 1.959964 * 0.408248 =
        // 0.800152.
        let e = mean_interval(&[0, 1, 2], &[1, 2, 1], 0.95).unwrap();
        assert_eq!(e.estimate, 1.0);
        assert!((e.low - 0.199848).abs() < 1e-6 && (e.high - 1.800152).abs() < 1e-6, "{e:?}");
        // 9 trials on 0 and one on 5: mean 0.5, s^2 = (9 * 0.25 + 20.25) / 9 = 2.5, half
        // 1.959964 * sqrt(0.25) = 0.979982, so the low end 0.5 - 0.98 is held at 0.
        let e = mean_interval(&[0, 5], &[9, 1], 0.95).unwrap();
        assert_eq!((e.estimate, e.low), (0.5, 0.0));
        assert!((e.high - 1.479982).abs() < 1e-6, "{e:?}");
        assert_eq!(mean_interval(&[0, 1], &[0, 1], 0.95), None, "one trial has no spread");
    }

    #[test]
    fn an_exact_mean_is_a_reduced_fraction_over_the_outcomes_it_counts() {
        // 0, 1, 2 hits at 4/25, 12/25, 9/25: 12/25 + 18/25 = 30/25 = 6/5.
        let (a, b, c) = (Ratio::new(4, 25), Ratio::new(12, 25), Ratio::new(9, 25));
        let (num, den, float) = exact_mean(&[0, 1, 2], &[&a, &b, &c]).unwrap();
        assert_eq!((num.to_string(), den.to_string(), float), ("6".into(), "5".into(), 1.2));
        // 1 turn at 1/2, 2 at 1/4, undecided the other 1/4: (1/2 + 2/4) / (3/4) = 4/3.
        let (one, two) = (Ratio::new(1, 2), Ratio::new(1, 4));
        let (num, den, float) = exact_mean(&[1, 2], &[&one, &two]).unwrap();
        assert_eq!((num.to_string(), den.to_string()), ("4".into(), "3".into()));
        assert!((float - 4.0 / 3.0).abs() < 1e-15);
        assert_eq!(exact_mean(&[1, 2], &[&Ratio::new(0, 1), &Ratio::new(0, 3)]), None);
    }

    #[test]
    fn wilson_interval_matches_the_textbook_value() {
        // 50 of 100 at 95%: z = 1.959964, centre 0.5,
        // half = z/(1+z^2/100) * sqrt(0.0025 + z^2/40000) = 0.096170...
        let e = wilson(50, 100, 0.95);
        assert!((e.low - 0.403831).abs() < 1e-5 && (e.high - 0.596169).abs() < 1e-5, "{e:?}");
    }

    #[test]
    fn wilson_interval_stays_inside_zero_and_one() {
        let none = wilson(0, 1000, 0.95);
        assert_eq!(none.low, 0.0);
        assert!(none.high > 0.0 && none.high < 0.01);
        let all = wilson(1000, 1000, 0.95);
        assert_eq!(all.high, 1.0);
    }

    #[test]
    fn rare_outcomes_in_millions_of_trials_get_their_bounds() {
        // 0 of n: high = 1 - 0.025^(1/n); 1 of n: low = 1 - 0.975^(1/n). At 8 M trials
        // (where statrs's Beta inverse never returned): ln(0.025) = -3.6888795 and
        // ln(0.975) = -0.0253178, so high = 4.6111e-7 and low = 3.16473e-9.
        for n in [8_000_000u64, 100_000_000, 1_000_000_000] {
            let nf = n as f64;
            let none = clopper_pearson(0, n, 0.95);
            let expected = -(0.025f64.ln() / nf).exp_m1();
            assert!((none.high / expected - 1.0).abs() < 1e-6, "0 of {n}: {none:?} against {expected:e}");
            let one = clopper_pearson(1, n, 0.95);
            let expected = -(0.975f64.ln() / nf).exp_m1();
            assert!((one.low / expected - 1.0).abs() < 1e-6, "1 of {n}: {one:?} against {expected:e}");
        }
        let e = clopper_pearson(1, 8_000_000, 0.95);
        assert!((e.low - 3.16473e-9).abs() < 1e-14 && (e.high - 6.9646e-7).abs() < 1e-10, "{e:?}");
    }

    #[test]
    fn clopper_pearson_matches_the_closed_forms_at_the_edges() {
        // 0 of n: high = 1 - (0.025)^(1/n); n of n: low = 0.025^(1/n). At n = 200:
        // 1 - 0.025^(1/200) = 1 - exp(ln(0.025)/200) = 1 - exp(-0.0184444) = 0.0182753.
        let none = clopper_pearson(0, 200, 0.95);
        assert_eq!(none.low, 0.0);
        assert!((none.high - 0.0182753).abs() < 1e-6, "{none:?}");
        let all = clopper_pearson(200, 200, 0.95);
        assert!((all.low - (1.0 - 0.0182753)).abs() < 1e-6 && all.high == 1.0, "{all:?}");
        // 1 of 200: low = 1 - 0.975^(1/200) = 1 - exp(ln(0.975)/200) = 0.000126585.
        let one = clopper_pearson(1, 200, 0.95);
        assert!((one.low - 0.000126585).abs() < 1e-8, "{one:?}");
    }

    /// The probability that `interval` covers `p` with `n` trials: each count's
    /// binomial probability (from its logarithm) where its interval holds `p`.
    fn coverage(n: u64, p: f64) -> f64 {
        let ln_choose = |k: u64| (1..=k).map(|i| ((n - k + i) as f64 / i as f64).ln()).sum::<f64>();
        (0..=n)
            .filter(|&k| {
                let e = interval(k, n, 0.95);
                e.low <= p && p <= e.high
            })
            .map(|k| (ln_choose(k) + k as f64 * p.ln() + (n - k) as f64 * (1.0 - p).ln()).exp())
            .sum()
    }

    #[test]
    fn intervals_hold_their_coverage_where_the_expected_count_is_small() {
        // The case Wilson alone misses (0.878): p = 0.00064 with 200 trials.
        assert!(coverage(200, 0.00064) >= 0.95, "{}", coverage(200, 0.00064));
        for n in [100u64, 200, 1000, 5000] {
            for p in [1e-5, 1e-4, 3e-4, 6.4e-4, 1e-3, 3e-3, 1e-2] {
                // Expected count at most 5: nearly every count is under 50, so the
                // Clopper-Pearson interval answers, and it never under-covers.
                if n as f64 * p <= 5.0 {
                    let c = coverage(n, p);
                    assert!(c >= 0.95 - 1e-9, "coverage {c} at n = {n}, p = {p}");
                }
            }
        }
    }

    #[test]
    fn large_counts_keep_the_wilson_interval() {
        assert_eq!(interval(500, 1000, 0.95), wilson(500, 1000, 0.95));
        assert_eq!(interval(49, 1000, 0.95), clopper_pearson(49, 1000, 0.95));
        assert_eq!(interval(951, 1000, 0.95), clopper_pearson(951, 1000, 0.95));
    }

    /// How far apart two values are in units in the last place (both positive).
    fn ulps(a: f64, b: f64) -> u64 {
        a.to_bits().abs_diff(b.to_bits())
    }

    /// Q(k, y) for a whole k, in closed form: e^-y (1 + y + y^2/2! + ... + y^(k-1)/(k-1)!),
    /// a sum of positive terms (each to an ulp or two), rescaled as it grows so no term
    /// overflows, and one exp at the end.
    fn upper_gamma_whole(k: u32, y: f64) -> f64 {
        let (mut term, mut sum, mut ln_scale) = (1.0f64, 1.0f64, 0.0f64);
        for i in 1..k {
            term *= y / f64::from(i);
            sum += term;
            if sum > 1e250 {
                (term, sum, ln_scale) = (term * 1e-250, sum * 1e-250, ln_scale + 250.0 * std::f64::consts::LN_10);
            }
        }
        libm::exp(-y + libm::log(sum) + ln_scale)
    }

    #[test]
    fn the_chi_square_p_value_agrees_with_the_closed_form_on_a_grid() {
        // With an even number 2k of degrees of freedom the survival function is
        // Q(k, x/2), a finite sum (upper_gamma_whole): a reference that shares neither
        // expansion nor ln-gamma with chi_square_sf. Degrees of freedom a report meets
        // (two to five hundred), statistics from a hundredth of the mean to a hundred
        // times it: both expansions, both tails. Both sides lose about an ulp of each
        // logarithm they exponentiate (x/2, k ln(x/2), ln Gamma(k), each at most a few
        // thousand here), so the bound is a few ulps of the largest of them.
        for dof in (2..=60).step_by(2).chain([64, 100, 128, 200, 256, 500]) {
            let a = f64::from(dof) / 2.0;
            for step in 0..=160 {
                let x = f64::from(dof) * 10f64.powf(f64::from(step) / 40.0 - 2.0);
                let ours = chi_square_sf(dof, x);
                let exact = upper_gamma_whole(dof / 2, x / 2.0);
                if exact < 1e-290 {
                    assert!(ours < 1e-280, "dof {dof}, x {x}: {ours:e} against {exact:e}");
                    continue;
                }
                let magnitude = 1.0 + x / 2.0 + (a * libm::log(x / 2.0)).abs() + libm::lgamma(a);
                let apart = (ours / exact - 1.0).abs();
                assert!(
                    apart <= 8.0 * f64::EPSILON * magnitude,
                    "dof {dof}, x {x}: {ours:e} against {exact:e}, {apart:e} apart"
                );
            }
        }
    }

    #[test]
    fn the_chi_square_p_value_matches_the_textbook_values() {
        // The 5% critical values: 3.841459 (1 dof), 5.991465 (2), 11.070498 (5),
        // 18.307038 (10); with 2 dof the survival function is exp(-x / 2) exactly.
        for (dof, x) in [
            (1, 3.841_458_820_694_124),
            (2, 5.991_464_547_107_979),
            (5, 11.070_497_693_516_35),
            (10, 18.307_038_053_275_146),
        ] {
            assert!((chi_square_sf(dof, x) - 0.05).abs() < 1e-12, "dof {dof}: {}", chi_square_sf(dof, x));
        }
        assert!(ulps(chi_square_sf(2, 3.0), libm::exp(-1.5)) <= 2);
        assert_eq!((chi_square_sf(3, 0.0), chi_square_sf(3, f64::INFINITY)), (1.0, 0.0));
        assert!(chi_square_sf(3, f64::NAN).is_nan());
    }

    #[test]
    fn goodness_of_fit_accepts_a_fair_split_and_rejects_an_impossible_count() {
        let half = [Ratio::new(1, 2), Ratio::new(1, 2)];
        let fair = goodness_of_fit(&[500, 500], &half);
        assert_eq!((fair.chi_square, fair.dof, fair.p_value), (0.0, 1, 1.0));
        let never = [Ratio::new(1, 1), Ratio::new(0, 1)];
        assert_eq!(goodness_of_fit(&[9, 1], &never).p_value, 0.0);
    }
}
