//! Who fires at whom: the set-up fire of every unit entry at every enemy entry at
//! every range of the engagement ([`Fires`]), and the target policy that turns it
//! into a choice each turn ([`Targeting`]).
//!
//! Every policy is deterministic given the field, so the exact solver and Monte
//! Carlo see the same choices. Fire is allotted by entry: each policy ranks the enemy
//! entries a firer's weapon reaches, once per range before the first turn.

use toml::Spanned;

use super::schedule::Schedule;
use super::{Layout, enemy};
use combat_odds_core::document::Document;
use combat_odds_core::error::{Result, unknown};

/// How units choose their target, as a scenario's `targets` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TargetPolicy {
    /// The enemy entry whose own fire would kill one of ours most surely.
    MostDangerous,
    /// The enemy entry this firer kills most surely.
    MostVulnerable,
    /// Enemy entries in the order the scenario lists them.
    FirstListed,
    /// Every unit of a side fires at a different living enemy unit in turn.
    Spread,
}

/// How a run's notes say it: in words, not the policy's name in the file.
impl std::fmt::Display for TargetPolicy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            TargetPolicy::MostDangerous => "each unit fires at the enemy most likely to kill one of its own",
            TargetPolicy::MostVulnerable => "each unit fires at the enemy it kills most surely",
            TargetPolicy::FirstListed => "each unit fires at the first enemy the scenario lists",
            TargetPolicy::Spread => "a side spreads its fire, each unit at a different enemy",
        })
    }
}

/// The policy names, the default first.
pub const POLICIES: [&str; 4] = ["most_dangerous", "most_vulnerable", "first_listed", "spread"];

impl TargetPolicy {
    /// Reads `targets = "..."` (default `most_dangerous`).
    pub fn parse(doc: &Document, value: Option<&Spanned<String>>) -> Result<Self> {
        let Some(v) = value else { return Ok(TargetPolicy::MostDangerous) };
        doc.offer(v.span(), v.get_ref(), "target policy", POLICIES);
        match v.get_ref().as_str() {
            "most_dangerous" => Ok(TargetPolicy::MostDangerous),
            "most_vulnerable" => Ok(TargetPolicy::MostVulnerable),
            "first_listed" => Ok(TargetPolicy::FirstListed),
            "spread" => Ok(TargetPolicy::Spread),
            other => Err(doc.error_at(v.span().start, unknown("target policy", other, POLICIES))),
        }
    }
}

/// The set-up fire `S` of each unit entry at each enemy entry at each range, with
/// the chance it kills one unit (for ranking targets); `None` where it cannot reach.
pub(crate) struct Fires<S> {
    ranges: usize,
    groups: [usize; 2],
    /// Per side: indexed by ((firer entry * enemy entries) + target entry) * ranges + range.
    shots: [Vec<Option<(S, f64)>>; 2],
}

impl<S> Fires<S> {
    /// Compiles every (side, firer entry, target entry, range index) with `shot`, and
    /// refuses an entry that can fire at nothing at any range of the schedule, unless
    /// `holds_fire(side, entry)` says its rules keep it from firing there (an order
    /// that fires only in contact, at ranges that never close to it): a weapon out of
    /// reach is a mistake in the file, an order obeyed is not. `entry_at(side, entry)`
    /// is where the entry is written, for that message.
    pub fn build(
        doc: &Document,
        (layout, schedule): (&Layout, &Schedule),
        unit: &str,
        (entry_at, holds_fire): (impl Fn(usize, usize) -> usize, impl Fn(usize, usize) -> bool),
        mut shot: impl FnMut(usize, usize, usize, usize) -> Result<Option<(S, f64)>>,
    ) -> Result<Self> {
        let ranges = schedule.ranges.len();
        let groups = [layout.sides[0].groups.len(), layout.sides[1].groups.len()];
        let mut shots: [Vec<Option<(S, f64)>>; 2] = [Vec::new(), Vec::new()];
        for side in 0..2 {
            for firer in 0..groups[side] {
                let first = shots[side].len();
                for target in 0..groups[enemy(side)] {
                    for r in 0..ranges {
                        shots[side].push(shot(side, firer, target, r)?);
                    }
                }
                if shots[side][first..].iter().all(Option::is_none) && !holds_fire(side, firer) {
                    return Err(doc.error_at(
                        entry_at(side, firer),
                        format!(
                            "unit `{}`: its weapon cannot reach any enemy at the ranges of this engagement ({}); bring the range in or give it another weapon",
                            layout.sides[side].groups[firer].name,
                            schedule.describe(unit)
                        ),
                    ));
                }
            }
        }
        Ok(Fires { ranges, groups, shots })
    }

