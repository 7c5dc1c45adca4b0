//! Mission Command's tables, loaded from `rulesets/mission-command/` and checked
//! against the shape of seed 004. Every cell is read into what it means here (a d20
//! score, "No casualty", "Area Fire", range-conditional KO clauses...), so the rules
//! never see a cell's text.

use serde::Deserialize;
use toml::Spanned;

use combat_odds_core::error::{Result, unknown};
use combat_odds_core::tables::grid::{self, NamedRow, RawRow};
use combat_odds_core::tables::{Bands, Embedded, ModifierRow, ModifierTable, RollRange, Source, TableFile, file};

/// The embedded table files of this ruleset.
pub const EMBEDDED: Embedded = Embedded {
    ruleset: "mission-command",
    files: &[
        ("to_hit.toml", include_str!("../../../../rulesets/mission-command/to_hit.toml")),
        ("to_hit_modifiers.toml", include_str!("../../../../rulesets/mission-command/to_hit_modifiers.toml")),
        ("casualty.toml", include_str!("../../../../rulesets/mission-command/casualty.toml")),
        ("ko_part1.toml", include_str!("../../../../rulesets/mission-command/ko_part1.toml")),
        ("ko_part2.toml", include_str!("../../../../rulesets/mission-command/ko_part2.toml")),
        ("area_fire_afv.toml", include_str!("../../../../rulesets/mission-command/area_fire_afv.toml")),
        ("area_fire_buildings.toml", include_str!("../../../../rulesets/mission-command/area_fire_buildings.toml")),
        ("area_fire_ranges.toml", include_str!("../../../../rulesets/mission-command/area_fire_ranges.toml")),
        ("reaction_modifiers.toml", include_str!("../../../../rulesets/mission-command/reaction_modifiers.toml")),
        ("reaction_results.toml", include_str!("../../../../rulesets/mission-command/reaction_results.toml")),
        ("aa_to_hit.toml", include_str!("../../../../rulesets/mission-command/aa_to_hit.toml")),
        ("aa_damage.toml", include_str!("../../../../rulesets/mission-command/aa_damage.toml")),
        ("catalogue.toml", include_str!("../../../../rulesets/mission-command/catalogue.toml")),
        ("equivalents.toml", include_str!("../../../../rulesets/mission-command/equivalents.toml")),
    ],
};

/// Every d20 score a table prints lies here: a roll (after modifiers) at least the
/// score succeeds.
const SCORES: (i32, i32) = (1, 20);

fn score(text: &str) -> std::result::Result<i32, String> {
    grid::number(text, SCORES.0, SCORES.1, "d20 score")
}

/// A Point-to-point Fire to Hit cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ToHitCell {
    /// The d20 score needed.
    Score(i32),
    /// "N/A": the firer may not shoot at this band.
    NotApplicable,
    /// "8/11*": elite or veteran engineers need the first score, other troops the second.
    Split {
        /// Elite or veteran engineers.
        engineers: i32,
        /// Any other eligible troops.
        others: i32,
    },
}

impl ToHitCell {
    fn parse(text: &str) -> std::result::Result<Self, String> {
        if text == "N/A" {
            return Ok(ToHitCell::NotApplicable);
        }
        if let Some((a, b)) = text.split_once('/') {
            return Ok(ToHitCell::Split { engineers: score(a.trim())?, others: score(b.trim())? });
        }
        score(text).map(ToHitCell::Score).map_err(|m| format!("{m}; write a score, `N/A` or `8/11`"))
    }
}

impl std::fmt::Display for ToHitCell {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ToHitCell::Score(n) => write!(f, "{n}"),
            ToHitCell::NotApplicable => f.write_str("N/A"),
            ToHitCell::Split { engineers, others } => write!(f, "{engineers}/{others}"),
        }
    }
}

/// One firer row of the to-hit table.
#[derive(Debug, Clone, PartialEq)]
pub struct ToHitRow {
    /// Name, label and one cell per range band it reaches.
    pub row: NamedRow<ToHitCell>,
    /// "(< 2cm only)": the firer must be closer than this.
    pub closer_than_cm: Option<f64>,
    /// The footnote on split cells.
    pub split: Option<String>,
    /// Any other remark the row carries.
    pub note: Option<String>,
}

impl ToHitRow {
    /// The farthest range the row reaches, in cm.
    pub(crate) fn max_range(&self, ranges_cm: &[f64]) -> f64 {
        ranges_cm[self.row.cells.len() - 1]
    }
}

/// Point-to-point Fire to Hit, with its modifiers.
#[derive(Debug, Clone)]
pub struct ToHit {
    /// The upper limit of each range band ("up to"), in cm.
    pub ranges_cm: Vec<f64>,
    /// Firer rows in table order.
    pub rows: Vec<ToHitRow>,
    /// The modifiers above the table.
    pub modifiers: ModifierTable,
    /// Provenance.
    pub source: Source,
}

