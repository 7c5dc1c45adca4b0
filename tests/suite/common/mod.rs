//! Helpers shared by integration tests: compile scenario text through the real plan.

#![allow(dead_code)]

pub mod cli;
pub mod crowded;
pub mod determinism;
pub mod exact;
pub mod grid;
pub mod own_catalogue;

use combat_odds_core::dice::Ratio;
use combat_odds_core::document::Document;
use combat_odds_core::engine::{Measure, Mode, MonteCarlo};
use combat_odds_rules::{Rules, Scenario};

/// A run nothing stops, with no exact budget: a test's one run.
pub fn unstopped() -> combat_odds_core::run::Run<'static> {
    static NEVER: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    combat_odds_core::run::Run::new(&NEVER, None)
}

/// The path of `name` in the experiments/ folder.
pub fn experiment_path(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments").join(name)
}

/// Compiles scenario TOML text as the CLI would (embedded tables), to run literally.
pub fn plan(name: &str, text: &str, trials: u64, seed: u64, threads: usize) -> Scenario {
    plan_in(Mode::Literal, name, text, trials, seed, threads)
}

/// Compiles scenario TOML text as the CLI would (embedded tables), to run in `mode`.
pub fn plan_in(mode: Mode, name: &str, text: &str, trials: u64, seed: u64, threads: usize) -> Scenario {
    plan_doc_in(mode, &Document::new(name, name, text), trials, seed, threads)
}

/// Compiles a scenario document as the CLI would (embedded tables), to run literally.
pub fn plan_doc(doc: &Document, trials: u64, seed: u64, threads: usize) -> Scenario {
    plan_doc_in(Mode::Literal, doc, trials, seed, threads)
}

/// Compiles a scenario document as the CLI would (embedded tables), to run in `mode`.
pub fn plan_doc_in(mode: Mode, doc: &Document, trials: u64, seed: u64, threads: usize) -> Scenario {
    Scenario::new(doc, &Rules::builtin(), MonteCarlo { trials, seed, threads: Some(threads), mode })
        .unwrap_or_else(|e| panic!("scenario {} should compile: {e}", doc.name))
}

/// The lines of a block copied from a source, written between line breaks
/// (`"\nfirst\n...\nlast\n"`).
pub fn lines(block: &'static str) -> Vec<&'static str> {
    let inner = block.strip_prefix('\n').and_then(|b| b.strip_suffix('\n'));
    inner.expect("an embedded block opens and closes on a line break").split('\n').collect()
}

/// Every measure is a distribution: its exact outcomes sum to exactly 1.
pub fn assert_sums_to_one(name: &str, measures: &[Measure], exact: &[Vec<Ratio>]) {
    for (m, row) in measures.iter().zip(exact) {
        let sum: Ratio = row.iter().sum();
        assert_eq!(sum, Ratio::new(1, 1), "{name}: measure `{}` sums to {sum}", m.name);
    }
}

/// A direct-fire scenario with one inline weapon whose four bands all share `hit` and
/// `anti_armour`, fired by `stands` stands of `quality` at `target` (a TOML table body).
pub fn direct_fire(
    rof: u32,
    hit: i32,
    anti_armour: &str,
    quality: &str,
    stands: u32,
    target: &str,
    range: f64,
) -> String {
    format!(
        r#"ruleset = "command-decision"
kind = "direct_fire"
range = {range}
[[firer]]
quality = "{quality}"
stands = {stands}
mount = "tank"
[firer.weapon_data]
rof = {rof}
caliber_mm = 75
close = {{ range = 5, hit = {hit}, anti_armour = {anti_armour} }}
medium = {{ range = 10, hit = {hit}, anti_armour = {anti_armour} }}
long = {{ range = 20, hit = {hit}, anti_armour = {anti_armour} }}
extreme = {{ range = 40, hit = {hit}, anti_armour = {anti_armour} }}
[target]
{target}
"#
    )
}

/// A company morale check.
pub fn morale(morale: i32, status: &str, forced_back: u32, eliminated: u32, modifiers: &[&str]) -> String {
    let list: Vec<String> = modifiers.iter().map(|m| format!("\"{m}\"")).collect();
    format!(
        r#"ruleset = "command-decision"
kind = "morale"
[company]
morale = {morale}
status = "{status}"
stands_forced_back = {forced_back}
stands_eliminated = {eliminated}
modifiers = [{}]
"#,
        list.join(", ")
    )
}
