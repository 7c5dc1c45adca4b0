//! Intervals and tests for Monte Carlo estimates (statrs).
//!
//! Intervals are Wilson score intervals: unlike the normal (Wald) interval they stay
//! inside [0, 1] and keep close to nominal coverage for probabilities near 0 or 1,
//! which kill probabilities often are.

use statrs::distribution::{ChiSquared, ContinuousCDF, Normal};

use crate::dice::Ratio;

/// A probability estimate with its confidence interval.
#[derive(Debug, Clone, Copy, PartialEq)]
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
    let z = Normal::standard().inverse_cdf(0.5 + confidence / 2.0);
    let n = trials as f64;
    let p = successes as f64 / n;
    let z2n = z * z / n;
    let centre = (p + z2n / 2.0) / (1.0 + z2n);
    let half = z / (1.0 + z2n) * (p * (1.0 - p) / n + z2n / (4.0 * n)).sqrt();
    Estimate { estimate: p, low: (centre - half).max(0.0), high: (centre + half).min(1.0) }
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
    let p_value = if dof == 0 { 1.0 } else { ChiSquared::new(dof as f64).map_or(f64::NAN, |d| d.sf(chi_square)) };
    GoodnessOfFit { chi_square, dof, p_value }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn goodness_of_fit_accepts_a_fair_split_and_rejects_an_impossible_count() {
        let half = [Ratio::new(1, 2), Ratio::new(1, 2)];
        let fair = goodness_of_fit(&[500, 500], &half);
        assert_eq!((fair.chi_square, fair.dof, fair.p_value), (0.0, 1, 1.0));
        let never = [Ratio::new(1, 1), Ratio::new(0, 1)];
        assert_eq!(goodness_of_fit(&[9, 1], &never).p_value, 0.0);
    }
}
