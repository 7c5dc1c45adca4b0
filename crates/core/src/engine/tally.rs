//! Outcome counts of many trials, merged associatively.

/// Counts of each outcome of each measure, plus the number of trials.
///
/// `Tally::new(layout)` is the identity of [`Tally::merge`], and merging is plain
/// integer addition, so any grouping of chunks gives the same counts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tally {
    trials: u64,
    offsets: Vec<usize>,
    counts: Vec<u64>,
}

impl Tally {
    /// An empty tally for measures with `layout[i]` outcomes each.
    pub fn new(layout: &[usize]) -> Self {
        let mut offsets = Vec::with_capacity(layout.len());
        let mut end = 0;
        for &n in layout {
            offsets.push(end);
            end += n;
        }
        Tally { trials: 0, offsets, counts: vec![0; end] }
    }

    /// A tally from its counts, measure by measure (as a results file stores them);
    /// `None` when a measure's counts do not add up to `trials` or the shapes differ.
    /// The sum is checked, not wrapped: counts edited to pass 2^64 would otherwise wrap
    /// round to `trials` and be taken for a run's.
    pub fn from_counts(layout: &[usize], trials: u64, counts: &[Vec<u64>]) -> Option<Self> {
        let mut t = Tally::new(layout);
        if counts.len() != layout.len() {
            return None;
        }
        for (m, c) in counts.iter().enumerate() {
            if c.len() != layout[m] || c.iter().try_fold(0u64, |sum, &n| sum.checked_add(n)) != Some(trials) {
                return None;
            }
            t.counts[t.offsets[m]..t.offsets[m] + c.len()].copy_from_slice(c);
        }
        t.trials = trials;
        Some(t)
    }

    /// Record one trial: `outcome[i]` is the outcome index of measure `i`.
    #[inline]
    pub fn record(&mut self, outcome: &[usize]) {
        self.record_n(outcome, 1);
    }

    /// Record `n` trials that all ended in `outcome`.
    #[inline]
    pub(crate) fn record_n(&mut self, outcome: &[usize], n: u64) {
        debug_assert_eq!(outcome.len(), self.offsets.len());
        self.trials += n;
        for (&offset, &o) in self.offsets.iter().zip(outcome) {
            self.counts[offset + o] += n;
        }
    }

    /// Number of measures.
    pub fn measures(&self) -> usize {
        self.offsets.len()
    }

    /// Add another tally of the same layout.
    pub fn merge(mut self, other: Tally) -> Tally {
        assert_eq!(self.offsets, other.offsets, "tallies of different layouts");
        self.trials += other.trials;
        self.counts.iter_mut().zip(&other.counts).for_each(|(a, b)| *a += b);
        self
    }

    /// Trials recorded.
    pub fn trials(&self) -> u64 {
        self.trials
    }

    /// Counts of measure `m`, one per outcome.
    pub fn counts(&self, m: usize) -> &[u64] {
        let end = self.offsets.get(m + 1).copied().unwrap_or(self.counts.len());
        &self.counts[self.offsets[m]..end]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(trials: &[[usize; 2]]) -> Tally {
        let mut t = Tally::new(&[3, 2]);
        trials.iter().for_each(|o| t.record(o));
        t
    }

    #[test]
    fn merging_parts_equals_one_pass_in_any_grouping() {
        let all = [[0, 1], [2, 0], [2, 1], [1, 1], [0, 0]];
        let one_pass = sample(&all);
        let (a, b, c) = (sample(&all[..2]), sample(&all[2..3]), sample(&all[3..]));
        assert_eq!(a.clone().merge(b.clone()).merge(c.clone()), one_pass);
        assert_eq!(a.merge(b.merge(c)), one_pass);
        assert_eq!(one_pass.clone().merge(Tally::new(&[3, 2])), one_pass);
        assert_eq!(one_pass.counts(0), &[2, 1, 2]);
        assert_eq!(one_pass.counts(1), &[2, 3]);
        assert_eq!(one_pass.trials(), 5);
    }
}
