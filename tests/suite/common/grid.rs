//! The Monte Carlo against exact grids' method, shared by every ruleset's grid: each
//! case compiles through the real plan, runs a fixed number of trials at its own seed,
//! and tests every measure's counts against the exact distribution with Pearson's
//! chi-square. Outcomes expected under [`MIN_EXPECTED`] times are pooled (with a
//! Poisson test of the pool), outcomes of probability 0 are left out and asserted never
//! observed, and the family of tests is judged at a Bonferroni-corrected level.

use std::collections::BTreeSet;

use combat_odds_core::dice::Ratio;
use combat_odds_core::engine::Mode;
use combat_odds_report::export::Report;
use statrs::distribution::{ChiSquared, ContinuousCDF, DiscreteCDF, Poisson};

use super::{assert_sums_to_one, plan, plan_in};

/// The environment variable that selects the long statistical tier: set to `1`, every
/// grid runs its full trial count (CI does); unset, a tenth of it.
pub const LONG_GRIDS: &str = "COMBAT_ODDS_LONG_GRIDS";

/// Trials per case for a grid whose long-tier count is `full`: a plain `cargo test`
/// still holds every ruleset's Monte Carlo to its exact answer on every case, at a
/// tenth of the trials, so it stays quick; the long tier's power catches smaller
/// disagreements.
pub fn grid_trials(full: u64) -> u64 {
    if std::env::var_os(LONG_GRIDS).is_some_and(|v| v == "1") { full } else { full / 10 }
}

/// Outcomes expected fewer times than this are pooled before the chi-square test.
pub const MIN_EXPECTED: f64 = 5.0;

/// The body of a `[settings]` table from (setting, reading) pairs.
pub fn settings(pairs: &[(&str, &str)]) -> String {
    pairs.iter().map(|(k, v)| format!("{k} = \"{v}\"\n")).collect()
}

/// The test of one measure's counts.
#[derive(Debug)]
pub struct Fit {
    /// Pearson's statistic over the (pooled) cells.
    pub chi_square: f64,
    /// Its degrees of freedom.
    pub dof: u32,
    /// Its p-value.
    pub p_value: f64,
    /// When outcomes were pooled: the two-sided Poisson p-value of the pooled rare
    /// outcomes' total count, so a rare outcome seen far too often (or a likely-ish
    /// one never seen) is caught even where pooling hides it from the chi-square.
    pub rare_p_value: Option<f64>,
}

/// Pearson's chi-square over outcomes of positive probability, those expected under
/// [`MIN_EXPECTED`] times pooled into one cell (itself folded into the smallest other
/// cell if still under it), plus a Poisson test of the pooled cell.
pub fn pooled_fit(counts: &[u64], exact: &[Ratio]) -> Fit {
    let n: u64 = counts.iter().sum();
    let mut cells: Vec<(f64, f64)> = Vec::new();
    let mut rare: Option<(f64, u64)> = None;
    for (&observed, p) in counts.iter().zip(exact).filter(|(_, p)| !p.is_zero()) {
        let expected = p.to_f64() * n as f64;
        if expected < MIN_EXPECTED {
            let r = rare.get_or_insert((0.0, 0));
            r.0 += expected;
            r.1 += observed;
        } else {
            cells.push((expected, observed as f64));
        }
    }
    if let Some((expected, observed)) = rare {
        if expected < MIN_EXPECTED && !cells.is_empty() {
            let smallest = (0..cells.len()).min_by(|&a, &b| cells[a].0.total_cmp(&cells[b].0)).expect("some cell");
            cells[smallest].0 += expected;
            cells[smallest].1 += observed as f64;
        } else {
            cells.push((expected, observed as f64));
        }
    }
    let chi_square: f64 = cells.iter().map(|(e, o)| (o - e).powi(2) / e).sum();
    let dof = cells.len().saturating_sub(1) as u32;
    let p_value = if dof == 0 { 1.0 } else { ChiSquared::new(f64::from(dof)).unwrap().sf(chi_square) };
    let rare_p_value = rare.map(|(expected, observed)| {
        let poisson = Poisson::new(expected).unwrap();
        let at_least = if observed == 0 { 1.0 } else { poisson.sf(observed - 1) };
        (2.0 * poisson.cdf(observed).min(at_least)).min(1.0)
    });
    Fit { chi_square, dof, p_value, rare_p_value }
}

