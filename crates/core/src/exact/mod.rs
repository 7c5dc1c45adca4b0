//! Exact distributions over rule states: no sampling.
//!
//! A [`Dist`] holds integer weights over outcome states with one common total, so
//! every probability it gives is an exact [`Ratio`]. Rulesets build the distribution
//! of one resolution by composing dice: independent combination for dice rolled side
//! by side, conditional chaining for a roll that depends on an earlier one. Weights
//! are reduced by their common divisor after each step, and states merge in a hash
//! map as they arrive (a step may branch millions of times into a few thousand
//! states, and a state may be a whole field: hashing it once beats comparing it a
//! dozen times down a tree). They are 128-bit by default,
//! and a resolution too large for that reports [`TooLarge`] instead of a wrong
//! number; a resolution that chains dozens of rolls uses [`BigUint`] weights, which
//! never run out.

use std::borrow::Cow;
use std::hash::Hash;

use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{CheckedAdd, CheckedMul};
use rustc_hash::FxHashMap;

use crate::dice::{Die, Ratio};

/// The exact engine ran out of 128-bit range for this resolution.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("too many dice for exact enumeration in 128-bit weights")]
pub struct TooLarge;

/// An integer weight: `u128` (fast, may report [`TooLarge`]) or [`BigUint`] (never
/// overflows). Code generic over it runs in machine words where the weights fit and
/// is run again in big integers only where they do not.
pub trait Weight:
    Clone + Ord + Integer + CheckedAdd + CheckedMul + From<u32> + From<u128> + std::fmt::Debug + Send + Sync
{
    /// As an arbitrary-precision integer, for [`Ratio`].
    fn to_big(&self) -> BigUint;

    /// From an arbitrary-precision integer, or [`TooLarge`] past this weight's range.
    fn from_big(big: &BigUint) -> Result<Self, TooLarge>;

    /// A distribution weighed in `u128`, in this weight: borrowed where it already is,
    /// so a resolution worked out once in machine words serves either.
    fn of_machine<S: Ord + Clone>(dist: &Dist<S, u128>) -> Cow<'_, Dist<S, Self>>;
}

impl Weight for u128 {
    fn to_big(&self) -> BigUint {
        BigUint::from(*self)
    }

    fn from_big(big: &BigUint) -> Result<Self, TooLarge> {
        u128::try_from(big).map_err(|_| TooLarge)
    }

    fn of_machine<S: Ord + Clone>(dist: &Dist<S, u128>) -> Cow<'_, Dist<S, Self>> {
        Cow::Borrowed(dist)
    }
}

impl Weight for BigUint {
    fn to_big(&self) -> BigUint {
        self.clone()
    }

    fn from_big(big: &BigUint) -> Result<Self, TooLarge> {
        Ok(big.clone())
    }

    fn of_machine<S: Ord + Clone>(dist: &Dist<S, u128>) -> Cow<'_, Dist<S, Self>> {
        let weights = dist.weights.iter().map(|(s, w)| (s.clone(), BigUint::from(*w))).collect();
        Cow::Owned(Dist { weights, total: BigUint::from(dist.total) })
    }
}

/// Integer weights over states of type `S`, with a common total.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dist<S: Ord, W = u128> {
    /// Each state once, in state order: a sorted vector, not a tree, since a
    /// distribution is built once from merged states and then only read in order.
    weights: Vec<(S, W)>,
    total: W,
}

impl<S: Ord + Clone + Hash, W: Weight> Dist<S, W> {
    /// `s` with certainty.
    pub fn certain(s: S) -> Self {
        Dist { weights: vec![(s, W::one())], total: W::one() }
    }

    /// One roll of `die`, each face mapped to a state.
    pub fn roll(die: Die, face_state: impl Fn(u32) -> S) -> Self {
        Self::from_weights((1..=die.sides()).map(|face| (face_state(face), W::one()))).expect("one die's faces fit")
    }

    /// From (state, weight) pairs; equal states add up. At least one weight must be
    /// positive; a total past the weight's range is [`TooLarge`].
    pub fn from_weights(pairs: impl IntoIterator<Item = (S, W)>) -> Result<Self, TooLarge> {
        Self::from_checked(pairs.into_iter().map(Ok))
    }

