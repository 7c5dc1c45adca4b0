//! Named settings for readings of the Chain of Command sources where players could
//! reasonably disagree. Each is described in docs/interpretations.md (CoC-n).

use serde::Deserialize;
use toml::Spanned;

use super::shooting::{HitEffect, ShootingTables};
use crate::setup::reading;
use combat_odds_core::document::Document;
use combat_odds_core::error::Result;

/// The settings of one scenario.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Settings {
    /// Does the to-hit column follow the target's quality (CoC-5), or the firer's?
    pub to_hit_by_target: bool,
    /// What the Hard cover row's lost face does (CoC-6).
    pub hard_cover_four: HitEffect,
    /// Which source's Pinned and Broken thresholds (CoC-7): index into `shock.toml`.
    pub thresholds: usize,
    /// Do Pinned units move up a cover level and halve their firepower (CoC-8)?
    pub pinned_effects: bool,
    /// Are halved firepower dice rounded up (CoC-9)?
    pub halves_round_up: bool,
}

/// Settings as written in a scenario's `[settings]` table.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawSettings {
    to_hit_quality: Option<Spanned<String>>,
    hard_cover_four: Option<Spanned<String>>,
    shock_thresholds: Option<Spanned<String>>,
    pinned_effects: Option<Spanned<String>>,
    halved_firepower: Option<Spanned<String>>,
    broken_then_wiped_out: Option<Spanned<String>>,
    rally: Option<Spanned<String>>,
}

/// Every setting with a fixed list of readings: name, then its readings with the
/// default first. (`shock_thresholds` takes its readings from `shock.toml`.)
pub const SETTINGS: [(&str, &[&str]); 4] = [
    ("to_hit_quality", &["target", "firer"]),
    ("hard_cover_four", &["miss", "shock"]),
    ("pinned_effects", &["second_edition", "none"]),
    ("halved_firepower", &["round_down", "round_up"]),
];

/// Settings only an engagement reads, in the same shape as [`SETTINGS`].
pub const ENGAGEMENT_SETTINGS: [(&str, &[&str]); 2] = [
    ("broken_then_wiped_out", &["both_setbacks", "break_only"]),
    ("rally", &["broken_first", "pinned_first", "leftover", "never"]),
];

/// How a force spends its Leaders' Orders between activating fire and rallying Shock
/// (7.5.2: "A Leader can rally a Unit they are attached to, removing one point of Shock
/// for each Order they use"; CoC-E10). Orders left once every unit that can fire has
/// fired rally too, under every reading but `Never`: an unused Order is lost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Rally {
    /// Before anyone fires, Broken units are rallied until no longer Broken: a Broken
    /// unit cannot activate, so an Order does nothing else for it.
    BrokenFirst,
    /// Before anyone fires, Broken units and then Pinned ones are rallied until no
    /// longer Pinned: full firepower bought with Orders that could have activated fire.
    PinnedFirst,
    /// Only Orders left after firing rally.
    Leftover,
    /// No rallying: Shock stays, as engagements played before rallying was added.
    Never,
}

impl Settings {
    /// Defaults overridden by the scenario.
    pub(crate) fn resolve(doc: &Document, raw: &RawSettings, tables: &ShootingTables) -> Result<Self> {
        let names: Vec<&str> = tables.threshold_readings.iter().map(|(n, _)| n.as_str()).collect();
        Ok(Settings {
            to_hit_by_target: reading(doc, &raw.to_hit_quality, SETTINGS[0])? == 0,
            hard_cover_four: [HitEffect::Miss, HitEffect::Shock][reading(doc, &raw.hard_cover_four, SETTINGS[1])?],
            thresholds: reading(doc, &raw.shock_thresholds, ("shock_thresholds", &names))?,
            pinned_effects: reading(doc, &raw.pinned_effects, SETTINGS[2])? == 0,
            halves_round_up: reading(doc, &raw.halved_firepower, SETTINGS[3])? == 1,
        })
    }
}

impl RawSettings {
    /// Does a Broken unit later wiped out roll the "wiped out" setback too (CoC-E6)?
    /// Only engagements read it.
    pub(crate) fn wiped_out_after_breaking(&self, doc: &Document) -> Result<bool> {
        Ok(reading(doc, &self.broken_then_wiped_out, ENGAGEMENT_SETTINGS[0])? == 0)
    }

    /// How Orders are split between fire and rallying (CoC-E10). Only engagements read it.
    pub(crate) fn rally(&self, doc: &Document) -> Result<Rally> {
        Ok([Rally::BrokenFirst, Rally::PinnedFirst, Rally::Leftover, Rally::Never]
            [reading(doc, &self.rally, ENGAGEMENT_SETTINGS[1])?])
    }

    /// Refuses an engagement setting in a scenario of another `kind`, where it would
    /// silently do nothing.
    pub(crate) fn refuse_engagement_settings(&self, doc: &Document, kind: &str) -> Result<()> {
        let settings = [&self.broken_then_wiped_out, &self.rally];
        let named: Vec<_> = settings.into_iter().zip(ENGAGEMENT_SETTINGS).collect();
        crate::setup::refuse_engagement_settings(doc, kind, &named)
    }
}
