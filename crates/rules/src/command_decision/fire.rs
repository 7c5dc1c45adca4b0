//! A compiled Command Decision fire resolution: direct or indirect fire by one or
//! more firing stands at one target, with every threshold folded in before the
//! first trial (seed 000 "Resolving Fire", "Effects of fire", "Passengers"; seed 001
//! Hit Results Chart, AP footnote, Ammo Depletion, Artillery Response).

use super::tables::HitResult;
use combat_odds_core::dice::D10;
use combat_odds_core::engine::{Measure, Resolution, Streams};
use combat_odds_core::exact::{Dist, TooLarge};

/// The result of a hit for each natural face 1..=10 of the effect die, with every
/// modifier and the natural-10 footnote already applied.
pub type EffectByFace = [HitResult; 10];

/// The dice one firing stand (or several identical ones) throws.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Volley {
    /// Number of d10 rolled: stands x modified ROF.
    pub dice: u32,
    /// Modified hit number: each die equal or less hits.
    pub hit_at_most: i32,
    /// What a hit does, by effect-die face.
    pub effect: EffectByFace,
    /// Ammo depletion: (natural to-hit face that calls for a check, a d10 at or
    /// below this depletes). `None` for weapons under 20mm.
    pub ammo: Option<(i32, i32)>,
}

/// One trial's outcome before it is split into measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct FireState {
    /// Did the fire arrive (artillery response)? Always true for direct fire.
    pub arrived: bool,
    /// The worst result of any hit (no hit counts as no effect).
    pub worst: Option<HitResult>,
    /// Number of hits.
    pub hits: u32,
    /// Did any firer deplete its ammunition?
    pub depleted: bool,
    /// Passenger stands eliminated.
    pub passengers_eliminated: u32,
    /// Passenger stands forced back: all of them when the vehicle is forced back (they
    /// stay with it), else those forced back by their own roll after it is eliminated.
    pub passengers_forced_back: u32,
}

/// A fire resolution ready to run.
#[derive(Debug, Clone)]
pub struct FireResolution {
    volleys: Vec<Volley>,
    /// Artillery response: success by response-die face; `None` when fire is certain.
    response: Option<[bool; 10]>,
    /// Hit results for each passenger stand hit when the vehicle is eliminated.
    passengers: Vec<EffectByFace>,
    /// Whether a target that is fired at is suppressed (DF H/HC in prep or op fire; IDF).
    suppresses: bool,
    measures: Vec<Measure>,
    slots: Slots,
    /// Per volley, what its dice are compared with, worked out once.
    thresholds: Vec<Thresholds>,
}

/// A volley's hit number and effect row as the literal trial's dice lanes read them.
#[derive(Debug, Clone)]
struct Thresholds {
    /// A face 0..=9 (the natural roll less one) hits below this.
    hits_below: u32,
    /// The severity code of a hit by effect-die face less one: 1 + the [`HitResult`]
    /// (0 stays free for "no hit"), so the worst result of a volley is a plain maximum
    /// with no branch on whether a die hit.
    severity: [u8; 10],
}

/// Which optional measures this resolution reports, and where.
#[derive(Debug, Clone, Copy, Default)]
struct Slots {
    mission: Option<usize>,
    ammo: Option<usize>,
    suppressed: Option<usize>,
    passengers: Option<usize>,
}

impl FireResolution {
    /// Assembles a resolution and decides which measures it reports.
    pub fn new(
        volleys: Vec<Volley>,
        response: Option<[bool; 10]>,
        passengers: Vec<EffectByFace>,
        suppresses: bool,
    ) -> Self {
        let total_dice = volleys.iter().map(|v| v.dice).sum();
        let mut measures = vec![Measure::new("target", HitResult::NAMES), Measure::counts("hits", total_dice)];
        let mut slot = |m: Measure| {
            measures.push(m);
            Some(measures.len() - 1)
        };
        let mut slots = Slots::default();
        if response.is_some() {
            slots.mission = slot(Measure::new("mission", ["no_response", "arrived"]));
        }
        if volleys.iter().any(|v| v.ammo.is_some()) {
            slots.ammo = slot(Measure::new("ammo", ["not_depleted", "depleted"]));
        }
        if suppresses {
            slots.suppressed = slot(Measure::new("target_suppressed", ["no", "yes"]));
        }
        if !passengers.is_empty() {
            let n = passengers.len() as u32;
            slots.passengers = slot(Measure::counts("passengers_eliminated", n));
            measures.push(Measure::counts("passengers_forced_back", n));
        }
        let thresholds = volleys
            .iter()
            .map(|v| Thresholds {
                hits_below: v.hit_at_most.clamp(0, 10) as u32,
                severity: v.effect.map(|r| r as u8 + 1),
            })
            .collect();
        FireResolution { volleys, response, passengers, suppresses, measures, slots, thresholds }
    }
}

/// One die of a volley: (the hit's result if it hit, whether it depleted ammo).
fn volley_die(v: &Volley) -> Dist<(Option<HitResult>, bool)> {
    Dist::roll(D10, |face| face as i32)
        .then(|&face| {
            let effect = if face <= v.hit_at_most {
                Dist::roll(D10, |e| Some(v.effect[e as usize - 1]))
            } else {
                Dist::certain(None)
            };
            let depletes = match v.ammo {
                Some((trigger, at_most)) if face == trigger => Dist::roll(D10, |a| a as i32 <= at_most),
                _ => Dist::certain(false),
            };
            effect.combine(&depletes, |&e, &d| (e, d)).expect("two d10 fit easily")
        })
        .expect("three d10 fit easily")
}

