//! The illustrative weapon and vehicle catalogue (`catalogue.toml`), and the weapon
//! data a scenario may give inline in the same shape. Everything a weapon's display
//! shows is checked here once: ranges, penetration, AP 2-6, strength 1-6.

use std::collections::BTreeMap;

use serde::Deserialize;
use toml::Spanned;

use super::tables::{AP_VALUES, MAX_RATE_OF_FIRE, Tables};
use crate::ruleset::CatalogueShape;
use crate::setup::Labelled;
use combat_odds_core::document::Document;
use combat_odds_core::error::{Result, unknown};
use combat_odds_core::tables::{Source, TableFile};

/// The farthest range any weapon may show, in hexes (1 hex = 100 m): past this is a typo.
pub(crate) const MAX_RANGE_HEXES: u32 = 500;
/// Armour and penetration values beyond this are typos.
pub(crate) const MAX_ARMOUR: i32 = 100;

/// How a weapon's penetration varies with range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Penetration {
    /// The same at every range (HEAT, indirect fire).
    Constant(i32),
    /// Shown at the minimum and the maximum range.
    Ranged {
        /// At minimum range.
        at_min: i32,
        /// At maximum range.
        at_max: i32,
    },
}

/// What a weapon does against armour: penetration and AP.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AntiArmour {
    /// Penetration.
    pub penetration: Penetration,
    /// AP value for hit damage.
    pub ap: u32,
}

/// One mode of fire (direct or indirect).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mode {
    /// Attacks per strength point when stationary (direct fire; indirect fire uses the
    /// attacks table instead).
    pub stationary_rof: u32,
    /// Attacks per strength point after moving.
    pub moving_rof: u32,
    /// Minimum and maximum range in hexes.
    pub range: (u32, u32),
    /// Against armour, if it can harm it.
    pub anti_armour: Option<AntiArmour>,
    /// Weapon strength against non-armoured targets.
    pub strength: u32,
    /// Do the direct fire range bands apply?
    pub range_modifiers: bool,
    /// The barrage type (indirect fire).
    pub barrage: Option<String>,
}

/// Stabilised weapon generations.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stabiliser {
    /// None.
    None,
    /// 1st generation.
    First,
    /// 2nd generation.
    Second,
}

/// A weapon.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Weapon {
    /// Catalogue name, or "inline weapon".
    pub name: String,
    /// As displayed.
    pub label: String,
    /// Direct fire.
    pub direct: Option<Mode>,
    /// Indirect fire.
    pub indirect: Option<Mode>,
    /// A Smart weapon.
    pub smart: bool,
    /// Its rangefinder value.
    pub rangefinder: u32,
    /// Stabiliser.
    pub stabiliser: Stabiliser,
    /// Overworked.
    pub overworked: bool,
    /// Attacks the top (rear) armour.
    pub top_attack: bool,
    /// HEAT: the same penetration at every range.
    pub heat: bool,
    /// How the firer carries it.
    pub mount: Mount,
    /// The close assault weapon class (an index into `close_assault.toml`'s classes)
    /// of the infantry team whose weapon this is: a unit carrying it is infantry able
    /// to close assault (seed 003 "Close assault", "Weapon effectiveness"; CC-19).
    pub close_assault: Option<usize>,
}

/// How a firer carries a weapon, where that limits when it fires (seed 003 "Rate of
/// Fire" and "How to select the weapon or weapons to fire"; CC-18).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Mount {
    /// Weapons of one firer naming the same group cannot fire together (a coaxial MG
    /// and its main gun, a gun and the missile launched from its barrel): the one most
    /// able to destroy the target fires.
    pub one_of: Option<String>,
    /// Fires only at a target in the firer's front arc (a hull MG).
    pub front_arc: bool,
}

/// One entry of a firer's `weapons`: a catalogue name, or a table naming one with how
/// it is mounted: `{ weapon = "us_30cal_mg", one_of = "turret" }`.
#[derive(Debug)]
pub struct WeaponRef {
    /// The catalogue name.
    pub weapon: String,
    /// How it is carried.
    pub mount: Mount,
}

/// The table form of [`WeaponRef`].
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawWeaponRef {
    weapon: String,
    one_of: Option<String>,
    #[serde(default)]
    front_arc: bool,
}