impl ToHit {
    /// The band holding `range` (the first whose upper limit reaches it).
    pub fn band(&self, range: f64) -> Option<usize> {
        self.ranges_cm.iter().position(|&limit| range <= limit)
    }
}

/// A Foot: Convert Hit to Casualty cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CasualtyCell {
    /// The d20 score that turns the hit into a casualty.
    Score(i32),
    /// "No casualty": the hit cannot cause one.
    NoCasualty,
    /// "Area Fire": this firer engages this target with the area fire tables.
    AreaFire,
    /// "N/A": the combination does not arise.
    NotApplicable,
}

impl CasualtyCell {
    fn parse(text: &str) -> std::result::Result<Self, String> {
        match text {
            "No casualty" => Ok(CasualtyCell::NoCasualty),
            "Area Fire" => Ok(CasualtyCell::AreaFire),
            "N/A" => Ok(CasualtyCell::NotApplicable),
            _ => score(text)
                .map(CasualtyCell::Score)
                .map_err(|m| format!("{m}; write a score, `No casualty`, `Area Fire` or `N/A`")),
        }
    }
}

impl std::fmt::Display for CasualtyCell {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CasualtyCell::Score(n) => write!(f, "{n}"),
            CasualtyCell::NoCasualty => f.write_str("No casualty"),
            CasualtyCell::AreaFire => f.write_str("Area Fire"),
            CasualtyCell::NotApplicable => f.write_str("N/A"),
        }
    }
}

/// Foot: Convert Hit to Casualty.
#[derive(Debug, Clone)]
pub struct Casualty {
    /// Target situation columns (stable names), in table order.
    pub columns: Vec<String>,
    /// The column headings as printed.
    pub column_labels: Vec<String>,
    /// Firer rows.
    pub rows: Vec<NamedRow<CasualtyCell>>,
    /// Provenance.
    pub source: Source,
}

/// What a KO clause or cell gives when it applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KoValue {
    /// The d20 score that knocks the target out.
    Score(i32),
    /// "KO": knocked out without a roll.
    Ko,
}

/// One "N at A-Bcm" or "N at Acm+" clause of a KO cell.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RangeClause {
    /// Lower edge in cm: ranges beyond it (or exactly 0 when it is 0) belong.
    pub from_cm: f64,
    /// Upper edge in cm, inclusive; `None` for "Acm+".
    pub to_cm: Option<f64>,
    /// The value at these ranges.
    pub value: KoValue,
}

impl RangeClause {
    /// Does the clause cover `range`? Edges belong to the nearer clause, as the to-hit
    /// table's bands run "up to" their limit.
    pub(crate) fn covers(&self, range: f64) -> bool {
        let above = range > self.from_cm || (self.from_cm == 0.0 && range == 0.0);
        above && self.to_cm.is_none_or(|to| range <= to)
    }
}

impl std::fmt::Display for RangeClause {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.value {
            KoValue::Score(n) => write!(f, "{n}")?,
            KoValue::Ko => f.write_str("KO")?,
        }
        match self.to_cm {
            Some(to) => write!(f, " at {}-{}cm", self.from_cm, to),
            None => write!(f, " at {}cm+", self.from_cm),
        }
    }
}

/// A Point-to-point Conversion to KO cell.
#[derive(Debug, Clone, PartialEq)]
pub enum KoCell {
    /// The same value at every range.
    Always(KoValue),
    /// "NE": no effect.
    NoEffect,
    /// Values that hold in the listed range bands only.
    ByRange(Vec<RangeClause>),
}

impl KoCell {
    fn parse(text: &str) -> std::result::Result<Self, String> {
        let value = |t: &str| if t == "KO" { Ok(KoValue::Ko) } else { score(t).map(KoValue::Score) };
        if text == "NE" {
            return Ok(KoCell::NoEffect);
        }
        let words: Vec<&str> = text.split_whitespace().collect();
        if let [one] = words.as_slice() {
            return value(one)
                .map(KoCell::Always)
                .map_err(|m| format!("{m}; write a score, `KO`, `NE` or `11 at 25-50cm`"));
        }
        if !words.len().is_multiple_of(3) || words.chunks(3).any(|c| c[1] != "at") {
            return Err(format!("`{text}` is not a KO cell; write clauses like `11 at 25-50cm 15 at 50cm+`"));
        }
        let mut clauses: Vec<RangeClause> = Vec::new();
        for c in words.chunks(3) {
            let band = c[2]
                .strip_suffix("cm+")
                .map(|from| (from, None))
                .or_else(|| c[2].strip_suffix("cm").and_then(|b| b.split_once('-')).map(|(from, to)| (from, Some(to))));
            let Some((from, to)) = band else {
                return Err(format!("`{}` is not a range; write `25-50cm` or `75cm+`", c[2]));
            };
            let cm = |t: &str| match t.parse::<f64>() {
                Ok(d) if d.is_finite() && d >= 0.0 => Ok(d),
                _ => Err(format!("`{t}` in `{}` is not a distance in cm", c[2])),
            };
            let clause = RangeClause { from_cm: cm(from)?, to_cm: to.map(cm).transpose()?, value: value(c[0])? };
            if clause.to_cm.is_some_and(|to| to <= clause.from_cm) {
                return Err(format!("range `{}` runs backwards", c[2]));
            }
            if let Some(prev) = clauses.last() {
                match prev.to_cm {
                    Some(to) if to == clause.from_cm => {}
                    Some(to) => {
                        return Err(format!(
                            "`{clause}` should start where the clause before it ends ({to}cm): clauses run from near to far without gaps or overlaps"
                        ));
                    }
                    None => return Err(format!("`{prev}` is open-ended, so no clause may follow it")),
                }
            }
            clauses.push(clause);
        }
        Ok(KoCell::ByRange(clauses))
    }
}

