//! Company Commander's tables, loaded from `rulesets/company-commander/` and checked
//! against the shape of seed 003. Every cell is read into what it means here (a die
//! threshold, a result name, a band of faces), so the rules never see a cell's text.
//!
//! One module per table family: [`shooting`], [`damage`], [`close_assault`] and
//! [`support`] (barrages and AA fire); the loading helpers, troop quality and [`Tables`]
//! stay here.

mod shooting;
mod damage;
mod close_assault;
mod support;

pub use close_assault::CloseAssault;
pub use damage::{AP_VALUES, Armour, CoverSaves, Facing, HitDamage, HitKind, StrengthReading, WeaponStrength};
pub(crate) use shooting::MAX_RATE_OF_FIRE;
pub use shooting::{Attacks, ToHit};
pub use support::{AaFire, Barrages};

use serde::Deserialize;
use toml::Spanned;

use super::fire::Effect;
use combat_odds_core::dice::Die;
use combat_odds_core::error::{Result, listing, unknown};
use combat_odds_core::tables::{Embedded, Source, TableFile, file};

/// The embedded table files of this ruleset.
pub const EMBEDDED: Embedded = Embedded {
    ruleset: "company-commander",
    files: &[
        ("quality.toml", include_str!("../../../../../rulesets/company-commander/quality.toml")),
        ("to_hit.toml", include_str!("../../../../../rulesets/company-commander/to_hit.toml")),
        ("attacks.toml", include_str!("../../../../../rulesets/company-commander/attacks.toml")),
        ("armour.toml", include_str!("../../../../../rulesets/company-commander/armour.toml")),
        ("hit_damage.toml", include_str!("../../../../../rulesets/company-commander/hit_damage.toml")),
        ("cover_saves.toml", include_str!("../../../../../rulesets/company-commander/cover_saves.toml")),
        ("weapon_strength.toml", include_str!("../../../../../rulesets/company-commander/weapon_strength.toml")),
        ("close_assault.toml", include_str!("../../../../../rulesets/company-commander/close_assault.toml")),
        ("barrage.toml", include_str!("../../../../../rulesets/company-commander/barrage.toml")),
        ("aa_fire.toml", include_str!("../../../../../rulesets/company-commander/aa_fire.toml")),
        ("catalogue.toml", include_str!("../../../../../rulesets/company-commander/catalogue.toml")),
        ("equivalents.toml", include_str!("../../../../../rulesets/company-commander/equivalents.toml")),
    ],
};

/// Unit qualities from lowest to highest ("Unit Quality"); every table is keyed by
/// these names.
pub const QUALITIES: [&str; 5] = ["green", "trained", "experienced", "veteran", "elite"];

/// The lists whose quality letters the seed prints, in `quality.toml`'s order.
pub(crate) const LETTER_LISTS: [&str; 4] = ["unit_quality", "shooter_modifier", "target_modifier", "close_assault"];

/// A die of `sides` read from a table file (2 to 100 faces).
fn die(file: &TableFile, sides: &Spanned<u32>, what: &str) -> Result<Die> {
    match *sides.get_ref() {
        n @ 2..=100 => Ok(Die::new(n)),
        n => Err(file.error_at(sides.span().start, format!("{what}: a d{n} cannot be rolled; use 2 to 100 faces"))),
    }
}

/// "N or less" (or a bare N) as the highest face that succeeds, within the die.
fn at_most(file: &TableFile, text: &Spanned<String>, d: Die) -> Result<u32> {
    let t = text.get_ref().trim();
    let n = t.strip_suffix("or less").unwrap_or(t).trim().parse::<u32>().ok().filter(|n| *n <= d.sides());
    n.ok_or_else(|| {
        file.error_at(
            text.span().start,
            format!("`{t}` is not a score on a d{}; write `N or less` with N from 0 to {}", d.sides(), d.sides()),
        )
    })
}

/// "N or more" (or a bare N) as the lowest face that succeeds, within the die.
fn at_least(file: &TableFile, text: &Spanned<String>, d: Die) -> Result<u32> {
    let t = text.get_ref().trim();
    let n = t.strip_suffix("or more").unwrap_or(t).trim().parse::<u32>().ok().filter(|n| (1..=d.sides()).contains(n));
    n.ok_or_else(|| {
        file.error_at(
            text.span().start,
            format!("`{t}` is not a score on a d{}; write `N or more` with N from 1 to {}", d.sides(), d.sides()),
        )
    })
}

/// A result name (`no_effect`, `suppressed`, `damaged`, `destroyed`) among `allowed`.
fn effect(file: &TableFile, name: &Spanned<String>, allowed: &[Effect]) -> Result<Effect> {
    let names: Vec<&str> = allowed.iter().map(|e| e.name()).collect();
    Effect::named(name.get_ref())
        .filter(|e| allowed.contains(e))
        .ok_or_else(|| file.error_at(name.span().start, unknown("result", name.get_ref(), names)))
}

