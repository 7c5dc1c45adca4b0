//! Mission Command scenario files: what a user writes, and its set-up as a
//! [`Fire`] or a reaction [`TestRoll`], with every modifier applied and recorded.
//! Ranges are in centimetres on the table (1 cm = 20 m).

use serde::Deserialize;
use toml::Spanned;

use super::catalogue::{Catalogue, RawWeapon, Weapon};
use super::fire::{Counts, Fire, Shot, effect_by_face};
use super::settings::{KoOutsideListedRanges, RawSettings, Settings};
use super::tables::{
    ARMOUR_CLASSES, AaCell, AreaKoCell, AreaRange, AreaSystem, BUILDING_RESULTS, BuildingCell, CASUALTY_COLUMNS,
    CasualtyCell, Facing, Intensity, KoCell, KoValue, REACTION_RESULTS, Tables, ToHitCell,
};
use crate::ruleset::SetUp;
use crate::setup::{Sections, Sum, catalogued, choice, count, distinct, entry, named, required, unwritten_count};
use crate::test_roll::TestRoll;
use combat_odds_core::dice::D10;
use combat_odds_core::document::Document;
use combat_odds_core::engine::Measure;
use combat_odds_core::error::Result;
use combat_odds_core::tables::Side;

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
/// The anti-aircraft row infantry elements fire on (seed 004, Anti-aircraft Fire To Hit:
/// "Small arms and MGs").
const AA_INFANTRY_ROW: &str = "small_arms_and_mgs";

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

    fn point_to_point(
        &mut self,
        s: ScenarioFile,
        catalogue: &Catalogue,
    ) -> Result<Box<dyn combat_odds_core::engine::Experiment>> {
        let doc = self.doc;
        let t = &self.tables.to_hit;
        let Some(r) = &s.range else {
            return Err(doc.error("a point_to_point scenario needs `range` in cm (1cm = 20m)"));
        };
        let range = self.range(
            r,
            *t.ranges_cm.last().expect("checked at load"),
            "beyond every row of Point-to-point Fire to Hit",
        )?;
        let band = t.band(range).expect("within the last band");
        let range_at = r.span().start;
        let opportunity = s.opportunity_fire.as_ref().is_some_and(|o| *o.get_ref());
        let firers = s.firer.map(Spanned::into_inner).unwrap_or_default();
        if firers.is_empty() {
            return Err(doc.error("a point_to_point scenario needs at least one [[firer]]"));
        }
        let raw_target = required(doc, s.target, "[target]", "point_to_point")?;
        let (target, target_modifiers) = self.target(
            (&raw_target.situation, &raw_target.armour_class),
            &raw_target.modifiers,
            opportunity,
            (None, "[target]"),
        )?;
        let label = raw_target.name.unwrap_or_else(|| "target".into());
        let (what, kill) = match target {
            Target::Casualty(c) => {
                (format!("{} ({})", self.tables.casualty.column_labels[c], CASUALTY_COLUMNS[c]), "casualty")
            }
            Target::Armour(ac) => (format!("AFV of armour class {ac}"), "ko"),
        };
        self.notes.push(format!(
            "target: {label}, {what}; range {range}cm (band up to {}cm){}",
            t.ranges_cm[band],
            if opportunity { ", opportunity fire" } else { "" }
        ));

        let mut shots = Vec::new();
        for (i, f) in firers.into_iter().enumerate() {
            let who = f.name.clone().unwrap_or_else(|| format!("firer {}", i + 1));
            let weapon_at = f.weapon.as_ref().map(|w| w.span().start);
            let weapon_at = weapon_at.or(f.weapon_data.as_ref().map(|w| w.span().start)).unwrap_or(range_at);
            let weapon = self.weapon(catalogue, &who, (&f.weapon, f.weapon_data))?;
            let row = &t.rows[weapon.to_hit];
            let elements = self.elements(&f.elements, &format!("firer[{i}]"))?;
            let quality = choice(doc, f.quality.as_ref(), "quality", &QUALITIES, "regular")?;
            let score =
                self.score(&who, &weapon, (quality, f.engineers), range).map_err(|m| doc.error_at(range_at, m))?;
            let markers = count(doc, &f.suppression_markers, "suppression_markers", 0, MAX_MARKERS, 0)?;
            let mut modifiers = self.firer_modifiers(&who, &weapon, markers, &f.modifiers)?;
            for (name, value) in &target_modifiers {
                modifiers.add(name, *value);
            }
            let hit_from = score - modifiers.modifiers();
            self.notes.push(format!(
                "{who}: {elements} x {}, \"{}\" needs {score}; modifiers {}: hits on a natural d20 of {}",
                weapon.label,
                row.row.label,
                modifiers.describe_modifiers(),
                face_text(hit_from)
            ));
            let convert = self.conversion(&who, &weapon, &target, range).map_err(|m| doc.error_at(weapon_at, m))?;
            let effect = effect_by_face(1, &convert.map(|from| vec![(2, from)]).unwrap_or_default());
            shots.extend(std::iter::repeat_n(
                Shot { hit_from: Some(hit_from), effect, capped: true },
                elements as usize,
            ));
        }
        let multiple_casualties = matches!(target, Target::Casualty(_)) && shots.len() > 1;
        let counts = Counts { hits: true, kills: multiple_casualties.then_some(("casualties", None)), one_roll: false };
        Ok(self.within_reach(Fire::new(Measure::new("target", ["miss", "hit_no_effect", kill]), shots, counts)))
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

    /// A target as the point-to-point tables see it, from its `situation` (a casualty
    /// column) or `armour_class`, and its to-hit modifiers as (name, value). `at` and
    /// `what` place and name the entry for the message when neither or both are given.
    pub(super) fn target(
        &self,
        (situation, armour): (&Option<Spanned<String>>, &Option<Spanned<i64>>),
        names: &[Spanned<String>],
        opportunity: bool,
        (at, what): (Option<usize>, &str),
    ) -> Result<(Target, Vec<(String, i32)>)> {
        let doc = self.doc;
        let target = match (situation, armour) {
            (Some(sit), None) => {
                let column = choice(doc, Some(sit), "target situation", &CASUALTY_COLUMNS, "")?;
                if column == "moving_in_no_cover" && !opportunity {
                    return Err(doc.error_at(sit.span().start, "the \"Moving in no cover\" column is for opportunity fire only; set opportunity_fire = true or pick another situation"));
                }
                Target::Casualty(CASUALTY_COLUMNS.iter().position(|c| *c == column).expect("a listed column"))
            }
            (None, Some(ac)) => Target::Armour(armour_class(doc, ac)?),
            _ => {
                let msg = format!(
                    "{what} needs exactly one of `situation` (a casualty column: {}) or `armour_class` (1 to 10, for an AFV)",
                    CASUALTY_COLUMNS.join(", ")
                );
                return Err(match at {
                    Some(at) => doc.error_at(at, msg),
                    None => doc.error(msg),
                });
            }
        };
        let vehicle = target.vehicle();
        let mut modifiers = Vec::new();
        distinct(doc, names)?;
        for name in names {
            let m = named(doc, name, &[&self.tables.to_hit.modifiers], &[], Some(Side::Target))?;
            let wrong = match m.name.as_str() {
                "opp_fire_foot_moving_fast" | "opp_fire_came_into_view" if !opportunity => {
                    Some("applies to opportunity fire only; set opportunity_fire = true")
                }
                "opp_fire_foot_moving_fast" if vehicle => Some("is for foot targets; this target is a vehicle"),
                "hull_down" if !vehicle => Some("is for vehicles (an armour_class or the soft_vehicles situation)"),
                _ => None,
            };
            if let Some(why) = wrong {
                return Err(doc.error_at(name.span().start, format!("modifier `{}` {why}", m.name)));
            }
            modifiers.push((m.name.clone(), m.value(1)));
        }
        Ok((target, modifiers))
    }

    /// The to-hit score of `weapon`'s row at `range` for troops of `quality` (and
    /// engineers or not, for a split cell), with notes; `Err` says why the row may
    /// not fire at that range (beyond its reach, a "< 2cm only" row, an N/A cell).
    pub(super) fn score(
        &mut self,
        who: &str,
        weapon: &Weapon,
        (quality, engineers): (&str, bool),
        range: f64,
    ) -> std::result::Result<i32, String> {
        let t = &self.tables.to_hit;
        let row = &t.rows[weapon.to_hit];
        let doc = self.doc;
        let beyond = || {
            let why = format!(
                "{who}: range {range}cm is beyond {} (\"{}\" reaches {}cm)",
                weapon.label,
                row.row.label,
                row.max_range(&t.ranges_cm)
            );
            doc.beyond_reach(why.clone());
            why
        };
        let Some(band) = t.band(range) else { return Err(beyond()) };
        let Some(cell) = row.row.cells.get(band) else { return Err(beyond()) };
        if let Some(limit) = row.closer_than_cm
            && range >= limit
        {
            return Err(format!("{who}: \"{}\" is at under {limit}cm only; range is {range}cm", row.row.label));
        }
        let score = match *cell {
            ToHitCell::Score(n) => n,
            ToHitCell::NotApplicable => {
                return Err(format!(
                    "{who}: \"{}\" is N/A at {range}cm (band up to {}cm); it may not fire there",
                    row.row.label, t.ranges_cm[band]
                ));
            }
            ToHitCell::Split { engineers: first, others } => {
                let picked = engineers && matches!(quality, "elite" | "veteran");
                self.notes.push(format!(
                    "{who}: split cell {cell} ({}): {} the {} number",
                    row.split.as_deref().unwrap_or("split by troops"),
                    if engineers { format!("{quality} engineers take") } else { format!("{quality} troops take") },
                    if picked { "first" } else { "second" }
                ));
                if picked { first } else { others }
            }
        };
        if let Some(note) = &row.note {
            self.notes.push(format!("{who}: \"{}\": {note}", row.row.label));
        }
        Ok(score)
    }

    /// A firer's to-hit modifiers: `markers` suppression markers, the auto-cannon
    /// setting, and the firer modifiers it names (artillery may not name
    /// `firer_will_move`).
    pub(super) fn firer_modifiers(
        &self,
        who: &str,
        weapon: &Weapon,
        markers: u32,
        names: &[Spanned<String>],
    ) -> Result<Sum> {
        let doc = self.doc;
        let t = &self.tables.to_hit;
        let mut modifiers = Sum::new(0);
        let mut automatic = vec![("suppression_marker", "set suppression_markers = N")];
        if markers > 0 {
            modifiers.add("suppression_marker", t.modifiers.get("suppression_marker").value(markers as i32));
        }
        let auto_cannon = self.settings.every_auto_cannon_gets_multi_barrel
            && t.rows[weapon.to_hit].row.name == "flak_autocannon_20_40mm";
        if auto_cannon {
            automatic.push(("multi_barrel", "every auto-cannon, by the auto_cannon_bonus setting"));
            modifiers.add("multi_barrel", t.modifiers.get("multi_barrel").value(1));
        }
        distinct(doc, names)?;
        for name in names {
            let m = named(doc, name, &[&t.modifiers], &automatic, Some(Side::Firer))?;
            // "Firer is multi-barrel MG or auto-cannon" (+2): only a weapon the
            // catalogue or its data marks `multi_barrel` has more than one barrel.
            if m.name == "multi_barrel" && !weapon.multi_barrel {
                return Err(doc.error_at(
                    name.span().start,
                    format!(
                        "{who}: `multi_barrel` (+2, \"Firer is multi-barrel MG or auto-cannon\") is for a weapon with several barrels, and `{}` has one; mark a multi-barrel MG or auto-cannon `multi_barrel = true` in its weapon data (the auto_cannon_bonus setting gives it to every auto-cannon)",
                        weapon.name
                    ),
                ));
            }
            if m.name == "firer_will_move" && weapon.artillery {
                return Err(doc.error_at(name.span().start, format!("{who}: artillery other than AT guns may not shoot and move in one turn; drop `firer_will_move` or `artillery`")));
            }
            modifiers.add(&m.name, m.value(1));
        }
        Ok(modifiers)
    }

    pub(super) fn weapon(
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
            |data| data.into_inner().resolve(who, self.doc, self.tables),
        )
    }

    /// The natural d20 face from which a hit converts (casualty or KO), or `None`
    /// when it cannot; notes how it was read. `Err` says why the fire cannot be
    /// resolved point to point at all (no casualty row at this range, an "Area Fire"
    /// or N/A cell).
    pub(super) fn conversion(
        &mut self,
        who: &str,
        weapon: &Weapon,
        target: &Target,
        range: f64,
    ) -> std::result::Result<Option<i32>, String> {
        match *target {
            Target::Casualty(column) => {
                let Some(r) = weapon.casualty_row(range) else {
                    let reach = weapon.casualty.last().and_then(|(_, u)| *u);
                    return Err(match reach {
                        Some(u) => format!(
                            "{who}: {} has no casualty row beyond {u}cm (range {range}cm); it cannot cause casualties there",
                            weapon.label
                        ),
                        None => format!(
                            "{who}: {} has no casualty row; it cannot fire at foot or soft targets",
                            weapon.label
                        ),
                    });
                };
                let row = &self.tables.casualty.rows[r];
                let heading = &self.tables.casualty.column_labels[column];
                match row.cells[column] {
                    CasualtyCell::Score(n) => {
                        self.notes.push(format!("  casualty: \"{}\" vs \"{heading}\": a d20 of {n}+", row.label));
                        Ok(Some(n))
                    }
                    CasualtyCell::NoCasualty => {
                        self.notes.push(format!(
                            "  casualty: \"{}\" vs \"{heading}\" is \"No casualty\": hits have no effect",
                            row.label
                        ));
                        Ok(None)
                    }
                    CasualtyCell::AreaFire => Err(format!(
                        "{who}: \"{}\" vs \"{heading}\" is \"Area Fire\": resolve it with an area_fire_building scenario, not point to point",
                        row.label
                    )),
                    CasualtyCell::NotApplicable => {
                        Err(format!("{who}: \"{}\" vs \"{heading}\" is N/A in the casualty table", row.label))
                    }
                }
            }
            Target::Armour(ac) => {
                let Some(r) = weapon.ko else {
                    self.notes.push(format!(
                        "  KO: {} has no row in the KO tables: hits have no effect on armour",
                        weapon.label
                    ));
                    return Ok(None);
                };
                let row = &self.tables.ko.rows[r];
                let cell = &row.cells[(ac - ARMOUR_CLASSES.start()) as usize];
                let (value, how) = self.ko_at(cell, range);
                let text = match value {
                    Some(KoValue::Score(n)) => format!("a d20 of {n}+"),
                    Some(KoValue::Ko) => "knocked out outright".into(),
                    None => "no effect".into(),
                };
                self.notes.push(format!("  KO: \"{}\" vs armour class {ac} reads \"{cell}\"{how}: {text}", row.label));
                Ok(value.map(|v| match v {
                    KoValue::Score(n) => n,
                    KoValue::Ko => 1,
                }))
            }
        }
    }

    /// A KO cell's value at `range` (`None` = no effect) and how it was read.
    fn ko_at(&self, cell: &KoCell, range: f64) -> (Option<KoValue>, String) {
        let clauses = match cell {
            KoCell::Always(v) => return (Some(*v), String::new()),
            KoCell::NoEffect => return (None, String::new()),
            KoCell::ByRange(c) => c,
        };
        if let Some(c) = clauses.iter().find(|c| c.covers(range)) {
            return (Some(c.value), format!(" (at {range}cm: \"{c}\")"));
        }
        let (first, last) = (clauses[0], clauses[clauses.len() - 1]);
        let closer = range <= first.from_cm;
        let reading = self.settings.ko_outside_listed_ranges;
        let nearest = if closer { first } else { last };
        let value = match (reading, closer) {
            (KoOutsideListedRanges::Nearest, _) | (KoOutsideListedRanges::CloserTakesNearest, true) => {
                Some(nearest.value)
            }
            _ => None,
        };
        let setting = match reading {
            KoOutsideListedRanges::CloserTakesNearest => "closer_takes_nearest",
            KoOutsideListedRanges::NoEffect => "no_effect",
            KoOutsideListedRanges::Nearest => "nearest",
        };
        let how = match value {
            Some(_) => format!(
                " ({range}cm is outside every listed band; ko_outside_listed_ranges = {setting} takes \"{nearest}\")"
            ),
            None => format!(
                " ({range}cm is outside every listed band; ko_outside_listed_ranges = {setting} reads no effect)"
            ),
        };
        (value, how)
    }

    /// The parts every area fire shares: the system, the column it reads (its weapon
    /// class row and intensity; `None` when the system or harassing fire has no
    /// effect) and the roll modifier, with range checks against the firer's maximum
    /// range.
    fn area_fire<'s>(
        &mut self,
        raw: &RawAreaFire,
        range: &Option<Spanned<f64>>,
        systems: &'s [AreaSystem],
        rockets_bonus: i32,
    ) -> Result<(&'s AreaSystem, Option<Column>, i32)>
    where
        'a: 's,
    {
        let doc = self.doc;
        let aim = self.area_aim(raw, systems, rockets_bonus)?;
        let range = range
            .as_ref()
            .map(|r| self.range(r, MAX_AREA_RANGE_CM, "beyond any weapon in Ranges for Area Fire"))
            .transpose()?;
        if let Some(row) = aim.reach {
            if let Some(r) = range
                && r > row.max_cm
            {
                let at = raw.weapon.as_ref().map_or(0, |w| w.span().start);
                let why =
                    format!("{} ({}) reaches {}cm; range {r}cm is beyond it", row.calibre, row.weapon_type, row.max_cm);
                doc.beyond_reach(why.clone());
                return Err(doc.error_at(at, why));
            }
            self.notes.push(format!("weapon: {} ({}), maximum range {}cm", row.calibre, row.weapon_type, row.max_cm));
        }
        let (column, intensity) = aim.column(range).map_err(|(at, m)| match at {
            Some(at) => doc.error_at(at, m),
            None => doc.error(m),
        })?;
        self.notes.push(format!(
            "{}: {}, {}{}",
            raw.name.clone().unwrap_or_else(|| "fire".into()),
            aim.system.label,
            match (column, intensity) {
                (Some((_, i)), _) => format!("{} column", Intensity::NAMES[i as usize]),
                (None, None) => "harassing fire: no effect".to_string(),
                (None, Some(_)) => "no effect".to_string(),
            },
            if aim.bonus != 0 { format!(", rockets {:+} to the d20", aim.bonus) } else { String::new() }
        ));
        if let Some(note) = &aim.system.note {
            self.notes.push(format!("  {note}"));
        }
        Ok((aim.system, column, aim.bonus))
    }

    /// What an area fire names, checked against the tables: its system, the row of
    /// Ranges for Area Fire its `weapon` names, the intensity asked and the rockets
    /// bonus. The column it reads depends on the range ([`AreaAim::column`]).
    pub(super) fn area_aim<'s>(
        &self,
        raw: &RawAreaFire,
        systems: &'s [AreaSystem],
        rockets_bonus: i32,
    ) -> Result<AreaAim<'s>>
    where
        'a: 's,
    {
        let doc = self.doc;
        let names: Vec<&str> = systems.iter().map(|s| s.name.as_str()).collect();
        let picked = choice(doc, Some(&raw.system), "firing system", &names, "")?;
        let system = &systems[names.iter().position(|n| *n == picked).expect("a listed system")];
        if raw.rockets && !system.rockets {
            let rocket_systems: Vec<&str> = systems.iter().filter(|s| s.rockets).map(|s| s.name.as_str()).collect();
            return Err(doc.error_at(
                raw.system.span().start,
                format!(
                    "`rockets = true` (+1 to the d20 \"with rockets\") is for a system that fires rockets ({}), not `{picked}`; drop `rockets`",
                    combat_odds_core::error::listing(rocket_systems)
                ),
            ));
        }
        let reach = match &raw.weapon {
            Some(w) => {
                let ranges: &'a [AreaRange] = &self.tables.area_ranges;
                let names: Vec<&str> = ranges.iter().map(|r| r.name.as_str()).collect();
                let chosen = choice(doc, Some(w), "weapon in Ranges for Area Fire", &names, "")?;
                Some(ranges.iter().find(|r| r.name == chosen).expect("a listed weapon"))
            }
            None => None,
        };
        let asked = choice(doc, raw.intensity.as_ref(), "intensity", &AREA_INTENSITIES, "standard")?;
        let written = raw.intensity.as_ref().map(|w| w.span().start);
        Ok(AreaAim { system, reach, asked, written, bonus: if raw.rockets { rockets_bonus } else { 0 } })
    }

    /// An engagement unit's area fire, by the system its `system` names in each area
    /// fire table: (against AFVs, against buildings), `None` where that table has no
    /// such system; refused where neither has it.
    pub(super) fn area_aims(&self, raw: &RawAreaFire) -> Result<(Option<AreaAim<'a>>, Option<AreaAim<'a>>)> {
        let (afv, bld) = (&self.tables.area_afv, &self.tables.area_buildings);
        let has = |systems: &[AreaSystem]| systems.iter().any(|s| &s.name == raw.system.get_ref());
        if !has(&afv.systems) && !has(&bld.systems) {
            let mut names: Vec<&str> = afv.systems.iter().chain(&bld.systems).map(|s| s.name.as_str()).collect();
            names.sort_unstable();
            names.dedup();
            choice(self.doc, Some(&raw.system), "firing system", &names, "")?;
        }
        let rockets = if self.settings.rockets_bonus_vs_buildings { afv.rockets_bonus } else { 0 };
        Ok((
            has(&afv.systems).then(|| self.area_aim(raw, &afv.systems, afv.rockets_bonus)).transpose()?,
            has(&bld.systems).then(|| self.area_aim(raw, &bld.systems, rockets)).transpose()?,
        ))
    }

    /// What a template reading `column` does to an AFV struck on armour class `ac`,
    /// with `bonus` added to the d20: the level (1 = KO) of each natural face, whether
    /// a KO counts against the template's one-KO cap (MC-5), and the cell as read.
    pub(super) fn afv_effect(&self, column: Option<Column>, ac: i32, bonus: i32) -> ([u8; 20], bool, String) {
        let table = &self.tables.area_afv;
        match column {
            None => ([0; 20], true, "no effect".to_string()),
            Some((class, i)) => {
                let band = table.armour_bands.index(ac);
                let cell = table.classes[class].cells[band][i as usize];
                let band_text = table.armour_bands.ranges()[band];
                match cell {
                    AreaKoCell::Score(needs) => (
                        effect_by_face(0, &[(1, needs - bonus)]),
                        true,
                        format!("armour {band_text} cell {needs}: KO on a natural d20 of {}", face_text(needs - bonus)),
                    ),
                    AreaKoCell::NoEffect => ([0; 20], true, format!("armour {band_text} cell \"No effect\"")),
                    AreaKoCell::All => {
                        let beyond = self.settings.all_cell_beyond_cap;
                        (
                            [1; 20],
                            !beyond,
                            format!(
                                "armour {band_text} cell \"all\": knocked out{}",
                                if beyond { ", beyond the one-KO cap" } else { " within the one-KO cap" }
                            ),
                        )
                    }
                }
            }
        }
    }

    /// What a template reading `column` does to a structure of strength `si`, with
    /// `bonus` added to the d20: the result (BUILDING_RESULTS) of each natural face, and
    /// the cell as read (MC-19).
    pub(super) fn building_effect(&self, column: Option<Column>, si: usize, bonus: i32) -> ([u8; 20], String) {
        let table = &self.tables.area_buildings;
        match column {
            None => ([0; 20], "no effect".to_string()),
            Some((class, i)) => {
                let cell = &table.classes[class].cells[si][i as usize];
                let effect = match cell {
                    BuildingCell::Rolls(rolls) => {
                        let from: Vec<(u8, i32)> = rolls.iter().map(|&(r, n)| (r as u8, n - bonus)).collect();
                        effect_by_face(0, &from)
                    }
                    BuildingCell::Auto(r) => [*r as u8; 20],
                    BuildingCell::NoEffect => [0; 20],
                };
                (effect, format!("cell \"{cell}\""))
            }
        }
    }

    fn area_fire_afv(&mut self, s: ScenarioFile) -> Result<Box<dyn combat_odds_core::engine::Experiment>> {
        let doc = self.doc;
        let table = &self.tables.area_afv;
        let raw = required(doc, s.fire, "[fire]", "area_fire_afv")?;
        let (system, column, bonus) = self.area_fire(&raw, &s.range, &table.systems, table.rockets_bonus)?;
        let vehicles = s.vehicle.map(Spanned::into_inner).unwrap_or_default();
        if vehicles.is_empty() {
            return Err(doc.error("an area_fire_afv scenario needs at least one [[vehicle]] under the template"));
        }
        let mut shots = Vec::new();
        for (i, v) in vehicles.iter().enumerate() {
            let label = v.name.clone().unwrap_or_else(|| format!("vehicle {}", i + 1));
            let front = armour_class(doc, &v.armour_front)?;
            let side = v.armour_side.as_ref().map(|a| armour_class(doc, a)).transpose()?.unwrap_or(front);
            unwritten_count(doc, &v.count, &format!("vehicle[{i}]"), "count", (1, MAX_ELEMENTS, 1));
            let n = count(doc, &v.count, "count", 1, MAX_ELEMENTS, 1)?;
            let side_hit = v.open_topped || system.facing == Some(Facing::Side);
            let ac = if side_hit { side } else { front };
            let facing = if side_hit { "side" } else { "front" };
            let (effect, capped, text) = self.afv_effect(column, ac, bonus);
            self.notes.push(format!(
                "  {n} x {label}: {facing} armour class {ac}{}, {text}",
                if v.open_topped { " (open-topped)" } else { "" }
            ));
            shots.extend(std::iter::repeat_n(Shot { hit_from: None, effect, capped }, n as usize));
        }
        let cap = table.max_kos_per_template;
        let one_roll = self.settings.area_fire_one_roll_per_template;
        self.notes.push(format!(
            "{}; at most {cap} AFV knocked out by rolling per template",
            if one_roll {
                "one d20 for the template, read against every AFV under it (area_fire_roll = one_per_template)"
            } else {
                "one d20 for each AFV under the template"
            }
        ));
        let counts = Counts { hits: false, kills: Some(("kos", Some(cap))), one_roll };
        Ok(self.within_reach(Fire::new(Measure::new("template", ["no_ko", "ko"]), shots, counts)))
    }

    fn area_fire_building(&mut self, s: ScenarioFile) -> Result<Box<dyn combat_odds_core::engine::Experiment>> {
        let doc = self.doc;
        let table = &self.tables.area_buildings;
        let raw = required(doc, s.fire, "[fire]", "area_fire_building")?;
        let structure = required(doc, s.structure, "[structure]", "area_fire_building")?;
        let rockets = if self.settings.rockets_bonus_vs_buildings { self.tables.area_afv.rockets_bonus } else { 0 };
        if raw.rockets && rockets == 0 {
            self.notes.push("rockets: no bonus against buildings (rockets_vs_buildings = no_bonus)".into());
        }
        let (_, column, bonus) = self.area_fire(&raw, &s.range, &table.systems, rockets)?;
        let names: Vec<&str> = table.structures.iter().map(String::as_str).collect();
        let strength = choice(doc, Some(&structure.strength), "structure strength", &names, "")?;
        let si = names.iter().position(|n| *n == strength).expect("a listed structure");
        let (effect, text) = self.building_effect(column, si, bonus);
        self.notes
            .push(format!("  {}: {strength} structure, {text}", structure.name.unwrap_or_else(|| "structure".into())));
        for r in &table.results {
            self.notes.push(format!("  {} ({}): {}", r.letter, r.name, r.effects.join("; ")));
        }
        let shot = Shot { hit_from: None, effect, capped: true };
        Ok(Box::new(Fire::new(
            Measure::new("structure", BUILDING_RESULTS),
            vec![shot],
            Counts { hits: false, kills: None, one_roll: false },
        )))
    }

    fn reaction_test(&mut self, s: ScenarioFile) -> Result<Box<dyn combat_odds_core::engine::Experiment>> {
        let doc = self.doc;
        let reaction = &self.tables.reaction;
        let chart = &reaction.modifiers;
        let g = required(doc, s.group, "[group]", "reaction_test")?;
        let quality = choice(doc, g.quality.as_ref(), "quality", &QUALITIES, "regular")?;
        let mut sum = Sum::new(0);
        self.reaction_quality(&mut sum, quality, g.out_of_command);
        let counted = [
            (&g.elements_suppressed, "elements_suppressed", "element_suppressed"),
            (&g.elements_eliminated, "elements_eliminated", "element_eliminated"),
            (&g.enemy_afvs_knocked_out, "enemy_afvs_knocked_out", "enemy_afv_knocked_out"),
            (&g.friendly_afvs_knocked_out, "friendly_afvs_knocked_out", "friendly_afv_knocked_out"),
        ];
        for (field, what, row) in counted {
            let n = count(doc, field, what, 0, MAX_ELEMENTS, 0)?;
            if n == 0 {
                continue;
            }
            if row == "friendly_afv_knocked_out" && !self.settings.friendly_afv_knocked_out_counts {
                self.notes.push(format!("{what} = {n} ignored (friendly_afv_knocked_out = ignored)"));
                continue;
            }
            sum.add(&format!("{row} x{n}"), chart.get(row).value(n as i32));
        }
        let counted = [
            ("element_suppressed", "set elements_suppressed = N"),
            ("element_eliminated", "set elements_eliminated = N"),
            ("enemy_afv_knocked_out", "set enemy_afvs_knocked_out = N"),
            ("friendly_afv_knocked_out", "set friendly_afvs_knocked_out = N"),
        ];
        let automatic: Vec<_> = REACTION_FROM_QUALITY.iter().chain(&counted).copied().collect();
        self.reaction_named(&mut sum, &g.modifiers, &automatic)?;
        let label = g.name.unwrap_or_else(|| "group".into());
        self.notes.push(format!("{label}: d10, modifiers {}", sum.describe_modifiers()));
        let shift = sum.modifiers();
        let bands: Vec<String> = reaction.results.iter().map(|r| format!("{} {}", r.roll, r.name)).collect();
        self.notes.push(format!("  results by modified score: {}", bands.join(", ")));
        let measures = vec![Measure::new("reaction", REACTION_RESULTS)];
        let worst = REACTION_RESULTS.len() - 1;
        Ok(Box::new(TestRoll::new(D10, measures, (0, worst), |face, out| {
            out[0] = reaction.result(face as i32 + shift)
        })))
    }

    /// The reaction test rows a group's quality and command give: one quality row
    /// (regular has none), and out of command at -1 for elite, -4 for any other.
    pub(super) fn reaction_quality(&self, sum: &mut Sum, quality: &str, out_of_command: bool) {
        let chart = &self.tables.reaction.modifiers;
        if quality != "regular" {
            sum.add(quality, chart.get(quality).value(1));
        }
        if out_of_command {
            let row = if quality == "elite" { "elite_out_of_command" } else { "not_elite_out_of_command" };
            sum.add(row, chart.get(row).value(1));
        }
    }

    /// The reaction test rows a group names: each once, the three cover rows
    /// excluding one another, and none of the `automatic` ones.
    pub(super) fn reaction_named(
        &self,
        sum: &mut Sum,
        names: &[Spanned<String>],
        automatic: &[(&str, &str)],
    ) -> Result<()> {
        let doc = self.doc;
        let chart = &self.tables.reaction.modifiers;
        let covers = ["partial_cover_or_concealed", "good_cover_or_field_fortifications", "permanent_fortifications"];
        let mut cover_named = None;
        distinct(doc, names)?;
        for name in names {
            let m = named(doc, name, &[chart], automatic, None)?;
            if covers.contains(&m.name.as_str()) {
                if let Some(first) = cover_named {
                    return Err(doc.error_at(
                        name.span().start,
                        format!("the group's cover is one of {}; `{first}` is already named", covers.join(", ")),
                    ));
                }
                cover_named = Some(m.name.clone());
            }
            sum.add(&m.name, m.value(1));
        }
        Ok(())
    }

    fn anti_aircraft(&mut self, s: ScenarioFile) -> Result<Box<dyn combat_odds_core::engine::Experiment>> {
        let doc = self.doc;
        let aa = &self.tables.anti_aircraft;
        let aircraft = required(doc, s.aircraft, "[aircraft]", "anti_aircraft")?;
        let firers = s.aa_firer.map(Spanned::into_inner).unwrap_or_default();
        if firers.is_empty() {
            return Err(doc.error("an anti_aircraft scenario needs at least one [[aa_firer]]"));
        }
        let altitudes: Vec<&str> = aa.altitudes.iter().map(String::as_str).collect();
        let altitude = choice(doc, Some(&aircraft.altitude), "altitude", &altitudes, "")?;
        let ai = altitudes.iter().position(|a| *a == altitude).expect("listed");
        let sizes: Vec<&str> = aa.sizes.iter().map(String::as_str).collect();
        let size = choice(doc, Some(&aircraft.size), "aircraft size", &sizes, "")?;
        let si = sizes.iter().position(|a| *a == size).expect("listed");
        self.notes
            .push(format!("aircraft: {}, {altitude}, {size}", aircraft.name.unwrap_or_else(|| "aircraft".into())));
        let rows: Vec<&str> = aa.to_hit.iter().map(|r| r.name.as_str()).collect();
        let mut shots = Vec::new();
        for (i, f) in firers.iter().enumerate() {
            let who = f.name.clone().unwrap_or_else(|| format!("firer {}", i + 1));
            let row = choice(doc, Some(&f.weapon), "anti-aircraft firer", &rows, "")?;
            let r = rows.iter().position(|n| *n == row).expect("listed");
            // Seed 004, AA adjustments: "integrated or coherent infantry elements, use
            // 2d20 as if 2 MGs were firing": infantry fire small arms and MGs.
            if f.infantry && row != AA_INFANTRY_ROW {
                return Err(doc.error_at(
                    f.weapon.span().start,
                    format!(
                        "{who}: `infantry = true` (2d20, \"as if 2 MGs were firing\") is for infantry elements, which fire as `{AA_INFANTRY_ROW}`, not `{row}`; drop `infantry` or set weapon = \"{AA_INFANTRY_ROW}\""
                    ),
                ));
            }
            let score = match aa.to_hit[r].cells[ai] {
                AaCell::Value(n) => n,
                AaCell::NotApplicable => {
                    return Err(doc.error_at(
                        f.weapon.span().start,
                        format!("{who}: \"{}\" cannot engage at {altitude} (N/A)", aa.to_hit[r].label),
                    ));
                }
            };
            let mut modifiers = Sum::new(0);
            distinct(doc, &f.modifiers)?;
            for name in &f.modifiers {
                let m = named(doc, name, &[&aa.modifiers], &[], None)?;
                modifiers.add(&m.name, m.value(1));
            }
            let elements = self.elements(&f.elements, &format!("aa_firer[{i}]"))?;
            let dice = if f.infantry { aa.infantry_dice } else { 1 };
            let damage = aa.damage[r].cells[si];
            let hit_from = score - modifiers.modifiers();
            self.notes.push(format!(
                "{who}: {elements} x \"{}\"{}, needs {score}, modifiers {}: hits on a natural d20 of {}; then {damage} damages / destroys",
                aa.to_hit[r].label,
                if f.infantry { format!(", infantry: {dice}d20 each") } else { String::new() },
                modifiers.describe_modifiers(),
                face_text(hit_from)
            ));
            let mut levels = vec![(2, damage.damaged)];
            levels.extend(damage.destroyed.map(|d| (3, d)));
            let shot = Shot { hit_from: Some(hit_from), effect: effect_by_face(1, &levels), capped: true };
            shots.extend(std::iter::repeat_n(shot, (elements * dice) as usize));
        }
        let measure = Measure::new("aircraft", ["miss", "hit_no_effect", "damaged", "destroyed"]);
        Ok(self.within_reach(Fire::new(measure, shots, Counts { hits: true, kills: None, one_roll: false })))
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
