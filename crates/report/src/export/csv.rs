//! A report as CSV, written as polars writes a frame with its defaults (a header, `,`
//! between fields and `\n` after each row, a field quoted only where a `,`, a quote or
//! a line break is in it or it is empty, an empty field where there is no value, whole
//! numbers as they are and the others at their shortest exact text), but without polars:
//! so the browser's engine, which has none, writes the very bytes `fire --format csv`
//! prints, and the CLI prints them through the same code.

use super::{Report, Row};

/// One field of a row.
enum Field<'a> {
    Text(&'a str),
    Whole(u64),
    Number(f64),
    Missing,
}

impl Field<'_> {
    fn write(&self, out: &mut String) {
        match *self {
            Field::Text(text) => quoted(text, out),
            Field::Whole(n) => out.push_str(&n.to_string()),
            // zmij, the shortest text that reads back as the same number: what polars
            // writes (and serde_json), `0.6636`, `1e-7`.
            Field::Number(x) => out.push_str(zmij::Buffer::new().format(x)),
            Field::Missing => {}
        }
    }
}

/// `text` as one field: in quotes (each quote doubled) where it holds a `,`, a quote or
/// a line break, and where it is empty (an empty field is a missing value).
fn quoted(text: &str, out: &mut String) {
    if !text.is_empty() && !text.contains([',', '"', '\n', '\r']) {
        out.push_str(text);
        return;
    }
    out.push('"');
    out.push_str(&text.replace('"', "\"\""));
    out.push('"');
}

/// The columns of a report's CSV: where each row came from, so rows of several runs can
/// be stacked, then its measure and its outcome's numbers.
const COLUMNS: [&str; 14] = [
    "ruleset",
    "scenario",
    "seed",
    "trials",
    "mode",
    "rules_hash",
    "measure",
    "outcome",
    "exact",
    "exact_fraction",
    "estimate",
    "ci_low",
    "ci_high",
    "count",
];

/// Every (measure, outcome) of `report`, one row each, under a header.
pub(super) fn report(report: &Report) -> String {
    let mut out = COLUMNS.join(",") + "\n";
    for (measure, rows, _) in report.all_measures() {
        for Row { outcome, exact, exact_fraction, estimate, ci_low, ci_high, count } in rows {
            let fields = [
                Field::Text(&report.ruleset),
                Field::Text(&report.scenario),
                Field::Whole(report.seed),
                Field::Whole(report.trials),
                Field::Text(report.mode.name()),
                Field::Text(&report.rules_hash),
                Field::Text(measure),
                Field::Text(outcome),
                exact.map_or(Field::Missing, Field::Number),
                exact_fraction.as_deref().map_or(Field::Missing, Field::Text),
                Field::Number(*estimate),
                Field::Number(*ci_low),
                Field::Number(*ci_high),
                Field::Whole(*count),
            ];
            for (i, field) in fields.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                field.write(&mut out);
            }
            out.push('\n');
        }
    }
    out
}

#[cfg(all(test, feature = "files"))]
mod tests {
    use polars::prelude::*;

    use super::super::frames;
    use crate::export::Report;
    use combat_odds_core::document::Document;
    use combat_odds_core::engine::{Mode, MonteCarlo};
    use combat_odds_rules::{Scenario, defaults};

    /// The report as polars writes it, as `fire --format csv` printed it before this
    /// module wrote it.
    fn through_polars(report: &Report) -> String {
        let (mut measure, mut rows) = (Vec::new(), Vec::new());
        for (m, rs, _) in report.all_measures() {
            measure.extend(std::iter::repeat_n(m.to_string(), rs.len()));
            rows.extend(rs.iter().cloned());
        }
        let n = rows.len();
        let mut frame = DataFrame::new_infer_height(vec![
            Column::new("ruleset".into(), vec![report.ruleset.clone(); n]),
            Column::new("scenario".into(), vec![report.scenario.clone(); n]),
            Column::new("seed".into(), vec![report.seed; n]),
            Column::new("trials".into(), vec![report.trials; n]),
            Column::new("mode".into(), vec![report.mode.name().to_string(); n]),
            Column::new("rules_hash".into(), vec![report.rules_hash.clone(); n]),
            Column::new("measure".into(), measure),
        ])
        .unwrap();
        frame.hstack_mut(frames::rows_frame(&rows).unwrap().columns()).unwrap();
        frames::csv(&mut frame).unwrap()
    }

    fn report((name, text): (&str, &str), mode: Mode) -> Report {
        let monte_carlo = MonteCarlo { trials: 3_000, seed: 5, threads: Some(1), mode };
        Report::of(
            Scenario::new(&Document::new(name, name, text), &combat_odds_rules::Rules::builtin(), monte_carlo).unwrap(),
        )
        .unwrap()
    }

    #[test]
    fn a_reports_csv_is_the_bytes_polars_writes_for_its_frame() {
        // A fire (exact beside Monte Carlo), an engagement (many outcomes, some never
        // drawn), and names a CSV must quote, an empty one, and numbers at their edges.
        let mut awkward = report(defaults::FIRE, Mode::Literal);
        awkward.scenario = "Panther vs \"Jumbo\", 16 in.\nsecond line".into();
        awkward.ruleset = String::new();
        let row = &mut awkward.measures[0].outcomes[0];
        (row.estimate, row.ci_low, row.ci_high, row.exact, row.exact_fraction) =
            (1e-7, 0.0, 1.0 / 3.0, None, Some("1/3,\"x\"".into()));
        for report in [report(defaults::FIRE, Mode::Compiled), report(defaults::ENGAGEMENT, Mode::Literal), awkward] {
            assert_eq!(report.csv(), through_polars(&report), "{}", report.scenario);
        }
    }
}
