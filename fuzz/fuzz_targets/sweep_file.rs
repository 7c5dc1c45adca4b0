//! Sweep files with their spans. An input is a sweep file's text, NUL, then the text
//! of the base scenario it names (read whatever name it gives). A sweep that reads is
//! written out point by point (its first and last point, each set up by its ruleset);
//! the input's first 24 bytes are also a span (`from`, `to`, `step` as three floats),
//! whose values must be distinct, in order and the numbers they stand for.
#![no_main]

use combat_odds_core::document::Document;
use combat_odds_core::engine::{Mode, MonteCarlo};
use combat_odds_report::sweep::{self, MAX_POINTS, Sweep};
use combat_odds_rules::{Rules, Scenario};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Some(bytes) = data.get(..24) {
        let float = |i: usize| f64::from_le_bytes(bytes[i * 8..i * 8 + 8].try_into().expect("8 bytes"));
        span(float(0), float(1), float(2));
    }
    let Ok(text) = std::str::from_utf8(data) else { return };
    let (sweep_text, base_text) = text.split_once('\0').unwrap_or((text, ""));
    let doc = Document::new("sweep.toml", "sweep.toml", sweep_text);
    let base = |name: &str| Ok(Document::new(name, name, base_text));
    let Ok(sweep) = Sweep::read(&doc, base, 7) else { return };
    assert!(!sweep.points.is_empty() && sweep.points.len() <= MAX_POINTS, "{} points", sweep.points.len());
    let _ = sweep.hash();
    let monte_carlo = MonteCarlo { trials: 1, seed: 1, threads: Some(1), mode: Mode::Literal };
    for i in [0, sweep.points.len() - 1] {
        let _ = sweep.describe(i);
        if let Ok(point) = sweep.scenario(i) {
            let _ = Scenario::new(&point, &Rules::builtin(), monte_carlo);
        }
    }
});

/// A span's values: at most [`MAX_POINTS`], strictly rising from `from` to `to`, each
/// the number it stands for (whole numbers only where they are whole).
fn span(from: f64, to: f64, step: f64) {
    let Ok(values) = sweep::span_values(from, to, step) else { return };
    assert!(!values.is_empty() && values.len() <= MAX_POINTS, "{} values", values.len());
    let numbers: Vec<f64> = values.iter().map(|v| v.as_float().or(v.as_integer().map(|i| i as f64)).unwrap()).collect();
    assert!(numbers.windows(2).all(|w| w[0] < w[1]), "span {from} {to} {step}: values not rising: {values:?}");
    let tolerance = step.abs() * 1e-6;
    assert!(
        numbers[0] >= from - tolerance && numbers[numbers.len() - 1] <= to + tolerance,
        "span {from} {to} {step}: values outside it: {values:?}"
    );
}
