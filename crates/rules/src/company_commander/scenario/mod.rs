//! Company Commander scenario files: what a user writes, and its set-up as a
//! [`FireAction`] (or a [`Barrage`] of them), with every modifier applied and
//! recorded. Ranges are in hexes (1 hex = 100 m).

mod anti_aircraft;
mod barrage;
mod close_assault;
mod shooting;

use serde::Deserialize;
use toml::Spanned;

use super::catalogue::{self, Catalogue, RawArmour, RawWeapon, Weapon, WeaponRef};
use super::settings::{RawSettings, Settings};
use super::tables::{Facing, QUALITIES, Tables};
use crate::ruleset::SetUp;
use crate::setup::{Sections, article, choice, distinct, entry, named, rests_on};
use combat_odds_core::document::Document;
use combat_odds_core::engine::Experiment;
use combat_odds_core::error::{Result, unknown};

/// The kinds of scenario this ruleset resolves, each with the sections it takes.
pub(crate) const SECTIONS: &Sections = &[
    ("direct_fire", &["range", "firer", "target"]),
    ("indirect_fire", &["range", "firer", "target"]),
    ("close_assault", &["assault", "target"]),
    ("barrage", &["range", "firer", "target", "nearby"]),
    ("anti_aircraft", &["aa_firer", "aircraft"]),
    ("engagement", crate::engagement::scenario::SECTIONS),
];

/// Target statuses a scenario may give.
const STATUSES: [&str; 3] = ["none", "cautious", "suppressed"];
/// Cover a target may be in; entrenchments save as hard cover.
const COVERS: [&str; 5] = ["none", "soft", "hard", "entrenchment", "fortification"];
/// The most units one `[[nearby]]` or `[[aa_firer]]` entry may hold.
const MAX_UNITS: u32 = 20;

