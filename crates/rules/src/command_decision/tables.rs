//! Command Decision's tables, loaded from `rulesets/command-decision/` and checked
//! against the shape of the General Reference Card (seed 001).

use serde::Deserialize;
use toml::Spanned;

use super::quality::Quality;
use combat_odds_core::error::{Result, unknown};
use combat_odds_core::tables::{Bands, Embedded, ModifierRow, ModifierTable, Source, TableFile, file};

/// The embedded table files of this ruleset.
pub const EMBEDDED: Embedded = Embedded {
    ruleset: "command-decision",
    files: &[
        ("hit_results.toml", include_str!("../../../../rulesets/command-decision/hit_results.toml")),
        ("ap_modifiers.toml", include_str!("../../../../rulesets/command-decision/ap_modifiers.toml")),
        (
            "rate_of_fire_modifiers.toml",
            include_str!("../../../../rulesets/command-decision/rate_of_fire_modifiers.toml"),
        ),
        (
            "direct_fire_modifiers.toml",
            include_str!("../../../../rulesets/command-decision/direct_fire_modifiers.toml"),
        ),
        (
            "indirect_fire_modifiers.toml",
            include_str!("../../../../rulesets/command-decision/indirect_fire_modifiers.toml"),
        ),
        ("artillery_response.toml", include_str!("../../../../rulesets/command-decision/artillery_response.toml")),
        ("ammo_depletion.toml", include_str!("../../../../rulesets/command-decision/ammo_depletion.toml")),
        ("morale_modifiers.toml", include_str!("../../../../rulesets/command-decision/morale_modifiers.toml")),
        ("orders.toml", include_str!("../../../../rulesets/command-decision/orders.toml")),
        ("morale_results.toml", include_str!("../../../../rulesets/command-decision/morale_results.toml")),
        ("catalogue.toml", include_str!("../../../../rulesets/command-decision/catalogue.toml")),
        ("equivalents.toml", include_str!("../../../../rulesets/command-decision/equivalents.toml")),
    ],
};

/// The three results of a hit, in rising severity (the chart's columns).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum HitResult {
    /// No effect.
    NoEffect,
    /// Forced back.
    ForcedBack,
    /// Eliminated.
    Eliminated,
}

impl HitResult {
    /// Column names, in chart order.
    pub const NAMES: [&'static str; 3] = ["no_effect", "forced_back", "eliminated"];
    /// Every result, in the same order.
    pub const ALL: [HitResult; 3] = [HitResult::NoEffect, HitResult::ForcedBack, HitResult::Eliminated];

    fn parse(file: &TableFile, cell: &Spanned<String>) -> Result<Self> {
        match Self::NAMES.iter().position(|n| n == cell.get_ref()) {
            Some(i) => Ok(Self::ALL[i]),
            None => Err(file.error_at(cell.span().start, unknown("hit result", cell.get_ref(), Self::NAMES))),
        }
    }
}

/// One row of the Hit Results Chart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HitRow {
    /// No effect / forced back / eliminated bands.
    pub bands: Bands,
    /// The "*" column: the natural roll that triggers the AP footnote.
    pub natural: i32,
}

impl HitRow {
    /// The result for a (possibly modified) effect roll.
    pub fn result(&self, roll: i32) -> HitResult {
        [HitResult::NoEffect, HitResult::ForcedBack, HitResult::Eliminated][self.bands.index(roll)]
    }
}

/// The AP footnote: what the natural roll of the Hit Results Chart's "*" column does
/// on a penetration roll.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NaturalRule {
    /// Result at close range ("Elimination at Close Range").
    pub close_range: HitResult,
    /// Minimum result at other ranges ("at least Forced Back").
    pub other_ranges: HitResult,
}

/// Morale Results: how far the roll exceeded the modified morale.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoraleResults {
    /// Exceed bands, starting at 1.
    pub bands: Bands,
    /// (result name, forced back?) per band.
    pub results: Vec<(String, bool)>,
}

