//! A test decided by one die: a Command Decision morale check, a Mission Command
//! reaction test. Every threshold and modifier is folded into a face-to-outcome map
//! before the first trial, so a trial is one roll and a lookup.

use combat_odds_core::dice::Die;
use combat_odds_core::engine::{MAX_MEASURES, Measure, Resolution, Streams};
use combat_odds_core::exact::{Dist, TooLarge};

/// One die roll on the morale stream, and the outcome of every measure for each face.
#[derive(Debug, Clone)]
pub struct TestRoll {
    die: Die,
    /// `by_face[face - 1][measure]` = outcome index.
    by_face: Vec<[usize; MAX_MEASURES]>,
    measures: Vec<Measure>,
    kill: (usize, usize),
}

impl TestRoll {
    /// Folds `outcome(face, out)` over every face of `die`; `out[m]` receives the
    /// outcome index of measure `m`. `kill` is the (measure, outcome) `p_kill` reports.
    pub fn new(die: Die, measures: Vec<Measure>, kill: (usize, usize), outcome: impl Fn(u32, &mut [usize])) -> Self {
        assert!(measures.len() <= MAX_MEASURES, "a test roll reports at most {MAX_MEASURES} measures");
        let by_face = (1..=die.sides())
            .map(|face| {
                let mut out = [0; MAX_MEASURES];
                outcome(face, &mut out[..measures.len()]);
                out
            })
            .collect();
        TestRoll { die, by_face, measures, kill }
    }
}

impl Resolution for TestRoll {
    /// The natural face rolled.
    type State = u32;
    type Weight = u128;

    fn measures(&self) -> &[Measure] {
        &self.measures
    }

    fn kill(&self) -> (usize, usize) {
        self.kill
    }

    #[inline(always)]
    fn trial(&self, streams: &mut Streams) -> u32 {
        self.die.roll(&mut streams.morale)
    }

    #[inline(always)]
    fn index(&self, face: &u32, out: &mut [usize]) {
        out.copy_from_slice(&self.by_face[*face as usize - 1][..out.len()]);
    }

    fn exact_state(&self) -> Result<Dist<u32>, TooLarge> {
        Ok(Dist::roll(self.die, |f| f))
    }
}