impl<'de> Deserialize<'de> for WeaponRef {
    /// A string or a table, each with serde's own messages and places (an untagged
    /// enum would lose both).
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct Entry;
        impl<'de> serde::de::Visitor<'de> for Entry {
            type Value = WeaponRef;

            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str(
                    "a catalogue weapon name, or a table such as { weapon = \"us_30cal_mg\", one_of = \"turret\" } or { weapon = \"us_30cal_mg\", front_arc = true }",
                )
            }

            fn visit_str<E: serde::de::Error>(self, v: &str) -> std::result::Result<WeaponRef, E> {
                Ok(WeaponRef { weapon: v.to_string(), mount: Mount::default() })
            }

            fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> std::result::Result<WeaponRef, A::Error> {
                let r = RawWeaponRef::deserialize(serde::de::value::MapAccessDeserializer::new(map))?;
                Ok(WeaponRef { weapon: r.weapon, mount: Mount { one_of: r.one_of, front_arc: r.front_arc } })
            }
        }
        d.deserialize_any(Entry)
    }
}

/// A vehicle: armour by facing, open topped or not, strength.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Vehicle {
    /// Catalogue name.
    pub name: String,
    /// As displayed.
    pub label: String,
    /// Armour: front, side, rear.
    pub armour: [i32; 3],
    /// Open topped.
    pub open_topped: bool,
    /// Strength points.
    pub strength: u32,
}

