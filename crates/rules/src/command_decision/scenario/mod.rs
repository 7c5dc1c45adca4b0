//! Command Decision scenario files: what a user writes, and its set-up as a
//! [`FireResolution`] or a morale check with every modifier applied and recorded.
//!
//! Direct fire is set up here; [`indirect_fire`] and [`morale`] scenarios in their own
//! modules.

mod indirect_fire;
mod morale;

use serde::Deserialize;
use toml::Spanned;

use super::catalogue::{Afv, AntiArmour, BandName, Catalogue, RangeBand, RawVehicle, RawWeapon, Vehicle, Weapon};
use super::fire::{EffectByFace, FireResolution, Volley};
use super::quality::Quality;
use super::settings::{CloseAssaultTargetModifiers, RawSettings, Settings};
use super::tables::{HitResult, HitRow, Tables};
use crate::ruleset::SetUp;
use crate::setup::{Sections, Sum, catalogued, choice, count, distinct, entry, named, required, unwritten_count};
use combat_odds_core::document::Document;
use combat_odds_core::error::Result;
use combat_odds_core::tables::{ModifierEffect, ModifierTable, Side};
use indirect_fire::indirect_fire;
pub(super) use indirect_fire::indirect_fire_resolution;
use morale::morale;

/// The longest range accepted, in inches (2,500 yards beyond any data line here
/// would be a typo rather than a shot).
const MAX_RANGE_INCHES: f64 = 1000.0;
/// The most stands one firer entry may hold.
const MAX_STANDS: u32 = 100;

/// The kinds of scenario this ruleset resolves, each with the sections it takes.
pub(crate) const SECTIONS: &Sections = &[
    ("direct_fire", &["phase", "range", "close_assault", "firer", "target"]),
    ("indirect_fire", &["artillery", "target"]),
    ("morale", &["company"]),
    ("engagement", crate::engagement::scenario::SECTIONS),
];

/// A scenario file's sections: `settings`, and each kind's own. The header (ruleset,
/// kind, name, description) is the CLI's, and which keys a kind may have is checked
/// by [`scenario_kind`] before this is read.
#[derive(Deserialize, Default)]
pub(super) struct ScenarioFile {
    #[serde(default)]
    pub(super) settings: RawSettings,
    // direct_fire
    pub(super) phase: Option<Spanned<String>>,
    pub(super) range: Option<Spanned<f64>>,
    pub(super) close_assault: Option<Spanned<bool>>,
    pub(super) firer: Option<Spanned<Vec<RawFirer>>>,
    // direct_fire and indirect_fire
    pub(super) target: Option<Spanned<RawTarget>>,
    // indirect_fire
    pub(super) artillery: Option<Spanned<RawArtillery>>,
    // morale
    pub(super) company: Option<Spanned<RawCompany>>,
}

#[derive(Deserialize, Clone)]
#[serde(deny_unknown_fields)]
pub(super) struct RawFirer {
    pub(super) name: Option<String>,
    pub(super) weapon: Option<Spanned<String>>,
    pub(super) weapon_data: Option<Spanned<RawWeapon>>,
    pub(super) quality: Spanned<String>,
    pub(super) stands: Option<Spanned<i64>>,
    pub(super) mount: Option<Spanned<String>>,
    pub(super) role: Option<Spanned<String>>,
    #[serde(default)]
    pub(super) modifiers: Vec<Spanned<String>>,
}

#[derive(Deserialize, Clone)]
#[serde(deny_unknown_fields)]
pub(super) struct RawArtillery {
    pub(super) name: Option<String>,
    pub(super) weapon: Option<Spanned<String>>,
    pub(super) weapon_data: Option<Spanned<RawWeapon>>,
    pub(super) quality: Spanned<String>,
    pub(super) stands: Option<Spanned<i64>>,
    pub(super) artillery: Spanned<String>,
    #[serde(default)]
    pub(super) self_observed: bool,
    #[serde(default)]
    pub(super) modifiers: Vec<Spanned<String>>,
    /// An engagement's battery (`[[side.battery]]`): the enemy unit entries its burst
    /// covers. A single `indirect_fire` scenario has its `[target]` instead.
    pub(super) under_burst: Option<Spanned<Vec<Spanned<String>>>>,
}

