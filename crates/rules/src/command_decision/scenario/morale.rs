//! Morale scenarios (seed 000 "Morale"): a company's morale check with its status and
//! modifiers, and the result its die picks.

use super::{Ctx, MAX_STANDS, ScenarioFile};
use crate::command_decision::morale::morale_check;
use crate::command_decision::settings::Settings;
use crate::command_decision::tables::{MORALE_RESULTS, Tables};
use crate::ruleset::SetUp;
use crate::setup::{Sum, choice, count, distinct, named, required};
use combat_odds_core::document::Document;
use combat_odds_core::error::Result;

pub(super) fn morale(doc: &Document, s: ScenarioFile, tables: &Tables) -> Result<SetUp> {
    // A morale check uses no setting, but a misspelt one is still an error.
    Settings::resolve(doc, &s.settings, "morale")?;
    let cx = Ctx { doc, tables, notes: Vec::new() };
    let c = required(doc, s.company, "[company]", "morale")?;
    let base = *c.morale.get_ref();
    if !(0..=20).contains(&base) {
        return Err(
            doc.error_at(c.morale.span().start, format!("morale {base} is not a company morale number (0 to 20)"))
        );
    }
    let chart = &tables.morale_modifiers;
    let mut morale = Sum::new(base as i32);
    let status = choice(cx.doc, c.status.as_ref(), "status", &["none", "pinned", "shaken", "demoralized"], "none")?;
    if status != "none" {
        // The card's Shaken -3 and Demoralized -4 already include the pin's -2 (21.3.3, 21.3.4).
        morale.add(status, chart.get(status).value(1));
    }
    for (field, row) in [(&c.stands_forced_back, "stand_forced_back"), (&c.stands_eliminated, "stand_eliminated")] {
        let count = count(doc, field, &format!("{row}s"), 0, MAX_STANDS, 0)? as i32;
        if count > 0 {
            morale.add(row, chart.get(row).value(count));
        }
    }
    let automatic = [
        ("pinned", "set status = \"pinned\""),
        ("shaken", "set status = \"shaken\""),
        ("demoralized", "set status = \"demoralized\""),
        ("stand_forced_back", "set stands_forced_back = N"),
        ("stand_eliminated", "set stands_eliminated = N"),
    ];
    distinct(doc, &c.modifiers)?;
    for name in &c.modifiers {
        let m = named(cx.doc, name, &[chart], &automatic, None)?;
        morale.add(&m.name, m.value(1));
    }
    let n = morale.total();
    let results = &tables.morale_results;
    let check = morale_check(n, MORALE_RESULTS, |exceed| {
        if exceed <= 0 {
            (0, false)
        } else {
            let i = results.bands.index(exceed);
            (i + 1, results.results[i].1)
        }
    });
    let label = c.name.unwrap_or_else(|| "company".into());
    let notes =
        vec![format!("{label}: morale {}; a d10 at or below passes, above it fails by the excess", morale.describe())];
    Ok(SetUp { experiment: Box::new(check), notes })
}
