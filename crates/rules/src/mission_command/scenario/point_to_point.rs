//! Point-to-point fire scenarios (seed 004, Point-to-point Fire to Hit, then Convert
//! Hit to Casualty for foot or Conversion to KO for AFVs): the firer's score with every
//! modifier, the target, and the conversion at the range.

use toml::Spanned;

use super::{Ctx, MAX_MARKERS, QUALITIES, ScenarioFile, Target, armour_class, face_text};
use crate::mission_command::catalogue::{Catalogue, RawWeapon, Weapon};
use crate::mission_command::fire::{Counts, Fire, Shot, effect_by_face};
use crate::mission_command::settings::KoOutsideListedRanges;
use crate::mission_command::tables::{ARMOUR_CLASSES, CASUALTY_COLUMNS, CasualtyCell, KoCell, KoValue, ToHitCell};
use crate::setup::{Sum, catalogued, choice, count, distinct, entry, named, required};
use combat_odds_core::engine::Measure;
use combat_odds_core::error::Result;
use combat_odds_core::tables::Side;

impl<'a> Ctx<'a> {
    pub(super) fn point_to_point(
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

    /// A target as the point-to-point tables see it, from its `situation` (a casualty
    /// column) or `armour_class`, and its to-hit modifiers as (name, value). `at` and
    /// `what` place and name the entry for the message when neither or both are given.
    pub(in crate::mission_command) fn target(
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
    pub(in crate::mission_command) fn score(
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
    pub(in crate::mission_command) fn firer_modifiers(
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

    pub(in crate::mission_command) fn weapon(
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
    pub(in crate::mission_command) fn conversion(
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
}