#[derive(Deserialize, Clone)]
#[serde(deny_unknown_fields)]
pub(super) struct RawTarget {
    pub(super) name: Option<String>,
    pub(super) quality: Spanned<String>,
    pub(super) vehicle: Option<Spanned<String>>,
    pub(super) vehicle_data: Option<RawVehicle>,
    pub(super) aspect: Option<Spanned<String>>,
    #[serde(default)]
    pub(super) moving: bool,
    #[serde(default)]
    pub(super) modifiers: Vec<Spanned<String>>,
    #[serde(default)]
    pub(super) passengers: Vec<RawPassengers>,
}

#[derive(Deserialize, Clone)]
#[serde(deny_unknown_fields)]
pub(super) struct RawPassengers {
    quality: Spanned<String>,
    stands: Option<Spanned<i64>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawCompany {
    name: Option<String>,
    morale: Spanned<i64>,
    status: Option<Spanned<String>>,
    stands_forced_back: Option<Spanned<i64>>,
    stands_eliminated: Option<Spanned<i64>>,
    #[serde(default)]
    modifiers: Vec<Spanned<String>>,
}

/// The target as the rules see it.
struct Target {
    quality: Quality,
    vehicle: Option<Vehicle>,
    armour: i32,
    modifiers: Vec<(String, usize)>,
    passengers: Vec<Quality>,
    label: String,
}

impl Target {
    fn afv(&self) -> Option<Afv> {
        self.vehicle.as_ref().map(|v| v.afv).filter(|a| *a != Afv::Soft)
    }
}

/// How a firer is carried: personnel, or the vehicle kinds the ammo chart names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mount {
    Personnel,
    Tank,
    ArmouredCar,
    OtherVehicle,
    Towed,
}

const MOUNTS: [&str; 5] = ["personnel", "tank", "armoured_car", "vehicle", "towed"];
const ROLES: [&str; 2] = ["engineer", "infantry_antitank"];
const PHASES: [&str; 3] = ["prep", "opportunity", "general"];

/// Sets up a scenario of kind `k` (checked against [`SECTIONS`]), an engagement aside.
pub fn set_up(doc: &Document, k: &str, tables: &Tables, catalogue: &Catalogue) -> Result<SetUp> {
    let file: ScenarioFile = doc.parse()?;
    match k {
        "direct_fire" => direct_fire(doc, file, tables, catalogue),
        "indirect_fire" => indirect_fire(doc, file, tables, catalogue),
        _ => morale(doc, file, tables),
    }
}

/// A scenario's stands: the least, the most, and what a unit that leaves them out has.
const STANDS: (u32, u32, u32) = (1, MAX_STANDS, 1);

/// Records the target's passenger entries that leave their stands out, for the form.
/// Only a scenario's own target: an engagement's targets are made from its units.
fn unwritten_passengers(doc: &Document, target: &Option<Spanned<RawTarget>>) {
    for (j, p) in target.iter().flat_map(|t| &t.get_ref().passengers).enumerate() {
        unwritten_count(doc, &p.stands, &format!("target.passengers[{j}]"), "stands", STANDS);
    }
}

/// A compiler's running notes and the document errors point into.
struct Ctx<'a> {
    doc: &'a Document,
    tables: &'a Tables,
    notes: Vec<String>,
}