/// A weapon as written in the catalogue or inline.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawWeapon {
    label: Option<String>,
    direct: Option<Spanned<RawMode>>,
    indirect: Option<Spanned<RawMode>>,
    #[serde(default)]
    smart: bool,
    rangefinder: Option<Spanned<u32>>,
    stabiliser: Option<Spanned<String>>,
    #[serde(default)]
    overworked: bool,
    #[serde(default)]
    top_attack: bool,
    #[serde(default)]
    heat: bool,
    one_of: Option<Spanned<String>>,
    front_arc: Option<Spanned<bool>>,
    close_assault: Option<Spanned<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMode {
    stationary_rof: Option<Spanned<u32>>,
    moving_rof: Option<Spanned<u32>>,
    range: Spanned<[u32; 2]>,
    penetration: Option<Spanned<RawPenetration>>,
    ap: Option<Spanned<u32>>,
    strength: Spanned<u32>,
    range_modifiers: Option<bool>,
    barrage: Option<Spanned<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum RawPenetration {
    One(i32),
    Two([i32; 2]),
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawVehicle {
    label: String,
    armour: RawArmour,
    #[serde(default)]
    open_topped: bool,
    strength: Spanned<u32>,
}

/// Armour values as written: `{ front, side, rear }`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawArmour {
    front: Spanned<i32>,
    side: Spanned<i32>,
    rear: Spanned<i32>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCatalogue {
    source: Source,
    #[serde(default)]
    weapon: BTreeMap<String, Spanned<RawWeapon>>,
    #[serde(default)]
    vehicle: BTreeMap<String, Spanned<RawVehicle>>,
}

/// The loaded catalogue.
#[derive(Debug, Clone)]
pub struct Catalogue {
    /// Weapons by name.
    pub weapons: BTreeMap<String, Weapon>,
    /// Vehicles by name.
    pub vehicles: BTreeMap<String, Vehicle>,
    /// Provenance.
    pub source: Source,
}

impl Catalogue {
    /// Loads and checks every entry.
    pub fn load(f: &TableFile, tables: &Tables) -> Result<Self> {
        let raw: RawCatalogue = f.parse()?;
        let weapons = raw
            .weapon
            .into_iter()
            .map(|(name, w)| {
                let w = w.into_inner();
                if let Some(at) = w.one_of.as_ref().map(|g| g.span().start).or(w.front_arc.as_ref().map(|a| a.span().start)) {
                    return Err(f.error_at(
                        at,
                        format!("weapon `{name}`: `one_of` and `front_arc` say how a firer carries a weapon, not what it is; give them in the firer's list: weapons = [{{ weapon = \"{name}\", one_of = \"turret\" }}]"),
                    ));
                }
                Ok((name.clone(), weapon(f, &name, w, tables)?))
            })
            .collect::<Result<_>>()?;
        let vehicles = raw
            .vehicle
            .into_iter()
            .map(|(name, v)| {
                let v = v.into_inner();
                Ok((
                    name.clone(),
                    Vehicle {
                        armour: armour(f, &v.armour)?,
                        strength: strength_points(f, &v.strength)?,
                        name,
                        label: v.label,
                        open_topped: v.open_topped,
                    },
                ))
            })
            .collect::<Result<_>>()?;
        Ok(Catalogue { weapons, vehicles, source: raw.source })
    }

    /// The weapon named `name`.
    pub fn weapon(&self, name: &str) -> std::result::Result<&Weapon, String> {
        self.weapons.get(name).ok_or_else(|| unknown("weapon", name, self.weapons.keys().map(String::as_str)))
    }

    /// The weapon an entry of a firer's list names, carried as the entry says.
    pub fn carried(&self, entry: &WeaponRef) -> std::result::Result<Weapon, String> {
        Ok(Weapon { mount: entry.mount.clone(), ..self.weapon(&entry.weapon)?.clone() })
    }
}

/// The most strength points a unit may have: past this is a typo.
pub(crate) const MAX_STRENGTH_POINTS: u32 = 12;

/// A unit's strength points: 1 or more ("Strength 0" is no unit at all).
pub(crate) fn strength_points(doc: &Document, v: &Spanned<u32>) -> Result<u32> {
    match *v.get_ref() {
        0 => Err(doc.error_at(
            v.span().start,
            "strength 0 is a destroyed unit; give the strength points it has left (1 or more)",
        )),
        n if n > MAX_STRENGTH_POINTS => Err(doc.error_at(
            v.span().start,
            format!("strength {n} is more than any unit has (at most {MAX_STRENGTH_POINTS} points)"),
        )),
        n => Ok(n),
    }
}

/// Armour `{ front, side, rear }`, each from 0 to [`MAX_ARMOUR`].
pub fn armour(doc: &Document, a: &RawArmour) -> Result<[i32; 3]> {
    let check = |v: &Spanned<i32>, facing: &str| {
        if (0..=MAX_ARMOUR).contains(v.get_ref()) {
            Ok(*v.get_ref())
        } else {
            Err(doc.error_at(v.span().start, format!("{facing} armour {} must be from 0 to {MAX_ARMOUR}", v.get_ref())))
        }
    };
    Ok([check(&a.front, "front")?, check(&a.side, "side")?, check(&a.rear, "rear")?])
}

/// Checks a weapon written in `doc` (the catalogue or a scenario).
pub fn weapon(doc: &Document, name: &str, w: RawWeapon, tables: &Tables) -> Result<Weapon> {
    let who = format!("weapon `{name}`");
    if w.direct.is_none() && w.indirect.is_none() {
        return Err(doc.error(format!("{who} needs a `direct` or an `indirect` part (or both)")));
    }
    let heat = w.heat;
    let direct = w.direct.map(|m| mode(doc, &who, m, false, heat, tables)).transpose()?;
    let indirect = w.indirect.map(|m| mode(doc, &who, m, true, heat, tables)).transpose()?;
    let stabiliser = match w.stabiliser.as_ref().map(|s| (s, s.get_ref().as_str())) {
        None | Some((_, "none")) => Stabiliser::None,
        Some((_, "first")) => Stabiliser::First,
        Some((_, "second")) => Stabiliser::Second,
        Some((s, other)) => {
            return Err(doc.error_at(s.span().start, unknown("stabiliser", other, ["none", "first", "second"])));
        }
    };
    let rangefinder = match &w.rangefinder {
        None => 0,
        Some(r) if *r.get_ref() <= 10 => *r.get_ref(),
        Some(r) => {
            return Err(doc.error_at(r.span().start, format!("{who}: rangefinder value {} is past 10", r.get_ref())));
        }
    };
    let close_assault = w
        .close_assault
        .as_ref()
        .map(|c| {
            tables.close_assault.class(c.get_ref()).map_err(|m| doc.error_at(c.span().start, format!("{who}: {m}")))
        })
        .transpose()?;
    Ok(Weapon {
        name: name.to_string(),
        label: w.label.unwrap_or_else(|| name.to_string()),
        direct,
        indirect,
        smart: w.smart,
        rangefinder,
        stabiliser,
        overworked: w.overworked,
        top_attack: w.top_attack,
        heat,
        mount: Mount {
            one_of: w.one_of.map(Spanned::into_inner),
            front_arc: w.front_arc.is_some_and(|a| *a.get_ref()),
        },
        close_assault,
    })
}

fn mode(doc: &Document, who: &str, m: Spanned<RawMode>, indirect: bool, heat: bool, tables: &Tables) -> Result<Mode> {
    let at = m.span().start;
    let m = m.into_inner();
    let part = if indirect { "indirect" } else { "direct" };
    let [lo, hi] = *m.range.get_ref();
    if lo > hi || hi == 0 || hi > MAX_RANGE_HEXES {
        return Err(doc.error_at(
            m.range.span().start,
            format!("{who}: {part} range [{lo}, {hi}] must be [minimum, maximum] in hexes, up to {MAX_RANGE_HEXES}"),
        ));
    }
    let rof = |v: &Option<Spanned<u32>>, key: &str| -> Result<u32> {
        match v {
            None if indirect => Ok(0),
            None => Err(doc.error_at(at, format!("{who}: direct fire needs `{key}` (attacks per strength point)"))),
            Some(r) if indirect => Err(doc.error_at(
                r.span().start,
                format!(
                    "{who}: indirect fire makes {} attack per strength point; remove `{key}`",
                    tables.attacks.indirect_fire_per_strength_point
                ),
            )),
            Some(r) if *r.get_ref() <= MAX_RATE_OF_FIRE => Ok(*r.get_ref()),
            Some(r) => {
                Err(doc.error_at(r.span().start, format!("{who}: {key} {} is past {MAX_RATE_OF_FIRE}", r.get_ref())))
            }
        }
    };
    let (lo_s, hi_s) = tables.weapon_strength.strengths;
    let strength = *m.strength.get_ref();
    if !(lo_s..=hi_s).contains(&strength) {
        return Err(
            doc.error_at(m.strength.span().start, format!("{who}: strength {strength} must be from {lo_s} to {hi_s}"))
        );
    }
    let anti_armour = match (&m.penetration, &m.ap) {
        (None, None) => None,
        (Some(p), None) => {
            return Err(doc.error_at(
                p.span().start,
                format!("{who}: a weapon with penetration needs an `ap` value ({} to {})", AP_VALUES.0, AP_VALUES.1),
            ));
        }
        (None, Some(a)) => {
            return Err(
                doc.error_at(a.span().start, format!("{who}: `ap` without `penetration`; give both or neither"))
            );
        }
        (Some(p), Some(a)) => {
            let ap = *a.get_ref();
            if !(AP_VALUES.0..=AP_VALUES.1).contains(&ap) {
                return Err(doc.error_at(
                    a.span().start,
                    format!(
                        "{who}: AP {ap} is outside the hit damage table, which runs from {} to {}",
                        AP_VALUES.0, AP_VALUES.1
                    ),
                ));
            }
            let value = |v: i32| {
                if (0..=MAX_ARMOUR).contains(&v) {
                    Ok(v)
                } else {
                    Err(doc.error_at(p.span().start, format!("{who}: penetration {v} must be from 0 to {MAX_ARMOUR}")))
                }
            };
            let penetration = match p.get_ref() {
                RawPenetration::One(v) => Penetration::Constant(value(*v)?),
                RawPenetration::Two([a, b]) if a == b => Penetration::Constant(value(*a)?),
                RawPenetration::Two(_) if indirect => {
                    return Err(doc.error_at(
                        p.span().start,
                        format!("{who}: indirect fire has one penetration, the same at all ranges"),
                    ));
                }
                RawPenetration::Two(_) if heat => {
                    return Err(doc.error_at(
                        p.span().start,
                        format!("{who}: a HEAT weapon has the same penetration at all ranges; give one value"),
                    ));
                }
                RawPenetration::Two([a, b]) => Penetration::Ranged { at_min: value(*a)?, at_max: value(*b)? },
            };
            Some(AntiArmour { penetration, ap })
        }
    };
    let barrage = match (&m.barrage, indirect) {
        (None, _) => None,
        (Some(b), false) => {
            return Err(doc.error_at(b.span().start, format!("{who}: only indirect fire has a barrage")));
        }
        (Some(b), true) => {
            tables.barrage.get(b.get_ref()).map_err(|msg| doc.error_at(b.span().start, msg))?;
            Some(b.get_ref().clone())
        }
    };
    Ok(Mode {
        stationary_rof: rof(&m.stationary_rof, "stationary_rof")?,
        moving_rof: rof(&m.moving_rof, "moving_rof")?,
        range: (lo, hi),
        anti_armour,
        strength,
        range_modifiers: m.range_modifiers.unwrap_or(!indirect),
        barrage,
    })
}

impl Labelled for Vehicle {
    fn label(&self) -> &str {
        &self.label
    }
}

/// The catalogue as the page's editor offers it: a weapon's direct and indirect parts
/// and flags, a vehicle's armour by facing (seed 003, Weapon Information).
pub(crate) const SHAPE: CatalogueShape = CatalogueShape {
    file: "catalogue.toml",
    fields: &[
        ("weapon.label", "The weapon's name, as answers say it"),
        ("weapon.direct.stationary_rof", "Direct fire: attacks per strength point when the firer stood still"),
        ("weapon.direct.moving_rof", "Direct fire: attacks per strength point when the firer moved"),
        ("weapon.direct.range[0]", "Direct fire: shortest range in hexes (1 hex = 100 m)"),
        ("weapon.direct.range[1]", "Direct fire: longest range in hexes"),
        ("weapon.direct.penetration", "Direct fire: penetration, the same at every range"),
        ("weapon.direct.penetration[0]", "Direct fire: penetration at the shortest range"),
        ("weapon.direct.penetration[1]", "Direct fire: penetration at the longest range"),
        ("weapon.direct.ap", "Direct fire: hit damage against armour (AP, 2 to 6)"),
        ("weapon.direct.strength", "Direct fire: strength against targets without armour (1 to 6)"),
        (
            "weapon.direct.range_modifiers",
            "Direct fire: whether the range bands' modifiers apply (false for most missiles)",
        ),
        ("weapon.direct.barrage", "Direct fire: its row of the Barrage table"),
        ("weapon.indirect.stationary_rof", "Indirect fire: attacks per strength point when the firer stood still"),
        ("weapon.indirect.moving_rof", "Indirect fire: attacks per strength point when the firer moved"),
        ("weapon.indirect.range[0]", "Indirect fire: shortest range in hexes (1 hex = 100 m)"),
        ("weapon.indirect.range[1]", "Indirect fire: longest range in hexes"),
        ("weapon.indirect.penetration", "Indirect fire: penetration, the same at every range"),
        ("weapon.indirect.penetration[0]", "Indirect fire: penetration at the shortest range"),
        ("weapon.indirect.penetration[1]", "Indirect fire: penetration at the longest range"),
        ("weapon.indirect.ap", "Indirect fire: hit damage against armour (AP, 2 to 6)"),
        ("weapon.indirect.strength", "Indirect fire: strength against targets without armour (1 to 6)"),
        (
            "weapon.indirect.range_modifiers",
            "Indirect fire: whether the range bands' modifiers apply (false for most missiles)",
        ),
        ("weapon.indirect.barrage", "Indirect fire: its row of the Barrage table"),
        ("weapon.heat", "HEAT: true for a hollow-charge weapon (one penetration at every range)"),
        ("weapon.smart", "Smart munition: true or false"),
        ("weapon.rangefinder", "Rangefinder: its value"),
        ("weapon.stabiliser", "Stabiliser: none, first or second generation"),
        ("weapon.overworked", "Overworked crew: true or false"),
        ("weapon.top_attack", "Top attack: true or false"),
        (
            "weapon.close_assault",
            "Close assault class of the infantry team that carries it (a row of the Close Assault table)",
        ),
        ("weapon.one_of", "Carried as one of a group (fires instead of the others)"),
        ("weapon.front_arc", "Fires into the front arc only: true or false"),
        ("vehicle.label", "The vehicle's name, as answers say it"),
        ("vehicle.armour.front", "Front armour"),
        ("vehicle.armour.side", "Side armour"),
        ("vehicle.armour.rear", "Rear armour"),
        ("vehicle.open_topped", "Open-topped: true or false"),
        ("vehicle.strength", "Strength points"),
    ],
};