/// A scenario file's sections; which a kind may have is checked by
/// [`crate::setup::scenario_kind`].
#[derive(Deserialize)]
pub(super) struct ScenarioFile {
    #[serde(default)]
    pub(super) settings: RawSettings,
    range: Option<Spanned<i64>>,
    firer: Option<Spanned<RawFirer>>,
    target: Option<Spanned<RawTarget>>,
    assault: Option<Spanned<close_assault::RawAssault>>,
    #[serde(default)]
    nearby: Vec<Spanned<RawTarget>>,
    aa_firer: Option<Spanned<Vec<anti_aircraft::RawAaFirer>>>,
    aircraft: Option<Spanned<anti_aircraft::RawAircraft>>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(super) struct RawFirer {
    pub(super) name: Option<String>,
    pub(super) quality: Option<Spanned<String>>,
    pub(super) strength: Option<Spanned<u32>>,
    #[serde(default)]
    pub(super) weapons: Vec<Spanned<WeaponRef>>,
    #[serde(default)]
    pub(super) weapon_data: Vec<Spanned<RawWeapon>>,
    #[serde(default)]
    pub(super) moved: bool,
    #[serde(default)]
    pub(super) changed_facing: bool,
    #[serde(default)]
    pub(super) modifiers: Vec<Spanned<String>>,
    /// Is the target in the firer's front arc, where a `front_arc` weapon fires?
    pub(super) target_in_front_arc: Option<Spanned<bool>>,
    /// An engagement unit's arc follows from the facing it shows the enemy, so it
    /// takes no `target_in_front_arc`.
    #[serde(skip)]
    pub(super) front_arc_from_facing: bool,
    /// The close assault weapon class of infantry able to close assault, or "none";
    /// without it, the best class of the firer's weapons (CC-19).
    pub(super) close_assault: Option<Spanned<String>>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(super) struct RawTarget {
    pub(super) name: Option<String>,
    pub(super) quality: Option<Spanned<String>>,
    pub(super) strength: Option<Spanned<u32>>,
    pub(super) status: Option<Spanned<String>>,
    pub(super) vehicle: Option<Spanned<String>>,
    pub(super) armour: Option<Spanned<RawArmour>>,
    pub(super) open_topped: Option<bool>,
    #[serde(default)]
    pub(super) vulnerable: bool,
    pub(super) hull_down: Option<Spanned<bool>>,
    pub(super) cover: Option<Spanned<String>>,
    pub(super) front_line: Option<Spanned<bool>>,
    pub(super) facing: Option<Spanned<String>>,
    pub(super) bearing: Option<Spanned<f64>>,
    pub(super) visible: Option<Spanned<bool>>,
    pub(super) count: Option<Spanned<i64>>,
}

/// Compiles a scenario document of any kind.
pub fn set_up(doc: &Document, k: &str, tables: &Tables, catalogue: &Catalogue) -> Result<SetUp> {
    let file: ScenarioFile = doc.parse()?;
    let settings = Settings::resolve(doc, &file.settings, k, &tables.weapon_strength)?;
    let mut cx = Ctx { doc, tables, catalogue, settings, notes: Vec::new() };
    let experiment: Box<dyn Experiment> = match k {
        "direct_fire" => Box::new(cx.fire(file, false)?),
        "indirect_fire" => Box::new(cx.fire(file, true)?),
        "close_assault" => Box::new(cx.close_assault(file)?),
        "barrage" => Box::new(cx.barrage(file)?),
        _ => Box::new(cx.anti_aircraft(file)?),
    };
    Ok(SetUp { experiment, notes: cx.notes })
}

/// A target as the rules see it.
#[derive(Clone)]
pub(super) struct Target {
    pub(super) label: String,
    pub(super) quality: usize,
    pub(super) strength: u32,
    pub(super) cautious: bool,
    pub(super) suppressed: bool,
    /// Armour (front, side, rear), or a non-armoured target.
    pub(super) armour: Option<[i32; 3]>,
    pub(super) facing: Facing,
    pub(super) open_topped: bool,
    pub(super) vulnerable: bool,
    pub(super) hull_down: bool,
    /// The cover save row the target's cover reads, if any.
    pub(super) cover: Option<&'static str>,
    pub(super) front_line: bool,
    pub(super) visible: Option<bool>,
}

/// The firing unit as the rules see it.
#[derive(Clone)]
pub(super) struct Firer {
    pub(super) label: String,
    pub(super) quality: usize,
    pub(super) strength: u32,
    pub(super) moved: bool,
    pub(super) changed_facing: bool,
    pub(super) weapons: Vec<Weapon>,
    /// Named direct fire rows.
    pub(super) modifiers: Vec<String>,
    /// Whether the target is in the firer's front arc, where that is known.
    pub(super) target_in_front_arc: Option<bool>,
    /// Infantry able to close assault: its close assault weapon class (CC-19).
    pub(super) close_assault: Option<usize>,
}

/// A set-up's document, tables, settings and running notes.
pub(super) struct Ctx<'a> {
    pub(super) doc: &'a Document,
    pub(super) tables: &'a Tables,
    pub(super) catalogue: &'a Catalogue,
    pub(super) settings: Settings,
    pub(super) notes: Vec<String>,
}

impl Ctx<'_> {
    /// A quality name (default `experienced`, the quality no modifier row names). A
    /// letter is refused with what each of the seed's lists means by it.
    pub(super) fn quality(&self, value: &Option<Spanned<String>>) -> Result<usize> {
        let Some(v) = value else { return Ok(2) };
        self.doc.offer(v.span(), v.get_ref(), "quality", QUALITIES);
        if let Some(i) = QUALITIES.iter().position(|q| q == v.get_ref()) {
            return Ok(i);
        }
        let message = self
            .tables
            .quality
            .letter_conflict(v.get_ref())
            .unwrap_or_else(|| unknown("quality", v.get_ref(), QUALITIES));
        Err(self.doc.error_at(v.span().start, message))
    }

    fn strength(&self, value: &Option<Spanned<u32>>, default: u32) -> Result<u32> {
        value.as_ref().map_or(Ok(default), |v| catalogue::strength_points(self.doc, v))
    }

