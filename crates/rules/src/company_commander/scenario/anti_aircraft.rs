//! Anti-aircraft scenarios: each firer's level and mount against an aircraft's save.

use serde::Deserialize;
use toml::Spanned;

use crate::company_commander::fire::{Chain, Effect, FireAction, Made, Next, Roll, Step, Strike, Volley};
use crate::setup::{choice, count, required, unwritten_count};
use combat_odds_core::dice::D100;
use combat_odds_core::error::{Result, unknown};

use super::{Ctx, MAX_UNITS, ScenarioFile};

/// A.A. mounts.
const MOUNTS: [&str; 3] = ["single", "twin", "quad"];

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawAaFirer {
    name: Option<String>,
    level: Spanned<String>,
    mount: Option<Spanned<String>>,
    units: Option<Spanned<i64>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawAircraft {
    name: Option<String>,
    save: Spanned<u32>,
    strength: Option<Spanned<u32>>,
}

impl Ctx<'_> {
    pub(super) fn anti_aircraft(&mut self, mut s: ScenarioFile) -> Result<FireAction> {
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
        for (i, f) in firers.iter().enumerate() {
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
            unwritten_count(doc, &f.units, &format!("aa_firer[{i}]"), "units", (1, MAX_UNITS, 1));
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
