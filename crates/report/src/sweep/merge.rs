//! A sweep split into shards (on a cluster's job array) added up into the sweep one
//! machine writes: every shard checked against the others, each point's counts summed.

use std::path::PathBuf;

use super::spool::Points;
use super::{FORMAT, MAX_POINTS, PointResult, PointSummary, SweepResult, SweepSummary};
use crate::error::{Error, Result};
use crate::study::StudyResult;

impl SweepResult {
    /// Adds up the directories of one sweep's shards into the sweep one machine writes.
    /// Shards of another sweep, seed, trial count, split, sampling mode or tables are
    /// refused, as are a shard given twice, a missing one, and a `sweep.json` whose
    /// shard or points cannot be (an edited or damaged file): each naming the files.
    pub fn merge(parts: Vec<(PathBuf, SweepSummary)>) -> Result<Self> {
        let Some((first_dir, first)) = parts.first().cloned() else {
            return Err(Error::Results("merge needs at least one sweep directory".into()));
        };
        let first_file = first_dir.join("sweep.json").display().to_string();
        let count = first.shard.map_or(1, |s| s.count);
        let mut seen = std::collections::BTreeSet::new();
        // The tables of every ruleset met so far, with the file that first showed them.
        let mut tables: Vec<(String, String, String)> = Vec::new();
        let results = Points::new()?;
        for (dir, s) in &parts {
            let file = dir.join("sweep.json").display().to_string();
            let differs = |what: &str, a: &dyn std::fmt::Display, b: &dyn std::fmt::Display| {
                Error::input(
                    file.clone(),
                    format!(
                        "{what} {a} differs from {b} in {first_file}: only the shards K/{count} of one sweep merge"
                    ),
                )
            };
            if s.format != FORMAT {
                return Err(Error::input(
                    file.clone(),
                    format!("sweep results format {} is not {FORMAT}; re-run that shard with this version", s.format),
                ));
            }
            if s.sweep_hash != first.sweep_hash {
                return Err(differs("sweep (text hash)", &s.sweep_hash, &first.sweep_hash));
            }
            if s.seed != first.seed {
                return Err(differs("seed", &s.seed, &first.seed));
            }
            if s.trials != first.trials {
                return Err(differs("trials", &s.trials, &first.trials));
            }
            if s.mode != first.mode {
                return Err(differs("sampling mode", &s.mode.name(), &first.mode.name()));
            }
            if s.split != first.split {
                return Err(differs("split", &s.split, &first.split));
            }
            let damaged = |what: String| {
                Error::input(file.clone(), format!("{what}; the file was edited or damaged: re-run that shard"))
            };
            let Some(shard) = s.shard else {
                return Err(Error::input(
                    file.clone(),
                    "a whole sweep, not a shard: merge the directories of one sweep's shards K/N",
                ));
            };
            if shard.count != count {
                return Err(differs("shard count", &shard.count, &count));
            }
            if !(1..=shard.count).contains(&shard.index) {
                return Err(damaged(format!("shard {}/{} is not K/N with 1 <= K <= N", shard.index, shard.count)));
            }
            if s.split == 0 || s.points == 0 || s.points > MAX_POINTS || s.parameters.is_empty() {
                return Err(damaged(format!(
                    "{} point(s) split {} way(s) over {} parameter(s) is no sweep",
                    s.points,
                    s.split,
                    s.parameters.len()
                )));
            }
            if !seen.insert(shard.index) {
                return Err(Error::input(file.clone(), format!("shard {shard} is given twice")));
            }
            let mut tasks = std::collections::BTreeSet::new();
            for r in &s.results {
                let part = r.summary.shard.map_or(1, |p| p.index);
                // Part 0 (a damaged file) has no task: refused below, never wrapped round.
                let task = (r.index as u64).checked_mul(s.split).and_then(|t| t.checked_add(part.checked_sub(1)?));
                let mine = task.is_some_and(|t| t % count == shard.index - 1);
                let whole_or_part = match r.summary.shard {
                    None => s.split == 1,
                    Some(p) => s.split > 1 && p.count == s.split && (1..=p.count).contains(&p.index),
                };
                if r.index >= s.points || r.values.len() != s.parameters.len() || !whole_or_part || !mine {
                    return Err(damaged(format!(
                        "point {} is not one of shard {shard}'s {} point(s)",
                        r.index.saturating_add(1),
                        s.points
                    )));
                }
                if !tasks.insert(task) {
                    return Err(damaged(format!("point {} is there twice", r.index + 1)));
                }
                let point = &r.summary;
                let (km, ko) = point.kill;
                if point.measures.get(km).is_none_or(|m| ko >= m.outcomes.len()) {
                    return Err(damaged(format!("point {} names no measure's outcome as its kill", r.index + 1)));
                }
                if point.seed != s.seed || point.trials_requested != s.trials {
                    return Err(damaged(format!(
                        "point {} ran {} trials on seed {}, not the sweep's {} on seed {}",
                        r.index + 1,
                        point.trials_requested,
                        point.seed,
                        s.trials,
                        s.seed
                    )));
                }
                match tables.iter().find(|(ruleset, ..)| *ruleset == point.ruleset) {
                    Some((ruleset, hash, seen_in)) if *hash != point.rules_hash => {
                        return Err(Error::input(
                            file.clone(),
                            format!(
                                "{ruleset} tables (rules hash {}) differ from those (rules hash {hash}) in {seen_in}: only shards run on the same tables merge",
                                point.rules_hash
                            ),
                        ));
                    }
                    Some(_) => {}
                    None => tables.push((point.ruleset.clone(), point.rules_hash.clone(), file.clone())),
                }
            }
            s.results.iter().try_for_each(|r| results.push(r))?;
        }
        crate::study::all_shards(&seen, count)?;
        let wall_time_s = parts.iter().map(|(_, s)| s.wall_time_s).sum();
        let summary = SweepSummary { shard: None, wall_time_s, ..first }.over(results);
        let merged = Self::assemble(summary)?;
        if merged.points.len() != merged.summary.points {
            return Err(Error::Results(format!(
                "{} of the sweep's {} points are missing: merge needs every shard's directory",
                merged.summary.points - merged.points.len(),
                merged.summary.points
            )));
        }
        Ok(merged)
    }