    fn slot(&self, side: usize, firer: usize, target: usize, range: usize) -> usize {
        (firer * self.groups[enemy(side)] + target) * self.ranges + range
    }

    /// How many ranges the schedule plays at.
    pub fn ranges(&self) -> usize {
        self.ranges
    }

    /// The fire of entry `firer` of `side` at enemy entry `target` at range index
    /// `range`, if it reaches.
    pub fn get(&self, side: usize, firer: usize, target: usize, range: usize) -> Option<&S> {
        self.shots[side][self.slot(side, firer, target, range)].as_ref().map(|(s, _)| s)
    }

    /// The chance that fire kills one unit (0 where it cannot reach).
    pub fn p_kill(&self, side: usize, firer: usize, target: usize, range: usize) -> f64 {
        self.shots[side][self.slot(side, firer, target, range)].as_ref().map_or(0.0, |(_, p)| *p)
    }
}

/// Each firer entry's ranking of enemy entries at each range, under a policy.
pub(crate) struct Targeting {
    policy: TargetPolicy,
    /// [side][firer entry][range] -> enemy entries it reaches, most preferred first.
    order: [Vec<Vec<Vec<usize>>>; 2],
}

impl Targeting {
    /// Ranks targets once per range, before the first turn. Ties keep listed order.
    pub fn new<S>(policy: TargetPolicy, fires: &Fires<S>) -> Self {
        let order = [0, 1].map(|side| {
            (0..fires.groups[side])
                .map(|firer| {
                    (0..fires.ranges)
                        .map(|r| {
                            let mut reach: Vec<usize> = (0..fires.groups[enemy(side)])
                                .filter(|&t| fires.get(side, firer, t, r).is_some())
                                .collect();
                            let score = |t: usize| match policy {
                                TargetPolicy::MostDangerous => (0..fires.groups[side])
                                    .map(|ours| fires.p_kill(enemy(side), t, ours, r))
                                    .fold(0.0, f64::max),
                                TargetPolicy::MostVulnerable => fires.p_kill(side, firer, t, r),
                                TargetPolicy::FirstListed | TargetPolicy::Spread => 0.0,
                            };
                            reach.sort_by(|&x, &y| score(y).total_cmp(&score(x)));
                            reach
                        })
                        .collect()
                })
                .collect()
        });
        Targeting { policy, order }
    }

    /// The enemy unit that unit `nth` of `side` (its index in its force), of entry
    /// `firer`, fires at in range index `range`; `alive(u)` says whether enemy unit
    /// `u` can be fired at. `None` when nothing it reaches is left.
    pub fn choose(
        &self,
        layout: &Layout,
        side: usize,
        firer: usize,
        nth: usize,
        range: usize,
        alive: impl Fn(usize) -> bool,
    ) -> Option<usize> {
        let enemies = &layout.sides[enemy(side)].groups;
        let ranked = &self.order[side][firer][range];
        let living = ranked.iter().flat_map(|&g| enemies[g].units.clone()).filter(|&u| alive(u));
        match self.policy {
            TargetPolicy::Spread => {
                let n = living.clone().count();
                if n == 0 { None } else { living.clone().nth(nth % n) }
            }
            _ => living.clone().next(),
        }
    }
}
