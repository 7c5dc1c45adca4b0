//! Close assault scenarios: infantry against an adjacent armoured unit, by its close
//! assault weapon class.

use serde::Deserialize;
use toml::Spanned;

use crate::company_commander::fire::{Chain, Effect, FireAction, Made, Next, Roll, Step, Strike, Volley};
use crate::company_commander::tables::QUALITIES;
use crate::setup::{present, required};
use combat_odds_core::error::Result;

use super::{Ctx, ScenarioFile, Target};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawAssault {
    name: Option<String>,
    quality: Option<Spanned<String>>,
    strength: Option<Spanned<u32>>,
    weapon_class: Spanned<String>,
}

impl Ctx<'_> {
    pub(super) fn close_assault(&mut self, mut s: ScenarioFile) -> Result<FireAction> {
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
    pub(in crate::company_commander) fn assault(
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
}
