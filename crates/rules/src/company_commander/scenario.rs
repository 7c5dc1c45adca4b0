//! Company Commander scenario files: what a user writes, and its set-up as a
//! [`FireAction`] (or a [`Barrage`] of them), with every modifier applied and
//! recorded. Ranges are in hexes (1 hex = 100 m).

use serde::Deserialize;
use toml::Spanned;

use super::barrage::Barrage;
use super::catalogue::{
    self, Catalogue, Mode, Mount, Penetration, RawArmour, RawWeapon, Stabiliser, Weapon, WeaponRef,
};
use super::fire::{Candidate, Chain, Effect, FireAction, Made, Next, Roll, Step, Strike, Volley, WeaponChoice};
use super::settings::{Between, RawSettings, Settings};
use super::tables::{Facing, HitKind, QUALITIES, Tables};
use combat_odds_core::dice::D100;
use combat_odds_core::document::Document;
use combat_odds_core::engine::Experiment;
use combat_odds_core::error::{Result, unknown};
use crate::ruleset::SetUp;
use crate::setup::{Sections, Sum, article, choice, count, distinct, entry, named, present, required, rests_on};

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
/// A.A. mounts.
const MOUNTS: [&str; 3] = ["single", "twin", "quad"];
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
    assault: Option<Spanned<RawAssault>>,
    #[serde(default)]
    nearby: Vec<Spanned<RawTarget>>,
    aa_firer: Option<Spanned<Vec<RawAaFirer>>>,
    aircraft: Option<Spanned<RawAircraft>>,
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

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAssault {
    name: Option<String>,
    quality: Option<Spanned<String>>,
    strength: Option<Spanned<u32>>,
    weapon_class: Spanned<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAaFirer {
    name: Option<String>,
    level: Spanned<String>,
    mount: Option<Spanned<String>>,
    units: Option<Spanned<i64>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAircraft {
    name: Option<String>,
    save: Spanned<u32>,
    strength: Option<Spanned<u32>>,
}

/// Compiles a scenario document of any kind.
pub fn set_up(doc: &Document, k: &str, tables: &Tables, catalogue: &Catalogue) -> Result<SetUp> {
    let file: ScenarioFile = doc.parse()?;
    let settings = Settings::resolve(doc, &file.settings, &tables.weapon_strength)?;
    file.settings.refuse_engagement_settings(doc, k)?;
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

/// The dice after a hit, as chain steps from index 1, for a target that is not
/// suppressed (`false`) or is (`true`).
type OnHit = Box<dyn Fn(bool) -> Vec<Step>>;

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
            rests_on(doc, &self.catalogue.source, &weapon.label);
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
            None => Ok(weapons.iter().filter_map(|w| w.close_assault).rev().max_by_key(|&c| ca.weapons[c].success_up_to)),
        }
    }

    /// A direct or indirect fire action by one unit at one target.
    ///
    /// Infantry able to close assault "may only attack adjacent armoured units by a
    /// close assault" (seed 003 "Close assault"; "ZOC's"): such direct fire at range 1
    /// is refused, naming the close assault scenario that asks it (CC-19).
    fn fire(&mut self, mut s: ScenarioFile, indirect: bool) -> Result<FireAction> {
        let kind = if indirect { "indirect_fire" } else { "direct_fire" };
        let range = self.range(&s, kind)?;
        let raw = present(self.doc, s.firer.take(), "[firer]", kind)?;
        if indirect {
            refuse_close_assault_key(self.doc, raw.get_ref(), kind)?;
        }
        let firer = self.firer(raw)?;
        let target = self.target(present(self.doc, s.target.take(), "[target]", kind)?, indirect, "target")?;
        if let Some(class) = firer.close_assault
            && range.0 == 1
            && target.armour.is_some()
            && !indirect
        {
            let class = &self.tables.close_assault.weapons[class];
            return Err(self.doc.error_at(
                range.1,
                format!(
                    "range 1 is adjacent, and {} is infantry able to close assault ({}), which may attack the adjacent armoured {} only by close assault (seed 003); ask it with kind = \"close_assault\" and [assault] weapon_class = \"{}\", or, if it cannot close assault (a gun or machine gun team), give the firer close_assault = \"none\"",
                    firer.label, class.label, target.label, class.name
                ),
            ));
        }
        self.fire_action(&firer, &target, range, indirect, None)
    }

    /// Every weapon of `firer` at `target`, in the order listed.
    fn fire_action(
        &mut self,
        firer: &Firer,
        target: &Target,
        range: (u32, usize),
        indirect: bool,
        gate: Option<u32>,
    ) -> Result<FireAction> {
        self.notes.push(self.describe_target(target, !indirect));
        let volleys = self.volleys(firer, target, range, indirect, gate)?;
        Ok(self.action(volleys, target))
    }

    /// One volley per weapon of `firer` that fires, in the order listed. With a `gate`
    /// the first weapon's volley rolls the chance and the others follow it: the unit
    /// becomes a target once, with every weapon, or not at all.
    ///
    /// Direct fire weighs how the weapons are mounted (seed 003 "How to select the
    /// weapon or weapons to fire"; CC-18): a `front_arc` weapon fires only at a target
    /// in the firer's front arc, and of the weapons that share a `one_of` group and can
    /// fire at this target exactly one is made, chosen by the action itself
    /// ([`FireAction::choosing`]) from the target's state. A mounted weapon that cannot
    /// fire at this target (out of range, no penetration against armour) is set aside
    /// with a note, as the computer would pass it over; an unmounted one is refused, as
    /// the user chose it. Indirect fire takes every weapon ("all its indirect fire
    /// weapons will attack").
    pub(super) fn volleys(
        &mut self,
        firer: &Firer,
        target: &Target,
        range: (u32, usize),
        indirect: bool,
        gate: Option<u32>,
    ) -> Result<Vec<Volley>> {
        let mut firing: Vec<&Weapon> = Vec::with_capacity(firer.weapons.len());
        let mut set_aside = Vec::new();
        for weapon in &firer.weapons {
            if !indirect && weapon.mount.front_arc && firer.target_in_front_arc == Some(false) {
                set_aside.push(format!("{} does not fire: the target is outside the firer's front arc", weapon.label));
            } else if !indirect && weapon.mount != Mount::default() && !self.can_fire(firer, weapon, target, range.0) {
                set_aside.push(format!("{} cannot fire at this target and is passed over", weapon.label));
            } else {
                firing.push(weapon);
            }
        }
        if firing.is_empty() {
            // Every weapon was set aside: the first one's own reason if it has one.
            if let Some(first) = firer.weapons.iter().find(|w| !w.mount.front_arc) {
                self.volley(firer, first, target, range, indirect, Made::Always)?;
            }
            return Err(self.doc.error(format!(
                "{}: no weapon can fire at {} ({}); give it a weapon that can",
                firer.label,
                target.label,
                set_aside.join("; ")
            )));
        }
        let groups: Vec<&str> = if indirect {
            Vec::new()
        } else {
            let mut named: Vec<&str> = firing.iter().filter_map(|w| w.mount.one_of.as_deref()).collect();
            named.sort_unstable();
            // A group is a choice only with two or more members that can fire.
            named.chunk_by(|a, b| a == b).filter(|c| c.len() > 1).map(|c| c[0]).collect()
        };
        let mut volleys = Vec::with_capacity(firing.len());
        for (i, weapon) in firing.iter().enumerate() {
            let made = match gate {
                None => Made::Always,
                Some(percent) if i == 0 => Made::OnChance(percent),
                Some(_) => Made::WithPrevious,
            };
            let mut volley = self.volley(firer, weapon, target, range, indirect, made)?;
            volley.one_of = weapon.mount.one_of.as_deref().and_then(|g| groups.iter().position(|&n| n == g));
            volleys.push(volley);
        }
        for why in set_aside {
            self.notes.push(format!("  {why}"));
        }
        // The notes show the choice from the target's starting state; the caller's
        // action makes it for every state.
        let weighed = if groups.is_empty() {
            Vec::new()
        } else {
            self.unchosen(volleys.clone(), target).choices(self.settings.weapon_choice)
        };
        for chosen in weighed {
            let group = firing[chosen.volley].mount.one_of.as_deref().unwrap_or_default();
            let odds = |c: &Candidate| {
                format!(
                    "{} (destroys {:.4}, damages {:.4})",
                    firing[c.volley].label,
                    c.destroy.to_f64(),
                    c.damage.to_f64()
                )
            };
            let chosen_one = chosen.candidates.iter().find(|c| c.volley == chosen.volley).map(odds).unwrap_or_default();
            let others: Vec<String> =
                chosen.candidates.iter().filter(|c| c.volley != chosen.volley).map(odds).collect();
            self.notes.push(format!(
                "  one_of \"{group}\" ({}): fires {chosen_one} rather than {}; weighed against the target as it stands when the firer shoots",
                match self.settings.weapon_choice {
                    WeaponChoice::MostLikelyToDestroy => "most likely to destroy",
                    WeaponChoice::MostLikelyToDamage => "most likely to damage",
                },
                others.join(", ")
            ));
        }
        Ok(volleys)
    }

    /// Whether `weapon` can make direct fire at `target` at `range` hexes: the checks
    /// [`Ctx::volley`] refuses a scenario for, asked instead of refused, so that an
    /// engagement fires only the weapons that reach and can harm (seed 003 "How to select
    /// the weapon or weapons to fire"), and a hull MG only into the front arc.
    pub(super) fn can_fire(&self, firer: &Firer, weapon: &Weapon, target: &Target, range: u32) -> bool {
        let Some(mode) = &weapon.direct else { return false };
        let (min, max) = mode.range;
        let rof = if firer.moved { mode.moving_rof } else { mode.stationary_rof };
        range <= max
            && (range >= min || self.settings.inside_minimum_range)
            && !(weapon.mount.front_arc && firer.target_in_front_arc == Some(false))
            && rof > 0
            && (target.armour.is_none() || mode.anti_armour.is_some())
    }

    /// The fire action of `volleys` at `target`, one weapon of each group chosen for
    /// every state the target may start in.
    pub(super) fn action(&self, volleys: Vec<Volley>, target: &Target) -> FireAction {
        self.unchosen(volleys, target).choosing(self.settings.weapon_choice)
    }

    /// The fire action of `volleys` at `target` with every volley made: the form in
    /// which each group's members are weighed.
    fn unchosen(&self, volleys: Vec<Volley>, target: &Target) -> FireAction {
        FireAction::new(
            volleys,
            target.strength,
            target.suppressed,
            self.settings.suppressed_again,
            self.settings.suppression_timing,
        )
    }

    /// The target as the notes show it; `facing_matters` is false where the facing is not
    /// read (indirect fire strikes the rear armour, a close assault reads no armour).
    fn describe_target(&self, t: &Target, facing_matters: bool) -> String {
        let status = if t.suppressed {
            "suppressed"
        } else if t.cautious {
            "cautious"
        } else {
            "not cautious"
        };
        let body = match t.armour {
            Some([f, s, r]) => format!(
                "armour front {f} / side {s} / rear {r}{}{}{}",
                if facing_matters { format!(", struck on the {}", t.facing.name()) } else { String::new() },
                if t.open_topped { ", open topped" } else { "" },
                if t.hull_down { ", hull down" } else { "" }
            ),
            None => format!(
                "non-armoured{}{}",
                if t.front_line { ", front line" } else { "" },
                t.cover.map_or(String::new(), |c| format!(", {}", c.replace('_', " ")))
            ),
        };
        format!("{}: {} quality, strength {}, {status}, {body}", t.label, QUALITIES[t.quality], t.strength)
    }

    /// One weapon's attacks: how many, and the chain of dice for each.
    fn volley(
        &mut self,
        firer: &Firer,
        weapon: &Weapon,
        target: &Target,
        (range, range_at): (u32, usize),
        indirect: bool,
        made: Made,
    ) -> Result<Volley> {
        let doc = self.doc;
        let part = if indirect { "indirect" } else { "direct" };
        let Some(mode) = (if indirect { &weapon.indirect } else { &weapon.direct }) else {
            return Err(
                doc.error(format!("weapon `{}` has no {part} fire part; it cannot make {part} fire", weapon.name))
            );
        };
        let (min, max) = mode.range;
        if range > max {
            return Err(doc.error_at(
                range_at,
                format!("range {range} hexes is beyond `{}`'s maximum {part} range of {max} hexes", weapon.name),
            ));
        }
        if range < min && !self.settings.inside_minimum_range {
            return Err(doc.error_at(
                range_at,
                format!("range {range} hexes is inside `{}`'s minimum range of {min} (setting inside_minimum_range = cannot_fire)", weapon.name),
            ));
        }
        let attacks = if indirect {
            if firer.moved {
                return Err(doc.error(format!(
                    "{}: only direct fire is allowed by a unit that moves; remove `moved`",
                    firer.label
                )));
            }
            self.tables.attacks.indirect_fire_per_strength_point * firer.strength
        } else {
            let rof = if firer.moved { mode.moving_rof } else { mode.stationary_rof };
            if rof == 0 {
                return Err(doc.error(if firer.moved {
                    format!("`{}` cannot fire after moving (its moving rate of fire is 0); remove `moved`", weapon.name)
                } else {
                    format!(
                        "`{}` cannot fire from a halt (its stationary rate of fire is 0); set `moved = true` if it fires on the move, or give it a stationary_rof",
                        weapon.name
                    )
                }));
            }
            rof * firer.strength
        };
        let [unsuppressed, suppressed] = self.to_hit(firer, weapon, mode, target, range, indirect);
        // The effect's notes follow the weapon's line and its to-hit line, under it.
        let keep = self.notes.len();
        let effect = self.on_hit(weapon, mode, target, range, indirect)?;
        let effect_notes = self.notes.split_off(keep);
        let rate = if indirect {
            "indirect fire".to_string()
        } else if firer.moved {
            format!("moving ROF {}", mode.moving_rof)
        } else {
            format!("stationary ROF {}", mode.stationary_rof)
        };
        self.notes.push(format!(
            "{} with {}: {rate} x strength {} = {attacks} attacks at {range} hexes{}",
            firer.label,
            weapon.label,
            firer.strength,
            match made {
                Made::Always => String::new(),
                Made::OnChance(p) => format!(", made with a {p}% chance"),
                Made::WithPrevious => ", made when the weapon before it is".into(),
            },
        ));
        let hit = |sum: &Sum| {
            let score = sum.total();
            let th = &self.tables.to_hit;
            Step::new(th.die, Roll::ToHit, move |face| {
                let hits = face == th.always_hits || (face != th.always_misses && face as i32 <= score);
                if hits { Next::Roll(1) } else { Next::End(Strike::MISS) }
            })
        };
        let note_score = |sum: &Sum| {
            let th = &self.tables.to_hit;
            let faces = (1..=th.die.sides())
                .filter(|&f| f == th.always_hits || (f != th.always_misses && f as i32 <= sum.total()))
                .count();
            format!("{} ({faces} in {})", sum.describe(), th.die.sides())
        };
        if target.suppressed || unsuppressed.total() == suppressed.total() {
            self.notes
                .push(format!("  to hit: {}", note_score(if target.suppressed { &suppressed } else { &unsuppressed })));
        } else {
            self.notes.push(format!(
                "  to hit: {}; once suppressed: {}",
                note_score(&unsuppressed),
                note_score(&suppressed)
            ));
        }
        self.notes.extend(effect_notes);
        let chains = [false, true].map(|s| {
            let mut steps = vec![hit(if s { &suppressed } else { &unsuppressed })];
            steps.extend(effect(s));
            Chain::new(steps)
        });
        Ok(Volley { attacks, made, chains, one_of: None })
    }

    /// The ballistic score against the target unsuppressed and suppressed.
    fn to_hit(
        &self,
        firer: &Firer,
        weapon: &Weapon,
        mode: &Mode,
        target: &Target,
        range: u32,
        indirect: bool,
    ) -> [Sum; 2] {
        let th = &self.tables.to_hit;
        let mut sum = Sum::new(th.ballistic_score);
        let add = |sum: &mut Sum, chart: &combat_odds_core::tables::ModifierTable, name: &str, count: i32| {
            sum.add(name, chart.get(name).value(count));
        };
        let all = &th.all_shooting;
        match QUALITIES[firer.quality] {
            "green" => add(&mut sum, all, "shooter_green", 1),
            "trained" => add(&mut sum, all, "shooter_trained", 1),
            "veteran" => add(&mut sum, all, "shooter_veteran", 1),
            "elite" => add(&mut sum, all, "shooter_elite", 1),
            _ => {}
        }
        match QUALITIES[target.quality] {
            "green" => add(&mut sum, all, "target_green", 1),
            "trained" => add(&mut sum, all, "target_trained", 1),
            "veteran" => add(&mut sum, all, "target_veteran", 1),
            "elite" => add(&mut sum, all, "target_elite", 1),
            _ => {}
        }
        if weapon.smart {
            add(&mut sum, all, "smart_weapon", 1);
        }
        if indirect {
            let ind = &th.indirect_fire;
            let visible = target.visible.expect("indirect fire targets say whether they are visible");
            add(&mut sum, ind, if visible { "target_visible" } else { "target_not_visible" }, 1);
            if target.cover.is_some() {
                add(&mut sum, ind, "target_in_cover", 1);
            }
        } else {
            let d = &th.direct_fire;
            if weapon.rangefinder > 0 {
                add(&mut sum, d, "rangefinder", weapon.rangefinder as i32);
            }
            if mode.range_modifiers
                && let Some(row) = &th.range_band(range, mode.range.1).modifier
            {
                add(&mut sum, d, row, 1);
            }
            if firer.moved || firer.changed_facing {
                add(&mut sum, d, "shooter_moved", 1);
                match weapon.stabiliser {
                    Stabiliser::First => add(&mut sum, d, "stabiliser_first_generation", 1),
                    Stabiliser::Second => add(&mut sum, d, "stabiliser_second_generation", 1),
                    Stabiliser::None => {}
                }
                if weapon.overworked {
                    add(&mut sum, d, "overworked_moved", 1);
                }
            }
            for m in &firer.modifiers {
                if m != "smart_weapon_vs_ew" || weapon.smart {
                    add(&mut sum, d, m, 1);
                }
            }
            if target.cover.is_some() || target.hull_down {
                add(&mut sum, d, "target_in_cover_or_hull_down", 1);
            }
        }
        let mut suppressed = sum.clone();
        add(&mut suppressed, all, "target_cautious_or_suppressed", 1);
        if target.cautious {
            sum = suppressed.clone();
        }
        [sum, suppressed]
    }

    /// What a hit rolls next against `target`.
    fn on_hit(&mut self, weapon: &Weapon, mode: &Mode, target: &Target, range: u32, indirect: bool) -> Result<OnHit> {
        let t = self.tables;
        match target.armour {
            Some(armour) => {
                let Some(aa) = mode.anti_armour else {
                    return Err(self.doc.error(format!(
                        "`{}` has no penetration, so it cannot harm the armoured target {}; give the weapon `penetration` and `ap`, or fire at a non-armoured target",
                        weapon.name, target.label
                    )));
                };
                let av = self.penetration_at(aa.penetration, mode.range, range);
                let facing =
                    if indirect || weapon.top_attack { t.armour.top_attack_and_indirect_fire } else { target.facing };
                let dv = armour[facing as usize];
                let die = t.armour.defence_die;
                let kinds: Vec<HitKind> = (1..=die.sides()).map(|f| t.armour.hit_kind(av - dv - f as i32)).collect();
                let success = |vulnerable: bool| {
                    t.hit_damage.success_for(aa.ap + if vulnerable { t.hit_damage.vulnerable_ap_bonus } else { 0 })
                };
                let always_vulnerable = target.open_topped || target.vulnerable;
                let why = if indirect {
                    " (indirect fire)"
                } else if weapon.top_attack {
                    " (top attack)"
                } else {
                    ""
                };
                let count = |k: HitKind| kinds.iter().filter(|x| **x == k).count();
                self.notes.push(format!(
                    "  armour: AV {av} - DV ({} armour {dv}{why} + d{}) = NPV: penetrating {} in {n}, glancing {} in {n}",
                    facing.name(),
                    die.sides(),
                    count(HitKind::Penetrating),
                    count(HitKind::Glancing),
                    n = die.sides()
                ));
                let ap_note = |v: bool| {
                    format!(
                        "AP {} succeeds on d{} <= {}",
                        aa.ap + if v { t.hit_damage.vulnerable_ap_bonus } else { 0 },
                        t.hit_damage.die.sides(),
                        success(v)
                    )
                };
                self.notes.push(if always_vulnerable {
                    format!("  hit damage (vulnerable): {}", ap_note(true))
                } else {
                    format!("  hit damage: {}; once suppressed (vulnerable): {}", ap_note(false), ap_note(true))
                });
                let (glancing, penetrating, d100) = (t.hit_damage.glancing, t.hit_damage.penetrating, t.hit_damage.die);
                let successes = [success(always_vulnerable), success(true)];
                Ok(Box::new(move |suppressed: bool| {
                    let up_to = successes[usize::from(suppressed)];
                    let kinds = kinds.clone();
                    let damage = move |[ok, fail]: [Effect; 2]| {
                        Step::new(d100, Roll::Effect, move |f| {
                            Next::End(Strike::hit(if f <= up_to { ok } else { fail }))
                        })
                    };
                    vec![
                        Step::new(die, Roll::Effect, move |f| match kinds[f as usize - 1] {
                            HitKind::NoEffect => Next::End(Strike::hit(Effect::NoEffect)),
                            HitKind::Glancing => Next::Roll(2),
                            HitKind::Penetrating => Next::Roll(3),
                        }),
                        damage(glancing),
                        damage(penetrating),
                    ]
                }))
            }
            None => {
                let saves = &t.cover_saves.values;
                let rows: Vec<&str> =
                    target.front_line.then_some("front_line").into_iter().chain(target.cover).collect();
                let values: Vec<i32> = rows.iter().map(|r| saves.get(r).value(1)).collect();
                let save = if self.settings.cover_saves_add_up {
                    values.iter().sum()
                } else {
                    values.iter().copied().max().unwrap_or(0)
                };
                let (save_die, strength_die) = (t.cover_saves.die, t.weapon_strength.die);
                let reading = self.settings.weapon_strength.clone();
                let effects: Vec<Effect> =
                    (1..=strength_die.sides()).map(|f| reading.effect(f, mode.strength)).collect();
                let faces = |e: Effect| effects.iter().filter(|x| **x == e).count();
                self.notes.push(format!(
                    "  cover save: {} = {save}, a d{} at or under it ignores the hit; strength {} ({}): damaged {} in {n}, suppressed {} in {n}",
                    if rows.is_empty() { "none".to_string() } else { rows.join(" + ") },
                    save_die.sides(),
                    mode.strength,
                    reading.name,
                    faces(Effect::Damaged),
                    faces(Effect::Suppressed),
                    n = strength_die.sides()
                ));
                Ok(Box::new(move |_suppressed: bool| {
                    let effects = effects.clone();
                    vec![
                        Step::new(save_die, Roll::Effect, move |f| {
                            if f as i32 <= save { Next::End(Strike::hit(Effect::NoEffect)) } else { Next::Roll(2) }
                        }),
                        Step::new(strength_die, Roll::Effect, move |f| Next::End(Strike::hit(effects[f as usize - 1]))),
                    ]
                }))
            }
        }
    }

    /// Penetration at `range` hexes of a weapon showing it at `(min, max)` range.
    fn penetration_at(&mut self, p: Penetration, (min, max): (u32, u32), range: u32) -> i32 {
        let Penetration::Ranged { at_min, at_max } = p else {
            let Penetration::Constant(v) = p else { unreachable!() };
            return v;
        };
        if range <= min || max == min {
            return at_min;
        }
        // at_min + (at_max - at_min) * (range - min) / (max - min), rounded per setting.
        let num = i64::from(at_max - at_min) * i64::from(range - min);
        let den = i64::from(max - min);
        let drop = match self.settings.between {
            Between::Down => num.div_euclid(den),
            Between::Up => -(-num).div_euclid(den),
            // Halves toward the shooter: round half up.
            Between::Nearest => (2 * num + den).div_euclid(2 * den),
        };
        at_min + drop as i32
    }

    fn close_assault(&mut self, mut s: ScenarioFile) -> Result<FireAction> {
        let doc = self.doc;
        let a = required(doc, s.assault.take(), "[assault]", "close_assault")?;
        let target = self.target(present(doc, s.target.take(), "[target]", "close_assault")?, false, "target")?;
        let quality = self.quality(&a.quality)?;
        let class = self
            .tables
            .close_assault
            .class(a.weapon_class.get_ref())
            .map_err(|m| doc.error_at(a.weapon_class.span().start, m))?;
        let strength = self.strength(&a.strength, 1)?;
        self.notes.push(self.describe_target(&target, false));
        let label = a.name.unwrap_or_else(|| "assault".into());
        Ok(self.assault(&label, quality, class, strength, &target))
    }

    /// A close assault (seed 003 "Close assault": "Unit hit success", "Weapon
    /// effectiveness", "Close assault combat outcome", three d6 in turn) by infantry of
    /// `quality` and weapon class `class` with `strength` points left at `target`:
    /// a close_assault scenario's, and an engagement unit's at adjacent armour (CC-E9).
    pub(super) fn assault(
        &mut self,
        label: &str,
        quality: usize,
        class: usize,
        strength: u32,
        target: &Target,
    ) -> FireAction {
        let ca = &self.tables.close_assault;
        let class = &ca.weapons[class];
        let attacks = if self.settings.close_assault_per_strength_point { strength } else { 1 };
        let score = ca.hit_score[quality];
        let bonus = if target.open_topped { ca.open_topped_bonus } else { 0 };
        self.notes.push(format!(
            "{label}: {} quality hits on d{} {}+{}; {} succeeds on {} or less; outcome {}; {attacks} attack{}",
            QUALITIES[quality],
            ca.die.sides(),
            score,
            if bonus > 0 { format!(" with +{bonus} against open topped") } else { String::new() },
            class.label,
            class.success_up_to,
            ca.outcome_bands.iter().map(|(b, e)| format!("{b} {}", e.name())).collect::<Vec<_>>().join(", "),
            if attacks == 1 { "" } else { "s" },
        ));
        let (die, success, outcome) = (ca.die, class.success_up_to, ca.outcome.clone());
        let chain = Chain::new(vec![
            Step::new(
                die,
                Roll::ToHit,
                move |f| if f + bonus >= score { Next::Roll(1) } else { Next::End(Strike::MISS) },
            ),
            Step::new(die, Roll::Effect, move |f| {
                if f <= success { Next::Roll(2) } else { Next::End(Strike::hit(Effect::NoEffect)) }
            }),
            Step::new(die, Roll::Effect, move |f| Next::End(Strike::hit(outcome[f as usize - 1]))),
        ]);
        self.action(vec![Volley { attacks, made: Made::Always, chains: [chain.clone(), chain], one_of: None }], target)
    }

    fn barrage(&mut self, mut s: ScenarioFile) -> Result<Barrage> {
        let doc = self.doc;
        let range = self.range(&s, "barrage")?;
        let raw = present(doc, s.firer.take(), "[firer]", "barrage")?;
        refuse_close_assault_key(doc, raw.get_ref(), "barrage")?;
        let firer = self.firer(raw)?;
        let kinds: Vec<&str> = firer.weapons.iter().filter_map(|w| w.indirect.as_ref()?.barrage.as_deref()).collect();
        let Some(&kind) = kinds.iter().max_by_key(|k| self.tables.barrage.get(k).map_or(0, |b| b.radius)) else {
            return Err(doc.error("a barrage needs a firer weapon whose `indirect` part names a `barrage` type"));
        };
        let b = self.tables.barrage.get(kind).map_err(|m| doc.error(m))?.clone();
        self.notes.push(format!(
            "barrage {} (radius {} hexes): each unit within it becomes a target with a {}% chance",
            b.label, b.radius, b.percent
        ));
        let target = self.target(present(doc, s.target.take(), "[target]", "barrage")?, true, "target")?;
        let mut original = self.fire_action(&firer, &target, range, true, None)?;
        if self.settings.barrage_second_attack && b.percent < 100 {
            self.notes.push(format!(
                "  the original target is attacked again with a {}% chance (barrage_original_target)",
                b.percent
            ));
            let again = self.volleys(&firer, &target, range, true, Some(b.percent))?;
            original = original.then_also(again);
        }
        let mut nearby = Vec::new();
        for n in std::mem::take(&mut s.nearby) {
            let units = count(doc, &n.get_ref().count, "count", 1, MAX_UNITS, 1)?;
            let unit = self.target(n, true, "nearby unit")?;
            let action = self.fire_action(&firer, &unit, range, true, Some(b.percent))?;
            if units > 1 {
                self.notes.push(format!("  {units} units like {}", unit.label));
            }
            nearby.extend(std::iter::repeat_n(action, units as usize));
        }
        if nearby.is_empty() {
            self.notes.push("no `[[nearby]]` units: only the original target is at risk".into());
        }
        Ok(Barrage::new(original, nearby))
    }

    fn anti_aircraft(&mut self, mut s: ScenarioFile) -> Result<FireAction> {
        let doc = self.doc;
        let firers = required(doc, s.aa_firer.take(), "[[aa_firer]]", "anti_aircraft")?;
        let aircraft = required(doc, s.aircraft.take(), "[aircraft]", "anti_aircraft")?;
        let aa = &self.tables.aa_fire;
        let save = *aircraft.save.get_ref();
        if save > aa.save_die.sides() + 1 {
            return Err(doc.error_at(
                aircraft.save.span().start,
                format!(
                    "save {save}: a d{} roll less than it ignores the hit, so it runs from 0 to {}",
                    aa.save_die.sides(),
                    aa.save_die.sides() + 1
                ),
            ));
        }
        let strength = self.strength(&aircraft.strength, 1)?;
        let saved_faces = (1..=aa.save_die.sides()).filter(|&f| f < save).count();
        self.notes.push(format!(
            "{}: strength {strength}, save {save}: a d{} below it ignores the hit ({saved_faces} in {})",
            aircraft.name.unwrap_or_else(|| "aircraft".into()),
            aa.save_die.sides(),
            aa.save_die.sides()
        ));
        let mut volleys = Vec::new();
        for f in &firers {
            let level = aa.levels.iter().position(|l| l.name == *f.level.get_ref()).ok_or_else(|| {
                doc.error_at(
                    f.level.span().start,
                    unknown("A.A. level", f.level.get_ref(), aa.levels.iter().map(|l| l.name.as_str())),
                )
            })?;
            let mount = choice(doc, f.mount.as_ref(), "mount", &MOUNTS, "single")?;
            let raise = match mount {
                "twin" => aa.twin_levels,
                "quad" => aa.quad_levels,
                _ => 0,
            };
            let top = aa.levels.len() - 1;
            let reached = &aa.levels[(level + raise).min(top)];
            let units = count(doc, &f.units, "units", 1, MAX_UNITS, 1)?;
            self.notes.push(format!(
                "{}: {} x {} {mount}{} = {}%, one attack each",
                f.name.clone().unwrap_or_else(|| f.level.get_ref().clone()),
                units,
                aa.levels[level].label,
                if level + raise > top { " (past the top level, read as the top)" } else { "" },
                reached.percent
            ));
            let (percent, die) = (reached.percent, aa.save_die);
            let chain = Chain::new(vec![
                Step::new(
                    D100,
                    Roll::ToHit,
                    move |f| if f <= percent { Next::Roll(1) } else { Next::End(Strike::MISS) },
                ),
                Step::new(die, Roll::Effect, move |f| {
                    Next::End(Strike::hit(if f < save { Effect::NoEffect } else { Effect::Damaged }))
                }),
            ]);
            volleys.push(Volley { attacks: units, made: Made::Always, chains: [chain.clone(), chain], one_of: None });
        }
        Ok(FireAction::new(volleys, strength, false, self.settings.suppressed_again, self.settings.suppression_timing))
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
