//! Named settings for readings of the Mission Command text where players could
//! reasonably disagree. Each is described in docs/interpretations.md.

use serde::Deserialize;
use toml::Spanned;

use crate::setup::reading;
use combat_odds_core::document::Document;
use combat_odds_core::error::Result;

/// How a KO cell is read at a range outside every band it lists ("11 at 25-50cm"
/// at 10cm), where the flattened text may have lost lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum KoOutsideListedRanges {
    /// Closer than the first listed band: the first band's value (penetration only
    /// improves as range closes). Beyond the last band: no effect.
    CloserTakesNearest,
    /// Outside every listed band: no effect, as printed.
    NoEffect,
    /// Outside every listed band: the nearest band's value, closer or farther.
    Nearest,
}

/// When an element's suppression markers come off, in an engagement.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum MarkersCome {
    /// At the end of its own side's turn: a marker costs one turn of fire and counts at
    /// the reaction test that turn.
    OffAfterOwnTurn,
    /// Never: markers add up (to the most a scenario may give an element).
    Never,
}

/// When a Mission Command side is broken, in an engagement.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SideBroken {
    /// Every group left has routed.
    AllRouted,
    /// Every group left is retreating or has routed: none will shoot this turn.
    AllRetreatingOrRouted,
}

/// Which elements of the entry an area-fire template is aimed at lie under it, in an
/// engagement.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TemplateCovers {
    /// Every element of the entry left on the table: a group fights together.
    WholeEntry,
    /// The element aimed at alone.
    AimedElement,
}

/// The settings of one scenario.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Settings {
    /// KO cells at ranges they do not list.
    pub ko_outside_listed_ranges: KoOutsideListedRanges,
    /// "Firer is multi-barrel MG or auto-cannon": does every auto-cannon get +2?
    pub every_auto_cannon_gets_multi_barrel: bool,
    /// Does a friendly AFV seen knocked out count -1 on the reaction test?
    pub friendly_afv_knocked_out_counts: bool,
    /// Do rockets add +1 against buildings too?
    pub rockets_bonus_vs_buildings: bool,
    /// Does an "all" cell knock out every AFV of its band beyond the one-KO cap?
    pub all_cell_beyond_cap: bool,
    /// Engagements: when suppression markers come off.
    pub suppression_markers: MarkersCome,
    /// Engagements: what breaks a side.
    pub side_broken: SideBroken,
    /// Area fire at AFVs: one d20 for the whole template, compared with every AFV
    /// under it (MC-17), instead of one d20 per AFV.
    pub area_fire_one_roll_per_template: bool,
    /// Engagements: reaction rows the fight's own state gives (an AFV firing within
    /// 15cm, an enemy seen retreating, friendly elements moved away) are counted from
    /// it, not named (MC-E10).
    pub reaction_rows_from_the_fight: bool,
    /// Engagements: which elements an area-fire template covers (MC-E11).
    pub template_covers: TemplateCovers,
}

/// Settings as written in a scenario's `[settings]` table.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawSettings {
    ko_outside_listed_ranges: Option<Spanned<String>>,
    auto_cannon_bonus: Option<Spanned<String>>,
    friendly_afv_knocked_out: Option<Spanned<String>>,
    rockets_vs_buildings: Option<Spanned<String>>,
    all_cell: Option<Spanned<String>>,
    suppression_markers: Option<Spanned<String>>,
    side_broken: Option<Spanned<String>>,
    area_fire_roll: Option<Spanned<String>>,
    derived_reaction_rows: Option<Spanned<String>>,
    template_covers: Option<Spanned<String>>,
}

/// Every setting: name, then its readings with the default first.
pub const SETTINGS: [(&str, &[&str]); 10] = [
    ("ko_outside_listed_ranges", &["closer_takes_nearest", "no_effect", "nearest"]),
    ("auto_cannon_bonus", &["multi_barrel_only", "every_auto_cannon"]),
    ("friendly_afv_knocked_out", &["minus_one_each", "ignored"]),
    ("rockets_vs_buildings", &["no_bonus", "plus_one"]),
    ("all_cell", &["every_afv_beyond_cap", "within_cap"]),
    ("suppression_markers", &["off_after_own_turn", "kept"]),
    ("side_broken", &["all_routed", "all_retreating_or_routed"]),
    ("area_fire_roll", &["one_per_afv", "one_per_template"]),
    ("derived_reaction_rows", &["from_the_fight", "named"]),
    ("template_covers", &["whole_entry", "aimed_element"]),
];

impl Settings {
    /// Defaults overridden by the scenario.
    pub(crate) fn resolve(doc: &Document, raw: &RawSettings) -> Result<Self> {
        Ok(Settings {
            ko_outside_listed_ranges: [
                KoOutsideListedRanges::CloserTakesNearest,
                KoOutsideListedRanges::NoEffect,
                KoOutsideListedRanges::Nearest,
            ][reading(doc, &raw.ko_outside_listed_ranges, SETTINGS[0])?],
            every_auto_cannon_gets_multi_barrel: reading(doc, &raw.auto_cannon_bonus, SETTINGS[1])? == 1,
            friendly_afv_knocked_out_counts: reading(doc, &raw.friendly_afv_knocked_out, SETTINGS[2])? == 0,
            rockets_bonus_vs_buildings: reading(doc, &raw.rockets_vs_buildings, SETTINGS[3])? == 1,
            all_cell_beyond_cap: reading(doc, &raw.all_cell, SETTINGS[4])? == 0,
            suppression_markers: [MarkersCome::OffAfterOwnTurn, MarkersCome::Never]
                [reading(doc, &raw.suppression_markers, SETTINGS[5])?],
            side_broken: [SideBroken::AllRouted, SideBroken::AllRetreatingOrRouted]
                [reading(doc, &raw.side_broken, SETTINGS[6])?],
            area_fire_one_roll_per_template: reading(doc, &raw.area_fire_roll, SETTINGS[7])? == 1,
            reaction_rows_from_the_fight: reading(doc, &raw.derived_reaction_rows, SETTINGS[8])? == 0,
            template_covers: [TemplateCovers::WholeEntry, TemplateCovers::AimedElement]
                [reading(doc, &raw.template_covers, SETTINGS[9])?],
        })
    }
}
