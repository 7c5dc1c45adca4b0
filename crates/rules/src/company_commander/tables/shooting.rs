//! The shooting tables (seed 003, To Hit and Attacks): range bands and to-hit scores by
//! shooter and target, and the attacks each weapon rolls.

use serde::Deserialize;
use toml::Spanned;

use super::die;
use combat_odds_core::dice::Die;
use combat_odds_core::error::{Result, unknown};
use combat_odds_core::tables::{ModifierRow, ModifierTable, Source, TableFile};

/// One band of direct fire range as a share of maximum range.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RangeBand {
    /// Ranges up to this percentage of the maximum (and above the band before).
    pub up_to_percent: u32,
    /// Its modifier row, if it has one.
    pub modifier: Option<String>,
}

/// The Ballistic Score and its modifiers.
#[derive(Debug, Clone)]
pub struct ToHit {
    /// The to-hit die.
    pub die: Die,
    /// The base score.
    pub ballistic_score: i32,
    /// A natural roll of this always hits.
    pub always_hits: u32,
    /// A natural roll of this always misses.
    pub always_misses: u32,
    /// Range bands, nearest first, the last at 100%.
    pub range_bands: Vec<RangeBand>,
    /// "All shooting".
    pub all_shooting: ModifierTable,
    /// "Direct fire only".
    pub direct_fire: ModifierTable,
    /// "Indirect fire only".
    pub indirect_fire: ModifierTable,
    /// Provenance.
    pub source: Source,
}

/// The rows of each to-hit chart the rules apply.
pub const ALL_SHOOTING: [&str; 10] = [
    "target_cautious_or_suppressed",
    "shooter_elite",
    "shooter_veteran",
    "target_trained",
    "target_green",
    "target_elite",
    "target_veteran",
    "shooter_trained",
    "shooter_green",
    "smart_weapon",
];
/// Direct fire rows.
pub const DIRECT_FIRE: [&str; 13] = [
    "rangefinder",
    "range_up_to_20_percent",
    "range_40_to_60_percent",
    "range_60_to_80_percent",
    "range_over_80_percent",
    "shooter_moved",
    "stabiliser_first_generation",
    "stabiliser_second_generation",
    "overworked_moved",
    "low_ammo",
    "target_in_cover_or_hull_down",
    "smoke",
    "smart_weapon_vs_ew",
];
/// Indirect fire rows.
pub const INDIRECT_FIRE: [&str; 3] = ["target_visible", "target_not_visible", "target_in_cover"];

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawToHit {
    die: Spanned<u32>,
    ballistic_score: Spanned<i32>,
    always_hits: Spanned<u32>,
    always_misses: Spanned<u32>,
    source: Source,
    range_band: Vec<RawRangeBand>,
    all_shooting: Vec<ModifierRow>,
    direct_fire: Vec<ModifierRow>,
    indirect_fire: Vec<ModifierRow>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRangeBand {
    up_to_percent: Spanned<u32>,
    modifier: Option<Spanned<String>>,
}

impl ToHit {
    pub(super) fn load(f: &TableFile) -> Result<Self> {
        let raw: RawToHit = f.parse()?;
        let die = die(f, &raw.die, "die")?;
        let face = |v: &Spanned<u32>, what: &str| {
            if (1..=die.sides()).contains(v.get_ref()) {
                Ok(*v.get_ref())
            } else {
                Err(f.error_at(v.span().start, format!("{what} {} is not a face of a d{}", v.get_ref(), die.sides())))
            }
        };
        let always_hits = face(&raw.always_hits, "always_hits")?;
        let always_misses = face(&raw.always_misses, "always_misses")?;
        let score = *raw.ballistic_score.get_ref();
        if !(0..=i32::try_from(die.sides()).unwrap_or(i32::MAX)).contains(&score) {
            return Err(f.error_at(
                raw.ballistic_score.span().start,
                format!("ballistic_score {score} is off a d{}", die.sides()),
            ));
        }
        let direct_fire = ModifierTable::from_rows(f, raw.source.clone(), raw.direct_fire, &DIRECT_FIRE)?;
        let mut range_bands = Vec::with_capacity(raw.range_band.len());
        let mut previous = 0;
        for b in &raw.range_band {
            let up_to = *b.up_to_percent.get_ref();
            if up_to <= previous || up_to > 100 {
                return Err(f.error_at(
                    b.up_to_percent.span().start,
                    format!("range band up to {up_to}% must rise above {previous}% and stay within 100%"),
                ));
            }
            previous = up_to;
            if let Some(m) = &b.modifier
                && !DIRECT_FIRE[1..5].contains(&m.get_ref().as_str())
            {
                return Err(f.error_at(
                    m.span().start,
                    unknown("range modifier", m.get_ref(), DIRECT_FIRE[1..5].iter().copied()),
                ));
            }
            range_bands
                .push(RangeBand { up_to_percent: up_to, modifier: b.modifier.as_ref().map(|m| m.get_ref().clone()) });
        }
        if previous != 100 {
            return Err(f.error("the last range band must reach `up_to_percent = 100` (the weapon's maximum range)"));
        }
        Ok(ToHit {
            die,
            ballistic_score: score,
            always_hits,
            always_misses,
            range_bands,
            all_shooting: ModifierTable::from_rows(f, raw.source.clone(), raw.all_shooting, &ALL_SHOOTING)?,
            direct_fire,
            indirect_fire: ModifierTable::from_rows(f, raw.source.clone(), raw.indirect_fire, &INDIRECT_FIRE)?,
            source: raw.source,
        })
    }

    /// The band holding `range` of `max` (both in hexes; `range <= max`).
    pub fn range_band(&self, range: u32, max: u32) -> &RangeBand {
        // range / max <= p / 100, in integers.
        self.range_bands
            .iter()
            .find(|b| u64::from(range) * 100 <= u64::from(b.up_to_percent) * u64::from(max))
            .expect("the last band reaches 100%")
    }
}

/// Find the number of attacks.
#[derive(Debug, Clone)]
pub struct Attacks {
    /// Indirect fire attacks per strength point of the shooting unit.
    pub indirect_fire_per_strength_point: u32,
    /// Provenance.
    pub source: Source,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAttacks {
    indirect_fire_per_strength_point: Spanned<u32>,
    source: Source,
}

/// The most attacks one entry makes per strength point: past this is a typo.
pub(crate) const MAX_RATE_OF_FIRE: u32 = 20;

impl Attacks {
    pub(super) fn load(f: &TableFile) -> Result<Self> {
        let raw: RawAttacks = f.parse()?;
        let n = *raw.indirect_fire_per_strength_point.get_ref();
        if !(1..=MAX_RATE_OF_FIRE).contains(&n) {
            return Err(f.error_at(
                raw.indirect_fire_per_strength_point.span().start,
                format!("indirect_fire_per_strength_point must be from 1 to {MAX_RATE_OF_FIRE}, not {n}"),
            ));
        }
        Ok(Attacks { indirect_fire_per_strength_point: n, source: raw.source })
    }
}