    /// The range in hexes: at least 1 (an adjacent hex).
    fn range(&self, file: &ScenarioFile, kind: &str) -> Result<(u32, usize)> {
        let Some(r) = &file.range else {
            return Err(self.doc.error(format!("{} scenario needs `range` in hexes (1 hex = 100 m)", article(kind))));
        };
        match u32::try_from(*r.get_ref()) {
            Ok(n) if (1..=catalogue::MAX_RANGE_HEXES).contains(&n) => Ok((n, r.span().start)),
            _ => Err(self.doc.error_at(
                r.span().start,
                format!(
                    "range {} must be a whole number of hexes from 1 (adjacent) to {}; 1 hex = 100 m",
                    r.get_ref(),
                    catalogue::MAX_RANGE_HEXES
                ),
            )),
        }
    }

    pub(super) fn target(&self, t: Spanned<RawTarget>, indirect: bool, what: &str) -> Result<Target> {
        let doc = self.doc;
        let at = t.span().start;
        let t = t.into_inner();
        let vehicle = match &t.vehicle {
            None => None,
            Some(v) => Some(entry(doc, v, "vehicle", &self.catalogue.vehicles, &self.catalogue.source)?),
        };
        let armour = match (vehicle, &t.armour) {
            (Some(_), Some(a)) => {
                return Err(doc.error_at(a.span().start, format!("{what}: give `vehicle` or `armour`, not both")));
            }
            (Some(v), None) => Some(v.armour),
            (None, Some(a)) => Some(catalogue::armour(doc, a.get_ref())?),
            (None, None) => None,
        };
        let status = choice(doc, t.status.as_ref(), "target status", &STATUSES, "none")?;
        let cover_name = choice(doc, t.cover.as_ref(), "cover", &COVERS, "none")?;
        let cover = match cover_name {
            "soft" => Some("soft_cover"),
            "hard" | "entrenchment" => Some("hard_cover"),
            "fortification" => Some("fortification"),
            _ => None,
        };
        let only = |flag: &Option<Spanned<bool>>, armoured: bool, message: &str| match flag {
            Some(f) if *f.get_ref() && armour.is_some() != armoured => {
                Err(doc.error_at(f.span().start, format!("{what}: {message}")))
            }
            Some(f) => Ok(*f.get_ref()),
            None => Ok(false),
        };
        let hull_down =
            only(&t.hull_down, true, "hull_down is for armoured targets; a non-armoured target takes `cover`")?;
        let front_line = only(
            &t.front_line,
            false,
            "front_line is for non-armoured units (infantry, machine guns, anti-tank guns)",
        )?;
        let facing = match (&t.facing, &t.bearing) {
            (Some(_), Some(b)) => {
                return Err(doc.error_at(b.span().start, format!("{what}: give `facing` or `bearing`, not both")));
            }
            (Some(f), None) => {
                doc.offer(f.span(), f.get_ref(), "facing", Facing::NAMES);
                Facing::named(f.get_ref())
                    .ok_or_else(|| doc.error_at(f.span().start, unknown("facing", f.get_ref(), Facing::NAMES)))?
            }
            (None, Some(b)) if b.get_ref().is_finite() => self.tables.armour.facing_at(*b.get_ref()),
            (None, Some(b)) => {
                return Err(doc.error_at(b.span().start, "bearing must be a number of degrees off the target's nose"));
            }
            (None, None) => Facing::Front,
        };
        if let Some(spot) = t.facing.as_ref().map(|f| f.span().start).or(t.bearing.as_ref().map(|b| b.span().start))
            && armour.is_none()
        {
            return Err(doc.error_at(
                spot,
                format!("{what}: facing matters only for armour; give `vehicle` or `armour`, or remove it"),
            ));
        }
        let visible = match (&t.visible, indirect) {
            (Some(v), true) => Some(*v.get_ref()),
            (None, true) => {
                return Err(doc.error_at(at, format!("{what}: indirect fire needs `visible = true` or `false` (is the target visible to the shooter?)")));
            }
            (Some(v), false) => {
                return Err(doc.error_at(v.span().start, format!("{what}: `visible` is for indirect fire")));
            }
            (None, false) => None,
        };
        if let Some(c) = &t.count
            && what == "target"
        {
            return Err(doc.error_at(c.span().start, "`count` is for `[[nearby]]` units; the target is one unit"));
        }
        let open_topped = t.open_topped.unwrap_or(vehicle.is_some_and(|v| v.open_topped));
        Ok(Target {
            label: t.name.clone().or(vehicle.map(|v| v.label.clone())).unwrap_or_else(|| what.to_string()),
            quality: self.quality(&t.quality)?,
            strength: self.strength(&t.strength, vehicle.map_or(1, |v| v.strength))?,
            cautious: status == "cautious",
            suppressed: status == "suppressed",
            armour,
            facing,
            open_topped,
            vulnerable: t.vulnerable,
            hull_down,
            cover,
            front_line,
            visible,
        })
    }

