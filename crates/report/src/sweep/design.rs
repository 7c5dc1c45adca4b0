//! Which points of the parameter space a sweep answers: every combination (full
//! factorial), or for many parameters a nearly orthogonal Latin hypercube (as data
//! farming does): n points, each parameter's levels spread evenly over them, the
//! columns' pairwise correlation as small as a seeded search over shuffles finds.

use rand::seq::SliceRandom;
use serde::{Deserialize, Serialize};

use combat_odds_core::streams::Stream;

/// How the points are chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Design {
    /// Every combination of every parameter's values.
    FullFactorial,
    /// This many points of a nearly orthogonal Latin hypercube.
    LatinHypercube(usize),
}

/// Shuffles tried in search of the least correlated hypercube.
const CANDIDATES: usize = 256;

impl Design {
    /// The points, as one level index per parameter (`levels[p]` values each).
    pub fn points(self, levels: &[usize], seed: u64) -> Vec<Vec<usize>> {
        match self {
            Design::FullFactorial => factorial(levels),
            Design::LatinHypercube(n) => hypercube(levels, n, seed),
        }
    }

    /// How many points it has.
    pub fn size(self, levels: &[usize]) -> usize {
        match self {
            Design::FullFactorial => levels.iter().product(),
            Design::LatinHypercube(n) => n,
        }
    }
}

/// Every combination, the first parameter changing slowest.
fn factorial(levels: &[usize]) -> Vec<Vec<usize>> {
    levels.iter().fold(vec![Vec::new()], |points, &n| {
        points.into_iter().flat_map(|p| (0..n).map(move |i| [p.clone(), vec![i]].concat())).collect()
    })
}

/// `n` points: in each column, row i takes the level its rank falls in, the ranks a
/// shuffle of 0..n, so every level is used as evenly as n allows. Of [`CANDIDATES`]
/// seeded shuffles, the one whose largest pairwise column correlation is smallest.
fn hypercube(levels: &[usize], n: usize, seed: u64) -> Vec<Vec<usize>> {
    // Its own stream: the design never shares random numbers with the trials.
    let mut stream = Stream::from_key(seed ^ 0x6c68_735f_6465_7369);
    let column = |stream: &mut Stream, l: usize| {
        let mut ranks: Vec<usize> = (0..n).collect();
        ranks.shuffle(stream);
        ranks.into_iter().map(|r| (r * l) / n).collect::<Vec<usize>>()
    };
    let mut best: Option<(f64, Vec<Vec<usize>>)> = None;
    for _ in 0..CANDIDATES {
        let columns: Vec<Vec<usize>> = levels.iter().map(|&l| column(&mut stream, l)).collect();
        let worst = worst_correlation(&columns);
        if best.as_ref().is_none_or(|(w, _)| worst < *w) {
            best = Some((worst, columns));
        }
    }
    let columns = best.map(|(_, c)| c).unwrap_or_default();
    (0..n).map(|i| columns.iter().map(|c| c[i]).collect()).collect()
}

/// The largest |Pearson correlation| between two columns (0 for a lone column, and for
/// a column that never varies).
fn worst_correlation(columns: &[Vec<usize>]) -> f64 {
    let mut worst = 0.0_f64;
    for (i, a) in columns.iter().enumerate() {
        for b in &columns[i + 1..] {
            worst = worst.max(correlation(a, b).abs());
        }
    }
    worst
}

fn correlation(a: &[usize], b: &[usize]) -> f64 {
    let n = a.len() as f64;
    let mean = |v: &[usize]| v.iter().sum::<usize>() as f64 / n;
    let (ma, mb) = (mean(a), mean(b));
    let (mut ab, mut aa, mut bb) = (0.0, 0.0, 0.0);
    for (&x, &y) in a.iter().zip(b) {
        let (dx, dy) = (x as f64 - ma, y as f64 - mb);
        ab += dx * dy;
        aa += dx * dx;
        bb += dy * dy;
    }
    if aa == 0.0 || bb == 0.0 { 0.0 } else { ab / (aa * bb).sqrt() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_factorial_design_holds_every_combination_the_first_parameter_slowest() {
        assert_eq!(factorial(&[2, 3]), [[0, 0], [0, 1], [0, 2], [1, 0], [1, 1], [1, 2]]);
    }

    #[test]
    fn a_hypercube_uses_every_level_evenly_and_is_nearly_orthogonal() {
        let points = Design::LatinHypercube(12).points(&[4, 3, 6], 7);
        assert_eq!(points.len(), 12);
        for (p, levels) in [4, 3, 6].into_iter().enumerate() {
            // 12 points over 4 levels: each level 3 times; over 3: 4 times; over 6: twice.
            let mut counts = vec![0; levels];
            points.iter().for_each(|point| counts[point[p]] += 1);
            assert!(counts.iter().all(|&c| c == 12 / levels), "{counts:?}");
        }
        let columns: Vec<Vec<usize>> = (0..3).map(|p| points.iter().map(|x| x[p]).collect()).collect();
        assert!(worst_correlation(&columns) < 0.3, "{}", worst_correlation(&columns));
        assert_eq!(points, Design::LatinHypercube(12).points(&[4, 3, 6], 7), "the same seed, the same design");
    }
}
