//! A measure's mean where its outcomes are whole numbers (hits, survivors, turns to an
//! end): the summary a player reads beside the distribution, exact where the
//! distribution is, and the Monte Carlo estimate with its interval.

use serde::Serialize;

use combat_odds_core::dice::Ratio;
use combat_odds_core::stats::{CONFIDENCE, exact_mean, mean_interval};

/// A measure's mean over the trials whose outcome is a number.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Mean {
    /// The outcomes that are no number (`undecided`, `none`, `more_than_20`), left out:
    /// the mean is over the trials that ended on a number.
    pub leaves_out: Vec<String>,
    /// Exact, or null.
    pub exact: Option<f64>,
    /// The exact mean as a reduced fraction (it may be past 1), or null.
    pub exact_fraction: Option<String>,
    /// Monte Carlo estimate.
    pub estimate: f64,
    /// Lower bound of its normal interval.
    pub ci_low: f64,
    /// Upper bound.
    pub ci_high: f64,
    /// Trials the estimate is over (those whose outcome is a number).
    pub count: u64,
}

/// The exact mean alone, for an answer with no trial drawn yet.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ExactMean {
    /// As in [`Mean`].
    pub leaves_out: Vec<String>,
    /// Exact.
    pub exact: f64,
    /// As a reduced fraction.
    pub exact_fraction: String,
}

/// A measure's outcomes split into those that are whole numbers and the rest.
struct Numbers {
    /// Each whole-number outcome's index and value.
    counted: Vec<(usize, u64)>,
    /// The other outcomes' labels.
    leaves_out: Vec<String>,
}

/// Which of `outcomes` are whole numbers. None for a measure with under two such
/// outcomes, whose mean says nothing its table does not (a winner, a state, a yes or no).
fn numbers(outcomes: &[String]) -> Option<Numbers> {
    let mut split = Numbers { counted: Vec::new(), leaves_out: Vec::new() };
    for (i, label) in outcomes.iter().enumerate() {
        match label.parse::<u64>() {
            Ok(v) => split.counted.push((i, v)),
            Err(_) => split.leaves_out.push(label.clone()),
        }
    }
    (split.counted.len() >= 2).then_some(split)
}

/// The exact mean of a measure of `outcomes` with exact chances `exact`.
pub fn exact_of(outcomes: &[String], exact: &[Ratio]) -> Option<ExactMean> {
    let Numbers { counted, leaves_out } = numbers(outcomes)?;
    let values: Vec<u64> = counted.iter().map(|&(_, v)| v).collect();
    let chances: Vec<&Ratio> = counted.iter().map(|&(i, _)| &exact[i]).collect();
    let (num, den, float) = exact_mean(&values, &chances)?;
    let exact_fraction = if den == 1u32.into() { num.to_string() } else { format!("{num}/{den}") };
    Some(ExactMean { leaves_out, exact: float, exact_fraction })
}

/// The mean of a measure of `outcomes` seen `counts` times, beside its exact mean where
/// `exact` gives the distribution. None where the outcomes are not numbers, or under
/// two trials ended on one.
pub fn of(outcomes: &[String], counts: &[u64], exact: Option<&[Ratio]>) -> Option<Mean> {
    let Numbers { counted, leaves_out } = numbers(outcomes)?;
    let values: Vec<u64> = counted.iter().map(|&(_, v)| v).collect();
    let seen: Vec<u64> = counted.iter().map(|&(i, _)| counts[i]).collect();
    let e = mean_interval(&values, &seen, CONFIDENCE)?;
    let exact = exact.and_then(|x| exact_of(outcomes, x));
    Some(Mean {
        leaves_out,
        exact: exact.as_ref().map(|x| x.exact),
        exact_fraction: exact.map(|x| x.exact_fraction),
        estimate: e.estimate,
        ci_low: e.low,
        ci_high: e.high,
        count: seen.iter().sum(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(xs: &[&str]) -> Vec<String> {
        xs.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn the_mean_of_numbers_leaves_out_the_outcomes_that_are_none() {
        // Turns 1, 2, 3 and undecided seen 3, 1, 0 and 6 times: the 4 decided trials
        // average (3 * 1 + 1 * 2) / 4 = 1.25 turns; s^2 = (3 * 0.0625 + 0.5625) / 3 =
        // 0.25, half-width 1.959964 * sqrt(0.25 / 4) = 0.489991.
        let outcomes = labels(&["1", "2", "3", "undecided"]);
        // Exactly: 1 at 1/2, 2 at 1/4, 3 never, undecided 1/4: (1/2 + 2/4) / (3/4) = 4/3.
        let exact = [Ratio::new(1, 2), Ratio::new(1, 4), Ratio::new(0, 1), Ratio::new(1, 4)];
        let m = of(&outcomes, &[3, 1, 0, 6], Some(&exact)).unwrap();
        assert_eq!(m.leaves_out, ["undecided"]);
        assert_eq!((m.estimate, m.count), (1.25, 4));
        assert!((m.ci_low - 1.0).abs() < 1e-12, "held at the least value seen: {m:?}");
        assert!((m.ci_high - 1.739991).abs() < 1e-6, "{m:?}");
        assert_eq!(m.exact_fraction.as_deref(), Some("4/3"));
        assert!((m.exact.unwrap() - 4.0 / 3.0).abs() < 1e-15);
        // A whole exact mean is written as a whole number: 0 and 2 at 1/2 each is 1.
        let whole = exact_of(&labels(&["0", "2"]), &[Ratio::new(1, 2), Ratio::new(1, 2)]).unwrap();
        assert_eq!(whole.exact_fraction, "1");
    }

    #[test]
    fn a_measure_of_words_has_no_mean() {
        assert_eq!(of(&labels(&["no_effect", "forced_back", "eliminated"]), &[5, 5, 5], None), None);
        // One number among words: nothing to average.
        assert_eq!(of(&labels(&["none", "1"]), &[5, 5], None), None);
    }
}
