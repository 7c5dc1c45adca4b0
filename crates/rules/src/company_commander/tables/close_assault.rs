//! The Close Assault table (seed 003): hit scores and each assault weapon's outcomes.

use serde::Deserialize;
use toml::Spanned;

use super::{QUALITIES, at_least, at_most, die, effect};
use crate::company_commander::fire::Effect;
use combat_odds_core::dice::Die;
use combat_odds_core::error::{Result, unknown};
use combat_odds_core::tables::{RollRange, Source, TableFile};

/// One weapon class of close assault's weapon effectiveness.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AssaultWeapon {
    /// Stable name.
    pub name: String,
    /// As printed.
    pub label: String,
    /// The highest roll that succeeds.
    pub success_up_to: u32,
}

/// Close assault.
#[derive(Debug, Clone)]
pub struct CloseAssault {
    /// The die of all three rolls.
    pub die: Die,
    /// Added to the hit roll against an open topped target.
    pub open_topped_bonus: u32,
    /// The lowest successful hit roll by quality, in [`QUALITIES`] order.
    pub hit_score: Vec<u32>,
    /// The hit score rows' labels, in [`QUALITIES`] order.
    pub hit_labels: Vec<String>,
    /// Weapon classes.
    pub weapons: Vec<AssaultWeapon>,
    /// The outcome of each face of the last die.
    pub outcome: Vec<Effect>,
    /// The outcome bands as written.
    pub outcome_bands: Vec<(RollRange, Effect)>,
    /// Provenance.
    pub source: Source,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCloseAssault {
    die: Spanned<u32>,
    open_topped_bonus: Spanned<u32>,
    source: Source,
    hit_score: Vec<RawHitScore>,
    weapon_class: Vec<RawAssaultWeapon>,
    outcome: Vec<RawOutcome>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawHitScore {
    quality: Spanned<String>,
    label: String,
    score: Spanned<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAssaultWeapon {
    name: Spanned<String>,
    label: String,
    success: Spanned<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawOutcome {
    roll: Spanned<String>,
    result: Spanned<String>,
}

impl CloseAssault {
    /// The index of the weapon class named `name`.
    pub(crate) fn class(&self, name: &str) -> std::result::Result<usize, String> {
        self.weapons
            .iter()
            .position(|w| w.name == name)
            .ok_or_else(|| unknown("weapon class", name, self.weapons.iter().map(|w| w.name.as_str())))
    }

    pub(super) fn load(f: &TableFile) -> Result<Self> {
        let raw: RawCloseAssault = f.parse()?;
        let d = die(f, &raw.die, "die")?;
        let mut hit_score = vec![None; QUALITIES.len()];
        let mut hit_labels = vec![String::new(); QUALITIES.len()];
        for row in &raw.hit_score {
            let q = row.quality.get_ref();
            let Some(i) = QUALITIES.iter().position(|n| n == q) else {
                return Err(f.error_at(row.quality.span().start, unknown("quality", q, QUALITIES)));
            };
            if hit_score[i].is_some() {
                return Err(f.error_at(row.quality.span().start, format!("quality `{q}` appears twice; keep one row")));
            }
            hit_score[i] = Some(at_least(f, &row.score, d)?);
            hit_labels[i] = row.label.clone();
        }
        let hit_score = hit_score
            .into_iter()
            .zip(QUALITIES)
            .map(|(s, q)| s.ok_or_else(|| f.error(format!("missing the hit score of quality `{q}`"))))
            .collect::<Result<_>>()?;
        combat_odds_core::tables::grid::unique(f, raw.weapon_class.iter().map(|w| &w.name))?;
        let weapons = raw
            .weapon_class
            .iter()
            .map(|w| {
                Ok(AssaultWeapon {
                    name: w.name.get_ref().clone(),
                    label: w.label.clone(),
                    success_up_to: at_most(f, &w.success, d)?,
                })
            })
            .collect::<Result<_>>()?;
        let mut outcome = vec![None; d.sides() as usize];
        let mut outcome_bands = Vec::new();
        for row in &raw.outcome {
            let band: RollRange =
                row.roll.get_ref().parse().map_err(|m: String| f.error_at(row.roll.span().start, m))?;
            let e =
                effect(f, &row.result, &[Effect::NoEffect, Effect::Suppressed, Effect::Damaged, Effect::Destroyed])?;
            for face in 1..=d.sides() {
                if band.contains(face as i32) {
                    if outcome[face as usize - 1].is_some() {
                        return Err(f.error_at(row.roll.span().start, format!("face {face} is in two outcome bands")));
                    }
                    outcome[face as usize - 1] = Some(e);
                }
            }
            outcome_bands.push((band, e));
        }
        let outcome = outcome
            .into_iter()
            .enumerate()
            .map(|(i, o)| {
                o.ok_or_else(|| {
                    f.error(format!(
                        "face {} of the outcome die is in no band; the bands must cover 1 to {}",
                        i + 1,
                        d.sides()
                    ))
                })
            })
            .collect::<Result<_>>()?;
        Ok(CloseAssault {
            die: d,
            open_topped_bonus: *raw.open_topped_bonus.get_ref(),
            hit_score,
            hit_labels,
            weapons,
            outcome,
            outcome_bands,
            source: raw.source,
        })
    }
}