impl std::fmt::Display for KoCell {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            KoCell::Always(KoValue::Score(n)) => write!(f, "{n}"),
            KoCell::Always(KoValue::Ko) => f.write_str("KO"),
            KoCell::NoEffect => f.write_str("NE"),
            KoCell::ByRange(clauses) => {
                let texts: Vec<String> = clauses.iter().map(ToString::to_string).collect();
                f.write_str(&texts.join(" "))
            }
        }
    }
}

/// Point-to-point Conversion to KO, both parts: one row per weapon, one cell per
/// armour class 1..=10.
#[derive(Debug, Clone)]
pub struct Ko {
    /// Weapon rows, part 1 then part 2.
    pub rows: Vec<NamedRow<KoCell>>,
    /// Which part (0 or 1) each row came from.
    pub part: Vec<usize>,
    /// Provenance of part 1 and part 2.
    pub sources: [Source; 2],
}

/// Armour classes run 1 to 10 (the KO tables' columns).
pub(crate) const ARMOUR_CLASSES: std::ops::RangeInclusive<i32> = 1..=10;

/// An area-fire-vs-AFV cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AreaKoCell {
    /// The d20 score that knocks an AFV out.
    Score(i32),
    /// "No effect".
    NoEffect,
    /// "all": every AFV of this armour band under the template is knocked out.
    All,
}

impl std::fmt::Display for AreaKoCell {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AreaKoCell::Score(n) => write!(f, "{n}"),
            AreaKoCell::NoEffect => f.write_str("No effect"),
            AreaKoCell::All => f.write_str("all"),
        }
    }
}

/// Area fire intensity: the tables' two columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Intensity {
    /// "Standard".
    Standard,
    /// "Bombardment or direct fire up to 15cm".
    Bombardment,
}

impl Intensity {
    /// Names as data files and scenarios write them.
    pub const NAMES: [&'static str; 2] = ["standard", "bombardment"];
}

/// Which armour an area-fire system strikes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Facing {
    /// Front armour (guns, mortars, howitzers).
    Front,
    /// Side armour (aircraft; and anything against open-topped vehicles).
    Side,
}

/// A firing system the area fire tables' row labels name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AreaSystem {
    /// Stable name.
    pub name: String,
    /// The words of the row label that name it.
    pub label: String,
    /// Index of its weapon class row; `None` when it has no effect.
    pub class: Option<usize>,
    /// The intensity it always counts as, where the label fixes one.
    pub intensity: Option<Intensity>,
    /// The armour it strikes (AFV table only).
    pub facing: Option<Facing>,
    /// Why it has no effect, or any other remark.
    pub note: Option<String>,
    /// It can fire rockets, and so take the "+1 to dice roll with rockets" (MC-24).
    pub rockets: bool,
}

/// A weapon class row of an area fire table: one [standard, bombardment] pair per
/// armour band or structure.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AreaClass<C> {
    /// Stable name.
    pub name: String,
    /// The row label as printed.
    pub label: String,
    /// [standard, bombardment] per band.
    pub cells: Vec<[C; 2]>,
}

/// Area Fire Convert to KO for AFVs.
#[derive(Debug, Clone)]
pub struct AreaFireAfv {
    /// Armour class bands ("1-4", "5-7", "8+").
    pub armour_bands: Bands,
    /// Weapon class rows.
    pub classes: Vec<AreaClass<AreaKoCell>>,
    /// The systems the labels name.
    pub systems: Vec<AreaSystem>,
    /// Added to the d20 with rockets.
    pub rockets_bonus: i32,
    /// The most AFVs one template knocks out by rolling.
    pub max_kos_per_template: u32,
    /// Provenance.
    pub source: Source,
}

/// Results on a building or fortification, in rising severity.
pub const BUILDING_RESULTS: [&str; 4] = ["no_effect", "suppression", "casualty", "destroyed"];

/// An area-fire-vs-buildings cell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BuildingCell {
    /// "S5/C7/D9": (result index into [`BUILDING_RESULTS`], d20 score), rising.
    Rolls(Vec<(usize, i32)>),
    /// "D auto": the result without a roll.
    Auto(usize),
    /// "no effect".
    NoEffect,
}