    /// As [`Dist::from_weights`], from pairs whose weight may itself be out of range.
    /// Pairs merge as they arrive, so the work in hand is the distinct states, never
    /// every branch at once: a turn of a large field may branch millions of times.
    fn from_checked(pairs: impl IntoIterator<Item = Result<(S, W), TooLarge>>) -> Result<Self, TooLarge> {
        let mut weights: FxHashMap<S, W> = FxHashMap::default();
        let mut total = W::zero();
        for pair in pairs {
            let (s, w) = pair?;
            if !w.is_zero() {
                total = total.checked_add(&w).ok_or(TooLarge)?;
                let slot = weights.entry(s).or_insert_with(W::zero);
                *slot = std::mem::replace(slot, W::zero()) + w;
            }
        }
        assert!(!total.is_zero(), "a distribution needs some weight");
        Ok(Self::merged(weights, total))
    }

    /// The distribution of states merged in a hash map, in state order and reduced.
    fn merged(weights: FxHashMap<S, W>, total: W) -> Self {
        let mut weights: Vec<(S, W)> = weights.into_iter().collect();
        weights.sort_unstable_by(|(a, _), (b, _)| a.cmp(b));
        Dist { weights, total }.reduced()
    }

    /// Number of distinct states.
    pub fn len(&self) -> usize {
        self.weights.len()
    }

    /// Whether there are no states (never, for a built distribution).
    pub fn is_empty(&self) -> bool {
        self.weights.is_empty()
    }

    /// The common denominator.
    pub fn total(&self) -> &W {
        &self.total
    }

    /// (state, weight) pairs in state order.
    pub fn iter(&self) -> impl Iterator<Item = (&S, &W)> {
        self.weights.iter().map(|(s, w)| (s, w))
    }

    /// Relabel the states (merging states that map together).
    pub fn map<T: Ord + Clone + Hash>(&self, f: impl Fn(&S) -> T) -> Dist<T, W> {
        // Merged weights never exceed the existing total.
        Dist::from_weights(self.iter().map(|(s, w)| (f(s), w.clone()))).expect("relabelling keeps the total")
    }

    /// The same distribution in weights of type `V`, or [`TooLarge`] where a weight
    /// is past `V`'s range.
    pub fn to_weights<V: Weight>(&self) -> Result<Dist<S, V>, TooLarge> {
        let weights = self.iter().map(|(s, w)| Ok((s.clone(), V::from_big(&w.to_big())?))).collect::<Result<_, _>>()?;
        Ok(Dist { weights, total: V::from_big(&self.total.to_big())? })
    }

    /// P(pred(state)).
    pub fn probability(&self, pred: impl Fn(&S) -> bool) -> Ratio {
        let hit = self.iter().filter(|(s, _)| pred(s)).fold(W::zero(), |sum, (_, w)| sum + w.clone());
        Ratio::from_big(hit.to_big(), self.total.to_big())
    }

    /// The joint of two independent distributions, combined by `f`.
    pub fn combine<T: Ord + Clone + Hash, U: Ord + Clone + Hash>(
        &self,
        other: &Dist<T, W>,
        f: impl Fn(&S, &T) -> U,
    ) -> Result<Dist<U, W>, TooLarge> {
        let f = &f;
        Dist::from_checked(
            self.iter().flat_map(|(a, wa)| {
                other.iter().map(move |(b, wb)| Ok((f(a, b), wa.checked_mul(wb).ok_or(TooLarge)?)))
            }),
        )
    }

    /// `n` independent copies of `self` folded into `start` by `f`.
    pub fn fold_n<T: Ord + Clone + Hash>(
        &self,
        n: u32,
        start: Dist<T, W>,
        f: impl Fn(&T, &S) -> T,
    ) -> Result<Dist<T, W>, TooLarge> {
        (0..n).try_fold(start, |acc, _| acc.combine(self, &f))
    }

    /// Conditional chaining: for each state, the distribution of what follows it.
    pub fn then<T: Ord + Clone + Hash>(&self, next: impl Fn(&S) -> Dist<T, W>) -> Result<Dist<T, W>, TooLarge> {
        self.try_then(|s| Ok(next(s)))
    }