impl Ctx<'_> {
    fn quality(&self, q: &Spanned<String>) -> Result<Quality> {
        Quality::read(self.doc, q)
    }

    fn stands(&self, s: &Option<Spanned<i64>>) -> Result<u32> {
        let (lo, hi, default) = STANDS;
        count(self.doc, s, "stands", lo, hi, default)
    }

    /// A firer's weapon: from the catalogue or its inline data line.
    fn weapon(
        &self,
        catalogue: &Catalogue,
        who: &str,
        given: (&Option<Spanned<String>>, Option<Spanned<RawWeapon>>),
    ) -> Result<Weapon> {
        catalogued(
            self.doc,
            who,
            "weapon",
            given,
            |name| entry(self.doc, name, "weapon", &catalogue.weapons, &catalogue.source).cloned(),
            |data| {
                let at = data.span().start;
                data.into_inner().resolve(&format!("{who} weapon_data"), self.doc, at)
            },
        )
    }

    fn target(&self, raw: RawTarget, catalogue: &Catalogue, allowed: &ModifierTable, indirect: bool) -> Result<Target> {
        let quality = self.quality(&raw.quality)?;
        if raw.moving && !indirect {
            return Err(self.doc.error(
                "target: `moving` matters to indirect fire only; in direct fire, leave out the cover a moving target does not get",
            ));
        }
        let vehicle = match (raw.vehicle, raw.vehicle_data) {
            (Some(name), None) => {
                Some(entry(self.doc, &name, "vehicle", &catalogue.vehicles, &catalogue.source)?.clone())
            }
            (None, Some(data)) => Some(data.resolve("target vehicle_data", self.doc)?),
            (None, None) => None,
            (Some(name), Some(_)) => {
                return Err(self.doc.error_at(name.span().start, "target: give `vehicle` or `vehicle_data`, not both"));
            }
        };
        let aspect = choice(self.doc, raw.aspect.as_ref(), "aspect", &["front", "flank"], "front")?;
        let armour = vehicle.as_ref().map_or(0, |v| if aspect == "flank" { v.armour_flank } else { v.armour_front });
        let kind = match vehicle.as_ref().map(|v| v.afv) {
            None => "personnel",
            Some(Afv::Soft) => "soft_vehicle",
            Some(_) => "afv",
        };
        let mut modifiers = Vec::new();
        distinct(self.doc, &raw.modifiers)?;
        for name in &raw.modifiers {
            let m = named(self.doc, name, &[allowed], &[], Some(Side::Target))?;
            // The card's row names the targets it describes (`targets` in the table).
            if !m.fits_target(kind) {
                let hint = if m.name == "afv_hull_down_or_bua" {
                    "; personnel in a built-up area take medium_cover or hard_cover (\"Pers. in Cover\")"
                } else if kind != "personnel" {
                    "; a vehicle in cover or a built-up area takes afv_hull_down_or_bua"
                } else {
                    ""
                };
                return Err(self.doc.error_at(
                    name.span().start,
                    format!(
                        "target modifier `{}` (\"{}\") describes {} targets, and this target is {}{hint}",
                        m.name,
                        m.label,
                        m.targets.as_deref().unwrap_or_default().join(" or ").replace('_', " "),
                        kind.replace('_', " "),
                    ),
                ));
            }
            modifiers.push((m.name.clone(), name.span().start));
        }
        let covers = ["light_cover", "medium_cover", "hard_cover", "fortification"];
        let named_covers: Vec<_> = modifiers.iter().filter(|(n, _)| covers.contains(&n.as_str())).collect();
        if let [_, second, ..] = named_covers.as_slice() {
            return Err(self.doc.error_at(second.1, "a target is in one kind of cover; name only one of light_cover, medium_cover, hard_cover, fortification"));
        }
        if vehicle.is_none() && !raw.passengers.is_empty() {
            return Err(self
                .doc
                .error("target: only a vehicle carries passengers; add `vehicle` or remove `passengers`"));
        }
        let mut passengers = Vec::new();
        for p in &raw.passengers {
            let q = self.quality(&p.quality)?;
            passengers.extend(std::iter::repeat_n(q, self.stands(&p.stands)? as usize));
        }
        let label = raw
            .name
            .unwrap_or_else(|| vehicle.as_ref().map_or_else(|| format!("{quality} stand"), |v| v.label.clone()));
        Ok(Target { quality, vehicle, armour, modifiers, passengers, label })
    }

    /// The hit results row applied without modifiers, by face.
    fn plain_effect(&self, row: &HitRow) -> EffectByFace {
        std::array::from_fn(|i| row.result(face(i)))
    }

    /// What a hit does, by face of the effect die: the target's Hit Results row, with
    /// penetration minus armour and the natural-roll footnote for numeric anti-armour
    /// values against AFVs (seed 000 "Resolving Fire"; seed 001 AP footnote).
    fn hit_effect(&mut self, target: &Target, class: AntiArmour, role: Option<&str>, close: bool) -> EffectByFace {
        let row = self.tables.hit_row(target.quality);
        match (target.afv(), class, role) {
            (Some(_), AntiArmour::None, _) => {
                self.notes.push("  effect: no anti-armour value, so hits do not harm an AFV".into());
                [HitResult::NoEffect; 10]
            }
            (Some(_), AntiArmour::A, Some(role)) => {
                self.notes
                    .push(format!("  effect: a {role} close-assault hit destroys the AFV without an effect roll"));
                [HitResult::Eliminated; 10]
            }
            (Some(_), AntiArmour::Penetration(pen) | AntiArmour::HollowCharge(pen), _) => {
                let ap = &self.tables.ap;
                let shift = ap.get("weapon_penetration").value(pen) + ap.get("armour_value").value(target.armour);
                let nat = &self.tables.natural;
                self.notes.push(format!(
                    "  effect: d10 {pen:+} penetration {:+} armour = d10 {shift:+} on the {} row; a natural {} {}",
                    -target.armour,
                    target.quality,
                    row.natural,
                    if close {
                        format!("at close range is {}", HitResult::NAMES[nat.close_range as usize])
                    } else {
                        format!("is at least {}", HitResult::NAMES[nat.other_ranges as usize])
                    }
                ));
                std::array::from_fn(|i| {
                    let result = row.result(face(i) + shift);
                    match (face(i) == row.natural, close) {
                        (true, true) => nat.close_range,
                        (true, false) => result.max(nat.other_ranges),
                        (false, _) => result,
                    }
                })
            }
            _ => {
                self.notes.push(format!("  effect: d10 on the {} row of the Hit Results Chart", target.quality));
                self.plain_effect(row)
            }
        }
    }

    fn passenger_effects(&self, target: &Target) -> Vec<EffectByFace> {
        target.passengers.iter().map(|q| self.plain_effect(self.tables.hit_row(*q))).collect()
    }

    /// Ammo depletion for a weapon: (trigger face, deplete at or below), and a note.
    fn ammo(&mut self, weapon: &Weapon, mount: Mount) -> Option<(i32, i32)> {
        let ammo = &self.tables.ammo;
        let caliber = weapon.caliber_mm.filter(|c| *c >= ammo.min_caliber_mm)?;
        let base = (caliber / ammo.divisor) as i32;
        let (modifier, value) = match mount {
            Mount::Tank => ("tank", ammo.modifiers.get("tank").value(1)),
            Mount::ArmouredCar => ("armoured_car", ammo.modifiers.get("armoured_car").value(1)),
            _ => ("", 0),
        };
        let mut note = format!(
            "  ammo: a natural {} calls for a d10, depleting on {caliber}mm/{} = {base}",
            ammo.trigger, ammo.divisor
        );
        if !modifier.is_empty() {
            note += &format!(" {value:+} {modifier} = {}", base + value);
        }
        note += " or less";
        self.notes.push(note);
        Some((ammo.trigger as i32, base + value))
    }
}