/// One quality and the letter each of the seed's lists gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Quality {
    /// Stable name.
    pub name: String,
    /// As printed.
    pub label: String,
    /// Letters in [`LETTER_LISTS`] order; empty where a list has no row.
    pub letters: [String; 4],
}

/// Unit Quality.
#[derive(Debug, Clone)]
pub struct Qualities {
    /// In [`QUALITIES`] order.
    pub rows: Vec<Quality>,
    /// Provenance.
    pub source: Source,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawQualities {
    source: Source,
    quality: Vec<RawQuality>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawQuality {
    name: Spanned<String>,
    label: String,
    letters: RawLetters,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLetters {
    unit_quality: String,
    shooter_modifier: String,
    target_modifier: String,
    close_assault: String,
}

impl Qualities {
    pub(super) fn load(f: &TableFile) -> Result<Self> {
        let raw: RawQualities = f.parse()?;
        let names: Vec<&Spanned<String>> = raw.quality.iter().map(|q| &q.name).collect();
        in_order(f, &names, &QUALITIES, "quality")?;
        let rows = raw
            .quality
            .into_iter()
            .map(|q| Quality {
                name: q.name.into_inner(),
                label: q.label,
                letters: [
                    q.letters.unit_quality,
                    q.letters.shooter_modifier,
                    q.letters.target_modifier,
                    q.letters.close_assault,
                ],
            })
            .collect();
        Ok(Qualities { rows, source: raw.source })
    }

    /// Why a letter is not accepted as a quality: what each list means by it.
    pub(crate) fn letter_conflict(&self, letter: &str) -> Option<String> {
        let upper = letter.to_ascii_uppercase();
        let found: Vec<(&str, &str)> = LETTER_LISTS
            .iter()
            .enumerate()
            .filter_map(|(i, list)| self.rows.iter().find(|q| q.letters[i] == upper).map(|q| (q.name.as_str(), *list)))
            .collect();
        let first = found.first()?.0;
        let why = if found.iter().all(|(name, _)| *name == first) {
            // This letter happens to agree everywhere; others (C, D, E) do not, so
            // letters are refused alike and every table is keyed on names.
            format!("means {first} in every list, but other letters mean different qualities in different lists")
        } else {
            let meanings: Vec<String> = found.iter().map(|(name, list)| format!("{name} in {list}")).collect();
            format!("means {} in the seed's lists, which disagree", meanings.join(", "))
        };
        Some(format!("quality letter `{letter}` {why}; write the name instead ({})", listing(QUALITIES)))
    }
}

/// Requires exactly the names `expected`, in that order.
fn in_order(f: &TableFile, names: &[&Spanned<String>], expected: &[&str], what: &str) -> Result<()> {
    for (i, want) in expected.iter().enumerate() {
        match names.get(i) {
            Some(n) if n.get_ref() == want => {}
            Some(n) => {
                return Err(f.error_at(
                    n.span().start,
                    format!(
                        "{what} row {} is `{}`; the rows must be {} in that order",
                        i + 1,
                        n.get_ref(),
                        listing(expected.iter().copied())
                    ),
                ));
            }
            None => {
                return Err(f.error(format!(
                    "missing {what} row `{want}`; the rows must be {}",
                    listing(expected.iter().copied())
                )));
            }
        }
    }
    if let Some(extra) = names.get(expected.len()) {
        return Err(f.error_at(extra.span().start, unknown(what, extra.get_ref(), expected.iter().copied())));
    }
    Ok(())
}

/// Every Company Commander table.
#[derive(Debug, Clone)]
pub struct Tables {
    /// Unit Quality.
    pub quality: Qualities,
    /// Find the number of hits.
    pub to_hit: ToHit,
    /// Find the number of attacks.
    pub attacks: Attacks,
    /// Armoured targets.
    pub armour: Armour,
    /// Hit damage.
    pub hit_damage: HitDamage,
    /// Cover save values.
    pub cover_saves: CoverSaves,
    /// Weapon strength outcome.
    pub weapon_strength: WeaponStrength,
    /// Close assault.
    pub close_assault: CloseAssault,
    /// Barrage types.
    pub barrage: Barrages,
    /// A.A. fire.
    pub aa_fire: AaFire,
}

impl Tables {
    /// Loads every table from the loaded files.
    pub fn load(files: &[TableFile]) -> Result<Self> {
        Ok(Tables {
            quality: Qualities::load(file(files, "quality.toml"))?,
            to_hit: ToHit::load(file(files, "to_hit.toml"))?,
            attacks: Attacks::load(file(files, "attacks.toml"))?,
            armour: Armour::load(file(files, "armour.toml"))?,
            hit_damage: HitDamage::load(file(files, "hit_damage.toml"))?,
            cover_saves: CoverSaves::load(file(files, "cover_saves.toml"))?,
            weapon_strength: WeaponStrength::load(file(files, "weapon_strength.toml"))?,
            close_assault: CloseAssault::load(file(files, "close_assault.toml"))?,
            barrage: Barrages::load(file(files, "barrage.toml"))?,
            aa_fire: AaFire::load(file(files, "aa_fire.toml"))?,
        })
    }
}
