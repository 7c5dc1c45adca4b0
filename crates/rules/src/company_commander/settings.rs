//! Named settings for readings of the Company Commander text where players could
//! reasonably disagree. Each is described in docs/interpretations.md (CC-n).

use serde::Deserialize;
use toml::Spanned;

use super::fire::{SuppressedAgain, Timing, WeaponChoice};
use super::tables::{StrengthReading, WeaponStrength};
use crate::setup::reading;
use combat_odds_core::document::Document;
use combat_odds_core::error::Result;

/// How penetration is read at a range between the two the weapon shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Between {
    /// Linear, rounded to the nearest whole value (halves toward the shooter).
    Nearest,
    /// Linear, rounded down.
    Down,
    /// Linear, rounded up.
    Up,
}

/// The settings of one scenario.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Settings {
    /// The reading of the garbled weapon-strength outcome lines (CC-3).
    pub weapon_strength: StrengthReading,
    /// What a second suppression does (CC-4).
    pub suppressed_again: SuppressedAgain,
    /// When a suppression changes the attacks after it in the same fire action (CC-6).
    pub suppression_timing: Timing,
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
    /// Which of the weapons that cannot fire together fires (CC-18).
    pub weapon_choice: WeaponChoice,
}

/// How a suppressed unit recovers at the end of its next player turn (CC-E3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Recovery {
    /// A d6 at or over the quality's close assault hit score (seed 003 "Unit hit
    /// success"), the seed's one table of success by quality.
    QualityHitScore,
    /// Always: the attempt is automatic and certain.
    Always,
    /// Never: a suppressed unit stays suppressed.
    Never,
}

/// When a side counts as broken in an engagement (CC-E5).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SideBroken {
    /// Never: the seed has no side morale; only elimination ends an engagement.
    Never,
    /// Every surviving unit of the side is suppressed at the end of a turn.
    AllSuppressed,
}

/// What infantry able to close assault may attack while an enemy armoured unit is
/// adjacent (CC-E9).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ArmourZoc {
    /// It attacks adjacent armour only by close assault, and fires at other adjacent
    /// units as usual (seed 003 "Close assault").
    AssaultArmourFireOthers,
    /// It may only close assault: no ranged fire at all while an enemy armoured unit
    /// is adjacent (seed 003 "ZOC's", read word for word).
    AssaultOnly,
}

/// The engagement settings of one scenario.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct EngagementSettings {
    /// Recovery from suppression (CC-E3).
    pub recovery: Recovery,
    /// What breaks a side (CC-E5).
    pub broken: SideBroken,
    /// Infantry beside enemy armour (CC-E9).
    pub armour_zoc: ArmourZoc,
}

/// Settings as written in a scenario's `[settings]` table.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawSettings {
    weapon_strength_outcome: Option<Spanned<String>>,
    suppressed_again: Option<Spanned<String>>,
    suppression_during_fire: Option<Spanned<String>>,
    penetration_between_ranges: Option<Spanned<String>>,
    inside_minimum_range: Option<Spanned<String>>,
    close_assault_attacks: Option<Spanned<String>>,
    barrage_original_target: Option<Spanned<String>>,
    cover_save_values: Option<Spanned<String>>,
    weapon_choice: Option<Spanned<String>>,
    suppression_recovery: Option<Spanned<String>>,
    side_broken: Option<Spanned<String>>,
    infantry_beside_armour: Option<Spanned<String>>,
}

/// Every setting with a fixed list of readings: name, then its readings with the
/// default first. (`weapon_strength_outcome` takes its readings from
/// `weapon_strength.toml`.)
pub const SETTINGS: [(&str, &[&str]); 8] = [
    ("suppressed_again", &["damaged", "destroyed"]),
    ("suppression_during_fire", &["later_weapons", "later_attacks", "next_fire_action"]),
    ("penetration_between_ranges", &["linear_nearest", "linear_down", "linear_up"]),
    ("inside_minimum_range", &["minimum_range_value", "cannot_fire"]),
    ("close_assault_attacks", &["one", "per_strength_point"]),
    ("barrage_original_target", &["chance_of_second_attack", "attacked_once"]),
    ("cover_save_values", &["add_up", "highest_only"]),
    ("weapon_choice", &["most_likely_to_destroy", "most_likely_to_damage"]),
];

/// The settings only engagements read: name, then its readings with the default first.
pub const ENGAGEMENT_SETTINGS: [(&str, &[&str]); 3] = [
    ("suppression_recovery", &["quality_hit_score", "always", "never"]),
    ("side_broken", &["never", "all_suppressed"]),
    ("infantry_beside_armour", &["close_assault_armour", "close_assault_only"]),
];

impl RawSettings {
    /// The engagement settings, defaults overridden by the scenario.
    pub fn engagement(&self, doc: &Document) -> Result<EngagementSettings> {
        Ok(EngagementSettings {
            recovery: [Recovery::QualityHitScore, Recovery::Always, Recovery::Never]
                [reading(doc, &self.suppression_recovery, ENGAGEMENT_SETTINGS[0])?],
            broken: [SideBroken::Never, SideBroken::AllSuppressed]
                [reading(doc, &self.side_broken, ENGAGEMENT_SETTINGS[1])?],
            armour_zoc: [ArmourZoc::AssaultArmourFireOthers, ArmourZoc::AssaultOnly]
                [reading(doc, &self.infantry_beside_armour, ENGAGEMENT_SETTINGS[2])?],
        })
    }

    /// Refuses an engagement setting in a scenario of another `kind`, where it would
    /// silently do nothing.
    pub(crate) fn refuse_engagement_settings(&self, doc: &Document, kind: &str) -> Result<()> {
        let settings = [&self.suppression_recovery, &self.side_broken, &self.infantry_beside_armour];
        let named: Vec<_> = settings.into_iter().zip(ENGAGEMENT_SETTINGS).collect();
        crate::setup::refuse_engagement_settings(doc, kind, &named)
    }
}

impl Settings {
    /// Defaults overridden by the scenario.
    pub(crate) fn resolve(doc: &Document, raw: &RawSettings, strength: &WeaponStrength) -> Result<Self> {
        let readings: Vec<&str> = strength.readings.iter().map(|r| r.name.as_str()).collect();
        let chosen = reading(doc, &raw.weapon_strength_outcome, ("weapon_strength_outcome", &readings))?;
        Ok(Settings {
            weapon_strength: strength.readings[chosen].clone(),
            suppressed_again: [SuppressedAgain::Damaged, SuppressedAgain::Destroyed]
                [reading(doc, &raw.suppressed_again, SETTINGS[0])?],
            suppression_timing: [Timing::LaterWeapons, Timing::LaterAttacks, Timing::NextFireAction]
                [reading(doc, &raw.suppression_during_fire, SETTINGS[1])?],
            between: [Between::Nearest, Between::Down, Between::Up]
                [reading(doc, &raw.penetration_between_ranges, SETTINGS[2])?],
            inside_minimum_range: reading(doc, &raw.inside_minimum_range, SETTINGS[3])? == 0,
            close_assault_per_strength_point: reading(doc, &raw.close_assault_attacks, SETTINGS[4])? == 1,
            barrage_second_attack: reading(doc, &raw.barrage_original_target, SETTINGS[5])? == 0,
            cover_saves_add_up: reading(doc, &raw.cover_save_values, SETTINGS[6])? == 0,
            weapon_choice: [WeaponChoice::MostLikelyToDestroy, WeaponChoice::MostLikelyToDamage]
                [reading(doc, &raw.weapon_choice, SETTINGS[7])?],
        })
    }
}
