//! A compiled company morale check (seed 000 "Morale"; seed 001 Morale Modifiers and
//! Morale Results): one d10 against the modified morale number.

use crate::test_roll::TestRoll;
use combat_odds_core::dice::D10;
use combat_odds_core::engine::Measure;

/// A morale check as a `TestRoll`: measure `company` (passed, then `results` in
/// rising severity) and `forced_back`. `exceed_result(roll - morale)` gives the result
/// index (0 = passed) and whether it forces the company back. `p_kill` is the worst
/// result.
pub fn morale_check(modified_morale: i32, results: &[&str], exceed_result: impl Fn(i32) -> (usize, bool)) -> TestRoll {
    let outcomes = std::iter::once("passed").chain(results.iter().copied());
    let measures = vec![Measure::new("company", outcomes), Measure::new("forced_back", ["no", "yes"])];
    TestRoll::new(D10, measures, (0, results.len()), |face, out| {
        let (result, back) = exceed_result(face as i32 - modified_morale);
        out[0] = result;
        out[1] = usize::from(back);
    })
}
