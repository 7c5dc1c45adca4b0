//! An engagement scenario read and compiled into an [`McBattle`] before the first turn:
//! its groups, reaction rows and settings checked where they stand, and each entry's
//! point-to-point or area fire compiled through the scenarios' own paths (MC-E1 to
//! MC-E11).

use serde::Deserialize;
use toml::Spanned;

use super::fire::Attack;
use super::reaction::ReactionChart;
use super::{CM, Kind, McBattle};
use crate::engagement::scenario::{self, NamedCompany, NoSupport};
use crate::engagement::target::{Fires, Targeting};
use crate::engagement::{Engagement, SIDES, enemy, turn_order};
use crate::mission_command::catalogue::{Catalogue, RawWeapon, Weapon};
use crate::mission_command::fire::{Counts, Fire, Shot, effect_by_face};
use crate::mission_command::scenario::{
    AreaAim, Ctx, MAX_MARKERS, QUALITIES, REACTION_FROM_QUALITY, RawAreaFire, Target, face_text,
};
use crate::mission_command::settings::{MarkersCome, RawSettings, Settings, SideBroken, TemplateCovers};
use crate::mission_command::tables::{BUILDING_RESULTS, CASUALTY_COLUMNS, Tables};
use crate::setup::{Sum, choice};
use combat_odds_core::document::Document;
use combat_odds_core::engine::Measure;
use combat_odds_core::error::Result;

/// Reaction rows the fight's own state gives (MC-E10), counted from it unless the
/// setting `derived_reaction_rows = "named"` lets a unit name them for the whole fight.
const DERIVED_REACTION: [(&str, &str); 3] = [
    ("under_fire_from_afv_within_15cm", "an enemy AFV fired at the group at 15cm or less in the enemy turn just ended"),
    ("enemy_seen_retreating", "an enemy group is retreating or routed at the test"),
    (
        "friendly_moved_away_from_enemy",
        "an element of the side took a Cease fire, Retreat or Rout result at 15cm or less in its last turn",
    ),
];
/// Reaction rows that stay standing conditions in an engagement, noted when named:
/// the fight does not track who has located whom, nor salvo, flame or air attacks.
const STANDING_REACTION: [&str; 2] = ["under_fire_from_unlocated", "under_salvo_flame_or_air_attack"];
/// Reaction rows the engagement counts from the field at each test (the quality rows
/// come from the unit's `quality`, as in a reaction scenario).
const COUNTED_REACTION: [(&str, &str); 3] = [
    ("element_suppressed", "counted at each test from the group's suppressed elements"),
    ("element_eliminated", "counted at each test from the group's eliminated elements"),
    ("retreating", "from the group's own retreat result"),
];
/// Reaction rows an engagement does not track (MC-E6), refused with the reason.
const UNTRACKED_REACTION: [&str; 2] = ["enemy_afv_knocked_out", "friendly_afv_knocked_out"];

/// "Firer has been under HE area fire in the previous enemy turn" (-2 to hit): set by
/// the templates of the fight (MC-E11).
const UNDER_HE: &str = "under_he_area_fire";

/// A structure's strengths in Area Fire Convert to Casualties and KO - Buildings
/// and Fortifications are read for entries in this casualty column.
const FORTIFIED: &str = "fortified";

/// To-hit rows for opportunity fire, which an engagement does not fight (MC-E9).
const OPPORTUNITY: [&str; 2] = ["opp_fire_foot_moving_fast", "opp_fire_came_into_view"];

/// A unit entry: a group of `count` identical elements, each firing as a
/// point-to-point `[[firer]]` and fired at as a `[target]`, testing reaction as a
/// `[group]`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawGroup {
    name: Spanned<String>,
    count: Option<Spanned<i64>>,
    company: Option<Spanned<String>>,
    weapon: Option<Spanned<String>>,
    weapon_data: Option<Spanned<RawWeapon>>,
    quality: Option<Spanned<String>>,
    #[serde(default)]
    engineers: bool,
    #[serde(default)]
    out_of_command: bool,
    situation: Option<Spanned<String>>,
    armour_class: Option<Spanned<i64>>,
    /// Area fire instead of point-to-point fire (MC-E11).
    area_fire: Option<Spanned<RawAreaFire>>,
    /// The strength of the structure a fortified entry holds (MC-E11).
    structure: Option<Spanned<String>>,
    #[serde(default)]
    fire_modifiers: Vec<Spanned<String>>,
    #[serde(default)]
    target_modifiers: Vec<Spanned<String>>,
    #[serde(default)]
    reaction_modifiers: Vec<Spanned<String>>,
}