    pub(super) fn firer(&self, f: Spanned<RawFirer>) -> Result<Firer> {
        let doc = self.doc;
        let at = f.span().start;
        let f = f.into_inner();
        distinct(doc, &f.modifiers)?;
        let mut weapons = Vec::new();
        for w in &f.weapons {
            // Offered where it is a plain name, not a table saying how it is carried.
            doc.offer(w.span(), &w.get_ref().weapon, "weapon", self.catalogue.weapons.keys().map(String::as_str));
            let weapon = self.catalogue.carried(w.get_ref()).map_err(|m| doc.error_at(w.span().start, m))?;
            rests_on(doc, &self.catalogue.source, ("weapon", &w.get_ref().weapon), &weapon.label);
            weapons.push(weapon);
        }
        for (i, w) in f.weapon_data.into_iter().enumerate() {
            weapons.push(catalogue::weapon(doc, &format!("inline weapon {}", i + 1), w.into_inner(), self.tables)?);
        }
        if weapons.is_empty() {
            return Err(doc.error_at(
                at,
                "the firer needs `weapons = [\"name\", ...]` from the catalogue or `[[firer.weapon_data]]` entries",
            ));
        }
        let chart = [&self.tables.to_hit.direct_fire];
        let automatic: Vec<(&str, &str)> =
            AUTOMATIC.iter().filter(|(c, ..)| *c == "direct_fire").map(|(_, name, why)| (*name, *why)).collect();
        let modifiers = f
            .modifiers
            .iter()
            .map(|m| named(doc, m, &chart, &automatic, None).map(|row| row.name.clone()))
            .collect::<Result<Vec<_>>>()?;
        if let Some(m) = f.modifiers.iter().find(|m| m.get_ref() == "smart_weapon_vs_ew")
            && !weapons.iter().any(|w| w.smart)
        {
            return Err(doc.error_at(
                m.span().start,
                "smart_weapon_vs_ew applies only to Smart weapons, and none of the firer's is",
            ));
        }
        let front_arc = weapons.iter().find(|w| w.mount.front_arc);
        match (&f.target_in_front_arc, front_arc) {
            (Some(t), None) => {
                return Err(doc.error_at(
                    t.span().start,
                    "target_in_front_arc matters only to a weapon that fires into the front arc alone (front_arc = true, a hull MG), and the firer has none; remove it",
                ));
            }
            (None, Some(w)) if !f.front_arc_from_facing => {
                return Err(doc.error_at(
                    at,
                    format!("`{}` fires only into the firer's front arc (front_arc = true); say whether the target is there with `target_in_front_arc = true` or `false`", w.name),
                ));
            }
            _ => {}
        }
        let close_assault = self.assault_class(&f.close_assault, &weapons)?;
        Ok(Firer {
            label: f.name.unwrap_or_else(|| "firer".into()),
            quality: self.quality(&f.quality)?,
            strength: self.strength(&f.strength, 1)?,
            moved: f.moved,
            changed_facing: f.changed_facing,
            weapons,
            modifiers,
            target_in_front_arc: f.target_in_front_arc.map(|t| *t.get_ref()),
            close_assault,
        })
    }

