//! Walker's alias method with integer weights: one draw of an outcome from an exact
//! distribution in constant time, with no rounding anywhere.
//!
//! `n` outcomes with weights `w_i` summing to `W` become `n` columns of height `W`.
//! Column `i` keeps outcome `i` below `keep[i]` and hands the rest to `alias[i]`.
//! Vose's construction fills the columns with integers only, so outcome `i` owns
//! exactly `n * w_i` of the `n * W` equally likely (column, height) pairs, and a
//! sample (a uniform column, a uniform height) has exactly probability `w_i / W`.

use super::Stream;

/// A column height: the integer type a table's total weight fits in. 64 bits draw
/// fast (one generator output a sample for the tables every single resolution
/// makes); 128 bits take the turns of larger engagements, whose dice weigh past 64.
pub trait Height: Copy + Ord + Into<u128> + TryFrom<u128> + Send + Sync + std::fmt::Debug {
    /// A uniform column of `columns` and a uniform height below `height`.
    fn draw(stream: &mut Stream, columns: usize, height: Self) -> (usize, Self);
}

impl Height for u64 {
    /// Tables of up to 2^16 columns of height up to 2^32 (every single resolution and
    /// most engagement turns) take both from one generator output.
    #[inline(always)]
    fn draw(stream: &mut Stream, columns: usize, height: u64) -> (usize, u64) {
        if columns <= 1 << 16 && height <= 1 << 32 {
            let (column, height) = stream.below16_and_32(columns as u32, height);
            (column as usize, height)
        } else {
            (stream.below64(columns as u64) as usize, stream.below64(height))
        }
    }
}

impl Height for u128 {
    #[inline(always)]
    fn draw(stream: &mut Stream, columns: usize, height: u128) -> (usize, u128) {
        (stream.below64(columns as u64) as usize, stream.below128(height))
    }
}

/// An exact sampler over outcomes `0..n`, its columns `H` high.
#[derive(Debug, Clone)]
pub struct Alias<H = u64> {
    /// Column height: the total weight.
    height: H,
    /// Every column, its keep and its alias side by side: a draw reads one of them.
    columns: Vec<Column<H>>,
}

/// One column of the table.
#[derive(Debug, Clone, Copy)]
struct Column<H> {
    /// The height below which the column keeps its own outcome.
    keep: H,
    /// The outcome the column hands the rest of its height to.
    alias: u32,
}

impl<H: Height> Alias<H> {
    /// The sampler for `weights` (at least one positive), or `None` when the total
    /// weight does not fit in `H`, `n` times a weight not in 128 bits, or there are
    /// more than 2^32 outcomes.
    pub fn new(weights: &[H]) -> Option<Self> {
        let n = weights.len();
        let total = weights.iter().try_fold(0u128, |acc, &w| acc.checked_add(w.into()))?;
        let height = H::try_from(total).ok()?;
        // In u64: a 32-bit `usize` (wasm32) cannot hold 2^32, and every length fits.
        if total == 0 || n as u64 > 1 << 32 {
            return None;
        }
        // Scaled weights n * w_i against columns of height W.
        let mut scaled: Vec<u128> = weights.iter().map(|&w| w.into().checked_mul(n as u128)).collect::<Option<_>>()?;
        let (mut small, mut large): (Vec<usize>, Vec<usize>) = (0..n).partition(|&i| scaled[i] < total);
        let mut columns: Vec<Column<H>> = (0..n as u32).map(|i| Column { keep: height, alias: i }).collect();
        while let (Some(&s), Some(&l)) = (small.last(), large.last()) {
            small.pop();
            // Column s keeps its own weight and takes the shortfall from l.
            columns[s] = Column { keep: H::try_from(scaled[s]).ok()?, alias: l as u32 };
            scaled[l] -= total - scaled[s];
            if scaled[l] < total {
                large.pop();
                small.push(l);
            }
        }
        // What is left is exactly full: scaled weights always sum to n * W.
        debug_assert!(small.iter().chain(&large).all(|&i| scaled[i] == total));
        Some(Alias { height, columns })
    }

    /// One outcome: a uniform column and a uniform height, each exactly uniform.
    #[inline(always)]
    pub fn sample(&self, stream: &mut Stream) -> usize {
        let (column, height) = H::draw(stream, self.columns.len(), self.height);
        // Which side of the column a draw lands on is a coin toss the branch predictor
        // cannot learn: choose without a branch.
        let Column { keep, alias } = self.columns[column];
        std::hint::select_unpredictable(height < keep, column, alias as usize)
    }

