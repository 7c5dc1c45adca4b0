//! Reaction test scenarios (seed 004, Reaction Test adjustments and results): a group's
//! quality, command and named conditions summed into one d10 roll.

use toml::Spanned;

use super::{Ctx, MAX_ELEMENTS, QUALITIES, REACTION_FROM_QUALITY, ScenarioFile};
use crate::mission_command::tables::REACTION_RESULTS;
use crate::setup::{Sum, choice, count, distinct, named, required};
use crate::test_roll::TestRoll;
use combat_odds_core::dice::D10;
use combat_odds_core::engine::Measure;
use combat_odds_core::error::Result;

impl<'a> Ctx<'a> {
    pub(super) fn reaction_test(&mut self, s: ScenarioFile) -> Result<Box<dyn combat_odds_core::engine::Experiment>> {
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
    pub(in crate::mission_command) fn reaction_quality(&self, sum: &mut Sum, quality: &str, out_of_command: bool) {
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
    pub(in crate::mission_command) fn reaction_named(
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
}