    /// Every point whose tasks `summary` holds all of, each merged from its parts (as
    /// `merge` adds up a run's shards), in design order; a point with parts missing
    /// (in a shard's directory) stays as its parts, for `merge` to add up.
    pub(super) fn assemble(summary: SweepSummary<Points>) -> Result<Self> {
        let held = &summary.results;
        held.order();
        let keys = held.keys();
        // Positions in `held` to keep, in order: a merged point is pushed at its end.
        let mut kept = Vec::with_capacity(keys.len());
        let mut points = Vec::new();
        let mut k = 0;
        while k < keys.len() {
            let index = keys[k].0;
            let group = k..k + keys[k..].iter().take_while(|(i, _)| *i == index).count();
            k = group.end;
            let whole = match (group.len(), keys[group.start].1) {
                (1, 0) => Some((StudyResult::from_summary(&held.get(group.start)?.summary)?, group.start)),
                (n, _) if n == summary.split as usize => {
                    let label = PathBuf::from(format!("point {}", index + 1));
                    let parts =
                        group.clone().map(|g| Ok((label.clone(), held.get(g)?.summary))).collect::<Result<_>>()?;
                    let merged = StudyResult::merge(parts)?;
                    let values = held.get(group.start)?.values;
                    held.push(&PointSummary { index, values, summary: merged.summary.clone() })?;
                    Some((merged, held.len() - 1))
                }
                _ => None,
            };
            match whole {
                Some((result, at)) => {
                    let report = result.report;
                    let values = held.get(at)?.values;
                    points.push(PointResult { index, values, p_kill: report.p_kill, invented: report.invented });
                    kept.push(at);
                }
                None => kept.extend(group),
            }
        }
        held.keep(&kept);
        Ok(SweepResult { summary, points })
    }
}