/// What a grid's cases add up to: every test (label, p-value), how many impossible
/// outcomes were checked, and which outcomes of the first measure some case reaches.
#[derive(Debug, Default)]
pub struct Family {
    /// (label, p-value).
    pub tests: Vec<(String, f64)>,
    /// Outcomes of probability 0 asserted unobserved.
    pub impossible: usize,
    /// Outcomes of each case's first measure with positive probability.
    pub reached: BTreeSet<String>,
}

impl Family {
    /// Runs one case of `trials` trials at `seed` on two threads, literal and (where
    /// the case compiles) compiled, and adds the tests of both against the exact
    /// distribution.
    pub fn run(&mut self, name: &str, text: &str, trials: u64, seed: u64) {
        self.run_in(Mode::Literal, name, text, trials, seed);
        if plan(name, text, 1, seed, 1).set_up.experiment.compiled().is_some() {
            self.run_in(Mode::Compiled, &format!("{name} [compiled]"), text, trials, seed);
        }
    }

    /// Runs one case in `mode` and adds its tests. Panics on a missing exact table, a
    /// distribution not summing to one, an impossible outcome observed, or (where
    /// nothing was pooled) a chi-square differing from the report's.
    fn run_in(&mut self, mode: Mode, name: &str, text: &str, trials: u64, seed: u64) {
        let p = plan_in(mode, name, text, trials, seed, 2);
        let experiment = p.set_up.experiment.as_ref();
        let measures = experiment.measures().to_vec();
        let exact = experiment.exact().unwrap_or_else(|| panic!("{name}: no exact distribution"));
        assert_sums_to_one(name, &measures, &exact);
        let report: Report = Report::of(p).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!((report.trials, report.mode), (trials, mode), "{name}");
        for (i, ((m, rows, agreement), (measure, row))) in
            report.all_measures().zip(measures.iter().zip(&exact)).enumerate()
        {
            assert_eq!(m, measure.name, "{name}: measure order");
            let agreement = agreement.unwrap_or_else(|| panic!("{name}: measure {m} has no agreement with exact"));
            let counts: Vec<u64> = rows.iter().map(|r| r.count).collect();
            assert_eq!(counts.iter().sum::<u64>(), trials, "{name} / {m}: counts");
            for ((r, p), label) in rows.iter().zip(row).zip(&measure.outcomes) {
                if p.is_zero() {
                    self.impossible += 1;
                    assert_eq!(r.count, 0, "{name} / {m}: outcome `{label}` has exact probability 0 but was observed");
                } else if i == 0 {
                    self.reached.insert(label.clone());
                }
            }
            let fit = pooled_fit(&counts, row);
            match fit.rare_p_value {
                None => assert!(
                    (agreement.chi_square - fit.chi_square).abs() <= 1e-9 * fit.chi_square.max(1.0)
                        && agreement.dof == fit.dof,
                    "{name} / {m}: the report's chi-square {agreement:?} differs from {fit:?}"
                ),
                Some(p_value) => self.tests.push((format!("{name} / {m} (pooled rare outcomes)"), p_value)),
            }
            self.tests.push((format!("{name} / {m}"), fit.p_value));
        }
    }

    /// Runs every case, the i-th at `seed + i`.
    pub fn run_all(cases: &[(String, String)], trials: u64, seed: u64) -> Self {
        let mut family = Family::default();
        for (i, (name, text)) in cases.iter().enumerate() {
            family.run(name, text, trials, seed + i as u64);
        }
        family
    }

    /// No test fails at the family-wise level `alpha` (Bonferroni over every test),
    /// and at least `impossible` zero-probability outcomes were checked.
    pub fn assert_agrees(&self, alpha: f64, impossible: usize) {
        assert!(self.impossible >= impossible, "only {} impossible outcomes were checked", self.impossible);
        let per_test = alpha / self.tests.len() as f64;
        let failures: Vec<_> = self.tests.iter().filter(|(_, p)| p.is_nan() || *p < per_test).collect();
        assert!(
            failures.is_empty(),
            "{} of {} tests disagree at alpha {per_test:.2e}: {failures:?}",
            failures.len(),
            self.tests.len()
        );
    }
}
