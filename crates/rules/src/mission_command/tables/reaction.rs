//! The Reaction Test tables (seed 004, Reaction Test adjustments and results): the
//! modifiers and the result bands.

use serde::Deserialize;
use toml::Spanned;

use combat_odds_core::error::Result;
use combat_odds_core::tables::{Bands, ModifierTable, RollRange, Source, TableFile};

/// The reaction test modifier rows the rules apply.
const REACTION_ROWS: &[&str] = &[
    "not_elite_out_of_command",
    "raw",
    "orders_permit_withdrawal",
    "under_fire_from_afv_within_15cm",
    "retreating",
    "element_eliminated",
    "under_fire_from_unlocated",
    "under_fire_from_rear",
    "enemy_infantry_advancing_within_5cm",
    "afv_unsupported_in_close_conditions",
    "green",
    "soft_vehicles_or_animals_in_open",
    "element_suppressed",
    "elite_out_of_command",
    "friendly_moved_away_from_enemy",
    "under_salvo_flame_or_air_attack",
    "orders_require_advance",
    "enemy_seen_retreating",
    "enemy_afv_knocked_out",
    "friendly_afv_knocked_out",
    "partial_cover_or_concealed",
    "hull_down_afvs",
    "good_cover_or_field_fortifications",
    "higher_command_within_15cm",
    "veteran",
    "permanent_fortifications",
    "elite",
];

/// Reaction test results, in the seed's order (best first).
pub const REACTION_RESULTS: [&str; 5] =
    ["obey_orders", "halt_or_move_to_cover", "cease_fire_and_retire", "retreat", "rout"];

/// One reaction test result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReactionResult {
    /// Stable name.
    pub name: String,
    /// Its heading as printed.
    pub label: String,
    /// The modified scores it covers.
    pub roll: RollRange,
    /// What it does, briefly.
    pub summary: String,
}

/// Reaction Test adjustments and effects.
#[derive(Debug, Clone)]
pub struct Reaction {
    /// The modifiers, both columns.
    pub modifiers: ModifierTable,
    /// Results best first, as the seed lists them; their bands cover every score.
    pub results: Vec<ReactionResult>,
    /// Provenance of the results table.
    pub results_source: Source,
}

impl Reaction {
    /// The index into `results` (best first) of a modified score.
    pub fn result(&self, score: i32) -> usize {
        self.results.iter().position(|r| r.roll.contains(score)).expect("the bands cover every score (checked at load)")
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReactionResultsFile {
    die: Spanned<String>,
    source: Source,
    result: Vec<RawReactionResult>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawReactionResult {
    name: Spanned<String>,
    label: String,
    roll: Spanned<String>,
    summary: String,
}

pub(super) fn load_reaction(modifiers: &TableFile, results: &TableFile) -> Result<Reaction> {
    let raw: ReactionResultsFile = results.parse()?;
    if raw.die.get_ref() != "d10" {
        return Err(results.error_at(
            raw.die.span().start,
            "the reaction test rolls a `d10` (a d20 read without its tens is the same)",
        ));
    }
    let got: Vec<&str> = raw.result.iter().map(|r| r.name.get_ref().as_str()).collect();
    if got != REACTION_RESULTS {
        return Err(results.error(format!(
            "[[result]] must be {} in that order (found {})",
            REACTION_RESULTS.join(", "),
            got.join(", ")
        )));
    }
    // The seed lists results best first; bands are checked from the lowest score up,
    // open at both ends and without gaps, so every score falls in exactly one.
    let cells: Vec<(&str, &Spanned<String>)> =
        raw.result.iter().rev().map(|r| (r.name.get_ref().as_str(), &r.roll)).collect();
    let bands = Bands::parse(results, "reaction results", &cells, i32::MIN)?;
    let results_list = raw
        .result
        .iter()
        .zip(bands.ranges().iter().rev())
        .map(|(r, range)| ReactionResult {
            name: r.name.get_ref().clone(),
            label: r.label.clone(),
            roll: *range,
            summary: r.summary.clone(),
        })
        .collect();
    Ok(Reaction {
        modifiers: ModifierTable::load(modifiers, REACTION_ROWS)?,
        results: results_list,
        results_source: raw.source,
    })
}
