//! Indirect fire scenarios (seed 001, Artillery Response and the indirect fire chart;
//! CD-E14): a mission's artillery response, its burst and its attacks on the target,
//! the one path an engagement's batteries take too.

use super::{Ctx, Mount, STANDS, ScenarioFile, face, unwritten_passengers};
use crate::command_decision::catalogue::{Afv, Catalogue};
use crate::command_decision::fire::{FireResolution, Volley};
use crate::command_decision::settings::{ArtilleryResponseReading, Settings};
use crate::command_decision::tables::Tables;
use crate::ruleset::SetUp;
use crate::setup::{Sum, choice, distinct, named, required, unwritten_count};
use combat_odds_core::document::Document;
use combat_odds_core::error::Result;
use combat_odds_core::tables::Side;

pub(super) fn indirect_fire(doc: &Document, s: ScenarioFile, tables: &Tables, catalogue: &Catalogue) -> Result<SetUp> {
    if let Some(a) = &s.artillery {
        unwritten_count(doc, &a.get_ref().stands, "artillery", "stands", STANDS);
    }
    unwritten_passengers(doc, &s.target);
    let (fire, notes) = indirect_fire_resolution(doc, "indirect_fire", s, tables, catalogue)?;
    Ok(SetUp { experiment: Box::new(fire), notes })
}

/// An indirect fire mission at one target stand compiled to its resolution and notes:
/// the one path every mission takes, whether a scenario asks for it or an engagement's
/// battery fires at each stand under its burst. `kind` is the scenario's, for the
/// settings it may set.
pub(in crate::command_decision) fn indirect_fire_resolution(
    doc: &Document,
    kind: &str,
    s: ScenarioFile,
    tables: &Tables,
    catalogue: &Catalogue,
) -> Result<(FireResolution, Vec<String>)> {
    let settings = Settings::resolve(doc, &s.settings, kind)?;
    let mut cx = Ctx { doc, tables, notes: Vec::new() };
    let a = required(doc, s.artillery, "[artillery]", "indirect_fire")?;
    let raw_target = required(doc, s.target, "[target]", "indirect_fire")?;
    let who = a.name.clone().unwrap_or_else(|| "artillery".into());
    if let Some(under) = &a.under_burst {
        return Err(doc.error_at(
            under.span().start,
            "`under_burst` places an engagement's battery; a single mission fires at its [target]: leave it out",
        ));
    }
    let weapon = cx.weapon(catalogue, &who, (&a.weapon, a.weapon_data))?;
    let Some(idf) = weapon.idf else {
        return Err(doc.error(format!(
            "{who}: weapon `{}` has no IDF data (burst and HE value); pick a weapon with `idf`",
            weapon.name
        )));
    };
    let quality = cx.quality(&a.quality)?;
    let stands = cx.stands(&a.stands)?;
    let moving = raw_target.moving;
    let target = cx.target(raw_target, catalogue, &tables.indirect_fire, true)?;
    let response_chart = &tables.artillery_response;
    let kind = choice(cx.doc, Some(&a.artillery), "artillery type", &["organic", "supporting"], "organic")?;
    let automatic = [
        ("elite_veteran", "from the firer's quality"),
        ("trained_green", "from the firer's quality"),
        ("vs_weak_afv", "from the target"),
        ("vs_all_afv", "from the target"),
    ];
    let mut response = Sum::new(if kind == "organic" { response_chart.organic } else { response_chart.supporting });
    if quality.veteran_or_elite() {
        response.add("elite_veteran", response_chart.modifiers.get("elite_veteran").value(1));
    }
    if quality.trained_or_green() {
        response.add("trained_green", response_chart.modifiers.get("trained_green").value(1));
    }
    let idf_chart = &tables.indirect_fire;
    let mut hit = Sum::new(idf.he);
    distinct(doc, &a.modifiers)?;
    for name in &a.modifiers {
        let m = named(cx.doc, name, &[&response_chart.modifiers, idf_chart], &automatic, Some(Side::Firer))?;
        if response_chart.modifiers.rows().iter().any(|r| r.name == m.name) {
            response.add(&m.name, m.value(1));
        } else {
            hit.add(&m.name, m.value(1));
        }
    }
    if let Some(afv) = target.afv() {
        if afv == Afv::Weak {
            hit.add("vs_weak_afv", idf_chart.get("vs_weak_afv").value(1));
        }
        let weight = target.vehicle.as_ref().map_or(0, |v| v.weight_class);
        hit.add("vs_all_afv", idf_chart.get("vs_all_afv").value(weight));
    }
    for (name, _) in &target.modifiers {
        hit.add(name, idf_chart.get(name).value(1));
    }
    let succeeds: Option<[bool; 10]> = if a.self_observed {
        cx.notes.push(format!("{who}: self-observed, so no artillery response roll"));
        None
    } else {
        let n = response.total();
        let (reading, ok): (&str, [bool; 10]) = match settings.artillery_response {
            ArtilleryResponseReading::RollAtMost => ("a d10 at or below", std::array::from_fn(|i| face(i) <= n)),
            ArtilleryResponseReading::RollAtLeast => ("a d10 at or above", std::array::from_fn(|i| face(i) >= n)),
        };
        cx.notes.push(format!("{who}: {kind} artillery responds on {reading} {}", response.describe()));
        Some(ok)
    };
    let attacks = if moving { 1 } else { weapon.rof };
    cx.notes.push(format!(
        "{who}: {stands} x {}, HE burst {}\"/{}; {} attack(s) per stand{}",
        weapon.label,
        idf.burst,
        idf.he,
        attacks,
        if moving { " (moving target: one attack per stand)" } else { "" }
    ));
    cx.notes.push(format!("  hit number {}", hit.describe()));
    cx.notes.push(format!("  effect: d10 on the {} row of the Hit Results Chart", target.quality));
    let effect = cx.plain_effect(tables.hit_row(target.quality));
    let ammo = cx.ammo(&weapon, Mount::Towed);
    cx.notes.push("target is suppressed whenever the mission arrives (in the HE template)".into());
    let volley = Volley { dice: attacks * stands, hit_at_most: hit.total(), effect, ammo };
    let passengers = cx.passenger_effects(&target);
    Ok((FireResolution::new(vec![volley], succeeds, passengers, true), cx.notes))
}
