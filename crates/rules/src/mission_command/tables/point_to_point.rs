//! The point-to-point tables (seed 004, Point-to-point Fire to Hit, Convert Hit to
//! Casualty and Conversion to KO): to-hit scores by row and range, casualty columns, and
//! KO cells with their range-conditional clauses.

use serde::Deserialize;
use toml::Spanned;

use super::{ColumnsFile, expect_columns, score};
use combat_odds_core::error::Result;
use combat_odds_core::tables::grid::{self, NamedRow, RawRow};
use combat_odds_core::tables::{ModifierTable, Source, TableFile};

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
    pub(super) fn parse(text: &str) -> std::result::Result<Self, String> {
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
    pub(super) fn parse(text: &str) -> std::result::Result<Self, String> {
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
    pub(super) fn parse(text: &str) -> std::result::Result<Self, String> {
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
struct KoFile {
    source: Source,
    weapon: Vec<RawRow>,
}

pub(super) fn load_to_hit(f: &TableFile, modifiers: &TableFile) -> Result<ToHit> {
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

pub(super) fn load_casualty(f: &TableFile) -> Result<Casualty> {
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

pub(super) fn load_ko(part1: &TableFile, part2: &TableFile) -> Result<Ko> {
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
