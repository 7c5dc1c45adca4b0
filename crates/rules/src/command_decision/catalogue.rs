//! Weapon data lines and vehicles: the example catalogue and inline definitions.
//!
//! The seeds hold no national equipment charts, so the shipped catalogue is
//! illustrative; scenarios may define their own data lines with the same fields.

use std::collections::BTreeMap;

use serde::Deserialize;
use toml::Spanned;

use crate::ruleset::CatalogueShape;
use crate::setup::Labelled;
use combat_odds_core::document::Document;
use combat_odds_core::error::{Result, unknown};
use combat_odds_core::tables::Source;

/// A weapon's anti-armour effectiveness, the third entry of each range band.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AntiArmour {
    /// "-": no effect on AFVs.
    None,
    /// A numeric penetration value (AP): added to the hit results roll.
    Penetration(i32),
    /// H class: high explosive.
    H,
    /// W class: high explosive (weak against AFVs).
    W,
    /// A class: close-assault anti-armour.
    A,
    /// FL: flame.
    Flame,
    /// HC: hollow charge with a numeric penetration.
    HollowCharge(i32),
}

impl AntiArmour {
    fn parse(value: &toml::Value) -> std::result::Result<Self, String> {
        let text = match value {
            toml::Value::Integer(n) => return bounded(*n, &PENETRATION, "penetration").map(AntiArmour::Penetration),
            toml::Value::String(s) => s.trim(),
            _ => return Err("anti_armour must be a number or one of `-`, `H`, `W`, `A`, `FL`, `HC<n>`".into()),
        };
        match text {
            "-" => Ok(AntiArmour::None),
            "H" => Ok(AntiArmour::H),
            "W" => Ok(AntiArmour::W),
            "A" => Ok(AntiArmour::A),
            "FL" => Ok(AntiArmour::Flame),
            _ => {
                if let Some(n) = text.strip_prefix("HC").and_then(|n| n.trim().parse().ok()) {
                    return bounded(n, &PENETRATION, "penetration").map(AntiArmour::HollowCharge);
                }
                if let Ok(n) = text.parse() {
                    return bounded(n, &PENETRATION, "penetration").map(AntiArmour::Penetration);
                }
                Err(format!(
                    "anti_armour `{text}` is not a number or a class; use `-`, `H`, `W`, `A`, `FL` or `HC<n>`{}",
                    combat_odds_core::error::suggest(text, ["-", "H", "W", "A", "FL", "HC"])
                ))
            }
        }
    }

    /// HE classes (H and W): they ignore the to-hit modifiers marked "*".
    pub(crate) fn is_he(self) -> bool {
        matches!(self, AntiArmour::H | AntiArmour::W)
    }

    /// A numeric value that is added to the hit results roll against AFVs.
    pub fn penetration(self) -> Option<i32> {
        match self {
            AntiArmour::Penetration(p) | AntiArmour::HollowCharge(p) => Some(p),
            _ => None,
        }
    }

    /// Direct fire with H class or HC ammunition in prep or op fire suppresses.
    pub(crate) fn suppresses(self) -> bool {
        matches!(self, AntiArmour::H | AntiArmour::HollowCharge(_))
    }

    /// The card's notation.
    pub fn label(self) -> String {
        match self {
            AntiArmour::None => "-".into(),
            AntiArmour::Penetration(p) => p.to_string(),
            AntiArmour::H => "H".into(),
            AntiArmour::W => "W".into(),
            AntiArmour::A => "A".into(),
            AntiArmour::Flame => "FL".into(),
            AntiArmour::HollowCharge(p) => format!("HC{p}"),
        }
    }
}

/// One range band of a data line.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RangeBand {
    /// Longest range in inches, or `None` for a "C" (close assault only) band.
    pub range: Option<f64>,
    /// The hit number: a die equal or less hits.
    pub hit: i32,
    /// Effectiveness against armour.
    pub anti_armour: AntiArmour,
}

/// Which of the four bands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BandName {
    /// Close.
    Close,
    /// Medium.
    Medium,
    /// Long.
    Long,
    /// Extreme.
    Extreme,
}

impl BandName {
    /// In data-line order.
    pub const ALL: [BandName; 4] = [BandName::Close, BandName::Medium, BandName::Long, BandName::Extreme];
    /// Names as written.
    pub const NAMES: [&'static str; 4] = ["close", "medium", "long", "extreme"];
}

impl std::fmt::Display for BandName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(Self::NAMES[*self as usize])
    }
}