scenario::unit_entry!(RawGroup);

#[derive(Deserialize)]
struct SettingsOnly {
    #[serde(default)]
    settings: RawSettings,
}

/// How an entry fires.
enum Firing<'t> {
    /// Point to point, with this weapon and these to-hit modifiers.
    Point(crate::mission_command::catalogue::Weapon, Sum),
    /// Area fire, aimed by the system it names in the table against AFVs and in the
    /// one against buildings (`None` where that table has no such system).
    Area(Option<AreaAim<'t>>, Option<AreaAim<'t>>),
}

/// One entry compiled: what it fires, how it is fired at.
struct Entry<'t> {
    who: String,
    /// Where the entry is written, for a refusal.
    at: usize,
    count: u32,
    firing: Firing<'t>,
    quality: &'static str,
    engineers: bool,
    target: Target,
    target_modifiers: Vec<(String, i32)>,
    /// The strength of the structure a fortified entry holds (an index into the
    /// buildings table's structures).
    structure: Option<usize>,
}

/// The engagement a scenario sets up, with the notes its set-up wrote.
pub(super) fn engagement(
    doc: &Document,
    tables: &Tables,
    catalogue: &Catalogue,
) -> Result<(Engagement<McBattle>, Vec<String>)> {
    let mut setup = scenario::read::<RawGroup, NamedCompany, NoSupport>(doc, CM)?;
    let settings = Settings::resolve(doc, &doc.parse::<SettingsOnly>()?.settings, "engagement")?;
    let mut cx = Ctx { doc, tables, settings, notes: Vec::new() };
    let broken = match settings.side_broken {
        SideBroken::AllRouted => "every group left routed",
        SideBroken::AllRetreatingOrRouted => "every group left retreating or routed",
    };
    let mut notes = vec![format!(
        "{} turns at most, range {}; targets: {}; ends when a side is {}; {} plays first",
        setup.turns,
        setup.schedule.describe(CM),
        setup.targets,
        match (setup.end.eliminated, setup.end.broken) {
            (true, true) => format!("eliminated or broken ({broken})"),
            (true, false) => "eliminated".to_string(),
            _ => format!("broken ({broken})"),
        },
        setup.layout.sides[setup.first].name
    )];
    let mut entries: [Vec<Entry>; 2] = [Vec::new(), Vec::new()];
    let mut kinds: [Vec<Kind>; 2] = [Vec::new(), Vec::new()];
    for side in SIDES {
        for (g, raw) in setup.units[side].iter_mut().enumerate() {
            let at = raw.span().start;
            let raw = raw.get_mut();
            let who = format!("unit `{}`", raw.name.get_ref());
            refuse_conditions(doc, &settings, raw)?;
            let quality = choice(doc, raw.quality.as_ref(), "quality", &QUALITIES, "regular")?;
            let (firing, label) = match &raw.area_fire {
                Some(area) => {
                    let (afv, building) = cx.area_aims(area.get_ref())?;
                    let label =
                        afv.as_ref().or(building.as_ref()).expect("one table has the system").system.label.clone();
                    (Firing::Area(afv, building), format!("area fire: {label}"))
                }
                None => {
                    let weapon = cx.weapon(catalogue, &who, (&raw.weapon, raw.weapon_data.take()))?;
                    let fire = cx.firer_modifiers(&who, &weapon, 0, &raw.fire_modifiers)?;
                    let label = weapon.label.clone();
                    (Firing::Point(weapon, fire), label)
                }
            };
            let (target, target_modifiers) =
                cx.target((&raw.situation, &raw.armour_class), &raw.target_modifiers, false, (Some(at), &who))?;
            let structure = structure_held(doc, tables, raw, target)?;
            let mut reaction = Sum::new(0);
            cx.reaction_quality(&mut reaction, quality, raw.out_of_command);
            let automatic: Vec<_> = REACTION_FROM_QUALITY.iter().chain(&COUNTED_REACTION).copied().collect();
            cx.reaction_named(&mut reaction, &raw.reaction_modifiers, &automatic)?;
            notes.push(format!(
                "{}: {label}, {quality}{}, {}{}; reaction modifiers {}",
                raw.name.get_ref(),
                if raw.engineers { " engineers" } else { "" },
                match target {
                    Target::Casualty(c) => format!("fired at as {}", CASUALTY_COLUMNS[c]),
                    Target::Armour(ac) => format!("an AFV of armour class {ac}"),
                },
                structure
                    .map_or(String::new(), |si| format!(" in a {} structure", tables.area_buildings.structures[si])),
                reaction.describe_modifiers()
            ));
            for m in raw.reaction_modifiers.iter().filter(|m| STANDING_REACTION.contains(&m.get_ref().as_str())) {
                notes.push(format!(
                    "{}: `{}` applies at every test: the fight does not track who has located whom, nor salvo, flame or air attacks (MC-E10)",
                    raw.name.get_ref(),
                    m.get_ref()
                ));
            }
            kinds[side].push(Kind { afv: matches!(target, Target::Armour(_)), reaction: reaction.modifiers() });
            entries[side].push(Entry {
                who,
                at,
                count: setup.layout.sides[side].groups[g].count,
                firing,
                quality,
                engineers: raw.engineers,
                target,
                target_modifiers,
                structure,
            });
        }
    }
    let shot_notes_from = notes.len();
    let fires = Fires::build(
        doc,
        (&setup.layout, &setup.schedule),
        CM,
        (|side, g| setup.units[side][g].span().start, |_, _| false),
        |side, firer, target, r| {
            let range = setup.schedule.ranges[r];
            let (f, t) = (&entries[side][firer], &entries[enemy(side)][target]);
            let quiet = cx.notes.len();
            let compiled = match &f.firing {
                Firing::Point(weapon, fire) => shot(&mut cx, f, (weapon, fire), t, range),
                Firing::Area(afv, building) => area_attack(&mut cx, (afv, building), f.at, t, range)?,
            };
            cx.notes.truncate(quiet);
            let Some((attack, p_kill, how)) = compiled else { return Ok(None) };
            notes.push(format!(
                "  {} at {}, {range}cm: {how}",
                setup.layout.sides[side].groups[firer].name,
                setup.layout.sides[enemy(side)].groups[target].name,
            ));
            Ok(Some((attack, p_kill)))
        },
    )?;
    notes[shot_notes_from..].sort();
    let targeting = Targeting::new(setup.targets, &fires);
    let most = setup.layout.sides.iter().flat_map(|s| &s.groups).map(|g| g.count as usize).max().unwrap_or(1);
    let chart = &tables.reaction.modifiers;
    let per = |name: &str| (0..=most).map(|n| chart.get(name).value(n as i32)).collect();
    let derived = |name: &str| if settings.reaction_rows_from_the_fight { chart.get(name).value(1) } else { 0 };
    let reaction_chart = ReactionChart {
        eliminated: per("element_eliminated"),
        suppressed: per("element_suppressed"),
        retreating: chart.get("retreating").value(1),
        afv_fire: derived(DERIVED_REACTION[0].0),
        enemy_retreating: derived(DERIVED_REACTION[1].0),
        moved_away: derived(DERIVED_REACTION[2].0),
    };
    if settings.reaction_rows_from_the_fight {
        for (name, how) in DERIVED_REACTION {
            notes.push(format!("reaction row `{name}` ({:+}) counted from the fight: {how}", chart.get(name).value(1)));
        }
    }
    let marker = tables.to_hit.modifiers.get("suppression_marker");
    let he_modifier = tables.to_hit.modifiers.get(UNDER_HE).value(1);
    notes.push(format!(
        "each suppression marker {:+} to hit; markers {}",
        marker.value(1),
        match settings.suppression_markers {
            MarkersCome::OffAfterOwnTurn => "come off at the end of the side's own turn",
            MarkersCome::Never => "stay on",
        }
    ));
    if entries.iter().flatten().any(|e| matches!(e.firing, Firing::Area(..))) {
        notes.push(format!(
            "area fire: a template covers {}; an element under it shoots at {he_modifier:+} in its next turn; a structure's destroyed level and the displacement of a D result are not tracked (MC-E11)",
            match settings.template_covers {
                TemplateCovers::WholeEntry => "every element left of the entry aimed at",
                TemplateCovers::AimedElement => "the element aimed at",
            }
        ));
    }
    let battle = McBattle {
        order: turn_order(setup.first),
        layout: setup.layout,
        schedule: setup.schedule,
        fires,
        targeting,
        kinds,
        chart: reaction_chart,
        marker_modifier: (0..=MAX_MARKERS as i32).map(|n| marker.value(n)).collect(),
        he_modifier,
        reaction: tables.reaction.clone(),
        settings,
    };
    notes.extend(cx.notes);
    Ok((Engagement::new(battle, setup.turns, setup.end), notes))
}

