//! Which rows of the point-to-point tables a weapon uses: the to-hit row, the
//! casualty row for each range (several casualty rows depend on range), and the KO
//! row. The shipped catalogue is illustrative; scenarios may give `weapon_data`
//! inline instead.

use std::collections::BTreeMap;

use serde::Deserialize;
use toml::Spanned;

use super::tables::Tables;
use crate::ruleset::CatalogueShape;
use crate::setup::Labelled;
use combat_odds_core::document::Document;
use combat_odds_core::error::{Result, unknown};
use combat_odds_core::tables::{Source, TableFile};

/// A weapon's rows, resolved against the loaded tables (indices into them).
#[derive(Debug, Clone, PartialEq)]
pub struct Weapon {
    /// Stable name.
    pub name: String,
    /// What it is.
    pub label: String,
    /// Row of Point-to-point Fire to Hit.
    pub to_hit: usize,
    /// Casualty rows, nearest first: (row, up to this range in cm; `None` = beyond).
    pub casualty: Vec<(usize, Option<f64>)>,
    /// Row of Point-to-point Conversion to KO; `None` = hits never harm armour.
    pub ko: Option<usize>,
    /// A gun or howitzer other than an AT gun: it may not shoot and move in one turn.
    pub artillery: bool,
    /// A multi-barrel MG or auto-cannon: it may take the `multi_barrel` modifier.
    pub multi_barrel: bool,
}

/// The to-hit rows of MGs and auto-cannon, the only weapons with a multi-barrel form
/// (seed 004, Point-to-point Fire to Hit: "Firer is multi-barrel MG or auto-cannon").
const MULTI_BARREL_ROWS: [&str; 3] = ["lmg", "tripod_mg_hmg", "flak_autocannon_20_40mm"];

impl Weapon {
    /// The casualty row at `range`, if any row reaches it.
    pub(crate) fn casualty_row(&self, range: f64) -> Option<usize> {
        self.casualty.iter().find(|(_, up_to)| up_to.is_none_or(|u| range <= u)).map(|(row, _)| *row)
    }
}

/// A weapon as written in the catalogue or a scenario.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawWeapon {
    /// Required in the catalogue; a scenario's `weapon_data` is named by its firer.
    name: Option<Spanned<String>>,
    label: Option<String>,
    to_hit: Spanned<String>,
    #[serde(default)]
    casualty: Vec<RawCasualty>,
    ko: Option<Spanned<String>>,
    #[serde(default)]
    artillery: bool,
    #[serde(default)]
    multi_barrel: Option<Spanned<bool>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCasualty {
    row: Spanned<String>,
    up_to_cm: Option<Spanned<f64>>,
}