/// Indirect fire data: burst size in inches and the HE value ("1\"/4").
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Idf {
    /// Burst template size in inches.
    pub burst: f64,
    /// HE value: the to-hit number of an indirect attack.
    pub he: i32,
}

/// A weapon's data line.
#[derive(Debug, Clone, PartialEq)]
pub struct Weapon {
    /// Catalogue key or the scenario's name for it.
    pub name: String,
    /// Human label.
    pub label: String,
    /// ROF in close assault (the first of a split ROF).
    pub rof_close_assault: u32,
    /// ROF otherwise.
    pub rof: u32,
    /// Close, medium, long, extreme.
    pub bands: [RangeBand; 4],
    /// Caliber for ammo depletion.
    pub caliber_mm: Option<u32>,
    /// Indirect fire data, for weapons that can fire IDF.
    pub idf: Option<Idf>,
    /// An asterisk after the ROF (seed 000, Restrictions): a towed weapon that "may
    /// not fire unless they were stationary in the previous Movement Phase (and even
    /// then they may not fire in the Opportunity Fire Phase)".
    pub stationary_only: bool,
    /// The "other" data line of a heavy infantry weapon (seed 000, Restrictions): a
    /// personnel stand with it "moved more than a cautious advance ... may only fire
    /// using the 'other' data line".
    pub other: Option<Box<Weapon>>,
}

/// A weapon as written in TOML.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawWeapon {
    label: Option<String>,
    rof: Spanned<toml::Value>,
    close: Option<Spanned<RawBand>>,
    medium: Option<Spanned<RawBand>>,
    long: Option<Spanned<RawBand>>,
    extreme: Option<Spanned<RawBand>>,
    caliber_mm: Option<u32>,
    idf: Option<Spanned<Idf>>,
    other: Option<Spanned<Box<RawWeapon>>>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBand {
    range: Spanned<toml::Value>,
    hit: Spanned<i64>,
    anti_armour: Spanned<toml::Value>,
}

impl RawWeapon {
    /// Validates a data line; `at` locates the weapon in `doc` for whole-weapon errors.
    pub(crate) fn resolve(self, name: &str, doc: &Document, at: usize) -> Result<Weapon> {
        let rof_at = self.rof.span().start;
        let (rof_close_assault, rof, stationary_only) =
            parse_rof(self.rof.get_ref()).map_err(|m| doc.error_at(rof_at, format!("weapon `{name}`: {m}")))?;
        let raw_bands = [self.close, self.medium, self.long, self.extreme];
        let mut bands = Vec::with_capacity(4);
        let mut previous: Option<f64> = None;
        for (band, raw) in BandName::ALL.iter().zip(raw_bands) {
            let Some(raw) = raw else {
                return Err(doc.error_at(
                    at,
                    format!("weapon `{name}` has no {band} range band; a data line gives all four: close, medium, long, extreme"),
                ));
            };
            let raw = raw.into_inner();
            // Each refusal at the value it is about.
            let err_at = |at: &std::ops::Range<usize>, m: String| {
                doc.error_at(at.start, format!("weapon `{name}`, {band} band: {m}"))
            };
            let err = |m: String| err_at(&raw.range.span(), m);
            let range = match raw.range.get_ref() {
                toml::Value::String(s) if s == "C" && *band == BandName::Close => None,
                toml::Value::String(s) if s == "C" => {
                    return Err(err("only the close band may be a close-assault `C` band".into()));
                }
                toml::Value::Integer(n) => Some(*n as f64),
                toml::Value::Float(x) => Some(*x),
                other => return Err(err(format!("range must be inches or `C`, not `{other}`"))),
            };
            if let Some(r) = range {
                if !r.is_finite() || r <= 0.0 {
                    return Err(err(format!("range {r} must be a positive number of inches")));
                }
                if previous.is_some_and(|p| r <= p) {
                    return Err(err(format!("range {r} must be longer than the band before it")));
                }
                previous = Some(r);
            }
            let anti_armour =
                AntiArmour::parse(raw.anti_armour.get_ref()).map_err(|m| err_at(&raw.anti_armour.span(), m))?;
            let hit =
                bounded(*raw.hit.get_ref(), &HIT_NUMBERS, "hit number").map_err(|m| err_at(&raw.hit.span(), m))?;
            bands.push(RangeBand { range, hit, anti_armour });
        }
        if let Some(idf) = &self.idf {
            let (i, at) = (idf.get_ref(), idf.span().start);
            if !(i.burst.is_finite() && i.burst > 0.0) {
                return Err(doc.error_at(at, format!("weapon `{name}`: idf burst must be a positive number of inches")));
            }
            bounded(i.he.into(), &HIT_NUMBERS, "HE value")
                .map_err(|m| doc.error_at(at, format!("weapon `{name}`: {m}")))?;
        }
        if let Some(c) = self.caliber_mm {
            bounded(c.into(), &CALIBER_MM, "caliber_mm")
                .map_err(|m| doc.error_at(at, format!("weapon `{name}`: {m}")))?;
        }
        let other = match self.other {
            None => None,
            Some(line) => {
                let at = line.span().start;
                let line = line.into_inner();
                let what = if line.other.is_some() {
                    Some("has an `other` line of its own")
                } else if line.idf.is_some() {
                    Some("has IDF data")
                } else {
                    None
                };
                if let Some(what) = what {
                    return Err(doc.error_at(
                        at,
                        format!("weapon `{name}`: its `other` data line {what}; give it a ROF and four bands only"),
                    ));
                }
                let mut other = line.resolve(&format!("{name} other"), doc, at)?;
                if other.label == format!("{name} other") {
                    other.label = format!("{} (other data line)", self.label.as_deref().unwrap_or(name));
                }
                Some(Box::new(other))
            }
        };
        Ok(Weapon {
            name: name.to_string(),
            label: self.label.unwrap_or_else(|| name.to_string()),
            rof_close_assault,
            rof,
            bands: bands.try_into().expect("four bands"),
            caliber_mm: self.caliber_mm,
            idf: self.idf.map(Spanned::into_inner),
            stationary_only,
            other,
        })
    }
}