/// Conditions the engagement sets from the field, refused where a unit names them,
/// and keys that do not go together.
fn refuse_conditions(doc: &Document, settings: &Settings, raw: &RawGroup) -> Result<()> {
    let derived = |name: &str| DERIVED_REACTION.iter().find(|(n, _)| *n == name).map(|(_, how)| how);
    for m in raw.fire_modifiers.iter().chain(&raw.target_modifiers).chain(&raw.reaction_modifiers) {
        let name = m.get_ref().as_str();
        let why = if name == "suppression_marker" {
            "comes from the hits the element takes in an engagement".to_string()
        } else if name == UNDER_HE {
            "comes from the area fire the element lies under in an engagement (MC-E11)".to_string()
        } else if OPPORTUNITY.contains(&name) {
            "is for opportunity fire, which an engagement does not fight (MC-E9)".to_string()
        } else if UNTRACKED_REACTION.contains(&name) {
            "is not tracked in an engagement (MC-E6); leave it out".to_string()
        } else if let Some(how) = derived(name).filter(|_| settings.reaction_rows_from_the_fight) {
            format!(
                "is counted from the fight (MC-E10): {how}; leave it out, or set derived_reaction_rows = \"named\" to name it for the whole fight"
            )
        } else {
            continue;
        };
        return Err(doc.error_at(m.span().start, format!("modifier `{name}` {why}")));
    }
    if let Some(s) = &raw.situation
        && s.get_ref() == "moving_in_no_cover"
    {
        return Err(doc.error_at(
            s.span().start,
            "the \"Moving in no cover\" column is for opportunity fire, which an engagement does not fight (MC-E9); pick another situation",
        ));
    }
    if let Some(area) = &raw.area_fire {
        let who = raw.name.get_ref();
        if raw.weapon.is_some() || raw.weapon_data.is_some() {
            return Err(doc.error_at(
                area.span().start,
                format!("unit `{who}`: an element fires point to point (`weapon`) or area fire (`area_fire`), not both; drop one, or give each fire its own unit entry"),
            ));
        }
        if let Some(m) = raw.fire_modifiers.first() {
            return Err(doc.error_at(
                m.span().start,
                format!("unit `{who}`: area fire rolls no to-hit d20, so `fire_modifiers` do not apply; drop them"),
            ));
        }
    }
    Ok(())
}