impl BuildingCell {
    fn parse(text: &str, letters: &[char]) -> std::result::Result<Self, String> {
        if text.eq_ignore_ascii_case("no effect") {
            return Ok(BuildingCell::NoEffect);
        }
        let letter = |c: char| {
            letters.iter().position(|l| *l == c).map(|i| i + 1).ok_or_else(|| {
                format!(
                    "result letter `{c}` is not one of {}",
                    letters.iter().map(char::to_string).collect::<Vec<_>>().join(", ")
                )
            })
        };
        if let Some(l) = text.strip_suffix(" auto") {
            let mut chars = l.chars();
            return match (chars.next(), chars.next()) {
                (Some(c), None) => Ok(BuildingCell::Auto(letter(c)?)),
                _ => Err(format!("`{text}` is not a cell; write `S5/C7/D9`, `D auto` or `no effect`")),
            };
        }
        let mut rolls: Vec<(usize, i32)> = Vec::new();
        for part in text.split('/') {
            let mut chars = part.trim().chars();
            let c = chars.next().ok_or_else(|| format!("`{text}` has an empty part"))?;
            let (result, needs) = (letter(c)?, score(chars.as_str())?);
            if let Some(&(r, n)) = rolls.last()
                && (result <= r || needs <= n)
            {
                return Err(format!("`{text}`: each result must be worse and need a higher roll than the one before"));
            }
            rolls.push((result, needs));
        }
        Ok(BuildingCell::Rolls(rolls))
    }
}

impl std::fmt::Display for BuildingCell {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        const LETTERS: [&str; 4] = ["-", "S", "C", "D"];
        match self {
            BuildingCell::Rolls(rolls) => {
                let parts: Vec<String> = rolls.iter().map(|(r, n)| format!("{}{n}", LETTERS[*r])).collect();
                f.write_str(&parts.join("/"))
            }
            BuildingCell::Auto(r) => write!(f, "{} auto", LETTERS[*r]),
            BuildingCell::NoEffect => f.write_str("no effect"),
        }
    }
}

/// What an S, C or D result does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuildingResult {
    /// Its name in [`BUILDING_RESULTS`].
    pub name: String,
    /// The letter the cells use.
    pub letter: char,
    /// Its listed effects.
    pub effects: Vec<String>,
}

/// Area Fire Convert to Casualties and KO – Buildings and Fortifications.
#[derive(Debug, Clone)]
pub struct AreaFireBuildings {
    /// Structure strengths (stable names), in table order.
    pub structures: Vec<String>,
    /// Weapon class rows.
    pub classes: Vec<AreaClass<BuildingCell>>,
    /// The systems the labels name.
    pub systems: Vec<AreaSystem>,
    /// S, C and D.
    pub results: Vec<BuildingResult>,
    /// Provenance.
    pub source: Source,
}

/// A row of Ranges for Area Fire.
#[derive(Debug, Clone, PartialEq)]
pub struct AreaRange {
    /// Stable name.
    pub name: String,
    /// Weapon type as printed.
    pub weapon_type: String,
    /// Weapon calibre as printed.
    pub calibre: String,
    /// Maximum range in cm.
    pub max_cm: f64,
}

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

/// AA to-hit and damage cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AaCell<T> {
    /// The value.
    Value(T),
    /// "N/A": the firer cannot engage this target.
    NotApplicable,
}

impl<T: std::fmt::Display> std::fmt::Display for AaCell<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AaCell::Value(v) => v.fmt(f),
            AaCell::NotApplicable => f.write_str("N/A"),
        }
    }
}

/// "15 / 18": the scores that damage and destroy; `-` = cannot destroy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AaDamage {
    /// Damaged on this or more.
    pub damaged: i32,
    /// Destroyed on this or more.
    pub destroyed: Option<i32>,
}

impl std::fmt::Display for AaDamage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.destroyed {
            Some(d) => write!(f, "{} / {d}", self.damaged),
            None => write!(f, "{} / -", self.damaged),
        }
    }
}

