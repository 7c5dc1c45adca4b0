//! Anti-aircraft fire scenarios (seed 004, Anti-aircraft Fire To Hit and its damage
//! table): each firer's dice at the aircraft and what a hit does.

use toml::Spanned;

use super::{Ctx, ScenarioFile, face_text};
use crate::mission_command::fire::{Counts, Fire, Shot, effect_by_face};
use crate::mission_command::tables::AaCell;
use crate::setup::{Sum, choice, distinct, named, required};
use combat_odds_core::engine::Measure;
use combat_odds_core::error::Result;

/// The anti-aircraft row infantry elements fire on (seed 004, Anti-aircraft Fire To Hit:
/// "Small arms and MGs").
const AA_INFANTRY_ROW: &str = "small_arms_and_mgs";

impl<'a> Ctx<'a> {
    pub(super) fn anti_aircraft(&mut self, s: ScenarioFile) -> Result<Box<dyn combat_odds_core::engine::Experiment>> {
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
