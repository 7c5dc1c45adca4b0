//! Walker's alias method with integer weights: one draw of an outcome from an exact
//! distribution in constant time, with no rounding anywhere.
//!
//! `n` outcomes with weights `w_i` summing to `W` become `n` columns of height `W`.
//! Column `i` keeps outcome `i` below `keep[i]` and hands the rest to `alias[i]`.
//! Vose's construction fills the columns with integers only, so outcome `i` owns
//! exactly `n * w_i` of the `n * W` equally likely (column, height) pairs, and a
//! sample (a uniform column, a uniform height) has exactly probability `w_i / W`.

use super::Stream;

/// An exact sampler over outcomes `0..n`.
#[derive(Debug, Clone)]
pub struct Alias {
    /// Column height: the total weight.
    height: u64,
    /// Every column, its keep and its alias side by side: a draw reads one of them.
    columns: Vec<Column>,
}

/// One column of the table.
#[derive(Debug, Clone, Copy)]
struct Column {
    /// The height below which the column keeps its own outcome.
    keep: u64,
    /// The outcome the column hands the rest of its height to.
    alias: u32,
}

impl Alias {
    /// The sampler for `weights` (at least one positive), or `None` when the total
    /// weight does not fit in 64 bits or there are more than 2^32 outcomes.
    pub fn new(weights: &[u64]) -> Option<Self> {
        let n = weights.len();
        let total = weights.iter().try_fold(0u64, |acc, &w| acc.checked_add(w))?;
        if total == 0 || n > 1 << 32 {
            return None;
        }
        // Scaled weights n * w_i against columns of height W (u128: n * W may pass 2^64).
        let height = u128::from(total);
        let mut scaled: Vec<u128> = weights.iter().map(|&w| u128::from(w) * n as u128).collect();
        let (mut small, mut large): (Vec<usize>, Vec<usize>) = (0..n).partition(|&i| scaled[i] < height);
        let mut keep = vec![total; n];
        let mut alias: Vec<u32> = (0..n as u32).collect();
        while let (Some(&s), Some(&l)) = (small.last(), large.last()) {
            small.pop();
            // Column s keeps its own weight and takes the shortfall from l.
            keep[s] = scaled[s] as u64;
            alias[s] = l as u32;
            scaled[l] -= height - scaled[s];
            if scaled[l] < height {
                large.pop();
                small.push(l);
            }
        }
        // What is left is exactly full: scaled weights always sum to n * W.
        debug_assert!(small.iter().chain(&large).all(|&i| scaled[i] == height));
        let columns = keep.into_iter().zip(alias).map(|(keep, alias)| Column { keep, alias }).collect();
        Some(Alias { height: total, columns })
    }

    /// One outcome: a uniform column and a uniform height, each exactly uniform.
    /// Tables of up to 2^16 columns of height up to 2^32 (every single resolution and
    /// engagement turn shipped) take both from one generator output.
    #[inline(always)]
    pub fn sample(&self, stream: &mut Stream) -> usize {
        let n = self.columns.len();
        let (column, height) = if n <= 1 << 16 && self.height <= 1 << 32 {
            let (column, height) = stream.below16_and_32(n as u32, self.height);
            (column as usize, height)
        } else {
            (stream.below64(n as u64) as usize, stream.below64(self.height))
        };
        // Which side of the column a draw lands on is a coin toss the branch predictor
        // cannot learn: choose without a branch.
        let Column { keep, alias } = self.columns[column];
        std::hint::select_unpredictable(height < keep, column, alias as usize)
    }

    /// How many of the `n * W` (column, height) pairs each outcome owns: `n * w_i`
    /// when the table is right.
    #[cfg(test)]
    fn owned(&self) -> Vec<u128> {
        let mut owned = vec![0u128; self.columns.len()];
        for (column, &Column { keep, alias }) in self.columns.iter().enumerate() {
            owned[column] += u128::from(keep);
            owned[alias as usize] += u128::from(self.height - keep);
        }
        owned
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_outcome_owns_exactly_its_share_of_the_table() {
        let cases: [&[u64]; 6] = [
            &[1],
            &[0, 5, 0],
            &[1, 2, 3, 4],
            &[274_625, 237_375, 488_000],
            &[u64::MAX / 4, 1, u64::MAX / 2, 12_345],
            &[7; 100],
        ];
        for weights in cases {
            let alias = Alias::new(weights).expect("fits");
            let n = weights.len() as u128;
            let expected: Vec<u128> = weights.iter().map(|&w| u128::from(w) * n).collect();
            assert_eq!(alias.owned(), expected, "{weights:?}");
        }
    }

    #[test]
    fn totals_past_64_bits_and_no_weight_are_refused() {
        assert!(Alias::new(&[u64::MAX, 1]).is_none());
        assert!(Alias::new(&[0, 0]).is_none());
        assert!(Alias::new(&[]).is_none());
    }

    #[test]
    fn samples_follow_the_weights() {
        // 1,000,000 draws of weights 1:2:3:4; 3 degrees of freedom, 0.999 quantile 16.27.
        let weights = [1u64, 2, 3, 4];
        let alias = Alias::new(&weights).expect("fits");
        let mut stream = Stream::from_key(11);
        let mut counts = [0f64; 4];
        (0..1_000_000).for_each(|_| counts[alias.sample(&mut stream)] += 1.0);
        let chi2: f64 = counts.iter().zip(weights).map(|(c, w)| (c - w as f64 * 1e5).powi(2) / (w as f64 * 1e5)).sum();
        assert!(chi2 < 16.27, "chi-square {chi2}: {counts:?}");
    }
}