fn direct_fire(doc: &Document, s: ScenarioFile, tables: &Tables, catalogue: &Catalogue) -> Result<SetUp> {
    for (i, f) in s.firer.iter().flat_map(|f| f.get_ref()).enumerate() {
        unwritten_count(doc, &f.stands, &format!("firer[{i}]"), "stands", STANDS);
    }
    unwritten_passengers(doc, &s.target);
    let (fire, notes) = direct_fire_resolution(doc, "direct_fire", s, tables, catalogue)?;
    Ok(SetUp { experiment: Box::new(fire), notes })
}

/// A direct fire compiled to its resolution and notes: the one path every direct fire
/// takes, whether a scenario asks for it or an engagement sets it up per firer,
/// target and range. `kind` is the scenario's, for the settings it may set.
pub(super) fn direct_fire_resolution(
    doc: &Document,
    kind: &str,
    s: ScenarioFile,
    tables: &Tables,
    catalogue: &Catalogue,
) -> Result<(FireResolution, Vec<String>)> {
    let settings = Settings::resolve(doc, &s.settings, kind)?;
    let close_assault = s.close_assault.as_ref().is_some_and(|c| *c.get_ref());
    let firers = s.firer.map(Spanned::into_inner).unwrap_or_default();
    let mut cx = Ctx { doc, tables, notes: Vec::new() };
    let phase = choice(cx.doc, s.phase.as_ref(), "phase", &PHASES, "general")?;
    let range = match (&s.range, close_assault) {
        (Some(r), _) => {
            let v = *r.get_ref();
            if !v.is_finite() || v < 0.0 {
                return Err(doc.error_at(r.span().start, format!("range {v} must be a distance in inches, 0 or more")));
            }
            if v > MAX_RANGE_INCHES {
                return Err(doc.error_at(r.span().start, format!("range {v} in. is beyond any weapon ({MAX_RANGE_INCHES} in. = 50,000 yards); ranges are in inches, 1 in. = 50 yards")));
            }
            Some(v)
        }
        (None, true) => None,
        (None, false) => {
            return Err(doc.error("direct fire needs `range` in inches (1 in. = 50 yards), or `close_assault = true`"));
        }
    };
    if firers.is_empty() {
        return Err(doc.error("a direct_fire scenario needs at least one [[firer]]"));
    }
    let target =
        cx.target(required(doc, s.target, "[target]", "direct_fire")?, catalogue, &tables.direct_fire, false)?;
    let total_stands: u32 = firers.iter().map(|f| cx.stands(&f.stands)).sum::<Result<u32>>()?;
    cx.notes.push(format!(
        "target: {} ({}{}), {}",
        target.label,
        target.quality,
        target.vehicle.as_ref().map_or(String::new(), |v| format!(", {:?} AFV class, armour {}", v.afv, target.armour)
            .replace("Soft AFV class", "soft vehicle")),
        if close_assault {
            "close assault".to_string()
        } else {
            format!("range {} in., {phase} fire", range.unwrap_or(0.0))
        }
    ));
    let mut volleys = Vec::new();
    let mut suppresses = false;
    for (i, f) in firers.into_iter().enumerate() {
        let who = f.name.clone().unwrap_or_else(|| format!("firer {}", i + 1));
        let weapon = cx.weapon(catalogue, &who, (&f.weapon, f.weapon_data))?;
        let quality = cx.quality(&f.quality)?;
        let stands = cx.stands(&f.stands)?;
        let mount = match choice(cx.doc, f.mount.as_ref(), "mount", &MOUNTS, "personnel")? {
            "tank" => Mount::Tank,
            "armoured_car" => Mount::ArmouredCar,
            "vehicle" => Mount::OtherVehicle,
            "towed" => Mount::Towed,
            _ => Mount::Personnel,
        };
        let role = f.role.as_ref().map(|r| choice(cx.doc, Some(r), "role", &ROLES, "")).transpose()?;
        let weapon = restricted(&mut cx, &who, weapon, mount, phase, &f.modifiers)?;
        // The band: "C" or the closest band in close assault, else the first band that reaches.
        let band_index = match range {
            _ if close_assault => Some(0),
            Some(r) => weapon.bands.iter().position(|b| b.range.is_some_and(|max| r <= max)),
            None => None,
        };
        let in_range = band_index.is_some();
        if !in_range {
            cx.doc.beyond_reach(format!(
                "{who}: range {} in. is beyond the extreme range ({} in.) of {}",
                range.unwrap_or(0.0),
                weapon.bands[3].range.unwrap_or(0.0),
                weapon.label
            ));
        }
        let band_index = band_index.unwrap_or(3);
        let band: RangeBand = weapon.bands[band_index];
        let class = band.anti_armour;
        let band_name = BandName::ALL[band_index];
        cx.notes.push(format!(
            "{who}: {} x {}, {} band ({}): hit number {}, anti-armour {}{}",
            stands,
            weapon.label,
            band_name,
            band.range.map_or("C".to_string(), |r| format!("{r} in.")),
            band.hit,
            class.label(),
            if in_range {
                String::new()
            } else {
                format!(
                    " -- beyond extreme range ({} in.): the fire is carried out with no effect on the target (no hits, no suppression)",
                    weapon.bands[3].range.unwrap_or(0.0)
                )
            }
        ));

        // Rule checks that make a scenario impossible rather than merely unlikely.
        let listed: Vec<&str> = f.modifiers.iter().map(|m| m.get_ref().as_str()).collect();
        let at = |name: &str| f.modifiers.iter().find(|m| m.get_ref() == name).map_or(0, |m| m.span().start);
        if phase == "prep" && !class.suppresses() {
            return Err(doc.error(format!("{who}: prep fire always consists of H class or HC ammunition [13.1.1]; this band's anti-armour is `{}`", class.label())));
        }
        if phase != "general" && listed.contains(&"pinned") {
            return Err(doc.error_at(
                at("pinned"),
                format!("{who}: pinned stands fire only in the general fire phase; set phase = \"general\""),
            ));
        }
        if close_assault && mount != Mount::Personnel {
            return Err(doc.error(format!(
                "{who}: close assault is fire by personnel stands; set mount = \"personnel\" or close_assault = false"
            )));
        }
        let afv = target.afv();
        if class == AntiArmour::A && afv.is_some() && !close_assault {
            return Err(doc.error(format!("{who}: A class hits AFVs only in close assault; set close_assault = true")));
        }
        if class == AntiArmour::W && afv == Some(Afv::Strong) {
            // The card lists "W class vs Weak AFV -3" and no W row against a Strong AFV;
            // rolling on the plain row would make W hit a Strong AFV more easily than a
            // Weak one, which no reading of the card supports.
            return Err(doc.error(format!(
                "{who}: the Direct Fire To-Hit Modifiers give W class fire only against a Weak AFV (\"W class vs Weak AFV -3\"), none against a Strong AFV; choose a weapon band with a numeric anti-armour value or H class"
            )));
        }
        if close_assault && afv.is_some() && total_stands > 1 {
            return Err(doc.error("only one personnel stand may close assault an AFV, however many are in contact; give one firer with stands = 1"));
        }
        if listed.contains(&"human_wave") && !close_assault {
            return Err(
                doc.error_at(at("human_wave"), format!("{who}: the human wave bonus applies in close assault only"))
            );
        }
        if listed.contains(&"multiple_targets") && close_assault {
            return Err(
                doc.error_at(at("multiple_targets"), format!("{who}: no multiple-targets penalty in contact [16.3]"))
            );
        }

        // Rate of fire.
        let passenger = listed.contains(&"passenger");
        let automatic_rof = [
            ("elite", "from the firer's quality"),
            ("op_fire", "from phase = \"opportunity\""),
            ("personnel_close_assault_vs_afv", "from close assault on an AFV"),
        ];
        let mut rof = Sum::new(if close_assault { weapon.rof_close_assault } else { weapon.rof } as i32);
        let mut caps: Vec<(String, u32)> = Vec::new();
        let rof_chart = &tables.rate_of_fire;
        if quality == Quality::Elite {
            rof.add("elite", rof_chart.get("elite").value(1));
        }
        if phase == "opportunity" && !passenger {
            rof.add("op_fire", rof_chart.get("op_fire").value(1));
        }
        if close_assault && afv.is_some() && mount == Mount::Personnel {
            caps.push((
                "personnel_close_assault_vs_afv".into(),
                cap_of(rof_chart.get("personnel_close_assault_vs_afv")),
            ));
        }
        // Hit number.
        let automatic_hit = [
            ("veteran_elite", "from the firer's quality"),
            ("trained_green", "from the firer's quality"),
            ("h_class_vs_weak_afv", "from the weapon class and target"),
            ("h_class_vs_all_afv", "from the weapon class and target"),
            ("a_class_vs_strong_afv", "from the weapon class and target"),
            ("w_class_vs_weak_afv", "from the weapon class and target"),
        ];
        let automatic: Vec<(&str, &str)> = automatic_rof.iter().chain(&automatic_hit).copied().collect();
        let df = &tables.direct_fire;
        let mut hit = Sum::new(band.hit);
        let add_df = |hit: &mut Sum, name: &str, count: i32| hit.add(name, df.get(name).value(count));
        if quality.veteran_or_elite() {
            add_df(&mut hit, "veteran_elite", 1);
        }
        if quality.trained_or_green() {
            add_df(&mut hit, "trained_green", 1);
        }
        let weight = target.vehicle.as_ref().map_or(0, |v| v.weight_class);
        match (class, afv) {
            (AntiArmour::H, Some(a)) => {
                if a == Afv::Weak {
                    add_df(&mut hit, "h_class_vs_weak_afv", 1);
                }
                add_df(&mut hit, "h_class_vs_all_afv", weight);
            }
            (AntiArmour::A, Some(Afv::Strong)) => add_df(&mut hit, "a_class_vs_strong_afv", 1),
            (AntiArmour::W, Some(Afv::Weak)) => add_df(&mut hit, "w_class_vs_weak_afv", 1),
            _ => {}
        }
        distinct(doc, &f.modifiers)?;
        for name in &f.modifiers {
            let m = named(
                cx.doc,
                name,
                &[rof_chart, df, &tables.ammo.modifiers, &tables.orders],
                &automatic,
                Some(Side::Firer),
            )?;
            // Orders Summary: these orders fire "No" in prep or op fire and "Yes (-2)"
            // in general fire; the "*" ones "May only fire if in physical contact".
            let order = tables.orders.rows().iter().any(|r| r.name == m.name);
            if (order || m.name == "hasty_advance") && phase != "general" {
                return Err(doc.error_at(
                    name.span().start,
                    format!("{who}: a stand under `{}` orders fires in the general fire phase only (Orders Summary); set phase = \"general\"", m.name),
                ));
            }
            if order && !close_assault {
                return Err(doc.error_at(
                    name.span().start,
                    format!("{who}: a stand under `{}` orders may only fire if in physical contact (Orders Summary, \"Yes(-2)*\"); set close_assault = true", m.name),
                ));
            }
            if tables.ammo.modifiers.rows().iter().any(|r| r.name == m.name) {
                return Err(doc.error_at(
                    name.span().start,
                    format!("`{}` is set by mount = \"{}\", not named as a modifier", m.name, m.name),
                ));
            }
            let on_rof = rof_chart.rows().iter().any(|r| r.name == m.name);
            match (&m.effect, on_rof) {
                (ModifierEffect::Max(cap), _) => caps.push((m.name.clone(), *cap)),
                (_, true) => rof.add(&m.name, m.value(1)),
                (_, false) => hit.add(&m.name, m.value(1)),
            }
        }
        // Target modifiers, with the card's exemptions.
        let ignores_all = matches!(class, AntiArmour::A | AntiArmour::Flame)
            || (close_assault
                && settings.close_assault_target_modifiers == CloseAssaultTargetModifiers::IgnoredInEveryCloseAssault);
        for (name, _) in &target.modifiers {
            let m = df.get(name);
            if ignores_all {
                cx.notes.push(format!("  {name} ignored: close assault (A) and flame (FL) ignore target modifiers"));
            } else if m.he_ignores && class.is_he() {
                cx.notes.push(format!("  {name} ignored: HE (H and W class) ignores the modifiers marked *"));
            } else {
                hit.add(name, m.value(1));
            }
        }
        let mut dice_per_stand = rof.total();
        let cap = caps.iter().map(|(_, c)| *c as i32).min();
        if let Some(c) = cap {
            dice_per_stand = dice_per_stand.min(c);
        }
        dice_per_stand = dice_per_stand.max(settings.min_modified_rof as i32);
        let caps_note: String = caps.iter().map(|(n, c)| format!(", {n} {c} max")).collect();
        cx.notes.push(format!(
            "  ROF {}{caps_note} -> {dice_per_stand} dice per stand, {} in all",
            rof.describe(),
            dice_per_stand as u32 * stands
        ));
        let hit_at_most = if in_range { hit.total() } else { 0 };
        cx.notes.push(format!(
            "  hit number {}{}",
            hit.describe(),
            if in_range { "" } else { " (out of range: no hits)" }
        ));

        let effect = cx.hit_effect(&target, class, role, band_index == 0);
        let ammo = cx.ammo(&weapon, mount);
        // Out of range the fire "has no effect on the intended target" (seed 000, Range
        // and Line of Sight): no suppression either, though the ammo check stands.
        if phase != "general" && class.suppresses() && in_range {
            suppresses = true;
        }
        volleys.push(Volley { dice: dice_per_stand as u32 * stands, hit_at_most, effect, ammo });
    }
    if suppresses {
        cx.notes.push("target is suppressed: fired at by direct fire H class or HC in prep or op fire (-2 to its own fire until the next artillery phase)".into());
    }
    let passengers = cx.passenger_effects(&target);
    Ok((FireResolution::new(volleys, None, passengers, suppresses), cx.notes))
}

