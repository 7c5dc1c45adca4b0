//! Mission Command scenario files: what a user writes, and its set-up as a
//! [`Fire`] or a reaction [`TestRoll`], with every modifier applied and recorded.
//! Ranges are in centimetres on the table (1 cm = 20 m).
//!
//! One module per scenario kind beside the engagement's: [`point_to_point`],
//! [`area_fire`] (at AFVs and at buildings), [`reaction`] and [`anti_aircraft`].

mod anti_aircraft;
mod area_fire;
mod point_to_point;
mod reaction;

use serde::Deserialize;
use toml::Spanned;

use super::catalogue::{Catalogue, RawWeapon};
use super::fire::Fire;
use super::settings::{RawSettings, Settings};
use super::tables::{ARMOUR_CLASSES, AreaRange, AreaSystem, CASUALTY_COLUMNS, Intensity, Tables};
use crate::ruleset::SetUp;
use crate::setup::{Sections, count, unwritten_count};
use combat_odds_core::document::Document;
use combat_odds_core::error::Result;

/// The kinds of scenario this ruleset resolves, each with the sections it takes.
pub(crate) const SECTIONS: &Sections = &[
    ("engagement", crate::engagement::scenario::SECTIONS),
    ("point_to_point", &["range", "opportunity_fire", "firer", "target"]),
    ("area_fire_afv", &["range", "fire", "vehicle"]),
    ("area_fire_building", &["range", "fire", "structure"]),
    ("reaction_test", &["group"]),
    ("anti_aircraft", &["aa_firer", "aircraft"]),
];

/// Troop quality as the reaction test names it; "regular" takes no quality modifier.
pub(super) const QUALITIES: [&str; 5] = ["raw", "green", "regular", "veteran", "elite"];
/// The most elements one firer entry (or vehicles one entry) may hold.
const MAX_ELEMENTS: u32 = 50;
/// Suppression markers on one element: more than this is a typo.
pub(super) const MAX_MARKERS: u32 = 10;
/// Area fire intensities a scenario may name: the tables' two columns, plus
/// harassing fire (no effect) and direct fire (bombardment column up to 15cm).
const AREA_INTENSITIES: [&str; 4] = ["standard", "bombardment", "harassing", "direct_fire"];
/// Direct area fire up to this range uses the bombardment column.
const DIRECT_FIRE_BOMBARDMENT_CM: f64 = 15.0;
/// The longest area-fire range in the ranges table is 1,500cm; past this is a typo.
const MAX_AREA_RANGE_CM: f64 = 2000.0;

