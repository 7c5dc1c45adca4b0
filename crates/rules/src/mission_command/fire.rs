//! A compiled Mission Command fire: d20 shots at one target, each a to-hit roll and,
//! on a hit, a conversion roll (casualty, KO, damage, or a template's result), with
//! every score and modifier folded into per-face tables before the first trial
//! (seed 004 "Point-to-point Fire to Hit", the conversion tables, area fire and AA
//! fire).

use combat_odds_core::dice::D20;
use combat_odds_core::engine::{Measure, Resolution, Streams};
use combat_odds_core::exact::{Dist, TooLarge};

/// One d20 shot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shot {
    /// The natural d20 face from which it hits (the table score minus the modifiers);
    /// `None` when there is no to-hit roll (area fire lands where it is aimed).
    pub hit_from: Option<i32>,
    /// The outcome level of the target for each natural face of the conversion d20;
    /// a miss is level 0.
    pub effect: [u8; 20],
    /// Whether a kill by this shot counts against the template's cap ("Max 1 KO per
    /// template"); a cell that knocks out "all" does not.
    pub capped: bool,
}

/// The state of one trial.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Hash, Ord, Default)]
pub struct FireState {
    /// The worst outcome level any shot reached.
    pub worst: u8,
    /// Shots that hit.
    pub hits: u32,
    /// Kills that count against the cap.
    pub capped_kills: u32,
    /// Kills outside the cap.
    pub free_kills: u32,
}

/// What a fire reports besides the target's worst outcome.
#[derive(Debug, Clone)]
pub struct Counts {
    /// Report the number of hits (not for area fire, where nothing is rolled to hit).
    pub hits: bool,
    /// Report the number of kills under this name (e.g. `casualties`), with an
    /// optional cap on the capped ones.
    pub kills: Option<(&'static str, Option<u32>)>,
    /// Every shot reads one conversion d20 rolled for them all (area fire with one
    /// roll per template, MC-17), instead of a d20 of its own.
    pub one_roll: bool,
}

/// A fire ready to run.
#[derive(Debug, Clone)]
pub struct Fire {
    shots: Vec<Shot>,
    kill_level: u8,
    cap: Option<u32>,
    one_roll: bool,
    measures: Vec<Measure>,
    hits_slot: Option<usize>,
    kills_slot: Option<usize>,
}

impl Fire {
    /// Assembles a fire: `target` names the outcome levels (miss first, the kill
    /// last), `shots` are independent, `counts` says what else to report.
    pub fn new(target: Measure, shots: Vec<Shot>, counts: Counts) -> Self {
        let kill_level = (target.outcomes.len() - 1) as u8;
        let n = shots.len() as u32;
        let mut measures = vec![target];
        let mut slot = |m: Measure| {
            measures.push(m);
            Some(measures.len() - 1)
        };
        let hits_slot = if counts.hits { slot(Measure::counts("hits", n)) } else { None };
        let (kills_slot, cap) = match counts.kills {
            Some((name, cap)) => (slot(Measure::counts(name, n)), cap),
            None => (None, None),
        };
        assert!(!counts.one_roll || shots.iter().all(|s| s.hit_from.is_none()), "one roll is for area fire only");
        Fire { shots, kill_level, cap, one_roll: counts.one_roll, measures, hits_slot, kills_slot }
    }

    /// How many shots the fire makes.
    pub fn shots(&self) -> usize {
        self.shots.len()
    }

    /// Kills after the cap.
    pub fn kills(&self, s: &FireState) -> u32 {
        s.free_kills + self.cap.map_or(s.capped_kills, |c| s.capped_kills.min(c))
    }

    /// Adds one shot's (level, hit) to a state.
    fn add(&self, s: &FireState, &(level, hit): &(u8, bool), capped: bool) -> FireState {
        let kill = level == self.kill_level;
        FireState {
            worst: s.worst.max(level),
            hits: s.hits + u32::from(hit),
            capped_kills: s.capped_kills + u32::from(kill && capped),
            free_kills: s.free_kills + u32::from(kill && !capped),
        }
    }
}

impl Resolution for Fire {
    type State = FireState;
    type Weight = u128;

    fn measures(&self) -> &[Measure] {
        &self.measures
    }

    fn kill(&self) -> (usize, usize) {
        (0, usize::from(self.kill_level))
    }

    /// One literal trial: a to-hit d20 per shot, and a conversion d20 per hit.
    #[inline(always)]
    fn trial(&self, st: &mut Streams) -> FireState {
        let mut s = FireState::default();
        if self.one_roll {
            let face = D20.roll(&mut st.effect) as usize - 1;
            return self.shots.iter().fold(s, |s, shot| self.add(&s, &(shot.effect[face], false), shot.capped));
        }
        for shot in &self.shots {
            let hit = shot.hit_from.is_none_or(|from| D20.roll(&mut st.fire) as i32 >= from);
            if hit {
                let level = shot.effect[D20.roll(&mut st.effect) as usize - 1];
                s = self.add(&s, &(level, shot.hit_from.is_some()), shot.capped);
            }
        }
        s
    }

