//! The files `merge` reads. An input is one or more JSON texts separated by NUL bytes,
//! each the `sweep.json` or `summary.json` of one shard's directory: read as both, each
//! set of parts that reads is merged as `merge` merges it, every summary is also turned
//! back into the whole result it was written from, and every merged result is framed
//! as `merge` writes it (a merged sweep is written whole, into a scratch directory
//! removed after each input: its long frame has no other way out).
#![no_main]

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use combat_odds_core::run::Run;
use combat_odds_report::study::{StudyResult, Summary};
use combat_odds_report::sweep::{SweepResult, SweepSummary};
use libfuzzer_sys::fuzz_target;

/// The most directories one input stands for.
const PARTS: usize = 8;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let texts: Vec<&str> = text.split('\0').take(PARTS).collect();
    let dir = |k: usize| PathBuf::from(format!("shard{}", k + 1));
    let sweeps: Option<Vec<(PathBuf, SweepSummary)>> =
        texts.iter().enumerate().map(|(k, t)| serde_json::from_str(t).ok().map(|s| (dir(k), s))).collect();
    if let Some(parts) = sweeps
        && let Ok(merged) = SweepResult::merge(parts)
    {
        let _ = merged.design_frame();
        let _ = merged.invented();
        let scratch = tempfile::tempdir().expect("a scratch directory");
        let stop = AtomicBool::new(false);
        let _ = merged.write(&scratch.path().join("merged"), false, &Run::new(&stop, None));
    }
    let studies: Option<Vec<(PathBuf, Summary)>> =
        texts.iter().enumerate().map(|(k, t)| serde_json::from_str(t).ok().map(|s| (dir(k), s))).collect();
    if let Some(parts) = studies {
        for (_, summary) in &parts {
            if let Ok(whole) = StudyResult::from_summary(summary) {
                let _ = whole.frames();
            }
        }
        if let Ok(merged) = StudyResult::merge(parts) {
            let _ = merged.frames();
        }
    }
});
