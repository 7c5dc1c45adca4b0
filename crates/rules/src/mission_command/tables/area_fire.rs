//! The area fire tables (seed 004, Area Fire Convert to Casualties and KO, its
//! Buildings and Fortifications table, and Ranges for Area Fire): each system's classes
//! by intensity, building results and the area-fire ranges.

use serde::Deserialize;
use toml::Spanned;

use super::{ARMOUR_CLASSES, SCORES, expect_columns, score};
use combat_odds_core::error::{Result, unknown};
use combat_odds_core::tables::grid::{self};
use combat_odds_core::tables::{Bands, Source, TableFile};

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
    pub(super) fn parse(text: &str, letters: &[char]) -> std::result::Result<Self, String> {
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

pub(super) fn load_area_afv(f: &TableFile) -> Result<AreaFireAfv> {
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

pub(super) fn load_area_buildings(f: &TableFile) -> Result<AreaFireBuildings> {
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

pub(super) fn load_ranges(f: &TableFile) -> Result<(Vec<AreaRange>, Source)> {
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
