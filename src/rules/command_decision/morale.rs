//! A compiled company morale check (seed 000 "Morale"; seed 001 Morale Modifiers and
//! Morale Results): one d10 against the modified morale number.

use crate::dice::D10;
use crate::engine::{ExactTable, Experiment, Measure, Streams, Tally};
use crate::exact::{Dist, marginals};

/// A morale check ready to run: the result index and forced-back flag for each face.
#[derive(Debug, Clone)]
pub struct MoraleCheck {
    /// For each d10 face: index into `measures[0]` (0 = passed).
    result_by_face: [usize; 10],
    /// For each d10 face: does the company fall back?
    forced_back_by_face: [bool; 10],
    measures: Vec<Measure>,
}

impl MoraleCheck {
    /// Folds the result table over every face: `exceed_result(roll - morale)` gives the
    /// result index (0 = passed) and whether it forces the company back.
    pub fn new(modified_morale: i32, results: &[&str], exceed_result: impl Fn(i32) -> (usize, bool)) -> Self {
        let mut result_by_face = [0; 10];
        let mut forced_back_by_face = [false; 10];
        for face in 1..=10 {
            let (result, back) = exceed_result(face - modified_morale);
            result_by_face[face as usize - 1] = result;
            forced_back_by_face[face as usize - 1] = back;
        }
        let outcomes = std::iter::once("passed").chain(results.iter().copied());
        let measures = vec![Measure::new("company", outcomes), Measure::new("forced_back", ["no", "yes"])];
        MoraleCheck { result_by_face, forced_back_by_face, measures }
    }

    fn index(&self, face: u32, out: &mut [usize]) {
        out[0] = self.result_by_face[face as usize - 1];
        out[1] = usize::from(self.forced_back_by_face[face as usize - 1]);
    }
}

impl Experiment for MoraleCheck {
    fn measures(&self) -> &[Measure] {
        &self.measures
    }

    fn kill(&self) -> (usize, usize) {
        (0, self.measures[0].outcomes.len() - 1)
    }

    fn simulate(&self, streams: &mut Streams, trials: u64, tally: &mut Tally) {
        let mut out = [0usize; 2];
        for _ in 0..trials {
            self.index(D10.roll(&mut streams.morale), &mut out);
            tally.record(&out);
        }
    }

    fn exact(&self) -> Option<ExactTable> {
        Some(marginals(&Dist::roll(D10, |f| f), &[self.measures[0].outcomes.len(), 2], |&f, out| self.index(f, out)))
    }
}
