//! The scenario loader. An input is a scenario file's text, set up by the ruleset and
//! kind it names with the embedded tables (and asked for its ruleset's own answers, as
//! the answers endpoint asks: Chain of Command's about a hand of Command Dice); what it
//! sets up then draws a few trials. An input holding a NUL byte is `NAME.toml` on its
//! first line, a table file's text, NUL, then a scenario: the table text replaces that
//! file of the scenario's ruleset, as a file of `--rules DIR` does, and the scenario is
//! set up against the result.
#![no_main]

use combat_odds_core::document::Document;
use combat_odds_core::engine::{Mode, MonteCarlo, Streams, Tally, layout};
use combat_odds_core::tables::TableFile;
use combat_odds_rules::scenario::{self, FileHeader, Scenario};
use combat_odds_rules::{Rules, SetUp};
use libfuzzer_sys::fuzz_target;

/// Trials drawn from each scenario that sets up: enough to reach every rule a trial
/// meets, few enough to keep the fuzzer fast.
const TRIALS: u64 = 4;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    match text.split_once('\0') {
        None => whole(text),
        Some((table, scenario)) => overridden(table, scenario),
    }
});

fn whole(text: &str) {
    let doc = Document::new("fuzz.toml", "fuzz.toml", text);
    let rules = Rules::builtin();
    let monte_carlo = MonteCarlo { trials: TRIALS, seed: 1, threads: Some(1), mode: Mode::Literal };
    if let Ok(scenario) = Scenario::new(&doc, &rules, monte_carlo) {
        draw(&scenario.set_up);
    }
    let _ = doc.offers();
    let _ = scenario::answers(&doc, &rules);
}

fn overridden(table: &str, text: &str) {
    let Some((name, table)) = table.split_once('\n') else { return };
    let doc = Document::new("fuzz.toml", "fuzz.toml", text);
    let Ok(head) = doc.parse::<FileHeader>() else { return };
    let rules = Rules::builtin();
    let Ok(embedded) = rules.load(head.ruleset.get_ref()) else { return };
    let file = TableFile::new(name, format!("rules/{name}"), table);
    let Ok(ruleset) = rules.with_file(embedded.as_ref(), file) else { return };
    let _ = ruleset.listing();
    let _ = ruleset.modifiers();
    if let Ok(set_up) = ruleset.set_up(&doc, &head.kind) {
        draw(&set_up);
    }
}

/// A few trials of what a scenario set up, tallied as a run tallies them.
fn draw(set_up: &SetUp) {
    let experiment = set_up.experiment.as_ref();
    let _ = experiment.why_not_exact();
    let mut tally = Tally::new(&layout(experiment.measures()));
    experiment.simulate(&mut Streams::for_chunk(1, 0), TRIALS, &mut tally);
}