/// Plausible bounds for data-line values: anything outside is a typo, and bounding
/// them keeps every modified roll far from integer overflow.
const HIT_NUMBERS: std::ops::RangeInclusive<i64> = -10..=20;
const PENETRATION: std::ops::RangeInclusive<i64> = -10..=30;
const ARMOUR: std::ops::RangeInclusive<i64> = 0..=30;
const WEIGHT_CLASS: std::ops::RangeInclusive<i64> = 0..=10;
const CALIBER_MM: std::ops::RangeInclusive<i64> = 1..=1000;

/// `value` if it lies in `range`, else a message naming `what` and the range.
fn bounded(value: i64, range: &std::ops::RangeInclusive<i64>, what: &str) -> std::result::Result<i32, String> {
    if range.contains(&value) {
        Ok(value as i32)
    } else {
        Err(format!("{what} {value} is out of range; it must be from {} to {}", range.start(), range.end()))
    }
}

/// "3", 3 or "4/3" (close assault / otherwise), either string with an asterisk after
/// it ("2*", seed 000 Restrictions): (close assault, otherwise, the asterisk). ROF 0
/// is rejected: such a weapon cannot fire at all.
fn parse_rof(value: &toml::Value) -> std::result::Result<(u32, u32, bool), String> {
    let one = |s: &str| -> std::result::Result<u32, String> {
        match s.trim().parse::<u32>() {
            Ok(0) => Err("ROF 0 cannot fire; give a rate of fire of at least 1".into()),
            Ok(n) if n > 50 => Err(format!("ROF {n} is not a plausible rate of fire (at most 50)")),
            Ok(n) => Ok(n),
            Err(_) => Err(format!("ROF `{s}` is not a whole number; write `3`, `4/3` or `2*`")),
        }
    };
    match value {
        toml::Value::Integer(n) => {
            let n = one(&n.to_string())?;
            Ok((n, n, false))
        }
        toml::Value::String(s) => {
            let (s, asterisk) = match s.trim_end().strip_suffix('*') {
                Some(rest) => (rest, true),
                None => (s.as_str(), false),
            };
            match s.split_once('/') {
                Some((ca, normal)) => Ok((one(ca)?, one(normal)?, asterisk)),
                None => {
                    let n = one(s)?;
                    Ok((n, n, asterisk))
                }
            }
        }
        other => Err(format!("rof must be a number or \"4/3\", not `{other}`")),
    }
}