/// Artillery Response: success numbers and the firing unit's modifiers.
#[derive(Debug, Clone)]
pub struct ArtilleryResponse {
    /// Organic artillery success number.
    pub organic: i32,
    /// Supporting artillery success number.
    pub supporting: i32,
    /// The rows as the card prints them (organic, supporting).
    pub labels: [String; 2],
    /// Modifiers, firing unit.
    pub modifiers: ModifierTable,
    /// Provenance.
    pub source: Source,
}

/// Ammo depletion parameters.
#[derive(Debug, Clone)]
pub struct AmmoDepletion {
    /// Weapons of this caliber and up check.
    pub min_caliber_mm: u32,
    /// Caliber / divisor, fractions dropped, is the depletion number.
    pub divisor: u32,
    /// The natural to-hit face that calls for a check.
    pub trigger: u32,
    /// Armoured car / tank modifiers.
    pub modifiers: ModifierTable,
    /// Provenance.
    pub source: Source,
}

/// Every Command Decision table, validated.
#[derive(Debug, Clone)]
pub struct Tables {
    /// Hit Results Chart, one row per troop quality.
    pub hit_results: [HitRow; 6],
    /// Provenance of the Hit Results Chart.
    pub hit_results_source: Source,
    /// AP modifiers to the hit results roll.
    pub ap: ModifierTable,
    /// The natural-10 footnote.
    pub natural: NaturalRule,
    /// ROF modifiers.
    pub rate_of_fire: ModifierTable,
    /// Direct fire to-hit modifiers.
    pub direct_fire: ModifierTable,
    /// Indirect fire to-hit modifiers.
    pub indirect_fire: ModifierTable,
    /// Artillery response.
    pub artillery_response: ArtilleryResponse,
    /// Ammo depletion.
    pub ammo: AmmoDepletion,
    /// Morale modifiers.
    pub morale_modifiers: ModifierTable,
    /// Orders that fire in the general fire phase only, in contact, at -2.
    pub orders: ModifierTable,
    /// Morale results.
    pub morale_results: MoraleResults,
    /// Provenance of the morale results.
    pub morale_results_source: Source,
}

/// The modifier rows the rules apply, per chart (a missing or unknown row is an error).
pub(crate) const ROF_ROWS: &[&str] = &[
    "elite",
    "op_fire",
    "human_wave",
    "passenger",
    "multiple_targets",
    "personnel_close_assault_vs_afv",
    "battalion_gun",
];
/// Direct fire to-hit rows.
pub(crate) const DIRECT_FIRE_ROWS: &[&str] = &[
    "patrol",
    "pinned_personnel",
    "light_cover",
    "afv_hull_down_or_bua",
    "medium_cover",
    "hard_cover",
    "fortification",
    "h_class_vs_weak_afv",
    "veteran_elite",
    "trained_green",
    "suppressed",
    "hasty_advance",
    "pinned",
    "a_class_vs_strong_afv",
    "w_class_vs_weak_afv",
    "h_class_vs_all_afv",
];
/// Orders Summary rows: the orders marked "Yes(-2)*" for general fire.
pub(crate) const ORDER_ROWS: &[&str] = &["disengage", "take_command", "rally_regroup"];
/// Indirect fire to-hit rows.
pub(crate) const INDIRECT_FIRE_ROWS: &[&str] =
    &["medium_cover", "hard_cover", "fortification", "pinned", "vs_weak_afv", "vs_all_afv"];