fn add_die(s: &FireState, &(hit, depleted): &(Option<HitResult>, bool)) -> FireState {
    FireState {
        worst: s.worst.max(hit),
        hits: s.hits + u32::from(hit.is_some()),
        depleted: s.depleted || depleted,
        ..*s
    }
}

impl Resolution for FireResolution {
    type State = FireState;
    type Weight = u128;

    fn measures(&self) -> &[Measure] {
        &self.measures
    }

    fn kill(&self) -> (usize, usize) {
        (0, HitResult::Eliminated as usize)
    }

    /// One literal trial: every die the rules roll, in rule order.
    #[inline(always)]
    fn trial(&self, st: &mut Streams) -> FireState {
        let mut s = FireState { arrived: true, ..FireState::default() };
        if let Some(succeeds) = &self.response {
            s.arrived = succeeds[D10.roll(&mut st.response) as usize - 1];
            if !s.arrived {
                return s;
            }
        }
        // Dice are rolled four at a time: the to-hit dice from one output of the fire
        // stream, and beside them the effect die each would roll if it hits, from one
        // output of the effect stream. Lane i of the effect pack is die i's effect die,
        // read only when die i hits; every lane is an independent die, so this is the
        // same as rolling effect dice for the hits one by one.
        let mut worst = 0u8;
        for (v, Thresholds { hits_below, severity }) in self.volleys.iter().zip(&self.thresholds) {
            let mut left = v.dice;
            while left > 0 {
                let (faces, effects) = (st.fire.pack16(10), st.effect.pack16(10));
                // All four lanes, branch-free; lanes past the volley's last die are dead.
                for i in 0..4 {
                    let hit = ((i as u32) < left) & (faces[i] < *hits_below);
                    s.hits += u32::from(hit);
                    worst = worst.max(severity[effects[i] as usize] * u8::from(hit));
                }
                if let Some((trigger, depletes_at_most)) = v.ammo {
                    for &face in faces.iter().take(left.min(4) as usize) {
                        if face as i32 + 1 == trigger && D10.roll(&mut st.supply) as i32 <= depletes_at_most {
                            s.depleted = true;
                        }
                    }
                }
                left = left.saturating_sub(4);
            }
        }
        // By lookup, not a branch: which result came up is the coin toss being simulated.
        const WORST: [Option<HitResult>; 4] =
            [None, Some(HitResult::NoEffect), Some(HitResult::ForcedBack), Some(HitResult::Eliminated)];
        s.worst = WORST[worst as usize];
        // Most fires carry no passengers: ask that (predictable) before the outcome.
        // Seed 000, Passengers: "If a vehicle suffers a Force Back result from fire, the
        // passengers stay with the vehicle and are forced back with the vehicle."
        if !self.passengers.is_empty() && s.worst == Some(HitResult::ForcedBack) {
            s.passengers_forced_back = self.passengers.len() as u32;
        }
        // "If the vehicle is eliminated by fire, the passenger stands each suffer a hit."
        if !self.passengers.is_empty() && s.worst == Some(HitResult::Eliminated) {
            for p in &self.passengers {
                match p[D10.roll(&mut st.passengers) as usize - 1] {
                    HitResult::Eliminated => s.passengers_eliminated += 1,
                    HitResult::ForcedBack => s.passengers_forced_back += 1,
                    HitResult::NoEffect => {}
                }
            }
        }
        s
    }

    /// The exact joint distribution of a trial's state.
    fn exact_state(&self) -> Result<Dist<FireState>, TooLarge> {
        let start = Dist::certain(FireState { arrived: true, ..FireState::default() });
        let fired = self.volleys.iter().try_fold(start, |acc, v| volley_die(v).fold_n(v.dice, acc, add_die))?;
        let passengers = self.passengers.iter().try_fold(Dist::certain((0u32, 0u32)), |acc, p| {
            acc.combine(&Dist::roll(D10, |f| p[f as usize - 1]), |&(e, b), r| match r {
                HitResult::Eliminated => (e + 1, b),
                HitResult::ForcedBack => (e, b + 1),
                HitResult::NoEffect => (e, b),
            })
        })?;
        let carried = self.passengers.len() as u32;
        let landed = fired.then(|s| match s.worst {
            Some(HitResult::Eliminated) => {
                passengers.map(|&(e, b)| FireState { passengers_eliminated: e, passengers_forced_back: b, ..*s })
            }
            // Carried back with the vehicle (seed 000, Passengers); no roll of their own.
            Some(HitResult::ForcedBack) => Dist::certain(FireState { passengers_forced_back: carried, ..*s }),
            _ => Dist::certain(*s),
        })?;
        match &self.response {
            None => Ok(landed),
            Some(succeeds) => Dist::roll(D10, |f| succeeds[f as usize - 1])
                .then(|&arrived| if arrived { landed.clone() } else { Dist::certain(FireState::default()) }),
        }
    }

    /// The outcome index of every measure for a trial's state.
    #[inline(always)]
    fn index(&self, s: &FireState, out: &mut [usize]) {
        out[0] = s.worst.map_or(0, |r| r as usize);
        out[1] = s.hits as usize;
        if let Some(i) = self.slots.mission {
            out[i] = usize::from(s.arrived);
        }
        if let Some(i) = self.slots.ammo {
            out[i] = usize::from(s.depleted);
        }
        if let Some(i) = self.slots.suppressed {
            out[i] = usize::from(s.arrived && self.suppresses);
        }
        if let Some(i) = self.slots.passengers {
            out[i] = s.passengers_eliminated as usize;
            out[i + 1] = s.passengers_forced_back as usize;
        }
    }
}
