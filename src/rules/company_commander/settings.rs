//! Named settings for readings of the Company Commander text where players could
//! reasonably disagree. Each is described in docs/interpretations.md (CC-n).

use serde::Deserialize;
use toml::Spanned;

use super::fire::SuppressedAgain;
use super::tables::{StrengthReading, WeaponStrength};
use crate::document::Document;
use crate::error::Result;
use crate::rules::compile::{choice, reading};

/// How penetration is read at a range between the two the weapon shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Between {
    /// Linear, rounded to the nearest whole value (halves toward the shooter).
    Nearest,
    /// Linear, rounded down.
    Down,
    /// Linear, rounded up.
    Up,
}

/// The settings of one scenario.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    /// The reading of the garbled weapon-strength outcome lines (CC-3).
    pub weapon_strength: StrengthReading,
    /// What a second suppression does (CC-4).
    pub suppressed_again: SuppressedAgain,
    /// Does a suppression change the attacks after it in the same fire action (CC-6)?
    pub suppression_is_immediate: bool,
    /// Penetration between the minimum and maximum range (CC-7).
    pub between: Between,
    /// May a weapon fire closer than its minimum range, at the minimum-range value (CC-8)?
    pub inside_minimum_range: bool,
    /// Does a close assault make one attack per strength point of the attacker (CC-11)?
    pub close_assault_per_strength_point: bool,
    /// Is the original target of a barrage at risk of a second attack (CC-12)?
    pub barrage_second_attack: bool,
    /// Do cover save values add up (CC-9), or does only the highest count?
    pub cover_saves_add_up: bool,
}

/// Settings as written in a scenario's `[settings]` table.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawSettings {
    weapon_strength_outcome: Option<Spanned<String>>,
    suppressed_again: Option<Spanned<String>>,
    suppression_during_fire: Option<Spanned<String>>,
    penetration_between_ranges: Option<Spanned<String>>,
    inside_minimum_range: Option<Spanned<String>>,
    close_assault_attacks: Option<Spanned<String>>,
    barrage_original_target: Option<Spanned<String>>,
    cover_save_values: Option<Spanned<String>>,
}

/// Every setting with a fixed list of readings: name, then its readings with the
/// default first. (`weapon_strength_outcome` takes its readings from
/// `weapon_strength.toml`.)
pub const SETTINGS: [(&str, &[&str]); 7] = [
    ("suppressed_again", &["damaged", "destroyed"]),
    ("suppression_during_fire", &["later_attacks", "next_fire_action"]),
    ("penetration_between_ranges", &["linear_nearest", "linear_down", "linear_up"]),
    ("inside_minimum_range", &["minimum_range_value", "cannot_fire"]),
    ("close_assault_attacks", &["one", "per_strength_point"]),
    ("barrage_original_target", &["chance_of_second_attack", "attacked_once"]),
    ("cover_save_values", &["add_up", "highest_only"]),
];

impl Settings {
    /// Defaults overridden by the scenario.
    pub fn resolve(doc: &Document, raw: &RawSettings, strength: &WeaponStrength) -> Result<Self> {
        let pick = |i: usize, value: &Option<Spanned<String>>| reading(doc, value, SETTINGS[i].0, SETTINGS[i].1);
        let readings: Vec<&str> = strength.readings.iter().map(|r| r.name.as_str()).collect();
        let reading = choice(
            doc,
            raw.weapon_strength_outcome.as_ref(),
            "weapon_strength_outcome reading",
            &readings,
            readings[0],
        )?;
        Ok(Settings {
            weapon_strength: strength.readings.iter().find(|r| r.name == reading).expect("a listed reading").clone(),
            suppressed_again: [SuppressedAgain::Damaged, SuppressedAgain::Destroyed][pick(0, &raw.suppressed_again)?],
            suppression_is_immediate: pick(1, &raw.suppression_during_fire)? == 0,
            between: [Between::Nearest, Between::Down, Between::Up][pick(2, &raw.penetration_between_ranges)?],
            inside_minimum_range: pick(3, &raw.inside_minimum_range)? == 0,
            close_assault_per_strength_point: pick(4, &raw.close_assault_attacks)? == 1,
            barrage_second_attack: pick(5, &raw.barrage_original_target)? == 0,
            cover_saves_add_up: pick(6, &raw.cover_save_values)? == 0,
        })
    }
}