    /// The same table with 64-bit columns, where its height fits in them: the very
    /// columns a table built from the same weights as `u64` has.
    pub fn narrowed(&self) -> Option<Alias<u64>> {
        let narrow = |h: H| u64::try_from(h.into()).ok();
        let columns = self.columns.iter().map(|c| Some(Column { keep: narrow(c.keep)?, alias: c.alias }));
        Some(Alias { height: narrow(self.height)?, columns: columns.collect::<Option<_>>()? })
    }

    /// How many of the `n * W` (column, height) pairs each outcome owns: `n * w_i`
    /// when the table is right.
    #[cfg(test)]
    fn owned(&self) -> Vec<u128> {
        let mut owned = vec![0u128; self.columns.len()];
        for (column, &Column { keep, alias }) in self.columns.iter().enumerate() {
            owned[column] += keep.into();
            owned[alias as usize] += self.height.into() - keep.into();
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
    fn columns_of_128_bit_height_give_every_outcome_exactly_its_share() {
        // Weights of 2^70 and more, the size of a platoon-sized engagement's turn.
        let weights: [u128; 4] = [1 << 70, 3 << 70, (1 << 72) + 1, 7];
        let alias = Alias::new(&weights).expect("fits");
        let expected: Vec<u128> = weights.iter().map(|&w| w * 4).collect();
        assert_eq!(alias.owned(), expected);
    }

    #[test]
    fn a_table_narrowed_from_128_bits_draws_as_the_one_built_in_64() {
        // Compiled engagements build 128-bit tables and narrow them where they fit:
        // the draws must be those a 64-bit table of the same weights makes.
        let weights = [274_625u64, 237_375, 488_000, 3];
        let wide = Alias::new(&weights.map(u128::from)).expect("fits").narrowed().expect("narrows");
        let narrow = Alias::new(&weights).expect("fits");
        let (mut a, mut b) = (Stream::from_key(5), Stream::from_key(5));
        assert!((0..10_000).all(|_| wide.sample(&mut a) == narrow.sample(&mut b)));
        assert!(Alias::new(&[1u128 << 64, 1]).expect("fits").narrowed().is_none());
    }

    #[test]
    fn totals_past_64_bits_and_no_weight_are_refused() {
        assert!(Alias::<u64>::new(&[u64::MAX, 1]).is_none());
        assert!(Alias::<u64>::new(&[0, 0]).is_none());
        assert!(Alias::<u64>::new(&[]).is_none());
        // 128-bit columns: the total must fit, and the outcomes times each weight too.
        assert!(Alias::<u128>::new(&[u128::MAX, 1]).is_none());
        assert!(Alias::<u128>::new(&[1 << 127, 1]).is_none());
        assert!(Alias::<u128>::new(&[1 << 126, 1 << 126]).is_some());
    }

    /// Chi-square of 1,000,000 draws from `alias`, a table of weights in the ratio
    /// 1:2:3:4; 3 degrees of freedom, 0.999 quantile 16.27.
    fn chi_square_of_one_two_three_four<H: Height>(alias: &Alias<H>) -> f64 {
        let mut stream = Stream::from_key(11);
        let mut counts = [0f64; 4];
        (0..1_000_000).for_each(|_| counts[alias.sample(&mut stream)] += 1.0);
        counts.iter().zip(1..=4).map(|(c, w)| (c - f64::from(w) * 1e5).powi(2) / (f64::from(w) * 1e5)).sum()
    }

    #[test]
    fn samples_follow_the_weights() {
        let chi2 = chi_square_of_one_two_three_four(&Alias::new(&[1u64, 2, 3, 4]).expect("fits"));
        assert!(chi2 < 16.27, "chi-square {chi2}");
    }

    #[test]
    fn samples_of_128_bit_columns_follow_the_weights() {
        // 1:2:3:4 scaled by 2^90, so every height is drawn from 96 random bits.
        let weights = [1u128 << 90, 2 << 90, 3 << 90, 4 << 90];
        let chi2 = chi_square_of_one_two_three_four(&Alias::new(&weights).expect("fits"));
        assert!(chi2 < 16.27, "chi-square {chi2}");
    }
}
