//! Area fire scenarios (seed 004, Ranges for Area Fire and Area Fire Convert to
//! Casualties and KO, at AFVs and at Buildings and Fortifications): the system's aim and
//! intensity, and each d20 face's effect.

use toml::Spanned;

use super::{
    AREA_INTENSITIES, AreaAim, Column, Ctx, MAX_AREA_RANGE_CM, MAX_ELEMENTS, RawAreaFire, ScenarioFile, armour_class,
    face_text,
};
use crate::mission_command::fire::{Counts, Fire, Shot, effect_by_face};
use crate::mission_command::tables::{
    AreaKoCell, AreaRange, AreaSystem, BUILDING_RESULTS, BuildingCell, Facing, Intensity,
};
use crate::setup::{choice, count, required, unwritten_count};
use combat_odds_core::engine::Measure;
use combat_odds_core::error::Result;

impl<'a> Ctx<'a> {
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
    pub(in crate::mission_command) fn area_aim<'s>(
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
    pub(in crate::mission_command) fn area_aims(
        &self,
        raw: &RawAreaFire,
    ) -> Result<(Option<AreaAim<'a>>, Option<AreaAim<'a>>)> {
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
    pub(in crate::mission_command) fn afv_effect(
        &self,
        column: Option<Column>,
        ac: i32,
        bonus: i32,
    ) -> ([u8; 20], bool, String) {
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
    pub(in crate::mission_command) fn building_effect(
        &self,
        column: Option<Column>,
        si: usize,
        bonus: i32,
    ) -> ([u8; 20], String) {
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

    pub(super) fn area_fire_afv(&mut self, s: ScenarioFile) -> Result<Box<dyn combat_odds_core::engine::Experiment>> {
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

    pub(super) fn area_fire_building(
        &mut self,
        s: ScenarioFile,
    ) -> Result<Box<dyn combat_odds_core::engine::Experiment>> {
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
}