    /// As [`Dist::then`], giving up past `max_states` distinct states (see
    /// [`Dist::try_then_within`]).
    pub fn then_within<T: Ord + Clone + Hash>(
        &self,
        max_states: usize,
        next: impl Fn(&S) -> Dist<T, W>,
    ) -> Result<Dist<T, W>, TooLarge> {
        self.try_then_within(max_states, |s| Ok(next(s)))
    }

    /// Conditional chaining where a branch may itself be out of reach.
    pub fn try_then<T: Ord + Clone + Hash>(
        &self,
        next: impl Fn(&S) -> Result<Dist<T, W>, TooLarge>,
    ) -> Result<Dist<T, W>, TooLarge> {
        self.try_then_within(usize::MAX, next)
    }

    /// As [`Dist::try_then`], giving up as soon as more than `max_states` distinct
    /// states are in hand: the memory a step holds is bounded, not only its result.
    pub fn try_then_within<T: Ord + Clone + Hash>(
        &self,
        max_states: usize,
        next: impl Fn(&S) -> Result<Dist<T, W>, TooLarge>,
    ) -> Result<Dist<T, W>, TooLarge> {
        // Each branch is weighted by its parent over a common total of the branches
        // (the lcm of their totals), merged as it comes: a turn may branch millions of
        // times into a few thousand distinct states. When a branch's total grows the
        // common one, the weights merged so far are brought up to it.
        let mut weights: FxHashMap<T, W> = FxHashMap::default();
        let mut common = W::one();
        for (s, w) in self.iter() {
            let branch = next(s)?;
            let grown = lcm(&common, &branch.total)?;
            if grown != common {
                let factor = grown.clone() / common;
                for v in weights.values_mut() {
                    *v = v.checked_mul(&factor).ok_or(TooLarge)?;
                }
                common = grown;
            }
            let scale = w.checked_mul(&(common.clone() / branch.total)).ok_or(TooLarge)?;
            for (t, wt) in branch.weights {
                let wt = wt.checked_mul(&scale).ok_or(TooLarge)?;
                let slot = weights.entry(t).or_insert_with(W::zero);
                *slot = slot.checked_add(&wt).ok_or(TooLarge)?;
            }
            if weights.len() > max_states {
                return Err(TooLarge);
            }
        }
        // Every branch's weights sum to its parent's weight times the common total.
        let total = self.total.checked_mul(&common).ok_or(TooLarge)?;
        Ok(Dist::merged(weights, total))
    }

    /// Divides every weight and the total by their greatest common divisor, stopping
    /// as soon as that divisor is 1 (as it soon is for most distributions).
    fn reduced(mut self) -> Self {
        let mut g = self.total.clone();
        for (_, w) in &self.weights {
            if g.is_one() {
                return self;
            }
            g = g.gcd(w);
        }
        if !g.is_one() {
            self.weights.iter_mut().for_each(|(_, w)| *w = w.clone() / g.clone());
            self.total = self.total.clone() / g;
        }
        self
    }
}

/// Exact marginals of every measure: `index(state, out)` writes the outcome index of
/// each measure for a state (the same function the Monte Carlo tally uses), and
/// `layout[m]` is the number of outcomes of measure `m`.
pub fn marginals<S: Ord + Clone + Hash, W: Weight>(
    dist: &Dist<S, W>,
    layout: &[usize],
    index: impl Fn(&S, &mut [usize]),
) -> Vec<Vec<Ratio>> {
    let mut weights: Vec<Vec<W>> = layout.iter().map(|&n| vec![W::zero(); n]).collect();
    let mut out = vec![0; layout.len()];
    for (s, w) in dist.iter() {
        index(s, &mut out);
        for (m, &o) in out.iter().enumerate() {
            weights[m][o] = weights[m][o].clone() + w.clone();
        }
    }
    let total = dist.total().to_big();
    weights.into_iter().map(|ws| ws.into_iter().map(|w| Ratio::from_big(w.to_big(), total.clone())).collect()).collect()
}

