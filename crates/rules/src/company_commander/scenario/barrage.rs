//! Barrage scenarios: a battery's fire on the target hex and the units nearby.

use crate::company_commander::barrage::Barrage;
use crate::setup::{count, present, unwritten_count};
use combat_odds_core::error::Result;

use super::{Ctx, MAX_UNITS, ScenarioFile, refuse_close_assault_key};

impl Ctx<'_> {
    pub(super) fn barrage(&mut self, mut s: ScenarioFile) -> Result<Barrage> {
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
        for (i, n) in std::mem::take(&mut s.nearby).into_iter().enumerate() {
            unwritten_count(doc, &n.get_ref().count, &format!("nearby[{i}]"), "count", (1, MAX_UNITS, 1));
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
}
