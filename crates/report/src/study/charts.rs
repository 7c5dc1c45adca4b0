//! The charts a study's results directory gets beside its frames, drawn from
//! `summary.json`'s counts alone, so `merge` draws exactly what one machine would have.
//! Every interval is [`interval`] of a count of trials out of all of them, the method
//! the frames and the footer name: a single outcome's count, or a running total of
//! outcomes (trials decided by turn N, units with at most k left), which counts trials
//! just as well.

use std::path::{Path, PathBuf};

use super::{MeasureCounts, Summary};
use crate::charts::{Footer, Point, Stack, bars_with_intervals, cumulative_probability, histogram, stacked_outcomes};
use crate::error::Result;
use combat_odds_core::stats::CONFIDENCE;
use combat_odds_core::stats::interval;

/// Writes the charts of `summary` into `dir` as PNG and SVG and returns their paths.
/// An engagement gets `winner` (each outcome with its 95% interval), `turns` (a
/// histogram of the turn of the decision, `undecided` included, each bin with its
/// interval), `decided_by_turn` (P(decided by turn N) against N, with its interval)
/// and `survivors` (one stacked bar per unit entry, segments by the number left, a
/// whisker at each edge); any other study gets `outcomes`, the first measure as one
/// stacked bar. The footer names the ruleset, seed, trials (and shard) and rules hash,
/// never the wall time, so equal counts draw equal files.
pub(crate) fn study_charts(dir: &Path, summary: &Summary) -> Result<Vec<PathBuf>> {
    let n = summary.trials;
    if n == 0 {
        return Ok(Vec::new());
    }
    let mut footer = Footer::new(summary.seed, n, &[&summary.rules_hash]);
    footer.0 = match summary.shard {
        Some(shard) => format!("{}, shard {shard}: {}", summary.ruleset, footer.0),
        None => format!("{}: {}", summary.ruleset, footer.0),
    };
    let footer = footer.invented(!summary.invented.is_empty());
    let scenario = &summary.scenario;
    let named = |name: &str| summary.measures.iter().find(|m| m.name == name);
    let survivors: Vec<&MeasureCounts> = summary.measures.iter().filter(|m| m.name.starts_with("survivors_")).collect();

    let mut written = Vec::new();
    if let Some(winner) = named("winner") {
        let bars: Vec<(String, Point)> = winner
            .outcomes
            .iter()
            .zip(&winner.counts)
            .enumerate()
            .map(|(k, (o, &c))| (o.clone(), share(k as f64, c, n)))
            .collect();
        let title = format!("Who wins: {scenario}");
        written.extend(bars_with_intervals(&dir.join("winner"), &title, "probability", &bars, &footer)?);
    }
    if let Some(turns) = named("turns") {
        let title = format!("Turn of the decision: {scenario}");
        let x_label = "game turn when one side won or broke (undecided: the turn limit came first)";
        let bins: Vec<(String, Point)> =
            turns.outcomes.iter().zip(&turns.counts).map(|(o, &c)| (o.clone(), share(0.0, c, n))).collect();
        written.extend(histogram(&dir.join("turns"), &title, x_label, &bins, &footer)?);
        let decided = decided_by_turn(turns, n);
        if !decided.is_empty() {
            let title = format!("Decided by turn N: {scenario}");
            let x_label = "game turn N (the rest are undecided at the turn limit)";
            let label = "P(decided by turn N)";
            written.extend(cumulative_probability(
                &dir.join("decided_by_turn"),
                &title,
                x_label,
                "turn",
                label,
                &decided,
                &footer,
            )?);
        }
    }
    if !survivors.is_empty() {
        let bars: Vec<Stack> = survivors
            .iter()
            .map(|m| {
                let mut stack = stack(m, n);
                stack.label = m.name.trim_start_matches("survivors_").replace('_', " ");
                stack.segments.iter_mut().for_each(|(o, _)| *o = format!("{o} left"));
                stack
            })
            .collect();
        let title = format!("Units left at the end: {scenario}");
        written.extend(stacked_outcomes(&dir.join("survivors"), &title, &bars, &footer)?);
    }
    if written.is_empty()
        && let Some(first) = summary.measures.first()
    {
        let title = format!("{}: {scenario}", first.name.replace('_', " "));
        let bars = vec![stack(first, n)];
        written.extend(stacked_outcomes(&dir.join("outcomes"), &title, &bars, &footer)?);
    }
    Ok(written)
}