/// Whether an AFV counts as strong or weak, or the vehicle is soft-skinned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Afv {
    /// Strong AFV.
    Strong,
    /// Weak AFV.
    Weak,
    /// Not an AFV (soft vehicle).
    Soft,
}

/// A vehicle: armour and class.
#[derive(Debug, Clone, PartialEq)]
pub struct Vehicle {
    /// Catalogue key or scenario name.
    pub name: String,
    /// Human label.
    pub label: String,
    /// Front armour value.
    pub armour_front: i32,
    /// Flank armour value.
    pub armour_flank: i32,
    /// Strong, weak or soft.
    pub afv: Afv,
    /// Weight class ("H class vs All AFV: -Weight Class").
    pub weight_class: i32,
}

/// A vehicle as written in TOML.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawVehicle {
    label: Option<String>,
    armour: Option<RawArmour>,
    afv: Spanned<String>,
    weight_class: Option<Spanned<i64>>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawArmour {
    front: Spanned<i64>,
    flank: Spanned<i64>,
}

impl RawVehicle {
    /// Validates a vehicle.
    pub(crate) fn resolve(self, name: &str, doc: &Document) -> Result<Vehicle> {
        let afv = match self.afv.get_ref().as_str() {
            "strong" => Afv::Strong,
            "weak" => Afv::Weak,
            "none" | "soft" => Afv::Soft,
            other => {
                return Err(
                    doc.error_at(self.afv.span().start, unknown("AFV class", other, ["strong", "weak", "soft"]))
                );
            }
        };
        // Each refusal at the value it is about; a value left out is 0.
        let check = |v: Option<&Spanned<i64>>, range, what: &str| match v {
            None => Ok(0),
            Some(v) => bounded(*v.get_ref(), range, what)
                .map_err(|m| doc.error_at(v.span().start, format!("vehicle `{name}`: {m}"))),
        };
        let armour = self.armour.as_ref();
        Ok(Vehicle {
            name: name.to_string(),
            label: self.label.unwrap_or_else(|| name.to_string()),
            armour_front: check(armour.map(|a| &a.front), &ARMOUR, "front armour")?,
            armour_flank: check(armour.map(|a| &a.flank), &ARMOUR, "flank armour")?,
            afv,
            weight_class: check(self.weight_class.as_ref(), &WEIGHT_CLASS, "weight_class")?,
        })
    }
}