/// The structure a fortified entry holds, from its `structure` (MC-E11); refused on
/// an entry that is not fortified.
fn structure_held(doc: &Document, tables: &Tables, raw: &RawGroup, target: Target) -> Result<Option<usize>> {
    let Some(s) = &raw.structure else { return Ok(None) };
    if target != Target::Casualty(CASUALTY_COLUMNS.iter().position(|c| *c == FORTIFIED).expect("a column")) {
        return Err(doc.error_at(
            s.span().start,
            format!(
                "unit `{}`: `structure` is the strength of the building or fortification a `situation = \"{FORTIFIED}\"` entry holds; set that situation or drop `structure`",
                raw.name.get_ref()
            ),
        ));
    }
    let names: Vec<&str> = tables.area_buildings.structures.iter().map(String::as_str).collect();
    let strength = choice(doc, Some(s), "structure strength", &names, "")?;
    Ok(names.iter().position(|n| *n == strength))
}

/// The point-to-point shot of entry `f` (its weapon and to-hit modifiers) at entry
/// `t` at `range`, through the same compilation as a point-to-point scenario, with
/// its kill chance and how it reads; `None` where the rules let it do nothing there
/// (out of reach, an N/A or "Area Fire" cell, no casualty row, or no effect on that
/// target).
fn shot(
    cx: &mut Ctx,
    f: &Entry,
    (weapon, fire): (&Weapon, &Sum),
    t: &Entry,
    range: f64,
) -> Option<(Attack, f64, String)> {
    let score = cx.score(&f.who, weapon, (f.quality, f.engineers), range).ok()?;
    let convert = cx.conversion(&f.who, weapon, &t.target, range).ok()??;
    let from = score - fire.modifiers() - t.target_modifiers.iter().map(|(_, v)| v).sum::<i32>();
    let effect = effect_by_face(1, &[(2, convert)]);
    let p_hit = f64::from((21 - from).clamp(0, 20)) / 20.0;
    let p_convert = f64::from((21 - convert).clamp(0, 20)) / 20.0;
    let how = format!("hits on {}, converts on {}", face_text(from), face_text(convert));
    Some((Attack::Point(Shot { hit_from: Some(from), effect, capped: true }), p_hit * p_convert, how))
}