/// P(decided by turn N) for each numbered turn N of the `turns` measure, in order of N:
/// the trials decided on turn N or before (a count of trials like any other), with its
/// interval. `undecided` and any other unnumbered outcome are never counted. Empty when
/// no outcome is a number.
fn decided_by_turn(turns: &MeasureCounts, trials: u64) -> Vec<Point> {
    let mut numbered: Vec<(f64, u64)> = turns
        .outcomes
        .iter()
        .zip(&turns.counts)
        .filter_map(|(o, &c)| o.trim().parse::<f64>().ok().filter(|t| t.is_finite()).map(|t| (t, c)))
        .collect();
    numbered.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut running = 0;
    numbered
        .into_iter()
        .map(|(turn, count)| {
            running += count;
            share(turn, running, trials)
        })
        .collect()
}

/// The share of `trials` that `count` is, with its interval, at `x`.
fn share(x: f64, count: u64, trials: u64) -> Point {
    let e = interval(count, trials, CONFIDENCE);
    Point { x, p: e.estimate, low: e.low, high: e.high }
}

/// One measure as a stacked bar: each outcome's share, and at each segment's top edge
/// the interval of the running count up to it. Where the running count is every trial
/// (the last edge of a measure every trial lands in) the edge is certain: no whisker.
fn stack(m: &MeasureCounts, trials: u64) -> Stack {
    let mut running = 0;
    let mut tops = Vec::with_capacity(m.counts.len());
    for &c in &m.counts {
        running += c;
        tops.push(match running >= trials {
            true => (1.0, 1.0),
            false => {
                let e = interval(running, trials, CONFIDENCE);
                (e.low, e.high)
            }
        });
    }
    Stack {
        label: m.name.replace('_', " "),
        segments: m.outcomes.iter().zip(&m.counts).map(|(o, &c)| (o.clone(), c as f64 / trials as f64)).collect(),
        tops,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn turns(outcomes: &[&str], counts: &[u64]) -> MeasureCounts {
        MeasureCounts {
            name: "turns".into(),
            outcomes: outcomes.iter().map(|o| o.to_string()).collect(),
            counts: counts.to_vec(),
            exact: None,
        }
    }

    #[test]
    fn decided_by_turn_counts_each_turn_and_every_one_before_it_but_never_undecided() {
        // 100 trials: 50 on turn 1, 30 on turn 2, 0 on turn 3, 15 on turn 4, 5 undecided.
        // Running counts 50, 80, 80, 95 of 100; the outcomes come unordered on purpose.
        let m = turns(&["2", "undecided", "1", "4", "3"], &[30, 5, 50, 15, 0]);
        let decided = decided_by_turn(&m, 100);
        let xs: Vec<f64> = decided.iter().map(|p| p.x).collect();
        let ps: Vec<f64> = decided.iter().map(|p| p.p).collect();
        assert_eq!(xs, [1.0, 2.0, 3.0, 4.0]);
        assert_eq!(ps, [0.5, 0.8, 0.8, 0.95]);
        // Each interval is the project's interval of the running count.
        let e = interval(80, 100, CONFIDENCE);
        assert_eq!((decided[1].low, decided[1].high), (e.low, e.high));
        assert_eq!(decided[2], Point { x: 3.0, ..decided[1] });
    }

    #[test]
    fn a_stacks_edges_carry_the_running_counts_intervals_and_the_last_is_certain() {
        // 200 trials: 60 with 0 left, 140 with 1 left. The first edge is 60 of 200; the
        // last is all 200, certain.
        let m = MeasureCounts {
            name: "survivors_panther".into(),
            outcomes: vec!["0".into(), "1".into()],
            counts: vec![60, 140],
            exact: None,
        };
        let s = stack(&m, 200);
        let e = interval(60, 200, CONFIDENCE);
        assert_eq!(s.tops, vec![(e.low, e.high), (1.0, 1.0)]);
        assert_eq!(s.segments, vec![("0".to_string(), 0.3), ("1".to_string(), 0.7)]);
    }
}