impl RawWeapon {
    /// Checks every row name against the tables; errors point into `doc`.
    pub(crate) fn resolve(self, name: &str, doc: &Document, tables: &Tables) -> Result<Weapon> {
        let find = |what: &str, wanted: &Spanned<String>, names: Vec<&str>| {
            names.iter().position(|n| n == wanted.get_ref()).ok_or_else(|| {
                doc.error_at(
                    wanted.span().start,
                    format!("{name}: {}", unknown(what, wanted.get_ref(), names.iter().copied())),
                )
            })
        };
        let to_hit =
            find("to-hit row", &self.to_hit, tables.to_hit.rows.iter().map(|r| r.row.name.as_str()).collect())?;
        let mut casualty = Vec::with_capacity(self.casualty.len());
        for (i, c) in self.casualty.iter().enumerate() {
            let row = find("casualty row", &c.row, tables.casualty.rows.iter().map(|r| r.name.as_str()).collect())?;
            let up_to = c.up_to_cm.as_ref().map(|u| (*u.get_ref(), u.span().start));
            let last = i + 1 == self.casualty.len();
            match (up_to, casualty.last()) {
                (Some((u, at)), _) if !(u.is_finite() && u > 0.0) => {
                    return Err(doc.error_at(at, format!("{name}: up_to_cm {u} must be a positive distance")));
                }
                (Some((u, at)), Some(&(_, Some(prev)))) if u <= prev => {
                    return Err(
                        doc.error_at(at, format!("{name}: casualty rows run nearest first; {u} cm follows {prev} cm"))
                    );
                }
                (None, _) if !last => {
                    return Err(doc.error_at(
                        c.row.span().start,
                        format!("{name}: only the last casualty row may leave out up_to_cm"),
                    ));
                }
                _ => {}
            }
            casualty.push((row, up_to.map(|(u, _)| u)));
        }
        let ko = self
            .ko
            .as_ref()
            .map(|k| find("KO row", k, tables.ko.rows.iter().map(|r| r.name.as_str()).collect()))
            .transpose()?;
        let multi_barrel = match &self.multi_barrel {
            Some(flag) if *flag.get_ref() && !MULTI_BARREL_ROWS.contains(&self.to_hit.get_ref().as_str()) => {
                return Err(doc.error_at(
                    flag.span().start,
                    format!(
                        "{name}: `multi_barrel = true` is for an MG or auto-cannon (to-hit rows {}), not `{}`",
                        combat_odds_core::error::listing(MULTI_BARREL_ROWS),
                        self.to_hit.get_ref()
                    ),
                ));
            }
            Some(flag) => *flag.get_ref(),
            None => false,
        };
        Ok(Weapon {
            name: name.to_string(),
            label: self.label.or(self.name.map(Spanned::into_inner)).unwrap_or_else(|| name.to_string()),
            to_hit,
            casualty,
            ko,
            artillery: self.artillery,
            multi_barrel,
        })
    }
}

/// The shipped weapons, by name.
#[derive(Debug, Clone)]
pub struct Catalogue {
    /// Weapons by name.
    pub weapons: BTreeMap<String, Weapon>,
    /// Provenance.
    pub source: Source,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CatalogueFile {
    source: Source,
    weapon: Vec<RawWeapon>,
}

impl Catalogue {
    /// Loads and resolves the catalogue.
    pub fn load(f: &TableFile, tables: &Tables) -> Result<Self> {
        let raw: CatalogueFile = f.parse()?;
        let mut names = Vec::with_capacity(raw.weapon.len());
        for w in &raw.weapon {
            names.push(
                w.name
                    .clone()
                    .ok_or_else(|| f.error_at(w.to_hit.span().start, "every catalogue weapon needs a `name`"))?,
            );
        }
        combat_odds_core::tables::grid::unique(f, &names)?;
        let weapons = raw
            .weapon
            .into_iter()
            .zip(names)
            .map(|(w, name)| Ok((name.get_ref().clone(), w.resolve(name.get_ref(), f, tables)?)))
            .collect::<Result<_>>()?;
        Ok(Catalogue { weapons, source: raw.source })
    }
}

impl Labelled for Weapon {
    fn label(&self) -> &str {
        &self.label
    }
}

/// The catalogue as the page's editor offers it: the rows of the point-to-point tables
/// a weapon fires on (seed 004).
pub(crate) const SHAPE: CatalogueShape = CatalogueShape {
    file: "catalogue.toml",
    fields: &[
        ("weapon.name", "Its name in scenarios (letters, digits and _)"),
        ("weapon.label", "The weapon's name, as answers say it"),
        ("weapon.to_hit", "Its row of Point-to-point Fire to Hit"),
        ("weapon.casualty[].row", "A row of Foot: Convert Hit to Casualty, nearest first"),
        ("weapon.casualty[].up_to_cm", "The longest range in cm that row is read to (the last may be open)"),
        ("weapon.ko", "Its row of Point-to-point Conversion to KO (left out when its hits never harm armour)"),
        (
            "weapon.artillery",
            "Artillery: true for guns and howitzers other than anti-tank guns (they may not shoot and move in one turn)",
        ),
        ("weapon.multi_barrel", "Multi-barrel MG or auto-cannon: true or false (may take the +2)"),
    ],
};
