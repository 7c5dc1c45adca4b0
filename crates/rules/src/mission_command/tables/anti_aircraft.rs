//! The anti-aircraft tables (seed 004, Anti-aircraft Fire To Hit and its damage
//! table): scores by weapon row, altitude and size, and what a hit does.

use super::{ColumnsFile, score};
use combat_odds_core::error::Result;
use combat_odds_core::tables::grid::{self, NamedRow};
use combat_odds_core::tables::{ModifierTable, Source, TableFile};

/// The anti-aircraft modifier rows.
const AA_ROWS: &[&str] = &["multi_barrel"];

/// AA to-hit and damage cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AaCell<T> {
    /// The value.
    Value(T),
    /// "N/A": the firer cannot engage this target.
    NotApplicable,
}

impl<T: std::fmt::Display> std::fmt::Display for AaCell<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AaCell::Value(v) => v.fmt(f),
            AaCell::NotApplicable => f.write_str("N/A"),
        }
    }
}

/// "15 / 18": the scores that damage and destroy; `-` = cannot destroy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AaDamage {
    /// Damaged on this or more.
    pub damaged: i32,
    /// Destroyed on this or more.
    pub destroyed: Option<i32>,
}

impl std::fmt::Display for AaDamage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.destroyed {
            Some(d) => write!(f, "{} / {d}", self.damaged),
            None => write!(f, "{} / -", self.damaged),
        }
    }
}

/// Anti-aircraft fire: to hit (with its modifiers) and convert to damaged/destroyed.
#[derive(Debug, Clone)]
pub struct AntiAircraft {
    /// To-hit columns: attack mode or altitude.
    pub altitudes: Vec<String>,
    /// To-hit rows by firer.
    pub to_hit: Vec<NamedRow<AaCell<i32>>>,
    /// "+2 for multi-barrelled weapons".
    pub modifiers: ModifierTable,
    /// d20s an integrated or coherent infantry element rolls.
    pub infantry_dice: u32,
    /// Damage columns: aircraft size.
    pub sizes: Vec<String>,
    /// Damage rows by firer, in the same order as `to_hit`.
    pub damage: Vec<NamedRow<AaDamage>>,
    /// Provenance of the to-hit and damage tables.
    pub sources: [Source; 2],
}

pub(super) fn load_anti_aircraft(to_hit: &TableFile, damage: &TableFile) -> Result<AntiAircraft> {
    let hit: ColumnsFile = to_hit.parse()?;
    let dmg: ColumnsFile = damage.parse()?;
    if hit.columns.len() != hit.column_labels.len() || dmg.columns.len() != dmg.column_labels.len() {
        return Err(to_hit.error("give one column label per column"));
    }
    let infantry_dice = match hit.infantry_dice {
        Some(n) if (1..=4).contains(&n) => n,
        _ => return Err(to_hit.error("infantry_dice must be 1 to 4 (the seed rolls 2d20 for infantry elements)")),
    };
    if dmg.infantry_dice.is_some() || !dmg.modifier.is_empty() {
        return Err(damage.error("the damage table has no `infantry_dice` or modifier rows"));
    }
    grid::unique(to_hit, hit.firer.iter().map(|r| &r.name))?;
    grid::unique(damage, dmg.firer.iter().map(|r| &r.name))?;
    let width = |n: usize| (n, n);
    let to_hit_rows: Vec<NamedRow<AaCell<i32>>> = hit
        .firer
        .iter()
        .map(|r| {
            r.read(to_hit, width(hit.columns.len()), |t| {
                if t == "N/A" { Ok(AaCell::NotApplicable) } else { score(t).map(AaCell::Value) }
            })
        })
        .collect::<Result<_>>()?;
    let damage_rows: Vec<NamedRow<AaDamage>> = dmg
        .firer
        .iter()
        .map(|r| {
            r.read(damage, width(dmg.columns.len()), |t| {
                let (d, x) =
                    t.split_once('/').ok_or_else(|| format!("`{t}` is not a cell; write `15 / 18` or `18 / -`"))?;
                let damaged = score(d.trim())?;
                let destroyed = match x.trim() {
                    "-" => None,
                    x => Some(score(x)?)
                        .filter(|x| *x > damaged)
                        .ok_or_else(|| format!("`{t}`: destroying must need more than damaging"))?
                        .into(),
                };
                Ok(AaDamage { damaged, destroyed })
            })
        })
        .collect::<Result<_>>()?;
    let hit_names: Vec<&str> = to_hit_rows.iter().map(|r| r.name.as_str()).collect();
    let dmg_names: Vec<&str> = damage_rows.iter().map(|r| r.name.as_str()).collect();
    if hit_names != dmg_names {
        return Err(damage.error(format!(
            "firer rows must match aa_to_hit.toml: {} (found {})",
            hit_names.join(", "),
            dmg_names.join(", ")
        )));
    }
    Ok(AntiAircraft {
        altitudes: hit.columns,
        to_hit: to_hit_rows,
        modifiers: ModifierTable::from_rows(to_hit, hit.source.clone(), hit.modifier, AA_ROWS)?,
        infantry_dice,
        sizes: dmg.columns,
        damage: damage_rows,
        sources: [hit.source, dmg.source],
    })
}