/// The area fire of an entry aimed by `aims` (against AFVs, against buildings) at
/// entry `t` at `range` (the firer written at `firer_at`), through the same tables and [`Fire`] as the area fire
/// scenarios (MC-E11): at AFVs, a template over every AFV left of the entry; at a
/// fortified entry's structure, one d20 for the template. `None` where it cannot
/// reach or has no effect there, or `t` is neither (the seed gives area fire no
/// numbers against elements in the open).
fn area_attack(
    cx: &mut Ctx,
    (afv, building): (&Option<AreaAim>, &Option<AreaAim>),
    firer_at: usize,
    t: &Entry,
    range: f64,
) -> Result<Option<(Attack, f64, String)>> {
    let aim = match (t.target, t.structure) {
        (Target::Armour(_), _) => afv,
        (Target::Casualty(_), Some(_)) => building,
        _ => &None,
    };
    let Some(aim) = aim else { return Ok(None) };
    if aim.reach.is_some_and(|row| range > row.max_cm) {
        return Ok(None);
    }
    let (column, _) = aim.column(Some(range)).map_err(|(at, m)| cx.doc.error_at(at.unwrap_or(firer_at), m))?;
    let faces = |effect: &[u8; 20], level: u8| f64::from(effect.iter().filter(|&&l| l >= level).count() as u32) / 20.0;
    Ok(match (t.target, t.structure) {
        (Target::Armour(ac), _) => {
            let (effect, capped, text) = cx.afv_effect(column, ac, aim.bonus);
            if effect == [0; 20] {
                return Ok(None);
            }
            let cap = cx.tables.area_afv.max_kos_per_template;
            let one_roll = cx.settings.area_fire_one_roll_per_template;
            let shot = Shot { hit_from: None, effect, capped };
            let by_count = (1..=t.count as usize)
                .map(|n| {
                    let counts = Counts { hits: false, kills: Some(("kos", Some(cap))), one_roll };
                    Fire::new(Measure::new("template", ["no_ko", "ko"]), vec![shot.clone(); n], counts)
                })
                .collect();
            // At least one KO among the entry's AFVs, for ranking targets.
            let one = faces(&effect, 1);
            let p = if one_roll { one } else { 1.0 - (1.0 - one).powi(t.count as i32) };
            Some((Attack::Afv(by_count), p, format!("area fire, {text}; at most {cap} rolled KO per template")))
        }
        (_, Some(si)) => {
            let (effect, text) = cx.building_effect(column, si, aim.bonus);
            if effect == [0; 20] {
                return Ok(None);
            }
            let shot = Shot { hit_from: None, effect, capped: true };
            let counts = Counts { hits: false, kills: None, one_roll: false };
            let fire = Fire::new(Measure::new("structure", BUILDING_RESULTS), vec![shot], counts);
            // A casualty: C or D.
            Some((Attack::Building(fire), faces(&effect, 2), format!("area fire at the structure, {text}")))
        }
        _ => unreachable!("only AFVs and structures are aimed at"),
    })
}