    /// A firer's close assault weapon class (CC-19): as `close_assault` names it
    /// (`"none"`: not infantry able to close assault), or else the class of its weapons
    /// most likely to succeed ("the game engine ... will always choose the most
    /// effective available weapons"), the first listed on a tie; `None` when no weapon
    /// is an infantry team's.
    fn assault_class(&self, key: &Option<Spanned<String>>, weapons: &[Weapon]) -> Result<Option<usize>> {
        let ca = &self.tables.close_assault;
        match key {
            Some(k) if k.get_ref() == "none" => Ok(None),
            Some(k) => {
                let names = ca.weapons.iter().map(|w| w.name.as_str()).chain(["none"]);
                self.doc.offer(k.span(), k.get_ref(), "close assault weapon class", names.clone());
                ca.class(k.get_ref()).map(Some).map_err(|_| {
                    self.doc.error_at(k.span().start, unknown("close assault weapon class", k.get_ref(), names))
                })
            }
            None => {
                Ok(weapons.iter().filter_map(|w| w.close_assault).rev().max_by_key(|&c| ca.weapons[c].success_up_to))
            }
        }
    }
}

/// Refuses `close_assault` on the firer of indirect fire, which never closes with
/// its target, where the key would silently do nothing.
fn refuse_close_assault_key(doc: &Document, firer: &RawFirer, kind: &str) -> Result<()> {
    match &firer.close_assault {
        Some(k) => Err(doc.error_at(
            k.span().start,
            format!("close_assault says whether a firer is infantry able to close assault an adjacent armoured unit, which {} scenario never asks; remove it", article(kind)),
        )),
        None => Ok(()),
    }
}

/// Every row the rules apply by themselves, per chart, and from what: the modifier
/// listing shows these, and a scenario that names one is told why it need not.
pub(crate) const AUTOMATIC: &[(&str, &str, &str)] = &[
    ("all_shooting", "target_cautious_or_suppressed", "target status cautious or suppressed"),
    ("all_shooting", "shooter_elite", "firer quality"),
    ("all_shooting", "shooter_veteran", "firer quality"),
    ("all_shooting", "target_trained", "target quality"),
    ("all_shooting", "target_green", "target quality"),
    ("all_shooting", "target_elite", "target quality"),
    ("all_shooting", "target_veteran", "target quality"),
    ("all_shooting", "shooter_trained", "firer quality"),
    ("all_shooting", "shooter_green", "firer quality"),
    ("all_shooting", "smart_weapon", "the weapon's smart = true"),
    ("direct_fire", "rangefinder", "the weapon's rangefinder value"),
    ("direct_fire", "range_up_to_20_percent", "range as a share of the weapon's maximum"),
    ("direct_fire", "range_40_to_60_percent", "range as a share of the weapon's maximum"),
    ("direct_fire", "range_60_to_80_percent", "range as a share of the weapon's maximum"),
    ("direct_fire", "range_over_80_percent", "range as a share of the weapon's maximum"),
    ("direct_fire", "shooter_moved", "moved or changed_facing on the firer"),
    ("direct_fire", "stabiliser_first_generation", "moving firer, weapon stabiliser = \"first\""),
    ("direct_fire", "stabiliser_second_generation", "moving firer, weapon stabiliser = \"second\""),
    ("direct_fire", "overworked_moved", "moving firer, weapon overworked = true"),
    ("direct_fire", "target_in_cover_or_hull_down", "cover or hull_down on the target"),
    ("indirect_fire", "target_visible", "visible = true on the target"),
    ("indirect_fire", "target_not_visible", "visible = false on the target"),
    ("indirect_fire", "target_in_cover", "cover on the target"),
    ("cover_save", "front_line", "front_line = true on the target"),
    ("cover_save", "soft_cover", "cover = \"soft\""),
    ("cover_save", "hard_cover", "cover = \"hard\" or \"entrenchment\""),
    ("cover_save", "fortification", "cover = \"fortification\""),
];