/// The d10 face at array index `i`.
fn face(i: usize) -> i32 {
    i as i32 + 1
}

fn cap_of(m: &combat_odds_core::tables::Modifier) -> u32 {
    match m.effect {
        ModifierEffect::Max(c) => c,
        ModifierEffect::Add { .. } => u32::MAX,
    }
}

/// The firer modifiers that say a stand moved more than a cautious advance: the
/// Orders Summary's Hasty Advance and Disengage.
pub(super) const MOVED_BEYOND_CAUTIOUS: [&str; 2] = ["hasty_advance", "disengage"];

/// The data line a firer fires with under seed 000's Restrictions: a personnel stand
/// with a heavy infantry weapon (one with an `other` line) that moved more than a
/// cautious advance fires its "other" data line; a weapon with an asterisk after its
/// ROF never fires in the Opportunity Fire Phase, nor after moving, which refuses.
fn restricted(
    cx: &mut Ctx<'_>,
    who: &str,
    weapon: Weapon,
    mount: Mount,
    phase: &str,
    modifiers: &[Spanned<String>],
) -> Result<Weapon> {
    let moved = modifiers.iter().find(|m| MOVED_BEYOND_CAUTIOUS.contains(&m.get_ref().as_str()));
    if weapon.stationary_only {
        if phase == "opportunity" {
            return Err(cx.doc.error(format!(
                "{who}: {} has an asterisk after its ROF, so it never fires in the Opportunity Fire Phase (seed 000, \
                 Restrictions); set phase = \"general\"",
                weapon.label
            )));
        }
        if let Some(m) = moved {
            return Err(cx.doc.error_at(
                m.span().start,
                format!(
                    "{who}: {} has an asterisk after its ROF, so it may not fire unless stationary in the previous \
                     Movement Phase (seed 000, Restrictions), and `{}` moves it; leave the modifier out",
                    weapon.label,
                    m.get_ref()
                ),
            ));
        }
    }
    match (&weapon.other, moved) {
        (Some(other), Some(m)) if mount == Mount::Personnel => {
            cx.notes.push(format!(
                "{who}: a personnel stand with a heavy infantry weapon that moved more than a cautious advance \
                 (`{}`) fires only its \"other\" data line (seed 000, Restrictions): {}",
                m.get_ref(),
                other.label
            ));
            Ok(other.as_ref().clone())
        }
        _ => Ok(weapon),
    }
}