/// A scenario file's sections: `settings`, and each kind's own. The header (ruleset,
/// kind, name, description) is the CLI's, and which keys a kind may have is checked
/// by [`scenario_kind`] before this is read.
#[derive(Deserialize)]
struct ScenarioFile {
    #[serde(default)]
    settings: RawSettings,
    // point_to_point and area fire
    range: Option<Spanned<f64>>,
    // point_to_point
    opportunity_fire: Option<Spanned<bool>>,
    firer: Option<Spanned<Vec<RawFirer>>>,
    target: Option<Spanned<RawTarget>>,
    // area fire
    fire: Option<Spanned<RawAreaFire>>,
    vehicle: Option<Spanned<Vec<RawVehicle>>>,
    structure: Option<Spanned<RawStructure>>,
    // reaction_test
    group: Option<Spanned<RawGroup>>,
    // anti_aircraft
    aa_firer: Option<Spanned<Vec<RawAaFirer>>>,
    aircraft: Option<Spanned<RawAircraft>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFirer {
    name: Option<String>,
    weapon: Option<Spanned<String>>,
    weapon_data: Option<Spanned<RawWeapon>>,
    elements: Option<Spanned<i64>>,
    quality: Option<Spanned<String>>,
    #[serde(default)]
    engineers: bool,
    suppression_markers: Option<Spanned<i64>>,
    #[serde(default)]
    modifiers: Vec<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTarget {
    name: Option<String>,
    situation: Option<Spanned<String>>,
    armour_class: Option<Spanned<i64>>,
    #[serde(default)]
    modifiers: Vec<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawAreaFire {
    name: Option<String>,
    system: Spanned<String>,
    weapon: Option<Spanned<String>>,
    intensity: Option<Spanned<String>>,
    #[serde(default)]
    rockets: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawVehicle {
    name: Option<String>,
    armour_front: Spanned<i64>,
    armour_side: Option<Spanned<i64>>,
    #[serde(default)]
    open_topped: bool,
    count: Option<Spanned<i64>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawStructure {
    name: Option<String>,
    strength: Spanned<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawGroup {
    name: Option<String>,
    quality: Option<Spanned<String>>,
    #[serde(default)]
    out_of_command: bool,
    elements_suppressed: Option<Spanned<i64>>,
    elements_eliminated: Option<Spanned<i64>>,
    enemy_afvs_knocked_out: Option<Spanned<i64>>,
    friendly_afvs_knocked_out: Option<Spanned<i64>>,
    #[serde(default)]
    modifiers: Vec<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAaFirer {
    name: Option<String>,
    weapon: Spanned<String>,
    elements: Option<Spanned<i64>>,
    #[serde(default)]
    infantry: bool,
    #[serde(default)]
    modifiers: Vec<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAircraft {
    name: Option<String>,
    altitude: Spanned<String>,
    size: Spanned<String>,
}

/// Compiles a scenario document of any kind.
pub fn set_up(doc: &Document, k: &str, tables: &Tables, catalogue: &Catalogue) -> Result<SetUp> {
    let file: ScenarioFile = doc.parse()?;
    let settings = Settings::resolve(doc, &file.settings, k)?;
    let mut cx = Ctx { doc, tables, settings, notes: Vec::new() };
    let experiment = match k {
        "point_to_point" => cx.point_to_point(file, catalogue)?,
        "area_fire_afv" => cx.area_fire_afv(file)?,
        "area_fire_building" => cx.area_fire_building(file)?,
        "reaction_test" => cx.reaction_test(file)?,
        _ => cx.anti_aircraft(file)?,
    };
    Ok(SetUp { experiment, notes: cx.notes })
}

/// The cells an area fire reads: (weapon class row, intensity).
pub(super) type Column = (usize, Intensity);

/// Why a scenario is refused, and where (`None`: the file as a whole).
pub(super) type Refusal = (Option<usize>, String);

/// An area fire's choices checked against the tables, before its range is known.
pub(super) struct AreaAim<'s> {
    /// The firing system.
    pub(super) system: &'s AreaSystem,
    /// The row of Ranges for Area Fire its `weapon` names, if any.
    pub(super) reach: Option<&'s AreaRange>,
    /// The intensity asked (one of [`AREA_INTENSITIES`]).
    asked: &'static str,
    /// Where `intensity` is written, for a refusal.
    written: Option<usize>,
    /// The d20 bonus for rockets.
    pub(super) bonus: i32,
}

impl AreaAim<'_> {
    /// The column the fire reads at `range` (`None` when the system or harassing fire
    /// has no effect) and the intensity it counts as, or where and why the scenario is
    /// refused: "direct_fire" without a range, or an intensity the system's label
    /// fixes otherwise.
    pub(super) fn column(
        &self,
        range: Option<f64>,
    ) -> std::result::Result<(Option<Column>, Option<Intensity>), Refusal> {
        let intensity = match self.asked {
            "harassing" => None,
            "direct_fire" => match range {
                Some(r) if r <= DIRECT_FIRE_BOMBARDMENT_CM => Some(Intensity::Bombardment),
                Some(_) => Some(Intensity::Standard),
                None => {
                    return Err((
                        None,
                        "intensity = \"direct_fire\" needs `range` in cm: up to 15cm it counts as bombardment".into(),
                    ));
                }
            },
            "bombardment" => Some(Intensity::Bombardment),
            _ => Some(Intensity::Standard),
        };
        if let (Some(fixed), Some(i), Some(at)) = (self.system.intensity, intensity, self.written)
            && fixed != i
        {
            return Err((
                Some(at),
                format!(
                    "{} always counts as {} fire; remove `intensity` or pick another system",
                    self.system.label,
                    Intensity::NAMES[fixed as usize]
                ),
            ));
        }
        Ok((self.system.class.zip(intensity.map(|i| self.system.intensity.unwrap_or(i))), intensity))
    }
}

/// A set-up's document, tables, settings and running notes.
pub(super) struct Ctx<'a> {
    pub(super) doc: &'a Document,
    pub(super) tables: &'a Tables,
    pub(super) settings: Settings,
    pub(super) notes: Vec<String>,
}

/// The point-to-point target as the rules see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Target {
    /// Foot, heavy weapons or soft vehicles: a casualty column.
    Casualty(usize),
    /// An AFV of this armour class.
    Armour(i32),
}

impl Target {
    /// A vehicle: an AFV, or the soft vehicles casualty column (hull-down applies).
    pub(super) fn vehicle(self) -> bool {
        matches!(self, Target::Armour(_))
            || matches!(self, Target::Casualty(c) if CASUALTY_COLUMNS[c] == "soft_vehicles")
    }
}

impl<'a> Ctx<'a> {
    /// The elements of the unit written at `table` (`firer[0]`), recorded for the form
    /// where the file leaves them out.
    fn elements(&self, v: &Option<Spanned<i64>>, table: &str) -> Result<u32> {
        unwritten_count(self.doc, v, table, "elements", (1, MAX_ELEMENTS, 1));
        count(self.doc, v, "elements", 1, MAX_ELEMENTS, 1)
    }

    /// A range in cm: finite, 0 or more, and no farther than `max`.
    fn range(&self, r: &Spanned<f64>, max: f64, beyond: &str) -> Result<f64> {
        // -0.0 is 0: it would otherwise print as "-0cm".
        let v = if *r.get_ref() == 0.0 { 0.0 } else { *r.get_ref() };
        if !v.is_finite() || v < 0.0 {
            return Err(self.doc.error_at(r.span().start, format!("range {v} must be a distance in cm, 0 or more")));
        }
        if v > max {
            return Err(self
                .doc
                .error_at(r.span().start, format!("range {v}cm is {beyond} ({max}cm); ranges are in cm, 1cm = 20m")));
        }
        Ok(v)
    }

    /// The fire, with a note when the exact engine stands aside: each shot weighs up
    /// to 400 (a to-hit and a conversion d20, less where the faces' shares reduce), so
    /// a few dozen elements firing at foot, AFVs under a template or infantry in AA
    /// fire pass 128-bit weights, and Monte Carlo answers alone.
    fn within_reach(&mut self, fire: Fire) -> Box<dyn combat_odds_core::engine::Experiment> {
        use combat_odds_core::engine::Resolution;
        if fire.exact_state().is_err() {
            self.notes.push(format!(
                "exact: the weights of {} d20 shots pass the exact engine's 128-bit integers; Monte Carlo answers alone",
                fire.shots()
            ));
        }
        Box::new(fire)
    }
}

/// An armour class, 1 to 10 (the KO tables' columns).
fn armour_class(doc: &Document, v: &Spanned<i64>) -> Result<i32> {
    match i32::try_from(*v.get_ref()) {
        Ok(a) if ARMOUR_CLASSES.contains(&a) => Ok(a),
        _ => {
            Err(doc.error_at(v.span().start, format!("armour class {} is outside the KO tables' 1 to 10", v.get_ref())))
        }
    }
}

/// "11+", or what a face threshold outside 1..=20 means.
pub(super) fn face_text(from: i32) -> String {
    match from {
        ..=1 => "any (1+)".into(),
        21.. => "none (it needs more than 20)".into(),
        n => format!("{n}+"),
    }
}

/// Reaction rows a group's `quality` and `out_of_command` set ([`Ctx::reaction_quality`]),
/// never named by the user.
pub(super) const REACTION_FROM_QUALITY: [(&str, &str); 6] = [
    ("raw", "from quality"),
    ("green", "from quality"),
    ("veteran", "from quality"),
    ("elite", "from quality"),
    ("not_elite_out_of_command", "from out_of_command and quality"),
    ("elite_out_of_command", "from out_of_command and quality"),
];