/// Anti-aircraft fire: to hit (with its modifiers) and convert to damaged/destroyed.
#[derive(Debug, Clone)]
pub struct AntiAircraft {
    /// To-hit columns: attack mode or altitude.
    pub altitudes: Vec<String>,
    /// To-hit rows by firer.
    pub to_hit: Vec<NamedRow<AaCell<i32>>>,
    /// "+2 for multi-barrelled weapons".
    pub modifiers: ModifierTable,
    /// d20s an integrated or coherent infantry element rolls.
    pub infantry_dice: u32,
    /// Damage columns: aircraft size.
    pub sizes: Vec<String>,
    /// Damage rows by firer, in the same order as `to_hit`.
    pub damage: Vec<NamedRow<AaDamage>>,
    /// Provenance of the to-hit and damage tables.
    pub sources: [Source; 2],
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

/// The to-hit modifier rows the rules apply.
pub const TO_HIT_ROWS: &[&str] = &[
    "multi_barrel",
    "opp_fire_foot_moving_fast",
    "target_in_wire",
    "suppression_marker",
    "opp_fire_came_into_view",
    "firer_will_move",
    "under_he_area_fire",
    "hull_down",
];
/// The reaction test modifier rows the rules apply.
pub(crate) const REACTION_ROWS: &[&str] = &[
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
/// The anti-aircraft modifier rows.
pub(crate) const AA_ROWS: &[&str] = &["multi_barrel"];
/// The casualty table's target situation columns.
pub const CASUALTY_COLUMNS: [&str; 6] =
    ["fortified", "good_cover", "no_or_light_cover", "moving_in_no_cover", "heavy_weapons", "soft_vehicles"];

/// A to-hit row as written: a grid row plus the to-hit table's own remarks.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawToHitRow {
    name: Spanned<String>,
    label: String,
    cells: Vec<Spanned<String>>,
    closer_than_cm: Option<f64>,
    split: Option<String>,
    note: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ToHitFile {
    ranges_cm: Vec<f64>,
    source: Source,
    firer: Vec<RawToHitRow>,
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

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct KoFile {
    source: Source,
    weapon: Vec<RawRow>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawClass {
    name: Spanned<String>,
    label: String,
    cells: Vec<[Spanned<String>; 2]>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSystem {
    name: Spanned<String>,
    label: String,
    class: Option<Spanned<String>>,
    intensity: Option<Spanned<String>>,
    facing: Option<Spanned<String>>,
    #[serde(default)]
    no_effect: bool,
    note: Option<String>,
    #[serde(default)]
    rockets: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AreaAfvFile {
    intensities: Vec<String>,
    intensity_labels: Vec<String>,
    armour_bands: Vec<Spanned<String>>,
    rockets_bonus: Spanned<i32>,
    max_kos_per_template: Spanned<u32>,
    source: Source,
    class: Vec<RawClass>,
    system: Vec<RawSystem>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AreaBuildingsFile {
    intensities: Vec<String>,
    intensity_labels: Vec<String>,
    structures: Vec<String>,
    structure_labels: Vec<String>,
    source: Source,
    class: Vec<RawClass>,
    system: Vec<RawSystem>,
    result: Vec<RawBuildingResult>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBuildingResult {
    name: Spanned<String>,
    letter: char,
    effects: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RangesFile {
    source: Source,
    weapon: Vec<RawRange>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRange {
    name: Spanned<String>,
    weapon_type: String,
    calibre: String,
    max_cm: f64,
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

fn load_to_hit(f: &TableFile, modifiers: &TableFile) -> Result<ToHit> {
    let raw: ToHitFile = f.parse()?;
    let ranges = &raw.ranges_cm;
    let rising = ranges.windows(2).all(|w| w[1] > w[0]);
    if ranges.is_empty() || !rising || ranges.iter().any(|r| !(r.is_finite() && *r > 0.0)) {
        return Err(f.error("ranges_cm must list the band limits in cm, finite and rising from above 0"));
    }
    grid::unique(f, raw.firer.iter().map(|r| &r.name))?;
    let mut rows = Vec::with_capacity(raw.firer.len());
    for r in &raw.firer {
        let cells = grid::cells(f, &r.name, &r.cells, (1, ranges.len()), ToHitCell::parse)?;
        let row = NamedRow { name: r.name.get_ref().clone(), label: r.label.clone(), cells };
        let split = row.cells.iter().any(|c| matches!(c, ToHitCell::Split { .. }));
        if split != r.split.is_some() {
            return Err(f.error_at(
                r.name.span().start,
                format!("row `{}`: a split cell like `8/11` and the `split` footnote go together", row.name),
            ));
        }
        if let Some(cm) = r.closer_than_cm
            && !(cm > 0.0 && cm <= ranges[0])
        {
            return Err(f.error_at(
                r.name.span().start,
                format!(
                    "row `{}`: closer_than_cm {cm} must lie within the first band (0 to {} cm)",
                    row.name, ranges[0]
                ),
            ));
        }
        if matches!(row.cells.last(), Some(ToHitCell::NotApplicable)) {
            return Err(f.error_at(
                r.name.span().start,
                format!("row `{}` ends on `N/A`; end the row at its last band in range", row.name),
            ));
        }
        rows.push(ToHitRow { row, closer_than_cm: r.closer_than_cm, split: r.split.clone(), note: r.note.clone() });
    }
    Ok(ToHit {
        ranges_cm: raw.ranges_cm,
        rows,
        modifiers: ModifierTable::load(modifiers, TO_HIT_ROWS)?,
        source: raw.source,
    })
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

fn load_casualty(f: &TableFile) -> Result<Casualty> {
    let raw: ColumnsFile = f.parse()?;
    if raw.infantry_dice.is_some() || !raw.modifier.is_empty() {
        return Err(f.error("the casualty table has no `infantry_dice` or modifier rows"));
    }
    expect_columns(f, "columns", &raw.columns, &raw.column_labels, &CASUALTY_COLUMNS)?;
    grid::unique(f, raw.firer.iter().map(|r| &r.name))?;
    let n = CASUALTY_COLUMNS.len();
    let rows = raw.firer.iter().map(|r| r.read(f, (n, n), CasualtyCell::parse)).collect::<Result<_>>()?;
    Ok(Casualty { columns: raw.columns, column_labels: raw.column_labels, rows, source: raw.source })
}

fn load_ko(part1: &TableFile, part2: &TableFile) -> Result<Ko> {
    let (a, b): (KoFile, KoFile) = (part1.parse()?, part2.parse()?);
    let n = ARMOUR_CLASSES.count();
    let mut rows = Vec::new();
    let mut part = Vec::new();
    for (i, (f, raw)) in [(part1, &a), (part2, &b)].into_iter().enumerate() {
        grid::unique(f, raw.weapon.iter().map(|r| &r.name))?;
        for r in &raw.weapon {
            if rows.iter().any(|x: &NamedRow<KoCell>| x.name == *r.name.get_ref()) {
                return Err(f.error_at(
                    r.name.span().start,
                    format!("row `{}` is also in part 1; names are shared by both parts", r.name.get_ref()),
                ));
            }
            rows.push(r.read(f, (n, n), KoCell::parse)?);
            part.push(i);
        }
    }
    Ok(Ko { rows, part, sources: [a.source, b.source] })
}

fn load_systems(
    f: &TableFile,
    raw: &[RawSystem],
    classes: &[&Spanned<String>],
    facings: bool,
) -> Result<Vec<AreaSystem>> {
    grid::unique(f, raw.iter().map(|s| &s.name))?;
    let class_names: Vec<&str> = classes.iter().map(|c| c.get_ref().as_str()).collect();
    raw.iter()
        .map(|s| {
            let here = s.name.span().start;
            let class = match (&s.class, s.no_effect) {
                (Some(c), false) => Some(class_names.iter().position(|n| n == c.get_ref()).ok_or_else(|| {
                    f.error_at(c.span().start, unknown("weapon class", c.get_ref(), class_names.iter().copied()))
                })?),
                (None, true) => None,
                _ => {
                    return Err(f.error_at(
                        here,
                        format!(
                            "system `{}`: give a `class`, or `no_effect = true`, not both or neither",
                            s.name.get_ref()
                        ),
                    ));
                }
            };
            let intensity = s
                .intensity
                .as_ref()
                .map(|i| match Intensity::NAMES.iter().position(|n| n == i.get_ref()) {
                    Some(0) => Ok(Intensity::Standard),
                    Some(_) => Ok(Intensity::Bombardment),
                    None => Err(f.error_at(i.span().start, unknown("intensity", i.get_ref(), Intensity::NAMES))),
                })
                .transpose()?;
            let facing = match (&s.facing, facings) {
                (None, false) => None,
                (Some(v), true) => Some(match v.get_ref().as_str() {
                    "front" => Facing::Front,
                    "side" => Facing::Side,
                    other => return Err(f.error_at(v.span().start, unknown("facing", other, ["front", "side"]))),
                }),
                (None, true) => {
                    return Err(
                        f.error_at(here, format!("system `{}` needs `facing` (front or side)", s.name.get_ref()))
                    );
                }
                (Some(v), false) => return Err(f.error_at(v.span().start, "this table takes no `facing`")),
            };
            Ok(AreaSystem {
                name: s.name.get_ref().clone(),
                label: s.label.clone(),
                class,
                intensity,
                facing,
                note: s.note.clone(),
                rockets: s.rockets,
            })
        })
        .collect()
}

fn load_classes<C>(
    f: &TableFile,
    raw: &[RawClass],
    bands: usize,
    cell: impl Fn(&str) -> std::result::Result<C, String>,
) -> Result<Vec<AreaClass<C>>> {
    grid::unique(f, raw.iter().map(|c| &c.name))?;
    raw.iter()
        .map(|c| {
            if c.cells.len() != bands {
                return Err(f.error_at(
                    c.name.span().start,
                    format!(
                        "class `{}` has {} [standard, bombardment] pairs; it needs {bands}",
                        c.name.get_ref(),
                        c.cells.len()
                    ),
                ));
            }
            let cells = c
                .cells
                .iter()
                .map(|pair| {
                    let read = |s: &Spanned<String>| {
                        cell(s.get_ref().trim())
                            .map_err(|m| f.error_at(s.span().start, format!("class `{}`: {m}", c.name.get_ref())))
                    };
                    Ok([read(&pair[0])?, read(&pair[1])?])
                })
                .collect::<Result<_>>()?;
            Ok(AreaClass { name: c.name.get_ref().clone(), label: c.label.clone(), cells })
        })
        .collect()
}

fn expect_intensities(f: &TableFile, names: &[String], labels: &[String]) -> Result<()> {
    expect_columns(f, "intensities", names, labels, &Intensity::NAMES)
}

fn load_area_afv(f: &TableFile) -> Result<AreaFireAfv> {
    let raw: AreaAfvFile = f.parse()?;
    expect_intensities(f, &raw.intensities, &raw.intensity_labels)?;
    let labels: Vec<(&str, &Spanned<String>)> = raw.armour_bands.iter().map(|b| ("armour band", b)).collect();
    let armour_bands = Bands::parse(f, "armour_bands", &labels, *ARMOUR_CLASSES.start())?;
    let classes = load_classes(f, &raw.class, raw.armour_bands.len(), |t| match t {
        "No effect" => Ok(AreaKoCell::NoEffect),
        "all" => Ok(AreaKoCell::All),
        _ => score(t).map(AreaKoCell::Score).map_err(|m| format!("{m}; write a score, `No effect` or `all`")),
    })?;
    let names: Vec<&Spanned<String>> = raw.class.iter().map(|c| &c.name).collect();
    let systems = load_systems(f, &raw.system, &names, true)?;
    let (max_kos, rockets) = (&raw.max_kos_per_template, &raw.rockets_bonus);
    if *max_kos.get_ref() == 0 {
        return Err(f.error_at(max_kos.span().start, "max_kos_per_template must be at least 1"));
    }
    if !(0..=SCORES.1).contains(rockets.get_ref()) {
        let msg = format!("rockets_bonus {} must be 0 to {} (the seed adds 1)", rockets.get_ref(), SCORES.1);
        return Err(f.error_at(rockets.span().start, msg));
    }
    Ok(AreaFireAfv {
        armour_bands,
        classes,
        systems,
        rockets_bonus: *raw.rockets_bonus.get_ref(),
        max_kos_per_template: *raw.max_kos_per_template.get_ref(),
        source: raw.source,
    })
}

fn load_area_buildings(f: &TableFile) -> Result<AreaFireBuildings> {
    let raw: AreaBuildingsFile = f.parse()?;
    expect_intensities(f, &raw.intensities, &raw.intensity_labels)?;
    if raw.structure_labels.len() != raw.structures.len() || raw.structures.is_empty() {
        return Err(f.error("give one structure label per structure"));
    }
    let expected = &BUILDING_RESULTS[1..];
    let got: Vec<&str> = raw.result.iter().map(|r| r.name.get_ref().as_str()).collect();
    if got != expected {
        return Err(f.error(format!(
            "[[result]] must be {} in that order (found {})",
            expected.join(", "),
            got.join(", ")
        )));
    }
    let letters: Vec<char> = raw.result.iter().map(|r| r.letter).collect();
    let classes = load_classes(f, &raw.class, raw.structures.len(), |t| BuildingCell::parse(t, &letters))?;
    let names: Vec<&Spanned<String>> = raw.class.iter().map(|c| &c.name).collect();
    let systems = load_systems(f, &raw.system, &names, false)?;
    let results = raw
        .result
        .into_iter()
        .map(|r| BuildingResult { name: r.name.into_inner(), letter: r.letter, effects: r.effects })
        .collect();
    Ok(AreaFireBuildings { structures: raw.structures, classes, systems, results, source: raw.source })
}

fn load_ranges(f: &TableFile) -> Result<(Vec<AreaRange>, Source)> {
    let raw: RangesFile = f.parse()?;
    grid::unique(f, raw.weapon.iter().map(|w| &w.name))?;
    let weapons = raw
        .weapon
        .into_iter()
        .map(|w| {
            if !(w.max_cm > 0.0 && w.max_cm.is_finite()) {
                return Err(f.error_at(
                    w.name.span().start,
                    format!("weapon `{}`: max_cm must be a positive distance", w.name.get_ref()),
                ));
            }
            Ok(AreaRange {
                name: w.name.into_inner(),
                weapon_type: w.weapon_type,
                calibre: w.calibre,
                max_cm: w.max_cm,
            })
        })
        .collect::<Result<_>>()?;
    Ok((weapons, raw.source))
}

fn load_reaction(modifiers: &TableFile, results: &TableFile) -> Result<Reaction> {
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

fn load_anti_aircraft(to_hit: &TableFile, damage: &TableFile) -> Result<AntiAircraft> {
    let hit: ColumnsFile = to_hit.parse()?;
    let dmg: ColumnsFile = damage.parse()?;
    if hit.columns.len() != hit.column_labels.len() || dmg.columns.len() != dmg.column_labels.len() {
        return Err(to_hit.error("give one column label per column"));
    }
    let infantry_dice = match hit.infantry_dice {
        Some(n) if (1..=4).contains(&n) => n,
        _ => return Err(to_hit.error("infantry_dice must be 1 to 4 (the seed rolls 2d20 for infantry elements)")),
    };
    if dmg.infantry_dice.is_some() || !dmg.modifier.is_empty() {
        return Err(damage.error("the damage table has no `infantry_dice` or modifier rows"));
    }
    grid::unique(to_hit, hit.firer.iter().map(|r| &r.name))?;
    grid::unique(damage, dmg.firer.iter().map(|r| &r.name))?;
    let width = |n: usize| (n, n);
    let to_hit_rows: Vec<NamedRow<AaCell<i32>>> = hit
        .firer
        .iter()
        .map(|r| {
            r.read(to_hit, width(hit.columns.len()), |t| {
                if t == "N/A" { Ok(AaCell::NotApplicable) } else { score(t).map(AaCell::Value) }
            })
        })
        .collect::<Result<_>>()?;
    let damage_rows: Vec<NamedRow<AaDamage>> = dmg
        .firer
        .iter()
        .map(|r| {
            r.read(damage, width(dmg.columns.len()), |t| {
                let (d, x) =
                    t.split_once('/').ok_or_else(|| format!("`{t}` is not a cell; write `15 / 18` or `18 / -`"))?;
                let damaged = score(d.trim())?;
                let destroyed = match x.trim() {
                    "-" => None,
                    x => Some(score(x)?)
                        .filter(|x| *x > damaged)
                        .ok_or_else(|| format!("`{t}`: destroying must need more than damaging"))?
                        .into(),
                };
                Ok(AaDamage { damaged, destroyed })
            })
        })
        .collect::<Result<_>>()?;
    let hit_names: Vec<&str> = to_hit_rows.iter().map(|r| r.name.as_str()).collect();
    let dmg_names: Vec<&str> = damage_rows.iter().map(|r| r.name.as_str()).collect();
    if hit_names != dmg_names {
        return Err(damage.error(format!(
            "firer rows must match aa_to_hit.toml: {} (found {})",
            hit_names.join(", "),
            dmg_names.join(", ")
        )));
    }
    Ok(AntiAircraft {
        altitudes: hit.columns,
        to_hit: to_hit_rows,
        modifiers: ModifierTable::from_rows(to_hit, hit.source.clone(), hit.modifier, AA_ROWS)?,
        infantry_dice,
        sizes: dmg.columns,
        damage: damage_rows,
        sources: [hit.source, dmg.source],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ko_cells_read_every_form_the_seed_prints() {
        assert_eq!(KoCell::parse("NE").unwrap(), KoCell::NoEffect);
        assert_eq!(KoCell::parse("KO").unwrap(), KoCell::Always(KoValue::Ko));
        assert_eq!(KoCell::parse("14").unwrap(), KoCell::Always(KoValue::Score(14)));
        let KoCell::ByRange(c) = KoCell::parse("11 at 25-50cm 15 at 50-75cm 19 at 75-100cm").unwrap() else { panic!() };
        assert_eq!(c.len(), 3);
        assert_eq!(c[1], RangeClause { from_cm: 50.0, to_cm: Some(75.0), value: KoValue::Score(15) });
        let KoCell::ByRange(open) = KoCell::parse("KO at 0-25cm").unwrap() else { panic!() };
        assert_eq!(open[0].value, KoValue::Ko);
        let KoCell::ByRange(plus) = KoCell::parse("7 at 75cm+").unwrap() else { panic!() };
        assert_eq!(plus[0].to_cm, None);
    }

    #[test]
    fn a_clause_edge_belongs_to_the_nearer_clause() {
        let KoCell::ByRange(c) = KoCell::parse("11 at 0-25cm 15 at 25cm+").unwrap() else { panic!() };
        assert!(c[0].covers(0.0) && c[0].covers(25.0) && !c[0].covers(25.5));
        assert!(!c[1].covers(25.0) && c[1].covers(25.5) && c[1].covers(1000.0));
    }

    #[test]
    fn malformed_ko_cells_are_refused() {
        for bad in [
            "11 at 25-50",
            "11 at 50-25cm",
            "11 at 0-15cm 15 at 25-50cm",
            "7 at 75cm+ 11 at 100-150cm",
            "21",
            "11 on 0-5cm",
        ] {
            assert!(KoCell::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn building_cells_read_thresholds_auto_and_no_effect() {
        let l = ['S', 'C', 'D'];
        assert_eq!(BuildingCell::parse("S5/C7/D9", &l).unwrap(), BuildingCell::Rolls(vec![(1, 5), (2, 7), (3, 9)]));
        assert_eq!(BuildingCell::parse("S18/C20", &l).unwrap(), BuildingCell::Rolls(vec![(1, 18), (2, 20)]));
        assert_eq!(BuildingCell::parse("D auto", &l).unwrap(), BuildingCell::Auto(3));
        assert_eq!(BuildingCell::parse("no effect", &l).unwrap(), BuildingCell::NoEffect);
        for bad in ["S9/C7", "X5", "C7/S9", "D"] {
            assert!(BuildingCell::parse(bad, &l).is_err(), "{bad}");
        }
    }
}
