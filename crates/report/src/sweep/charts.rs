//! The chart of a sweep's `p_kill` (or the first side's win, for an engagement): a
//! line with its interval band against a numeric parameter, bars for a parameter of
//! names, a heat map over two parameters, and small multiples beyond (a line per value
//! of the last parameter, a panel per combination of those between). A Latin
//! hypercube's points fill no grid, so its answer is the frame alone.

use std::path::Path;

use toml::Value;

use super::{SweepResult, label, number};
use crate::charts::{self, Footer, Panel, Point, Series};
use crate::error::Result;

/// The most panels of small multiples; past this the frame alone answers.
const MAX_PANELS: usize = 16;

/// Draws `sweep.png` and `sweep.svg` into `dir`, where the design makes a picture.
pub(super) fn draw(dir: &Path, sweep: &SweepResult) -> Result<()> {
    let s = &sweep.summary;
    if s.design != super::Design::FullFactorial || sweep.points.is_empty() {
        return Ok(());
    }
    let first = &sweep.points[0].p_kill;
    let kill = format!("P({} = {})", first.measure, first.outcome);
    let title = format!("{}: {kill}", s.name);
    let first_rules = s.results.get(0)?.summary.rules_hash;
    let footer = Footer::new(s.seed, s.trials, &[first_rules.as_str()]).invented(!sweep.invented().is_empty());
    let stem = dir.join("sweep");
    let point = |i: usize, x: f64| {
        let k = &sweep.points[i].p_kill.odds;
        let p = k.exact.unwrap_or(k.estimate);
        // An exact value has no interval.
        let (low, high) = if k.exact.is_some() { (p, p) } else { (k.ci_low, k.ci_high) };
        Point { x, p, low, high }
    };
    let parameters = &s.parameters;
    let numeric = |values: &[Value]| values.iter().all(|v| number(v).is_some());
    match parameters.len() {
        1 if numeric(&parameters[0].values) => {
            let points = (0..sweep.points.len()).map(|i| point(i, number(&sweep.points[i].values[0]).unwrap_or(0.0)));
            let series = Series { label: kill.clone(), points: points.collect() };
            charts::probability_vs_range(
                &stem,
                &title,
                &parameters[0].key,
                &[Panel { title: String::new(), series: vec![series] }],
                &footer,
            )?;
        }
        1 => {
            let bars: Vec<(String, Point)> =
                (0..sweep.points.len()).map(|i| (label(&sweep.points[i].values[0]), point(i, 0.0))).collect();
            charts::bars_with_intervals(&stem, &title, &kill, &bars, &footer)?;
        }
        2 => {
            let columns: Vec<String> = parameters[0].values.iter().map(label).collect();
            let rows: Vec<String> = parameters[1].values.iter().map(label).collect();
            let mut cells = vec![vec![None; columns.len()]; rows.len()];
            for (i, p) in sweep.points.iter().enumerate() {
                let (c, r) =
                    (index_of(&parameters[0].values, &p.values[0]), index_of(&parameters[1].values, &p.values[1]));
                cells[r][c] = Some(point(i, 0.0).p);
            }
            charts::heat_map(
                &stem,
                &title,
                (&parameters[0].key, &columns),
                (&parameters[1].key, &rows),
                &cells,
                &footer,
            )?;
        }
        _ if numeric(&parameters[0].values) => {
            // A panel per value of the middle parameters, a line per value of the last.
            let mut panels: Vec<Panel> = Vec::new();
            for (i, p) in sweep.points.iter().enumerate() {
                let named: Vec<String> = parameters[1..]
                    .iter()
                    .zip(&p.values[1..])
                    .map(|(q, v)| format!("{} = {}", q.key, label(v)))
                    .collect();
                let (line, panel) = named.split_last().expect("three parameters or more");
                let (title, x) = (panel.join(", "), number(&p.values[0]).unwrap_or(0.0));
                let at = match panels.iter().position(|q| q.title == title) {
                    Some(at) => at,
                    None => {
                        panels.push(Panel { title, series: Vec::new() });
                        panels.len() - 1
                    }
                };
                let series = &mut panels[at].series;
                match series.iter_mut().find(|s| s.label == *line) {
                    Some(s) => s.points.push(point(i, x)),
                    None => series.push(Series { label: line.clone(), points: vec![point(i, x)] }),
                }
            }
            if panels.len() <= MAX_PANELS {
                charts::probability_vs_range(&stem, &title, &parameters[0].key, &panels, &footer)?;
            }
        }
        _ => {}
    }
    Ok(())
}

fn index_of(values: &[Value], v: &Value) -> usize {
    values.iter().position(|x| x == v).unwrap_or(0)
}
