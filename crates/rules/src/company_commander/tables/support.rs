//! Support fire (seed 003, Barrages and AA Fire): each barrage type's chances and the
//! anti-aircraft levels.

use serde::Deserialize;
use toml::Spanned;

use super::die;
use combat_odds_core::dice::Die;
use combat_odds_core::error::{Result, unknown};
use combat_odds_core::tables::{Source, TableFile};

/// One barrage type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BarrageType {
    /// Stable name.
    pub name: String,
    /// As printed.
    pub label: String,
    /// Blast radius in hexes.
    pub radius: u32,
    /// The chance in 100 that each unit within it becomes a target.
    pub percent: u32,
}

/// Barrage types.
#[derive(Debug, Clone)]
pub struct Barrages {
    /// In table order.
    pub types: Vec<BarrageType>,
    /// Provenance.
    pub source: Source,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBarrages {
    source: Source,
    barrage: Vec<RawBarrage>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBarrage {
    name: Spanned<String>,
    label: String,
    radius: u32,
    percent: Spanned<u32>,
}

/// A percentage cell within 0..=100.
fn percent(f: &TableFile, v: &Spanned<u32>) -> Result<u32> {
    if *v.get_ref() <= 100 {
        Ok(*v.get_ref())
    } else {
        Err(f.error_at(v.span().start, format!("{}% is not a chance in 100", v.get_ref())))
    }
}

impl Barrages {
    pub(super) fn load(f: &TableFile) -> Result<Self> {
        let raw: RawBarrages = f.parse()?;
        combat_odds_core::tables::grid::unique(f, raw.barrage.iter().map(|b| &b.name))?;
        let types = raw
            .barrage
            .iter()
            .map(|b| {
                Ok(BarrageType {
                    name: b.name.get_ref().clone(),
                    label: b.label.clone(),
                    radius: b.radius,
                    percent: percent(f, &b.percent)?,
                })
            })
            .collect::<Result<_>>()?;
        Ok(Barrages { types, source: raw.source })
    }

    /// The type named `name`.
    pub fn get(&self, name: &str) -> std::result::Result<&BarrageType, String> {
        self.types
            .iter()
            .find(|b| b.name == name)
            .ok_or_else(|| unknown("barrage type", name, self.types.iter().map(|b| b.name.as_str())))
    }
}

/// One A.A. effectiveness level.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AaLevel {
    /// Stable name.
    pub name: String,
    /// As printed.
    pub label: String,
    /// The chance in 100 of hitting and damaging.
    pub percent: u32,
}

/// A.A. fire and aircraft saves.
#[derive(Debug, Clone)]
pub struct AaFire {
    /// The aircraft's save die.
    pub save_die: Die,
    /// Levels a twin mount adds.
    pub twin_levels: usize,
    /// Levels a quad mount adds.
    pub quad_levels: usize,
    /// Levels, lowest first.
    pub levels: Vec<AaLevel>,
    /// Provenance.
    pub source: Source,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAaFire {
    save_die: Spanned<u32>,
    twin_levels: usize,
    quad_levels: usize,
    source: Source,
    level: Vec<RawAaLevel>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAaLevel {
    name: Spanned<String>,
    label: String,
    percent: Spanned<u32>,
}

impl AaFire {
    pub(super) fn load(f: &TableFile) -> Result<Self> {
        let raw: RawAaFire = f.parse()?;
        combat_odds_core::tables::grid::unique(f, raw.level.iter().map(|l| &l.name))?;
        if raw.level.is_empty() {
            return Err(f.error("aa_fire.toml needs at least one `[[level]]`"));
        }
        let levels: Vec<AaLevel> = raw
            .level
            .iter()
            .map(|l| {
                Ok(AaLevel { name: l.name.get_ref().clone(), label: l.label.clone(), percent: percent(f, &l.percent)? })
            })
            .collect::<Result<_>>()?;
        if let Some(i) = levels.windows(2).position(|w| w[1].percent < w[0].percent) {
            return Err(f.error_at(
                raw.level[i + 1].percent.span().start,
                "levels must not fall: a higher level is at least as effective",
            ));
        }
        Ok(AaFire {
            save_die: die(f, &raw.save_die, "save_die")?,
            twin_levels: raw.twin_levels,
            quad_levels: raw.quad_levels,
            levels,
            source: raw.source,
        })
    }
}