/// Artillery response modifier rows.
pub(crate) const RESPONSE_ROWS: &[&str] = &["dedicated_battery", "elite_veteran", "trained_green", "suppressed"];
/// Ammo depletion modifier rows.
pub(crate) const AMMO_ROWS: &[&str] = &["armoured_car", "tank"];
/// AP modifier rows.
pub(crate) const AP_ROWS: &[&str] = &["armour_value", "weapon_penetration"];
/// Morale modifier rows.
pub(crate) const MORALE_ROWS: &[&str] = &[
    "in_cover",
    "stand_forced_back",
    "stand_eliminated",
    "road_march",
    "tot_mission",
    "pinned",
    "shaken",
    "demoralized",
    "enemy_personnel_within_12",
    "enemy_afv_within_12",
    "air_attack_within_12",
];
/// Morale results in order of the card.
pub(crate) const MORALE_RESULTS: &[&str] = &["pinned", "shaken", "demoralized", "eliminated"];

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HitResultsFile {
    source: Source,
    row: Vec<RawHitRow>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawHitRow {
    quality: Spanned<String>,
    no_effect: Spanned<String>,
    forced_back: Spanned<String>,
    eliminated: Spanned<String>,
    natural: Spanned<i32>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ApFile {
    source: Source,
    modifier: Vec<ModifierRow>,
    natural: RawNatural,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawNatural {
    close_range: Spanned<String>,
    other_ranges: Spanned<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ResponseFile {
    source: Source,
    row: Vec<RawResponseRow>,
    modifier: Vec<ModifierRow>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawResponseRow {
    artillery: Spanned<String>,
    label: String,
    success: i32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AmmoFile {
    source: Source,
    min_caliber_mm: u32,
    divisor: u32,
    trigger: u32,
    modifier: Vec<ModifierRow>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoraleResultsFile {
    source: Source,
    row: Vec<RawMoraleRow>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMoraleRow {
    exceed: Spanned<String>,
    result: Spanned<String>,
    forced_back: bool,
}

fn modifiers(files: &[TableFile], name: &str, rows: &[&str]) -> Result<ModifierTable> {
    ModifierTable::load(file(files, name), rows)
}

impl Tables {
    /// Parses and validates every table.
    pub fn load(files: &[TableFile]) -> Result<Self> {
        let (hit_results, hit_results_source) = load_hit_results(file(files, "hit_results.toml"))?;
        let (ap, natural) = load_ap(file(files, "ap_modifiers.toml"))?;
        let (morale_results, morale_results_source) = load_morale_results(file(files, "morale_results.toml"))?;
        Ok(Tables {
            hit_results,
            hit_results_source,
            ap,
            natural,
            rate_of_fire: modifiers(files, "rate_of_fire_modifiers.toml", ROF_ROWS)?,
            direct_fire: modifiers(files, "direct_fire_modifiers.toml", DIRECT_FIRE_ROWS)?,
            indirect_fire: modifiers(files, "indirect_fire_modifiers.toml", INDIRECT_FIRE_ROWS)?,
            artillery_response: load_response(file(files, "artillery_response.toml"))?,
            ammo: load_ammo(file(files, "ammo_depletion.toml"))?,
            morale_modifiers: modifiers(files, "morale_modifiers.toml", MORALE_ROWS)?,
            orders: modifiers(files, "orders.toml", ORDER_ROWS)?,
            morale_results,
            morale_results_source,
        })
    }

    /// The Hit Results row for a troop quality.
    pub fn hit_row(&self, quality: Quality) -> &HitRow {
        &self.hit_results[quality as usize]
    }
}

fn load_hit_results(f: &TableFile) -> Result<([HitRow; 6], Source)> {
    let raw: HitResultsFile = f.parse()?;
    let mut rows: [Option<HitRow>; 6] = Default::default();
    for row in &raw.row {
        let quality = Quality::parse(row.quality.get_ref()).map_err(|m| f.error_at(row.quality.span().start, m))?;
        let label = format!("row `{quality}`");
        let cells = [("no_effect", &row.no_effect), ("forced_back", &row.forced_back), ("eliminated", &row.eliminated)];
        let bands = Bands::parse(f, &label, &cells, 1)?;
        let slot = &mut rows[quality as usize];
        if slot.is_some() {
            return Err(f.error_at(row.quality.span().start, format!("{label} appears twice; keep one")));
        }
        let natural = *row.natural.get_ref();
        if !(1..=10).contains(&natural) {
            return Err(
                f.error_at(row.natural.span().start, format!("{label}: natural {natural} is not a face of a d10"))
            );
        }
        *slot = Some(HitRow { bands, natural });
    }
    let missing = Quality::ALL.iter().find(|q| rows[**q as usize].is_none());
    if let Some(q) = missing {
        return Err(f.error(format!("missing row `{q}`; the chart needs one row per troop quality (green to elite)")));
    }
    Ok((rows.map(|r| r.expect("checked above")), raw.source))
}

fn load_ap(f: &TableFile) -> Result<(ModifierTable, NaturalRule)> {
    let raw: ApFile = f.parse()?;
    let natural = NaturalRule {
        close_range: HitResult::parse(f, &raw.natural.close_range)?,
        other_ranges: HitResult::parse(f, &raw.natural.other_ranges)?,
    };
    Ok((ModifierTable::from_rows(f, raw.source, raw.modifier, AP_ROWS)?, natural))
}

fn load_response(f: &TableFile) -> Result<ArtilleryResponse> {
    let raw: ResponseFile = f.parse()?;
    let find = |kind: &str| -> Result<(i32, String)> {
        let rows: Vec<_> = raw.row.iter().filter(|r| r.artillery.get_ref() == kind).collect();
        match rows.as_slice() {
            [one] => Ok((one.success, one.label.clone())),
            [] => Err(f.error(format!("missing row `{kind}`; the chart has rows `organic` and `supporting`"))),
            [_, second, ..] => Err(f.error_at(second.artillery.span().start, format!("row `{kind}` appears twice"))),
        }
    };
    let ((organic, organic_label), (supporting, supporting_label)) = (find("organic")?, find("supporting")?);
    if let Some(other) = raw.row.iter().find(|r| !["organic", "supporting"].contains(&r.artillery.get_ref().as_str())) {
        return Err(f.error_at(
            other.artillery.span().start,
            unknown("artillery type", other.artillery.get_ref(), ["organic", "supporting"]),
        ));
    }
    Ok(ArtilleryResponse {
        organic,
        supporting,
        labels: [organic_label, supporting_label],
        modifiers: ModifierTable::from_rows(f, raw.source.clone(), raw.modifier, RESPONSE_ROWS)?,
        source: raw.source,
    })
}

fn load_ammo(f: &TableFile) -> Result<AmmoDepletion> {
    let raw: AmmoFile = f.parse()?;
    if raw.divisor == 0 {
        return Err(f.error("divisor must be positive (the card divides the caliber by 10)"));
    }
    Ok(AmmoDepletion {
        min_caliber_mm: raw.min_caliber_mm,
        divisor: raw.divisor,
        trigger: raw.trigger,
        modifiers: ModifierTable::from_rows(f, raw.source.clone(), raw.modifier, AMMO_ROWS)?,
        source: raw.source,
    })
}

fn load_morale_results(f: &TableFile) -> Result<(MoraleResults, Source)> {
    let raw: MoraleResultsFile = f.parse()?;
    for (row, expected) in raw.row.iter().zip(MORALE_RESULTS) {
        if row.result.get_ref() != expected {
            let msg = format!(
                "expected result `{expected}` here (rows run {}), found `{}`",
                MORALE_RESULTS.join(", "),
                row.result.get_ref()
            );
            return Err(f.error_at(row.result.span().start, msg));
        }
    }
    if let Some(missing) = MORALE_RESULTS.get(raw.row.len()) {
        return Err(f.error(format!("missing row `{missing}`; the chart has rows {}", MORALE_RESULTS.join(", "))));
    }
    if let Some(extra) = raw.row.get(MORALE_RESULTS.len()) {
        return Err(f.error_at(extra.result.span().start, "one row too many; the chart has four results"));
    }
    let cells: Vec<(&str, &Spanned<String>)> =
        raw.row.iter().map(|r| (r.result.get_ref().as_str(), &r.exceed)).collect();
    let bands = Bands::parse(f, "morale results", &cells, 1)?;
    let results = raw.row.iter().map(|r| (r.result.get_ref().clone(), r.forced_back)).collect();
    Ok((MoraleResults { bands, results }, raw.source))
}