    /// The exact joint distribution of a trial's state.
    fn exact_state(&self) -> Result<Dist<FireState>, TooLarge> {
        if self.one_roll {
            return Ok(Dist::roll(D20, |f| {
                let face = f as usize - 1;
                self.shots
                    .iter()
                    .fold(FireState::default(), |s, shot| self.add(&s, &(shot.effect[face], false), shot.capped))
            }));
        }
        self.shots.iter().try_fold(Dist::certain(FireState::default()), |acc, shot| {
            let effect = Dist::roll(D20, |f| (shot.effect[f as usize - 1], shot.hit_from.is_some()));
            let one = match shot.hit_from {
                None => effect,
                Some(from) => Dist::roll(D20, |f| f as i32 >= from)
                    .then(|&hit| if hit { effect.clone() } else { Dist::certain((0, false)) })?,
            };
            acc.combine(&one, |s, r| self.add(s, r, shot.capped))
        })
    }

    #[inline(always)]
    fn index(&self, s: &FireState, out: &mut [usize]) {
        out[0] = usize::from(s.worst);
        if let Some(i) = self.hits_slot {
            out[i] = s.hits as usize;
        }
        if let Some(i) = self.kills_slot {
            out[i] = self.kills(s) as usize;
        }
    }
}

/// A conversion table as outcome levels by natural face: each `(level, from)` says
/// faces `from` and up reach `level` (roll modifiers already taken off `from`); a face
/// takes the highest level it reaches, and `floor` when it reaches none.
pub fn effect_by_face(floor: u8, thresholds: &[(u8, i32)]) -> [u8; 20] {
    std::array::from_fn(|i| {
        let face = i as i32 + 1;
        thresholds.iter().filter(|(_, from)| face >= *from).map(|(level, _)| *level).max().unwrap_or(floor).max(floor)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use combat_odds_core::dice::Ratio;
    use combat_odds_core::engine::Experiment;

    fn p2p(hit_from: i32, convert_from: i32) -> Shot {
        Shot { hit_from: Some(hit_from), effect: effect_by_face(1, &[(2, convert_from)]), capped: true }
    }

    #[test]
    fn one_shot_multiplies_hit_and_conversion() {
        // Hit on 11+ (10 faces in 20), convert on 15+ (6 in 20): kill = 10/20 x 6/20 = 3/20.
        let fire = Fire::new(
            Measure::new("target", ["miss", "hit_no_effect", "casualty"]),
            vec![p2p(11, 15)],
            Counts { hits: true, kills: None, one_roll: false },
        );
        let exact = fire.exact().unwrap();
        assert_eq!(exact[0], vec![Ratio::new(1, 2), Ratio::new(7, 20), Ratio::new(3, 20)]);
        assert_eq!(exact[1], vec![Ratio::new(1, 2), Ratio::new(1, 2)]);
    }

    #[test]
    fn the_template_cap_limits_rolled_kills_only() {
        // Three vehicles each KO'd on 11+ (1/2), at most one by rolling; a fourth under
        // an "all" cell is KO'd outright. P(2 kills) = 1 - (1/2)^3 = 7/8.
        let rolled = Shot { hit_from: None, effect: effect_by_face(0, &[(1, 11)]), capped: true };
        let all = Shot { hit_from: None, effect: [1; 20], capped: false };
        let fire = Fire::new(
            Measure::new("template", ["no_ko", "ko"]),
            vec![rolled.clone(), rolled.clone(), rolled, all],
            Counts { hits: false, kills: Some(("kos", Some(1))), one_roll: false },
        );
        let exact = fire.exact().unwrap();
        assert_eq!(exact[1][1], Ratio::new(1, 8));
        assert_eq!(exact[1][2], Ratio::new(7, 8));
        assert_eq!(exact[0][1], Ratio::new(1, 1));
    }

    #[test]
    fn one_roll_per_template_is_compared_with_every_vehicle_and_capped_once() {
        // Two vehicles, KO'd on 15+ and 11+ of one shared d20: a KO whenever the roll
        // reaches the easier one, 10/20; on 15+ both would fall, and the cap keeps one.
        // One d20 each instead: 1 - (14/20)(10/20) = 1 - 140/400 = 13/20.
        let shots = |from: [i32; 2]| {
            from.map(|f| Shot { hit_from: None, effect: effect_by_face(0, &[(1, f)]), capped: true }).to_vec()
        };
        let fire = |one_roll| {
            Fire::new(
                Measure::new("template", ["no_ko", "ko"]),
                shots([15, 11]),
                Counts { hits: false, kills: Some(("kos", Some(1))), one_roll },
            )
        };
        assert_eq!(fire(true).exact().unwrap()[0][1], Ratio::new(1, 2));
        assert_eq!(fire(true).exact().unwrap()[1][1], Ratio::new(1, 2));
        assert_eq!(fire(false).exact().unwrap()[0][1], Ratio::new(13, 20));
        // Literal trials of the shared roll against the exact 1/2.
        let one = fire(true);
        let mut streams = combat_odds_core::engine::Streams::for_chunk(5, 0);
        let kos = (0..100_000).filter(|_| one.trial(&mut streams).capped_kills > 0).count();
        // 1/2 +- 5 standard deviations of 100,000 trials (0.0079).
        assert!((kos as f64 / 100_000.0 - 0.5).abs() < 0.008, "{kos}");
    }

    #[test]
    fn thresholds_become_levels_by_face() {
        let e = effect_by_face(0, &[(1, 5), (2, 7), (3, 9)]);
        assert_eq!(&e[..10], &[0, 0, 0, 0, 1, 1, 2, 2, 3, 3]);
        assert_eq!(effect_by_face(1, &[(2, 25)]), [1; 20]);
    }
}
