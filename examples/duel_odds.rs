//! The odds of the embedded tank duel, from the library alone: set the scenario up
//! against the embedded Command Decision tables, solve it exactly, run a seeded Monte
//! Carlo beside it, and print each outcome of the target.
//!
//! Run with `cargo run --release --example duel_odds`.

use combat_odds_core::document::Document;
use combat_odds_core::engine::{Mode, MonteCarlo};
use combat_odds_report::export::Report;
use combat_odds_rules::{Rules, Scenario, defaults};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (path, text) = defaults::FIRE;
    let doc = Document::new(path, path, text);
    let monte_carlo = MonteCarlo { trials: 200_000, seed: 2026, threads: None, mode: Mode::Compiled };
    let scenario = Scenario::new(&doc, &Rules::builtin(), monte_carlo)?;
    println!("{} ({}, {})", scenario.header.scenario, scenario.header.ruleset, scenario.header.kind);
    let report = Report::of(scenario)?;
    let (measure, rows, _) = report.all_measures().next().expect("a report has its primary measure first");
    println!(
        "{measure}: exact, then Monte Carlo with its 95% interval ({} trials, seed {})",
        report.trials, report.seed
    );
    for row in rows {
        let exact = row.exact_fraction.as_deref().unwrap_or("n/a");
        println!("  {:<16} {exact:>12}   {:.4} [{:.4}, {:.4}]", row.outcome, row.estimate, row.ci_low, row.ci_high);
    }
    Ok(())
}