fn lcm<W: Weight>(a: &W, b: &W) -> Result<W, TooLarge> {
    (a.clone() / a.gcd(b)).checked_mul(b).ok_or(TooLarge)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::{D6, D10};

    #[test]
    fn combining_two_dice_matches_the_convolution() {
        let one: Dist<i64> = Dist::roll(D6, |f| f as i64);
        let two = one.combine(&one, |a, b| a + b).unwrap();
        let conv = D6.sum_of(2);
        for v in 2..=12 {
            assert_eq!(two.probability(|&s| s == v), Ratio::new(conv.weight(v), 36), "sum {v}");
        }
    }

    #[test]
    fn chaining_weights_each_branch_by_its_parent() {
        // Roll a d10; on 1-3 roll a d6 and keep it, else score 0.
        // P(score = 6) = 3/10 * 1/6 = 1/20; P(score = 0) = 7/10.
        let first: Dist<bool> = Dist::roll(D10, |f| f <= 3);
        let score = first.then(|&go| if go { Dist::roll(D6, |f| f) } else { Dist::certain(0) }).unwrap();
        assert_eq!(score.probability(|&s| s == 6), Ratio::new(1, 20));
        assert_eq!(score.probability(|&s| s == 0), Ratio::new(7, 10));
        assert_eq!(score.probability(|_| true), Ratio::new(1, 1));
    }

    #[test]
    fn branches_of_different_totals_merge_over_their_common_total() {
        // A d10; on 1-3 a d6, else a d4 (the common total grows from 6 to 12 midway).
        // P(1) = 3/10 * 1/6 + 7/10 * 1/4 = 1/20 + 7/40 = 9/40; P(6) = 3/10 * 1/6 = 1/20.
        let first: Dist<bool> = Dist::roll(D10, |f| f <= 3);
        let score = first.then(|&six| Dist::roll(if six { D6 } else { Die::new(4) }, |f| f)).unwrap();
        assert_eq!(score.probability(|&s| s == 1), Ratio::new(9, 40));
        assert_eq!(score.probability(|&s| s == 6), Ratio::new(1, 20));
        assert_eq!(score.probability(|_| true), Ratio::new(1, 1));
    }

    #[test]
    fn chaining_gives_up_once_it_holds_more_states_than_allowed() {
        // A d10 then a d6 added to it: totals 2..=16, 15 distinct states.
        let first: Dist<u32> = Dist::roll(D10, |f| f);
        let sum = |&a: &u32| Dist::roll(D6, move |f| a + f);
        assert_eq!(first.then_within(15, sum).unwrap().len(), 15);
        assert_eq!(first.then_within(14, sum).unwrap_err(), TooLarge);
    }

    #[test]
    fn fold_counts_successes_binomially() {
        // Hits from 3 dice at 5-or-less on a d10: P(3 hits) = (1/2)^3 = 1/8.
        let die: Dist<u32> = Dist::roll(D10, |f| u32::from(f <= 5));
        let hits = die.fold_n(3, Dist::certain(0u32), |n, h| n + h).unwrap();
        assert_eq!(hits.probability(|&n| n == 3), Ratio::new(1, 8));
        assert_eq!(hits.probability(|&n| n == 1), Ratio::new(3, 8));
    }

    #[test]
    fn too_many_dice_is_reported_not_wrapped() {
        // 40 d100 give totals up to 100^40, far past u128: the engine must say so.
        let die: Dist<u32> = Dist::roll(Die::new(100), |f| f);
        assert_eq!(die.fold_n(40, Dist::certain(0u32), |a, b| (*a).max(*b)).unwrap_err(), TooLarge);
    }

    #[test]
    fn arbitrary_precision_weights_go_where_128_bits_stop() {
        // The same 40 d100 with BigUint weights: P(every die shows 1) = 100^-40.
        let die: Dist<u32, BigUint> = Dist::roll(Die::new(100), |f| f);
        let best = die.fold_n(40, Dist::certain(0u32), |a, b| (*a).max(*b)).unwrap();
        let all_hundreds = best.probability(|&m| m == 1);
        assert_eq!(all_hundreds, Ratio::from_big(BigUint::from(1u32), BigUint::from(100u32).pow(40)));
    }
}
