//! Mission Command's tables, loaded from `rulesets/mission-command/` and checked
//! against the shape of seed 004. Every cell is read into what it means here (a d20
//! score, "No casualty", "Area Fire", range-conditional KO clauses...), so the rules
//! never see a cell's text.
//!
//! One module per table family: [`point_to_point`], [`area_fire`], [`reaction`] and
//! [`anti_aircraft`]; [`Tables`] and the loading helpers they share stay here.

mod point_to_point;
mod area_fire;
mod reaction;
mod anti_aircraft;

pub use anti_aircraft::{AaCell, AaDamage, AntiAircraft};
pub use area_fire::{
    AreaFireAfv, AreaFireBuildings, AreaKoCell, AreaRange, AreaSystem, BUILDING_RESULTS, BuildingCell, Facing,
    Intensity,
};
pub(crate) use point_to_point::ARMOUR_CLASSES;
pub use point_to_point::{
    CASUALTY_COLUMNS, Casualty, CasualtyCell, Ko, KoCell, KoValue, RangeClause, ToHit, ToHitCell,
};
pub use reaction::{REACTION_RESULTS, Reaction};

use anti_aircraft::load_anti_aircraft;
use area_fire::{load_area_afv, load_area_buildings, load_ranges};
use point_to_point::{load_casualty, load_ko, load_to_hit};
use reaction::load_reaction;
use serde::Deserialize;

use combat_odds_core::error::Result;
use combat_odds_core::tables::grid::{self, RawRow};
use combat_odds_core::tables::{Embedded, ModifierRow, Source, TableFile, file};

/// The embedded table files of this ruleset.
pub const EMBEDDED: Embedded = Embedded {
    ruleset: "mission-command",
    files: &[
        ("to_hit.toml", include_str!("../../../../../rulesets/mission-command/to_hit.toml")),
        ("to_hit_modifiers.toml", include_str!("../../../../../rulesets/mission-command/to_hit_modifiers.toml")),
        ("casualty.toml", include_str!("../../../../../rulesets/mission-command/casualty.toml")),
        ("ko_part1.toml", include_str!("../../../../../rulesets/mission-command/ko_part1.toml")),
        ("ko_part2.toml", include_str!("../../../../../rulesets/mission-command/ko_part2.toml")),
        ("area_fire_afv.toml", include_str!("../../../../../rulesets/mission-command/area_fire_afv.toml")),
        ("area_fire_buildings.toml", include_str!("../../../../../rulesets/mission-command/area_fire_buildings.toml")),
        ("area_fire_ranges.toml", include_str!("../../../../../rulesets/mission-command/area_fire_ranges.toml")),
        ("reaction_modifiers.toml", include_str!("../../../../../rulesets/mission-command/reaction_modifiers.toml")),
        ("reaction_results.toml", include_str!("../../../../../rulesets/mission-command/reaction_results.toml")),
        ("aa_to_hit.toml", include_str!("../../../../../rulesets/mission-command/aa_to_hit.toml")),
        ("aa_damage.toml", include_str!("../../../../../rulesets/mission-command/aa_damage.toml")),
        ("catalogue.toml", include_str!("../../../../../rulesets/mission-command/catalogue.toml")),
        ("equivalents.toml", include_str!("../../../../../rulesets/mission-command/equivalents.toml")),
    ],
};

/// Every d20 score a table prints lies here: a roll (after modifiers) at least the
/// score succeeds.
const SCORES: (i32, i32) = (1, 20);

fn score(text: &str) -> std::result::Result<i32, String> {
    grid::number(text, SCORES.0, SCORES.1, "d20 score")
}

/// Every Mission Command table, validated.
#[derive(Debug, Clone)]
pub struct Tables {
    /// Point-to-point Fire to Hit.
    pub to_hit: ToHit,
    /// Foot: Convert Hit to Casualty.
    pub casualty: Casualty,
    /// Point-to-point Conversion to KO, parts 1 and 2.
    pub ko: Ko,
    /// Area Fire Convert to KO for AFVs.
    pub area_afv: AreaFireAfv,
    /// Area Fire vs buildings and fortifications.
    pub area_buildings: AreaFireBuildings,
    /// Ranges for Area Fire.
    pub area_ranges: Vec<AreaRange>,
    /// Provenance of the ranges.
    pub area_ranges_source: Source,
    /// Reaction test.
    pub reaction: Reaction,
    /// Anti-aircraft fire.
    pub anti_aircraft: AntiAircraft,
}

impl Tables {
    /// Parses and validates every table.
    pub fn load(files: &[TableFile]) -> Result<Self> {
        let (area_ranges, area_ranges_source) = load_ranges(file(files, "area_fire_ranges.toml"))?;
        Ok(Tables {
            to_hit: load_to_hit(file(files, "to_hit.toml"), file(files, "to_hit_modifiers.toml"))?,
            casualty: load_casualty(file(files, "casualty.toml"))?,
            ko: load_ko(file(files, "ko_part1.toml"), file(files, "ko_part2.toml"))?,
            area_afv: load_area_afv(file(files, "area_fire_afv.toml"))?,
            area_buildings: load_area_buildings(file(files, "area_fire_buildings.toml"))?,
            area_ranges,
            area_ranges_source,
            reaction: load_reaction(file(files, "reaction_modifiers.toml"), file(files, "reaction_results.toml"))?,
            anti_aircraft: load_anti_aircraft(file(files, "aa_to_hit.toml"), file(files, "aa_damage.toml"))?,
        })
    }
}

/// Requires a file's columns to be exactly the ones the rules know.
fn expect_columns(f: &TableFile, what: &str, got: &[String], labels: &[String], expected: &[&str]) -> Result<()> {
    if got != expected {
        return Err(f.error(format!(
            "{what} must be [{}] in that order (found [{}])",
            expected.join(", "),
            got.join(", ")
        )));
    }
    if labels.len() != expected.len() {
        return Err(f.error(format!(
            "{what}: give one label per column ({} labels for {} columns)",
            labels.len(),
            expected.len()
        )));
    }
    Ok(())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ColumnsFile {
    columns: Vec<String>,
    column_labels: Vec<String>,
    infantry_dice: Option<u32>,
    source: Source,
    firer: Vec<RawRow>,
    #[serde(default)]
    modifier: Vec<ModifierRow>,
}

#[cfg(test)]
mod tests;