/// The example catalogue.
#[derive(Debug, Clone)]
pub struct Catalogue {
    /// Provenance (illustrative).
    pub source: Source,
    /// Weapons by key.
    pub weapons: BTreeMap<String, Weapon>,
    /// Vehicles by key.
    pub vehicles: BTreeMap<String, Vehicle>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CatalogueFile {
    source: Source,
    #[serde(default)]
    weapon: BTreeMap<String, Spanned<RawWeapon>>,
    #[serde(default)]
    vehicle: BTreeMap<String, RawVehicle>,
}

impl Catalogue {
    /// Loads and validates the catalogue file.
    pub fn load(doc: &Document) -> Result<Self> {
        let raw: CatalogueFile = doc.parse()?;
        let weapons = raw
            .weapon
            .into_iter()
            .map(|(k, w)| {
                let at = w.span().start;
                w.into_inner().resolve(&k, doc, at).map(|w| (k, w))
            })
            .collect::<Result<_>>()?;
        let vehicles =
            raw.vehicle.into_iter().map(|(k, v)| v.resolve(&k, doc).map(|v| (k, v))).collect::<Result<_>>()?;
        Ok(Catalogue { source: raw.source, weapons, vehicles })
    }
}

impl Labelled for Weapon {
    fn label(&self) -> &str {
        &self.label
    }
}

impl Labelled for Vehicle {
    fn label(&self) -> &str {
        &self.label
    }
}

/// The catalogue as the page's editor offers it: each field of a data line (seed 000,
/// the weapon data line: ROF, four range bands of range, hit number and anti-armour)
/// and of a vehicle (armour front and flank, AFV class, weight class).
pub(crate) const SHAPE: CatalogueShape = CatalogueShape {
    file: "catalogue.toml",
    fields: &[
        ("weapon.label", "The weapon's name, as answers say it"),
        (
            "weapon.rof",
            "Rate of fire (ROF): dice rolled a fire; \"4/3\" is 4 in close assault, 3 otherwise; an asterisk (\"2*\") marks a towed weapon that fires only after standing still and never in Opportunity Fire",
        ),
        ("weapon.close.range", "Close band: its longest range in inches (\"C\": close assault only)"),
        ("weapon.close.hit", "Close band: hit number (a die equal or less hits)"),
        (
            "weapon.close.anti_armour",
            "Close band: anti-armour (a penetration number, or H, W, A, FL, HC and a number, or - for none)",
        ),
        ("weapon.medium.range", "Medium band: its longest range in inches"),
        ("weapon.medium.hit", "Medium band: hit number (a die equal or less hits)"),
        (
            "weapon.medium.anti_armour",
            "Medium band: anti-armour (a penetration number, or H, W, A, FL, HC and a number, or - for none)",
        ),
        ("weapon.long.range", "Long band: its longest range in inches"),
        ("weapon.long.hit", "Long band: hit number (a die equal or less hits)"),
        (
            "weapon.long.anti_armour",
            "Long band: anti-armour (a penetration number, or H, W, A, FL, HC and a number, or - for none)",
        ),
        ("weapon.extreme.range", "Extreme band: its longest range in inches"),
        ("weapon.extreme.hit", "Extreme band: hit number (a die equal or less hits)"),
        (
            "weapon.extreme.anti_armour",
            "Extreme band: anti-armour (a penetration number, or H, W, A, FL, HC and a number, or - for none)",
        ),
        ("weapon.caliber_mm", "Calibre in mm (ammunition depletion applies from 20mm)"),
        ("weapon.idf.burst", "Indirect fire: burst template in inches"),
        ("weapon.idf.he", "Indirect fire: HE value (the to-hit number of an indirect attack)"),
        ("weapon.other.label", "Other data line: its name"),
        (
            "weapon.other.rof",
            "Other data line (after moving more than a cautious advance): Rate of fire (ROF): dice rolled a fire; \"4/3\" is 4 in close assault, 3 otherwise; an asterisk (\"2*\") marks a towed weapon that fires only after standing still and never in Opportunity Fire",
        ),
        (
            "weapon.other.close.range",
            "Other data line (after moving more than a cautious advance): Close band: its longest range in inches (\"C\": close assault only)",
        ),
        (
            "weapon.other.close.hit",
            "Other data line (after moving more than a cautious advance): Close band: hit number (a die equal or less hits)",
        ),
        (
            "weapon.other.close.anti_armour",
            "Other data line (after moving more than a cautious advance): Close band: anti-armour (a penetration number, or H, W, A, FL, HC and a number, or - for none)",
        ),
        (
            "weapon.other.medium.range",
            "Other data line (after moving more than a cautious advance): Medium band: its longest range in inches",
        ),
        (
            "weapon.other.medium.hit",
            "Other data line (after moving more than a cautious advance): Medium band: hit number (a die equal or less hits)",
        ),
        (
            "weapon.other.medium.anti_armour",
            "Other data line (after moving more than a cautious advance): Medium band: anti-armour (a penetration number, or H, W, A, FL, HC and a number, or - for none)",
        ),
        (
            "weapon.other.long.range",
            "Other data line (after moving more than a cautious advance): Long band: its longest range in inches",
        ),
        (
            "weapon.other.long.hit",
            "Other data line (after moving more than a cautious advance): Long band: hit number (a die equal or less hits)",
        ),
        (
            "weapon.other.long.anti_armour",
            "Other data line (after moving more than a cautious advance): Long band: anti-armour (a penetration number, or H, W, A, FL, HC and a number, or - for none)",
        ),
        (
            "weapon.other.extreme.range",
            "Other data line (after moving more than a cautious advance): Extreme band: its longest range in inches",
        ),
        (
            "weapon.other.extreme.hit",
            "Other data line (after moving more than a cautious advance): Extreme band: hit number (a die equal or less hits)",
        ),
        (
            "weapon.other.extreme.anti_armour",
            "Other data line (after moving more than a cautious advance): Extreme band: anti-armour (a penetration number, or H, W, A, FL, HC and a number, or - for none)",
        ),
        ("vehicle.label", "The vehicle's name, as answers say it"),
        ("vehicle.armour.front", "Front armour value"),
        ("vehicle.armour.flank", "Flank armour value"),
        ("vehicle.afv", "AFV class: strong, weak, or soft (not an AFV)"),
        ("vehicle.weight_class", "Weight class (H class fire against any AFV takes off the weight class)"),
    ],
};
