//! Named settings for readings of the Command Decision text where players could
//! reasonably disagree. Each is described in docs/interpretations.md.

use serde::Deserialize;
use toml::Spanned;

use combat_odds_core::document::Document;
use combat_odds_core::error::Result;

use crate::setup::reading;

/// How "Success 5" on the Artillery Response chart is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ArtilleryResponseReading {
    /// A d10 equal to or below the modified number succeeds (organic 5 = 50%).
    RollAtMost,
    /// A d10 equal to or above the modified number succeeds.
    RollAtLeast,
}

/// Which close assaults ignore the target modifiers (the card's "+" footnote).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CloseAssaultTargetModifiers {
    /// Only A class (and flame) fire ignores them.
    IgnoredByAClass,
    /// Every close assault ignores them.
    IgnoredInEveryCloseAssault,
}

/// The settings of one scenario.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Settings {
    /// Artillery response reading.
    pub artillery_response: ArtilleryResponseReading,
    /// The fewest dice a firing stand rolls after ROF modifiers.
    pub min_modified_rof: u32,
    /// Close assault and target modifiers.
    pub close_assault_target_modifiers: CloseAssaultTargetModifiers,
    /// In an engagement, whether demoralized companies are given a Rally order.
    pub demoralized_companies: DemoralizedCompanies,
    /// In an engagement, whether shaken companies are given a Rally order.
    pub shaken_companies: ShakenCompanies,
    /// In an engagement, whether personnel stands in the open fight as in light cover.
    pub stationary_personnel: StationaryPersonnel,
}

/// What an engagement's demoralized companies do (seed 000 "Rally Orders").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum DemoralizedCompanies {
    /// The battalion issues a Rally order: next turn the company becomes shaken and
    /// neither moves nor fires; the turn after it fights on, shaken.
    Rally,
    /// No Rally order reaches it: it stays demoralized and never fires again.
    StayDemoralized,
}

/// What an engagement's shaken companies do (seed 000 "Rally Orders": a Rally order
/// recovers a company "from shaken to pinned").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ShakenCompanies {
    /// The battalion issues a Rally order: next turn the company is pinned only and
    /// neither moves nor fires; a demoralized company is steady again after two.
    Rally,
    /// No Rally order: the company fights on shaken (at -3 to its morale checks).
    KeepFiring,
}

/// How an engagement's personnel stands in the open are fired at (seed 000
/// "Suppression" 3: "stationary personnel stands in the open, receive the benefits of
/// 'light cover' for fire purposes").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StationaryPersonnel {
    /// Nobody moves in an engagement, so a personnel stand whose target modifiers
    /// name no cover is fired at in light cover.
    LightCover,
    /// The stand is fired at in the open, as its modifiers say.
    InTheOpen,
}

/// Settings as written in a scenario's `[settings]` table.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawSettings {
    artillery_response: Option<Spanned<String>>,
    min_modified_rof: Option<Spanned<i64>>,
    close_assault_target_modifiers: Option<Spanned<String>>,
    demoralized_companies: Option<Spanned<String>>,
    shaken_companies: Option<Spanned<String>>,
    stationary_personnel: Option<Spanned<String>>,
}

/// Every setting: name, default, alternatives.
pub const SETTINGS: [(&str, &str, &str); 6] = [
    ("artillery_response", "roll_at_most", "roll_at_least"),
    ("min_modified_rof", "1", "0"),
    ("close_assault_target_modifiers", "ignored_by_a_class", "ignored_in_every_close_assault"),
    ("demoralized_companies", "rally", "stay_demoralized"),
    ("shaken_companies", "rally", "keep_firing"),
    ("stationary_personnel", "light_cover", "in_the_open"),
];

impl Settings {
    /// Defaults overridden by the scenario.
    pub(crate) fn resolve(doc: &Document, raw: &RawSettings) -> Result<Self> {
        // Each reading is the default (index 0) or its one alternative.
        let pick = |v: &Option<Spanned<String>>, (name, default, other): (&str, &str, &str)| -> Result<bool> {
            Ok(reading(doc, v, (name, &[default, other]))? == 0)
        };
        let artillery_response = if pick(&raw.artillery_response, SETTINGS[0])? {
            ArtilleryResponseReading::RollAtMost
        } else {
            ArtilleryResponseReading::RollAtLeast
        };
        let close_assault_target_modifiers = if pick(&raw.close_assault_target_modifiers, SETTINGS[2])? {
            CloseAssaultTargetModifiers::IgnoredByAClass
        } else {
            CloseAssaultTargetModifiers::IgnoredInEveryCloseAssault
        };
        let demoralized_companies = if pick(&raw.demoralized_companies, SETTINGS[3])? {
            DemoralizedCompanies::Rally
        } else {
            DemoralizedCompanies::StayDemoralized
        };
        let shaken_companies = if pick(&raw.shaken_companies, SETTINGS[4])? {
            ShakenCompanies::Rally
        } else {
            ShakenCompanies::KeepFiring
        };
        let stationary_personnel = if pick(&raw.stationary_personnel, SETTINGS[5])? {
            StationaryPersonnel::LightCover
        } else {
            StationaryPersonnel::InTheOpen
        };
        let min_modified_rof = match &raw.min_modified_rof {
            None => 1,
            Some(v) if (0..=1).contains(v.get_ref()) => *v.get_ref() as u32,
            Some(v) => {
                return Err(doc.error_at(v.span().start, format!("min_modified_rof is 0 or 1, not {}", v.get_ref())));
            }
        };
        Ok(Settings {
            artillery_response,
            min_modified_rof,
            close_assault_target_modifiers,
            demoralized_companies,
            shaken_companies,
            stationary_personnel,
        })
    }
}
